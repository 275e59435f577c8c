# The 2024-03 msprof schema (report_N.db: the host API table is API, the
# block dim column block_dim, no PYTORCH_API): the same rows as
# sqlite-ascend.sh under the older names, found by name; without
# framework markers, STEP_TIME's step is the marker.  The rank comes
# from RANK_DEVICE_MAP, as the path has none.
command -v sqlite3 >/dev/null || exit 77
sqlite3 report_0.db <"$DATA/msprof_2024.sql"
prof-ingest report_0.db | sed '/^#stage /d'
