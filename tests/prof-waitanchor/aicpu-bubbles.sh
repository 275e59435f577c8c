# With prof-bubbles output (a bubble_id column), AICPU_EXPOSED_RISK needs
# an AI CPU kernel that is not masked (ratio < 0.9) and borders or
# overlaps a bubble of its device.
#   cpuA [100,200): exposed, bubble [200,300) starts at its end -> risk
#   cpuB [350,450): exposed, no bubble touches it -> no risk
#   cpuC [600,700): partially exposed (Add [650,700)), bubble [500,600)
#        ends at its start -> risk
#   cpuD [800,900): exposed, the bubble [850,860) is on device 1 -> no
#   cpuE [1000,1100): masked, bubble [1100,1200) -> no risk
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcore\tbubble_id\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 100 100 0 2 cpuA AI_CPU '' \
    bubble 200 100 0 '' step_internal '' b1 \
    kernel 350 100 0 2 cpuB AI_CPU '' \
    bubble 500 100 0 '' step_internal '' b2 \
    kernel 600 100 0 2 cpuC AI_CPU '' \
    kernel 650 50 0 1 Add AI_CORE '' \
    kernel 800 100 0 2 cpuD AI_CPU '' \
    bubble 850 10 1 '' step_internal '' b3 \
    kernel 1000 100 0 2 cpuE AI_CPU '' \
    kernel 1000 100 0 1 Mul AI_CORE '' \
    bubble 1100 100 0 '' tail '' b4 >>in.tsv
prof-waitanchor in.tsv | awk -v want=kind,ts_ns,dev,name,calls,masked_ratio,tags -f "$top_srcdir/tests/cols.awk"
