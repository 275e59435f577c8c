# Make prof-steps-like window records from the ProfilerStep markers of a
# prof-ingest stream, for tests while prof-steps is not at hand: a
# step_group column is appended, and each "step" record is followed by a
# window (same ts and dur, name "step N", step N, step_group g0).
BEGIN { FS = OFS = "\t" }
/^#/ { print; next }
!h {
	h = 1
	for (i = 1; i <= NF; i++)
		c[$i] = i
	print $0, "step_group"
	next
}
{ print $0, "" }
$1 == "step" {
	n = split($0, f, "\t")
	for (i = 1; i <= n; i++)
		if (i > c["dev"] && i != c["step"] && i != c["dur_ns"])
			f[i] = ""
	f[1] = "window"
	f[c["name"]] = "step " $c["step"]
	line = f[1]
	for (i = 2; i <= n; i++)
		line = line OFS f[i]
	print line, "g0"
}
