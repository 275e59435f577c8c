/*
 * The prof-tsv reader's current record: its fields, found and decoded
 * when a program asks for them, and the checks of the contract on its
 * times and order that every program shares (tsvr_times(),
 * tsvr_record()).  tsvr.c reads the line and keeps its TABs as masks.
 *
 * A field is found from the masks (the block that holds its TAB, then
 * the bit in that block's word), and copied to the work buffer at the
 * offset it has in the line, NUL-terminated, only when asked for as a
 * string; a program that passes most records on unchanged so never
 * splits the columns it does not read.  A line with a backslash is
 * decoded in full when it is read (tsvr_split_all()), so that its
 * escapes are checked there; such lines are rare.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "digits.h"
#include "tsvr-int.h"

/* Decode one field's escapes in place; returns the new length or -1. */
static ssize_t
unescape(char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (s[i] != '\\') {
			s[n++] = s[i];
			continue;
		}
		if (++i == len)
			return -1;
		switch (s[i]) {
		case 't': s[n++] = '\t'; break;
		case 'n': s[n++] = '\n'; break;
		case 'r': s[n++] = '\r'; break;
		case '\\': s[n++] = '\\'; break;
		default: return -1;
		}
	}
	s[n] = '\0';
	return (ssize_t)n;
}

/*
 * The position in W of its set bit J (from 0), J below the bits set:
 * the bytes' counts added up by a multiply find its byte, and a few
 * steps its bit.
 */
static inline unsigned
select64(uint64_t w, unsigned j)
{
	uint64_t x = w - ((w >> 1) & 0x5555555555555555ULL), sums, b;
	unsigned byte = 0, before;

	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	sums = x * 0x0101010101010101ULL;	/* byte K: bits in 0..K */
	while ((unsigned)(sums >> (8 * byte) & 0xff) <= j)
		byte++;
	before = byte == 0 ? 0 : (unsigned)(sums >> (8 * (byte - 1)) & 0xff);
	b = w >> (8 * byte) & 0xff;
	for (j -= before; j > 0; j--)
		b &= b - 1;
	return 8 * byte + (unsigned)__builtin_ctzll(b);
}

/* The offset in the line of its TAB number K, from 1. */
static size_t
tab_at(const struct tsvr *r, size_t k)
{
	size_t lo = 0, hi = r->nblk, mid;

	/* the last block with fewer than K TABs before it holds TAB K */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (r->tabc[mid] < k)
			lo = mid;
		else
			hi = mid;
	}
	return lo * TSVR_BLOCK + select64(r->tabm[lo],
	    (unsigned)(k - 1 - r->tabc[lo]));
}

/* The offset of the first TAB at or after FROM (there is one). */
static inline size_t
tab_from(const struct tsvr *r, size_t from)
{
	size_t b = from / TSVR_BLOCK;
	uint64_t w = r->tabm[b] & (~(uint64_t)0 << (from % TSVR_BLOCK));

	while (w == 0)
		w = r->tabm[++b];
	return b * TSVR_BLOCK + (size_t)__builtin_ctzll(w);
}

/*
 * Where field I of the current record lies: from the TAB offsets the
 * scan took when it has them, else from the masks; and the scan takes
 * more of them from the next record on.
 */
static inline const struct tfield *
field_at(const struct tsvr *r, size_t i)
{
	/* r's arrays, not r, are written: found on demand */
	struct tfield *f = &r->f[i];

	if (f->at == r->recno)
		return f;
	if (i + 1 <= r->npos) {
		f->off = i == 0 ? 0 : r->pos[i] + 1;
		f->rawlen = (i + 1 == r->ncols ? r->linelen : r->pos[i + 1]) -
		    f->off;
	} else {
		/* after the field before it, when it was asked for */
		f->off = i == 0 ? 0 : i <= r->npos ? r->pos[i] + 1 :
		    f[-1].at == r->recno ? f[-1].off + f[-1].rawlen + 1 :
		    tab_at(r, i) + 1;
		f->rawlen = (i + 1 == r->ncols ? r->linelen :
		    tab_from(r, f->off)) - f->off;
		if (r->keep < i + 2 && r->keep < TSVR_KEEP_MAX)
			((struct tsvr *)r)->keep = i + 2 < TSVR_KEEP_MAX ?
			    i + 2 : TSVR_KEEP_MAX;
	}
	f->len = f->rawlen;
	f->at = r->recno;
	return f;
}

/*
 * Field I's decoded text, not NUL-terminated unless asked for as a
 * string: a number is parsed where it lies in the line.
 */
static inline const char *
field_text(const struct tsvr *r, size_t i, size_t *len)
{
	const struct tfield *f = field_at(r, i);

	*len = f->len;
	return (f->dec == r->recno ? r->work : r->line) + f->off;
}

