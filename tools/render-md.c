/*
 * -f md: the Markdown anomaly report, in the four sections of a
 * performance report (Summary, Metrics, Findings, Recommendations) with
 * what section 8.1 of the analysis rules requires: the bubble-first
 * answers to the five questions, the dominant group's metrics, the top
 * bubbles with their host evidence and the kernels around them, the
 * soft labels with their evidence chains, wait anchors, AI CPU, and
 * recommendations with scope, priority, follow-up and evidence gap.
 *
 * Facts are stated; causes are worded by their confidence ("probable",
 * "possible", "weakly supported") and never as the root cause.  Every
 * number carries its unit, in the column header or after the value.
 */
#include <config.h>

#include <inttypes.h>
#include <string.h>

#include "render.h"

static FILE *out;
static const struct rmodel *M;

/* A stage's value in ns as ms with 3 decimals, or "-". */
static void
ms(const char *ns)
{
	put_dec(out, ns, 6, 3);
}

static void
ratio(const char *r)
{
	put_dec(out, r, 0, 6);
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

static void
q_idle(const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);

	fprintf(out, "   - rank %s: ", d->id);
	if (g == NULL || g->pattern == NULL) {
		fprintf(out, "unknown: no step group statistics (the stream "
		    "did not go through prof-steps and prof-bubbles); %" PRIu64
		    " bubble(s) recorded.\n", d->nbubbles);
		return;
	}
	fputs(heavy(g) ? "**yes**: " : "no heavy idle time: ", out);
	ms(model_stat(g, "underfeed_ns_avg"));
	fputs(" ms of ", out);
	ms(model_stat(g, "service_ns_avg"));
	fputs(" ms of step service time is device idle on average "
	    "(underfeed ratio ", out);
	ratio(model_stat(g, "underfeed_ratio_avg"));
	fputs("); largest internal bubble ", out);
	ms(model_stat(g, "largest_internal_bubble_ns_p95"));
	fprintf(out, " ms (p95); %" PRIu64 " bubble(s) in the capture",
	    d->nbubbles);
	if (*g->pattern_tags)
		fprintf(out, "; tags %s", g->pattern_tags);
	fputs(".\n", out);
}

static void
q_group(const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);

	fprintf(out, "   - rank %s: ", d->id);
	if (g == NULL) {
		fputs("no step groups (no window records).\n", out);
		return;
	}
	fprintf(out, "step group %s (%s step(s)%s, of %zu group(s)); "
	    "service time ", g->id, g->size ? g->size : "?",
	    g->dominant ? ", dominant" : "", d->ngroups);
	ms(model_stat(g, "service_ns_avg"));
	fputs(" ms per step on average.\n", out);
}

static void
q_pattern(const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);

	fprintf(out, "   - rank %s: ", d->id);
	if (g == NULL || g->pattern == NULL) {
		fputs("unknown (no bubble_group record).\n", out);
		return;
	}
	fprintf(out, "mainly **%s** (per step on average: prelaunch ",
	    g->pattern);
	ms(model_stat(g, "prelaunch_gap_ns_avg"));
	fputs(" ms, internal ", out);
	ms(model_stat(g, "internal_bubble_total_ns_avg"));
	fputs(" ms, tail ", out);
	ms(model_stat(g, "tail_gap_ns_avg"));
	fputs(" ms, inter-step ", out);
	ms(model_stat(g, "inter_step_gap_ns_avg"));
	fputs(" ms).\n", out);
}

static void
q_host(const struct rdev *d)
{
	const char *t = cause_tags(d);

	fprintf(out, "   - rank %s: ", d->id);
	if (d->ncauses == 0)
		fputs("not assessed (no cause records: run prof-attrib)", out);
	else if (tag_has(t, "HOST_ORIGINATED_RISK"))
		fputs("**yes**, HOST_ORIGINATED_RISK", out);
	else if (tag_has(t, "UNTRACED_HOST_BLOCKING_RISK"))
		fputs("**possibly, untraced**: UNTRACED_HOST_BLOCKING_RISK "
		    "(host evidence is sparse)", out);
	else
		fputs("not flagged", out);
	if (tag_has(t, "COMM_SYNC_RISK"))
		fputs("; COMM_SYNC_RISK", out);
	if (tag_has(t, "PARTIAL_CAPTURE_BOUNDARY"))
		fputs("; PARTIAL_CAPTURE_BOUNDARY (gaps cut by the capture "
		    "are not blamed on the host)", out);
	fprintf(out, "; %" PRIu64 " host event(s) traced on this rank.\n",
	    d->nhost);
}

