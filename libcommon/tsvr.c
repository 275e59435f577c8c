/*
 * The prof-tsv stream, reading side: a reader that validates what it
 * reads (field counts, escapes, CR, NUL) so that a stage never computes
 * on a malformed record, and finds columns by name.  Records are split
 * in one pass over 64-byte blocks (split_fields()).  The writer is in
 * tsvw.c.
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

#include "diag.h"
#include "digits.h"
#include "tsv.h"
#include "xalloc.h"

#define RBUF_SIZE	(1 << 20)
/*
 * Bytes allocated past the read buffer: one for the NUL after a last
 * line without newline, and a block that split_fields() reads past a
 * line's end (kept initialised; what it reads there is masked off).
 */
#define RBUF_SLACK	(1 + 64)

struct tsvr {
	int		 fd;
	const char	*path;
	unsigned long	 lineno;
	char		*line;		/* raw line in iobuf, newline removed */
	size_t		 linelen;
	char		*work;		/* decoded copy, fields NUL-separated */
	size_t		 workcap;
	char		**pre;		/* preamble lines */
	size_t		 npre;
	char		**names;
	size_t		 ncols;
	size_t		*pos;		/* field starts in work, see split_fields */
	int		 escaped;	/* flen holds the decoded lengths */
	char		**fld;		/* for tsvr_fields() */
	size_t		*flen;
	char		*pending;	/* first line read past the preamble */
	int		 cut;		/* the last line read had no newline */
	int		 bad;		/* a record was damaged: no more */
	int		 timed;		/* a timed record was read */
	int64_t		 min_ts, max_end;	/* of every timed record */
	/* tsvr_record(): the order and the stream's end */
	int		 c_wait;	/* column wait_ns, or -1 */
	int		 rec_timed;	/* a timed record was taken */
	int64_t		 rec_last;	/* its ts_ns */
	int64_t		 rec_end;	/* the largest end taken */
	/*
	 * Lines are read in big blocks into iobuf (RBUF_SIZE bytes, more for
	 * a longer line, and RBUF_SLACK) and used where they lie, between
	 * rstart and rend: getline costs a copy and a search per record.
	 */
	char		*iobuf;
	size_t		 rcap, rstart, rend;
	int		 reof;
	/*
	 * An input read twice (tsvr_open_twice()): where the records start
	 * (bytes from where reading began), and the file they are read
	 * again from.  A regular file is read again where it lies (from
	 * START_OFF, its offset when it was opened); anything else is
	 * copied to a temporary file (SPOOL) as it is read.
	 */
	uint64_t	 base;		/* bytes read before iobuf[0] */
	uint64_t	 data_off;	/* of the first record */
	off_t		 start_off;
	int		 spool;		/* or -1 */
	int		 quiet;		/* damage is told in the second pass */
};

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

/* tsvr_damage(), as the value the reading functions return. */
#define tsvr_damaged(r, ...)	(tsvr_damage((r), __VA_ARGS__), -2)

int
tsvr_failed(const struct tsvr *r)
{
	return r->bad;
}

/* Write LEN bytes at P to the spool file. */
static void
spool_write(struct tsvr *r, const char *p, size_t len)
{
	ssize_t w;

	while (len > 0) {
		w = write(r->spool, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			diag_errno(EXIT_BAD, "spool file");
		p += w;
		len -= (size_t)w;
	}
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
	}
	do
		got = read(r->fd, r->iobuf + r->rend, r->rcap - r->rend);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		diag_errno(EXIT_BAD, "%s: read error", diag_path(r->path));
	if (got == 0)
		r->reof = 1;
	if (got > 0 && r->spool >= 0)
		spool_write(r, r->iobuf + r->rend, (size_t)got);
	r->rend += (size_t)got;
}

/*
 * Read one physical line: its length, -1 at EOF, or -2 after the
 * diagnostic of a damaged record line.  A record line (RECORD) is not
 * searched for NUL bytes here: split_fields finds them in the same
 * pass as the TABs.  A last line without its newline is returned with
 * r->cut set: every writer ends each line, so a stream that stops
 * inside a line was cut short (a full disk, a killed writer), and the
 * caller says so rather than take a field cut in two for a value.
 */
