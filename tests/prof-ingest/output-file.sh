# -o FILE never truncates FILE before the input is read: naming an input
# as the output is refused (usage error, the file unchanged), a file
# found in a walked directory that is the output is not read, and the
# output appears whole at the end, with no temporary file left, even
# after a fatal error (when the old FILE stays as it was).
k="$DATA/kineto_before_fix.json"
cp "$k" in.json
sum=$(cksum <in.json)
prof-ingest -o in.json in.json
echo "exit $?, unchanged: $([ "$(cksum <in.json)" = "$sum" ] && echo yes || echo no)"
mkdir d
cp "$k" d/rank0.pt.trace.json
prof-ingest -q -o d/rank0.pt.trace.json d
echo "exit $?, written: $(grep -c '^#prof-tsv' d/rank0.pt.trace.json)"
prof-ingest -o out.tsv in.json
echo "exit $?, $(grep -vc '^#' out.tsv) lines"
ls -A
# A fatal error: times no origin can place; the old out.tsv is kept.
printf 'Name,Start Time(us),Duration(us)\nk,-9000000000000000,1\n' >x.csv
printf 'Name,Start Time(us),Duration(us)\nk,9000000000000000,1\n' >y.csv
mkdir e f; mv x.csv e/kernel_details.csv; mv y.csv f/kernel_details.csv
prof-ingest -o out.tsv e/kernel_details.csv f/kernel_details.csv
echo "exit $?, $(grep -vc '^#' out.tsv) lines"
ls -A
