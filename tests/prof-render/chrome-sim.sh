# The op simulator's pipe lanes in the Chrome trace (real run, corpus):
# one lane per pipe of the core, named and sorted in dataflow order
# (MTE2, MTE1, CUBE, VECTOR, FIXPIPE, MTE3), not all on one thread.  The
# flows between pipes are looked for on those lanes; this excerpt's two
# start and end where no slice of their lane is (MTE2 at 1,770 ns, whose
# slices end at 155), so they are dropped and counted, not drawn to
# nothing.
f=$CORPUS/ascend_msprof_op_simulator/neo-pan_real_simulator_minimal/simulator
[ -d "$f" ] || exit 77
prof-ingest -q "$f" >run.tsv || exit 1
prof-render -f chrome run.tsv >trace.json || exit 1
echo "lanes (tid, sort index, name):"
sed -n 's/.*"thread_sort_index","pid":0,"tid":\([0-9]*\),.*"sort_index":\([0-9]*\).*/\1 \2/p' trace.json >sort
sed -n 's/.*"thread_name","pid":0,"tid":\([0-9]*\),.*"name":"\([^"]*\)".*/\1 \2/p' trace.json >name
join sort name | sort -n
echo "pipe events per lane:"
sed -n 's/.*"cat":"pipe","pid":0,"tid":\([0-9]*\),.*/\1/p' trace.json | sort -n | uniq -c
echo "pipe records per pipe in the stream:"
awk -F'\t' '$1 == "pipe" { print $5 }' run.tsv | sort | uniq -c
echo "flow ends (phase, lane):"
sed -n 's/^{"ph":"\([st]\)".*"tid":\([0-9]*\),.*/\1 \2/p' trace.json
echo "arrows drawn and dropped:"
grep -o '"flow_arrows":[0-9]*,"flow_arrows_dropped":[0-9]*' trace.json
