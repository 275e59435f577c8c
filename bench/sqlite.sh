#!/bin/sh
# bench/sqlite.sh: prof-ingest on generated torch_npu SQLite databases
# (issue 17; bench/gen-ascend-db.sh writes them, shaped like the corpus's
# ascend_pytorch_profiler_0.db) of N/2 and N kernels, beside cat on the
# same file in the same run: median wall seconds of BENCH_RUNS runs,
# device records (kernels and HCCL ops) per second, all records per
# second, peak RSS.  Flat memory: about the same RSS at both sizes (the
# SQLite page cache is SQDB_CACHE_KIB, 8 MiB; the sink's arena -m, 12M).
#
#   top_builddir=. BENCH_KERNELS=12000000 sh bench/sqlite.sh
#
# Environment: BENCH_DIR (default $top_builddir/bench/data), BENCH_RUNS
# (default 3), BENCH_KERNELS (default 12000000: about 2 GB), BENCH_BASE
# (the prof-ingest of another build, a base revision, timed in the same
# runs on its own row, so that a change is measured under one load).
# Needs the sqlite3 shell, and GNU time for the RSS and CPU.  The
# databases are removed at the end (BENCH_KEEP=1 keeps them); the sink
# spills about 300 bytes a kernel to $TMPDIR while it runs.
set -eu
me=bench/sqlite.sh
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-$(dirname "$0")/..}
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
runs=${BENCH_RUNS:-3}
n=${BENCH_KERNELS:-12000000}
. "$top_srcdir/bench/lib.sh"
mkdir -p "$BENCH_DIR"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-sqlite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
timing_init
[ -z "${BENCH_BASE:-}" ] || [ -x "$BENCH_BASE" ] || die "no $BENCH_BASE"

# row BUILD TIMES: one line of the table.
row() {
	s=$(median "$2")
	rss=$(maxcol2 "$2")
	awk -v who="$1" -v k="$k" -v mb="$(fsize "$db")" -v s="$s" \
	    -v r="$(range "$2")" -v u="$(median3 "$2")" -v c="$c" \
	    -v dev="$dev" -v recs="$recs" -v rss="$rss" 'BEGIN {
		printf "| %s | %d | %.0f | %.2f | %s | %s | %.2f | %.1fx | %.2fM | %.2fM | %d | %s |\n",
		    who, k, mb / 1e6, s, r, u, c, s / (c > 0.005 ? c : 0.005),
		    dev / s / 1e6, recs / s / 1e6, recs,
		    rss == "-" ? "-" : sprintf("%.1f", rss / 1024) }'
}

echo "| build | kernels | DB MB | median s | runs s | CPU s | cat s | time vs cat | device records/s | records/s | records | RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for k in $((n / 2)) $n; do
	db=$BENCH_DIR/ascend_pytorch_profiler_$k.db
	[ -s "$db" ] || sh "$top_srcdir/bench/gen-ascend-db.sh" "$k" "$db"
	: >"$tmp/p"; : >"$tmp/b"; : >"$tmp/c"
	for i in $(seq "$runs"); do
		measure "$tmp/c" cat "$db"
		measure "$tmp/p" "$top_builddir/tools/prof-ingest" -q "$db"
		[ -z "${BENCH_BASE:-}" ] || measure "$tmp/b" "$BENCH_BASE" -q "$db"
	done
	recs=$("$top_builddir/tools/prof-ingest" -q "$db" | grep -vc '^#')
	recs=$((recs - 1))
	dev=$((k + k / 200))
	c=$(median "$tmp/c")
	row this "$tmp/p"
	[ -z "${BENCH_BASE:-}" ] || row base "$tmp/b"
	[ -n "${BENCH_KEEP:-}" ] || rm -f "$db"
done
