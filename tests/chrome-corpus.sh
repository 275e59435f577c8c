#!/bin/sh
# prof-render -f chrome on real profiles (issue 20): on the bundled
# example and every run of the corpus, the Chrome trace is checked by
# tests/chrome-check.py, which reads it as a viewer does, without
# proftools: every flow end binds to a slice of its thread, every arrow
# that starts finishes, no two slices of a device track overlap unless
# one holds the other, every track is named.  The example is also
# checked gzip-compressed (-z) and limited to the devices (-D), and its
# counts of arrows drawn and dropped are pinned.  Skipped without
# python3.
. "${top_srcdir:-.}/tests/lib.sh"

py=$(command -v python3 2>/dev/null) || skip_ "no python3"
PATH="$top_builddir/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
check="$top_srcdir/tests/chrome-check.py"
failed=0 runs=0
corpus=$(corpus_dir)
set -- "$top_srcdir/examples/data/alexnet_2rank"
if [ -d "$corpus" ]; then
	for r in "$corpus"/*/*; do [ -d "$r" ] && set -- "$@" "$r"; done
else
	echo "note: no corpus at $corpus: the bundled example only"
fi
for run in "$@"; do
	name=${run#"$corpus"/}
	prof-ingest -q -k "$run" 2>/dev/null | prof-steps -q 2>/dev/null |
	    prof-merge | prof-bubbles >"$tmp/s.tsv" 2>/dev/null
	grep -q '^kind	' "$tmp/s.tsv" || continue
	runs=$((runs + 1))
	prof-render -f chrome "$tmp/s.tsv" >"$tmp/t.json" ||
	    { echo "FAIL: $name: prof-render -f chrome"; failed=1; continue; }
	"$py" "$check" "$tmp/t.json" >"$tmp/out" 2>"$tmp/err" ||
	    { echo "FAIL: $name:"; head -n 20 "$tmp/err"; failed=1; }
	echo "$name: $(cat "$tmp/out")"
done
ex="$top_srcdir/examples/data/alexnet_2rank"
prof-ingest -q "$ex" | prof-steps -q | prof-merge | prof-bubbles >"$tmp/s.tsv"
prof-render -f chrome "$tmp/s.tsv" >"$tmp/t.json"
prof-render -f chrome -z -D "$tmp/s.tsv" >"$tmp/t.json.gz"
"$py" "$check" "$tmp/t.json.gz" >"$tmp/out" 2>"$tmp/err" ||
    { echo "FAIL: -z -D:"; head -n 20 "$tmp/err"; failed=1; }
# -D: no host thread, no flow; -z: gzip that gunzip reads back
gzip -dc "$tmp/t.json.gz" | grep -q '"ph":"[stf]"' &&
    { echo "FAIL: -D kept flows"; failed=1; }
gzip -dc "$tmp/t.json.gz" | grep -q '"cat":"cpu_op"' &&
    { echo "FAIL: -D kept host events"; failed=1; }
# The example's arrows: 1212 in the stream (awk), each drawn or dropped.
"$py" - "$tmp/t.json" "$tmp/s.tsv" <<'PY' || failed=1
import json, sys
r = json.load(open(sys.argv[1]))['prof_render']
ends = {}
with open(sys.argv[2]) as f:
    for line in f:
        if line.startswith('#'):
            continue
        v = line.rstrip('\n').split('\t')
        if v[0] == 'kind':
            c = {n: i for i, n in enumerate(v)}
            continue
        if v[0] == 'flow':
            k = (v[3], v[c['cat']], v[c['corr']])
            ends[k] = ends.get(k, '') + v[c['type']]
# drawn: an s then one f; the rest (an f before its s, a second f) not
whole = sum(1 for t in ends.values() if t == 'sf')
print('example: %d arrows in the stream (%d whole), %d drawn, %d dropped, '
      '%d ends moved to the device' % (len(ends), whole, r['flow_arrows'],
      r['flow_arrows_dropped'], r['flow_ends_moved_to_device']))
if r['flow_arrows'] > whole or r['flow_arrows'] == 0:
    print('FAIL: more arrows drawn than the stream holds whole')
    sys.exit(1)
if r['duplicate_ops_not_drawn'] != 16:
    print('FAIL: duplicate HCCL ops not drawn: %d, want 16 (4 ops x 2 '
          'records x 2 ranks)' % r['duplicate_ops_not_drawn'])
    sys.exit(1)
PY
[ $runs -gt 0 ] || fail_ "no run drawn"
echo "checked: $runs runs"
exit $failed
