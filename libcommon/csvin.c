/*
 * CSV front end over libcsv 3.0.3 (see csvin.h).
 *
 * libcsv does not report where a row starts: it skips blank lines and a
 * quoted field may hold newlines.  So the input is handed to csv_parse
 * one physical line at a time; the line counter then always names the
 * line being parsed, and a row starts on the first non-blank line fed
 * after the previous row ended.  Rows finished while parsing a line go
 * to a small queue that csvin_next drains; their fields are copied into
 * one growing text buffer, indexed by (offset, length) pairs, so a field
 * costs a memcpy and no allocation.
 *
 * Limits: libcsv's own field buffer grows through csvin_realloc, which
 * refuses to go past the field cap; a row is capped at four times that
 * (at least 1 MiB), counting 16 bytes of index per field, so neither a
 * runaway quote nor a row of a million empty fields can exhaust memory.
 * A lone CR ends a row for libcsv but not a line here, so files with
 * CR-only line ends report every row on line 1.
 */
#include <config.h>

#include <csv.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvin.h"
#include "diag.h"
#include "xalloc.h"

#define CSVIN_BLOCK	(64 * 1024)		/* bytes read at a time */
#define CSVIN_DEFCAP	(16 * 1024 * 1024)	/* default field cap */
#define CSVIN_MINROW	(1024 * 1024)		/* smallest row cap */

/* A field of the text buffer, and a finished row of fields. */
struct csvin_fld {
	size_t		 off;
	size_t		 len;
};

/* A field of the line csvin_fast_line cuts: its bytes in the block. */
struct csvin_span {
	char		*b, *e;
	int		 esc;		/* quoted, with "" in it */
};

struct csvin_row {
	size_t		 first;		/* index in fld */
	size_t		 nf;
	unsigned long	 line;
	uint64_t	 off;		/* of its first byte, or CSVIN_NOOFF */
	int		 cut;		/* ended by the end of the file */
};

/* A row whose first byte is not known exactly (csvin_row_offset()). */
#define CSVIN_NOOFF	UINT64_MAX

enum csvin_state {
	CS_OK,		/* more input may follow */
	CS_EOF,		/* csv_fini done: only queued rows remain */
	CS_ERR,		/* an error waits to be reported after the queue */
	CS_DEAD		/* the error was reported */
};

struct csvin {
	struct input	*in;		/* or NULL: part of a file */
	int		 pfd;		/* the part: the file, */
	uint64_t	 ppos, pend;	/* the next byte read, the end */
	char		*where;
	struct csv_parser p;
	size_t		 maxfield;
	size_t		 maxrow;
	enum csvin_state state;
	int		 bomdone;
	char		*ib;		/* input block */
	size_t		 ipos, ilen;
	uint64_t	 base;		/* bytes read before ib[0] */
	size_t		 nul;		/* offset of the block's first NUL
					   byte, or ilen */
	unsigned long	 line;		/* physical line being fed */
	size_t		 col;		/* bytes of that line already fed */
	int		 inrow;		/* a row has begun, not yet ended */
	unsigned long	 rowline;	/* where it began */
	uint64_t	 rowoff;	/* its first byte */
	size_t		 rowfirst;	/* its first field in fld */
	size_t		 rowbytes;	/* its cost against maxrow */
	int		 toolong;
	char		*buf;		/* field text, each NUL-terminated */
	size_t		 blen, bcap;
	struct csvin_fld *fld;
	size_t		 nfld, fcap;
	struct csvin_row *row;		/* queue of finished rows */
	size_t		 nrow, rcap, rnext;
	struct csvin_row cur;		/* the row csvin_next returned */
	char		 errmsg[128];
	unsigned long	 errline, errcol;
	int		 header_done;	/* csvin_next returned the header */
	struct csvin_span *fs;		/* csvin_fast_line's fields */
	size_t		 fscap;
	int		 fast;		/* cur is fs[], not a queued row */
	char		*hbuf;		/* header names */
	char		**hname;
	size_t		 ncols;
};

