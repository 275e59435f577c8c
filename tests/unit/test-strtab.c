/*
 * Unit tests of the string-keyed table: ids in order of first sight,
 * keys found again by their text (not NUL-terminated in a record),
 * copied, kept apart when they differ in one byte or in length, and
 * values zeroed and kept by id while the table grows.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "strtab.h"

struct val {
	int	 seen;
};

/* Many keys: every one is found again, in and out of order. */
static void
test_many(void)
{
	enum { N = 100000 };
	struct strtab t;
	struct val *v;
	char key[32];
	size_t len;
	int i, isnew;

	strtab_init(&t, sizeof(struct val));
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "kernel_%d", i);
		CHECK(strtab_intern(&t, key, strlen(key), &isnew) ==
		    (size_t)i && isnew);
		v = strtab_val(&t, (size_t)i);
		CHECK(v->seen == 0);
		v->seen = i + 1;
	}
	CHECK(t.n == N);
	for (i = N - 1; i >= 0; i -= 7) {
		snprintf(key, sizeof(key), "kernel_%d", i);
		CHECK(strtab_find(&t, key, strlen(key)) == (size_t)i);
		CHECK(strtab_intern(&t, key, strlen(key), &isnew) ==
		    (size_t)i && !isnew);
		v = strtab_val(&t, (size_t)i);
		CHECK(v->seen == i + 1);
		CHECK_STR(strtab_key(&t, (size_t)i, &len), key);
		CHECK(len == strlen(key));
	}
	CHECK(strtab_find(&t, "kernel_", 7) == STRTAB_NONE);
	CHECK(strtab_find(&t, "kernel_100000", 13) == STRTAB_NONE);
	CHECK(t.n == N);
	strtab_free(&t);
}

int
main(void)
{
	struct strtab t;
	char buf[8];
	size_t a, len;
	int isnew;

	strtab_init(&t, 0);
	CHECK(t.n == 0);
	CHECK(strtab_find(&t, "x", 1) == STRTAB_NONE);
	a = strtab_intern(&t, "add\tnext", 3, &isnew);
	CHECK(a == 0 && isnew && t.n == 1);
	CHECK_STR(strtab_key(&t, a, &len), "add");
	CHECK(len == 3);
	CHECK(strtab_intern(&t, "add", 3, &isnew) == 0 && !isnew);
	CHECK(strtab_intern(&t, "ad", 2, &isnew) == 1 && isnew);
	CHECK(strtab_intern(&t, "adc", 3, NULL) == 2);
	CHECK(strtab_intern(&t, "", 0, &isnew) == 3 && isnew);
	CHECK(strtab_find(&t, "", 0) == 3);
	CHECK(strtab_intern(&t, "a\0b", 3, &isnew) == 4 && isnew);
	CHECK(strtab_find(&t, "a\0c", 3) == STRTAB_NONE);
	/* a copy: the caller's buffer may change */
	memcpy(buf, "mul", 4);
	CHECK(strtab_intern(&t, buf, 3, NULL) == 5);
	memcpy(buf, "div", 4);
	CHECK_STR(strtab_key(&t, 5, NULL), "mul");
	CHECK(strtab_find(&t, "mul", 3) == 5);
	CHECK(strtab_find(&t, "div", 3) == STRTAB_NONE);
	strtab_free(&t);
	CHECK(t.n == 0);
	test_many();
	CHECK_DONE();
}