static void
q_evidence(const struct rdev *d)
{
	size_t i;
	int named = 0;

	fprintf(out, "   - rank %s: ", d->id);
	for (i = 0; i < d->ncauses; i++) {
		const struct rcause *c = &d->causes[i];
		if (strcmp(c->scope, "global") != 0 ||
		    strcmp(c->label, "insufficient_evidence") == 0)
			continue;
		fprintf(out, "%s%s (%s, confidence %s)", named++ ? ", " :
		    "candidates, not a proven root cause: ", c->label,
		    certainty(c->confidence), c->confidence);
	}
	if (named)
		fputs(".\n", out);
	else if (d->ncauses == 0)
		fputs("**no**: no cause records (the stream did not go "
		    "through prof-attrib).\n", out);
	else
		fputs("**no**: insufficient evidence for a root cause; see "
		    "the follow-ups below.\n", out);
}

static void
summary(void)
{
	static const struct {
		const char *q;
		void (*fn)(const struct rdev *);
	} qs[] = {
		{ "Significant device idle bubbles?", q_idle },
		{ "In which step type or group?", q_group },
		{ "Mainly prelaunch, tail, internal or inter-step?",
		    q_pattern },
		{ "Significant host-originated risk?", q_host },
		{ "Is the evidence enough for a root cause?", q_evidence },
	};
	size_t i, j;

	fputs("## Summary\n\n", out);
	if (M->ndevs == 0) {
		fputs("The stream holds no records: nothing was captured or "
		    "everything was filtered out.\n\n", out);
		return;
	}
	for (i = 0; i < 5; i++) {
		fprintf(out, "%zu. %s\n", i + 1, qs[i].q);
		for (j = 0; j < M->ndevs; j++)
			qs[i].fn(M->devs[j]);
	}
	putc('\n', out);
}

