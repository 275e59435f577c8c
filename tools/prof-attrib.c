/*
 * prof-attrib: soft attribution of device idle bubbles to host activity.
 *
 * For every bubble record it measures, over the bubble's time range and
 * on the bubble's rank, how much of the time host events, sync or copy
 * markers and communication markers cover (the union of the intervals
 * clipped to the bubble, divided by its length), and how many host
 * threads were active at once; it splits the bubble by what the host
 * was doing at each instant (sync, input, launch, other host work,
 * nothing traced) and names the host events that cover it most; from
 * these it writes the candidate labels.  At the end it writes summary
 * "cause" records per step group and per rank (attrib-sum.c) and the
 * host names that cover each step's and group's idle time
 * (attrib-cov.c).
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

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "cli.h"
#include "diag.h"
#include "num.h"
#include "hash.h"
#include "stage.h"
#include "xalloc.h"

struct attrib_opts aopt = {
	200000, 200000, 50000, 100000, 1200000, 200000, 300000, 500000,
	1000000, 500000, 500000, 500000, 100000, 500000, 10, 50000, 500000, 0
};

/* Running union of intervals given in start order, clipped to a bubble. */
struct cover {
	int64_t	end;		/* covered up to here */
	int64_t	total;
};

/* A host thread (track) of one rank. */
struct thr {
	char	*track;
	size_t	 len;
	int64_t	 host_end;	/* largest end of its host-family events */
	size_t	 idx;
};

struct bub {
	struct srec	*rec;
	int64_t		 s, e;
	struct cover	 fam[FAM_N];
	struct cover	 cum[CLS_N];	/* union of classes 0 .. k */
	struct cover	*thr;	/* per thread index of the rank */
	size_t		 nthr;
	struct nmap	 names;	/* per normalised name */
	struct bub	*next;
};

struct dev {
	int64_t		 id;
	int64_t		 fam_end[FAM_N];
	int64_t		 cum_end[CLS_N];
	struct thr	**thr;	/* open addressing by track */
	size_t		 thrcap, nthr;
	struct thr	*last;	/* most host events follow one of the same thread */
	struct bub	*open;
	struct nmap	 run;	/* names by the largest end of their events */
	size_t		 run_keep;	/* names left by the last pruning */
	int		 stacks, shapes, hosts, launches;
	int		 device;	/* a kernel or busy record seen */
};

/* Evidence the preamble declares (#evidence) for a rank, or every rank. */
struct decl {
	int64_t		 rank;	/* -1: the source has no rank */
	int		 stacks, shapes;
};

static struct decl *decls;
static size_t ndecls;

static struct dev *devs;
static size_t ndevs;
static int64_t next_close = INT64_MAX;

/* Output columns. */
static int c_cat, c_step, c_group, c_tags, c_shapes;
static int c_host, c_sync, c_comm, c_par, c_labels, c_idle[CLS_N + 1];
static int c_top, c_next;

static const char *const added[] = {
	"host_cov_ratio", "sync_cov_ratio", "comm_cov_ratio", "host_par",
	"labels", "tags", "value", "confidence", "scope", "target_id",
	"evidence", "followup", "idle_sync_ns", "idle_input_ns",
	"idle_launch_ns", "idle_host_ns", "idle_untraced_ns", "host_top",
	"host_class", "covered_ns", "share_ratio"
};

static struct dev *
dev_get(int64_t id)
{
	static size_t last;
	size_t i;

	if (last < ndevs && devs[last].id == id)
		return &devs[last];
	for (i = 0; i < ndevs; i++)
		if (devs[i].id == id)
			return &devs[last = i];
	devs = xreallocarray(devs, ndevs + 1, sizeof(*devs));
	memset(&devs[ndevs], 0, sizeof(*devs));
	devs[ndevs].id = id;
	for (i = 0; i < FAM_N; i++)
		devs[ndevs].fam_end[i] = INT64_MIN;
	for (i = 0; i < CLS_N; i++)
		devs[ndevs].cum_end[i] = INT64_MIN;
	for (i = 0; i < ndecls; i++)
		if (decls[i].rank < 0 || decls[i].rank == id) {
			devs[ndevs].stacks |= decls[i].stacks;
			devs[ndevs].shapes |= decls[i].shapes;
		}
	return &devs[last = ndevs++];
}

