# AI CPU masked ratio (doc/analysis-rules.md, AI CPU overlap classes)
# against the union of compute kernels on
# other streams, HCCL excluded, and the exposure risk without bubbles.
#   cpuA [100,300): Add [0,150) started before it, Mul [250,1000) starts
#        after it: masked 50 + 50 of 200 -> 0.5, partially exposed
#   cpuB [400,500): under Mul -> masked 1
#   cpuC [1200,1300): only an HCCL kernel over it -> 0, exposed, risk
#   cpuD [1400,1500): Sub [1480,1600) starts at 1480 -> 0.2 exactly,
#        partially exposed (the 0.2 bound is inclusive)
#   cpuE [1700,1700): no duration -> no ratio, no class
#   cpuF [1800,1900): Neg [1890,1950) -> 0.1, exposed
# The AI CPU kernels are written back in their places.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcore\twait_ns\n' >in.tsv
printf 'kernel\t%s\t%s\t0\t%s\t%s\t%s\t0\n' \
    0 150 1 Add AI_CORE \
    100 200 2 cpuA AI_CPU \
    250 750 1 Mul AI_CORE \
    400 100 2 cpuB AI_CPU \
    1100 500 3 hcom_allReduce_1 HCCL \
    1200 100 2 cpuC AI_CPU \
    1400 100 2 cpuD AI_CPU \
    1480 120 1 Sub AI_VECTOR_CORE \
    1700 0 2 cpuE AI_CPU \
    1800 100 2 cpuF AI_CPU \
    1890 60 1 Neg MIX_AIV >>in.tsv
prof-waitanchor in.tsv | awk -v want=kind,ts_ns,dur_ns,name,core,calls,masked_ratio,value,tags -f "$top_srcdir/tests/cols.awk"
