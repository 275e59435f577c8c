/*
 * Streaming reader for Chrome trace JSON.  jsmn needs the whole text of
 * what it parses, and trace files reach gigabytes, so a scanner sits in
 * front of it: it reads the member in 4 MiB blocks, walks the top-level
 * object to the "traceEvents" key (wherever it is among the other keys)
 * or takes a top-level array, and finds each event object by tracking
 * only string, escape and bracket state.  Each complete event alone goes
 * to jsmn.  The buffer keeps only the unfinished event when it refills,
 * so memory is bounded by the largest event, which is capped.
 *
 * That is the reference path.  Nearly every event first goes to jsontok,
 * which tokenizes a plain well-formed event in one pass, finding its end
 * as it goes, with exactly jsmn's tokens; whatever it passes on (an event
 * cut by the buffer's end, anything malformed) takes the path above, so
 * diagnostics come from the scanner and jsmn alone.  Line numbers are
 * counted only on refills and when a position is asked for.
 */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"

#include "diag.h"
#include "jsonev.h"
#include "jsontok.h"
#include "xalloc.h"

#define JSONEV_BLOCK	((size_t)4 << 20)	/* bytes per read */
#define JSONEV_FIRST	((size_t)64 << 10)	/* the first read's size */
#define JSONEV_PAD	64			/* slack for 16-byte loads */
#define JSONEV_DEFMAX	((size_t)64 << 20)
#define JSONEV_MAXMAX	((size_t)1 << 30)	/* jsmn offsets are int */
#define JSONEV_NTOK	64
/*
 * jsmn walks up from its last token at every closing bracket, so its
 * time grows with the square of the nesting depth; what jsontok does not
 * take is given to jsmn only up to this depth.
 */
#define JSONEV_JSMN_DEPTH	64
/*
 * Tokens cost 20 bytes and a bracket is one byte of text, so an event
 * under the size cap could still take hundreds of megabytes of tokens:
 * one event may have this many values, far more than any profiler's.
 */
#define JSONEV_MAXTOK	(1u << 21)

#define C_EOF	(-1)
#define C_ERR	(-2)

enum jsonev_state {
	ST_START,	/* before the first value */
	ST_KEY,		/* in the top-level object, before a key */
	ST_AFTER,	/* after a top-level value: ',' or '}' */
	ST_ARRAY,	/* in the event array */
	ST_END,		/* after the document: only blanks may follow */
	ST_DONE,
	ST_FAIL
};

/* Resumable state of a string or bracket scan, relative to its start. */
struct scan {
	size_t	 at;		/* next byte to look at */
	size_t	 skip;		/* bytes before this were escaped */
	long	 depth;		/* open brackets */
	long	 maxdepth;	/* the most that were open at once */
	int	 instr;		/* inside a string */
};

struct jsonev {
	struct input	*in;
	const char	*where;
	size_t		 maxev;
	char		*buf;
	size_t		 cap;		/* usable size, JSONEV_PAD more held */
	size_t		 pos;		/* next byte to parse */
	size_t		 mark;		/* first byte a refill must keep */
	size_t		 end;		/* bytes held */
	uint64_t	 base;		/* member offset of buf[0] */
	int		 eof;
	int		 full;		/* the last read filled the buffer */
	enum jsonev_state state;
	int		 toparray;	/* the document is a bare array */
	int		 found;		/* "traceEvents" was seen */
	unsigned long	 line;		/* line number at buf[lpos] */
	size_t		 lpos;
	uint64_t	 linestart;	/* member offset after the last '\n' */
	char		*key;		/* the current top-level key */
	size_t		 keycap;
	jsmntok_t	*tok;
	unsigned int	 ntok;
	jsonev_topfn	 topfn;
	void		*toparg;
};

