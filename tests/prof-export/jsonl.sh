# JSON Lines: ids and names as strings whatever their text, numbers with
# the stream's digits, absent fields left out.
prof-export -f jsonl "$top_srcdir/tests/prof-export/small.tsv"
echo "exit $?"
