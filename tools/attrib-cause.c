/*
 * The soft root-cause summary of prof-attrib, written as "cause" records
 * at the end of the stream: per rank its global scope, then its step
 * groups, then (with -S) its steps.  Each scope is judged from what
 * attrib-sum.c gathered: the labels whose share of the significant
 * bubble time reaches --share-min, the risk tags, the confidence, the
 * follow-ups that only ask for evidence the capture lacks, the
 * many-small-gaps finding (attrib-small.c), and the evidence as text.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "attrib-sum.h"
#include "diag.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

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
	sum_ns(&a->sig_ns, b->sig_ns);
	for (i = 0; i < FAM_N; i++)
		sum_ns(&a->cov[i], b->cov[i]);
	for (i = 0; i <= CLS_N; i++)
		sum_ns(&a->idle[i], b->idle[i]);
	a->thr_sum += b->thr_sum;
	for (i = 0; i < LAB_N; i++) {
		sum_ns(&a->lab_ns[i], b->lab_ns[i]);
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

/* NUM / DEN with 6 decimals, or "-" when DEN is 0. */
static const char *
ratio(char *buf, __int128 num, __int128 den)
{
	if (den <= 0)
		return "-";
	num_ratio_i128(buf, num, den, 6);
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
		attrib_app(buf, cap, &n, "%swith_stack=true", n ? "," : "");
	if (!j->d->shapes)
		attrib_app(buf, cap, &n, "%srecord_shapes=true", n ? "," : "");
	if ((j->tags & (1u << TAG_UNTRACED)) || (j->risk > 0 && best == 0))
		attrib_app(buf, cap, &n, "%shost_sampling", n ? "," : "");
	if (j->tags & (1u << TAG_COMM))
		attrib_app(buf, cap, &n, "%sinspect_comm_sync", n ? "," : "");
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
		attrib_app(buf, cap, n, "%s%s ", i ? ", " : "; host events: ",
		    ratio(r, top[i].cov.total, g->sig_ns));
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
		attrib_app(buf, cap, &n,
		    "no significant bubble: %" PRId64 " bubbles, "
		    "%" PRId64 " at the capture boundary", a->nbub,
		    a->nboundary);
		return n;
	}
	attrib_app(buf, cap, &n,
	    "%" PRId64 " of %" PRId64 " significant bubbles "
	    "(%" PRId64 " of %" PRId64 " ns)%s; idle sync %s input %s launch "
	    "%s host %s untraced %s", g->lab_n[l], g->nsig, g->lab_ns[l],
	    g->sig_ns, (j->tags & (1u << TAG_CAVEAT)) ? ", at the capture "
	    "boundary included" : "", ratio(r1, g->idle[CLS_SYNC], g->sig_ns),
	    ratio(r2, g->idle[CLS_INPUT], g->sig_ns),
	    ratio(r3, g->idle[CLS_LAUNCH], g->sig_ns),
	    ratio(r4, g->idle[CLS_HOST], g->sig_ns),
	    ratio(r5, g->idle[CLS_N], g->sig_ns));
	evidence_names(g, buf, cap, &n);
	attrib_app(buf, cap, &n,
	    "; coverage host %s sync %s comm %s launch %s; "
	    "host_par %s", ratio(r1, g->cov[FAM_HOST], g->sig_ns),
	    ratio(r2, g->cov[FAM_SYNC], g->sig_ns),
	    ratio(r3, g->cov[FAM_COMM], g->sig_ns),
	    ratio(r4, g->cov[FAM_LAUNCH], g->sig_ns),
	    ratio(r5, g->thr_sum, g->cov[FAM_HOST]));
	attrib_app(buf, cap, &n,
	    "; underfeed %s; host risk %s; steps with internal "
	    "bubbles %" PRId64 "/%" PRId64 "; prelaunch/internal/tail %" PRId64
	    "/%" PRId64 "/%" PRId64 " ns; stacks %s, shapes %s",
	    ratio(r1, j->uf_num, j->uf_den), levels[j->risk], a->steps_bub,
	    a->nsteps, a->pre_ns, a->int_ns, a->tail_ns,
	    j->d->stacks ? "yes" : "no", j->d->shapes ? "yes" : "no");
	return n;
}

static void
set_col(struct srec *r, int col, const char *s, size_t len)
{
	if (col >= 0)
		srec_set(r, col, s, len);
}

