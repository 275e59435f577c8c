# Compressed traces cut at 5, 50 and 95 % of their bytes: every record
# whose event decoded before the cut is written, then the cut is said
# with its byte offset, exit 1.  The reference is the cut file decoded
# without proftools (gzip, zstd and xz -dc; python's bz2; the lz4 frame
# decoder of helpers/prefix.py), its whole events closed into an array.
tv="$top_srcdir/examples/data/alexnet_2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
H="$top_srcdir/tests/prof-ingest/helpers/prefix.py"
for t in gzip zstd xz bzip2 lz4; do
	command -v $t >/dev/null || exit 77
done
for z in gz zst xz bz2 lz4; do
	case $z in
	gz) gzip -n -c "$tv" >t.$z; dec="gzip -dc";;
	zst) zstd -q -c "$tv" >t.$z; dec="zstd -q -dc";;
	xz) xz -c "$tv" >t.$z; dec="xz -dc";;
	bz2) bzip2 -c "$tv" >t.$z; dec="python3 $H unbz2";;
	lz4) lz4 -q -B4 -BD -c "$tv" >t.$z; dec="python3 $H unlz4";;
	esac
	size=$(wc -c <t.$z)
	for pct in 5 50 95; do
		head -c $((size * pct / 100)) t.$z >cut$pct.json.$z
		prof-ingest cut$pct.json.$z >got.tsv
		st=$?
		$dec <cut$pct.json.$z 2>/dev/null | python3 "$H" closearray >want.json
		prof-ingest want.json >want.tsv
		grep -v '^#' got.tsv | cut -f1-24 >a
		grep -v '^#' want.tsv | cut -f1-24 >b
		n=$(($(wc -l <a) - 1))
		if cmp -s a b; then
			same="same records as the decoded prefix"
		else
			same="DIFFERENT from the decoded prefix"
		fi
		echo "$z $pct %: exit $st, $n records, $same"
	done
done
