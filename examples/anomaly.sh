# The anomaly pipeline on the bundled two-rank Ascend profile, summarised
# with awk: per-step idle time, the five longest bubbles with the kernels
# around them and their candidate causes, the soft root-cause summary,
# and the three most expensive ops of each rank by average cost per call
# (duration + wait).
# From any directory: the data is found beside this script.
cd "$(dirname "$0")" || exit 1
prof-ingest -q data/alexnet_2rank | prof-steps | prof-merge |
    prof-bubbles | prof-attrib | prof-waitanchor |
awk -F'\t' '
function ms(ns) { return sprintf("%.3f", ns / 1e6) }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
$1 == "window" { tags[$4] = $c["tags"] }
$1 == "metric" && $c["step"] != "" { m[$4, $c["name"]] = $c["value"] }
$1 == "bubble" {
	# Keep the five longest, earlier first among equals.
	line = sprintf("%s\t%s\t%s\t%s\t%s -> %s\t%s", ms($3), $4, $6,
	    ms($2), $c["prev_name"], $c["next_name"], $c["labels"])
	for (i = 1; i <= 5; i++)
		if (!(i in bd) || $3 + 0 > bd[i]) {
			for (j = 5; j > i; j--)
				if ((j - 1) in bd) { bd[j] = bd[j - 1]; bl[j] = bl[j - 1] }
			bd[i] = $3 + 0; bl[i] = line
			break
		}
}
$1 == "cause" {
	causes = causes sprintf("rank %s\t%s\t%s\t%s\t%s\n", $4, $c["scope"],
	    $6, $c["confidence"], $c["tags"])
}
$1 == "op" && $c["rank_cost"] + 0 <= 3 {
	ops[$4, $c["rank_cost"] + 0] = sprintf("%s\t%s\t%s\t%s\t%s\t%s", $4,
	    $6, $c["calls"], ms($c["cost_total_ns"]), $c["wait_ratio"],
	    $c["tags"])
}
END {
	print "== per step (ms): rank, service, busy, underfeed ratio, prelaunch, internal, tail, bubbles, tags"
	for (d = 0; d <= 1; d++)
		printf "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d,
		    ms(m[d, "service_ns"]), ms(m[d, "busy_union_ns"]),
		    m[d, "underfeed_ratio"], ms(m[d, "prelaunch_gap_ns"]),
		    ms(m[d, "internal_bubble_total_ns"]),
		    ms(m[d, "tail_gap_ns"]), m[d, "bubble_count"], tags[d]
	print "== longest bubbles: ms, rank, scope, start ms, kernel before -> after, labels"
	for (i = 1; i <= 5 && i in bl; i++)
		print bl[i]
	print "== soft root causes: rank, scope, label, confidence, risk tags"
	printf "%s", causes
	print "== top 3 ops per rank by average cost per call (duration + wait): rank, op, calls, total ms, wait ratio, tags"
	for (d = 0; d <= 1; d++)
		for (r = 1; r <= 3; r++)
			if ((d, r) in ops)
				print ops[d, r]
}'
