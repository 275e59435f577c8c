# Gaps at window boundaries: a tail that is the whole-capture gap, and a
# gap across an empty window, with the kernel after it read before the
# window that it starts.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/boundary.tsv" | sed '/^#stage /d'
