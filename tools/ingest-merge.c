/*
 * The sink's merge (see ingest-sink.c): the runs, in memory or in the
 * spill file, are read back through bounded buffers.  Timed runs that
 * follow each other in time are chained and read as one sequence, and
 * the chains are merged by a tree of losers on their records' absolute
 * times; when there are too many chains for one pass they are first
 * merged in groups.  A source read in time order is one chain, read
 * straight through.
 * Apart from the output because the output only asks it for the next
 * record.
 *
 * The order is that of a stable sort of all records as they arrived,
 * source after source, by absolute time, timeless ones first: a chain is
 * records that arrived one after another, and the merge breaks ties by
 * the chain's first run, which arrived before the other's.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "ingest-sink.h"
#include "spool.h"
#include "xalloc.h"

/* A time T of run R's source, made absolute as sink_abs_ts() does. */
static int64_t
run_abs(const struct sink *sk, const struct sink_run *r, int64_t t)
{
	if (t == IREC_NO_TS)
		return INT64_MIN;
	if (sk->srcs[r->src].bad)
		return t;
	return t + sk->srcs[r->src].base;
}

/*
 * A timed run continues the timed run before it when none of its times
 * is earlier than that one's last: read one after the other, they are
 * in order, and ties keep the order in which they arrived.  Every source
 * has ended, so the bases are known.
 */
void
sink_chains(struct sink *sk)
{
	size_t i, prev = 0;
	int have = 0;

	for (i = 0; i < sk->nruns; i++) {
		struct sink_run *r = &sk->runs[i];

		r->next = 0;
		r->cont = 0;
		if (r->timeless)
			continue;
		if (have && run_abs(sk, &sk->runs[prev], sk->runs[prev].last) <=
		    run_abs(sk, r, r->first)) {
			r->cont = 1;
			sk->runs[prev].next = i;
		}
		prev = i;
		have = 1;
	}
}

/* Make sure a whole record is buffered at bufpos of a spilled run. */
static int
run_fill(const struct sink *sk, struct sink_run *h)
{
	size_t have = h->buflen - h->bufpos, need = sizeof(struct sink_rec);

	for (;;) {
		if (have >= sizeof(struct sink_rec)) {
			const struct sink_rec *sr = (const void *)(h->buf +
			    h->bufpos);

			need = sink_rec_size(sr);
			if (have >= need) {
				h->cur = sr;
				return 1;
			}
		}
		if (h->fread_off >= h->fend)
			return (h->cur = NULL, 0);
		/* The buffer is made at the first read (or grown for one
		 * record larger than it), and keeps what it holds. */
		if (need > h->bufcap || h->buf == NULL) {
			if (need > h->bufcap)
				h->bufcap = need;
			h->buf = xrealloc(h->buf, h->bufcap);
		}
		if (have > 0)
			memmove(h->buf, h->buf + h->bufpos, have);
		h->bufpos = 0;
		h->buflen = have;
		{
			size_t want = h->bufcap - have;

			if ((off_t)want > h->fend - h->fread_off)
				want = (size_t)(h->fend - h->fread_off);
			spool_pread(sk->spill, h->buf + have, want,
			    h->fread_off);
			h->fread_off += (off_t)want;
			h->buflen += want;
			have += want;
		}
	}
}

/* Point chain H's cursor at the start of its run AT. */
static void
run_open(const struct sink *sk, struct sink_run *h, size_t at)
{
	const struct sink_run *r = &sk->runs[at];

	h->at = at;
	h->cur = NULL;
	h->pos = r->index != NULL ? 0 : r->aoff;
	h->buflen = h->bufpos = 0;
	h->fread_off = r->foff;
	h->fend = r->foff + r->flen;
}

/* Move a chain's cursor to its next record; returns 0 at its end. */
static int
run_next_raw(struct sink *sk, struct sink_run *h)
{
	const struct sink_rec *sr;

	for (;;) {
		const struct sink_run *r = &sk->runs[h->at];

		if (!r->inmem) {
			if (h->cur != NULL) {
				h->bufpos += sink_rec_size(h->cur);
				h->cur = NULL;
			}
			if (run_fill(sk, h))
				return 1;
		} else if (r->index != NULL) {
			if (h->pos < r->count) {
				h->cur = (const void *)(sk->arena +
				    r->index[h->pos++]);
				return 1;
			}
		} else {
			/* A run in order: its span, less timeless records. */
			while (h->pos < r->aend) {
				sr = (const void *)(sk->arena + h->pos);
				h->pos += sink_rec_size(sr);
				if (sr->ts != IREC_NO_TS) {
					h->cur = sr;
					return 1;
				}
			}
		}
		if (r->next == 0)
			return (h->cur = NULL, 0);
		run_open(sk, h, r->next);
	}
}

