/*
 * Decoding compressed streams (see unz.h).
 *
 * libarchive decodes these formats too, but its filters fill an output
 * block before handing anything over and drop that block when the input
 * ends early (64 KiB of gzip, a whole 4 MiB lz4 block), and its gzip
 * filter never compares a member's CRC-32 and length with its trailer,
 * so one changed byte passes unnoticed.  Here each format goes through
 * its own library (zlib, libzstd, liblzma, libbz2; lz4 is decoded in
 * this file, down to the last sequence of a cut block) one step at a
 * time, and whatever a step produced is handed over before an error is.
 *
 * One driver, unz_read, refills the input and calls the format's step
 * function; a step that makes no progress once the input has ended is
 * a truncation, whatever the format.  Concatenated gzip members, bzip2
 * streams and zstd and lz4 frames are read one after another, as their
 * command-line tools do; anything after the last one is an error.
 */
#include <config.h>

#include <bzlib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <limits.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "diag.h"
#include "unz.h"
#include "xalloc.h"

#define UNZ_BLOCK	(1 << 20)	/* compressed bytes read at a time */

/* What a step function tells the driver. */
#define S_GO	0		/* progress made, or input wanted */
#define S_END	1		/* the data ended where it may end */
#define S_ERR	(-1)		/* u->msg says what is wrong */

enum ustate { U_OK, U_END, U_ERR, U_DEAD };

struct lz4;

struct unz {
	enum unz_kind	 kind;
	unz_readfn	 rd;
	void		*arg;
	char		*where;
	char		*what;		/* "file", "member" */
	unsigned char	*ib;		/* compressed input */
	size_t		 ipos, ilen;
	uint64_t	 ioff;		/* offset of ib[0] in the data */
	int		 ieof;
	enum ustate	 state;
	char		 msg[256];
	uintmax_t	 member;	/* members, streams or frames begun */
	int		 inside;	/* one of them is not finished */
	int		 ready;		/* the library's stream is set up */
	z_stream	 z;
	lzma_stream	 x;
	bz_stream	 b;
	ZSTD_DStream	*zs;
	struct lz4	*l;
	int		(*step)(struct unz *, unsigned char *, size_t,
			    size_t *);
};

/* The offset of the next compressed byte, for messages. */
static uintmax_t
at(const struct unz *u)
{
	return (uintmax_t)(u->ioff + u->ipos);
}

static int
fail(struct unz *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Set the message the next unz_read reports; returns S_ERR. */
static int
fail(struct unz *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof(u->msg), fmt, ap);
	va_end(ap);
	return S_ERR;
}

/* Bytes that follow the last member: say so rather than guess at them. */
static int
trailing(struct unz *u)
{
	return fail(u, "unexpected data after the end of the %s data, at "
	    "byte %ju", unz_name(u->kind), at(u));
}

/* ---- gzip ---- */

