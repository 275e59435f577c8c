# This program's labels, one 1000 ns bubble per rank, at their edges:
#   dev 0 input 0.5 (inclusive) -> input_pipeline_stall; dev 1 input
#   0.499 -> none; dev 2 a stream synchronize over 0.5 ->
#   host_sync_stall; dev 3 an operator over 0.6 with a launch of 60:
#   launch is 0.1 of launch+host -> launch_bound; dev 4 a launch of 59
#   -> host_cpu_work; dev 5 the same operator on a rank that records no
#   launch -> neither; dev 6 an optimizer Python frame over 0.5 (cpu
#   family; not host work, so the rules' untraced label too) ->
#   host_cpu_work; dev 7 launch+host 0.4 -> none.
in=$top_srcdir/tests/prof-attrib/labels.tsv
show() {
	awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
	    -v want=dev,idle_sync_ns,idle_input_ns,idle_launch_ns,idle_host_ns,idle_untraced_ns,labels
}
prof-attrib "$in" | show
# The thresholds as options: input at 0.4 (dev 1), launch share 0.2
# (dev 3 is host work), busy 0.7 (devs 3, 4 and 5 lose theirs), cpu 0.6
# (dev 6 loses it), sync stall 0.51 (dev 2 loses it).
for o in --input-min=0.4 --launch-share=0.2 --busy-min=0.7 --cpu-min=0.6 \
    --sync-stall-min=0.51; do
	echo "$o:"
	prof-attrib "$o" "$in" | show | sed 1d | cut -f 1,7
done
# In the summary (every bubble significant with -s 500), a bubble that
# names what the host did does not count for possible_host_launch_lag:
# dev 0 is input_pipeline_stall alone, dev 5 keeps the launch lag.
prof-attrib -s 500 "$in" | awk -v kind=cause -f "$top_srcdir/tests/cols.awk" \
    -v want=dev,name,scope,value,confidence