struct jsonev *
jsonev_open(struct input *in, const char *where, size_t maxev)
{
	struct jsonev *ev = xcalloc(1, sizeof(*ev));

	ev->in = in;
	ev->where = where;
	if (maxev == 0)
		maxev = JSONEV_DEFMAX;
	ev->maxev = maxev < JSONEV_MAXMAX ? maxev : JSONEV_MAXMAX;
	/*
	 * A small first block, grown to JSONEV_BLOCK once a read fills it:
	 * thousands of small files should not each cost 4 MiB.
	 */
	ev->cap = JSONEV_FIRST;
	ev->buf = xmalloc(ev->cap + JSONEV_PAD);
	ev->line = 1;
	ev->ntok = JSONEV_NTOK;
	ev->tok = xreallocarray(NULL, ev->ntok, sizeof(*ev->tok));
	ev->state = ST_START;
	return ev;
}

void
jsonev_ontop(struct jsonev *ev, jsonev_topfn fn, void *arg)
{
	ev->topfn = fn;
	ev->toparg = arg;
}

uint64_t
jsonev_offset(const struct jsonev *ev)
{
	return ev->base + ev->pos;
}

void
jsonev_close(struct jsonev *ev)
{
	if (ev == NULL)
		return;
	free(ev->buf);
	free(ev->key);
	free(ev->tok);
	free(ev);
}

/* The number of newlines in [P, E), 16 bytes at a time. */
static unsigned long
count_nl(const char *p, const char *e)
{
	unsigned long n = 0;
#ifdef PROF_SSE2
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
	__m128i acc;
	int k;

	while (e - p >= 16) {
		/* Byte counters, summed before any can pass 255. */
		acc = zero;
		for (k = 0; k < 255 && e - p >= 16; k++, p += 16)
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(
			    (const __m128i *)(const void *)p), nl));
		acc = _mm_sad_epu8(acc, zero);
		n += (unsigned long)_mm_cvtsi128_si32(acc) +
		    (unsigned long)_mm_extract_epi16(acc, 4);
	}
#endif
	for (; p < e; p++)
		n += *p == '\n';
	return n;
}

/* The last newline in [S, E), looking backwards; NULL when none. */
static const char *
last_nl(const char *s, const char *e)
{
#ifdef PROF_SSE2
	const __m128i nl = _mm_set1_epi8('\n');
	unsigned m;

	for (; e - s >= 16; e -= 16) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
		    (const __m128i *)(const void *)(e - 16)), nl));
		if (m != 0)
			return e - 16 + (31 - __builtin_clz(m));
	}
#endif
	while (e > s)
		if (*--e == '\n')
			return e;
	return NULL;
}

/*
 * Count the newlines up to buffer index UPTO.  Lines are counted only
 * when a refill drops bytes or a position is asked for (a diagnostic,
 * jsonev_linecol), so nearly all bytes are counted in long runs.
 */
static void
line_advance(struct jsonev *ev, size_t upto)
{
	const char *s = ev->buf + ev->lpos, *e = ev->buf + upto, *p;
	unsigned long n;

	if (upto <= ev->lpos)
		return;
	if ((n = count_nl(s, e)) > 0) {
		ev->line += n;
		p = last_nl(s, e);
		ev->linestart = ev->base + (uint64_t)(p - ev->buf) + 1;
	}
	ev->lpos = upto;
}

void
jsonev_linecol(struct jsonev *ev, const struct jsonev_event *e,
    unsigned long *line, unsigned long *col)
{
	line_advance(ev, (size_t)(e->offset - ev->base));
	*line = ev->line;
	*col = (unsigned long)(e->offset - ev->linestart + 1);
}

/* "prog: WHERE:LINE:COL: msg" for buffer index AT; returns -1. */
static int
fail_at(struct jsonev *ev, size_t at, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	line_advance(ev, at);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_atcol(ev->where, ev->line, (unsigned long)(ev->base + at -
	    ev->linestart + 1), "%s", msg);
	ev->state = ST_FAIL;
	return -1;
}

/* Report the unexpected byte at ev->pos; returns -1. */
static int
fail_char(struct jsonev *ev, const char *expected)
{
	unsigned char c = (unsigned char)ev->buf[ev->pos];

	if (c == '\0')
		return fail_at(ev, ev->pos, "NUL byte in JSON text");
	if (c > ' ' && c < 0x7f)
		return fail_at(ev, ev->pos, "expected %s, found '%c'",
		    expected, c);
	return fail_at(ev, ev->pos, "expected %s, found byte 0x%02x",
	    expected, c);
}

