#!/bin/sh
# Every documented pipeline in examples/ must still produce its recorded
# output: examples/NAME.sh is run from examples/ and compared with NAME.out.
. "${top_srcdir:-.}/tests/lib.sh"

PATH="$top_builddir/tools:$PATH"; export PATH
n=0 failed=0
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
for ex in "$top_srcdir"/examples/*.sh; do
	[ -e "$ex" ] || continue
	n=$((n + 1))
	(cd "$top_srcdir/examples" && sh "$ex") >"$tmp/out" 2>"$tmp/err" ||
	    { echo "FAIL: $ex exited $?"; cat "$tmp/err"; failed=1; continue; }
	if ! cmp -s "${ex%.sh}.out" "$tmp/out"; then
		echo "FAIL: $ex: output differs"
		diff -u "${ex%.sh}.out" "$tmp/out" | head -n 30
		failed=1
	fi
done
[ $n -gt 0 ] || fail_ "no examples found"
exit $failed
