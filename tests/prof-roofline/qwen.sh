# The Qwen pipeline-parallel training run (torch_npu kernel_details with
# shapes, dtypes and PMU ratios), rank 0, against the 910B3 peaks
# (313 TFLOP/s bf16, 1.6 TB/s).  Checked independently below with awk
# over the stream prof-ingest wrote (shapes -> FLOPs, FLOPs -> MFU), and
# by hand for one MatMulV3: [4096,1024] x [4096,1024]^T -> [4096,4096]
# is K = 1024, FLOPs = 2 * 4096 * 4096 * 1024 = 34359738368; bytes =
# (2 * 4096 * 1024 + 4096 * 4096) * 2 = 50331648; ai = 682.666667;
# dur 170400 ns: MFU = 34359738368e9 / (170400 * 313e12) = 0.644223
# (0.6442225...); roofline = 34359738368 / 313e3 = 109776 ns (compute
# roof, above the 31457 ns memory roof), shortfall 60624 ns.
Q="$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11/rank_0_ascend_pt"
[ -d "$Q" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$Q" >in.tsv
prof-roofline -c 910b3 in.tsv >out.tsv
echo '--- the first MatMulV3 and FlashAttentionScore kernels'
awk -v kind=kernel -v want=dur_ns,type,flops,bytes,dtype,ai,bound,bound_src,pipe_bound,pipe_ratio,mfu_ratio,bw_ratio,roofline_ns,shortfall_ns,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || ($2 == "MatMulV3" && m++ < 2) || ($2 ~ /^FlashAttention/ && a++ < 2)'
echo '--- independent check: GEMM FLOPs from shapes, MFU from FLOPs'
awk -v kind=kernel -v want=type,dur_ns,in_shapes,out_shapes,flops,mfu_ratio -f "$f" out.tsv |
    awk -F'\t' 'NR > 1 && $1 ~ /^MatMulV[23]$/ {
	split($3, t, ";"); split(t[1], a, ","); split($4, o, ",")
	k = a[1] == o[1] ? a[2] : a[1]
	fl = 2 * o[1] * o[2] * k
	n++; if (fl == $5) okf++
	mfu = fl * 1e9 / ($2 * 313e12)
	if (sprintf("%.6f", mfu) + 0 == $6 + 0) okm++
    } END { printf "matmul kernels %d, flops agree %d, mfu agree %d\n", n, okf, okm }'
awk -v kind=kernel -v want=type,in_shapes,flops -f "$f" out.tsv |
    awk -F'\t' '$1 == "FlashAttentionScore" { split($2, t, ";"); split(t[1], q, ",")
	n++; if (4 * q[1] * q[2] * q[3] * 4096 == $3) ok++ }
	$1 == "FlashAttentionScoreGrad" { split($2, t, ";"); split(t[1], q, ",")
	g++; if (10 * q[1] * q[2] * q[3] * 4096 == $3) okg++ }
	END { printf "attention fwd %d agree %d (4 * numel(q) * 4096), bwd %d agree %d (2.5x)\n", n, ok, g, okg }'
echo '--- op roof records (top 8 by time; PMU-classed where no roofline)'
w=dev,name,dtype,flops,bytes,ai,ridge,bound,mfu_ratio,bw_ratio,roofline_ns,shortfall_ns,calls,dur_total_ns,cov_ratio,tags
awk -v kind=roof -v want=scope,$w -f "$f" out.tsv | awk -F'\t' 'NR == 1 || ($1 == "op" && n++ < 8)'
echo '--- step, run, bottleneck and peak records'
awk -v kind=roof,bottleneck,metric -v want=kind,scope,step,dev,name,chip,dtype,flops,ai,bound,mfu_ratio,bw_ratio,roofline_ns,dur_total_ns,cov_ratio,value,evidence,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || ($2 != "op" && $5 !~ /^profiler/)'
echo '--- kernels passed through: same count, same input columns'
grep -c '^kernel' in.tsv
grep -c '^kernel' out.tsv