/*
 * libcsv's realloc hook has no user pointer, so the cap of the parser
 * being fed is set here before each csv_parse, per thread.
 */
static _Thread_local size_t	 csvin_fieldcap = CSVIN_DEFCAP;
static _Thread_local int	 csvin_capped;

/*
 * Refuse to grow libcsv's field buffer beyond the cap; libcsv then retries
 * smaller steps and ends with CSV_ENOMEM, reported as a field that is too
 * large.  The 2 spare bytes are the NUL of CSV_APPEND_NULL and the byte
 * after a full field, before which libcsv already asks for more room.
 */
static void *
csvin_realloc(void *p, size_t n)
{
	if (n > csvin_fieldcap + 2) {
		csvin_capped = 1;
		return NULL;
	}
	return realloc(p, n);
}

/* Make room for N more bytes of field text. */
static void
csvin_bufroom(struct csvin *c, size_t n)
{
	size_t cap;

	if (c->bcap - c->blen > n)
		return;
	cap = c->bcap ? c->bcap : 4096;
	while (cap - c->blen <= n)
		cap *= 2;
	c->buf = xrealloc(c->buf, cap);
	c->bcap = cap;
}

/* libcsv callback: a field ended; append it to the row being built. */
static void
csvin_cb_field(void *s, size_t len, void *data)
{
	struct csvin *c = data;
	size_t cost = len + 1 + sizeof(struct csvin_fld), i;
	char *d;

	if (c->toolong)
		return;
	if (!c->inrow) {
		c->inrow = 1;
		c->rowline = c->line;
		c->rowoff = CSVIN_NOOFF;
	}
	if (c->rowbytes + cost > c->maxrow) {
		c->toolong = 1;
		return;
	}
	c->rowbytes += cost;
	csvin_bufroom(c, len);
	d = c->buf + c->blen;
	if (len <= 16) {
		/* Most fields are short numbers: avoid memcpy's call. */
		for (i = 0; i < len; i++)
			d[i] = ((const char *)s)[i];
	} else
		memcpy(d, s, len);
	d[len] = '\0';
	if (c->nfld == c->fcap) {
		c->fcap = c->fcap ? c->fcap * 2 : 64;
		c->fld = xreallocarray(c->fld, c->fcap, sizeof(*c->fld));
	}
	c->fld[c->nfld].off = c->blen;
	c->fld[c->nfld].len = len;
	c->nfld++;
	c->blen += len + 1;
}

/* libcsv callback: a row ended; queue it. */
static void
csvin_cb_row(int term, void *data)
{
	struct csvin *c = data;

	if (c->toolong)
		return;
	if (c->nrow == c->rcap) {
		c->rcap = c->rcap ? c->rcap * 2 : 8;
		c->row = xreallocarray(c->row, c->rcap, sizeof(*c->row));
	}
	c->row[c->nrow].first = c->rowfirst;
	c->row[c->nrow].nf = c->nfld - c->rowfirst;
	c->row[c->nrow].line = c->inrow ? c->rowline : c->line;
	c->row[c->nrow].off = c->inrow ? c->rowoff : CSVIN_NOOFF;
	/* csv_fini's row (-1) had no line end: the file stops inside it. */
	c->row[c->nrow].cut = term == -1;
	c->nrow++;
	c->rowfirst = c->nfld;
	c->rowbytes = 0;
	c->inrow = 0;
}

/* Record an error to report once the rows queued before it are read. */
static void
csvin_seterr(struct csvin *c, unsigned long line, unsigned long col,
    const char *msg)
{
	snprintf(c->errmsg, sizeof(c->errmsg), "%s", msg);
	c->errline = line;
	c->errcol = col;
	c->state = CS_ERR;
}

/*
 * Turn libcsv's status after feeding S (DONE of its LEN bytes consumed)
 * into a message with the line and, for bad quoting, the column.
 */
