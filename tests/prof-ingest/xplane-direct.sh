# The direct output: a lone XPlane is read twice, its lines merged
# straight into the stream with nothing stored (prof-ingest(1),
# CAVEATS).  Its stream and diagnostics are those of the stored path
# (PROF_INGEST_DIRECT=0), byte for byte, with -m 1M too: on the TPU,
# GPU and host-device files, on one whose XLA Ops line is out of time
# order (stored, as the direct output needs every line in order), and
# on a damaged one read with --lenient.
command -v python3 >/dev/null 2>&1 || exit 77
gen="$top_srcdir/tests/xplane-gen.py"
for k in tpu gpu hostdev unordered wiretype; do
	python3 "$gen" $k $k.xplane.pb
	for m in 12M 1M; do
		prof-ingest -k -m $m $k.xplane.pb >d.tsv 2>d.err
		echo "$k -m $m: exit $?, $(grep -vc '^#' d.tsv) lines"
		PROF_INGEST_DIRECT=0 prof-ingest -k -m $m $k.xplane.pb >s.tsv \
		    2>s.err
		cmp d.tsv s.tsv && cmp d.err s.err && echo same
	done
done
# the unordered file's kernels come out in time order all the same
prof-ingest unordered.xplane.pb | awk -F'\t' '$1 == "kernel" { print $2 }' |
    sort -nc && echo sorted
