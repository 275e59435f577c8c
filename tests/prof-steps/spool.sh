# prof-steps reads its input twice; from a pipe it spools it (O_DIRECT
# where the file system takes it, or through the page cache with
# PROF_SPOOL_DIRECT=0).  Every way gives the bytes the regular file
# gives, on a stream of several of the spool's 1 MiB blocks whose
# length is not a multiple of its 4 KiB alignment (the #stage line
# names the arguments, so it is left out of the comparison).
same() { grep -v '^#stage ' "$1" >a.cmp; grep -v '^#stage ' "$2" >b.cmp; cmp a.cmp b.cmp; }
{
printf '#prof-tsv 1\n#origin_ns 1000000000\n'
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\n'
awk 'BEGIN {
	for (n = 1; n <= 2000; n++) {
		t = 1000000 * n
		printf "step\t%d\t900000\t0\t100\tProfilerStep#%d\tuser_annotation\n", t, n
		for (k = 0; k < 20; k++)
			printf "kernel\t%d\t%d\t0\t7\tgemm_kernel_%d_with_a_long_name\tkernel\n", t + 1000 + k * 40000, 20000 + k, k
	}
}'
} >in.tsv
echo "input: $(wc -c <in.tsv | tr -d ' ') bytes"
prof-steps in.tsv >file.out
echo "file: exit $?"
cat in.tsv | prof-steps >pipe.out
echo "pipe: exit $?"
same file.out pipe.out && echo 'pipe: same as the file'
cat in.tsv | PROF_SPOOL_DIRECT=0 prof-steps >buffered.out
same file.out buffered.out && echo 'PROF_SPOOL_DIRECT=0: same as the file'
mkdir -p spooldir
cat in.tsv | prof-steps -T spooldir >tdir.out
same file.out tdir.out && echo '-T: same as the file'
echo "spool left behind: $(ls spooldir | wc -l | tr -d ' ')"
grep -c '^window' file.out
