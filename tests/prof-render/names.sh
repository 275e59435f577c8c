# The profile's name in titles and -o file names: the last operand of
# the stream's prof-ingest line without directory and file suffixes;
# else the input file's name; else "stdin"; -N overrides.
h='kind	ts_ns	dur_ns	dev	track	name'
printf '#stage prof-ingest 0.1.0 -q /a/b/run.pt.trace.json.gz\n%s\n' "$h" >a.tsv
printf '#stage prof-ingest 0.1.0 -q /x/y/ascend_pt/\n%s\n' "$h" >b.tsv
printf '#stage prof-ingest 0.1.0 -q\n%s\n' "$h" >c.tsv
printf '%s\n' "$h" >run.v2.tsv
for f in a.tsv b.tsv c.tsv run.v2.tsv; do
	prof-render -f text $f | head -n 1
done
prof-render -f text <c.tsv | head -n 1
prof-render -f text -N mine c.tsv | head -n 1
prof-render -o out -f md a.tsv && ls out
