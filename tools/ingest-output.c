/*
 * The sink's output (see ingest-sink.c): once every source has ended, the
 * kinds deferred to the process names and the devices are resolved, the
 * origin found, and the merged records written as the prof-tsv stream, or
 * counted into the inventory that -i writes instead.  Apart from the
 * merge because it is about what is written, not about order.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "ingest-sink.h"
#include "tsv.h"
#include "xalloc.h"

/* The kind a record finally gets, or -1 when it is dropped. */
static int
resolve_kind(const struct sink *sk, const struct sink_rec *sr)
{
	const struct sink_source *s = &sk->srcs[sr->src];
	size_t i;

	if (s->bad || s->skip_all)
		return -1;
	if (sr->kind != IK_DEFER)
		return sr->kind;
	for (i = 0; i < s->nprocs; i++) {
		if (s->procs[i].pid != sink_rec_pid(sr))
			continue;
		switch (s->procs[i].cls) {
		case SINK_PC_DEVICE:
			return s->skip_device ? -1 : IK_KERNEL;
		case SINK_PC_HCCL:
			return IK_COMM;
		case SINK_PC_DERIVED:
			return -1;
		case SINK_PC_HOST:
			break;
		}
		break;
	}
	return IK_HOST;		/* a process with no name: host side */
}

static int64_t
resolve_dev(const struct sink *sk, const struct sink_rec *sr)
{
	const struct sink_source *s = &sk->srcs[sr->src];

	if (s->rank >= 0)
		return s->rank;
	if (sr->flags & SR_DEV)
		return sink_rec_dev(sr);
	return s->lone_dev >= 0 ? s->lone_dev : 0;
}

/* The origin: the earliest absolute time of any timed record kept. */
static int64_t
find_origin(struct sink *sk)
{
	int64_t origin = INT64_MAX;
	size_t i;

	for (i = 0; i < sk->nruns; i++) {
		struct sink_run *r = &sk->runs[i];
		const struct sink_rec *sr;

		if (r->timeless || r->cont)
			continue;
		/* A chain is in order: its first record kept is its least. */
		sink_run_start(sk, r, 256 << 10);
		while ((sr = r->cur) != NULL && resolve_kind(sk, sr) < 0)
			sink_run_next(sk, r);
		if (sr != NULL && r->key < origin)
			origin = r->key;
		free(r->buf);
		r->buf = NULL;
	}
	return origin == INT64_MAX ? 0 : origin;
}

/*
 * Append S to the preamble line at DST (CAP bytes left) with TSV escapes,
 * so that a path holding a TAB or newline cannot break the line.
 */
static size_t
append_escaped(char *dst, size_t cap, const char *s)
{
	size_t len = strlen(s), n;

	if (cap < 2 * len + 1) {
		dst[0] = '\0';
		return 0;
	}
	n = tsv_escape(s, len, dst);
	dst[n] = '\0';
	return n;
}

static void
write_preamble(const struct sink *sk, struct tsvw *w, int64_t origin,
    int argc, char **argv)
{
	const struct sink_source *s;
	char line[8192];
	size_t i, n;

	snprintf(line, sizeof(line), "prof-tsv %d", TSV_VERSION);
	tsvw_preamble(w, line);
	snprintf(line, sizeof(line), "origin_ns %" PRId64, origin);
	tsvw_preamble(w, line);
	for (i = 0; i < sk->nsrcs; i++) {
		char rank[24] = "-";

		s = &sk->srcs[i];
		if (s->rank >= 0)
			snprintf(rank, sizeof(rank), "%" PRId64, s->rank);
		n = (size_t)snprintf(line, sizeof(line), "source %zu %s %s ",
		    i, s->fmt->name, rank);
		if (n < sizeof(line))
			append_escaped(line + n, sizeof(line) - n, s->path);
		tsvw_preamble(w, line);
		/* What the source holds that no column carries (stacks). */
		if (s->notes[0] != '\0') {
			snprintf(line, sizeof(line), "evidence %zu %s", i,
			    s->notes);
			tsvw_preamble(w, line);
		}
	}
	tsvw_stage(w, "prof-ingest", argc, argv);
	tsvw_header(w, ingest_colnames, IC_NCOLS);
}

