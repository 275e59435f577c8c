# The Ops section on a real Kineto trace (BERT inference on an H100,
# TraceLens): kernels grouped by the aten operator that launched them
# (prof-ops -k type joins each kernel to its cpu_op by External id),
# the tail row, and the non-compute audit (a device-to-host copy).
f=$CORPUS/pytorch_kineto/tracelens/h100_bert-small_infer.json.gz
[ -r "$f" ] || exit 77
prof-ingest -q "$f" | prof-steps | prof-ops -k type -n 6 >run.tsv || exit 1
prof-render -f md run.tsv | sed -n '/^## Ops/,/^## Metrics/p'
prof-render -f text run.tsv | grep -A3 '^ops by'
