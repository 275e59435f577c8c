# A bare-array trace (trace_view.json) cut right after an event, its ']'
# missing: the events before are kept, the cut is said, exit 1.  The
# records must be those of the whole events before the cut, closed into
# a complete array by python (helpers/prefix.py closearray).
tv="$top_srcdir/examples/data/alexnet_2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
H="$top_srcdir/tests/prof-ingest/helpers/prefix.py"
# Cut after the event that ends at or after the middle of the file.
python3 -c '
import json, sys
d = open(sys.argv[1]).read()
dec, i, half = json.JSONDecoder(), d.index("[") + 1, len(d) // 2
while True:
    while d[i] in " ,\n": i += 1
    _, i = dec.raw_decode(d, i)
    if i >= half: break
open("cut.json", "w").write(d[:i] + ",")
' "$tv"
prof-ingest cut.json >cut.tsv
echo "exit $?"
python3 "$H" closearray <cut.json >whole.json
prof-ingest whole.json >whole.tsv
grep -v '^#' cut.tsv | cut -f1-23 >a
grep -v '^#' whole.tsv | cut -f1-23 >b
cmp a b && echo "same records as the whole events before the cut"
# Not a trivial cut: about half of the file's records.
prof-ingest "$tv" | grep -vc '^#' >all
awk -v all="$(cat all)" 'END { print (NR > all * 0.3 && NR < all * 0.7) ? "about half kept" : "wrong share " NR "/" all }' a
# The ']' alone missing, the document otherwise whole: the same.
printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}\n' >nobracket.json
prof-ingest nobracket.json | grep -c '^host'
