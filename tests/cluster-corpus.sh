#!/bin/sh
# prof-cluster against figures computed without proftools (issue 16):
# for each multi-rank Ascend run, the step skew and the slow rank from
# step_trace_time.csv's Stage column (awk), and each rank's wait at the
# collectives matched by name in communication.json (python3, exact
# decimals), must equal prof-cluster's step_skew and rank_wait records
# to the nanosecond; so must, per collective among the 20 with the most
# waiting, the rank that arrived last and the spread of the arrivals
# (in a send/receive pair the other rank waits that long for it), and
# the pipeline-stage imbalance: each stage's mean Computing over its
# ranks (stage = the rank's place in its pp group, profiler_metadata.json),
# the slowest stage over the fastest.  The bundled example and the whole
# Qwen PP=2 DP=2 job (tests/data/qwen_pp2dp2_4rank: all four ranks, of
# which ../shared/corpus holds two) always run; the corpus runs when
# ../shared/corpus is there.  On msprof-analyze's cluster-analysis
# folders (cluster_step_trace_time.csv and cluster_communication.json),
# every rank's step, compute, exposed communication and free time in
# prof-cluster's rank_step records must equal the CSV's rank rows, each
# read by python3 as an exact decimal count of us and rounded to the ns
# half away from zero (prof-tsv(5)), the comm records must be as many
# as the file's ops times their ranks, and each rank's bytes and transit
# time per link (SDMA left out) must be the file's, op by op, rounded the
# same way and added up.  The python part is skipped, with a
# message, without python3.
. "${top_srcdir:-.}/tests/lib.sh"

PATH="$top_builddir/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0
# agree NAME WHAT GOT WANT: prof-cluster's figures (GOT) against those
# computed from the files (WANT), both sorted; a difference fails.
agree() {
	if cmp -s "$3" "$4"; then
		echo "ok: $1: $(grep -c . "$4") figures agree"
	else
		echo "FAIL: $1: prof-cluster (<) against $2 (>):"
		diff "$3" "$4"
		failed=1
	fi
}

runs="$top_srcdir/examples/data/alexnet_2rank $top_srcdir/tests/data/qwen_pp2dp2_4rank"
corpus=$(corpus_dir)
if [ -d "$corpus" ]; then
	for r in ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11; do
		runs="$runs $corpus/$r"
	done
fi
py=$(command -v python3 2>/dev/null) || py=

for run in $runs; do
	name=${run##*/}
	prof-ingest -q "$run" | prof-steps | prof-merge | prof-cluster |
	    awk -F'\t' '/^#/ { next }
	    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    $1 == "step_skew" { printf "skew %s %s %s\n", $c["step"],
		$c["skew_ratio"], $c["slow_rank"] }
	    $1 == "rank_wait" { printf "wait %s %s %s\n", $4,
		$c["waited_ns"], $c["caused_ns"] }
	    $1 == "collective" { printf "op %s %s last %s skew %s\n",
		$c["step"], $6, $c["last_rank"], $c["arrival_skew_ns"] }
	    $1 == "cluster" && $6 == "stage_imbalance" && $c["min_ns"] != "" {
		printf "stages %s %s %s %s %s\n", $c["min_ns"], $c["max_ns"],
		$c["skew_ratio"], $c["slow_rank"], $c["fast_rank"] }' >"$tmp/got" || {
		echo "FAIL: $name: the pipeline failed"; failed=1; continue; }
	# Stage per rank from the CSVs: Device_id, Step, ..., Stage
	for f in "$run"/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv; do
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    { print $c["Step"], $c["Stage"] }' "$f"
	done | awk '
	    # ns from a decimal count of us, exactly
	    function ns(s,   a, f) { split(s, a, "."); f = a[2] "000";
		return (a[1] substr(f, 1, 3)) + 0 }
	    { t = ns($2); n[$1]++; dev = n[$1] - 1
	      if (!($1 in mn) || t < mn[$1]) mn[$1] = t
	      if (!($1 in mx) || t > mx[$1]) { mx[$1] = t; slow[$1] = dev } }
	    END { for (s in mx) if (n[s] > 1)
		printf "skew %s %s %s\n", s, ratio(mx[s] - mn[s], mn[s]),
		    slow[s] }
	    # six decimals, trailing zeros dropped, as prof-tsv(5) writes
	    function ratio(a, b,   r) { r = sprintf("%.6f", a / b)
		sub(/0+$/, "", r); sub(/\.$/, "", r); return r }
	    ' >"$tmp/want"
	if [ -n "$py" ]; then
		"$py" - "$run" >>"$tmp/want" <<'PY'
