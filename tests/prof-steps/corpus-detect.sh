# Real traces without any step markers: sglang's decode loop is found
# (37 steps of about 14 kernels); the torch.compile trace has 12 kernels
# and no period that spans half of them, so it stays one pseudo-step with
# the best candidate's confidence.
[ -d "$CORPUS/pytorch_kineto" ] || exit 77
for t in tracelens/sglang_Qwen3-8B_prefilldecode.json.gz \
    tracelens/mi300x_torch_compile_triton.json.gz; do
	echo "== $t"
	prof-ingest -q "$CORPUS/pytorch_kineto/$t" | prof-steps | awk -F'\t' '
	    $1 == "window" { n++; w[$7]++ }
	    $1 == "metric" && $6 == "kernel_count" { k[$22]++ }
	    $6 == "step_detect_confidence" { conf = $22 " " $NF }
	    END {
		for (c in w) print "windows", c, w[c]
		for (x in k) print "steps with", x, "kernels:", k[x] | "sort -n -k3"
		close("sort -n -k3")
		print "confidence", conf
	    }'
done
