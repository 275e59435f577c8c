/*
 * The time budget of prof-verdict: one sweep per device over its kernel
 * records in start order.  Between two moments where a kernel starts or
 * ends, the set of running kernels is fixed, and that stretch of time
 * goes to one part: communication hidden under compute when both run,
 * exposed communication when only communication runs, else the bound
 * most running compute kernels have (prof-roofline's bound column).  The
 * stretch is credited to the step windows it overlaps, clipped to them
 * as prof-merge clips busy time, and to the names of the kernels that
 * made it, for the evidence.  Idle time is what the windows keep free;
 * prof-attrib's bubble columns say what the host did meanwhile.
 *
 * Memory: the running kernels of each device (a heap by end), the
 * windows and their budgets, one entry per distinct kernel name.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "stage.h"
#include "strtab.h"
#include "verdict.h"
#include "xalloc.h"

/* A running kernel. */
struct vact {
	int64_t		 end;
	int		 part;		/* VP_BUSY_* or VP_COMM_EXPOSED */
	uint32_t	 name;		/* index in the device's names */
};

static struct devtab devs;
static const struct v_opts *opt;
static uint32_t segment;		/* id of the stretch credited */

void
vs_init(struct stage *st, const struct v_opts *o)
{
	(void)st;
	opt = o;
	devtab_init(&devs, sizeof(struct vdev));
}

struct vdev *
vs_dev(const char *id, size_t len)
{
	int isnew;
	struct vdev *d = devtab_get(&devs, id, len, &isnew);

	if (isnew) {
		d->id = devs.v[devs.n - 1].name;
		d->idlen = len;
		d->t = INT64_MIN;
		strtab_init(&d->names, sizeof(struct vname));
	}
	return d;
}

size_t
vs_ndevs(void)
{
	return devs.n;
}

struct vdev *
vs_devn(size_t i)
{
	return devs.v[i].item;
}

/* The id of NAME in T, a table of struct vname, made when new. */
size_t
vn_id(struct strtab *t, const char *name, size_t len)
{
	int isnew;
	size_t id = strtab_intern(t, name, len, &isnew);

	if (isnew)
		((struct vname *)strtab_val(t, id))->name = strtab_key(t, id,
		    NULL);
	return id;
}

void
vs_window(struct vdev *d, int64_t ts, int64_t dur, const char *step,
    size_t steplen, const char *group, size_t grouplen, int cut)
{
	struct vstep *s;

	if (d->nsteps == d->capsteps) {
		d->capsteps = d->capsteps ? 2 * d->capsteps : 16;
		d->steps = xreallocarray(d->steps, d->capsteps,
		    sizeof(*d->steps));
	}
	s = &d->steps[d->nsteps++];
	memset(s, 0, sizeof(*s));
	s->step = xstrndup(step, steplen);
	s->group = xstrndup(group, grouplen);
	s->ts = ts;
	s->dur = dur > 0 ? dur : 0;
	s->cut = cut;
}

/* One value of the profiler's split of STEP (PF_*). */
void
vs_profiler(struct vdev *d, const char *step, size_t len, int which,
    int64_t ns)
{
	struct vprof *p = NULL;
	size_t i;

	for (i = d->nprof; i > 0; i--)	/* a step's rows come together */
		if (strlen(d->prof[i - 1].step) == len &&
		    memcmp(d->prof[i - 1].step, step, len) == 0) {
			p = &d->prof[i - 1];
			break;
		}
	if (p == NULL) {
		d->prof = xreallocarray(d->prof, d->nprof + 1,
		    sizeof(*d->prof));
		p = &d->prof[d->nprof++];
		memset(p, 0, sizeof(*p));
		p->step = xstrndup(step, len);
	}
	p->ns[which] = ns;
	p->have |= 1u << which;
}

/*
 * The bound most running compute kernels have (the first of compute,
 * memory, latency, unclassed among equals), or -1 when none runs.
 */
static int
compute_bound(const struct vdev *d)
{
	int p, best = -1;

	for (p = VP_BUSY_COMPUTE; p <= VP_BUSY_UNCLASSED; p++)
		if (d->cnt[p] > 0 && (best < 0 || d->cnt[p] > d->cnt[best]))
			best = p;
	return best;
}

/* The part the running kernels make of a stretch, or -1 when idle. */
static int
state(const struct vdev *d)
{
	int best = compute_bound(d);

	if (d->cnt[VP_COMM_EXPOSED] > 0)
		return best >= 0 ? VP_COMM_HIDDEN : VP_COMM_EXPOSED;
	return best;
}

/* The class a busy part's named kernels are evidence for. */
static int
part_class(int p)
{
	switch (p) {
	case VP_BUSY_MEMORY:	return VC_MEMORY;
	case VP_BUSY_LATENCY:	return VC_LAUNCH;
	case VP_COMM_EXPOSED:	return VC_COMM;
	default:		return VC_COMPUTE;
	}
}

/*
 * *A += B, held at the int64 ends.  Bubbles and host names are summed
 * per step window and trimmed to its idle time (idle_parts()), which
 * is an int64, so a sum held at the end gives the same result as the
 * exact one; only records that overlap each other, which no stage
 * writes, can reach it.
 */