import csv, glob, json, sys
from decimal import Decimal, ROUND_HALF_UP
run = sys.argv[1]
starts = {}
files = sorted(glob.glob(run + '/*/ASCEND_PROFILER_OUTPUT/communication.json'))
for dev, f in enumerate(files):
    for step, kinds in json.load(open(f), parse_float=Decimal).items():
        for ops in kinds.values():
            for key, op in ops.items():
                if key.startswith('Total'):
                    continue
                t = op['Communication Time Info']['Start Timestamp(us)']
                starts.setdefault((step, key.split('@')[0]), {})[dev] = \
                    int(Decimal(t) * 1000)
waited = {}; caused = {}
for s in starts.values():
    if len(s) < 2:
        continue
    last = max(s.values())
    lastdev = max(s, key=lambda d: (s[d], d))
    for d, t in s.items():
        waited[d] = waited.get(d, 0) + last - t
        caused[lastdev] = caused.get(lastdev, 0) + last - t
for d in sorted(waited):
    print('wait %d %d %d' % (d, waited[d], caused.get(d, 0)))
# the 20 collectives with the most waiting (prof-cluster(1)): the rank
# that arrived last (the others wait for it: in a send/receive pair, its
# peer) and the spread of the arrivals
ops = []
for (step, op), s in starts.items():
    if len(s) < 2:
        continue
    last = max(s, key=lambda d: (s[d], -d))
    ops.append((sum(s[last] - t for t in s.values()), step, op, last,
        s[last] - min(s.values())))
for w, step, op, last, skew in sorted(ops, reverse=True)[:20]:
    print('op %s %s last %d skew %d' % (step.replace('step', ''), op,
        last, skew))
# pipeline stages: a rank's stage is its place in its pp group
# (profiler_metadata.json); a stage's compute per step is the mean of
# its ranks' Computing (step_trace_time.csv, us, to the ns)
stage = {}
comp = {}
for dev, f in enumerate(sorted(glob.glob(run + '/*/profiler_metadata.json'))):
    groups = json.load(open(f)).get('parallel_group_info', {})
    for g in groups.values():
        if g.get('group_name') == 'pp':
            rank = int(f.split('/rank_')[1].split('_')[0])
            stage[dev] = g['global_ranks'].index(rank)
    for row in csv.DictReader(open(f.replace('profiler_metadata.json',
            'ASCEND_PROFILER_OUTPUT/step_trace_time.csv'))):
        comp.setdefault(dev, []).append(int((Decimal(row['Computing']) *
            1000).quantize(Decimal(1), ROUND_HALF_UP)))
