/*
 * Read a prof-tsv stream into the model the reports are made from.
 *
 * Only summary records and bounded lists are kept: windows with their
 * per-step metrics (one entry per step), group statistics, capture gap
 * metrics, causes, the longest bubbles of each rank (a fixed-size list)
 * and the costliest ops.  Kernels and host events are only counted.
 * The spans of the timeline chart and the kernels of the roofline chart
 * are kept only when a chart asks for them (see prof-render(1), CAVEATS).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "diag.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

const char *const render_step_metric[SM_N] = {
	"service_ns", "busy_union_ns", "underfeed_ns", "underfeed_ratio",
	"prelaunch_gap_ns", "tail_gap_ns", "internal_bubble_total_ns",
	"largest_internal_bubble_ns", "bubble_count", "inter_step_gap_ns",
	"kernel_count", "significant_bubble_count"
};

const char *const render_host_class[HC_N] = {
	"sync", "input", "launch", "host", "untraced"
};

const char *const render_aicpu_tag[AC_N] = {
	"AICPU_MASKED_BUT_UNDESIRABLE", "AICPU_PARTIALLY_EXPOSED",
	"AICPU_EXPOSED_NOT_ALLOWED", "AICPU_EXPOSED_RISK"
};

/* The columns read, by name (-1 when the stream lacks one). */
enum {
	C_STEP, C_GROUP, C_TAGS, C_VALUE, C_CAT, C_CORE, C_BUBBLE_ID,
	C_PREV_NAME, C_PREV_CORE, C_PREV_DUR, C_PREV_TRACK, C_NEXT_NAME,
	C_NEXT_CORE, C_NEXT_DUR, C_NEXT_TRACK, C_HOST_COV, C_SYNC_COV,
	C_COMM_COV, C_HOST_PAR, C_LABELS, C_CONFIDENCE, C_SCOPE, C_TARGET,
	C_EVIDENCE, C_FOLLOWUP, C_CALLS, C_DUR_AVG, C_WAIT_AVG, C_COST_AVG,
	C_COST_TOTAL, C_WAIT_RATIO, C_RANK_COST, C_RANK_DUR, C_MASKED,
	C_AI, C_FLOPS, C_BOUND, C_DTYPE, C_SHARE, C_STAKE, C_WINDOW, C_STEPS,
	C_SECOND, C_SECOND_RATIO, C_MFU, C_MFU_COV, C_CHIP, C_PIPE, C_BUDGET,
	C_PER_STEP, C_ORDER, C_PRIO, C_TEXT, C_HOST_CLASS,
	C_COVERED, C_HOST_TOP, C_PASS, C_LAYER, C_LTYPE, C_PHASE, C_LIDLE,
	C_LGAP, C_BBUSY, C_SBUSY, C_BCOST, C_SCOST, C_MIX, C_IDLE,
	C_N = C_IDLE + HC_N
};
static const char *const colname[C_N] = {
	"step", "step_group", "tags", "value", "cat", "core", "bubble_id",
	"prev_name", "prev_core", "prev_dur_ns", "prev_track", "next_name",
	"next_core", "next_dur_ns", "next_track", "host_cov_ratio",
	"sync_cov_ratio", "comm_cov_ratio", "host_par", "labels",
	"confidence", "scope", "target_id", "evidence", "followup", "calls",
	"dur_avg_ns", "wait_avg_ns", "cost_avg_ns", "cost_total_ns",
	"wait_ratio", "rank_cost", "rank_dur", "masked_ratio", "ai", "flops",
	"bound", "dtype", "share_ratio", "stake_ns", "window_ns", "steps",
	"second", "second_ratio", "mfu_ratio", "mfu_cov_ratio", "chip", "pipe",
	"budget_ns", "per_step_ns", "order", "prio", "text",
	"host_class", "covered_ns", "host_top", "pass", "layer", "layer_type",
	"phase", "idle_ns", "gap_ns", "block_busy_ns", "side_busy_ns",
	"block_cost_ns", "side_cost_ns", "task_mix", "idle_sync_ns",
	"idle_input_ns",
	"idle_launch_ns", "idle_host_ns", "idle_untraced_ns"
};

/* The reading: the input, where its columns are, what is being built. */
struct reader {
	struct tsvr		*in;
	int			 col[C_N];
	struct rmodel		*m;
	const struct render_opts *opts;
	/* the ranks by name, items a struct rdev pointer (devtab.h) */
	struct devtab		 ranks;
	size_t			 capdevs;
};

/* Field C (one of the C_ indices) as a fresh string; "" when absent. */
static char *
fld(struct reader *rd, int c)
{
	size_t n;
	const char *s;

	if (rd->col[c] < 0)
		return xstrdup("");
	s = tsvr_field(rd->in, (size_t)rd->col[c], &n);
	return xstrndup(s, n);
}

static const char *
get(struct reader *rd, int c)
{
	size_t n;

	if (rd->col[c] < 0)
		return "";
	return tsvr_field(rd->in, (size_t)rd->col[c], &n);
}

