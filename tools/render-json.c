/*
 * -f json: the anomaly_discovery object of the analysis rules
 * (doc/analysis-rules.md, Reports; the schema is
 * tests/prof-render/anomaly_discovery.schema.json), every required field
 * present, plus extra fields the schema allows: dev on every array item,
 * per-device capture figures, per-step results, structure, AI CPU
 * classes and recommendations.
 *
 * Units follow the schema: timestamps in us from the stream's origin,
 * durations in ms, op averages in us.  Every number is the stage's own
 * decimal text with the point moved (dec_scale), so nothing is rounded.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

/* A small pretty-printing writer: one member or item per line. */
struct jw {
	FILE	*out;
	int	 depth, first[64], keyed;
};

static void
sep(struct jw *jw)
{
	if (jw->keyed) {
		jw->keyed = 0;
		return;
	}
	if (jw->depth > 0) {
		fputs(jw->first[jw->depth] ? "\n" : ",\n", jw->out);
		jw->first[jw->depth] = 0;
		fprintf(jw->out, "%*s", 2 * jw->depth, "");
	}
}

static void
open_(struct jw *jw, int c)
{
	sep(jw);
	putc(c, jw->out);
	jw->first[++jw->depth] = 1;
}

static void
close_(struct jw *jw, int c)
{
	if (!jw->first[jw->depth])
		fprintf(jw->out, "\n%*s", 2 * (jw->depth - 1), "");
	jw->depth--;
	putc(c, jw->out);
}

static void
key(struct jw *jw, const char *k)
{
	sep(jw);
	put_json_str(jw->out, k);
	fputs(": ", jw->out);
	jw->keyed = 1;
}

static void
str(struct jw *jw, const char *s)
{
	sep(jw);
	put_json_str(jw->out, s);
}

static void
str_or_null(struct jw *jw, const char *s)
{
	sep(jw);
	if (s == NULL || *s == '\0')
		fputs("null", jw->out);
	else
		put_json_str(jw->out, s);
}

static void
num(struct jw *jw, const char *s, int k)
{
	sep(jw);
	put_json_num(jw->out, s, k);
}

static void
i64(struct jw *jw, int64_t v)
{
	sep(jw);
	fprintf(jw->out, "%" PRId64, v);
}

/* The writer for other files' members (render.h). */
void jw_key(struct jw *jw, const char *k) { key(jw, k); }
void jw_open(struct jw *jw, int c) { open_(jw, c); }
void jw_close(struct jw *jw, int c) { close_(jw, c); }
void jw_str(struct jw *jw, const char *s) { str(jw, s); }
void jw_strnull(struct jw *jw, const char *s) { str_or_null(jw, s); }
void jw_num(struct jw *jw, const char *s, int k) { num(jw, s, k); }

void
jw_null(struct jw *jw)
{
	sep(jw);
	fputs("null", jw->out);
}

void
jw_bool(struct jw *jw, int b)
{
	sep(jw);
	fputs(b ? "true" : "false", jw->out);
}

/* NS / 10^K exactly. */
static void
ns(struct jw *jw, int64_t v, int k)
{
	char b[TSV_I64_MAX + 1];

	b[tsv_i64(b, v)] = '\0';
	num(jw, b, k);
}

/* FIELD of a prof-cluster record: a number, or null when empty. */
static void
rnum(struct jw *jw, const struct ranks *r, int kind, size_t i, int col,
    int k)
{
	const char *v = ranks_get(r, kind, i, col);

	if (*v == '\0') {
		sep(jw);
		fputs("null", jw->out);
	} else
		num(jw, v, k);
}

/*
 * prof-cluster's findings: the job's (slow rank, step skew, compute
 * imbalance), each rank's waiting, the collectives with the most.
 */
