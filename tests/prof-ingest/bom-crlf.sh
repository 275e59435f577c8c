# A UTF-8 byte order mark before a CRLF kernel_details.csv changes
# nothing: the same records as the LF file without one.  The first
# header name would otherwise be "\xEF\xBB\xBFStep Id".
printf '\357\273\277' >kernel_details.csv
cat "$DATA/kd_level0_head.csv" >>kernel_details.csv
mkdir lf
tr -d '\r' <"$DATA/kd_level0_head.csv" >lf/kernel_details.csv
prof-ingest kernel_details.csv | grep -v '^#' >bom.tsv
prof-ingest lf/kernel_details.csv | grep -v '^#' >lf.tsv
cmp bom.tsv lf.tsv && cut -f 1-3,6 bom.tsv
