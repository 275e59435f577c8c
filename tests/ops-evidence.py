#!/usr/bin/env python3
"""Independent figures for tests/ops-corpus.sh, without proftools.

ascend KD.csv: per op type (kernel_details.csv 'Type'), the kernel count
and the sum of 'Duration(us)' in ns (exact decimals), one line each:
    type<TAB>NAME<TAB>COUNT<TAB>TOTAL_NS
kineto TRACE.json.gz: per kernel name (events of cat kernel, gpu_memcpy,
gpu_memset, ph X), count and sum of dur in ns:
    name<TAB>NAME<TAB>COUNT<TAB>TOTAL_NS
diff KD_A KD_B: per type, B total - A total, ranked by the absolute
difference then by type:
    diff<TAB>RANK<TAB>TYPE<TAB>DIFF_NS
diffk TRACE_A TRACE_B: the same per kernel name of two Kineto traces.
"""
import csv, gzip, json, sys
from decimal import Decimal, ROUND_HALF_UP

def ns(us):
    return int((Decimal(str(us).strip()) * 1000).quantize(Decimal(1), ROUND_HALF_UP))

def ascend(path):
    g = {}
    with open(path, newline='', encoding='utf-8-sig') as f:
        for row in csv.DictReader(f):
            t = row['Type'].strip()
            c, s = g.get(t, (0, 0))
            g[t] = (c + 1, s + ns(row['Duration(us)']))
    return g

def kineto(path):
    with gzip.open(path, 'rt') as f:
        doc = json.load(f)
    ev = doc['traceEvents'] if isinstance(doc, dict) else doc
    g = {}
    for e in ev:
        if e.get('ph') == 'X' and e.get('cat') in ('kernel', 'gpu_memcpy', 'gpu_memset'):
            c, s = g.get(e['name'], (0, 0))
            g[e['name']] = (c + 1, s + ns(repr(e['dur']) if isinstance(e['dur'], float) else e['dur']))
    return g

mode = sys.argv[1]
if mode in ('ascend', 'kineto'):
    g = ascend(sys.argv[2]) if mode == 'ascend' else kineto(sys.argv[2])
    key = 'type' if mode == 'ascend' else 'name'
    for k in sorted(g):
        print('%s\t%s\t%d\t%d' % (key, k, g[k][0], g[k][1]))
    print('total\t-\t%d\t%d' % (sum(v[0] for v in g.values()), sum(v[1] for v in g.values())))
elif mode in ('diff', 'diffk'):
    read = ascend if mode == 'diff' else kineto
    a, b = read(sys.argv[2]), read(sys.argv[3])
    d = {k: b.get(k, (0, 0))[1] - a.get(k, (0, 0))[1] for k in set(a) | set(b)}
    for i, k in enumerate(sorted(d, key=lambda k: (-abs(d[k]), k)), 1):
        print('diff\t%d\t%s\t%d' % (i, k, d[k]))
