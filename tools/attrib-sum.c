/*
 * prof-attrib's judgements: the candidate labels of one bubble (the
 * reference soft_attribution_for_bubble, evaluated exactly in integers),
 * and the soft root-cause summary per step group and per rank, written
 * as "cause" records at the end of the stream.
 *
 * The summary weighs bubbles by their length: a label's share is the
 * time of the significant bubbles that carry it over the time of all
 * significant bubbles of the scope, and coverage ratios are the covered
 * time over that same total.  Bubbles at the capture boundary are
 * labelled but kept apart: the analysis rules forbid blaming the host
 * for a gap the capture cut, so they enter a scope's judgement only
 * when they outweigh its other significant bubbles (a single-step
 * capture), and then every record of the scope says so
 * (boundary_caveat).  The many small gaps below the threshold are a
 * finding of their own (attrib-small.c).
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "diag.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

static const char *const labnames[LAB_N] = {
	"possible_sync_or_h2d", "possible_comm_wait",
	"possible_untraced_host_blocking", "possible_host_launch_lag",
	"possible_python_serialization_or_lock", "input_pipeline_stall",
	"host_sync_stall", "launch_bound", "host_cpu_work",
	"insufficient_evidence"
};

/* The significant bubbles of a scope, inside it or at the boundary. */
struct sig {
	int64_t		 nsig, sig_ns;
	int64_t		 cov[FAM_N];
	int64_t		 idle[CLS_N + 1];
	int64_t		 thr_sum;
	int64_t		 lab_ns[LAB_N], lab_n[LAB_N];
	struct nmap	 names;		/* covered ns per host name */
};

/* What a scope (a rank, or one of its step groups) gathered. */
struct acc {
	int64_t		 nbub, nboundary;
	struct sig	 in, bnd;	/* bnd: at the capture boundary */
	int64_t		 pre_ns, int_ns, tail_ns, step_ns, glob_ns;
	int64_t		 nsteps, steps_bub, service;
	struct small	*small;		/* rank and group scopes */
};

struct group {
	char		*name;
	struct acc	 a;
};

struct sdev {
	int64_t		 id;
	int		 hosts, stacks, shapes, device;
	struct acc	 a_step, a_glob;
	struct group	*groups;
	size_t		 ngroups;
	struct step	*first, *last;	/* its steps in input order */
};

struct step {
	int64_t		 dev;
	char		*id;
	size_t		 len;
	size_t		 group;		/* index in its rank's groups */
	int		 bubbled;
	struct acc	 a;		/* for --step-causes */
	struct step	*next;		/* hash chain */
	struct step	*later;		/* the rank's next step in input order */
};

#define STEP_BUCKETS	4096

static struct sdev *sdevs;
static size_t nsdevs;
static struct step *steps[STEP_BUCKETS];
static int any_bubble;

const char *
sum_labname(int l)
{
	return labnames[l];
}