/* Advance a chain and cache its current record's merge key. */
int
sink_run_next(struct sink *sk, struct sink_run *h)
{
	int more = run_next_raw(sk, h);

	if (more)
		h->key = sink_abs_ts(sk, h->cur);
	return more;
}

/* Start reading chain (or timeless run) H, through a buffer of BUFSZ. */
void
sink_run_start(struct sink *sk, struct sink_run *h, size_t bufsz)
{
	free(h->buf);
	h->buf = NULL;
	h->bufcap = bufsz;
	run_open(sk, h, (size_t)(h - sk->runs));
	sink_run_next(sk, h);
}

void
sink_run_release(struct sink_run *r)
{
	free(r->buf);
	r->buf = NULL;
	free(r->index);
	r->index = NULL;
}

/* Whether run R begins a chain of the merge. */
static int
is_head(const struct sink_run *r)
{
	return !r->timeless && !r->cont;
}

/*
 * The merge reads every chain through its own buffer; their sizes share
 * one budget, and sink_reduce_runs() keeps the number of chains merged
 * at once under MERGE_FAN, so memory stays bounded whatever the input
 * size.  A run is some 6 MB of records (half of -m): 1024 of them, in
 * 8 KiB buffers, cover a 3 GB kernel_details.csv in one pass, where a
 * second pass would write and read part of the spill once more.  A few
 * long chains (sources read in time order) get large buffers: few
 * reads.
 */
#define MERGE_BUDGET	(8 << 20)
#define MERGE_FAN	1024

static size_t
merge_bufsize(size_t nchains)
{
	size_t n = nchains > 0 ? nchains : 1, sz = MERGE_BUDGET / n;

	if (sz < (8 << 10))
		sz = 8 << 10;
	return sz > (1 << 20) ? 1 << 20 : sz;
}

static size_t
count_chains(const struct sink *sk)
{
	size_t i, n = 0;

	for (i = 0; i < sk->nruns; i++)
		n += is_head(&sk->runs[i]);
	return n;
}

/* The first runs of the chains, in order; *N gets their number. */
static size_t *
chain_heads(const struct sink *sk, size_t *n)
{
	size_t *heads = xreallocarray(NULL, count_chains(sk) + 1,
	    sizeof(*heads)), i;

	*n = 0;
	for (i = 0; i < sk->nruns; i++)
		if (is_head(&sk->runs[i]))
			heads[(*n)++] = i;
	return heads;
}

/*
 * The merge is a tree of losers (Knuth, TAOCP 5.4.1): each inner node
 * holds the chain that lost the match there and the root the winner, so
 * a record costs one path of log2(N) matches, against keys kept side by
 * side.  A chain's key is its current time and its place among the
 * chains (ties go to the chain that arrived first), as one 128-bit
 * number; a chain at its end gets a key above every record's.
 */
static unsigned __int128
chain_key(const struct sink *sk, size_t i)
{
	const struct sink_run *h = &sk->runs[sk->lt_run[i]];
	uint64_t t = h->cur != NULL ?
	    (uint64_t)h->key ^ (uint64_t)1 << 63 : UINT64_MAX;

	return (unsigned __int128)t << 64 |
	    (h->cur != NULL ? i : sk->lt_n + i);
}

/* Start merging the N chains whose first runs are at HEADS. */
static void
merge_start_from(struct sink *sk, const size_t *heads, size_t n)
{
	size_t i, a, b, bufsz = merge_bufsize(n), *win;

	free(sk->lt);
	free(sk->lt_key);
	free(sk->lt_run);
	sk->lt_n = n;
	sk->lt = xreallocarray(NULL, n + 1, sizeof(*sk->lt));
	sk->lt_key = xreallocarray(NULL, n + 1, sizeof(*sk->lt_key));
	sk->lt_run = xreallocarray(NULL, n + 1, sizeof(*sk->lt_run));
	for (i = 0; i < n; i++) {
		sk->lt_run[i] = heads[i];
		sink_run_start(sk, &sk->runs[heads[i]], bufsz);
		sk->lt_key[i] = chain_key(sk, i);
	}
	/* Leaves N .. 2N-1 are the chains; play the matches upwards. */
	win = xreallocarray(NULL, 2 * n + 1, sizeof(*win));
	for (i = 0; i < n; i++)
		win[n + i] = i;
	for (i = n; i-- > 1;) {
		a = win[2 * i];
		b = win[2 * i + 1];
		win[i] = sk->lt_key[a] < sk->lt_key[b] ? a : b;
		sk->lt[i] = sk->lt_key[a] < sk->lt_key[b] ? b : a;
	}
	sk->lt[0] = n > 1 ? win[1] : 0;
	free(win);
}