static void
csvin_parse_error(struct csvin *c, const char *s, size_t done, size_t len)
{
	char msg[96];

	if (c->toolong) {
		snprintf(msg, sizeof(msg), "row larger than %zu bytes",
		    c->maxrow);
		csvin_seterr(c, c->rowline, 0, msg);
		return;
	}
	switch (csv_error(&c->p)) {
	case CSV_EPARSE:
		csvin_seterr(c, c->line, c->col + done + 1,
		    done < len && s[done] == '"' ?
		    "quote inside an unquoted field" :
		    "text after a closing quote");
		break;
	case CSV_ENOMEM:
	case CSV_ETOOBIG:
		if (!csvin_capped && csv_error(&c->p) == CSV_ENOMEM) {
			csvin_seterr(c, c->line, 0, "out of memory");
			break;
		}
		snprintf(msg, sizeof(msg), "field larger than %zu bytes",
		    c->maxfield);
		csvin_seterr(c, c->line, 0, msg);
		break;
	default:
		csvin_seterr(c, c->line, 0, "csv parser error");
		break;
	}
}

/* Whether S holds only what libcsv skips between rows. */
static int
csvin_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
		    s[i] != '\n')
			return 0;
	return 1;
}

/*
 * End of input: flush a last row without a final newline.  Check for an
 * unterminated quote first, since csv_fini resets libcsv's status.
 */
static void
csvin_finish(struct csvin *c)
{
	size_t nrow = c->nrow;

	csvin_fieldcap = c->maxfield;
	csvin_capped = 0;
	if (csv_fini(&c->p, csvin_cb_field, csvin_cb_row, c) != 0) {
		c->nrow = nrow;
		csvin_seterr(c, c->inrow ? c->rowline : c->line, 0,
		    "unterminated quoted field at end of file");
		return;
	}
	if (c->toolong) {
		c->nrow = nrow;
		csvin_parse_error(c, NULL, 0, 0);
		return;
	}
	c->state = CS_EOF;
}

/* Read up to LEN bytes of the part of a file: -1 after a diagnostic. */
static ssize_t
csvin_part_read(struct csvin *c, char *buf, size_t len)
{
	ssize_t n;

	if (len > c->pend - c->ppos)
		len = (size_t)(c->pend - c->ppos);
	do
		n = pread(c->pfd, buf, len, (off_t)c->ppos);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		diag_at(c->where, 0, "read error: %s", strerror(errno));
		return -1;
	}
	c->ppos += (uint64_t)n;
	return n;
}

/*
 * Read the next block.  The first one is read until it holds 3 bytes so
 * that a UTF-8 byte order mark split across reads is still removed.
 */
static void
csvin_fill(struct csvin *c)
{
	ssize_t n;

	c->base += c->ilen;
	c->ipos = c->ilen = 0;
	do {
		n = c->in != NULL ? input_read(c->in, c->ib + c->ilen,
		    CSVIN_BLOCK - c->ilen) : csvin_part_read(c, c->ib + c->ilen,
		    CSVIN_BLOCK - c->ilen);
		if (n < 0) {
			c->state = CS_DEAD;	/* input_read reported it */
			return;
		}
		c->ilen += (size_t)n;
	} while (!c->bomdone && n > 0 && c->ilen < 3);
	if (!c->bomdone) {
		c->bomdone = 1;
		if (c->ilen >= 3 && memcmp(c->ib, "\xEF\xBB\xBF", 3) == 0) {
			c->ipos = 3;
			c->col = 3;
		}
	}
	/*
	 * A NUL byte is no text: libcsv would keep it inside a field, and
	 * the prof-tsv stream cannot carry it (its reader refuses NUL), so
	 * the next stage would fail on a line far from the cause.  One
	 * memchr per block finds it; csvin_feed reports it where it is.
	 */
	c->nul = c->ilen;
	if (c->ilen > 0) {
		const char *z = memchr(c->ib, '\0', c->ilen);

		if (z != NULL)
			c->nul = (size_t)(z - c->ib);
	}
	if (c->ilen == 0)
		csvin_finish(c);
}

