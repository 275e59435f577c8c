# prof-layers on the bundled two-rank AlexNet profile.  A CNN has no
# attention kernel: its convolutions mark the layers (one Conv layer per
# convolution with its activation and pooling, one Linear layer per
# fully connected layer of the head), a forward and a backward pass per
# step.  Then what each pass costs (wall, busy, the device idle inside
# its layers + between them), and the stream roles and how much of the
# HCCL all-reduce the compute hides.
# From any directory: the data is found beside this script.
cd "$(dirname "$0")" || exit 1
prof-ingest -q data/alexnet_2rank | prof-layers |
awk -F'\t' '
function ms(ns) { return sprintf("%.3f", ns / 1e6) }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
$1 == "model" {
	printf "rank %s  %s, confidence %s (%s)\n", $4, $6, $c["value"],
	    $c["tags"]
}
$1 == "pass" {
	printf "rank %s  pass %s %-8s %d layers %s ms: busy %s, idle %s + %s\n",
	    $4, $c["pass"], $c["phase"], $c["layers"], ms($3),
	    ms($c["busy_ns"]), ms($c["idle_ns"]), ms($c["between_ns"])
}
$1 == "layer_type" {
	printf "rank %s  %-8s %-6s x%d, median wall %s ms\n", $4,
	    $c["phase"], $6, $c["value"], ms($c["median_ns"])
}
$1 == "metric" && $c["name"] ~ /^(comm_overlap_ratio)$/ {
	printf "rank %s  %-30s %s\n", $4, $c["name"], $c["value"]
}
$1 == "stream" {
	printf "rank %s  stream %-4s %-13s %5d kernels, busy %s ms\n", $4,
	    $5 == "" ? "-" : $5, $6, $c["value"], ms($c["busy_ns"])
}'
