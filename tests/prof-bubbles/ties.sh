# Dominant idle pattern: equal averages are 'mixed' by default; with
# --mixed=0 the first wins (prelaunch), as in the reference script; a
# group without gaps is 'none'.  In spec11-group.tsv the top two
# (prelaunch 1 ms, tail 0.7 ms) differ by exactly 30 % of the top.
for o in --mixed=0.1 --mixed=0; do
	echo "$o"
	prof-bubbles $o <"$top_srcdir/tests/prof-bubbles/ties.tsv" |
	    awk -F'\t' '$1 == "bubble_group" {print $6, $9}'
done
for o in --mixed=0.3 --mixed=0.31; do
	echo "$o"
	prof-bubbles $o <"$top_srcdir/tests/prof-bubbles/spec11-group.tsv" |
	    awk -F'\t' '$1 == "bubble_group" {print $6, $9}'
done