/*
 * A record's line, built in place in the writer's buffer: the kind, the
 * four numbers around the text the sink stored already escaped, and
 * nothing computed twice.  The longest: the kind, five numbers of at
 * most TSV_I64_MAX bytes, the text, six separators.
 */
static void
write_record(const struct sink *sk, struct tsvw *w, const struct sink_rec *sr,
    int kind, int64_t origin)
{
	char *p = tsvw_reserve(w, sk->kindlen[kind] + 5 * TSV_I64_MAX +
	    sr->textlen + 6), *o = p;

	/* Kind names are plain words: no escaping, length known. */
	memcpy(o, ingest_kindnames[kind], sk->kindlen[kind]);
	o += sk->kindlen[kind];
	*o++ = '\t';
	if (sr->ts != IREC_NO_TS)
		o += tsv_i64(o, sink_abs_ts(sk, sr) - origin);
	*o++ = '\t';
	if (sr->flags & SR_DUR)
		o += tsv_i64(o, sink_rec_dur(sr));
	*o++ = '\t';
	o += tsv_i64(o, resolve_dev(sk, sr));
	*o++ = '\t';
	memcpy(o, sink_rec_text(sr), sr->textlen);
	o += sr->textlen;
	*o++ = '\t';
	o += tsv_i64(o, sr->src);
	*o++ = '\n';
	tsvw_commit(w, (size_t)(o - p));
}

/* Count a record into its source's inventory. */
static void
tally(struct sink *sk, const struct sink_rec *sr, int kind)
{
	struct sink_source *s = &sk->srcs[sr->src];
	int64_t t;

	if (kind < 0) {
		s->ndropped++;
		return;
	}
	s->nkind[kind]++;
	if (sr->ts == IREC_NO_TS)
		return;
	t = sink_abs_ts(sk, sr);
	if (t < s->first)
		s->first = t;
	t += sink_rec_dur(sr);
	if (t > s->last)
		s->last = t;
}

/* Count a record and write it, unless it is dropped or -i counts only. */
static void
put_record(struct sink *sk, struct tsvw *w, const struct sink_rec *sr,
    int64_t origin)
{
	int kind = resolve_kind(sk, sr);

	tally(sk, sr, kind);
	if (kind >= 0 && !sk->opts.inventory)
		write_record(sk, w, sr, kind, origin);
}

/*
 * The records are written by a second thread: the merge, on this one,
 * copies each record as it is stored, in order, into batches, and the
 * other makes their lines (kind, numbers, the inventory's counts) and
 * writes them.  The two halves cost about the same, where the copy is
 * one more pass over bytes in the cache.
 */
#define OUT_BATCH	(1 << 20)
#define OUT_NBATCH	4

struct outpipe {
	struct sink	*sk;
	struct tsvw	*w;
	int64_t		 origin;
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	unsigned char	*buf[OUT_NBATCH];
	size_t		 len[OUT_NBATCH], cap[OUT_NBATCH];
	size_t		 head, tail;	/* handed over: tail .. head - 1 */
	int		 done;
};

static void *
out_work(void *arg)
{
	struct outpipe *o = arg;
	const struct sink_rec *sr;
	size_t i, at;

	for (;;) {
		pthread_mutex_lock(&o->mu);
		while (o->tail == o->head && !o->done)
			pthread_cond_wait(&o->cv, &o->mu);
		if (o->tail == o->head) {
			pthread_mutex_unlock(&o->mu);
			return NULL;
		}
		i = o->tail % OUT_NBATCH;
		pthread_mutex_unlock(&o->mu);
		for (at = 0; at < o->len[i]; at += sink_rec_size(sr)) {
			sr = (const void *)(o->buf[i] + at);
			put_record(o->sk, o->w, sr, o->origin);
		}
		pthread_mutex_lock(&o->mu);
		o->tail++;
		pthread_cond_broadcast(&o->cv);
		pthread_mutex_unlock(&o->mu);
	}
}

