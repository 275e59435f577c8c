# Reference vector of aggregate_group_metrics (doc/analysis-rules.md,
# Reference vectors): p95 of the largest internal bubble 780000 ns,
# recurring (3/5), dominant prelaunch, underfeed_ratio_avg 0.1826.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-group.tsv" | sed '/^#stage /d'
