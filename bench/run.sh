#!/bin/sh
# bench/run.sh: the prof-ingest benchmark ("make bench"; see bench/README.md).
#
# Generates large inputs shaped like the corpus files under $BENCH_DIR (once),
# then times, on each input and in the same run, the baseline (cat, and
# gzip -dc for the .gz) and prof-ingest: a warm-up, then $BENCH_RUNS rounds.
# Prints a Markdown table of medians and writes it to $BENCH_DIR/results.md.
#
# Environment:
#   top_builddir  build tree holding tools/prof-ingest (default: .)
#   BENCH_DIR     where inputs go (default: $top_builddir/bench/data)
#   BENCH_SIZE    size of each generated input (default: 1G = 1 GiB)
#   BENCH_RUNS    timed rounds per command after the warm-up (default: 3)
#   BENCH_GZIP    gzip level for the .gz input (default: 6)
#   PROF_INGEST   the program to measure (default: $top_builddir/tools/prof-ingest)
#   CC, CFLAGS    used to build the generator (default: cc, -O2)

set -eu

me=bench/run.sh

srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$srcdir/lib.sh"
top_builddir=${top_builddir:-.}
top_builddir=$(cd "$top_builddir" && pwd) || die "top_builddir '$top_builddir' does not exist"
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
BENCH_SIZE=${BENCH_SIZE:-1G}
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_GZIP=${BENCH_GZIP:-6}
PROF_INGEST=${PROF_INGEST:-$top_builddir/tools/prof-ingest}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}

case $BENCH_RUNS in ''|*[!0-9]*|0) die "BENCH_RUNS must be a positive integer, not '$BENCH_RUNS'";; esac
case $BENCH_GZIP in [1-9]) ;; *) die "BENCH_GZIP must be 1..9, not '$BENCH_GZIP'";; esac
for t in awk gzip cat sort cksum df; do
	command -v "$t" >/dev/null 2>&1 || die "'$t' is needed and not in PATH"
done

# Bytes in SIZE (K/M/G/T are powers of 1024, as gen-trace reads them).
size_bytes=$(printf '%s\n' "$BENCH_SIZE" | awk '
	/^[0-9]+([kKmMgGtT]([iI])?)?[bB]?$/ {
		n = $0; sub(/[^0-9].*/, "", n); u = substr($0, length(n) + 1, 1)
		m = 1
		if (u ~ /[kK]/) m = 1024; else if (u ~ /[mM]/) m = 1048576
		else if (u ~ /[gG]/) m = 1073741824; else if (u ~ /[tT]/) m = 1099511627776
		printf "%.0f\n", n * m; exit
	}
	{ exit 1 }') || die "BENCH_SIZE '$BENCH_SIZE' is not a size like 1G, 500M or 123456"
[ "$size_bytes" -gt 0 ] || die "BENCH_SIZE must be positive"

mkdir -p "$BENCH_DIR" || die "cannot create BENCH_DIR '$BENCH_DIR'"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd)
tmp=$BENCH_DIR/tmp.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM

# ---- timing tools ----------------------------------------------------------

timing_init

# ---- the generator and the inputs --------------------------------------------

# newer A B: A was modified after B (POSIX has no test -nt).
newer() { [ -n "$(find "$1" -newer "$2" 2>/dev/null)" ]; }

gen=$BENCH_DIR/gen-trace
if [ ! -x "$gen" ] || newer "$srcdir/gen-trace.c" "$gen"; then
	note "building $gen with $CC $CFLAGS"
	# shellcheck disable=SC2086
	$CC $CFLAGS -o "$gen.tmp" "$srcdir/gen-trace.c" ||
	    die "cannot build the generator: $CC $CFLAGS $srcdir/gen-trace.c"
	mv "$gen.tmp" "$gen"
fi

# The stamp ties generated data to the generator source and the size.
stamp="$(cksum <"$srcdir/gen-trace.c" | awk '{ print $1 }') $size_bytes $BENCH_GZIP"