static void
sat_add(int64_t *a, int64_t b)
{
	if (__builtin_add_overflow(*a, b, a))
		*a = b > 0 ? INT64_MAX : INT64_MIN;
}

/* Credit [A, B) to the windows it overlaps and to its kernels' names. */
static void
account(struct vdev *d, int64_t a, int64_t b)
{
	int p = state(d), c;
	int64_t lo, hi, inw = 0;	/* held at INT64_MAX: sat_add() */
	size_t i;
	struct vname *n;

	if (p < 0)
		return;
	while (d->cur < d->nsteps &&
	    d->steps[d->cur].ts + d->steps[d->cur].dur <= a)
		d->cur++;
	for (i = d->cur; i < d->nsteps && d->steps[i].ts < b; i++) {
		lo = a > d->steps[i].ts ? a : d->steps[i].ts;
		hi = d->steps[i].ts + d->steps[i].dur;
		hi = b < hi ? b : hi;
		if (hi > lo) {
			d->steps[i].part[p] += hi - lo;
			if (p == VP_COMM_HIDDEN)
				d->steps[i].hid[compute_bound(d)] += hi - lo;
			sat_add(&inw, hi - lo);	/* windows may overlap */
		}
	}
	if (inw == 0 || p == VP_COMM_HIDDEN)
		return;
	/* A name running twice at once counts once. */
	segment++;
	c = part_class(p);
	for (i = 0; i < d->nact; i++)
		if (d->act[i].part == p) {
			n = strtab_val(&d->names, d->act[i].name);
			if (n->last != segment) {
				n->last = segment;
				sat_add(&n->ns[c], inw);
			}
		}
}

static void
heap_down(struct vact *h, size_t n, size_t i)
{
	struct vact t;
	size_t c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && h[c + 1].end < h[c].end)
			c++;
		if (h[i].end <= h[c].end)
			break;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
	}
}

/* Move the sweep of D to TO, crediting every stretch on the way. */
static void
advance(struct vdev *d, int64_t to)
{
	int64_t e;

	while (d->nact > 0 && d->act[0].end <= to) {
		e = d->act[0].end;
		if (e > d->t) {
			account(d, d->t, e);
			d->t = e;
		}
		d->cnt[d->act[0].part]--;
		d->act[0] = d->act[--d->nact];
		heap_down(d->act, d->nact, 0);
	}
	if (to > d->t) {
		if (d->nact > 0)
			account(d, d->t, to);
		d->t = to;
	}
}

