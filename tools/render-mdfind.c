/*
 * The Findings section of the Markdown report: hidden-issue discovery,
 * the top bubble windows with their host evidence, the raw kernels
 * immediately before and after each of them, the soft labels with their
 * evidence chains, wait anchors, AI CPU exposure, structure, and the
 * evidence that is missing (doc/analysis-rules.md, Reports: a sparse
 * trace still gets its anomaly section, with the labels that say so).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "xalloc.h"

static void
ms(struct rctx *rc, const char *ns)
{
	put_dec(rc->out, ns, 6, 3);
}

static void
pct(struct rctx *rc, const char *r)
{
	put_pct(rc->out, r);
}

static void
hidden(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i;

	fputs("### Hidden issue discovery\n\n", rc->out);
	if (m->ndevs == 0)
		fputs("No ranks in the stream.\n", rc->out);
	for (i = 0; i < m->ndevs; i++) {
		const struct rdev *d = m->devs[i];
		const struct rgroup *g = model_dominant(d);

		fprintf(rc->out, "- Rank %s", d->id);
		if (dev_nodata(d)) {
			fputs(": no device data (no device kernels): nothing "
			    "to discover, and not idle.\n", rc->out);
			continue;
		}
		if (dev_incore(d)) {
			fputs(": an op-simulator trace: see its verdict, the "
			    "bounding pipe.\n", rc->out);
			continue;
		}
		if (g == NULL) {
			fputs(": no step groups; the bubbles below are the "
			    "evidence.\n", rc->out);
			continue;
		}
		fprintf(rc->out, ", dominant group %s: service ", g->id);
		ms(rc, model_stat(g, "service_ns_avg"));
		fputs(" ms, busy union ", rc->out);
		ms(rc, model_stat(g, "busy_union_ns_avg"));
		fputs(" ms, idle ", rc->out);
		pct(rc, model_stat(g, "underfeed_ratio_avg"));
		fputs(" (step averages).  Periodicity: share of the group's "
		    "steps with bubbles ", rc->out);
		pct(rc, model_stat(g, "recurring_step_ratio"));
		fprintf(rc->out, " (%s).  "
		    "Host evidence: %" PRIu64 " host event(s)%s.\n",
		    g->pattern_tags && tag_has(g->pattern_tags,
		    "RECURRING_BUBBLE_PATTERN") ? "RECURRING_BUBBLE_PATTERN" :
		    "not recurring", d->nhost, d->nhost == 0 ? ": none traced, "
		    "so no bubble can be explained by host activity" : "");
	}
	putc('\n', rc->out);
}

/*
 * prof-attrib's hostcov records: the host events open during the idle
 * time of each step group (and of the steps the report shows), by the
 * idle time they cover.
 */
static void
hostcov(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j, n = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nhostcov; j++) {
			const struct rhostcov *h = &m->devs[i]->hostcov[j];
			if (n++ == 0)
				fputs("### Host events during the idle time"
				    "\n\n| rank | scope | group or step | host "
				    "event | class | idle time covered (ms) | "
				    "share of the idle time |\n|---|---|---|---|"
				    "---|---:|---:|\n", rc->out);
			fprintf(rc->out, "| %s | %s | %s | ", m->devs[i]->id,
			    *h->scope ? h->scope : "-", strcmp(h->scope,
			    "step") == 0 ? h->step : *h->group ? h->group :
			    "-");
			put_md_name(rc->out, h->name);
			fprintf(rc->out, " | %s | ", *h->cls ? h->cls : "-");
			put_dec(rc->out, h->covered, 6, 3);
			fputs(" | ", rc->out);
			pct(rc, h->share);
			fputs(" |\n", rc->out);
		}
	if (n > 0)
		fputs("\nNames are normalised so that numbered variants "
		    "group (`ProfilerStep#N`); a group's rows cover every gap "
		    "of its steps, a step's its own gaps.\n\n", rc->out);
}

