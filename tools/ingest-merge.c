/*
 * The sink's merge (see ingest-sink.c): the sorted runs, in memory or in
 * the spill file, are read back through bounded buffers and merged by a
 * heap on their records' absolute times; when there are too many spilled
 * runs for one pass they are first merged in groups.  Apart from the
 * output because the output only asks it for the next record.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "ingest-sink.h"
#include "xalloc.h"

/* Absolute time of a record, timeless ones first. */
int64_t
abs_ts(const struct srec *sr)
{
	if (sr->ts == IREC_NO_TS)
		return INT64_MIN;
	/* A bad source's records are dropped; their key needs no base. */
	if (srcs[sr->src].bad)
		return sr->ts;
	return sr->ts + srcs[sr->src].base;
}

/* Make sure a whole record is buffered at bufpos of a file run. */
static int
run_fill(struct run *r)
{
	size_t have = r->buflen - r->bufpos, need = sizeof(struct srec);
	off_t end = r->foff + r->flen;

	for (;;) {
		if (have >= sizeof(struct srec)) {
			const struct srec *sr = (const void *)(r->buf +
			    r->bufpos);

			need = SREC_SIZE(sr->textlen);
			if (have >= need) {
				r->cur = sr;
				return 1;
			}
		}
		if (r->fread_off >= end)
			return (r->cur = NULL, 0);
		memmove(r->buf, r->buf + r->bufpos, have);
		r->bufpos = 0;
		r->buflen = have;
		if (need > r->bufcap) {
			r->bufcap = need;
			r->buf = xrealloc(r->buf, r->bufcap);
		}
		{
			size_t want = r->bufcap - have;
			ssize_t got;

			if ((off_t)want > end - r->fread_off)
				want = (size_t)(end - r->fread_off);
			got = pread(fileno(spill), r->buf + have, want,
			    r->fread_off);
			if (got <= 0)
				diag_errno(EXIT_BAD, "temporary file");
			r->fread_off += got;
			r->buflen += (size_t)got;
			have += (size_t)got;
		}
	}
}

/*
 * The merge reads every spilled run through its own buffer; their sizes
 * share one budget, and reduce_runs() keeps the number of runs merged at
 * once under MERGE_FAN, so memory stays bounded whatever the input size.
 * A run is some 6 MB of records (half of -m): 1024 of them, in 8 KiB
 * buffers, cover a 3 GB kernel_details.csv in one pass, where a second
 * pass would write and read part of the spill once more.
 */
#define MERGE_BUDGET	(8 << 20)
#define MERGE_FAN	1024

static size_t
merge_bufsize(void)
{
	size_t n = nruns > 0 ? nruns : 1, sz = MERGE_BUDGET / n;

	if (sz < (8 << 10))
		sz = 8 << 10;
	return sz > (256 << 10) ? 256 << 10 : sz;
}

/* Move a run's cursor to its next record; returns 0 at its end. */
static int
run_next_raw(struct run *r)
{
	if (r->index != NULL) {
		if (r->pos >= r->count)
			return (r->cur = NULL, 0);
		r->cur = (const void *)(arena + r->index[r->pos++]);
		return 1;
	}
	if (r->cur != NULL) {
		r->bufpos += SREC_SIZE(r->cur->textlen);
		r->cur = NULL;
	}
	return run_fill(r);
}

/* Advance a run and cache its current record's merge key. */
int
run_next(struct run *r)
{
	int more = run_next_raw(r);

	if (more)
		r->key = abs_ts(r->cur);
	return more;
}

void
run_start(struct run *r)
{
	r->pos = 0;
	r->cur = NULL;
	if (r->index == NULL) {
		r->bufcap = merge_bufsize();
		r->buf = xmalloc(r->bufcap);
		r->buflen = r->bufpos = 0;
		r->fread_off = r->foff;
	}
	run_next(r);
}

/* Heap of run indices ordered by their current record's time. */
static size_t *heap;
static size_t nheap;

static int
heap_less(size_t a, size_t b)
{
	int64_t ta = runs[a].key, tb = runs[b].key;

	if (ta != tb)
		return ta < tb;
	return a < b;
}

