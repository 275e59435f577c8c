#!/bin/sh
# same-output.sh OLD_BINDIR NEW_BINDIR [CORPUS]: prove that a refactor
# changed nothing a user sees.  Every program of OLD_BINDIR and
# NEW_BINDIR runs on every corpus run directory, every file, and the
# streams the old pipeline makes of them; stdout, stderr and the exit
# status must be byte-identical.  Not part of `make check` (it needs two
# builds): build the old tree elsewhere, e.g.
#	git worktree add /tmp/old HEAD~1 && (cd /tmp/old && ./bootstrap && make)
#	sh tests/same-output.sh /tmp/old/tools tools
# Exit 0 when nothing differs, 1 with the differing commands listed.
old=${1:?usage: same-output.sh OLD_BINDIR NEW_BINDIR [CORPUS]}
new=${2:?usage: same-output.sh OLD_BINDIR NEW_BINDIR [CORPUS]}
corpus=${3:-$(dirname "$0")/../../shared/corpus}
old=$(cd "$old" && pwd) new=$(cd "$new" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$corpus" || exit 1
ndiff=0 nrun=0

# run NAME CMD...: CMD with prof-* from each bindir; compare the outputs.
# Paths in diagnostics differ only by the bindir, which is cut out.
run() {
	for side in old new; do
		eval "dir=\$$side"
		(PATH="$dir:$PATH"; export PATH; "$@") \
		    >"$tmp/$side.out" 2>"$tmp/$side.err" </dev/null
		echo "$?" >"$tmp/$side.rc"
		sed "s|$dir/||g" "$tmp/$side.err" >"$tmp/$side.err2"
	done
	nrun=$((nrun + 1))
	if ! cmp -s "$tmp/old.out" "$tmp/new.out" ||
	    ! cmp -s "$tmp/old.err2" "$tmp/new.err2" ||
	    ! cmp -s "$tmp/old.rc" "$tmp/new.rc"; then
		echo "DIFFERS: $*"
		diff "$tmp/old.err2" "$tmp/new.err2" | head -n 6
		ndiff=$((ndiff + 1))
	fi
}

# A pipeline of the old programs makes the streams both sides then read.
stream_of() {
	PATH="$old:$PATH" prof-ingest -q "$1" 2>/dev/null | \
	    PATH="$old:$PATH" prof-steps -q 2>/dev/null
}

stages="prof-merge prof-bubbles prof-attrib prof-waitanchor \
prof-roofline prof-layers prof-verdict prof-cluster"
for d in */*; do
	[ -d "$d" ] || continue
	run prof-ingest -q "$d"
	run prof-ingest -q -k "$d"
	run prof-ingest -i "$d"
	# The sink's spill and its merge in groups, on a small budget.
	run env PROF_INGEST_MERGE_FAN=2 prof-ingest -q -m 1M "$d"
	stream_of "$d" >"$tmp/s.tsv"
	for st in $stages; do
		run sh -c "$st <'$tmp/s.tsv'"
	done
	run sh -c "prof-merge <'$tmp/s.tsv' | prof-bubbles | prof-attrib |
	    prof-waitanchor | prof-roofline | prof-layers | prof-verdict |
	    prof-render -f md"
	run sh -c "prof-ingest -q '$d' | prof-steps -q"
done
find . -type f ! -name '*.md' | sort | while read -r f; do
	echo "$f"
done >"$tmp/files"
while read -r f; do
	run prof-ingest -q "$f"
done <"$tmp/files"
echo "$nrun commands, $ndiff differ"
[ "$ndiff" = 0 ]
