# Acceptance (issue 3): per-step busy time of the bundled two-rank Ascend
# profile against the profiler's step_trace_time.csv.  Windows are made
# from the ProfilerStep markers by mkwindows.awk (prof-steps stands in
# for it in a pipeline).  Busy agrees with Computing + Communication(Not
# Overlapped) within 20 ns, and Stage - busy with Free within 0.2 us (the
# profiler rounds Stage to 0.25 us and computes in floating point).
t="$top_srcdir/tests/prof-merge"
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" |
    awk -f "$t/mkwindows.awk" | prof-merge >out.tsv
awk -f "$t/compare.awk" out.tsv | sort
