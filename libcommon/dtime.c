/*
 * Exact decimal parsing for times.  The digits are read as text and the
 * decimal point is moved by the scale, so "1736408883688177.930" us becomes
 * 1736408883688177930 ns with no floating point anywhere on the way.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "dtime.h"

/* Exponents beyond this either overflow int64 or round to zero. */
#define EXP_LIMIT	400

const char *
dtime_strerror(enum dtime_err e)
{
	switch (e) {
	case DTIME_OK:
		return "no error";
	case DTIME_EMPTY:
		return "empty value";
	case DTIME_SYNTAX:
		return "not a decimal number";
	case DTIME_RANGE:
		return "value out of range";
	}
	return "unknown error";
}

static int
isblank_c(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse an optional exponent "e[+-]digits" at *P; clamps its magnitude. */
static enum dtime_err
parse_exponent(const char **p, const char *end, long *exp)
{
	const char *s = *p;
	int neg = 0, any = 0;
	long v = 0;

	*exp = 0;
	if (s == end || (*s != 'e' && *s != 'E'))
		return DTIME_OK;
	s++;
	if (s < end && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		any = 1;
		if (v < EXP_LIMIT * 10)
			v = v * 10 + (*s - '0');
	}
	if (!any)
		return DTIME_SYNTAX;
	*exp = neg ? -v : v;
	*p = s;
	return DTIME_OK;
}

/*
 * Accumulate the integer made of the first POS digits of DIG (zeros past
 * its end), then round on the next digit, halves away from zero.
 */
static enum dtime_err
accumulate(const char *dig, long ndig, long pos, int neg, int64_t *out)
{
	uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t acc = 0;
	long i;

	if (pos > 40)
		return DTIME_RANGE;
	for (i = 0; i < pos; i++) {
		unsigned d = i < ndig ? (unsigned)(dig[i] - '0') : 0;

		if (acc > (limit - d) / 10)
			return DTIME_RANGE;
		acc = acc * 10 + d;
	}
	if (pos >= 0 && pos < ndig && dig[pos] >= '5') {
		if (acc == limit)
			return DTIME_RANGE;
		acc++;
	}
	if (neg)
		*out = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
		    -(int64_t)acc;
	else
		*out = (int64_t)acc;
	return DTIME_OK;
}

enum dtime_err
dtime_parse(const char *s, size_t len, int scale, int64_t *out)
{
	const char *end = s + len, *p, *intbeg, *fracbeg = NULL;
	char dig[64];
	long ndig = 0, nint = 0, nlead = 0, exp, pos;
	int neg = 0, any = 0;
	enum dtime_err e;

	while (s < end && isblank_c(*s))
		s++;
	while (end > s && isblank_c(end[-1]))
		end--;
	if (s == end)
		return DTIME_EMPTY;
	p = s;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	intbeg = p;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		any = 1;
	nint = p - intbeg;
	if (p < end && *p == '.') {
		fracbeg = ++p;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			any = 1;
	}
	if (!any)
		return DTIME_SYNTAX;
	if ((e = parse_exponent(&p, end, &exp)) != DTIME_OK)
		return e;
	if (p != end)
		return DTIME_SYNTAX;

	/*
	 * Gather significant digits: leading zeros of the integer part only
	 * move the point, so they are dropped; digits that cannot matter
	 * (beyond int64 precision and one rounding digit) are not kept.
	 */
	for (const char *q = intbeg; q < intbeg + nint; q++) {
		if (ndig == 0 && *q == '0') {
			nlead++;
			continue;
		}
		if (ndig < (long)sizeof(dig))
			dig[ndig++] = *q;
	}
	pos = nint - nlead;
	if (fracbeg != NULL) {
		for (const char *q = fracbeg; q < p && *q >= '0' && *q <= '9';
		    q++) {
			if (ndig == 0 && *q == '0') {
				pos--;
				continue;
			}
			if (ndig < (long)sizeof(dig))
				dig[ndig++] = *q;
		}
	}
	if (ndig == 0) {
		*out = 0;
		return DTIME_OK;
	}
	/*
	 * No range verdict before the exponent is applied: 70 integer
	 * digits with "e-70" are a small number (found by fuzz/fuzz-dtime).
	 * accumulate() refuses any POS that cannot fit, so the digits
	 * dropped above never matter.
	 */
	pos += exp + scale;
	if (pos < 0) {
		*out = 0;
		return DTIME_OK;
	}
	return accumulate(dig, ndig, pos, neg, out);
}

size_t
dtime_format(int64_t v, int scale, char *buf)
{
	char tmp[32];
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, len = 0, i;
	int point;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	while ((int)n <= scale)
		tmp[n++] = '0';
	if (v < 0)
		buf[len++] = '-';
	point = scale;
	for (i = n; i-- > 0;) {
		buf[len++] = tmp[i];
		if ((int)i == point && point > 0)
			buf[len++] = '.';
	}
	if (scale > 0) {
		while (buf[len - 1] == '0')
			len--;
		if (buf[len - 1] == '.')
			len--;
	}
	buf[len] = '\0';
	return len;
}