/*
 * The rank of the current record.  The dev field repeats from record to
 * record, so comparing its text saves parsing it.
 */
static struct dev *
dev_of(struct stage *st)
{
	static char last[24];
	static size_t lastlen, lastidx = SIZE_MAX;
	const char *s;
	size_t len;
	struct dev *d;

	s = stage_get(st, COL_DEV, &len);
	if (lastidx < ndevs && len == lastlen && memcmp(s, last, len) == 0)
		return &devs[lastidx];
	d = dev_get(stage_i64(st, COL_DEV, NULL));
	lastidx = SIZE_MAX;
	if (len < sizeof(last)) {
		memcpy(last, s, len);
		lastlen = len;
		lastidx = (size_t)(d - devs);
	}
	return d;
}

static void
thr_grow(struct dev *d)
{
	struct thr **old = d->thr;
	size_t oldcap = d->thrcap, i, j;

	d->thrcap = oldcap ? oldcap * 2 : 16;
	d->thr = xcalloc(d->thrcap, sizeof(*d->thr));
	for (i = 0; i < oldcap; i++) {
		if (old[i] == NULL)
			continue;
		j = hash_bytes(old[i]->track, old[i]->len, 0) &
		    (d->thrcap - 1);
		while (d->thr[j] != NULL)
			j = (j + 1) & (d->thrcap - 1);
		d->thr[j] = old[i];
	}
	free(old);
}

/* The thread TRACK of rank D, made on first sight. */
static struct thr *
thr_get(struct dev *d, const char *track, size_t len)
{
	struct thr *t = d->last;
	size_t j;

	if (t != NULL && t->len == len && memcmp(t->track, track, len) == 0)
		return t;
	if (2 * (d->nthr + 1) > d->thrcap)
		thr_grow(d);
	j = hash_bytes(track, len, 0) & (d->thrcap - 1);
	for (; (t = d->thr[j]) != NULL; j = (j + 1) & (d->thrcap - 1))
		if (t->len == len && memcmp(t->track, track, len) == 0)
			return d->last = t;
	t = d->thr[j] = d->last = xmalloc(sizeof(*t));
	t->track = xstrndup(track, len);
	t->len = len;
	t->host_end = INT64_MIN;
	t->idx = d->nthr++;
	return t;
}

/* Add [S, E) to C; intervals come in start order, clipped to [BS, BE). */
static void
cover_add(struct cover *c, int64_t s, int64_t e, int64_t bs, int64_t be)
{
	if (s < bs)
		s = bs;
	if (e > be)
		e = be;
	if (s < c->end)
		s = c->end;
	if (e > s) {
		c->total += e - s;
		c->end = e;
	}
}

/* The same for the running union of one name. */
static void
ncov_add(struct ncov *c, int64_t s, int64_t e, int64_t bs, int64_t be)
{
	if (s < bs)
		s = bs;
	if (e > be)
		e = be;
	if (s < c->end)
		s = c->end;
	if (e > s) {
		c->total += e - s;
		c->end = e;
	}
}

static struct cover *
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
		if (old.v[i].used && old.v[i].end > ts)
			nmap_get(&d->run, old.v[i].id)->end = old.v[i].end;
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
	if (e > c->end)
		c->end = e;
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
		ncov_add(nmap_get(&b->names, id), s, e, b->s, b->e);
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

