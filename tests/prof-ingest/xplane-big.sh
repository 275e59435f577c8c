# A valid XPlane of 2 GiB + 4 KiB (a sparse file: an XSpace 'errors'
# string of 2 GiB, then the planes): offsets past 2^31 are read, the
# hole is skipped by its length without being read, and the records are
# those of the small file behind it.
command -v python3 >/dev/null 2>&1 || exit 77
gen="$top_srcdir/tests/xplane-gen.py"
python3 "$gen" big big.xplane.pb || exit 77
python3 "$gen" tpu t.xplane.pb
wc -c <big.xplane.pb
prof-ingest big.xplane.pb | grep -v '^#' >big.tsv
prof-ingest t.xplane.pb | grep -v '^#' >t.tsv
cmp big.tsv t.tsv && wc -l <big.tsv
