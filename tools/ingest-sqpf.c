/*
 * prof-ingest's SQLite readers read their large queries ahead: SQLite
 * stepping a join of millions of rows is half of the time of reading a
 * database, and the records made of the rows the other half, so a
 * thread of its own steps the query, on a connection of its own to the
 * same file (read-only and immutable, as every connection here), and
 * copies the rows into blocks that the reader takes in order.  Memory
 * is a few blocks of rows, whatever the database.
 *
 * The order of everything the reader sees is kept: the thread runs the
 * setup and prepares the query before sqpf_open() returns, so their
 * diagnostics come where they came, and an error while stepping reaches
 * the reader after the rows before it.  Where SQLite was built without
 * threads, or the second connection cannot be had, the query runs on
 * the reader's own connection, row by row, as before.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ingest-sqlite.h"
#include "xalloc.h"

#define PF_ROWS		1024	/* rows in a block */
#define PF_BLOCKS	4	/* blocks filled ahead at most */

struct pfblock {
	struct sqcell	*cells;		/* PF_ROWS rows of ncol cells */
	char		*text;		/* the TEXT and BLOB bytes */
	size_t		 textlen, textcap;
	size_t		 nrows;
	struct pfblock	*next;
};

struct sqpf {
	struct sqdb	*q;
	char		*setup, *sql;
	const char	*setup_table, *table;
	/* Inline: the query on the reader's connection. */
	sqlite3_stmt	*st;
	/* Ahead: the thread's connection, statement and blocks. */
	sqlite3		*db;
	sqlite3_stmt	*tst;
	int		 ncol;
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 started;	/* setup and prepare done (or failed) */
	int		 done;		/* no more blocks will come */
	int		 stop;		/* the reader wants no more */
	struct pfblock	*full, *full_tail, *spare;
	size_t		 nfull;
	/* What went wrong in the thread: SQLite's code and words. */
	int		 err, errcode, in_setup;
	char		*errmsg;
	/* The reader's block and row. */
	struct pfblock	*cur;
	size_t		 pos;
};

static void
set_error(struct sqpf *p, int in_setup, const char *msg)
{
	p->err = 1;
	p->in_setup = in_setup;
	p->errcode = sqlite3_errcode(p->db);
	p->errmsg = xstrdup(msg != NULL ? msg : sqlite3_errmsg(p->db));
}

/* Copy the statement's current row into block B. */
static void
copy_row(struct sqpf *p, struct pfblock *b)
{
	struct sqcell *c = &b->cells[b->nrows * (size_t)p->ncol];
	sqlite3_value *v;
	const void *t;
	size_t n;
	int i;

	/*
	 * The row's values asked for once each, then read as the
	 * sqlite3_column_*() calls would (each of which looks the column
	 * up again and checks the connection's state): a third of the
	 * cost of copying a row.  Only this thread uses the connection.
	 */
	for (i = 0; i < p->ncol; i++, c++) {
		v = sqlite3_column_value(p->tst, i);
		c->type = sqlite3_value_type(v);
		c->i = c->type == SQLITE_NULL ? 0 : sqlite3_value_int64(v);
		c->s = NULL;
		c->n = 0;
		if (c->type == SQLITE_FLOAT)
			c->d = sqlite3_value_double(v);
		if (c->type != SQLITE_TEXT && c->type != SQLITE_BLOB)
			continue;
		t = c->type == SQLITE_TEXT ?
		    (const void *)sqlite3_value_text(v) :
		    sqlite3_value_blob(v);
		n = (size_t)sqlite3_value_bytes(v);
		if (b->textlen + n + 1 > b->textcap) {
			b->textcap = 2 * (b->textlen + n + 1) + 4096;
			b->text = xrealloc(b->text, b->textcap);
		}
		if (n > 0)
			memcpy(b->text + b->textlen, t, n);
		b->text[b->textlen + n] = '\0';
		/* An offset now: the text may move as the block grows. */
		c->s = (const char *)(uintptr_t)b->textlen;
		c->n = n;
		b->textlen += n + 1;
	}
	b->nrows++;
}

