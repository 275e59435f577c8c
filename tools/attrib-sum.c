/*
 * prof-attrib's labels and what the summary gathers: the candidate
 * labels of one bubble (the reference soft_attribution_for_bubble,
 * evaluated exactly in integers, then this program's), and per rank,
 * step group and step the sums that attrib-cause.c judges into the soft
 * root-cause summary.
 *
 * The summary weighs bubbles by their length: a label's share is the
 * time of the significant bubbles that carry it over the time of all
 * significant bubbles of the scope, and coverage ratios are the covered
 * time over that same total.  Bubbles at the capture boundary are
 * labelled but kept apart: the analysis rules forbid blaming the host
 * for a gap the capture cut (doc/analysis-rules.md, Bubbles and
 * severity), so they enter a scope's judgement only when they outweigh
 * its other significant bubbles (a single-step capture), and then every
 * record of the scope says so (boundary_caveat).  The many small gaps
 * below the threshold are a finding of their own (attrib-small.c).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "attrib-sum.h"
#include "xalloc.h"

static const char *const labnames[LAB_N] = {
	"possible_sync_or_h2d", "possible_comm_wait",
	"possible_untraced_host_blocking", "possible_host_launch_lag",
	"possible_python_serialization_or_lock", "input_pipeline_stall",
	"host_sync_stall", "launch_bound", "host_cpu_work",
	"insufficient_evidence"
};

#define STEP_BUCKETS	4096

struct sdev *sdevs;
size_t nsdevs;
int sum_any_bubble;
static struct step *steps[STEP_BUCKETS];

const char *
sum_labname(int l)
{
	return labnames[l];
}

/* NUM / DEN >= PPM / 10^6, exactly; an empty ratio (DEN 0) reads as 0. */
int
sum_ge(__int128 num, __int128 den, int64_t ppm)
{
	if (den <= 0)
		return ppm <= 0;
	return num * 1000000 >= (__int128)ppm * den;
}

/*
 * Bubble times summed over a scope stay within the capture span, since
 * the bubbles of a rank and scope do not overlap; records made by hand
 * may, and then a sum is held at INT64_MAX and the run fails at its end
 * (sum_write()) rather than wrap.
 */
int sum_overflow;

void
sum_ns(int64_t *a, int64_t v)
{
	if (__builtin_add_overflow(*a, v, a)) {
		*a = INT64_MAX;
		sum_overflow = 1;
	}
}

/*
 * This program's labels of one bubble, from its partition: an input or
 * sync stall when that class holds --input-min or --sync-stall-min of
 * it; when launch and other host work hold --busy-min of it on a rank
 * that records launches, launch_bound if launches are --launch-share of
 * that time, else host_cpu_work; host_cpu_work also when the cpu family
 * (optimizer) covers --cpu-min of it.
 */
static unsigned
own_labels(const struct bubble_meas *m)
{
	int64_t lh = m->idle[CLS_LAUNCH] + m->idle[CLS_HOST];
	unsigned l = 0;
	int busy;

	if (m->dur <= 0)
		return 0;
	if (sum_ge(m->idle[CLS_INPUT], m->dur, aopt.input_min))
		l |= 1u << LAB_INPUT_STALL;
	if (sum_ge(m->idle[CLS_SYNC], m->dur, aopt.stall_min))
		l |= 1u << LAB_SYNC_STALL;
	busy = m->launches && lh > 0 && sum_ge(lh, m->dur, aopt.busy_min);
	if (busy && sum_ge(m->idle[CLS_LAUNCH], lh, aopt.lshare_min))
		l |= 1u << LAB_LAUNCH_BOUND;
	else if (busy)
		l |= 1u << LAB_CPU_WORK;
	if (sum_ge(m->cov[FAM_CPU], m->dur, aopt.cpu_min))
		l |= 1u << LAB_CPU_WORK;
	return l;
}

/*
 * The labels of one bubble, in the reference order: the sync, comm and
 * untraced tests are independent; launch lag, then serialization, only
 * when nothing matched yet; then this program's labels; insufficient
 * evidence when nothing did.  The thread-parallelism hint exists only
 * when some host event covers the bubble.
 */
