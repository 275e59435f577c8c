/*
 * prof-ingest's entry to SQLite exports: Ascend torch_npu and msprof
 * databases, torch_npu's analysis.db, msprof-analyze's cluster_analysis.db,
 * and Nsight Systems' `nsys export
 * --type sqlite`.
 *
 * A profile often lies on read-only or shared storage, and a database
 * may still be open in the profiler that writes it.  So the file is
 * opened read-only and immutable (no lock, no -wal or -shm file created
 * beside it), and what immutable gives up is checked here first: a
 * write-ahead log or hot journal beside the file, or SQLite's write lock
 * held by another process, means that the file alone is not the
 * database, and it is refused with the reason.  A file cut short is
 * found from the page count in its header, before SQLite reads a page.
 * Inside an archive, compressed, or on standard input, the database is
 * first copied to a temporary file (input_seekable).
 *
 * The tables decide which reader reads it (the schema, not the name: a
 * renamed file still reads), and its format becomes that reader's row.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "ingest-sqlite.h"
#include "tsv.h"
#include "xalloc.h"

#define SQ_MAGIC	"SQLite format 3"	/* and a NUL: 16 bytes */
/* SQLite's lock bytes (os_unix.c): the write lock is PENDING+RESERVED. */
#define SQ_PENDING_BYTE	0x40000000

int
ingest_name_sqlite(const char *base)
{
	return ingest_has_suffix(base, ".db") ||
	    ingest_has_suffix(base, ".sqlite") ||
	    ingest_has_suffix(base, ".sqlite3");
}

int
ingest_content_sqlite(const char *head, size_t len)
{
	return len >= 16 && memcmp(head, SQ_MAGIC, 16) == 0;
}

/* A *.db file in a directory that is no SQLite database is listed. */
const char *
ingest_stray_sqlite(const char *name, const char *head, size_t len)
{
	(void)name;
	if (ingest_content_sqlite(head, len))
		return NULL;
	return "not an SQLite database (no 'SQLite format 3' header)";
}

static uint32_t
be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * The file's own header: the magic, and whether the file holds every
 * page the header counts (the count is valid when the change counter
 * equals the version-valid-for number, as SQLite 3.7.0 and later write).
 */
static int
check_header(const char *path, const char *where)
{
	unsigned char h[100];
	struct stat st;
	uint64_t psize, pages;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0) {
		diag_at(where, 0, "%s", strerror(errno));
		return -1;
	}
	n = read(fd, h, sizeof(h));
	if (fstat(fd, &st) != 0)
		st.st_size = 0;
	close(fd);
	if (n < 16 || memcmp(h, SQ_MAGIC, 16) != 0) {
		diag_at(where, 0, "not an SQLite database (no 'SQLite "
		    "format 3' header)");
		return -1;
	}
	if (n < (ssize_t)sizeof(h)) {
		diag_at(where, 0, "truncated SQLite database: %zd bytes, "
		    "less than its 100-byte header", n);
		return -1;
	}
	psize = be16(h + 16) == 1 ? 65536 : be16(h + 16);
	pages = be32(h + 28);
	if (psize >= 512 && pages > 0 && be32(h + 24) == be32(h + 92) &&
	    (uint64_t)st.st_size < psize * pages) {
		diag_at(where, 0, "truncated SQLite database: its header "
		    "counts %" PRIu64 " pages of %" PRIu64 " bytes (%" PRIu64
		    " bytes), the file has %jd", pages, psize, psize * pages,
		    (intmax_t)st.st_size);
		return -1;
	}
	return 0;
}

/* A non-empty file PATH + SUFFIX beside the database. */
static int
beside(const char *path, const char *suffix)
{
	char *p = xmalloc(strlen(path) + strlen(suffix) + 1);
	struct stat st;
	int r;

	strcpy(p, path);
	strcat(p, suffix);
	r = stat(p, &st) == 0 && st.st_size > 0;
	free(p);
	return r;
}

/*
 * What immutable=1 gives up, checked by hand: the log or journal of a
 * writer beside the file, and SQLite's write lock (a POSIX lock on the
 * pending and reserved bytes, which a writer holds from its first write
 * to its commit).
 */
