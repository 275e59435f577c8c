# The op simulator's in-core view in the reports (real run, corpus): the
# busy cycles per pipe of core3.veccore0 from its instr_exe.csv, their
# shares, the bounding pipe, and the degenerate-trace flag this near
# empty trace gets (prof-roofline: 376 ns busy of 2277 ns); the cycles
# per pipe are those of the CSV, summed here apart (awk), and the JSON
# member adds up to the core's cycles (check-json.py).
t=$top_srcdir/tests/prof-render
f=$CORPUS/ascend_msprof_op_simulator/neo-pan_real_simulator_minimal/simulator
[ -d "$f" ] || exit 77
prof-ingest -q "$f" | prof-steps 2>/dev/null | prof-merge | prof-bubbles |
    prof-attrib | prof-roofline | prof-verdict >run.tsv || exit 1
echo "cycles per pipe of the CSV:"
awk -F, 'NR > 1 { c[$3] += $5; n[$3] += $4 } END { for (p in c) print p, c[p], n[p] }' \
    "$f"/core3.veccore0/core3.veccore0_instr_exe.csv | sort
prof-render -f md run.tsv | sed -n '/^## Ops/,/^## Metrics/p'
prof-render -f text run.tsv | sed -n '/^in-core/,/^rank/p'
prof-render -f json run.tsv >report.json || exit 1
py=/usr/bin/python3
if [ -x $py ] && $py -c 'import jsonschema' 2>/dev/null; then
	$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" run.tsv \
	    report.json || exit 1
	$py -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))["ops"]["in_core"], indent=1))' report.json
fi
