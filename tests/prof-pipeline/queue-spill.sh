# The output queue spills to $TMPDIR past PROF_QUEUE_MEMORY bytes of
# waiting lines: one step open over the whole capture makes every later
# line wait.  With a 4 KiB budget (so the queue spills and comes back
# many times, a 2 MiB name longer than the file's block among the lines)
# every stage of the pipeline writes byte for byte what it writes with
# everything in memory, and leaves no file behind in TMPDIR.
awk 'BEGIN {
	big = "x"
	while (length(big) < 2097152)
		big = big big
	printf "#prof-tsv 1\n#origin_ns 0\n"
	printf "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\tcore\tstep\twait_ns\n"
	printf "step\t0\t9000000\t0\t1\tProfilerStep#1\t\t\t\t1\t\n"
	for (i = 0; i < 3000; i++)
		printf "kernel\t%d\t1000\t0\t7\t%s\tkernel\tMatMul\tAI_CORE\t1\t0\n",
		    100 + i * 3000, i == 1500 ? big : "gemm_" i % 7
}' >in.tsv
mkdir tmp
for t in prof-steps prof-merge prof-bubbles prof-attrib prof-waitanchor \
    prof-roofline prof-layers prof-verdict; do
	PROF_QUEUE_MEMORY=100G $t <in.tsv >mem.tsv
	s1=$?
	TMPDIR=$PWD/tmp PROF_QUEUE_MEMORY=4K $t <in.tsv >spill.tsv
	s2=$?
	if cmp -s mem.tsv spill.tsv; then same=same; else same=DIFFERENT; fi
	echo "$t: exit $s1 $s2, output $same, $(grep -vc '^#' spill.tsv) lines"
	mv mem.tsv in.tsv
done
ls tmp | wc -l
PROF_QUEUE_MEMORY=lots prof-merge <in.tsv >/dev/null
echo "exit $?"
