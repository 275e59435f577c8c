# Ascend tables cut short: step_trace_time.csv inside its header (it
# gave status 0 and no record), kernel_details.csv inside a row, plain
# and compressed (a .gz cut at 50 % gave 0 rows).  The rows that end
# with their line end are kept, the row the cut went through is not
# (its last field may be short); exit 1.  Reference counts are line
# ends in the cut text (gzip -dc for the .gz).
H="$top_srcdir/tests/prof-ingest/helpers/prefix.py"
run="$top_srcdir/examples/data/alexnet_2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir a b c
head -c 30 "$run/step_trace_time.csv" >a/step_trace_time.csv
prof-ingest a/step_trace_time.csv >out
echo "header cut: exit $?, $(grep -vc '^#' out) lines"
kd="$run/kernel_details.csv"
head -c $(($(wc -c <"$kd") / 2)) "$kd" >b/kernel_details.csv
prof-ingest b/kernel_details.csv >out
echo "row cut: exit $?, $(grep -c '^kernel' out) kernels, reference $(python3 "$H" csvrows <b/kernel_details.csv)"
gzip -n -c "$kd" >k.gz
head -c $(($(wc -c <k.gz) / 2)) k.gz >c/kernel_details.csv.gz
prof-ingest c/kernel_details.csv.gz >out
echo ".gz cut: exit $?, $(grep -c '^kernel' out) kernels, reference $(gzip -dc <c/kernel_details.csv.gz 2>/dev/null | python3 "$H" csvrows)"
