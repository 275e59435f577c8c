/*
 * The prof-tsv stream, reading side: a reader that validates what it
 * reads (field counts, escapes, CR, NUL) so that no program computes on
 * a malformed record, and finds columns by name.  This file reads the
 * input, the preamble and the header, and each record's line, checked
 * and its TABs found in one pass over 64-byte blocks (scan_record());
 * tsvr-field.c finds and decodes the fields a program asks for and
 * checks the times and the order.  The writer is in tsvw.c.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simd.h"

/*
 * On x86-64, a second scan of a record's line with AVX2 and POPCNT,
 * taken at run time where the CPU has them (x86-64 servers since 2013):
 * a 64-byte block in two loads, its TABs counted by one instruction,
 * and the line's end found in the same pass rather than by a memchr()
 * before it.  -DPROF_NO_AVX2 leaves it out, so that the tests cover the
 * SSE2 scan as well (tests/unit/test-tsv-sse2).
 */
#if defined(PROF_SSE2) && defined(__x86_64__) && defined(__GNUC__) && \
    !defined(PROF_NO_AVX2)
#define PROF_AVX2	1
#include <immintrin.h>
#endif

#include "diag.h"
#include "spool.h"
#include "tsvr-int.h"
#include "xalloc.h"

#define RBUF_SIZE	(1 << 20)
/*
 * Bytes allocated past the read buffer: one for the NUL after a last
 * line without newline, and a block that scan_record() reads past the
 * data's end (kept initialised; what it reads there is masked off).
 */
#define RBUF_SLACK	(1 + TSVR_BLOCK)

void
tsvr_damage(struct tsvr *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->quiet) {
		va_start(ap, fmt);
		diag_vat(r->path, r->lineno, fmt, ap);
		va_end(ap);
	}
	r->bad = 1;
}

int
tsvr_failed(const struct tsvr *r)
{
	return r->bad;
}

/* Room for the TAB masks of a line as long as the read buffer. */
static void
blocks_fit(struct tsvr *r)
{
	r->blkcap = r->rcap / TSVR_BLOCK + 2;
	r->tabm = xreallocarray(r->tabm, r->blkcap, sizeof(*r->tabm));
	r->tabc = xreallocarray(r->tabc, r->blkcap, sizeof(*r->tabc));
}

/*
 * Refill the read buffer after what is left of it.
 */
static void
rfill(struct tsvr *r)
{
	ssize_t got;

	if (r->rstart > 0) {
		memmove(r->iobuf, r->iobuf + r->rstart, r->rend - r->rstart);
		r->base += r->rstart;
		r->rend -= r->rstart;
		r->rstart = 0;
	}
	if (r->rend == r->rcap) {
		r->rcap *= 2;
		r->iobuf = xrealloc(r->iobuf, r->rcap + RBUF_SLACK);
		memset(r->iobuf + r->rcap / 2, 0, r->rcap / 2 + RBUF_SLACK);
		blocks_fit(r);
	}
	if (r->from_spool)
		got = (ssize_t)spool_read(r->spool, r->iobuf + r->rend,
		    r->rcap - r->rend);
	else
		do
			got = read(r->fd, r->iobuf + r->rend,
			    r->rcap - r->rend);
		while (got < 0 && errno == EINTR);
	if (got < 0)
		diag_errno(EXIT_BAD, "%s: read error", diag_path(r->path));
	if (got == 0)
		r->reof = 1;
	if (got > 0 && r->spool != NULL && !r->from_spool)
		spool_write(r->spool, r->iobuf + r->rend, (size_t)got);
	r->rend += (size_t)got;
}

/*
 * Read one line of the preamble or the header: its length, or -1 at
 * EOF.  A NUL byte or a CR before the LF is fatal there.  A last line
 * without its newline is returned with r->cut set: every writer ends
 * each line, so a stream that stops inside a line was cut short (a full
 * disk, a killed writer), and the caller says so.
 */