static const char *
fixed(struct reader *rd, size_t i)
{
	size_t n;

	return tsvr_field(rd->in, i, &n);
}

/* Field C checked to be a decimal number, or empty. */
static char *
num(struct reader *rd, int c)
{
	char *s = fld(rd, c);

	if (*s != '\0' && !dec_valid(s))
		diag_at_fatal(EXIT_BAD, tsvr_path(rd->in), tsvr_lineno(rd->in),
		    "column '%s': invalid number '%.60s'", colname[c], s);
	return s;
}

/*
 * The rank ID, made on first sight: found by hash (a job of 100,000
 * ranks), in order of first sight until model_read() sorts them.
 */
static struct rdev *
dev_of(struct reader *rd, const char *id)
{
	int isnew;
	struct rdev **slot = devtab_get(&rd->ranks, id, strlen(id), &isnew);

	if (!isnew)
		return *slot;
	*slot = xcalloc(1, sizeof(**slot));
	(*slot)->id = xstrdup(id);
	if (rd->m->ndevs == rd->capdevs) {
		rd->capdevs = rd->capdevs ? 2 * rd->capdevs : 16;
		rd->m->devs = xreallocarray(rd->m->devs, rd->capdevs,
		    sizeof(*rd->m->devs));
	}
	rd->m->devs[rd->m->ndevs++] = *slot;
	return *slot;
}

/* Ranks in the order of every report: numbers by value, then text. */
static int
rank_cmp(const void *a, const void *b)
{
	return devtab_cmp((*(struct rdev *const *)a)->id,
	    (*(struct rdev *const *)b)->id);
}

static void
kv_add(struct rkv **v, size_t *n, const char *name, char *value)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[*n].name = xstrdup(name);
	(*v)[*n].value = value;
	(*n)++;
}

/*
 * A peak_* metric of prof-roofline, kept as "NAME DTYPE" (the dtype of a
 * FLOP/s peak, when the stream has the column) so that the roofline
 * chart can label each roof with what it is.
 */
static void
peak_add(struct reader *rd, const char *name)
{
	char key[128];
	const char *dt = get(rd, C_DTYPE);

	snprintf(key, sizeof(key), "%s%s%s", name, *dt != '\0' ? " " : "",
	    dt);
	kv_add(&rd->m->peaks, &rd->m->npeaks, key, num(rd, C_VALUE));
	/* the chip, and whether the trace named it (the chart says so) */
	if (rd->m->peak_chip == NULL) {
		rd->m->peak_chip = fld(rd, C_CHIP);
		rd->m->peak_tags = fld(rd, C_TAGS);
	}
}

static struct rgroup *
group_of(struct rdev *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->ngroups; i++)
		if (strcmp(d->groups[i].id, id) == 0)
			return &d->groups[i];
	d->groups = xreallocarray(d->groups, d->ngroups + 1,
	    sizeof(*d->groups));
	memset(&d->groups[d->ngroups], 0, sizeof(*d->groups));
	d->groups[d->ngroups].id = xstrdup(id);
	return &d->groups[d->ngroups++];
}

static void
on_window(struct reader *rd, struct rdev *d)
{
	struct rstep *s;

	if (d->nsteps == d->capsteps) {
		d->capsteps = d->capsteps ? 2 * d->capsteps : 16;
		d->steps = xreallocarray(d->steps, d->capsteps,
		    sizeof(*d->steps));
	}
	s = &d->steps[d->nsteps++];
	memset(s, 0, sizeof(*s));
	s->step = fld(rd, C_STEP);
	s->name = xstrdup(fixed(rd, 5));
	s->group = fld(rd, C_GROUP);
	s->tags = fld(rd, C_TAGS);
	s->cat = fld(rd, C_CAT);
	s->ts = tsvr_i64(rd->in, 1, NULL);
	s->dur = tsvr_i64(rd->in, 2, NULL);
}

/* A per-step metric goes to its window, the latest one of that step. */
static int
on_step_metric(struct reader *rd, struct rdev *d, const char *name)
{
	const char *step = get(rd, C_STEP);
	size_t i, k;

	for (k = 0; k < SM_N; k++)
		if (strcmp(name, render_step_metric[k]) == 0)
			break;
	if (k == SM_N)
		return 1;
	for (i = d->nsteps; i > 0; i--)
		if (strcmp(d->steps[i - 1].step, step) == 0) {
			free(d->steps[i - 1].m[k]);
			d->steps[i - 1].m[k] = num(rd, C_VALUE);
			return 1;
		}
	return 1;
}