/* Hand a filled block to the reader; wait while enough are ahead. */
static void
publish(struct sqpf *p, struct pfblock *b)
{
	size_t i, n = b->nrows * (size_t)p->ncol;

	for (i = 0; i < n; i++)
		if (b->cells[i].type == SQLITE_TEXT ||
		    b->cells[i].type == SQLITE_BLOB)
			b->cells[i].s = b->text + (uintptr_t)b->cells[i].s;
	pthread_mutex_lock(&p->mu);
	b->next = NULL;
	if (p->full_tail != NULL)
		p->full_tail->next = b;
	else
		p->full = b;
	p->full_tail = b;
	p->nfull++;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* An empty block: a spare one, or a new one while few are about. */
static struct pfblock *
get_block(struct sqpf *p)
{
	struct pfblock *b;

	pthread_mutex_lock(&p->mu);
	while (p->nfull >= PF_BLOCKS && !p->stop)
		pthread_cond_wait(&p->cv, &p->mu);
	if ((b = p->spare) != NULL)
		p->spare = b->next;
	pthread_mutex_unlock(&p->mu);
	if (b == NULL) {
		b = xcalloc(1, sizeof(*b));
		b->cells = xreallocarray(NULL, PF_ROWS * (size_t)p->ncol,
		    sizeof(*b->cells));
	}
	b->nrows = b->textlen = 0;
	return b;
}

static void
started(struct sqpf *p)
{
	pthread_mutex_lock(&p->mu);
	p->started = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void *
pf_work(void *arg)
{
	struct sqpf *p = arg;
	struct pfblock *b = NULL;
	char *emsg = NULL;
	int r = SQLITE_OK;

	if (p->setup != NULL && sqlite3_exec(p->db, p->setup, NULL, NULL,
	    &emsg) != SQLITE_OK) {
		set_error(p, 1, emsg);
		sqlite3_free(emsg);
	} else if (sqlite3_prepare_v2(p->db, p->sql, -1, &p->tst, NULL) !=
	    SQLITE_OK)
		set_error(p, 0, NULL);
	else
		p->ncol = sqlite3_column_count(p->tst);
	started(p);
	while (!p->err && !p->stop) {
		if (b == NULL)
			b = get_block(p);
		if ((r = sqlite3_step(p->tst)) != SQLITE_ROW)
			break;
		copy_row(p, b);
		if (b->nrows == PF_ROWS) {
			publish(p, b);
			b = NULL;
		}
	}
	if (!p->err && !p->stop && r != SQLITE_DONE)
		set_error(p, 0, NULL);
	if (b != NULL && b->nrows > 0)
		publish(p, b);
	else if (b != NULL) {
		free(b->cells);
		free(b->text);
		free(b);
	}
	pthread_mutex_lock(&p->mu);
	p->done = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Report the thread's error as the reader's connection would have. */
static void
report(struct sqpf *p)
{
	struct sqdb *q = p->q;

	if (p->in_setup)
		diag_at(q->where, 0, "table %s: %s", p->setup_table,
		    p->errmsg);
	else
		diag_at(q->where, 0, "%stable %s: %s", p->errcode ==
		    SQLITE_CORRUPT || p->errcode == SQLITE_NOTADB ?
		    "corrupt SQLite database: " : "", p->table, p->errmsg);
	q->failed = 1;
}

/* The query on the reader's own connection. */
static struct sqpf *
open_inline(struct sqpf *p)
{
	char *emsg = NULL;

	if (p->setup != NULL && sqlite3_exec(p->q->db, p->setup, NULL, NULL,
	    &emsg) != SQLITE_OK) {
		diag_at(p->q->where, 0, "table %s: %s", p->setup_table, emsg);
		sqlite3_free(emsg);
		p->q->failed = 1;
		sqpf_close(p);
		return NULL;
	}
	if ((p->st = sq_prepare(p->q, p->sql, p->table)) == NULL) {
		sqpf_close(p);
		return NULL;
	}
	return p;
}

struct sqpf *
sqpf_open(struct sqdb *q, const char *setup, const char *setup_table,
    const char *sql, const char *table)
{
	struct sqpf *p = xcalloc(1, sizeof(*p));

	p->q = q;
	p->setup = setup != NULL ? xstrdup(setup) : NULL;
	p->setup_table = setup_table;
	p->sql = xstrdup(sql);
	p->table = table;
	if (!sqlite3_threadsafe() || q->path == NULL ||
	    sq_connect(q->path, &p->db) != SQLITE_OK) {
		sqlite3_close(p->db);
		p->db = NULL;
		return open_inline(p);
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	if ((errno = pthread_create(&p->thread, NULL, pf_work, p)) != 0)
		diag_errno(EXIT_BAD, "SQLite reader thread");
	pthread_mutex_lock(&p->mu);
	while (!p->started)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	if (p->err && p->ncol == 0) {
		report(p);
		sqpf_close(p);
		return NULL;
	}
	return p;
}

int
sqpf_next(struct sqpf *p, struct sqrow *row)
{
	struct pfblock *b;

	if (p->db == NULL) {
		row->st = p->st;
		row->c = NULL;
		return sq_step(p->q, p->st, p->table);
	}
	if (p->cur != NULL && p->pos < p->cur->nrows) {
		row->st = NULL;
		row->c = &p->cur->cells[p->pos++ * (size_t)p->ncol];
		return 1;
	}
	pthread_mutex_lock(&p->mu);
	/* The block read: the thread fills it again. */
	if ((b = p->cur) != NULL) {
		b->next = p->spare;
		p->spare = b;
		p->cur = NULL;
	}
	while (p->full == NULL && !p->done)
		pthread_cond_wait(&p->cv, &p->mu);
	if ((b = p->full) != NULL) {
		if ((p->full = b->next) == NULL)
			p->full_tail = NULL;
		b->next = NULL;
		p->nfull--;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	if (b == NULL) {
		if (!p->err)
			return 0;
		report(p);
		p->err = 0;
		return -1;
	}
	p->cur = b;
	p->pos = 1;
	row->st = NULL;
	row->c = b->cells;
	return 1;
}

static void
free_blocks(struct pfblock *b)
{
	struct pfblock *n;

	for (; b != NULL; b = n) {
		n = b->next;
		free(b->cells);
		free(b->text);
		free(b);
	}
}

void
sqpf_close(struct sqpf *p)
{
	if (p == NULL)
		return;
	if (p->db != NULL) {
		pthread_mutex_lock(&p->mu);
		p->stop = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
		if ((errno = pthread_join(p->thread, NULL)) != 0)
			diag_errno(EXIT_BAD, "SQLite reader thread");
		sqlite3_finalize(p->tst);
		sqlite3_close(p->db);
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->cv);
		free_blocks(p->cur);
		free_blocks(p->full);
		free_blocks(p->spare);
	}
	sqlite3_finalize(p->st);
	free(p->setup);
	free(p->sql);
	free(p->errmsg);
	free(p);
}
