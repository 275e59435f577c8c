#!/usr/bin/env python3
# Not run by make check: an independent re-implementation of the reference
# script (doc/analysis-rules.md, Where the rules come from) that checked
# the golden numbers, and 400 random streams.
# Usage: check-reference.py INPUT.tsv PROF-BUBBLES-OUTPUT.tsv
# Independent check: the reference script's math on the kernels of each
# window, compared with prof-bubbles' metric records.
import sys
from fractions import Fraction as F
def rows(path):
    hdr = None
    for line in open(path):
        if line.startswith('#'): continue
        f = line.rstrip('\n').split('\t')
        if hdr is None: hdr = f; continue
        yield dict(zip(hdr, f))
inp = list(rows(sys.argv[1]))
out = list(rows(sys.argv[2]))
def merge(iv):
    iv = sorted((s, e) for s, e in iv if e > s)
    m = []
    for s, e in iv:
        if m and s <= m[-1][1]: m[-1][1] = max(m[-1][1], e)
        else: m.append([s, e])
    return m
def metrics(s0, e0, kern):
    iv = [(max(s0, s), min(e0, s + d)) for s, d in kern if s < e0 and s + d > s0]
    svc = max(0, e0 - s0); m = merge(iv)
    if not m:
        return dict(service_ns=svc, busy_union_ns=0, underfeed_ns=svc, underfeed_ratio=F(1) if svc > 0 else F(0),
                    prelaunch_gap_ns=svc, tail_gap_ns=0, internal_bubble_total_ns=0, largest_internal_bubble_ns=0, bubble_count=0)
    busy = sum(e - s for s, e in m)
    gaps = [b[0] - a[1] for a, b in zip(m, m[1:]) if b[0] > a[1]]
    u = max(0, svc - busy)
    return dict(service_ns=svc, busy_union_ns=busy, underfeed_ns=u, underfeed_ratio=F(u, svc) if svc else F(0),
                prelaunch_gap_ns=max(0, m[0][0] - s0), tail_gap_ns=max(0, e0 - m[-1][1]),
                internal_bubble_total_ns=sum(gaps), largest_internal_bubble_ns=max(gaps, default=0), bubble_count=len(gaps))
kern = {}
for r in inp:
    if r['kind'] == 'kernel' and r['dur_ns'] and int(r['dur_ns']) > 0:
        kern.setdefault(r['dev'], []).append((int(r['ts_ns']), int(r['dur_ns'])))
steps = []
for r in inp:
    if r['kind'] == 'window':
        s0 = int(r['ts_ns']); e0 = s0 + int(r['dur_ns'])
        steps.append((r['dev'], r.get('step_group', ''), r.get('step', ''), metrics(s0, e0, kern.get(r['dev'], []))))
def q(v, p):
    v = sorted(v); pos = F(p) * (len(v) - 1); i = int(pos); f = pos - i
    return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * f
def fmt(x):
    x = F(x); q6 = int(x * 10**6 + F(1, 2)) if x >= 0 else -int(-x * 10**6 + F(1, 2))
    s = '%d' % (q6 // 10**6) if q6 >= 0 else None
    frac = q6 % 10**6
    return s + ('.' + ('%06d' % frac).rstrip('0') if frac else '')
got = {}
for r in out:
    if r['kind'] == 'metric':
        got[(r['dev'], r.get('step_group', ''), r.get('step', ''), r['name'])] = r['value']
bad = 0; n = 0
for dev, grp, step, m in steps:
    for k, v in m.items():
        g = got.get((dev, grp, step, k)); n += 1
        if g != fmt(v): bad += 1; print('step', dev, step, k, 'want', fmt(v), 'got', g)
groups = {}
for dev, grp, step, m in steps: groups.setdefault((dev, grp), []).append(m)
for (dev, grp), ms in groups.items():
    for k in ms[0]:
        v = [F(m[k]) for m in ms]
        for suf, val in (('_avg', sum(v) / len(v)), ('_median', q(v, F(1, 2))), ('_p90', q(v, F(9, 10))), ('_p95', q(v, F(95, 100)))):
            g = got.get((dev, grp, '', k + suf)); n += 1
            if g != fmt(val): bad += 1; print('group', dev, grp, k + suf, 'want', fmt(val), 'got', g)
    pre, tail, inte = (sum(m[k] for m in ms) for k in ('prelaunch_gap_ns', 'tail_gap_ns', 'internal_bubble_total_ns'))
    best = max(pre, tail, inte)
    pat = 'none' if best <= 0 else ['prelaunch', 'tail', 'internal_bubble'][[pre, tail, inte].index(best)]
    rec = sum(1 for m in ms if m['bubble_count'] > 0) / len(ms) >= 0.6
    print('group', dev, grp, 'script pattern', pat, 'recurring', rec)
print(n, 'values checked,', bad, 'differ')
