/*
 * The prof-tsv stream, writing side: a buffered writer that escapes
 * every field, and the escaping and integer formatting stages use to
 * build whole lines themselves.  The reader is in tsvr.c.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simd.h"

#include "diag.h"
#include "tsv.h"
#include "xalloc.h"

#define WBUF_SIZE	(1 << 20)
#define WDIRECT_SIZE	(1 << 16)	/* tsvw_write() past the buffer */

struct tsvw {
	int		 fd;
	const char	*path;
	char		*buf;
	size_t		 n;
	int		 infield;	/* a field was written on this line */
	uint64_t	 bytes;
};

void
tsv_widen_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat sb;

	if (fstat(fd, &sb) == 0 && S_ISFIFO(sb.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, TSV_PIPE_SIZE);
#else
	(void)fd;
#endif
}

struct tsvw *
tsvw_open(int fd, const char *path)
{
	struct tsvw *w = xcalloc(1, sizeof(*w));

	tsv_widen_pipe(fd);
	w->fd = fd;
	w->path = path;
	w->buf = xmalloc(WBUF_SIZE);
	return w;
}

/* Write the LEN bytes at S to W's file, past its buffer. */
static void
write_all(struct tsvw *w, const char *s, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t r = write(w->fd, s + off, len - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			diag_errno(EXIT_BAD, "write error");
		}
		off += (size_t)r;
	}
	w->bytes += len;
}

void
tsvw_flush(struct tsvw *w)
{
	write_all(w, w->buf, w->n);
	w->n = 0;
}

/* Make room for LEN more bytes, flushing when the buffer is full. */
static char *
wreserve(struct tsvw *w, size_t len)
{
	if (w->n + len > WBUF_SIZE) {
		tsvw_flush(w);
		if (len > WBUF_SIZE) {
			/* Only a single huge field gets here. */
			w->buf = xrealloc(w->buf, len);
		}
	}
	return w->buf + w->n;
}

char *
tsvw_reserve(struct tsvw *w, size_t len)
{
	return wreserve(w, len);
}

void
tsvw_commit(struct tsvw *w, size_t len)
{
	w->n += len;
}

void
tsvw_write(struct tsvw *w, const char *s, size_t len)
{
	/*
	 * A long run (a stage's queue let go at once) goes past the
	 * buffer: a copy into it would be a second pass over every byte.
	 */
	if (len >= WDIRECT_SIZE) {
		tsvw_flush(w);
		write_all(w, s, len);
		return;
	}
	if (w->n + len > WBUF_SIZE)
		tsvw_flush(w);
	memcpy(w->buf + w->n, s, len);
	w->n += len;
}

void
tsvw_stage(struct tsvw *w, const char *prog, int argc, char *const argv[])
{
	size_t n, cap = strlen(prog) + sizeof(PACKAGE_VERSION) + 8;
	char *line;
	int i;

	for (i = 1; i < argc; i++)
		cap += 2 * strlen(argv[i]) + 1;
	line = xmalloc(cap);
	n = (size_t)snprintf(line, cap, "stage %s %s", prog, PACKAGE_VERSION);
	for (i = 1; i < argc; i++) {
		line[n++] = ' ';
		n += tsv_escape(argv[i], strlen(argv[i]), line + n);
	}
	line[n] = '\0';
	tsvw_preamble(w, line);
	free(line);
}

static void
wsep(struct tsvw *w)
{
	if (w->infield)
		*wreserve(w, 1) = '\t', w->n++;
	w->infield = 1;
}

/* Bytes that prof-tsv escapes: TAB, LF, CR and the backslash. */
static const unsigned char special[256] = {
	['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\\'] = '\\'
};

/*
 * Whether any of the 8 bytes of W is TAB, LF, CR or backslash: the
 * classic "has zero byte" test applied to W XOR each special byte.
 */
static int
word_has_special(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t t = w ^ (ones * '\t'), n = w ^ (ones * '\n');
	uint64_t r = w ^ (ones * '\r'), b = w ^ (ones * '\\');

	return (((t - ones) & ~t) | ((n - ones) & ~n) | ((r - ones) & ~r) |
	    ((b - ones) & ~b)) & high ? 1 : 0;
}

#ifdef PROF_SSE2
/* Bits for the bytes of V that prof-tsv escapes. */
static inline unsigned
special_v(__m128i v)
{
	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))), _mm_or_si128(
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
	    _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')))));
}

/* Bits for the bytes of the 16 at P that prof-tsv escapes. */
static inline unsigned
special16(const char *p)
{
	return special_v(_mm_loadu_si128((const __m128i *)(const void *)p));
}
#endif

