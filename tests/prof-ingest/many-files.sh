# 10,000 trace files in one directory are read in time linear in their
# number: the run directory was read again for every file (10,000 files
# took 16 s, and about 33 KB each outside the memory budget).  Linear
# here: four times the files take less than eight times as long (plus
# a second for the noise of a shared machine); the quadratic walk took
# sixteen times as long.  Times from date, so any build can be judged.
python3 -c '
import os
for d, n in (("small", 2500), ("many", 10000)):
    os.mkdir(d)
    for i in range(n):
        open("%s/t%05d.pt.trace.json" % (d, i), "w").write("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 2}]}\n" % i)
'
ns() { date +%s%N; }
t0=$(ns); prof-ingest -q small >small.tsv; t1=$(ns)
prof-ingest -q many >many.tsv; st=$?; t2=$(ns)
echo "exit $st, $(grep -c '^host' many.tsv) records, $(grep -c '^#source' many.tsv) sources"
small=$(((t1 - t0) / 1000000)) many=$(((t2 - t1) / 1000000))
if [ $many -lt $((8 * small + 1000)) ]; then
	echo "linear"
else
	echo "not linear: 2,500 files $small ms, 10,000 files $many ms"
fi
