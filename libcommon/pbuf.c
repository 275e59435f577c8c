/*
 * The protobuf wire format (protobuf.dev, "Encoding"): a message is a
 * sequence of (tag, value) where the tag is the varint field << 3 | wire
 * type.  Only the checks that keep a reader inside its bytes are made
 * here; which wire type a field should have is the caller's schema.
 */
#include <config.h>

#include <string.h>

#include "pbuf.h"

void
pbuf_init(struct pbuf *b, const void *p, size_t len, const void *base)
{
	b->p = p;
	b->end = b->p + len;
	b->base = base != NULL ? base : p;
	b->err = PBE_OK;
	b->errat = NULL;
}

void
pbuf_sub(struct pbuf *b, const struct pbuf *parent,
    const struct pbuf_field *f)
{
	pbuf_init(b, f->data, f->len, parent->base);
}

uint64_t
pbuf_off(const struct pbuf *b, const unsigned char *p)
{
	return (uint64_t)(p - b->base);
}

/* A varint at *P (before END): 0, or an error. */
static enum pbuf_err
varint(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t r = 0;
	int shift;

	/* The common one-byte case first: tags and small numbers. */
	if (p < end && *p < 0x80) {
		*v = *p;
		*pp = p + 1;
		return PBE_OK;
	}
	for (shift = 0; shift < 70; shift += 7) {
		if (p == end)
			return PBE_TRUNC;
		r |= (uint64_t)(*p & 0x7f) << (shift < 64 ? shift : 63);
		if (*p++ < 0x80) {
			*v = r;
			*pp = p;
			return PBE_OK;
		}
	}
	return PBE_LONGVAR;
}

static int
fail(struct pbuf *b, enum pbuf_err e, const unsigned char *at)
{
	b->err = e;
	b->errat = at;
	return -1;
}

int
pbuf_next_any(struct pbuf *b, struct pbuf_field *f)
{
	const unsigned char *p = b->p;
	enum pbuf_err e;
	uint64_t tag, n;
	int i;

	if (p == b->end)
		return 0;
	f->at = p;
	if ((e = varint(&p, b->end, &tag)) != PBE_OK)
		return fail(b, e, f->at);
	f->num = tag >> 3;
	f->wt = (int)(tag & 7);
	if (f->num == 0)
		return fail(b, PBE_FIELD0, f->at);
	f->data = NULL;
	f->len = 0;
	switch (f->wt) {
	case PB_VARINT:
		if ((e = varint(&p, b->end, &f->u)) != PBE_OK)
			return fail(b, e, f->at);
		break;
	case PB_I64:
	case PB_I32:
		n = f->wt == PB_I64 ? 8 : 4;
		if ((uint64_t)(b->end - p) < n)
			return fail(b, PBE_TRUNC, f->at);
		f->u = 0;
		for (i = (int)n - 1; i >= 0; i--)
			f->u = f->u << 8 | p[i];
		p += n;
		break;
	case PB_LEN:
		if ((e = varint(&p, b->end, &n)) != PBE_OK)
			return fail(b, e, f->at);
		if (n > (uint64_t)(b->end - p))
			return fail(b, PBE_PASTEND, f->at);
		f->data = p;
		f->len = (size_t)n;
		p += n;
		break;
	default:
		return fail(b, PBE_WIRETYPE, f->at);
	}
	b->p = p;
	return 1;
}

const char *
pbuf_strerror(enum pbuf_err e)
{
	switch (e) {
	case PBE_OK:
		return "no error";
	case PBE_TRUNC:
		return "the data ends inside a field (truncated file?)";
	case PBE_LONGVAR:
		return "a varint longer than 10 bytes";
	case PBE_PASTEND:
		return "a length past the end of its message";
	case PBE_WIRETYPE:
		return "an unknown wire type (not protobuf data?)";
	case PBE_FIELD0:
		return "field number 0 (not protobuf data?)";
	}
	return "unknown error";
}

const char *
pbuf_wtname(int wt)
{
	static const char *const names[8] = {
		"varint", "64-bit", "length-delimited", "group start",
		"group end", "32-bit", "wire type 6", "wire type 7"
	};

	return names[wt & 7];
}

double
pbuf_double(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}