static void
read_host(struct stage *st, struct dev *d, int64_t ts, int64_t dur)
{
	const char *name, *cat, *track;
	size_t nlen, clen, tlen;
	unsigned mask;
	uint32_t id;

	name = stage_get(st, COL_NAME, &nlen);
	cat = stage_get(st, c_cat, &clen);
	track = stage_get(st, COL_TRACK, &tlen);
	d->hosts = 1;
	if (!d->stacks && clen == 15 && memcmp(cat, "python_function", 15) == 0)
		d->stacks = 1;
	if (!d->shapes && !stage_absent(st, c_shapes))
		d->shapes = 1;
	if (ts == STAGE_NO_TS || dur <= 0)
		return;
	mask = match_classify(name, nlen, cat, clen, &id);
	if (mask != 0)
		host_event(d, thr_get(d, track, tlen), mask, id, ts, ts + dur);
}

static void
set_ratio(struct srec *r, int col, int64_t num, int64_t den)
{
	char buf[NUM_BUFSIZE];

	if (den <= 0)
		return;
	srec_set(r, col, buf, num_ratio(buf, num, den, 6));
}

/* Whether the comma-separated list TAGS (LEN bytes) holds TAG. */
static int
has_tag(const char *tags, size_t len, const char *tag)
{
	size_t tl = strlen(tag), i = 0, j;

	while (i < len) {
		for (j = i; j < len && tags[j] != ','; j++)
			continue;
		if (j - i == tl && memcmp(tags + i, tag, tl) == 0)
			return 1;
		i = j + 1;
	}
	return 0;
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
bub_summarize(struct dev *d, struct bub *b, const struct bubble_meas *m,
    unsigned labels)
{
	struct bubble_info bi;
	const char *tags;
	size_t tlen;

	bi.dev = d->id;
	bi.step = rec_field(b->rec, c_step, &bi.slen);
	bi.scope = srec_get(b->rec, COL_NAME, &bi.sclen);
	bi.group = rec_field(b->rec, c_group, &bi.glen);
	bi.next = rec_field(b->rec, c_next, &bi.nlen);
	tags = srec_get(b->rec, c_tags, &tlen);
	bi.boundary = has_tag(tags, tlen, "PARTIAL_CAPTURE_BOUNDARY");
	bi.names = &b->names;
	sum_bubble(&bi, m, labels);
	cov_bubble(&bi, m);
}

/* The partition of bubble B: each class's time, untraced last. */
static void
bub_partition(const struct bub *b, struct bubble_meas *m)
{
	int64_t below = 0;
	int k;

	for (k = 0; k < CLS_N; k++) {
		m->idle[k] = b->cum[k].total - below;
		below = b->cum[k].total;
	}
	m->idle[CLS_N] = m->dur - below;
	for (k = 0; k <= CLS_N; k++)
		srec_set_i64(b->rec, c_idle[k], m->idle[k]);
}

/* Fill in the bubble's columns and hand it to the summary. */
static void
bub_finish(struct dev *d, struct bub *b)
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
	set_ratio(b->rec, c_host, m.cov[FAM_HOST], m.dur);
	set_ratio(b->rec, c_sync, m.cov[FAM_SYNC], m.dur);
	set_ratio(b->rec, c_comm, m.cov[FAM_COMM], m.dur);
	set_ratio(b->rec, c_par, m.thr_sum, m.cov[FAM_HOST]);
	bub_partition(b, &m);
	n = cov_top(&b->names, m.dur, 3, &top);
	srec_set(b->rec, c_top, top, n);
	free(top);
	labels = sum_labels(&m);
	n = 0;
	for (f = 0; f < LAB_N; f++)
		if (labels & (1u << f))
			n += (size_t)snprintf(lab + n, sizeof(lab) - n, "%s%s",
			    n ? "," : "", sum_labname(f));
	srec_set(b->rec, c_labels, lab, n);
	bub_summarize(d, b, &m, labels);
}

