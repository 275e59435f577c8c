# Real traces without any step markers.  sglang (Qwen3-8B, one prefill
# of 15 requests) and vLLM's gpt-oss on a B200 each hold one forward
# pass: their layers (36, of 14 and 25 kernels; the B200's alternate two
# attention kinds, so a period of two layers is seen first) repeat and
# nothing else does, so the capture is one window, a pass taken for the
# step at a low confidence, not 37 or 19 "steps" of a layer or two.  The
# torch.compile trace has 12 kernels and no period that spans half of
# them, so it stays one pseudo-step with the best candidate's
# confidence.
[ -d "$CORPUS/pytorch_kineto" ] || exit 77
for t in tracelens/sglang_Qwen3-8B_prefilldecode.json.gz \
    tracelens/b200_eager_trace.json.gz \
    tracelens/mi300x_torch_compile_triton.json.gz; do
	echo "== $t"
	prof-ingest -q "$CORPUS/pytorch_kineto/$t" | prof-steps | awk -F'\t' '
	    $1 == "window" { n++; w[$7]++ }
	    $1 == "metric" && $6 == "kernel_count" { k[$22]++ }
	    $6 == "step_detect_confidence" { conf = $22 " " $NF }
	    $6 == "period_count" || $6 == "period_kernels" ||
		$6 == "period_confidence" { print $6, $22, $NF }
	    END {
		for (c in w) print "windows", c, w[c]
		for (x in k) print "steps with", x, "kernels:", k[x] | "sort -n -k3"
		close("sort -n -k3")
		print "confidence", conf
	    }'
done