static void
across_ranks(struct jw *jw, const struct ranks *r)
{
	size_t i;

	open_(jw, '{');
	key(jw, "findings");
	open_(jw, '[');
	for (i = 0; i < ranks_count(r, RK_CLUSTER); i++) {
		open_(jw, '{');
		key(jw, "finding");
		str(jw, ranks_get(r, RK_CLUSTER, i, RC_NAME));
		key(jw, "step");
		str_or_null(jw, ranks_get(r, RK_CLUSTER, i, RC_STEP));
		key(jw, "slow_rank");
		str_or_null(jw, ranks_get(r, RK_CLUSTER, i, RC_SLOW));
		key(jw, "skew");
		rnum(jw, r, RK_CLUSTER, i, RC_SKEW, 0);
		key(jw, "caused_ms");
		rnum(jw, r, RK_CLUSTER, i, RC_CAUSED, 6);
		key(jw, "evidence");
		str_or_null(jw, ranks_get(r, RK_CLUSTER, i, RC_EVIDENCE));
		close_(jw, '}');
	}
	close_(jw, ']');
	key(jw, "ranks");
	open_(jw, '[');
	for (i = 0; i < ranks_count(r, RK_RANK_WAIT); i++) {
		open_(jw, '{');
		key(jw, "dev");
		str(jw, ranks_get(r, RK_RANK_WAIT, i, RC_DEV));
		key(jw, "matched");
		rnum(jw, r, RK_RANK_WAIT, i, RC_MATCHED, 0);
		key(jw, "last_count");
		rnum(jw, r, RK_RANK_WAIT, i, RC_LAST_COUNT, 0);
		key(jw, "waited_ms");
		rnum(jw, r, RK_RANK_WAIT, i, RC_WAITED, 6);
		key(jw, "caused_ms");
		rnum(jw, r, RK_RANK_WAIT, i, RC_CAUSED, 6);
		close_(jw, '}');
	}
	close_(jw, ']');
	key(jw, "collectives");
	open_(jw, '[');
	for (i = 0; i < ranks_count(r, RK_COLLECTIVE); i++) {
		open_(jw, '{');
		key(jw, "step");
		str_or_null(jw, ranks_get(r, RK_COLLECTIVE, i, RC_STEP));
		key(jw, "op");
		str(jw, ranks_get(r, RK_COLLECTIVE, i, RC_NAME));
		key(jw, "last_rank");
		str_or_null(jw, ranks_get(r, RK_COLLECTIVE, i, RC_LAST));
		key(jw, "arrival_skew_ms");
		rnum(jw, r, RK_COLLECTIVE, i, RC_ARRIVAL, 6);
		key(jw, "waited_ms");
		rnum(jw, r, RK_COLLECTIVE, i, RC_WAITED, 6);
		close_(jw, '}');
	}
	close_(jw, ']');
	close_(jw, '}');
}

static void
boolean(struct jw *jw, int b)
{
	sep(jw);
	fputs(b ? "true" : "false", jw->out);
}

/* A comma-separated list as an array of strings. */
static void
list(struct jw *jw, const char *s)
{
	size_t n;
	char *buf;

	open_(jw, '[');
	for (; s != NULL && *s != '\0'; s += n + (s[n] == ',')) {
		n = strcspn(s, ",");
		if (n == 0)
			continue;
		buf = xstrndup(s, n);
		str(jw, buf);
		free(buf);
	}
	close_(jw, ']');
}

/* The rank whose capture has the most idle time (the first on ties). */
static const struct rdev *
worst_dev(const struct rmodel *m)
{
	const struct rdev *best = NULL;
	const char *v, *bv = NULL;
	size_t i;

	for (i = 0; i < m->ndevs; i++) {
		if ((v = model_cap(m->devs[i], "capture_gap_ns")) == NULL)
			continue;
		if (bv == NULL || strlen(v) > strlen(bv) ||
		    (strlen(v) == strlen(bv) && strcmp(v, bv) > 0)) {
			best = m->devs[i];
			bv = v;
		}
	}
	return best;
}

