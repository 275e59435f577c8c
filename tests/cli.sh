#!/bin/sh
# The command-line conventions every tool must keep: --help and -h on
# stdout with status 0, --version's first line, a bad option gives the
# "Try" line and status 2, a write error (/dev/full) gives status 1.
. "${top_srcdir:-.}/tests/lib.sh"

failed=0
bad() { echo "FAIL: $*"; failed=1; }
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT

for t in $(tool_names); do
	prog="$top_builddir/tools/$t"
	[ -x "$prog" ] || { bad "$t: not built"; continue; }

	"$prog" --help >"$tmp/help" 2>"$tmp/err"; st=$?
	[ $st -eq 0 ] || bad "$t --help: exit $st"
	[ -s "$tmp/err" ] && bad "$t --help: wrote to stderr"
	head -n 1 "$tmp/help" | grep -q "^Usage: $t " ||
	    bad "$t --help: first line is not 'Usage: $t ...'"
	"$prog" -h >"$tmp/h" 2>/dev/null
	cmp -s "$tmp/help" "$tmp/h" || bad "$t: -h differs from --help"

	"$prog" --version >"$tmp/ver" 2>"$tmp/err"; st=$?
	[ $st -eq 0 ] || bad "$t --version: exit $st"
	head -n 1 "$tmp/ver" | grep -Eq "^$t \(proftools\) [0-9]+\.[0-9]+" ||
	    bad "$t --version: bad first line: $(head -n 1 "$tmp/ver")"

	"$prog" --no-such-option </dev/null >"$tmp/out" 2>"$tmp/err"; st=$?
	[ $st -eq 2 ] || bad "$t bad option: exit $st, want 2"
	grep -q "^Try '$t --help' for more information\.$" "$tmp/err" ||
	    bad "$t bad option: no 'Try' line"
	[ -s "$tmp/out" ] && bad "$t bad option: wrote to stdout"

	if [ -w /dev/full ]; then
		"$prog" --help >/dev/full 2>"$tmp/err"; st=$?
		[ $st -eq 1 ] || bad "$t --help >/dev/full: exit $st, want 1"
		grep -q "^$t: write error" "$tmp/err" ||
		    bad "$t >/dev/full: no 'write error' message"
	fi
done
exit $failed