/* Close every open bubble that ends at or before TS: nothing later overlaps. */
static void
close_until(struct stage *st, int64_t ts)
{
	struct bub *b, **pp;
	size_t i;

	next_close = INT64_MAX;
	for (i = 0; i < ndevs; i++) {
		for (pp = &devs[i].open; (b = *pp) != NULL;) {
			if (b->e > ts) {
				if (b->e < next_close)
					next_close = b->e;
				pp = &b->next;
				continue;
			}
			bub_finish(&devs[i], b);
			stage_put(st, b->rec);
			*pp = b->next;
			free(b->thr);
			nmap_free(&b->names);
			free(b);
		}
	}
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
	int f, absent;
	int64_t id;

	if (ts == STAGE_NO_TS)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "bubble record without ts_ns");
	id = stage_i64(st, COL_DEV, &absent);
	if (absent)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "bubble record without dev");
	d = dev_get(id);
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
			ncov_add(nmap_get(&b->names, d->run.v[i].id), ts,
			    d->run.v[i].end, b->s, b->e);
	for (i = 0; i < d->thrcap; i++)
		if (d->thr[i] != NULL && d->thr[i]->host_end > ts)
			cover_add(bub_thr(b, d->thr[i]->idx), ts,
			    d->thr[i]->host_end, b->s, b->e);
	b->next = d->open;
	d->open = b;
	if (b->e < next_close)
		next_close = b->e;
	if (b->e == b->s)
		close_until(st, ts);
}

static void
read_window(struct stage *st, int64_t dur)
{
	const char *step, *group;
	size_t slen, glen;

	step = stage_get(st, c_step, &slen);
	group = stage_get(st, c_group, &glen);
	if (slen > 0 && dur > 0)
		sum_window(stage_i64(st, COL_DEV, NULL), step, slen, group,
		    glen, dur);
}

/* One input record: feed what it says, then pass or keep it. */
static void
record(struct stage *st, int64_t *first)
{
	int64_t ts = stage_ts(st), dur = stage_dur(st);
	const char *kind;
	size_t klen;

	if (ts != STAGE_NO_TS) {
		if (ts >= next_close)
			close_until(st, ts);
		if (*first == STAGE_NO_TS)
			*first = ts;
	}
	kind = stage_get(st, COL_KIND, &klen);
	if (klen == 4 && memcmp(kind, "host", 4) == 0)
		read_host(st, dev_of(st), ts, dur);
	else if (klen == 6 && memcmp(kind, "kernel", 6) == 0) {
		struct dev *d = dev_of(st);

		d->device = 1;
		if (c_shapes >= 0 && !stage_absent(st, c_shapes))
			d->shapes = 1;
	} else if (klen == 4 && memcmp(kind, "busy", 4) == 0)
		dev_of(st)->device = 1;
	else if (klen == 4 && memcmp(kind, "comm", 4) == 0) {
		if (ts != STAGE_NO_TS && dur > 0)
			host_event(dev_of(st), NULL,
			    FAM_BIT(FAM_COMM), 0, ts, ts + dur);
	} else if (klen == 6 && memcmp(kind, "bubble", 6) == 0) {
		open_bubble(st, ts, dur);
		return;
	} else if (klen == 6 && memcmp(kind, "window", 6) == 0)
		read_window(st, dur);
	stage_pass(st);
}

/* The rank of source N from its "#source N FORMAT RANK PATH" line. */
static int64_t
source_rank(struct stage *st, const char *n, size_t nlen)
{
	const char *l, *p;
	size_t i;

	for (i = 0; (l = stage_preamble(st, i)) != NULL; i++) {
		if (strncmp(l, "source ", 7) != 0 ||
		    strncmp(l + 7, n, nlen) != 0 || l[7 + nlen] != ' ')
			continue;
		p = strchr(l + 8 + nlen, ' ');	/* after FORMAT */
		if (p == NULL || p[1] < '0' || p[1] > '9')
			return -1;
		return strtoll(p + 1, NULL, 10);
	}
	return -1;
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
		dc->stacks = has_tag(list + (*list == ' '), strlen(list) -
		    (*list == ' '), "stacks");
		dc->shapes = has_tag(list + (*list == ' '), strlen(list) -
		    (*list == ' '), "shapes");
	}
}

