# The bundled two-rank Ascend profile: one ProfilerStep#50 per rank; every
# kernel falls in it, as its Step Id says; step_trace_time confirms it.
ln -s "$top_srcdir/examples/data" data
prof-ingest -q data/alexnet_2rank | prof-steps >out.tsv
grep -v '^#' out.tsv | awk -F'\t' '$1 == "window" || $1 == "group" ||
    ($1 == "metric" && $7 == "")'
echo "-- records per kind, rank and step"
grep -v '^#' out.tsv | awk -F'\t' 'NR > 1 { n[$1 " " $4 " " $10]++ }
    END { for (k in n) print k, n[k] }' | sort
