# prof-layers on the bundled two-rank AlexNet profile.  A CNN has no
# attention kernel and no repeating layer sequence, so no layers are
# found (the detection's best confidence stays low), but the stream
# roles and how much of the HCCL all-reduce the compute hides are there.
prof-ingest -q data/alexnet_2rank | prof-layers |
awk -F'\t' '
function ms(ns) { return sprintf("%.3f", ns / 1e6) }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
$1 == "metric" && $c["name"] ~ /^(layer_count|layer_detect_confidence_ratio|comm_union_ns|comm_overlap_ns|comm_overlap_ratio)$/ {
	v = $c["value"]
	if ($c["name"] ~ /_ns$/) v = ms(v) " ms"
	printf "rank %s  %-30s %s\n", $4, $c["name"], v
}
$1 == "stream" {
	printf "rank %s  stream %-4s %-13s %5d kernels, busy %s ms\n", $4,
	    $5 == "" ? "-" : $5, $6, $c["value"], ms($c["busy_ns"])
}
$1 == "stream_overlap" {
	printf "rank %s  stream %-4s overlaps %-4s %s ms, %s of its busy time\n",
	    $4, $5 == "" ? "-" : $5, $6 == "" ? "-" : $6, ms($c["busy_ns"]),
	    $c["share_ratio"]
}'
