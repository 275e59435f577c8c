# Overlap-and-clip: a kernel straddling the boundary of two steps counts
# in both; kernels that started before a window and run into it are
# clipped into it (dev 0's "before", dev 1's "long", which spans both
# steps and beyond); streams of one device are unioned; host and comm
# records are not busy by default.
prof-merge "$top_srcdir/tests/prof-merge/straddle.tsv" | sed '/^#stage /d'
