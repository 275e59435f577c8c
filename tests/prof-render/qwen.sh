# A real four-rank Qwen LLM training capture (pipeline 2 x data 2; two
# ranks' files in the corpus, rank 1 with communication only), without
# host events: the report keeps its anomaly section and says the host
# side is not traced.  JSON checked like json.sh.
t=$top_srcdir/tests/prof-render
d=$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11
[ -d "$d" ] || exit 77
prof-ingest -q "$d" | prof-steps | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor >run.tsv || exit 1
prof-render -f json run.tsv >report.json || exit 1
py=/usr/bin/python3
if [ -x $py ] && $py -c 'import jsonschema' 2>/dev/null; then
	$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" run.tsv \
	    report.json || exit 1
fi
prof-render -f md run.tsv
