/*
 * prof-waitanchor: per-device interval state.
 *
 * Intervals arrive in start order (the stream is ordered by ts_ns), so a
 * union can be kept merged by extending or appending at its tail; no
 * sorting.  The communication windows are kept for the whole capture,
 * because a later kernel's wait window can reach back arbitrarily far;
 * the compute union is pruned to what an open or future AI CPU kernel
 * can still overlap.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "waitanchor.h"
#include "xalloc.h"

/* Add [S, E) to the union; S is at least every earlier start. */
void
ivrun_add(struct ivrun *r, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (r->n > r->head && s <= r->v[r->n - 1].e) {
		if (e > r->v[r->n - 1].e)
			r->v[r->n - 1].e = e;
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	r->v[r->n].s = s;
	r->v[r->n].e = e;
	r->n++;
}

/*
 * Whether the union overlaps [A, B) for a positive length.  The merged
 * segments are disjoint and sorted, so only the last one starting
 * before B can reach past A.
 */
int
ivrun_meets(const struct ivrun *r, int64_t a, int64_t b)
{
	size_t lo = r->head, hi = r->n, mid;

	if (a >= b)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->v[mid].s < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > r->head && r->v[lo - 1].e > a;
}

/* Forget segments ending at or before LIM; compact now and then. */
void
ivrun_prune(struct ivrun *r, int64_t lim)
{
	while (r->head < r->n && r->v[r->head].e <= lim)
		r->head++;
	if (r->head > 1024 && r->head * 2 > r->n) {
		memmove(r->v, r->v + r->head, (r->n - r->head) *
		    sizeof(*r->v));
		r->n -= r->head;
		r->head = 0;
	}
}

void
ivrun_free(struct ivrun *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/*
 * Whether the wait window [A, B) of a kernel on stream TRACK overlaps a
 * communication window: a comm record on the device, or a comm kernel
 * on another stream (one on the kernel's own stream runs before it in
 * stream order and is ordinary queueing, not pollution).
 */
int
wa_polluted(const struct wadev *d, const char *track, size_t tl, int64_t a,
    int64_t b)
{
	size_t i;

	if (ivrun_meets(&d->comm, a, b))
		return 1;
	for (i = 0; i < d->nkcomm; i++)
		if (strcmp(d->kcomm_track[i], track) != 0 &&
		    ivrun_meets(&d->kcomm[i], a, b))
			return 1;
	return 0;
}

/* Record the busy window of a comm kernel on stream TRACK. */
void
wa_comm_kernel(struct wadev *d, const char *track, size_t tl, int64_t s,
    int64_t e)
{
	size_t i;

	for (i = 0; i < d->nkcomm; i++)
		if (strcmp(d->kcomm_track[i], track) == 0)
			break;
	if (i == d->nkcomm) {
		d->kcomm = xreallocarray(d->kcomm, i + 1, sizeof(*d->kcomm));
		d->kcomm_track = xreallocarray(d->kcomm_track, i + 1,
		    sizeof(*d->kcomm_track));
		memset(&d->kcomm[i], 0, sizeof(d->kcomm[i]));
		d->kcomm_track[i] = xstrndup(track, tl);
		d->nkcomm++;
	}
	ivrun_add(&d->kcomm[i], s, e);
}
