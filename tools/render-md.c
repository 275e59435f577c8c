/*
 * -f md: the Markdown anomaly report, in the four sections of a
 * performance report (Summary, Metrics, Findings, Recommendations): the
 * verdict of every rank and the time budget of a step first
 * (render-mdverdict.c), then what the anomaly report must hold
 * (doc/analysis-rules.md, Reports): the bubble-first answers to the
 * five questions, the dominant group's metrics, the top bubbles with
 * their host evidence and the kernels around them, the soft labels with
 * their evidence chains, wait anchors, AI CPU; then prof-verdict's
 * recommendations in their order.
 *
 * Facts are stated; causes are worded by their confidence ("probable",
 * "possible", "weakly supported") and never as the root cause.  Every
 * number carries its unit, in the column header or after the value.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* A stage's value in ns as ms with 3 decimals, or "-". */
static void
ms(struct rctx *rc, const char *ns)
{
	put_dec(rc->out, ns, 6, 3);
}

/* A stage's ratio as a percentage with 1 decimal, or "-". */
static void
pct(struct rctx *rc, const char *r)
{
	put_pct(rc->out, r);
}

static const char *
cause_tags(const struct rdev *d)
{
	size_t i;

	for (i = 0; i < d->ncauses; i++)
		if (strcmp(d->causes[i].scope, "global") == 0)
			return d->causes[i].tags;
	return "";
}

static int
heavy(const struct rgroup *g)
{
	return g != NULL && g->pattern_tags != NULL &&
	    tag_has(g->pattern_tags, "DEVICE_IDLE_GAP_HEAVY");
}

/*
 * The bubbles of the rank: with prof-bubbles' significant_bubble_count
 * on every step, their sum and, beside it, the sum of bubble_count
 * (every internal gap); else every bubble record.
 */
static void
bubble_count(struct rctx *rc, const struct rdev *d)
{
	int64_t sig = 0, all = 0;
	size_t i;

	for (i = 0; i < d->nsteps; i++) {
		const char *s = d->steps[i].m[SM_SIGNIFICANT];
		const char *b = d->steps[i].m[SM_BUBBLES];
		if (s == NULL || *s == '\0')
			break;
		sig += strtoll(s, NULL, 10);
		all += b != NULL ? strtoll(b, NULL, 10) : 0;
	}
	if (d->nsteps > 0 && i == d->nsteps)
		fprintf(rc->out, "%" PRId64 " significant bubble(s) in the "
		    "steps, of %" PRId64 " internal gaps in all", sig, all);
	else
		fprintf(rc->out, "%" PRIu64 " bubble(s) in the capture",
		    d->nbubbles);
}

static void
q_idle(struct rctx *rc, const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);

	fprintf(rc->out, "   - rank %s: ", d->id);
	if (g == NULL || g->pattern == NULL) {
		fprintf(rc->out,
		    "unknown: no step group statistics (the stream "
		    "did not go through prof-steps and prof-bubbles); %" PRIu64
		    " bubble(s) recorded.\n", d->nbubbles);
		return;
	}
	fputs(heavy(g) ? "**yes**: " : "no heavy idle time: ", rc->out);
	ms(rc, model_stat(g, "underfeed_ns_avg"));
	fputs(" ms of ", rc->out);
	ms(rc, model_stat(g, "service_ns_avg"));
	/*
	 * The share is the mean of the steps' own shares, not the ratio
	 * of the two means before it: one idle step among busy ones makes
	 * them differ (the TPU capture: 55.473 of 839.642 ms, 0.9%), so
	 * the sentence says which it is.
	 */
	fputs(" ms of step service time is device idle on average (a "
	    "step's idle share averages ", rc->out);
	pct(rc, model_stat(g, "underfeed_ratio_avg"));
	fputs("); largest internal bubble ", rc->out);
	ms(rc, model_stat(g, "largest_internal_bubble_ns_p95"));
	fputs(" ms (p95); ", rc->out);
	bubble_count(rc, d);
	if (*g->pattern_tags)
		fprintf(rc->out, "; tags %s", g->pattern_tags);
	fputs(".\n", rc->out);
}

static void
q_group(struct rctx *rc, const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);

	fprintf(rc->out, "   - rank %s: ", d->id);
	if (g == NULL) {
		fputs("no step groups (no window records).\n", rc->out);
		return;
	}
	fprintf(rc->out, "step group %s (%s step(s)%s, of %zu group(s)); "
	    "service time ", g->id, g->size ? g->size : "?",
	    g->dominant ? ", dominant" : "", d->ngroups);
	ms(rc, model_stat(g, "service_ns_avg"));
	fputs(" ms per step on average.\n", rc->out);
}

