# Real torch_npu runs: the 2024-09 AlexNet capture (one ProfilerStep per
# rank), the Qwen 4-rank excerpt (no marker in it: windows from Step Id)
# and the LLM excerpt (two ranks, Step Id per kernel).
[ -d "$CORPUS/ascend_torch_npu" ] || exit 77
for r in msinsight_alexnet_2rank_2024-09 msinsight_qwen_llm_pp2dp2_4rank_2025-11 \
    msinsight_llm_excerpt_2023-09; do
	echo "== $r"
	prof-ingest -q "$CORPUS/ascend_torch_npu/$r" 2>/dev/null | prof-steps |
	awk -F'\t' '$1 == "window" { printf "%s %s %s %s %s %s", $4, $2, $3, $6, $7, $NF }
	    $1 == "metric" && $6 == "kernel_count" { print " kernels=" $22 }
	    $1 == "kernel" && $10 == "" { outside[$4]++ }
	    END { for (d in outside) print "dev " d ": kernels outside every step " outside[d] }'
done
