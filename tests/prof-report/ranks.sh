# A job of six ranks, one directory each (tests/gen-ranks.sh; rank 4
# computes 20 % longer): three pipelines of two ranks each (-s ranks -j3)
# at once, merged, and
# compared by prof-cluster, which names rank 4.  Past eight ranks the
# summary would group them by class; here each has its line.
sh "$top_srcdir/tests/gen-ranks.sh" job 6 4
COLUMNS=100 prof-report -s ranks -j3 -k -o out job
echo "exit $?"
ls out/stages | grep -c '^part_0000[1-3]\.tsv$'
grep -c '^rank_wait' out/stages/report.tsv
