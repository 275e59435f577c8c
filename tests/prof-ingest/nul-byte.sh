# NUL bytes: prof-tsv cannot carry one, so the readers refuse it where
# it is (line and byte column), in CSV and in JSON text alike; the rows
# before it are written.  An escaped \u0000 in a JSON string is no NUL
# byte: it becomes U+FFFD.
tr -d '\r' <"$DATA/kd_level0_head.csv" |
    awk 'NR == 3 { sub(/trans/, "tr@ans") } { print }' |
    tr '@' '\000' >kernel_details.csv
prof-ingest kernel_details.csv >out
echo "exit $?"
grep -v '^#' out | cut -f 1-3,6
prof-ingest -k kernel_details.csv >/dev/null
echo "exit $?"
printf '{"traceEvents": [{"ph": "X", "name": "a@b", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}\n' |
    tr '@' '\000' >nul.json
prof-ingest nul.json >/dev/null
echo "exit $?"
printf '{"traceEvents": [{"ph": "X", "name": "a\\u0000b", "pid": 1, "tid": 1, "ts": 1, "dur": 2}]}\n' >esc.json
prof-ingest esc.json | grep -v '^#' | cut -f 6 | od -An -c
