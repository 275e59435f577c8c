# Usage errors (2), and bad input: the records before the damage are
# exported and the exit status is 1; a database that cannot be written
# is an error naming it, and leaves nothing behind.
cp "$top_srcdir/tests/prof-export/small.tsv" small.tsv
in=small.tsv
prof-export "$in"
echo "exit $?"
prof-export -f csv "$in"
echo "exit $?"
prof-export -f sqlite
echo "exit $?"
prof-export -f sqlite - "$in"
echo "exit $?"
prof-export -f jsonl "$in" "$in"
echo "exit $?"
d=$(mktemp -d "${TMPDIR:-/tmp}/export.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t1\t2\t0\t0\ta\nBad-Kind\t2\t\t0\t0\tb\n' >"$d/bad.tsv"
prof-export -f jsonl "$d/bad.tsv" 2>"$d/err"
echo "exit $?"
sed "s|$d/||" "$d/err"
prof-export -f sqlite "$d/x.db" "$d/bad.tsv" 2>"$d/err"
echo "exit $?"
sed "s|$d/||" "$d/err"
sqlite3 "$d/x.db" 'SELECT * FROM kinds' 2>&1
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t1\t\t0\t0\ta\n' |
    prof-export -f jsonl 2>&1
prof-export -f sqlite "$d/no/such/dir/x.db" "$in" 2>"$d/err"
echo "exit $?"
sed "s|$d/||" "$d/err"
rm "$d/err"
ls "$d"
