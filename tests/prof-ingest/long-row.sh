# A CSV row with more fields than the header (line 4 of an LF copy of
# kd_level0_head.csv, two fields added): strict mode stops there with the
# counts, the rows before it written; --lenient skips it, goes on, and
# says on stderr and in the inventory how many rows it skipped and why.
tr -d '\r' <"$DATA/kd_level0_head.csv" |
    awk 'NR == 4 { $0 = $0 ",x,y" } { print }' >kernel_details.csv
prof-ingest kernel_details.csv >out
echo "exit $?"
grep -v '^#' out | cut -f 1-3,6
prof-ingest -k kernel_details.csv >out
echo "exit $?"
grep -v '^#' out | cut -f 1-3,6
prof-ingest -k -i kernel_details.csv | cut -f 1,4,19
