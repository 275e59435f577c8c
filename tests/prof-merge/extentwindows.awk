# Make window records from the step ids of the kernels of a prof-ingest
# stream, for a test: each (dev, step) gets the window from its first
# kernel start to its last kernel end, the profiler's "Stage".  Give the
# file twice: the first pass finds the extents, the second writes the
# stream with the windows in their place and a step_group column.
BEGIN { FS = OFS = "\t" }
FNR == 1 { pass++; h = 0 }
/^#/ { if (pass == 2) print; next }
!h {
	h = 1
	for (i = 1; i <= NF; i++)
		c[$i] = i
	if (pass == 2)
		print $0, "step_group"
	next
}
pass == 1 {
	if ($1 == "kernel" && $c["step"] != "") {
		k = $4 SUBSEP $c["step"]
		if (!(k in lo) || $2 + 0 < lo[k])
			lo[k] = $2 + 0
		if (!(k in hi) || $2 + $3 > hi[k])
			hi[k] = $2 + $3
	}
	next
}
{
	for (k in lo)
		if ($2 != "" && !(k in done) && lo[k] <= $2 + 0) {
			done[k] = 1
			split(k, kk, SUBSEP)
			line = "window" OFS lo[k] OFS hi[k] - lo[k] OFS kk[1] \
			    OFS OFS "step " kk[2]
			for (i = 7; i <= NF; i++)
				line = line OFS (i == c["step"] ? kk[2] : "")
			print line, "g0"
		}
	print $0, ""
}
