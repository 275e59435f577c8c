# The ResNet-50 Kineto trace of the corpus (DataLoader with
# num_workers=0), through the whole pipeline: each of the six steps opens
# with a 48-69 ms prelaunch gap that one
# enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ event
# covers to 99%: input_pipeline_stall, and the DataLoader named first in
# host_top, in the causes and in hostcov.  The trace has no Python frames
# but 'Call stack' args, and input shapes: no follow-up.  The 1 us gaps
# of the steps (8280, 0.1 of the window time, mostly while the host runs
# zero_grad and the convolutions) are the second, launch_bound finding.
f=$CORPUS/pytorch_kineto/kineto_tb_plugin/resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz
[ -r "$f" ] || exit 77
prof-ingest -q "$f" | prof-steps | prof-merge | prof-bubbles | prof-attrib >out.tsv ||
    exit 1
awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
    -v want=bubble_id,dur_ns,idle_sync_ns,idle_input_ns,idle_launch_ns,idle_host_ns,idle_untraced_ns,labels,host_top out.tsv |
    awk -F'\t' 'NR == 1 || $2 >= 40000000'
awk -v kind=cause -f "$top_srcdir/tests/cols.awk" \
    -v want=name,scope,value,confidence,tags,followup,evidence out.tsv
awk -v kind=hostcov -f "$top_srcdir/tests/cols.awk" \
    -v want=name,scope,step,host_class,covered_ns,share_ratio out.tsv
# Every one of the 8286 bubbles: the partition adds up to dur_ns.
awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
    -v want=dur_ns,idle_sync_ns,idle_input_ns,idle_launch_ns,idle_host_ns,idle_untraced_ns out.tsv |
    awk -F'\t' 'NR > 1 {n++; if ($1 != $2 + $3 + $4 + $5 + $6) bad++}
	END {print n " bubbles, " bad + 0 " whose partition does not add up"}'
