/*
 * Unit tests of the per-device table: a device is made once, found
 * again by its text (not NUL-terminated in a record), keeps its item's
 * address while others are added, and sorts by name for reports.
 */
#include <config.h>

#include <string.h>

#include "check.h"
#include "devtab.h"

struct item {
	int	 seen;
};

/*
 * A job of 100,000 ranks: every device is found again, in and out of
 * the order it came, before and after sorting, and names that differ
 * in one byte or in length stay apart.
 */
static void
test_many(void)
{
	enum { N = 100000 };
	struct devtab t;
	struct item *p;
	char name[32];
	int i, isnew;

	devtab_init(&t, sizeof(struct item));
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "%d", i);
		p = devtab_get(&t, name, strlen(name), &isnew);
		CHECK(isnew && p->seen == 0);
		p->seen = i + 1;
	}
	CHECK(t.n == N);
	for (i = N - 1; i >= 0; i -= 7) {
		snprintf(name, sizeof(name), "%d", i);
		p = devtab_get(&t, name, strlen(name), &isnew);
		CHECK(!isnew && p->seen == i + 1);
	}
	CHECK(devtab_find(&t, "0 ", 2) == NULL);
	CHECK(devtab_find(&t, "100000", 6) == NULL);
	devtab_sort(&t, strcmp);
	CHECK_STR(t.v[0].name, "0");
	CHECK_STR(t.v[1].name, "1");
	CHECK_STR(t.v[2].name, "10");
	for (i = 0; i < N; i += 3) {
		snprintf(name, sizeof(name), "%d", i);
		p = devtab_find(&t, name, strlen(name));
		CHECK(p != NULL && p->seen == i + 1);
	}
	CHECK(t.n == N);
	devtab_free(&t);
}

int
main(void)
{
	struct devtab t;
	struct item *a, *b, *p;
	char name[16];
	int isnew, i;

	devtab_init(&t, sizeof(struct item));
	CHECK(t.n == 0);
	a = devtab_get(&t, "7\tnext", 1, &isnew);
	CHECK(isnew && a != NULL && a->seen == 0 && t.n == 1);
	CHECK_STR(t.v[0].name, "7");
	a->seen = 1;
	b = devtab_get(&t, "12", 2, &isnew);
	CHECK(isnew && b != a && t.n == 2);
	CHECK(devtab_get(&t, "7", 1, &isnew) == a && !isnew);
	CHECK(devtab_get(&t, "12", 2, NULL) == b);
	CHECK(devtab_get(&t, "1", 1, &isnew) != a && isnew);
	CHECK(devtab_get(&t, "", 0, &isnew) != NULL && isnew && t.n == 4);
	/* many more: the first ones stay where they were */
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "npu%d", i);
		devtab_get(&t, name, strlen(name), NULL);
	}
	CHECK(t.n == 104);
	p = devtab_get(&t, "7", 1, &isnew);
	CHECK(p == a && p->seen == 1 && !isnew);
	devtab_sort(&t, strcmp);
	CHECK_STR(t.v[0].name, "");
	CHECK_STR(t.v[1].name, "1");
	CHECK_STR(t.v[2].name, "12");
	CHECK_STR(t.v[3].name, "7");
	CHECK(t.v[3].item == a && t.v[2].item == b);
	CHECK(devtab_get(&t, "12", 2, &isnew) == b && !isnew);
	CHECK(devtab_get(&t, "npu99", 5, &isnew) != NULL && !isnew);
	CHECK(devtab_find(&t, "npu100", 6) == NULL);
	CHECK(devtab_find(&t, "7", 1) == a);
	devtab_free(&t);
	CHECK(t.n == 0 && t.v == NULL);
	CHECK(devtab_find(&t, "7", 1) == NULL);
	test_many();
	CHECK_DONE();
}
