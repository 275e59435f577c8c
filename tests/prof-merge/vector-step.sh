# Reference vectors (doc/analysis-rules.md, Reference vectors): step
# [0,1200] us with kernels [100,200] [150,300] [500,700] [900,950] has
# busy 0.45 ms in three segments; step [0,20000] us with [2500,5000]
# [5000,9000] [12000,17000] (here shifted to start at 2 ms) has busy 11.5
# ms, the touching kernels in one segment.
prof-merge "$top_srcdir/tests/prof-merge/vector-step.tsv" >out.tsv
grep '^busy' out.tsv
awk -F'\t' '$1 == "busy" { s[$7] += $3 } END { for (k in s) print "step", k, "busy_ns", s[k] }' out.tsv | sort
