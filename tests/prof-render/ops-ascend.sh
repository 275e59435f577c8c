# The Ops section on a real Ascend run (AlexNet, torch_npu, rank 0 of
# text_level1): after the verdict and the budget, the op types with
# their shares and the tail row that adds up to the task time, the PMU
# averages and the non-compute audit (TransData layout changes, copies,
# casts); the terminal summary's line; the JSON member checked value by
# value against the stream (check-json.py).
t=$top_srcdir/tests/prof-render
f=$CORPUS/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level1/rank0_ascend_pt
[ -d "$f" ] || exit 77
prof-ingest -q "$f" | prof-steps | prof-merge | prof-bubbles | prof-attrib |
    prof-roofline | prof-ops -k type -n 8 | prof-verdict >run.tsv || exit 1
prof-render -f md run.tsv >report.md || exit 1
grep -n '^## ' report.md
sed -n '/^## Ops/,/^## Metrics/p' report.md
prof-render -f text run.tsv | sed -n '/^ops by/,/^rank/p'
prof-render -f json run.tsv >report.json || exit 1
py=/usr/bin/python3
if [ -x $py ] && $py -c 'import jsonschema' 2>/dev/null; then
	$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" run.tsv \
	    report.json || exit 1
fi
