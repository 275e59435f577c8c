# Generate a prof-tsv stream of P inference passes on device 0 (default
# 3): each an embedding and a position kernel, L layers (default 6) of
# norm, qkv, attention, proj, norm, mlp, then a final norm, the head and
# a sampling kernel, with the host preparing the next pass in between.
# No marker: detection must find layers in passes, not steps in layers.
# Deterministic.
BEGIN {
	OFS = "\t"
	if (p == "") p = 3
	if (l == "") l = 6
	split("norm qkv attention proj norm mlp", layer, " ")
	print "#prof-tsv 1"
	print "kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat"
	t = 1000
	for (pass = 0; pass < p; pass++) {
		k("embedding"); k("position")
		for (i = 0; i < l; i++)
			for (j = 1; j <= 6; j++)
				k(layer[j])
		k("final_norm"); k("lm_head"); k("sample")
		t += 2000
	}
}
function k(name) {
	print "kernel", t, 40, 0, 7, name, "kernel"
	t += 50
}
