/*
 * The gap follower of prof-bubbles: per device, the current step window
 * and its busy segments (from prof-merge), and the union of all kernels
 * of the capture.  Every gap becomes a bubble record in its place in the
 * stream.
 *
 * A gap is only known when the interval after it arrives, but its record
 * must be opened at its start, before anything later is written.  So a
 * possible gap start (the end of the busy time so far) is a candidate;
 * the first record that starts after it proves that the device was idle
 * there, and only then is the bubble opened with stage_new().  Nothing
 * is opened, and nothing dropped, for the many back-to-back intervals.
 * A bubble stays open after its end until the next kernel of its device
 * is read, which is the evidence on its "after" side.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bubbles.h"
#include "devtab.h"
#include "diag.h"
#include "dueq.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

/* One kernel, kept as evidence for the gaps around it. */
struct kev {
	int		set;
	int64_t		ts, end;
	struct sbuf	name, core, track;
};

/* A bubble whose end is known, waiting for the kernel after it. */
struct pend {
	struct srec	*r;
	int64_t		 end;
};

/* The current step window of a device and what is known of it. */
struct bwin {
	struct srec	*rec;		/* the kept window record */
	int64_t		 s, e;
	char		*step, *group, *id;
	int		 cut_start, cut_end;
	int64_t		 nbusy, cur_end, m[NMET];
	struct srec	*gap;		/* open bubble at cur_end (or s) */
	int64_t		 gap_s;
	int		 gap_tag;
	/* the kernel union's gap [gap_s, share_end) is this bubble too */
	int		 shared;
	int64_t		 share_end;
	int64_t		 nb;		/* bubbles closed so far */
	int64_t		 big, big_s;	/* largest gap and its start */
	int		 big_tag;	/* it lies at the capture start */
};

struct bdev {
	const char	*name;		/* the device, kept by the devtab */
	char		*pfx;		/* "d" and the device */
	size_t		 len;
	size_t		 di;		/* its index, which summaries use */
	int		 inwin;
	struct bwin	 w;
	uint64_t	 nwin;
	int		 had_win;
	int64_t		 last_s, last_e, busy_at_last_e;
	/* union of all kernels: finished part, current [gs, ge) */
	int		 ran, seen;	/* a kernel, a busy record read */
	int64_t		 last_busy;	/* start of the last busy record */
	int64_t		 first_ts, gs, ge, fin;
	struct srec	*ggap;		/* open whole-capture gap at ge */
	int		 ggap_tag;
	int		 gshared;	/* it is the open step bubble */
	struct kev	 share_next;	/* the kernel after a shared gap */
	char		*pstep, *pgroup;	/* of the last window ended */
	char		*tail_id;	/* its tail, when it may be shared */
	int64_t		 tail_s;
	int64_t		 ngap;
	struct kev	 prev, next;
	struct pend	*pend;
	size_t		 npend, cappend;
	int64_t		 queued;	/* its earliest time in g.due */
	uint64_t	 stamp;		/* gap_before() took it: round */
};

static struct {
	struct stage		*st;
	const struct bub_opts	*o;
	const struct bub_cols	*c;
	struct devtab		 devs;
	/* no candidate or window end before this: nothing to check */
	int64_t			 next_check;
	/*
	 * The devices by their check times: a record visits only those
	 * that have something due before it (see dueq.h).
	 */
	struct dueq		 due;
	struct bdev		**took;	/* the devices of one gap_before() */
	size_t			 ntook, captook;
	uint64_t		 round;
} g;

static const char *const scope_names[] = {
	"prelaunch", "step_internal", "tail", "global"
};
enum { SC_PRE, SC_INTERNAL, SC_TAIL, SC_GLOBAL };

void
gap_init(struct stage *st, const struct bub_opts *o, const struct bub_cols *c)
{
	g.st = st;
	g.o = o;
	g.c = c;
	g.next_check = INT64_MAX;
	devtab_init(&g.devs, sizeof(struct bdev));
}

