# msprof-analyze's cluster_analysis.db (issue 17): an excerpt of the
# corpus database (tests/data/cluster_db.sql: ranks 0 and 1, 3 ops each,
# the stage row), the whole stream and the inventory.  Then its text
# twin, written by tests/cluster-db-twin.py from the same rows as
# msprof-analyze writes cluster_step_trace_time.csv and
# cluster_communication.json (numbers as Python floats, rank sets as
# tuples, ops under "name@group", step "stepN"), must give the same
# records; beside it, the database gives way.
command -v sqlite3 >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
mkdir db txt
sqlite3 db/cluster_analysis.db <"$DATA/cluster_db.sql"
prof-ingest db | sed '/^#stage /d'
prof-ingest -i db
python3 "$top_srcdir/tests/cluster-db-twin.py" db/cluster_analysis.db txt
recs() { prof-ingest -q "$1" | grep -v '^#' | awk -F'\t' 'NR > 1 { NF--; print }' OFS='\t' | sort; }
recs db >db.rec
recs txt >txt.rec
echo "== text twin: $(wc -l <db.rec) records from the database, $(wc -l <txt.rec) from the text"
diff db.rec txt.rec && echo same
echo '== beside its text twin: the text is read, the database dropped'
cp db/cluster_analysis.db txt/
prof-ingest -qi txt | cut -f1,2,4,15 | sed -n 1,4p
