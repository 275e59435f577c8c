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

static FILE *out;

/* A kernel name cut to fit a line (C++ templates run to 500 bytes). */
static void
name(const char *s)
{
	size_t n = strlen(s);

	if (n <= 48)
		fputs(s, out);
	else
		fprintf(out, "%.45s...", s);
}

static void
rank(const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);
	size_t i;

	fprintf(out, "rank %s: ", d->id);
	if (g != NULL && g->pattern != NULL) {
		fputs("idle ", out);
		put_dec(out, model_stat(g, "underfeed_ns_avg"), 6, 3);
		fputs(" ms of ", out);
		put_dec(out, model_stat(g, "service_ns_avg"), 6, 3);
		fputs(" ms per step (underfeed ratio ", out);
		put_dec(out, model_stat(g, "underfeed_ratio_avg"), 0, 6);
		fprintf(out, "), group %s of %s step(s), mainly %s\n", g->id,
		    g->size ? g->size : "?", g->pattern);
		if (*g->pattern_tags)
			fprintf(out, "  tags: %s\n", g->pattern_tags);
	} else
		fprintf(out, "%" PRIu64 " kernels, %" PRIu64 " bubbles, no "
		    "step statistics\n", d->nkernel, d->nbubbles);
	for (i = 0; i < d->ntop && i < 3; i++) {
		const struct rbubble *b = &d->top[i];
		fputs(i ? "                   " : "  longest bubbles: ", out);
		put_ms(out, b->dur, 3);
		fprintf(out, " ms %s at ", b->scope);
		put_ms(out, b->ts, 3);
		fputs(" ms, ", out);
		name(*b->prev_name ? b->prev_name : "(start)");
		fputs(" -> ", out);
		name(*b->next_name ? b->next_name : "(end)");
		fprintf(out, " [%s]\n", *b->labels ? b->labels : "no labels");
	}
	for (i = 0; i < d->ncauses; i++) {
		const struct rcause *c = &d->causes[i];
		int ie = strcmp(c->label, "insufficient_evidence") == 0;
		fprintf(out, "  cause (%s%s%s): %s (%s, confidence %s)%s%s\n",
		    *c->scope ? c->scope : "global", *c->target ? " " : "",
		    c->target, c->label, ie ? "no cause supported" :
		    certainty(c->confidence), c->confidence,
		    *c->followup ? "; follow-up " : "", c->followup);
	}
	for (i = 0; i < d->nops; i++)
		if (d->ops[i].rank == 1) {
			fputs("  costliest op: ", out);
			name(d->ops[i].name);
			fputs(", ", out);
			put_dec(out, d->ops[i].cost_avg, 3, 3);
			fputs(" us per call, wait ratio ", out);
			put_dec(out, d->ops[i].wait_ratio, 0, 6);
			fprintf(out, "%s%s\n", *d->ops[i].tags ? ", " : "",
			    d->ops[i].tags);
		}
}

void
render_text(FILE *f, const struct rmodel *m)
{
	struct rrec *r;
	size_t i, n;

	out = f;
	fprintf(out, "%s: %zu rank(s), %" PRIu64 " records\n", m->name,
	    m->ndevs, m->nrecords);
	for (i = 0; i < m->ndevs; i++)
		rank(m->devs[i]);
	n = recs_build(m, &r);
	if (n > 0)
		fputs("recommendations:\n", out);
	for (i = 0; i < n && i < 6; i++)
		fprintf(out, "  P%d %s%s%s: %s (ranks %s)\n", r[i].prio,
		    r[i].scope, *r[i].target ? " " : "", r[i].target,
		    r[i].action, r[i].devs);
	if (n > 6)
		fprintf(out, "  ... %zu more in the Markdown report "
		    "(-f md)\n", n - 6);
	recs_free(r, n);
}
