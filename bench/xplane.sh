#!/bin/sh
# bench/xplane.sh: prof-ingest on generated XPlane protobufs (issue 19).
# bench/gen-xplane.c writes files shaped like the corpus TPU capture (four
# TPU planes of ~32-byte XLA Ops events, a host plane of ~25-byte events,
# OPS distinct HLO ops per device plane); each SIZE is timed BENCH_RUNS
# times beside cat of the same file, and the table gives the median MB/s,
# events/s, the ratio to cat and the peak RSS.  Two rows with the same
# SIZE and other OPS show what the RSS follows; rows with the same OPS and
# other SIZEs show that it does not follow the file.
#
#   top_builddir=. sh bench/xplane.sh          (or make bench-xplane)
#
# Environment: BENCH_DIR (default $top_builddir/bench/data), BENCH_RUNS
# (3), XPLANE_SIZES ("256M 1G"), XPLANE_OPS ("2000 20000"), CC, CFLAGS,
# PROF_INGEST, and BENCH_BASE: the prof-ingest of another build (a base
# revision), timed in the same runs, one after the other, on its own
# row, so that a change is measured under one load.  About 1.3 GB of
# disk for the inputs, and prof-ingest spills its runs (about 5 bytes
# per input byte) to $TMPDIR.
set -eu
me=xplane.sh
top_builddir=${top_builddir:-.}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
BENCH_RUNS=${BENCH_RUNS:-3}
PROF_INGEST=${PROF_INGEST:-$top_builddir/tools/prof-ingest}
sizes=${XPLANE_SIZES:-256M 1G}
opss=${XPLANE_OPS:-2000 20000}
. "$srcdir/bench/lib.sh"
[ -x "$PROF_INGEST" ] || die "no $PROF_INGEST: run make first"
dir=$BENCH_DIR/xplane
mkdir -p "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timing_init
${CC:-cc} ${CFLAGS:--O2} -o "$dir/gen-xplane" "$srcdir/bench/gen-xplane.c" ||
    die "cannot build gen-xplane"

[ -z "${BENCH_BASE:-}" ] || [ -x "$BENCH_BASE" ] || die "no $BENCH_BASE"

# row BUILD TIMES: one line of the table.
row() {
	mp=$(median "$2")
	awk -v who="$1" -v b="$bytes" -v o="$ops" -v p="$mp" -v c="$mc" \
	    -v r="$(range "$2")" -v e="$ev" -v k="$(maxcol2 "$2")" \
	    -v u="$(median3 "$2")" '
	BEGIN { printf "| %s | %.0f | %d | %.2f | %s | %s | %.0f | %.2fM | %.1fx | %.3f | %s |\n",
	    who, b / 1e6, o, p, r, u, b / 1e6 / p, e / p / 1e6,
	    (c > 0 ? p / c : 0), c, (k == "-" ? "-" : sprintf("%.1f", k / 1024)) }'
}

printf '| build | size MB | ops | prof-ingest s (median) | runs s | CPU s | MB/s | events/s | x cat | cat s | peak RSS MiB |\n'
printf '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n'
for ops in $opss; do
	for size in $sizes; do
		f=$dir/gen-$size-$ops.xplane.pb
		[ -s "$f" ] || "$dir/gen-xplane" "$size" "$ops" >"$f"
		bytes=$(fsize "$f")
		# events: the records prof-ingest writes less the timeless ones
		ev=$("$PROF_INGEST" "$f" | awk -F'\t' '/^#/ || !h++ { next }
		    $2 != "" { n++ } END { print n }')
		: >"$tmp/p"; : >"$tmp/b"; : >"$tmp/c"
		cat "$f" >/dev/null	# warm the page cache
		i=0
		while [ $i -lt "$BENCH_RUNS" ]; do
			measure "$tmp/c" cat "$f"
			measure "$tmp/p" "$PROF_INGEST" "$f" ||
			    die "prof-ingest failed on $f: $(cat "$tmp/err")"
			[ -z "${BENCH_BASE:-}" ] || measure "$tmp/b" \
			    "$BENCH_BASE" "$f" ||
			    die "$BENCH_BASE failed on $f: $(cat "$tmp/err")"
			i=$((i + 1))
		done
		mc=$(median "$tmp/c")
		row this "$tmp/p"
		[ -z "${BENCH_BASE:-}" ] || row base "$tmp/b"
	done
done
