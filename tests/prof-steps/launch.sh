# Host markers with launches (corr): step 2's first kernel was launched
# inside ProfilerStep#2, but step 1's last kernel, launched inside
# ProfilerStep#1, runs after the host has started step 2.  Step 2 starts
# when the device finishes step 1's work (170), never before its marker
# (100) and never after its own first kernel (180); each kernel counts in
# the step that launched it.  -H keeps the host markers' times.  A marker
# that launched nothing makes all of them fall back to host times.
{
	printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tcorr\n'
	printf 'step\t0\t100\t0\t1\tProfilerStep#1\tuser_annotation\t\n'
	printf 'host\t10\t5\t0\t1\tcudaLaunchKernel\tcuda_runtime\t1\n'
	printf 'host\t20\t5\t0\t1\tcudaLaunchKernel\tcuda_runtime\t2\n'
	printf 'kernel\t30\t60\t0\t7\tgemm\tkernel\t1\n'
	printf 'kernel\t90\t80\t0\t7\tgemm\tkernel\t2\n'
	printf 'step\t100\t100\t0\t1\tProfilerStep#2\tuser_annotation\t\n'
	printf 'host\t110\t5\t0\t1\tcudaLaunchKernel\tcuda_runtime\t3\n'
	printf 'kernel\t180\t10\t0\t7\tgemm\tkernel\t3\n'
} >l.tsv
prof-steps l.tsv | grep -v '^#' | awk -F'\t' '$1 != "metric" || $6 == "kernel_count"'
echo "-- host windows"
prof-steps -H l.tsv | awk -F'\t' '$1 == "window" || $6 == "kernel_count"'
echo "-- a marker without launches"
grep -v 'cuda_runtime	3$' l.tsv | prof-steps | awk -F'\t' '$1 == "window"'
