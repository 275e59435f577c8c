/*
 * The stage loop's output: the current record passed on, records made or
 * kept by the stage and written later, and the queue that keeps the
 * output in ts_ns order while some of them are still open.
 *
 * The queue has three parts.  Input records that pass through arrive in
 * (ts, seq) order, so they go to a FIFO of already escaped lines.
 * Records put by the stage (new or kept) may arrive in any order, but
 * mostly come in order too: those that sort after the last one go to a
 * second FIFO, the others to a binary heap.  Records leave, smallest
 * (ts, seq) first, while they sort before the oldest record still open;
 * with nothing open and nothing queued, a passed record is written at
 * once.
 *
 * A record may stay open for the whole input (one step around a long
 * inference run, a marker whose window covers the capture): every line
 * after it then waits.  So a FIFO holds at most stage_queue_mem() bytes of
 * lines in memory; the lines after those go, still in order, to a
 * temporary file in $TMPDIR (removed at once, so nothing is left
 * behind), and come back a block at a time when the lines in memory
 * have been written.  Memory is then bounded by that budget whatever
 * the span of the open record; the disk holds what waits.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "num.h"
#include "stage-int.h"
#include "tsv.h"
#include "xalloc.h"

static char *
scratch(struct stage *st, size_t need)
{
	if (st->linecap < need) {
		st->linecap = need + need / 2;
		st->line = xrealloc(st->line, st->linecap);
	}
	return st->line;
}

/*
 * Append the TABs that bring a line at P + N, which has reached column
 * *NEXT, to the start of column COL.  Most runs are one TAB, or the
 * 15 to 50 empty columns of a derived record: 16 are stored at once (the
 * line has LINE_SLACK spare bytes), longer runs go to memset.
 */
static inline size_t
put_tabs(char *p, size_t n, size_t *next, size_t col)
{
	/* a TAB before each column from *NEXT to COL but the first */
	size_t tabs = col - *next + (*next > 0);

	memcpy(p + n, "\t\t\t\t\t\t\t\t", 8);
	memcpy(p + n + 8, "\t\t\t\t\t\t\t\t", 8);
	if (tabs > 16)
		memset(p + n + 16, '\t', tabs - 16);
	*next = col + 1;
	return n + tabs;
}

/* Append the TABs of the absent columns from NEXT to the last. */
static size_t
put_end(char *p, size_t n, size_t next, size_t ncols)
{
	return next < ncols ? put_tabs(p, n, &next, ncols - 1) : n;
}

/*
 * Build the current record's output line at P, which has room for
 * line_room(): its raw input LINE, with only the fields the stage set
 * replaced, and the added columns after it.
 */
static size_t
current_line(struct stage *st, char *p, const char *line, size_t linelen)
{
	size_t i, n = 0, len, pos = 0, next;

	if (st->nset == 0) {		/* most records: the line as read */
		memcpy(p, line, linelen);
		return put_end(p, linelen, st->nin, st->ncols);
	}
	for (i = 0; st->inset && i < st->nin; i++) {
		const char *f;

		if (!st->isset[i])
			continue;
		f = tsvr_rawfield(st->in, i, &len);
		memcpy(p + n, line + pos, (size_t)(f - line) - pos);
		n += (size_t)(f - line) - pos;
		n += tsv_escape(st->setv[i], st->setl[i], p + n);
		pos = (size_t)(f - line) + len;
	}
	memcpy(p + n, line + pos, linelen - pos);
	n += linelen - pos;
	for (i = next = st->nin; i < st->ncols; i++)
		if (st->isset[i] && st->setl[i] > 0) {
			n = put_tabs(p, n, &next, i);
			n += tsv_escape(st->setv[i], st->setl[i], p + n);
		}
	return put_end(p, n, next, st->ncols);
}

/* Room current_line() may need for a line of LINELEN, slack included. */
static size_t
line_room(const struct stage *st, size_t linelen)
{
	return linelen + 2 * st->setsum + st->ncols - st->nin + LINE_SLACK;
}

/* Check that lines from ts FIRST to LAST may be written now. */
static void
out_order(struct stage *st, int64_t first, int64_t last)
{
	if (first < st->last_out)
		diag_err(EXIT_BAD, "internal error: record at ts_ns %" PRId64
		    " written after %" PRId64, first, st->last_out);
	st->last_out = last;
}

