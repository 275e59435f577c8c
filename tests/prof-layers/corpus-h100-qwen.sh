# A PyTorch Kineto trace of Qwen1.5-0.5B-Chat inference on an H100
# (tracelens): 24 decoder layers (num_hidden_layers in the model's
# config), one pytorch_flash::flash_fwd_kernel per layer.  The capture
# starts inside a forward pass, so the first pass is partial: 10 layers,
# then a whole pass of 24.  Independently of prof-ingest and
# prof-layers, the raw JSON is read with awk: device events (kernel,
# memcpy, memset) in time order, the number of them from one flash
# kernel to the next, and a new pass wherever that number differs from
# the layers' modal count (49; the pass boundary, with the LM head,
# sampling and the embedding, has more).  Without markers (-m nothing
# or -d) the detection scores, by a python3 check over the kernel names
# of the stream: silu and a mul kernel 1578 (35 occurrences, 49 apart),
# the flash kernel 1529 of 1591 positions (34 occurrences: the capture
# starts after the first layer's attention); within 5% attention wins,
# so the detected layers are the marker layers, confidence (1529 + 1) /
# (1591 + 2) = 0.960451 (the rule of succession, never 1).
J="$CORPUS/pytorch_kineto/tracelens/h100_Qwen1.5-0.5B-Chat_infer.json.gz"
[ -f "$J" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest "$J" >in.tsv || exit 1
prof-layers in.tsv >out.tsv || exit 1
gzip -dc "$J" | awk '
/"cat": "(kernel|gpu_memcpy|gpu_memset)"/ { k = 1; fl = 0; next }
k && /"name":/ { fl = /flash_fwd_kernel/; next }
k && /"ts":/ { v = $2; sub(/,$/, "", v); print v, fl; k = 0 }' |
    sort -s -n -k1,1 | awk '
$2 == 1 { if (nf > 0) cnt[nf] = n; nf++; n = 0 }
{ n++ }
END {
	for (i = 1; i < nf; i++) c[cnt[i]]++
	for (v in c) if (c[v] > best) { best = c[v]; mode = v }
	g = 1; size[1] = 1
	for (i = 1; i < nf; i++) {
		if (cnt[i] != mode) g++
		size[g]++
	}
	printf "flash kernels %d, layer kernel count %d, passes:", nf, mode
	for (i = 1; i <= g; i++) printf " %d", size[i]
	printf "\n"
}' >json.txt
cat json.txt
awk -v kind=layer -v want=pass,kernel_count,tags -f "$f" out.tsv | awk -F'\t' '
NR > 1 { n++; l[$1]++; if ($1 > np) np = $1; if ($3 !~ /last/) c[$2]++ }
END {
	for (v in c) if (c[v] > best) { best = c[v]; mode = v }
	printf "flash kernels %d, layer kernel count %d, passes:", n, mode
	for (p = 0; p <= np; p++) printf " %d", l[p]
	printf "\n"
}' >layers.txt
cat layers.txt
cmp -s json.txt layers.txt && echo 'agree with the JSON' || echo 'DISAGREE with the JSON'
echo '--- pass, check and metric records'
awk -v kind=pass,check,metric -v want=kind,ts_ns,dur_ns,name,pass,rule,layers,kernel_count,marker_dur_ns,value,expect_layers,tags -f "$f" out.tsv
echo '--- layer types, roles, streams'
awk -v kind=layer_type,role,stream -v want=kind,track,name,layer_type,phase,value,kernel_sum_ns,busy_ns,min_ns,median_ns,max_ns,cv_ratio,share_ratio -f "$f" out.tsv
echo '--- the same without markers (-m nothing): detected from the repeating sequence'
prof-layers -m nothing in.tsv >det.tsv || exit 1
awk -v kind=pass,metric -v want=kind,ts_ns,dur_ns,name,pass,rule,layers,kernel_count,value,tags -f "$f" det.tsv |
    awk -F'\t' 'NR == 1 || $1 == "pass" || $4 ~ /^(layer_count|pass_count|layer_detect)/'
echo '--- the anchor the detection chose (seq 0 of the sequence)'
awk -v kind=layer_seq -v want=seq,name,tags -f "$f" det.tsv |
    awk -F'\t' '$1 == 0 { print $3, $2 ~ /silu_kernel/ ? "silu_kernel" : $2 }'
echo '--- -d gives the same passes, and they are the marker passes'
prof-layers -d in.tsv | awk -v kind=pass -v want=ts_ns,dur_ns,layers,tags -f "$f"
awk -v kind=pass -v want=ts_ns,dur_ns,layers -f "$f" out.tsv >p1
awk -v kind=pass -v want=ts_ns,dur_ns,layers -f "$f" det.tsv >p2
cmp -s p1 p2 && echo 'same passes' || echo 'DIFFERENT passes'
