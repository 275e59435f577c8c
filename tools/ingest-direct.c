/*
 * The sink's direct output (see ingest.h, struct sink_replay): the
 * records of a lone source whose reader gives them as streams each in
 * time order (an XPlane's lines) are not stored at all.  The reader's
 * first pass gave the facts the preamble needs; here each stream is
 * asked for its records again, a buffer at a time, and the streams are
 * merged by a tree of losers straight into the output.  Ties go to the
 * stream met first, and a stream's records keep their order: the order
 * of the stable sort the stored runs give (ingest-merge.c).  Memory is
 * a buffer per stream, whatever the input's size.
 *
 * When the direct output cannot take them, the first pass's records are
 * asked for once more, in its order, and stored as usual.
 */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ingest-sink.h"
#include "xalloc.h"

/*
 * A stream's records are rendered by the reader (this thread) into one
 * of two buffers while the merge (a thread of its own, which writes the
 * output) reads the other: a buffer is free (to fill), ready (records),
 * or the end (the stream has no more).
 */
enum { DS_FREE, DS_READY, DS_END };

struct sink_dstream {
	unsigned char	*buf[2];
	size_t		 len[2], cap[2];
	int		 state[2];
	int		 cur;		/* the buffer the merge reads */
	size_t		 pos;
	int		 more;		/* the reader may have more */
};

/* What the two threads share. */
struct dmerge {
	struct sink	*sk;
	size_t		 n;
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 want, ready;
	size_t		*req;		/* 2 * stream + buffer, a ring */
	size_t		 rhead, rtail;
	int		 done;
	void		(*put)(void *, const struct sink_rec *);
	void		*arg;
};

/* Bytes of rendered records a stream is given at a time. */
#define DS_BUDGET	(8 << 20)
#define DS_FILL_MAX	(64 << 10)
#define DS_FILL_MIN	(4 << 10)

/* Whether the second pass may be the direct output. */
int
sink_can_direct(const struct sink *sk)
{
	const char *e = getenv("PROF_INGEST_DIRECT");

	if (e != NULL && strcmp(e, "0") == 0)
		return 0;
	return sk->opts.lone && !sk->opts.inventory && sk->nsrcs == 0;
}

void
sink_direct(struct sink *sk, int src, const struct sink_replay *rp,
    int ordered)
{
	sk->replay = *rp;
	sk->replay_src = src;
	sk->replay_ordered = ordered;
	sk->has_replay = 1;
}

void
sink_hold(struct sink *sk, int src, const struct irec *r)
{
	struct sink_source *s = &sk->srcs[src];
	size_t need = sink_rec_bound(r);
	uint64_t before = s->utf8_fixed;

	if (sk->hold_len + need > sk->hold_cap) {
		sk->hold_cap = sk->hold_len + need > 2 * sk->hold_cap ?
		    sk->hold_len + need : 2 * sk->hold_cap;
		sk->hold = xrealloc(sk->hold, sk->hold_cap);
	}
	sk->hold_len += sink_render(sk, src, r, sk->hold + sk->hold_len);
	sk->hold_utf8 += s->utf8_fixed - before;
	sink_fact(sk, src, r);
}

/* The records held are dropped, to be read again: their span and
 * device, noted, will be noted again; their names' repairs would not. */
void
sink_hold_drop(struct sink *sk, int src)
{
	sk->srcs[src].utf8_fixed -= sk->hold_utf8;
	sk->hold_utf8 = 0;
	sk->hold_len = 0;
}

/* The first pass's records, stored as sink_add() would have. */
static void
replay_store(struct sink *sk)
{
	struct sink_source *s = &sk->srcs[sk->replay_src];
	const struct sink_rec *sr;
	size_t at, sz;

	sk->cur_start = sk->arena_len;
	sk->cur_ntimed = 0;
	/* The records held first, as they are. */
	for (at = 0; at < sk->hold_len; at += sz) {
		sr = (const void *)(sk->hold + at);
		sz = sink_rec_size(sr);
		memcpy(sink_arena_reserve(sk, (uint32_t)sk->replay_src, sz),
		    sr, sz);
		sink_run_add(sk, (uint32_t)sk->replay_src, sr->ts);
		sk->arena_len += sz;
	}
	sk->hold_len = 0;
	sk->replaying = SINK_STORE;
	diag_mute(1);
	sk->replay.store(sk->replay.arg);
	diag_mute(0);
	sk->replaying = 0;
	sink_close_run(sk, (uint32_t)sk->replay_src);
	sink_utf8_note(s);	/* held back at its end */
}

