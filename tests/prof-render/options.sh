# -k (ops per rank by cost rank, tagged ops kept), -s (step rows) and -n
# (bubbles) bound the Markdown tables.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
prof-render -f md -k 1 -s 0 -n 1 run.tsv >r.md
sed -n '/^### Steps/,/^## Findings/p;/^### Top bubble/,/^Coverage/p;/^### Wait anchors/,/^### AI CPU/p' r.md
