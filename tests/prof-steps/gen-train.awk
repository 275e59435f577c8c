# Generate a prof-tsv stream of S training steps on device 0 (default
# 2), each of A micro-batches (default 2) -- a forward pass of L layers
# (default 3), the loss, the backward of each layer -- then one
# optimizer step: a host annotation Optimizer.step#SGD.step around the
# launches of its kernels, linked to them by corr, as Kineto writes
# them.  The host loads data between steps.  No marker.  Deterministic.
BEGIN {
	OFS = "\t"
	if (s == "") s = 2
	if (a == "") a = 2
	if (l == "") l = 3
	split("norm qkv attention proj norm mlp", fwd, " ")
	split("bwd_mlp bwd_proj bwd_attention bwd_qkv", bwd, " ")
	print "#prof-tsv 1"
	print "kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat", "corr"
	t = 1000
	corr = 0
	for (step = 0; step < s; step++) {
		print "host", t, 1500, 0, 1, "dataloader", "cpu_op", ""
		t += 2000
		for (mb = 0; mb < a; mb++) {
			k("embedding"); k("position")
			for (i = 0; i < l; i++)
				for (j = 1; j <= 6; j++)
					k(fwd[j])
			k("final_norm"); k("lm_head"); k("loss")
			for (i = 0; i < l; i++)
				for (j = 1; j <= 4; j++)
					k(bwd[j])
		}
		print "host", t, 4 * 50, 0, 1, "Optimizer.step#SGD.step",
		    "user_annotation", ""
		for (i = 0; i < 4; i++) {
			print "host", t, 5, 0, 1, "cudaLaunchKernel",
			    "cuda_runtime", ++corr
			print "kernel", t + 10, 30, 0, 7, "sgd_update", "kernel",
			    corr
			t += 50
		}
	}
}
function k(name) {
	print "kernel", t, 40, 0, 7, name, "kernel", ""
	t += 50
}
