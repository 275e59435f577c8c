# A stream with only a header, and an empty input: header only out.
sed -n '/^#/p; /^kind/p' "$top_srcdir/tests/prof-bubbles/misc.tsv" |
    prof-bubbles | sed '/^#stage /d'
: | prof-bubbles | sed '/^#stage /d'
