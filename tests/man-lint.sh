#!/bin/sh
# Lint the hand-written mdoc pages: mandoc -T lint -W warning must print
# nothing for man/*.[1-9], and every program in tools/ must have its
# section 1 page.  Skipped (77) where mandoc is not installed.
. "${top_srcdir:-.}/tests/lib.sh"

command -v mandoc >/dev/null 2>&1 || skip_ "mandoc not installed"

failed=0
pages=0
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT

for page in "$top_srcdir"/man/*.[1-9]; do
	[ -f "$page" ] || continue
	pages=$((pages + 1))
	mandoc -T lint -W warning "$page" >"$tmp/out" 2>&1
	st=$?
	if [ -s "$tmp/out" ] || [ $st -ne 0 ]; then
		echo "FAIL: ${page#"$top_srcdir"/} (mandoc exit $st):"
		cat "$tmp/out"
		failed=1
	fi
done
[ $pages -gt 0 ] || fail_ "no manual pages in $top_srcdir/man"

for t in $(tool_names); do
	[ "$t" = 'prof-*' ] && continue		# no tools/prof-*.c at all
	[ -f "$top_srcdir/man/$t.1" ] || {
		echo "FAIL: tools/$t.c has no man/$t.1"
		failed=1
	}
done

[ $failed -eq 0 ] && echo "man-lint: $pages pages clean"
exit $failed
