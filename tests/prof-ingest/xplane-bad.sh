# Damaged XPlanes: a field of the wrong wire type (passed over with
# --lenient, as the event's own bytes), a length past the end
# of its message, a file cut short (the whole planes before the cut are
# read, on the profile's own clock), and the Riegeli-chunked variant,
# refused by its signature whatever its name and only listed inside a
# directory; an empty file.  Each named file is an error (exit 1) with
# the byte offset.
command -v python3 >/dev/null 2>&1 || exit 77
gen="$top_srcdir/tests/xplane-gen.py"
python3 "$gen" wiretype w.xplane.pb
python3 "$gen" pastend p.xplane.pb
python3 "$gen" tpu t.xplane.pb
head -c 2600 t.xplane.pb >cut.xplane.pb
python3 "$gen" riegeli r.xplane.pb
mkdir -p run; cp r.xplane.pb run/host.xplane.riegeli
: >empty.xplane.pb
for f in w.xplane.pb p.xplane.pb cut.xplane.pb r.xplane.pb empty.xplane.pb \
    run/host.xplane.riegeli; do
	prof-ingest "$f" >out.tsv
	echo "$f: exit $?"
	grep -v '^#' out.tsv | cut -f1-6 | sort | uniq -c | sort -k2
done
prof-ingest -i run
echo "exit $?"
# --lenient passes over the bad event and reads the rest of the file
prof-ingest -k w.xplane.pb | grep -c '^step'
prof-ingest -k -i w.xplane.pb | cut -f1-3,19-
