# Busy time outside the window or of another step is not the step's;
# unknown kinds and columns and timeless records pass through.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/misc.tsv" | sed '/^#stage /d'