static void
run(const char *path, int argc, char **argv)
{
	struct stage *st;
	int64_t first = STAGE_NO_TS;
	size_t i;

	st = stage_open(path, argc, argv, added,
	    sizeof(added) / sizeof(added[0]));
	c_cat = stage_col(st, "cat");
	c_step = stage_col(st, "step");
	c_group = stage_col(st, "step_group");
	c_tags = stage_col(st, "tags");
	c_shapes = stage_col(st, "in_shapes");
	c_host = stage_col(st, "host_cov_ratio");
	c_sync = stage_col(st, "sync_cov_ratio");
	c_comm = stage_col(st, "comm_cov_ratio");
	c_par = stage_col(st, "host_par");
	c_labels = stage_col(st, "labels");
	c_idle[CLS_SYNC] = stage_col(st, "idle_sync_ns");
	c_idle[CLS_INPUT] = stage_col(st, "idle_input_ns");
	c_idle[CLS_LAUNCH] = stage_col(st, "idle_launch_ns");
	c_idle[CLS_HOST] = stage_col(st, "idle_host_ns");
	c_idle[CLS_N] = stage_col(st, "idle_untraced_ns");
	c_top = stage_col(st, "host_top");
	c_next = stage_col(st, "next_name");
	read_decls(st);
	while (stage_next(st))
		record(st, &first);
	close_until(st, INT64_MAX);
	for (i = 0; i < ndevs; i++)
		sum_dev(devs[i].id, devs[i].hosts, devs[i].stacks,
		    devs[i].shapes, devs[i].device);
	sum_write(st, first, stage_end_ts(st));
	cov_write(st, stage_end_ts(st));
	stage_close(st);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Measure host, sync and communication coverage of each device "
	    "idle bubble,\nsplit it by what the host was doing, name the host "
	    "events that cover it,\nlabel its possible causes, and summarize "
	    "them per step group and rank.\n\n");
	printf("FILE is a prof-tsv stream with bubble records "
	    "(prof-bubbles); with no FILE,\nor when FILE is -, read standard "
	    "input.\n\n");
	printf("Marker families (PATTERN: glob with '*', whole name, case "
	    "sensitive;\n'cat:' matches the cat column, '!' excludes):\n"
	    "      --host=PATTERN      add a pattern to the host family\n"
	    "      --sync=PATTERN      ... to the sync/copy family\n"
	    "      --comm=PATTERN      ... to the communication family\n"
	    "      --launch=PATTERN    ... to the kernel launch family\n"
	    "      --input=PATTERN     ... to the input pipeline family\n"
	    "      --cpu=PATTERN       ... to the CPU work (optimizer) family\n"
	    "  -M, --markers=FILE      read 'FAMILY PATTERN' lines from "
	    "FILE\n"
	    "  -n, --no-default-markers  start from empty families\n"
	    "  -l, --list-markers      print the patterns in effect and "
	    "exit\n\n");
	printf("Thresholds (ratios with up to 6 decimals):\n"
	    "      --sync-min=R        possible_sync_or_h2d at sync >= R "
	    "(0.2)\n"
	    "      --comm-min=R        possible_comm_wait at comm >= R "
	    "(0.2)\n"
	    "      --untraced-max=R    possible_untraced_host_blocking at "
	    "host < R (0.05)\n"
	    "      --launch-min=R      possible_host_launch_lag at host >= R "
	    "(0.1)\n"
	    "      --par-max=R         possible_python_serialization_or_lock "
	    "at\n"
	    "                          host_par < R (1.2; 0 turns it off)\n"
	    "      --share-min=R       summary label at share >= R (0.2)\n"
	    "      --underfeed-min=R   high underfeed at >= R (0.3)\n"
	    "      --clear-min=R       clear host markers at coverage >= R "
	    "(0.5)\n"
	    "      --input-min=R       input_pipeline_stall at input >= R "
	    "(0.5)\n"
	    "      --sync-stall-min=R  host_sync_stall at sync idle >= R "
	    "(0.5)\n"
	    "      --busy-min=R        launch_bound or host_cpu_work at "
	    "launch+host >= R (0.5)\n"
	    "      --launch-share=R    launch_bound at launch >= R of "
	    "launch+host (0.1)\n"
	    "      --cpu-min=R         host_cpu_work at cpu family >= R "
	    "(0.5)\n"
	    "      --small-count=N     many small gaps: at least N per step "
	    "(10)\n"
	    "      --small-share=R     ... holding >= R of the window time "
	    "(0.05)\n"
	    "      --small-host=R      ... launch+host >= R of their time "
	    "(0.5)\n"
	    "  -s, --significant=NS    significant bubble floor in ns "
	    "(1000000)\n"
	    "  -S, --step-causes       also write cause records per step\n\n");
	printf("  -h, --help              display this help and exit\n"
	    "  -V, --version           output version information and exit\n\n");
	printf("Exit status: 0 on success, 1 for bad input or a write error, "
	    "2 for usage\nerrors.  See prof-attrib(1).\n");
	exit(EXIT_OK);
}

