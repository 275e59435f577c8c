/*
 * prof-attrib's measurements: for every bubble record, over the bubble's
 * time range and on its rank, the union of the host events of each
 * marker family (clipped to the bubble), the threads active at once,
 * the partition of its time by what the host was doing, and the covered
 * time per normalised host name; then its columns and labels, and the
 * summaries' share of it (attrib-sum.c, attrib-cov.c).
 *
 * The input is in start order, so a bubble is kept (stage_keep) until a
 * record starts at or after its end: nothing later can overlap it.  Host
 * events that started before the bubble and still run are covered by
 * remembering, per rank and family and per thread, the largest end seen:
 * clipped to the bubble they all start at its start, so their union is
 * just that largest end.  The partition uses the same running unions:
 * one for each class and the classes above it, so that each class's
 * time is the difference of two unions.  Per normalised name, the names
 * whose events still run are kept per rank.  Memory: the threads, the
 * names still running, the open bubbles with their names, and the
 * records queued behind the oldest of them.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "devtab.h"
#include "diag.h"
#include "dueq.h"
#include "num.h"
#include "stage.h"
#include "strtab.h"
#include "xalloc.h"

/* A host thread (track) of one rank. */
struct thr {
	int64_t	 host_end;	/* largest end of its host-family events */
	size_t	 idx;		/* its id in the rank's table */
};

struct bub {
	struct srec	*rec;
	int64_t		 s, e;
	struct ival_run	 fam[FAM_N];	/* clipped to the bubble */
	struct ival_run	 cum[CLS_N];	/* union of classes 0 .. k */
	struct ival_run	*thr;	/* per thread index of the rank */
	size_t		 nthr;
	struct nmap	 names;	/* per normalised name */
	struct bub	*next;
};

struct dev {
	int64_t		 id;	/* its index in devs.v: the summaries' key */
	int64_t		 fam_end[FAM_N];
	int64_t		 cum_end[CLS_N];
	struct strtab	 thr;	/* struct thr by track */
	size_t		 last;	/* most host events follow one of the same thread */
	struct bub	*open;
	struct nmap	 run;	/* names by the largest end of their events */
	int64_t		*frames;	/* ends of MATCH_FRAME events */
	size_t		 nframes, capframes;
	size_t		 run_keep;	/* names left by the last pruning */
	int		 stacks, shapes, hosts, launches;
	int		 device;	/* a kernel or busy record seen */
	int64_t		 queued;	/* its earliest time in closing */
};

/* Evidence the preamble declares (#evidence) for a rank, or every rank. */
struct decl {
	char		*rank;	/* NULL: the source has no rank */
	int		 stacks, shapes;
};

static struct decl *decls;
static size_t ndecls;

/*
 * The ranks by the text of their dev column, any text (prof-tsv(5)),
 * items struct dev; a rank's id is its place in devs.v, in order of
 * first sight, which the summaries use as an index.
 */
static struct devtab devs;

/*
 * The ranks by the earliest end of their open bubbles, so that the
 * bubbles to close are found without a look at every rank (see dueq.h).
 * A rank's own open bubbles are in its list.
 */
static struct dueq closing;
static int64_t next_close = INT64_MAX;

/* A rank seen for the first time: its state and declared evidence. */
static void
dev_setup(struct dev *d, const char *name, size_t len)
{
	size_t i;

	d->id = (int64_t)devs.n - 1;
	d->queued = INT64_MAX;
	for (i = 0; i < FAM_N; i++)
		d->fam_end[i] = INT64_MIN;
	for (i = 0; i < CLS_N; i++)
		d->cum_end[i] = INT64_MIN;
	for (i = 0; i < ndecls; i++)
		if (decls[i].rank == NULL || (strlen(decls[i].rank) == len &&
		    memcmp(decls[i].rank, name, len) == 0)) {
			d->stacks |= decls[i].stacks;
			d->shapes |= decls[i].shapes;
		}
}

/* The rank of the current record, made on first sight. */
static struct dev *
dev_of(struct stage *st)
{
	size_t len;
	const char *s = stage_get(st, COL_DEV, &len);
	int isnew;
	struct dev *d = devtab_get(&devs, s, len, &isnew);

	if (isnew)
		dev_setup(d, s, len);
	return d;
}

