# significant_bubble_count: the step of spec11-four.tsv has a 2.5 ms
# prelaunch, one 3 ms internal gap and a 3 ms tail.  The floor is
# inclusive, counts prelaunch and tail, and bubble_count stays 1.
for f in 100000 2500000 2600000 3000000 3000001; do
	echo "--floor=$f:"
	prof-bubbles --floor=$f <"$top_srcdir/tests/prof-bubbles/spec11-four.tsv" |
	    awk -v want=name,value -v kind=metric -f "$top_srcdir/tests/cols.awk" |
	    grep -E '^(significant_)?bubble_count(_avg)?	'
done
