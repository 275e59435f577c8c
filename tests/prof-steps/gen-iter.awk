# Generate a prof-tsv stream of N iterations of one kernel sequence on
# device 0 (two streams, with a data-loading gap between iterations),
# starting partway into an iteration as a real capture would (and, with
# LAST set, ending after the LAST-th kernel of the last one).  Used by
# the detection cases; deterministic.
BEGIN {
	OFS = "\t"
	split("load fwd_a fwd_b allreduce fwd_a fwd_b bwd_a bwd_b opt", seq, " ")
	nseq = 9
	if (n == "") n = 5
	print "#prof-tsv 1"
	print "#origin_ns 0"
	print "kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat", "core", "step", "wait_ns", "value"
	t = 1000
	for (it = 0; it < n; it++) {
		for (i = (it == 0 ? 6 : 1); i <= nseq; i++) {
			if (it == n - 1 && last != "" && i > last)
				break
			if (i == 1) {
				print "host", t, 400, 0, 1, "dataloader", "cpu_op", "", "", "", ""
				t += 500
			}
			tr = seq[i] == "allreduce" ? 9 : 7
			print "kernel", t, 20, 0, tr, seq[i], "kernel", "", "", "", ""
			t += 25
		}
	}
}