int64_t
bub_dev_id(struct stage *st)
{
	return dev_of(st)->id;
}

const char *
bub_dev_name(int64_t id)
{
	return devs.v[id].name;
}

int
bub_dev_cmp(int64_t a, int64_t b)
{
	return devtab_cmp(devs.v[a].name, devs.v[b].name);
}

/* The thread TRACK of rank D, made on first sight. */
static struct thr *
thr_get(struct dev *d, const char *track, size_t len)
{
	const char *k;
	size_t kl;
	int isnew;
	struct thr *t;

	if (d->thr.n > 0) {
		k = strtab_key(&d->thr, d->last, &kl);
		if (kl == len && memcmp(k, track, len) == 0)
			return strtab_val(&d->thr, d->last);
	} else
		strtab_init(&d->thr, sizeof(struct thr));
	d->last = strtab_intern(&d->thr, track, len, &isnew);
	t = strtab_val(&d->thr, d->last);
	if (isnew) {
		t->host_end = INT64_MIN;
		t->idx = d->last;
	}
	return t;
}

/* Add [S, E) to C; intervals come in start order, clipped to [BS, BE). */
static void
cover_add(struct ival_run *c, int64_t s, int64_t e, int64_t bs, int64_t be)
{
	ival_run_add(c, s > bs ? s : bs, e < be ? e : be);
}

static struct ival_run *
bub_thr(struct bub *b, size_t idx)
{
	size_t i;

	if (idx >= b->nthr) {
		b->thr = xreallocarray(b->thr, idx + 1, sizeof(*b->thr));
		for (i = b->nthr; i <= idx; i++) {
			b->thr[i].end = b->s;
			b->thr[i].total = 0;
		}
		b->nthr = idx + 1;
	}
	return &b->thr[idx];
}

/*
 * Forget the names of D whose events all ended by TS: events come in
 * start order, so none of them can cover a later bubble.
 */
static void
run_prune(struct dev *d, int64_t ts)
{
	struct nmap old = d->run;
	size_t i;

	memset(&d->run, 0, sizeof(d->run));
	for (i = 0; i < old.cap; i++)
		if (old.v[i].used && old.v[i].cov.end > ts)
			nmap_get(&d->run, old.v[i].id)->cov.end =
			    old.v[i].cov.end;
	nmap_free(&old);
	d->run_keep = d->run.n;
}

/* Name ID of class CLS ran until E on rank D, as of an event at S. */
static void
run_note(struct dev *d, uint32_t id, int64_t s, int64_t e)
{
	struct ncov *c;

	if (d->run.n > 2 * d->run_keep + 64)
		run_prune(d, s);
	c = nmap_get(&d->run, id);
	if (e > c->cov.end)
		c->cov.end = e;
}

/*
 * A host event [S, E) of thread T in families MASK, on rank D; ID is its
 * normalised name when it has an idle class.
 */
static void
host_event(struct dev *d, struct thr *t, unsigned mask, uint32_t id,
    int64_t s, int64_t e)
{
	struct bub *b;
	int f, k, cls = cls_of(mask);

	for (b = d->open; b != NULL; b = b->next) {
		for (f = 0; f < FAM_N; f++)
			if (mask & FAM_BIT(f))
				cover_add(&b->fam[f], s, e, b->s, b->e);
		if (t != NULL && (mask & FAM_BIT(FAM_HOST)))
			cover_add(bub_thr(b, t->idx), s, e, b->s, b->e);
		if (cls < 0 || s >= b->e)
			continue;
		for (k = cls; k < CLS_N; k++)
			cover_add(&b->cum[k], s, e, b->s, b->e);
		cover_add(&nmap_get(&b->names, id)->cov, s, e, b->s, b->e);
	}
	for (f = 0; f < FAM_N; f++)
		if ((mask & FAM_BIT(f)) && e > d->fam_end[f])
			d->fam_end[f] = e;
	if (t != NULL && (mask & FAM_BIT(FAM_HOST)) && e > t->host_end)
		t->host_end = e;
	if (mask & FAM_BIT(FAM_LAUNCH))
		d->launches = 1;
	if (cls < 0)
		return;
	for (k = cls; k < CLS_N; k++)
		if (e > d->cum_end[k])
			d->cum_end[k] = e;
	run_note(d, id, s, e);
}