static struct bdev *
get_dev(const char *name, size_t len)
{
	int isnew;
	struct bdev *d = devtab_get(&g.devs, name, len, &isnew);

	if (!isnew)
		return d;
	d->di = g.devs.n - 1;
	d->name = g.devs.v[d->di].name;
	d->len = len;
	d->pfx = xmalloc(len + 2);
	d->pfx[0] = 'd';
	memcpy(d->pfx + 1, d->name, len + 1);
	d->queued = INT64_MAX;
	sum_dev(d->di, name, len);
	return d;
}

static struct bdev *
cur_dev(void)
{
	size_t len;
	const char *s = stage_get(g.st, COL_DEV, &len);

	return get_dev(s, len);
}

/* Copy the current record, a kernel, into K. */
static void
kev_take(struct kev *k, int64_t ts, int64_t end)
{
	size_t len;
	const char *s;

	k->set = 1;
	k->ts = ts;
	k->end = end;
	s = stage_get(g.st, COL_NAME, &len);
	sbuf_set(&k->name, s, len);
	s = stage_get(g.st, g.c->core, &len);
	sbuf_set(&k->core, s, len);
	s = stage_get(g.st, COL_TRACK, &len);
	sbuf_set(&k->track, s, len);
}

/* Write kernel K as evidence columns COLS of bubble R. */
static void
kev_put(struct srec *r, const int *cols, const struct kev *k)
{
	if (!k->set)
		return;
	srec_set(r, cols[0], k->name.p, k->name.len);
	srec_set(r, cols[1], k->core.p, k->core.len);
	set_i64(r, cols[2], k->end - k->ts);
	srec_set(r, cols[3], k->track.p, k->track.len);
}

/* Device D may have something due at T. */
static void
want_check(struct bdev *d, int64_t t)
{
	dueq_add(&g.due, t, d, &d->queued);
	if (t < g.next_check)
		g.next_check = t;
}

/*
 * Open a bubble of device D at TS, proven idle by a later record.  It
 * lies at the capture start when no kernel or busy time of D came
 * before it.
 */
static struct srec *
bubble_open(struct bdev *d, int64_t ts, int *boundary)
{
	struct srec *r = stage_new(g.st, "bubble", ts);

	srec_set(r, COL_DEV, d->name, d->len);
	kev_put(r, g.c->prev, &d->prev);
	*boundary = !d->ran && !d->seen;
	if (d->inwin && ts >= d->w.s && ts < d->w.e) {
		if (d->w.step != NULL)
			srec_set_str(r, g.c->step, d->w.step);
		if (d->w.group != NULL)
			srec_set_str(r, g.c->group, d->w.group);
	} else if (d->had_win && ts < d->last_e && ts >= d->last_s) {
		if (d->pstep != NULL)
			srec_set_str(r, g.c->step, d->pstep);
		if (d->pgroup != NULL)
			srec_set_str(r, g.c->group, d->pgroup);
	}
	return r;
}

/* Put R now if the kernel after END was read, else wait for it. */
static void
bubble_close(struct bdev *d, struct srec *r, int64_t end, int boundary)
{
	if (boundary)
		srec_set_str(r, g.c->tags, bub_tag_names[4]);
	if (d->next.set && d->next.ts >= end) {
		kev_put(r, g.c->next, &d->next);
		stage_put(g.st, r);
		return;
	}
	if (d->npend == d->cappend) {
		d->cappend = d->cappend ? 2 * d->cappend : 4;
		d->pend = xreallocarray(d->pend, d->cappend,
		    sizeof(*d->pend));
	}
	d->pend[d->npend].r = r;
	d->pend[d->npend++].end = end;
}

static void	 global_fill(struct bdev *, struct srec *, int64_t, int64_t);

/*
 * The step bubble of D that also stood for a whole-capture gap ends at
 * E: if the kernel union's gap ended there too, the two are one gap with
 * ID; if not (busy time from other records), the whole-capture gap gets
 * its own record now, while the step bubble still holds the output at S.
 */