static ssize_t
rgetline(struct tsvr *r)
{
	char *nl;
	ssize_t n;

	while ((nl = memchr(r->iobuf + r->rstart, '\n', r->rend -
	    r->rstart)) == NULL) {
		if (r->reof) {
			if (r->rstart == r->rend)
				return -1;
			break;		/* a last line without newline */
		}
		rfill(r);
	}
	r->line = r->iobuf + r->rstart;
	n = (ssize_t)(nl != NULL ? (size_t)(nl - r->line) + 1 :
	    r->rend - r->rstart);
	r->rstart += (size_t)n;
	if (nl == NULL) {
		r->line[n] = '\0';	/* the byte kept free at rend */
		r->cut = 1;
	}
	r->lineno++;
	if (memchr(r->line, '\0', (size_t)n) != NULL)
		diag_at_fatal(EXIT_BAD, r->path, r->lineno, "NUL byte");
	if (n > 0 && r->line[n - 1] == '\n')
		r->line[--n] = '\0';
	if (nl != NULL && n > 0 && r->line[n - 1] == '\r')
		diag_at_fatal(EXIT_BAD, r->path, r->lineno, "CR before LF");
	r->linelen = (size_t)n;
	return n;
}

/* Check a header name against [a-z_][a-z0-9_]*. */
static int
valid_name(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '_'))
			return 0;
	return 1;
}

static void
parse_header(struct tsvr *r)
{
	char *p = r->line, *tab;
	size_t i, j;

	for (;;) {
		tab = strchr(p, '\t');
		if (tab != NULL)
			*tab = '\0';
		if (!valid_name(p))
			diag_at_fatal(EXIT_BAD, r->path, r->lineno,
			    "invalid column name '%s'", p);
		r->names = xreallocarray(r->names, r->ncols + 1,
		    sizeof(*r->names));
		r->names[r->ncols++] = xstrdup(p);
		if (tab == NULL)
			break;
		p = tab + 1;
	}
	for (i = 0; i < r->ncols; i++)
		for (j = i + 1; j < r->ncols; j++)
			if (strcmp(r->names[i], r->names[j]) == 0)
				diag_at_fatal(EXIT_BAD, r->path, r->lineno,
				    "duplicate column '%s'", r->names[i]);
	/* room for the eight-at-a-time stores of split_fields */
	r->c_wait = tsvr_col(r, "wait_ns");
	r->f = xcalloc(r->ncols, sizeof(*r->f));
	/* a block's 64 TABs past the KEEP first, and 8 stores' slack */
	r->pos = xcalloc(TSVR_KEEP_MAX + 1 + 64 + 8, sizeof(*r->pos));
	r->keep = TSV_NFIXED + 1;
	r->fld = xcalloc(r->ncols, sizeof(*r->fld));
	r->flen = xcalloc(r->ncols, sizeof(*r->flen));
}

/*
 * The magic line names the format's version: a reader must refuse a
 * version it does not know (prof-tsv(5)) rather than misread it.
 */
static void
check_magic(struct tsvr *r)
{
	const char *v = r->line + 1;

	if (strncmp(v, "prof-tsv ", 9) == 0 && strcmp(v + 9, "1") != 0)
		diag_at_fatal(EXIT_BAD, r->path, r->lineno,
		    "unsupported prof-tsv version '%s'", v + 9);
}

/* Open PATH ("-": standard input) for reading, or NULL after a warning. */
static struct tsvr *
ropen(const char *path)
{
	struct tsvr *r = xcalloc(1, sizeof(*r));

	r->path = path == NULL ? "-" : path;
	r->c_wait = -1;
	r->rec_end = TSV_NO_TS;
	if (strcmp(r->path, "-") == 0)
		r->fd = STDIN_FILENO;
	else if ((r->fd = open(r->path, O_RDONLY)) < 0) {
		diag_warnerr("%s", r->path);
		free(r);
		return NULL;
	}
	tsv_widen_pipe(r->fd);
	/*
	 * Big reads: with the default 4 KiB buffer, system calls cost a
	 * third of a stage's time.
	 */
	r->rcap = RBUF_SIZE;
	r->iobuf = xcalloc(1, r->rcap + RBUF_SLACK);
	blocks_fit(r);
	return r;
}