static void
top_bubbles(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j;

	fprintf(rc->out,
	    "### Top bubble windows (the %zu longest per rank)\n\n",
	    rc->opts->top);
	fputs("| rank | bubble | scope | step | start (ms) | duration (ms) | "
	    "host coverage (%) | sync coverage (%) | comm coverage (%) | host "
	    "parallelism | host events covering it | idle by host activity "
	    "| labels | tags |\n"
	    "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---|---|---|\n",
	    rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->ntop; j++) {
			const struct rbubble *b = &m->devs[i]->top[j];
			fprintf(rc->out, "| %s | %s | %s | %s | ",
			    m->devs[i]->id,
			    *b->id ? b->id : "-", b->scope,
			    *b->step ? b->step : "-");
			put_ms(rc->out, b->ts, 3);
			fputs(" | ", rc->out);
			put_ms(rc->out, b->dur, 3);
			fputs(" | ", rc->out);
			pct(rc, b->host_cov);
			fputs(" | ", rc->out);
			pct(rc, b->sync_cov);
			fputs(" | ", rc->out);
			pct(rc, b->comm_cov);
			fputs(" | ", rc->out);
			put_dec(rc->out, b->host_par, 0, 2);
			fputs(" | ", rc->out);
			put_host_top(rc->out, b->host_top, put_md_name);
			fputs(" | ", rc->out);
			put_idle_split(rc->out, b);
			fprintf(rc->out, " | %s | %s |\n",
			    *b->labels ? b->labels : "-",
			    *b->tags ? b->tags : "-");
		}
	fputs("\nCoverage is the share of the bubble covered by host "
	    "events, sync/copy markers and communication markers "
	    "(prof-attrib); host parallelism is the mean number of busy "
	    "host threads; the host events covering it are the three "
	    "that cover most of it, and its idle time is split by what "
	    "the host was doing (synchronising, input pipeline, kernel "
	    "launch, other host work, nothing traced).\n\n", rc->out);
	hostcov(rc);
}

static void
kernel_cells(struct rctx *rc, const char *name, const char *core,
    const char *dur, const char *track)
{
	put_md_name(rc->out, name);
	fprintf(rc->out, " | %s | ", *core ? core : "-");
	put_dec(rc->out, dur, 3, 3);
	fprintf(rc->out, " | %s", *track ? track : "-");
}

static void
kernels(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j;

	fputs("### Kernels around each top bubble\n\n"
	    "| rank | bubble | kernel before | task type | duration (us) | "
	    "stream | kernel after | task type | duration (us) | stream |\n"
	    "|---|---|---|---|---:|---|---|---|---:|---|\n", rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->ntop; j++) {
			const struct rbubble *b = &m->devs[i]->top[j];
			fprintf(rc->out, "| %s | %s | ", m->devs[i]->id,
			    *b->id ? b->id : "-");
			kernel_cells(rc, b->prev_name, b->prev_core,
			    b->prev_dur,
			    b->prev_track);
			fputs(" | ", rc->out);
			kernel_cells(rc, b->next_name, b->next_core,
			    b->next_dur,
			    b->next_track);
			fputs(" |\n", rc->out);
		}
	fputs("\n", rc->out);
}

static void
causes(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j, n = 0;

	fputs("### Candidate causes (soft labels)\n\n", rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ncauses; j++, n++) {
			const struct rcause *c = &m->devs[i]->causes[j];
			fprintf(rc->out, "- **%s**, rank %s, %s scope%s%s: ",
			    c->label, m->devs[i]->id, *c->scope ? c->scope :
			    "global", *c->target ? " " : "", c->target);
			if (strcmp(c->label, "insufficient_evidence") == 0)
				fputs("the evidence does not support any "
				    "candidate cause", rc->out);
			else
				fprintf(rc->out, "%s cause, confidence %s; the "
				    "evidence is compatible with it, it is "
				    "not a proven root cause", certainty(
				    c->confidence), c->confidence);
			if (*c->value) {
				fputs(".  Share of the significant bubble "
				    "time: ", rc->out);
				pct(rc, c->value);
			}
			fputs(".\n", rc->out);
			if (*c->evidence)
				fprintf(rc->out, "  - Evidence chain: %s\n",
				    c->evidence);
			if (*c->tags)
				fprintf(rc->out, "  - Risk tags: %s\n",
				    c->tags);
			fprintf(rc->out, "  - Follow-up: %s\n", *c->followup ?
			    c->followup : "none required");
		}
	if (n == 0)
		fputs("No cause records: the stream did not go through "
		    "prof-attrib, so every bubble is reported as "
		    "insufficient_evidence.\n", rc->out);
	putc('\n', rc->out);
}

