#!/bin/sh
# The direct output of a lone kernel table (issue 15): a kernel_details
# or op_summary CSV that is prof-ingest's only operand, a plain file, is
# read twice and its records go straight to the output, not stored
# (prof-ingest(1), Memory and temporary files).  Stream, diagnostics and
# exit status must be those of the stored path (PROF_INGEST_DIRECT=0),
# byte for byte, with -m 1M too: on every such table of the corpus, and
# on copies changed to take the stored path or to fail: a row out of
# time order, a bad time, a row with a field too few, a negative wait,
# text after a closing quote, a quote left open at the end, a name that
# is not UTF-8 (repaired, and counted by the pass that writes the
# records), a quoted name over two lines, CRLF line ends and a
# byte-order mark; a generated table of
# 14 MB (41,000 rows), whose stream spans many buffers and which needs no
# temporary file where the stored path spills one; and one of 34 MB,
# whose first pass is read by two threads, with the cases of their
# split (below).
. "${top_srcdir:-.}/tests/lib.sh"

corpus_test python3
failed=0 n=0

# same NAME FILE [OPTION...]: both paths, both budgets (tests/lib.sh).
same() { same_paths "$@"; }

for f in $(find "$corpus" -name 'kernel_details*.csv' -o \
    -name 'op_summary*.csv' | sort); do
	same "$(echo "$f" | sed 's|.*/corpus/||')" "$f"
done

src=$corpus/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
[ -e "$src" ] || skip_ "no alexnet kernel_details.csv"

# edit NAME PYTHON: a copy of the alexnet table, its rows (a list of
# lines, the header first, each with its LF) changed by PYTHON.
edit() {
	mkdir -p "$tmp/$1"
	python3 - "$src" "$tmp/$1/kernel_details.csv" "$2" <<'EOF' ||
import sys
src, dst, code = sys.argv[1:4]
rows = open(src, 'rb').read().split(b'\n')
rows = [r + b'\n' for r in rows[:-1]] + ([rows[-1]] if rows[-1] else [])
exec(code)
open(dst, 'wb').write(b''.join(rows))
EOF
	    { echo "FAIL: could not make $1"; failed=1; return; }
	same "$1" "$tmp/$1/kernel_details.csv"
}
edit unordered "rows[5], rows[9] = rows[9], rows[5]"
edit unordered-last "rows[-1], rows[-2] = rows[-2], rows[-1]"
edit bad-time "
f = rows[40].split(b',')
f[8] = b'12x34'
rows[40] = b','.join(f)"
edit bad-time-unordered "rows[5], rows[9] = rows[9], rows[5]
f = rows[40].split(b',')
f[8] = b'12x34'
rows[40] = b','.join(f)"
edit ragged "rows[70] = rows[70].replace(b',', b'', 1)"
edit negative-wait "
f = rows[30].split(b',')
f[10] = b'-3.5'
rows[30] = b','.join(f)"
edit text-after-quote "rows[50] = rows[50].replace(b',', b',\"ab\"c', 1)"
edit open-quote "rows[-1] = rows[-1].rstrip(b'\n') + b',\"x\n'"
edit not-utf8 "rows[12] = rows[12].replace(b'Conv2D', b'Conv\xff2D', 1)"
edit two-line-name "rows[20] = rows[20].replace(b'Conv2D', b'\"Conv\n2D\"', 1)"
edit crlf-bom "rows = [r.replace(b'\n', b'\r\n') for r in rows]
rows[0] = b'\xef\xbb\xbf' + rows[0]"
edit empty "rows = rows[:1]"

# gen FILE BYTES: the alexnet rows again and again, a second later each
# time, until FILE holds BYTES; a table whose stream spans many of the
# sink's buffers, or whose first pass two threads read.
gen() {
	python3 - "$src" "$1" "$2" <<'PYEOF'
import csv, sys
src, dst, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, newline='') as f:
    rows = list(csv.reader(f))
