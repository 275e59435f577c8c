# Reference vector (doc/analysis-rules.md, Reference vectors): all four
# severity tags, T = 2 ms; the touching busy segments are merged here.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-four.tsv" | sed '/^#stage /d'
