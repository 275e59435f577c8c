# Raised thresholds: T = max(3 ms, 0.2 * 20 ms) = 4 ms and an underfeed
# ratio of 0.5 leave the step of spec11-four.tsv without tags.
prof-bubbles --min-heavy=3000000 --heavy=0.2 --underfeed=0.5 \
    <"$top_srcdir/tests/prof-bubbles/spec11-four.tsv" | awk -F'\t' '$1 == "window"'
prof-bubbles --min-heavy=3000000 --heavy=0.1 --underfeed=0.5 \
    <"$top_srcdir/tests/prof-bubbles/spec11-four.tsv" | awk -F'\t' '$1 == "window"'
