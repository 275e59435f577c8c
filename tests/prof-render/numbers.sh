# Exact numbers: values are copied as the stages wrote them with the
# decimal point moved (ns to ms or us), whatever their form: leading
# zeros, trailing zeros, negative values, long fractions, values past
# 2^53.  Checked by hand against the input below.
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\tcalls\tdur_avg_ns\twait_avg_ns\tcost_avg_ns\tcost_total_ns\twait_ratio\trank_cost\ttags\n' >n.tsv
printf 'metric\t5\t\t0\t\tcapture_span_ns\t9007199254740993\t\t\t\t\t\t\t\t\n' >>n.tsv
printf 'metric\t5\t\t0\t\tcapture_busy_union_ns\t0007\t\t\t\t\t\t\t\t\n' >>n.tsv
printf 'metric\t5\t\t0\t\tcapture_gap_ns\t-1500\t\t\t\t\t\t\t\t\n' >>n.tsv
printf 'metric\t5\t\t0\t\tcapture_gap_ratio\t0.100\t\t\t\t\t\t\t\t\n' >>n.tsv
printf 'metric\t5\t\t0\t\tlargest_gap_ns\t0\t\t\t\t\t\t\t\t\n' >>n.tsv
printf 'op\t5\t\t0\t\tx\t\t3\t100.500\t0.000001\t52162.727273\t156488\t0.999999\t1\tWAIT_ANCHOR_FALSE_HOTSPOT\n' >>n.tsv
prof-render -f json n.tsv >n.json || exit 1
grep -E '"(capture_span_ms|device_busy_union_ms|device_gap_ms|device_gap_ratio|largest_gap_ms|duration_us_avg|wait_us_avg|total_cost_us_avg|wait_ratio|total_cost_ms|is_false_hotspot_risk)"' n.json
prof-render -f md n.tsv | grep -E '^\| 0 \|'
