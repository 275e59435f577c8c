# A real PyTorch Kineto trace (ResNet-50 on CUDA, old category names,
# no Python frames): bubbles injected at kernel gaps of at least 0.2 ms
# in each ProfilerStep stand in for prof-bubbles.  Checked against a
# brute-force union over the same events, the partition and host_top
# too.  The prelaunch gaps are input_pipeline_stall (the DataLoader
# covers 99%), which the summary names instead of the launch lag; the
# 2 ms gap inside step 9 is aten::batch_norm running on the host without
# launching: host_cpu_work.  The trace's events carry 'Call stack' args
# (#evidence 0 shapes,stacks): no with_stack follow-up.
f=$CORPUS/pytorch_kineto/kineto_tb_plugin/resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz
[ -r "$f" ] || exit 77
prof-ingest -q "$f" >in.tsv || exit 1
awk -v min=200000 -f "$top_srcdir/tests/prof-attrib/inject.awk" in.tsv in.tsv >bub.tsv
prof-attrib bub.tsv | awk -F'\t' '$1 == "cause" ||
    ($1 == "bubble" && $3 >= 1000000)' | cut -f 1-4,6,26,28-
