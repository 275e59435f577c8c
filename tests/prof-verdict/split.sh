# Rank 0's kernel table holds 1400 ns of the 8000 ns of device time its
# step_trace_time metrics measured (Computing 3000 + Communication(Not
# Overlapped) 5000): the profiler's own split stands in for its budget,
# over Stage (10000 ns), tagged profiler_split, confidence medium.
# Rank 1's timeline is whole, so its own budget stands; its 50 us
# latency-bound kernel is longer than --short-kernel, so it counts as
# compute (busy_compute), not as launch overhead; with --short-kernel
# above its length it is busy_latency.
in="$top_srcdir/tests/prof-verdict/split.tsv"
show() {
	awk -F'\t' '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$1 == "verdict" && $c["scope"] == "run" {
		print $1, $4, $6, $c["window_ns"], $c["confidence"], $c["tags"] }
	$1 == "budget" && $c["scope"] == "run" && $c["budget_ns"] > 0 {
		print $1, $4, $6, $c["budget_ns"] }'
}
prof-verdict "$in" | show
echo "-- --short-kernel=100000"
prof-verdict --short-kernel=100000 "$in" | show | grep '^budget 1'
