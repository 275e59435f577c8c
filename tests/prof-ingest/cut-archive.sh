# A tar, a zip and a .tgz of a run cut inside its trace_view.json member:
# the members before it and the events of the cut member that are whole
# are read, the cut is said (member and byte), exit 1.  The reference is
# the same run rebuilt by python from the cut archive (helpers/prefix.py
# members: tar blocks as they are, zip deflate through zlib), the cut
# member closed after its last whole event.
H="$top_srcdir/tests/prof-ingest/helpers/prefix.py"
cp -R "$top_srcdir/examples/data/alexnet_2rank/rank0_ascend_pt" run
chmod -R u+w run
# Fixed times and owners, so that the compressed sizes do not vary.
find run -exec touch -d 2024-01-01T00:00:00Z {} +
tar --sort=name --owner=0 --group=0 --numeric-owner -cf run.tar run
(zip -q -r run.zip run) || exit 77
tv=run/ASCEND_PROFILER_OUTPUT/trace_view.json
# The member's data starts after the members before it.
tarcut=$(python3 -c '
import tarfile, sys
for m in tarfile.open("run.tar"):
    if m.name.endswith("trace_view.json"):
        print(m.offset_data + m.size * 6 // 10)' )
head -c "$tarcut" run.tar >cut.tar
head -c $(($(wc -c <run.zip) * 6 / 10)) run.zip >cut.zip
gzip -n -c run.tar >run.tgz
head -c $(($(wc -c <run.tgz) * 6 / 10)) run.tgz >cut.tgz
for a in cut.tar cut.zip cut.tgz; do
	prof-ingest $a >got.tsv
	st=$?
	rm -rf ref && mkdir ref
	case $a in
	*.tgz) gzip -dc <$a 2>/dev/null >ref.tar; python3 "$H" members ref.tar ref;;
	*) python3 "$H" members $a ref;;
	esac
	if [ -f ref/$tv ]; then
		python3 "$H" closearray <ref/$tv >w.json && mv w.json ref/$tv
	fi
	# Members after the cut member are not in the reference either.
	(cd ref && prof-ingest run) >want.tsv 2>/dev/null
	grep -v '^#' got.tsv | cut -f1-24 | sort >g
	grep -v '^#' want.tsv | cut -f1-24 | sort >w
	if cmp -s g w; then same=same; else same=DIFFERENT; fi
	echo "$a: exit $st, $(($(wc -l <g) - 1)) records, $same as the rebuilt run"
done