kineto=$BENCH_DIR/kineto/rank0.pt.trace.json
kgz=$kineto.gz
tview=$BENCH_DIR/tv/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json
kdcsv=$BENCH_DIR/kd/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv

stamp_ok() { [ -s "$1" ] && [ -f "$1.stamp" ] && [ "$(cat "$1.stamp")" = "$stamp" ]; }

# make_input FILE MODE: generate FILE unless it is there from this generator.
make_input() {
	f=$1
	mode=$2
	stamp_ok "$f" && return 0
	mkdir -p "$(dirname "$f")"
	need=$(awk -v b="$size_bytes" 'BEGIN { printf "%.0f", b / 1024 * 1.2 + 65536 }')
	avail=$(df -Pk "$(dirname "$f")" | awk 'NR == 2 { print $4 }')
	[ "$avail" -ge "$need" ] ||
	    die "not enough disk for $f: need about $need KiB, $avail KiB free (set BENCH_DIR or BENCH_SIZE)"
	note "generating $f ($mode $BENCH_SIZE)"
	rm -f "$f.stamp"
	"$gen" "$mode" "$BENCH_SIZE" >"$f.tmp" || die "gen-trace $mode failed"
	mv "$f.tmp" "$f"
	printf '%s\n' "$stamp" >"$f.stamp"
}

make_input "$kineto" chrome-kineto
if ! stamp_ok "$kgz" || newer "$kineto" "$kgz"; then
	note "compressing $kgz (gzip -$BENCH_GZIP)"
	rm -f "$kgz.stamp"
	gzip -"$BENCH_GZIP" -c "$kineto" >"$kgz.tmp" || die "gzip failed"
	mv "$kgz.tmp" "$kgz"
	printf '%s\n' "$stamp" >"$kgz.stamp"
fi
make_input "$tview" chrome-ascend
make_input "$kdcsv" kernel-details-size

have_ingest=1
if [ ! -x "$PROF_INGEST" ]; then
	note "$PROF_INGEST is not built (run make first): only the baselines are measured"
	have_ingest=0
fi

# ---- measuring ---------------------------------------------------------------

failed=0
results=$tmp/results
: >"$results"

# bench_input LABEL FILE RAWBYTES TARGET_MBS BASELINE...: the rows of one input.
# BASELINE is "cat" or "gzip"; prof-ingest's ratio is against the last one.
bench_input() {
	label=$1 file=$2 raw=$3 target=$4
	shift 4
	tools="$*"
	[ "$have_ingest" = 1 ] && tools="$tools prof-ingest"
	for tool in $tools; do : >"$tmp/m.$tool"; done
	# Round 0 is the warm-up (it also pulls the file into the page cache).
	r=0
	while [ "$r" -le "$BENCH_RUNS" ]; do
		for tool in $tools; do
			o=$tmp/m.$tool
			[ "$r" = 0 ] && o=$tmp/warm
			case $tool in
			cat) measure "$o" cat "$file" || die "cat $file failed" ;;
			gzip) measure "$o" gzip -dc "$file" || die "gzip -dc $file failed" ;;
			prof-ingest)
				if ! measure "$o" "$PROF_INGEST" "$file"; then
					note "prof-ingest failed on $file:"
					head -n 5 "$tmp/err" >&2
					failed=1
					tools=$(printf '%s\n' "$tools" | sed 's/ prof-ingest//')
					: >"$tmp/m.prof-ingest"
				fi ;;
			esac
		done
		r=$((r + 1))
	done
	recs=-
	if [ -s "$tmp/m.prof-ingest" ]; then
		recs=$("$PROF_INGEST" "$file" 2>/dev/null | grep -vc '^#' || :)
		recs=$((recs - 1))	# the header line
	fi
	base=
	for tool in $tools; do
		[ -s "$tmp/m.$tool" ] || continue
		med=$(median "$tmp/m.$tool")
		spread=$(range "$tmp/m.$tool")
		rss=$(maxcol2 "$tmp/m.$tool")
		[ "$tool" = prof-ingest ] || { base=$tool; basemed=$med; }
		case $tool in
		gzip) name="gzip -dc" ;;
		*) name=$tool ;;
		esac
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$raw" \
		    "$name" "$med" "$rss" "$base" "$basemed" "$spread" \
		    "$([ "$tool" = prof-ingest ] && echo "$recs" || echo -)" \
		    "$([ "$tool" = prof-ingest ] && echo "$target" || echo -)" >>"$results"
	done
}

