# msprof-analyze's cluster_analysis.db (issue 17): an excerpt of the
# corpus database (tests/data/cluster_db.sql: ranks 0 and 1, 3 ops each,
# the stage row), the whole stream and the inventory.  Then its text
# twin, written here by python3 from the same rows as msprof-analyze
# writes cluster_step_trace_time.csv and cluster_communication.json
# (numbers as Python floats, rank sets as tuples, ops under
# "name@group", step "stepN"), must give the same records; beside it,
# the database gives way.
command -v sqlite3 >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
mkdir db txt
sqlite3 db/cluster_analysis.db <"$DATA/cluster_db.sql"
prof-ingest db | sed '/^#stage /d'
prof-ingest -i db
python3 - db/cluster_analysis.db txt <<'PY'
import csv, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
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
PY
recs() { prof-ingest -q "$1" | grep -v '^#' | awk -F'\t' 'NR > 1 { NF--; print }' OFS='\t' | sort; }
recs db >db.rec
recs txt >txt.rec
echo "== text twin: $(wc -l <db.rec) records from the database, $(wc -l <txt.rec) from the text"
diff db.rec txt.rec && echo same
echo '== beside its text twin: the text is read, the database dropped'
cp db/cluster_analysis.db txt/
prof-ingest -qi txt | cut -f1,2,4,15 | sed -n 1,4p