static int
check_writer(const char *path, const char *where)
{
	struct flock fl;
	int fd;

	if (beside(path, "-wal")) {
		diag_at(where, 0, "a write-ahead log ('%s-wal') is beside "
		    "the database: another process is writing it or did not "
		    "close it, and its last transactions are only in the log "
		    "(let the writer finish, or open it once with sqlite3 to "
		    "checkpoint)", diag_path(path));
		return -1;
	}
	if (beside(path, "-journal")) {
		diag_at(where, 0, "a rollback journal ('%s-journal') is "
		    "beside the database: a write to it was interrupted or "
		    "is under way (let the writer finish, or open it once "
		    "with sqlite3 to roll it back)", diag_path(path));
		return -1;
	}
	if ((fd = open(path, O_RDONLY)) < 0)
		return 0;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = SQ_PENDING_BYTE;
	fl.l_len = 2;
	if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK) {
		close(fd);
		diag_at(where, 0, "the database is being written by another "
		    "process (pid %ld holds its write lock): read it when "
		    "the writer is done", (long)fl.l_pid);
		return -1;
	}
	close(fd);
	return 0;
}

/* "file:PATH?immutable=1" with the bytes a URI path cannot hold escaped. */
static char *
make_uri(const char *path)
{
	char *u = xmalloc(3 * strlen(path) + 32), *o = u;
	const char *p;

	o += sprintf(o, "file:");
	for (p = path; *p != '\0'; p++)
		if (*p == '?' || *p == '#' || *p == '%' ||
		    (unsigned char)*p < 0x20)
			o += sprintf(o, "%%%02X", (unsigned char)*p);
		else
			*o++ = *p;
	strcpy(o, "?immutable=1");
	return u;
}

/* Read the list of tables: the first read of the file's pages. */
static int
list_tables(struct sqdb *q)
{
	sqlite3_stmt *st;
	int r;

	st = sq_prepare(q, "SELECT name FROM sqlite_master WHERE type = "
	    "'table' ORDER BY name", "sqlite_master");
	if (st == NULL)
		return -1;
	while ((r = sq_step(q, st, "sqlite_master")) == 1) {
		const char *n = (const char *)sqlite3_column_text(st, 0);

		if (n == NULL)
			continue;
		q->tables = xreallocarray(q->tables, q->ntables + 1,
		    sizeof(*q->tables));
		q->rows = xreallocarray(q->rows, q->ntables + 1,
		    sizeof(*q->rows));
		q->why = xreallocarray(q->why, q->ntables + 1,
		    sizeof(*q->why));
		q->tables[q->ntables] = xstrdup(n);
		q->rows[q->ntables] = -1;
		q->why[q->ntables] = NULL;
		q->ntables++;
	}
	sqlite3_finalize(st);
	return r;
}

int
sq_has_table(const struct sqdb *q, const char *t)
{
	size_t i;

	for (i = 0; i < q->ntables; i++)
		if (strcmp(q->tables[i], t) == 0)
			return 1;
	return 0;
}

int
sq_has_col(struct sqdb *q, const char *t, const char *c)
{
	const char *tail;
	sqlite3_stmt *st;
	int r = 0;

	if (!sq_has_table(q, t))
		return 0;
	/* Names come from this file's code, never from the data. */
	if (sqlite3_prepare_v2(q->db, "SELECT 1 FROM pragma_table_info(?) "
	    "WHERE name = ?", -1, &st, &tail) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, c, -1, SQLITE_STATIC);
	r = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return r;
}

int
sq_col_integer(struct sqdb *q, const char *t, const char *c)
{
	sqlite3_stmt *st;
	const char *type;
	int r = 0;

	if (sqlite3_prepare_v2(q->db, "SELECT type FROM pragma_table_info(?) "
	    "WHERE name = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, c, -1, SQLITE_STATIC);
	/* SQLite's rule: a declared type holding "INT" is INTEGER. */
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (type = (const char *)sqlite3_column_text(st, 0)) != NULL)
		r = strcasestr(type, "INT") != NULL;
	sqlite3_finalize(st);
	return r;
}

const char *
sq_col_any(struct sqdb *q, const char *t, const char *const *names)
{
	for (; *names != NULL; names++)
		if (sq_has_col(q, t, *names))
			return *names;
	return NULL;
}

/* SQLite's words, with what they mean for the file when it is damage. */
static void
sq_error(struct sqdb *q, const char *table)
{
	int e = sqlite3_errcode(q->db);

	diag_at(q->where, 0, "%stable %s: %s", e == SQLITE_CORRUPT ||
	    e == SQLITE_NOTADB ? "corrupt SQLite database: " : "", table,
	    sqlite3_errmsg(q->db));
	q->failed = 1;
}

sqlite3_stmt *
sq_prepare(struct sqdb *q, const char *sql, const char *table)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) == SQLITE_OK)
		return st;
	sq_error(q, table);
	return NULL;
}

int
sq_step(struct sqdb *q, sqlite3_stmt *st, const char *table)
{
	int r = sqlite3_step(st);

	if (r == SQLITE_ROW)
		return 1;
	if (r == SQLITE_DONE)
		return 0;
	sq_error(q, table);
	return -1;
}

