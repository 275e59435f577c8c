# Empty inputs: each names what is missing and exits 1 (an empty
# kernel_details.csv has no header; an empty trace, plain, gzip-
# compressed or a zero-byte .gz, has no JSON value; empty standard
# input is empty input).  A kernel_details.csv with only its header is
# a valid table of no rows: a stream with no records, exit 0.
mkdir e h
: >e/kernel_details.csv
prof-ingest e/kernel_details.csv >/dev/null
echo "exit $?"
: >trace.json
prof-ingest trace.json >/dev/null
echo "exit $?"
: | gzip >trace2.json.gz
prof-ingest trace2.json.gz >/dev/null
echo "exit $?"
: >trace3.json.gz
prof-ingest trace3.json.gz >/dev/null
echo "exit $?"
prof-ingest </dev/null >/dev/null
echo "exit $?"
printf 'Name,Start Time(us),Duration(us)\r\n' >h/kernel_details.csv
prof-ingest h/kernel_details.csv | grep -c -v '^#'
echo "exit $?"
