# Three ranks of a hand-made step: rank 1's MatMul takes 300 ns, the
# others' 100, so ranks 0 and 2 wait for it at the first all-reduce
# (200 and 180 ns); at the second rank 2 arrives last (10 and 5 ns).
# The broadcast runs on rank 0 alone: not matched.  Step times 1000,
# 1100 and 900 ns: skew (1100 - 900) / 900, slow rank 1, STEP_SKEW.
in="$top_srcdir/tests/prof-cluster/ranks.tsv"
prof-cluster "$in" | sed '/^#stage /d' | grep -v -e '^window' -e '^kernel'
echo "-- --skew=0.3: no STEP_SKEW"
prof-cluster --skew=0.3 "$in" | awk '/STEP_SKEW/ { n++ } END { print n + 0 }'
