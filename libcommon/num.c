/*
 * Exact decimal formatting of ratios and order statistics over int64.
 * Intermediate products use unsigned 128-bit arithmetic so that a ratio
 * of two nanosecond totals of a long capture never overflows.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "num.h"

/*
 * 10^PLACES from a table: a loop of 128-bit products costs as much as
 * the rest of a ratio.
 */
static const uint64_t pow_ten[19] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL
};

/* "00" to "99": fraction digits are written two at a time. */
static const char two_digits[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

size_t
num_ratio(char *buf, int64_t num, int64_t den, int places)
{
	unsigned __int128 n, d, q, r;
	char digits[NUM_BUFSIZE];
	size_t len = 0, k = 0;
	int neg = (num < 0) != (den < 0) && num != 0;

	n = num < 0 ? (unsigned __int128)0 - (unsigned __int128)num :
	    (unsigned __int128)num;
	d = den < 0 ? (unsigned __int128)0 - (unsigned __int128)den :
	    (unsigned __int128)den;
	if (places < 0)
		places = 0;
	if (places > 18)
		places = 18;
	/* |num| < 2^63 and 10^places <= 10^18 < 2^60: the product fits. */
	n *= pow_ten[places];
	/*
	 * 64-bit division where the values fit, as they mostly do: a
	 * 128-bit one is a library call, and this runs per written value.
	 */
	if (n >> 64 == 0) {
		q = (uint64_t)n / (uint64_t)d;
		r = (uint64_t)n % (uint64_t)d;
	} else {
		q = n / d;
		r = n % d;
	}
	if (2 * r >= d)
		q++;			/* half away from zero */
	if (q == 0)
		neg = 0;
	if (q >> 64 == 0) {
		uint64_t q64 = (uint64_t)q;

		do {
			digits[k++] = (char)('0' + (int)(q64 % 10));
			q64 /= 10;
		} while (q64 != 0 || k <= (size_t)places);
	} else
		do {
			digits[k++] = (char)('0' + (int)(q % 10));
			q /= 10;
		} while (q != 0 || k <= (size_t)places);
	if (neg)
		buf[len++] = '-';
	while (k > (size_t)places)
		buf[len++] = digits[--k];
	/* Fraction digits, without trailing zeros. */
	if (places > 0) {
		size_t keep = 0, j;

		for (j = 0; j < (size_t)places; j++)
			if (digits[j] != '0')
				break;
		keep = (size_t)places - j;
		if (keep > 0) {
			buf[len++] = '.';
			while (k > (size_t)places - keep)
				buf[len++] = digits[--k];
		}
	}
	buf[len] = '\0';
	return len;
}

/*
 * Write F, the fraction digits of a ratio with PLACES of them, at BUF
 * without its trailing zeros (and the point when none is left); the
 * length.
 */
static size_t
put_frac(char *buf, uint64_t f, int places)
{
	int i, keep;

	for (keep = places; keep > 0 && f % 10 == 0; keep--)
		f /= 10;
	if (keep == 0)
		return 0;
	buf[0] = '.';
	for (i = keep; i >= 2; i -= 2) {
		memcpy(buf + i - 1, two_digits + 2 * (f % 100), 2);
		f /= 100;
	}
	if (i == 1)
		buf[1] = (char)('0' + (int)f);
	return (size_t)keep + 1;
}

size_t
num_ratio_u128(char *buf, unsigned __int128 n, unsigned __int128 d,
    int places)
{
	unsigned __int128 q, r, f;
	uint64_t frac, q64, scale;
	char digits[NUM_BUFSIZE];
	size_t len = 0, k = 0;

	/* 64-bit division where the values fit: see num_ratio() */
	if ((n | d) >> 64 == 0) {
		q = (uint64_t)n / (uint64_t)d;
		r = (uint64_t)n % (uint64_t)d;
	} else {
		q = n / d;
		r = n % d;
	}
	if (places < 0)
		places = 0;
	if (places > 18)
		places = 18;
	scale = pow_ten[places];
	/* r < d, so r * scale fits while d * 10^places < 2^128. */
	f = r * scale;
	if ((f | d) >> 64 == 0) {
		frac = (uint64_t)f / (uint64_t)d;
		r = (uint64_t)f % (uint64_t)d;
	} else {
		frac = (uint64_t)(f / d);
		r = f % d;
	}
	if (2 * r >= d && ++frac == scale) {
		frac = 0;		/* half away from zero, carried */
		q++;
	}
	if (q >> 64 == 0) {
		q64 = (uint64_t)q;
		do {
			digits[k++] = (char)('0' + (int)(q64 % 10));
			q64 /= 10;
		} while (q64 != 0);
	} else
		do {
			digits[k++] = (char)('0' + (int)(q % 10));
			q /= 10;
		} while (q != 0 && k < sizeof(digits));
	while (k > 0)
		buf[len++] = digits[--k];
	len += put_frac(buf + len, frac, places);
	buf[len] = '\0';
	return len;
}

size_t
num_ratio_i128(char *buf, __int128 num, __int128 den, int places)
{
	int neg = (num < 0) != (den < 0);
	unsigned __int128 n = num < 0 ? (unsigned __int128)0 -
	    (unsigned __int128)num : (unsigned __int128)num;
	unsigned __int128 d = den < 0 ? (unsigned __int128)0 -
	    (unsigned __int128)den : (unsigned __int128)den;
	size_t len;

	len = num_ratio_u128(buf + 1, n, d, places);
	/* "-0" never: a value that rounds to zero has no sign */
	if (!neg || (len == 1 && buf[1] == '0')) {
		memmove(buf, buf + 1, len + 1);
		return len;
	}
	buf[0] = '-';
	return len + 1;
}

/*
 * 128 bits: a value times 100 and a difference of two values (up to
 * 2^64) both overflow int64 for values that prof-tsv(5) allows.
 */
void
num_percentile(const int64_t *v, size_t n, int p, __int128 *num)
{
	/* Position p/100 * (n-1) = i + f/100. */
	uint64_t pos = (uint64_t)p * (uint64_t)(n - 1);
	size_t i = (size_t)(pos / 100);
	int64_t f = (int64_t)(pos % 100);

	if (f == 0 || i + 1 >= n)
		*num = (__int128)v[i] * 100;
	else
		*num = (__int128)v[i] * 100 + ((__int128)v[i + 1] - v[i]) * f;
}

void
num_median128(const int64_t *v, size_t n, __int128 *num)
{
	if (n % 2 == 1)
		*num = (__int128)v[n / 2] * 2;
	else
		*num = (__int128)v[n / 2 - 1] + v[n / 2];
}

void
num_median(const int64_t *v, size_t n, int64_t *num)
{
	__int128 w;

	num_median128(v, n, &w);
	if (w > INT64_MAX || w < INT64_MIN)
		diag_err(EXIT_BAD, "internal error: a median past 2^62 needs "
		    "num_median128()");
	*num = (int64_t)w;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void
num_sort(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
}
