# What each structure of a transformer costs: the bundled Qwen piece
# (examples/data/qwen_pp2dp2, rank 0 of a PP 2 x DP 2 training run on
# Ascend: two micro-batches, so two forward and two backward passes of
# 14 layers in one step).  kernel_details.csv gives a Wait Time and an
# Accelerator Core per kernel, so the total cost is duration + wait and
# the task classes are AI_CORE, AI_VECTOR_CORE, MIX_AIC, ...  Checked
# here against the kernel records themselves, without prof-layers'
# sums: a layer's cost_total_ns less its kernel_sum_ns is the wait_ns of
# the kernels it annotated, and its task classes are their core values.
e="$top_srcdir/examples/data/qwen_pp2dp2"
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$e" | prof-steps | prof-layers >out.tsv || exit 1
awk -v kind=pass -v want=pass,phase,step,micro,dur_ns,busy_ns,kernel_sum_ns,cost_total_ns,idle_ns,between_ns,gap_ns,step_share_ratio -f "$f" out.tsv
awk -v kind=pass -v want=pass,block_wall_ns,block_busy_ns,block_sum_ns,block_cost_ns,side_wall_ns,side_busy_ns,side_sum_ns,side_cost_ns,task_mix -f "$f" out.tsv
awk -v kind=metric -v want=name,value -f "$f" out.tsv |
    awk -F'\t' '$1 ~ /passes_per_step|macro/'
echo '--- layers 0 and 13 of each pass'
awk -v kind=layer -v want=pass,layer,dur_ns,busy_ns,kernel_sum_ns,cost_total_ns,idle_ns,gap_ns,block_busy_ns,side_busy_ns,step_share_ratio -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $2 == 0 || $2 == 13'
echo '--- wait and task classes from the kernel records'
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
$1 == "kernel" && $c["layer"] != "" {
	k = $c["pass"] " " $c["layer"]
	w[k] += $c["wait_ns"]; cores[k] = cores[k] " " $c["core"]
}
$1 == "layer" {
	k = $c["pass"] " " $c["layer"]
	diff[k] = $c["cost_total_ns"] - $c["kernel_sum_ns"]; mix[k] = $c["task_mix"]
}
END {
	for (k in diff) {
		n++
		if (diff[k] != w[k]) { bad++; print "wait differs:", k, diff[k], w[k] }
		split(mix[k], m, ";")
		for (j in m) { split(m[j], p, " ")
			if (index(cores[k] " ", " " p[2] " ") == 0) {
				bad++; print "class not a core:", k, p[2] } }
	}
	print n, "layers:", bad + 0, "disagreements"
}' out.tsv
