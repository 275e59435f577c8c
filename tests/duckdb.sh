#!/bin/sh
# DuckDB on the SQLite export (issue 20): on the bundled example and
# every run of the corpus, "kernel time per device" is one SELECT ...
# GROUP BY in sqlite3 and in DuckDB, equal to the sum awk makes from the
# stream itself, to the ns.  DuckDB is the npm registry's
# (@duckdb/node-api, whose package carries the library), driven by
# tests/duckdb-check.cjs, which says which way it read the SQLite file:
# ATTACH through DuckDB's sqlite extension where DuckDB can load it, else
# (no extension built in, its repository out of reach) the file read
# as that extension reads it, with its type checks and the file's views
# created from their own SQL.  DuckDB also reads the JSON Lines export
# (read_json) and the stream (read_csv, as prof-tsv(5) writes it), and
# each answer must be the same.
# Not part of make check (it installs from the npm registry): make
# check-duckdb, which .ci/run runs; skipped (77) only where node or npm
# is missing or npm cannot reach its registry.
. "${top_srcdir:-.}/tests/lib.sh"
. "$top_srcdir/tests/npm.sh"

command -v sqlite3 >/dev/null 2>&1 || fail_ "no sqlite3 shell (bootstrap installs it)"
npm_need @duckdb/node-api@1.5.6-r.1
PATH="$top_builddir/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0 runs=0 sums=0
corpus=$(corpus_dir)
corpus_runs 2>&1 >"$tmp/runs"

# Each run's stream, its two exports, and the two reference answers:
# awk over the stream (integers below 2^53, checked) and sqlite3.
while read -r run; do
	d=$tmp/$runs
	mkdir "$d"
	prof-ingest -q -k "$run" >"$d/s.tsv" 2>/dev/null
	grep -q '^kind	' "$d/s.tsv" || { rm -r "$d"; continue; }
	echo "${run#"$corpus"/}" >"$d/name"
	runs=$((runs + 1))
	prof-export -f sqlite "$d/s.db" "$d/s.tsv" &&
	    prof-export -f jsonl "$d/s.tsv" >"$d/s.jsonl" ||
	    fail_ "$(cat "$d/name"): prof-export failed"
	awk -F'\t' '/^#/ { next } !h { h = 1; next }
	    $1 == "kernel" { n[$4]++; s[$4] += $3
		if (s[$4] >= 9007199254740992) { print "overflow"; exit 1 } }
	    END { for (d in n) printf "%s|%d|%.0f\n", d, n[d], s[d] }' \
	    "$d/s.tsv" | sort >"$d/awk"
	if sqlite3 "$d/s.db" "SELECT name FROM sqlite_master WHERE name = 'kernel'" |
	    grep -q kernel; then
		sqlite3 "$d/s.db" 'SELECT dev, COUNT(*), SUM(dur_ns) FROM kernel
		    GROUP BY dev' | sort >"$d/sqlite3"
	else
		: >"$d/sqlite3"
	fi
	echo "$d" >>"$tmp/list"
done <"$tmp/runs"
[ $runs -gt 0 ] || fail_ "no run exported"

node "$top_srcdir/tests/duckdb-check.cjs" "$npm_dir/node_modules" \
    "$tmp/list" >"$tmp/duck.out" 2>"$tmp/duck.err" || {
	cat "$tmp/duck.err"; fail_ "DuckDB failed on the exports"; }
cat "$tmp/duck.err"
read -r _ version route <"$tmp/duck.out"

while read -r d; do
	name=$(cat "$d/name")
	for got in sqlite3 "$route" jsonl tsv; do
		if ! cmp -s "$d/awk" "$d/$got"; then
			echo "FAIL: $name: kernel time per device, $got against awk:"
			diff "$d/awk" "$d/$got" | head -n 10
			failed=1
		fi
	done
	sums=$((sums + $(wc -l <"$d/awk")))
	echo "$name: $(wc -l <"$d/awk") devices, the same in sqlite3 and DuckDB ($route, jsonl, tsv)"
done <"$tmp/list"

case $route in
attach) how="ATTACH ... (TYPE sqlite)" ;;
*) how="the file read as DuckDB's sqlite extension reads it (the extension could not be loaded)" ;;
esac
[ $failed -eq 0 ] &&
    echo "ok: DuckDB $version: $runs runs, $sums (run, device) kernel sums equal to the stream's in sqlite3 and in DuckDB through $how, read_json and read_csv"
exit $failed
