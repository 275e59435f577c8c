# A stream that already went through prof-cluster is refused: its
# summary records would be written twice.  A bad --skew is a usage
# error.
in="$top_srcdir/tests/prof-cluster/ranks.tsv"
prof-cluster "$in" | prof-cluster
echo "exit $?"
prof-cluster --skew=x "$in"
echo "exit $?"
