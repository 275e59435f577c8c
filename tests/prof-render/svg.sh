# The three SVG charts of the bundled profile, checked for structure:
# well-formed XML (xmllint, where installed), and the elements drawn:
# one window per rank and step, busy and bubble rectangles (fewer than
# the records: neighbours of one colour merge), one legend entry per
# label.  The roofline chart says it has no data, on stderr too.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
for c in timeline breakdown roofline; do
	prof-render -f svg -c $c run.tsv >$c.svg || exit 1
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout $c.svg || echo "FAIL: $c.svg is not well-formed"
	fi
	echo "$c: $(grep -c '<rect' $c.svg) rect, $(grep -c '<circle' $c.svg) circle, $(grep -c '<text' $c.svg) text"
done
echo "records: $(grep -c '^window' run.tsv) window, $(grep -c '^busy' run.tsv) busy, $(grep -c '^bubble	' run.tsv) bubble"
sed -n 's/.*<text[^>]*>\(possible_[a-z_0-9]*\)<\/text>/\1/p' timeline.svg
grep -c 'fill="#6baed6"\|fill="#9ecae1"' timeline.svg
grep '<title>' breakdown.svg | sed 's/.*<title>//; s/<.*//'
grep 'No roofline' roofline.svg | sed 's/<[^>]*>//g'
# -c alone means -f svg; the default chart is the timeline.
prof-render -c timeline run.tsv | cmp - timeline.svg && echo "-c implies svg"
prof-render -f svg run.tsv | cmp - timeline.svg && echo "default chart: timeline"