static void
on_metric(struct reader *rd, struct rdev *d)
{
	const char *name = fixed(rd, 5);

	if (*get(rd, C_STEP) != '\0') {
		on_step_metric(rd, d, name);
		return;
	}
	if (strncmp(name, "peak_", 5) == 0) {
		peak_add(rd, name);
		return;
	}
	if (strcmp(name, "top_gap_start_ns") == 0) {
		d->gaps = xreallocarray(d->gaps, d->ngaps + 1,
		    sizeof(*d->gaps));
		memset(&d->gaps[d->ngaps], 0, sizeof(*d->gaps));
		d->gaps[d->ngaps].start = tsvr_i64(rd->in,
		    (size_t)rd->col[C_VALUE],
		    NULL);
		d->gaps[d->ngaps++].bubble_id = fld(rd, C_BUBBLE_ID);
		return;
	}
	if (strcmp(name, "top_gap_ns") == 0 && d->ngaps > 0) {
		struct rgap *g = &d->gaps[d->ngaps - 1];
		int64_t end;
		g->dur = tsvr_i64(rd->in, (size_t)rd->col[C_VALUE], NULL);
		if (g->dur < 0 || __builtin_add_overflow(g->start, g->dur,
		    &end))
			diag_at_fatal(EXIT_BAD, tsvr_path(rd->in),
			    tsvr_lineno(rd->in),
			    "column 'value': invalid gap length '%s'",
			    get(rd, C_VALUE));
		return;
	}
	if (*get(rd, C_GROUP) != '\0') {
		struct rgroup *g = group_of(d, get(rd, C_GROUP));
		kv_add(&g->stat, &g->nstat, name, num(rd, C_VALUE));
		return;
	}
	if (strncmp(name, "capture_", 8) == 0 ||
	    strcmp(name, "largest_gap_ns") == 0) {
		if (strcmp(name, "largest_gap_ns") == 0) {
			free(d->largest_gap_tags);
			d->largest_gap_tags = fld(rd, C_TAGS);
		}
		kv_add(&d->cap, &d->ncap, name, num(rd, C_VALUE));
		return;
	}
	if (strcmp(name, "wait_recorded") == 0 ||
	    strcmp(name, "variable_shape_checked") == 0 ||
	    strcmp(name, "step_detect_confidence") == 0) {
		char *v = fld(rd, C_VALUE), *t = fld(rd, C_TAGS);
		size_t n = strlen(v) + strlen(t) + 2;
		char *s = xmalloc(n);
		snprintf(s, n, "%s%s%s", v, *t ? " " : "", t);
		free(v);
		free(t);
		kv_add(&d->flags, &d->nflags, name, s);
	}
}

static void
bubble_free(struct rbubble *b)
{
	char **f[] = { &b->id, &b->scope, &b->step, &b->group, &b->tags,
	    &b->labels, &b->host_cov, &b->sync_cov, &b->comm_cov,
	    &b->host_par, &b->prev_name, &b->prev_core, &b->prev_dur,
	    &b->prev_track, &b->next_name, &b->next_core, &b->next_dur,
	    &b->next_track, &b->host_top };
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		free(*f[i]);
	for (i = 0; i < HC_N; i++)
		free(b->idle[i]);
}

static size_t
label_index(struct reader *rd, const char *labels)
{
	char first[128];
	size_t i, n = strcspn(labels, ",");

	if (n >= sizeof(first))
		n = sizeof(first) - 1;
	memcpy(first, labels, n);
	first[n] = '\0';
	for (i = 0; i < rd->m->nlabels; i++)
		if (strcmp(rd->m->labels[i], first) == 0)
			return i;
	rd->m->labels = xreallocarray(rd->m->labels, rd->m->nlabels + 1,
	    sizeof(*rd->m->labels));
	rd->m->labels[rd->m->nlabels] = xstrdup(first);
	return rd->m->nlabels++;
}

static void
span_add(struct reader *rd, struct rdev *d, int64_t ts, int64_t dur, int what)
{
	if (!rd->opts->spans)
		return;
	if (d->nspans == d->capspans) {
		d->capspans = d->capspans ? 2 * d->capspans : 256;
		d->spans = xreallocarray(d->spans, d->capspans,
		    sizeof(*d->spans));
	}
	d->spans[d->nspans].ts = ts;
	d->spans[d->nspans].dur = dur;
	d->spans[d->nspans++].what = what;
}

/*
 * Keep the bubble when it is among the longest render_opts.top of its
 * rank (earlier first among equal lengths: input order is time order).
 */
