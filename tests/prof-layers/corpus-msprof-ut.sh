# Two small Ascend test profiles of msprof-analyze (its unit-test data):
# a LeNet-style CNN (trace_view_2024-01.json: Conv2D1 and Conv2D3 with
# ReLU and max pooling, then three aclnnAddmm linear layers) and a
# 2-layer GPT-style model (kernel_details_2023-11_llm_aicpu.csv:
# unfused attention, ScaledMaskedSoftmax once per layer).  The aclnn
# wrappers split a matmul into casts, transposes and the MatMulV2
# kernel, all named aclnnMm_... or aclnnAddmm_...: they are one op, so
# the input and weight gradients of a linear layer are one backward run.
# The CNN: two Conv layers per pass and one Head of 3 linear layers; the
# GPT: a forward pass of two Dense layers.  Counted here from the names.
D="$CORPUS/ascend_torch_npu/msprof_analyze_ut"
[ -d "$D" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$D/trace_view_2024-01.json" >cnn.tsv || exit 1
awk -F'\t' '$1 == "kernel" { if ($6 ~ /^Conv2D[0-9]/) c++; if ($6 ~ /MatMulV2$/) m++ }
    END { print "Conv2D", c, "MatMulV2", m }' cnn.tsv
prof-layers cnn.tsv | awk -v kind=model,pass,layer -v want=kind,name,phase,rule,layers,kernel_count,tags -f "$f"
prof-ingest -q "$D/kernel_details_2023-11_llm_aicpu.csv" >gpt.tsv || exit 1
awk -F'\t' '$1 == "kernel" && $6 ~ /ScaledMaskedSoftmax/ { print $6 }' gpt.tsv | sort | uniq -c
prof-layers gpt.tsv | awk -v kind=model,pass,layer -v want=kind,name,phase,rule,layers,kernel_count,tags -f "$f"
