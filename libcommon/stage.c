/*
 * The annotating stage loop: validated ordered input, the current record
 * and the fields a stage sets on it.  Passing it on, and the output
 * queue that keeps ts_ns order while derived records are still open,
 * are in stage-out.c.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "stage-int.h"
#include "tsv.h"
#include "xalloc.h"

static void
write_preamble(struct stage *st, int argc, char *argv[])
{
	const char *prog = argc > 0 ? argv[0] : "prof-stage";
	const char *slash = strrchr(prog, '/');
	size_t i, np = tsvr_npreamble(st->in);

	if (np == 0 || strncmp(tsvr_preamble(st->in, 0), "prof-tsv ", 9) != 0)
		tsvw_preamble(st->out, "prof-tsv 1");
	for (i = 0; i < np; i++)
		tsvw_preamble(st->out, tsvr_preamble(st->in, i));
	tsvw_stage(st->out, slash != NULL ? slash + 1 : prog, argc, argv);
	tsvw_header(st->out, (const char *const *)st->names, st->ncols);
}

struct stage *
stage_open(const char *path, int argc, char *argv[],
    const struct stage_column *cols, size_t ncols, void *bind)
{
	struct tsvr *in;

	/* A bad PROF_QUEUE_MEMORY is told before any input is read. */
	(void)stage_queue_mem();
	if ((in = tsvr_open_stream(path)) == NULL)
		exit(EXIT_BAD);
	return stage_open_input(in, argc, argv, cols, ncols, bind);
}

/* Output column of NAME, or -1: input columns first, then added ones. */
static int
find_column(const struct stage *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->ncols; i++)
		if (strcmp(st->names[i], name) == 0)
			return (int)i;
	return -1;
}

struct stage *
stage_open_input(struct tsvr *in, int argc, char *argv[],
    const struct stage_column *cols, size_t ncols, void *bind)
{
	struct stage *st;
	size_t i;

	(void)stage_queue_mem();	/* for an input opened elsewhere */
	st = xcalloc(1, sizeof(*st));
	st->in = in;
	st->nin = tsvr_ncols(st->in);
	st->names = xreallocarray(NULL, st->nin + ncols + COL_NFIXED,
	    sizeof(*st->names));
	if (st->nin == 0)		/* empty input: no header at all */
		for (i = 0; i < COL_NFIXED; i++)
			st->names[st->ncols++] = xstrdup(tsv_fixed_cols[i]);
	for (i = 0; i < st->nin; i++)
		st->names[st->ncols++] = xstrdup(tsvr_colname(st->in, i));
	/* a name the input has keeps its place: tags is shared */
	for (i = 0; i < ncols; i++)
		if ((cols[i].flags & STAGE_ADD) &&
		    find_column(st, cols[i].name) < 0)
			st->names[st->ncols++] = xstrdup(cols[i].name);
	/* every entry binds once the header is whole */
	for (i = 0; i < ncols; i++)
		*(int *)(void *)((char *)bind + cols[i].off) =
		    find_column(st, cols[i].name);
	st->cols = bind;
	st->nwords = (st->ncols + 63) / 64;
	st->setv = xcalloc(st->ncols, sizeof(*st->setv));
	st->setl = xcalloc(st->ncols, sizeof(*st->setl));
	st->setcap = xcalloc(st->ncols, sizeof(*st->setcap));
	st->isset = xcalloc(st->ncols, 1);
	st->out = tsvw_open(STDOUT_FILENO, "standard output");
	st->last_out = STAGE_NO_TS;
	write_preamble(st, argc, argv);
	return st;
}

const void *
stage_columns(const struct stage *st)
{
	return st->cols;
}

size_t
stage_ncols(const struct stage *st)
{
	return st->ncols;
}

const char *
stage_colname(const struct stage *st, size_t i)
{
	return i < st->ncols ? st->names[i] : NULL;
}

const char *
stage_meta(const struct stage *st, const char *key)
{
	return tsvr_meta(st->in, key);
}

const char *
stage_preamble(const struct stage *st, size_t i)
{
	return i < tsvr_npreamble(st->in) ? tsvr_preamble(st->in, i) : NULL;
}

unsigned long
stage_seen(const struct stage *st, const char *prog, const char *col)
{
	size_t i, np = tsvr_npreamble(st->in), len = strlen(prog);

	for (i = 0; i < np; i++) {
		const char *l = tsvr_preamble(st->in, i);

		if (strncmp(l, "stage ", 6) == 0 &&
		    strncmp(l + 6, prog, len) == 0 &&
		    (l[6 + len] == ' ' || l[6 + len] == '\0'))
			return (unsigned long)i + 1;
	}
	for (i = 0; col != NULL && i < st->nin; i++)
		if (strcmp(st->names[i], col) == 0)
			return (unsigned long)np + 1;
	return 0;
}

