/*
 * -f json: the anomaly_discovery object of the analysis rules (schema
 * shared/reference/anomaly_discovery.schema.json), every required field
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
#include <string.h>

#include "render.h"
#include "tsv.h"

/* A small pretty-printing writer: one member or item per line. */
static FILE *out;
static int depth, first[64], keyed;

static void
sep(void)
{
	if (keyed) {
		keyed = 0;
		return;
	}
	if (depth > 0) {
		fputs(first[depth] ? "\n" : ",\n", out);
		first[depth] = 0;
		fprintf(out, "%*s", 2 * depth, "");
	}
}

static void
open_(int c)
{
	sep();
	putc(c, out);
	first[++depth] = 1;
}

static void
close_(int c)
{
	if (!first[depth])
		fprintf(out, "\n%*s", 2 * (depth - 1), "");
	depth--;
	putc(c, out);
}

static void
key(const char *k)
{
	sep();
	put_json_str(out, k);
	fputs(": ", out);
	keyed = 1;
}

static void
str(const char *s)
{
	sep();
	put_json_str(out, s);
}

static void
str_or_null(const char *s)
{
	sep();
	if (s == NULL || *s == '\0')
		fputs("null", out);
	else
		put_json_str(out, s);
}

static void
num(const char *s, int k)
{
	sep();
	put_json_num(out, s, k);
}

static void
i64(int64_t v)
{
	sep();
	fprintf(out, "%" PRId64, v);
}

/* NS / 10^K exactly. */
static void
ns(int64_t v, int k)
{
	char b[TSV_I64_MAX + 1];

	b[tsv_i64(b, v)] = '\0';
	num(b, k);
}

static void
boolean(int b)
{
	sep();
	fputs(b ? "true" : "false", out);
}

/* A comma-separated list as an array of strings. */
static void
list(const char *s)
{
	size_t n;
	char buf[256];

	open_('[');
	for (; s != NULL && *s != '\0'; s += n + (s[n] == ',')) {
		n = strcspn(s, ",");
		if (n == 0)
			continue;
		snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
		str(buf);
	}
	close_(']');
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
gap_analysis(const struct rdev *d)
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

	open_('{');
	for (i = 0; i < 5; i++) {
		key(f[i][0]);
		v = d != NULL ? model_cap(d, f[i][1]) : NULL;
		num(v != NULL ? v : "0", i == 3 ? 0 : 6);
	}
	key("top_gap_windows");
	open_('[');
	for (i = 0; d != NULL && i < d->ngaps; i++) {
		open_('{');
		key("start_us"), ns(d->gaps[i].start, 3);
		key("end_us"), ns(d->gaps[i].start + d->gaps[i].dur, 3);
		key("duration_ms"), ns(d->gaps[i].dur, 6);
		key("bubble_id"), str(d->gaps[i].bubble_id);
		close_('}');
	}
	close_(']');
	key("dev"), str_or_null(d != NULL ? d->id : NULL);
	if (d == NULL)
		key("missing"), str("no capture metrics: prof-bubbles did not "
		    "run; the figures are 0");
	else {
		key("capture_start_us");
		num(model_cap(d, "capture_start_ns"), 3);
		key("capture_gap_count");
		num(model_cap(d, "capture_gap_count"), 0);
		key("largest_gap_tags"), list(d->largest_gap_tags);
	}
	close_('}');
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
group(const struct rdev *d, const struct rgroup *g)
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
	open_('{');
	key("group_id"), str(g->id);
	key("group_size"), num(g->size != NULL && *g->size ? g->size : "0",
	    0);
	for (i = 0; i < 7; i++) {
		v = model_stat(g, f[i][1]);
		if (v == NULL && i == 6)
			continue;
		key(f[i][0]), num(v != NULL ? v : "0", i == 2 ? 0 : 6);
	}
	key("recurring_bubble_pattern");
	boolean(g->pattern_tags != NULL &&
	    tag_has(g->pattern_tags, "RECURRING_BUBBLE_PATTERN"));
	/* A pattern outside the schema's enum would fail validation. */
	key("dominant_idle_pattern"), str(k < 6 ? pat[k] : "mixed");
	key("dominant_anomaly_tags"), list(g->pattern_tags);
	key("requires_followup"), boolean(group_followup(d, g->id));
	key("dev"), str(d->id);
	key("dominant"), boolean(g->dominant);
	key("recurring_step_ratio");
	num(model_stat(g, "recurring_step_ratio"), 0);
	key("statistics");
	open_('{');
	for (i = 0; i < g->nstat; i++)
		key(g->stat[i].name), num(g->stat[i].value, 0);
	close_('}');
	close_('}');
}

