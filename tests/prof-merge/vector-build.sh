# Reference vector of build_device_intervals (doc/analysis-rules.md,
# Reference vectors): kernels (start, dur) (-50,100) (10,30) (30,10)
# (200,100) (990,100) (1500,5) in microseconds, step [0, 1000]: clipped
# [0,50] [10,40] [30,40] [200,300] [990,1000], merged [0,50] [200,300]
# [990,1000], busy 0.16 ms.  The parts outside the step are busy records
# with an empty step.
prof-merge "$top_srcdir/tests/prof-merge/vector-build.tsv" >out.tsv
sed '/^#stage /d' out.tsv
awk -F'\t' '$1 == "busy" && $7 == "1" { s += $3 } END { print "busy_ns", s }' out.tsv
