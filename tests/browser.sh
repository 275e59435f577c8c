#!/bin/sh
# The HTML report in a real browser (issue 20): prof-report on the
# bundled example, report.html rendered by headless Chromium.
#  - the DOM after its script ran (--dump-dom) holds every section, the
#    verdict before the rest, the numbers of the Markdown report, the
#    four charts inline, and the sort handles the script adds;
#  - the page loads nothing from elsewhere (no src= or href= that leaves
#    the file, no @import, no url());
#  - at laptop width (1280 and 1024 px) the page does not scroll
#    sideways (a copy of the page measures itself into the DOM);
#  - a screenshot has the asked size and is not blank;
#  - it prints: a PDF of several pages.
# Not part of make check (a browser start is slow and needs a package
# make check does not install): .ci/run installs Debian's chromium and
# runs it after the suite.  Skipped (77) without a browser.
. "${top_srcdir:-.}/tests/lib.sh"

browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || skip_ "no Chromium installed (.ci/run installs it)"
command -v python3 >/dev/null 2>&1 || skip_ "no python3 to read the PNG"
PATH="$(cd "$top_builddir" && pwd)/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0
bad() { echo "FAIL: $*"; failed=1; }

# chrome ARG...: the browser, headless, quiet, in a profile of its own
chrome() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	    --no-first-run --user-data-dir="$tmp/profile" \
	    --hide-scrollbars "$@" 2>>"$tmp/chrome.err"
}

(cd "$top_srcdir/examples" && prof-report -q -o "$tmp/out" data/alexnet_2rank) ||
    fail_ "prof-report failed"
page=$tmp/out/report.html
md=$tmp/out/anomaly_report_alexnet_2rank.md

chrome --dump-dom "file://$page" >"$tmp/dom.html" ||
    fail_ "$browser --dump-dom failed: $(tail -n 3 "$tmp/chrome.err")"
for id in verdict budget findings recommendations ops ranks metrics charts; do
	grep -q "<section id=\"$id\">" "$tmp/dom.html" || bad "no section '$id'"
done
# the verdict is the first section, and it names each rank's class
first=$(grep -o '<section id="[a-z]*">' "$tmp/dom.html" | head -n 1)
[ "$first" = '<section id="verdict">' ] || bad "first section is $first"
for s in 'communication-bound' '66.0%' '63.3%' '101.963' '154.484' \
    'hide_communication' 'hcom_allReduce__586_0_1' '5.6077 ms'; do
	grep -qF -- "$s" "$tmp/dom.html" || bad "the page lacks '$s'"
done
# every number of the Markdown budget table is on the page
grep '^| `[a-z_]*` |' "$md" | awk -F' [|] ' '{ print $3; print $4 }' |
    sed 's/ |$//' | while IFS= read -r v; do
	grep -qF -- "$v" "$tmp/dom.html" || echo "$v"
done >"$tmp/missing"
[ -s "$tmp/missing" ] && bad "budget values missing: $(tr '\n' ' ' <"$tmp/missing")"
nb=$(grep -c '^| `[a-z_]*` |' "$md")
[ "$nb" -eq 11 ] || bad "the Markdown budget table has $nb parts, want 11"
n=$(grep -o '<svg' "$tmp/dom.html" | wc -l)
[ "$n" -ge 4 ] || bad "$n inline SVG charts, want 4"
n=$(grep -o 'title="sort by this column"' "$tmp/dom.html" | wc -l)
[ "$n" -ge 20 ] || bad "the sort script did not run ($n headings made sortable)"
# self-contained: nothing fetched from elsewhere
if grep -Eq '(src|href)="(https?:)?//|@import|url\(' "$page"; then
	bad "the page refers to outside resources:"
	grep -Eo '(src|href)="(https?:)?//[^"]*|@import[^;]*|url\([^)]*' "$page" |
	    head -n 3
fi

# Laptop widths: the page's own width, measured by a copy of it, which
# also sorts the budget table by rank 0's column with a click: the
# smallest part first.
cat >"$tmp/measure.js" <<'EOF'
<pre id="measure"></pre><script>
window.addEventListener('load', function () {
  var t = document.querySelector('#budget table');
  t.tHead.rows[0].cells[2].click();
  document.getElementById('measure').textContent = 'W=' +
      document.documentElement.scrollWidth + ' first=' +
      t.tBodies[0].rows[0].cells[0].textContent;
});
</script>
EOF
awk -v js="$tmp/measure.js" '/<\/body>/ { while ((getline l < js) > 0) print l }
    { print }' "$page" >"$tmp/measure.html"
for w in 1280 1024; do
	chrome --window-size=$w,900 --dump-dom "file://$tmp/measure.html" |
	    grep -o 'W=[0-9]* first=[a-z_]*' >"$tmp/size" || true
	sw=$(sed -n 's/W=\([0-9]*\).*/\1/p' "$tmp/size")
	first=$(sed -n 's/.*first=//p' "$tmp/size")
	if [ -z "$sw" ]; then
		bad "no measure at width $w"
	elif [ "$sw" -gt "$w" ]; then
		bad "at $w px the page is $sw px wide: it scrolls sideways"
	fi
	[ "$first" = busy_unclassed ] ||
	    bad "sorted by rank 0, the first part is '$first', want busy_unclassed"
done

# A screenshot: its size, and not blank.
chrome --window-size=1280,1600 --screenshot="$tmp/shot.png" "file://$page" \
    >/dev/null || fail_ "$browser --screenshot failed"
python3 - "$tmp/shot.png" <<'EOF' || bad "screenshot"
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, w = 8, b'', 0
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos + 8])
    c = d[pos + 8:pos + 8 + n]
    if t == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', c[:10])
    elif t == b'IDAT':
        idat += c
    pos += 12 + n
if (w, h) != (1280, 1600):
    sys.exit('screenshot is %dx%d, want 1280x1600' % (w, h))
bpp = {2: 3, 6: 4}[ctype]
raw, stride = zlib.decompress(idat), w * bpp
prev, rows = bytearray(stride), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, cc = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - cc; pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else cc)) & 255
    rows.append(bytes(line)); prev = line
px = [r[i:i + 3] for r in rows[::8] for i in range(0, stride, bpp * 8)]
ink = sum(1 for p in px if p != b'\xff\xff\xff') / len(px)
colours = len(set(px))
print('screenshot %dx%d: %.1f%% of sampled pixels not white, %d colours' % (w, h, 100 * ink, colours))
if ink < 0.05 or colours < 8:
    sys.exit('the screenshot is blank')
EOF

# It prints.
chrome --no-pdf-header-footer --print-to-pdf="$tmp/page.pdf" "file://$page" \
    >/dev/null || bad "$browser --print-to-pdf failed"
pages=$(grep -aoE '/Type ?/Page([^s]|$)' "$tmp/page.pdf" | wc -l)
[ "${pages:-0}" -ge 3 ] || bad "the printed report has ${pages:-0} pages"

[ $failed -eq 0 ] && echo "ok: report.html in $($browser --version 2>/dev/null | head -n 1): 8 sections, verdict first, budget numbers, 4 charts, sortable, no sideways scroll at 1280 and 1024 px, screenshot, ${pages} printed pages"
exit $failed