/*
 * Read more of the member, first moving the bytes from ev->mark on to the
 * front of the buffer and growing it only when they fill it.  Returns 1,
 * 0 at the end of the member, -1 after a read error.
 */
static int
fill(struct jsonev *ev)
{
	size_t keep = ev->mark;
	ssize_t n;

	if (ev->eof)
		return 0;
	if (keep > 0) {
		line_advance(ev, keep);
		memmove(ev->buf, ev->buf + keep, ev->end - keep);
		ev->base += keep;
		ev->pos -= keep;
		ev->end -= keep;
		ev->lpos -= keep;
		ev->mark = 0;
	}
	if (ev->end == ev->cap) {
		/* One value fills the buffer: grow, but not past the cap. */
		size_t cap = ev->cap * 2;

		if (cap > ev->maxev + 1 && ev->maxev + 1 > ev->cap)
			cap = ev->maxev + 1;
		ev->cap = cap;
		ev->buf = xrealloc(ev->buf, ev->cap + JSONEV_PAD);
	} else if (ev->cap < JSONEV_BLOCK && ev->full) {
		ev->cap = ev->cap * 8 < JSONEV_BLOCK ? ev->cap * 8 :
		    JSONEV_BLOCK;
		ev->buf = xrealloc(ev->buf, ev->cap + JSONEV_PAD);
	}
	if ((n = input_read(ev->in, ev->buf + ev->end, ev->cap - ev->end)) < 0)
		return -1;
	if (n == 0) {
		ev->eof = 1;
		return 0;
	}
	ev->full = (size_t)n == ev->cap - ev->end;
	ev->end += (size_t)n;
	memset(ev->buf + ev->end, ' ', JSONEV_PAD);
	return 1;
}

/* Handle the special byte at buffer index J; returns 1 at the value's end. */
static int
scan_byte(const char *buf, size_t j, size_t mark, struct scan *s)
{
	switch (buf[j]) {
	case '"':
		s->instr = !s->instr;
		return !s->instr && s->depth == 0;
	case '\\':
		if (s->instr)
			s->skip = j - mark + 2;
		return 0;
	case '{':
	case '[':
		if (!s->instr && ++s->depth > s->maxdepth)
			s->maxdepth = s->depth;
		return 0;
	case '}':
	case ']':
		if (!s->instr)
			s->depth--;
		return !s->instr && s->depth <= 0;
	default:
		return 0;
	}
}

#ifdef PROF_SSE2
/*
 * Bits for the bytes of the 16 at P that the scan must look at: quote,
 * backslash, brackets (OR 0x20 folds '[' ']' onto '{' '}') and NUL.
 */
