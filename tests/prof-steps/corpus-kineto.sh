# Real Kineto traces with host-side ProfilerStep markers: the windows and
# kernel counts; then the same traces with the markers deleted, where
# detection must find the iterations itself.  resnet50: the markers,
# moved to the device through the launch links, and detection agree on
# every boundary after the first, 1516 kernels per iteration.
# trace_diff: detection finds the period (1575 kernels) and, after the
# optimizer's kernels (Optimizer.step#FusedAdam.step, linked by corr),
# cuts where the device idles before the next step's data: the 6 marker
# steps, kernel for kernel.  mi300 (ROCm): the device copies of the
# markers disagree with the kernels the host ones launched, so the host
# ones are used, moved to the device; the 968 kernels launched before
# the capture are outside every step (the warnings on stderr), with the
# markers and without, and detection's steps are the marker steps.
[ -d "$CORPUS/pytorch_kineto" ] || exit 77
for t in kineto_tb_plugin/resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz \
    hta/trace_diff_control_a100_rank3of8.json.gz \
    tracelens/mi300_resnet_act_checkpoint_train.json.gz; do
	echo "== $t"
	prof-ingest -q "$CORPUS/pytorch_kineto/$t" >s.tsv
	for mode in markers detected; do
		echo "-- $mode"
		if [ $mode = markers ]; then cat s.tsv; else grep -v '^step	' s.tsv; fi |
		prof-steps | awk -F'\t' '
		    $1 == "window" { printf "%s %s %s %s %s", $2, $3, $6, $7, $NF }
		    $1 == "metric" && $6 == "kernel_count" { print " kernels=" $22 }
		    $6 == "step_detect_confidence" { print "confidence " $22 }'
	done
done
