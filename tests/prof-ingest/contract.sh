# What prof-tsv(5) and the tables allow, held at the file and line:
# a column read by name that appears twice (which holds the data is not
# known), a negative Wait Time (time before the start), and a start time
# of exactly -2^63 ns (the value that marks an absent time) are errors;
# the rows before stay written, exit 1.
mkdir a b c d e
printf 'Name,Start Time(us),Duration(us),Name\nk,1,2,j\n' >a/kernel_details.csv
printf 'Name,Start Time(us),Duration(us),Wait Time(us)\nk,1,2,1\nk,4,2,-3\n' >b/kernel_details.csv
printf 'Name,Start Time(us),Duration(us)\nk,1,2\nk,-9223372036854775.808,2\n' >c/kernel_details.csv
printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":-9223372036854775.808,"dur":0}]}\n' >d/t.json
printf 'Step,Computing,Computing\n1,2,3\n' >e/step_trace_time.csv
for f in a/kernel_details.csv b/kernel_details.csv c/kernel_details.csv d/t.json e/step_trace_time.csv; do
	prof-ingest $f >out
	echo "$f: exit $?, $(grep -vc '^#' out) lines"
done
# Under --lenient the bad row is skipped and counted.
prof-ingest -k b/kernel_details.csv | grep -c '^kernel'
