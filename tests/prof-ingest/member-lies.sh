# Archive members and files that are not what their names say: a tar
# member kernel_details.csv holding JSON, a .pt.trace.json.gz that is
# plain text (alone, and as a tar member), a trace .json holding CSV.
# Each is an error naming the member; a .json.gz that is really bzip2
# is read by its content.
mkdir -p p/ASCEND_PROFILER_OUTPUT
cp "$DATA/kineto_before_fix.json" p/ASCEND_PROFILER_OUTPUT/kernel_details.csv
tar cf p.tar p
prof-ingest p.tar >/dev/null
echo "exit $?"
cp "$DATA/notes.txt" x.pt.trace.json.gz
prof-ingest x.pt.trace.json.gz >/dev/null
echo "exit $?"
mkdir q
cp "$DATA/notes.txt" q/rank0.pt.trace.json.gz
tr -d '\r' <"$DATA/kd_level0_head.csv" >q/rank1.pt.trace.json
tar cf q.tar q
prof-ingest q.tar >/dev/null
echo "exit $?"
bzip2 -c "$DATA/kineto_before_fix.json" >k.json.gz
prof-ingest k.json.gz | grep -c '^host'
prof-ingest "$DATA/kineto_before_fix.json" | grep -c '^host'
