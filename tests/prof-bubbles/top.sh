# --top and --near change only the whole-capture summary.
prof-bubbles -t 1 --near=0 <"$top_srcdir/tests/prof-bubbles/multi.tsv" |
    awk -F'\t' '$1 == "metric" && $8 == "" && $9 == ""'
