# The Chrome trace of the bundled profile: one event per line, the
# overlay tracks (steps, busy, bubbles named by their labels), and the
# round trip: prof-ingest reads it back to the same kernels (ts_ns,
# dur_ns, dev, name), and to the same comm ops and host events.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
prof-render -f chrome run.tsv >trace.json || exit 1
head -c 60 trace.json; echo
echo "events by phase and category:"
sed -n 's/^{"ph":"\([A-Za-z]\)".*"cat":"\([^"]*\)".*/\1 \2/p' trace.json |
    sort | uniq -c
grep -c '"ph":"M"' trace.json
grep '"cat":"prof.bubble"' trace.json | head -n 2
tail -n 2 trace.json
prof-ingest -q trace.json >back.tsv || exit 1
for k in kernel; do
	awk -F'\t' -v k=$k '$1 == k { print $2, $3, $4, $6 }' run.tsv |
	    sort >a
	awk -F'\t' -v k=$k '$1 == k { print $2, $3, $4, $6 }' back.tsv |
	    sort >b
	echo "$k: $(wc -l <a) in the stream, $(wc -l <b) read back"
	cmp -s a b && echo "$k: same ts_ns dur_ns dev name"
done
grep '^#origin_ns' run.tsv back.tsv | sed 's/.*://'