static ssize_t
rgetline(struct tsvr *r, int record)
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
	if (!record && memchr(r->line, '\0', (size_t)n) != NULL)
		diag_at_fatal(EXIT_BAD, r->path, r->lineno, "NUL byte");
	if (n > 0 && r->line[n - 1] == '\n')
		r->line[--n] = '\0';
	if (nl != NULL && n > 0 && r->line[n - 1] == '\r') {
		/* a NUL byte is the first complaint, as for other lines */
		if (record && memchr(r->line, '\0', (size_t)n) != NULL)
			return tsvr_damaged(r, "NUL byte");
		if (!record)
			diag_at_fatal(EXIT_BAD, r->path, r->lineno,
			    "CR before LF");
		return tsvr_damaged(r, "CR before LF");
	}
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
	r->pos = xcalloc(r->ncols + 1 + 8, sizeof(*r->pos));
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
	r->spool = -1;
	if (strcmp(r->path, "-") == 0)
		r->fd = STDIN_FILENO;
	else if ((r->fd = open(r->path, O_RDONLY)) < 0) {
		diag_warnerr("%s", r->path);
		free(r);
		return NULL;
	}
	/*
	 * Big reads: with the default 4 KiB buffer, system calls cost a
	 * third of a stage's time.
	 */
	r->rcap = RBUF_SIZE;
	r->iobuf = xcalloc(1, r->rcap + RBUF_SLACK);
	return r;
}