static void
on_bubble(struct reader *rd, struct rdev *d)
{
	static const char *const scopes[4] = {
		"prelaunch", "step_internal", "tail", "global"
	};
	struct rbubble b;
	int64_t dur = tsvr_i64(rd->in, 2, NULL);
	size_t i, pos;

	d->nbubbles++;
	for (i = 0; i < 4; i++)
		if (strcmp(fixed(rd, 5), scopes[i]) == 0)
			d->nscope[i]++;
	span_add(rd, d, tsvr_i64(rd->in, 1, NULL), dur, 2 + (int)label_index(rd,
	    
	    *get(rd, C_LABELS) ? get(rd, C_LABELS) : "unlabelled"));
	for (pos = d->ntop; pos > 0 && d->top[pos - 1].dur < dur; pos--)
		;
	if (pos >= rd->opts->top)
		return;
	memset(&b, 0, sizeof(b));
	b.ts = tsvr_i64(rd->in, 1, NULL);
	b.dur = dur;
	b.id = fld(rd, C_BUBBLE_ID);
	b.scope = xstrdup(fixed(rd, 5));
	b.step = fld(rd, C_STEP);
	b.group = fld(rd, C_GROUP);
	b.tags = fld(rd, C_TAGS);
	b.labels = fld(rd, C_LABELS);
	b.host_cov = num(rd, C_HOST_COV);
	b.sync_cov = num(rd, C_SYNC_COV);
	b.comm_cov = num(rd, C_COMM_COV);
	b.host_par = num(rd, C_HOST_PAR);
	b.prev_name = fld(rd, C_PREV_NAME);
	b.prev_core = fld(rd, C_PREV_CORE);
	b.prev_dur = num(rd, C_PREV_DUR);
	b.prev_track = fld(rd, C_PREV_TRACK);
	b.next_name = fld(rd, C_NEXT_NAME);
	b.next_core = fld(rd, C_NEXT_CORE);
	b.next_dur = num(rd, C_NEXT_DUR);
	b.next_track = fld(rd, C_NEXT_TRACK);
	b.host_top = fld(rd, C_HOST_TOP);
	for (i = 0; i < HC_N; i++)
		b.idle[i] = num(rd, C_IDLE + (int)i);
	if (d->ntop == rd->opts->top)
		bubble_free(&d->top[--d->ntop]);
	else
		d->top = xreallocarray(d->top, d->ntop + 1, sizeof(*d->top));
	memmove(&d->top[pos + 1], &d->top[pos],
	    (d->ntop - pos) * sizeof(*d->top));
	d->top[pos] = b;
	d->ntop++;
}

static void
on_cause(struct reader *rd, struct rdev *d)
{
	struct rcause *c;

	d->causes = xreallocarray(d->causes, d->ncauses + 1,
	    sizeof(*d->causes));
	c = &d->causes[d->ncauses++];
	c->label = xstrdup(fixed(rd, 5));
	c->value = num(rd, C_VALUE);
	c->confidence = fld(rd, C_CONFIDENCE);
	c->scope = fld(rd, C_SCOPE);
	c->target = fld(rd, C_TARGET);
	c->evidence = fld(rd, C_EVIDENCE);
	c->followup = fld(rd, C_FOLLOWUP);
	c->tags = fld(rd, C_TAGS);
}

static void
verdict_free(struct rverdict *v)
{
	char **f[] = { &v->cls, &v->scope, &v->group, &v->steps, &v->share,
	    &v->stake, &v->window, &v->confidence, &v->second,
	    &v->second_ratio, &v->mfu, &v->mfu_cov, &v->chip, &v->pipe,
	    &v->evidence, &v->tags };
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		free(*f[i]);
}

static void
verdict_fill(struct reader *rd, struct rverdict *v)
{
	v->cls = xstrdup(fixed(rd, 5));
	v->scope = fld(rd, C_SCOPE);
	v->group = fld(rd, C_GROUP);
	v->steps = num(rd, C_STEPS);
	v->share = num(rd, C_SHARE);
	v->stake = num(rd, C_STAKE);
	v->window = num(rd, C_WINDOW);
	v->confidence = fld(rd, C_CONFIDENCE);
	v->second = fld(rd, C_SECOND);
	v->second_ratio = num(rd, C_SECOND_RATIO);
	v->mfu = num(rd, C_MFU);
	v->mfu_cov = num(rd, C_MFU_COV);
	v->chip = fld(rd, C_CHIP);
	v->pipe = fld(rd, C_PIPE);
	v->evidence = fld(rd, C_EVIDENCE);
	v->tags = fld(rd, C_TAGS);
}

/* prof-verdict's verdict of the run (the last one wins) or of a group. */
static void
on_verdict(struct reader *rd, struct rdev *d)
{
	struct rverdict *v;

	rd->m->has_verdict = 1;
	if (strcmp(get(rd, C_SCOPE), "group") == 0) {
		d->gverdicts = xreallocarray(d->gverdicts, d->ngverdicts + 1,
		    sizeof(*d->gverdicts));
		v = &d->gverdicts[d->ngverdicts++];
	} else {
		if (d->verdict == NULL)
			d->verdict = xmalloc(sizeof(*d->verdict));
		else
			verdict_free(d->verdict);
		v = d->verdict;
	}
	verdict_fill(rd, v);
}

/* The budget of the run and of each group; a step's is in its window. */
static void
on_budget(struct reader *rd, struct rdev *d)
{
	struct rbudget *b;

	if (strcmp(get(rd, C_SCOPE), "step") == 0)
		return;
	d->budget = xreallocarray(d->budget, d->nbudget + 1,
	    sizeof(*d->budget));
	b = &d->budget[d->nbudget++];
	b->part = xstrdup(fixed(rd, 5));
	b->scope = fld(rd, C_SCOPE);
	b->group = fld(rd, C_GROUP);
	b->steps = num(rd, C_STEPS);
	b->budget = num(rd, C_BUDGET);
	b->per_step = num(rd, C_PER_STEP);
	b->share = num(rd, C_SHARE);
	b->window = num(rd, C_WINDOW);
}

