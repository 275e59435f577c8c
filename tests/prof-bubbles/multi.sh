# Two devices: evidence kernels, whole-capture gaps, cut windows,
# inter-step idle time between windows.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/multi.tsv" | sed '/^#stage /d'
