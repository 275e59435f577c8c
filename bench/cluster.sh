#!/bin/sh
# bench/cluster.sh: the per-rank recipe of proftools(7) on a generated
# job (tests/gen-ranks.sh): the rank pipelines one after the other and
# with GNU parallel -j2 on 64 ranks of BENCH_STEPS steps (default 50000:
# work enough per rank for parallel's own cost per job not to rule), medians
# of BENCH_RUNS; then the time and peak RSS of prof-merge | prof-cluster
# over the streams of BENCH_RANKS ranks (default 1024) of 3 steps each.
# Run by "make bench" after stages.sh.
set -eu
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
ranks=${BENCH_RANKS:-1024}
steps=${BENCH_STEPS:-50000}
runs=${BENCH_RUNS:-3}
PATH="$(cd "$top_builddir" && pwd)/tools:$PATH"; export PATH
command -v parallel >/dev/null 2>&1 || {
	echo "bench/cluster.sh: GNU parallel is not installed: skipped" >&2
	exit 0; }
tmp=$(mktemp -d)
trap 'cd / && rm -rf "$tmp"' EXIT
sh "$top_srcdir/tests/gen-ranks.sh" "$tmp/job" 64 63 "$steps"
sh "$top_srcdir/tests/gen-ranks.sh" "$tmp/wide" "$ranks"
cd "$tmp"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }
seqt= part=
i=0
while [ "$i" -lt "$runs" ]; do
	rm -rf out; mkdir out
	t0=$(now)
	for d in job/rank_*; do
		prof-ingest -q "$d" | prof-steps >"out/${d##*/}.tsv"
	done
	t1=$(now)
	rm -rf out; mkdir out
	ls -d job/rank_* | parallel -j2 'prof-ingest -q {} | prof-steps >out/{/}.tsv'
	t2=$(now)
	seqt="$seqt $(echo "$t1 - $t0" | bc)"
	part="$part $(echo "$t2 - $t1" | bc)"
	i=$((i + 1))
done
s=$(echo $seqt | tr ' ' '\n' | median)
p=$(echo $part | tr ' ' '\n' | median)
echo "| ranks x steps | rank pipelines one at a time, s | with parallel -j2, s | speed-up |"
echo "|---|---:|---:|---:|"
printf '| 64 x %s | %.2f | %.2f | %.2fx |\n' "$steps" "$s" "$p" \
    "$(echo "$s / $p" | bc -l)"
mkdir wout
for d in wide/rank_*; do
	prof-ingest -q "$d" | prof-steps >"wout/${d##*/}.tsv"
done
cd wout
/usr/bin/time -f '%e %M' -o ../merge.time sh -c \
    'prof-merge rank_*.tsv | prof-cluster >../cluster.tsv'
read -r mt mrss <../merge.time
echo
echo "| ranks | prof-merge \\| prof-cluster, s | peak RSS, MiB | per rank, KiB |"
echo "|---:|---:|---:|---:|"
printf '| %s | %s | %.1f | %.1f |\n' "$ranks" "$mt" "$(echo "$mrss / 1024" | bc -l)" \
    "$(echo "$mrss / $ranks" | bc -l)"