/*
 * Room for a line of LEN bytes and its newline in the writer's buffer,
 * where the line is built in place: most lines are written as soon as
 * they are made, and a copy through a buffer of our own would cost as
 * much again as building them.
 */
static char *
out_reserve(struct stage *st, struct okey key, size_t len)
{
	out_order(st, key.ts, key.ts);
	return tsvw_reserve(st->out, len + 1);
}

/* End the line of LEN bytes built at P, from out_reserve(). */
static void
out_commit(struct stage *st, char *p, size_t len)
{
	p[len] = '\n';
	tsvw_commit(st->out, len + 1);
}

static void
write_line(struct stage *st, struct okey key, const char *line, size_t len)
{
	char *p = out_reserve(st, key, len);

	memcpy(p, line, len);
	out_commit(st, p, len);
}

/* ---- spill ---- */

#define SPILL_BLOCK	(1 << 20)	/* bytes written or read at once */

/* The header of a line in the spill file. */
struct spillhdr {
	int64_t		 ts;
	uint64_t	 seq;
	uint64_t	 len;
};

/*
 * Bytes of lines a FIFO keeps in memory before it spills: 32 MiB, or
 * PROF_QUEUE_MEMORY (bytes, with a K, M or G suffix) for tests and for
 * machines that want another bound.
 */
size_t
stage_queue_mem(void)
{
	static size_t mem;
	const char *e;
	char *end;
	unsigned long long v;

	if (mem != 0)
		return mem;
	mem = (size_t)32 << 20;
	if ((e = getenv("PROF_QUEUE_MEMORY")) != NULL && *e != '\0') {
		errno = 0;
		v = strtoull(e, &end, 10);
		if (*end == 'K' || *end == 'k')
			v <<= 10, end++;
		else if (*end == 'M' || *end == 'm')
			v <<= 20, end++;
		else if (*end == 'G' || *end == 'g')
			v <<= 30, end++;
		if (errno != 0 || *end != '\0' || v == 0)
			diag_err(EXIT_USAGE, "PROF_QUEUE_MEMORY: '%s' is not "
			    "a size in bytes (K, M, G)", e);
		mem = (size_t)v;
	}
	return mem;
}

/* Where the spill file goes: $TMPDIR, else /tmp. */
static const char *
spill_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir != NULL && *dir != '\0' ? dir : "/tmp";
}

static void
spill_fail(const char *what)
{
	diag_err(EXIT_BAD, "cannot %s the output queue's temporary file in "
	    "%s: %s", what, spill_dir(), strerror(errno));
}

static void
spill_open(struct fifo *f)
{
	const char *dir = spill_dir();
	char *path;
	size_t n;

	n = strlen(dir) + sizeof("/prof-queue.XXXXXX");
	path = xmalloc(n);
	(void)snprintf(path, n, "%s/prof-queue.XXXXXX", dir);
	if ((f->sfd = mkstemp(path)) == -1)
		spill_fail("make");
	(void)unlink(path);
	free(path);
	f->has_sfd = 1;
	f->wbuf = xmalloc(SPILL_BLOCK);
}

