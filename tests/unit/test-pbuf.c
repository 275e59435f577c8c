/*
 * Unit tests for libcommon/pbuf.c: the protobuf wire format, field by
 * field, and every error that keeps a reader inside its bytes.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "check.h"
#include "pbuf.h"

static int
one(const char *bytes, size_t n, struct pbuf *b, struct pbuf_field *f)
{
	pbuf_init(b, bytes, n, NULL);
	return pbuf_next(b, f);
}

int
main(void)
{
	struct pbuf b, s;
	struct pbuf_field f;
	/* field 1 varint 150; field 2 "testing"; field 3 fixed64 1.5 */
	static const char msg[] = "\x08\x96\x01" "\x12\x07testing"
	    "\x19\x00\x00\x00\x00\x00\x00\xf8\x3f" "\x25\x01\x02\x03\x04";
	static const char neg[] = "\x20\xff\xff\xff\xff\xff\xff\xff\xff\xff"
	    "\x01";
	static const char nested[] = "\x0a\x04\x08\x01\x10\x02";

	pbuf_init(&b, msg, sizeof(msg) - 1, NULL);
	CHECK(pbuf_next(&b, &f) == 1 && f.num == 1 && f.wt == PB_VARINT &&
	    f.u == 150);
	CHECK(pbuf_next(&b, &f) == 1 && f.num == 2 && f.wt == PB_LEN &&
	    f.len == 7 && memcmp(f.data, "testing", 7) == 0);
	CHECK(pbuf_off(&b, f.at) == 3);
	CHECK(pbuf_next(&b, &f) == 1 && f.num == 3 && f.wt == PB_I64 &&
	    pbuf_double(f.u) == 1.5);
	CHECK(pbuf_next(&b, &f) == 1 && f.num == 4 && f.wt == PB_I32 &&
	    f.u == 0x04030201);
	CHECK(pbuf_next(&b, &f) == 0);

	/* int64 -1 is a ten-byte varint */
	CHECK(one(neg, sizeof(neg) - 1, &b, &f) == 1 && pbuf_i64(f.u) == -1);

	/* a sub-message keeps the parent's base for offsets */
	pbuf_init(&b, nested, sizeof(nested) - 1, NULL);
	CHECK(pbuf_next(&b, &f) == 1);
	pbuf_sub(&s, &b, &f);
	CHECK(pbuf_next(&s, &f) == 1 && f.num == 1 && f.u == 1);
	CHECK(pbuf_next(&s, &f) == 1 && f.num == 2 && f.u == 2 &&
	    pbuf_off(&s, f.at) == 4);
	CHECK(pbuf_next(&s, &f) == 0);

	/* errors */
	CHECK(one("\x08", 1, &b, &f) == -1 && b.err == PBE_TRUNC);
	CHECK(one("\x08\x80", 2, &b, &f) == -1 && b.err == PBE_TRUNC);
	CHECK(one("\x12\x05" "abc", 5, &b, &f) == -1 &&
	    b.err == PBE_PASTEND && pbuf_off(&b, b.errat) == 0);
	CHECK(one("\x11\x00\x00", 3, &b, &f) == -1 && b.err == PBE_TRUNC);
	CHECK(one("\x0b", 1, &b, &f) == -1 && b.err == PBE_WIRETYPE);
	CHECK(one("\x0e\x00", 2, &b, &f) == -1 && b.err == PBE_WIRETYPE);
	CHECK(one("\x00\x00", 2, &b, &f) == -1 && b.err == PBE_FIELD0);
	CHECK(one("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12,
	    &b, &f) == -1 && b.err == PBE_LONGVAR);
	/* a length of 2^63 is past any end, not a wrapped pointer */
	CHECK(one("\x12\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11, &b,
	    &f) == -1 && b.err == PBE_PASTEND);
	CHECK(strcmp(pbuf_wtname(PB_LEN), "length-delimited") == 0);
	CHECK(strstr(pbuf_strerror(PBE_PASTEND), "past the end") != NULL);
	CHECK_DONE();
}
