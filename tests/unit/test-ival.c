/*
 * Unit tests of interval union and overlap, with the reference vectors of
 * doc/analysis-rules.md (Reference vectors).
 */
#include <config.h>

#include "check.h"
#include "ival.h"

int
main(void)
{
	/* merge {[10,20],[0,5],[5,8],[15,25],[30,30],[40,35],[27,29]} */
	struct ival v[] = {
		{ 10, 20 }, { 0, 5 }, { 5, 8 }, { 15, 25 }, { 30, 30 },
		{ 40, 35 }, { 27, 29 }
	};
	struct ival k[] = {
		{ 100, 200 }, { 150, 300 }, { 500, 700 }, { 900, 950 }
	};
	struct ival a[] = { { 0, 10 }, { 20, 30 } };
	struct ival b[] = { { 5, 25 } };
	struct ival_run run;
	size_t n;

	n = ival_union(v, sizeof(v) / sizeof(*v));
	CHECK(n == 3);
	CHECK(v[0].s == 0 && v[0].e == 8);
	CHECK(v[1].s == 10 && v[1].e == 25);
	CHECK(v[2].s == 27 && v[2].e == 29);
	CHECK(ival_total(v, n) == 8 + 15 + 2);
	/* The step vector: busy 450 of 1200. */
	n = ival_union(k, 4);
	CHECK(n == 3);
	CHECK(ival_total(k, n) == 450);
	CHECK(ival_union(k, 0) == 0);
	CHECK(ival_overlap(a, 2, b, 1) == 10);
	CHECK(ival_overlap(a, 2, b, 0) == 0);
	/* A running union: overlapping, nested, touching, empty, apart. */
	run.end = INT64_MIN;
	run.total = 0;
	ival_run_add(&run, 0, 10);
	ival_run_add(&run, 5, 15);
	ival_run_add(&run, 6, 12);
	ival_run_add(&run, 15, 20);
	ival_run_add(&run, 22, 22);
	ival_run_add(&run, 30, 40);
	CHECK(run.total == 30 && run.end == 40);
	/* clipped to a range that starts at 35 */
	run.end = 35;
	run.total = 0;
	ival_run_add(&run, 30, 38);
	ival_run_add(&run, 31, 34);
	CHECK(run.total == 3 && run.end == 38);
	CHECK_DONE();
}