/* Trim the spaces and TABs libcsv trims from an unquoted field. */
static void
csvin_trim(char **b, char **e)
{
	while (*b < *e && (**b == ' ' || **b == '\t'))
		(*b)++;
	while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

/*
 * A whole line S of SEG bytes (its LF included) read at the start of a
 * row, the common case, without libcsv: when it has no CR but the one
 * of a CRLF, fits the caps, and each field is unquoted without a quote
 * in it, or quoted from its first byte to the byte before the next
 * comma or the line end, its fields are what libcsv would give (split
 * at commas, unquoted ones trimmed of spaces and TABs, a quoted one's
 * "" made ", one row ended by the line end).  They are cut here with
 * memchr at a fraction of libcsv's byte-at-a-time cost (half of
 * prof-ingest's time on kernel_details.csv).  Anything else (a field
 * that goes on to the next line, text after a closing quote, spaces
 * around a quoted field) returns 0 before a byte is changed and goes to
 * libcsv, whose state, between rows, this does not touch.
 */
static int
csvin_fast_line(struct csvin *c, char *s, size_t seg)
{
	char *end = s + seg - 1, *b, *q, *r;
	size_t nf = 0, cost = 0, i;

	if (end > s && end[-1] == '\r')
		end--;
	if (seg > c->maxfield || memchr(s, '\r', (size_t)(end - s)) != NULL)
		return 0;
	/* First the checks and the fields' bounds, changing nothing. */
	for (b = s; ; b = r + 1) {
		struct csvin_span *f;

		if (nf == c->fscap) {
			c->fscap = c->fscap ? c->fscap * 2 : 64;
			c->fs = xreallocarray(c->fs, c->fscap, sizeof(*c->fs));
		}
		f = &c->fs[nf++];
		f->esc = 0;
		if (b < end && *b == '"') {
			for (q = b + 1; ; q = r + 2) {
				r = memchr(q, '"', (size_t)(end - q));
				if (r == NULL)
					return 0;
				if (r + 1 < end && r[1] == '"')
					f->esc = 1;
				else
					break;
			}
			f->b = b + 1;
			f->e = r++;
			if (r < end && *r != ',')
				return 0;
		} else {
			/* Fields are short: a loop beats two memchr calls. */
			for (r = b; r < end && *r != ','; r++)
				if (*r == '"')
					return 0;
			f->b = b;
			f->e = r;
			csvin_trim(&f->b, &f->e);
		}
		cost += (size_t)(f->e - f->b) + 1 + sizeof(struct csvin_fld);
		if (r == end)
			break;
	}
	if (cost > c->maxrow)
		return 0;
	/*
	 * Then the fields are made NUL-terminated strings where they lie
	 * (the byte after each is its comma, the closing quote, a trimmed
	 * blank or the line end): the row is served from the block, which
	 * stays until the next csvin_next().
	 */
	for (i = 0; i < nf; i++) {
		struct csvin_span *f = &c->fs[i];

		if (f->esc) {		/* "" to ", in place */
			char *d = f->b;

			for (q = f->b; q < f->e; q++) {
				*d++ = *q;
				if (*q == '"')
					q++;
			}
			f->e = d;
		}
		*f->e = '\0';
	}
	c->cur.first = 0;
	c->cur.nf = nf;
	c->cur.line = c->line;
	c->cur.off = c->base + (uint64_t)(s - c->ib);
	c->cur.cut = 0;
	c->fast = 1;
	return 1;
}

/* Feed libcsv the rest of the current physical line in the block. */
static void
csvin_feed(struct csvin *c)
{
	char *s;
	const char *nl;
	size_t n, seg, done;

	if (c->ipos == c->ilen) {
		csvin_fill(c);
		return;
	}
	s = c->ib + c->ipos;
	n = c->ilen - c->ipos;
	nl = memchr(s, '\n', n);
	seg = nl != NULL ? (size_t)(nl - s) + 1 : n;
	if (c->nul < c->ipos + seg) {
		csvin_seterr(c, c->line, c->col + (c->nul - c->ipos) + 1,
		    "NUL byte in CSV text");
		return;
	}
	if (!c->inrow && !csvin_blank(s, seg)) {
		if (nl != NULL && c->col == 0 && csvin_fast_line(c, s, seg)) {
			c->ipos += seg;
			c->line++;
			return;
		}
		c->inrow = 1;
		c->rowline = c->line;
		c->rowoff = c->col == 0 ? c->base + c->ipos : CSVIN_NOOFF;
	}
	csvin_fieldcap = c->maxfield;
	csvin_capped = 0;
	done = csv_parse(&c->p, s, seg, csvin_cb_field, csvin_cb_row, c);
	if (done < seg || csv_error(&c->p) != CSV_SUCCESS || c->toolong) {
		csvin_parse_error(c, s, done, seg);
		return;
	}
	c->ipos += seg;
	if (nl != NULL) {
		c->line++;
		c->col = 0;
	} else
		c->col += seg;
}

/*
 * Once the queue is drained, move the fields of the row still being
 * built to the front of the buffers, so they stay as small as a row.
 */
static void
csvin_compact(struct csvin *c)
{
	size_t i, nf, base;

	nf = c->nfld - c->rowfirst;
	base = nf > 0 ? c->fld[c->rowfirst].off : c->blen;
	if (nf > 0 && c->rowfirst > 0) {
		memmove(c->fld, c->fld + c->rowfirst, nf * sizeof(*c->fld));
		for (i = 0; i < nf; i++)
			c->fld[i].off -= base;
	}
	if (base > 0 && c->blen > base)
		memmove(c->buf, c->buf + base, c->blen - base);
	c->blen -= base;
	c->nfld = nf;
	c->rowfirst = 0;
	c->nrow = c->rnext = 0;
}

/* Report a pending error once; every later call fails too. */
static int
csvin_fail(struct csvin *c)
{
	if (c->state == CS_ERR) {
		if (c->errcol > 0)
			diag_atcol(c->where, c->errline, c->errcol, "%s",
			    c->errmsg);
		else
			diag_at(c->where, c->errline, "%s", c->errmsg);
		c->state = CS_DEAD;
	}
	return -1;
}

int
csvin_next(struct csvin *c)
{
	c->fast = 0;
	if (c->rnext == c->nrow) {
		csvin_compact(c);
		while (c->nrow == 0) {
			if (c->state == CS_EOF)
				return 0;
			if (c->state != CS_OK)
				return csvin_fail(c);
			csvin_feed(c);
			if (c->fast) {
				c->header_done = 1;
				return 1;
			}
		}
	}
	c->cur = c->row[c->rnext++];
	/*
	 * Every profiler ends its last row with a line end (all the CSV
	 * files of the corpus do), so a row without one is where the file
	 * was cut: its last field may be short, and a short number is a
	 * wrong number.  The rows before it stand; it does not.
	 */
	if (c->cur.cut) {
		csvin_seterr(c, c->cur.line, 0, c->header_done ?
		    "truncated file: it ends inside this row (no line end "
		    "after it); the row is not read" :
		    "truncated file: it ends inside the header row (no line "
		    "end after it)");
		return csvin_fail(c);
	}
	c->header_done = 1;
	return 1;
}

/*
 * Keep the column names for csvin_col and csvin_colname: those of
 * HEAD's header, or (HEAD NULL) the current row's, the header row.
 * Names hold no NUL byte: csvin_feed refuses one.
 */
static void
csvin_keep_header(struct csvin *c, const struct csvin *head)
{
	size_t i, total = 0;
	char *p;

	c->ncols = head != NULL ? head->ncols : c->cur.nf;
	for (i = 0; i < c->ncols; i++)
		total += strlen(head != NULL ? head->hname[i] :
		    csvin_field(c, (int)i, NULL)) + 1;
	c->hbuf = p = xmalloc(total + 1);
	c->hname = xreallocarray(NULL, c->ncols + 1, sizeof(*c->hname));
	for (i = 0; i < c->ncols; i++) {
		c->hname[i] = p;
		p = stpcpy(p, head != NULL ? head->hname[i] :
		    csvin_field(c, (int)i, NULL)) + 1;
	}
}

/* A reader with nothing read yet. */
static struct csvin *
csvin_new(const char *where, size_t maxfield)
{
	struct csvin *c;

	c = xcalloc(1, sizeof(*c));
	c->where = xstrdup(where != NULL ? where : "-");
	c->maxfield = maxfield ? maxfield : CSVIN_DEFCAP;
	c->maxrow = c->maxfield > SIZE_MAX / 4 ? SIZE_MAX : c->maxfield * 4;
	if (c->maxrow < CSVIN_MINROW)
		c->maxrow = CSVIN_MINROW;
	c->ib = xmalloc(CSVIN_BLOCK);
	c->line = 1;
	if (csv_init(&c->p, CSV_STRICT | CSV_STRICT_FINI |
	    CSV_APPEND_NULL) != 0)
		diag_err(EXIT_BAD, "cannot initialise the csv parser");
	csv_set_blk_size(&c->p, CSVIN_BLOCK);
	csv_set_realloc_func(&c->p, csvin_realloc);
	return c;
}

struct csvin *
csvin_open(struct input *in, const char *where, size_t maxfield)
{
	struct csvin *c = csvin_new(where, maxfield);
	int r;

	c->in = in;
	if ((r = csvin_next(c)) <= 0) {
		if (r == 0)
			diag_at(c->where, 0, "no header row");
		csvin_close(c);
		return NULL;
	}
	csvin_keep_header(c, NULL);
	c->cur.nf = 0;
	return c;
}

struct csvin *
csvin_open_part(int fd, uint64_t from, uint64_t to, const struct csvin *head)
{
	struct csvin *c = csvin_new(head->where, head->maxfield);

	c->pfd = fd;
	c->ppos = c->base = from;
	c->pend = to;
	c->bomdone = c->header_done = 1;
	csvin_keep_header(c, head);
	return c;
}

uint64_t
csvin_row_offset(const struct csvin *c)
{
	return c->cur.off;
}

size_t
csvin_ncols(const struct csvin *c)
{
	return c->ncols;
}

const char *
csvin_colname(const struct csvin *c, size_t i)
{
	return i < c->ncols ? c->hname[i] : "";
}

int
csvin_col(const struct csvin *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ncols; i++)
		if (strcmp(c->hname[i], name) == 0)
			return (int)i;
	return -1;
}

