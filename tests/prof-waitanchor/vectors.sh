# The wait-anchor vectors (doc/analysis-rules.md, Reference vectors),
# score_wait_anchor on per-op averages: each vector is one op on a device
# of its own, ranked behind fillers of 2 ms so that its cost rank is the
# one the vector names.
#   dev 1: dur 5 us, wait 200 us, rank 3  -> ratio 0.97561, flagged
#   dev 2: dur 5, wait 95, rank 3         -> ratio exactly 0.95, not
#   dev 3: dur 9.99, wait 1000, rank 10   -> flagged
#   dev 4: dur 10, wait 1000, rank 1      -> not (dur not < 10 us)
#   dev 5: dur 5, wait 1000, rank 11      -> not (rank)
#   dev 6: dur 0, wait 0, rank 1          -> ratio 0, not
awk 'BEGIN {
	OFS = "\t"; print "#prof-tsv 1"
	print "kind", "ts_ns", "dur_ns", "dev", "track", "name", "core", "wait_ns"
	split("1 5000 200000 3;2 5000 95000 3;3 9990 1000000 10;" \
	    "4 10000 1000000 1;5 5000 1000000 11;6 0 0 1", v, ";")
	for (i = 1; i <= 6; i++) {
		split(v[i], f, " ")
		for (j = 1; j < f[4]; j++)
			print "kernel", t += 10, 2000000, f[1], 0, "filler" j, "AI_CORE", 0
		print "kernel", t += 10, f[2], f[1], 0, "vector", "AI_CORE", f[3]
		print "kernel", t += 10, f[2], f[1], 0, "vector", "AI_CORE", f[3]
	}
}' >in.tsv
prof-waitanchor in.tsv | awk -v kind=op -v want=dev,name,calls,dur_avg_ns,wait_avg_ns,cost_avg_ns,wait_ratio,rank_cost,rank_dur,tags -f "$top_srcdir/tests/cols.awk" | grep -v filler
