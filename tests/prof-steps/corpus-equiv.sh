# Marker removal on every real capture with step markers or step ids
# (Kineto and Ascend): the windows prof-steps finds with them, against
# those detection finds once they are gone (equiv.awk: a marker step is
# matched when one window holds the same kernels, to 1 percent; every
# match here is exact).  In h100_Qwen and mi300 the kernels that ran
# first were launched before the capture (their corr has no launch in
# the trace): outside every step with the markers and without.
#
# Where they differ, and why:
# - queue_length (TorchRec, pipelined): the optimizer runs inside the
#   ProfilerStep, not at its end, and the marker boundary is at no idle
#   gap of the device: detection finds the period (1375 kernels) but
#   cuts it 376 kernels earlier; the last marker step also holds the
#   unmarked start of the next one (2253 kernels).
# - sampled_rank-0/1: two steps whose kernels on four streams start in a
#   different order in each: the two periods align at 60% (85% needed),
#   no period is accepted and the capture stays one pseudo-step.
[ -d "$CORPUS/pytorch_kineto" ] || exit 77
. "$top_srcdir/tests/prof-steps/equiv.subr"
for t in pytorch_kineto/hta/cpu_only_rank-34.pt.trace.json.gz \
    pytorch_kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
    pytorch_kineto/hta/queue_length_a100_80gb_rank0of16.json.gz \
    pytorch_kineto/hta/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz \
    pytorch_kineto/hta/sampled_rank-0_world128.json.gz \
    pytorch_kineto/hta/sampled_rank-1_world128.json.gz \
    pytorch_kineto/hta/trace_diff_control_a100_rank3of8.json.gz \
    pytorch_kineto/kineto_tb_plugin/resnet50_num_workers_0_worker0.1623143089861.pt.trace.json.gz \
    pytorch_kineto/tracelens/h100_Qwen1.5-0.5B-Chat_infer.json.gz \
    pytorch_kineto/tracelens/h100_bert-small_infer.json.gz \
    pytorch_kineto/tracelens/mi300_resnet_act_checkpoint_train.json.gz \
    ascend_torch_npu/msinsight_alexnet_2rank_2024-09/text_level1 \
    ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level0 \
    ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level1 \
    ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level2 \
    ascend_torch_npu/msinsight_llm_excerpt_2023-09/test_rank_1 \
    ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11/rank_0_ascend_pt \
    ascend_torch_npu/msprof_analyze_ut/kernel_details_2023-11_llm_aicpu.csv \
    ascend_torch_npu/msprof_analyze_ut/trace_view_2024-01.json; do
	echo "== $t"
	prof-ingest -q "$CORPUS/$t" >s.tsv || exit 1
	equiv s.tsv
done
