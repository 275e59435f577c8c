#!/bin/sh
# gen-ascend-db.sh N FILE: a torch_npu export_type=db database of N
# kernels shaped like the corpus's alexnet ascend_pytorch_profiler_0.db
# (its schema, TaskIndex on TASK(startNs, globalTaskId), STRING_IDS
# names, one node-level launch in CANN_API per kernel sharing its
# connectionId, one HCCL op per 200 kernels with 4 tasks, one step per
# 2000 kernels), written by the sqlite3 shell in one transaction.
# Kernels are 5 to 300 us long with 1 to 60 us between them, on streams
# 2 and 3, with 40 names and shapes cycling as in a CNN's steps.
set -eu
n=$1 f=$2
rm -f "$f"
sqlite3 "$f" <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -65536;
BEGIN;
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo INTEGER);
CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType INTEGER,count NUMERIC,opType INTEGER);
CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);
INSERT INTO RANK_DEVICE_MAP VALUES (0, 0);
WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < 39)
INSERT INTO STRING_IDS SELECT k, 'aclnnOp' || k || '_Kernel' || (k * 7 % 13) FROM i
UNION ALL SELECT 100 + k, 'OpType' || (k % 17) FROM i
UNION ALL SELECT 200 + k, '"' || (32 + k) || ',' || (k % 5 + 3) || ',224,224"' FROM i
UNION ALL SELECT 300 + k, '"' || (32 + k) || ',64,55,55"' FROM i;
INSERT INTO STRING_IDS VALUES (400, 'AI_CORE'), (401, 'AI_VECTOR_CORE'), (402, 'FLOAT'), (403, 'KERNEL_AICORE'), (404, 'launch'), (405, 'hcom_allReduce_'), (406, 'hcom_allReduce__210_0_1'), (407, 'group0'), (408, 'Notify_Wait'), (409, 'N/A');
-- kernel k starts at T0 + k * 150 us + jitter; ends 5 to 300 us later.
WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < $n - 1)
INSERT INTO TASK SELECT 1736410576000000000 + k * 160000 + (k * 7919 % 1000),
    1736410576000000000 + k * 160000 + (k * 7919 % 1000) + 5000 + (k * 104729 % 95000),
    0, k, k, 3136493, 403, 4294967295, 2 + (k % 7 = 0), k % 65536, 4294967295 FROM i;
CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId);
WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < $n - 1)
INSERT INTO COMPUTE_TASK_INFO SELECT k % 40, k, 8, 0, 400 + (k % 3 = 0), 100 + k % 40, 409, 402, 200 + k % 40, 409, 402, 300 + k % 40, 409 FROM i;
WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < $n - 1)
INSERT INTO CANN_API SELECT 1736410575999990000 + k * 160000, 1736410575999990000 + k * 160000 + 6000, 10000, 3136493 * 4294967296 + 3140046, k, 404 FROM i;
WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < $n / 200 - 1)
INSERT INTO COMMUNICATION_OP SELECT 406, 1736410576000000000 + (k * 200 + 100) * 160000 + 120000, 1736410576000000000 + (k * 200 + 100) * 160000 + 150000, NULL, 407, k, 0, 0, 4, 0, 4096, 405 FROM i;
WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < $n / 2000 - 1)
INSERT INTO STEP_TIME SELECT k, 1736410576000000000 + k * 2000 * 160000, 1736410576000000000 + (k + 1) * 2000 * 160000 - 1 FROM i;
COMMIT;
SQL
