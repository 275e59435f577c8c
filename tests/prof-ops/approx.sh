# Past --exact durations a group keeps a histogram: the median is then
# within 1/128 of the true one and the record is tagged median_approx;
# the total, min, max and std stay exact.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
awk 'BEGIN { for (i = 0; i < 9; i++) printf "kernel\t%d\t%d\t0\t1\tK\n", i * 100000, 1000 + 10 * i }' >>in.tsv
prof-ops in.tsv | awk -v want=kind,name,calls,dur_total_ns,dur_median_ns,dur_std_ns,tags -f "$top_srcdir/tests/cols.awk" | grep opgroup
prof-ops -m 4 in.tsv | awk -v want=kind,name,calls,dur_total_ns,dur_median_ns,dur_std_ns,tags -f "$top_srcdir/tests/cols.awk" | grep opgroup