static void
out_start(struct outpipe *o, struct sink *sk, struct tsvw *w, int64_t origin)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->sk = sk;
	o->w = w;
	o->origin = origin;
	for (i = 0; i < OUT_NBATCH; i++)
		o->buf[i] = xmalloc(o->cap[i] = OUT_BATCH);
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
	if ((errno = pthread_create(&o->thread, NULL, out_work, o)) != 0)
		diag_errno(EXIT_BAD, "output thread");
}

/* Hand the batch being filled over, and wait for one to fill. */
static void
out_flush(struct outpipe *o)
{
	pthread_mutex_lock(&o->mu);
	o->head++;
	pthread_cond_broadcast(&o->cv);
	while (o->head - o->tail >= OUT_NBATCH)
		pthread_cond_wait(&o->cv, &o->mu);
	pthread_mutex_unlock(&o->mu);
	o->len[o->head % OUT_NBATCH] = 0;
}

static void
out_put(struct outpipe *o, const struct sink_rec *sr)
{
	size_t sz = sink_rec_size(sr), i = o->head % OUT_NBATCH;

	if (o->len[i] + sz > o->cap[i]) {
		if (o->len[i] > 0) {
			out_flush(o);
			i = o->head % OUT_NBATCH;
		}
		if (sz > o->cap[i])	/* one record larger than a batch */
			o->buf[i] = xrealloc(o->buf[i], o->cap[i] = sz);
	}
	memcpy(o->buf[i] + o->len[i], sr, sz);
	o->len[i] += sz;
}

static void
out_end(struct outpipe *o)
{
	size_t i;

	pthread_mutex_lock(&o->mu);
	if (o->len[o->head % OUT_NBATCH] > 0)
		o->head++;
	o->done = 1;
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
	if ((errno = pthread_join(o->thread, NULL)) != 0)
		diag_errno(EXIT_BAD, "output thread");
	pthread_mutex_destroy(&o->mu);
	pthread_cond_destroy(&o->cv);
	for (i = 0; i < OUT_NBATCH; i++)
		free(o->buf[i]);
}

static const char *const inventory_cols[] = {
	"path", "format", "rank", "records", "kernel", "host", "step",
	"comm", "flow", "counter", "mark", "pipe", "metric", "device", "dropped",
	"start_ns", "span_ns", "has", "skipped"
};

/* The "has" column: which kinds of evidence a source holds. */
static void
inventory_has(const struct sink_source *s, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	if (s->nkind[IK_STEP] > 0 || strstr(s->notes, "step_ids") != NULL)
		n += (size_t)snprintf(buf + n, cap - n, "steps,");
	if (s->nkind[IK_COMM] > 0)
		n += (size_t)snprintf(buf + n, cap - n, "comm,");
	/* Notes as the readers gave them, but step ids count as "steps". */
	for (const char *p = s->notes; *p != '\0';) {
		size_t len = strcspn(p, ",");

		if (!(len == 8 && strncmp(p, "step_ids", 8) == 0) &&
		    n + len + 1 < cap) {
			memcpy(buf + n, p, len);
			n += len;
			buf[n++] = ',';
			buf[n] = '\0';
		}
		p += len + (p[len] == ',');
	}
	if (n > 0)
		buf[n - 1] = '\0';
}

