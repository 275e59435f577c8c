#!/bin/sh
# The recipe of proftools(7), "Past one machine" (issue 16): a 64-rank
# job fanned out with GNU parallel, one pipeline per rank, the results
# merged by prof-merge and compared by prof-cluster.  The parallel run
# (-j2) must write exactly what the same commands write one rank after
# the other, and prof-cluster must name the rank that tests/gen-ranks.sh
# made slow.  Skipped (77) when GNU parallel is not installed (bootstrap
# installs it).
. "${top_srcdir:-.}/tests/lib.sh"

command -v parallel >/dev/null 2>&1 || skip_ "GNU parallel is not installed"
PATH="$(cd "$top_builddir" && pwd)/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'cd / && rm -rf "$tmp"' EXIT
sh "$top_srcdir/tests/gen-ranks.sh" "$tmp/job" 64 17
mkdir "$tmp/seq" "$tmp/par" "$tmp/remote"

cd "$tmp" || exit 1	# the streams name their inputs as given
# one rank after the other
for d in job/rank_*; do
	prof-ingest -q "$d" | prof-steps >"seq/${d##*/}.tsv" || exit 1
done
# the recipe: one pipeline per rank, two at a time
ls -d job/rank_* | parallel -j2 --halt now,fail=1 \
    'prof-ingest -q {} | prof-steps >par/{/}.tsv' || {
	echo "FAIL: parallel"; exit 1; }
# the remote recipe, with this machine as its one "remote" (-S 2/:)
ls -d job/rank_* | parallel -S 2/: --transferfile {} \
    --return remote/{/}.tsv --cleanup \
    'prof-ingest -q {} | prof-steps >remote/{/}.tsv' 2>"$tmp/remote.err" || {
	echo "FAIL: parallel -S 2/:"; cat "$tmp/remote.err"; exit 1; }
for w in seq par remote; do
	(cd "$w" && prof-merge rank_*.tsv | prof-cluster >../$w.out) || exit 1
done
failed=0
for w in par remote; do
	if ! cmp -s seq.out "$w.out"; then
		echo "FAIL: the $w run differs from the sequential one:"
		diff seq.out "$w.out" | head -n 20
		failed=1
	fi
done
slow=$(awk -F'\t' '/^#/ { next }
    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
    $1 == "cluster" && $6 == "slow_rank" { print $c["slow_rank"] }' \
    par.out)
if [ "$slow" != 17 ]; then
	echo "FAIL: slow rank '$slow', want 17"
	failed=1
fi
n=$(grep -c '^rank_wait' par.out)
[ "$n" = 64 ] || { echo "FAIL: $n rank_wait records, want 64"; failed=1; }
[ $failed = 0 ] &&
    echo "ok: 64 ranks, parallel -j2 = parallel -S 2/: = sequential, slow rank 17"
exit $failed
