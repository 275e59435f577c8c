# Reference vector of build_device_intervals (doc/analysis-rules.md,
# Reference vectors): busy records clipped to the window, overlapping, not
# merged.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/spec11-clip.tsv" | sed '/^#stage /d'