static void
inventory_row(struct tsvw *w, const struct sink_source *s, int64_t origin)
{
	char has[256], skipped[1024];
	uint64_t total = 0;
	size_t i, n = 0;
	int k;

	for (k = 0; k < IK_NKINDS; k++)
		total += s->nkind[k];
	tsvw_str(w, s->path);
	tsvw_str(w, s->fmt->name);
	if (s->rank >= 0)
		tsvw_i64(w, s->rank);
	else
		tsvw_empty(w);
	tsvw_i64(w, (int64_t)total);
	for (k = 0; k < IK_NKINDS; k++)
		tsvw_i64(w, (int64_t)s->nkind[k]);
	tsvw_i64(w, (int64_t)s->ndropped);
	if (s->first <= s->last) {
		tsvw_i64(w, s->first - origin);
		tsvw_i64(w, s->last - s->first);
	} else {
		tsvw_empty(w);
		tsvw_empty(w);
	}
	inventory_has(s, has, sizeof(has));
	tsvw_str(w, has);
	skipped[0] = '\0';
	for (i = 0; i < s->nskip && n < sizeof(skipped); i++)
		n += (size_t)snprintf(skipped + n, sizeof(skipped) - n,
		    "%s%" PRIu64 " %s", i ? "; " : "", s->skipn[i],
		    s->skipwhy[i]);
	if (s->utf8_fixed > 0 && n < sizeof(skipped))
		(void)snprintf(skipped + n, sizeof(skipped) - n, "%s%" PRIu64
		    " ill-formed UTF-8 replaced", n > 0 ? "; " : "",
		    s->utf8_fixed);
	tsvw_str(w, skipped);
	tsvw_end(w);
}

/*
 * The inventory: one row per source, then one per file that was found
 * but not ingested, so a user sees at once what the profile holds.
 */
static void
write_inventory(const struct sink *sk, struct tsvw *w, int64_t origin)
{
	size_t i, k, ncols = sizeof(inventory_cols) / sizeof(*inventory_cols);

	tsvw_header(w, inventory_cols, ncols);
	for (i = 0; i < sk->nsrcs; i++)
		inventory_row(w, &sk->srcs[i], origin);
	for (i = 0; i < sk->nignored; i++) {
		const char *ig = sk->ignored[i], *tab = strchr(ig, '\t');

		tsvw_field(w, ig, (size_t)(tab - ig));
		tsvw_str(w, "-");
		for (k = 2; k < ncols - 2; k++)
			tsvw_empty(w);
		tsvw_str(w, "");
		tsvw_str(w, tab + 1);
		tsvw_end(w);
	}
}

/*
 * Every time is written relative to the origin, the earliest one: the
 * sources' times must not span more than an int64, which only sources
 * hundreds of years apart do.  Nothing is written then: no origin could
 * place them all, and a time that wrapped around would be a lie.
 */
static void
check_span(const struct sink *sk)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, t;
	size_t i;

	for (i = 0; i < sk->nsrcs; i++) {
		const struct sink_source *s = &sk->srcs[i];

		if (s->bad || s->tmin > s->tmax)
			continue;
		if (s->tmin + s->base < lo)
			lo = s->tmin + s->base;
		if (s->tmax + s->base > hi)
			hi = s->tmax + s->base;
	}
	if (lo <= hi && __builtin_sub_overflow(hi, lo, &t))
		diag_err(EXIT_BAD, "the inputs' times span more than 2^63 ns "
		    "(292 years), from %" PRId64 " to %" PRId64 " ns: no "
		    "one origin can place them", lo, hi);
}

/* The direct output's records, written by its merge thread. */
struct direct_out {
	struct sink	*sk;
	struct tsvw	*w;
	int64_t		 origin;
};

/*
 * The line write_record() makes, of a record whose text may be in three
 * pieces (SR_REF: an op's columns, made once, and its ps parts).  One
 * copy into the writer's buffer, which goes out in large writes: into a
 * pipe, the kernel's copy of many small pieces (writev()) cost more
 * than this one.
 */