static void
gap_analysis(struct jw *jw, const struct rdev *d)
{
	static const char *const f[][2] = {
		{ "capture_span_ms", "capture_span_ns" },
		{ "device_busy_union_ms", "capture_busy_union_ns" },
		{ "device_gap_ms", "capture_gap_ns" },
		{ "device_gap_ratio", "capture_gap_ratio" },
		{ "largest_gap_ms", "largest_gap_ns" },
	};
	size_t i;
	const char *v;

	open_(jw, '{');
	for (i = 0; i < 5; i++) {
		key(jw, f[i][0]);
		v = d != NULL ? model_cap(d, f[i][1]) : NULL;
		num(jw, v != NULL ? v : "0", i == 3 ? 0 : 6);
	}
	key(jw, "top_gap_windows");
	open_(jw, '[');
	for (i = 0; d != NULL && i < d->ngaps; i++) {
		open_(jw, '{');
		key(jw, "start_us"), ns(jw, d->gaps[i].start, 3);
		key(jw, "end_us"), ns(jw, d->gaps[i].start + d->gaps[i].dur, 3);
		key(jw, "duration_ms"), ns(jw, d->gaps[i].dur, 6);
		key(jw, "bubble_id"), str(jw, d->gaps[i].bubble_id);
		close_(jw, '}');
	}
	close_(jw, ']');
	key(jw, "dev"), str_or_null(jw, d != NULL ? d->id : NULL);
	if (d == NULL)
		key(jw, "missing"), str(jw,
		    "no capture metrics: prof-bubbles did not "
		    "run; the figures are 0");
	else {
		key(jw, "capture_start_us");
		num(jw, model_cap(d, "capture_start_ns"), 3);
		key(jw, "capture_gap_count");
		num(jw, model_cap(d, "capture_gap_count"), 0);
		key(jw, "largest_gap_tags"), list(jw, d->largest_gap_tags);
	}
	close_(jw, '}');
}

/* Whether a group-scope cause of group G asks for a follow-up. */
static int
group_followup(const struct rdev *d, const char *g)
{
	size_t i;

	for (i = 0; i < d->ncauses; i++)
		if (strcmp(d->causes[i].scope, "group") == 0 &&
		    strcmp(d->causes[i].target, g) == 0 &&
		    *d->causes[i].followup != '\0')
			return 1;
	return 0;
}

static void
group(struct jw *jw, const struct rdev *d, const struct rgroup *g)
{
	static const char *const f[][2] = {
		{ "service_ms_avg", "service_ns_avg" },
		{ "device_busy_union_ms_avg", "busy_union_ns_avg" },
		{ "underfeed_ratio_avg", "underfeed_ratio_avg" },
		{ "prelaunch_gap_ms_avg", "prelaunch_gap_ns_avg" },
		{ "tail_gap_ms_avg", "tail_gap_ns_avg" },
		{ "internal_bubble_total_ms_avg",
		    "internal_bubble_total_ns_avg" },
		{ "largest_internal_bubble_ms_p95",
		    "largest_internal_bubble_ns_p95" },
	};
	static const char *const pat[] = { "prelaunch", "internal_bubble",
	    "tail", "inter_step", "mixed", "none" };
	const char *v, *p = g->pattern != NULL ? g->pattern : "none";
	size_t i, k;

	for (k = 0; k < 6 && strcmp(pat[k], p) != 0; k++)
		;
	open_(jw, '{');
	key(jw, "group_id"), str(jw, g->id);
	key(jw, "group_size"), num(jw,
	    g->size != NULL && *g->size ? g->size : "0",
	    0);
	for (i = 0; i < 7; i++) {
		v = model_stat(g, f[i][1]);
		if (v == NULL && i == 6)
			continue;
		key(jw, f[i][0]), num(jw, v != NULL ? v : "0", i == 2 ? 0 : 6);
	}
	key(jw, "recurring_bubble_pattern");
	boolean(jw, g->pattern_tags != NULL &&
	    tag_has(g->pattern_tags, "RECURRING_BUBBLE_PATTERN"));
	/* A pattern outside the schema's enum would fail validation. */
	key(jw, "dominant_idle_pattern"), str(jw, k < 6 ? pat[k] : "mixed");
	key(jw, "dominant_anomaly_tags"), list(jw, g->pattern_tags);
	key(jw, "requires_followup"), boolean(jw, group_followup(d, g->id));
	key(jw, "dev"), str(jw, d->id);
	key(jw, "dominant"), boolean(jw, g->dominant);
	key(jw, "recurring_step_ratio");
	num(jw, model_stat(g, "recurring_step_ratio"), 0);
	key(jw, "statistics");
	open_(jw, '{');
	for (i = 0; i < g->nstat; i++)
		key(jw, g->stat[i].name), num(jw, g->stat[i].value, 0);
	close_(jw, '}');
	close_(jw, '}');
}