int
sink_direct_settle(struct sink *sk, int final)
{
	const struct sink_source *s;

	if (!sk->has_replay)
		return 0;
	s = &sk->srcs[sk->replay_src];
	if (final && sk->replay_ordered && sk->nsrcs == 1 &&
	    !sk->opts.inventory && !s->bad && !s->skip_all &&
	    !s->skip_device) {
		/*
		 * Facts the first records did not give: the lone device
		 * that records of no device of their own get, and the end
		 * of the span, which only a time before 0 could take past
		 * what check_span() allows.
		 */
		if (sk->replay.facts != NULL && (s->rank < 0 ||
		    (s->tmin <= s->tmax && s->tmin < 0))) {
			diag_mute(1);
			sk->replay.facts(sk->replay.arg);
			diag_mute(0);
		}
		return 1;
	}
	replay_store(sk);
	if (sk->replay.done(sk->replay.arg) < 0)
		sk->replay_failed = 1;
	sk->has_replay = 0;
	return 0;
}

/* The origin: the earliest time, as every record is kept. */
int64_t
sink_direct_origin(const struct sink *sk)
{
	const struct sink_source *s = &sk->srcs[sk->replay_src];

	return s->tmin <= s->tmax ? s->tmin + s->base : 0;
}

/* Room for NEED more bytes in the buffer being filled: where they go. */
static unsigned char *
ds_room(struct sink *sk, size_t need)
{
	struct sink_dstream *d = &sk->ds[sk->ds_cur];
	int b = sk->ds_buf;

	if (d->len[b] + need > d->cap[b]) {
		d->cap[b] = d->len[b] + need > 2 * d->cap[b] ? d->len[b] +
		    need : 2 * d->cap[b];
		d->buf[b] = xrealloc(d->buf[b], d->cap[b]);
	}
	return d->buf[b] + d->len[b];
}

/* N bytes were added: whether the buffer has enough. */
static int
ds_added(struct sink *sk, size_t n)
{
	struct sink_dstream *d = &sk->ds[sk->ds_cur];

	d->len[sk->ds_buf] += n;
	return d->len[sk->ds_buf] >= sk->ds_fill;
}

int
sink_emit(struct sink *sk, int src, const struct irec *r)
{
	if (sk->replaying == SINK_STORE) {
		sink_add(sk, src, r);
		return 0;
	}
	return ds_added(sk, sink_render(sk, src, r, ds_room(sk,
	    sink_rec_bound(r))));
}

int
sink_emit_text(struct sink *sk, int src, const struct irec *r,
    const char *t1, size_t l1, const char *t2, size_t l2, const char *t3,
    size_t l3)
{
	unsigned char *p = ds_room(sk, sizeof(struct sink_rec) + 3 * 8 + l1 +
	    l2 + l3 + 8);

	return ds_added(sk, sink_render_text(sk, src, r, p, t1, l1, t2, l2,
	    t3, l3));
}

int
sink_emit_ref(struct sink *sk, int src, const struct irec *r,
    const char *t1, size_t l1, const char *t2, size_t l2, const char *t3,
    size_t l3)
{
	unsigned char *p;

	if (l1 > UINT32_MAX || l3 > UINT32_MAX)
		return sink_emit_text(sk, src, r, t1, l1, t2, l2, t3, l3);
	p = ds_room(sk, sizeof(struct sink_rec) + 3 * 8 +
	    sizeof(struct sink_ref) + l2 + 8);
	return ds_added(sk, sink_render_ref(sk, src, r, p, t1, l1, t2, l2,
	    t3, l3));
}