int
csvin_col_dup(const struct csvin *c, int i)
{
	size_t j;

	if (i < 0 || (size_t)i >= c->ncols)
		return -1;
	for (j = (size_t)i + 1; j < c->ncols; j++)
		if (strcmp(c->hname[j], c->hname[i]) == 0)
			return (int)j;
	return -1;
}

size_t
csvin_nfields(const struct csvin *c)
{
	return c->cur.nf;
}

const char *
csvin_field(const struct csvin *c, int i, size_t *len)
{
	const struct csvin_fld *f;

	if (i < 0 || (size_t)i >= c->cur.nf) {
		if (len != NULL)
			*len = 0;
		return "";
	}
	if (c->fast) {
		const struct csvin_span *sp = &c->fs[i];

		if (len != NULL)
			*len = (size_t)(sp->e - sp->b);
		return sp->b;
	}
	f = &c->fld[c->cur.first + (size_t)i];
	if (len != NULL)
		*len = f->len;
	return c->buf + f->off;
}

int
csvin_absent(const struct csvin *c, int i)
{
	const char *s;
	size_t n;

	s = csvin_field(c, i, &n);
	return n == 0 || (n == 3 && memcmp(s, "N/A", 3) == 0) ||
	    (n == 2 && memcmp(s, "NA", 2) == 0);
}

unsigned long
csvin_line(const struct csvin *c)
{
	return c->cur.line;
}

void
csvin_close(struct csvin *c)
{
	if (c == NULL)
		return;
	csv_free(&c->p);
	free(c->where);
	free(c->ib);
	free(c->buf);
	free(c->fld);
	free(c->row);
	free(c->fs);
	free(c->hbuf);
	free(c->hname);
	free(c);
}
