# --device-elsewhere: a rank without device data, alone in its stream
# (prof-report's pipeline per rank), is judged as it is in the stream of
# the whole job, beside a rank with kernels: one insufficient_evidence
# cause tagged no_device_data.  Without it, alone, its bubbles are
# judged as device idle time.  (Rank 1 of the corpus's 4-rank Qwen job
# holds communication only.)
C="$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11"
[ -d "$C" ] || exit 77
prof-ingest -q "$C/rank_1_ascend_pt" | prof-steps | prof-merge |
    prof-bubbles >r1.tsv || exit 1
prof-ingest -q "$C" | prof-steps | prof-merge | prof-bubbles >job.tsv || exit 1
causes() { awk -F'\t' '$1 == "cause" && $4 == 1 { print $4, $6 }' | sort | uniq -c; }
echo "alone:"
prof-attrib r1.tsv | causes
echo "alone, --device-elsewhere:"
prof-attrib --device-elsewhere r1.tsv | causes
echo "in the job's stream:"
prof-attrib job.tsv | causes
