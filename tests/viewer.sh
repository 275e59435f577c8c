#!/bin/sh
# The timeline export in an offline viewer (issue 20): prof-render -f
# chrome of the bundled example (also limited to the devices, -D) and of
# every run of the corpus, opened in speedscope (the npm registry's
# package, its built app served from 127.0.0.1, nothing fetched from
# elsewhere) in headless Chromium, driven by playwright-core
# (tests/viewer.cjs): speedscope imports each, shows one timeline per
# thread of the file, draws it, and raises no error.  The slices
# speedscope finds not nested are counted and shown: it adds times in
# floating-point microseconds after moving them to its own origin, so
# that a slice ending where the next begins, or where the slice holding
# it ends, may end a hair after (about 1e-11 us) and is taken as not
# nested; so is a slice of no duration that starts with another.  None
# may on the example's device tracks and overlays (-D).  Slice names of
# over 1000 characters (Triton kernels) stop speedscope 1.25's import:
# prof-render -f chrome cuts names to 256 bytes (and does not repeat
# the whole name among the args, which speedscope makes part of a
# frame's key), and every export must load.
# The exports are those tests/chrome-corpus.sh checks (every flow bound,
# device tracks nested).  A run that is a folder of unrelated traces
# taken months apart (more than a day from first to last event) is
# opened a trace file at a time, as its user would: speedscope's single
# time axis in floating-point microseconds breaks on such a span.
# Not part of make check (it installs from the npm registry): make
# check-viewer, which .ci/run runs after installing Debian's chromium;
# skipped (77) without a browser, node or npm, or where npm cannot reach
# its registry.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/npm.sh"

browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && { browser=$(command -v "$b"); break; }
done
[ -n "$browser" ] || skip_ "no Chromium installed (.ci/run installs it)"
# playwright-core 1.49 runs on node 18, Debian 12's nodejs (1.65 needs 20)
npm_need speedscope@1.25.0 playwright-core@1.49.1
PATH="$top_builddir/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
corpus=$(corpus_dir)
corpus_runs 2>&1 >"$tmp/runs"

# export NAME INPUT [OPTION [strict]]: INPUT's Chrome trace into the
# list, when it has slices to show; strict: every slice must nest.
n=0
export_() {
	prof-ingest -q -k "$2" 2>/dev/null | prof-steps -q 2>/dev/null |
	    prof-merge 2>/dev/null | prof-bubbles >"$tmp/s.tsv" 2>/dev/null
	grep -q '^kind	' "$tmp/s.tsv" || return 1
	prof-render -f chrome ${3:+"$3"} "$tmp/s.tsv" >"$tmp/$n.json" ||
	    fail_ "$1: prof-render -f chrome failed"
	grep -q '"ph":"X"' "$tmp/$n.json" || return 0
	printf '%s\t%s\n' "$tmp/$n.json" "${4:-}" >>"$tmp/list"
	echo "$1${3:+ $3}" >>"$tmp/names"
	n=$((n + 1))
}
while read -r run; do
	name=${run#"$corpus"/}
	export_ "$name" "$run" || continue
	long=$(awk -F'\t' '/^#/ || !h++ { next } $2 != "" {
	    if (m == "" || $2 < m) m = $2; e = $2 + $3; if (e > x) x = e }
	    END { print (x - m > 86400e9) }' "$tmp/s.tsv")
	if [ "$long" = 1 ]; then
		# unrelated captures: drop the whole, open each file
		n=$((n - 1))
		sed -i '$d' "$tmp/list" "$tmp/names"
		for f in "$run"/*; do
			[ -f "$f" ] && export_ "$name/${f##*/}" "$f"
		done
	fi
done <"$tmp/runs"
# The example's device tracks and overlays: every slice nests in
# speedscope too (its host tracks do not all: below).
export_ example "$top_srcdir/examples/data/alexnet_2rank" -D strict
[ "$n" -gt 0 ] || fail_ "no trace exported"

mkdir "$tmp/png"
node "$top_srcdir/tests/viewer.cjs" "$npm_dir/node_modules" "$browser" \
    "$tmp/list" "$tmp/png" >"$tmp/out" 2>"$tmp/err"
st=$?
[ -s "$tmp/err" ] && cat "$tmp/err"
grep '^FAIL' "$tmp/out"
# one line per trace: its name, threads, warnings, seconds; whether it
# met speedscope's known limit
awk 'NR == FNR { name[NR - 1] = $0; next }
    /^[0-9]/ { t += $2; w += $3; n++
	printf "%s: %d thread timelines, %d slices not nested, %.1f s\n",
	    name[$1], $2, $3, $4 }
    END { printf "speedscope: %d traces loaded, %d thread timelines, " \
	"%d slices not nested\n", n, t, w }' "$tmp/names" "$tmp/out"
[ $st -eq 0 ] || exit 1
echo "ok: every export loads in speedscope $(node -p "require('$npm_dir/node_modules/speedscope/package.json').version") in $("$browser" --version 2>/dev/null | head -n 1)"
exit 0
