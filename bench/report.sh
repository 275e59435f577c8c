#!/bin/sh
# bench/report.sh: prof-report against the pipeline it runs (issue 20).
#  1. The bundled example (examples/data/alexnet_2rank), medians of
#     BENCH_RUNS (default 9): cat of its files, the pipeline typed by
#     hand on the whole capture (the same stages, then prof-render -o),
#     prof-report (which runs that pipeline: the capture is under 8 MiB),
#     the rank pipelines typed by hand and prof-report -s ranks -j2
#     (which runs those, at once) and -j1 (both ranks in one).
#  2. A generated job of 64 ranks (tests/gen-ranks.sh, BENCH_STEPS steps
#     each, default 300: 9 MiB),
#     medians of BENCH_RUNS64 (default 3): cat, prof-report (one pipeline
#     on a machine of 12 processors or fewer), a rank pipeline per rank
#     one at a time typed by hand (what -j1 ran before), -j1 (every rank
#     in one rank pipeline) and -j2 (the ranks in two, at once).
# Run by "make bench" after cluster.sh, or alone by "make bench-report".
set -eu
me=bench/report.sh
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
runs=${BENCH_RUNS:-9}
runs64=${BENCH_RUNS64:-3}
steps=${BENCH_STEPS:-300}
PATH="$(cd "$top_builddir" && pwd)/tools:$PATH"; export PATH
tmp=$(mktemp -d)
trap 'cd / && rm -rf "$tmp"' EXIT
. "$top_srcdir/bench/lib.sh"
timing_init

# time_runs N NAME CMD: N runs of the shell command CMD, times in NAME
time_runs() {
	_n=$1 _name=$2
	shift 2
	: >"$tmp/$_name"
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		rm -rf "$tmp/out"
		measure "$tmp/$_name" sh -c "$1" || die "$_name failed: $(cat "$tmp/err")"
		_i=$((_i + 1))
	done
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

cd "$top_srcdir/examples"
files=$(find data/alexnet_2rank -type f | sort | tr '\n' ' ')
time_runs "$runs" cat "cat $files >/dev/null"
time_runs "$runs" pipeline "prof-ingest -q data/alexnet_2rank | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor | prof-layers |
    prof-roofline | prof-ops | prof-verdict | prof-cluster >$tmp/s.tsv &&
    prof-render -o $tmp/out $tmp/s.tsv"
time_runs "$runs" report "prof-report -q -o $tmp/out data/alexnet_2rank"
time_runs "$runs" ranks "for r in 0 1; do prof-ingest -q data/alexnet_2rank/rank\${r}_ascend_pt |
    prof-steps | prof-merge | prof-bubbles | prof-attrib --device-elsewhere |
    prof-waitanchor | prof-layers >$tmp/r\$r.tsv || exit 1; done &&
    prof-merge -m $tmp/r0.tsv $tmp/r1.tsv | prof-roofline | prof-ops |
    prof-verdict | prof-cluster >$tmp/s.tsv && prof-render -o $tmp/out $tmp/s.tsv"
time_runs "$runs" j1 "prof-report -q -s ranks -j1 -o $tmp/out data/alexnet_2rank"
time_runs "$runs" j2 "prof-report -q -s ranks -j2 -o $tmp/out data/alexnet_2rank"
c=$(median "$tmp/cat")
p=$(median "$tmp/pipeline")
q=$(median "$tmp/ranks")
echo "Bundled example (examples/data/alexnet_2rank, $(du -sk data/alexnet_2rank | cut -f1) KiB), medians of $runs runs:"
echo
echo "| command | median, s | range, s | / cat | / the pipeline it runs |"
echo "|---|---:|---:|---:|---:|"
for k in cat pipeline report ranks j1 j2; do
	case $k in
	cat) what='cat of its files' b=$c ;;
	pipeline) what='the pipeline by hand, then prof-render -o' b=$p ;;
	report) what='prof-report (runs that pipeline)' b=$p ;;
	ranks) what='the rank pipelines by hand, merged, rendered' b=$q ;;
	j1) what='prof-report -s ranks -j1 (the two ranks in one rank pipeline)' b=$q ;;
	j2) what='prof-report -s ranks -j2 (runs those two at once)' b=$q ;;
	esac
	m=$(median "$tmp/$k")
	printf '| %s | %.3f | %s | %s | %s |\n' "$what" "$m" \
	    "$(range "$tmp/$k")" "$(ratio "$m" "$c")" "$(ratio "$m" "$b")"
done

cd "$tmp"
sh "$top_srcdir/tests/gen-ranks.sh" job 64 63 "$steps"
time_runs "$runs64" cat64 "cat job/rank_*/trace.json >/dev/null"
time_runs "$runs64" r0 "prof-report -q -o $tmp/out job"
# one rank at a time: the rank pipelines of 0.1.0 before -j dealt ranks
# to -j pipelines, one after another, then merged
time_runs "$runs64" by1 "mkdir -p $tmp/r && for d in job/rank_*; do
    prof-ingest -q \$d | prof-steps | prof-merge | prof-bubbles |
    prof-attrib --device-elsewhere | prof-waitanchor | prof-layers \
    >$tmp/r/\${d#job/}.tsv || exit 1; done &&
    prof-merge -m $tmp/r/*.tsv | prof-roofline | prof-ops | prof-verdict |
    prof-cluster >$tmp/s.tsv && prof-render -o $tmp/out $tmp/s.tsv"
time_runs "$runs64" r1 "prof-report -q -j1 -o $tmp/out job"
time_runs "$runs64" r2 "prof-report -q -j2 -o $tmp/out job"
c=$(median "$tmp/cat64")
b1=$(median "$tmp/by1")
s1=$(median "$tmp/r1")
s2=$(median "$tmp/r2")
echo
echo "64 generated ranks x $steps steps ($(du -sk job | cut -f1) KiB of Kineto JSON), medians of $runs64 runs:"
echo
echo "| command | median, s | range, s | / cat |"
echo "|---|---:|---:|---:|"
printf '| cat of the traces | %.3f | %s | 1.00 |\n' "$c" "$(range "$tmp/cat64")"
s0=$(median "$tmp/r0")
printf '| prof-report (one pipeline) | %.3f | %s | %s |\n' "$s0" \
    "$(range "$tmp/r0")" "$(ratio "$s0" "$c")"
printf '| a rank pipeline per rank, one at a time, by hand | %.3f | %s | %s |\n' "$b1" \
    "$(range "$tmp/by1")" "$(ratio "$b1" "$c")"
printf '| prof-report -j1 (every rank in one rank pipeline) | %.3f | %s | %s |\n' "$s1" \
    "$(range "$tmp/r1")" "$(ratio "$s1" "$c")"
printf '| prof-report -j2 (32 ranks in each of two, at once) | %.3f | %s | %s |\n' "$s2" "$(range "$tmp/r2")" \
    "$(ratio "$s2" "$c")"
echo
echo "-j2 against one rank at a time: $(ratio "$b1" "$s2")x faster; against -j1: $(ratio "$s1" "$s2")x; against one pipeline: $(ratio "$s0" "$s2")x; on $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') online processors, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
