# VARIABLE_SHAPE_SAME_TEMPLATE: within a step group, an op name whose
# calls in a step have the same count as in the group's first step but a
# different multiset of input shapes.
#   MatMul: steps 1 and 2 the same shapes (in another order), step 3 one
#           shape differs -> tagged
#   Add: step 3 has one call more (a different template) -> not tagged
#   Mul: same in steps 1-2 (group g0); step 3 is group g1, its own
#        reference -> not tagged
#   Cast: dev 1, steps 1 and 2 differ -> tagged on dev 1 only
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tstep\tstep_group\tin_shapes\n' >in.tsv
awk 'BEGIN { OFS = "\t"; t = 0
	n = split("1 MatMul 8,16;16,4|1 MatMul 8,8;8,8|2 MatMul 8,8;8,8|" \
	    "2 MatMul 8,16;16,4|3 MatMul 8,16;16,4|3 MatMul 9,8;8,8|" \
	    "1 Add 8|2 Add 8|3 Add 8|3 Add 8|" \
	    "1 Mul 4|2 Mul 4|3 Mul 5", c, "|")
	for (s = 1; s <= 3; s++)
		for (i = 1; i <= n; i++) {
			split(c[i], f, " ")
			if (f[1] == s)
				print "kernel", t += 10, 5, 0, 1, f[2], s,
				    (s == 3 && f[2] == "Mul") ? "g1" : "g0", f[3]
		}
	print "kernel", t += 10, 5, 1, 1, "Cast", 1, "g0", "2"
	print "kernel", t += 10, 5, 1, 1, "Cast", 2, "g0", "3"
}' >>in.tsv
prof-waitanchor in.tsv | awk -v kind=op,metric -v want=kind,dev,name,calls,value,tags -f "$top_srcdir/tests/cols.awk"
echo '--- by shape: every shape of a tagged name carries the tag'
prof-waitanchor --by-shape in.tsv | awk -v kind=op -v want=dev,name,in_shapes,calls,tags -f "$top_srcdir/tests/cols.awk"
echo '--- without a step column: skipped, and said so'
cut -f 1-6,9 in.tsv | prof-waitanchor -a | awk -v kind=metric -v want=kind,dev,name,value,tags -f "$top_srcdir/tests/cols.awk"
