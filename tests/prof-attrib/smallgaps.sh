# Many small gaps are one launch_bound finding (tagged many_small_gaps):
#   g0: 2 steps of 1 ms, 12 gaps each of 8, 10 or 12 us (median 10 us),
#      0.24 ms in all = 0.12 of the window time, each covered by an
#      operator with a launch: a finding, value 1 (all of the step
#      bubble time), high confidence; the kernels after them by count,
#      without their parameter lists;
#   g1: 5 gaps per step: too few (--small-count 10);
#   g2: 12 gaps with nothing traced: not while the host launches;
#   g3: a significant 2 ms gap that is launch_bound itself, and 12 small
#      gaps (0.06 of the window): the finding joins that record;
#   g4: a 200 s step with 12 gaps of 5 s and 1 s (below 0.1 of the step,
#      so small; lengths past 32 bits), median 3 s.
# The global scope (all 6 steps: 65 gaps) has both.
in=$top_srcdir/tests/prof-attrib/smallgaps.tsv
prof-attrib "$in" | awk -v kind=cause -f "$top_srcdir/tests/cols.awk" \
    -v want=name,scope,step_group,value,confidence,tags,evidence
# Thresholds: 13 gaps per step leaves every scope without the finding;
# a share of 0.13 of the window g0 (0.12) and g3 (0.06); launch+host
# over 0.9 of their time none (each scope is above).
for o in --small-count=13 --small-share=0.13 --small-host=0.9; do
	echo "$o:"
	prof-attrib "$o" "$in" | awk -v kind=cause -v want=name,scope,step_group,tags \
	    -f "$top_srcdir/tests/cols.awk" | sed 1d
done