if len(set(stage.values())) > 1:
    per = {}
    for dev, st in stage.items():
        for c in comp.get(dev, []):
            per.setdefault(st, []).append(c)
    mean = {st: sum(v) // len(v) for st, v in per.items()}
    lo = min(mean, key=lambda st: mean[st])
    hi = max(mean, key=lambda st: mean[st])
    r = ('%.6f' % (Decimal(mean[hi] - mean[lo]) / mean[lo])).rstrip('0').rstrip('.')
    print('stages %d %d %s stage %d stage %d' % (mean[lo], mean[hi], r, hi, lo))
PY
	else
		echo "note: no python3: rank waits of $name not checked"
		grep -v -e '^wait' -e '^op' -e '^stages' "$tmp/got" >"$tmp/g2"
		mv "$tmp/g2" "$tmp/got"
	fi
	sort "$tmp/got" >"$tmp/g"; sort "$tmp/want" >"$tmp/w"
	agree "$name" "the CSVs" "$tmp/g" "$tmp/w"
done

# Two Kineto ranks (HTA's sampled ranks 0 and 1 of a 128-rank job): a
# rank's step time is from its ProfilerStep#N host marker's start to the
# next one's, and for the last step to the end of the last kernel the
# marker launched (matched by correlation id); per step the skew is the
# longest over the shortest less one, the slow rank the longest; at each
# NCCL kernel matched on both ranks (by the step that launched it, its
# name and its occurrence), the rank that started first waits for the
# other: each rank's waits, and what it made the other wait, summed.
kin=
[ -d "$corpus" ] && kin="$corpus/pytorch_kineto/hta/sampled_rank-0_world128.json.gz $corpus/pytorch_kineto/hta/sampled_rank-1_world128.json.gz"
if [ -n "$kin" ] && [ -n "$py" ]; then
	# shellcheck disable=SC2086
	prof-ingest -q $kin | prof-steps -q | prof-merge | prof-cluster |
	    awk -F'\t' '/^#/ { next }
	    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    $1 == "rank_step" { printf "rank %s step %s %s\n", $4,
		$c["step"], $c["step_ns"] }
	    $1 == "step_skew" { printf "skew %s %s %s\n", $c["step"],
		$c["skew_ratio"], $c["slow_rank"] }
	    $1 == "rank_wait" { printf "wait %s %s %s\n", $4,
		$c["waited_ns"], $c["caused_ns"] }' | sort >"$tmp/g" || {
		echo "FAIL: kineto ranks: the pipeline failed"; failed=1; }
	# shellcheck disable=SC2086
	"$py" - $kin <<'PY' | sort >"$tmp/w"