static void
heap_down(size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < nheap && heap_less(heap[l], heap[m]))
			m = l;
		if (l + 1 < nheap && heap_less(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i], heap[i] = heap[m], heap[m] = t;
		i = m;
	}
}

/* Start merging the runs FIRST .. FIRST+N-1 (those with records). */
static void
heap_build_range(size_t first, size_t n)
{
	size_t i;

	free(heap);
	heap = xreallocarray(NULL, n + 1, sizeof(*heap));
	nheap = 0;
	for (i = first; i < first + n; i++) {
		run_start(&runs[i]);
		if (runs[i].cur != NULL)
			heap[nheap++] = i;
	}
	for (i = nheap / 2; i-- > 0;)
		heap_down(i);
}

void
heap_build(void)
{
	heap_build_range(0, nruns);
}

/* Pop the earliest record; NULL when all runs are done. */
const struct srec *
heap_pop(size_t *which)
{
	if (nheap == 0)
		return NULL;
	*which = heap[0];
	return runs[heap[0]].cur;
}

void
heap_advance(void)
{
	if (run_next(&runs[heap[0]]) == 0)
		heap[0] = heap[--nheap];
	heap_down(0);
}

static void
run_release(struct run *r)
{
	free(r->buf);
	r->buf = NULL;
	free(r->index);
	r->index = NULL;
}

/*
 * Merge the spilled runs FIRST .. FIRST+N-1 into one new run at the end
 * of the spill file.  Their records are already on the output clock
 * (every source has ended), so runs of different sources mix freely.
 */
static void
merge_group(size_t first, size_t n)
{
	const struct srec *sr;
	struct run merged;
	size_t which, i;

	memset(&merged, 0, sizeof(merged));
	if (fseeko(spill, 0, SEEK_END) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	merged.foff = spill_len;
	heap_build_range(first, n);
	while ((sr = heap_pop(&which)) != NULL) {
		size_t sz = SREC_SIZE(sr->textlen);

		if (fwrite(sr, 1, sz, spill) != sz)
			diag_errno(EXIT_BAD, "temporary file");
		spill_len += (off_t)sz;
		merged.count++;
		heap_advance();
	}
	if (fflush(spill) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	merged.flen = spill_len - merged.foff;
	merged.src = runs[first].src;
	for (i = first; i < first + n; i++)
		run_release(&runs[i]);
	runs[first] = merged;
	memmove(&runs[first + 1], &runs[first + n],
	    (nruns - first - n) * sizeof(*runs));
	nruns -= n - 1;
}

/*
 * Merge spilled runs in groups until few enough remain for one pass.
 * PROF_INGEST_MERGE_FAN lowers the fan-in so tests can exercise this.
 * The spilled runs are merged in their order, into the place of the
 * first, so records of equal times keep the order a single pass gives.
 */
void
reduce_runs(void)
{
	const char *env = getenv("PROF_INGEST_MERGE_FAN");
	size_t fan = MERGE_FAN;

	if (env != NULL && atoi(env) >= 2 && atoi(env) < MERGE_FAN)
		fan = (size_t)atoi(env);
	while (nruns > fan) {
		size_t first = 0, n;

		/* In-memory runs cost no buffer: merge spilled ones only. */
		while (first < nruns && runs[first].index != NULL)
			first++;
		if (nruns - first < 2)
			break;
		/*
		 * No more runs than it takes to get down to FAN: merging N
		 * runs into one leaves N - 1 fewer, and every record merged
		 * here is written and read once more: 1200 runs rewrite
		 * 177 of them, not 1024.
		 */
		n = nruns - fan + 1;
		if (n > fan)
			n = fan;
		if (n > nruns - first)
			n = nruns - first;
		merge_group(first, n);
	}
}

/* The runs that never left memory are sorted only now. */
void
sort_memory_runs(void)
{
	size_t i;

	for (i = 0; i < nruns; i++)
		if (runs[i].index != NULL)
			sort_run(arena, runs[i].index, runs[i].count);
}