static void
q_pattern(struct rctx *rc, const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);

	fprintf(rc->out, "   - rank %s: ", d->id);
	if (g == NULL || g->pattern == NULL) {
		fputs("unknown (no bubble_group record).\n", rc->out);
		return;
	}
	fprintf(rc->out, "mainly **%s** (per step on average: prelaunch ",
	    g->pattern);
	ms(rc, model_stat(g, "prelaunch_gap_ns_avg"));
	fputs(" ms, internal ", rc->out);
	ms(rc, model_stat(g, "internal_bubble_total_ns_avg"));
	fputs(" ms, tail ", rc->out);
	ms(rc, model_stat(g, "tail_gap_ns_avg"));
	fputs(" ms, inter-step ", rc->out);
	ms(rc, model_stat(g, "inter_step_gap_ns_avg"));
	fputs(" ms).\n", rc->out);
}

static void
q_host(struct rctx *rc, const struct rdev *d)
{
	const char *t = cause_tags(d);

	fprintf(rc->out, "   - rank %s: ", d->id);
	if (d->ncauses == 0)
		fputs("not assessed (no cause records: run prof-attrib)",
		    rc->out);
	else if (tag_has(t, "HOST_ORIGINATED_RISK"))
		fputs("**yes**, HOST_ORIGINATED_RISK", rc->out);
	else if (tag_has(t, "UNTRACED_HOST_BLOCKING_RISK"))
		fputs("**possibly, untraced**: UNTRACED_HOST_BLOCKING_RISK "
		    "(host evidence is sparse)", rc->out);
	else
		fputs("not flagged", rc->out);
	if (tag_has(t, "COMM_SYNC_RISK"))
		fputs("; COMM_SYNC_RISK", rc->out);
	if (tag_has(t, "PARTIAL_CAPTURE_BOUNDARY"))
		fputs("; PARTIAL_CAPTURE_BOUNDARY (gaps cut by the capture "
		    "are not blamed on the host)", rc->out);
	fprintf(rc->out, "; %" PRIu64 " host event(s) traced on this rank.\n",
	    d->nhost);
}

static void
q_evidence(struct rctx *rc, const struct rdev *d)
{
	size_t i;
	int named = 0;

	fprintf(rc->out, "   - rank %s: ", d->id);
	for (i = 0; i < d->ncauses; i++) {
		const struct rcause *c = &d->causes[i];
		if (strcmp(c->scope, "global") != 0 ||
		    strcmp(c->label, "insufficient_evidence") == 0)
			continue;
		fprintf(rc->out, "%s%s (%s, confidence %s)", named++ ? ", " :
		    "candidates, not a proven root cause: ", c->label,
		    certainty(c->confidence), c->confidence);
	}
	if (named)
		fputs(".\n", rc->out);
	else if (d->ncauses == 0)
		fputs("**no**: no cause records (the stream did not go "
		    "through prof-attrib).\n", rc->out);
	else
		fputs("**no**: insufficient evidence for a root cause; see "
		    "the follow-ups below.\n", rc->out);
}

static void
summary(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	static const struct {
		const char *q;
		void (*fn)(struct rctx *, const struct rdev *);
	} qs[] = {
		{ "Significant device idle bubbles?", q_idle },
		{ "In which step type or group?", q_group },
		{ "Mainly prelaunch, tail, internal or inter-step?",
		    q_pattern },
		{ "Significant host-originated risk?", q_host },
		{ "Is the evidence enough for a root cause?", q_evidence },
	};
	size_t i, j;

	fputs("## Summary\n\n", rc->out);
	if (m->ndevs == 0) {
		fputs("The stream holds no records: nothing was captured or "
		    "everything was filtered out.\n\n", rc->out);
		return;
	}
	md_verdict(rc);
	fputs("### Bubbles: the five questions\n\n", rc->out);
	for (i = 0; i < 5; i++) {
		fprintf(rc->out, "%zu. %s\n", i + 1, qs[i].q);
		for (j = 0; j < m->ndevs; j++)
			if (dev_nodata(m->devs[j]))
				fprintf(rc->out, "   - rank %s: no device data "
				    "(no device kernels on this rank): not "
				    "idle, nothing to analyse.\n",
				    m->devs[j]->id);
			else if (dev_incore(m->devs[j]))
				fprintf(rc->out, "   - rank %s: not "
				    "applicable: an op-simulator trace, whose "
				    "verdict is the bounding pipe.\n",
				    m->devs[j]->id);
			else
				qs[i].fn(rc, m->devs[j]);
	}
	putc('\n', rc->out);
}

/* One sentence per rank: the capture's idle time against the steps'. */
static void
reconcile(struct rctx *rc)
{
	struct ridle r;
	size_t i, n = 0;

	for (i = 0; i < rc->m->ndevs; i++) {
		if (!idle_reconcile(rc->m->devs[i], &r))
			continue;
		if (n++ == 0)
			fputs("The capture's idle time against the steps':\n\n",
			    rc->out);
		fprintf(rc->out, "- Rank %s: ", rc->m->devs[i]->id);
		put_idle_sentence(rc->out, &r);
		fputs(".\n", rc->out);
	}
	if (n > 0)
		putc('\n', rc->out);
}

