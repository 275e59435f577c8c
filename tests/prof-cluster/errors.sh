# A stream that already went through prof-cluster is refused: its
# summary records would be written twice.  A bad --skew is a usage
# error, and so is a bad --link-peak.
in="$top_srcdir/tests/prof-cluster/ranks.tsv"
prof-cluster "$in" | prof-cluster
echo "exit $?"
prof-cluster --skew=x "$in"
echo "exit $?"
# --link-peak needs TYPE=GBPS, a positive number of GB/s, and at most 16
# link types.
prof-cluster --link-peak=hccs "$in"
echo "exit $?"
prof-cluster --link-peak==56 "$in"
echo "exit $?"
prof-cluster --link-peak=hccs=0 "$in"
echo "exit $?"
prof-cluster --link-peak=hccs=fast "$in"
echo "exit $?"
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
	set -- "$@" "--link-peak=l$i=1"
done
prof-cluster "$@" "$in"
echo "exit $?"
