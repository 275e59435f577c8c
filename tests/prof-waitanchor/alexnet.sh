# The bundled two-rank Ascend profile (kernels from kernel_details,
# comm records from communication.json): per device, then --all-devs,
# and --by-shape.
ln -s "$top_srcdir/examples/data" data
f="$top_srcdir/tests/cols.awk"
w=kind,dev,name,in_shapes,core,calls,dur_avg_ns,wait_avg_ns,cost_avg_ns,wait_ratio,rank_cost,rank_dur,value,tags
prof-ingest -q data/alexnet_2rank >stream.tsv
prof-waitanchor stream.tsv | awk -v kind=op,metric -v want=$w -f "$f" |
    awk -F'\t' 'NR == 1 || $1 == "metric" && $3 !~ /^profiler/ || $11 <= 6 || $14 ~ /HOTSPOT/'
echo '--- -a'
prof-waitanchor -a stream.tsv | awk -v kind=op -v want=$w -f "$f" | awk -F'\t' 'NR == 1 || $11 <= 6'
echo '--- -s'
prof-waitanchor -s stream.tsv | awk -v kind=op -v want=$w -f "$f" | awk -F'\t' 'NR == 1 || $11 <= 4'
echo '--- passed through unchanged apart from the added columns'
n=$(grep -v '^#' stream.tsv | head -n 1 | awk -F'\t' '{ print NF }')
prof-waitanchor stream.tsv | grep -v -e '^#stage' -e '^op' -e '^metric.*\(wait_recorded\|variable_shape_checked\)' | cut -f 1-$n >a
grep -v '^#stage' stream.tsv >b
grep -v '^#stage' stream.tsv | grep -c . ; cmp a b && echo same