static void
capture_table(struct rctx *rc)
{
	size_t i;

	fputs("### Capture\n\n| rank | span (ms) | device busy (ms) | "
	    "device idle (ms) | idle (%) | gaps | largest gap (ms) | "
	    "kernels | host events | comm ops |\n"
	    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", rc->out);
	for (i = 0; i < rc->m->ndevs; i++) {
		const struct rdev *d = rc->m->devs[i];
		fprintf(rc->out, "| %s | ", d->id);
		ms(rc, model_cap(d, "capture_span_ns"));
		fputs(" | ", rc->out);
		ms(rc, model_cap(d, "capture_busy_union_ns"));
		fputs(" | ", rc->out);
		ms(rc, model_cap(d, "capture_gap_ns"));
		fputs(" | ", rc->out);
		pct(rc, model_cap(d, "capture_gap_ratio"));
		fputs(" | ", rc->out);
		put_dec(rc->out, model_cap(d, "capture_gap_count"), 0, 0);
		fputs(" | ", rc->out);
		ms(rc, model_cap(d, "largest_gap_ns"));
		fprintf(rc->out,
		    " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n",
		    d->nkernel, d->nhost, d->ncomm);
	}
	putc('\n', rc->out);
	reconcile(rc);
}

static void
group_table(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j;

	fputs("### Step groups (the hidden-issue metrics)\n\n"
	    "| rank | group | steps | service avg (ms) | busy avg (ms) | "
	    "idle (%) avg / median / p90 / p95 | prelaunch avg (ms) "
	    "| internal avg (ms) | tail avg (ms) | largest internal p95 (ms) "
	    "| steps with bubbles (%) | pattern |\n"
	    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	    rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->ngroups; j++) {
			const struct rgroup *g = &m->devs[i]->groups[j];
			fprintf(rc->out, "| %s | %s%s | %s | ",
			    m->devs[i]->id,
			    g->id, g->dominant ? " (dominant)" : "",
			    g->size ? g->size : "-");
			ms(rc, model_stat(g, "service_ns_avg"));
			fputs(" | ", rc->out);
			ms(rc, model_stat(g, "busy_union_ns_avg"));
			fputs(" | ", rc->out);
			pct(rc, model_stat(g, "underfeed_ratio_avg"));
			fputs(" / ", rc->out);
			pct(rc, model_stat(g, "underfeed_ratio_median"));
			fputs(" / ", rc->out);
			pct(rc, model_stat(g, "underfeed_ratio_p90"));
			fputs(" / ", rc->out);
			pct(rc, model_stat(g, "underfeed_ratio_p95"));
			fputs(" | ", rc->out);
			ms(rc, model_stat(g, "prelaunch_gap_ns_avg"));
			fputs(" | ", rc->out);
			ms(rc, model_stat(g, "internal_bubble_total_ns_avg"));
			fputs(" | ", rc->out);
			ms(rc, model_stat(g, "tail_gap_ns_avg"));
			fputs(" | ", rc->out);
			ms(rc, model_stat(g, "largest_internal_bubble_ns_p95"));
			fputs(" | ", rc->out);
			pct(rc, model_stat(g, "recurring_step_ratio"));
			fprintf(rc->out, " | %s |\n", g->pattern ? g->pattern :
			    "-");
		}
	putc('\n', rc->out);
}

/*
 * A step's busy time, idle share and gaps as cells of a row, each
 * followed by its separator (the step table, the step shown).
 */
static void
step_cells(struct rctx *rc, const struct rstep *s)
{
	static const int col[] = { SM_BUSY, SM_UNDERFEED_RATIO, SM_PRELAUNCH,
	    SM_INTERNAL, SM_TAIL, SM_LARGEST };
	size_t i;

	for (i = 0; i < sizeof(col) / sizeof(col[0]); i++) {
		if (col[i] == SM_UNDERFEED_RATIO)
			pct(rc, s->m[col[i]]);
		else
			ms(rc, s->m[col[i]]);
		fputs(" | ", rc->out);
	}
}

static void
step_table(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j, more = 0;
	int sig = 0;

	for (i = 0; i < m->ndevs && !sig; i++)
		for (j = 0; j < m->devs[i]->nsteps && !sig; j++)
			sig = m->devs[i]->steps[j].m[SM_SIGNIFICANT] != NULL;
	fprintf(rc->out, "### Steps\n\n| rank | step | group | service (ms) "
	    "| busy (ms) | idle (%%) | prelaunch (ms) | internal (ms) | tail "
	    "(ms) | largest internal (ms) | bubbles%s | tags |\n"
	    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	    sig ? " (significant / all)" : "");
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->nsteps; j++) {
			const struct rstep *s = &m->devs[i]->steps[j];
			if (j >= rc->opts->steps) {
				more++;
				continue;
			}
			fprintf(rc->out, "| %s | %s | %s | ",
			    m->devs[i]->id,
			    *s->step ? s->step : "-",
			    *s->group ? s->group : "-");
			ms(rc, s->m[SM_SERVICE]);
			fputs(" | ", rc->out);
			step_cells(rc, s);
			if (s->m[SM_SIGNIFICANT] != NULL) {
				put_dec(rc->out, s->m[SM_SIGNIFICANT], 0, 0);
				fputs(" / ", rc->out);
			}
			put_dec(rc->out, s->m[SM_BUBBLES], 0, 0);
			fprintf(rc->out, " | %s |\n", *s->tags ? s->tags : "-");
		}
	if (more)
		fprintf(rc->out, "\n%zu more step(s) are in the JSON report "
		    "(-f json, .steps) or shown with -s.\n", more);
	putc('\n', rc->out);
}

