# A multi-megabyte field, made here: 8 MiB of name in a kernel_details
# row is read whole and goes through a stage; past the 16 MiB field cap
# the file stops with the cap named (the rows before it are written),
# also with --lenient, which cannot resync inside a field.
tr -d '\r' <"$DATA/kd_level0_head.csv" >lf.csv
big() {	# big BYTES: a row with a name of BYTES 'x' as line 3
	awk -v n="$1" 'NR == 3 {
		s = "x"; while (length(s) < n) s = s s
		$0 = "50," substr(s, 1, n) ",N/A,N/A,1736405443881566.663,6.28,105.722,0"
	} { print }' lf.csv
}
mkdir a b
big 8388608 >a/kernel_details.csv
prof-ingest a/kernel_details.csv | prof-steps | grep -v '^#' |
    awk -F '\t' '{ print $1, $2, $3, length($6) }'
big 17000000 >b/kernel_details.csv
prof-ingest b/kernel_details.csv >out
echo "exit $?"
grep -v '^#' out | cut -f 1-3,6
prof-ingest -k b/kernel_details.csv >/dev/null
echo "exit $?"