/* The reader's side: fill buffer B of stream I. */
static void
ds_fill(struct dmerge *m, size_t i, int b)
{
	struct sink *sk = m->sk;
	struct sink_dstream *d = &sk->ds[i];

	d->len[b] = 0;
	/* Stream 0's first buffer: the records held, when there are. */
	if (i == 0 && sk->hold_len > 0) {
		free(d->buf[b]);
		d->buf[b] = sk->hold;
		d->len[b] = sk->hold_len;
		d->cap[b] = sk->hold_cap;
		sk->hold = NULL;
		sk->hold_len = sk->hold_cap = 0;
	}
	while (d->more && d->len[b] == 0) {
		sk->ds_cur = i;
		sk->ds_buf = b;
		d->more = sk->replay.fill(sk->replay.arg, i);
	}
	pthread_mutex_lock(&m->mu);
	d->state[b] = d->len[b] > 0 ? DS_READY : DS_END;
	pthread_cond_broadcast(&m->ready);
	pthread_mutex_unlock(&m->mu);
}

/*
 * The merge's side: wait for stream I's buffer; with DONE, the one it
 * had is read: hand it back and wait for the other.  Returns 0 at the
 * stream's end.
 */
static int
ds_next(struct dmerge *m, size_t i, int done)
{
	struct sink_dstream *d = &m->sk->ds[i];
	int st;

	pthread_mutex_lock(&m->mu);
	if (done && d->state[d->cur] == DS_READY) {
		d->state[d->cur] = DS_FREE;
		m->req[m->rhead++ % (2 * m->n)] = 2 * i + (size_t)d->cur;
		pthread_cond_signal(&m->want);
		d->cur ^= 1;
	}
	while ((st = d->state[d->cur]) == DS_FREE)
		pthread_cond_wait(&m->ready, &m->mu);
	pthread_mutex_unlock(&m->mu);
	d->pos = 0;
	return st == DS_READY;
}

static const struct sink_rec *
ds_cur(const struct sink *sk, size_t i)
{
	const struct sink_dstream *d = &sk->ds[i];

	if (d->state[d->cur] != DS_READY || d->pos >= d->len[d->cur])
		return NULL;
	return (const void *)(d->buf[d->cur] + d->pos);
}

/* Stream I's key: its record's time, then its place; past the end, the
 * largest. */
static unsigned __int128
ds_key(const struct sink *sk, size_t i, size_t n)
{
	const struct sink_rec *sr = ds_cur(sk, i);

	if (sr == NULL)
		return (unsigned __int128)UINT64_MAX << 64 | (n + i);
	return (unsigned __int128)((uint64_t)sink_abs_ts(sk, sr) ^
	    (uint64_t)1 << 63) << 64 | i;
}

