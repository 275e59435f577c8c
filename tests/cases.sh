#!/bin/sh
# All the golden cases in one run, or those of the tools or cases named:
#	sh tests/cases.sh [TOOL|CASE]...
# (`make check TESTS=tests/cases.sh` runs them all).  make check runs
# each case as a test of its own through tests/run-case.sh; this is the
# same driver in a loop, for one summary of many cases.  REGEN=1
# rewrites the golden files as run-case.sh does.
. "${top_srcdir:-.}/tests/lib.sh"
export top_srcdir top_builddir

pass=0 fail=0 skip=0
one() {
	out=$(sh "$top_srcdir/tests/run-case.sh" "$1")
	case $? in
	0)	pass=$((pass + 1)) ;;
	77)	skip=$((skip + 1)); echo "$out" | head -n 1 ;;
	*)	fail=$((fail + 1)); echo "$out" ;;
	esac
}

[ $# -gt 0 ] || set -- "$top_srcdir"/tests/prof-*/
for arg; do
	case $arg in
	*.sh)	one "$arg"; continue ;;
	*/*)	d=$arg ;;
	*)	d=$top_srcdir/tests/$arg ;;
	esac
	[ -d "$d" ] || fail_ "no cases in '$arg'"
	for c in "${d%/}"/*.sh; do
		[ -f "$c" ] && one "$c"
	done
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