void
sq_table(struct sqdb *q, const char *t, int64_t rows, const char *why)
{
	size_t i;

	for (i = 0; i < q->ntables; i++)
		if (strcmp(q->tables[i], t) == 0) {
			q->rows[i] = rows;
			q->why[i] = why;
		}
}

/* ---- the string table: an open-addressing map of id to text ---- */

static size_t
str_slot(const struct sqdb *q, int64_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 20) & (q->scap - 1);
}

static void
str_put(struct sqdb *q, int64_t id, const char *s, size_t len)
{
	size_t i;

	if (2 * (q->nstr + 1) > q->scap) {
		int64_t *ok = q->skeys;
		uint32_t *ooff = q->soff, *olen = q->slen;
		size_t ocap = q->scap, j;

		q->scap = ocap ? 2 * ocap : 1024;
		q->skeys = xreallocarray(NULL, q->scap, sizeof(*q->skeys));
		q->soff = xreallocarray(NULL, q->scap, sizeof(*q->soff));
		q->slen = xreallocarray(NULL, q->scap, sizeof(*q->slen));
		for (j = 0; j < q->scap; j++)
			q->skeys[j] = INT64_MIN;
		for (j = 0; j < ocap; j++) {
			if (ok[j] == INT64_MIN)
				continue;
			for (i = str_slot(q, ok[j]); q->skeys[i] != INT64_MIN;
			    i = (i + 1) & (q->scap - 1))
				;
			q->skeys[i] = ok[j];
			q->soff[i] = ooff[j];
			q->slen[i] = olen[j];
		}
		free(ok);
		free(ooff);
		free(olen);
	}
	for (i = str_slot(q, id); q->skeys[i] != INT64_MIN;
	    i = (i + 1) & (q->scap - 1))
		if (q->skeys[i] == id)
			return;		/* the first row of an id wins */
	if (q->sbufcap - q->sbuflen < len + 1) {
		q->sbufcap = (q->sbufcap + len + 1) * 2;
		q->sbuf = xrealloc(q->sbuf, q->sbufcap);
	}
	memcpy(q->sbuf + q->sbuflen, s, len);
	q->sbuf[q->sbuflen + len] = '\0';
	q->skeys[i] = id;
	q->soff[i] = (uint32_t)q->sbuflen;
	q->slen[i] = (uint32_t)len;
	q->sbuflen += len + 1;
	q->nstr++;
}

int
sq_load_strings(struct sqdb *q, const char *t)
{
	char sql[128];
	sqlite3_stmt *st;
	int64_t n = 0;
	int r;

	snprintf(sql, sizeof(sql), "SELECT id, value FROM %s", t);
	if ((st = sq_prepare(q, sql, t)) == NULL)
		return -1;
	while ((r = sq_step(q, st, t)) == 1) {
		const char *s = (const char *)sqlite3_column_text(st, 1);
		size_t len = (size_t)sqlite3_column_bytes(st, 1);

		if (SQ_NULL(st, 0) || s == NULL || len > UINT32_MAX / 2 ||
		    q->sbuflen > UINT32_MAX / 2)
			continue;
		str_put(q, sqlite3_column_int64(st, 0), s, len);
		n++;
	}
	sqlite3_finalize(st);
	sq_table(q, t, n, "strings");
	return r;
}

const char *
sq_str(const struct sqdb *q, int64_t id, size_t *len)
{
	size_t i;

	*len = 0;
	if (q->scap == 0)
		return NULL;
	for (i = str_slot(q, id); q->skeys[i] != INT64_MIN;
	    i = (i + 1) & (q->scap - 1))
		if (q->skeys[i] == id) {
			*len = q->slen[i];
			return q->sbuf + q->soff[i];
		}
	return NULL;
}

const char *
sq_col_str(const struct sqdb *q, const struct sqrow *row, int i, size_t *len)
{
	int64_t id;

	*len = 0;
	if (!sqr_int(row, i, &id))
		return NULL;
	return sq_str(q, id, len);
}

const char *
sqr_text(const struct sqrow *r, int i, size_t *n)
{
	/* A copied number: its text made as SQLite makes it, on demand. */
	static char num[32];
	const struct sqcell *c;

	*n = 0;
	if (r->st != NULL) {
		const char *t = (const char *)sqlite3_column_text(r->st, i);

		*n = (size_t)sqlite3_column_bytes(r->st, i);
		return t;
	}
	c = &r->c[i];
	switch (c->type) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_INTEGER:
		*n = tsv_i64(num, c->i);
		return num;
	case SQLITE_FLOAT:
		sqlite3_snprintf(sizeof(num), num, "%!.15g", c->d);
		*n = strlen(num);
		return num;
	default:
		*n = c->n;
		return c->s;
	}
}

