#!/bin/sh
# The direct output of a lone Ascend database (issue 17): its device
# tasks are not stored but read as the stream is written and merged
# there with the stored rest (prof-ingest(1), Memory and temporary
# files).  Stream, diagnostics and exit status must be those of the
# stored path (PROF_INGEST_DIRECT=0), byte for byte, with -m 1M (the
# rest spilled, merged in groups of 2) too: on every torch_npu and msprof
# database of the corpus, and on copies made to take each other way:
# a start time stored as text, which sorts after every number (the
# device tasks stored: their query would not give them in time order);
# shapes only past the first rows (stored: the evidence is not known in
# time); no rank (the lone device from a second pass); a host time
# before 0 (the span from a second pass); no HCCL tasks, so that the host
# calls, framework ops and mstx events go to the output as read too, and
# copies with one of them out of order, or indexed (stored, as are the
# streams after it); damage met in the first rows
# (stored, the damage said once); and a
# generated database of 6,000 kernels, whose stream spans many buffers
# and which needs no temporary file.
# Needs the corpus and the sqlite3 shell (skipped, exit 77, without).
. "${top_srcdir:-.}/tests/lib.sh"

corpus_test sqlite3
failed=0 n=0

# same NAME DB: both paths, both budgets; every output must agree.
same() { same_paths "$@"; }

for db in "$corpus"/ascend_torch_npu/*/*/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db \
    "$corpus"/ascend_msprof_db/*/msprof_*.db; do
	[ -e "$db" ] || continue
	same "$(echo "$db" | sed 's|.*/corpus/||')" "$db"
done

src=$corpus/ascend_torch_npu/msinsight_alexnet_2rank_2025-01/db_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db
[ -e "$src" ] || skip_ "no alexnet database"
# edit NAME SQL: a copy of the alexnet database, changed by SQL.
edit() {
	cp "$src" "$tmp/$1.db" && chmod u+w "$tmp/$1.db" &&
	    sqlite3 "$tmp/$1.db" "$2" && same "$1" "$tmp/$1.db"
}
edit text-start "UPDATE TASK SET startNs = startNs || 'x'
    WHERE rowid = (SELECT rowid FROM TASK ORDER BY startNs LIMIT 1 OFFSET 40);"
edit no-rank "DROP TABLE RANK_DEVICE_MAP;"
edit no-rank-two-devices "DROP TABLE RANK_DEVICE_MAP;
    UPDATE TASK SET deviceId = 3 WHERE rowid % 2 = 1;"
edit host-before-0 "UPDATE CANN_API SET startNs = -5000, endNs = -1000
    WHERE rowid = (SELECT min(rowid) FROM CANN_API);"
edit late-step "DELETE FROM STEP_TIME WHERE startNs <
    (SELECT startNs FROM TASK ORDER BY startNs LIMIT 1 OFFSET 100);"
# Without HCCL tasks the host streams go to the output as read too,
# each proven in order first; one out of order, and those after it, are
# stored.
edit no-hccl-tasks "DELETE FROM COMMUNICATION_TASK_INFO;"
# torch_npu writes its framework ops out of time order: sorted here.
sorted="DELETE FROM COMMUNICATION_TASK_INFO;
    CREATE TABLE p2 AS SELECT * FROM PYTORCH_API
    ORDER BY CAST(startNs AS INTEGER);
    DROP TABLE PYTORCH_API; ALTER TABLE p2 RENAME TO PYTORCH_API;"
edit no-hccl-tasks-before-0 "$sorted
    UPDATE PYTORCH_API SET startNs = '-7000', endNs = '-2000'
    WHERE rowid = (SELECT min(rowid) FROM PYTORCH_API);"
edit torch-sorted "$sorted"
edit no-step-ops "$sorted
    DELETE FROM PYTORCH_API WHERE name IN
    (SELECT id FROM STRING_IDS WHERE value GLOB 'ProfilerStep#*');"
edit api-unordered "DELETE FROM COMMUNICATION_TASK_INFO;
    UPDATE CANN_API SET startNs = startNs + 10000000,
    endNs = endNs + 10000000 WHERE rowid = (SELECT min(rowid) FROM CANN_API);"
edit torch-unordered "$sorted
    UPDATE PYTORCH_API SET startNs = '1', endNs = '2'
    WHERE rowid = (SELECT max(rowid) FROM PYTORCH_API);"
edit api-indexed "DELETE FROM COMMUNICATION_TASK_INFO;
    CREATE INDEX api_end ON CANN_API (endNs, startNs);"

sh "$top_srcdir/bench/gen-ascend-db.sh" 6000 "$tmp/gen.db" >/dev/null
same generated "$tmp/gen.db"
# Nothing of it is stored: with -m 1M and -T a directory that is not
# there it needs no temporary file, where the stored path does.
n=$((n + 1))
stored() { PROF_INGEST_DIRECT=0 prof-ingest -q -m 1M "$@" "$tmp/gen.db"; }
if prof-ingest -q -m 1M -T "$tmp/none" "$tmp/gen.db" >"$tmp/d.out" &&
    ! stored -T "$tmp/none" >/dev/null 2>&1 &&
    stored | sed '/^#stage/d' >"$tmp/s.out" &&
    sed '/^#stage/d' "$tmp/d.out" | cmp -s - "$tmp/s.out"; then
	echo "same: generated, no temporary file"
else
	echo "DIFFERS: generated, no temporary file"
	failed=1
fi
cp "$tmp/gen.db" "$tmp/late-shapes.db"
sqlite3 "$tmp/late-shapes.db" "UPDATE COMPUTE_TASK_INFO SET inputShapes = 409
    WHERE globalTaskId < 5000;"
same late-shapes "$tmp/late-shapes.db"
# The index the device tasks' query reads first, overwritten: damage
# met before the output starts.
cp "$tmp/gen.db" "$tmp/damaged.db"
root=$(sqlite3 "$tmp/gen.db" "SELECT rootpage FROM sqlite_master
    WHERE name = 'TaskIndex'")
head -c 4096 /dev/zero | tr '\0' 'x' | dd of="$tmp/damaged.db" bs=4096 \
    seek=$((root - 1)) conv=notrunc 2>/dev/null
same damaged "$tmp/damaged.db"
echo "$n comparisons"
exit $failed
