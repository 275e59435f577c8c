#!/bin/sh
# Golden-file cases: tests/<tool>/<case>.sh runs in a scratch directory
# and its stdout, stderr and exit status are compared with <case>.sh.stdout,
# .stderr and .exit beside it (a missing file means empty, or status 0).
# REGEN=1 rewrites the golden files for review with git diff.  A case
# that exits 77 is skipped (it needs something absent, like the corpus).
. "${top_srcdir:-.}/tests/lib.sh"

pass=0 fail=0 skip=0
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
export CORPUS="$(corpus_dir)" DATA="$top_srcdir/tests/data"
PATH="$top_builddir/tools:$PATH"; export PATH

for case in "$top_srcdir"/tests/prof-*/*.sh; do
	[ -e "$case" ] || continue
	name=${case#"$top_srcdir"/tests/}
	work="$tmp/work"
	rm -rf "$work"; mkdir -p "$work"
	(cd "$work" && sh "$case") >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 77 ]; then
		echo "SKIP: $name"; skip=$((skip + 1)); continue
	fi
	echo $st >"$tmp/exit"
	if [ -n "${REGEN:-}" ]; then
		for k in stdout stderr; do
			f="$case.$k"; src="$tmp/out"
			[ $k = stderr ] && src="$tmp/err"
			if [ -s "$src" ]; then cp "$src" "$f"; else rm -f "$f"; fi
		done
		if [ $st -ne 0 ]; then cp "$tmp/exit" "$case.exit"
		else rm -f "$case.exit"; fi
	fi
	ok=1
	for k in stdout stderr; do
		f="$case.$k"; src="$tmp/out"
		[ $k = stderr ] && src="$tmp/err"
		[ -e "$f" ] || f=/dev/null
		if ! cmp -s "$f" "$src"; then
			ok=0; echo "FAIL: $name: $k differs:"
			diff -u "$f" "$src" | head -n 20
		fi
	done
	want=0
	[ -e "$case.exit" ] && want=$(cat "$case.exit")
	if [ "$want" != "$st" ]; then
		ok=0; echo "FAIL: $name: exit $st, want $want"
	fi
	if [ $ok -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
