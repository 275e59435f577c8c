#!/usr/bin/env python3
"""Write the text twin of an msprof-analyze cluster_analysis.db, as
msprof-analyze writes its text export: cluster_step_trace_time.csv and
cluster_communication.json in DIR, numbers as Python floats (a NUMERIC
column gives back 0 for 0.0), rank sets as tuples "(0, 1, ...)", ops
under "name@group" per group, step ("stepN") and rank, an op whose name
says send, recv or receive under "p2p".  prof-ingest must give the same
records from the two (tests/prof-ingest/sqlite-cluster.sh,
tests/sqlite-corpus.sh).

    python3 tests/cluster-db-twin.py cluster_analysis.db DIR
"""
import csv, json, os, sqlite3, sys, urllib.request
# Read-only and immutable: the corpus file gets no lock, -wal or -shm.
db = sqlite3.connect('file:%s?immutable=1' % urllib.request.pathname2url(
    os.path.abspath(sys.argv[1])), uri=True)
out = sys.argv[2]
def f(v):
    return None if v is None else float(v)
def tup(s):
    return '(' + ', '.join(x.strip() for x in s.strip('()').split(',')) + ')'
head = ['Step', 'Type', 'Index', 'Computing',
        'Communication(Not Overlapped)', 'Overlapped', 'Communication',
        'Free', 'Stage', 'Bubble',
        'Communication(Not Overlapped and Exclude Receive)']
with open(out + '/cluster_step_trace_time.csv', 'w', newline='') as fh:
    w = csv.writer(fh)
    w.writerow(head)
    for r in db.execute('SELECT * FROM ClusterStepTraceTime ORDER BY rowid'):
        ix = tup(r[2]) if r[1] == 'stage' else r[2]
        w.writerow([r[0], r[1], ix] + [f(v) for v in r[3:]])
doc = {}
bw = {}
for r in db.execute('SELECT step, rank_id, hccl_op_name, group_name, '
                    'band_type, transit_size, transit_time, bandwidth '
                    'FROM ClusterCommAnalyzerBandwidth ORDER BY rowid'):
    bw.setdefault(r[:4], {}).setdefault(r[4], {
        'Transit Time(ms)': f(r[6]), 'Transit Size(MB)': f(r[5]),
        'Bandwidth(GB/s)': f(r[7])})
for r in db.execute('SELECT rank_set, step, rank_id, hccl_op_name, '
                    'group_name, start_timestamp, elapsed_time, '
                    'transit_time, wait_time, synchronization_time, '
                    'idle_time FROM ClusterCommAnalyzerTime ORDER BY rowid'):
    if r[3] == 'Total Op Info':
        continue
    low = r[3].lower()
    g = 'p2p' if 'send' in low or 'recv' in low or 'receive' in low \
        else tup(r[0])
    op = doc.setdefault(g, {}).setdefault(r[1], {}).setdefault(
        r[3] + '@' + r[4], {})
    op[str(r[2])] = {
        'Communication Time Info': {
            'Start Timestamp(us)': f(r[5]), 'Elapse Time(ms)': f(r[6]),
            'Transit Time(ms)': f(r[7]), 'Wait Time(ms)': f(r[8]),
            'Synchronization Time(ms)': f(r[9]), 'Idle Time(ms)': f(r[10])},
        'Communication Bandwidth Info': bw.get((r[1], r[2], r[3], r[4]), {})}
with open(out + '/cluster_communication.json', 'w') as fh:
    json.dump(doc, fh)
