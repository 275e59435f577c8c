# -k source on real traces: the kernels of a 2021 Kineto trace (ResNet-50,
# TensorBoard plugin: "Call stack" args on Operator events, kernels tied
# to their runtime call by correlation id only) grouped by the innermost
# user frame, the groups adding up to the task time; and the frame
# column prof-ingest writes for a torch_npu trace (Call stack args and
# python_function events), the most common frames.
f=$CORPUS/pytorch_kineto/kineto_tb_plugin/resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz
a=$CORPUS/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level1/rank0_ascend_pt
[ -r "$f" ] && [ -d "$a" ] || exit 77
prof-ingest -q "$f" | prof-ops -k source -n 5 >run.tsv || exit 1
awk -v kind=opgroup -v want=name,rank,calls,dur_total_ns,share_ratio \
    -f "$top_srcdir/tests/cols.awk" run.tsv
g=$(awk -v kind=opgroup -v want=dur_total_ns -f "$top_srcdir/tests/cols.awk" run.tsv |
    awk 'NR > 1 { s += $1 } END { print s }')
k=$(awk -F'\t' '$1 == "kernel" { s += $3 } END { print s }' run.tsv)
echo "groups add up to $g ns of the kernels' $k ns"
[ "$g" = "$k" ] || exit 1
prof-ingest -q "$a" | awk -v kind=host -v want=kind,cat,frame \
    -f "$top_srcdir/tests/cols.awk" | awk -F'\t' '$3 != ""' |
    sort | uniq -c | sort -rn | head -n 6
