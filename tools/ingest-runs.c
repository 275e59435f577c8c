/*
 * The sink's sorted runs (see ingest-sink.c): each source's records are
 * indexed as they are stored in the arena, sorted by time with a radix
 * sort when the source ends or the arena fills, and spilled to an
 * unlinked temporary file by a second thread while the readers fill the
 * other arena.  Kept apart from the sink's bookkeeping of sources and
 * from the merge because it alone owns the arenas' life cycle.
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
#include "xalloc.h"

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
void
sink_sort_run(const unsigned char *base, size_t *index, size_t count)
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

/*
 * Note where the next record goes.  The index is built as records come:
 * walking the arena afterwards chases one record length after another
 * through memory that has left the cache.
 */
void
sink_index_add(struct sink *sk, size_t off)
{
	if (sk->cur_count == sk->cur_cap) {
		sk->cur_cap = sk->cur_cap > 0 ? 2 * sk->cur_cap :
		    sk->last_count + sk->last_count / 8 + 4096;
		sk->cur_index = xreallocarray(sk->cur_index, sk->cur_cap,
		    sizeof(*sk->cur_index));
	}
	sk->cur_index[sk->cur_count++] = off;
}

/* Turn the open source's records in the arena into a sorted run. */
void
sink_close_run(struct sink *sk, uint32_t src)
{
	struct sink_run *r;
	size_t n = sk->nruns;

	if (sk->arena_len == sk->cur_start)
		return;
	/* Doubling: one run per file of a walk through thousands. */
	if ((n & (n - 1)) == 0)
		sk->runs = xreallocarray(sk->runs, n > 0 ? 2 * n : 1,
		    sizeof(*sk->runs));
	r = &sk->runs[sk->nruns++];
	memset(r, 0, sizeof(*r));
	r->src = src;
	/*
	 * Give back the room the index was grown by: a run of a few records
	 * would otherwise keep 32 KiB, outside the memory budget, for each
	 * of thousands of small files until the merge.
	 */
	r->index = xreallocarray(sk->cur_index, sk->cur_count,
	    sizeof(*sk->cur_index));
	r->count = sk->last_count = sk->cur_count;
	sk->cur_index = NULL;
	sk->cur_count = sk->cur_cap = 0;
	/* Sorted later: by the spill thread, or before the merge. */
	sk->cur_start = sk->arena_len;
}

#define SPILL_BUF	(1 << 20)

static void
spill_open(struct sink *sk)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/prof-ingest.XXXXXX",
	    sk->opts.tmpdir != NULL ? sk->opts.tmpdir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		diag_errno(EXIT_BAD, "%s", path);
	unlink(path);
	if ((sk->spill = fdopen(fd, "w+")) == NULL)
		diag_errno(EXIT_BAD, "%s", path);
	/*
	 * Gigabytes go through here: few large writes, not 4 KiB ones.  The
	 * buffer is given, as glibc takes the size only with one: with
	 * NULL it kept 4 KiB, a write(2) per 4 KiB, most of the time of a
	 * 2 GB kernel_details.csv going to the kernel.
	 */
	sk->spill_buf = xmalloc(SPILL_BUF);
	setvbuf(sk->spill, sk->spill_buf, _IOFBF, SPILL_BUF);
}

/*
 * Spilling runs on the second core: while one arena's runs are sorted and
 * written by the spill thread, the readers fill the other arena.  A job
 * owns copies of what it needs; its results are copied back into the
 * runs (whose array may move meanwhile) when it is joined.
 */
struct sink_spill_job {
	struct sink	*sk;		/* for its spill file only */
	unsigned char	*base;
	size_t		 n;
	size_t		*run;		/* indices into runs[] */
	size_t		**index;
	size_t		*count;
	off_t		*foff, *flen;
};

static void *
spill_work(void *arg)
{
	struct sink_spill_job *j = arg;
	struct sink *sk = j->sk;
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		sink_sort_run(j->base, j->index[i], j->count[i]);
		j->foff[i] = sk->spill_len;
		for (k = 0; k < j->count[i]; k++) {
			const struct sink_rec *sr = (const void *)(j->base +
			    j->index[i][k]);
			size_t sz = SINK_REC_SIZE(sr->textlen);

			if (fwrite(sr, 1, sz, sk->spill) != sz)
				diag_errno(EXIT_BAD, "temporary file");
			sk->spill_len += (off_t)sz;
		}
		j->flen[i] = sk->spill_len - j->foff[i];
	}
	if (fflush(sk->spill) != 0)
		diag_errno(EXIT_BAD, "temporary file");
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

		r->foff = j->foff[i];
		r->flen = j->flen[i];
		free(r->index);
		r->index = NULL;
	}
	free(j->run);
	free(j->index);
	free(j->count);
	free(j->foff);
	free(j->flen);
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
		if (sk->runs[i].index != NULL)
			j->n++;
	j->run = xreallocarray(NULL, j->n, sizeof(*j->run));
	j->index = xreallocarray(NULL, j->n, sizeof(*j->index));
	j->count = xreallocarray(NULL, j->n, sizeof(*j->count));
	j->foff = xreallocarray(NULL, j->n, sizeof(*j->foff));
	j->flen = xreallocarray(NULL, j->n, sizeof(*j->flen));
	j->n = 0;
	for (i = 0; i < sk->nruns; i++) {
		if (sk->runs[i].index == NULL)
			continue;
		j->run[j->n] = i;
		j->index[j->n] = sk->runs[i].index;
		j->count[j->n++] = sk->runs[i].count;
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