static void
share_end(struct bdev *d, int64_t s, int64_t e, const char *id)
{
	struct bwin *w = &d->w;
	struct srec *r;
	const char *v;
	size_t len;
	int i, cols[6];

	w->shared = 0;
	if (e == w->share_end) {
		sum_gap(d->di, s, e - s, id);
		return;
	}
	r = stage_new(g.st, "bubble", s);
	srec_set(r, COL_DEV, d->name, d->len);
	memcpy(cols, g.c->prev, sizeof(g.c->prev));
	cols[4] = g.c->step;
	cols[5] = g.c->group;
	for (i = 0; i < 6; i++)
		if ((v = srec_get(w->gap, cols[i], &len)), len > 0)
			srec_set(r, cols[i], v, len);
	global_fill(d, r, s, w->share_end);
	kev_put(r, g.c->next, &d->share_next);
	stage_put(g.st, r);
}

/* Fill in a step bubble [S, E) of scope SC and close it. */
static void
step_bubble(struct bdev *d, int64_t s, int64_t e, int sc, int boundary)
{
	struct bwin *w = &d->w;
	const char *id;

	if (w->gap == NULL)
		diag_err(EXIT_BAD, "internal error: gap at ts_ns %" PRId64
		    " was not opened", s);
	set_i64(w->gap, COL_DUR, e - s);
	srec_set_str(w->gap, COL_NAME, scope_names[sc]);
	id = make_id(w->id, 'b', w->nb++);
	srec_set_str(w->gap, g.c->id, id);
	if (e - s > w->big) {
		w->big = e - s;
		w->big_s = s;
		w->big_tag = boundary || w->gap_tag;
	}
	if (w->shared)
		share_end(d, s, e, id);
	/* A kernel right at the window end would make it the same gap. */
	if (sc == SC_TAIL && d->gshared && s == d->ge) {
		free(d->tail_id);
		d->tail_id = xstrdup(srec_get(w->gap, g.c->id, NULL));
		d->tail_s = s;
	}
	bubble_close(d, w->gap, e, boundary || w->gap_tag);
	w->gap = NULL;
}

/* B(t): busy time of the kernel union of D before T (t >= gs). */
static int64_t
busy_before(const struct bdev *d, int64_t t)
{
	int64_t in;

	if (!d->ran)
		return 0;
	in = (t < d->ge ? t : d->ge) - d->gs;
	return d->fin + (in > 0 ? in : 0);
}

/* The next candidate gap start of window W, or INT64_MAX. */
static int64_t
win_cand(const struct bwin *w)
{
	int64_t c = w->nbusy == 0 ? w->s : w->cur_end;

	return w->gap == NULL && c < w->e ? c : INT64_MAX;
}

/*
 * Severity tags of the finished window W, PARTIAL_CAPTURE_* included
 * (doc/analysis-rules.md, Bubbles and severity).
 */
static unsigned
step_tags(const struct bwin *w)
{
	const int64_t *m = w->m;
	int64_t svc = m[M_SERVICE];
	unsigned t = 0;
	int idle;

	/* Every gap reaches T = max(min_heavy, heavy * service). */
#define HEAVY(x) ((x) >= g.o->min_heavy && ratio_ge((x), g.o->heavy, svc))
	if (HEAVY(m[M_PRE]))
		t |= TAG_PRE;
	if (HEAVY(m[M_TAIL]))
		t |= TAG_TAIL;
	if (HEAVY(m[M_LARGEST]))
		t |= TAG_INTERNAL;
#undef HEAVY
	/* A step without service has ratio 0, not under / 0. */
	idle = svc > 0 ? ratio_ge(m[M_UNDER], g.o->underfeed, svc) :
	    g.o->underfeed.num == 0;
	if (idle || (!g.o->script_idle && t != 0))
		t |= TAG_IDLE;
	/* The end of the capture is not known yet: only cuts and a gap
	 * before the device's first kernel count here. */
	if (w->cut_start || w->cut_end || (w->big > 0 && w->big_tag))
		t |= TAG_PARTIAL;
	return t;
}

