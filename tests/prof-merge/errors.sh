# Every diagnostic of prof-merge, each with its exit status.
cp "$top_srcdir"/tests/prof-merge/*.tsv .
run() { prof-merge "$@" >/dev/null; echo "exit $?"; }
run version2.tsv rank0.tsv
run version2.tsv
run rank0.tsv unordered.tsv
run unordered.tsv
run -m timeless-late.tsv rank0.tsv
run origin-low.tsv origin-high.tsv
run ts-high.tsv vector-merge.tsv
run rank0.tsv no-origin.tsv
run bad-origin.tsv rank0.tsv
run rank0.tsv not-stream.tsv
run window-nodur.tsv
run rank0.tsv bad-src.tsv
run bad-source.tsv rank0.tsv
run rank0.tsv no-such-file.tsv
run --kinds=kernel,,comm rank0.tsv
run --kinds=Kernel rank0.tsv
run --hold-limit=0 rank0.tsv