/*
 * A Python frame [S, E) on rank D: host work in the open bubbles it does
 * not span whole, kept for the bubbles that open before it ends
 * (open_bubble).  Its time counts, its name does not: module wrappers
 * and builtins with object addresses would crowd the ops out of
 * host_top.
 */
static void
frame_event(struct dev *d, int64_t s, int64_t e)
{
	struct bub *b;
	size_t i, n;
	int k;

	for (b = d->open; b != NULL; b = b->next) {
		if ((s <= b->s && e >= b->e) || s >= b->e)
			continue;
		for (k = CLS_HOST; k < CLS_N; k++)
			cover_add(&b->cum[k], s, e, b->s, b->e);
	}
	if (d->nframes == d->capframes) {
		for (i = n = 0; i < d->nframes; i++)	/* drop the ended */
			if (d->frames[i] > s)
				d->frames[n++] = d->frames[i];
		d->nframes = n;
		if (2 * n >= d->capframes) {
			d->capframes = d->capframes ? 2 * d->capframes : 64;
			d->frames = xreallocarray(d->frames, d->capframes,
			    sizeof(*d->frames));
		}
	}
	d->frames[d->nframes++] = e;
}

static void
read_host(struct stage *st, struct dev *d, int64_t ts, int64_t dur)
{
	const char *name, *cat, *track;
	size_t nlen, clen, tlen;
	const struct attrib_cols *c = stage_columns(st);
	unsigned mask;
	uint32_t id;

	name = stage_get(st, COL_NAME, &nlen);
	cat = stage_get(st, c->cat, &clen);
	track = stage_get(st, COL_TRACK, &tlen);
	d->hosts = 1;
	if (!d->stacks && clen == 15 && memcmp(cat, "python_function", 15) == 0)
		d->stacks = 1;
	if (!d->shapes && !stage_absent(st, c->shapes))
		d->shapes = 1;
	if (ts == STAGE_NO_TS || dur <= 0)
		return;
	mask = match_classify(name, nlen, cat, clen, &id);
	if (mask == MATCH_FRAME)
		frame_event(d, ts, ts + dur);
	else if (mask != 0)
		host_event(d, thr_get(d, track, tlen), mask, id, ts, ts + dur);
}

/* Field COL of R, or "" when the input has no such column. */
static const char *
rec_field(const struct srec *r, int col, size_t *len)
{
	if (col < 0) {
		*len = 0;
		return "";
	}
	return srec_get(r, col, len);
}

static void
bub_summarize(const struct attrib_cols *c, struct dev *d, struct bub *b,
    const struct bubble_meas *m, unsigned labels)
{
	struct bubble_info bi;
	const char *tags;
	size_t tlen;

	bi.dev = d->id;
	bi.step = rec_field(b->rec, c->step, &bi.slen);
	bi.scope = srec_get(b->rec, COL_NAME, &bi.sclen);
	bi.group = rec_field(b->rec, c->group, &bi.glen);
	bi.next = rec_field(b->rec, c->next, &bi.nlen);
	bi.next_id = -1;
	tags = srec_get(b->rec, c->tags, &tlen);
	bi.boundary = stage_tag_has(tags, tlen, "PARTIAL_CAPTURE_BOUNDARY");
	bi.names = &b->names;
	sum_bubble(&bi, m, labels);
	cov_bubble(&bi, m);
}

/* The partition of bubble B: each class's time, untraced last. */
static void
bub_partition(const struct attrib_cols *c, const struct bub *b,
    struct bubble_meas *m)
{
	int64_t below = 0;
	int k;

	for (k = 0; k < CLS_N; k++) {
		m->idle[k] = b->cum[k].total - below;
		below = b->cum[k].total;
	}
	m->idle[CLS_N] = m->dur - below;
	for (k = 0; k <= CLS_N; k++)
		srec_set_i64(b->rec, c->idle[k], m->idle[k]);
}

