# Test helper standing in for prof-steps and prof-bubbles on a real
# ingested stream (run as: awk -v min=NS -f inject.awk S S, S twice): a
# window record per step record (step group g0), and bubble records at
# the gaps of the union of each rank's kernels inside its step: the
# prelaunch gap, internal gaps of at least min ns, and the tail gap.
# Adds the columns step_group, tags and bubble_id; keeps ts order.
# With -v stepcat=CAT only step records of that cat make windows.
BEGIN { FS = OFS = "\t"; sorter = "sort -s -t '\t' -k2,2n" }
FNR == NR { scan(); next }
/^#/ { print; next }
!hdr { hdr = 1; print $0, "step_group", "tags", "bubble_id"; fflush(); next }
$2 == "" { print $0, "", "", ""; fflush(); next }
{ print $0, "", "", "" | sorter }
END {
	for (d in cur) finish(d)
	for (i = 1; i <= nout; i++) print out[i] | sorter
	close(sorter)
}
function scan() {
	if (/^#/) return
	if (!h1) { h1 = 1; for (i = 1; i <= NF; i++) c[$i] = i; nf = NF; return }
	if ($1 == "step" && (stepcat == "" || $c["cat"] == stepcat)) {
		if ($4 in cur) finish($4)
		cur[$4] = $c["step"]; ws[$4] = $2 + 0; we[$4] = $2 + $3; me[$4] = $2 + 0
		emit("window", $2, $3, $4, $6, "marker", $c["step"], "")
	} else if ($1 == "kernel" && ($4 in cur) && $2 + 0 >= ws[$4] && $2 + 0 < we[$4]) {
		d = $4; s = $2 + 0; e = s + $3
		if (s > me[d] && (me[d] == ws[d] || s - me[d] >= min))
			emit("bubble", me[d], s - me[d], d,
			    me[d] == ws[d] ? "prelaunch" : "step_internal", "", cur[d], "b" ++nb)
		if (e > we[d]) e = we[d]
		if (e > me[d]) me[d] = e
	}
}
function finish(d) {
	if (me[d] < we[d])
		emit("bubble", me[d], we[d] - me[d], d, "tail", "", cur[d], "b" ++nb)
	delete cur[d]
}
function emit(kind, ts, dur, dev, name, cat, step, id,   r, i) {
	r = kind OFS sprintf("%.0f", ts) OFS sprintf("%.0f", dur) OFS dev OFS "" OFS name
	for (i = 7; i <= nf; i++)
		r = r OFS (i == c["cat"] ? cat : i == c["step"] ? step : "")
	out[++nout] = r OFS (kind == "window" ? "g0" : "") OFS "" OFS id
}
