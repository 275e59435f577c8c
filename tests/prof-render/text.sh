# The terminal summary of the bundled profile; -f text is also the
# default on a terminal, which a test cannot be, so md is the default
# here (checked below by comparing with -f md).
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
prof-render -f text run.tsv
prof-render run.tsv >default.md
prof-render -f md run.tsv | cmp - default.md && echo "default: md"
