# The verdict in the architecture report of a rank with layers: before
# the sections and in the rank's summary box.  The stream is the bundled
# Qwen piece through prof-layers, with a verdict record added by awk as
# prof-verdict would write it (columns by name, added where missing;
# summary record at the end).
prof-ingest -q "$top_srcdir/examples/data/qwen_pp2dp2" | prof-steps |
    prof-layers >l.tsv || exit 1
awk -F'\t' -v OFS='\t' '
BEGIN {
	split("scope share_ratio stake_ns window_ns steps confidence evidence", want, " ")
	split("run|0.518717|420174291|810022360|1|high|comm_exposed 420.174 ms/step (51.9%)", val, "|")
}
/^#/ { print; next }
!n {
	n = NF
	for (i = 1; i <= NF; i++) c[$i] = i
	head = $0
	for (k = 1; k <= 7; k++)
		if (!(want[k] in c)) { c[want[k]] = ++n; head = head OFS want[k] }
	print head; next
}
{ line = $0; for (i = NF + 1; i <= n; i++) line = line OFS; print line
  if ($2 > end) end = $2 }
END {
	for (i = 1; i <= n; i++) f[i] = ""
	f[1] = "verdict"; f[2] = end; f[4] = 0; f[6] = "communication"
	for (k = 1; k <= 7; k++) f[c[want[k]]] = val[k]
	line = f[1]; for (i = 2; i <= n; i++) line = line OFS f[i]
	print line
}' l.tsv >v.tsv
prof-render -f arch v.tsv | sed -n '/^Verdict/,/^## Rank/p'
prof-render -f arch v.tsv | sed -n '/^### 10/,/└/p'