void
vs_kernel(struct vdev *d, int64_t ts, int64_t dur, int part,
    const char *name, size_t len)
{
	struct vact t;
	size_t i;

	d->nkernels++;
	if (dur <= 0)
		return;
	advance(d, ts);
	if (d->nact == d->capact) {
		d->capact = d->capact ? 2 * d->capact : 16;
		d->act = xreallocarray(d->act, d->capact, sizeof(*d->act));
	}
	i = d->nact++;
	d->act[i].end = ts + dur;
	d->act[i].part = part;
	d->act[i].name = (uint32_t)vn_id(&d->names, name, len);
	d->cnt[part]++;
	/* Sift up. */
	while (i > 0 && d->act[(i - 1) / 2].end > d->act[i].end) {
		t = d->act[i];
		d->act[i] = d->act[(i - 1) / 2];
		d->act[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/*
 * A step bubble: its idle time by prof-attrib's classes (CLS, IB_N
 * values), or all untraced when SPLIT is 0.  Host work in a gap shorter
 * than --small-gap is launch overhead: the host could not keep up with
 * kernels that short.
 */
void
vs_bubble(struct vdev *d, int64_t ts, int64_t dur, const int64_t *cls,
    int split)
{
	struct vstep *s = NULL;
	size_t i;

	d->has_bubbles = 1;
	for (i = d->nsteps; i-- > 0; )
		if (d->steps[i].ts <= ts) {
			if (ts <= d->steps[i].ts + d->steps[i].dur)
				s = &d->steps[i];
			break;
		}
	if (s == NULL || dur <= 0)
		return;
	sat_add(&s->bub_total, dur);
	if (!split) {
		d->no_attrib = 1;
		sat_add(&s->bub[IB_UNTRACED], dur);
		return;
	}
	for (i = 0; i < IB_N; i++)
		sat_add(&s->bub[i], cls[i]);
	if (dur < opt->small_gap) {
		sat_add(&s->bub[IB_LAUNCH], cls[IB_HOST]);
		s->bub[IB_HOST] -= s->bub[IB_HOST] < cls[IB_HOST] ?
		    s->bub[IB_HOST] : cls[IB_HOST];
	}
}

/* Host names that cover idle time (prof-attrib's hostcov records). */
void
vs_host_name(struct vdev *d, int cls, const char *name, size_t len,
    int64_t ns)
{
	struct vname *v;

	v = strtab_val(&d->names, vn_id(&d->names, name, len));
	sat_add(&v->ns[cls], ns);
}

/*
 * The idle parts of a step: the window's time no kernel took, split as
 * prof-attrib's bubble columns split it.  The bubbles come from
 * prof-merge's busy union of the same kernels, so they add up to the
 * idle time; what they do not cover is untraced, and what they cover
 * beyond it (another busy rule) is taken from the least specific parts.
 */
static void
idle_parts(struct vstep *s)
{
	static const int order[IB_N] = {
		IB_UNTRACED, IB_HOST, IB_LAUNCH, IB_INPUT, IB_SYNC
	};
	/* sums of int64 parts (the profiler's need not partition a step) */
	__int128 busy = 0, idle, sum = 0, over, take;
	int i;

	for (i = 0; i < VP_NBUSY; i++)
		busy += s->part[i];
	idle = s->dur > busy ? s->dur - busy : 0;
	for (i = 0; i < IB_N; i++)
		sum += s->bub[i];
	if (sum < idle)		/* then untraced stays below idle */
		s->bub[IB_UNTRACED] += (int64_t)(idle - sum);
	for (over = sum - idle, i = 0; over > 0 && i < IB_N; i++) {
		take = s->bub[order[i]] < over ? s->bub[order[i]] : over;
		s->bub[order[i]] -= (int64_t)take;
		over -= take;
	}
	for (i = 0; i < IB_N; i++)
		s->part[VP_IDLE_SYNC + i] = s->bub[i];
}

static const struct vprof *
prof_of(const struct vdev *d, const char *step)
{
	size_t i;

	for (i = 0; i < d->nprof; i++)
		if (d->prof[i].have == (1u << PF_N) - 1 &&
		    strcmp(d->prof[i].step, step) == 0)
			return &d->prof[i];
	return NULL;
}

/*
 * When the kernel timeline of D's steps holds under half the device time
 * the profiler itself measured for them (Computing + Communication(Not
 * Overlapped) of step_trace_time), the kernel table is an excerpt and
 * its budget would call the missing time idle.  The profiler's split
 * then stands in for those steps: window = Stage, compute without
 * overlap, hidden and exposed communication, and the rest idle with
 * nothing to tell its cause (untraced).
 */
static void
profiler_split(struct vdev *d)
{
	const struct vprof *p;
	struct vstep *s;
	__int128 timeline = 0, profiler = 0;
	int64_t comp;
	size_t j;
	int k;

	for (j = 0; j < d->nsteps; j++) {
		if ((p = prof_of(d, d->steps[j].step)) == NULL)
			continue;
		for (k = 0; k < VP_NBUSY; k++)
			timeline += d->steps[j].part[k];
		profiler += (__int128)p->ns[PF_COMPUTING] +
		    p->ns[PF_COMM_NOT_OVERLAPPED];
	}
	if (profiler <= 0 || timeline * 2 >= profiler)
		return;
	d->profiler_split = 1;
	for (j = 0; j < d->nsteps; j++) {
		s = &d->steps[j];
		if ((p = prof_of(d, s->step)) == NULL)
			continue;
		memset(s->part, 0, sizeof(s->part));
		memset(s->hid, 0, sizeof(s->hid));
		memset(s->bub, 0, sizeof(s->bub));
		comp = p->ns[PF_COMPUTING] - p->ns[PF_OVERLAPPED];
		s->part[VP_BUSY_UNCLASSED] = comp > 0 ? comp : 0;
		s->part[VP_COMM_HIDDEN] = p->ns[PF_OVERLAPPED];
		s->hid[VP_BUSY_UNCLASSED] = p->ns[PF_OVERLAPPED];
		s->part[VP_COMM_EXPOSED] = p->ns[PF_COMM_NOT_OVERLAPPED];
		s->dur = p->ns[PF_STAGE];
		idle_parts(s);
	}
}

void
vs_finish(void)
{
	struct vdev *d;
	size_t i, j;

	for (i = 0; i < devs.n; i++) {
		d = devs.v[i].item;
		advance(d, INT64_MAX);
		for (j = 0; j < d->nsteps; j++)
			idle_parts(&d->steps[j]);
		profiler_split(d);
	}
}

void
vs_free(void)
{
	struct vdev *d;
	size_t i, j;

	for (i = 0; i < devs.n; i++) {
		d = devs.v[i].item;
		for (j = 0; j < d->nsteps; j++) {
			free(d->steps[j].step);
			free(d->steps[j].group);
		}
		free(d->steps);
		for (j = 0; j < d->nprof; j++)
			free(d->prof[j].step);
		free(d->prof);
		free(d->act);
		strtab_free(&d->names);
		for (j = 0; j < d->nops; j++) {
			free(d->ops[j].name);
			free(d->ops[j].tags);
		}
		free(d->ops);
		for (j = 0; j < d->ncauses; j++) {
			free(d->causes[j].label);
			free(d->causes[j].followup);
			free(d->causes[j].scope);
			free(d->causes[j].target);
		}
		free(d->causes);
		free(d->mfu);
		free(d->mfu_cov);
		free(d->chip);
		free(d->pipe);
		free(d->pipe_ratio);
		free(d->core_tags);
		free(d->core_busy);
		free(d->core_span);
	}
	devtab_free(&devs);
}
