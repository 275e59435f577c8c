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
sink_abs_ts(const struct sink *sk, const struct sink_rec *sr)
{
	if (sr->ts == IREC_NO_TS)
		return INT64_MIN;
	/* A bad source's records are dropped; their key needs no base. */
	if (sk->srcs[sr->src].bad)
		return sr->ts;
	return sr->ts + sk->srcs[sr->src].base;
}

/* Make sure a whole record is buffered at bufpos of a file run. */
static int
run_fill(const struct sink *sk, struct sink_run *r)
{
	size_t have = r->buflen - r->bufpos, need = sizeof(struct sink_rec);
	off_t end = r->foff + r->flen;

	for (;;) {
		if (have >= sizeof(struct sink_rec)) {
			const struct sink_rec *sr = (const void *)(r->buf +
			    r->bufpos);

			need = SINK_REC_SIZE(sr->textlen);
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
			got = pread(fileno(sk->spill), r->buf + have, want,
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
 * share one budget, and sink_reduce_runs() keeps the number of runs merged at
 * once under MERGE_FAN, so memory stays bounded whatever the input size.
 * A run is some 6 MB of records (half of -m): 1024 of them, in 8 KiB
 * buffers, cover a 3 GB kernel_details.csv in one pass, where a second
 * pass would write and read part of the spill once more.
 */
#define MERGE_BUDGET	(8 << 20)
#define MERGE_FAN	1024

static size_t
merge_bufsize(const struct sink *sk)
{
	size_t n = sk->nruns > 0 ? sk->nruns : 1, sz = MERGE_BUDGET / n;

	if (sz < (8 << 10))
		sz = 8 << 10;
	return sz > (256 << 10) ? 256 << 10 : sz;
}

/* Move a run's cursor to its next record; returns 0 at its end. */
static int
run_next_raw(struct sink *sk, struct sink_run *r)
{
	if (r->index != NULL) {
		if (r->pos >= r->count)
			return (r->cur = NULL, 0);
		r->cur = (const void *)(sk->arena + r->index[r->pos++]);
		return 1;
	}
	if (r->cur != NULL) {
		r->bufpos += SINK_REC_SIZE(r->cur->textlen);
		r->cur = NULL;
	}
	return run_fill(sk, r);
}

/* Advance a run and cache its current record's merge key. */
int
sink_run_next(struct sink *sk, struct sink_run *r)
{
	int more = run_next_raw(sk, r);

	if (more)
		r->key = sink_abs_ts(sk, r->cur);
	return more;
}

void
sink_run_start(struct sink *sk, struct sink_run *r)
{
	r->pos = 0;
	r->cur = NULL;
	if (r->index == NULL) {
		r->bufcap = merge_bufsize(sk);
		r->buf = xmalloc(r->bufcap);
		r->buflen = r->bufpos = 0;
		r->fread_off = r->foff;
	}
	sink_run_next(sk, r);
}

/* The heap's order: the current record's time, then the run's index. */
static int
heap_less(const struct sink *sk, size_t a, size_t b)
{
	int64_t ta = sk->runs[a].key, tb = sk->runs[b].key;

	if (ta != tb)
		return ta < tb;
	return a < b;
}

static void
heap_down(struct sink *sk, size_t i)
{
	size_t *heap = sk->heap, nheap = sk->nheap;

	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < nheap && heap_less(sk, heap[l], heap[m]))
			m = l;
		if (l + 1 < nheap && heap_less(sk, heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i], heap[i] = heap[m], heap[m] = t;
		i = m;
	}
}

/* Start merging the runs FIRST .. FIRST+N-1 (those with records). */
static void
heap_build_range(struct sink *sk, size_t first, size_t n)
{
	size_t i;

	free(sk->heap);
	sk->heap = xreallocarray(NULL, n + 1, sizeof(*sk->heap));
	sk->nheap = 0;
	for (i = first; i < first + n; i++) {
		sink_run_start(sk, &sk->runs[i]);
		if (sk->runs[i].cur != NULL)
			sk->heap[sk->nheap++] = i;
	}
	for (i = sk->nheap / 2; i-- > 0;)
		heap_down(sk, i);
}

void
sink_heap_build(struct sink *sk)
{
	heap_build_range(sk, 0, sk->nruns);
}

const struct sink_rec *
sink_heap_top(const struct sink *sk, size_t *which)
{
	if (sk->nheap == 0)
		return NULL;
	*which = sk->heap[0];
	return sk->runs[sk->heap[0]].cur;
}

void
sink_heap_advance(struct sink *sk)
{
	if (sink_run_next(sk, &sk->runs[sk->heap[0]]) == 0)
		sk->heap[0] = sk->heap[--sk->nheap];
	heap_down(sk, 0);
}

static void
run_release(struct sink_run *r)
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
merge_group(struct sink *sk, size_t first, size_t n)
{
	const struct sink_rec *sr;
	struct sink_run merged;
	size_t which, i;

	memset(&merged, 0, sizeof(merged));
	if (fseeko(sk->spill, 0, SEEK_END) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	merged.foff = sk->spill_len;
	heap_build_range(sk, first, n);
	while ((sr = sink_heap_top(sk, &which)) != NULL) {
		size_t sz = SINK_REC_SIZE(sr->textlen);

		if (fwrite(sr, 1, sz, sk->spill) != sz)
			diag_errno(EXIT_BAD, "temporary file");
		sk->spill_len += (off_t)sz;
		merged.count++;
		sink_heap_advance(sk);
	}
	if (fflush(sk->spill) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	merged.flen = sk->spill_len - merged.foff;
	merged.src = sk->runs[first].src;
	for (i = first; i < first + n; i++)
		run_release(&sk->runs[i]);
	sk->runs[first] = merged;
	memmove(&sk->runs[first + 1], &sk->runs[first + n],
	    (sk->nruns - first - n) * sizeof(*sk->runs));
	sk->nruns -= n - 1;
}

/*
 * Merge spilled runs in groups until few enough remain for one pass.
 * PROF_INGEST_MERGE_FAN lowers the fan-in so tests can exercise this.
 * The spilled runs are merged in their order, into the place of the
 * first, so records of equal times keep the order a single pass gives.
 */
void
sink_reduce_runs(struct sink *sk)
{
	const char *env = getenv("PROF_INGEST_MERGE_FAN");
	size_t fan = MERGE_FAN;

	if (env != NULL && atoi(env) >= 2 && atoi(env) < MERGE_FAN)
		fan = (size_t)atoi(env);
	while (sk->nruns > fan) {
		size_t first = 0, n;

		/* In-memory runs cost no buffer: merge spilled ones only. */
		while (first < sk->nruns && sk->runs[first].index != NULL)
			first++;
		if (sk->nruns - first < 2)
			break;
		/*
		 * No more runs than it takes to get down to FAN: merging N
		 * runs into one leaves N - 1 fewer, and every record merged
		 * here is written and read once more: 1200 runs rewrite
		 * 177 of them, not 1024.
		 */
		n = sk->nruns - fan + 1;
		if (n > fan)
			n = fan;
		if (n > sk->nruns - first)
			n = sk->nruns - first;
		merge_group(sk, first, n);
	}
}

/* The runs that never left memory are sorted only now. */
void
sink_sort_memory_runs(struct sink *sk)
{
	size_t i;

	for (i = 0; i < sk->nruns; i++)
		if (sk->runs[i].index != NULL)
			sink_sort_run(sk->arena, sk->runs[i].index,
			    sk->runs[i].count);
}