# Inputs just generated are still being written back to disk, which
# slows every command timed meanwhile, cat included: wait for it first.
sync
note "measuring: warm-up plus $BENCH_RUNS rounds per command"
kraw=$(fsize "$kineto")
bench_input "Kineto JSON ($(basename "$kineto"))" "$kineto" "$kraw" 400 cat
bench_input "Kineto JSON .gz ($(fsize "$kgz" | awk '{ printf "%.0f MB gzip -'"$BENCH_GZIP"'", $1 / 1e6 }'))" \
    "$kgz" "$kraw" 250 cat gzip
bench_input "Ascend trace_view.json" "$tview" "$(fsize "$tview")" 400 cat
bench_input "Ascend kernel_details.csv" "$kdcsv" "$(fsize "$kdcsv")" 150 cat

# ---- the report ------------------------------------------------------------

{
	printf '## prof-ingest benchmark\n\n'
	machine_lines
	printf -- '- inputs: %s each (BENCH_SIZE), in %s; page-cached; output to /dev/null\n' \
	    "$BENCH_SIZE" "$BENCH_DIR"
	printf -- '- medians of %s runs after a warm-up; MB = 10^6 bytes of uncompressed input\n' "$BENCH_RUNS"
	[ "$have_time" = 1 ] || printf -- '- peak RSS not measured: GNU time missing\n'
	printf '\n| input | size MB | tool | median s | runs s | MB/s | time vs baseline | peak RSS MiB | records/s | goal |\n'
	printf '|---|---:|---|---:|---:|---:|---:|---:|---:|---|\n'
	awk -F '\t' '
	{
		label = $1; raw = $2; tool = $3; med = $4; rss = $5
		base = $6; basemed = $7; spread = $8; recs = $9; target = $10
		mbs = med > 0 ? raw / 1e6 / med : 0
		ratio = "-"
		if (tool == "prof-ingest" && basemed > 0)
			ratio = sprintf("%.1fx %s", med / basemed, base == "gzip" ? "gzip -dc" : base)
		else if (tool == "gzip -dc")
			ratio = "(baseline)"
		else if (tool == "cat" && label !~ /\.gz/)
			ratio = "(baseline)"
		rssm = rss == "-" ? "-" : sprintf("%.1f", rss / 1024)
		rps = recs == "-" || med <= 0 ? "-" : sprintf("%.2fM", recs / med / 1e6)
		goal = "-"
		if (tool == "prof-ingest") {
			ok = mbs >= target
			okm = rss == "-" || rss / 1024 < 32
			goal = sprintf("%s MB/s >= %d, RSS < 32 MiB: %s", \
			    ok ? "ok" : "MISS", target, okm ? "ok" : "MISS")
		}
		shown = tool == "cat" && label ~ /\.gz/ ? "cat (compressed file)" : tool
		mbcol = tool == "cat" && label ~ /\.gz/ ? "-" : sprintf("%.0f", mbs)
		printf "| %s | %.0f | %s | %.3f | %s | %s | %s | %s | %s | %s |\n", \
		    label, raw / 1e6, shown, med, spread, mbcol, ratio, rssm, rps, goal
	}' "$results"
	printf '\nruns s: fastest-slowest of the timed runs.  records/s: prof-ingest output records\n'
	printf '(lines that are not the # preamble or the header) / median s.\n'
} >"$tmp/report"
cat "$tmp/report"
cp "$tmp/report" "$BENCH_DIR/results.md"
note "table written to $BENCH_DIR/results.md"
if [ "$have_ingest" = 0 ]; then
	note "prof-ingest was not measured"
	exit 1
fi
[ "$failed" = 0 ] || die "prof-ingest failed on some inputs (see above)"
exit 0
