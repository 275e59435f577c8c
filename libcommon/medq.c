/*
 * A median in bounded memory: exact values up to a cap, then a
 * log-linear histogram.  See medq.h.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "medq.h"
#include "num.h"
#include "xalloc.h"

/* Bucket of V: exact below MEDQ_SUB, then MEDQ_SUB per octave. */
static size_t
bucket(int64_t v)
{
	int e;

	if (v < MEDQ_SUB)
		return (size_t)(v < 0 ? 0 : v);
	e = 63 - __builtin_clzll((unsigned long long)v);	/* >= 7 */
	return (size_t)(e - 6) * MEDQ_SUB +
	    (size_t)((v >> (e - 7)) & (MEDQ_SUB - 1));
}

/* The smallest value of bucket B and the bucket's width. */
static void
bucket_range(size_t b, int64_t *lo, int64_t *width)
{
	size_t e = b / MEDQ_SUB + 6, m = b % MEDQ_SUB;

	if (b < MEDQ_SUB) {
		*lo = (int64_t)b;
		*width = 1;
		return;
	}
	*width = (int64_t)1 << (e - 7);
	*lo = ((int64_t)1 << e) + (int64_t)m * *width;
}

void
medq_add(struct medq *q, int64_t v, size_t cap)
{
	size_t i;

	q->n++;
	if (q->hist == NULL && q->nv == cap) {
		q->hist = xcalloc(MEDQ_BUCKETS, sizeof(*q->hist));
		for (i = 0; i < q->nv; i++)
			q->hist[bucket(q->v[i])]++;
		free(q->v);
		q->v = NULL;
		q->nv = q->vcap = 0;
	}
	if (q->hist != NULL) {
		q->hist[bucket(v)]++;
		return;
	}
	if (q->nv == q->vcap) {
		q->vcap = q->vcap ? 2 * q->vcap : 4;
		if (q->vcap > cap)
			q->vcap = cap;
		q->v = xreallocarray(q->v, q->vcap, sizeof(*q->v));
	}
	q->v[q->nv++] = v;
}

/* The K-th smallest (from 0) value of the histogram: its bucket's middle. */
static int64_t
hist_kth(const struct medq *q, uint64_t k)
{
	uint64_t seen = 0;
	int64_t lo, w;
	size_t b;

	for (b = 0; b < MEDQ_BUCKETS; b++) {
		seen += q->hist[b];
		if (seen > k)
			break;
	}
	bucket_range(b, &lo, &w);
	return lo + w / 2;
}

void
medq_median2(const struct medq *q, __int128 *num, int *approx)
{
	int64_t *v;

	*approx = q->hist != NULL;
	if (q->hist != NULL) {
		*num = (__int128)hist_kth(q, (q->n - 1) / 2) +
		    hist_kth(q, q->n / 2);
		return;
	}
	/* a copy: the median may be asked for again as values come */
	v = xreallocarray(NULL, q->nv > 0 ? q->nv : 1, sizeof(*v));
	memcpy(v, q->v, q->nv * sizeof(*v));
	num_sort(v, q->nv);
	num_median128(v, q->nv, num);
	free(v);
}

void
medq_free(struct medq *q)
{
	free(q->v);
	free(q->hist);
	q->v = NULL;
	q->hist = NULL;
	q->n = q->nv = q->vcap = 0;
}
