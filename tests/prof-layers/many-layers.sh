# More layers of a type than are kept exactly (65,536): 7,000 steps of
# 10 Dense layers (a FlashAttentionScore marker every 100 ns, a MatMul
# 15 ns after it, 1,000 ns between steps).  Each pass's last layer ends
# with its MatMul (25 ns); the other nine last 100 ns.  So over 70,000
# layers: min 25, max 100, median 100 (read from the histogram, exact
# below 128 ns, so the same as the exact one, and tagged median_approx),
# mean 92.5, sd sqrt((9 x 7.5^2 + 67.5^2) / 10) = 22.5, cv 22.5 / 92.5 =
# 0.243243; layers per pass: median 10, max 10.  The summary is the
# same size as for a few layers: nothing is kept per layer.
awk 'BEGIN {
	printf "#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\ttype\tstep\n"
	for (s = 1; s <= 7000; s++) {
		for (l = 0; l < 10; l++) {
			printf "kernel\t%d\t10\t0\t1\taclnnFA\tFlashAttentionScore\t%d\n", t, s
			printf "kernel\t%d\t10\t0\t1\tMatMul\tMatMul\t%d\n", t + 15, s
			t += 100
		}
		t += 1000
	}
}' >in.tsv
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=layer_type -v want=kind,name,phase,value,min_ns,median_ns,max_ns,cv_ratio,kernel_count,tags -f "$top_srcdir/tests/cols.awk" out.tsv
awk -v kind=metric -v want=name,value -f "$top_srcdir/tests/cols.awk" out.tsv |
    grep -E '^(layers_per_pass|layer_count)'