/* One per-step metric record at the step start. */
static void
metric_put(const struct bdev *d, const struct bwin *w, int k)
{
	struct srec *r = stage_new(g.st, "metric", w->s);
	char buf[NUM_BUFSIZE];

	srec_set(r, COL_DEV, d->name, d->len);
	srec_set_str(r, COL_NAME, bub_metric_names[k]);
	if (k == M_RATIO && w->m[M_SERVICE] > 0) {
		num_ratio(buf, w->m[M_UNDER], w->m[M_SERVICE], 6);
		srec_set_str(r, g.c->value, buf);
	} else if (k == M_RATIO)
		srec_set_str(r, g.c->value, "0");
	else
		srec_set_i64(r, g.c->value, w->m[k]);
	if (w->step != NULL)
		srec_set_str(r, g.c->step, w->step);
	if (w->group != NULL)
		srec_set_str(r, g.c->group, w->group);
	stage_put(g.st, r);
}

/* Append the tag names in T to the kept window record's tags. */
static void
window_tags(struct bwin *w, unsigned t)
{
	size_t len, n, i;
	const char *old = srec_get(w->rec, g.c->tags, &len);
	char *s;

	n = len + 1;
	for (i = 0; i < TAG_NBITS; i++)
		n += strlen(bub_tag_names[i]) + 1;
	s = xmalloc(n);
	memcpy(s, old, len);
	n = len;
	for (i = 0; i < TAG_NBITS; i++) {
		if (!(t & (1U << i)))
			continue;
		if (n > 0)
			s[n++] = ',';
		memcpy(s + n, bub_tag_names[i], strlen(bub_tag_names[i]));
		n += strlen(bub_tag_names[i]);
	}
	srec_set(w->rec, g.c->tags, s, n);
	free(s);
}

/*
 * The window of D has ended: its tail (or, without any busy time, the
 * whole window as prelaunch, as the reference script has it), metrics,
 * tags; the metric records are made while the window record still holds
 * the output at the step start.
 */
static void
win_end(struct bdev *d)
{
	struct bwin *w = &d->w;
	int64_t *m = w->m;
	unsigned t;
	int k;

	m[M_SERVICE] = w->e - w->s;
	free(d->tail_id);		/* only the last window's tail counts */
	d->tail_id = NULL;
	if (w->nbusy == 0) {
		m[M_PRE] = m[M_SERVICE];
		if (w->gap != NULL)
			step_bubble(d, w->s, w->e, SC_PRE, w->cut_start ||
			    w->cut_end);
	} else {
		m[M_TAIL] = w->e - w->cur_end;
		if (w->gap != NULL)
			step_bubble(d, w->cur_end, w->e, SC_TAIL, w->cut_end);
	}
	m[M_UNDER] = m[M_SERVICE] > m[M_BUSY] ? m[M_SERVICE] - m[M_BUSY] : 0;
	/* Prelaunch and tail count as significant gaps too (a step without
	 * busy time has one gap, its prelaunch); a zero gap never does. */
	m[M_SIG] += m[M_PRE] > 0 && m[M_PRE] >= g.o->floor;
	m[M_SIG] += m[M_TAIL] > 0 && m[M_TAIL] >= g.o->floor;
	t = step_tags(w);
	for (k = 0; k < NMET; k++)
		metric_put(d, w, k);
	window_tags(w, t);
	stage_put(g.st, w->rec);
	sum_step(d->name, d->len, w->group != NULL ? w->group : "", m, t);
	d->had_win = 1;
	d->last_s = w->s;
	d->last_e = w->e;
	d->busy_at_last_e = busy_before(d, w->e);
	d->inwin = 0;
	free(d->pstep);
	free(d->pgroup);
	d->pstep = w->step;
	d->pgroup = w->group;
	free(w->id);
}

