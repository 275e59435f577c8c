# communication.json cut anywhere keeps the ops that were whole before
# the cut (it was all or nothing), says where the file ends, exit 1.
# The reference count of whole ops with a start time comes from a scan
# of the cut text in python (helpers/prefix.py commops).
H="$top_srcdir/tests/prof-ingest/helpers/prefix.py"
c="$top_srcdir/examples/data/alexnet_2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"
size=$(wc -c <"$c")
mkdir p
for pct in 10 40 70 99; do
	head -c $((size * pct / 100)) "$c" >p/communication.json
	prof-ingest p/communication.json >out
	st=$?
	got=$(grep -c '^comm' out)
	want=$(python3 "$H" commops <p/communication.json)
	echo "$pct %: exit $st, $got ops, reference $want"
done
echo "whole: $(prof-ingest "$c" | grep -c '^comm') ops, reference $(python3 "$H" commops <"$c")"
# Damage other than a cut: the ops before a bad byte are kept too.
head -c $((size * 70 / 100)) "$c" >p/communication.json
printf '@' >>p/communication.json
tail -c +$((size * 70 / 100 + 2)) "$c" >>p/communication.json
prof-ingest p/communication.json | grep -c '^comm'
# A NUL byte that leaves an op's key open (a fuzz-json finding: the open
# key's length was taken as 2^64 - 318 bytes).
cp "$top_srcdir/fuzz/regress/json/comm-open-key" p/communication.json
prof-ingest p/communication.json >out
echo "open key: exit $?, $(grep -c '^comm' out) ops"
