/*
 * prof-export -f sqlite: the stream as a SQLite database.
 *
 * Each kind's records go, as text, into a staging table of the
 * connection's temp schema while the stream is read; at the end each
 * kind gets its typed table (only the columns it fills, the six fixed
 * ones always), filled in stream order from its staging table, and
 * indexed on ts_ns and on (dev, ts_ns).  The database is written under
 * a temporary name beside DB and renamed over it when complete, so a
 * reader never sees half an export and a failed one leaves DB as it was.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "devtab.h"
#include "diag.h"
#include "export.h"
#include "tsv.h"
#include "xalloc.h"

static const char *const sqltype[] = { "", "INTEGER", "REAL", "TEXT" };

/* The database being written, removed when the export fails. */
static char *partial;

static void
remove_partial(void)
{
	if (partial != NULL)
		(void)unlink(partial);
}

struct exkind {
	char		*table;		/* the kind, or kind_KIND (see tblname) */
	size_t		 no;		/* staging table number */
	sqlite3_stmt	*ins;
	uint64_t	 rows;
	int		*type;		/* per stream column; 0: never filled */
};

struct exdb {
	sqlite3		*db;
	const char	*path;		/* as named in diagnostics */
	struct tsvr	*in;
	size_t		 ncols;
	int		*coltype;	/* export_coltype() of each column */
	struct devtab	 kinds;
	size_t		 nkinds;
};

static void
fail(struct exdb *x, const char *what)
{
	diag_err(EXIT_BAD, "%s: %s: %s", diag_path(x->path), what,
	    sqlite3_errmsg(x->db));
}

static void
exec(struct exdb *x, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(x->db, sql, NULL, NULL, &err) != SQLITE_OK)
		diag_err(EXIT_BAD, "%s: %s", diag_path(x->path),
		    err != NULL ? err : sqlite3_errmsg(x->db));
}

/* A growing SQL text. */
struct sqlbuf {
	char	*s;
	size_t	 n, cap;
};