static int
step_gz(struct unz *u, unsigned char *out, size_t cap, size_t *made)
{
	size_t avail = u->ilen - u->ipos;
	int r;

	if (!u->inside) {
		if (avail == 0)
			return u->ieof ? S_END : S_GO;
		if (u->ib[u->ipos] != 0x1f)
			return trailing(u);
		if (u->ready)
			inflateReset(&u->z);
		else if (inflateInit2(&u->z, 15 + 16) != Z_OK)
			diag_err(EXIT_BAD, "out of memory");
		u->ready = 1;
		u->inside = 1;
		u->member++;
	}
	u->z.next_in = u->ib + u->ipos;
	u->z.avail_in = (uInt)avail;
	u->z.next_out = out;
	u->z.avail_out = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
	r = inflate(&u->z, Z_NO_FLUSH);
	*made = (size_t)(u->z.next_out - out);
	u->ipos = u->ilen - u->z.avail_in;
	switch (r) {
	case Z_STREAM_END:
		u->inside = 0;
		/* FALLTHROUGH */
	case Z_OK:
	case Z_BUF_ERROR:
		return S_GO;
	case Z_MEM_ERROR:
		diag_err(EXIT_BAD, "out of memory");
	default:
		break;
	}
	/* zlib's messages, in the words of what they mean to the user. */
	if (u->z.msg != NULL && strcmp(u->z.msg, "incorrect data check") == 0)
		return fail(u, "gzip member %ju fails its CRC-32 check (the "
		    "trailer ending at byte %ju does not match the data): the "
		    "data is corrupt", u->member, at(u));
	if (u->z.msg != NULL && strcmp(u->z.msg, "incorrect length check") == 0)
		return fail(u, "gzip member %ju fails its length check (the "
		    "size in the trailer ending at byte %ju is not the size "
		    "of the data): the data is corrupt", u->member, at(u));
	if (u->member > 1 && u->z.total_in < 10)
		return trailing(u);
	return fail(u, "corrupt gzip data at byte %ju (%s)", at(u),
	    u->z.msg != NULL ? u->z.msg : "inflate failed");
}

/* ---- zstd ---- */

static int
step_zstd(struct unz *u, unsigned char *out, size_t cap, size_t *made)
{
	ZSTD_inBuffer in = { u->ib, u->ilen, u->ipos };
	ZSTD_outBuffer o = { out, cap, 0 };
	size_t r;

	if (!u->inside && u->ipos == u->ilen)
		return u->ieof ? S_END : S_GO;
	if (u->zs == NULL && (u->zs = ZSTD_createDStream()) == NULL)
		diag_err(EXIT_BAD, "out of memory");
	if (!u->inside)
		u->member++;
	r = ZSTD_decompressStream(u->zs, &o, &in);
	*made = o.pos;
	u->ipos = in.pos;
	if (ZSTD_isError(r)) {
		switch (ZSTD_getErrorCode(r)) {
		case ZSTD_error_checksum_wrong:
			return fail(u, "zstd frame %ju fails its checksum "
			    "(at byte %ju): the data is corrupt", u->member,
			    at(u));
		case ZSTD_error_prefix_unknown:
			if (u->member > 1 && !u->inside)
				return trailing(u);
			break;
		case ZSTD_error_memory_allocation:
			diag_err(EXIT_BAD, "out of memory");
		default:
			break;
		}
		return fail(u, "corrupt zstd data at byte %ju (%s)", at(u),
		    ZSTD_getErrorName(r));
	}
	/* 0: the frame is decoded and flushed; the next byte starts one. */
	u->inside = r != 0;
	return S_GO;
}

/* ---- xz ---- */

static int
step_xz(struct unz *u, unsigned char *out, size_t cap, size_t *made)
{
	lzma_ret r;

	if (!u->ready) {
		u->x = (lzma_stream)LZMA_STREAM_INIT;
		if (lzma_stream_decoder(&u->x, UINT64_MAX, LZMA_CONCATENATED) !=
		    LZMA_OK)
			diag_err(EXIT_BAD, "out of memory");
		u->ready = 1;
		u->member = 1;
	}
	u->x.next_in = u->ib + u->ipos;
	u->x.avail_in = u->ilen - u->ipos;
	u->x.next_out = out;
	u->x.avail_out = cap;
	/* LZMA_FINISH once the input has ended, and from then on. */
	r = lzma_code(&u->x, u->ieof ? LZMA_FINISH : LZMA_RUN);
	*made = (size_t)(u->x.next_out - out);
	u->ipos = u->ilen - u->x.avail_in;
	switch (r) {
	case LZMA_OK:
	case LZMA_BUF_ERROR:	/* no progress: more input, or truncated */
		return S_GO;
	case LZMA_STREAM_END:
		return S_END;
	case LZMA_MEM_ERROR:
		diag_err(EXIT_BAD, "out of memory");
	case LZMA_FORMAT_ERROR:
		return fail(u, "not xz data at byte %ju", at(u));
	case LZMA_OPTIONS_ERROR:
		return fail(u, "xz data at byte %ju uses options this "
		    "decoder does not support", at(u));
	case LZMA_DATA_ERROR:
		return fail(u, "corrupt xz data at byte %ju (a check failed "
		    "or the compressed data is damaged)", at(u));
	default:
		return fail(u, "corrupt xz data at byte %ju (liblzma error "
		    "%d)", at(u), (int)r);
	}
}