/* Set field K of the current record to the bytes from START to END. */
static inline void
field_set(struct tsvr *r, size_t k, size_t start, size_t end)
{
	r->f[k].off = start;
	r->f[k].rawlen = r->f[k].len = end - start;
	r->f[k].at = r->f[k].dec = r->recno;
	r->work[end] = '\0';
}

int
tsvr_split_all(struct tsvr *r)
{
	const char *line = r->line;
	size_t b, k = 0, start = 0, end;
	uint64_t t;
	ssize_t n;

	memcpy(r->work, line, r->linelen + 1);
	for (b = 0; b < r->nblk; b++)
		for (t = r->tabm[b]; t != 0; t &= t - 1) {
			end = b * TSVR_BLOCK + (size_t)__builtin_ctzll(t);
			field_set(r, k++, start, end);
			start = end + 1;
		}
	field_set(r, k, start, r->linelen);
	for (k = 0; r->escaped && k < r->ncols; k++) {
		size_t off = r->f[k].off, rawlen = r->f[k].rawlen;

		if ((n = unescape(r->work + off, rawlen)) < 0) {
			/* The field as read: unescape() changed it. */
			int show = rawlen > 60 ? 60 : (int)rawlen;

			return tsvr_damaged(r,
			    "column '%s': invalid escape in '%.*s%s'",
			    r->names[k], show, line + off,
			    rawlen > 60 ? "..." : "");
		}
		r->f[k].len = (size_t)n;
	}
	r->all_at = r->recno;
	return 0;
}

const char *
tsvr_text(const struct tsvr *r, size_t i, size_t *len)
{
	return field_text(r, i, len);
}

const char *
tsvr_field(const struct tsvr *r, size_t i, size_t *len)
{
	/* r's arrays, not r, are written: copied on demand */
	struct tfield *f = &r->f[i];

	field_at(r, i);
	if (f->dec != r->recno) {
		tsv_copy(r->work + f->off, r->line + f->off, f->rawlen);
		r->work[f->off + f->rawlen] = '\0';
		f->dec = r->recno;
	}
	if (len != NULL)
		*len = f->len;
	return r->work + f->off;
}

char *const *
tsvr_fields(struct tsvr *r, const size_t **lens)
{
	size_t i;

	if (r->all_at != r->recno)	/* else read with an escape */
		tsvr_split_all(r);
	for (i = 0; i < r->ncols; i++) {
		r->fld[i] = r->work + r->f[i].off;
		r->flen[i] = r->f[i].len;
	}
	*lens = r->flen;
	return r->fld;
}

const char *
tsvr_rawfield(const struct tsvr *r, size_t i, size_t *len)
{
	const struct tfield *f = field_at(r, i);

	*len = f->rawlen;
	return r->line + f->off;
}

int
tsvr_plain(const struct tsvr *r)
{
	return !r->escaped;
}

const char *
tsvr_line(const struct tsvr *r, size_t *len)
{
	if (len != NULL)
		*len = r->linelen;
	return r->line;
}

/*
 * strtoll would also take spaces and '+', and costs a locale lookup per
 * call.
 */
int
tsv_parse_i64(const char *s, size_t len, int64_t *out)
{
	uint64_t u = 0, limit = (uint64_t)INT64_MAX;
	size_t i = 0;
	int neg = 0;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		limit++;
		i++;
	}
	if (i == len)
		return -1;
	/* 18 digits cannot overflow: no check but the digit's */
	if (len - i <= 18) {
#ifdef HAVE_DIGITS8
		uint64_t d8;

		for (; len - i >= 8 && digits8(s + i, &d8); i += 8)
			u = u * 100000000 + d8;
#endif
		for (; i < len; i++) {
			unsigned d = (unsigned char)s[i] - (unsigned)'0';

			if (d > 9)
				return -1;
			u = u * 10 + d;
		}
		*out = neg ? (int64_t)(0 - u) : (int64_t)u;
		return 0;
	}
	for (; i < len; i++) {
		unsigned d = (unsigned char)s[i] - (unsigned)'0';

		if (d > 9 || u > (limit - d) / 10)
			return -1;
		u = u * 10 + d;
	}
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

int64_t
tsvr_i64(const struct tsvr *r, size_t i, int *absent)
{
	size_t len;
	const char *f = field_text(r, i, &len);
	int64_t v;

	if (len == 0) {
		if (absent != NULL)
			*absent = 1;
		return 0;
	}
	if (absent != NULL)
		*absent = 0;
	if (tsv_parse_i64(f, len, &v) != 0)
		diag_at_fatal(EXIT_BAD, r->path, r->lineno,
		    "column '%s': invalid integer '%s'", r->names[i],
		    tsvr_field(r, i, NULL));
	return v;
}

/*
 * The stages, prof-merge and prof-render read the fixed times through
 * here, so that they agree on every rule of prof-tsv(5): one stage
 * skipping what another refuses would make a pipeline's result depend
 * on which stages ran.  INT64_MIN stands for an empty ts_ns in memory,
 * so as a written value it is refused, never taken for "absent".
 */