/* ---- helpers of the readers ---- */

void
sq_sql(struct sqlbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < b->cap - b->len)
			break;
		b->cap = b->cap * 2 + (size_t)(n > 0 ? n : 0) + 256;
		b->s = xrealloc(b->s, b->cap);
	}
	b->len += (size_t)n;
}

void
sq_sql_col(struct sqdb *q, struct sqlbuf *b, const char *t,
    const char *alias, const char *col)
{
	if (!sq_has_col(q, t, col))
		sq_sql(b, ", NULL");
	else if (alias != NULL)
		sq_sql(b, ", %s.%s", alias, col);
	else
		sq_sql(b, ", %s", col);
}

void
sq_set_i64(struct irec *r, int ic, char *buf, int64_t v)
{
	r->v[ic] = buf;
	r->len[ic] = tsv_i64(buf, v);
}

int
sq_times(struct sqdb *q, const struct sqrow *row, int i, const char *table,
    int open_end, struct irec *r)
{
	int64_t s, e;
	int has_s = sqr_int(row, i, &s), has_e = sqr_int(row, i + 1, &e);

	if (!has_s || (!open_end && !has_e)) {
		sink_skip(q->sink, q->src, open_end ?
		    "row without a start time" :
		    "row without a start or end time");
		return -1;
	}
	if (!has_e)
		e = s;
	if (e < s || s == INT64_MIN) {
		char why[96];

		snprintf(why, sizeof(why), "%s row ending before it starts",
		    table);
		sink_skip(q->sink, q->src, why);
		return -1;
	}
	r->ts = s;
	r->dur = e - s;
	r->has_dur = 1;
	return 0;
}

void
sq_check_step(struct irec *r)
{
	static const char *const pre[] = {
		"ProfilerStep#", "Iteration#", "Step#", NULL
	};
	const char *s = r->v[IC_NAME];
	size_t len = r->len[IC_NAME], k, i;
	int p;

	for (p = 0; s != NULL && pre[p] != NULL; p++) {
		k = strlen(pre[p]);
		if (len <= k || memcmp(s, pre[p], k) != 0)
			continue;
		for (i = k; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i < len)
			return;
		r->kind = IK_STEP;
		r->v[IC_STEP] = s + k;
		r->len[IC_STEP] = len - k;
		return;
	}
}

/* ---- the reader ---- */

int
sq_is_ascend(const struct sqdb *q)
{
	return sq_has_table(q, "STRING_IDS") && (sq_has_table(q, "TASK") ||
	    sq_has_table(q, "CANN_API") || sq_has_table(q, "API") ||
	    sq_has_table(q, "PYTORCH_API"));
}

int
sq_is_analysis(const struct sqdb *q)
{
	return sq_has_table(q, "StepTraceTime") ||
	    sq_has_table(q, "CommAnalyzerTime");
}

int
sq_is_nsys(const struct sqdb *q)
{
	return sq_has_table(q, "StringIds") &&
	    (sq_has_table(q, "TARGET_INFO_SESSION_START_TIME") ||
	    sq_has_table(q, "CUPTI_ACTIVITY_KIND_KERNEL") ||
	    sq_has_table(q, "CUPTI_ACTIVITY_KIND_RUNTIME") ||
	    sq_has_table(q, "NVTX_EVENTS"));
}

/*
 * The inventory lists every table as "FILE(TABLE)": read, with the rows
 * taken, or not, with its row count (counted only for -i: a full scan
 * of a large table the reader does not need).
 */
static void
list_inventory(struct sqdb *q)
{
	char sql[256], why[256];
	sqlite3_stmt *st;
	size_t i, n;
	char *path;

	for (i = 0; i < q->ntables; i++) {
		n = strlen(q->where) + strlen(q->tables[i]) + 3;
		path = xmalloc(n);
		snprintf(path, n, "%s(%s)", q->where, q->tables[i]);
		if (q->rows[i] >= 0)
			snprintf(why, sizeof(why), "table read: %" PRId64
			    " rows (%s)", q->rows[i], q->why[i]);
		else {
			int64_t rows = -1;

			snprintf(sql, sizeof(sql), "SELECT count(*) FROM "
			    "\"%s\"", q->tables[i]);
			if (strchr(q->tables[i], '"') == NULL &&
			    sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) ==
			    SQLITE_OK) {
				if (sqlite3_step(st) == SQLITE_ROW)
					rows = sqlite3_column_int64(st, 0);
				sqlite3_finalize(st);
			}
			snprintf(why, sizeof(why), "table not read: %" PRId64
			    " rows%s%s", rows, q->why[i] != NULL ? " (" : "",
			    q->why[i] != NULL ? q->why[i] : "");
			if (q->why[i] != NULL)
				strncat(why, ")", sizeof(why) - strlen(why) - 1);
		}
		sink_ignored(q->sink, path, why);
		free(path);
	}
}

