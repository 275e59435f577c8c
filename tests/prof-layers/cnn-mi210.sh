# A convolutional network on ROCm: a ResNet-18 training step on an
# MI210 (tests/data/mi210_gpu_only_trace.json.gz, TraceLens), MIOpen's
# convolutions (igemm_fwd, igemm_bwd, igemm_wrw), PyTorch's batch norms
# and one fully connected layer (hipBLASLt Cijk_).  ResNet-18 has 20
# convolutions (17 and 3 shortcut ones) in 8 basic blocks of 2, two per
# stage.  Counted here from the names without prof-layers: a batch norm
# per convolution (batch_norm_collect_statistics forward,
# batch_norm_backward), a tensor add (CUDAFunctor_add) per block in the
# forward pass, before the loss (mse_kernel).
J="$top_srcdir/tests/data/mi210_gpu_only_trace.json.gz"
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$J" >in.tsv || exit 1
echo '--- from the kernel names'
awk -F'\t' '$1 == "kernel" {
	if ($6 ~ /mse_kernel_cuda/) loss = 1
	if ($6 ~ /batch_norm_collect_statistics/) fw++
	if ($6 ~ /batch_norm_backward_kernel/) bw++
	if (!loss && fw > 0 && $6 ~ /CUDAFunctor_add<c10::BFloat16>/) add++
}
END { print "forward norms", fw, "backward norms", bw, "forward tensor adds", add }' in.tsv
echo '--- prof-layers'
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=model -v want=name,value,tags -f "$f" out.tsv
awk -v kind=pass,check -v want=kind,dur_ns,name,rule,layers,residual_blocks,stages,busy_ns,idle_ns,between_ns,value,expect_layers,tags -f "$f" out.tsv
awk -v kind=layer_type -v want=phase,name,value,median_ns -f "$f" out.tsv
echo '--- the forward pass, layer by layer'
awk -v kind=layer -v want=pass,layer,layer_type,kernel_count,residual,stage,idle_ns,gap_ns -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $1 == 0'