/* "before: NAME (CORE, DUR us, stream TRACK)" */
static void
evidence_op(struct jw *jw, const char *which, const char *name,
    const char *core, const char *dur, const char *track)
{
	char d[64], *b;

	if (*name == '\0')
		return;
	dec_scale(*dur ? dur : "0", 3, d, sizeof(d));
	b = xasprintf("%s: %s (%s, %s us, stream %s)", which, name,
	    *core ? core : "?", d, *track ? track : "?");
	str(jw, b);
	free(b);
}

/* "0.993 enumerate(DataLoader)#...;0.004 aten::to" as objects. */
static void
host_top(struct jw *jw, const char *s)
{
	char name[1024], r[64];
	size_t n, k;

	open_(jw, '[');
	for (; *s != '\0'; s += n + (s[n] == ';')) {
		n = strcspn(s, ";");
		k = strcspn(s, " ");
		if (k >= n || k >= sizeof(r))
			continue;
		snprintf(r, sizeof(r), "%.*s", (int)k, s);
		snprintf(name, sizeof(name), "%.*s", (int)(n - k - 1),
		    s + k + 1);
		open_(jw, '{');
		key(jw, "name"), str(jw, name);
		key(jw, "share"), num(jw, dec_valid(r) ? r : "", 0);
		close_(jw, '}');
	}
	close_(jw, ']');
}

static void
bubble(struct jw *jw, const struct rdev *d, const struct rbubble *b)
{
	size_t k;

	open_(jw, '{');
	key(jw, "bubble_id"), str(jw, b->id);
	key(jw, "scope"), str(jw, b->scope);
	key(jw, "step_id"), str(jw, b->step);
	key(jw, "group_id"), str_or_null(jw, b->group);
	key(jw, "start_us"), ns(jw, b->ts, 3);
	key(jw, "end_us"), ns(jw, b->ts + b->dur, 3);
	key(jw, "duration_ms"), ns(jw, b->dur, 6);
	key(jw, "host_visible_coverage_ratio"), num(jw, b->host_cov, 0);
	key(jw, "sync_marker_overlap_ratio"), num(jw, b->sync_cov, 0);
	key(jw, "comm_marker_overlap_ratio"), num(jw, b->comm_cov, 0);
	key(jw, "candidate_labels"), list(jw, b->labels);
	key(jw, "evidence_ops");
	open_(jw, '[');
	evidence_op(jw, "before", b->prev_name, b->prev_core, b->prev_dur,
	    b->prev_track);
	evidence_op(jw, "after", b->next_name, b->next_core, b->next_dur,
	    b->next_track);
	close_(jw, ']');
	key(jw, "dev"), str(jw, d->id);
	key(jw, "host_parallelism"), num(jw, b->host_par, 0);
	key(jw, "tags"), list(jw, b->tags);
	key(jw, "host_top"), host_top(jw, b->host_top);
	key(jw, "idle_ms"), open_(jw, '{');
	for (k = 0; k < HC_N; k++)
		key(jw, render_host_class[k]), num(jw, b->idle[k], 6);
	close_(jw, '}');
	close_(jw, '}');
}

