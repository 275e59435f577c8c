/*
 * The verdict in the Markdown report: at the top of the Summary, one
 * line per rank with what bounds it (prof-verdict's class, its share of
 * the step, the time at stake, the confidence, the MFU or the option
 * that would give it, the evidence) and the time budget of a step; in
 * the Metrics, the verdict of every step group; and the Recommendations,
 * prof-verdict's advice records in their order.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "render.h"

static void
ms(FILE *f, const char *ns)
{
	put_dec(f, ns, 6, 3);
}

/* Free text for a table cell: kernel names shortened, '|' escaped. */
static void
put_short(FILE *f, const char *s)
{
	char *t = text_short(s), *p;

	for (p = t; *p != '\0'; p++)
		if (*p == '|')
			fputs("\\|", f);
		else if (*p == '\n' || *p == '\t' || *p == '\r')
			putc(' ', f);
		else
			putc(*p, f);
	free(t);
}

static void
verdict_item(struct rctx *rc, const struct rdev *d)
{
	const struct rverdict *v = d->verdict;
	FILE *f = rc->out;

	if (v == NULL) {
		fprintf(f, "- Rank %s: no verdict record.\n", d->id);
		return;
	}
	if (strcmp(v->cls, "no_device_data") == 0) {
		fprintf(f, "- **Rank %s: no device data**: %s.  Not idle: its "
		    "device side was not captured.\n", d->id, *v->evidence ?
		    v->evidence : verdict_about(v->cls));
		return;
	}
	if (strcmp(v->cls, "in_core") == 0) {
		fprintf(f, "- **Rank %s: in-core, bounded by the %s pipe** "
		    "(%s): ", d->id, *v->pipe ? v->pipe : "unknown",
		    verdict_about(v->cls));
		put_pct(f, v->share);
		fprintf(f, " of the span, confidence %s", v->confidence);
	} else {
		fprintf(f, "- **Rank %s: %s** (%s): ", d->id,
		    verdict_words_of(v), verdict_about_of(v));
		put_pct(f, v->share);
		fputs(" of the step, ", f);
		ms(f, v->stake);
		fputs(" ms per step at stake of a ", f);
		ms(f, v->window);
		fprintf(f, " ms step window (%s step%s), confidence %s",
		    *v->steps ? v->steps : "?", strcmp(v->steps, "1") == 0 ?
		    "" : "s", *v->confidence ? v->confidence : "-");
		if (*v->second) {
			fprintf(f, "; runner-up %s (", v->second);
			put_pct(f, v->second_ratio);
			fputs(")", f);
		}
		fputs(".  ", f);
		put_mfu(f, v);
	}
	if (*v->tags)
		fprintf(f, ".  Tags: %s", v->tags);
	if (*v->evidence) {
		fputs(".  Evidence: ", f);
		put_short(f, v->evidence);
	}
	fputs(".\n", f);
}

/* The budget table: a row per part, a column per rank that has one. */
static void
budget_table(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	FILE *f = rc->out;
	const struct rbudget *b;
	size_t i, k, n = 0;

	for (i = 0; i < m->ndevs; i++)
		n += budget_has(m->devs[i]);
	if (n == 0)
		return;
	fputs("Time budget of a step (ms per step, and % of the step "
	    "window; the parts add up to the window):\n\n| part | what it "
	    "is |", f);
	for (i = 0; i < m->ndevs; i++)
		if (budget_has(m->devs[i]))
			fprintf(f, " rank %s |", m->devs[i]->id);
	fputs("\n|---|---|", f);
	for (i = 0; i < n; i++)
		fputs("---:|", f);
	fputs("\n| window | the step window |", f);
	for (i = 0; i < m->ndevs; i++)
		if (budget_has(m->devs[i])) {
			const struct rverdict *v = m->devs[i]->verdict;
			fputs(" ", f);
			ms(f, v != NULL ? v->window : NULL);
			fputs(" |", f);
		}
	for (k = 0; k < RP_N; k++) {
		fprintf(f, "\n| `%s` | %s |", render_part[k],
		    render_part_words[k]);
		for (i = 0; i < m->ndevs; i++) {
			if (!budget_has(m->devs[i]))
				continue;
			b = budget_part(m->devs[i], "run", NULL,
			    render_part[k]);
			fputs(" ", f);
			if (b == NULL)
				fputs("-", f);
			else {
				ms(f, b->per_step);
				fputs(" (", f);
				put_pct(f, b->share);
				fputs(")", f);
			}
			fputs(" |", f);
		}
	}
	fputs("\n\n", f);
}

