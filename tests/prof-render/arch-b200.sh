# The architecture report of vLLM on a B200 (tracelens): 36 fmhaSm100a
# attention kernels and TensorRT-LLM MoE routing and finalize kernels in
# every layer, so one forward pass of 36 MoE+GMM layers, the first a
# warm-up outlier; C++ kernel names are cut to their qualified name in
# the trees.  Checked against the raw JSON with grep, independently of
# prof-ingest and prof-layers: the fmha kernels are the layers, the MoE
# finalize kernels (one per layer) the grouped-matmul check.
B="$CORPUS/pytorch_kineto/tracelens/b200_eager_trace.json.gz"
[ -f "$B" ] || exit 77
prof-ingest -q "$B" | prof-layers | prof-render -f arch >report.md || exit 1
cat report.md
echo '--- checked against the JSON'
same() { if cmp -s "$1" "$2"; then echo agree; else echo DISAGREE; fi; }
f=$(gzip -dc "$B" | grep -oE '"name": *"[^"]*[Ff]mha' | wc -l)
m=$(gzip -dc "$B" | grep -oE '"name": *"[^"]*moe::dev::finalize' | wc -l)
echo "MoE+GMM layers $f, grouped_matmul $m in $f layers" | tee a
awk -F'|' '$2 == " MoE+GMM " && $3 == " forward " { gsub(/ /, "", $5); l = $5 }
    $2 == " `grouped_matmul` " { gsub(/ /, "", $4); gsub(/ /, "", $5); v = $4; n = $5 }
    END { printf "MoE+GMM layers %s, grouped_matmul %s in %s layers\n", l, v, n }' report.md >b
same a b
