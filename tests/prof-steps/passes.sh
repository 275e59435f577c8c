# Three passes of six layers, no marker: the six-layer period is the
# layer, the runs of layers between the embedding and the sampling
# kernels are passes, and each pass is a step (nothing above it
# repeats).  With one pass, one window.  -p forces the period of 7
# kernels to be taken as the step.
awk -f "$top_srcdir/tests/prof-steps/gen-passes.awk" >p.tsv
show() {
	awk -F'\t' '$1 == "window" { print $1, $2, $3, $6, $NF }
	    $1 == "metric" && ($6 ~ /^period_/ ||
		$6 == "step_detect_confidence") { print $1, $6, $(NF - 2), $NF }'
}
prof-steps p.tsv | show
echo "-- one pass"
awk -v p=1 -f "$top_srcdir/tests/prof-steps/gen-passes.awk" | prof-steps | show
echo "-- forced: --period=6"
prof-steps --period=6 p.tsv | show | head -n 4
echo "-- forced: -k embedding"
prof-steps -k embedding p.tsv | show