/* The merge: a tree of losers, as in ingest-merge.c. */
static void *
merge_work(void *arg)
{
	struct dmerge *m = arg;
	struct sink *sk = m->sk;
	size_t n = m->n, i, a, b, w, node, t, *lt, *win;
	unsigned __int128 *key, kw;
	uint64_t whi, wlo, khi, klo, msk;
	const struct sink_rec *sr;
	struct sink_dstream *d;

	key = xreallocarray(NULL, n, sizeof(*key));
	lt = xreallocarray(NULL, n + 1, sizeof(*lt));
	win = xreallocarray(NULL, 2 * n + 1, sizeof(*win));
	for (i = 0; i < n; i++) {
		(void)ds_next(m, i, 0);
		key[i] = ds_key(sk, i, n);
		win[n + i] = i;
	}
	for (i = n; i-- > 1;) {
		a = win[2 * i];
		b = win[2 * i + 1];
		win[i] = key[a] < key[b] ? a : b;
		lt[i] = key[a] < key[b] ? b : a;
	}
	lt[0] = n > 1 ? win[1] : 0;
	free(win);
	while ((sr = ds_cur(sk, w = lt[0])) != NULL) {
		m->put(m->arg, sr);
		d = &sk->ds[w];
		d->pos += sink_rec_size(sr);
		/* The stream's next records, out of the cache by now. */
		__builtin_prefetch(d->buf[d->cur] + d->pos + 512);
		if (d->pos >= d->len[d->cur])
			(void)ds_next(m, w, 1);
		kw = key[w] = ds_key(sk, w, n);
		/*
		 * Up the tree without a branch: which of two keys wins is
		 * as good as random (the records of lines interleave), and
		 * a wrong guess at each level was a third of the merge.
		 * MSK is all ones when the loser kept at NODE wins.
		 */
		whi = (uint64_t)(kw >> 64);
		wlo = (uint64_t)kw;
		for (node = (w + n) / 2; node > 0; node /= 2) {
			t = lt[node];
			khi = (uint64_t)(key[t] >> 64);
			klo = (uint64_t)key[t];
			msk = -(uint64_t)((khi < whi) | ((khi == whi) &
			    (klo < wlo)));
			lt[node] = t ^ ((t ^ w) & msk);
			w ^= (w ^ t) & msk;
			whi ^= (whi ^ khi) & msk;
			wlo ^= (wlo ^ klo) & msk;
		}
		lt[0] = w;
	}
	free(key);
	free(lt);
	pthread_mutex_lock(&m->mu);
	m->done = 1;
	pthread_cond_signal(&m->want);
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

/*
 * The second pass: this thread reads the streams again, as the merge
 * asks for them, both buffers of each at first; the merge runs in a
 * thread of its own and gives PUT the records in order.
 */
void
sink_direct_merge(struct sink *sk, void (*put)(void *, const struct sink_rec *),
    void *arg)
{
	struct dmerge m;
	size_t n = sk->replay.nstreams, i, r;

	if (n == 0)
		return;
	memset(&m, 0, sizeof(m));
	m.sk = sk;
	m.n = n;
	m.put = put;
	m.arg = arg;
	sk->replaying = SINK_DIRECT;
	if (!sk->replay.loud)
		diag_mute(1);
	sk->ds_fill = DS_BUDGET / n;
	if (sk->ds_fill > DS_FILL_MAX)
		sk->ds_fill = DS_FILL_MAX;
	if (sk->ds_fill < DS_FILL_MIN)
		sk->ds_fill = DS_FILL_MIN;
	sk->ds = xcalloc(n, sizeof(*sk->ds));
	m.req = xreallocarray(NULL, 2 * n, sizeof(*m.req));
	for (i = 0; i < n; i++) {
		sk->ds[i].more = 1;
		m.req[m.rhead++] = 2 * i;
	}
	for (i = 0; i < n; i++)
		m.req[m.rhead++] = 2 * i + 1;
	pthread_mutex_init(&m.mu, NULL);
	pthread_cond_init(&m.want, NULL);
	pthread_cond_init(&m.ready, NULL);
	if ((errno = pthread_create(&m.thread, NULL, merge_work, &m)) != 0)
		diag_errno(EXIT_BAD, "merge thread");
	for (;;) {
		pthread_mutex_lock(&m.mu);
		while (m.rtail == m.rhead && !m.done)
			pthread_cond_wait(&m.want, &m.mu);
		if (m.rtail == m.rhead) {
			pthread_mutex_unlock(&m.mu);
			break;
		}
		r = m.req[m.rtail++ % (2 * n)];
		pthread_mutex_unlock(&m.mu);
		ds_fill(&m, r / 2, (int)(r % 2));
	}
	if ((errno = pthread_join(m.thread, NULL)) != 0)
		diag_errno(EXIT_BAD, "merge thread");
	pthread_mutex_destroy(&m.mu);
	pthread_cond_destroy(&m.want);
	pthread_cond_destroy(&m.ready);
	free(m.req);
	if (!sk->replay.loud)
		diag_mute(0);
	sk->replaying = 0;
	for (i = 0; i < n; i++) {
		free(sk->ds[i].buf[0]);
		free(sk->ds[i].buf[1]);
	}
	free(sk->ds);
	sk->ds = NULL;
	free(sk->hold);
	sk->hold = NULL;
	sk->hold_len = sk->hold_cap = 0;
}

/* After the direct output: the reader's state goes, and what the
 * second pass found to say is said. */
int
sink_direct_end(struct sink *sk)
{
	int rc = sk->replay.done(sk->replay.arg);

	sk->has_replay = 0;
	sink_utf8_note(&sk->srcs[sk->replay_src]);
	return rc;
}