static void
ops(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j, n = 0;

	fputs("### Wait anchors and costly ops\n\n", rc->out);
	fputs("| rank | cost rank | op | task type | calls | avg duration "
	    "(us) | avg wait (us) | avg cost (us) | wait (%) | tags |\n"
	    "|---|---:|---|---|---:|---:|---:|---:|---:|---|\n", rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nops; j++, n++) {
			const struct rop *o = &m->devs[i]->ops[j];
			fprintf(rc->out, "| %s | %s | ", m->devs[i]->id,
			    *o->rank_cost ? o->rank_cost : "-");
			put_md_name(rc->out, o->name);
			fprintf(rc->out, " | %s | %s | ",
			    *o->core ? o->core : "-",
			    *o->calls ? o->calls : "-");
			put_dec(rc->out, o->dur_avg, 3, 3);
			fputs(" | ", rc->out);
			put_dec(rc->out, o->wait_avg, 3, 3);
			fputs(" | ", rc->out);
			put_dec(rc->out, o->cost_avg, 3, 3);
			fputs(" | ", rc->out);
			pct(rc, o->wait_ratio);
			fprintf(rc->out, " | %s |\n", *o->tags ? o->tags : "-");
		}
	if (n == 0)
		fputs("\nNo op records: the stream did not go through "
		    "prof-waitanchor.\n", rc->out);
	putc('\n', rc->out);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nops; j++) {
			const struct rop *o = &m->devs[i]->ops[j];
			if (!tag_has(o->tags, "WAIT_ANCHOR_FALSE_HOTSPOT"))
				continue;
			fprintf(rc->out, "- Rank %s: ", m->devs[i]->id);
			put_md_name(rc->out, o->name);
			fputs(" is a wait-anchor false hotspot: its cost is "
			    "waiting (wait ", rc->out);
			pct(rc, o->wait_ratio);
			fputs("), not work; the cause is the idle time before "
			    "it.\n", rc->out);
			n = 0;
		}
	if (n == 0)
		putc('\n', rc->out);
}

/*
 * The ops prof-waitanchor classed by how much of their AI CPU time the
 * AI Core hides (masked_ratio): exposed time idles the device.
 */
static void
aicpu_ops(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, j, n = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nops; j++) {
			const struct rop *o = &m->devs[i]->ops[j];
			if (strstr(o->tags, "AICPU_") == NULL)
				continue;
			if (n++ == 0)
				fputs("| rank | op | calls | avg duration (us) "
				    "| masked (%) | class |\n"
				    "|---|---|---:|---:|---:|---|\n", rc->out);
			fprintf(rc->out, "| %s | ", m->devs[i]->id);
			put_md_name(rc->out, o->name);
			fprintf(rc->out, " | %s | ",
			    *o->calls ? o->calls : "-");
			put_dec(rc->out, o->dur_avg, 3, 3);
			fputs(" | ", rc->out);
			pct(rc, o->masked);
			fprintf(rc->out, " | %s |\n", o->tags);
		}
	if (n > 0)
		fputs("\nMasked: the share of the op's AI CPU time "
		    "during which AI Core work ran; below 20% the op is "
		    "exposed and the device idles on it.\n\n", rc->out);
}

static void
aicpu(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i, k;

	fputs("### AI CPU\n\n", rc->out);
	if (m->ndevs == 0)
		fputs("No ranks in the stream.\n", rc->out);
	for (i = 0; i < m->ndevs; i++) {
		const struct rdev *d = m->devs[i];
		fprintf(rc->out, "- Rank %s: %" PRIu64 " AI CPU kernel(s)",
		    d->id,
		    d->naicpu);
		if (d->naicpu == 0) {
			fputs(".\n", rc->out);
			continue;
		}
		for (k = 0; k < AC_N; k++)
			fprintf(rc->out, "%s%s %" PRIu64, k ? ", " : ": ",
			    render_aicpu_tag[k], d->aicpu[k]);
		fputs(".\n", rc->out);
	}
	putc('\n', rc->out);
	aicpu_ops(rc);
}