/*
 * Whether either word has a byte to escape (a zero byte has none).  With
 * SSE2 both are checked in one register: the word test needs so many
 * constants that a short field would pay more to save registers for it
 * than to check its bytes.
 */
static inline int
words_have_special(uint64_t a, uint64_t b)
{
#ifdef PROF_SSE2
	return special_v(_mm_set_epi64x((long long)b, (long long)a)) != 0;
#else
	return word_has_special(a) || word_has_special(b);
#endif
}

/*
 * Length of the leading run of S that needs no escape.  Fields are
 * mostly plain, and mostly short: the last 16 (or 8) bytes are checked
 * with one load that overlaps bytes already known plain, so the first
 * special byte it finds is still the first of the field.
 */
static size_t
plain_span(const char *s, size_t len)
{
	size_t j = 0;
	uint64_t w;
#ifdef PROF_SSE2
	unsigned m;

	if (len >= 16) {
		for (; j + 16 <= len; j += 16)
			if ((m = special16(s + j)) != 0)
				return j + (size_t)__builtin_ctz(m);
		if (j < len && (m = special16(s + len - 16)) != 0)
			return len - 16 + (size_t)__builtin_ctz(m);
		return len;
	}
#endif
	for (; j + 8 <= len; j += 8) {
		memcpy(&w, s + j, 8);
		if (word_has_special(w))
			break;
	}
	if (j + 8 > len && j < len && len >= 8) {
		memcpy(&w, s + len - 8, 8);
		if (!word_has_special(w))
			return len;
	}
	while (j < len && !special[(unsigned char)s[j]])
		j++;
	return j;
}

/*
 * copy_plain() for a field shorter than 16 bytes, which most are: a
 * name, a number, a tag.  Its head and tail, two overlapping words of 8
 * (or 4) bytes, or its first, middle and last byte, are checked in one
 * go and stored whole; a loop over the bytes would cost several times
 * that.  Only a field with something to escape is taken a byte at a
 * time.
 */
static size_t
copy_short(const char *s, size_t len, char *out)
{
	uint64_t a, b;
	uint32_t a4, b4;
	size_t j;

	if (len >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + len - 8, 8);
		if (!words_have_special(a, b)) {
			memcpy(out, &a, 8);
			memcpy(out + len - 8, &b, 8);
			return len;
		}
	} else if (len >= 4) {
		memcpy(&a4, s, 4);
		memcpy(&b4, s + len - 4, 4);
		if (!words_have_special(a4, b4)) {
			memcpy(out, &a4, 4);
			memcpy(out + len - 4, &b4, 4);
			return len;
		}
	} else if (len > 0) {
		unsigned char c0 = (unsigned char)s[0];
		unsigned char c1 = (unsigned char)s[len / 2];
		unsigned char c2 = (unsigned char)s[len - 1];

		if (!words_have_special(c0 | c1 << 8 | (uint64_t)c2 << 16,
		    0)) {
			out[0] = (char)c0;
			out[len / 2] = (char)c1;
			out[len - 1] = (char)c2;
			return len;
		}
	}
	for (j = 0; j < len && !special[(unsigned char)s[j]]; j++)
		out[j] = s[j];
	return j;
}

/*
 * Copy the leading run of S that needs no escape to OUT; returns its
 * length.  Most fields are plain through and through, so this copies
 * while it checks: 16 bytes per load and store, the last 16 again with
 * an overlapping pair.
 */
static size_t
copy_plain(const char *s, size_t len, char *out)
{
	size_t j = 0;
#ifdef PROF_SSE2
	__m128i v;
	unsigned m = 0;
#endif

	if (len < 16)
		return copy_short(s, len, out);
#ifdef PROF_SSE2
	for (; j + 16 <= len; j += 16) {
		if ((m = special16(s + j)) != 0)
			break;
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + j));
		_mm_storeu_si128((__m128i *)(void *)(out + j), v);
	}
	if (m == 0 && j < len && (m = special16(s + len - 16)) == 0) {
		v = _mm_loadu_si128((const __m128i *)(const void *)
		    (s + len - 16));
		_mm_storeu_si128((__m128i *)(void *)(out + len - 16), v);
		return len;
	}
	if (m == 0)
		return len;
	/* The first special byte is in the block at J or after. */
#endif
	for (; j < len && !special[(unsigned char)s[j]]; j++)
		out[j] = s[j];
	return j;
}

