# The JSON object of the hand-made verdict stream: still valid against
# the anomaly_discovery schema with the top-level verdict array, and
# equal value by value to the stream (check-json.py, which reads the
# verdict, budget and advice records on its own).  A changed value makes
# the check fail.
t=$top_srcdir/tests/prof-render
py=/usr/bin/python3
[ -x $py ] || py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
prof-render -f json "$t/verdict.tsv" >report.json || exit 1
$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" "$t/verdict.tsv" report.json
st=$?
[ $st -eq 0 ] || exit $st
sed 's/"share": 0.462,/"share": 0.463,/' report.json >bad.json
$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" "$t/verdict.tsv" bad.json >bad.txt &&
    echo 'the changed value went unnoticed'
head -n 2 bad.txt
cat report.json
