/*
 * The sink's runs (see ingest-sink.c): each source's records are stored
 * in the arena as they come and cut into runs.  A run whose records came
 * in time order needs no sort and goes to disk in one piece; one whose
 * records did not has their offsets kept as they are added and is sorted
 * with a radix sort; timeless records make a run of their own.  Full
 * arenas are spilled to an unlinked temporary file by a second thread
 * while the readers fill the other arena.  Kept apart from the sink's
 * bookkeeping of sources and from the merge because it alone owns the
 * arenas' life cycle.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "diag.h"
#include "ingest-sink.h"
#include "spool.h"
#include "xalloc.h"

/*
 * A record out of order ends a run in order of at least this many
 * records, which then stays a sorted piece of the merge (the next query
 * of a database, the next line of an XPlane); in a shorter run it only
 * makes the run one to sort, so that input in no order does not become
 * thousands of tiny runs.
 */
#define SPLIT_MIN	1024

/* A record's sort key: its time made unsigned relative to the run's. */
struct skey {
	uint64_t	 k;
	size_t		 off;
};

#define RADIX_BITS	11
#define RADIX_SIZE	(1 << RADIX_BITS)

/*
 * Stable LSD radix sort on the low BITS bits of the keys: linear in the
 * number of records, and stable, so records with equal times keep their
 * input order without a tie-break on the offset.
 */
static void
radix_sort(struct skey *a, size_t n, int bits)
{
	struct skey *tmp = xreallocarray(NULL, n, sizeof(*tmp)), *from = a,
	    *to = tmp, *t;
	size_t count[RADIX_SIZE + 1];
	size_t i;
	int shift;

	for (shift = 0; shift < bits; shift += RADIX_BITS) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[((from[i].k >> shift) & (RADIX_SIZE - 1)) + 1]++;
		for (i = 1; i <= RADIX_SIZE; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
			to[count[(from[i].k >> shift) & (RADIX_SIZE - 1)]++] =
			    from[i];
		t = from, from = to, to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof(*a));
	free(tmp);
}

/* Sort the run's records by time unless they already came in order. */
static void
sort_run(const unsigned char *base, size_t *index, size_t count)
{
	struct skey *key = xreallocarray(NULL, count, sizeof(*key));
	uint64_t min = UINT64_MAX, max = 0, range;
	int sorted = 1, bits = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		/* Flip the sign bit: int64 order becomes uint64 order. */
		key[i].k = (uint64_t)((const struct sink_rec *)(base +
		    index[i]))->ts ^ ((uint64_t)1 << 63);
		key[i].off = index[i];
		if (i > 0 && key[i].k < key[i - 1].k)
			sorted = 0;
		if (key[i].k < min)
			min = key[i].k;
		if (key[i].k > max)
			max = key[i].k;
	}
	if (!sorted) {
		for (range = max - min; range != 0; range >>= 1)
			bits++;
		for (i = 0; i < count; i++)
			key[i].k -= min;
		radix_sort(key, count, bits);
		for (i = 0; i < count; i++)
			index[i] = key[i].off;
	}
	free(key);
}

/* Append OFF to a growing array of offsets. */
static void
offsets_add(size_t **a, size_t *n, size_t *cap, size_t guess, size_t off)
{
	if (*n == *cap) {
		*cap = *cap > 0 ? 2 * *cap : guess + guess / 8 + 4096;
		*a = xreallocarray(*a, *cap, sizeof(**a));
	}
	(*a)[(*n)++] = off;
}

/*
 * The open run's timed records came in order until now: from here on
 * they are sorted at the end, so their offsets are needed.  The run is
 * short (under SPLIT_MIN records), so walking it is cheap.
 */
static void
unsort(struct sink *sk)
{
	size_t p = sk->cur_start;

	while (p < sk->arena_len) {
		const struct sink_rec *sr = (const void *)(sk->arena + p);

		if (sr->ts != IREC_NO_TS)
			offsets_add(&sk->cur_index, &sk->cur_count,
			    &sk->cur_cap, sk->last_count, p);
		p += sink_rec_size(sr);
	}
	sk->cur_sorted = 0;
}

