# A real torch_npu kernel_details.csv with AI CPU kernels (an LLM, 2023):
# the AI CPU section lists the kernel classes prof-waitanchor tagged and
# the AI CPU ops with their masked ratio, and the recommendations move
# the exposed ones off the AI CPU (P1).  Counts checked with grep on the
# stream below.
K="$CORPUS/ascend_torch_npu/msprof_analyze_ut/kernel_details_2023-11_llm_aicpu.csv"
[ -f "$K" ] || exit 77
prof-ingest -q "$K" | prof-steps | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor >run.tsv || exit 1
for c in AICPU_MASKED_BUT_UNDESIRABLE AICPU_PARTIALLY_EXPOSED \
    AICPU_EXPOSED_NOT_ALLOWED AICPU_EXPOSED_RISK; do
	echo "$c $(grep '^kernel' run.tsv | grep -c "$c")"
done
prof-render -f md run.tsv >r.md
sed -n '/^### AI CPU/,/^### Structure/p;/^## Recommendations/,$p' r.md
