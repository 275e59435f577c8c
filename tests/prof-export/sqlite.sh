# The typed tables of a small stream: ids (a flow id past 2^64, a group
# hash past 2^53) stay TEXT, a one-dimension shape stays TEXT, a ratio
# that is 1 is REAL, absent fields are NULL, a name that starts with a
# double quote survives, a value with an exponent is REAL; the preamble,
# the catalogue and the views are there.
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: no sqlite3"; exit 77; }
db=$(mktemp "${TMPDIR:-/tmp}/export.XXXXXX") || exit 1
trap 'rm -f "$db"' EXIT
prof-export -f sqlite "$db" "$top_srcdir/tests/prof-export/small.tsv"
echo "exit $?"
sqlite3 "$db" '.schema' 'SELECT * FROM kinds' 'SELECT * FROM preamble' \
    'SELECT * FROM columns WHERE tbl = '\''kernel'\''' \
    'SELECT _line, name, "group", typeof("group"), in_shapes,
	typeof(in_shapes), typeof(share_ratio), share_ratio FROM kernel
	ORDER BY _line' \
    'SELECT corr, typeof(corr), type FROM flow' \
    'SELECT value, typeof(value) FROM counter' \
    'SELECT typeof(value), typeof(ts_ns), typeof(step) FROM metric' \
    'SELECT * FROM report_kernel_time' 'SELECT * FROM report_steps'
# Over an existing database: replaced as a whole.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' |
    prof-export -f sqlite "$db"
echo "exit $?"
sqlite3 "$db" '.tables'