/* Read the preamble and the header (fatal errors), as tsvr_open() says. */
static struct tsvr *
rhead(struct tsvr *r)
{
	while (rgetline(r) >= 0) {
		if (r->cut)
			diag_at_fatal(EXIT_BAD, r->path, r->lineno,
			    "unexpected end of file: the %s line has no "
			    "newline (the stream is cut short)",
			    r->line[0] == '#' ? "preamble" : "header");
		if (r->line[0] != '#') {
			parse_header(r);
			r->data_off = r->base + r->rstart;
			return r;
		}
		if (r->npre == 0)
			check_magic(r);
		r->pre = xreallocarray(r->pre, r->npre + 1, sizeof(*r->pre));
		r->pre[r->npre++] = xstrdup(r->line + 1);
	}
	/*
	 * Empty input: no header, no records; the caller decides.  A
	 * preamble without a header is not empty but cut: every writer
	 * writes the header, with or without records.
	 */
	if (r->npre > 0)
		diag_at_fatal(EXIT_BAD, r->path, r->lineno,
		    "unexpected end of file: no header line after the "
		    "preamble (the stream is cut short)");
	r->data_off = r->base + r->rstart;
	return r;
}

struct tsvr *
tsvr_open(const char *path)
{
	struct tsvr *r = ropen(path);

	return r != NULL ? rhead(r) : NULL;
}

const char *const tsv_fixed_cols[TSV_NFIXED] = {
	"kind", "ts_ns", "dur_ns", "dev", "track", "name"
};

/*
 * The fixed leading columns, as tsvr_open_stream() says.  The message
 * is made and the reader freed before the exit: the caller never had
 * it, and the leak checker of a sanitizer build would say so.
 */
static struct tsvr *
check_fixed(struct tsvr *r)
{
	static char *msg;
	unsigned long line;
	const char *path;
	size_t i;

	if (r == NULL || r->ncols == 0)
		return r;
	for (i = 0; i < TSV_NFIXED; i++)
		if (i >= r->ncols || strcmp(r->names[i], tsv_fixed_cols[i]) != 0)
			break;
	if (i == TSV_NFIXED)
		return r;
	free(msg);	/* a harness that catches the exit calls again */
	msg = xasprintf("not a prof-tsv stream: column %zu is '%s', "
	    "expected '%s'", i + 1, i < r->ncols ? r->names[i] : "",
	    tsv_fixed_cols[i]);
	path = r->path;
	line = (unsigned long)r->npre + 1;
	tsvr_close(r);
	diag_at_fatal(EXIT_BAD, path, line, "%s", msg);
}

struct tsvr *
tsvr_open_stream(const char *path)
{
	return check_fixed(tsvr_open(path));
}

struct tsvr *
tsvr_open_twice(const char *path, const char *tmpdir)
{
	struct tsvr *r = ropen(path);
	struct stat sb;

	if (r == NULL)
		return NULL;
	if (fstat(r->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (r->start_off = lseek(r->fd, 0, SEEK_CUR)) >= 0)
		;		/* read again where it lies */
	else
		r->spool = spool_open(tmpdir);
	r->quiet = 1;
	return check_fixed(rhead(r));
}

/* Read past the first N bytes of the spool: the preamble and header. */
static void
skip_spooled(struct tsvr *r, uint64_t n)
{
	size_t k;

	while (n > 0) {
		k = spool_read(r->spool, r->iobuf,
		    n < r->rcap ? (size_t)n : r->rcap);
		if (k == 0)
			diag_err(EXIT_BAD, "%s: cannot read it again",
			    diag_path(r->path));
		n -= k;
	}
}

void
tsvr_rewind(struct tsvr *r)
{
	off_t at = r->start_off + (off_t)r->data_off;

	if (r->spool != NULL) {
		while (!r->reof) {	/* copy what the first pass left */
			r->rstart = r->rend;
			rfill(r);
		}
		spool_rewind(r->spool);
		r->from_spool = 1;
		skip_spooled(r, r->data_off);
	} else if (lseek(r->fd, at, SEEK_SET) != at)
		diag_errno(EXIT_BAD, "%s: cannot read it again",
		    diag_path(r->path));
	r->base = r->data_off;
	r->rstart = r->rend = 0;
	r->reof = r->cut = r->bad = r->quiet = 0;
	r->lineno = r->npre + (r->ncols > 0);
	r->timed = r->rec_timed = 0;
	r->rec_end = TSV_NO_TS;
}

void
tsvr_set_quiet(struct tsvr *r, int quiet)
{
	r->quiet = quiet;
}

size_t
tsvr_npreamble(const struct tsvr *r)
{
	return r->npre;
}

const char *
tsvr_preamble(const struct tsvr *r, size_t i)
{
	return i < r->npre ? r->pre[i] : NULL;
}

const char *
tsvr_meta(const struct tsvr *r, const char *key)
{
	size_t i, klen = strlen(key);

	for (i = 0; i < r->npre; i++)
		if (strncmp(r->pre[i], key, klen) == 0 &&
		    r->pre[i][klen] == ' ')
			return r->pre[i] + klen + 1;
	return NULL;
}

size_t
tsvr_ncols(const struct tsvr *r)
{
	return r->ncols;
}

const char *
tsvr_colname(const struct tsvr *r, size_t i)
{
	return i < r->ncols ? r->names[i] : NULL;
}

int
tsvr_col(const struct tsvr *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ncols; i++)
		if (strcmp(r->names[i], name) == 0)
			return (int)i;
	return -1;
}

