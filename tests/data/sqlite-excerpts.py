#!/usr/bin/env python3
"""Write the SQL texts of the small test databases of tests/prof-ingest
(issue 17) from the corpus: each keeps a real file's schema (CREATE
statements as found) and a few of its rows, unchanged; the strings are
those the kept rows name.  The 2024-03 msprof schema (table API,
COMPUTE_TASK_INFO.block_dim), of which the corpus has no file, is the
2025 excerpt's rows under the 2024 names, written by hand from the
schema in ../shared/notes/formats-sqlite-xplane.md section 2.6.

    python3 tests/data/sqlite-excerpts.py ../shared/corpus tests/data
"""
import sqlite3
import sys

corpus, out = sys.argv[1], sys.argv[2]


def q(v):
    if v is None:
        return 'NULL'
    if isinstance(v, (int, float)):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def dump(db, tables, f, rename=None):
    """Schema of TABLES, then the rows each SELECT keeps."""
    rename = rename or {}
    for t, sel in tables:
        sql = db.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                         (t,)).fetchone()[0]
        for a, b in rename.get(t, []):
            sql = sql.replace(a, b)
        f.write(sql + ';\n')
        for row in db.execute(sel):
            f.write('INSERT INTO %s VALUES (%s);\n' % (
                rename.get(t + '.name', t), ', '.join(q(v) for v in row)))
        for (isql,) in db.execute("SELECT sql FROM sqlite_master WHERE "
                                  "type = 'index' AND tbl_name = ? AND "
                                  "sql IS NOT NULL", (t,)):
            f.write(isql + ';\n')


def ascend(path, name, gen2024=False):
    db = sqlite3.connect('file:%s?immutable=1' % path, uri=True)
    # The first 6 kernels, the first HCCL op and 3 of its tasks, the
    # API calls that launched them, the step and 6 framework ops.
    k = [r[0] for r in db.execute(
        'SELECT t.globalTaskId FROM TASK t JOIN COMPUTE_TASK_INFO c ON '
        'c.globalTaskId = t.globalTaskId ORDER BY t.startNs LIMIT 6')]
    op = db.execute('SELECT opId FROM COMMUNICATION_OP ORDER BY startNs '
                    'LIMIT 1').fetchone()[0]
    ct = [r[0] for r in db.execute(
        'SELECT i.globalTaskId FROM COMMUNICATION_TASK_INFO i JOIN TASK t '
        'ON t.globalTaskId = i.globalTaskId WHERE i.opId = %d ORDER BY '
        't.startNs LIMIT 3' % op)]
    tasks = ','.join(str(x) for x in k + ct)
    conn = ('SELECT connectionId FROM TASK WHERE globalTaskId IN (%s) '
            'UNION SELECT connectionId FROM COMMUNICATION_OP WHERE opId = %d'
            % (tasks, op))
    fw = ("SELECT p.rowid FROM PYTORCH_API p JOIN STRING_IDS s ON s.id = "
          "p.name WHERE s.value GLOB 'ProfilerStep#*' UNION SELECT rowid "
          "FROM (SELECT rowid FROM PYTORCH_API WHERE type IN (50001, 50003) "
          "ORDER BY CAST(startNs AS INTEGER) LIMIT 6 OFFSET 40)")
    tables = [
        ('TASK', 'SELECT * FROM TASK WHERE globalTaskId IN (%s)' % tasks),
        ('COMPUTE_TASK_INFO', 'SELECT * FROM COMPUTE_TASK_INFO WHERE '
         'globalTaskId IN (%s)' % tasks),
        ('COMMUNICATION_OP', 'SELECT * FROM COMMUNICATION_OP WHERE '
         'opId = %d' % op),
        ('COMMUNICATION_TASK_INFO', 'SELECT * FROM COMMUNICATION_TASK_INFO'
         ' WHERE globalTaskId IN (%s)' % tasks),
        ('CANN_API', 'SELECT * FROM CANN_API WHERE connectionId IN (%s)'
         % conn),
        ('STEP_TIME', 'SELECT * FROM STEP_TIME'),
        ('RANK_DEVICE_MAP', 'SELECT * FROM RANK_DEVICE_MAP'),
        ('ENUM_API_TYPE', 'SELECT * FROM ENUM_API_TYPE'),
    ]
    if not gen2024:
        tables.append(('PYTORCH_API', 'SELECT * FROM PYTORCH_API WHERE '
                       'rowid IN (%s)' % fw))
        pmu = db.execute("SELECT count(*) FROM sqlite_master WHERE name = "
                         "'TASK_PMU_INFO'").fetchone()[0]
        if pmu:
            tables.append(('TASK_PMU_INFO', 'SELECT * FROM TASK_PMU_INFO '
                           'WHERE globalTaskId IN (%s)' % tasks))
    names = set()
    for t, sel in tables:
        cols = [r[1] for r in db.execute('PRAGMA table_info(%s)' % t)]
        for row in db.execute(sel):
            for c, v in zip(cols, row):
                if c in ('name', 'opType', 'taskType', 'inputShapes',
                         'inputDataTypes', 'outputShapes', 'outputDataTypes',
                         'opName', 'groupName', 'inputDtypes',
                         'inputFormats', 'outputFormats', 'algType') \
                        and isinstance(v, int) and t != 'ENUM_API_TYPE':
                    names.add(v)
    tables.append(('STRING_IDS', 'SELECT * FROM STRING_IDS WHERE id IN '
                   '(%s) ORDER BY id' % ','.join(str(x) for x in names)))
    rename = {}
    if gen2024:
        rename = {'CANN_API': [('CANN_API', 'API'),
                               ('connectionId INTEGER PRIMARY KEY',
                                'connectionId INTEGER')],
                  'CANN_API.name': 'API',
                  'COMPUTE_TASK_INFO': [('blockDim', 'block_dim'),
                                        (',attrInfo INTEGER', '')]}
        # 2024: no attrInfo column, so the rows lose their last value.
        tables = [(t, sel.replace('SELECT *', 'SELECT name, globalTaskId, '
                   'blockDim, mixBlockDim, taskType, opType, inputFormats, '
                   'inputDataTypes, inputShapes, outputFormats, '
                   'outputDataTypes, outputShapes')
                   if t == 'COMPUTE_TASK_INFO' else sel)
                  for t, sel in tables]
    with open('%s/%s' % (out, name), 'w') as f:
        f.write('-- %s (tests/data/sqlite-excerpts.py)\n' %
                path[len(corpus) + 1:])
        dump(db, tables, f, rename)