/* "before: NAME (CORE, DUR us, stream TRACK)" */
static void
evidence_op(const char *which, const char *name, const char *core,
    const char *dur, const char *track)
{
	char d[64], b[1024];

	if (*name == '\0')
		return;
	dec_scale(*dur ? dur : "0", 3, d, sizeof(d));
	snprintf(b, sizeof(b), "%s: %s (%s, %s us, stream %s)", which, name,
	    *core ? core : "?", d, *track ? track : "?");
	str(b);
}

static void
bubble(const struct rdev *d, const struct rbubble *b)
{
	open_('{');
	key("bubble_id"), str(b->id);
	key("scope"), str(b->scope);
	key("step_id"), str(b->step);
	key("group_id"), str_or_null(b->group);
	key("start_us"), ns(b->ts, 3);
	key("end_us"), ns(b->ts + b->dur, 3);
	key("duration_ms"), ns(b->dur, 6);
	key("host_visible_coverage_ratio"), num(b->host_cov, 0);
	key("sync_marker_overlap_ratio"), num(b->sync_cov, 0);
	key("comm_marker_overlap_ratio"), num(b->comm_cov, 0);
	key("candidate_labels"), list(b->labels);
	key("evidence_ops");
	open_('[');
	evidence_op("before", b->prev_name, b->prev_core, b->prev_dur,
	    b->prev_track);
	evidence_op("after", b->next_name, b->next_core, b->next_dur,
	    b->next_track);
	close_(']');
	key("dev"), str(d->id);
	key("host_parallelism"), num(b->host_par, 0);
	key("tags"), list(b->tags);
	close_('}');
}

static void
op(const struct rdev *d, const struct rop *o)
{
	open_('{');
	key("op_name"), str(o->name);
	key("location"), str_or_null(NULL);
	key("duration_us_avg"), num(*o->dur_avg ? o->dur_avg : "0", 3);
	key("wait_us_avg"), num(*o->wait_avg ? o->wait_avg : "0", 3);
	key("total_cost_us_avg"), num(*o->cost_avg ? o->cost_avg : "0", 3);
	key("wait_ratio"), num(*o->wait_ratio ? o->wait_ratio : "0", 0);
	key("is_false_hotspot_risk");
	boolean(tag_has(o->tags, "WAIT_ANCHOR_FALSE_HOTSPOT"));
	key("evidence"), list(o->tags);
	key("dev"), str(d->id);
	key("core"), str_or_null(o->core);
	key("calls"), num(o->calls, 0);
	key("total_cost_ms"), num(o->cost_total, 6);
	key("rank_cost"), num(o->rank_cost, 0);
	key("rank_dur"), num(o->rank_dur, 0);
	key("masked_ratio"), num(o->masked, 0);
	close_('}');
}

static void
cause(const struct rdev *d, const struct rcause *c)
{
	const char *conf = c->confidence;

	if (strcmp(conf, "high") != 0 && strcmp(conf, "medium") != 0)
		conf = "low";
	open_('{');
	key("label"), str(c->label);
	key("confidence"), str(conf);
	key("scope"), str(*c->scope ? c->scope : "global");
	key("target_id"), str_or_null(c->target);
	key("evidence");
	open_('[');
	if (*c->evidence)
		str(c->evidence);
	close_(']');
	key("dev"), str(d->id);
	key("share"), num(c->value, 0);
	key("certainty"), str(certainty(conf));
	key("risk_tags"), list(c->tags);
	key("followup"), list(c->followup);
	close_('}');
}

static void
step(const struct rdev *d, const struct rstep *s)
{
	static const char *const name[SM_N] = {
		"service_ms", "busy_union_ms", "underfeed_ms",
		"underfeed_ratio", "prelaunch_gap_ms", "tail_gap_ms",
		"internal_bubble_total_ms", "largest_internal_bubble_ms",
		"bubble_count", "inter_step_gap_ms", "kernel_count"
	};
	size_t k;

	open_('{');
	key("dev"), str(d->id);
	key("step_id"), str(s->step);
	key("name"), str(s->name);
	key("group_id"), str_or_null(s->group);
	key("start_us"), ns(s->ts, 3);
	key("window_ms"), ns(s->dur, 6);
	key("found_by"), str_or_null(s->cat);
	for (k = 0; k < SM_N; k++) {
		int scale = strstr(name[k], "_ms") != NULL ? 6 : 0;
		key(name[k]), num(s->m[k], scale);
	}
	key("tags"), list(s->tags);
	close_('}');
}

