/*
 * Unit tests of the bounded median (libcommon/medq.h): exact up to the
 * cap, then within 1/128 of the true median and said to be approximate,
 * the same whichever way the values came.
 */
#include <config.h>

#include <stdint.h>

#include "check.h"
#include "medq.h"

int
main(void)
{
	struct medq q = { 0 }, r = { 0 };
	__int128 m;
	int approx, i;
	int64_t true2;

	/* exact: 5 values, then 6 (the middle two summed) */
	for (i = 1; i <= 5; i++)
		medq_add(&q, i * 10, 100);
	medq_median2(&q, &m, &approx);
	CHECK(!approx && m == 60);
	medq_add(&q, 1000, 100);
	medq_median2(&q, &m, &approx);
	CHECK(!approx && m == 30 + 40);
	/* asking twice gives the same (the values are not disturbed) */
	medq_median2(&q, &m, &approx);
	CHECK(!approx && m == 70);
	medq_free(&q);
	CHECK(q.n == 0 && q.v == NULL && q.hist == NULL);

	/* past the cap: 0 .. 99,999 ns times 1,000; a true median of
	 * 49,999.5 us, twice that is 99,999,000 */
	for (i = 0; i < 100000; i++)
		medq_add(&q, (int64_t)i * 1000, 1000);
	for (i = 99999; i >= 0; i--)
		medq_add(&r, (int64_t)i * 1000, 1000);
	true2 = (int64_t)49999 * 1000 + (int64_t)50000 * 1000;
	medq_median2(&q, &m, &approx);
	CHECK(approx);
	CHECK(m * 128 >= (__int128)true2 * 127 && m * 128 <= (__int128)true2 * 129);
	{
		__int128 m2;

		medq_median2(&r, &m2, &approx);
		CHECK(approx && m2 == m);
	}
	/* small values stay exact in the histogram (below 128) */
	medq_free(&q);
	for (i = 0; i < 10; i++)
		medq_add(&q, 7, 2);
	medq_median2(&q, &m, &approx);
	CHECK(approx && m == 14);
	/* negative values count as 0 */
	medq_free(&q);
	for (i = 0; i < 5; i++)
		medq_add(&q, -5, 1);
	medq_median2(&q, &m, &approx);
	CHECK(approx && m == 0);
	medq_free(&q);
	medq_free(&r);
	CHECK_DONE();
}
