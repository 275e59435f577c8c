# Two GPU inference traces (tracelens) whose attention kernels are fmha
# ones.  SGLang Qwen3-8B prefill on an AMD GPU: 36 decoder layers
# (num_hidden_layers of Qwen3-8B), one Composable Kernel
# FmhaBatchPrefillWithPagedKVCache kernel each.  vLLM on a B200: 36
# fmhaSm100a kernels alternating sliding-window and full attention, and
# TensorRT-LLM MoE routing and finalize kernels in every layer (the
# gpt-oss layout, inferred from the names), so 36 MoE+GMM layers.  The
# counts are taken from the raw JSON with grep, independently of
# prof-ingest and prof-layers.
S="$CORPUS/pytorch_kineto/tracelens/sglang_Qwen3-8B_prefilldecode.json.gz"
B="$CORPUS/pytorch_kineto/tracelens/b200_eager_trace.json.gz"
[ -f "$S" ] && [ -f "$B" ] || exit 77
f="$top_srcdir/tests/cols.awk"
for j in "$S" "$B"; do
	echo "=== ${j##*/}"
	gzip -dc "$j" | grep -oE '"name": *"[^"]*[Ff]mha' | wc -l | awk '{ print "json: fmha kernels", $1 }'
	gzip -dc "$j" | grep -oE '"name": *"[^"]*moe::dev::finalize' | wc -l | awk '{ print "json: moe finalize kernels", $1 }'
	prof-ingest "$j" | prof-layers >out.tsv || exit 1
	awk -v kind=layer -v want=layer_type -f "$f" out.tsv | tail -n +2 | sort | uniq -c |
	    awk '{ print "prof-layers:", $2, "layers", $1 }'
	awk -v kind=pass,check -v want=kind,ts_ns,dur_ns,name,pass,rule,layers,kernel_count,marker_dur_ns,value,expect_layers,per_layer,tags -f "$f" out.tsv
	awk -v kind=metric,layer_type,stream -v want=kind,track,name,layer_type,value,min_ns,median_ns,max_ns,cv_ratio,share_ratio,src -f "$f" out.tsv |
	    awk -F'\t' 'NR == 1 || $11 == ""' | cut -f 1-10
	awk -v kind=role -v want=name,layer_type,value,busy_ns,kernel_sum_ns,share_ratio -f "$f" out.tsv
done