/*
 * One 64-byte block of a record line, looked at in one go: its TABs as
 * a bit mask (bit K for byte K), returned, and in *RARE whether it
 * holds a backslash or a NUL byte, which scan_rare() then finds.
 * Nothing is copied: a stage reads a few columns of records that run
 * to a kilobyte (Ascend kernels, with 500 bytes of PMU counters and,
 * late in a pipeline, a hundred empty columns), and writes most of them
 * through unchanged.  A line's blocks are mostly of the common kind:
 * one test is made of them, not two masks.
 */
#ifdef PROF_SSE2
static inline uint64_t
scan_block(const char *p, int *rare)
{
	const __m128i tab = _mm_set1_epi8('\t'), bs = _mm_set1_epi8('\\');
	__m128i v[4], any, least;
	uint64_t t = 0;
	int k;

	for (k = 0; k < 4; k++) {
		v[k] = _mm_loadu_si128((const __m128i *)(const void *)
		    (p + 16 * k));
		t |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[k],
		    tab)) << (16 * k);
	}
	/* a NUL is the least byte; a backslash is looked for */
	least = _mm_min_epu8(_mm_min_epu8(v[0], v[1]), _mm_min_epu8(v[2],
	    v[3]));
	any = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v[0], bs),
	    _mm_cmpeq_epi8(v[1], bs)), _mm_or_si128(_mm_cmpeq_epi8(v[2], bs),
	    _mm_cmpeq_epi8(v[3], bs)));
	any = _mm_or_si128(any, _mm_cmpeq_epi8(least, _mm_setzero_si128()));
	*rare = _mm_movemask_epi8(any);
	return t;
}

/* The backslashes and NUL bytes of the block at P. */
static uint64_t
scan_rare(const char *p)
{
	const __m128i bs = _mm_set1_epi8('\\'), nul = _mm_setzero_si128();
	uint64_t s = 0;
	int k;

	for (k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (p + 16 * k));

		s |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, bs), _mm_cmpeq_epi8(v, nul))) << (16 * k);
	}
	return s;
}
#else
/* The high bit of each zero byte of W, exactly (no borrow between bytes). */
static inline uint64_t
word_zero(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;

	return ~(((w & low7) + low7) | w | low7);
}

/* The high bits of the bytes of M (0x80 or 0) as 8 bits, first byte low. */
static inline unsigned
word_bits(uint64_t m)
{
	return (unsigned)(((m >> 7) * 0x0102040810204080ULL) >> 56);
}

/* The 8 bytes at P as a word, the first byte lowest. */
static inline uint64_t
word_at(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

static inline uint64_t
scan_block(const char *p, int *rare)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t t = 0, any = 0, w;
	int k;

	for (k = 0; k < 8; k++) {
		w = word_at(p + 8 * k);
		t |= (uint64_t)word_bits(word_zero(w ^ (ones * '\t'))) <<
		    (8 * k);
		any |= word_zero(w ^ (ones * '\\')) | word_zero(w);
	}
	*rare = any != 0;
	return t;
}

static uint64_t
scan_rare(const char *p)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t s = 0, w;
	int k;

	for (k = 0; k < 8; k++) {
		w = word_at(p + 8 * k);
		s |= (uint64_t)word_bits(word_zero(w ^ (ones * '\\')) |
		    word_zero(w)) << (8 * k);
	}
	return s;
}
#endif

/*
 * Store the offsets of the TABs of mask T, of the block at offset AT,
 * at Q, N of them or all there are, if fewer.  Eight stores whether
 * or not there are eight TABs, since a branch per TAB, whose count per
 * block varies from record to record, costs more than the stores: the
 * extra ones land in the room after (struct tsvr, pos) and are
 * overwritten or never read.  A zero mask's
 * bit 63 stands in for the missing TAB, as __builtin_ctzll(0) is
 * undefined.
 */