unsigned
sum_labels(const struct bubble_meas *m)
{
	unsigned l = 0;

	if (sum_ge(m->cov[FAM_SYNC], m->dur, aopt.sync_min))
		l |= 1u << LAB_SYNC;
	if (sum_ge(m->cov[FAM_COMM], m->dur, aopt.comm_min))
		l |= 1u << LAB_COMM;
	if (!sum_ge(m->cov[FAM_HOST], m->dur, aopt.untraced_max))
		l |= 1u << LAB_UNTRACED;
	if (l == 0 && m->dur > 0 &&
	    sum_ge(m->cov[FAM_HOST], m->dur, aopt.launch_min))
		l |= 1u << LAB_LAUNCH;
	if (l == 0 && m->cov[FAM_HOST] > 0 &&
	    !sum_ge(m->thr_sum, m->cov[FAM_HOST], aopt.par_max))
		l |= 1u << LAB_PYTHON;
	l |= own_labels(m);
	if (l == 0)
		l |= 1u << LAB_INSUFFICIENT;
	return l;
}

/*
 * Rank ID's summary, indexed by the id (bub_dev_id()): ranks come by
 * the hundred thousand in a big job.  Ranks not seen yet in between are
 * made empty.
 */
static struct sdev *
sdev_get(int64_t id)
{
	static size_t cap;

	if ((size_t)id >= nsdevs) {
		if ((size_t)id >= cap) {
			cap = (size_t)id < 8 ? 16 : 2 * (size_t)id;
			sdevs = xreallocarray(sdevs, cap, sizeof(*sdevs));
		}
		memset(&sdevs[nsdevs], 0, ((size_t)id + 1 - nsdevs) *
		    sizeof(*sdevs));
		for (; nsdevs <= (size_t)id; nsdevs++)
			sdevs[nsdevs].id = (int64_t)nsdevs;
	}
	return &sdevs[id];
}

static size_t
group_get(struct sdev *d, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < d->ngroups; i++)
		if (strlen(d->groups[i].name) == len &&
		    memcmp(d->groups[i].name, name, len) == 0)
			return i;
	d->groups = xreallocarray(d->groups, d->ngroups + 1,
	    sizeof(*d->groups));
	memset(&d->groups[d->ngroups], 0, sizeof(*d->groups));
	d->groups[d->ngroups].name = xstrndup(name, len);
	return d->ngroups++;
}

static struct step **
step_slot(int64_t dev, const char *id, size_t len)
{
	uint64_t h = (uint64_t)dev * 1099511628211ULL;
	struct step **pp;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)id[i]) * 1099511628211ULL;
	pp = &steps[h % STEP_BUCKETS];
	for (; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->dev == dev && (*pp)->len == len &&
		    memcmp((*pp)->id, id, len) == 0)
			break;
	return pp;
}

/* A step window of rank DEV: its group and service time. */
void
sum_window(int64_t dev, const char *id, size_t len, const char *group,
    size_t glen, int64_t service)
{
	struct sdev *d = sdev_get(dev);
	struct step **pp = step_slot(dev, id, len), *s;
	struct acc *g;

	if (*pp != NULL)		/* a step seen twice counts once */
		return;
	s = *pp = xcalloc(1, sizeof(*s));
	s->dev = dev;
	s->id = xstrndup(id, len);
	s->len = len;
	s->a.nsteps = 1;
	s->a.service = service;
	s->group = group_get(d, group, glen);
	if (d->last != NULL)
		d->last->later = s;
	else
		d->first = s;
	d->last = s;
	g = &d->groups[s->group].a;
	g->nsteps++;
	sum_ns(&g->service, service);
	d->a_step.nsteps++;
	sum_ns(&d->a_step.service, service);
}

void
sum_dev(int64_t dev, int hosts, int stacks, int shapes, int device)
{
	struct sdev *d = sdev_get(dev);

	d->hosts = hosts;
	d->stacks = stacks;
	d->shapes = shapes;
	d->device = device;
}

/*
 * Whether rank DEV has device data: a kernel or busy record, or none in
 * the whole stream (one made by hand, with only bubbles, is judged as it
 * is).
 */
