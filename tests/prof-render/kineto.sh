# A real Kineto trace (BERT inference on an H100, TraceLens): the
# rendered Chrome trace reads back to the same kernels (names over 256
# bytes cut), and the JSON
# report checks out against the stream.
t=$top_srcdir/tests/prof-render
f=$CORPUS/pytorch_kineto/tracelens/h100_bert-small_infer.json.gz
[ -r "$f" ] || exit 77
prof-ingest -q "$f" | prof-steps | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor >run.tsv || exit 1
prof-render -f chrome run.tsv >trace.json || exit 1
prof-ingest -q trace.json >back.tsv || exit 1
# names of over 256 bytes come back cut (prof-render(1)): 253 bytes and
# "..." (the C++ names of this trace are ASCII)
LC_ALL=C awk -F'\t' '$1 == "kernel" { n = $6
    if (length(n) > 256) n = substr(n, 1, 253) "..."
    print $2, $3, $4, n }' run.tsv | sort >a
awk -F'\t' '$1 == "kernel" { print $2, $3, $4, $6 }' back.tsv | sort >b
echo "kernels: $(wc -l <a) in the stream, $(wc -l <b) read back"
cmp -s a b && echo "kernels: same ts_ns dur_ns dev name (long names cut)"
prof-render -f json run.tsv >report.json || exit 1
py=/usr/bin/python3
if [ -x $py ] && $py -c 'import jsonschema' 2>/dev/null; then
	$py "$t/check-json.py" "$t/anomaly_discovery.schema.json" run.tsv \
	    report.json >/dev/null || exit 1
fi
prof-render -f text run.tsv
