# The architecture report of the hand-made verdict stream: the verdict
# of every rank before the sections, and in the summary box of rank 0
# (the stream has no prof-layers records: the sections say so).
prof-render -f arch "$top_srcdir/tests/prof-render/verdict.tsv"