static void
capture_table(void)
{
	size_t i;

	fputs("### Capture\n\n| rank | span (ms) | device busy (ms) | "
	    "device idle (ms) | idle ratio | gaps | largest gap (ms) | "
	    "kernels | host events | comm ops |\n"
	    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", out);
	for (i = 0; i < M->ndevs; i++) {
		const struct rdev *d = M->devs[i];
		fprintf(out, "| %s | ", d->id);
		ms(model_cap(d, "capture_span_ns"));
		fputs(" | ", out);
		ms(model_cap(d, "capture_busy_union_ns"));
		fputs(" | ", out);
		ms(model_cap(d, "capture_gap_ns"));
		fputs(" | ", out);
		ratio(model_cap(d, "capture_gap_ratio"));
		fputs(" | ", out);
		put_dec(out, model_cap(d, "capture_gap_count"), 0, 0);
		fputs(" | ", out);
		ms(model_cap(d, "largest_gap_ns"));
		fprintf(out, " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n",
		    d->nkernel, d->nhost, d->ncomm);
	}
	putc('\n', out);
}

static void
group_table(void)
{
	size_t i, j;

	fputs("### Step groups (the hidden-issue metrics)\n\n"
	    "| rank | group | steps | service avg (ms) | busy avg (ms) | "
	    "underfeed ratio avg / median / p90 / p95 | prelaunch avg (ms) "
	    "| internal avg (ms) | tail avg (ms) | largest internal p95 (ms) "
	    "| steps with bubbles (ratio) | pattern |\n"
	    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	    out);
	for (i = 0; i < M->ndevs; i++)
		for (j = 0; j < M->devs[i]->ngroups; j++) {
			const struct rgroup *g = &M->devs[i]->groups[j];
			fprintf(out, "| %s | %s%s | %s | ", M->devs[i]->id,
			    g->id, g->dominant ? " (dominant)" : "",
			    g->size ? g->size : "-");
			ms(model_stat(g, "service_ns_avg"));
			fputs(" | ", out);
			ms(model_stat(g, "busy_union_ns_avg"));
			fputs(" | ", out);
			ratio(model_stat(g, "underfeed_ratio_avg"));
			fputs(" / ", out);
			ratio(model_stat(g, "underfeed_ratio_median"));
			fputs(" / ", out);
			ratio(model_stat(g, "underfeed_ratio_p90"));
			fputs(" / ", out);
			ratio(model_stat(g, "underfeed_ratio_p95"));
			fputs(" | ", out);
			ms(model_stat(g, "prelaunch_gap_ns_avg"));
			fputs(" | ", out);
			ms(model_stat(g, "internal_bubble_total_ns_avg"));
			fputs(" | ", out);
			ms(model_stat(g, "tail_gap_ns_avg"));
			fputs(" | ", out);
			ms(model_stat(g, "largest_internal_bubble_ns_p95"));
			fputs(" | ", out);
			ratio(model_stat(g, "recurring_step_ratio"));
			fprintf(out, " | %s |\n", g->pattern ? g->pattern :
			    "-");
		}
	putc('\n', out);
}

static void
step_table(void)
{
	size_t i, j, more = 0;

	fputs("### Steps\n\n| rank | step | group | service (ms) | busy (ms) "
	    "| underfeed ratio | prelaunch (ms) | internal (ms) | tail (ms) "
	    "| largest internal (ms) | bubbles | tags |\n"
	    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	    out);
	for (i = 0; i < M->ndevs; i++)
		for (j = 0; j < M->devs[i]->nsteps; j++) {
			const struct rstep *s = &M->devs[i]->steps[j];
			if (j >= render_opts.steps) {
				more++;
				continue;
			}
			fprintf(out, "| %s | %s | %s | ", M->devs[i]->id,
			    *s->step ? s->step : "-",
			    *s->group ? s->group : "-");
			ms(s->m[SM_SERVICE]);
			fputs(" | ", out);
			ms(s->m[SM_BUSY]);
			fputs(" | ", out);
			ratio(s->m[SM_UNDERFEED_RATIO]);
			fputs(" | ", out);
			ms(s->m[SM_PRELAUNCH]);
			fputs(" | ", out);
			ms(s->m[SM_INTERNAL]);
			fputs(" | ", out);
			ms(s->m[SM_TAIL]);
			fputs(" | ", out);
			ms(s->m[SM_LARGEST]);
			fputs(" | ", out);
			put_dec(out, s->m[SM_BUBBLES], 0, 0);
			fprintf(out, " | %s |\n", *s->tags ? s->tags : "-");
		}
	if (more)
		fprintf(out, "\n%zu more step(s) are in the JSON report "
		    "(-f json, .steps) or shown with -s.\n", more);
	putc('\n', out);
}

static void
metrics(void)
{
	fputs("## Metrics\n\n", out);
	capture_table();
	group_table();
	step_table();
}

void
render_md(FILE *f, const struct rmodel *m)
{
	struct rrec *r;
	size_t i, n;

	out = f;
	M = m;
	fprintf(out, "# Anomaly report: %s\n\n", m->name);
	fprintf(out, "Stages: %zu", m->nstages);
	for (i = 0; i < m->nstages; i++) {
		size_t l = strcspn(m->stages[i], " ");
		fprintf(out, "%s%.*s", i ? " | " : " (", (int)l,
		    m->stages[i]);
	}
	fprintf(out, "%s; %" PRIu64 " records, %zu rank(s).  Times in ms "
	    "are from the stream's origin", m->nstages ? ")" : "",
	    m->nrecords, m->ndevs);
	if (m->origin)
		fprintf(out, " (%s ns since the epoch)", m->origin);
	fputs(".\n\n", out);
	summary();
	metrics();
	render_md_findings(out, m);
	fputs("## Recommendations\n\n", out);
	n = recs_build(m, &r);
	if (n == 0)
		fputs("None: the stages found nothing to act on.\n\n", out);
	else
		fputs("| priority | scope | target | action | follow-up "
		    "required | evidence gap | ranks |\n"
		    "|---|---|---|---|---|---|---|\n", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "| P%d | %s | ", r[i].prio, r[i].scope);
		put_md(out, r[i].target);
		fprintf(out, " | %s | %s | %s | %s |\n", r[i].action,
		    r[i].followup ? "yes" : "no", *r[i].gap ? r[i].gap : "-",
		    r[i].devs);
	}
	recs_free(r, n);
	fputs("\nPriorities: P0 a labelled cause of medium or high "
	    "confidence on a rank whose dominant step group is "
	    "DEVICE_IDLE_GAP_HEAVY; P1 a low-confidence cause, insufficient "
	    "evidence or a follow-up there, or an AI CPU op running while the AI Core "
	    "idles; P2 causes and follow-ups on ranks without heavy idle "
	    "time, wait-anchor false hotspots, wait pollution; P3 the "
	    "rest.\n", out);
}