/* Open the bubbles of D that a record at TS proves. */
static void
open_due(struct bdev *d, int64_t ts, int global)
{
	struct bwin *w = &d->w;

	if (d->inwin && win_cand(w) < ts) {
		w->gap_s = win_cand(w);
		w->gap = bubble_open(d, w->gap_s, &w->gap_tag);
	}
	if (!global || !d->ran || d->ggap != NULL || d->gshared ||
	    d->ge >= ts)
		return;
	/* The same gap seen by the step: one record may do for both. */
	if (d->inwin && w->gap != NULL && w->gap_s == d->ge)
		d->gshared = 1;
	else
		d->ggap = bubble_open(d, d->ge, &d->ggap_tag);
}

/* The earliest time at which D has something to check, or INT64_MAX. */
static int64_t
dev_next(const struct bdev *d)
{
	int64_t next = INT64_MAX;

	if (d->inwin && win_cand(&d->w) < next)
		next = win_cand(&d->w);
	if (d->inwin && d->w.e - 1 < next)
		next = d->w.e - 1;
	if (d->ran && d->ggap == NULL && !d->gshared && d->ge < next)
		next = d->ge;
	return next;
}

static int
took_cmp(const void *a, const void *b)
{
	const struct bdev *x = *(struct bdev *const *)a;
	const struct bdev *y = *(struct bdev *const *)b;

	return x->di < y->di ? -1 : x->di > y->di;
}

/*
 * Before the record at TS: open the bubbles it proves, for every device
 * first (so that no put can write past their start), then end the
 * windows that end at or before TS.  Only the devices with a check time
 * before TS can have either; they are taken in the order of the devices
 * as every device once was, so that records opened at one time keep
 * that order.
 */
void
gap_before(int64_t ts)
{
	size_t i;

	if (ts <= g.next_check)
		return;
	g.round++;
	g.ntook = 0;
	while (dueq_first(&g.due) < ts) {
		struct bdev *d = dueq_take(&g.due);

		if (d->stamp == g.round)
			continue;
		d->stamp = g.round;
		if (g.ntook == g.captook) {
			g.captook = g.captook ? 2 * g.captook : 64;
			g.took = xreallocarray(g.took, g.captook,
			    sizeof(*g.took));
		}
		g.took[g.ntook++] = d;
	}
	if (g.ntook > 1)
		qsort(g.took, g.ntook, sizeof(*g.took), took_cmp);
	for (i = 0; i < g.ntook; i++)
		open_due(g.took[i], ts, 1);
	for (i = 0; i < g.ntook; i++) {
		struct bdev *d = g.took[i];

		if (d->inwin && ts >= d->w.e)
			win_end(d);
		want_check(d, dev_next(d));
	}
	g.next_check = dueq_first(&g.due);
}

static char *
field_dup(int col)
{
	size_t len;
	const char *s = stage_get(g.st, col, &len);

	return len > 0 ? xstrndup(s, len) : NULL;
}

/* The id prefix of the bubbles of window W of device D. */
static char *
window_id(const struct bdev *d, const struct bwin *w)
{
	size_t n = d->len + (w->step != NULL ? strlen(w->step) : 0) + 32;
	char *id = xmalloc(n);

	if (w->step != NULL)
		snprintf(id, n, "d%s.s%s", d->name, w->step);
	else
		snprintf(id, n, "d%s.w%" PRIu64, d->name, d->nwin);
	return id;
}

/* A window record: keep it until the step ends and its tags are known. */
void
gap_window(void)
{
	int64_t s = stage_ts(g.st), dur = stage_dur(g.st);
	struct bdev *d = cur_dev();
	struct bwin *w = &d->w;
	size_t len;
	const char *tags = stage_get(g.st, g.c->tags, &len);

	if (dur < 0)
		diag_at_fatal(EXIT_BAD, stage_path(g.st), stage_lineno(g.st),
		    "window record without dur_ns");
	if (d->inwin)
		diag_at_fatal(EXIT_BAD, stage_path(g.st), stage_lineno(g.st),
		    "window at ts_ns %" PRId64 " overlaps the window of dev "
		    "'%s' at %" PRId64, s, d->name, w->s);
	memset(w, 0, sizeof(*w));
	w->e = s + dur;		/* the stage library checked that it fits */
	w->s = s;
	w->cut_start = stage_tag_has(tags, len, "cut_start");
	w->cut_end = stage_tag_has(tags, len, "cut_end");
	w->step = field_dup(g.c->step);
	w->group = field_dup(g.c->group);
	w->id = window_id(d, w);
	w->rec = stage_keep(g.st);
	if (d->had_win && s > d->last_e)
		w->m[M_INTER] = s - d->last_e - (busy_before(d, s) -
		    d->busy_at_last_e);
	d->nwin++;
	d->inwin = 1;
	want_check(d, win_cand(w));
	want_check(d, w->e - 1);
}

