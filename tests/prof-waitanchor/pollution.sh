# WAIT_POLLUTION_RISK: a kernel's wait window [ts - wait_ns, ts) overlaps
# a comm record on its device, or a comm kernel on another stream, for a
# positive length.
#   comm record [1000,2000) on dev 0; hcom kernel [3000,4000) on stream 5
#   a: [900,..) wait 100 -> window [800,900): before the comm -> no
#   b: [2100,..) wait 100 -> window [2000,2100) touches its end -> no
#   c: [2500,..) wait 1000 -> window [1500,2500) -> yes
#   d: [4200,..) wait 500, stream 5 (the hcom's own) -> no
#   e: [4300,..) wait 500, stream 1 -> window [3800,4300) -> yes
#   f: [4400,..) wait 5000 on dev 1 (no comm there) -> no
#   c again at 6000 without wait: the op keeps the tag
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcore\twait_ns\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 900 10 0 1 a AI_CORE 100 \
    comm 1000 1000 0 '' hcom_allReduce__1 '' '' \
    kernel 2100 10 0 1 b AI_CORE 100 \
    kernel 2500 10 0 1 c AI_CORE 1000 \
    kernel 3000 1000 0 5 hcom_allGather_2 HCCL 0 \
    kernel 4200 10 0 5 d AI_CORE 500 \
    kernel 4300 10 0 1 e AI_CORE 500 \
    kernel 4400 10 1 1 f AI_CORE 5000 \
    kernel 6000 10 0 1 c AI_CORE '' >>in.tsv
prof-waitanchor in.tsv | awk -v want=kind,ts_ns,dev,name,calls,wait_avg_ns,wait_ratio,value,tags -f "$top_srcdir/tests/cols.awk"
