#!/bin/sh
# bench/span.sh: the stages on one step that spans the whole capture
# (issue 14): a ProfilerStep around a long run, so that every record
# after the step's start waits on its window.  Two streams of N and 4N
# kernels (one device, one stream, 2 us apart) go through the whole
# chain, each stage reading what the one before wrote; each stage's time
# and peak RSS are printed for both, and the ratio of the RSS, which is
# near 1 where memory is bounded and near 4 where it grows with the
# capture.  The output queue's budget is PROF_QUEUE_MEMORY (32 MiB).
#
# Environment: top_builddir; BENCH_DIR (default $top_builddir/bench/data);
# SPAN_KERNELS (default 1000000; the 4N stream and two stages' outputs
# need about 100 bytes a kernel of disk, 0.4 GB for the default, and the
# spilled queues as much again in TMPDIR).  Needs GNU time.  Prints a Markdown
# table, also written to $BENCH_DIR/span.md.

set -eu

me=bench/span.sh
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$srcdir/lib.sh"

top_builddir=$(cd "${top_builddir:-.}" && pwd) || die "no top_builddir"
BENCH_DIR=${BENCH_DIR:-$top_builddir/bench/data}
N=${SPAN_KERNELS:-1000000}
tools=$top_builddir/tools
case $N in ''|*[!0-9]*|0) die "SPAN_KERNELS must be a positive integer";; esac
[ -x /usr/bin/time ] || die "needs GNU time (/usr/bin/time) for peak RSS"
dir=$BENCH_DIR/span
mkdir -p "$dir"
tmp=$dir/tmp.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM

# gen N: one step over N kernels of seven names.
gen() {
	awk -v N="$1" 'BEGIN {
		printf "#prof-tsv 1\n#origin_ns 0\n"
		printf "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\tcore\tstep\twait_ns\n"
		printf "step\t0\t%.0f\t0\t1\tProfilerStep#1\t\t\t\t1\t\n", N * 3000
		for (i = 0; i < N; i++)
			printf "kernel\t%.0f\t1000\t0\t7\tgemm_kernel_%d\tkernel\tMatMul\tAI_CORE\t1\t0\n",
			    100 + i * 3000, i % 7
	}'
}
big=$((4 * N))
for n in "$N" "$big"; do
	[ -s "$dir/in.$n.tsv" ] || gen "$n" >"$dir/in.$n.tsv"
done
chain="prof-steps prof-merge prof-bubbles prof-attrib prof-waitanchor
prof-layers prof-roofline prof-ops prof-verdict prof-cluster"
printf '| stage | s (N) | s (4N) | RSS MiB (N) | RSS MiB (4N) | RSS ratio |\n' >"$tmp/rows"
printf '|---|---:|---:|---:|---:|---:|\n' >>"$tmp/rows"
prev_s=$dir/in.$N.tsv prev_b=$dir/in.$big.tsv
for t in $chain "prof-render -f md"; do
	set -- $t
	/usr/bin/time -f '%e %M' -o "$tmp/ts" "$tools/$@" "$prev_s" \
	    >"$tmp/out.s" 2>"$tmp/err" || die "$t failed: $(head -c 200 "$tmp/err")"
	/usr/bin/time -f '%e %M' -o "$tmp/tb" "$tools/$@" "$prev_b" \
	    >"$tmp/out.b" 2>"$tmp/err" || die "$t failed: $(head -c 200 "$tmp/err")"
	read -r s1 m1 <"$tmp/ts"
	read -r s2 m2 <"$tmp/tb"
	awk -v n="$t" -v s1="$s1" -v s2="$s2" -v m1="$m1" -v m2="$m2" 'BEGIN {
		printf "| %s | %.2f | %.2f | %.0f | %.0f | %.2f |\n", n, s1, s2,
		    m1 / 1024, m2 / 1024, m2 / m1 }' >>"$tmp/rows"
	[ "$1" = prof-render ] && continue
	# only the last stage's streams are kept: each is as big as the
	# input and more, and eleven of them fill a disk
	case $prev_s in "$dir"/out.*) rm -f "$prev_s" "$prev_b";; esac
	mv "$tmp/out.s" "$dir/out.$N.$1.tsv"
	mv "$tmp/out.b" "$dir/out.$big.$1.tsv"
	prev_s=$dir/out.$N.$1.tsv prev_b=$dir/out.$big.$1.tsv
done
{
	echo "One step over the capture: $N and $big kernels" \
	    "($(wc -c <"$dir/in.$N.tsv") and $(wc -c <"$dir/in.$big.tsv") bytes)"
	echo
	cat "$tmp/rows"
} | tee "$dir/span.md"
rm -f "$dir"/out.*.tsv