static void
direct_line(struct direct_out *d, const struct sink_rec *sr)
{
	struct sink *sk = d->sk;
	int kind = sr->kind != IK_DEFER ? sr->kind : resolve_kind(sk, sr);
	const struct sink_ref *ref = NULL;
	size_t prel = 0, postl = 0;
	char *p, *o;

	/*
	 * Nothing is counted (tally()): the counts are the inventory's,
	 * and -i never takes the direct output; nor is its source bad or
	 * skipped (sink_direct_settle()), which resolve_kind() would drop.
	 */
	if (kind < 0)
		return;
	if (sr->flags & SR_REF) {
		ref = sink_rec_ref(sr);
		prel = ref->prel;
		postl = ref->postl;
	}
	p = o = tsvw_reserve(d->w, sk->kindlen[kind] + 5 * TSV_I64_MAX +
	    prel + sr->textlen + postl + 6);
	memcpy(o, ingest_kindnames[kind], sk->kindlen[kind]);
	o += sk->kindlen[kind];
	*o++ = '\t';
	if (sr->ts != IREC_NO_TS)
		o += tsv_i64(o, sink_abs_ts(sk, sr) - d->origin);
	*o++ = '\t';
	if (sr->flags & SR_DUR)
		o += tsv_i64(o, sink_rec_dur(sr));
	*o++ = '\t';
	o += tsv_i64(o, resolve_dev(sk, sr));
	*o++ = '\t';
	if (ref != NULL) {
		memcpy(o, ref->pre, prel);
		o += prel;
	}
	memcpy(o, sink_rec_text(sr), sr->textlen);
	o += sr->textlen;
	if (ref != NULL) {
		memcpy(o, ref->post, postl);
		o += postl;
	}
	*o++ = '\t';
	o += tsv_i64(o, sr->src);
	*o++ = '\n';
	tsvw_commit(d->w, (size_t)(o - p));
}

/*
 * A stream's record goes out after the stored records of earlier times
 * (of the source's other streams, read after these; see ingest.h), and
 * before those of its own time.
 */
static void
direct_put(void *arg, const struct sink_rec *sr)
{
	struct direct_out *d = arg;
	const struct sink_rec *st;
	int64_t t = sink_abs_ts(d->sk, sr);

	while ((st = sink_merge_top(d->sk)) != NULL &&
	    sink_abs_ts(d->sk, st) < t) {
		put_record(d->sk, d->w, st, d->origin);
		sink_merge_advance(d->sk);
	}
	direct_line(d, sr);
}

int
sink_finish(struct sink *sk, int argc, char **argv)
{
	struct outpipe o;
	struct tsvw *w;
	int64_t origin;
	const struct sink_rec *sr;
	size_t i;
	int bad = 0, direct;

	if (sk->nsrcs > 0 && sk->srcs[sk->nsrcs - 1].open)
		sink_end(sk, (int)sk->nsrcs - 1);
	direct = sink_direct_settle(sk, 1);
	bad = sk->replay_failed;
	for (i = 0; i < sk->nsrcs; i++)
		bad |= sk->srcs[i].bad;
	check_span(sk);
	w = tsvw_open(STDOUT_FILENO, "<stdout>");
	if (sk->opts.progress)
		fprintf(stderr, "\r\033[K%s: merging %zu sorted runs%s\n",
		    diag_progname(), sk->nruns, sk->spill != NULL ?
		    " (spilled to disk)" : "");
	sink_spill_join(sk);
	sink_sort_memory_runs(sk);
	sink_resolve_sources(sk);
	sink_chains(sk);
	sink_reduce_runs(sk);
	origin = direct ? sink_direct_origin(sk) : find_origin(sk);

	if (!sk->opts.inventory)
		write_preamble(sk, w, origin, argc, argv);
	out_start(&o, sk, w, origin);
	/* Timeless records first, as they came; then the chains merged. */
	for (i = 0; i < sk->nruns; i++) {
		struct sink_run *r = &sk->runs[i];

		if (!r->timeless)
			continue;
		for (sink_run_start(sk, r, 64 << 10); r->cur != NULL;
		    sink_run_next(sk, r))
			out_put(&o, r->cur);
		sink_run_release(r);
	}
	if (direct) {
		struct direct_out d = { sk, w, origin };

		out_end(&o);
		sink_merge_start(sk);
		sink_direct_merge(sk, direct_put, &d);
		while ((sr = sink_merge_top(sk)) != NULL) {
			put_record(sk, w, sr, origin);
			sink_merge_advance(sk);
		}
		if (sink_direct_end(sk) < 0)
			bad = 1;
	} else {
		sink_merge_start(sk);
		while ((sr = sink_merge_top(sk)) != NULL) {
			out_put(&o, sr);
			sink_merge_advance(sk);
		}
		out_end(&o);
	}
	if (sk->opts.inventory)
		write_inventory(sk, w, origin);
	tsvw_close(w);
	return bad ? -1 : 0;
}