static void
op(struct jw *jw, const struct rdev *d, const struct rop *o)
{
	open_(jw, '{');
	key(jw, "op_name"), str(jw, o->name);
	key(jw, "location"), str_or_null(jw, NULL);
	key(jw, "duration_us_avg"), num(jw, *o->dur_avg ? o->dur_avg : "0", 3);
	key(jw, "wait_us_avg"), num(jw, *o->wait_avg ? o->wait_avg : "0", 3);
	key(jw, "total_cost_us_avg"), num(jw, *o->cost_avg ? o->cost_avg : "0",
	    3);
	key(jw, "wait_ratio"), num(jw, *o->wait_ratio ? o->wait_ratio : "0", 0);
	key(jw, "is_false_hotspot_risk");
	boolean(jw, tag_has(o->tags, "WAIT_ANCHOR_FALSE_HOTSPOT"));
	key(jw, "evidence"), list(jw, o->tags);
	key(jw, "dev"), str(jw, d->id);
	key(jw, "core"), str_or_null(jw, o->core);
	key(jw, "calls"), num(jw, o->calls, 0);
	key(jw, "total_cost_ms"), num(jw, o->cost_total, 6);
	key(jw, "rank_cost"), num(jw, o->rank_cost, 0);
	key(jw, "rank_dur"), num(jw, o->rank_dur, 0);
	key(jw, "masked_ratio"), num(jw, o->masked, 0);
	close_(jw, '}');
}

static void
cause(struct jw *jw, const struct rdev *d, const struct rcause *c)
{
	const char *conf = c->confidence;

	if (strcmp(conf, "high") != 0 && strcmp(conf, "medium") != 0)
		conf = "low";
	open_(jw, '{');
	key(jw, "label"), str(jw, c->label);
	key(jw, "confidence"), str(jw, conf);
	key(jw, "scope"), str(jw, *c->scope ? c->scope : "global");
	key(jw, "target_id"), str_or_null(jw, c->target);
	key(jw, "evidence");
	open_(jw, '[');
	if (*c->evidence)
		str(jw, c->evidence);
	close_(jw, ']');
	key(jw, "dev"), str(jw, d->id);
	key(jw, "share"), num(jw, c->value, 0);
	key(jw, "certainty"), str(jw, certainty(conf));
	key(jw, "risk_tags"), list(jw, c->tags);
	key(jw, "followup"), list(jw, c->followup);
	close_(jw, '}');
}

static void
step(struct jw *jw, const struct rdev *d, const struct rstep *s)
{
	static const char *const name[SM_N] = {
		"service_ms", "busy_union_ms", "underfeed_ms",
		"underfeed_ratio", "prelaunch_gap_ms", "tail_gap_ms",
		"internal_bubble_total_ms", "largest_internal_bubble_ms",
		"bubble_count", "inter_step_gap_ms", "kernel_count",
		"significant_bubble_count"
	};
	size_t k;

	open_(jw, '{');
	key(jw, "dev"), str(jw, d->id);
	key(jw, "step_id"), str(jw, s->step);
	key(jw, "name"), str(jw, s->name);
	key(jw, "group_id"), str_or_null(jw, s->group);
	key(jw, "start_us"), ns(jw, s->ts, 3);
	key(jw, "window_ms"), ns(jw, s->dur, 6);
	key(jw, "found_by"), str_or_null(jw, s->cat);
	for (k = 0; k < SM_N; k++) {
		int scale = strstr(name[k], "_ms") != NULL ? 6 : 0;
		key(jw, name[k]), num(jw, s->m[k], scale);
	}
	key(jw, "tags"), list(jw, s->tags);
	close_(jw, '}');
}

