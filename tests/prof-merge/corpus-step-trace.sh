# Acceptance over the corpus's Ascend runs that have both markers and a
# step_trace_time.csv (see step-trace.sh), and the Qwen 4-rank run, which
# has no trace_view.json: its window is the extent of the kernels of the
# step (Stage), and busy must equal Computing + Communication(Not
# Overlapped) exactly.
[ -d "$CORPUS/ascend_torch_npu" ] || exit 77
t="$top_srcdir/tests/prof-merge"
for run in msinsight_alexnet_2rank_2024-09/text_level1 \
    msinsight_alexnet_2rank_2025-01/text_level0 \
    msinsight_alexnet_2rank_2025-01/text_level1 \
    msinsight_alexnet_2rank_2025-01/text_level2; do
	echo "$run"
	prof-ingest -q "$CORPUS/ascend_torch_npu/$run" |
	    awk -f "$t/mkwindows.awk" | prof-merge >out.tsv
	awk -f "$t/compare.awk" out.tsv | sort
done
echo msinsight_qwen_llm_pp2dp2_4rank_2025-11
prof-ingest -q "$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11" >in.tsv
awk -f "$t/extentwindows.awk" in.tsv in.tsv | prof-merge >out.tsv
awk -f "$t/compare.awk" out.tsv | sort
