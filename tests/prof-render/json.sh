# The anomaly_discovery object of the bundled profile: valid against the
# schema of the analysis rules (python3-jsonschema, Debian's) and equal,
# value by value, to the stream it came from (check-json.py reads the
# stream with Decimal arithmetic, apart from prof-render).  Exits 77
# only when the validator cannot be had.
t=$top_srcdir/tests/prof-render
py=/usr/bin/python3
[ -x $py ] || py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
# From examples/, so that the stages member holds no absolute path.
(cd "$top_srcdir/examples" && prof-ingest -q data/alexnet_2rank) | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
prof-render -f json run.tsv >default.json || exit 1
$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" run.tsv default.json
st=$?
[ $st -eq 0 ] || exit $st
# -n 0 and -n 200 (more than there are bubbles) still check out.
for n in 0 200; do
	prof-render -f json -n $n run.tsv >report.json || exit 1
	$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" run.tsv \
	    report.json $n || exit 1
done
cat default.json
