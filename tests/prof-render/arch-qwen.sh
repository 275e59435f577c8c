# The architecture report (-f arch) of the corpus's Qwen pipeline-
# parallel training run (PP2 x DP2, four ranks; rank 0, the first
# pipeline stage, has kernels, rank 1 communication only): two forward
# and two backward passes of 14 layers.  After the report, figures of it
# are checked against the profiler's own CSV files with awk,
# independently of prof-ingest and prof-layers: the attention kernels
# per direction, their grouping into passes (a new pass after a
# pipeline send/receive or a change of direction), the kernel count and
# extent, and the communication time of step_trace_time.csv.
d=$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11
o=$d/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT
[ -f "$o/kernel_details.csv" ] || exit 77
prof-ingest -q "$d" | prof-steps | prof-layers >run.tsv || exit 1
prof-render -f arch run.tsv >report.md || exit 1
cat report.md
echo '--- -o writes the same report under its documented name'
prof-render -o out -f arch run.tsv || exit 1
ls out
cmp -s report.md out/model_architecture_report_msinsight_qwen_llm_pp2dp2_4rank_2025-11.md &&
    echo 'same as standard output'

echo '--- checked against the CSV files'
# start_ns,end_ns,name,type in ns since the first kernel (the last 12
# integer digits of the microseconds are exact in awk), in time order.
tail -n +2 "$o/kernel_details.csv" | awk -F, '{ t = $10; sub(/[\t ]+$/, "", t)
	split(t, p, "."); split($11, q, ".")
	s = substr(p[1], length(p[1]) - 11) p[2]
	printf "%s,%d,%s,%s\n", s, q[1] * 1000 + substr(q[2] "000", 1, 3), $6, $7 }' |
    sort -s -t, -k1,1n | awk -F, 'NR == 1 { t0 = $1 }
	{ printf "%d,%d,%s,%s\n", $1 - t0, $1 - t0 + $2, $3, $4 }' >csv.txt
same() { if cmp -s "$1" "$2"; then echo agree; else echo DISAGREE; fi; }
awk -F, '$4 == "FlashAttentionScore" { f++ } $4 == "FlashAttentionScoreGrad" { b++ }
    { n++; if ($2 > end) end = $2 }
    END { printf "%d forward and %d backward attention kernels, %d kernels, extent %.3f ms\n", f, b, n, end / 1e6 }' csv.txt | tee a
awk -F'|' '$2 == " Dense " && $3 ~ /forward|backward/ { gsub(/ /, "", $3); gsub(/ /, "", $5); c[$3] = $5 }
    $2 == " Kernels " { gsub(/ /, "", $3); n = $3 }
    $2 == " Capture " { sub(/.*span /, "", $3); sub(/ ms.*/, "", $3); sp = $3 }
    END { printf "%d forward and %d backward attention kernels, %d kernels, extent %s ms\n", c["forward"], c["backward"], n, sp }' report.md >b
same a b
awk -F, '
{ m = $4 == "FlashAttentionScore" || $4 == "FlashAttentionScoreGrad" }
$3 ~ /^hcom_batchSendRecv/ { sr = 1 }
m {
	dir = $4 == "FlashAttentionScore" ? "forward" : "backward"
	if (g == 0 || sr || dir != dirs[g]) { g++; dirs[g] = dir; sr = 0 }
	if (!(g in first)) first[g] = i
	last[g] = i++
}
END { printf "passes:"; for (k = 1; k <= g; k++) printf " %s #%d–#%d", dirs[k], first[k], last[k]; print "" }' csv.txt | tee a
awk -F'|' '$4 ~ /^ (first|gap|direction|step|phase|sampling) $/ { gsub(/ /, "", $3); gsub(/ /, "", $5); s = s " " $3 " " $5 }
    END { print "passes:" s }' report.md >b
same a b
awk -F, 'NR == 2 { printf "communication %.3f ms\n", $6 / 1000 }' "$o/step_trace_time.csv" | tee a
awk -F'|' '$3 == " comm " { gsub(/ /, "", $5); print "communication " $5 " ms" }' report.md >b
same a b
echo '--- after prof-roofline too (its peaks_known metric has no dev): the same report but the stages'
prof-ingest -q "$d" | prof-steps | prof-layers | prof-roofline 2>/dev/null |
    prof-render -f arch | diff report.md -