void
sink_run_add(struct sink *sk, uint32_t src, int64_t ts)
{
	if (ts == IREC_NO_TS) {
		offsets_add(&sk->cur_tindex, &sk->cur_tcount, &sk->cur_tcap,
		    0, sk->arena_len);
		return;
	}
	if (sk->cur_ntimed > 0 && sk->cur_sorted && ts < sk->cur_last) {
		if (sk->cur_ntimed >= SPLIT_MIN)
			sink_close_run(sk, src);
		else
			unsort(sk);
	}
	if (sk->cur_ntimed == 0) {
		sk->cur_sorted = 1;
		sk->cur_min = sk->cur_max = ts;
	}
	if (!sk->cur_sorted)
		offsets_add(&sk->cur_index, &sk->cur_count, &sk->cur_cap,
		    sk->last_count, sk->arena_len);
	if (ts < sk->cur_min)
		sk->cur_min = ts;
	if (ts > sk->cur_max)
		sk->cur_max = ts;
	sk->cur_last = ts;
	sk->cur_ntimed++;
}

static struct sink_run *
new_run(struct sink *sk, uint32_t src)
{
	struct sink_run *r;
	size_t n = sk->nruns;

	/* Doubling: one run per file of a walk through thousands. */
	if ((n & (n - 1)) == 0)
		sk->runs = xreallocarray(sk->runs, n > 0 ? 2 * n : 1,
		    sizeof(*sk->runs));
	r = &sk->runs[sk->nruns++];
	memset(r, 0, sizeof(*r));
	r->src = src;
	r->inmem = 1;
	r->aoff = sk->cur_start;
	r->aend = sk->arena_len;
	return r;
}

/*
 * An array of offsets handed to a run: the room it was grown by is given
 * back, as a run of a few records would otherwise keep 32 KiB, outside
 * the memory budget, for each of thousands of small files until the
 * merge.
 */
static size_t *
offsets_take(size_t **a, size_t *n, size_t *cap)
{
	size_t *r = xreallocarray(*a, *n, sizeof(**a));

	*a = NULL;
	*n = *cap = 0;
	return r;
}

/* Turn the open run's records in the arena into runs. */
void
sink_close_run(struct sink *sk, uint32_t src)
{
	struct sink_run *r;

	if (sk->arena_len == sk->cur_start)
		return;
	if (sk->cur_ntimed > 0) {
		r = new_run(sk, src);
		r->count = sk->cur_ntimed;
		r->sorted = sk->cur_sorted;
		r->first = sk->cur_min;
		r->last = sk->cur_max;
		r->mixed = sk->cur_tcount > 0;
		/* Sorted later: by the spill thread, or before the merge. */
		if (!r->sorted) {
			sk->last_count = sk->cur_count;
			r->index = offsets_take(&sk->cur_index, &sk->cur_count,
			    &sk->cur_cap);
		}
	}
	if (sk->cur_tcount > 0) {
		r = new_run(sk, src);
		r->timeless = r->sorted = 1;
		r->count = sk->cur_tcount;
		r->first = r->last = IREC_NO_TS;
		r->index = offsets_take(&sk->cur_tindex, &sk->cur_tcount,
		    &sk->cur_tcap);
	}
	sk->cur_ntimed = 0;
	sk->cur_start = sk->arena_len;
}

/*
 * The spill file is a spool (libcommon/spool.h): written in aligned 1 MiB
 * chunks with O_DIRECT, so that the gigabytes of sorted runs are not
 * copied into freshly allocated page cache (a third of all CPU time at
 * 13M kernels of an SQLite database, BENCHMARKS.md), and read back the
 * same way by the merge.
 */
static void
spill_open(struct sink *sk)
{
	sk->spill = spool_open(sk->opts.tmpdir != NULL ? sk->opts.tmpdir :
	    "/tmp");
}

/*
 * Spilling runs on the second core: while one arena's runs are sorted and
 * written by the spill thread, the readers fill the other arena.  A job
 * owns copies of the runs it writes; where they went is copied back into
 * the runs (whose array may move meanwhile) when it is joined.
 */
struct sink_spill_job {
	struct sink	*sk;		/* for its spill file only */
	unsigned char	*base;
	size_t		 n;
	size_t		*run;		/* indices into runs[] */
	struct sink_run	*copy;
};

/*
 * A run in time order is its span of the arena, written as it is: in one
 * piece, or in the pieces between the timeless records of its span.
 */
