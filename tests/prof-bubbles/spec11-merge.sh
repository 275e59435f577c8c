# Reference vector of merge_intervals (doc/analysis-rules.md, Reference
# vectors) as busy records.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-merge.tsv" | sed '/^#stage /d'
