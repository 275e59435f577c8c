# The bundled Ascend example (2 ranks, one step each) through the whole
# pipeline.  Each rank's only significant bubble is its 18-20 ms
# prelaunch gap, cut by the capture start: the main finding of a
# single-step capture, kept with boundary_caveat (the host copies the
# batch to the device: sync 0.41-0.42).  The other 90 gaps per rank,
# 0.17 of the step, while the host dispatches (launch+host 0.87), are
# one launch_bound finding.  The sources declare stacks and shapes: no
# follow-up.
d=$top_srcdir/examples/data/alexnet_2rank
prof-ingest -q "$d" | prof-steps | prof-merge | prof-bubbles | prof-attrib >out.tsv ||
    exit 1
awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
    -v want=dev,bubble_id,dur_ns,idle_sync_ns,idle_input_ns,idle_launch_ns,idle_host_ns,idle_untraced_ns,labels,host_top out.tsv |
    awk -F'\t' 'NR == 1 || $3 >= 1000000'
awk -v kind=cause -f "$top_srcdir/tests/cols.awk" \
    -v want=dev,name,scope,value,confidence,tags,followup,evidence out.tsv
awk -v kind=hostcov -f "$top_srcdir/tests/cols.awk" \
    -v want=dev,name,scope,step,host_class,covered_ns,share_ratio out.tsv
