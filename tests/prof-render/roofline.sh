# The roofline chart reads its columns by name (ai, flops, bound on
# kernel records; peak_* metrics), as prof-roofline will write them:
# three kernels placed (achieved FLOP/s = flops / dur_ns: 2e12, 1e11,
# 5e11), the one without the columns left out, two roofs drawn and
# labelled in TFLOP/s and TB/s (1e14 FLOP/s, 2e12 bytes/s), a legend of
# the three bound colours.
prof-render -f svg -c roofline "$top_srcdir/tests/prof-render/roof.tsv" \
    >roof.svg || exit 1
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout roof.svg || echo "FAIL: roof.svg is not well-formed"
fi
grep -c '<circle.*<title>' roof.svg
grep -c '<circle [^>]*/>' roof.svg
sed -n 's/.*<title>\(.*\)<\/title>.*/\1/p' roof.svg
grep -o '>[A-Za-z0-9., ]* T[A-Z]*/s<' roof.svg
# Higher achieved FLOP/s is higher on the chart (smaller cy).
sed -n 's/.*cy="\([0-9.]*\)".*<title>\([a-z_]*\) .*/\2 \1/p' roof.svg |
    sort -k2 -n | cut -d' ' -f1
# Roofs from prof-roofline's table for 910b3 (bf16 = fp16 = 313e12,
# int8 626e12 FLOP/s, 1.6e12 bytes/s): equal roofs are one labelled line.
prof-ingest -q "$top_srcdir/examples/data/qwen_pp2dp2" | prof-roofline -c 910b3 |
    prof-render -f svg -c roofline | grep -o '>[A-Za-z0-9., ]* T[A-Z]*/s<'
