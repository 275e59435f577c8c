# Negative durations and times past 64-bit nanoseconds are refused at
# the row or event that holds them (prof-tsv(5) allows neither, and every
# stage would stop on the record far from its source); --lenient skips
# them and counts them.  CSV: a negative Duration(us) (line 3), a start
# of 1e30 us (line 4), a start + duration past INT64_MAX ns (line 5).
tr -d '\r' <"$DATA/kd_level0_head.csv" | awk -F, -v OFS=, '
	NR == 3 { $6 = "-6.28" }
	NR == 4 { $5 = "1e30" }
	NR == 5 { $6 = "9223372036854775.807" }
	{ print }' >kernel_details.csv
prof-ingest kernel_details.csv >out
echo "exit $?"
prof-ingest -k kernel_details.csv >out
echo "exit $?"
grep -v '^#' out | cut -f 1-3,6
# JSON: the same three, and a B/E pair longer than 2^63 ns.
cat >t.json <<'END'
{"traceEvents": [
{"ph": "X", "name": "neg", "pid": 1, "tid": 1, "ts": 1, "dur": -2},
{"ph": "X", "name": "big", "pid": 1, "tid": 1, "ts": 1e20, "dur": 1},
{"ph": "X", "name": "end", "pid": 1, "tid": 1, "ts": 2, "dur": 9223372036854775},
{"ph": "B", "name": "long", "pid": 1, "tid": 2, "ts": -9000000000000000},
{"ph": "E", "pid": 1, "tid": 2, "ts": 9000000000000000},
{"ph": "X", "name": "ok", "pid": 1, "tid": 1, "ts": 3, "dur": 1}
]}
END
prof-ingest t.json >out
echo "exit $?"
prof-ingest -k t.json >out
echo "exit $?"
grep -v '^#' out | cut -f 1-3,6
