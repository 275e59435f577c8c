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

static size_t *cur_index;	/* offsets of the open source's records, */
static size_t cur_count, cur_cap;	/* kept as they are added */
static size_t last_count;	/* the last run's size: the next one's guess */

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
sort_run(const unsigned char *base, size_t *index, size_t count)
{
	struct skey *key = xreallocarray(NULL, count, sizeof(*key));
	uint64_t min = UINT64_MAX, max = 0, range;
	int sorted = 1, bits = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		/* Flip the sign bit: int64 order becomes uint64 order. */
		key[i].k = (uint64_t)((const struct srec *)(base +
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
index_add(size_t off)
{
	if (cur_count == cur_cap) {
		cur_cap = cur_cap > 0 ? 2 * cur_cap : last_count +
		    last_count / 8 + 4096;
		cur_index = xreallocarray(cur_index, cur_cap,
		    sizeof(*cur_index));
	}
	cur_index[cur_count++] = off;
}

/* Turn the open source's records in the arena into a sorted run. */
void
close_run(uint32_t src)
{
	struct run *r;

	if (arena_len == cur_start)
		return;
	/* Doubling: one run per file of a walk through thousands. */
	if ((nruns & (nruns - 1)) == 0)
		runs = xreallocarray(runs, nruns > 0 ? 2 * nruns : 1,
		    sizeof(*runs));
	r = &runs[nruns++];
	memset(r, 0, sizeof(*r));
	r->src = src;
	/*
	 * Give back the room the index was grown by: a run of a few records
	 * would otherwise keep 32 KiB, outside the memory budget, for each
	 * of thousands of small files until the merge.
	 */
	r->index = xreallocarray(cur_index, cur_count, sizeof(*cur_index));
	r->count = last_count = cur_count;
	cur_index = NULL;
	cur_count = cur_cap = 0;
	/* Sorted later: by the spill thread, or before the merge. */
	cur_start = arena_len;
}

#define SPILL_BUF	(1 << 20)
static char *spill_buf;		/* spill's stdio buffer, kept to the end */

static void
spill_open(void)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/prof-ingest.XXXXXX",
	    opts.tmpdir != NULL ? opts.tmpdir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		diag_errno(EXIT_BAD, "%s", path);
	unlink(path);
	if ((spill = fdopen(fd, "w+")) == NULL)
		diag_errno(EXIT_BAD, "%s", path);
	/*
	 * Gigabytes go through here: few large writes, not 4 KiB ones.  The
	 * buffer is given, as glibc takes the size only with one: with
	 * NULL it kept 4 KiB, a write(2) per 4 KiB, most of the time of a
	 * 2 GB kernel_details.csv going to the kernel.
	 */
	spill_buf = xmalloc(SPILL_BUF);
	setvbuf(spill, spill_buf, _IOFBF, SPILL_BUF);
}

/*
 * Spilling runs on the second core: while one arena's runs are sorted and
 * written by the spill thread, the readers fill the other arena.  A job
 * owns copies of what it needs; its results are copied back into the
 * runs (whose array may move meanwhile) when it is joined.
 */
struct spill_job {
	unsigned char	*base;
	size_t		 n;
	size_t		*run;		/* indices into runs[] */
	size_t		**index;
	size_t		*count;
	off_t		*foff, *flen;
};

static pthread_t spill_thread;
static struct spill_job *pending;

static void *
spill_work(void *arg)
{
	struct spill_job *j = arg;
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		sort_run(j->base, j->index[i], j->count[i]);
		j->foff[i] = spill_len;
		for (k = 0; k < j->count[i]; k++) {
			const struct srec *sr = (const void *)(j->base +
			    j->index[i][k]);
			size_t sz = SREC_SIZE(sr->textlen);

			if (fwrite(sr, 1, sz, spill) != sz)
				diag_errno(EXIT_BAD, "temporary file");
			spill_len += (off_t)sz;
		}
		j->flen[i] = spill_len - j->foff[i];
	}
	if (fflush(spill) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	return NULL;
}

/* Wait for the spill in flight and record where its runs went. */
void
spill_join(void)
{
	struct spill_job *j = pending;
	size_t i;

	if (j == NULL)
		return;
	if ((errno = pthread_join(spill_thread, NULL)) != 0)
		diag_errno(EXIT_BAD, "spill thread");
	for (i = 0; i < j->n; i++) {
		struct run *r = &runs[j->run[i]];

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
	pending = NULL;
}

/* Hand every in-memory run to the spill thread; switch arenas. */
static void
spill_all(void)
{
	struct spill_job *j;
	size_t i;

	spill_join();
	if (spill == NULL)
		spill_open();
	j = xcalloc(1, sizeof(*j));
	j->base = arena;
	for (i = 0; i < nruns; i++)
		if (runs[i].index != NULL)
			j->n++;
	j->run = xreallocarray(NULL, j->n, sizeof(*j->run));
	j->index = xreallocarray(NULL, j->n, sizeof(*j->index));
	j->count = xreallocarray(NULL, j->n, sizeof(*j->count));
	j->foff = xreallocarray(NULL, j->n, sizeof(*j->foff));
	j->flen = xreallocarray(NULL, j->n, sizeof(*j->flen));
	j->n = 0;
	for (i = 0; i < nruns; i++) {
		if (runs[i].index == NULL)
			continue;
		j->run[j->n] = i;
		j->index[j->n] = runs[i].index;
		j->count[j->n++] = runs[i].count;
	}
	pending = j;
	if ((errno = pthread_create(&spill_thread, NULL, spill_work, j)) != 0)
		diag_errno(EXIT_BAD, "spill thread");
	cur_arena ^= 1;
	arena = arenas[cur_arena];
	arena_cap = arena_caps[cur_arena];
	arena_len = cur_start = 0;
}

/* Make room for SZ bytes in the arena, spilling when it is full. */
unsigned char *
arena_reserve(uint32_t src, size_t sz)
{
	if (arena_len + sz > arena_cap) {
		close_run(src);
		spill_all();
		if (sz > arena_cap) {
			/* One record larger than the whole budget. */
			arena_cap = arena_caps[cur_arena] = sz;
			arena = arenas[cur_arena] = xrealloc(arena, arena_cap);
		}
	}
	return arena + arena_len;
}
