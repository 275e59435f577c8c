# Streams whose integers reach the ends prof-tsv(5) allows (written by
# tests/data/extreme.py): a capture of nearly 2^63 ns from -(2^63) + 1,
# or up to 2^63 - 1; kernels near 2^62 ns on two streams at once; waits,
# FLOPs and bytes of 2^63 - 1.  Every stage runs on them, chained, and
# exits 0, or 1 naming each total it cannot write (past 64 bits) after
# writing the rest; the sanitizer build of .ci/run finds no overflow.
# Percentiles, medians and averages of metrics that are never negative
# are never negative (prof-bubbles once printed a negative p90), the
# reports show such times in full, and prof-render's JSON formats are
# valid JSON.
# prof-steps is not run: these streams hold the windows it would make
# (its own extreme cases are in tests/prof-steps).
for s in lo hi; do
	echo "== extreme-$s"
	prev=$DATA/extreme-$s.tsv
	for t in prof-merge prof-bubbles prof-attrib prof-waitanchor \
	    prof-layers "prof-roofline -c h100" prof-verdict prof-cluster; do
		n=${t%% *}
		$t "$prev" >"$s.$n.tsv"
		echo "$n: exit $?"
		prev=$s.$n.tsv
	done
	awk -F '\t' '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
	    $1 == "metric" && $6 ~ /_(avg|median|p90|p95)$/ && $c["value"] ~ /^-/ {
		print "NEGATIVE: " $4 " " $6 " " $c["value"] }
	    $1 == "metric" && $4 == "npu:a" && $6 ~ /^(service_ns|largest_internal_bubble_ns|internal_bubble_total_ns)_(avg|median|p90|p95)$/ {
		print $6 "\t" $c["value"] }
	    $1 == "metric" && $4 == "npu:a" && $6 ~ /^capture_/ { print $6 "\t" $c["value"] }
	    $1 == "op" && $4 == "npu:a" {
		print "op " $6 "\tcalls " $c["calls"] "\tdur_total " $c["dur_total_ns"] \
		    "\tcost_total " $c["cost_total_ns"] "\tcost_avg " $c["cost_avg_ns"] }
	    $1 == "budget" && $4 == "npu:a" && $c["scope"] == "run" {
		print "budget " $6 "\t" $c["budget_ns"] "\t" $c["share_ratio"] }
	    $1 == "verdict" && $4 == "npu:a" { print "verdict " $6 "\t" $c["share_ratio"] }' \
	    "$prev"
	for f in md json text chrome svg arch; do
		prof-render -f $f "$prev" >"$s.$f" 2>"$s.$f.err"
		echo "prof-render -f $f: exit $?"
		cat "$s.$f.err"
	done
	# times of 2^63 ns shown in full (an 18th digit was once dropped)
	awk '/^### / {c = $0 == "### Capture"} c && /^\| npu:a/' "$s.md"
	python3 -c 'import json, sys
for f in sys.argv[1:]:
    json.load(open(f))' "$s.json" "$s.chrome" && echo "json and chrome: valid JSON"
done
