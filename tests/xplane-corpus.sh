#!/bin/sh
# The XPlane reader on the five real files of ../shared/corpus/tpu_xla
# (issue 19, "What users must get"):
#
# (a) tests/xplane-evidence.py (python3, its own protobuf wire walker, no
#     protobuf library, no proftools) must write exactly
#     tests/data/xplane-expected.tsv: per timeline the number of events
#     (1,992, 4,380, 3,782, 3,650 and 26,723 in all, per file), the sum of
#     their duration_ps and of their absolute start times in ps; per TPU
#     device and op category the XLA Ops count, flops and bytes_accessed.
# (b) prof-ingest reads every file without a diagnostic, and the same rows
#     computed from its stream (ts_ns, dur_ns and the ext key ps=S:E,
#     exact integers, by dev and track; flops, bytes and type columns)
#     equal the table's rows for that file: every event is there once, on
#     its timeline, and the stream's times give back the file's
#     picoseconds exactly.
#
# Skipped (77) when the corpus is not beside the repository.
. "${top_srcdir:-.}/tests/lib.sh"

corpus=$(corpus_dir)
[ -d "$corpus/tpu_xla" ] || skip_ "no XPlane corpus at $corpus/tpu_xla"
PATH="$top_builddir/tools:$PATH"; export PATH
table="$top_srcdir/tests/data/xplane-expected.tsv"
py="$top_srcdir/tests/xplane-evidence.py"
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0

evidence_table "$py" "$corpus" "$table" "$tmp" || failed=1
command -v python3 >/dev/null 2>&1 || skip_ "no python3 for (b)"

printf '%-52s %8s %8s %s\n' file events records result
n=0
for f in $(cut -f1 "$table" | sort -u); do
	n=$((n + 1))
	if ! prof-ingest "$corpus/tpu_xla/$f" >"$tmp/s.tsv" 2>"$tmp/err" ||
	    [ -s "$tmp/err" ]; then
		echo "FAIL: prof-ingest $f:"; cat "$tmp/err"; failed=1
		continue
	fi
	python3 "$py" --stream "$f" "$tmp/s.tsv" >"$tmp/got"
	awk -F'\t' -v f="$f" '$1 == f' "$table" >"$tmp/want"
	ev=$(awk -F'\t' '$2 == "line" { s += $4 } END { print s + 0 }' \
	    "$tmp/want")
	got=$(awk -F'\t' '$2 == "line" { s += $4 } END { print s + 0 }' \
	    "$tmp/got")
	if cmp -s "$tmp/got" "$tmp/want"; then r=same; else
		r=DIFFERENT; failed=1
		diff "$tmp/want" "$tmp/got" | head -n 20
	fi
	printf '%-52s %8s %8s %s\n' "$f" "$ev" "$got" "$r"
done
[ "$n" -eq 5 ] || { echo "FAIL: $n XPlane files in the table, not 5"; failed=1; }
exit $failed