/* The Summary's first part: the verdict of every rank, the budget. */
void
md_verdict(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	size_t i;

	fputs("### Verdict\n\n", rc->out);
	if (!m->verdict_ran) {
		fputs("None: prof-verdict did not run.  Add `prof-verdict` to "
		    "the pipeline, last before `prof-render` (after "
		    "`prof-roofline` when it runs), to learn what bounds each "
		    "rank and what to do first.\n\n", rc->out);
		return;
	}
	for (i = 0; i < m->ndevs; i++)
		if (*m->devs[i]->id != '\0')
			verdict_item(rc, m->devs[i]);
	putc('\n', rc->out);
	budget_table(rc);
}

/* Metrics: the verdict of each step group, where prof-verdict made one. */
void
md_group_verdicts(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	FILE *f = rc->out;
	size_t i, j, n = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->ngverdicts; j++) {
			const struct rverdict *v = &m->devs[i]->gverdicts[j];
			if (n++ == 0)
				fputs("### Verdict per step group\n\n| rank | "
				    "group | steps | bottleneck | share of the "
				    "step | at stake (ms per step) | window "
				    "(ms per step) | confidence | runner-up | "
				    "tags |\n|---|---|---:|---|---:|---:|---:|"
				    "---|---|---|\n", f);
			fprintf(f, "| %s | %s | %s | %s | ", m->devs[i]->id,
			    *v->group ? v->group : "-", *v->steps ? v->steps :
			    "-", verdict_words_of(v));
			put_pct(f, v->share);
			fputs(" | ", f);
			ms(f, v->stake);
			fputs(" | ", f);
			ms(f, v->window);
			fprintf(f, " | %s | %s", *v->confidence ?
			    v->confidence : "-", *v->second ? v->second : "-");
			if (*v->second) {
				fputs(" ", f);
				put_pct(f, v->second_ratio);
			}
			fprintf(f, " | %s |\n", *v->tags ? v->tags : "-");
		}
	if (n > 0)
		putc('\n', f);
}

/* The Recommendations section: the advice records, merged, in order. */
void
md_recommendations(struct rctx *rc)
{
	FILE *f = rc->out;
	struct rrec *r;
	size_t i, n = recs_build(rc->m, &r);

	fputs("## Recommendations\n\n", f);
	if (n == 0) {
		fputs(rc->m->verdict_ran ? "None: prof-verdict found nothing "
		    "to act on.\n" : "Recommendations come from prof-verdict, "
		    "which did not run: add `prof-verdict` to the pipeline, "
		    "last before `prof-render`.\n", f);
		return;
	}
	fputs("| # | priority | action | what to do | at stake (ms per "
	    "step) | share of the step | scope | target | evidence | "
	    "follow-up | ranks |\n|---:|---|---|---|---:|---:|---|---|---|"
	    "---|---|\n", f);
	for (i = 0; i < n; i++) {
		const struct radvice *a = r[i].a;
		fprintf(f, "| %zu | %s | `%s` | ", i + 1, *a->prio ? a->prio :
		    "-", a->name);
		put_short(f, *a->text ? a->text : "-");
		fputs(" | ", f);
		put_rec_stake(f, &r[i]);
		fputs(" | ", f);
		put_rec_share(f, &r[i]);
		fprintf(f, " | %s | ", *a->scope ? a->scope : "-");
		put_md_name(f, a->target);
		fputs(" | ", f);
		put_rec_evidence(f, &r[i], put_short);
		fprintf(f, " | %s | %s |\n", strcmp(a->followup, "1") == 0 ?
		    "yes: capture what is missing" : "no", r[i].devs);
	}
	recs_free(r, n);
	fputs("\nIn prof-verdict's order: the verdict's own class first, "
	    "then by the time at stake per step, actions before follow-ups "
	    "among equals; the priority follows "
	    "the share of the step at stake (prof-verdict(1)).  Equal "
	    "recommendations of several ranks are one row.\n", f);
}