/*
 * A recommendation, kept in its rank order (the column order; input
 * order among equal or absent orders).
 */
static void
on_advice(struct reader *rd, struct rdev *d)
{
	struct radvice a;
	int absent = 1;
	size_t pos;

	rd->m->has_advice = 1;
	memset(&a, 0, sizeof(a));
	if (rd->col[C_ORDER] >= 0)
		a.rank = tsvr_i64(rd->in, (size_t)rd->col[C_ORDER], &absent);
	if (absent)
		a.rank = INT64_MAX;
	a.name = xstrdup(fixed(rd, 5));
	a.prio = fld(rd, C_PRIO);
	a.scope = fld(rd, C_SCOPE);
	a.target = fld(rd, C_TARGET);
	a.stake = num(rd, C_STAKE);
	a.share = num(rd, C_SHARE);
	a.evidence = fld(rd, C_EVIDENCE);
	a.text = fld(rd, C_TEXT);
	a.followup = fld(rd, C_FOLLOWUP);
	d->advice = xreallocarray(d->advice, d->nadvice + 1,
	    sizeof(*d->advice));
	for (pos = d->nadvice; pos > 0 && d->advice[pos - 1].rank > a.rank;
	    pos--)
		d->advice[pos] = d->advice[pos - 1];
	d->advice[pos] = a;
	d->nadvice++;
}

/* The host events during idle time: every group's, and the steps' up
 * to three per step shown (-s). */
static void
on_hostcov(struct reader *rd, struct rdev *d)
{
	struct rhostcov *h;

	if (strcmp(get(rd, C_SCOPE), "group") != 0 && d->nhostcov >=
	    3 * rd->opts->steps + 5 * d->ngroups)
		return;
	d->hostcov = xreallocarray(d->hostcov, d->nhostcov + 1,
	    sizeof(*d->hostcov));
	h = &d->hostcov[d->nhostcov++];
	h->name = xstrdup(fixed(rd, 5));
	h->scope = fld(rd, C_SCOPE);
	h->step = fld(rd, C_STEP);
	h->group = fld(rd, C_GROUP);
	h->cls = fld(rd, C_HOST_CLASS);
	h->covered = num(rd, C_COVERED);
	h->share = num(rd, C_SHARE);
}

/* Ops by cost rank up to render_opts.ops, and every op a rule tagged. */
static void
on_op(struct reader *rd, struct rdev *d)
{
	struct rop *o;
	int absent;
	int64_t rank = rd->col[C_RANK_COST] < 0 ? 0 :
	    tsvr_i64(rd->in, (size_t)rd->col[C_RANK_COST], &absent);
	const char *tags = get(rd, C_TAGS);

	if (rank > (int64_t)rd->opts->ops &&
	    !tag_has(tags, "WAIT_ANCHOR_FALSE_HOTSPOT") &&
	    strstr(tags, "AICPU_") == NULL)
		return;
	d->ops = xreallocarray(d->ops, d->nops + 1, sizeof(*d->ops));
	o = &d->ops[d->nops++];
	o->rank = rank;
	o->name = xstrdup(fixed(rd, 5));
	o->core = fld(rd, C_CORE);
	o->calls = num(rd, C_CALLS);
	o->dur_avg = num(rd, C_DUR_AVG);
	o->wait_avg = num(rd, C_WAIT_AVG);
	o->cost_avg = num(rd, C_COST_AVG);
	o->cost_total = num(rd, C_COST_TOTAL);
	o->wait_ratio = num(rd, C_WAIT_RATIO);
	o->rank_cost = fld(rd, C_RANK_COST);
	o->rank_dur = fld(rd, C_RANK_DUR);
	o->masked = num(rd, C_MASKED);
	o->tags = xstrdup(tags);
}

/* Kernels placed on the roofline: the longest maxpoints of each rank. */
static void
on_roof_kernel(struct reader *rd, struct rdev *d)
{
	const char *ai = get(rd, C_AI), *fl = get(rd, C_FLOPS);
	int64_t dur = tsvr_i64(rd->in, 2, NULL);
	size_t pos;

	if (*ai == '\0' || *fl == '\0' || dur <= 0)
		return;
	rd->m->has_roofline = 1;
	if (!rd->opts->points)
		return;
	for (pos = d->npoints; pos > 0 && d->points[pos - 1].dur < dur; pos--)
		;
	if (pos >= rd->opts->maxpoints)
		return;
	if (d->npoints == rd->opts->maxpoints) {
		free(d->points[--d->npoints].name);
		free(d->points[d->npoints].bound);
	} else
		d->points = xreallocarray(d->points, d->npoints + 1,
		    sizeof(*d->points));
	memmove(&d->points[pos + 1], &d->points[pos],
	    (d->npoints - pos) * sizeof(*d->points));
	/* Chart geometry only: the written numbers stay exact text. */
	d->points[pos].ai = strtod(ai, NULL);
	d->points[pos].flops_s = strtod(fl, NULL) * 1e9 / (double)dur;
	d->points[pos].dur = dur;
	d->points[pos].name = xstrdup(fixed(rd, 5));
	d->points[pos].bound = fld(rd, C_BOUND);
	d->npoints++;
}

