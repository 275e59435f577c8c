# Print the columns named in WANT (comma-separated) of a prof-tsv stream,
# header included, preamble dropped; with KIND set, only records of that
# kind (a comma-separated list).
BEGIN { FS = OFS = "\t"; n = split(want, w, ","); nk = split(kind, k, ",") }
/^#/ { next }
!hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1
	line = ""; for (j = 1; j <= n; j++) line = line (j > 1 ? OFS : "") w[j]
	print line; next }
{	if (nk > 0) { ok = 0; for (j = 1; j <= nk; j++) if ($1 == k[j]) ok = 1
		if (!ok) next }
	line = ""
	for (j = 1; j <= n; j++) line = line (j > 1 ? OFS : "") (w[j] in c ? $(c[w[j]]) : "?")
	print line }
