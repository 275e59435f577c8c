# Groups by name on two devices: top 2 per device, a tail that adds the
# rest, so that the groups of a device add up to its task time; median of
# an even count is the mean of the middle two; sample standard deviation
# (n - 1) rounded to the ns: MatMul 100,200,300,400 -> mean 250, variance
# 50000/3, std 129.099 -> 129.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\ttype\tcore\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 100 0 1 MatMul MatMulV2 AI_CORE \
    kernel 0 50 1 1 Add Add AI_VECTOR_CORE \
    kernel 100 200 0 1 MatMul MatMulV2 AI_CORE \
    kernel 300 300 0 1 MatMul MatMulV2 AI_CORE \
    kernel 600 400 0 1 MatMul MatMulV2 AI_CORE \
    kernel 1000 10 0 1 trans_TransData_0 TransData AI_VECTOR_CORE \
    kernel 1010 30 0 1 trans_TransData_1 TransData AI_VECTOR_CORE \
    kernel 1040 7 0 1 Cast Cast AI_VECTOR_CORE \
    kernel 1047 3 0 1 hcom_allReduce__1 hcom_allReduce_ HCCL \
    kernel 1050 1 0 2 EVENT_RECORD EVENT_RECORD '' >>in.tsv
prof-ops -n 2 in.tsv | awk -v want=kind,dev,name,rank,calls,dur_total_ns,dur_avg_ns,dur_median_ns,dur_std_ns,dur_min_ns,dur_max_ns,share_ratio,wall_share_ratio,category,nc_class,groups,top_groups,tags,value -f "$top_srcdir/tests/cols.awk"
