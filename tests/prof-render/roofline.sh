# The roofline chart reads its columns by name (ai, flops, bound on
# kernel records; peak_* metrics), as prof-roofline will write them:
# three kernels placed (achieved FLOP/s = flops / dur_ns: 2e12, 1e11,
# 5e11), the one without the columns left out, two roofs drawn.
prof-render -f svg -c roofline "$top_srcdir/tests/prof-render/roof.tsv" \
    >roof.svg || exit 1
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout roof.svg || echo "FAIL: roof.svg is not well-formed"
fi
grep -c '<circle' roof.svg
sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' roof.svg
grep -o '>peak_[a-z_]* [0-9]*<' roof.svg
# Higher achieved FLOP/s is higher on the chart (smaller cy).
sed -n 's/.*cy="\([0-9.]*\)".*<title>\([a-z_]*\) .*/\2 \1/p' roof.svg |
    sort -k2 -n | cut -d' ' -f1
