# A real torch_npu kernel_details.csv with AI_CPU kernels, HCCL kernels
# without a stream, and Wait Time.  Every op's calls, averages, cost,
# wait ratio, both ranks, the wait-anchor/wait-heavy/rank tags, the
# polluted set and the AI CPU masked ratios were checked against an
# independent python3 csv + decimal.Decimal computation (exact, ties by
# name): all 201 ops equal by name, all 43 by type (-t).
K="$CORPUS/ascend_torch_npu/msprof_analyze_ut/kernel_details_2023-11_llm_aicpu.csv"
[ -f "$K" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$K" | prof-waitanchor >out.tsv
echo '--- AI CPU kernels'
awk -v kind=kernel -v want=ts_ns,dur_ns,track,name,wait_ns,masked_ratio,tags -f "$f" out.tsv | awk -F'\t' 'NR == 1 || $7 ~ /AICPU/'
echo '--- the first 12 ops by cost, and every tagged op'
awk -v kind=op,metric -v want=kind,name,core,calls,dur_avg_ns,wait_avg_ns,cost_avg_ns,wait_ratio,rank_cost,rank_dur,masked_ratio,value,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $1 == "metric" || $9 <= 12 || $13 ~ /HOTSPOT|POLLUTION|AICPU|VARIABLE/'
echo '--- tag counts over all ops'
awk -v kind=op -v want=tags -f "$f" out.tsv | tail -n +2 | tr ',' '\n' | sed '/^$/d' | sort | uniq -c
echo '--- -t: ops by type (43 ops, checked the same way), the first 10 and the tagged'
prof-ingest -q "$K" | prof-waitanchor -t | awk -v kind=op -v want=name,type,core,calls,dur_avg_ns,wait_avg_ns,cost_avg_ns,wait_ratio,rank_cost,rank_dur,masked_ratio,tags -f "$f" |
    awk -F'\t' 'NR == 1 || $9 <= 10 || $12 ~ /HOTSPOT|AICPU/'