static void
sql_add(struct sqlbuf *b, const char *s)
{
	size_t k = strlen(s);

	if (b->n + k + 1 > b->cap) {
		b->cap = (b->n + k + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, k + 1);
	b->n += k;
}

/* Add "NAME" (a prof-tsv name: no quote inside, see prof-tsv(5)). */
static void
sql_id(struct sqlbuf *b, const char *name)
{
	sql_add(b, "\"");
	sql_add(b, name);
	sql_add(b, "\"");
}

/*
 * The table of a kind: the kind itself, unless that is a name the
 * database uses already (its catalogue tables, sqlite_ and report_
 * names), then kind_KIND.
 */
static char *
tblname(const char *kind)
{
	static const char *const taken[] = { "preamble", "kinds", "columns",
	    NULL };
	size_t i, n = strlen(kind) + 6;
	char *t = xmalloc(n);

	for (i = 0; taken[i] != NULL; i++)
		if (strcmp(kind, taken[i]) == 0)
			break;
	snprintf(t, n, "%s%s", taken[i] != NULL ||
	    strncmp(kind, "sqlite_", 7) == 0 ||
	    strncmp(kind, "report_", 7) == 0 ||
	    strncmp(kind, "kind_", 5) == 0 ? "kind_" : "", kind);
	return t;
}

static struct exkind *
kind_of(struct exdb *x, const char *kind, size_t len)
{
	struct exkind *k;
	struct sqlbuf b = { NULL, 0, 0 };
	char num[32];
	size_t i;
	int isnew;

	k = devtab_get(&x->kinds, kind, len, &isnew);
	if (!isnew)
		return k;
	k->table = tblname(kind);
	k->no = x->nkinds++;
	k->type = xcalloc(x->ncols, sizeof(*k->type));
	snprintf(num, sizeof(num), "%zu", k->no);
	sql_add(&b, "CREATE TEMP TABLE s");
	sql_add(&b, num);
	sql_add(&b, " (c0");
	for (i = 1; i < x->ncols; i++) {
		snprintf(num, sizeof(num), ", c%zu", i);
		sql_add(&b, num);
	}
	sql_add(&b, ")");
	exec(x, b.s);
	b.n = 0;
	snprintf(num, sizeof(num), "%zu", k->no);
	sql_add(&b, "INSERT INTO temp.s");
	sql_add(&b, num);
	sql_add(&b, " VALUES (?");
	for (i = 1; i < x->ncols; i++)
		sql_add(&b, ", ?");
	sql_add(&b, ")");
	if (sqlite3_prepare_v2(x->db, b.s, -1, &k->ins, NULL) != SQLITE_OK)
		fail(x, "prepare");
	free(b.s);
	return k;
}

/* One record into its kind's staging table: c0 = line, then columns. */
static void
stage_record(struct exdb *x)
{
	struct exkind *k;
	const char *f, *kind;
	size_t i, n, klen;
	int t;

	kind = tsvr_field(x->in, 0, &klen);
	if (export_check(x->in) != 0)
		return;
	k = kind_of(x, kind, klen);
	sqlite3_bind_int64(k->ins, 1, (sqlite3_int64)tsvr_lineno(x->in));
	for (i = 1; i < x->ncols; i++) {
		f = tsvr_field(x->in, i, &n);
		if (n == 0) {
			sqlite3_bind_null(k->ins, (int)i + 1);
			continue;
		}
		sqlite3_bind_text(k->ins, (int)i + 1, f, (int)n,
		    SQLITE_TRANSIENT);
		/* the name's type is the least a column can have */
		t = x->coltype[i] == EX_TEXT ? EX_TEXT : export_valtype(f, n);
		if (t < x->coltype[i])
			t = x->coltype[i];
		if (t > k->type[i])
			k->type[i] = t;
	}
	if (sqlite3_step(k->ins) != SQLITE_DONE)
		fail(x, "insert");
	sqlite3_reset(k->ins);
	k->rows++;
}

/* The SQL type of column I of kind K, or NULL when the kind leaves it
 * empty (the six fixed columns are always there). */
static const char *
col_type(const struct exdb *x, const struct exkind *k, size_t i)
{
	if (i == 1 || i == 2)
		return "INTEGER";
	if (i <= 5)
		return "TEXT";
	return k->type[i] == 0 ? NULL : sqltype[k->type[i]];
}

static void
catalogue(struct exdb *x, const struct exkind *k, size_t i, int pos)
{
	sqlite3_stmt *st;
	const char *t = col_type(x, k, i);

	if (sqlite3_prepare_v2(x->db, "INSERT INTO columns VALUES "
	    "(?, ?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		fail(x, "prepare");
	sqlite3_bind_text(st, 1, k->table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, i == 0 ? "_line" : tsvr_colname(x->in, i),
	    -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, i == 0 ? "INTEGER" : t, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, pos);
	if (sqlite3_step(st) != SQLITE_DONE)
		fail(x, "insert");
	sqlite3_finalize(st);
}

/* The typed table of kind K from its staging table, and its indexes. */
static void
finish_kind(struct exdb *x, struct exkind *k)
{
	struct sqlbuf c = { NULL, 0, 0 }, s = { NULL, 0, 0 };
	char num[48];
	const char *t;
	size_t i;
	int pos = 1;

	sql_add(&c, "CREATE TABLE ");
	sql_id(&c, k->table);
	sql_add(&c, " (_line INTEGER");
	sql_add(&s, "INSERT INTO ");
	sql_id(&s, k->table);
	sql_add(&s, " SELECT c0");
	catalogue(x, k, 0, 0);
	for (i = 1; i < x->ncols; i++) {
		if ((t = col_type(x, k, i)) == NULL)
			continue;
		sql_add(&c, ", ");
		sql_id(&c, tsvr_colname(x->in, i));
		sql_add(&c, " ");
		sql_add(&c, t);
		snprintf(num, sizeof(num), ", CAST(c%zu AS %s)", i, t);
		sql_add(&s, num);
		catalogue(x, k, i, pos++);
	}
	sql_add(&c, ")");
	snprintf(num, sizeof(num), " FROM temp.s%zu ORDER BY rowid", k->no);
	sql_add(&s, num);
	exec(x, c.s);
	exec(x, s.s);
	snprintf(num, sizeof(num), "DROP TABLE temp.s%zu", k->no);
	exec(x, num);
	/* Time and device: what every question of a timeline starts with. */
	c.n = 0;
	sql_add(&c, "CREATE INDEX ");
	sql_id(&c, k->table);
	c.s[c.n - 1] = '\0';
	c.n--;
	sql_add(&c, "_ts\" ON ");
	sql_id(&c, k->table);
	sql_add(&c, " (ts_ns); CREATE INDEX ");
	sql_id(&c, k->table);
	c.s[c.n - 1] = '\0';
	c.n--;
	sql_add(&c, "_dev\" ON ");
	sql_id(&c, k->table);
	sql_add(&c, " (dev, ts_ns)");
	exec(x, c.s);
	free(c.s);
	free(s.s);
}

static void
put_preamble(struct exdb *x)
{
	sqlite3_stmt *st;
	const char *p;
	size_t i, n;

	exec(x, "CREATE TABLE preamble (line INTEGER, keyword TEXT, "
	    "text TEXT)");
	if (sqlite3_prepare_v2(x->db, "INSERT INTO preamble VALUES "
	    "(?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		fail(x, "prepare");
	for (i = 0; i < tsvr_npreamble(x->in); i++) {
		p = tsvr_preamble(x->in, i);
		n = strcspn(p, " ");
		sqlite3_bind_int64(st, 1, (sqlite3_int64)i + 1);
		sqlite3_bind_text(st, 2, p, (int)n, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, p[n] == ' ' ? p + n + 1 : "", -1,
		    SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE)
			fail(x, "insert");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

static void
put_kinds(struct exdb *x)
{
	sqlite3_stmt *st;
	struct exkind *k;
	size_t i;

	exec(x, "CREATE TABLE kinds (kind TEXT, tbl TEXT, records "
	    "INTEGER)");
	if (sqlite3_prepare_v2(x->db, "INSERT INTO kinds VALUES (?, ?, ?)",
	    -1, &st, NULL) != SQLITE_OK)
		fail(x, "prepare");
	for (i = 0; i < x->kinds.n; i++) {
		k = x->kinds.v[i].item;
		sqlite3_bind_text(st, 1, x->kinds.v[i].name, -1,
		    SQLITE_STATIC);
		sqlite3_bind_text(st, 2, k->table, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)k->rows);
		if (sqlite3_step(st) != SQLITE_DONE)
			fail(x, "insert");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
}

/* The database at TMP, to be renamed to PATH, which names it. */
static sqlite3 *
open_db(const char *tmp, const char *path)
{
	sqlite3 *db;

	(void)unlink(tmp);
	if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		diag_err(EXIT_BAD, "%s: %s", diag_path(path),
		    db != NULL ? sqlite3_errmsg(db) : "out of memory");
	return db;
}

int
export_sqlite(const char *inpath, const char *dbpath)
{
	struct exdb x;
	struct exkind *k;
	char *tmp;
	size_t i, n = strlen(dbpath) + 32;
	int r;

	memset(&x, 0, sizeof(x));
	if ((x.in = tsvr_open(inpath)) == NULL)
		return EXIT_BAD;
	tmp = xmalloc(n);
	snprintf(tmp, n, "%s.tmp%ld", dbpath, (long)getpid());
	x.path = dbpath;
	partial = tmp;
	atexit(remove_partial);
	x.db = open_db(tmp, dbpath);
	x.ncols = tsvr_ncols(x.in);
	x.coltype = xcalloc(x.ncols, sizeof(*x.coltype));
	for (i = 0; i < x.ncols; i++)
		x.coltype[i] = export_coltype(tsvr_colname(x.in, i));
	devtab_init(&x.kinds, sizeof(struct exkind));
	/* One transaction, no journal: a failed export is thrown away. */
	exec(&x, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
	    "PRAGMA temp_store = FILE; BEGIN");
	exec(&x, "CREATE TABLE columns (tbl TEXT, col TEXT, type TEXT, "
	    "position INTEGER)");
	put_preamble(&x);
	while ((r = tsvr_next(x.in)) == 1)
		stage_record(&x);
	for (i = 0; i < x.kinds.n; i++) {
		k = x.kinds.v[i].item;
		sqlite3_finalize(k->ins);
		finish_kind(&x, k);
	}
	put_kinds(&x);
	export_views(x.db, dbpath);
	exec(&x, "COMMIT");
	if (sqlite3_close(x.db) != SQLITE_OK)
		diag_err(EXIT_BAD, "%s: cannot close the database",
		    diag_path(dbpath));
	if (rename(tmp, dbpath) != 0)
		diag_errno(EXIT_BAD, "%s", diag_path(dbpath));
	partial = NULL;
	for (i = 0; i < x.kinds.n; i++) {
		k = x.kinds.v[i].item;
		free(k->table);
		free(k->type);
	}
	devtab_free(&x.kinds);
	free(x.coltype);
	free(tmp);
	r = tsvr_failed(x.in) ? EXIT_BAD : EXIT_OK;
	tsvr_close(x.in);
	return r;
}
