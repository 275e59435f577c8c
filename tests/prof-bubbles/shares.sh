# The recurrence and dominant-tag thresholds at their edges: 3 of 5 steps
# have bubbles (0.6), 1 of 5 steps is PARTIAL_CAPTURE_BOUNDARY (0.2).
for o in "--recurring=0.6 --tag-share=0.2" "--recurring=0.61 --tag-share=0.21"; do
	echo "$o"
	prof-bubbles $o <"$top_srcdir/tests/prof-bubbles/spec11-group.tsv" |
	    awk -F'\t' '$1 == "bubble_group" {print $6, $10}'
done