def nsys(path, name):
    db = sqlite3.connect('file:%s?immutable=1' % path, uri=True)
    has = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    k = 'CUPTI_ACTIVITY_KIND_KERNEL'
    corr = ('SELECT correlationId FROM (SELECT correlationId FROM %s '
            'ORDER BY start LIMIT 4)' % k)
    tables = [
        ('TARGET_INFO_SESSION_START_TIME',
         'SELECT * FROM TARGET_INFO_SESSION_START_TIME'),
        ('TARGET_INFO_GPU', 'SELECT * FROM TARGET_INFO_GPU'),
        (k, 'SELECT * FROM %s ORDER BY start LIMIT 4' % k),
        ('CUPTI_ACTIVITY_KIND_MEMCPY', 'SELECT * FROM '
         'CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY start LIMIT 2'),
        ('CUPTI_ACTIVITY_KIND_RUNTIME', 'SELECT * FROM '
         'CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IN (%s) OR '
         'correlationId IN (SELECT correlationId FROM (SELECT correlationId'
         ' FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY start LIMIT 2))' % corr),
    ]
    if 'NVTX_EVENTS' in has:
        tables.append(('NVTX_EVENTS', 'SELECT * FROM NVTX_EVENTS WHERE '
                       'eventType IN (59, 60) ORDER BY start LIMIT 4'))
    ids = set()
    for t, sel in tables:
        cols = [r[1] for r in db.execute('PRAGMA table_info(%s)' % t)]
        for row in db.execute(sel):
            for c, v in zip(cols, row):
                if c in ('demangledName', 'shortName', 'mangledName',
                         'nameId', 'textId') and isinstance(v, int):
                    ids.add(v)
    tables.append(('StringIds', 'SELECT * FROM StringIds WHERE id IN (%s) '
                   'ORDER BY id' % ','.join(str(x) for x in ids)))
    with open('%s/%s' % (out, name), 'w') as f:
        f.write('-- %s (tests/data/sqlite-excerpts.py)\n' %
                path[len(corpus) + 1:])
        dump(db, tables, f)


def cluster(path, name):
    """Ranks 0 and 1 of msprof-analyze's cluster_analysis.db: their step
    rows and the stage row, their first 3 ops (one with an INTEGER start,
    the others REAL), their Total Op Info rows, the ops' link rows, the
    groups and 2 matrix rows."""
    db = sqlite3.connect('file:%s?immutable=1' % path, uri=True)
    ops = ("hccl_op_name IN ('hcom_broadcast__535_0_1', "
           "'hcom_broadcast__535_1_1', 'hcom_allReduce__535_2_1', "
           "'Total Op Info') AND rank_id IN (0, 1)")
    tables = [
        ('CommunicationGroup', 'SELECT * FROM CommunicationGroup'),
        ('ClusterStepTraceTime', "SELECT * FROM ClusterStepTraceTime "
         "WHERE \"index\" IN ('0', '1') OR type = 'stage' ORDER BY rowid"),
        ('ClusterCommAnalyzerTime', 'SELECT * FROM ClusterCommAnalyzerTime '
         'WHERE %s ORDER BY rowid' % ops),
        ('ClusterCommAnalyzerBandwidth', 'SELECT * FROM '
         'ClusterCommAnalyzerBandwidth WHERE %s ORDER BY rowid' % ops),
        ('ClusterCommAnalyzerMatrix', 'SELECT * FROM '
         'ClusterCommAnalyzerMatrix ORDER BY rowid LIMIT 2'),
    ]
    with open('%s/%s' % (out, name), 'w') as f:
        f.write('-- %s (tests/data/sqlite-excerpts.py)\n' %
                path[len(corpus) + 1:])
        dump(db, tables, f)


a = corpus + '/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/db_level1/' \
    'rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db'
ascend(a, 'ascend_pt_db.sql')
ascend(a, 'msprof_2024.sql', gen2024=True)
nsys(corpus + '/nsight_systems/pipit_saxpy_mpi_cuda/'
     'saxpy-mpi-cuda_nsys_perlmutter0.sqlite', 'nsys_2022.sql')
nsys(corpus + '/nsight_systems/pipit_cloverleaf_perlmutter/'
     'perlmutter-cloverleaf-cuda.sqlite', 'nsys_2024.sql')
cluster(corpus + '/ascend_cluster_analysis/msinsight_cluster_db_2024-03/'
        'cluster_analysis.db', 'cluster_db.sql')
