# On a terminal the default format is text: script(1) from util-linux
# gives the program one (skipped where it is not installed).
command -v script >/dev/null 2>&1 || exit 77
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
script -qec "prof-render run.tsv" /dev/null </dev/null | tr -d '\r' >tty.txt
prof-render -f text run.tsv | cmp - tty.txt && echo "default on a terminal: text"
