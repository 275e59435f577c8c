# Device kernel count and busy-time sum per rank and step, straight from
# the prof-tsv stream with awk (columns found by name in the header).
# From any directory: the data is found beside this script.
cd "$(dirname "$0")" || exit 1
prof-ingest -q data/alexnet_2rank |
awk -F'\t' '
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1; next }
$c["kind"] == "kernel" {
	k = $c["dev"] "\t" $c["step"]
	n[k]++; t[k] += $c["dur_ns"]
}
END {
	print "rank\tstep\tkernels\tkernel_ms"
	fflush()
	for (k in n) printf "%s\t%d\t%.3f\n", k, n[k], t[k] / 1e6 | "sort"
	close("sort")
}'