/* Escape the rest of S, from its first special byte at I on. */
static size_t __attribute__((noinline))
escape_rest(const char *s, size_t len, char *out, size_t i)
{
	size_t n = i;

	/* Copy stretches of plain bytes whole between the escapes. */
	while (i < len) {
		size_t j = i + plain_span(s + i, len - i);

		memcpy(out + n, s + i, j - i);
		n += j - i;
		if (j == len)
			break;
		out[n++] = '\\';
		out[n++] = (char)special[(unsigned char)s[j]];
		i = j + 1;
	}
	return n;
}

/*
 * The plain case, nearly every field, stays a leaf that needs no
 * registers saved: a stage escapes 7 or more short values per record.
 */
size_t
tsv_escape(const char *s, size_t len, char *out)
{
	size_t i = copy_plain(s, len, out);

	return i == len ? len : escape_rest(s, len, out, i);
}

/* Whether S needs escaping at all: the common case is no. */
static int
needs_escape(const char *s, size_t len)
{
	return plain_span(s, len) != len;
}

void
tsvw_field(struct tsvw *w, const char *s, size_t len)
{
	char *p;

	wsep(w);
	if (!needs_escape(s, len)) {
		p = wreserve(w, len);
		memcpy(p, s, len);
		w->n += len;
		return;
	}
	p = wreserve(w, 2 * len);
	w->n += tsv_escape(s, len, p);
}

void
tsvw_str(struct tsvw *w, const char *s)
{
	tsvw_field(w, s, strlen(s));
}

void
tsvw_raw(struct tsvw *w, const char *s, size_t len)
{
	char *p;

	wsep(w);
	p = wreserve(w, len);
	memcpy(p, s, len);
	w->n += len;
}

/* The number of decimal digits of U. */
static size_t
ndigits(uint64_t u)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL,
		1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL,
		10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL
	};
	/* 1233 / 4096 is just over log10(2): T is the count or one more */
	size_t t = (size_t)((64 - __builtin_clzll(u | 1)) * 1233) >> 12;

	return t + 1 - ((u | 1) < pow10[t]);
}

static const char pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930"
    "31323334353637383940414243444546474849505152535455565758596061"
    "62636465666768697071727374757677787980818283848586878889909192"
    "93949596979899";

/* Write the 8 digits of X < 10^8, zeros first, to end at E. */
static void
put8(char *e, uint32_t x)
{
	uint32_t hi = x / 10000, lo = x % 10000;

	memcpy(e - 2, pairs + 2 * (lo % 100), 2);
	memcpy(e - 4, pairs + 2 * (lo / 100), 2);
	memcpy(e - 6, pairs + 2 * (hi % 100), 2);
	memcpy(e - 8, pairs + 2 * (hi / 100), 2);
}

/*
 * Write V in decimal at BUF (TSV_I64_MAX bytes, no NUL), from the end:
 * snprintf costs more than the rest of a record's output, and every
 * record has four numbers.  A nanosecond timestamp has 19 digits, so
 * they go 8 at a time, each 8 in 32-bit arithmetic, then two at a time.
 * Returns the length.
 */
size_t
tsv_i64_any(char *buf, int64_t v)
{
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = ndigits(u) + (v < 0);
	char *e = buf + n;
	uint32_t x;

	for (; u >= 100000000; u /= 100000000, e -= 8)
		put8(e, (uint32_t)(u % 100000000));
	for (x = (uint32_t)u; x >= 100; x /= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (x % 100), 2);
	}
	if (x >= 10) {
		e -= 2;
		memcpy(e, pairs + 2 * x, 2);
	} else
		*--e = (char)('0' + x);
	if (v < 0)
		*buf = '-';
	return n;
}

void
tsvw_i64(struct tsvw *w, int64_t v)
{
	wsep(w);
	w->n += tsv_i64(wreserve(w, TSV_I64_MAX), v);
}

void
tsvw_empty(struct tsvw *w)
{
	wsep(w);
}

void
tsvw_end(struct tsvw *w)
{
	*wreserve(w, 1) = '\n';
	w->n++;
	w->infield = 0;
}

void
tsvw_preamble(struct tsvw *w, const char *line)
{
	size_t len = strlen(line);
	char *p = wreserve(w, len + 2);

	p[0] = '#';
	memcpy(p + 1, line, len);
	p[len + 1] = '\n';
	w->n += len + 2;
}

void
tsvw_header(struct tsvw *w, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		tsvw_str(w, names[i]);
	tsvw_end(w);
}

uint64_t
tsvw_bytes(const struct tsvw *w)
{
	return w->bytes + w->n;
}

void
tsvw_close(struct tsvw *w)
{
	if (w == NULL)
		return;
	tsvw_flush(w);
	free(w->buf);
	free(w);
}