static int
by_ts(const void *a, const void *b)
{
	const struct rlayer *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* A layer as "layer 12 of pass 0 (Conv)", or its type alone. */
static void
layer_name(struct rctx *rc, const struct rlayer *l)
{
	if (*l->layer != '\0' && *l->pass != '\0')
		fprintf(rc->out, "layer %s of pass %s (", l->layer, l->pass);
	put_md(rc->out, l->name);
	if (*l->layer != '\0' && *l->pass != '\0')
		fputs(")", rc->out);
}

/*
 * Where bubble B lies among the rank's layers (sorted by start): inside
 * the latest layer that starts at or before it and reaches its end, at
 * the boundary between the layer that ended before it and the next one,
 * or before the first or after the last.
 */
static void
place(struct rctx *rc, const struct rdev *d, const struct rbubble *b)
{
	const struct rlayer *prev = NULL, *next = NULL, *in = NULL;
	size_t i;

	/* past the layers kept for this, where it is is not known */
	if (d->layers_past > 0 && d->nlayers > 0 &&
	    b->ts >= d->layers[d->nlayers - 1].ts) {
		fprintf(rc->out, "past the first %zu layers (the rest are "
		    "not kept for placing)", d->nlayers);
		return;
	}
	for (i = 0; i < d->nlayers; i++) {
		const struct rlayer *l = &d->layers[i];
		if (l->ts > b->ts) {
			next = l;
			break;
		}
		if (l->ts + l->dur >= b->ts + b->dur)
			in = l;
		else if (prev == NULL || l->ts + l->dur >= prev->ts + prev->dur)
			prev = l;
	}
	if (in != NULL) {
		fputs("inside ", rc->out);
		layer_name(rc, in);
	} else if (prev != NULL && next != NULL) {
		fputs(prev->ts + prev->dur > b->ts ? "across the boundary "
		    "of " : "between ", rc->out);
		layer_name(rc, prev);
		fputs(" and ", rc->out);
		layer_name(rc, next);
		fputs(" (boundary)", rc->out);
	} else if (next != NULL) {
		fputs("before the first layer, ", rc->out);
		layer_name(rc, next);
	} else if (prev != NULL) {
		fputs("after the last layer, ", rc->out);
		layer_name(rc, prev);
	} else
		fputs("-", rc->out);
}

/*
 * The structure-level drill-down (doc/analysis-rules.md, Reports), where
 * layers exist.
 */
static void
drilldown(struct rctx *rc)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < rc->m->ndevs; i++) {
		struct rdev *d = rc->m->devs[i];
		if (d->nlayers == 0 || !dev_timeline(d))
			continue;
		qsort(d->layers, d->nlayers, sizeof(*d->layers), by_ts);
		if (!any++)
			fputs("| rank | bubble | scope | duration (ms) | where "
			    "|\n|---|---|---|---:|---|\n", rc->out);
		for (j = 0; j < d->ntop; j++) {
			const struct rbubble *b = &d->top[j];
			fprintf(rc->out, "| %s | %s | %s | ", d->id,
			    *b->id ? b->id : "-", b->scope);
			put_ms(rc->out, b->dur, 3);
			fputs(" | ", rc->out);
			place(rc, d, b);
			fputs(" |\n", rc->out);
		}
	}
	if (any)
		fputs("\nA bubble inside a layer is a gap in that layer's "
		    "kernel sequence; one between layers is a gap at a "
		    "structure boundary (the kernels around it are in the "
		    "table above).\n\n", rc->out);
}

/* Layers by the device idle inside them and before them, most first. */

/* MS, or "-" when the column was absent (-1). */
static void
ms_opt(struct rctx *rc, int64_t ns)
{
	if (ns < 0)
		fputs("-", rc->out);
	else
		put_ms(rc->out, ns, 3);
}

/*
 * Which structure holds the idle time, and which side carries the cost
 * (doc/analysis-rules.md, Block, side and the four timing views): per
 * layer type (prof-layers' layer_type
 * records) the device idle inside its layers and in the gaps before
 * them, and its block's and side's busy time and total cost; then the
 * five layers of the rank with the most idle.
 */
