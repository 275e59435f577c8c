# cluster_analysis.db that is not whole or not msprof-analyze's schema:
# a table missing is skipped (the other read, the inventory lists what
# is there), a column the records need missing or a value that is no
# rank, step type or time is refused by name; a database with neither
# table is no profiler schema.
command -v sqlite3 >/dev/null || exit 77
mk() { rm -f "$1"; sqlite3 "$1" <"$DATA/cluster_db.sql"; sqlite3 "$1" "$2"; }
n() { prof-ingest -q "$@" >res; echo "exit $?, $(grep -vc '^#' res) lines"; }
echo '== no ClusterStepTraceTime: the comm ops alone'
mk a.db 'DROP TABLE ClusterStepTraceTime'
prof-ingest -qi a.db | cut -f1,2,4,8,13,19
echo '== no ClusterCommAnalyzerTime: the step metrics alone, no links'
mk b.db 'DROP TABLE ClusterCommAnalyzerTime'
prof-ingest -qi b.db | cut -f1,2,4,8,13,19
echo '== neither'
mk c.db 'DROP TABLE ClusterStepTraceTime; DROP TABLE ClusterCommAnalyzerTime'
n c.db
echo '== ClusterStepTraceTime without its type column'
mk d.db 'ALTER TABLE ClusterStepTraceTime DROP COLUMN type'
n d.db
echo '== ClusterCommAnalyzerTime without start_timestamp'
mk e.db 'ALTER TABLE ClusterCommAnalyzerTime DROP COLUMN start_timestamp'
n e.db
echo '== a step row of type node'
mk f.db "UPDATE ClusterStepTraceTime SET type = 'node' WHERE \"index\" = '1'"
n f.db
echo '== a time that is no number'
mk g.db "UPDATE ClusterStepTraceTime SET free = 'x1' WHERE \"index\" = '1'"
n g.db
echo '== a rank_id that is no rank'
mk h.db "UPDATE ClusterCommAnalyzerTime SET rank_id = 'r1' WHERE rank_id = 1"
n h.db
echo '== an op without a start: skipped, counted'
mk i.db "UPDATE ClusterCommAnalyzerTime SET start_timestamp = NULL WHERE rowid = 3"
prof-ingest -qi i.db | cut -f1,2,4,8,19 | head -2
echo '== Bandwidth without band_type: ops without links'
mk j.db 'ALTER TABLE ClusterCommAnalyzerBandwidth DROP COLUMN band_type'
prof-ingest -qi j.db | cut -f1,2,4,8,19
prof-ingest -q j.db | grep -c 'hccs_'
echo '== long values kept whole: a 512-rank stage, an 800-byte op name'
mk k.db "UPDATE ClusterStepTraceTime SET \"index\" = '(' || (WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 511) SELECT group_concat(x, ',') FROM c) || ')' WHERE type = 'stage'; UPDATE ClusterCommAnalyzerTime SET hccl_op_name = hex(zeroblob(400)) WHERE rowid = 4"
prof-ingest -q k.db >res
awk -F'\t' '$6 == "stage_profiler_free_ns" { print $4, length($15), substr($15, 1, 12), substr($15, length($15) - 10) }
    $1 == "comm" && length($6) > 100 { print "op name", length($6) }' res
ls | grep -e '-wal$' -e '-shm$' -e '-journal$'
echo done
