/*
 * -f text: the answer in a screenful, for a terminal.  Per rank: how much
 * of a step the device idles and where, the three longest bubbles with
 * their labels, the causes, the costliest op; then the first
 * recommendations.  The Markdown report has the evidence behind it.
 */
#include <config.h>

#include <inttypes.h>
#include <string.h>

#include "render.h"

/* A kernel name cut to fit a line (C++ templates run to 500 bytes). */
static void
name(struct rctx *rc, const char *s)
{
	size_t n = strlen(s);

	if (n <= 48)
		fputs(s, rc->out);
	else
		fprintf(rc->out, "%.45s...", s);
}

static void
rank(struct rctx *rc, const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);
	size_t i;

	fprintf(rc->out, "rank %s: ", d->id);
	if (g != NULL && g->pattern != NULL) {
		fputs("idle ", rc->out);
		put_dec(rc->out, model_stat(g, "underfeed_ns_avg"), 6, 3);
		fputs(" ms of ", rc->out);
		put_dec(rc->out, model_stat(g, "service_ns_avg"), 6, 3);
		fputs(" ms per step (underfeed ratio ", rc->out);
		put_dec(rc->out, model_stat(g, "underfeed_ratio_avg"), 0, 6);
		fprintf(rc->out, "), group %s of %s step(s), mainly %s\n",
		    g->id,
		    g->size ? g->size : "?", g->pattern);
		if (*g->pattern_tags)
			fprintf(rc->out, "  tags: %s\n", g->pattern_tags);
	} else
		fprintf(rc->out, "%" PRIu64 " kernels, %" PRIu64 " bubbles, no "
		    "step statistics\n", d->nkernel, d->nbubbles);
	for (i = 0; i < d->ntop && i < 3; i++) {
		const struct rbubble *b = &d->top[i];
		fputs(i ? "                   " : "  longest bubbles: ",
		    rc->out);
		put_ms(rc->out, b->dur, 3);
		fprintf(rc->out, " ms %s at ", b->scope);
		put_ms(rc->out, b->ts, 3);
		fputs(" ms, ", rc->out);
		name(rc, *b->prev_name ? b->prev_name : "(start)");
		fputs(" -> ", rc->out);
		name(rc, *b->next_name ? b->next_name : "(end)");
		fprintf(rc->out, " [%s]\n",
		    *b->labels ? b->labels : "no labels");
	}
	for (i = 0; i < d->ncauses; i++) {
		const struct rcause *c = &d->causes[i];
		int ie = strcmp(c->label, "insufficient_evidence") == 0;
		fprintf(rc->out,
		    "  cause (%s%s%s): %s (%s, confidence %s)%s%s\n",
		    *c->scope ? c->scope : "global", *c->target ? " " : "",
		    c->target, c->label, ie ? "no cause supported" :
		    certainty(c->confidence), c->confidence,
		    *c->followup ? "; follow-up " : "", c->followup);
	}
	for (i = 0; i < d->nops; i++)
		if (d->ops[i].rank == 1) {
			fputs("  costliest op: ", rc->out);
			name(rc, d->ops[i].name);
			fputs(", ", rc->out);
			put_dec(rc->out, d->ops[i].cost_avg, 3, 3);
			fputs(" us per call, wait ratio ", rc->out);
			put_dec(rc->out, d->ops[i].wait_ratio, 0, 6);
			fprintf(rc->out, "%s%s\n", *d->ops[i].tags ? ", " : "",
			    d->ops[i].tags);
		}
}

void
render_text(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct rrec *r;
	size_t i, n;

	fprintf(rc->out, "%s: %zu rank(s), %" PRIu64 " records\n", m->name,
	    m->ndevs, m->nrecords);
	for (i = 0; i < m->ndevs; i++)
		rank(rc, m->devs[i]);
	n = recs_build(m, &r);
	if (n > 0)
		fputs("recommendations:\n", rc->out);
	for (i = 0; i < n && i < 6; i++)
		fprintf(rc->out, "  P%d %s%s%s: %s (ranks %s)\n", r[i].prio,
		    r[i].scope, *r[i].target ? " " : "", r[i].target,
		    r[i].action, r[i].devs);
	if (n > 6)
		fprintf(rc->out, "  ... %zu more in the Markdown report "
		    "(-f md)\n", n - 6);
	recs_free(r, n);
}