static void
on_kernel(struct reader *rd, struct rdev *d)
{
	const char *tags = get(rd, C_TAGS), *core = get(rd, C_CORE);
	size_t k;

	d->nkernel++;
	if (strcmp(core, "AI_CPU") == 0)
		d->naicpu++;
	for (k = 0; k < AC_N; k++)
		if (tag_has(tags, render_aicpu_tag[k]))
			d->aicpu[k]++;
	on_roof_kernel(rd, d);
}

struct rkind *
model_kind(const struct rmodel *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nkinds; i++)
		if (strcmp(m->kinds[i].name, name) == 0)
			return &m->kinds[i];
	return NULL;
}

/* Derived kinds with extent other than the anomaly stages' own. */
static void
on_other(struct reader *rd, const char *kind)
{
	struct rkind *k = model_kind(rd->m, kind);

	if (k == NULL) {
		rd->m->kinds = xreallocarray(rd->m->kinds, rd->m->nkinds + 1,
		    sizeof(*rd->m->kinds));
		k = &rd->m->kinds[rd->m->nkinds++];
		k->name = xstrdup(kind);
		k->n = 0;
	}
	k->n++;
}

/* Column C as an integer, -1 when the stream lacks it or it is empty. */
static int64_t
opt_i64(struct reader *rd, int c)
{
	int absent;
	int64_t v;

	if (rd->col[c] < 0)
		return -1;
	v = tsvr_i64(rd->in, (size_t)rd->col[c], &absent);
	return absent ? -1 : v;
}

static int64_t
nonneg(int64_t v)
{
	return v > 0 ? v : 0;
}

static void
rlayer_free(struct rlayer *l)
{
	free(l->name);
	free(l->pass);
	free(l->layer);
	free(l->mix);
}