/* ---- bzip2 ---- */

static int
step_bz(struct unz *u, unsigned char *out, size_t cap, size_t *made)
{
	size_t avail = u->ilen - u->ipos;
	int r;

	if (!u->inside) {
		if (avail == 0)
			return u->ieof ? S_END : S_GO;
		if (u->ib[u->ipos] != 'B')
			return trailing(u);
		if (u->ready)
			BZ2_bzDecompressEnd(&u->b);
		memset(&u->b, 0, sizeof(u->b));
		if (BZ2_bzDecompressInit(&u->b, 0, 0) != BZ_OK)
			diag_err(EXIT_BAD, "out of memory");
		u->ready = 1;
		u->inside = 1;
		u->member++;
	}
	u->b.next_in = (char *)(u->ib + u->ipos);
	u->b.avail_in = avail > UINT_MAX ? UINT_MAX : (unsigned)avail;
	u->b.next_out = (char *)out;
	u->b.avail_out = cap > UINT_MAX ? UINT_MAX : (unsigned)cap;
	r = BZ2_bzDecompress(&u->b);
	*made = (size_t)((unsigned char *)u->b.next_out - out);
	u->ipos = (size_t)((unsigned char *)u->b.next_in - u->ib);
	switch (r) {
	case BZ_STREAM_END:
		u->inside = 0;
		/* FALLTHROUGH */
	case BZ_OK:
		return S_GO;
	case BZ_MEM_ERROR:
		diag_err(EXIT_BAD, "out of memory");
	case BZ_DATA_ERROR_MAGIC:
		if (u->member > 1)
			return trailing(u);
		return fail(u, "not bzip2 data at byte %ju", at(u));
	default:
		return fail(u, "corrupt bzip2 data at byte %ju (a block fails "
		    "its CRC check or is damaged)", at(u));
	}
}

/* ---- lz4 ---- */

/*
 * XXH32, the checksum of the lz4 frame format (header, blocks, content),
 * after its reference description.
 */
#define X1	2654435761U
#define X2	2246822519U
#define X3	3266489917U
#define X4	668265263U
#define X5	374761393U

struct xxh32 {
	uint32_t	 v[4];
	unsigned char	 buf[16];
	size_t		 blen;
	uint64_t	 total;
};