static inline void
keep_tabs(size_t *q, uint64_t t, size_t at, size_t n)
{
	size_t k;
	int j;

	/* the first N of them only: a block of empty columns has 64 */
	for (k = 0; k < n && t != 0; k += 8) {
		for (j = 0; j < 8; j++) {
			q[k + (size_t)j] = at +
			    (size_t)__builtin_ctzll(t | 1ULL << 63);
			t &= t - 1;
		}
	}
}

/*
 * The end of the input inside a record: a cut line is never a record,
 * as its last field may have lost digits (a time, a count) and still
 * parse.  -1 at the end, -2 after the diagnostic of a cut.
 */
static ssize_t
scan_end(struct tsvr *r)
{
	size_t n = r->rend - r->rstart;

	if (n == 0)
		return -1;
	r->line = r->iobuf + r->rstart;
	r->line[n] = '\0';		/* the byte kept free at rend */
	r->linelen = n;
	r->rstart = r->rend;
	r->lineno++;
	r->cut = 1;
	return tsvr_damaged(r, "unexpected end of file: the last record has "
	    "no newline (the stream is cut short)");
}

/*
 * The checks of a record's line that scan_record() left for the end,
 * in the order of their diagnostics: a NUL byte, then a CR before the
 * LF, the field count, and (once the fields are decoded) the escapes.
 */
static ssize_t
scan_check(struct tsvr *r, size_t ntab, int nul)
{
	if (r->linelen > 0 && r->line[r->linelen - 1] == '\r')
		return tsvr_damaged(r, nul ? "NUL byte" : "CR before LF");
	if (nul)
		return tsvr_damaged(r, "NUL byte");
	if (ntab + 1 != r->ncols)
		return tsvr_damaged(r, "expected %zu fields, got %zu",
		    r->ncols, ntab + 1);
	if (r->workcap < r->linelen + 1) {
		r->workcap = r->linelen + 1 + r->linelen / 2;
		r->work = xrealloc(r->work, r->workcap);
	}
	if (r->escaped && tsvr_split_all(r) < 0)
		return -2;
	return (ssize_t)r->linelen;
}

/*
 * Keep block NB of the line at P, at offset I, with NTAB TABs before
 * it: its TABs T (and the offsets of the first ones), and what its
 * backslashes and NUL bytes S make of the line (escaped, *NUL).
 */
static inline void
scan_keep(struct tsvr *r, const char *p, size_t i, size_t nb, size_t ntab,
    uint64_t t, uint64_t s, int *nul)
{
	r->tabm[nb] = t;
	r->tabc[nb] = ntab;
	if (ntab < r->keep)
		keep_tabs(r->pos + ntab + 1, t, i, r->keep - ntab);
	for (; s != 0; s &= s - 1) {
		if (p[i + (size_t)__builtin_ctzll(s)] == '\0')
			*nul = 1;
		else
			r->escaped = 1;
	}
}

/*
 * The record's line of LEN bytes at rstart was scanned: NB blocks, NTAB
 * TABs, NUL whether it holds a NUL byte.  Take it and check it.
 */
static ssize_t
scan_done(struct tsvr *r, size_t len, size_t nb, size_t ntab, int nul)
{
	r->line = r->iobuf + r->rstart;
	r->linelen = len;
	r->line[len] = '\0';
	r->rstart += len + 1;
	r->lineno++;
	r->nblk = nb;
	r->npos = ntab < r->keep ? ntab : r->keep;
	r->recno++;
	return scan_check(r, ntab, nul);
}

/*
 * Find the next record's line and check it: memchr() finds its end,
 * then one pass over its 64-byte blocks its TABs (kept as masks for
 * tsvr-field.c), NUL bytes and backslashes.  Returns its length, -1 at
 * the end of the input, or -2 after a diagnostic.
 */
