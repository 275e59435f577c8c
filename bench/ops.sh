#!/bin/sh
# bench/ops.sh: prof-ops and prof-diff on a generated stream of
# BENCH_OPS_RECORDS kernels (default 2000000; 200 names, 40 types, 8
# devices), beside cat on the same file, BENCH_RUNS rounds (default 3);
# prints the median seconds, records/s and peak RSS of each.
set -eu
top_builddir=$(cd "${top_builddir:-.}" && pwd)
n=${BENCH_OPS_RECORDS:-2000000}
runs=${BENCH_RUNS:-3}
dir=${BENCH_DIR:-$top_builddir/bench/data}
mkdir -p "$dir"
f=$dir/ops.tsv
awk -v n="$n" 'BEGIN { OFS = "\t"; print "#prof-tsv 1"
    print "kind", "ts_ns", "dur_ns", "dev", "track", "name", "type", "in_shapes", "in_dtypes"
    for (i = 0; i < n; i++) { k = i % 200
	print "kernel", i * 1000, 500 + (i * 7) % 400, i % 8, 1, "kernel_" k, "Type" (k % 40), k ",128", "FLOAT16" } }' >"$f"
t=$top_builddir/tools
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for what in "cat $f" "$t/prof-ops -k sig $f" "$t/prof-diff -k sig $f $f"; do
	for r in $(seq "$runs"); do
		/usr/bin/time -f '%e %M' sh -c "$what >/dev/null" 2>&1 | tail -n 1
	done >"$dir/ops.times"
	s=$(cut -d' ' -f1 "$dir/ops.times" | med)
	m=$(cut -d' ' -f2 "$dir/ops.times" | med)
	printf '%-10s %6s s  %s KB  %s\n' "${what%% *}" "$s" "$m" \
	    "$(awk -v s="$s" -v n="$n" 'BEGIN { if (s > 0) printf "%.1f M records/s", n / s / 1e6 }')"
done