static inline unsigned
special16(const char *p)
{
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	const __m128i f = _mm_or_si128(v, _mm_set1_epi8(0x20));
	__m128i m;

	m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(f, _mm_set1_epi8('{')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(f, _mm_set1_epi8('}')));
	m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_setzero_si128()));
	return (unsigned)_mm_movemask_epi8(m);
}
#else
/* The bytes the scan must look at, for the byte-wise loop. */
static const unsigned char special[256] = {
	['\0'] = 1, ['"'] = 1, ['\\'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1,
	[']'] = 1
};
#endif

/*
 * Scan buf[mark + s->at, end) for the end of the string or bracketed
 * value that starts at MARK.  Returns 1 with s->at just past its last
 * byte, 0 when the bytes run out first, -1 with s->at on a NUL byte.
 */
static int
scan_run(const char *buf, size_t mark, size_t end, struct scan *s)
{
#ifdef PROF_SSE2
	size_t i, j;

	for (i = mark + s->at; i < end; i += 16) {
		unsigned m = special16(buf + i);

		if (end - i < 16)
			m &= (1u << (end - i)) - 1;
		for (; m != 0; m &= m - 1) {
			j = i + (size_t)__builtin_ctz(m);
			if (buf[j] == '\0') {
				s->at = j - mark;
				return -1;
			}
			if (j - mark < s->skip)
				continue;
			if (scan_byte(buf, j, mark, s)) {
				s->at = j + 1 - mark;
				return 1;
			}
		}
	}
#else
	size_t j;

	for (j = mark + s->at; j < end; j++) {
		if (!special[(unsigned char)buf[j]])
			continue;
		if (buf[j] == '\0') {
			s->at = j - mark;
			return -1;
		}
		if (j - mark < s->skip)
			continue;
		if (scan_byte(buf, j, mark, s)) {
			s->at = j + 1 - mark;
			return 1;
		}
	}
#endif
	s->at = end - mark;
	return 0;
}

/* Scan a number or bare word at ev->mark up to its delimiter. */
static int
scan_primitive(struct jsonev *ev, const char *what, size_t *lenp)
{
	size_t i = 0;
	int r;

	for (;;) {
		for (; ev->mark + i < ev->end && i <= ev->maxev; i++)
			if (strchr(",}] \t\r\n", ev->buf[ev->mark + i]) != NULL ||
			    ev->buf[ev->mark + i] == '\0') {
				*lenp = i;
				return 0;
			}
		if (i > ev->maxev)
			return fail_at(ev, ev->mark, "%s larger than %zu bytes",
			    what, ev->maxev);
		if ((r = fill(ev)) < 0)
			return -1;
		if (r == 0)
			return fail_at(ev, ev->mark,
			    "truncated JSON: unterminated %s", what);
	}
}

/*
 * Find the end of the JSON value at ev->pos.  On success ev->mark is its
 * first byte and *LENP its length; the text stays in the buffer until the
 * next refill.  WHAT names the value in diagnostics.
 */
static int
scan_value(struct jsonev *ev, const char *what, size_t *lenp, long *depthp)
{
	struct scan s = { 0, 0, 0, 0, 0 };
	char c = ev->buf[ev->pos];
	int r;

	ev->mark = ev->pos;
	if (c != '"' && c != '{' && c != '[')
		return scan_primitive(ev, what, lenp);
	for (;;) {
		r = scan_run(ev->buf, ev->mark, ev->end, &s);
		if (r == -1)
			return fail_at(ev, ev->mark + s.at,
			    "NUL byte in JSON text");
		if (s.at > ev->maxev)
			return fail_at(ev, ev->mark, "%s larger than %zu bytes",
			    what, ev->maxev);
		if (r == 1) {
			*lenp = s.at;
			if (depthp != NULL)
				*depthp = s.maxdepth;
			return 0;
		}
		if ((r = fill(ev)) < 0)
			return -1;
		if (r == 0)
			return fail_at(ev, ev->mark,
			    "truncated JSON: unterminated %s", what);
	}
}

/*
 * Skip blanks (and commas too when COMMAS is set) and return the next
 * byte without consuming it, C_EOF at the end, or C_ERR.
 */
static int
skip_ws(struct jsonev *ev, int commas)
{
	int r;
	char c;

	for (;;) {
		for (; ev->pos < ev->end; ev->pos++) {
			c = ev->buf[ev->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t' &&
			    (c != ',' || !commas))
				return (unsigned char)c;
		}
		ev->mark = ev->pos;
		if ((r = fill(ev)) < 0)
			return C_ERR;
		if (r == 0)
			return C_EOF;
	}
}

/* The start of the document: a UTF-8 BOM, then '{' or '['. */
static int
do_start(struct jsonev *ev)
{
	int c;

	while (ev->end < 3 && !ev->eof)
		if (fill(ev) < 0)
			return -1;
	if (ev->end >= 3 && memcmp(ev->buf, "\xef\xbb\xbf", 3) == 0)
		ev->pos = 3;
	if ((c = skip_ws(ev, 0)) == C_ERR)
		return -1;
	if (c == C_EOF)
		return fail_at(ev, ev->pos, "empty input: no JSON value");
	if (c == '[') {
		ev->toparray = 1;
		ev->state = ST_ARRAY;
	} else if (c == '{')
		ev->state = ST_KEY;
	else
		return fail_char(ev, "'{' or '[' (a Chrome trace)");
	ev->pos++;
	return 0;
}

/* Expect a ':' after a top-level key. */
static int
expect_colon(struct jsonev *ev)
{
	int c;

	if ((c = skip_ws(ev, 0)) == C_ERR)
		return -1;
	if (c == C_EOF)
		return fail_at(ev, ev->pos,
		    "truncated JSON: unterminated top-level object");
	if (c != ':')
		return fail_char(ev, "':' after a key");
	ev->pos++;
	if ((c = skip_ws(ev, 0)) == C_ERR)
		return -1;
	if (c == C_EOF)
		return fail_at(ev, ev->pos,
		    "truncated JSON: unterminated top-level object");
	return c;
}

/* Copy the key at ev->mark (LEN bytes with quotes) aside. */
static void
save_key(struct jsonev *ev, size_t len)
{
	if (ev->keycap < len) {
		ev->keycap = len;
		ev->key = xrealloc(ev->key, ev->keycap);
	}
	memcpy(ev->key, ev->buf + ev->mark + 1, len - 2);
}

/*
 * A top-level key and its value: "traceEvents" opens the event array;
 * any other pair goes to the callback with the value's raw text.
 */
static int
do_key(struct jsonev *ev)
{
	size_t klen, vlen;
	int c;

	if ((c = skip_ws(ev, 0)) == C_ERR)
		return -1;
	if (c == C_EOF)
		return fail_at(ev, ev->pos,
		    "truncated JSON: unterminated top-level object");
	if (c == '}') {
		ev->pos++;
		ev->state = ST_END;
		return 0;
	}
	if (c != '"')
		return fail_char(ev, "a key string in the top-level object");
	if (scan_value(ev, "top-level key", &klen, NULL) < 0)
		return -1;
	save_key(ev, klen);
	klen -= 2;
	ev->pos = ev->mark + klen + 2;
	if ((c = expect_colon(ev)) < 0)
		return -1;
	if (klen == 11 && memcmp(ev->key, "traceEvents", 11) == 0) {
		if (c != '[')
			return fail_char(ev, "'[' after \"traceEvents\"");
		ev->pos++;
		ev->found = 1;
		ev->state = ST_ARRAY;
		return 0;
	}
	if (scan_value(ev, "top-level value", &vlen, NULL) < 0)
		return -1;
	if (ev->topfn != NULL)
		ev->topfn(ev->toparg, ev->key, klen, ev->buf + ev->mark, vlen);
	ev->pos = ev->mark + vlen;
	ev->state = ST_AFTER;
	return 0;
}

/* After a top-level value: ',' for another key or '}' to end. */
static int
do_after(struct jsonev *ev)
{
	int c;

	if ((c = skip_ws(ev, 0)) == C_ERR)
		return -1;
	if (c == C_EOF)
		return fail_at(ev, ev->pos,
		    "truncated JSON: unterminated top-level object");
	if (c == ',')
		ev->state = ST_KEY;
	else if (c == '}')
		ev->state = ST_END;
	else
		return fail_char(ev, "',' or '}' in the top-level object");
	ev->pos++;
	return 0;
}

/* Double the token array; -1 when it would pass JSONEV_MAXTOK. */
static int
grow_tok(struct jsonev *ev)
{
	if (ev->ntok >= JSONEV_MAXTOK)
		return -1;
	ev->ntok *= 2;
	ev->tok = xreallocarray(ev->tok, ev->ntok, sizeof(*ev->tok));
	return 0;
}

/*
 * Tokenize the whole event at ev->mark (LEN bytes, DEPTH levels deep):
 * by jsontok when it is plain JSON, whatever its depth; else by jsmn,
 * growing the token array, but only when it is shallow enough for jsmn.
 */
static int
tokenize(struct jsonev *ev, size_t len, long depth)
{
	jsmn_parser p;
	size_t end;
	int r;

	while ((r = jsontok_object(ev->buf + ev->mark, len, ev->tok, ev->ntok,
	    &end)) == JSONTOK_NOMEM)
		if (grow_tok(ev) < 0)
			goto toomany;
	if (r != JSONTOK_PASS && end == len)
		return r;
	if (depth > JSONEV_JSMN_DEPTH)
		return fail_at(ev, ev->mark, "invalid JSON in event object "
		    "(nested %ld levels deep)", depth);
	for (;;) {
		jsmn_init(&p);
		r = jsmn_parse(&p, ev->buf + ev->mark, len, ev->tok, ev->ntok);
		if (r != JSMN_ERROR_NOMEM)
			break;
		if (grow_tok(ev) < 0)
			goto toomany;
	}
	if (r < 1 || ev->tok[0].type != JSMN_OBJECT)
		return fail_at(ev, ev->mark + (p.pos < len ? p.pos : 0),
		    "invalid JSON in event object");
	return r;
toomany:
	return fail_at(ev, ev->mark, "event object holds more than %u JSON "
	    "values", JSONEV_MAXTOK);
}

/*
 * Tokenize the event at ev->pos in one pass, finding its end too, when
 * it is plain JSON held whole in the buffer: nearly every event is.
 * Returns the token count with ev->mark and *LENP set, or JSONTOK_PASS
 * to go the way of scan_value (which refills) and jsmn.
 */
static int
tokenize_fast(struct jsonev *ev, size_t *lenp)
{
	int r;

	while ((r = jsontok_object(ev->buf + ev->pos, ev->end - ev->pos,
	    ev->tok, ev->ntok, lenp)) == JSONTOK_NOMEM)
		if (grow_tok(ev) < 0)
			return JSONTOK_PASS;	/* tokenize says why */
	if (r == JSONTOK_PASS || *lenp > ev->maxev)
		return JSONTOK_PASS;
	ev->mark = ev->pos;
	return r;
}

/* The next element of the event array: an event object, or the ']'. */
static int
do_array(struct jsonev *ev, struct jsonev_event *out)
{
	size_t len;
	long depth;
	int c, n;

	if ((c = skip_ws(ev, 1)) == C_ERR)
		return -1;
	/*
	 * The Trace Event Format lets a bare array lack its ']', but every
	 * profiler this reads writes it (torch_npu, Kineto, msprof), so a
	 * missing one is a file cut between two events: the events before
	 * are kept and the cut is said, never taken for the end.
	 */
	if (c == C_EOF)
		return fail_at(ev, ev->pos, ev->toparray ?
		    "truncated JSON: the event array has no closing ']' (the "
		    "file ends after an event)" :
		    "truncated JSON: unterminated 'traceEvents' array");
	if (c == ']') {
		ev->pos++;
		ev->state = ev->toparray ? ST_END : ST_AFTER;
		return 0;
	}
	if (c != '{')
		return fail_char(ev, "an event object");
	if ((n = tokenize_fast(ev, &len)) == JSONTOK_PASS &&
	    (scan_value(ev, "event object", &len, &depth) < 0 ||
	    (n = tokenize(ev, len, depth)) < 0))
		return -1;
	out->text = ev->buf + ev->mark;
	out->len = len;
	out->offset = ev->base + ev->mark;
	out->tok = ev->tok;
	out->ntok = n;
	ev->pos = ev->mark + len;
	return 1;
}

/* After the document: only blanks; a missing "traceEvents" is an error. */
static int
do_end(struct jsonev *ev)
{
	int c;

	if ((c = skip_ws(ev, 0)) == C_ERR)
		return -1;
	if (c != C_EOF)
		return fail_at(ev, ev->pos,
		    "unexpected text after the JSON document");
	if (!ev->toparray && !ev->found) {
		diag_at(ev->where, 0,
		    "no 'traceEvents' array in the top-level object");
		ev->state = ST_FAIL;
		return -1;
	}
	ev->state = ST_DONE;
	return 0;
}

int
jsonev_next(struct jsonev *ev, struct jsonev_event *out)
{
	int r;

	for (;;) {
		switch (ev->state) {
		case ST_START:
			r = do_start(ev);
			break;
		case ST_KEY:
			r = do_key(ev);
			break;
		case ST_AFTER:
			r = do_after(ev);
			break;
		case ST_ARRAY:
			if ((r = do_array(ev, out)) == 1)
				return 1;
			break;
		case ST_END:
			r = do_end(ev);
			break;
		case ST_DONE:
			return 0;
		default:
			return -1;
		}
		if (r < 0) {
			ev->state = ST_FAIL;
			return -1;
		}
	}
}
