/*
 * Interval algebra: the union of busy intervals is the core of every idle
 * time computation, so it is done once, here, with exact integers.
 */
#include <config.h>

#include <stdlib.h>

#include "ival.h"

static int
cmp_ival(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return 0;
}

size_t
ival_union(struct ival *v, size_t n)
{
	size_t i, k = 0, m = 0;

	/* Empty and reversed intervals carry no busy time: drop them. */
	for (i = 0; i < n; i++)
		if (v[i].e > v[i].s)
			v[m++] = v[i];
	if (m == 0)
		return 0;
	qsort(v, m, sizeof(*v), cmp_ival);
	for (i = 1; i < m; i++) {
		if (v[i].s <= v[k].e) {
			if (v[i].e > v[k].e)
				v[k].e = v[i].e;
		} else
			v[++k] = v[i];
	}
	return k + 1;
}

int64_t
ival_total(const struct ival *v, size_t n)
{
	int64_t t = 0;
	size_t i;

	for (i = 0; i < n; i++)
		t += v[i].e - v[i].s;
	return t;
}

int64_t
ival_overlap(const struct ival *a, size_t na, const struct ival *b,
    size_t nb)
{
	size_t i = 0, j = 0;
	int64_t t = 0;

	/* Both sets are merged and sorted: one linear sweep suffices. */
	while (i < na && j < nb) {
		int64_t s = a[i].s > b[j].s ? a[i].s : b[j].s;
		int64_t e = a[i].e < b[j].e ? a[i].e : b[j].e;

		if (e > s)
			t += e - s;
		if (a[i].e < b[j].e)
			i++;
		else
			j++;
	}
	return t;
}