/* Whether the current busy record belongs to window W (its step). */
static int
busy_in(const struct bwin *w, int64_t t)
{
	size_t len;
	const char *step = stage_get(g.st, g.c->step, &len);

	if (t < w->s || t >= w->e)
		return 0;
	return len == 0 || w->step == NULL || (strlen(w->step) == len &&
	    memcmp(w->step, step, len) == 0);
}

/*
 * A busy segment: merge it into the window's busy time
 * (doc/analysis-rules.md, Step bubble metrics).
 */
void
gap_busy(void)
{
	int64_t t = stage_ts(g.st), dur = stage_dur(g.st), be;
	struct bdev *d = cur_dev();
	struct bwin *w = &d->w;

	if (dur <= 0)
		return;
	d->seen = 1;
	d->last_busy = t;
	if (!d->inwin || !busy_in(w, t))
		return;
	be = dur < w->e - t ? t + dur : w->e;
	if (w->nbusy == 0) {
		if (t > w->s) {
			w->m[M_PRE] = t - w->s;
			step_bubble(d, w->s, t, SC_PRE, w->cut_start);
		}
		w->cur_end = be;
		w->m[M_BUSY] = be - t;
	} else if (t <= w->cur_end) {
		if (be > w->cur_end) {
			w->m[M_BUSY] += be - w->cur_end;
			w->cur_end = be;
		}
	} else {
		w->m[M_COUNT]++;
		w->m[M_SIG] += t - w->cur_end >= g.o->floor;
		w->m[M_INTERNAL] += t - w->cur_end;
		if (t - w->cur_end > w->m[M_LARGEST])
			w->m[M_LARGEST] = t - w->cur_end;
		step_bubble(d, w->cur_end, t, SC_INTERNAL, 0);
		w->m[M_BUSY] += be - t;
		w->cur_end = be;
	}
	w->nbusy++;
	want_check(d, win_cand(w));
}

/* Fill in the whole-capture gap record R for [S, E). */
static void
global_fill(struct bdev *d, struct srec *r, int64_t s, int64_t e)
{
	const char *id = make_id(d->pfx, 'g', d->ngap++);

	set_i64(r, COL_DUR, e - s);
	srec_set_str(r, COL_NAME, scope_names[SC_GLOBAL]);
	srec_set_str(r, g.c->id, id);
	sum_gap(d->di, s, e - s, id);
}

/* The whole-capture gap of D that the kernel at TS ends. */
static void
global_bubble(struct bdev *d, int64_t ts)
{
	struct srec *r = d->ggap;

	d->ggap = NULL;
	global_fill(d, r, d->ge, ts);
	bubble_close(d, r, ts, d->ggap_tag);
}

/*
 * The step bubble that stood for the gap waits for the same kernel and
 * knows the window the gap starts in, which may have ended since.
 */
static void
step_from_pend(const struct bdev *d, struct srec *r)
{
	const char *v;
	size_t i, len;

	for (i = 0; i < d->npend; i++) {
		if (srec_ts(d->pend[i].r) != srec_ts(r))
			continue;
		v = srec_get(d->pend[i].r, g.c->step, &len);
		srec_set(r, g.c->step, v, len);
		v = srec_get(d->pend[i].r, g.c->group, &len);
		srec_set(r, g.c->group, v, len);
		return;
	}
}

/*
 * The kernel at TS ends the whole-capture gap of D that the open step
 * bubble stands for.  Inside the window the step bubble normally ends at
 * TS too (see share_end); a gap past the window's end is a gap between
 * steps and gets its own record (the step bubble, still open at its
 * start, allows that).
 */