static void
spill_span(struct sink *sk, const unsigned char *base,
    const struct sink_run *r)
{
	size_t p = r->aoff, from = r->aoff;

	while (r->mixed && p < r->aend) {
		const struct sink_rec *sr = (const void *)(base + p);
		size_t sz = sink_rec_size(sr);

		if (sr->ts == IREC_NO_TS) {
			spool_write(sk->spill, base + from, p - from);
			from = p + sz;
		}
		p += sz;
	}
	spool_write(sk->spill, base + from, r->aend - from);
}

static void *
spill_work(void *arg)
{
	struct sink_spill_job *j = arg;
	struct sink *sk = j->sk;
	struct sink_run *r;
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		r = &j->copy[i];
		r->foff = spool_size(sk->spill);
		if (r->index == NULL)
			spill_span(sk, j->base, r);
		else {
			if (!r->sorted)
				sort_run(j->base, r->index, r->count);
			for (k = 0; k < r->count; k++) {
				const struct sink_rec *sr = (const void *)
				    (j->base + r->index[k]);

				spool_write(sk->spill, sr, sink_rec_size(sr));
			}
		}
		r->flen = spool_size(sk->spill) - r->foff;
	}
	return NULL;
}

/* Wait for the spill in flight and record where its runs went. */
void
sink_spill_join(struct sink *sk)
{
	struct sink_spill_job *j = sk->pending;
	size_t i;

	if (j == NULL)
		return;
	if ((errno = pthread_join(sk->spill_thread, NULL)) != 0)
		diag_errno(EXIT_BAD, "spill thread");
	for (i = 0; i < j->n; i++) {
		struct sink_run *r = &sk->runs[j->run[i]];

		r->foff = j->copy[i].foff;
		r->flen = j->copy[i].flen;
		r->inmem = 0;
		free(r->index);
		r->index = NULL;
	}
	free(j->run);
	free(j->copy);
	free(j);
	sk->pending = NULL;
}

/* Hand every in-memory run to the spill thread; switch arenas. */
static void
spill_all(struct sink *sk)
{
	struct sink_spill_job *j;
	size_t i;

	sink_spill_join(sk);
	if (sk->spill == NULL)
		spill_open(sk);
	j = xcalloc(1, sizeof(*j));
	j->sk = sk;
	j->base = sk->arena;
	for (i = 0; i < sk->nruns; i++)
		if (sk->runs[i].inmem)
			j->n++;
	j->run = xreallocarray(NULL, j->n, sizeof(*j->run));
	j->copy = xreallocarray(NULL, j->n, sizeof(*j->copy));
	j->n = 0;
	for (i = 0; i < sk->nruns; i++) {
		if (!sk->runs[i].inmem)
			continue;
		j->run[j->n] = i;
		j->copy[j->n++] = sk->runs[i];
	}
	sk->pending = j;
	if ((errno = pthread_create(&sk->spill_thread, NULL, spill_work,
	    j)) != 0)
		diag_errno(EXIT_BAD, "spill thread");
	sk->cur_arena ^= 1;
	sk->arena = sk->arenas[sk->cur_arena];
	sk->arena_cap = sk->arena_caps[sk->cur_arena];
	sk->arena_len = sk->cur_start = 0;
}

/* Make room for SZ bytes in the arena, spilling when it is full. */
unsigned char *
sink_arena_reserve(struct sink *sk, uint32_t src, size_t sz)
{
	if (sk->arena_len + sz > sk->arena_cap) {
		sink_close_run(sk, src);
		spill_all(sk);
		if (sz > sk->arena_cap) {
			/* One record larger than the whole budget. */
			sk->arena_cap = sk->arena_caps[sk->cur_arena] = sz;
			sk->arena = sk->arenas[sk->cur_arena] =
			    xrealloc(sk->arena, sk->arena_cap);
		}
	}
	return sk->arena + sk->arena_len;
}

/* The runs that never left memory and did not come in order: sorted now. */
void
sink_sort_memory_runs(struct sink *sk)
{
	size_t i;

	for (i = 0; i < sk->nruns; i++)
		if (sk->runs[i].inmem && !sk->runs[i].sorted)
			sort_run(sk->arena, sk->runs[i].index,
			    sk->runs[i].count);
}