static void
device(struct jw *jw, const struct rdev *d)
{
	size_t k;

	open_(jw, '{');
	key(jw, "dev"), str(jw, d->id);
	for (k = 0; k < d->ncap; k++) {
		char n[64];
		size_t l = strlen(d->cap[k].name);
		int isns = l > 3 && strcmp(d->cap[k].name + l - 3, "_ns") == 0;

		snprintf(n, sizeof(n), "%.*s%s", (int)(isns ? l - 3 : l),
		    d->cap[k].name, isns ? (strstr(d->cap[k].name, "start") ?
		    "_us" : "_ms") : "");
		key(jw, n), num(jw, d->cap[k].value, isns ?
		    (strstr(d->cap[k].name, "start") ? 3 : 6) : 0);
	}
	key(jw, "kernels"), i64(jw, (int64_t)d->nkernel);
	key(jw, "host_events"), i64(jw, (int64_t)d->nhost);
	key(jw, "comm_ops"), i64(jw, (int64_t)d->ncomm);
	key(jw, "bubbles"), i64(jw, (int64_t)d->nbubbles);
	key(jw, "aicpu_kernels"), i64(jw, (int64_t)d->naicpu);
	key(jw, "aicpu_classes");
	open_(jw, '{');
	for (k = 0; k < AC_N; k++)
		key(jw, render_aicpu_tag[k]), i64(jw, (int64_t)d->aicpu[k]);
	close_(jw, '}');
	key(jw, "checks");
	open_(jw, '{');
	for (k = 0; k < d->nflags; k++)
		key(jw, d->flags[k].name), str(jw, d->flags[k].value);
	close_(jw, '}');
	key(jw, "host_during_idle"), open_(jw, '[');
	for (k = 0; k < d->nhostcov; k++) {
		const struct rhostcov *h = &d->hostcov[k];
		open_(jw, '{');
		key(jw, "name"), str(jw, h->name);
		key(jw, "scope"), str(jw, h->scope);
		key(jw, "step_id"), str_or_null(jw, h->step);
		key(jw, "group_id"), str_or_null(jw, h->group);
		key(jw, "host_class"), str_or_null(jw, h->cls);
		key(jw, "covered_ms"), num(jw, h->covered, 6);
		key(jw, "share"), num(jw, h->share, 0);
		close_(jw, '}');
	}
	close_(jw, ']');
	close_(jw, '}');
}

/*
 * The step the single-step views show (--step, else the busiest), with
 * how it was chosen and the reason in words; null when there is none.
 */
static void
step_shown(struct jw *jw, const struct rctx *rc)
{
	struct rstepsel sel;
	char *txt = NULL;
	size_t len = 0;
	FILE *f;

	if (!render_step_pick(rc->m, rc->opts->step, &sel)) {
		jw_null(jw);
		return;
	}
	if ((f = open_memstream(&txt, &len)) == NULL)
		diag_errno(EXIT_BAD, "open_memstream");
	render_step_reason(f, &sel);
	fclose(f);
	open_(jw, '{');
	key(jw, "step_id"), str(jw, sel.step);
	key(jw, "chosen"), str(jw, render_step_how(&sel));
	key(jw, "busy_ms");
	if (sel.busy >= 0)
		ns(jw, sel.busy, 6);
	else
		jw_null(jw);
	key(jw, "ranks"), i64(jw, (int64_t)sel.nranks);
	key(jw, "steps"), i64(jw, (int64_t)sel.nsteps);
	key(jw, "reason"), str(jw, txt);
	close_(jw, '}');
	free(txt);
}

/* The advice of one rank of a recommendation, exactly. */
static void
advice_of(struct jw *jw, const struct rdev *d, const struct radvice *a)
{
	open_(jw, '{');
	key(jw, "dev"), str(jw, d->id);
	key(jw, "order");
	if (a->rank == INT64_MAX)
		str_or_null(jw, NULL);
	else
		i64(jw, a->rank);
	key(jw, "stake_ms_per_step"), num(jw, a->stake, 6);
	key(jw, "share"), num(jw, a->share, 0);
	key(jw, "evidence"), str(jw, a->evidence);
	close_(jw, '}');
}

/*
 * prof-verdict's advice records, equal ones of several ranks merged, in
 * their order; each with every rank's own stake and evidence.
 */
static void
recommendations(struct jw *jw, const struct rmodel *m)
{
	struct rrec *r;
	size_t i, j, n = recs_build(m, &r);

	open_(jw, '[');
	for (i = 0; i < n; i++) {
		const struct radvice *a = r[i].a;
		open_(jw, '{');
		key(jw, "priority"), str_or_null(jw, a->prio);
		key(jw, "id"), str(jw, a->name);
		key(jw, "scope"), str_or_null(jw, a->scope);
		key(jw, "target_id"), str_or_null(jw, a->target);
		key(jw, "action"), str(jw, a->text);
		key(jw, "followup_required");
		boolean(jw, strcmp(a->followup, "1") == 0);
		key(jw, "devs"), list(jw, r[i].devs);
		key(jw, "per_dev"), open_(jw, '[');
		for (j = 0; j < r[i].n; j++)
			advice_of(jw, r[i].alldev[j], r[i].all[j]);
		close_(jw, ']');
		close_(jw, '}');
	}
	close_(jw, ']');
	recs_free(r, n);
}

