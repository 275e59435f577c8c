/*
 * Unit tests of the UTF-8 checks and repair: every boundary of the
 * Unicode Standard's table 3-7, overlong forms, surrogates, code points
 * past U+10FFFF, cut sequences, and the count of U+FFFD by maximal
 * subparts, checked against the standard's own example (section 3.9,
 * "U+FFFD Substitution of Maximal Subparts").
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "utf8.h"

/* Sanitize S (LEN bytes): the result in hex pairs, and *N the count. */
static const char *
fix(const char *s, size_t len, size_t *n)
{
	static char out[256], hex[800];
	size_t i, k;

	*n = 0;
	k = utf8_sanitize(s, len, out, n);
	for (i = 0; i < k; i++)
		snprintf(hex + 2 * i, 3, "%02x", (unsigned char)out[i]);
	hex[2 * k] = '\0';
	return hex;
}

#define VALID(s)	CHECK(utf8_valid((s), sizeof(s) - 1))
#define INVALID(s)	CHECK(!utf8_valid((s), sizeof(s) - 1))

int
main(void)
{
	size_t n, bad;
	char big[100];

	VALID("");
	VALID("plain ASCII, long enough for the eight-byte steps");
	VALID("\x7f");
	VALID("\xc2\x80");			/* U+0080 */
	VALID("\xdf\xbf");			/* U+07FF */
	VALID("\xe0\xa0\x80");			/* U+0800 */
	VALID("\xed\x9f\xbf");			/* U+D7FF */
	VALID("\xee\x80\x80");			/* U+E000 */
	VALID("\xef\xbf\xbf");			/* U+FFFF */
	VALID("\xf0\x90\x80\x80");		/* U+10000 */
	VALID("\xf4\x8f\xbf\xbf");		/* U+10FFFF */
	VALID("aten::mm \xe2\x86\x92 \xe6\xb5\x8b\xe8\xaf\x95");
	INVALID("\x80");			/* a lone continuation */
	INVALID("\xc0\x80");			/* overlong NUL */
	INVALID("\xc1\xbf");			/* overlong */
	INVALID("\xe0\x9f\xbf");		/* overlong */
	INVALID("\xed\xa0\x80");		/* surrogate U+D800 */
	INVALID("\xed\xbf\xbf");		/* surrogate U+DFFF */
	INVALID("\xf0\x8f\xbf\xbf");		/* overlong */
	INVALID("\xf4\x90\x80\x80");		/* U+110000 */
	INVALID("\xf5\x80\x80\x80");
	INVALID("\xfe");
	INVALID("\xff");
	INVALID("\xe2\x82");			/* cut at the end */
	INVALID("0123456789abcdef\xe2");	/* after an ASCII run */
	CHECK(utf8_seq("\xe2\x82\xac", 3, &bad) == 3 && bad == 0);
	CHECK(utf8_seq("\xe2\x82", 2, &bad) == 0 && bad == 2);
	CHECK(utf8_seq("\xe2\x28\xa1", 3, &bad) == 0 && bad == 1);
	CHECK(utf8_seq("\xf0\x9f\x98", 3, &bad) == 0 && bad == 3);

	/* The standard's example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64. */
	CHECK_STR(fix("\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64",
	    13, &n), "61efbfbdefbfbdefbfbd62efbfbd63efbfbdefbfbd64");
	CHECK(n == 6);
	/* Overlong and surrogate forms: each byte stands alone. */
	CHECK_STR(fix("\xc0\xaf", 2, &n), "efbfbdefbfbd");
	CHECK(n == 2);
	CHECK_STR(fix("\xed\xa0\x80", 3, &n), "efbfbdefbfbdefbfbd");
	CHECK(n == 3);
	CHECK_STR(fix("\xf4\x90\x80\x80", 4, &n),
	    "efbfbdefbfbdefbfbdefbfbd");
	CHECK(n == 4);
	/* Valid text is copied as it is; a cut end is one replacement. */
	CHECK_STR(fix("a\xe2\x82\xac", 4, &n), "61e282ac");
	CHECK(n == 0);
	CHECK_STR(fix("a\xf0\x9f\x98", 4, &n), "61efbfbd");
	CHECK(n == 1);
	/* The worst case: every byte replaced, three bytes each. */
	memset(big, 0xff, sizeof(big));
	{
		char out[3 * sizeof(big)];

		n = 0;
		CHECK(utf8_sanitize(big, sizeof(big), out, &n) ==
		    3 * sizeof(big));
		CHECK(n == sizeof(big));
		CHECK(utf8_valid(out, sizeof(out)));
	}
	CHECK_DONE();
}