/* Write the buffered lines to the file. */
static void
spill_flush(struct fifo *f)
{
	size_t off = 0;
	ssize_t w;

	while (off < f->wlen) {
		w = pwrite(f->sfd, f->wbuf + off, f->wlen - off,
		    f->swoff + (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			spill_fail("write");
		off += (size_t)w;
	}
	f->swoff += (off_t)f->wlen;
	f->wlen = 0;
}

/* Send a line of LEN bytes at P, with KEY, to the file. */
static void
spill_line(struct fifo *f, struct okey key, const char *p, size_t len)
{
	struct spillhdr h = { key.ts, key.seq, len };

	if (!f->has_sfd)
		spill_open(f);
	if (f->wlen + sizeof(h) + len > SPILL_BLOCK)
		spill_flush(f);
	if (sizeof(h) + len > SPILL_BLOCK) {
		/* A line longer than the block goes straight to the file. */
		memcpy(f->wbuf, &h, sizeof(h));
		f->wlen = sizeof(h);
		spill_flush(f);
		while (len > 0) {
			size_t k = len < SPILL_BLOCK ? len : SPILL_BLOCK;

			memcpy(f->wbuf, p, k);
			f->wlen = k;
			spill_flush(f);
			p += k;
			len -= k;
		}
	} else {
		memcpy(f->wbuf + f->wlen, &h, sizeof(h));
		memcpy(f->wbuf + f->wlen + sizeof(h), p, len);
		f->wlen += sizeof(h) + len;
	}
	f->nspill++;
}

/* Read exactly LEN bytes at OFF of the file into P. */
static void
spill_read(struct fifo *f, char *p, size_t len, off_t off)
{
	ssize_t r;

	while (len > 0) {
		r = pread(f->sfd, p, len, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			spill_fail(r == 0 ? "read back (it was cut short)" :
			    "read back");
		p += r;
		off += r;
		len -= (size_t)r;
	}
}

static char	*fifo_reserve(struct fifo *, size_t);
static void	 fifo_keep(struct fifo *, struct okey, size_t);

/*
 * Bring lines back from the file, a block's worth, once the lines in
 * memory are all written.  The file is emptied when all are back, and
 * new lines go to memory again.
 */
static void
spill_refill(struct fifo *f)
{
	struct spillhdr h;
	size_t blk, off = 0, need;
	char *rbuf, *p;

	spill_flush(f);
	/* A block of the file, and the whole lines in it. */
	blk = (size_t)(f->swoff - f->sroff);
	if (blk > 4 * SPILL_BLOCK)
		blk = 4 * SPILL_BLOCK;
	rbuf = xmalloc(blk);
	spill_read(f, rbuf, blk, f->sroff);
	while (f->nspill > 0) {
		if (blk - off < sizeof(h))
			break;
		memcpy(&h, rbuf + off, sizeof(h));
		need = sizeof(h) + (size_t)h.len;
		p = fifo_reserve(f, (size_t)h.len);
		if (blk - off >= need)
			memcpy(p, rbuf + off + sizeof(h), (size_t)h.len);
		else if (off == 0)	/* a line longer than the block */
			spill_read(f, p, (size_t)h.len, f->sroff +
			    (off_t)sizeof(h));
		else
			break;
		fifo_keep(f, (struct okey){ h.ts, h.seq }, (size_t)h.len);
		off += need;
		f->nspill--;
		if (off > blk)		/* the long line read on its own */
			break;
	}
	f->sroff += (off_t)off;
	free(rbuf);
	if (f->nspill == 0) {
		f->spilling = 0;
		f->swoff = f->sroff = 0;
		if (ftruncate(f->sfd, 0) == -1)
			spill_fail("empty");
	}
}

/* Whether F holds no line, in memory or in its file. */
static int
fifo_empty(const struct fifo *f)
{
	return f->qhead == f->qlen && f->nspill == 0;
}

/* The head of F in memory, when it is in the file (drain_queue()). */
static void
fifo_head(struct fifo *f)
{
	if (f->qhead == f->qlen && f->nspill > 0)
		spill_refill(f);
}

/* Room for LEN bytes at the end of F's buffer. */
static char *
fifo_reserve(struct fifo *f, size_t len)
{
	if (f->head > 0 && f->head >= f->len / 2) {
		memmove(f->buf, f->buf + f->head, f->len - f->head);
		f->len -= f->head;
		for (size_t i = f->qhead; i < f->qlen; i++)
			f->q[i].off -= f->head;
		f->head = 0;
	}
	if (f->qhead > 0 && f->qhead >= f->qlen / 2) {
		memmove(f->q, f->q + f->qhead,
		    (f->qlen - f->qhead) * sizeof(*f->q));
		f->qlen -= f->qhead;
		f->qhead = 0;
	}
	if (f->len + len > f->cap) {
		f->cap = (f->len + len) * 2;
		f->buf = xrealloc(f->buf, f->cap);
	}
	return f->buf + f->len;
}

/* Keep the LEN bytes built at fifo_reserve()'s room in memory. */
static void
fifo_keep(struct fifo *f, struct okey key, size_t len)
{
	if (f->qlen == f->qcap) {
		f->qcap = f->qcap ? 2 * f->qcap : 1024;
		f->q = xreallocarray(f->q, f->qcap, sizeof(*f->q));
	}
	f->q[f->qlen].key = key;
	f->q[f->qlen].off = f->len;
	f->q[f->qlen].len = len;
	f->qlen++;
	f->len += len;
}

/*
 * Queue the LEN bytes built at fifo_reserve()'s room as a line: in
 * memory, or in the file once memory holds stage_queue_mem() bytes of lines
 * (and until the file is empty again: the lines stay in order).
 */
static void
fifo_commit(struct fifo *f, struct okey key, size_t len)
{
	if (!f->spilling && f->len - f->head + len > stage_queue_mem() &&
	    f->qlen > f->qhead)
		f->spilling = 1;
	if (f->spilling)
		spill_line(f, key, f->buf + f->len, len);
	else
		fifo_keep(f, key, len);
	f->last = key;
}

/*
 * Write F's lines before entry END and drop them: they lie one after the
 * other, and a stage often lets a long run go at once (a busy segment
 * or a gap ends), so they go in one copy.
 */
static void
fifo_write(struct stage *st, struct fifo *f, size_t end)
{
	const struct fent *a = &f->q[f->qhead], *z = &f->q[end - 1];

	out_order(st, a->key.ts, z->key.ts);
	tsvw_write(st->out, f->buf + a->off, z->off + z->len - a->off);
	st->nqueued -= end - f->qhead;
	f->head = z->off + z->len;
	f->qhead = end;
	if (f->qhead == f->qlen)
		f->qhead = f->qlen = f->head = f->len = 0;
}

static void
fifo_free(struct fifo *f)
{
	free(f->buf);
	free(f->q);
	free(f->wbuf);
	if (f->has_sfd)
		(void)close(f->sfd);
}

static void
heap_push(struct stage *st, struct okey key, char *line, size_t len)
{
	size_t i, p;
	struct hent e = { key, line, len };

	if (st->nheap == st->heapcap) {
		st->heapcap = st->heapcap ? 2 * st->heapcap : 64;
		st->heap = xreallocarray(st->heap, st->heapcap,
		    sizeof(*st->heap));
	}
	for (i = st->nheap++; i > 0; i = p) {
		p = (i - 1) / 2;
		if (!key_lt(key, st->heap[p].key))
			break;
		st->heap[i] = st->heap[p];
	}
	st->heap[i] = e;
}

static struct hent
heap_pop(struct stage *st)
{
	struct hent top = st->heap[0], last = st->heap[--st->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < st->nheap) {
		if (c + 1 < st->nheap && key_lt(st->heap[c + 1].key,
		    st->heap[c].key))
			c++;
		if (!key_lt(st->heap[c].key, last.key))
			break;
		st->heap[i] = st->heap[c];
		i = c;
	}
	if (st->nheap > 0)
		st->heap[i] = last;
	return top;
}

/*
 * The open records form a min-heap by key, so that the oldest is found
 * at once: a stage may hold tens of thousands (prof-layers keeps every
 * kernel of an open pass), and a scan per written record would make
 * that quadratic.
 */
static void
open_swap(struct stage *st, size_t i, size_t j)
{
	struct srec *t = st->open[i];

	st->open[i] = st->open[j];
	st->open[j] = t;
	st->open[i]->open_slot = i;
	st->open[j]->open_slot = j;
}

/* Move the record at slot I up while it sorts before its parent. */
static size_t
open_up(struct stage *st, size_t i)
{
	while (i > 0 && key_lt(st->open[i]->key,
	    st->open[(i - 1) / 2]->key)) {
		open_swap(st, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return i;
}

/* Restore the heap order around slot I after its key changed. */
static void
open_fix(struct stage *st, size_t i)
{
	size_t c;

	for (i = open_up(st, i);;) {
		c = 2 * i + 1;
		if (c >= st->nopen)
			break;
		if (c + 1 < st->nopen && key_lt(st->open[c + 1]->key,
		    st->open[c]->key))
			c++;
		if (!key_lt(st->open[c]->key, st->open[i]->key))
			break;
		open_swap(st, i, c);
		i = c;
	}
}

/* The smallest key of a record still open, if any. */
static int
open_limit(const struct stage *st, struct okey *lim)
{
	if (st->nopen == 0)
		return 0;
	*lim = st->open[0]->key;
	return 1;
}

/* Lower *BOUND (set when *BOUNDED) to KEY. */
static void
tighten(struct okey *bound, int *bounded, struct okey key)
{
	if (!*bounded || key_lt(key, *bound)) {
		*bound = key;
		*bounded = 1;
	}
}

/*
 * Write every queued record that sorts before the oldest open one,
 * smallest first.  Lines from a FIFO go in runs: all that sort before
 * the other parts' heads and the limit at once.
 */
static void
drain_queue(struct stage *st)
{
	struct okey lim = { 0, 0 };
	int limited = open_limit(st, &lim);

	for (;;) {
		struct fifo *f = NULL, *g;
		struct okey bound = lim;	/* what a run must sort before */
		int bounded = limited;
		size_t i, end;

		/* F: the FIFO with the smallest head; the other bounds */
		for (i = 0; i < 2; i++) {
			g = i == 0 ? &st->passed : &st->put;
			fifo_head(g);
			if (fifo_empty(g))
				continue;
			if (f == NULL || key_lt(g->q[g->qhead].key,
			    f->q[f->qhead].key)) {
				if (f != NULL)
					tighten(&bound, &bounded,
					    f->q[f->qhead].key);
				f = g;
			} else
				tighten(&bound, &bounded, g->q[g->qhead].key);
		}
		if (st->nheap > 0) {
			if (f == NULL || key_lt(st->heap[0].key,
			    f->q[f->qhead].key)) {
				struct hent h;

				if (limited && !key_lt(st->heap[0].key, lim))
					return;
				h = heap_pop(st);
				write_line(st, h.key, h.line, h.len);
				free(h.line);
				st->nqueued--;
				continue;
			}
			tighten(&bound, &bounded, st->heap[0].key);
		}
		if (f == NULL)
			return;
		for (end = f->qhead; end < f->qlen && (!bounded ||
		    key_lt(f->q[end].key, bound)); end++)
			;
		if (end == f->qhead)		/* its head is past the limit */
			return;
		fifo_write(st, f, end);
	}
}

/*
 * drain_queue(), when anything is queued: most calls, two for each
 * record put, find the queue empty.
 */
static void
drain(struct stage *st)
{
	if (st->nqueued > 0)
		drain_queue(st);
}

void
stage_pass(struct stage *st)
{
	struct okey key = { st->ts, st->cur_seq };
	size_t linelen, n;
	const char *line = tsvr_line(st->in, &linelen);
	char *p;

	if (st->nopen == 0 && st->nqueued == 0) {
		p = out_reserve(st, key, line_room(st, linelen));
		out_commit(st, p, current_line(st, p, line, linelen));
		return;
	}
	p = fifo_reserve(&st->passed, line_room(st, linelen));
	n = current_line(st, p, line, linelen);
	p[n] = '\n';
	fifo_commit(&st->passed, key, n + 1);
	st->nqueued++;
	drain(st);
}

/* ---- records written later ---- */

static struct srec *
srec_alloc(struct stage *st, struct okey key)
{
	struct srec *r = st->free_recs;
	size_t i;
	int discard = 0;

	/*
	 * After a damaged record the input has ended early, and a stage
	 * that looked ahead (prof-steps reads its input twice) may open a
	 * record from what lay past the damage, before what is written:
	 * such a record is not written, as nothing past the damage is.
	 */
	if (key.ts < st->last_out && tsvr_failed(st->in)) {
		key.ts = st->last_out;
		discard = 1;
	} else if (key.ts < st->last_out)
		diag_err(EXIT_BAD, "internal error: record at ts_ns %" PRId64
		    " opened after %" PRId64 " was written", key.ts,
		    st->last_out);
	if (r != NULL)
		st->free_recs = r->next_free;
	else {
		r = xcalloc(1, sizeof(*r));
		r->v = xcalloc(st->ncols, sizeof(*r->v));
		r->set = xcalloc(st->nwords, sizeof(*r->set));
	}
	for (i = 0; i < st->nwords; i++)
		r->set[i] = 0;
	r->blen = r->rawlen = 0;
	r->whole = 0;
	r->key = key;
	r->discard = discard;
	if (st->nopen == st->opencap) {
		st->opencap = st->opencap ? 2 * st->opencap : 16;
		st->open = xreallocarray(st->open, st->opencap,
		    sizeof(*st->open));
	}
	r->st = st;
	r->open_slot = st->nopen;
	st->open[st->nopen++] = r;
	open_up(st, r->open_slot);	/* a new leaf only ever moves up */
	return r;
}

/*
 * Make the next LEN bytes at the end of R's buffer, and a NUL after
 * them, column COL's value (PLAIN: they need no escape); returns where
 * the caller is to copy them.  All else is stored first, so that nothing
 * has to be loaded again after the copy, which may alias any of it.
 */
/*
 * The input columns' values of R kept whole, found in its line: the
 * TABs become NULs, as in a record kept by fields, which srec_line()
 * puts back.
 */
static void
keep_split(struct srec *r)
{
	size_t i = 0, k, nin = r->st->nin, start = 0;
	char *buf = r->buf;
	struct sval *v = r->v;

	/* one pass: a call to memchr per value costs more than the bytes */
	for (k = 0; k < r->rawlen; k++)
		if (buf[k] == '\t') {
			v[i].off = start;
			v[i].len = k - start;
			v[i++].plain = 0;
			buf[k] = '\0';
			start = k + 1;
		}
	v[i].off = start;
	v[i].len = r->rawlen - start;
	v[i].plain = 0;
	/* this stage reads what it keeps: keep by values from now on */
	r->st->keep_values = 1;
	for (i = 0; i < nin / 64; i++)
		r->set[i] = ~(uint64_t)0;
	if (nin % 64 != 0)
		r->set[nin / 64] |= ((uint64_t)1 << (nin % 64)) - 1;
	r->whole = 0;
}

static char *
value_at(struct srec *r, int col, size_t len, int plain)
{
	size_t off = r->blen;
	struct sval *v = &r->v[col];
	char *d;

	if ((size_t)col < r->st->nin && r->whole)
		keep_split(r);
	if ((size_t)col < r->st->nin)
		r->rawlen = 0;
	if (off + len + 1 > r->bcap) {
		r->bcap = 2 * (off + len + 1) + 64;
		r->buf = xrealloc(r->buf, r->bcap);
	}
	v->off = off;
	v->len = len;
	v->plain = plain;
	r->set[col / 64] |= (uint64_t)1 << (col % 64);
	r->blen = off + len + 1;
	d = r->buf + off;
	d[len] = '\0';
	return d;
}

void
srec_set(struct srec *r, int col, const char *s, size_t len)
{
	tsv_copy(value_at(r, col, len, 0), s, len);
}

void
srec_set_str(struct srec *r, int col, const char *s)
{
	srec_set(r, col, s, strlen(s));
}

void
srec_set_i64(struct srec *r, int col, int64_t v)
{
	char buf[TSV_I64_MAX];
	size_t len = tsv_i64(buf, v);

	tsv_copy(value_at(r, col, len, 1), buf, len);	/* digits: plain */
	if (col == COL_TS && r->key.ts != v && !r->discard) {
		r->key.ts = v;
		open_fix(r->st, r->open_slot);
	}
}

const char *
srec_get(const struct srec *r, int col, size_t *len)
{
	const struct sval *v = &r->v[col];

	/* the values are found in the kept line: R's content is the same */
	if (r->whole && (size_t)col < r->st->nin)
		keep_split((struct srec *)r);
	int empty = !(r->set[col / 64] >> (col % 64) & 1);

	if (len != NULL)
		*len = empty ? 0 : v->len;
	return empty ? "" : r->buf + v->off;
}

int64_t
srec_ts(const struct srec *r)
{
	return r->key.ts;
}

/*
 * Take the current record's input columns in one copy of the reader's
 * decoded line (its values NUL-terminated at their raw offsets) rather
 * than value by value: prof-layers keeps nearly every kernel, and Ascend
 * kernel records run to a kilobyte.
 */
static void
keep_input(struct stage *st, struct srec *r)
{
	const size_t *lens;
	char *const *fld = tsvr_fields(st->in, &lens);
	const char *base = fld[0];
	size_t i, linelen, sum = 0, nin = st->nin;
	struct sval *v = r->v;

	tsvr_line(st->in, &linelen);
	if (r->bcap < linelen + 1) {
		/* room for the columns the stage adds, not twice the line */
		r->bcap = linelen + 1 + linelen / 4 + 64;
		r->buf = xrealloc(r->buf, r->bcap);
	}
	memcpy(r->buf, base, linelen + 1);
	r->blen = linelen + 1;
	for (i = 0; i < nin; i++) {
		v[i].off = (size_t)(fld[i] - base);
		v[i].len = lens[i];
		v[i].plain = 0;
		sum += lens[i];
	}
	for (i = 0; i < nin / 64; i++)
		r->set[i] = ~(uint64_t)0;
	if (nin % 64 != 0)
		r->set[nin / 64] |= ((uint64_t)1 << (nin % 64)) - 1;
	/* unescaping shortens a value: equal lengths mean no escape */
	if (sum + nin - 1 == linelen)
		r->rawlen = linelen;
}

/*
 * Take the current record's line whole, when it needs no decoding and
 * no input column was set: one copy now and one when it is written.
 * A stage that then reads or sets an input column of what it kept
 * (prof-attrib's bubbles) is one that keeps by values (keep_input())
 * from then on, which finds them all at once from the reader's masks.
 */
static void
keep_whole(struct stage *st, struct srec *r)
{
	size_t linelen;
	const char *line = tsvr_line(st->in, &linelen);

	if (r->bcap < linelen + 1) {
		r->bcap = linelen + 1 + linelen / 4 + 64;
		r->buf = xrealloc(r->buf, r->bcap);
	}
	memcpy(r->buf, line, linelen + 1);
	r->blen = linelen + 1;
	r->rawlen = linelen;
	r->whole = 1;
}

struct srec *
stage_keep(struct stage *st)
{
	struct okey key = { st->ts, st->cur_seq };
	struct srec *r = srec_alloc(st, key);
	size_t i;

	if (st->nin > 0 && !st->inset && !st->keep_values &&
	    tsvr_plain(st->in))
		keep_whole(st, r);
	else if (st->nin > 0)
		keep_input(st, r);
	for (i = 0; st->nset > 0 && i < st->ncols; i++) {
		if (!st->isset[i])
			continue;
		if (st->setl[i] > 0)
			srec_set(r, (int)i, st->setv[i], st->setl[i]);
		else if (i < st->nin) {	/* added ones are empty yet */
			r->rawlen = 0;
			r->set[i / 64] &= ~((uint64_t)1 << (i % 64));
		}
	}
	return r;
}

struct srec *
stage_new(struct stage *st, const char *kind, int64_t ts)
{
	struct okey key = { ts, ++st->seq };
	struct srec *r = srec_alloc(st, key);
	size_t len;
	const char *t;

	srec_set_str(r, COL_KIND, kind);
	if (ts == STAGE_NO_TS)
		return r;
	/*
	 * A record mostly opens where the current one starts (a busy
	 * segment at its first kernel): take the ts_ns text as read when
	 * it is what tsv_i64() would write, digits with no leading zero.
	 */
	if (st->incur && ts == st->ts) {
		t = tsvr_field(st->in, COL_TS, &len);
		if (len == 1 || (t[0] >= '1' && t[0] <= '9')) {
			tsv_copy(value_at(r, COL_TS, len, 1), t, len);
			return r;
		}
	}
	srec_set_i64(r, COL_TS, ts);
	return r;
}

static void
unopen(struct stage *st, struct srec *r)
{
	size_t i = r->open_slot;

	st->open[i] = st->open[--st->nopen];
	st->open[i]->open_slot = i;
	if (i < st->nopen)
		open_fix(st, i);
	r->next_free = st->free_recs;
	st->free_recs = r;
}

/* Append value COL of R, escaped unless known plain, at P + N. */
static inline size_t
put_value(const struct srec *r, size_t col, char *p, size_t n)
{
	const struct sval *v = &r->v[col];

	if (v->plain) {
		tsv_copy(p + n, r->buf + v->off, v->len);
		return n + v->len;
	}
	return n + tsv_escape(r->buf + v->off, v->len, p + n);
}

/*
 * Build R's line at P, which has room for srec_room(R).  Only the
 * values set are visited, found by their bits (a kept record's input
 * part is mostly its raw line); the runs of absent columns between them
 * are TABs.
 */
static size_t
srec_line(const struct stage *st, const struct srec *r, char *p)
{
	size_t i, w, n = 0, next = 0, from;
	uint64_t bits;

	if (r->rawlen > 0) {
		/* the input columns as read: put the TABs back */
		memcpy(p, r->buf, r->rawlen);
		/* each value but the first starts after a TAB */
		for (i = 1; !r->whole && i < st->nin; i++)
			p[r->v[i].off - 1] = '\t';
		n = r->rawlen;
		next = st->nin;
	}
	from = next;
	for (w = from / 64; w < st->nwords; w++) {
		bits = r->set[w];
		if (w == from / 64)
			bits &= ~(uint64_t)0 << (from % 64);
		for (; bits != 0; bits &= bits - 1) {
			size_t c = w * 64 + (size_t)__builtin_ctzll(bits);

			if (r->v[c].len == 0)
				continue;
			n = put_tabs(p, n, &next, c);
			n = put_value(r, c, p, n);
		}
	}
	return put_end(p, n, next, st->ncols);
}

/*
 * Room srec_line() may need: the values, every one escaped at worst,
 * live in buf, with room to spare for a value set twice.
 */
static size_t
srec_room(const struct stage *st, const struct srec *r)
{
	return 2 * r->blen + st->ncols + LINE_SLACK;
}

void
stage_put(struct stage *st, struct srec *r)
{
	size_t n;
	char *line;

	if (r->discard) {
		stage_drop(st, r);
		return;
	}
	/* A ts changed after opening may not move the record backwards. */
	if (r->key.ts < st->last_out)
		diag_err(EXIT_BAD, "internal error: record at ts_ns %" PRId64
		    " put after %" PRId64 " was written", r->key.ts,
		    st->last_out);
	/*
	 * Once what sorts before the oldest open record is written, that
	 * record, if it is R, goes out at once: prof-layers puts the
	 * kernels it holds in their order, and the heap would only delay
	 * each by a copy.
	 */
	drain(st);
	if (st->open[0] == r) {
		line = out_reserve(st, r->key, srec_room(st, r));
		out_commit(st, line, srec_line(st, r, line));
		unopen(st, r);
		drain(st);
		return;
	}
	/*
	 * R waits for an older open record; nothing more can be written
	 * until that one is put.  In order after the put records queued,
	 * it goes to their FIFO: no heap, no malloc.
	 */
	if (fifo_empty(&st->put) || !key_lt(r->key, st->put.last)) {
		line = fifo_reserve(&st->put, srec_room(st, r));
		n = srec_line(st, r, line);
		line[n] = '\n';
		fifo_commit(&st->put, r->key, n + 1);
	} else {
		n = srec_line(st, r, scratch(st, srec_room(st, r)));
		line = xmalloc(n + 1);
		memcpy(line, st->line, n);
		heap_push(st, r->key, line, n);
	}
	st->nqueued++;
	unopen(st, r);
}

void
stage_drop(struct stage *st, struct srec *r)
{
	unopen(st, r);
	drain(st);
}

/*
 * NUM / DEN with PLACES decimals in BUF (NUM_BUFSIZE bytes): its length,
 * or 0 when DEN is not positive and the field stays as it is.
 */
static size_t
quot_text(char *buf, __int128 num, __int128 den, int places)
{
	return den > 0 ? num_ratio_i128(buf, num, den, places) : 0;
}

void
srec_set_quot(struct srec *r, int col, __int128 num, __int128 den,
    int places)
{
	char buf[NUM_BUFSIZE];
	size_t n = quot_text(buf, num, den, places);

	if (n > 0)
		srec_set(r, col, buf, n);
}

void
stage_set_quot(struct stage *st, int col, __int128 num, __int128 den,
    int places)
{
	char buf[NUM_BUFSIZE];
	size_t n = quot_text(buf, num, den, places);

	if (n > 0)
		stage_set(st, col, buf, n);
}

void
srec_set_ratio(struct srec *r, int col, __int128 num, __int128 den)
{
	srec_set_quot(r, col, num, den, 6);
}

void
stage_set_ratio(struct stage *st, int col, __int128 num, __int128 den)
{
	stage_set_quot(st, col, num, den, 6);
}

void
stage_tag_add(char *buf, size_t cap, const char *tag)
{
	size_t n = strlen(buf), len = strlen(tag);

	if (n + len + 2 > cap)
		return;
	if (n > 0)
		buf[n++] = ',';
	memcpy(buf + n, tag, len + 1);
}

int
stage_tag_has(const char *tags, size_t len, const char *tag)
{
	size_t tl = strlen(tag), i = 0, j;

	while (i < len) {
		for (j = i; j < len && tags[j] != ','; j++)
			continue;
		if (j - i == tl && memcmp(tags + i, tag, tl) == 0)
			return 1;
		i = j + 1;
	}
	return 0;
}

void
srec_tag_add(struct srec *r, int col, const char *tag)
{
	size_t n, len = strlen(tag);
	const char *old = srec_get(r, col, &n);
	char *buf = xmalloc(n + len + 2);

	memcpy(buf, old, n);
	if (n > 0)
		buf[n++] = ',';
	memcpy(buf + n, tag, len);
	srec_set(r, col, buf, n + len);
	free(buf);
}

void
stage_out_close(struct stage *st)
{
	if (st->nopen > 0)
		diag_err(EXIT_BAD, "internal error: %zu records still open at "
		    "the end of the input", st->nopen);
	drain(st);
	fifo_free(&st->passed);
	fifo_free(&st->put);
	free(st->heap);
	free(st->open);
	while (st->free_recs != NULL) {
		struct srec *r = st->free_recs;

		st->free_recs = r->next_free;
		free(r->buf);
		free(r->v);
		free(r->set);
		free(r);
	}
	free(st->line);
}