static void
share_close(struct bdev *d, int64_t ts)
{
	struct bwin *w = &d->w;

	d->gshared = 0;
	if (d->inwin && w->gap != NULL && w->gap_s == d->ge && ts <= w->e) {
		w->shared = 1;
		w->share_end = ts;
		kev_take(&d->share_next, ts, ts + stage_dur(g.st));
		return;
	}
	if (d->tail_id != NULL && d->tail_s == d->ge && ts == d->last_e) {
		sum_gap(d->di, d->ge, ts - d->ge, d->tail_id);
		return;
	}
	d->ggap = bubble_open(d, d->ge, &d->ggap_tag);
	step_from_pend(d, d->ggap);
	global_bubble(d, ts);
}

/* Put the waiting bubbles of D that end at or before TS. */
static void
pend_flush(struct bdev *d, int64_t ts)
{
	size_t i;

	for (i = 0; i < d->npend; i++) {
		if (d->pend[i].end > ts)
			continue;
		kev_put(d->pend[i].r, g.c->next, &d->next);
		stage_put(g.st, d->pend[i].r);
		d->pend[i--] = d->pend[--d->npend];
	}
}

/* A kernel: the whole-capture union, and evidence for the gaps. */
void
gap_kernel(void)
{
	int64_t ts = stage_ts(g.st), dur = stage_dur(g.st), end;
	struct bdev *d;

	if (dur <= 0)
		return;
	end = ts + dur;		/* the stage library checked that it fits */
	d = cur_dev();
	if (!d->next.set || ts > d->next.ts)
		kev_take(&d->next, ts, end);
	if (d->ggap != NULL)
		global_bubble(d, ts);
	else if (d->gshared)
		share_close(d, ts);
	if (!d->ran) {
		d->ran = 1;
		d->first_ts = d->gs = ts;
		d->ge = end;
	} else if (ts > d->ge) {
		d->fin += d->ge - d->gs;
		d->gs = ts;
		d->ge = end;
	} else if (end > d->ge)
		d->ge = end;
	if (d->npend > 0)
		pend_flush(d, ts);
	if (!d->prev.set || end >= d->prev.end)
		kev_take(&d->prev, ts, end);
	want_check(d, d->ge);
}

/*
 * The end of the input: the windows still open end here; a gap that no
 * kernel followed is no whole-capture gap (the device's capture ended),
 * and a step bubble that no kernel and no busy time followed lies at
 * the capture end.
 */
void
gap_finish(void)
{
	size_t i, j;

	for (i = 0; i < g.devs.n; i++)
		open_due(g.devs.v[i].item, INT64_MAX, 0);
	for (i = 0; i < g.devs.n; i++) {
		struct bdev *d = g.devs.v[i].item;

		if (d->inwin)
			win_end(d);
	}
	for (i = 0; i < g.devs.n; i++) {
		struct bdev *d = g.devs.v[i].item;

		if (d->ggap != NULL)
			stage_drop(g.st, d->ggap);
		free(d->share_next.name.p);
		free(d->share_next.core.p);
		free(d->share_next.track.p);
		free(d->pstep);
		free(d->pgroup);
		free(d->tail_id);
		for (j = 0; j < d->npend; j++) {
			if (!d->seen || d->last_busy < d->pend[j].end)
				srec_set_str(d->pend[j].r, g.c->tags,
				    bub_tag_names[4]);
			stage_put(g.st, d->pend[j].r);
		}
		if (d->ran)
			sum_capture(d->di, d->first_ts, d->ge,
			    d->fin + (d->ge - d->gs));
		free(d->pend);
		free(d->prev.name.p);
		free(d->prev.core.p);
		free(d->prev.track.p);
		free(d->next.name.p);
		free(d->next.core.p);
		free(d->next.track.p);
		free(d->pfx);
	}
	devtab_free(&g.devs);
	dueq_free(&g.due);
	free(g.took);
}
