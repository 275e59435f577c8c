/*
 * libFuzzer harness for libcommon/dtime.c, the exact decimal time parser.
 * The first byte picks the scale (0..12), the rest is the text.  Besides
 * memory errors it checks the one promise that matters, exactness, by
 * comparing dtime_parse with a slow reference that does the decimal
 * arithmetic on the digit string, and checks that dtime_format writes
 * text that parses back to the same value.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dtime.h"

/*
 * The reference: the value of S times 10^SCALE, rounded half away from
 * zero, done on digit strings.  Returns a dtime_err code.
 */
static int
reference(const char *s, size_t len, int scale, int64_t *out)
{
	const char *end = s + len, *p;
	char dig[512], num[64];
	size_t nd = 0, ni = 0, k;
	long exp = 0, pt;
	int neg = 0, any = 0, eneg = 0, round;
	uint64_t v;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (s == end)
		return DTIME_EMPTY;
	p = s;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9'; p++, ni++, any = 1)
		if (nd < sizeof(dig))
			dig[nd++] = *p;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, any = 1)
			if (nd < sizeof(dig))
				dig[nd++] = *p;
	if (!any)
		return DTIME_SYNTAX;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		any = 0;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		for (; p < end && *p >= '0' && *p <= '9'; p++, any = 1)
			if (exp < 100000)
				exp = exp * 10 + (*p - '0');
		if (!any)
			return DTIME_SYNTAX;
	}
	if (p != end)
		return DTIME_SYNTAX;
	if (nd == sizeof(dig))
		return -1;	/* too long for the reference: no verdict */
	pt = (long)ni + (eneg ? -exp : exp) + scale;
	/* The integer part: dig[0..pt), zeros past the digits. */
	k = 0;
	for (long i = 0; i < pt; i++) {
		char d = i < (long)nd ? dig[i] : '0';

		if (k == 0 && d == '0')
			continue;
		if (k >= 25)
			return DTIME_RANGE;
		num[k++] = d;
	}
	round = pt >= 0 && pt < (long)nd && dig[pt] >= '5';
	if (k > 20)
		return DTIME_RANGE;
	v = 0;
	for (size_t i = 0; i < k; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return DTIME_RANGE;
		v = v * 10 + (uint64_t)(num[i] - '0');
	}
	if (round) {
		if (v == UINT64_MAX)
			return DTIME_RANGE;
		v++;
	}
	if (v > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
		return DTIME_RANGE;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return DTIME_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, buf[40];
	int64_t got = 0, want = 0, back = 0;
	int scale, e, r;
	size_t n;

	if (size < 1)
		return 0;
	scale = data[0] % 13;
	/* An exact-size copy, so reading past the end is caught. */
	n = size - 1;
	s = malloc(n ? n : 1);
	memcpy(s, data + 1, n);
	e = dtime_parse(s, n, scale, &got);
	r = reference(s, n, scale, &want);
	if (r != -1 && (e != r || (e == DTIME_OK && got != want)))
		abort();
	free(s);
	if (e == DTIME_OK) {
		n = dtime_format(got, scale, buf);
		if (n >= sizeof(buf) || strlen(buf) != n)
			abort();
		if (dtime_parse(buf, n, scale, &back) != DTIME_OK ||
		    back != got)
			abort();
	}
	(void)dtime_strerror((enum dtime_err)e);
	return 0;
}
