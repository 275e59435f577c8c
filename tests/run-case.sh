#!/bin/sh
# run-case.sh CASE: run one golden case, tests/<tool>/<case>.sh, and
# compare what it writes with the files beside it: <case>.sh.stdout,
# <case>.sh.stderr and <case>.sh.exit (a missing file means nothing
# written, or status 0).  The Automake log compiler of every case
# (tests/local.mk), so that each case is a test of its own:
#	make check TESTS=tests/prof-ingest/archive.sh
# runs one and names it in its log.  The case runs in an empty scratch
# directory with PATH holding the built tools, CORPUS the real-profile
# corpus (the case exits 77, a skip, when it needs it and it is absent)
# and DATA tests/data.  REGEN=1 rewrites the golden files from what the
# case wrote, for review with git diff.  Exits 0 when all three agree,
# 1 when one differs (the differences are in the log), 77 when the case
# skipped, 99 when the case could not be run at all.
. "${top_srcdir:-.}/tests/lib.sh"

[ $# -eq 1 ] || { echo "usage: run-case.sh CASE" >&2; exit 99; }
[ -f "$1" ] || { echo "run-case.sh: no case '$1'" >&2; exit 99; }
# The case runs elsewhere, so its path must not be relative; its name is
# the one the goldens and the logs use, tests/<tool>/<case>.sh.
dir=$(CDPATH= cd -- "$(dirname -- "$1")" && pwd) || exit 99
case=$dir/${1##*/}
name=tests/${dir##*/}/${1##*/}

tmp=$(scratch_dir) || exit 99
trap 'rm -rf "$tmp"' EXIT
CORPUS=$(corpus_dir) DATA=$top_srcdir/tests/data
PATH=$top_builddir/tools:$PATH
export CORPUS DATA PATH
mkdir "$tmp/work" || exit 99
(cd "$tmp/work" && sh "$case") >"$tmp/stdout" 2>"$tmp/stderr"
st=$?
if [ $st -eq 77 ]; then
	echo "SKIP: $name"
	cat "$tmp/stdout"
	exit 77
fi

if [ -n "${REGEN:-}" ]; then
	for k in stdout stderr; do
		if [ -s "$tmp/$k" ]; then cp "$tmp/$k" "$case.$k"
		else rm -f "$case.$k"; fi
	done
	if [ $st -ne 0 ]; then echo $st >"$case.exit"
	else rm -f "$case.exit"; fi
fi

ok=0
for k in stdout stderr; do
	want=$case.$k
	[ -e "$want" ] || want=/dev/null
	if ! cmp -s "$want" "$tmp/$k"; then
		echo "FAIL: $name: $k differs:"
		diff -u "$want" "$tmp/$k" | head -n 40
		ok=1
	fi
done
want=0
[ -e "$case.exit" ] && want=$(cat "$case.exit")
if [ "$want" != "$st" ]; then
	echo "FAIL: $name: exit $st, want $want"
	ok=1
fi
exit $ok
