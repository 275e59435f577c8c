# The Markdown report of the hand-made verdict stream (verdict.tsv): the
# Summary opens with the verdict of each rank and the time budget, the
# five bubble questions follow; rank 1 has no device data and is never
# called idle; the recommendations are prof-verdict's advice records in
# their order, with stake, share and evidence.
prof-render -f md "$top_srcdir/tests/prof-render/verdict.tsv"