/* One part of a budget: ms per step, share, and ms over the scope. */
static void
budget(struct jw *jw, const struct rdev *d, const char *scope,
    const char *group)
{
	const struct rbudget *b;
	size_t k;

	key(jw, "budget"), open_(jw, '[');
	for (k = 0; k < RP_N; k++) {
		if ((b = budget_part(d, scope, group, render_part[k])) == NULL)
			continue;
		open_(jw, '{');
		key(jw, "part"), str(jw, b->part);
		key(jw, "ms_per_step"), num(jw, b->per_step, 6);
		key(jw, "share"), num(jw, b->share, 0);
		key(jw, "ms"), num(jw, b->budget, 6);
		close_(jw, '}');
	}
	close_(jw, ']');
}

/* The members of a verdict record, the run's or a group's. */
static void
verdict_members(struct jw *jw, const struct rverdict *v)
{
	key(jw, "bottleneck"), str(jw, v->cls);
	key(jw, "share"), num(jw, v->share, 0);
	key(jw, "confidence"), str_or_null(jw, v->confidence);
	key(jw, "mfu"), num(jw, v->mfu, 0);
	key(jw, "evidence"), str(jw, v->evidence);
	key(jw, "stake_ms_per_step"), num(jw, v->stake, 6);
	key(jw, "window_ms_per_step"), num(jw, v->window, 6);
	key(jw, "steps"), num(jw, v->steps, 0);
	key(jw, "runner_up"), str_or_null(jw, v->second);
	key(jw, "runner_up_share"), num(jw, v->second_ratio, 0);
	key(jw, "mfu_coverage"), num(jw, v->mfu_cov, 0);
	key(jw, "chip"), str_or_null(jw, v->chip);
	key(jw, "pipe"), str_or_null(jw, v->pipe);
	key(jw, "tags"), list(jw, v->tags);
}

/*
 * The verdict array: one object per rank, the members the issue names
 * (dev, bottleneck, share, confidence, mfu, evidence) first, then the
 * rest of the run's verdict record, its budget, and the verdict and
 * budget of each step group.  bottleneck is null, with why, when
 * prof-verdict did not run.
 */
static void
verdicts(struct jw *jw, const struct rmodel *m)
{
	size_t i, j;

	open_(jw, '[');
	for (i = 0; i < m->ndevs; i++) {
		const struct rdev *d = m->devs[i];
		if (*d->id == '\0')
			continue;
		open_(jw, '{');
		key(jw, "dev"), str(jw, d->id);
		if (d->verdict == NULL) {
			key(jw, "bottleneck"), str_or_null(jw, NULL);
			key(jw, "missing"), str(jw, m->verdict_ran ? "no "
			    "verdict record for this rank" : "prof-verdict "
			    "did not run");
			close_(jw, '}');
			continue;
		}
		verdict_members(jw, d->verdict);
		budget(jw, d, "run", NULL);
		key(jw, "groups"), open_(jw, '[');
		for (j = 0; j < d->ngverdicts; j++) {
			open_(jw, '{');
			key(jw, "group_id"), str(jw, d->gverdicts[j].group);
			verdict_members(jw, &d->gverdicts[j]);
			budget(jw, d, "group", d->gverdicts[j].group);
			close_(jw, '}');
		}
		close_(jw, ']');
		close_(jw, '}');
	}
	close_(jw, ']');
}

/* The top-level confidence and follow-up, from the causes. */
/*
 * The schema's confidence and follow-up flag: the verdict's confidence
 * of the chosen rank when prof-verdict ran, else the best of its global
 * causes'; a follow-up when a cause names one or an advice is one.
 */
