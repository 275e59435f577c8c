# SQLite inputs that are not whole, not a profile, or not the file's
# alone: each is refused with the reason, the others still read.  A
# database through standard input, compressed or in an archive is read
# from a temporary copy, and no -wal/-shm file appears beside any.
command -v sqlite3 >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
sqlite3 good.db <"$DATA/msprof_2024.sql"
n() { prof-ingest -q "$@" >res; echo "exit $?, $(grep -vc '^#' res) lines"; }
echo '== truncated'
head -c 20000 good.db >cut.db
n cut.db
echo '== damaged pages'
cp good.db bad.db
head -c 16384 /dev/zero | tr '\0' 'x' |
    dd of=bad.db bs=4096 seek=1 conv=notrunc 2>/dev/null
n bad.db
echo '== no profiler schema'
sqlite3 other.db 'CREATE TABLE t (a); INSERT INTO t VALUES (1);'
n other.db
echo '== text named .db'
echo 'not a database' >text.db
n text.db
mkdir dir && cp text.db good.db dir/
prof-ingest -qi dir | cut -f1,2,4,19
echo '== a write-ahead log beside it'
cp good.db wal.db && echo x >wal.db-wal
n wal.db
echo '== a writer holds the lock'
cp good.db locked.db
python3 - <<'PY' &
import sqlite3, time, os
c = sqlite3.connect('locked.db', isolation_level=None)
c.execute('BEGIN IMMEDIATE')
open('held', 'w').close()
while os.path.exists('held'):
    time.sleep(0.05)
PY
while [ ! -e held ]; do sleep 0.05; done
prof-ingest -q locked.db 2>&1 >/dev/null | sed 's/pid [0-9]*/pid N/'
rm held; wait
echo '== stdin, gzip, tar'
prof-ingest -q - <good.db | grep -vc '^#'
gzip -c good.db >good.db.gz && prof-ingest -q good.db.gz | grep -vc '^#'
tar cf t.tar good.db && prof-ingest -q t.tar | grep -vc '^#'
ls | grep -e '-wal$' -e '-shm$' -e '-journal$' | grep -v '^wal.db-wal$'
echo done
