/*
 * A protobuf wire-format reader over bytes in memory: one field at a
 * time, no schema, no allocation.  A message's payload is itself a
 * complete message, so a caller walks nested messages by opening a
 * reader on a field's bytes.  Readers of large files (the XPlane reader
 * of prof-ingest) map the file and keep only what they need.
 */
#ifndef PROF_PBUF_H
#define PROF_PBUF_H

#include <stddef.h>
#include <stdint.h>

/* Wire types. */
#define PB_VARINT	0
#define PB_I64		1
#define PB_LEN		2
#define PB_I32		5

/* Errors, in pbuf.err. */
enum pbuf_err {
	PBE_OK,
	PBE_TRUNC,	/* the bytes end inside a tag, varint or fixed value */
	PBE_LONGVAR,	/* a varint of more than 10 bytes */
	PBE_PASTEND,	/* a length that runs past the end of the message */
	PBE_WIRETYPE,	/* wire type 3, 4, 6 or 7 (groups, or none) */
	PBE_FIELD0	/* field number 0 */
};

struct pbuf {
	const unsigned char *p, *end;
	const unsigned char *base;	/* for offsets in diagnostics */
	enum pbuf_err	 err;
	const unsigned char *errat;	/* where the bad field began */
};

/* One field as read. */
struct pbuf_field {
	uint64_t	 num;		/* field number */
	int		 wt;		/* wire type */
	uint64_t	 u;		/* varint, or fixed value (little endian) */
	const unsigned char *data;	/* PB_LEN: the payload */
	size_t		 len;
	const unsigned char *at;	/* where the tag is */
};

/* A reader of the LEN bytes at P; BASE is where offsets count from. */
void	 pbuf_init(struct pbuf *, const void *, size_t, const void *);
/* A reader of a PB_LEN field's payload, with the parent's base. */
void	 pbuf_sub(struct pbuf *, const struct pbuf *,
	    const struct pbuf_field *);
/*
 * Read the next field: 1, or 0 at the end of the bytes, or -1 with
 * err and errat set (the reader then stays at the bad field).
 */
int	 pbuf_next_any(struct pbuf *, struct pbuf_field *);

/*
 * pbuf_next() is called once a field of every event of a file (tens of
 * millions of times a GB): the common fields (a one-byte tag, then a
 * varint or a length) are read
 * here, inline; any other field, and every error, by pbuf_next_any().
 */
static inline int
pbuf_next(struct pbuf *b, struct pbuf_field *f)
{
	const unsigned char *p = b->p;
	uint64_t v;
	unsigned t;
	int i, n;

	if (p == b->end)
		return 0;
	t = p[0];
	if (t >= 0x80 || t < 8)
		return pbuf_next_any(b, f);
	n = b->end - p - 1 < 10 ? (int)(b->end - p - 1) : 10;
	v = 0;
	for (i = 0; i < n; i++) {
		v |= (uint64_t)(p[1 + i] & 0x7f) << (7 * i);
		if (p[1 + i] < 0x80)
			break;
	}
	if (i == n)
		return pbuf_next_any(b, f);
	switch (t & 7) {
	case PB_VARINT:
		f->data = NULL;
		f->len = 0;
		f->u = v;
		break;
	case PB_LEN:
		if (v > (uint64_t)(b->end - (p + 2 + i)))
			return pbuf_next_any(b, f);
		f->data = p + 2 + i;
		f->len = (size_t)v;
		p += v;
		break;
	default:
		return pbuf_next_any(b, f);
	}
	f->at = b->p;
	f->num = t >> 3;
	f->wt = (int)(t & 7);
	b->p = p + 2 + i;
	return 1;
}
/* The offset of P from the reader's base. */
uint64_t pbuf_off(const struct pbuf *, const unsigned char *);
/* Words for an error ("a length past the end of its message", ...). */
const char *pbuf_strerror(enum pbuf_err);
/* The wire type name ("varint", "64-bit", "length-delimited", ...). */
const char *pbuf_wtname(int);
/* A varint's value as int64 (two's complement, as protobuf's int64). */
static inline int64_t
pbuf_i64(uint64_t u)
{
	return (int64_t)u;
}
/* A fixed 64-bit field's bits as a double. */
double	 pbuf_double(uint64_t);

#endif
