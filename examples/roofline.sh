# prof-roofline on the bundled Qwen piece.  The Ascend capture does not
# name its chip, so the peaks are an ASSUMPTION (-c 910b3, Ascend 910B3,
# whose figures are themselves uncertain): the bounds that the PMU pipe
# ratios give (bound_src pmu) hold whatever the chip; those from the
# roofline (bound_src roofline) and the MFU depend on the assumed peaks.
# From any directory: the data is found beside this script.
cd "$(dirname "$0")" || exit 1
echo "chip: assumed Ascend 910B3 (-c 910b3), not read from the capture"
prof-ingest -q data/qwen_pp2dp2 | prof-steps | prof-layers |
    prof-roofline -c 910b3 |
awk -F'\t' '
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
$1 == "kernel" { n[$c["bound"] == "" ? "-" : $c["bound"], $c["bound_src"] == "" ? "-" : $c["bound_src"]]++ }
$1 == "metric" && $c["name"] ~ /^peak/ {
	printf "%-22s %-5s %s\n", $c["name"], $c["dtype"], $c["value"]
}
$1 == "roof" && $c["scope"] == "run" {
	printf "rank %s run: %s FLOPs; kernels rooflined on both roofs: %s of kernel time, %s-bound, mfu %s, bw %s\n",
	    $4, $c["flops"], $c["cov_ratio"], $c["bound"], $c["mfu_ratio"], $c["bw_ratio"]
}
$1 == "bottleneck" && $c["scope"] == "run" {
	printf "rank %s run bottleneck: %s (%s of the span)\n", $4, $c["name"], $c["value"]
}
END {
	print "kernels by bound and its source:"
	for (k in n) { split(k, p, SUBSEP); line[++m] = sprintf("  %-8s %-9s %5d", p[1], p[2], n[k]) }
	for (i = 2; i <= m; i++) for (j = i; j > 1 && line[j] < line[j-1]; j--) { t = line[j]; line[j] = line[j-1]; line[j-1] = t }
	for (i = 1; i <= m; i++) print line[i]
}'