/*
 * The ranks the step and bubble tables leave out: no device data, or
 * an op-simulator trace.
 */
static void
left_out(struct rctx *rc)
{
	size_t i, n = 0;

	for (i = 0; i < rc->m->ndevs; i++)
		if (!dev_timeline(rc->m->devs[i]))
			fprintf(rc->out, "%s%s", n++ ? ", " : "Left out of the "
			    "step, group and bubble tables: rank(s) ",
			    rc->m->devs[i]->id);
	if (n > 0)
		fputs(" (no device data, or an op-simulator trace: their "
		    "step windows are not device idle time; see the "
		    "verdict).\n\n", rc->out);
}

/*
 * The single-step view: the step --step names, else the busiest, with
 * the reason, and each rank's row of it (render-step.c).
 */
static void
step_shown(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct rstepsel sel;
	size_t i, j;

	if (!render_step_pick(m, rc->opts->step, &sel) && sel.named == NULL)
		return;
	fputs("### The step shown\n\n", rc->out);
	if (sel.step == NULL) {
		render_step_reason(rc->out, &sel);
		fputs(".\n\n", rc->out);
		return;
	}
	fputs("Shown: ", rc->out);
	render_step_reason(rc->out, &sel);
	fputs(sel.named != NULL ? "; without --step the busiest is shown" :
	    "; the busiest is the step with the most device busy time in its "
	    "windows, summed over the ranks, the earliest on a tie; --step "
	    "names another", rc->out);
	fputs(".\n\n| rank | start (ms) | window (ms) | "
	    "busy (ms) | idle (%) | prelaunch (ms) | internal (ms) | tail "
	    "(ms) | largest internal (ms) | bubbles | kernels | tags |\n"
	    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	    rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->nsteps; j++) {
			const struct rstep *s = &m->devs[i]->steps[j];

			if (strcmp(s->step, sel.step) != 0)
				continue;
			fprintf(rc->out, "| %s | ", m->devs[i]->id);
			put_ms(rc->out, s->ts, 3);
			fputs(" | ", rc->out);
			put_ms(rc->out, s->dur, 3);
			fputs(" | ", rc->out);
			step_cells(rc, s);
			put_dec(rc->out, s->m[SM_BUBBLES], 0, 0);
			fputs(" | ", rc->out);
			put_dec(rc->out, s->m[SM_KERNELS], 0, 0);
			fprintf(rc->out, " | %s |\n", *s->tags ? s->tags : "-");
		}
	putc('\n', rc->out);
}

static void
metrics(struct rctx *rc)
{
	fputs("## Metrics\n\n", rc->out);
	left_out(rc);
	md_group_verdicts(rc);
	capture_table(rc);
	group_table(rc);
	step_shown(rc);
	step_table(rc);
}

void
render_md(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i;

	fprintf(rc->out, "# Anomaly report: %s\n\n", m->name);
	fprintf(rc->out, "Stages: %zu", m->nstages);
	for (i = 0; i < m->nstages; i++) {
		size_t l = strcspn(m->stages[i], " ");
		fprintf(rc->out, "%s%.*s", i ? " | " : " (", (int)l,
		    m->stages[i]);
	}
	fprintf(rc->out, "%s; %" PRIu64 " records, %zu rank(s).  Times in ms "
	    "are from the stream's origin", m->nstages ? ")" : "",
	    m->nrecords, m->ndevs);
	if (m->origin)
		fprintf(rc->out, " (%s ns since the epoch)", m->origin);
	fputs(".\n\n", rc->out);
	summary(rc);
	md_ops(rc);
	md_ranks(rc);
	metrics(rc);
	render_md_findings(rc);
	md_recommendations(rc);
}