static uint32_t
rotl32(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint32_t
xxh_round(uint32_t acc, uint32_t in)
{
	return rotl32(acc + in * X2, 13) * X1;
}

static void
xxh_init(struct xxh32 *h)
{
	memset(h, 0, sizeof(*h));
	h->v[0] = X1 + X2;
	h->v[1] = X2;
	h->v[2] = 0;
	h->v[3] = 0 - X1;
}

static void
xxh_update(struct xxh32 *h, const unsigned char *p, size_t n)
{
	size_t k;

	h->total += n;
	if (h->blen > 0) {
		k = 16 - h->blen < n ? 16 - h->blen : n;
		memcpy(h->buf + h->blen, p, k);
		h->blen += k;
		p += k;
		n -= k;
		if (h->blen < 16)
			return;
		for (k = 0; k < 4; k++)
			h->v[k] = xxh_round(h->v[k], le32(h->buf + 4 * k));
		h->blen = 0;
	}
	for (; n >= 16; p += 16, n -= 16)
		for (k = 0; k < 4; k++)
			h->v[k] = xxh_round(h->v[k], le32(p + 4 * k));
	memcpy(h->buf, p, n);
	h->blen = n;
}

static uint32_t
xxh_digest(const struct xxh32 *h)
{
	const unsigned char *p = h->buf, *e = h->buf + h->blen;
	uint32_t r;

	if (h->total >= 16)
		r = rotl32(h->v[0], 1) + rotl32(h->v[1], 7) +
		    rotl32(h->v[2], 12) + rotl32(h->v[3], 18);
	else
		r = X5;
	r += (uint32_t)h->total;
	for (; e - p >= 4; p += 4)
		r = rotl32(r + le32(p) * X3, 17) * X4;
	for (; p < e; p++)
		r = rotl32(r + *p * X5, 11) * X1;
	r ^= r >> 15;
	r *= X2;
	r ^= r >> 13;
	r *= X3;
	r ^= r >> 16;
	return r;
}

static uint32_t
xxh_once(const unsigned char *p, size_t n)
{
	struct xxh32 h;

	xxh_init(&h);
	xxh_update(&h, p, n);
	return xxh_digest(&h);
}

#define LZ4_MAGIC	0x184D2204U
#define LZ4_HIST	(64 * 1024)	/* how far back a match reaches */

enum lstate { L_MAGIC, L_HDR, L_SKIPSZ, L_SKIP, L_BSIZE, L_BLOCK, L_CSUM };

struct lz4 {
	enum lstate	 st;
	unsigned char	 hdr[20];	/* magic, descriptor, sizes */
	size_t		 hlen, hneed;
	unsigned	 flg;
	size_t		 bmax;		/* block size limit of the frame */
	size_t		 bcap;		/* the largest the buffers hold */
	uint32_t	 bsize;
	int		 raw;		/* the block is stored */
	int		 cut;		/* a cut block was decoded */
	unsigned char	*stage;		/* the block being gathered */
	size_t		 slen, sneed;
	unsigned char	*win;		/* history, then the block's output */
	size_t		 wlen, wout;
	uint64_t	 skip;
	struct xxh32	 cs;		/* of the frame's content */
};

/* Copy input into DST (holding *HAVE of NEED bytes); 1 once complete. */
static int
gather(struct unz *u, unsigned char *dst, size_t *have, size_t need)
{
	size_t k = u->ilen - u->ipos;

	if (k > need - *have)
		k = need - *have;
	memcpy(dst + *have, u->ib + u->ipos, k);
	*have += k;
	u->ipos += k;
	return *have == need;
}

/*
 * Decode the lz4 block S (N bytes) into W after its first O bytes (the
 * history), W holding CAP.  Returns the new length, or -1 when the block
 * is malformed.  A CUT block stops quietly where its bytes run out,
 * inside a literal run too: the format is sequential, so every byte
 * decoded so far is the data's own.
 */
static long
lz4_block(const unsigned char *s, size_t n, unsigned char *w, size_t o,
    size_t cap, int cut)
{
	const unsigned char *e = s + n;
	size_t lit, ml, off, k;
	unsigned t, b;

	while (s < e) {
		t = *s++;
		lit = t >> 4;
		if (lit == 15)
			do {
				if (s == e)
					return cut ? (long)o : -1;
				lit += (b = *s++);
			} while (b == 255);
		if (lit > (size_t)(e - s)) {
			if (!cut)
				return -1;
			lit = (size_t)(e - s);
		}
		if (lit > cap - o)
			return -1;
		memcpy(w + o, s, lit);
		o += lit;
		s += lit;
		if (s == e)
			return (long)o;	/* the last sequence has no match */
		if (e - s < 2)
			return cut ? (long)o : -1;
		off = (size_t)s[0] | (size_t)s[1] << 8;
		s += 2;
		if (off == 0 || off > o)
			return -1;
		ml = t & 15;
		if (ml == 15)
			do {
				if (s == e)
					return cut ? (long)o : -1;
				ml += (b = *s++);
			} while (b == 255);
		ml += 4;
		if (ml > cap - o)
			return -1;
		if (off >= ml)
			memcpy(w + o, w + o - off, ml);
		else
			for (k = 0; k < ml; k++)
				w[o + k] = w[o + k - off];
		o += ml;
	}
	return (long)o;
}

/* Start a frame from its descriptor; the header checksum is checked. */
static int
lz4_frame(struct unz *u, struct lz4 *l)
{
	unsigned bd = l->hdr[5];
	size_t bmax;

	if (l->hlen == 6) {
		l->flg = l->hdr[4];
		if ((l->flg >> 6) != 1 || (l->flg & 2) != 0 ||
		    (bd & 0x8f) != 0 || ((bd >> 4) & 7) < 4)
			return fail(u, "lz4 frame %ju at byte %ju has a "
			    "header this decoder does not know", u->member,
			    at(u));
		if (l->flg & 1)
			return fail(u, "lz4 frame %ju needs a dictionary, "
			    "which this decoder does not support", u->member);
		l->hneed = 7 + (l->flg & 8 ? 8 : 0);
		return S_GO;
	}
	if (((xxh_once(l->hdr + 4, l->hneed - 5) >> 8) & 0xff) !=
	    l->hdr[l->hneed - 1])
		return fail(u, "lz4 frame %ju fails its header checksum (at "
		    "byte %ju): the data is corrupt", u->member, at(u));
	bmax = (size_t)1 << (8 + 2 * ((bd >> 4) & 7));
	if (bmax > l->bcap) {
		l->stage = xrealloc(l->stage, bmax + 4);
		l->win = xrealloc(l->win, LZ4_HIST + bmax);
		l->bcap = bmax;
	}
	l->bmax = bmax;
	/* A frame's matches never reach into the frame before it. */
	l->wlen = l->wout = 0;
	xxh_init(&l->cs);
	l->st = L_BSIZE;
	l->hlen = 0;
	return S_GO;
}

/* The 4 bytes after a magic or a block: what comes next. */
static int
lz4_next(struct unz *u, struct lz4 *l)
{
	uint32_t v = le32(l->hdr);

	l->hlen = 0;
	if (l->st == L_MAGIC) {
		if (v == LZ4_MAGIC) {
			u->member++;
			l->hlen = 4;
			l->hneed = 6;
			l->st = L_HDR;
			return S_GO;
		}
		if ((v & 0xfffffff0U) == 0x184D2A50U) {
			l->st = L_SKIPSZ;
			return S_GO;
		}
		return u->member > 0 ? trailing(u) :
		    fail(u, "not lz4 data at byte %ju", at(u));
	}
	if (l->st == L_SKIPSZ) {
		l->skip = v;
		l->st = v > 0 ? L_SKIP : L_MAGIC;
		return S_GO;
	}
	if (l->st == L_CSUM) {
		if (v != xxh_digest(&l->cs))
			return fail(u, "lz4 frame %ju fails its content "
			    "checksum (at byte %ju): the data is corrupt",
			    u->member, at(u));
		l->st = L_MAGIC;
		return S_GO;
	}
	/* L_BSIZE */
	if (v == 0) {
		l->st = l->flg & 4 ? L_CSUM : L_MAGIC;
		return S_GO;
	}
	l->raw = (v >> 31) != 0;
	l->bsize = v & 0x7fffffffU;
	if (l->bsize > l->bmax)
		return fail(u, "corrupt lz4 data at byte %ju (a block larger "
		    "than its frame allows)", at(u));
	l->slen = 0;
	l->sneed = l->bsize + (l->flg & 0x10 ? 4 : 0);
	l->cut = 0;
	l->st = L_BLOCK;
	return S_GO;
}

/* Decode the gathered block (or what there is of a cut one). */
static int
lz4_decode(struct unz *u, struct lz4 *l, int cut)
{
	size_t n = cut ? (l->slen < l->bsize ? l->slen : l->bsize) :
	    l->bsize;
	long o;

	if (!cut && (l->flg & 0x10) &&
	    xxh_once(l->stage, l->bsize) != le32(l->stage + l->bsize))
		return fail(u, "lz4 block ending at byte %ju fails its "
		    "checksum: the data is corrupt", at(u));
	/* Keep the history a match may reach back into: none when the
	 * frame's blocks are independent. */
	if (l->flg & 0x20)
		l->wlen = 0;
	else if (l->wlen > LZ4_HIST) {
		memmove(l->win, l->win + l->wlen - LZ4_HIST, LZ4_HIST);
		l->wlen = LZ4_HIST;
	}
	if (l->raw) {
		memcpy(l->win + l->wlen, l->stage, n);
		o = (long)(l->wlen + n);
	} else if ((o = lz4_block(l->stage, n, l->win, l->wlen,
	    l->wlen + l->bmax, cut)) < 0)
		return fail(u, "corrupt lz4 data in the block ending at byte "
		    "%ju", at(u));
	l->wout = l->wlen;
	l->wlen = (size_t)o;
	xxh_update(&l->cs, l->win + l->wout, l->wlen - l->wout);
	l->st = L_BSIZE;
	return S_GO;
}

static int
step_lz4(struct unz *u, unsigned char *out, size_t cap, size_t *made)
{
	struct lz4 *l = u->l;
	size_t k;

	if (u->ipos == u->ilen && u->ieof && l->wout == l->wlen) {
		if (l->st == L_MAGIC && l->hlen == 0 && u->member > 0)
			return S_END;
		/* Cut inside a block: decode what there is, once. */
		if (l->st == L_BLOCK && !l->cut && l->slen > 0) {
			l->cut = 1;
			if (lz4_decode(u, l, 1) == S_ERR)
				return S_ERR;
			l->st = L_BLOCK;
		}
		/* With nothing decoded, no progress: the driver says cut. */
	}
	if (l->wout < l->wlen) {
		k = l->wlen - l->wout < cap ? l->wlen - l->wout : cap;
		memcpy(out, l->win + l->wout, k);
		l->wout += k;
		*made = k;
		return S_GO;
	}
	if (u->ipos == u->ilen)
		return S_GO;
	switch (l->st) {
	case L_MAGIC:
	case L_SKIPSZ:
	case L_BSIZE:
	case L_CSUM:
		if (gather(u, l->hdr, &l->hlen, 4))
			return lz4_next(u, l);
		return S_GO;
	case L_HDR:
		if (gather(u, l->hdr, &l->hlen, l->hneed))
			return lz4_frame(u, l);
		return S_GO;
	case L_SKIP:
		k = u->ilen - u->ipos;
		if (k > l->skip)
			k = (size_t)l->skip;
		u->ipos += k;
		if ((l->skip -= k) == 0)
			l->st = L_MAGIC;
		return S_GO;
	case L_BLOCK:
		if (gather(u, l->stage, &l->slen, l->sneed))
			return lz4_decode(u, l, 0);
		return S_GO;
	}
	return S_GO;
}

/* ---- the driver ---- */

enum unz_kind
unz_detect(const void *p, size_t n)
{
	const unsigned char *m = p;

	if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		return UNZ_GZIP;
	if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f &&
	    m[3] == 0xfd)
		return UNZ_ZSTD;
	if (n >= 6 && memcmp(m, "\xfd" "7zXZ\0", 6) == 0)
		return UNZ_XZ;
	if (n >= 4 && memcmp(m, "BZh", 3) == 0 && m[3] >= '1' && m[3] <= '9')
		return UNZ_BZIP2;
	if (n >= 4 && le32(m) == LZ4_MAGIC)
		return UNZ_LZ4;
	return UNZ_NONE;
}

