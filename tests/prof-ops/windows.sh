# With prof-steps' windows the wall share is of the window time (tagged
# windows on ops_wall_ns), else of the span of the device's tasks; -a
# makes one group across devices.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    window 0 1000 0 '' 'step 1' \
    kernel 100 100 0 1 A \
    kernel 100 300 1 1 A \
    kernel 400 100 0 1 B >>in.tsv
prof-ops in.tsv | awk -v want=kind,dev,name,dur_total_ns,share_ratio,wall_share_ratio,tags,value -f "$top_srcdir/tests/cols.awk" | grep -v '^window\|^kernel'
prof-ops -a in.tsv | awk -v want=kind,dev,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
