# Macro-steps: two training steps of two micro-batches each, no marker
# (gen-train.awk).  The micro-batch repeats four times, but an optimizer
# step (linked by corr to its host annotation) ends only every second
# one: the micro-batch is a pass, two passes to a step, and the steps end
# after the optimizer's kernels.  The layer nested in the micro-batch
# (3 per pass) is reported too.  With one micro-batch per step the
# period is the step itself.
show() {
	awk -F'\t' '$1 == "window" { print $1, $2, $3, $6, $NF }
	    $1 == "metric" && ($6 == "kernel_count" || $6 == "period_count" ||
		$6 == "period_kernels" || $6 == "step_detect_confidence") {
		print $1, $6, $(NF - 2), $NF }'
}
awk -f "$top_srcdir/tests/prof-steps/gen-train.awk" | prof-steps | show
echo "-- one micro-batch per step, three steps"
awk -v a=1 -v s=3 -f "$top_srcdir/tests/prof-steps/gen-train.awk" |
    prof-steps | show