const char *
unz_name(enum unz_kind k)
{
	switch (k) {
	case UNZ_GZIP:
		return "gzip";
	case UNZ_ZSTD:
		return "zstd";
	case UNZ_XZ:
		return "xz";
	case UNZ_BZIP2:
		return "bzip2";
	case UNZ_LZ4:
		return "lz4";
	default:
		return "none";
	}
}

struct unz *
unz_open(enum unz_kind kind, unz_readfn rd, void *arg, const char *where,
    const char *what)
{
	struct unz *u = xcalloc(1, sizeof(*u));

	u->kind = kind;
	u->rd = rd;
	u->arg = arg;
	u->where = xstrdup(where);
	u->what = xstrdup(what);
	u->ib = xmalloc(UNZ_BLOCK);
	switch (kind) {
	case UNZ_GZIP:
		u->step = step_gz;
		break;
	case UNZ_ZSTD:
		u->step = step_zstd;
		break;
	case UNZ_XZ:
		u->step = step_xz;
		break;
	case UNZ_BZIP2:
		u->step = step_bz;
		break;
	case UNZ_LZ4:
		u->step = step_lz4;
		u->l = xcalloc(1, sizeof(*u->l));
		break;
	default:
		diag_err(EXIT_BAD, "internal error: no decoder for format %d",
		    (int)kind);
	}
	return u;
}

