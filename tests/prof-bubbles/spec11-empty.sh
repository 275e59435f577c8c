# Reference vectors (doc/analysis-rules.md, Reference vectors): a step
# without kernels, a zero-length step.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-empty.tsv" | sed '/^#stage /d'
