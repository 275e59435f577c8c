# Older Kineto traces give the launch and the kernel the correlation id
# as External id, so the launch names no cpu_op: the kernel then takes
# the innermost cpu_op with an estimate that is open around its launch
# on the same thread.  aten::linear [0, 100) holds aten::addmm [10, 90)
# (2 * 8*32 * 16 = 8192 FLOPs), which launches at 20; a launch at 95
# is inside linear only ([2, 8, 32] x [16, 32]^T: 2 * 512 * 16 = 16384);
# a launch at 200 is inside nothing; a launch on another thread at 30
# does not see thread 9's ops.
f="$top_srcdir/tests/cols.awk"
BF='"c10::BFloat16"'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tcorr\text\tin_shapes\tin_dtypes\n' >in.tsv
r() { printf '%s\t%s\t%s\t0\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>in.tsv; }
r host 0 100 9 aten::linear cpu_op '' 1 '[[2, 8, 32], [16, 32]]' "[$BF, $BF]"
r host 10 80 9 aten::addmm cpu_op '' 2 '[[16], [8, 32], [32, 16], [], []]' "[$BF, $BF, $BF, \"Scalar\", \"Scalar\"]"
r host 20 5 9 cudaLaunchKernel cuda_runtime 5000 5000 '' ''
r host 30 5 8 cudaLaunchKernel cuda_runtime 5003 5003 '' ''
r host 95 3 9 cudaLaunchKernel cuda_runtime 5001 5001 '' ''
r host 200 5 9 cudaLaunchKernel cuda_runtime 5002 5002 '' ''
r kernel 300 1000 7 gemm_a kernel 5000 5000 '' ''
r kernel 1400 1000 7 gemm_c kernel 5003 5003 '' ''
r kernel 2500 1000 7 gemm_b kernel 5001 5001 '' ''
r kernel 3600 1000 7 gemm_orphan kernel 5002 5002 '' ''
prof-roofline -c h100 in.tsv | awk -v kind=kernel -v want=name,src_op,flops,bytes,tags -f "$f"
