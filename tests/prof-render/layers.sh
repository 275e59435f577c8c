# Derived kinds the renderer does not know (the layer and pass records
# prof-layers will write) are drawn generically: an overlay track per
# kind in the Chrome trace, named by thread_name metadata, a count under
# Structure in the Markdown report and in the JSON's structure member.
# The top bubbles are placed among the layers (checked by hand: rank 0's
# conv1 spans 132.852790-137.852790 ms, conv2 137.852790-140.852790 ms,
# so d0.s50.b16 at 133.881315 ms for 1.318826 ms is inside conv1; rank
# 1's d1.s50.b16 ends at 140.034542 ms, past conv1's 139.980160 ms end).
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
awk -F'\t' -v OFS='\t' '
function rec(kind, ts, dur, dev, name,    i) {
	for (i = 1; i <= nf; i++) f[i] = ""
	f[1] = kind; f[2] = ts; f[3] = dur; f[4] = dev; f[6] = name
	s = f[1]; for (i = 2; i <= nf; i++) s = s OFS f[i]; print s
}
/^#/ { print; next }
!nf { nf = NF; print; next }
{ print }
$1 == "window" {
	rec("pass", $2, $3, $4, "forward+backward")
	rec("layer", $2 + 20000000, 5000000, $4, "conv1")
	rec("layer", $2 + 25000000, 3000000, $4, "conv2")
}' run.tsv >unsorted.tsv
# The records made here go into their time order, as prof-tsv(5) wants
# and prof-render checks (timeless ones first: an empty ts_ns sorts as 0).
{ grep '^#' unsorted.tsv; grep -v '^#' unsorted.tsv | head -n 1
  grep -v '^#' unsorted.tsv | tail -n +2 | sort -s -t "$(printf '\t')" -k2,2n
} >layers.tsv
prof-render -f chrome layers.tsv >trace.json || exit 1
grep -E '"cat":"prof\.(layer|pass)"' trace.json | cut -d, -f1-7
grep '"thread_name"' trace.json |
    sed 's/.*"args":{"name":"\([^"]*\)".*/\1/' | sort | uniq -c
prof-render -f md layers.tsv | sed -n '/^### Structure/,/^### Evidence/p'
prof-render -f json layers.tsv | sed -n '/"structure"/,/}/p'
