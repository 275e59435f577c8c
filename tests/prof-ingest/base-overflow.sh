# Kineto's baseTimeNanoseconds near 2^63 takes every time of the trace
# past 64-bit nanoseconds: the trace's records are dropped with a
# diagnostic naming the value, exit 1; another input is still read.
printf '{"baseTimeNanoseconds": 9223372036854775000, "traceEvents": [\n{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2}]}\n' >big.json
printf '{"traceEvents": [\n{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1.5, "dur": 2}], "baseTimeNanoseconds": 1000}\n' >ok.json
prof-ingest big.json ok.json >out
echo "exit $?"
grep -v '^#' out
