# A malformed time: the diagnostic names file, line and value; the rows
# before it are still written; exit 1.  With --lenient the row is skipped,
# counted in the inventory, and the rows after it are read.
cd "$DATA" || exit 1
prof-ingest kd_bad_time.csv >"$OLDPWD/out"
echo "exit $?"
grep -v '^#' "$OLDPWD/out"
prof-ingest -k kd_bad_time.csv | grep -c '^kernel'
prof-ingest -k -i kd_bad_time.csv | cut -f1,4,19
