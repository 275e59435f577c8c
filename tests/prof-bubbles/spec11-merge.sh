# Reference vector (spec 11) of merge_intervals as busy records.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-merge.tsv" | sed '/^#stage /d'