/* NUM / DEN >= PPM / 10^6, exactly; an empty ratio (DEN 0) reads as 0. */
int
sum_ge(int64_t num, int64_t den, int64_t ppm)
{
	if (den <= 0)
		return ppm <= 0;
	return (__int128)num * 1000000 >= (__int128)ppm * den;
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

static struct sdev *
sdev_get(int64_t id)
{
	size_t i;

	for (i = 0; i < nsdevs; i++)
		if (sdevs[i].id == id)
			return &sdevs[i];
	sdevs = xreallocarray(sdevs, nsdevs + 1, sizeof(*sdevs));
	memset(&sdevs[nsdevs], 0, sizeof(*sdevs));
	sdevs[nsdevs].id = id;
	return &sdevs[nsdevs++];
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
	g->service += service;
	d->a_step.nsteps++;
	d->a_step.service += service;
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
	size_t i;
	int any = 0, mine = 0;

	for (i = 0; i < nsdevs; i++) {
		any |= sdevs[i].device;
		if (sdevs[i].id == dev)
			mine = sdevs[i].device;
	}
	return mine || !any;
}

static void
sig_add(struct sig *g, const struct bubble_info *bi,
    const struct bubble_meas *m, unsigned labels, int names)
{
	int i;

	g->nsig++;
	g->sig_ns += m->dur;
	for (i = 0; i < FAM_N; i++)
		g->cov[i] += m->cov[i];
	for (i = 0; i <= CLS_N; i++)
		g->idle[i] += m->idle[i];
	g->thr_sum += m->thr_sum;
	/* A bubble whose host activity has a name is no launch lag. */
	if (labels & LAB_SPECIFIC)
		labels &= ~(1u << LAB_LAUNCH);
	for (i = 0; i < LAB_N; i++)
		if (labels & (1u << i)) {
			g->lab_ns[i] += m->dur;
			g->lab_n[i]++;
		}
	if (names)
		nmap_addall(&g->names, bi->names);
}

/* Bubble BI (significant when SIG) into scope A; NAMES: keep its names. */
static void
acc_add(struct acc *a, const struct bubble_info *bi, int sig,
    const struct bubble_meas *m, unsigned labels, int names)
{
	const char *scope = bi->scope;
	size_t sclen = bi->sclen;
	int global = sclen == 6 && memcmp(scope, "global", 6) == 0;

	a->nbub++;
	if (global)
		a->glob_ns += m->dur;
	else
		a->step_ns += m->dur;
	if (sclen == 9 && memcmp(scope, "prelaunch", 9) == 0)
		a->pre_ns += m->dur;
	else if (sclen == 4 && memcmp(scope, "tail", 4) == 0)
		a->tail_ns += m->dur;
	else if (sclen == 13 && memcmp(scope, "step_internal", 13) == 0)
		a->int_ns += m->dur;
	if (bi->boundary)
		a->nboundary++;
	if (sig)
		sig_add(bi->boundary ? &a->bnd : &a->in, bi, m, labels, names);
	else if (!global && a->small != NULL)
		small_add(a->small, bi, m);
}

/*
 * Significant: at least the floor and at least a tenth of its step's
 * service time (the rules' T = max(1 ms, 0.10 x service)).
 */
void
sum_bubble(const struct bubble_info *bi, const struct bubble_meas *m,
    unsigned labels)
{
	struct sdev *d = sdev_get(bi->dev);
	struct step *s = NULL;
	struct acc *g;
	int global = bi->sclen == 6 && memcmp(bi->scope, "global", 6) == 0;
	int sig;

	any_bubble = 1;
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

/* Risk tags of a scope, then its caveats. */
enum {
	TAG_HOST, TAG_UNTRACED, TAG_COMM, TAG_BOUNDARY, TAG_CAVEAT, TAG_N
};
static const char *const tagnames[TAG_N] = {
	"HOST_ORIGINATED_RISK", "UNTRACED_HOST_BLOCKING_RISK", "COMM_SYNC_RISK",
	"PARTIAL_CAPTURE_BOUNDARY", "boundary_caveat"
};
static const char *const levels[3] = { "low", "medium", "high" };

/* The judgement of one scope, from its accumulator. */
struct judge {
	const struct acc	*a;
	const struct sig	*g;	/* the significant bubbles judged */
	struct sig		 both;	/* inside and boundary, when judged */
	const struct sdev	*d;
	int64_t			 uf_num, uf_den;	/* underfeed */
	int			 recurring;
	int			 markers;	/* 0 sparse, 1 moderate, 2 clear */
	int			 risk;		/* index in levels */
	unsigned		 tags, labels;
	int			 conf[LAB_N];
	/* the many-small-gaps finding */
	int			 small, small_conf;
	int64_t			 small_num, small_den;
	char			 small_ev[1024];
};

static int
conf_of(const struct judge *j, int l)
{
	const struct sig *g = j->g;
	int c;

	if (l == LAB_INSUFFICIENT)
		return 0;
	c = sum_ge(g->lab_ns[l], g->sig_ns, 600000) ? 2 :
	    sum_ge(g->lab_ns[l], g->sig_ns, 300000) ? 1 : 0;
	if (l == LAB_PYTHON && !j->recurring)
		c--;
	if (!j->d->stacks || !j->d->shapes)
		c--;
	return c < 0 ? 0 : c;
}

/*
 * The soft root-cause family at scope level: each bubble label whose
 * share reaches --share-min; serialization only without a sync, comm or
 * launch label; insufficient_evidence when nothing else holds, the
 * many-small-gaps finding included.
 */
static void
judge_labels(struct judge *j)
{
	const struct sig *g = j->g;
	int l;

	for (l = 0; l < LAB_INSUFFICIENT; l++) {
		if (!sum_ge(g->lab_ns[l], g->sig_ns, aopt.share_min) ||
		    g->lab_n[l] == 0)
			continue;
		if (l == LAB_PYTHON && (j->labels & ((1u << LAB_SYNC) |
		    (1u << LAB_COMM) | (1u << LAB_LAUNCH))))
			continue;
		j->labels |= 1u << l;
	}
	if (j->labels == 0 && !j->small)
		j->labels = 1u << LAB_INSUFFICIENT;
	for (l = 0; l < LAB_N; l++)
		j->conf[l] = conf_of(j, l);
}

/* Add the sums of B to A (names left out: the evidence takes A's). */
static void
sig_merge(struct sig *a, const struct sig *b)
{
	int i;

	a->nsig += b->nsig;
	a->sig_ns += b->sig_ns;
	for (i = 0; i < FAM_N; i++)
		a->cov[i] += b->cov[i];
	for (i = 0; i <= CLS_N; i++)
		a->idle[i] += b->idle[i];
	a->thr_sum += b->thr_sum;
	for (i = 0; i < LAB_N; i++) {
		a->lab_ns[i] += b->lab_ns[i];
		a->lab_n[i] += b->lab_n[i];
	}
}

/*
 * The significant bubbles a scope is judged on: those inside the
 * capture, and the boundary ones too when they hold more time.
 */
static void
judge_sig(struct judge *j, const struct acc *a)
{
	j->g = &a->in;
	if (a->bnd.sig_ns <= a->in.sig_ns)
		return;
	j->both = a->in;
	memset(&j->both.names, 0, sizeof(j->both.names));
	sig_merge(&j->both, &a->bnd);
	nmap_addall(&j->both.names, &a->in.names);
	nmap_addall(&j->both.names, &a->bnd.names);
	j->g = &j->both;
	j->tags |= 1u << TAG_CAVEAT;
}

static void
judge(struct judge *j, const struct acc *a, const struct sdev *d,
    int64_t uf_num, int64_t uf_den)
{
	const struct sig *g;
	int high;

	memset(j, 0, sizeof(*j));
	j->a = a;
	j->d = d;
	j->uf_num = uf_num;
	j->uf_den = uf_den;
	judge_sig(j, a);
	g = j->g;
	high = uf_den > 0 && sum_ge(uf_num, uf_den, aopt.underfeed_min);
	j->recurring = a->nsteps > 0 ? a->steps_bub * 10 >= a->nsteps * 6 :
	    g->nsig >= 2;
	j->markers = sum_ge(g->cov[FAM_HOST], g->sig_ns, aopt.clear_min) ? 2 :
	    sum_ge(g->cov[FAM_HOST], g->sig_ns, aopt.untraced_max) ? 1 : 0;
	j->risk = !high ? 0 : j->markers == 2 ? 2 : 1;
	if (a->nboundary > 0)
		j->tags |= 1u << TAG_BOUNDARY;
	if (g->nsig > 0) {	/* risks need a significant bubble */
		if (high && j->recurring && j->markers > 0)
			j->tags |= 1u << TAG_HOST;
		if ((high && j->markers == 0) || !d->hosts)
			j->tags |= 1u << TAG_UNTRACED;
		if (sum_ge(g->cov[FAM_COMM], g->sig_ns, aopt.comm_min))
			j->tags |= 1u << TAG_COMM;
	}
	j->small = small_judge(a->small, a->nsteps, a->service, a->step_ns,
	    &j->small_num, &j->small_den, &j->small_conf, j->small_ev,
	    sizeof(j->small_ev));
	judge_labels(j);
}

static void
judge_free(struct judge *j)
{
	nmap_free(&j->both.names);
}

/* Append printf-style text to BUF (of size CAP) at *N. */
static void
app(char *buf, size_t cap, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
app(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n >= cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = *n + (size_t)k < cap ? *n + (size_t)k : cap - 1;
}

/* NUM / DEN with 6 decimals, or "-" when DEN is 0. */
static const char *
ratio(char *buf, int64_t num, int64_t den)
{
	if (den <= 0)
		return "-";
	num_ratio(buf, num, den, 6);
	return buf;
}

/*
 * The follow-up actions of a scope, comma-separated; "" when none.  Only
 * for evidence this capture lacks: call stacks (no Python frames, and
 * no call-stack args declared by prof-ingest), input shapes (none on
 * any host event or kernel, none declared), host sampling when the host
 * is not traced enough to judge.
 */
static size_t
followup(const struct judge *j, char *buf, size_t cap)
{
	size_t n = 0;
	int l, best = 0;

	buf[0] = '\0';
	if (j->g->nsig == 0)
		return 0;
	for (l = 0; l < LAB_N; l++)
		if ((j->labels & (1u << l)) && j->conf[l] > best)
			best = j->conf[l];
	if (!j->d->stacks)
		app(buf, cap, &n, "%swith_stack=true", n ? "," : "");
	if (!j->d->shapes)
		app(buf, cap, &n, "%srecord_shapes=true", n ? "," : "");
	if ((j->tags & (1u << TAG_UNTRACED)) || (j->risk > 0 && best == 0))
		app(buf, cap, &n, "%shost_sampling", n ? "," : "");
	if (j->tags & (1u << TAG_COMM))
		app(buf, cap, &n, "%sinspect_comm_sync", n ? "," : "");
	return n;
}

/* The top host names over the significant bubbles G, as evidence. */
static void
evidence_names(const struct sig *g, char *buf, size_t cap, size_t *n)
{
	struct ncov top[3];
	char r[NUM_BUFSIZE];
	const char *s;
	size_t k, i, len;

	k = nmap_top(NT_HOST, &g->names, top, 3);
	for (i = 0; i < k; i++) {
		app(buf, cap, n, "%s%s ", i ? ", " : "; host events: ",
		    ratio(r, top[i].total, g->sig_ns));
		s = names_str(NT_HOST, top[i].id, &len);
		small_app_name(buf, cap, n, s, len);
	}
}

static size_t
evidence(const struct judge *j, int l, char *buf, size_t cap)
{
	const struct acc *a = j->a;
	const struct sig *g = j->g;
	char r1[NUM_BUFSIZE], r2[NUM_BUFSIZE], r3[NUM_BUFSIZE];
	char r4[NUM_BUFSIZE], r5[NUM_BUFSIZE];
	size_t n = 0;

	if (g->nsig == 0) {
		app(buf, cap, &n, "no significant bubble: %" PRId64 " bubbles, "
		    "%" PRId64 " at the capture boundary", a->nbub,
		    a->nboundary);
		return n;
	}
	app(buf, cap, &n, "%" PRId64 " of %" PRId64 " significant bubbles "
	    "(%" PRId64 " of %" PRId64 " ns)%s; idle sync %s input %s launch "
	    "%s host %s untraced %s", g->lab_n[l], g->nsig, g->lab_ns[l],
	    g->sig_ns, (j->tags & (1u << TAG_CAVEAT)) ? ", at the capture "
	    "boundary included" : "", ratio(r1, g->idle[CLS_SYNC], g->sig_ns),
	    ratio(r2, g->idle[CLS_INPUT], g->sig_ns),
	    ratio(r3, g->idle[CLS_LAUNCH], g->sig_ns),
	    ratio(r4, g->idle[CLS_HOST], g->sig_ns),
	    ratio(r5, g->idle[CLS_N], g->sig_ns));
	evidence_names(g, buf, cap, &n);
	app(buf, cap, &n, "; coverage host %s sync %s comm %s launch %s; "
	    "host_par %s", ratio(r1, g->cov[FAM_HOST], g->sig_ns),
	    ratio(r2, g->cov[FAM_SYNC], g->sig_ns),
	    ratio(r3, g->cov[FAM_COMM], g->sig_ns),
	    ratio(r4, g->cov[FAM_LAUNCH], g->sig_ns),
	    ratio(r5, g->thr_sum, g->cov[FAM_HOST]));
	app(buf, cap, &n, "; underfeed %s; host risk %s; steps with internal "
	    "bubbles %" PRId64 "/%" PRId64 "; prelaunch/internal/tail %" PRId64
	    "/%" PRId64 "/%" PRId64 " ns; stacks %s, shapes %s",
	    ratio(r1, j->uf_num, j->uf_den), levels[j->risk], a->steps_bub,
	    a->nsteps, a->pre_ns, a->int_ns, a->tail_ns,
	    j->d->stacks ? "yes" : "no", j->d->shapes ? "yes" : "no");
	return n;
}

static void
set_col(struct srec *r, struct stage *st, const char *col, const char *s,
    size_t len)
{
	int c = stage_col(st, col);

	if (c >= 0)
		srec_set(r, c, s, len);
}

/* One cause record of a scope, with the columns every one has. */
static struct srec *
cause_new(struct stage *st, int64_t end, const struct judge *j, int l,
    const char *scope, const char *group, const char *step)
{
	const char *target = step != NULL ? step : group;
	struct srec *r = stage_new(st, "cause", end);

	srec_set_i64(r, COL_DEV, j->d->id);
	srec_set_str(r, COL_NAME, labnames[l]);
	if (target != NULL)
		set_col(r, st, "target_id", target, strlen(target));
	if (group != NULL)
		set_col(r, st, "step_group", group, strlen(group));
	if (step != NULL)
		set_col(r, st, "step", step, strlen(step));
	set_col(r, st, "scope", scope, strlen(scope));
	return r;
}

/* The labels of J in the order written: largest share first. */
static size_t
label_order(const struct judge *j, int *order)
{
	size_t n = 0, i;
	int l;

	for (l = 0; l < LAB_N; l++) {
		if (!(j->labels & (1u << l)))
			continue;
		for (i = n++; i > 0 && j->g->lab_ns[order[i - 1]] <
		    j->g->lab_ns[l]; i--)
			order[i] = order[i - 1];
		order[i] = l;
	}
	return n;
}

/* Whether the small-gap finding's share is above that of label L. */
static int
small_above(const struct judge *j, int l)
{
	return (__int128)j->small_num * j->g->sig_ns >
	    (__int128)j->g->lab_ns[l] * j->small_den;
}

/* The many-small-gaps finding as its own launch_bound record. */
static void
write_small(struct stage *st, int64_t end, const struct judge *j,
    const char *scope, const char *group, const char *step)
{
	char val[NUM_BUFSIZE];
	struct srec *r;

	r = cause_new(st, end, j, LAB_LAUNCH_BOUND, scope, group, step);
	set_col(r, st, "tags", "many_small_gaps", 15);
	set_col(r, st, "value", val, num_ratio(val, j->small_num,
	    j->small_den, 6));
	set_col(r, st, "confidence", levels[j->small_conf],
	    strlen(levels[j->small_conf]));
	set_col(r, st, "evidence", j->small_ev, strlen(j->small_ev));
	stage_put(st, r);
}

/* One label's cause record. */
static void
write_label(struct stage *st, int64_t end, const struct judge *j, int l,
    const char *scope, const char *group, const char *step)
{
	char text[2048], fu[128], tags[192], val[NUM_BUFSIZE];
	size_t tn = 0, fn = followup(j, fu, sizeof(fu)), k;
	struct srec *r;
	int t;

	tags[0] = '\0';
	for (t = 0; t < TAG_N; t++)
		if (j->tags & (1u << t))
			app(tags, sizeof(tags), &tn, "%s%s", tn ? "," : "",
			    tagnames[t]);
	k = evidence(j, l, text, sizeof(text));
	if (l == LAB_LAUNCH_BOUND && j->small) {
		app(text, sizeof(text), &k, "; many small gaps: %s",
		    j->small_ev);
		app(tags, sizeof(tags), &tn, "%smany_small_gaps",
		    tn ? "," : "");
	}
	r = cause_new(st, end, j, l, scope, group, step);
	set_col(r, st, "tags", tags, tn);
	if (j->g->sig_ns > 0)
		set_col(r, st, "value", val, num_ratio(val, j->g->lab_ns[l],
		    j->g->sig_ns, 6));
	set_col(r, st, "confidence", levels[j->conf[l]],
	    strlen(levels[j->conf[l]]));
	set_col(r, st, "evidence", text, k);
	set_col(r, st, "followup", fu, fn);
	stage_put(st, r);
}

/*
 * The cause records of a scope, largest share first: one per label,
 * and the many-small-gaps finding in its place by its share, or within
 * the launch_bound record when the significant bubbles give that label
 * too; GROUP and STEP name the step group and step of a group or step
 * scope, its target.
 */
static void
write_scope(struct stage *st, int64_t end, const struct judge *j,
    const char *scope, const char *group, const char *step)
{
	int order[LAB_N], small = j->small &&
	    !(j->labels & (1u << LAB_LAUNCH_BOUND));
	size_t n = label_order(j, order), i;

	for (i = 0; i < n; i++) {
		if (small && small_above(j, order[i])) {
			write_small(st, end, j, scope, group, step);
			small = 0;
		}
		write_label(st, end, j, order[i], scope, group, step);
	}
	if (small)
		write_small(st, end, j, scope, group, step);
}

/*
 * A rank without any kernel or busy record (only communication data, as
 * some ranks of a cluster capture) has no device timeline: its
 * "bubbles" are no idle time, and one record says so.
 */
static void
write_nodevice(struct stage *st, int64_t end, const struct sdev *d)
{
	char text[160];
	struct srec *r = stage_new(st, "cause", end);
	int c;

	srec_set_i64(r, COL_DEV, d->id);
	srec_set_str(r, COL_NAME, labnames[LAB_INSUFFICIENT]);
	set_col(r, st, "scope", "global", 6);
	set_col(r, st, "tags", "no_device_data", 14);
	set_col(r, st, "confidence", levels[0], strlen(levels[0]));
	c = snprintf(text, sizeof(text), "no device data: no kernel or busy "
	    "record on this rank, so its %" PRId64 " bubbles are no device "
	    "idle time", d->a_step.nbub + d->a_glob.nbub);
	set_col(r, st, "evidence", text, (size_t)c);
	stage_put(st, r);
}

/*
 * A rank's global scope: its step bubbles when it has any, else its
 * whole-capture gaps; underfeed over the step service time, or over the
 * capture span without steps.
 */
static void
write_dev(struct stage *st, int64_t first, int64_t end, struct sdev *d)
{
	struct judge j;
	struct acc *a = d->a_step.nbub > 0 ? &d->a_step : &d->a_glob;
	struct step *s;
	size_t i;

	if (d->a_step.nbub == 0 && d->a_glob.nbub == 0)
		return;
	if (!sum_has_device(d->id)) {
		write_nodevice(st, end, d);
		return;
	}
	if (d->a_step.service > 0)
		judge(&j, a, d, d->a_step.step_ns, d->a_step.service);
	else
		judge(&j, a, d, a->step_ns + a->glob_ns, end - first);
	write_scope(st, end, &j, "global", NULL, NULL);
	judge_free(&j);
	for (i = 0; i < d->ngroups; i++) {
		a = &d->groups[i].a;
		judge(&j, a, d, a->step_ns, a->service);
		if (j.g->nsig > 0 || j.small)
			write_scope(st, end, &j, "group", d->groups[i].name,
			    NULL);
		judge_free(&j);
	}
	for (s = d->first; s != NULL && aopt.step_causes; s = s->later) {
		judge(&j, &s->a, d, s->a.step_ns, s->a.service);
		if (j.g->nsig > 0)
			write_scope(st, end, &j, "step",
			    d->groups[s->group].name, s->id);
		judge_free(&j);
	}
}

static int
cmp_dev(const void *x, const void *y)
{
	const struct sdev *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

void
sum_write(struct stage *st, int64_t first, int64_t end)
{
	size_t i;

	if (!any_bubble) {
		diag_at(stage_path(st), 0, "no bubble records in the input "
		    "(run prof-bubbles first)");
		return;
	}
	qsort(sdevs, nsdevs, sizeof(*sdevs), cmp_dev);
	for (i = 0; i < nsdevs; i++)
		write_dev(st, first, end, &sdevs[i]);
}