/* One cause record of a scope, with the columns every one has. */
static struct srec *
cause_new(struct stage *st, int64_t end, const struct judge *j, int l,
    const char *scope, const char *group, const char *step)
{
	const struct attrib_cols *cols = stage_columns(st);
	const char *target = step != NULL ? step : group;
	struct srec *r = stage_new(st, "cause", end);

	srec_set_str(r, COL_DEV, bub_dev_name(j->d->id));
	srec_set_str(r, COL_NAME, sum_labname(l));
	if (target != NULL)
		set_col(r, cols->target, target, strlen(target));
	if (group != NULL)
		set_col(r, cols->group, group, strlen(group));
	if (step != NULL)
		set_col(r, cols->step, step, strlen(step));
	set_col(r, cols->scope, scope, strlen(scope));
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
	const struct attrib_cols *cols = stage_columns(st);
	char val[NUM_BUFSIZE];
	struct srec *r;

	r = cause_new(st, end, j, LAB_LAUNCH_BOUND, scope, group, step);
	set_col(r, cols->tags, "many_small_gaps", 15);
	set_col(r, cols->value, val, num_ratio(val, j->small_num,
	    j->small_den, 6));
	set_col(r, cols->confidence, levels[j->small_conf],
	    strlen(levels[j->small_conf]));
	set_col(r, cols->evidence, j->small_ev, strlen(j->small_ev));
	stage_put(st, r);
}

/* One label's cause record. */
static void
write_label(struct stage *st, int64_t end, const struct judge *j, int l,
    const char *scope, const char *group, const char *step)
{
	const struct attrib_cols *cols = stage_columns(st);
	char text[2048], fu[128], tags[192], val[NUM_BUFSIZE];
	size_t tn = 0, fn = followup(j, fu, sizeof(fu)), k;
	struct srec *r;
	int t;

	tags[0] = '\0';
	for (t = 0; t < TAG_N; t++)
		if (j->tags & (1u << t))
			attrib_app(tags, sizeof(tags), &tn,
			    "%s%s", tn ? "," : "",
			    tagnames[t]);
	k = evidence(j, l, text, sizeof(text));
	if (l == LAB_LAUNCH_BOUND && j->small) {
		attrib_app(text, sizeof(text), &k, "; many small gaps: %s",
		    j->small_ev);
		attrib_app(tags, sizeof(tags), &tn, "%smany_small_gaps",
		    tn ? "," : "");
	}
	r = cause_new(st, end, j, l, scope, group, step);
	set_col(r, cols->tags, tags, tn);
	if (j->g->sig_ns > 0)
		set_col(r, cols->value, val, num_ratio(val, j->g->lab_ns[l],
		    j->g->sig_ns, 6));
	set_col(r, cols->confidence, levels[j->conf[l]],
	    strlen(levels[j->conf[l]]));
	set_col(r, cols->evidence, text, k);
	set_col(r, cols->followup, fu, fn);
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
	const struct attrib_cols *cols = stage_columns(st);
	char text[160];
	struct srec *r = stage_new(st, "cause", end);
	int c;

	srec_set_str(r, COL_DEV, bub_dev_name(d->id));
	srec_set_str(r, COL_NAME, sum_labname(LAB_INSUFFICIENT));
	set_col(r, cols->scope, "global", 6);
	set_col(r, cols->tags, "no_device_data", 14);
	set_col(r, cols->confidence, levels[0], strlen(levels[0]));
	c = snprintf(text, sizeof(text), "no device data: no kernel or busy "
	    "record on this rank, so its %" PRId64 " bubbles are no device "
	    "idle time", d->a_step.nbub + d->a_glob.nbub);
	set_col(r, cols->evidence, text, (size_t)c);
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
	const struct sdev *const *a = x, *const *b = y;

	return bub_dev_cmp((*a)->id, (*b)->id);
}

void
sum_write(struct stage *st, int64_t first, int64_t end)
{
	struct sdev **order;
	size_t i;

	if (!sum_any_bubble) {
		if (!stage_failed(st))
			diag_at(stage_path(st), 0, "no bubble records in the "
			    "input (run prof-bubbles first)");
		return;
	}
	/* in rank order; sdevs stays indexed by id */
	order = xreallocarray(NULL, nsdevs + 1, sizeof(*order));
	for (i = 0; i < nsdevs; i++)
		order[i] = &sdevs[i];
	if (nsdevs > 1)
		qsort(order, nsdevs, sizeof(*order), cmp_dev);
	for (i = 0; i < nsdevs; i++)
		write_dev(st, first, end, order[i]);
	free(order);
	if (sum_overflow)
		stage_error(st, "bubble or window records of a rank overlap: "
		    "a sum of their times passes 2^63 - 1 ns, where it was "
		    "held");
}
