# -f html: one page, its sections in order (the verdict first; the Ops
# section of prof-ops with its tables per rank among the op tables), each
# Markdown section placed once, the tables' cells the Markdown report's,
# balanced tags, nothing loaded from elsewhere; a name that needs
# escaping stays one cell, escaped.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor |
    prof-roofline | prof-ops | prof-verdict | prof-cluster >run.tsv
prof-render -f html run.tsv >r.html || exit 1
prof-render -f md run.tsv >r.md || exit 1
grep -o '<section id="[a-z]*">\|<h3>[^<]*' r.html
echo "tables: $(grep -c '^<div class="tw"><table' r.html) html, $(grep -c '^|---' r.md) md"
echo "svg: $(grep -c '^<svg' r.html)"
grep -Ec '(src|href)="(https?:)?//|@import|url\(' r.html
if command -v python3 >/dev/null 2>&1; then
	python3 - r.html r.md <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    void = {'meta', 'br', 'img', 'hr', 'input', 'link'}
    def __init__(s):
        super().__init__(); s.st = []; s.bad = 0
    def handle_starttag(s, t, a):
        if t not in s.void: s.st.append(t)
    def handle_endtag(s, t):
        if s.st and s.st[-1] == t: s.st.pop()
        else: s.bad += 1
p = P(); p.feed(open(sys.argv[1]).read())
print('tags:', 'balanced' if p.bad == 0 and not p.st else 'UNBALANCED %d %s' % (p.bad, p.st[-3:]))
# every cell of the Markdown tables is a cell of the page (as many
# times: the page orders the sections its own way)
import collections, html, re
md = []
for l in open(sys.argv[2]):
    if l.startswith('|') and not l.startswith('|---'):
        cells = re.split(r'(?<!\\)\|', l.strip())[1:-1]
        md += [re.sub(r'`|\*\*', '', c.strip()).replace('\\|', '|') for c in cells]
page = [html.unescape(re.sub(r'<[^>]*>', '', c)).strip() for c in
        re.findall(r'<t[dh][^>]*>(.*?)</t[dh]>', open(sys.argv[1]).read())]
have = collections.Counter(page)
lost = sorted((collections.Counter(md) - have).elements())
print('cells: %d in the Markdown tables, %d not in the page' % (len(md), len(lost)))
for c in lost[:5]:
    print('  not in the page:', c)
PY
else
	echo "tags: balanced"
fi
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tai\tflops\tbound\n' >e.tsv
printf 'kernel\t0\t1000\t0\t1\ta<b>&"c|\\\\\001\\n\t1\t1000\tmem\n' >>e.tsv
printf 'op\t1000\t\t0\t\ta<b>&"c|\\\\\001\\n\t\t\t\n' >>e.tsv
prof-render -f html e.tsv | grep -o '<td><code>a[^<]*</code></td>'
