#!/bin/sh
# bench/breadth.sh: the stages on breadth, not length (issue 14): a job
# of many devices (ranks), each with a few steps of a few kernels, all
# at once in time as a real job runs them.  Every stage is timed with
# its peak RSS on the stream of N devices and on the stream of N/10, so
# that time linear in the device count shows as a ratio near 10, and the
# memory per device is printed (what a stage keeps per device: its
# summaries need one entry each).  A device count that a stage searches
# linearly per record shows as a ratio near 100.
#
# Environment: top_builddir; BENCH_DIR (default $top_builddir/bench/data);
# BREADTH_DEVS (default 100000); BREADTH_STEPS, BREADTH_KERNELS per step
# (default 2 and 3).  The window records prof-steps would write are made
# by the generator, so prof-steps is timed on its own stream without
# them (BREADTH_WITH_STEPS=0 leaves it out).  Prints a Markdown table, also written to
# $BENCH_DIR/breadth.md.

set -eu

me=bench/breadth.sh
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$srcdir/lib.sh"

top_builddir=$(cd "${top_builddir:-.}" && pwd) || die "no top_builddir"
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
N=${BREADTH_DEVS:-100000}
STEPS=${BREADTH_STEPS:-2}
K=${BREADTH_KERNELS:-3}
tools=$top_builddir/tools
for v in "$N" "$STEPS" "$K"; do
	case $v in ''|*[!0-9]*|0) die "BREADTH_* must be positive integers";; esac
done
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time) for peak RSS"

dir=$BENCH_DIR/breadth
mkdir -p "$dir"
tmp=$dir/tmp.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM

# gen N WINDOWS: the stream of N devices, with window records or not.
gen() {
	awk -v N="$1" -v STEPS="$STEPS" -v K="$K" -v W="$2" 'BEGIN {
		printf "#prof-tsv 1\n#origin_ns 0\n"
		if (W)
			printf "#stage prof-steps (made by bench/breadth.sh)\n"
		printf "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\tcore\tstep\twait_ns%s\n",
		    W ? "\tstep_group\ttags" : ""
		x = W ? "\t\t" : ""
		for (s = 0; s < STEPS; s++) {
			b = s * 100000
			for (d = 0; d < N; d++) {
				printf "step\t%d\t90000\t%d\t1\tProfilerStep#%d\t\t\t\t%d\t%s\n", b, d, s, s, x
				if (W)
					printf "window\t%d\t90000\t%d\t\tProfilerStep#%d\tmarker\t\t\t%d\t\tg0\t\n", b, d, s, s
			}
			for (d = 0; d < N; d++)
				printf "host\t%d\t5000\t%d\t1\taten::mm\tcpu_op\t\t\t%d\t%s\n", b + 100, d, s, x
			for (k = 0; k < K; k++)
				for (d = 0; d < N; d++)
					printf "kernel\t%d\t10000\t%d\t7\tgemm_%d\tkernel\tMatMul\tAI_CORE\t%d\t100%s\n", b + 1000 + k * 20000, d, k, s, x
		}
	}'
}

# timed OUT TOOL ARGS... IN: "seconds peak_kib" of one run, its output
# in OUT.
timed() {
	o=$1
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >"$o" 2>"$tmp/err" || {
		cat "$tmp/err" >&2; die "$1 failed"; }
	cat "$tmp/t"
}

chain="prof-merge prof-bubbles prof-attrib prof-waitanchor prof-layers
    prof-roofline prof-verdict prof-cluster"
small=$((N / 10))
[ "$small" -gt 0 ] || die "BREADTH_DEVS must be at least 10"
printf '| stage | records in (N) | s (N/10) | s (N) | time ratio | RSS MiB (N/10) | RSS MiB (N) | RSS per device (bytes) |\n' >"$tmp/rows"
printf '|---|---:|---:|---:|---:|---:|---:|---:|\n' >>"$tmp/rows"
for n in $small $N; do
	note "$n devices"
	gen $n 1 >"$dir/in.$n.tsv"
	gen $n 0 >"$dir/steps.$n.tsv"
done
row() {	# row NAME SMALL-IN BIG-IN ARGS...
	name=$1 a=$2 b=$3
	shift 3
	set -- $(timed "$tmp/outs" "$@" "$a") $(timed "$tmp/out" "$@" "$b")
	recs=$(grep -vc '^#' "$b" | awk '{ print $1 - 1 }')
	awk -v n="$name" -v r="$recs" -v s1="$1" -v m1="$2" -v s2="$3" \
	    -v m2="$4" -v d="$N" -v ds="$small" 'BEGIN {
		printf "| %s | %d | %.2f | %.2f | %.1f | %.0f | %.0f | %.0f |\n",
		    n, r, s1, s2, (s1 > 0 ? s2 / s1 : 0), m1 / 1024, m2 / 1024,
		    (m2 - m1) * 1024 / (d - ds) }' >>"$tmp/rows"
}
if [ "${BREADTH_WITH_STEPS:-1}" = 1 ]; then
	row prof-steps "$dir/steps.$small.tsv" "$dir/steps.$N.tsv" \
	    "$tools/prof-steps"
fi
prev_s=$dir/in.$small.tsv prev_b=$dir/in.$N.tsv
for t in $chain; do
	args=
	[ $t = prof-roofline ] && args="-c h100"
	# shellcheck disable=SC2086
	row $t "$prev_s" "$prev_b" "$tools/$t" $args
	mv "$tmp/outs" "$dir/out.$small.$t.tsv"
	mv "$tmp/out" "$dir/out.$N.$t.tsv"
	prev_s=$dir/out.$small.$t.tsv prev_b=$dir/out.$N.$t.tsv
done
for f in json chrome md; do
	row "prof-render -f $f" "$prev_s" "$prev_b" "$tools/prof-render" -f $f
done
{
	echo "Breadth: $N and $small devices, $STEPS steps of $K kernels each,"
	echo "every stage on the stream the one before it wrote."
	echo
	cat "$tmp/rows"
} | tee "$BENCH_DIR/breadth.md"