/* ---- reading ---- */

/*
 * Read the next input record, checked as prof-tsv(5) says by the one
 * reader of the contract (tsvr_record()).  Damage ends the input here:
 * the stage finishes its work on the records before, as at the end of
 * the input, and stage_close() writes it all and exits 1 (every record
 * that can be kept is kept).
 */
int
stage_next(struct stage *st)
{
	if (st->nset > 0)	/* most records have nothing set */
		memset(st->isset, 0, st->ncols);
	st->nset = st->inset = 0;
	st->setsum = 0;
	st->incur = 0;
	if (tsvr_record(st->in, &st->ts, &st->dur) <= 0)
		return 0;
	st->incur = 1;
	st->cur_seq = ++st->seq;
	/* stages ask for the kind two or three times a record */
	st->kind = tsvr_text(st->in, COL_KIND, &st->kindlen);
	return 1;
}

int
stage_failed(const struct stage *st)
{
	return tsvr_failed(st->in);
}

const char *
stage_get(const struct stage *st, int col, size_t *len)
{
	if (col >= 0 && st->isset[col]) {
		if (len != NULL)
			*len = st->setl[col];
		return st->setv[col];
	}
	if (col < 0 || (size_t)col >= st->nin) {
		if (len != NULL)
			*len = 0;
		return "";
	}
	return tsvr_field(st->in, (size_t)col, len);
}

int
stage_absent(const struct stage *st, int col)
{
	size_t len;

	stage_get(st, col, &len);
	return len == 0;
}

int64_t
stage_i64(const struct stage *st, int col, int *absent)
{
	size_t len;
	const char *s = stage_get(st, col, &len);
	char *end;
	long long v;

	if (len == 0) {
		if (absent != NULL)
			*absent = 1;
		return 0;
	}
	if (absent != NULL)
		*absent = 0;
	if ((size_t)col < st->nin && !st->isset[col])
		return tsvr_i64(st->in, (size_t)col, NULL);
	v = strtoll(s, &end, 10);
	if (*end != '\0')
		diag_at_fatal(EXIT_BAD, tsvr_path(st->in), tsvr_lineno(st->in),
		    "column '%s': invalid integer '%s'", st->names[col], s);
	return v;
}

int64_t
stage_ts(const struct stage *st)
{
	return st->ts;
}

int64_t
stage_dur(const struct stage *st)
{
	return st->dur;
}

int
stage_is(const struct stage *st, const char *kind)
{
	size_t i;

	/* kinds are a few letters: a call to strlen and memcmp costs more */
	for (i = 0; i < st->kindlen; i++)
		if (st->kind[i] != kind[i])
			return 0;
	return kind[st->kindlen] == '\0';
}

const char *
stage_path(const struct stage *st)
{
	return tsvr_path(st->in);
}

unsigned long
stage_lineno(const struct stage *st)
{
	return tsvr_lineno(st->in);
}

int64_t
stage_end_ts(const struct stage *st)
{
	return tsvr_end(st->in);
}

/* ---- setting fields of the current record ---- */

void
stage_set(struct stage *st, int col, const char *s, size_t len)
{
	if (col < 0 || (size_t)col >= st->ncols)
		diag_err(EXIT_BAD, "internal error: no output column %d", col);
	if (st->setcap[col] < len + 1) {
		st->setcap[col] = len + 1 + len / 2;
		st->setv[col] = xrealloc(st->setv[col], st->setcap[col]);
	}
	memcpy(st->setv[col], s, len);
	st->setv[col][len] = '\0';
	st->setl[col] = len;
	st->isset[col] = 1;
	st->nset++;
	st->setsum += len;
	if ((size_t)col < st->nin)
		st->inset = 1;
}

void
stage_set_str(struct stage *st, int col, const char *s)
{
	stage_set(st, col, s, strlen(s));
}

void
stage_set_i64(struct stage *st, int col, int64_t v)
{
	char buf[TSV_I64_MAX];

	stage_set(st, col, buf, tsv_i64(buf, v));
}

void
stage_error(struct stage *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(tsvr_path(st->in), 0, fmt, ap);
	va_end(ap);
	st->failed = 1;
}

void
stage_close(struct stage *st)
{
	size_t i;
	int bad = tsvr_failed(st->in) || st->failed;

	stage_out_close(st);
	tsvw_close(st->out);
	tsvr_close(st->in);
	for (i = 0; i < st->ncols; i++) {
		free(st->names[i]);
		free(st->setv[i]);
	}
	free(st->names);
	free(st->setv);
	free(st->setl);
	free(st->setcap);
	free(st->isset);
	free(st);
	if (bad)
		exit(EXIT_BAD);
}