/* Fill in the bubble's columns and hand it to the summary. */
static void
bub_finish(const struct attrib_cols *c, struct dev *d, struct bub *b)
{
	struct bubble_meas m;
	char lab[512], *top = NULL;
	size_t i, n = 0;
	unsigned labels;
	int f;

	m.dur = b->e - b->s;
	for (f = 0; f < FAM_N; f++)
		m.cov[f] = b->fam[f].total;
	m.thr_sum = 0;
	for (i = 0; i < b->nthr; i++)
		m.thr_sum += b->thr[i].total;
	m.launches = d->launches;
	srec_set_ratio(b->rec, c->host, m.cov[FAM_HOST], m.dur);
	srec_set_ratio(b->rec, c->sync, m.cov[FAM_SYNC], m.dur);
	srec_set_ratio(b->rec, c->comm, m.cov[FAM_COMM], m.dur);
	srec_set_ratio(b->rec, c->par, m.thr_sum, m.cov[FAM_HOST]);
	bub_partition(c, b, &m);
	n = cov_top(&b->names, m.dur, 3, &top);
	srec_set(b->rec, c->top, top, n);
	free(top);
	labels = sum_labels(&m);
	n = 0;
	for (f = 0; f < LAB_N; f++)
		if (labels & (1u << f))
			n += (size_t)snprintf(lab + n, sizeof(lab) - n, "%s%s",
			    n ? "," : "", sum_labname(f));
	srec_set(b->rec, c->labels, lab, n);
	bub_summarize(c, d, b, &m, labels);
}

/*
 * Close D's open bubbles that end at or before TS, and queue it at the
 * earliest end of those left.
 */
static void
close_dev(struct stage *st, struct dev *d, int64_t ts)
{
	struct bub *b, **pp;
	int64_t next = INT64_MAX;

	for (pp = &d->open; (b = *pp) != NULL;) {
		if (b->e > ts) {
			if (b->e < next)
				next = b->e;
			pp = &b->next;
			continue;
		}
		bub_finish(stage_columns(st), d, b);
		stage_put(st, b->rec);
		*pp = b->next;
		free(b->thr);
		nmap_free(&b->names);
		free(b);
	}
	dueq_add(&closing, next, d, &d->queued);
}

/*
 * Close every open bubble that ends at or before TS: nothing later
 * overlaps.  Only the ranks with such a bubble are visited; a rank's
 * bubbles close in the order of its list, as one visit closes them all.
 */
static void
close_until(struct stage *st, int64_t ts)
{
	while (closing.n > 0 && dueq_first(&closing) <= ts)
		close_dev(st, dueq_take(&closing), ts);
	next_close = dueq_first(&closing);
}

/*
 * Keep the bubble record and start its covers from the host events that
 * began before it and still run.
 */
static void
open_bubble(struct stage *st, int64_t ts, int64_t dur)
{
	struct bub *b;
	struct dev *d;
	size_t i;
	int f;

	if (ts == STAGE_NO_TS)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "bubble record without ts_ns");
	if (stage_absent(st, COL_DEV))
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "bubble record without dev");
	d = dev_of(st);
	b = xcalloc(1, sizeof(*b));
	b->rec = stage_keep(st);
	b->s = ts;
	b->e = ts + (dur > 0 ? dur : 0);
	for (f = 0; f < FAM_N; f++) {
		b->fam[f].end = ts;
		cover_add(&b->fam[f], ts, d->fam_end[f], b->s, b->e);
	}
	for (f = 0; f < CLS_N; f++) {
		b->cum[f].end = ts;
		cover_add(&b->cum[f], ts, d->cum_end[f], b->s, b->e);
	}
	run_prune(d, ts);
	for (i = 0; i < d->run.cap; i++)
		if (d->run.v[i].used)
			cover_add(&nmap_get(&b->names, d->run.v[i].id)->cov, ts,
			    d->run.v[i].cov.end, b->s, b->e);
	for (i = 0; i < d->thr.n; i++) {
		struct thr *t = strtab_val(&d->thr, i);

		if (t->host_end > ts)
			cover_add(bub_thr(b, t->idx), ts, t->host_end, b->s,
			    b->e);
	}
	for (i = 0; i < d->nframes; i++)	/* frames that end inside */
		if (d->frames[i] > ts && d->frames[i] < b->e)
			for (f = CLS_HOST; f < CLS_N; f++)
				cover_add(&b->cum[f], ts, d->frames[i], b->s,
				    b->e);
	b->next = d->open;
	d->open = b;
	dueq_add(&closing, b->e, d, &d->queued);
	if (b->e < next_close)
		next_close = b->e;
	if (b->e == b->s)
		close_until(st, ts);
}

