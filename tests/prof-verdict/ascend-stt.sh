# On the bundled two-rank Ascend profile the budget's exposed and hidden
# communication per step must equal the profiler's own step_trace_time
# (Communication(Not Overlapped), Overlapped; microseconds with three
# decimals) within 0.01 ms, and each rank's verdict is communication.
d="$top_srcdir/examples/data/alexnet_2rank"
prof-ingest -q "$d" | prof-steps | prof-merge | prof-bubbles | prof-attrib |
    prof-waitanchor | prof-roofline | prof-verdict >s.tsv || exit 1
for r in 0 1; do
	awk -F, 'NR == 2 { printf "%d comm_hidden %.0f\n%d comm_exposed %.0f\n",
	    r, $4 * 1000, r, $3 * 1000 }' r=$r \
	    "$d/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"
done >want
awk -F'\t' '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$1 == "budget" && $c["scope"] == "run" &&
	    ($6 == "comm_exposed" || $6 == "comm_hidden") {
		print $4, $6, $c["per_step_ns"] }' s.tsv >got
paste -d' ' want got | awk '{ d = $3 - $6; if (d < 0) d = -d
	print $1, $2, (d <= 10000 ? "agrees" : "DIFFERS " $3 " " $6) }'
awk -F'\t' '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$1 == "verdict" && $c["scope"] == "run" {
		print $4, $6, $c["confidence"], $c["share_ratio"] }' s.tsv