int
rlayer_idle_cmp(const struct rlayer *x, const struct rlayer *y)
{
	int64_t u = nonneg(x->idle) + nonneg(x->gap);
	int64_t v = nonneg(y->idle) + nonneg(y->gap);

	if (u != v)
		return u > v ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * A layer record: its place, for the bubbles, and its idle and parts.
 * The first RENDER_LAYERS_KEPT are kept for placing bubbles, and the
 * RENDER_IDLEST most idle of all, so that memory does not grow with a
 * capture whose period repeats over all of it.
 */
static void
on_layer(struct reader *rd, struct rdev *d, int64_t dur)
{
	struct rlayer l;
	size_t i;

	l.ts = tsvr_i64(rd->in, 1, NULL);
	l.dur = dur;
	l.name = xstrdup(fixed(rd, 5));
	l.pass = fld(rd, C_PASS);
	l.layer = fld(rd, C_LAYER);
	l.mix = fld(rd, C_MIX);
	l.idle = opt_i64(rd, C_LIDLE);
	l.gap = opt_i64(rd, C_LGAP);
	l.bbusy = opt_i64(rd, C_BBUSY);
	l.sbusy = opt_i64(rd, C_SBUSY);
	l.bcost = opt_i64(rd, C_BCOST);
	l.scost = opt_i64(rd, C_SCOST);
	l.kept = d->nlayers < RENDER_LAYERS_KEPT;
	if (l.kept) {
		d->layers = xreallocarray(d->layers, d->nlayers + 1,
		    sizeof(*d->layers));
		d->layers[d->nlayers++] = l;
	} else
		d->layers_past++;
	/* the most idle: copies, the text owned by layers when kept */
	if (d->nidlest == RENDER_IDLEST &&
	    rlayer_idle_cmp(&l, &d->idlest[RENDER_IDLEST - 1]) >= 0) {
		if (!l.kept)
			rlayer_free(&l);
		return;
	}
	if (d->nidlest == RENDER_IDLEST) {
		if (!d->idlest[RENDER_IDLEST - 1].kept)
			rlayer_free(&d->idlest[RENDER_IDLEST - 1]);
		d->nidlest--;
	}
	for (i = d->nidlest; i > 0 && rlayer_idle_cmp(&l,
	    &d->idlest[i - 1]) < 0; i--)
		d->idlest[i] = d->idlest[i - 1];
	d->idlest[i] = l;
	d->nidlest++;
}

/* A layer_type summary record: its layers' idle and parts. */
static void
on_ltype(struct reader *rd, struct rdev *d)
{
	struct rltype *t;

	d->ltypes = xreallocarray(d->ltypes, d->nltypes + 1,
	    sizeof(*d->ltypes));
	t = &d->ltypes[d->nltypes++];
	t->name = xstrdup(fixed(rd, 5));
	t->phase = fld(rd, C_PHASE);
	t->n = opt_i64(rd, C_VALUE);
	t->idle = opt_i64(rd, C_LIDLE);
	t->gap = opt_i64(rd, C_LGAP);
	t->bbusy = opt_i64(rd, C_BBUSY);
	t->sbusy = opt_i64(rd, C_SBUSY);
	t->bcost = opt_i64(rd, C_BCOST);
	t->scost = opt_i64(rd, C_SCOST);
}

static void
on_record(struct reader *rd)
{
	const char *kind = fixed(rd, 0);
	struct rdev *d;
	int absent;

	rd->m->nrecords++;
	/*
	 * Neither makes a rank: device records name every GPU the host had
	 * (prof-ingest), and prof-roofline's peaks belong to no device.
	 */
	if (strcmp(kind, "device") == 0)
		return;
	if (*fixed(rd, 3) == '\0') {
		if (strcmp(kind, "metric") == 0 && rd->col[C_VALUE] >= 0 &&
		    strncmp(fixed(rd, 5), "peak_", 5) == 0)
			peak_add(rd, fixed(rd, 5));
		return;
	}
	if (ranks_kind(kind) >= 0)	/* render-ranks.c keeps them */
		return;
	d = dev_of(rd, fixed(rd, 3));
	if (strcmp(kind, "kernel") == 0)
		on_kernel(rd, d);
	else if (strcmp(kind, "host") == 0)
		d->nhost++;
	else if (strcmp(kind, "comm") == 0)
		d->ncomm++;
	else if (strcmp(kind, "window") == 0) {
		on_window(rd, d);
		span_add(rd, d, tsvr_i64(rd->in, 1, NULL), tsvr_i64(rd->in, 2,
		    NULL), 0);
	} else if (strcmp(kind, "busy") == 0) {
		d->nbusy++;
		span_add(rd, d, tsvr_i64(rd->in, 1, NULL), tsvr_i64(rd->in, 2,
		    NULL), 1);
	} else if (strcmp(kind, "metric") == 0 && rd->col[C_VALUE] >= 0)
		on_metric(rd, d);
	else if (strcmp(kind, "group") == 0) {
		struct rgroup *g = group_of(d, fixed(rd, 5));
		free(g->size);
		g->size = num(rd, C_VALUE);
		g->dominant = tag_has(get(rd, C_TAGS), "dominant");
	} else if (strcmp(kind, "bubble_group") == 0) {
		struct rgroup *g = group_of(d, get(rd, C_GROUP));
		free(g->pattern);
		free(g->pattern_tags);
		g->pattern = xstrdup(fixed(rd, 5));
		g->pattern_tags = fld(rd, C_TAGS);
	} else if (strcmp(kind, "bubble") == 0)
		on_bubble(rd, d);
	else if (strcmp(kind, "cause") == 0)
		on_cause(rd, d);
	else if (strcmp(kind, "op") == 0)
		on_op(rd, d);
	else if (strcmp(kind, "verdict") == 0)
		on_verdict(rd, d);
	else if (strcmp(kind, "budget") == 0)
		on_budget(rd, d);
	else if (strcmp(kind, "advice") == 0)
		on_advice(rd, d);
	else if (strcmp(kind, "hostcov") == 0)
		on_hostcov(rd, d);
	else if (strcmp(kind, "layer_type") == 0)
		on_ltype(rd, d);
	else if (strcmp(kind, "flow") != 0 && strcmp(kind, "counter") != 0 &&
	    strcmp(kind, "step") != 0 && strcmp(kind, "mark") != 0) {
		int64_t dur = tsvr_i64(rd->in, 2, &absent);
		if (!absent)
			on_other(rd, kind);
		if (!absent && strcmp(kind, "layer") == 0)
			on_layer(rd, d, dur);
	}
}

/*
 * The last word of LINE that is not an option (after the program and its
 * version), as [*START, *END), or 0 when there is none.
 */
static int
last_operand(const char *line, const char **start, const char **end)
{
	const char *p = line, *w;
	int words = 0, found = 0;

	while (*p != '\0') {
		p += strspn(p, " ");
		if (*p == '\0')
			break;
		w = p;
		p += strcspn(p, " ");
		if (++words > 2 && *w != '-') {
			*start = w;
			*end = p;
			found = 1;
		}
	}
	return found;
}

/*
 * The profile's name: the last operand of prof-ingest (else the input
 * file), without its directory and its file suffixes.
 */
static char *
profile_name(const struct rmodel *m)
{
	static const char *const sfx[] = { ".gz", ".zst", ".bz2", ".xz",
	    ".json", ".trace", ".pt", ".csv", ".tar", ".zip", ".tsv" };
	const char *s = NULL, *e = NULL, *p;
	char *name;
	size_t i, n;
	int again = 1;

	for (i = 0; i < m->nstages; i++)
		if (strncmp(m->stages[i], "prof-ingest ", 12) == 0 &&
		    last_operand(m->stages[i], &s, &e))
			break;
	if (s == NULL) {
		if (m->path == NULL || strcmp(m->path, "-") == 0)
			return xstrdup("stdin");
		s = m->path;
		e = s + strlen(s);
	}
	while (e > s && e[-1] == '/')
		e--;
	for (p = e; p > s && p[-1] != '/'; p--)
		;
	if (p == e)
		return xstrdup("stdin");
	name = xstrndup(p, (size_t)(e - p));
	while (again) {
		again = 0;
		for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
			n = strlen(name);
			if (n > strlen(sfx[i]) + 1 &&
			    strcmp(name + n - strlen(sfx[i]), sfx[i]) == 0) {
				name[n - strlen(sfx[i])] = '\0';
				again = 1;
			}
		}
	}
	return name;
}