static void
device(const struct rdev *d)
{
	size_t k;

	open_('{');
	key("dev"), str(d->id);
	for (k = 0; k < d->ncap; k++) {
		char n[64];
		size_t l = strlen(d->cap[k].name);
		int isns = l > 3 && strcmp(d->cap[k].name + l - 3, "_ns") == 0;

		snprintf(n, sizeof(n), "%.*s%s", (int)(isns ? l - 3 : l),
		    d->cap[k].name, isns ? (strstr(d->cap[k].name, "start") ?
		    "_us" : "_ms") : "");
		key(n), num(d->cap[k].value, isns ?
		    (strstr(d->cap[k].name, "start") ? 3 : 6) : 0);
	}
	key("kernels"), i64((int64_t)d->nkernel);
	key("host_events"), i64((int64_t)d->nhost);
	key("comm_ops"), i64((int64_t)d->ncomm);
	key("bubbles"), i64((int64_t)d->nbubbles);
	key("aicpu_kernels"), i64((int64_t)d->naicpu);
	key("aicpu_classes");
	open_('{');
	for (k = 0; k < AC_N; k++)
		key(render_aicpu_tag[k]), i64((int64_t)d->aicpu[k]);
	close_('}');
	key("checks");
	open_('{');
	for (k = 0; k < d->nflags; k++)
		key(d->flags[k].name), str(d->flags[k].value);
	close_('}');
	close_('}');
}

static void
recommendations(const struct rmodel *m)
{
	struct rrec *r;
	size_t i, n = recs_build(m, &r);
	char p[3] = "P0";

	open_('[');
	for (i = 0; i < n; i++) {
		open_('{');
		p[1] = (char)('0' + r[i].prio);
		key("priority"), str(p);
		key("scope"), str(r[i].scope);
		key("target_id"), str_or_null(r[i].target);
		key("action"), str(r[i].action);
		key("followup_required"), boolean(r[i].followup);
		key("evidence_gap"), str(r[i].gap);
		key("devs"), list(r[i].devs);
		key("evidence"), str(r[i].why);
		close_('}');
	}
	close_(']');
	recs_free(r, n);
}

/* The top-level confidence and follow-up, from the causes. */
static void
verdict(const struct rmodel *m, const struct rdev *w)
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
	key("requires_host_followup"), boolean(fup);
	key("confidence"), str(conf);
}

void
render_json(FILE *f, const struct rmodel *m)
{
	const struct rdev *w = worst_dev(m);
	const struct rgroup *g;
	size_t i, j;

	out = f;
	depth = 0;
	keyed = 0;
	open_('{');
	key("enabled"), boolean(1);
	g = w != NULL ? model_dominant(w) : NULL;
	key("dominant_group_id"), str_or_null(g != NULL ? g->id : NULL);
	key("global_device_gap_analysis"), gap_analysis(w);
	key("step_group_anomalies");
	open_('[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ngroups; j++)
			group(m->devs[i], &m->devs[i]->groups[j]);
	close_(']');
	key("bubble_windows");
	open_('[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ntop; j++)
			bubble(m->devs[i], &m->devs[i]->top[j]);
	close_(']');
	key("wait_anchor_ops");
	open_('[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nops; j++)
			op(m->devs[i], &m->devs[i]->ops[j]);
	close_(']');
	key("soft_root_cause_summary");
	open_('[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ncauses; j++)
			cause(m->devs[i], &m->devs[i]->causes[j]);
	close_(']');
	verdict(m, w);
	key("profile"), str(m->name);
	key("origin_ns"), str_or_null(m->origin);
	key("stages"), open_('[');
	for (i = 0; i < m->nstages; i++)
		str(m->stages[i]);
	close_(']');
	key("devices"), open_('[');
	for (i = 0; i < m->ndevs; i++)
		device(m->devs[i]);
	close_(']');
	key("steps"), open_('[');
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nsteps; j++)
			step(m->devs[i], &m->devs[i]->steps[j]);
	close_(']');
	key("structure"), open_('{');
	for (i = 0; i < m->nkinds; i++)
		key(m->kinds[i].name), i64((int64_t)m->kinds[i].n);
	close_('}');
	key("recommendations"), recommendations(m);
	close_('}');
	putc('\n', f);
}
