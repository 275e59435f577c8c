#!/bin/sh
# Real profiles: every run in ../shared/corpus ingests without error, and
# the numbers are exact.  For each kernel_details.csv / op_summary and each
# Kineto trace, the count of device kernel records and the sum of their
# durations must equal, to the nanosecond, what an independent reader
# (python3 with Decimal, run once; numbers kept in tests/data/*_expected.tsv)
# found in the file.  Skipped when the corpus is not beside the repository.
. "${top_srcdir:-.}/tests/lib.sh"

corpus=$(corpus_dir)
[ -d "$corpus" ] || skip_ "no corpus at $corpus"
PATH="$top_builddir/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0 checked=0
: >"$tmp/checked"

# Sum kind=kernel records (optionally only those of a cat) from a stream.
kernel_totals() {
	awk -F'\t' -v want="$1" '
	/^#/ { next }
	!hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
	$col["kind"] == "kernel" &&
	    (want == "" || $col["cat"] == want || $col["cat"] == "Kernel") {
		n++; s += $col["dur_ns"]
	}
	END { printf "%d\t%.0f\n", n, s }'
}

# 1. Every run directory ingests with status 0 and a non-empty stream.
# Two corpus files are excerpts damaged by truncation upstream (a row
# with a missing field, listed in tests/data/corpus_damaged.txt): strict
# mode must report exactly those and exit 1, --lenient must skip them.
damaged="$top_srcdir/tests/data/corpus_damaged.txt"
for run in "$corpus"/*/*; do
	[ -d "$run" ] || continue
	if ! prof-ingest -q "$run" >"$tmp/out" 2>"$tmp/err"; then
		sed "s|$corpus/||" "$tmp/err" | sort >"$tmp/got"
		grep -F -f "$tmp/got" "$damaged" >/dev/null 2>&1 &&
		    [ "$(grep -c -v -x -F -f "$damaged" "$tmp/got")" = 0 ] &&
		    prof-ingest -q -k "$run" >"$tmp/out" 2>/dev/null || {
			echo "FAIL: prof-ingest $run:"; head -n 5 "$tmp/err"
			failed=1; continue
		}
	fi
	grep -qv '^#' "$tmp/out" || { echo "FAIL: $run: no header"; failed=1; }
	checked=$((checked + 1))
done
prof-ingest -q -k -i "$corpus" >"$tmp/inv" 2>"$tmp/err" ||
    { echo "FAIL: prof-ingest -k -i corpus:"; head "$tmp/err"; failed=1; }
grep -q 'malformed row' "$tmp/inv" ||
    { echo "FAIL: inventory does not count the skipped rows"; failed=1; }

# 2. Exact kernel counts and duration sums.
check_expected() {
	list=$1 cat=$2
	[ -f "$list" ] || { echo "FAIL: missing $list"; failed=1; return; }
	grep -v '^#' "$list" | while IFS='	' read -r path n sum; do
		got=$(prof-ingest -q "$corpus/$path" 2>/dev/null |
		    kernel_totals "$cat")
		if [ "$got" != "$n	$sum" ]; then
			echo "FAIL: $path: got '$got', want '$n	$sum'"
			echo x >>"$tmp/failures"
		fi
		echo x >>"$tmp/checked"
	done
}
check_expected "$top_srcdir/tests/data/kineto_expected.tsv" kernel
check_expected "$top_srcdir/tests/data/kernel_details_expected.tsv" ""
[ -s "$tmp/failures" ] && failed=1
echo "$checked runs ingested, $(wc -l <"$tmp/checked") files checked exactly"
exit $failed