static ssize_t
scan_record(struct tsvr *r)
{
	const char *p, *nl;
	size_t i, len, nb = 0, ntab = 0;
	uint64_t t, s;
	int nul = 0, rare;

	while ((nl = memchr(r->iobuf + r->rstart, '\n', r->rend -
	    r->rstart)) == NULL) {
		if (r->reof)
			return scan_end(r);
		rfill(r);
	}
	p = r->iobuf + r->rstart;
	len = (size_t)(nl - p);
	r->escaped = 0;
	for (i = 0; i < len; i += TSVR_BLOCK) {
		t = scan_block(p + i, &rare);
		s = rare ? scan_rare(p + i) : 0;
		if (len - i < TSVR_BLOCK) {	/* past the line's end */
			t &= ((uint64_t)1 << (len - i)) - 1;
			s &= ((uint64_t)1 << (len - i)) - 1;
		}
		scan_keep(r, p, i, nb++, ntab, t, s, &nul);
		ntab += tsvr_popcount(t);
	}
	return scan_done(r, len, nb, ntab, nul);
}

#ifdef PROF_AVX2
/* The bytes of the 64 at P equal to C, as a mask (bit K for byte K). */
__attribute__((target("avx2")))
static inline uint64_t
eq64(__m256i a, __m256i b, char c)
{
	const __m256i v = _mm256_set1_epi8(c);

	return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a,
	    v)) | (uint64_t)(uint32_t)_mm256_movemask_epi8(
	    _mm256_cmpeq_epi8(b, v)) << 32;
}

/*
 * scan_record() with AVX2: the same blocks, masks and checks, the line's
 * end found as the blocks are read.  A line not whole in the buffer is
 * scanned again from its start once more is read (once per megabyte).
 * The blocks may run up to 63 bytes past rend, into the slack: what
 * lies there is masked off.
 */
__attribute__((target("avx2,popcnt")))
static ssize_t
scan_record_avx2(struct tsvr *r)
{
	const char *p;
	size_t i, avail, nb, ntab;
	uint64_t t, e, s, in;
	int nul;

again:
	p = r->iobuf + r->rstart;
	avail = r->rend - r->rstart;
	nb = ntab = 0;
	nul = 0;
	r->escaped = 0;
	for (i = 0; ; i += TSVR_BLOCK) {
		__m256i a, b;

		if (i >= avail) {
			if (r->reof)
				return scan_end(r);
			rfill(r);
			goto again;
		}
		a = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
		b = _mm256_loadu_si256((const __m256i *)(const void *)(p + i +
		    32));
		e = eq64(a, b, '\n');
		in = avail - i < TSVR_BLOCK ? ((uint64_t)1 << (avail - i)) - 1 :
		    ~(uint64_t)0;
		if ((e &= in) != 0) {
			if (e & 1)	/* the block starts with the end */
				break;
			in = (e & -e) - 1;
		}
		t = eq64(a, b, '\t') & in;
		s = (eq64(a, b, '\\') | eq64(a, b, '\0')) & in;
		scan_keep(r, p, i, nb++, ntab, t, s, &nul);
		ntab += (size_t)__builtin_popcountll(t);
		if (e != 0)
			break;
	}
	return scan_done(r, i + (size_t)__builtin_ctzll(e), nb, ntab, nul);
}

/*
 * Whether this CPU runs scan_record_avx2(): asked once, by whichever of
 * a program's readers comes first (prof-merge reads on two threads).
 */
static int
have_avx2(void)
{
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		h = __builtin_cpu_supports("avx2") &&
		    __builtin_cpu_supports("popcnt");
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}
#endif

int
tsvr_next(struct tsvr *r)
{
	ssize_t n;

	if (r->bad)
		return -1;
#ifdef PROF_AVX2
	if (r->ncols == 0 || (n = have_avx2() ? scan_record_avx2(r) :
	    scan_record(r)) == -1)
		return 0;
#else
	if (r->ncols == 0 || (n = scan_record(r)) == -1)
		return 0;
#endif
	return n < 0 ? -1 : 1;
}

unsigned long
tsvr_lineno(const struct tsvr *r)
{
	return r->lineno;
}

const char *
tsvr_path(const struct tsvr *r)
{
	return r->path;
}

void
tsvr_close(struct tsvr *r)
{
	size_t i;

	if (r == NULL)
		return;
	if (r->fd != STDIN_FILENO)
		(void)close(r->fd);
	spool_close(r->spool);
	for (i = 0; i < r->npre; i++)
		free(r->pre[i]);
	for (i = 0; i < r->ncols; i++)
		free(r->names[i]);
	free(r->pre);
	free(r->names);
	free(r->f);
	free(r->pos);
	free(r->tabm);
	free(r->tabc);
	free(r->fld);
	free(r->flen);
	free(r->work);
	free(r->iobuf);
	free(r);
}
