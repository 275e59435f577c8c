# gzip's CRC-32 and length trailer are checked (libarchive does not):
# a trailer that does not match, or a changed byte in the deflate data,
# is an error saying the data is corrupt, exit 1.  With a bad trailer
# every record is still written (the damage cannot be placed); where
# the changed byte made the text wrong, that is said first, then the
# CRC-32 says why.  The same for the checks of zstd, xz, bzip2, lz4.
k="$DATA/kineto_before_fix.json"
gzip -n -c "$k" >good.json.gz
all=$(prof-ingest good.json.gz | grep -vc '^#')
size=$(wc -c <good.json.gz)
# flip OFFSET FILE: change one bit of byte OFFSET.
flip() {
	python3 -c '
import sys
p, o = sys.argv[2], int(sys.argv[1])
b = bytearray(open(p, "rb").read()); b[o] ^= 1; open(p, "wb").write(b)' "$1" "$2"
}
cp good.json.gz crc.json.gz; flip $((size - 8)) crc.json.gz
cp good.json.gz len.json.gz; flip $((size - 4)) len.json.gz
for f in crc len; do
	prof-ingest $f.json.gz >out
	st=$?
	n=$(grep -vc '^#' out)
	echo "$f: exit $st, all records: $([ "$n" = "$all" ] && echo yes || echo "no ($n of $all)")"
done
# One digit changed inside the deflate data, as in the issue: step 50
# read as step 60 if nothing checked.  Stored blocks (gzip -1 of short
# text still compresses), so flip a bit in the middle instead.
cp good.json.gz mid.json.gz; flip $((size / 2)) mid.json.gz
prof-ingest mid.json.gz >/dev/null
echo "mid: exit $?"
for z in zst xz bz2 lz4; do
	case $z in
	zst) zstd -q -c "$k" >t.$z;;
	xz) xz -c "$k" >t.$z;;
	bz2) bzip2 -c "$k" >t.$z;;
	lz4) lz4 -q -c "$k" >t.$z;;
	esac
	flip $(($(wc -c <t.$z) / 2)) t.$z
	prof-ingest t.$z >/dev/null
	echo "$z: exit $?"
done