/*
 * The rank of source N from its "#source N FORMAT RANK PATH" line, as
 * text, or NULL when the source has none ('-').
 */
static char *
source_rank(struct stage *st, const char *n, size_t nlen)
{
	const char *l, *p;
	size_t i;

	for (i = 0; (l = stage_preamble(st, i)) != NULL; i++) {
		if (strncmp(l, "source ", 7) != 0 ||
		    strncmp(l + 7, n, nlen) != 0 || l[7 + nlen] != ' ')
			continue;
		p = strchr(l + 8 + nlen, ' ');	/* after FORMAT */
		if (p == NULL || p[1] == '\0' || strncmp(p + 1, "- ", 2) == 0)
			return NULL;
		return xstrndup(p + 1, strcspn(p + 1, " "));
	}
	return NULL;
}

/*
 * The evidence prof-ingest declares per source ("#evidence N LIST"):
 * call stacks and input shapes that no column carries.
 */
static void
read_decls(struct stage *st)
{
	const char *l, *list;
	size_t i, nlen;
	struct decl *dc;

	for (i = 0; (l = stage_preamble(st, i)) != NULL; i++) {
		if (strncmp(l, "evidence ", 9) != 0)
			continue;
		nlen = strcspn(l + 9, " ");
		list = l + 9 + nlen;
		decls = xreallocarray(decls, ndecls + 1, sizeof(*decls));
		dc = &decls[ndecls++];
		dc->rank = source_rank(st, l + 9, nlen);
		dc->stacks = stage_tag_has(list + (*list == ' '), strlen(list) -
		    (*list == ' '), "stacks");
		dc->shapes = stage_tag_has(list + (*list == ' '), strlen(list) -
		    (*list == ' '), "shapes");
	}
}


/* The ranks, and the evidence the preamble declares. */
void
bub_init(struct stage *st)
{
	devtab_init(&devs, sizeof(struct dev));
	read_decls(st);
}

/*
 * One input record of KIND (KLEN bytes) at TS lasting DUR: close the
 * bubbles it proves ended, then take what it says.  Returns 1 when it
 * was a bubble, which is kept, not passed.
 */
int
bub_record(struct stage *st, int64_t ts, int64_t dur, const char *kind,
    size_t klen)
{
	if (ts != STAGE_NO_TS && ts >= next_close)
		close_until(st, ts);
	if (klen == 4 && memcmp(kind, "host", 4) == 0)
		read_host(st, dev_of(st), ts, dur);
	else if (klen == 6 && memcmp(kind, "kernel", 6) == 0) {
		const struct attrib_cols *c = stage_columns(st);
		struct dev *d = dev_of(st);

		d->device = 1;
		if (c->shapes >= 0 && !stage_absent(st, c->shapes))
			d->shapes = 1;
	} else if (klen == 4 && memcmp(kind, "busy", 4) == 0)
		dev_of(st)->device = 1;
	else if (klen == 4 && memcmp(kind, "comm", 4) == 0) {
		if (ts != STAGE_NO_TS && dur > 0)
			host_event(dev_of(st), NULL,
			    FAM_BIT(FAM_COMM), 0, ts, ts + dur);
	} else if (klen == 6 && memcmp(kind, "bubble", 6) == 0) {
		open_bubble(st, ts, dur);
		return 1;
	}
	return 0;
}

/* The end of the input: close every bubble, tell the summary the ranks. */
void
bub_end(struct stage *st)
{
	size_t i;

	/* every rank: a bubble that ends at INT64_MAX is in no queue */
	for (i = 0; i < devs.n; i++)
		close_dev(st, devs.v[i].item, INT64_MAX);
	dueq_free(&closing);
	for (i = 0; i < devs.n; i++) {
		const struct dev *d = devs.v[i].item;

		sum_dev(d->id, d->hosts, d->stacks, d->shapes, d->device);
	}
}