void
sq_free(struct sqdb *q)
{
	size_t i;

	sqlite3_close(q->db);
	for (i = 0; i < q->ntables; i++)
		free(q->tables[i]);
	free(q->tables);
	free(q->rows);
	free(q->why);
	free(q->skeys);
	free(q->soff);
	free(q->slen);
	free(q->sbuf);
	free(q);
}

int
sq_connect(const char *path, sqlite3 **db)
{
	char *uri = make_uri(path), pragma[64];
	int r;

	/*
	 * One thread uses the connection: without its mutex, which every
	 * sqlite3_column_* call takes, reading is a quarter faster.
	 */
	r = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (r != SQLITE_OK)
		return r;
	snprintf(pragma, sizeof(pragma), "PRAGMA cache_size = -%d",
	    SQDB_CACHE_KIB);
	sqlite3_exec(*db, pragma, NULL, NULL, NULL);
	/* ORDER BY without an index sorts in temporary files, not RAM. */
	sqlite3_exec(*db, "PRAGMA temp_store = FILE", NULL, NULL, NULL);
	return SQLITE_OK;
}

static int
sq_open(struct sqdb *q, const char *path)
{
	/* SQLite's sorts and temporary tables go where -T says. */
	if (q->ctx->tmpdir != NULL && sqlite3_temp_directory == NULL)
		sqlite3_temp_directory = sqlite3_mprintf("%s",
		    q->ctx->tmpdir);
	if (sq_connect(path, &q->db) != SQLITE_OK) {
		diag_at(q->where, 0, "cannot open the SQLite database: %s",
		    q->db != NULL ? sqlite3_errmsg(q->db) : "out of memory");
		return -1;
	}
	q->path = path;
	return list_tables(q);
}

int
ingest_sqlite(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	const struct ingest_format *fmt = NULL;
	const char *path;
	struct sqdb *q = xcalloc(1, sizeof(*q));
	int copied, rc = -1;

	q->where = where;
	q->ctx = ctx;
	q->sink = ctx->sink;
	if ((path = input_seekable(in, ctx->tmpdir, &copied)) == NULL) {
		free(q);
		return -1;
	}
	/* A copy has no log or lock of its own: the checks are for files. */
	if (check_header(path, where) != 0 ||
	    (!copied && check_writer(path, where) != 0)) {
		free(q);
		return -1;
	}
	if (sq_open(q, path) != 0) {
		sq_free(q);
		return -1;
	}
	if (sq_is_nsys(q))
		fmt = ingest_format_named("nsys");
	else if (sq_is_ascend(q))
		fmt = ingest_format_named("ascend_db");
	else if (sq_is_analysis(q))
		fmt = ingest_format_named("ascend_analysis_db");
	else if (sq_is_cluster(q))
		fmt = ingest_format_named("ascend_cluster_db");
	if (fmt == NULL) {
		diag_at(where, 0, "an SQLite database of no profiler schema "
		    "this version reads (%zu tables%s%s%s): not an Ascend "
		    "or Nsight Systems export", q->ntables, q->ntables ?
		    ", the first '" : "", q->ntables ? q->tables[0] : "",
		    q->ntables ? "'" : "");
		sq_free(q);
		return -1;
	}
	/*
	 * The run's only source, in a file that stays: the reader may
	 * leave its largest stream to be read as the output is written
	 * (see ingest.h, struct sink_replay), keeping Q open till then.
	 */
	q->direct = !copied && !ingest_lenient && sink_can_direct(ctx->sink);
	q->src = sink_begin(ctx->sink, fmt, where, ctx->run, ctx->rank);
	if (strcmp(fmt->name, "nsys") == 0)
		rc = ingest_nsys_db(q);
	else if (strcmp(fmt->name, "ascend_db") == 0)
		rc = ingest_ascend_db(q);
	else if (strcmp(fmt->name, "ascend_cluster_db") == 0)
		rc = ingest_cluster_db(q);
	else
		rc = ingest_analysis_db(q);
	if (q->failed)
		rc = -1;
	if (ctx->inventory)
		list_inventory(q);
	sink_end(q->sink, q->src);
	if (!q->kept)
		sq_free(q);
	return rc;
}