/* Read the preamble and the header (fatal errors), as tsvr_open() says. */
static struct tsvr *
rhead(struct tsvr *r)
{
	while (rgetline(r, 0) >= 0) {
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

/* The fixed leading columns, as tsvr_open_stream() says. */
static struct tsvr *
check_fixed(struct tsvr *r)
{
	size_t i;

	if (r == NULL || r->ncols == 0)
		return r;
	for (i = 0; i < TSV_NFIXED; i++)
		if (i >= r->ncols || strcmp(r->names[i], tsv_fixed_cols[i]) != 0)
			diag_at_fatal(EXIT_BAD, r->path, r->npre + 1,
			    "not a prof-tsv stream: column %zu is '%s', "
			    "expected '%s'", i + 1,
			    i < r->ncols ? r->names[i] : "", tsv_fixed_cols[i]);
	return r;
}

struct tsvr *
tsvr_open_stream(const char *path)
{
	return check_fixed(tsvr_open(path));
}

/* A temporary file in DIR, removed at once: it lives while it is open. */
static int
spool_open(const char *dir)
{
	size_t n = strlen(dir) + 32;
	char *path = xmalloc(n);
	int fd, err;

	snprintf(path, n, "%s/prof-spool.XXXXXX", dir);
	fd = mkstemp(path);
	err = errno;
	if (fd >= 0)
		unlink(path);
	free(path);
	if (fd < 0) {
		errno = err;
		diag_errno(EXIT_BAD, "%s: temporary file", dir);
	}
	return fd;
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

void
tsvr_rewind(struct tsvr *r)
{
	off_t at = r->start_off + (off_t)r->data_off;

	if (r->spool >= 0) {
		while (!r->reof) {	/* copy what the first pass left */
			r->rstart = r->rend;
			rfill(r);
		}
		if (r->fd != STDIN_FILENO)
			(void)close(r->fd);
		r->fd = r->spool;
		r->spool = -1;
		at = (off_t)r->data_off;
	}
	if (lseek(r->fd, at, SEEK_SET) != at)
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
 * One 64-byte block of a record line, looked at in one go: the TAB bytes
 * as a bit mask (bit K for byte K) in *TABS, the rarer bytes that need a
 * closer look (backslash, NUL) as the mask returned, and a copy of the
 * bytes at OUT with every TAB made a NUL, so that each field becomes a C
 * string in the same pass.  Ascend kernel records run to 700 bytes of
 * PMU counters, and a stage reads millions of them: one pass, few
 * branches.  The masks are exact.
 */
#define SPLIT_STEP	64

#ifdef PROF_SSE2
static inline uint64_t
split_block(const char *p, char *out, uint64_t *tabs)
{
	const __m128i tab = _mm_set1_epi8('\t'), bs = _mm_set1_epi8('\\');
	uint64_t t = 0, s = 0;
	int k;

	for (k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (p + 16 * k));
		__m128i ist = _mm_cmpeq_epi8(v, tab);
		__m128i iss = _mm_or_si128(_mm_cmpeq_epi8(v, bs),
		    _mm_cmpeq_epi8(v, _mm_setzero_si128()));

		_mm_storeu_si128((__m128i *)(void *)(out + 16 * k),
		    _mm_andnot_si128(ist, v));
		t |= (uint64_t)(unsigned)_mm_movemask_epi8(ist) << (16 * k);
		s |= (uint64_t)(unsigned)_mm_movemask_epi8(iss) << (16 * k);
	}
	*tabs = t;
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

static inline uint64_t
split_block(const char *p, char *out, uint64_t *tabs)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t t = 0, s = 0, w, wt;
	int k;

	for (k = 0; k < 8; k++) {
		memcpy(&w, p + 8 * k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);	/* first byte lowest */
#endif
		wt = word_zero(w ^ (ones * '\t'));
		t |= (uint64_t)word_bits(wt) << (8 * k);
		s |= (uint64_t)word_bits(word_zero(w ^ (ones * '\\')) |
		    word_zero(w)) << (8 * k);
		w &= ~((wt >> 7) * 0xff);	/* TABs become NULs */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		w = __builtin_bswap64(w);
#endif
		memcpy(out + 8 * k, &w, 8);
	}
	*tabs = t;
	return s;
}
#endif

/*
 * Set bits of X.  Not __builtin_popcountll: without -mpopcnt, which the
 * x86-64 baseline lacks, that is a call into libgcc per block.
 */
static inline size_t
popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (size_t)((x * 0x0101010101010101ULL) >> 56);
}

/*
 * Split the current line into fields, copied to the work buffer and
 * NUL-terminated, and decode them.  Field K starts at offset pos[K] and
 * its raw text ends one byte before pos[K + 1], so that recording a
 * field costs one store; the loop that stores them writes eight at a
 * time whatever the count (pos has room), since a branch per TAB, whose
 * count per block varies from record to record, costs more than the
 * stores.  Lengths are kept apart only when an escape shortened them.
 */
static int
split_fields(struct tsvr *r)
{
	/* locals, not r's fields: a byte store may alias any of those */
	const char *line = r->line;
	char *work = r->work;
	size_t *pos = r->pos, ncols = r->ncols, len = r->linelen;
	size_t i, k, nf = 1, ntab;
	int escaped = 0;
	uint64_t tabs, spec;

	pos[0] = 0;
	for (i = 0; i < len; i += SPLIT_STEP) {
		spec = split_block(line + i, work + i, &tabs);
		if (len - i < SPLIT_STEP) {	/* the last block */
			spec &= (1ULL << (len - i)) - 1;
			tabs &= (1ULL << (len - i)) - 1;
		}
		for (; spec != 0; spec &= spec - 1) {
			if (line[i + (size_t)__builtin_ctzll(spec)] == '\0')
				return tsvr_damaged(r, "NUL byte");
			escaped = 1;
		}
		if (tabs == 0)
			continue;
		ntab = popcount64(tabs);
		if (nf + ntab > ncols) {	/* too many: only count */
			nf += ntab;
			continue;
		}
		/*
		 * Eight stores whether or not there are eight TABs; the
		 * extra ones land in the room after pos[nf + ntab] and are
		 * overwritten or never read.  A zero mask's bit 63 stands
		 * in for the missing TAB, as __builtin_ctzll(0) is undefined.
		 */
		for (k = 0; k < ntab; k += 8) {
			size_t *q = pos + nf + k, b = i + 1;
			int j;

			for (j = 0; j < 8; j++) {
				q[j] = b + (size_t)__builtin_ctzll(tabs |
				    1ULL << 63);
				tabs &= tabs - 1;
			}
		}
		nf += ntab;
	}
	if (nf != ncols)
		return tsvr_damaged(r, "expected %zu fields, got %zu", ncols,
		    nf);
	work[len] = '\0';
	pos[ncols] = len + 1;
	r->escaped = escaped;
	if (!escaped)
		return 0;
	for (k = 0; k < ncols; k++) {
		size_t off = pos[k], rawlen = pos[k + 1] - off - 1;
		ssize_t n = unescape(work + off, rawlen);

		if (n < 0) {
			/* The field as read: unescape() changed it. */
			int show = rawlen > 60 ? 60 : (int)rawlen;

			return tsvr_damaged(r,
			    "column '%s': invalid escape in '%.*s%s'",
			    r->names[k], show, line + off,
			    rawlen > 60 ? "..." : "");
		}
		r->flen[k] = (size_t)n;
	}
	return 0;
}

int
tsvr_next(struct tsvr *r)
{
	ssize_t n;

	if (r->bad)
		return -1;
	if (r->ncols == 0 || (n = rgetline(r, 1)) == -1)
		return 0;
	if (n < 0)
		return -1;
	/*
	 * A cut line is never a record: its last field may have lost
	 * digits (a time, a count) and still parse.
	 */
	if (r->cut) {
		tsvr_damage(r, "unexpected end of file: the last record has "
		    "no newline (the stream is cut short)");
		return -1;
	}
	if (r->workcap < r->linelen + 1 + SPLIT_STEP) {
		/* split_fields writes a whole block past the end */
		r->workcap = r->linelen + 1 + SPLIT_STEP + r->linelen / 2;
		r->work = xrealloc(r->work, r->workcap);
	}
	if (split_fields(r) < 0)
		return -1;
	return 1;
}

/* Decoded length of field I of the current record. */
static inline size_t
field_len(const struct tsvr *r, size_t i)
{
	return r->escaped ? r->flen[i] : r->pos[i + 1] - r->pos[i] - 1;
}

const char *
tsvr_field(const struct tsvr *r, size_t i, size_t *len)
{
	if (len != NULL)
		*len = field_len(r, i);
	return r->work + r->pos[i];
}

char *const *
tsvr_fields(const struct tsvr *r, const size_t **lens)
{
	size_t i;

	/* r's arrays, not r, are written: made on demand, for few callers */
	for (i = 0; i < r->ncols; i++) {
		r->fld[i] = r->work + r->pos[i];
		if (!r->escaped)
			r->flen[i] = r->pos[i + 1] - r->pos[i] - 1;
	}
	*lens = r->flen;
	return r->fld;
}

const char *
tsvr_rawfield(const struct tsvr *r, size_t i, size_t *len)
{
	/* Unescaping is in place, so fields start where they did. */
	*len = r->pos[i + 1] - r->pos[i] - 1;
	return r->line + r->pos[i];
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
	int64_t v;

	size_t len = field_len(r, i);
	const char *f = r->work + r->pos[i];

	if (len == 0) {
		if (absent != NULL)
			*absent = 1;
		return 0;
	}
	if (absent != NULL)
		*absent = 0;
	if (tsv_parse_i64(f, len, &v) != 0)
		diag_at_fatal(EXIT_BAD, r->path, r->lineno,
		    "column '%s': invalid integer '%s'", r->names[i], f);
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
	size_t tlen = field_len(r, 1), dlen = field_len(r, 2);
	const char *t = r->work + r->pos[1], *d = r->work + r->pos[2];
	int64_t end = 0;

	*ts = TSV_NO_TS;
	*dur = -1;
	if (tlen > 0 && tsv_parse_i64(t, tlen, ts) != 0)
		tsvr_damage(r, "column 'ts_ns': invalid integer '%s'", t);
	else if (tlen > 0 && *ts == TSV_NO_TS)
		tsvr_damage(r, "column 'ts_ns': '%s' is out of range (the "
		    "earliest time is -9223372036854775807)", t);
	else if (dlen > 0 && tsv_parse_i64(d, dlen, dur) != 0)
		tsvr_damage(r, "column 'dur_ns': invalid integer '%s'", d);
	else if (dlen > 0 && *dur < 0)
		tsvr_damage(r, "column 'dur_ns': negative duration '%s'", d);
	else if (dlen > 0 && tlen > 0 &&
	    __builtin_add_overflow(*ts, *dur, &end))
		tsvr_damage(r, "ts_ns + dur_ns overflows 64-bit nanoseconds: "
		    "'%s' + '%s'", t, d);
	/* a kernel is a task on the device: it always has an extent */
	else if ((tlen == 0 || dlen == 0) && field_len(r, 0) == 6 &&
	    memcmp(r->work + r->pos[0], "kernel", 6) == 0)
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
	const char *s = tsvr_field(r, (size_t)r->c_wait, &len);
	int64_t w;

	if (len == 0)
		return 1;
	if (tsv_parse_i64(s, len, &w) != 0)
		tsvr_damage(r, "column 'wait_ns': invalid integer '%s'", s);
	else if (w < 0)
		tsvr_damage(r, "column 'wait_ns': negative wait '%s'", s);
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
	for (i = 0; i < r->npre; i++)
		free(r->pre[i]);
	for (i = 0; i < r->ncols; i++)
		free(r->names[i]);
	free(r->pre);
	free(r->names);
	free(r->pos);
	free(r->fld);
	free(r->flen);
	free(r->work);
	free(r->iobuf);
	free(r);
}
