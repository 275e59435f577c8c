# Every FLOP and byte estimate, with peaks that make the arithmetic easy
# (bf16 1e12 FLOP/s: one FLOP is 1 ps; HBM 1e9 bytes/s: one byte is
# 1 ns).  Expected values, by hand (prof-roofline(1), ESTIMATES):
#  mm        [64,32] x [16,32]^T -> [64,16]: K = 32, 2*64*16*32 = 65536
#            FLOPs; bytes (2048 + 512 + 1024) * 2 = 7168; ai 9.142857;
#            memory roof 7168 ns > 65.536 ns: memory-bound, roofline
#            7168, shortfall 2832, mfu 0.006554, bw 0.7168
#  mmT       A transposed [32,64]: the same 65536
#  bmm       [4,64,32] x [4,32,16]: 2*4*64*16*32 = 262144
#  grouped   x [128,64], w [4,64,32] -> [128,32]: 2*128*32*64 = 524288
#  fa4       BNSD q [2,4,128,64], k [2,2,256,64]: 4*65536*256 = 67108864
#  fa3       SBH q [128,2,256], k [128,2,128], softmax [2,4,128,8]:
#            B = 2, Skv = 128*2/2 = 128: 4*65536*128 = 33554432
#  fia       BSH assumed q [2,1,256], k [2,512,128]: 4*512*512 = 1048576
#  tnd       q [300,4,64], softmax [300,4,8]: varlen, no FLOPs
#  fag       backward q [2,4,128,64], k [2,4,128,64]: 2.5 * 4*65536*128
#            = 83886080
#  conv      NCHW out [1,4,6,6], w [4,3,3,3]: 2*144*(108/4) = 7776
#  conv5     NC1HWC0 out [1,1,6,6,16], w [9,1,16,16]: 2*576*(2304/16)
#            = 165888; and the same for both backward ops
#  cast      100 fp32 in, 100 bf16 out: 0 FLOPs, 600 bytes
#  zeros     writes its 100 bf16 output only: 200 bytes
#  gather    table [1000,64] bf16, 10 int64 indices, out [10,64]:
#            2 * 1280 + 80 = 2640 bytes
#  add       [32,64] + [64] -> [32,64] bf16: 2048 FLOPs, 8320 bytes
#  tiny      [2,2] x [2,2]: 16 FLOPs, 24 bytes, 24 ns roof in 1000 ns:
#            below 10% of the roof: latency-bound
#  Kineto: addmm([16], [8,32], [32,16]) = 2*256*16 = 8192 FLOPs, bytes
#  1568 in + 128*2 out = 1824; linear([2,8,32], [16,32], [16]) =
#  2*512*16 = 16384, bytes 2080 + 512 = 2592; bmm([4,8,32], [4,32,16])
#  = 32768.  The addmm's GEMM kernel, 1000 ns, is above the roof
#  (1824 ns): an estimate or a chip that does not fit.  The Memset kernel does not take its FLOPs, its
#  GEMM kernel does, a third kernel of the same op is op_shared.
f="$top_srcdir/tests/cols.awk"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\tcorr\text\tin_shapes\tin_dtypes\tout_shapes\tout_dtypes\tflops\tbytes\n' >in.tsv
t=0
k() {	# name type dur in_shapes in_dtypes out_shapes out_dtypes
	t=$((t + 100000))
	printf 'kernel\t%s\t%s\t0\t1\t%s\t\t%s\t\t\t%s\t%s\t%s\t%s\t\t\n' $t "$3" "$1" "$2" "$4" "$5" "$6" "$7" >>in.tsv
}
B=DT_BF16
k mm MatMulV2 10000 '64,32;16,32' "$B;$B" '64,16' $B
k mmT MatMulV2 10000 '32,64;32,16' "$B;$B" '64,16' $B
k bmm BatchMatMulV2 1000000 '4,64,32;4,32,16' "$B;$B" '4,64,16' $B
k grouped GroupedMatmul 1000000 '128,64;4,64,32;4' "$B;$B;INT64" '128,32' $B
k fa4 FlashAttentionScore 1000000 '2,4,128,64;2,2,256,64;2,2,256,64' "$B;$B;$B" '2,4,128,8;2,4,128,8;;2,4,128,64' "FLOAT;FLOAT;$B;$B"
k fa3 FlashAttentionScore 1000000 '128,2,256;128,2,128;128,2,128' "$B;$B;$B" '2,4,128,8;2,4,128,8;;128,2,256' "FLOAT;FLOAT;$B;$B"
k fia FusedInferAttentionScore 1000000 '2,1,256;2,512,128;2,512,128' "$B;$B;$B" '2,1,256' $B
k tnd FlashAttentionScore 1000000 '300,4,64;300,4,64;300,4,64' "$B;$B;$B" '300,4,8;300,4,8;;300,4,64' "FLOAT;FLOAT;$B;$B"
k fag FlashAttentionScoreGrad 1000000 '2,4,128,64;2,4,128,64;2,4,128,64;2,4,128,64' "$B;$B;$B;$B" '2,4,128,64;2,4,128,64;2,4,128,64' "$B;$B;$B"
k conv Conv2D 10000 '1,3,8,8;4,3,3,3' "$B;$B" '1,4,6,6' $B
k conv5 Conv2D 10000 '1,1,8,8,16;9,1,16,16' "$B;$B" '1,1,6,6,16' $B
k dx Conv2DBackpropInput 10000 '4;9,1,16,16;1,1,6,6,16' "INT32;$B;$B" '1,1,8,8,16' $B
k dw Conv2DBackpropFilter 10000 '1,1,8,8,16;4;1,1,6,6,16' "$B;INT32;$B" '9,1,16,16' $B
k cast Cast 1000 '100' FLOAT '100' $B
k zeros ZerosLike 1000 '100' $B '100' $B
k gather GatherV2 10000 '1000,64;10' "$B;INT64" '10,64' $B
k add Add 10000 '32,64;64' "$B;$B" '32,64' $B
k tiny MatMulV2 1000 '2,2;2,2' "$B;$B" '2,2' $B
k fp32mm MatMulV2 10000 '64,32;16,32' 'FLOAT;FLOAT' '64,16' FLOAT
k foo Foo 10000 '100' $B '100' $B
k bad MatMulV2 10000 'a,b;c' "$B;$B" '' ''
# Communication kernels (by name in any case) are not rooflined.
k ncclDevKernel_AllReduce '' 10000 '' '' '' ''
k hcom_allGather_ '' 10000 '' '' '' ''
# The trace's own flops and bytes win over the estimate.
t=$((t + 100000))
printf 'kernel\t%s\t5000\t0\t1\ttraced\t\tMatMulV2\t\t\t64,32;16,32\t%s\t64,16\t%s\t2000000\t1000\n' $t "$B;$B" $B >>in.tsv
# Kineto: cpu_op (ext), launch (corr -> ext), kernels (corr).
h() {	# name ext shapes dtypes
	t=$((t + 100000))
	printf 'host\t%s\t10\t0\t9\t%s\tcpu_op\t\t\t%s\t%s\t%s\t\t\t\t\n' $t "$1" "$2" "$3" "$4" >>in.tsv
}
l() {	# corr ext
	t=$((t + 10))
	printf 'host\t%s\t5\t0\t9\tcudaLaunchKernel\tcuda_runtime\t\t%s\t%s\t\t\t\t\t\t\n' $t "$1" "$2" >>in.tsv
}
g() {	# name corr dur
	t=$((t + 1000))
	printf 'kernel\t%s\t%s\t0\t7\t%s\tkernel\t\t%s\t\t\t\t\t\t\t\n' $t "$3" "$1" "$2" >>in.tsv
}
BF='"c10::BFloat16"'
h aten::addmm 11 '[[16], [8, 32], [32, 16], [], []]' "[$BF, $BF, $BF, \"Scalar\", \"Scalar\"]"
l 101 11; l 102 11; l 103 11
h aten::linear 12 '[[2, 8, 32], [16, 32], [16]]' "[$BF, $BF, $BF]"
l 104 12
h aten::bmm 13 '[[4, 8, 32], [4, 32, 16]]' "[$BF, $BF]"
l 105 13
g 'Memset (Device)' 101 100
g sm90_xmma_gemm_bf16 102 1000
g sm90_xmma_gemm_bf16_splitk 103 1000
g ampere_bf16_gemm 104 100000
g cutlass_bmm 105 100000
g orphan 999 1000
prof-roofline --peak-flops bf16=1000000000000 --peak-bw 1000000000 in.tsv >out.tsv
awk -v kind=kernel -v want=name,dur_ns,src_op,flops,bytes,dtype,ai,bound,bound_src,mfu_ratio,bw_ratio,roofline_ns,shortfall_ns,tags -f "$f" out.tsv
echo '--- the peaks in use'
awk -v kind=metric -v want=name,chip,dtype,value -f "$f" out.tsv