static void
read_preamble(struct reader *rd)
{
	size_t i, n = tsvr_npreamble(rd->in);
	const char *l, *o;

	if ((o = tsvr_meta(rd->in, "origin_ns")) != NULL)
		rd->m->origin = xstrdup(o);
	for (i = 0; i < n; i++) {
		l = tsvr_preamble(rd->in, i);
		if (strncmp(l, "stage ", 6) == 0) {
			rd->m->stages = xreallocarray(rd->m->stages,
			    rd->m->nstages + 1,
			    sizeof(*rd->m->stages));
			rd->m->stages[rd->m->nstages++] = xstrdup(l + 6);
		} else if (strncmp(l, "source ", 7) == 0) {
			rd->m->sources = xreallocarray(rd->m->sources,
			    rd->m->nsources + 1, sizeof(*rd->m->sources));
			rd->m->sources[rd->m->nsources++] = xstrdup(l + 7);
		}
	}
}

void
model_read(struct rmodel *m, const char *path, const struct render_opts *o,
    render_hook *hook, void *arg)
{
	struct reader r0, *rd = &r0;
	int64_t ts, dur;
	size_t i;
	int r;

	memset(rd, 0, sizeof(*rd));
	memset(m, 0, sizeof(*m));
	rd->m = m;
	rd->opts = o;
	devtab_init(&rd->ranks, sizeof(struct rdev *));
	m->path = path;
	if ((rd->in = tsvr_open_stream(path)) == NULL)
		exit(EXIT_BAD);
	/* A report is of something: an empty input is refused. */
	if (tsvr_ncols(rd->in) == 0)
		diag_at_fatal(EXIT_BAD, tsvr_path(rd->in), tsvr_lineno(rd->in),
		    "not a prof-tsv header: want 'kind ts_ns dur_ns dev "
		    "track name ...'");
	for (i = 0; i < C_N; i++)
		rd->col[i] = tsvr_col(rd->in, colname[i]);
	read_preamble(rd);
	m->name = xstrdup(rd->opts->name ? rd->opts->name :
	    "");
	/*
	 * The records are checked as every stage checks them (the one
	 * reader of the contract); a bad record ends the input.
	 */
	while ((r = tsvr_record(rd->in, &ts, &dur)) > 0) {
		on_record(rd);
		if (hook != NULL)
			hook(rd->in, arg);
	}
	m->damaged = tsvr_failed(rd->in);
	if (m->ndevs > 1)
		qsort(m->devs, m->ndevs, sizeof(*m->devs), rank_cmp);
	devtab_free(&rd->ranks);
	if (*m->name == '\0') {
		free(m->name);
		m->name = profile_name(m);
	}
	m->verdict_ran = m->has_verdict || m->has_advice ||
	    model_stage_ran(m, "prof-verdict");
	tsvr_close(rd->in);
}

int
model_stage_ran(const struct rmodel *m, const char *prog)
{
	size_t i, n = strlen(prog);

	for (i = 0; i < m->nstages; i++)
		if (strncmp(m->stages[i], prog, n) == 0 &&
		    (m->stages[i][n] == ' ' || m->stages[i][n] == '\0'))
			return 1;
	return 0;
}

const char *
model_cap(const struct rdev *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->ncap; i++)
		if (strcmp(d->cap[i].name, name) == 0)
			return d->cap[i].value;
	return NULL;
}

const char *
model_stat(const struct rgroup *g, const char *name)
{
	size_t i;

	for (i = 0; g != NULL && i < g->nstat; i++)
		if (strcmp(g->stat[i].name, name) == 0)
			return g->stat[i].value;
	return NULL;
}

/* The dominant group, or the first one, or NULL. */
struct rgroup *
model_dominant(const struct rdev *d)
{
	size_t i;

	for (i = 0; i < d->ngroups; i++)
		if (d->groups[i].dominant)
			return &d->groups[i];
	return d->ngroups > 0 ? &d->groups[0] : NULL;
}

/* The rank ID of M, or NULL: a binary search of the sorted ranks. */
const struct rdev *
model_dev(const struct rmodel *m, const char *id)
{
	size_t lo = 0, hi = m->ndevs, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = devtab_cmp(m->devs[mid]->id, id)) == 0)
			return m->devs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
