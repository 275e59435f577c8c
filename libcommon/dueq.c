/*
 * The queue of items by due time (see dueq.h): a binary min-heap.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "dueq.h"
#include "xalloc.h"

static void
swap(struct dueq *q, size_t i, size_t j)
{
	struct dueent t = q->v[i];

	q->v[i] = q->v[j];
	q->v[j] = t;
}

/* Restore the heap order below I. */
static void
sift_down(struct dueq *q, size_t i)
{
	size_t c;

	while ((c = 2 * i + 1) < q->n) {
		if (c + 1 < q->n && q->v[c + 1].t < q->v[c].t)
			c++;
		if (q->v[i].t <= q->v[c].t)
			break;
		swap(q, i, c);
		i = c;
	}
}

/*
 * Drop the entries that are no item's earliest time: an item's later
 * entries are left behind when it is queued for an earlier time, and
 * once that one is taken the caller queues the item's next time anyway.
 * Without this a device whose window stays open while its segments come
 * and go leaves an entry behind at every segment (a step over the whole
 * capture: one per kernel).  Then heapify.
 */
static void
compact(struct dueq *q)
{
	size_t i, n = 0;

	for (i = 0; i < q->n; i++)
		if (q->v[i].t == *q->v[i].queued)
			q->v[n++] = q->v[i];
	q->n = n;
	for (i = n / 2; i > 0; i--)
		sift_down(q, i - 1);
}

void
dueq_add(struct dueq *q, int64_t t, void *item, int64_t *queued)
{
	size_t i, p;

	if (t == INT64_MAX || t >= *queued)
		return;
	*queued = t;
	if (q->n == q->cap && q->n >= 1024)
		compact(q);
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 64;
		q->v = xreallocarray(q->v, q->cap, sizeof(*q->v));
	}
	q->v[i = q->n++] = (struct dueent){ t, item, queued };
	for (; i > 0 && q->v[p = (i - 1) / 2].t > q->v[i].t; i = p)
		swap(q, i, p);
}

int64_t
dueq_first(const struct dueq *q)
{
	return q->n > 0 ? q->v[0].t : INT64_MAX;
}

void *
dueq_take(struct dueq *q)
{
	void *item = q->v[0].item;
	size_t i = 0;

	if (*q->v[0].queued == q->v[0].t)
		*q->v[0].queued = INT64_MAX;
	q->v[0] = q->v[--q->n];
	sift_down(q, i);
	return item;
}

void
dueq_free(struct dueq *q)
{
	free(q->v);
	memset(q, 0, sizeof(*q));
}
