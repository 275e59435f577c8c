# 10,000 trace files in one directory are read in time linear in their
# number (the run directory was read again for every file: 16 s, and
# about 33 KB each outside the memory budget): 30 s is ample here.
mkdir many
python3 -c '
for i in range(10000):
    open("many/t%05d.pt.trace.json" % i, "w").write("{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op\", \"pid\": 1, \"tid\": 1, \"ts\": %d, \"dur\": 2}]}\n" % i)
'
timeout 30 prof-ingest many >out
echo "exit $?, $(grep -c '^host' out) records, $(grep -c '^#source' out) sources"
