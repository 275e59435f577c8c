/*
 * Unit tests of exact ratio formatting and order statistics, with the
 * group-aggregate vector of doc/analysis-rules.md, Reference vectors.
 */
#include <config.h>

#include <stdint.h>

#include "check.h"
#include "num.h"

static const char *
ratio(int64_t n, int64_t d, int places)
{
	static char buf[NUM_BUFSIZE];

	num_ratio(buf, n, d, places);
	return buf;
}

static const char *
ratio128(unsigned __int128 n, unsigned __int128 d, int places)
{
	static char buf[NUM_BUFSIZE];

	num_ratio_u128(buf, n, d, places);
	return buf;
}

static const char *
ratioi(__int128 n, __int128 d, int places)
{
	static char buf[NUM_BUFSIZE];

	num_ratio_i128(buf, n, d, places);
	return buf;
}

/*
 * Order statistics of values at the ends of int64, where a value times
 * 100 or a difference of two needs more than 64 bits (prof-bubbles
 * printed a negative p90 of positive gaps), and the signed 128-bit
 * ratio that writes them.
 */
static void
test_wide(void)
{
	int64_t big[] = { 1, INT64_MAX - 1, INT64_MAX };
	int64_t ends[] = { INT64_MIN + 1, INT64_MAX };
	__int128 w;
	int64_t n64;

	CHECK_STR(ratioi(-2, 3, 6), "-0.666667");
	CHECK_STR(ratioi(2, -3, 6), "-0.666667");
	CHECK_STR(ratioi(-2, -3, 6), "0.666667");
	CHECK_STR(ratioi(-1, 3000000, 6), "0");	/* no "-0" */
	CHECK_STR(ratioi((__int128)INT64_MAX * 3, 1, 6),
	    "27670116110564327421");
	CHECK_STR(ratioi((__int128)INT64_MIN * 100, 100, 6),
	    "-9223372036854775808");
	num_percentile(big, 3, 90, &w);	/* position 1.8 */
	CHECK(w > 0);
	CHECK_STR(ratioi(w, 100, 6), "9223372036854775806.8");
	num_percentile(big, 3, 100, &w);
	CHECK_STR(ratioi(w, 100, 6), "9223372036854775807");
	num_percentile(ends, 2, 50, &w);	/* a difference of 2^64 - 2 */
	CHECK_STR(ratioi(w, 100, 6), "0");
	num_percentile(ends, 2, 95, &w);
	CHECK_STR(ratioi(w, 100, 6), "8301034833169298226.3");
	num_median128(big, 3, &w);
	CHECK_STR(ratioi(w, 2, 6), "9223372036854775806");
	num_median128(big + 1, 2, &w);
	CHECK_STR(ratioi(w, 2, 6), "9223372036854775806.5");
	num_median128(ends, 2, &w);
	CHECK_STR(ratioi(w, 2, 6), "0");
	num_median(big, 2, &n64);		/* within +-2^62: int64 */
	CHECK(n64 == INT64_MAX);
}

int
main(void)
{
	int64_t li[] = { 300, 900, 0, 0, 0 };	/* largest internal, us */
	int64_t even[] = { 1, 2, 3, 4 };
	int64_t num;
	__int128 wide;

	CHECK_STR(ratio(750, 1200, 6), "0.625");
	/* The 128-bit ratio agrees with num_ratio where both apply. */
	CHECK_STR(ratio128(750, 1200, 6), "0.625");
	CHECK_STR(ratio128(2, 3, 6), "0.666667");
	CHECK_STR(ratio128(1, 2000000, 6), "0.000001");
	CHECK_STR(ratio128(1, 2000001, 6), "0");
	CHECK_STR(ratio128(9999995, 10000000, 6), "1");	/* carry out */
	CHECK_STR(ratio128(0, 7, 3), "0");
	CHECK_STR(ratio128(5, 1, 0), "5");
	CHECK_STR(ratio128((unsigned __int128)1 << 70, 1, 6),
	    "1180591620717411303424");		/* quotient over 64 bits */
	CHECK_STR(ratio128(((unsigned __int128)1 << 70) + 1, 4, 6),
	    "295147905179352825856.25");
	/* 2 * 4096^2 * 1024 FLOPs * 10^9 over 313 TFLOP/s: 109775.521942 ns. */
	CHECK_STR(ratio128((unsigned __int128)34359738368 * 1000000000,
	    313000000000000, 6), "109775.521942");
	CHECK_STR(ratio(1, 3, 6), "0.333333");
	CHECK_STR(ratio(2, 3, 6), "0.666667");
	CHECK_STR(ratio(-2, 3, 6), "-0.666667");
	CHECK_STR(ratio(1, 2000000, 6), "0.000001");	/* half rounds up */
	CHECK_STR(ratio(1, 2000001, 6), "0");
	CHECK_STR(ratio(-1, 3000000, 6), "0");		/* no "-0" */
	CHECK_STR(ratio(1200000, 1000000, 6), "1.2");
	CHECK_STR(ratio(5, 1, 6), "5");
	CHECK_STR(ratio(0, 7, 3), "0");
	CHECK_STR(ratio(INT64_MAX, 1, 18), "9223372036854775807");
	CHECK_STR(ratio(INT64_MAX, INT64_MAX, 18), "1");
	CHECK_STR(ratio(123456789, 1000000, 3), "123.457");
	CHECK_STR(ratio(25, 10, 0), "3");

	/* pandas quantile(0.95) of 0.3,0.9,0,0,0 ms is 0.78 ms */
	num_sort(li, 5);
	num_percentile(li, 5, 95, &wide);
	CHECK_STR(ratioi(wide, 100, 6), "780");
	num_percentile(li, 5, 100, &wide);
	CHECK(wide == 90000);
	num_percentile(li, 5, 0, &wide);
	CHECK(wide == 0);
	num_percentile(li, 1, 95, &wide);
	CHECK(wide == 0);
	num_median(even, 4, &num);
	CHECK_STR(ratio(num, 2, 6), "2.5");
	num_median(li, 5, &num);
	CHECK(num == 0);
	test_wide();
	CHECK_DONE();
}
