# The terminal summary of a hand-made stream that follows the verdict
# contract (HACKING.md): rank 0 communication-bound with its budget,
# host events during idle time and prof-verdict's advice; rank 1 with no
# device data.  The verdict comes first, then the budget; every line
# fits 80 columns.
prof-render -f text "$top_srcdir/tests/prof-render/verdict.tsv" >out.txt || exit 1
cat out.txt
echo '--- widest line'
tr -d '\200-\277' <out.txt | awk '{ n = length($0) } n > w { w = n } END { print w }'