/* A ratio option: digits with up to 6 decimals, as millionths. */
static int64_t
parse_ppm(const char *opt, const char *arg)
{
	const char *p = arg;
	int64_t v = 0, scale = 1000000;
	int digits = 0;

	for (; *p >= '0' && *p <= '9' && v < 1000000; p++, digits++)
		v = v * 10 + (*p - '0');
	v *= scale;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && scale > 1; p++, digits++) {
			scale /= 10;
			v += (*p - '0') * scale;
		}
	if (digits == 0 || *p != '\0')
		cli_usage_error("option '--%s': invalid ratio '%s'", opt, arg);
	return v;
}

/* The family options in the order of the families (FAM_*). */
enum {
	O_HOST = 256, O_SYNC, O_COMM, O_LAUNCH, O_INPUT, O_CPU, O_SYNCMIN,
	O_COMMMIN, O_UNTRACED, O_LAUNCHMIN, O_PARMAX, O_SHARE, O_UNDERFEED,
	O_CLEAR, O_INPUTMIN, O_STALLMIN, O_BUSYMIN, O_LSHARE, O_CPUMIN,
	O_SMALLCOUNT, O_SMALLSHARE, O_SMALLHOST
};

static const struct option longopts[] = {
	{ "host",		required_argument,	NULL, O_HOST },
	{ "sync",		required_argument,	NULL, O_SYNC },
	{ "comm",		required_argument,	NULL, O_COMM },
	{ "launch",		required_argument,	NULL, O_LAUNCH },
	{ "input",		required_argument,	NULL, O_INPUT },
	{ "cpu",		required_argument,	NULL, O_CPU },
	{ "markers",		required_argument,	NULL, 'M' },
	{ "no-default-markers",	no_argument,		NULL, 'n' },
	{ "list-markers",	no_argument,		NULL, 'l' },
	{ "sync-min",		required_argument,	NULL, O_SYNCMIN },
	{ "comm-min",		required_argument,	NULL, O_COMMMIN },
	{ "untraced-max",	required_argument,	NULL, O_UNTRACED },
	{ "launch-min",		required_argument,	NULL, O_LAUNCHMIN },
	{ "par-max",		required_argument,	NULL, O_PARMAX },
	{ "share-min",		required_argument,	NULL, O_SHARE },
	{ "underfeed-min",	required_argument,	NULL, O_UNDERFEED },
	{ "clear-min",		required_argument,	NULL, O_CLEAR },
	{ "input-min",		required_argument,	NULL, O_INPUTMIN },
	{ "sync-stall-min",	required_argument,	NULL, O_STALLMIN },
	{ "busy-min",		required_argument,	NULL, O_BUSYMIN },
	{ "launch-share",	required_argument,	NULL, O_LSHARE },
	{ "cpu-min",		required_argument,	NULL, O_CPUMIN },
	{ "small-count",	required_argument,	NULL, O_SMALLCOUNT },
	{ "small-share",	required_argument,	NULL, O_SMALLSHARE },
	{ "small-host",		required_argument,	NULL, O_SMALLHOST },
	{ "significant",	required_argument,	NULL, 's' },
	{ "step-causes",	no_argument,		NULL, 'S' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

/* Where each threshold option stores its value. */
static int64_t *
threshold(int c)
{
	switch (c) {
	case O_SYNCMIN:		return &aopt.sync_min;
	case O_COMMMIN:		return &aopt.comm_min;
	case O_UNTRACED:	return &aopt.untraced_max;
	case O_LAUNCHMIN:	return &aopt.launch_min;
	case O_PARMAX:		return &aopt.par_max;
	case O_SHARE:		return &aopt.share_min;
	case O_UNDERFEED:	return &aopt.underfeed_min;
	case O_CLEAR:		return &aopt.clear_min;
	case O_INPUTMIN:	return &aopt.input_min;
	case O_STALLMIN:	return &aopt.stall_min;
	case O_BUSYMIN:		return &aopt.busy_min;
	case O_LSHARE:		return &aopt.lshare_min;
	case O_CPUMIN:		return &aopt.cpu_min;
	case O_SMALLSHARE:	return &aopt.small_share;
	case O_SMALLHOST:	return &aopt.small_host;
	}
	return NULL;
}

static const char *
opt_name(int c)
{
	size_t i;

	for (i = 0; longopts[i].name != NULL; i++)
		if (longopts[i].val == c)
			break;
	return longopts[i].name;
}

/*
 * Marker options are applied in order after the defaults, so that
 * --no-default-markers anywhere on the line drops only the built-ins.
 */
struct mopt {
	int		 fam;	/* -1: a markers file */
	const char	*arg;
};

static void
set_markers(struct mopt *mo, size_t nmo, int nodef)
{
	size_t i;

	if (!nodef)
		match_defaults();
	for (i = 0; i < nmo; i++)
		if (mo[i].fam < 0)
			match_read_file(mo[i].arg);
		else
			match_add(mo[i].fam, mo[i].arg);
	free(mo);
}

int
main(int argc, char **argv)
{
	/* Static, so that a usage error that exits does not leave it lost. */
	static struct mopt *mo;
	size_t nmo = 0;
	int c, nodef = 0, list = 0;

	cli_init("prof-attrib");
	mo = xcalloc((size_t)argc, sizeof(*mo));
	while ((c = getopt_long(argc, argv, "hlM:ns:SV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case O_HOST: case O_SYNC: case O_COMM: case O_LAUNCH:
		case O_INPUT: case O_CPU:
			mo[nmo].fam = c - O_HOST;
			mo[nmo++].arg = optarg;
			break;
		case 'M':
			mo[nmo].fam = -1;
			mo[nmo++].arg = optarg;
			break;
		case 'n':
			nodef = 1;
			break;
		case 'l':
			list = 1;
			break;
		case 's':
			aopt.significant_ns = cli_parse_i64(optarg,
			    "--significant", 0, INT64_MAX);
			break;
		case 'S':
			aopt.step_causes = 1;
			break;
		case O_SMALLCOUNT:
			aopt.small_count = cli_parse_i64(optarg,
			    "--small-count", 0, INT64_MAX / 4);
			break;
		case 'h':
			usage();
			break;
		case 'V':
			cli_version();
			break;
		default:
			if (threshold(c) == NULL)
				cli_try_help();
			*threshold(c) = parse_ppm(opt_name(c), optarg);
		}
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	set_markers(mo, nmo, nodef);
	if (list) {
		match_list();
		return EXIT_OK;
	}
	run(optind < argc ? argv[optind] : NULL, argc, argv);
	return EXIT_OK;
}
