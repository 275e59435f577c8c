# Kineto writes a device-side copy of each ProfilerStep marker
# (gpu_user_annotation) on the kernels' clock: it is preferred to the
# host one, which runs ahead of the device.
{
	printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tstep\n'
	printf 'step\t0\t100\t0\t1\tProfilerStep#1\tuser_annotation\t1\n'
	printf 'step\t40\t100\t0\t7\tProfilerStep#1\tgpu_user_annotation\t1\n'
	printf 'kernel\t40\t50\t0\t7\tgemm\tkernel\t\n'
	printf 'step\t100\t100\t0\t1\tProfilerStep#2\tuser_annotation\t2\n'
	printf 'kernel\t110\t20\t0\t7\tgemm\tkernel\t\n'
	printf 'step\t140\t60\t0\t7\tProfilerStep#2\tgpu_user_annotation\t2\n'
	printf 'kernel\t140\t50\t0\t7\tgemm\tkernel\t\n'
} >d.tsv
prof-steps d.tsv | grep -v '^#' | awk -F'\t' '$1 != "metric" || $6 == "kernel_count"'