import gzip, json, sys
from decimal import Decimal
times = {}
coll = {}
for dev, path in enumerate(sys.argv[1:]):
    doc = json.load(gzip.open(path), parse_float=Decimal)
    ev = [e for e in doc['traceEvents'] if e.get('ph') == 'X']
    rank = doc.get('distributedInfo', {}).get('rank', dev)
    marks = sorted((Decimal(e['ts']), Decimal(e['dur']), e['name'])
        for e in ev if str(e.get('name', '')).startswith('ProfilerStep#')
        and e.get('cat') != 'gpu_user_annotation')
    launch = {e['args']['correlation']: Decimal(e['ts']) for e in ev
        if e.get('cat') in ('cuda_runtime', 'cuda_driver')
        and 'correlation' in e.get('args', {})}
    ends = [(launch.get(e.get('args', {}).get('correlation')),
        Decimal(e['ts']) + Decimal(e['dur'])) for e in ev
        if e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset')]
    for i, (ts, dur, name) in enumerate(marks):
        if i + 1 < len(marks):
            end = marks[i + 1][0]
        else:
            end = max(k for l, k in ends
                if l is not None and ts <= l < ts + dur)
        step = name.split('#')[1]
        times.setdefault(step, {})[rank] = int((end - ts) * 1000)
        print('rank %s step %s %d' % (rank, step, times[step][rank]))
    # NCCL kernels, by the step whose marker launched them, in order;
    # one that starts inside the last of its name is a second copy
    occ = {}
    nccl = [(launch.get(e.get('args', {}).get('correlation')),
        Decimal(e['ts']), Decimal(e['dur']), e['name']) for e in ev
        if e.get('cat') == 'kernel' and 'nccl' in e['name'].lower()]
    for l, ts, dur, name in sorted(nccl, key=lambda k: k[1]):
        step = ''
        for mts, mdur, mname in marks:
            if l is not None and mts <= l < mts + mdur:
                step = mname.split('#')[1]
        key = (step, name)
        prev = occ.get((rank, key))
        if prev is not None and ts < prev[1] + prev[2]:
            continue
        n = prev[0] + 1 if prev is not None else 0
        occ[(rank, key)] = (n, ts, dur)
        coll.setdefault((key, n), {})[rank] = int(ts * 1000)
for step, t in times.items():
    lo, hi = min(t.values()), max(t.values())
    slow = max(t, key=lambda r: t[r])
    r = ('%.6f' % (Decimal(hi - lo) / lo)).rstrip('0').rstrip('.')
    print('skew %s %s %s' % (step, r, slow))
# at each collective matched on both ranks, the first waits for the last
waited = {}; caused = {}
for s in coll.values():
    if len(s) < 2:
        continue
    last = max(s, key=lambda d: (s[d], d))
    for d, t in s.items():
        waited[d] = waited.get(d, 0) + s[last] - t
        caused[last] = caused.get(last, 0) + s[last] - t
for d in sorted(waited):
    print('wait %s %d %d' % (d, waited[d], caused.get(d, 0)))
PY
	agree "kineto ranks" "the traces" "$tmp/g" "$tmp/w"
elif [ -n "$kin" ]; then
	echo "note: no python3: the Kineto ranks are not checked"
fi

# The cluster-analysis outputs, read as what they are.
clusters=
[ -d "$corpus" ] && for r in msinsight_2023-09 msprof_analyze_2023-09; do
	clusters="$clusters $corpus/ascend_cluster_analysis/$r"
done
[ -n "$clusters" ] && [ -z "$py" ] &&
    echo "note: no python3: cluster-analysis folders not checked"
for run in $clusters; do
	[ -n "$py" ] || break
	name=${run##*/}
	prof-ingest -q "$run" >"$tmp/in" || {
		echo "FAIL: $name: prof-ingest failed"; failed=1; continue; }
	prof-cluster "$tmp/in" | awk -F'\t' '/^#/ { next }
	    !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    $1 == "rank_step" { printf "rank %s step %s: %s %s %s %s\n", $4,
		$c["step"], $c["step_ns"], $c["compute_ns"],
		$c["comm_exposed_ns"], $c["idle_ns"] }
	    $1 == "link" { printf "link %s %s: %s bytes in %s ns\n", $4,
		$c["name"], $c["bytes"], $c["transit_ns"] }' | sort >"$tmp/g"
	printf 'comm records: %s\n' "$(grep -c '^comm	' "$tmp/in")" >>"$tmp/g"
	"$py" - "$run" <<'PY' | sort >"$tmp/w"
import csv, json, sys
from decimal import Decimal, ROUND_HALF_UP
run = sys.argv[1]
def ns(us):
    return int((Decimal(us) * 1000).quantize(Decimal(1), ROUND_HALF_UP))
for row in csv.DictReader(open(run + '/cluster_step_trace_time.csv')):
    if row['Type'] != 'rank':
        continue
    print('rank %s step %s: %d %d %d %d' % (row['Index'], row['Step'],
        ns(row['Stage']), ns(row['Computing']),
        ns(row['Communication(Not Overlapped)']), ns(row['Free'])))
n = 0
link = {}
doc = json.load(open(run + '/cluster_communication.json'), parse_float=Decimal)
for group in doc.values():
    for ops in group.values():
        for key, ranks in ops.items():
            if key == 'Total Op Info':
                continue
            n += len(ranks)
            for rank, op in ranks.items():
                for t, f in op.get('Communication Bandwidth Info', {}).items():
                    size = ns(f['Transit Size(MB)'] * 1000)
                    if t == 'SDMA' or size <= 0:
                        continue
                    b, tt = link.get((rank, t.lower()), (0, 0))
                    link[(rank, t.lower())] = (b + size,
                        tt + ns(f['Transit Time(ms)'] * 1000))
print('comm records: %d' % n)
for (rank, t), (b, tt) in link.items():
    print('link %s %s: %d bytes in %d ns' % (rank, t, b, tt))
PY
	sort "$tmp/g" >"$tmp/g2"; sort "$tmp/w" >"$tmp/w2"
	agree "$name" "the files" "$tmp/g2" "$tmp/w2"
done
exit $failed
