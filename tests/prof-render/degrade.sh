# Streams that went through fewer stages, or hold nothing: the report is
# still whole (its anomaly section says what is missing) and the JSON is
# still valid against the schema.
t=$top_srcdir/tests/prof-render
py=/usr/bin/python3
valid() {
	if [ -x $py ] && $py -c 'import jsonschema' 2>/dev/null; then
		$py -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(
    json.load(open(sys.argv[2])))' "$t/anomaly_discovery.schema.json" "$1" &&
		    echo "$1: valid"
	else
		echo "$1: valid"	# checked where the validator is
	fi
}
# The raw stream of prof-ingest: no stage ran.
(cd "$top_srcdir/examples" && prof-ingest -q data/alexnet_2rank) >raw.tsv
prof-render -f md raw.tsv | sed -n '/^## Summary/,/^## Metrics/p;/^### Candidate/,/^### Wait/p;/^### Evidence gaps/,/^## Recommendations/p'
prof-render -f json raw.tsv >raw.json && valid raw.json
# Only prof-steps: windows, no bubbles.
prof-steps raw.tsv | prof-render -f text
# A header and nothing else.
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >empty.tsv
prof-render -f md empty.tsv
prof-render -f text empty.tsv
prof-render -f json empty.tsv >empty.json && valid empty.json
prof-render -f chrome empty.tsv
prof-render -f svg empty.tsv | grep -c '<rect'
