# A malformed Chrome trace event is reported at the line and column of
# its '{', with the value, and the events before it are still written
# (exit 1): after a B event whose place was kept for its pair, and after
# many megabytes of lines, whose newlines are counted in bulk.
cat >bad.json <<'END'
{"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1.5, "dur": 2,
   "cat": "cpu_op"},
  {"ph": "B", "name": "d\u00e9", "pid": 1, "tid": 2, "ts": 4},
  {"ph": "E", "pid": 1, "tid": 2, "ts": 5},
   {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": "x1", "dur": 2}
]}
END
prof-ingest bad.json >out
echo "exit $?"
grep -v '^#' out
awk 'BEGIN {
	print "{\"traceEvents\": ["
	for (i = 0; i < 100000; i++)
		printf "  {\"ph\": \"X\", \"name\": \"k%d\", \"pid\": 1, \"tid\": 1,\n   \"ts\": %d, \"dur\": 1},\n", i, i
	print "  {\"ph\": \"X\", \"name\": \"z\",\n    \"ts\": 1, \"dur\": \"2s\"}, {\"ph\": \"i\", \"ts\": 3},"
	print "      {\"ph\": \"i\", \"ts\": \"\"}]}"
}' >big.json
prof-ingest big.json >out
echo "exit $?"
grep -c -v '^#' out