static void
confidence(struct jw *jw, const struct rmodel *m, const struct rdev *w)
{
	const char *conf = "low";
	size_t i, j;
	int fup = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ncauses; j++) {
			const struct rcause *c = &m->devs[i]->causes[j];
			if (*c->followup != '\0' ||
			    tag_has(c->tags, "UNTRACED_HOST_BLOCKING_RISK"))
				fup = 1;
			if (m->devs[i] != w || strcmp(c->scope, "global") != 0)
				continue;
			if (strcmp(c->confidence, "high") == 0)
				conf = "high";
			else if (strcmp(c->confidence, "medium") == 0 &&
			    strcmp(conf, "low") == 0)
				conf = "medium";
		}
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nadvice; j++)
			fup |= strcmp(m->devs[i]->advice[j].followup, "1") == 0;
	if (w != NULL && w->verdict != NULL &&
	    (strcmp(w->verdict->confidence, "high") == 0 ||
	    strcmp(w->verdict->confidence, "medium") == 0 ||
	    strcmp(w->verdict->confidence, "low") == 0))
		conf = w->verdict->confidence;
	key(jw, "requires_host_followup"), boolean(jw, fup);
	key(jw, "confidence"), str(jw, conf);
}

void
render_json(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	const struct rdev *w = worst_dev(m);
	const struct rgroup *g;
	struct jw jw0, *jw = &jw0;
	size_t i, j;

	memset(jw, 0, sizeof(*jw));
	jw->out = rc->out;
	open_(jw, '{');
	/* The verdict first, as in every report; the schema allows it. */
	key(jw, "verdict"), verdicts(jw, m);
	if (ranks_count(rc->ranks, RK_CLUSTER) +
	    ranks_count(rc->ranks, RK_RANK_WAIT) > 0)
		key(jw, "across_ranks"), across_ranks(jw, rc->ranks);
	if (opsv_any(rc->ops))
		key(jw, "ops"), json_ops(jw, rc);
	key(jw, "enabled"), boolean(jw, 1);
	g = w != NULL ? model_dominant(w) : NULL;
	key(jw, "dominant_group_id"), str_or_null(jw, g != NULL ? g->id : NULL);
	key(jw, "global_device_gap_analysis"), gap_analysis(jw, w);
	key(jw, "step_group_anomalies");
	open_(jw, '[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ngroups; j++)
			group(jw, m->devs[i], &m->devs[i]->groups[j]);
	close_(jw, ']');
	key(jw, "bubble_windows");
	open_(jw, '[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ntop; j++)
			bubble(jw, m->devs[i], &m->devs[i]->top[j]);
	close_(jw, ']');
	key(jw, "wait_anchor_ops");
	open_(jw, '[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nops; j++)
			op(jw, m->devs[i], &m->devs[i]->ops[j]);
	close_(jw, ']');
	key(jw, "soft_root_cause_summary");
	open_(jw, '[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ncauses; j++)
			cause(jw, m->devs[i], &m->devs[i]->causes[j]);
	close_(jw, ']');
	confidence(jw, m, w);
	key(jw, "profile"), str(jw, m->name);
	key(jw, "origin_ns"), str_or_null(jw, m->origin);
	key(jw, "stages"), open_(jw, '[');
	for (i = 0; i < m->nstages; i++)
		str(jw, m->stages[i]);
	close_(jw, ']');
	key(jw, "devices"), open_(jw, '[');
	for (i = 0; i < m->ndevs; i++)
		device(jw, m->devs[i]);
	close_(jw, ']');
	key(jw, "steps"), open_(jw, '[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nsteps; j++)
			step(jw, m->devs[i], &m->devs[i]->steps[j]);
	close_(jw, ']');
	key(jw, "step_shown"), step_shown(jw, rc);
	key(jw, "structure"), open_(jw, '{');
	for (i = 0; i < m->nkinds; i++)
		key(jw, m->kinds[i].name), i64(jw, (int64_t)m->kinds[i].n);
	close_(jw, '}');
	key(jw, "recommendations"), recommendations(jw, m);
	close_(jw, '}');
	putc('\n', jw->out);
}
