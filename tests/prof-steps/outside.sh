# Kernels outside every step are counted and reported, never dropped
# silently.  A real capture (tests/data/SOURCES: a Qwen2 forward on an
# H100, ProfilerStep#6 on host and device): the device copy of the
# marker covers the kernels its host twin launched, so it is kept; the
# 509 kernels before it finish the forward that was launched before the
# capture (a cudaDeviceSynchronize waits for them).  Without markers,
# detection finds 34 layers in two passes, the first cut by the capture
# and launched before it (no launch record in the trace: outside every
# step); the second is the marker step, kernel for kernel.
. "$top_srcdir/tests/prof-steps/equiv.subr"
gzip -dc "$DATA/h100_qwen_steps.tsv.gz" >q.tsv
prof-steps q.tsv | awk -F'\t' '
    $1 == "window" { print $1, $2, $3, $6, $7, $NF }
    $1 == "metric" && ($6 == "kernel_count" || $6 ~ /outside/) {
	print $1, $6, $(NF - 2) }'
echo "-- without markers"
grep -v '^step	' q.tsv | prof-steps | awk -F'\t' '
    $1 == "window" { print $1, $2, $3, $6, $7, $NF }
    $1 == "metric" && ($6 == "period_count" || $6 == "kernel_count" ||
	$6 == "period_kernels") { print $1, $6, $(NF - 2), $NF }'
echo "-- with the markers, and without"
equiv q.tsv
echo "-- a kernel before the first marker"
{
	printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n'
	printf 'kernel\t0\t10\t0\t7\tlate\n'
	printf 'step\t20\t50\t0\t1\tProfilerStep#1\n'
	printf 'kernel\t30\t10\t0\t7\tgemm\n'
	printf 'kernel\t40\t5\t0\t7\tgemm\n'
	printf 'host\t60\t5\t0\t1\tcpu\n'
} | prof-steps | grep -v '^#' | awk -F'\t' '$1 != "metric" || $6 ~ /outside/'