static void
idle_drilldown(struct rctx *rc)
{
	size_t i, j, n;
	int any = 0;

	for (i = 0; i < rc->m->ndevs; i++) {
		struct rdev *d = rc->m->devs[i];
		const struct rlayer *v;

		if (d->nltypes == 0 || d->ltypes[0].idle < 0)
			continue;
		if (!any++)
			fputs("Where the device idle time is and which side "
			    "carries the cost, per layer type (the block: the "
			    "main compute chain on the layer's marker stream, "
			    "kernels of 10 us or more; the side: communication, "
			    "AI CPU, other streams, small ops):\n\n"
			    "| rank | layer type | phase | layers | idle inside "
			    "(ms) | idle before (ms) | block busy (ms) | block "
			    "cost (ms) | side busy (ms) | side cost (ms) |\n"
			    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
			    rc->out);
		for (j = 0; j < d->nltypes; j++) {
			const struct rltype *t = &d->ltypes[j];
			fprintf(rc->out, "| %s | %s | %s | %" PRId64 " | ",
			    d->id, t->name, *t->phase ? t->phase : "-", t->n);
			ms_opt(rc, t->idle);
			fputs(" | ", rc->out);
			ms_opt(rc, t->gap);
			fputs(" | ", rc->out);
			ms_opt(rc, t->bbusy);
			fputs(" | ", rc->out);
			ms_opt(rc, t->bcost);
			fputs(" | ", rc->out);
			ms_opt(rc, t->sbusy);
			fputs(" | ", rc->out);
			ms_opt(rc, t->scost);
			fputs(" |\n", rc->out);
		}
		if (d->nidlest == 0)
			continue;
		v = d->idlest;		/* most idle first, of every layer */
		n = d->nidlest;
		fprintf(rc->out, "\nRank %s, the layers with the most device "
		    "idle (inside them, and in the gap before them: host "
		    "launch lag between layers):\n\n| layer | start (ms) | "
		    "wall (ms) | idle inside (ms) | idle before (ms) | block "
		    "busy (ms) | side busy (ms) |\n"
		    "|---|---:|---:|---:|---:|---:|---:|\n", d->id);
		for (j = 0; j < n; j++) {
			fputs("| ", rc->out);
			layer_name(rc, &v[j]);
			fputs(" | ", rc->out);
			put_ms(rc->out, v[j].ts, 3);
			fputs(" | ", rc->out);
			put_ms(rc->out, v[j].dur, 3);
			fputs(" | ", rc->out);
			ms_opt(rc, v[j].idle);
			fputs(" | ", rc->out);
			ms_opt(rc, v[j].gap);
			fputs(" | ", rc->out);
			ms_opt(rc, v[j].bbusy);
			fputs(" | ", rc->out);
			ms_opt(rc, v[j].sbusy);
			fputs(" |\n", rc->out);
		}
		fputs("\n", rc->out);
	}
}

static void
structure(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i;

	fputs("### Structure\n\n", rc->out);
	if (m->nkinds == 0)
		fputs("No layer or pass records: the structure-level "
		    "drill-down needs prof-layers.\n\n", rc->out);
	for (i = 0; i < m->nkinds; i++)
		fprintf(rc->out, "- %" PRIu64 " `%s` record(s)\n",
		    m->kinds[i].n,
		    m->kinds[i].name);
	if (m->nkinds)
		putc('\n', rc->out);
	drilldown(rc);
	idle_drilldown(rc);
}

static void
gaps(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	static const char *const need[][2] = {
		{ "prof-steps", "no step windows or groups" },
		{ "prof-merge", "no busy time" },
		{ "prof-bubbles", "no bubbles, no severity tags" },
		{ "prof-attrib", "no host evidence, no soft labels" },
		{ "prof-waitanchor", "no op view, no wait anchors" },
	};
	size_t i, j, n = 0;

	fputs("### Evidence gaps\n\n", rc->out);
	for (i = 0; i < 5; i++)
		if (!model_stage_ran(m, need[i][0])) {
			fprintf(rc->out, "- %s did not run: %s.\n", need[i][0],
			    need[i][1]);
			n++;
		}
	for (i = 0; i < m->ndevs; i++) {
		const struct rdev *d = m->devs[i];
		if (d->nhost == 0 && d->nkernel > 0) {
			fprintf(rc->out,
			    "- Rank %s has no host events: bubbles "
			    "cannot be tied to host activity "
			    "(possible_untraced_host_blocking or "
			    "insufficient_evidence).\n", d->id);
			n++;
		}
		for (j = 0; j < d->nflags; j++)
			if (d->flags[j].value[0] == '0') {
				fprintf(rc->out, "- Rank %s: %s = %s.\n", d->id,
				    d->flags[j].name, d->flags[j].value);
				n++;
			}
	}
	if (n == 0)
		fputs("None found in the stream.\n", rc->out);
	putc('\n', rc->out);
}

void
render_md_findings(struct rctx *rc)
{
	fputs("## Findings\n\n", rc->out);
	hidden(rc);
	top_bubbles(rc);
	kernels(rc);
	causes(rc);
	ops(rc);
	aicpu(rc);
	structure(rc);
	gaps(rc);
}