void
sink_merge_start(struct sink *sk)
{
	size_t n, *heads = chain_heads(sk, &n);

	merge_start_from(sk, heads, n);
	free(heads);
}

const struct sink_rec *
sink_merge_top(const struct sink *sk)
{
	if (sk->lt_n == 0)
		return NULL;
	return sk->runs[sk->lt_run[sk->lt[0]]].cur;
}

/* The winner moves on; its new key plays its way up to the root. */
void
sink_merge_advance(struct sink *sk)
{
	size_t w = sk->lt[0], node, t;
	unsigned __int128 kw;

	sink_run_next(sk, &sk->runs[sk->lt_run[w]]);
	kw = sk->lt_key[w] = chain_key(sk, w);
	for (node = (w + sk->lt_n) / 2; node > 0; node /= 2) {
		t = sk->lt[node];
		if (sk->lt_key[t] < kw) {
			sk->lt[node] = w;
			w = t;
			kw = sk->lt_key[t];
		}
	}
	sk->lt[0] = w;
}

/*
 * Merge the N chains at HEADS (one after another among the chains) into
 * one new run at the end of the spill file, in the place of the first;
 * the runs of the others go.  Their records are already on the output
 * clock (every source has ended), so runs of different sources mix
 * freely.
 */
static void
merge_group(struct sink *sk, const size_t *heads, size_t n)
{
	const struct sink_rec *sr;
	struct sink_run merged;
	size_t i, j, k;

	memset(&merged, 0, sizeof(merged));
	merged.foff = spool_size(sk->spill);
	merge_start_from(sk, heads, n);
	while ((sr = sink_merge_top(sk)) != NULL) {
		spool_write(sk->spill, sr, sink_rec_size(sr));
		merged.count++;
		sink_merge_advance(sk);
	}
	merged.flen = spool_size(sk->spill) - merged.foff;
	merged.src = sk->runs[heads[0]].src;
	merged.sorted = 1;
	/* The group's runs go; the merged one takes the first's place. */
	for (i = 0; i < n; i++)
		for (j = heads[i]; ; j = k) {
			k = sk->runs[j].next;
			sink_run_release(&sk->runs[j]);
			sk->runs[j].count = SIZE_MAX;	/* gone */
			if (k == 0)
				break;
		}
	sk->runs[heads[0]] = merged;
	for (i = j = 0; i < sk->nruns; i++)
		if (sk->runs[i].count != SIZE_MAX)
			sk->runs[j++] = sk->runs[i];
	sk->nruns = j;
	/* Chains are whole runs of timed runs: link them again. */
	for (i = 0, k = 0; i < sk->nruns; i++) {
		if (sk->runs[i].timeless)
			continue;
		sk->runs[i].next = 0;
		if (sk->runs[i].cont)
			sk->runs[k].next = i;
		k = i;
	}
}

/*
 * Merge chains in groups until few enough remain for one pass.
 * PROF_INGEST_MERGE_FAN lowers the fan-in so tests can exercise this.
 * The chains are merged in their order, into the place of the first, so
 * records of equal times keep the order a single pass gives.
 */
void
sink_reduce_runs(struct sink *sk)
{
	const char *env = getenv("PROF_INGEST_MERGE_FAN");
	size_t fan = MERGE_FAN, nchains, n, *heads;

	if (env != NULL && atoi(env) >= 2 && atoi(env) < MERGE_FAN)
		fan = (size_t)atoi(env);
	for (;;) {
		heads = chain_heads(sk, &nchains);
		/* Chains in memory cost no buffer: spilled ones come first. */
		for (n = 0; n < nchains && !sk->runs[heads[n]].inmem; n++)
			;
		if (n <= fan || n < 2) {
			free(heads);
			return;
		}
		/*
		 * No more chains than it takes to get down to FAN: merging N
		 * chains into one leaves N - 1 fewer, and every record merged
		 * here is written and read once more: 1200 chains rewrite
		 * 177 of them, not 1024.
		 */
		n = n - fan + 1;
		if (n > fan)
			n = fan;
		merge_group(sk, heads, n);
		free(heads);
	}
}
