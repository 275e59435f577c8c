# No markers: windows from the kernels' own step ids; step 6 is cut by
# the capture start (2 kernels against a median of 4); step_trace_time
# lists steps 7 and 8, which are tagged confirmed.
prof-steps "$top_srcdir/tests/prof-steps/stepid.tsv" | sed '/^#stage /d'