/*
 * Whether the stream's timed records, with one from TS to END, still
 * lie within 2^63 - 1 ns of each other.  Then the difference of any two
 * times of the capture (a span, a gap, a busy union) is an int64, and
 * no program has to check each one; a span past 292 years is damage.
 */
static int
span_fits(struct tsvr *r, int64_t ts, int64_t end)
{
	int64_t lo = r->timed && r->min_ts < ts ? r->min_ts : ts;
	int64_t hi = r->timed && r->max_end > end ? r->max_end : end;
	int64_t span;

	if (__builtin_sub_overflow(hi, lo, &span)) {
		tsvr_damage(r, "capture span overflows 64-bit nanoseconds: "
		    "from %" PRId64 " to %" PRId64, lo, hi);
		return 0;
	}
	r->timed = 1;
	r->min_ts = lo;
	r->max_end = hi;
	return 1;
}

int
tsvr_times(struct tsvr *r, int64_t *ts, int64_t *dur)
{
	size_t tlen, dlen, klen;
	const char *t = field_text(r, 1, &tlen), *d = field_text(r, 2, &dlen);
	const char *k;
	int64_t end = 0;

	*ts = TSV_NO_TS;
	*dur = -1;
	if (tlen > 0 && tsv_parse_i64(t, tlen, ts) != 0)
		tsvr_damage(r, "column 'ts_ns': invalid integer '%s'",
		    tsvr_field(r, 1, NULL));
	else if (tlen > 0 && *ts == TSV_NO_TS)
		tsvr_damage(r, "column 'ts_ns': '%s' is out of range (the "
		    "earliest time is -9223372036854775807)",
		    tsvr_field(r, 1, NULL));
	else if (dlen > 0 && tsv_parse_i64(d, dlen, dur) != 0)
		tsvr_damage(r, "column 'dur_ns': invalid integer '%s'",
		    tsvr_field(r, 2, NULL));
	else if (dlen > 0 && *dur < 0)
		tsvr_damage(r, "column 'dur_ns': negative duration '%s'",
		    tsvr_field(r, 2, NULL));
	else if (dlen > 0 && tlen > 0 &&
	    __builtin_add_overflow(*ts, *dur, &end))
		tsvr_damage(r, "ts_ns + dur_ns overflows 64-bit nanoseconds: "
		    "'%s' + '%s'", tsvr_field(r, 1, NULL),
		    tsvr_field(r, 2, NULL));
	/* a kernel is a task on the device: it always has an extent */
	else if ((tlen == 0 || dlen == 0) &&
	    (k = field_text(r, 0, &klen), klen == 6) &&
	    memcmp(k, "kernel", 6) == 0)
		tsvr_damage(r, "kernel record without %s",
		    tlen == 0 ? "ts_ns" : "dur_ns");
	else if (tlen == 0 || span_fits(r, *ts, dlen > 0 ? end : *ts))
		return 0;
	return -1;
}

/*
 * A queue time is a time: a whole int64, never negative (prof-tsv(5)).
 */
static int
wait_ok(struct tsvr *r)
{
	size_t len;
	const char *s = field_text(r, (size_t)r->c_wait, &len);
	int64_t w;

	if (len == 0)
		return 1;
	if (tsv_parse_i64(s, len, &w) != 0)
		tsvr_damage(r, "column 'wait_ns': invalid integer '%s'",
		    tsvr_field(r, (size_t)r->c_wait, NULL));
	else if (w < 0)
		tsvr_damage(r, "column 'wait_ns': negative wait '%s'",
		    tsvr_field(r, (size_t)r->c_wait, NULL));
	else
		return 1;
	return 0;
}

int
tsvr_record(struct tsvr *r, int64_t *ts, int64_t *dur)
{
	int64_t end;
	int rc = tsvr_next(r);

	if (rc <= 0)
		return rc;
	if (tsvr_times(r, ts, dur) < 0 || (r->c_wait >= 0 && !wait_ok(r)))
		return -1;
	if (*ts == TSV_NO_TS) {
		if (r->rec_timed) {
			tsvr_damage(r, "records out of order: a timeless "
			    "record after timed ones");
			return -1;
		}
		return 1;
	}
	if (r->rec_timed && *ts < r->rec_last) {
		tsvr_damage(r, "records out of order: ts_ns %" PRId64
		    " after %" PRId64, *ts, r->rec_last);
		return -1;
	}
	r->rec_timed = 1;
	r->rec_last = *ts;
	end = *dur > 0 ? *ts + *dur : *ts;
	if (r->rec_end == TSV_NO_TS || end > r->rec_end)
		r->rec_end = end;
	return 1;
}

int64_t
tsvr_end(const struct tsvr *r)
{
	return r->rec_end;
}
