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
 * labelled but left out of the summary: the analysis rules forbid
 * blaming the host for a gap the capture cut.
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
	"possible_python_serialization_or_lock", "insufficient_evidence"
};

/* What a scope (a rank, or one of its step groups) gathered. */
struct acc {
	int64_t	nbub, nsig, sig_ns, nboundary;
	int64_t	cov[FAM_N];		/* significant bubbles only */
	int64_t	thr_sum;
	int64_t	lab_ns[LAB_N], lab_n[LAB_N];
	int64_t	pre_ns, int_ns, tail_ns, step_ns, glob_ns;
	int64_t	nsteps, steps_bub, service;
};

struct group {
	char		*name;
	struct acc	 a;
};

struct sdev {
	int64_t		 id;
	int		 hosts, stacks, shapes;
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
 * The labels of one bubble, in the reference order: the sync, comm and
 * untraced tests are independent; launch lag, then serialization, only
 * when nothing matched yet; insufficient evidence when nothing did.  The
 * thread-parallelism hint exists only when some host event covers the
 * bubble.
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
sum_dev(int64_t dev, int hosts, int stacks, int shapes)
{
	struct sdev *d = sdev_get(dev);

	d->hosts = hosts;
	d->stacks = stacks;
	d->shapes = shapes;
}

static void
acc_add(struct acc *a, const char *scope, size_t sclen, int boundary,
    int sig, const struct bubble_meas *m, unsigned labels)
{
	int i;

	a->nbub++;
	if (sclen == 6 && memcmp(scope, "global", 6) == 0)
		a->glob_ns += m->dur;
	else
		a->step_ns += m->dur;
	if (sclen == 9 && memcmp(scope, "prelaunch", 9) == 0)
		a->pre_ns += m->dur;
	else if (sclen == 4 && memcmp(scope, "tail", 4) == 0)
		a->tail_ns += m->dur;
	else if (sclen == 13 && memcmp(scope, "step_internal", 13) == 0)
		a->int_ns += m->dur;
	if (boundary)
		a->nboundary++;
	if (!sig || boundary)
		return;
	a->nsig++;
	a->sig_ns += m->dur;
	for (i = 0; i < FAM_N; i++)
		a->cov[i] += m->cov[i];
	a->thr_sum += m->thr_sum;
	for (i = 0; i < LAB_N; i++)
		if (labels & (1u << i)) {
			a->lab_ns[i] += m->dur;
			a->lab_n[i]++;
		}
}

/*
 * Significant: at least the floor and at least a tenth of its step's
 * service time (the rules' T = max(1 ms, 0.10 x service)).
 */
void
sum_bubble(int64_t dev, const char *step, size_t slen, const char *scope,
    size_t sclen, int boundary, const struct bubble_meas *m, unsigned labels)
{
	struct sdev *d = sdev_get(dev);
	struct step *s = NULL;
	int global = sclen == 6 && memcmp(scope, "global", 6) == 0, sig;

	any_bubble = 1;
	if (!global && slen > 0)
		s = *step_slot(dev, step, slen);
	sig = m->dur > 0 && m->dur >= aopt.significant_ns &&
	    (s == NULL || (__int128)m->dur * 10 >= s->a.service);
	acc_add(global ? &d->a_glob : &d->a_step, scope, sclen, boundary, sig,
	    m, labels);
	if (s == NULL)
		return;
	acc_add(&d->groups[s->group].a, scope, sclen, boundary, sig, m,
	    labels);
	acc_add(&s->a, scope, sclen, boundary, sig, m, labels);
	if (!s->bubbled && sclen == 13 &&
	    memcmp(scope, "step_internal", 13) == 0) {
		s->bubbled = 1;
		s->a.steps_bub = 1;
		d->groups[s->group].a.steps_bub++;
		d->a_step.steps_bub++;
	}
}

/* Risk tags of a scope. */
enum {
	TAG_HOST, TAG_UNTRACED, TAG_COMM, TAG_BOUNDARY, TAG_N
};
static const char *const tagnames[TAG_N] = {
	"HOST_ORIGINATED_RISK", "UNTRACED_HOST_BLOCKING_RISK", "COMM_SYNC_RISK",
	"PARTIAL_CAPTURE_BOUNDARY"
};
static const char *const levels[3] = { "low", "medium", "high" };

/* The judgement of one scope, from its accumulator. */
struct judge {
	const struct acc	*a;
	const struct sdev	*d;
	int64_t			 uf_num, uf_den;	/* underfeed */
	int			 recurring;
	int			 markers;	/* 0 sparse, 1 moderate, 2 clear */
	int			 risk;		/* index in levels */
	unsigned		 tags, labels;
	int			 conf[LAB_N];
};

static int
conf_of(const struct judge *j, int l)
{
	const struct acc *a = j->a;
	int c;

	if (l == LAB_INSUFFICIENT)
		return 0;
	c = sum_ge(a->lab_ns[l], a->sig_ns, 600000) ? 2 :
	    sum_ge(a->lab_ns[l], a->sig_ns, 300000) ? 1 : 0;
	if (l == LAB_PYTHON && !j->recurring)
		c--;
	if (!j->d->stacks || !j->d->shapes)
		c--;
	return c < 0 ? 0 : c;
}

/*
 * The soft root-cause family at scope level: each bubble label whose
 * share reaches --share-min; serialization only without a sync, comm or
 * launch label; insufficient_evidence when nothing else holds.
 */
static void
judge_labels(struct judge *j)
{
	const struct acc *a = j->a;
	int l;

	for (l = 0; l < LAB_INSUFFICIENT; l++) {
		if (!sum_ge(a->lab_ns[l], a->sig_ns, aopt.share_min) ||
		    a->lab_n[l] == 0)
			continue;
		if (l == LAB_PYTHON && (j->labels & ((1u << LAB_SYNC) |
		    (1u << LAB_COMM) | (1u << LAB_LAUNCH))))
			continue;
		j->labels |= 1u << l;
	}
	if (j->labels == 0)
		j->labels = 1u << LAB_INSUFFICIENT;
	for (l = 0; l < LAB_N; l++)
		j->conf[l] = conf_of(j, l);
}

static void
judge(struct judge *j, const struct acc *a, const struct sdev *d,
    int64_t uf_num, int64_t uf_den)
{
	int high;

	memset(j, 0, sizeof(*j));
	j->a = a;
	j->d = d;
	j->uf_num = uf_num;
	j->uf_den = uf_den;
	high = uf_den > 0 && sum_ge(uf_num, uf_den, aopt.underfeed_min);
	j->recurring = a->nsteps > 0 ? a->steps_bub * 10 >= a->nsteps * 6 :
	    a->nsig >= 2;
	j->markers = sum_ge(a->cov[FAM_HOST], a->sig_ns, aopt.clear_min) ? 2 :
	    sum_ge(a->cov[FAM_HOST], a->sig_ns, aopt.untraced_max) ? 1 : 0;
	j->risk = !high ? 0 : j->markers == 2 ? 2 : 1;
	if (a->nboundary > 0)
		j->tags |= 1u << TAG_BOUNDARY;
	if (a->nsig > 0) {	/* risks need a significant bubble */
		if (high && j->recurring && j->markers > 0)
			j->tags |= 1u << TAG_HOST;
		if ((high && j->markers == 0) || !d->hosts)
			j->tags |= 1u << TAG_UNTRACED;
		if (sum_ge(a->cov[FAM_COMM], a->sig_ns, aopt.comm_min))
			j->tags |= 1u << TAG_COMM;
	}
	judge_labels(j);
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

/* The follow-up actions of a scope, comma-separated; "" when none. */
static size_t
followup(const struct judge *j, char *buf, size_t cap)
{
	size_t n = 0;
	int l, best = 0;

	buf[0] = '\0';
	if (j->a->nsig == 0)
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

static size_t
evidence(const struct judge *j, int l, char *buf, size_t cap)
{
	const struct acc *a = j->a;
	char r1[NUM_BUFSIZE], r2[NUM_BUFSIZE], r3[NUM_BUFSIZE];
	char r4[NUM_BUFSIZE], r5[NUM_BUFSIZE];
	size_t n = 0;

	if (a->nsig == 0) {
		app(buf, cap, &n, "no significant bubble: %" PRId64 " bubbles, "
		    "%" PRId64 " at the capture boundary", a->nbub,
		    a->nboundary);
		return n;
	}
	app(buf, cap, &n, "%" PRId64 " of %" PRId64 " significant bubbles "
	    "(%" PRId64 " of %" PRId64 " ns); coverage host %s sync %s comm %s "
	    "launch %s; host_par %s", a->lab_n[l], a->nsig, a->lab_ns[l],
	    a->sig_ns, ratio(r1, a->cov[FAM_HOST], a->sig_ns),
	    ratio(r2, a->cov[FAM_SYNC], a->sig_ns),
	    ratio(r3, a->cov[FAM_COMM], a->sig_ns),
	    ratio(r4, a->cov[FAM_LAUNCH], a->sig_ns),
	    ratio(r5, a->thr_sum, a->cov[FAM_HOST]));
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

/*
 * One cause record per label of the scope; GROUP and STEP name the step
 * group and step of a group or step scope, its target.
 */
static void
write_scope(struct stage *st, int64_t end, const struct judge *j,
    const char *scope, const char *group, const char *step)
{
	const char *target = step != NULL ? step : group;

	char text[1024], fu[128], tags[160], val[NUM_BUFSIZE];
	size_t tn = 0, fn = followup(j, fu, sizeof(fu));
	struct srec *r;
	int l;

	for (l = 0; l < TAG_N; l++)
		if (j->tags & (1u << l))
			app(tags, sizeof(tags), &tn, "%s%s", tn ? "," : "",
			    tagnames[l]);
	for (l = 0; l < LAB_N; l++) {
		if (!(j->labels & (1u << l)))
			continue;
		r = stage_new(st, "cause", end);
		srec_set_i64(r, COL_DEV, j->d->id);
		srec_set_str(r, COL_NAME, labnames[l]);
		if (target != NULL)
			set_col(r, st, "target_id", target, strlen(target));
		if (group != NULL)
			set_col(r, st, "step_group", group, strlen(group));
		if (step != NULL)
			set_col(r, st, "step", step, strlen(step));
		set_col(r, st, "scope", scope, strlen(scope));
		set_col(r, st, "tags", tags, tn);
		if (j->a->sig_ns > 0)
			set_col(r, st, "value", val, num_ratio(val,
			    j->a->lab_ns[l], j->a->sig_ns, 6));
		set_col(r, st, "confidence", levels[j->conf[l]],
		    strlen(levels[j->conf[l]]));
		set_col(r, st, "evidence", text, evidence(j, l, text,
		    sizeof(text)));
		set_col(r, st, "followup", fu, fn);
		stage_put(st, r);
	}
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
	if (d->a_step.service > 0)
		judge(&j, a, d, d->a_step.step_ns, d->a_step.service);
	else
		judge(&j, a, d, a->step_ns + a->glob_ns, end - first);
	write_scope(st, end, &j, "global", NULL, NULL);
	for (i = 0; i < d->ngroups; i++) {
		a = &d->groups[i].a;
		if (a->nsig == 0)
			continue;
		judge(&j, a, d, a->step_ns, a->service);
		write_scope(st, end, &j, "group", d->groups[i].name, NULL);
	}
	for (s = d->first; s != NULL && aopt.step_causes; s = s->later) {
		if (s->a.nsig == 0)
			continue;
		judge(&j, &s->a, d, s->a.step_ns, s->a.service);
		write_scope(st, end, &j, "step", d->groups[s->group].name,
		    s->id);
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
