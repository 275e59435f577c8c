/*
 * Small text helpers of prof-bubbles: growing buffers, integers and ids
 * written without printf (they are made for every bubble), and tag
 * lists.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "bubbles.h"
#include "stage.h"
#include "xalloc.h"

void
sbuf_set(struct sbuf *b, const char *s, size_t len)
{
	if (b->cap < len + 1) {
		b->cap = len + 1 + len / 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p, s, len);
	b->p[len] = '\0';
	b->len = len;
}

/* Decimal text of V at the end of BUF[24]; returns its start. */
char *
i64_text(char *buf, int64_t v)
{
	char *p = buf + 24;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + (int)(u % 10));
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	return p;
}

/* Set COL of R to V: srec_set_i64 without printf, per bubble. */
void
set_i64(struct srec *r, int col, int64_t v)
{
	char buf[24], *p = i64_text(buf, v);

	srec_set(r, col, p, (size_t)(buf + 24 - p));
}

/* The bubble id PREFIX "." C N, in a buffer reused for every bubble. */
const char *
make_id(const char *prefix, char c, int64_t n)
{
	static struct sbuf id;
	char buf[24], *p = i64_text(buf, n);
	size_t plen = strlen(prefix), nlen = (size_t)(buf + 24 - p);

	if (id.cap < plen + nlen + 3) {
		id.cap = 2 * (plen + nlen + 3);
		id.p = xrealloc(id.p, id.cap);
	}
	memcpy(id.p, prefix, plen);
	id.p[plen] = '.';
	id.p[plen + 1] = c;
	memcpy(id.p + plen + 2, p, nlen);
	id.p[plen + 2 + nlen] = '\0';
	return id.p;
}