/* Read more compressed bytes; -1 when the source failed (it said so). */
static int
refill(struct unz *u)
{
	ssize_t n;

	u->ioff += u->ilen;
	u->ipos = u->ilen = 0;
	if ((n = u->rd(u->arg, u->ib, UNZ_BLOCK)) < 0) {
		u->state = U_DEAD;
		return -1;
	}
	if (n == 0)
		u->ieof = 1;
	u->ilen = (size_t)n;
	return 0;
}

ssize_t
unz_read(struct unz *u, void *buf, size_t len)
{
	unsigned char *out = buf;
	size_t made = 0, n;
	uint64_t before;
	int r;

	while (made < len && u->state == U_OK) {
		if (u->ipos == u->ilen && !u->ieof && refill(u) < 0)
			break;
		before = u->ioff + u->ipos;
		n = 0;
		r = u->step(u, out + made, len - made, &n);
		made += n;
		if (r == S_END)
			u->state = U_END;
		else if (r == S_ERR)
			u->state = U_ERR;
		else if (n == 0 && u->ioff + u->ipos == before &&
		    u->ipos == u->ilen && u->ieof) {
			fail(u, "%s data cut short at byte %ju: the %s is "
			    "truncated", unz_name(u->kind), at(u), u->what);
			u->state = U_ERR;
		} else if (n == 0 && u->ioff + u->ipos == before &&
		    u->ipos < u->ilen) {
			/* A decoder that neither reads nor writes. */
			fail(u, "corrupt %s data at byte %ju (decoding stalls)",
			    unz_name(u->kind), at(u));
			u->state = U_ERR;
		}
	}
	if (made > 0)
		return (ssize_t)made;
	if (u->state == U_ERR) {
		diag_at(u->where, 0, "%s", u->msg);
		u->state = U_DEAD;
	}
	return u->state == U_DEAD ? -1 : 0;
}

void
unz_close(struct unz *u)
{
	if (u == NULL)
		return;
	if (u->ready && u->kind == UNZ_GZIP)
		inflateEnd(&u->z);
	if (u->ready && u->kind == UNZ_XZ)
		lzma_end(&u->x);
	if (u->ready && u->kind == UNZ_BZIP2)
		BZ2_bzDecompressEnd(&u->b);
	if (u->zs != NULL)
		ZSTD_freeDStream(u->zs);
	if (u->l != NULL) {
		free(u->l->stage);
		free(u->l->win);
		free(u->l);
	}
	free(u->ib);
	free(u->where);
	free(u->what);
	free(u);
}
