# Reference vector (doc/analysis-rules.md, Reference vectors): step
# [0,1200] us with four kernels.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-step.tsv" | sed '/^#stage /d'
