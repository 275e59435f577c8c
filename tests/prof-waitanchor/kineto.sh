# A real Kineto GPU trace: no wait_ns (wait columns empty, cost = duration,
# said by wait_recorded 0), no AI CPU, NCCL kernels seen as communication.
T="$CORPUS/pytorch_kineto/hta/queue_length_a100_80gb_rank0of16.json.gz"
[ -f "$T" ] || exit 77
prof-ingest -q "$T" | prof-waitanchor >out.tsv
awk -v kind=op,metric -v want=kind,dev,name,calls,dur_avg_ns,wait_avg_ns,cost_avg_ns,cost_total_ns,wait_ratio,rank_cost,rank_dur,value,tags -f "$top_srcdir/tests/cols.awk" out.tsv |
    awk -F'\t' -v OFS='\t' 'NR == 1 || $1 == "metric" || $10 <= 8 { $3 = substr($3, 1, 40); print }'
echo "kernels $(grep -c '^kernel' out.tsv) ops $(grep -c '^op' out.tsv) tagged $(awk -F'\t' '$1 == "kernel" || $1 == "op"' out.tsv | grep -c -E 'WAIT|AICPU')"
