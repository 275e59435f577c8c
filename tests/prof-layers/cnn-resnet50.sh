# A convolutional network: one training step of ResNet-50 on a V100
# (tests/data/resnet50_step6.json.gz, an excerpt of the kineto
# tb_plugin sample: ProfilerStep#6 and the kernels its launches ran).
# ResNet-50 has 53 convolutions (49 and 4 shortcut ones) and one fully
# connected layer, in 16 bottleneck blocks of 3, 4, 6 and 3 in 4 stages.
# The counts are taken here from the kernel names without prof-layers:
# every convolution has a batch norm (cudnn bn_fw in the forward pass,
# bn_bw in the backward one), every block ends with one tensor add
# (AddFunctor<float>) in the forward pass, before the loss.
J="$top_srcdir/tests/data/resnet50_step6.json.gz"
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$J" >in.tsv || exit 1
echo '--- from the kernel names'
awk -F'\t' '$1 == "kernel" {
	if ($6 ~ /NLLCriterion_updateOutput/) loss = 1
	if ($6 ~ /bn_fw/) fw++
	if ($6 ~ /bn_bw/) bw++
	if (!loss && fw > 0 && $6 ~ /AddFunctor<float>/) add++
}
END { print "forward norms", fw, "backward norms", bw, "forward tensor adds", add }' in.tsv
echo '--- prof-layers'
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=model -v want=name,value,tags,evidence -f "$f" out.tsv
awk -v kind=pass,check -v want=kind,ts_ns,dur_ns,name,phase,rule,layers,kernel_count,residual_blocks,stages,value,expect_layers,per_layer,tags -f "$f" out.tsv
awk -v kind=layer_type -v want=phase,name,value,median_ns,cost_total_ns,idle_ns,gap_ns,block_busy_ns,side_busy_ns -f "$f" out.tsv
echo '--- blocks per stage of the forward pass, from the layer records'
awk -v kind=layer -v want=pass,layer_type,residual,stage -f "$f" out.tsv |
    awk -F'\t' 'NR > 1 && $1 == 0 && $4 != "" {
	if (!(($4, $3) in seen)) { seen[$4, $3] = 1; n[$4]++ }
	if ($4 > ns) ns = $4 }
    END { for (s = 0; s <= ns; s++) printf "stage %d: %d blocks\n", s, n[s] }'
echo '--- the first five layers of each pass'
awk -v kind=layer -v want=ts_ns,dur_ns,pass,layer,layer_type,kernel_count,busy_ns,idle_ns,gap_ns,residual,stage,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $4 < 5'
echo '--- checks: every layer and pass adds up'
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
$1 != "layer" && $1 != "pass" { next }
{
	k = $1 " " $c["pass"] " " $c["layer"]
	if ($c["block_sum_ns"] + $c["side_sum_ns"] != $c["kernel_sum_ns"])
		print "BAD block + side sum:", k
	if ($c["block_cost_ns"] + $c["side_cost_ns"] != $c["cost_total_ns"])
		print "BAD block + side cost:", k
	if ($c["cost_total_ns"] < $c["kernel_sum_ns"]) print "BAD cost:", k
	if ($c["idle_ns"] + $c["busy_ns"] > $3) print "BAD idle:", k
	n[$1]++
}
$1 == "layer" { idle[$c["pass"]] += $c["idle_ns"]
	if ($c["layer"] > 0) gap[$c["pass"]] += $c["gap_ns"] }
$1 == "pass" { pidle[$c["pass"]] = $c["idle_ns"]; pbet[$c["pass"]] = $c["between_ns"] }
END {
	for (p in pidle) if (pidle[p] != idle[p] || pbet[p] != gap[p])
		print "BAD pass sums:", p
	print n["layer"], "layers and", n["pass"], "passes checked"
}' out.tsv
