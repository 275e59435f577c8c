# The timeline chart rendered to PNG by headless Chromium (Debian's
# chromium package), where it is installed: the SVG must load and paint.
# The PNG's size is read from its IHDR chunk.
command -v chromium >/dev/null 2>&1 || exit 77
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor |
    prof-render -f svg -c timeline >timeline.svg || exit 1
HOME=$PWD timeout 120 chromium --headless --no-sandbox --disable-gpu \
    --hide-scrollbars --window-size=1200,400 \
    --screenshot="$PWD/timeline.png" "file://$PWD/timeline.svg" \
    >/dev/null 2>&1
[ -s timeline.png ] || { echo "FAIL: no PNG"; exit 1; }
od -An -tx1 -N 24 timeline.png | tr -d ' \n' | cut -c 1-16,25-32,33-48
echo
# Painted: more than a blank page compresses to.
[ "$(wc -c <timeline.png)" -gt 10000 ] && echo "painted"
