# A run's operator_details.csv is not read, but its Call Stack and Input
# Shapes columns (written only with with_stack and record_shapes) are
# evidence for every source of the run: #evidence lines and the
# inventory's has column say stacks and shapes; without those columns
# nothing is added.
o=run/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
mkdir -p $o
cp "$DATA/kd_level0_head.csv" $o/kernel_details.csv
printf 'Name,Input Shapes,Call Stack,Host Self Duration(us)\r\naten::add,"2,3","a.py(1): f",3.5\r\n' >$o/operator_details.csv
prof-ingest run | grep '^#evidence'
prof-ingest -i run | cut -f 2,18
printf 'Name,Host Self Duration(us)\r\naten::add,3.5\r\n' >$o/operator_details.csv
prof-ingest run | grep -c '^#evidence 0 step_ids$'