int
sum_has_device(int64_t dev)
{
	static int any = -1;	/* every sum_dev() came before */
	size_t i;

	if (any < 0)
		for (i = 0, any = aopt.device_elsewhere; i < nsdevs; i++)
			any |= sdevs[i].device;
	return ((size_t)dev < nsdevs && sdevs[dev].device) || !any;
}

static void
sig_add(struct sig *g, const struct bubble_info *bi,
    const struct bubble_meas *m, unsigned labels, int names)
{
	int i;

	g->nsig++;
	sum_ns(&g->sig_ns, m->dur);
	for (i = 0; i < FAM_N; i++)
		sum_ns(&g->cov[i], m->cov[i]);
	for (i = 0; i <= CLS_N; i++)
		sum_ns(&g->idle[i], m->idle[i]);
	g->thr_sum += m->thr_sum;
	/* A bubble whose host activity has a name is no launch lag. */
	if (labels & LAB_SPECIFIC)
		labels &= ~(1u << LAB_LAUNCH);
	for (i = 0; i < LAB_N; i++)
		if (labels & (1u << i)) {
			sum_ns(&g->lab_ns[i], m->dur);
			g->lab_n[i]++;
		}
	if (names)
		nmap_addall(&g->names, bi->names);
}

/* Bubble BI (significant when SIG) into scope A; NAMES: keep its names. */
static void
acc_add(struct acc *a, struct bubble_info *bi, int sig,
    const struct bubble_meas *m, unsigned labels, int names)
{
	const char *scope = bi->scope;
	size_t sclen = bi->sclen;
	int global = sclen == 6 && memcmp(scope, "global", 6) == 0;

	a->nbub++;
	if (global)
		sum_ns(&a->glob_ns, m->dur);
	else
		sum_ns(&a->step_ns, m->dur);
	if (sclen == 9 && memcmp(scope, "prelaunch", 9) == 0)
		sum_ns(&a->pre_ns, m->dur);
	else if (sclen == 4 && memcmp(scope, "tail", 4) == 0)
		sum_ns(&a->tail_ns, m->dur);
	else if (sclen == 13 && memcmp(scope, "step_internal", 13) == 0)
		sum_ns(&a->int_ns, m->dur);
	if (bi->boundary)
		a->nboundary++;
	if (sig)
		sig_add(bi->boundary ? &a->bnd : &a->in, bi, m, labels, names);
	else if (!global && a->small != NULL)
		small_add(a->small, bi, m);
}

/*
 * Significant: at least the floor and at least a tenth of its step's
 * service time (the severity threshold T = max(1 ms, 0.10 x service):
 * doc/analysis-rules.md, Causes and risk tags).
 */
void
sum_bubble(struct bubble_info *bi, const struct bubble_meas *m,
    unsigned labels)
{
	struct sdev *d = sdev_get(bi->dev);
	struct step *s = NULL;
	struct acc *g;
	int global = bi->sclen == 6 && memcmp(bi->scope, "global", 6) == 0;
	int sig;

	sum_any_bubble = 1;
	if (!global && bi->slen > 0)
		s = *step_slot(bi->dev, bi->step, bi->slen);
	sig = m->dur > 0 && m->dur >= aopt.significant_ns &&
	    (s == NULL || (__int128)m->dur * 10 >= s->a.service);
	if (d->a_step.small == NULL)
		d->a_step.small = small_new();
	acc_add(global ? &d->a_glob : &d->a_step, bi, sig, m, labels, 1);
	if (s == NULL)
		return;
	g = &d->groups[s->group].a;
	if (g->small == NULL)
		g->small = small_new();
	acc_add(g, bi, sig, m, labels, 1);
	acc_add(&s->a, bi, sig, m, labels, aopt.step_causes);
	if (!s->bubbled && bi->sclen == 13 &&
	    memcmp(bi->scope, "step_internal", 13) == 0) {
		s->bubbled = 1;
		s->a.steps_bub = 1;
		d->groups[s->group].a.steps_bub++;
		d->a_step.steps_bub++;
	}
}