head, body = rows[0], rows[1:]
ts = head.index('Start Time(us)')
with open(dst, 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(head)
    k = 0
    while f.tell() < size:
        for r in body:
            r = list(r)
            whole, _, frac = r[ts].strip().partition('.')
            r[ts] = '%d.%s' % (int(whole) + k * 1000000, frac or '0')
            w.writerow(r)
        k += 1
PYEOF
}
mkdir -p "$tmp/big"
gen "$tmp/big/kernel_details.csv" 14000000 || failed=1
same generated "$tmp/big/kernel_details.csv"
# Nothing is stored: no temporary file, where the stored path needs one.
if prof-ingest -q -m 1M -T "$tmp/none" "$tmp/big/kernel_details.csv" \
    >/dev/null 2>"$tmp/err"; then
	echo "no temporary file: generated -m 1M"
else
	echo "FAIL: the direct output wanted a temporary file:"
	cat "$tmp/err"
	failed=1
fi
if PROF_INGEST_DIRECT=0 prof-ingest -q -m 1M -T "$tmp/none" \
    "$tmp/big/kernel_details.csv" >/dev/null 2>&1; then
	echo "FAIL: the stored path spilled nowhere: the check above is void"
	failed=1
fi
# A table of 34 MB, whose first pass two threads read, each a half
# (prof-ingest(1)): as it is; with the line end after the middle inside
# a quoted field (the guess of a row's start there is wrong: one thread
# reads on alone); with damage in the second half (said by the first
# thread, at its line); out of order only where the halves meet, and
# only inside the second; with blank lines where they meet.
gen "$tmp/split.csv" $((34 << 20)) || failed=1
# split NAME PYTHON: the 34 MB table changed by PYTHON, which has B (its
# bytes), MID (the first byte after the first LF at or past the middle)
# and row(AT) (the start of the row around byte AT), and sets B.
split() {
	python3 - "$tmp/split.csv" "$tmp/split-case.csv" "$2" <<'PYEOF' ||
import sys
src, dst, code = sys.argv[1:4]
B = open(src, 'rb').read()
MID = B.index(b'\n', len(B) // 2) + 1
def row(at):
    return B.rindex(b'\n', 0, at) + 1
exec(code)
open(dst, 'wb').write(B)
PYEOF
	    { echo "FAIL: could not make $1"; failed=1; return; }
	mkdir -p "$tmp/$1"
	mv "$tmp/split-case.csv" "$tmp/$1/kernel_details.csv"
	same "$1" "$tmp/$1/kernel_details.csv"
	rm -rf "${tmp:?}/$1"
}
split halves "pass"
# (The field of 300 KB moves the middle 150 KB on, into it.)
split quoted-middle "
a = row(len(B) // 2 - 100000)
e = B.index(b'\n', a)
f = B[a:e].split(b',')
f[4] = b'\"' + b'x\n' * 150000 + b'\"'
B = B[:a] + b','.join(f) + B[e:]"
split damage-second-half "
a = row(len(B) * 3 // 4)
e = B.index(b'\n', a)
f = B[a:e].split(b',')
f[8] = b'99x'
B = B[:a] + b','.join(f) + B[e:]"
split unordered-at-middle "
e = B.index(b'\n', MID)
f = B[MID:e].split(b',')
f[8] = b'1.0'
B = B[:MID] + b','.join(f) + B[e:]"
split unordered-second-half "
a = row(len(B) * 3 // 4)
b = B.index(b'\n', a) + 1
c = B.index(b'\n', b) + 1
B = B[:a] + B[b:c] + B[a:b] + B[c:]"
split blank-at-middle "B = B[:MID] + b'\n \n\n' + B[MID:]"
rm -f "$tmp/split.csv"
# Read once, as before: standard input, a compressed file, two files.
# (Only the preamble's lines that name the input may differ.)
prof-ingest -q - <"$tmp/big/kernel_details.csv" | grep -v '^#s[ot]' \
    >"$tmp/stdin.out" &&
    prof-ingest -q "$tmp/big/kernel_details.csv" | grep -v '^#s[ot]' \
    >"$tmp/file.out" &&
    cmp -s "$tmp/stdin.out" "$tmp/file.out" ||
    { echo "FAIL: standard input differs from the file"; failed=1; }
gzip -c "$tmp/big/kernel_details.csv" >"$tmp/big.csv.gz"
mkdir -p "$tmp/gz" && mv "$tmp/big.csv.gz" "$tmp/gz/kernel_details.csv.gz"
same compressed "$tmp/gz/kernel_details.csv.gz"

echo "$n comparisons"
exit $failed
