/*
 * prof-render: the step a single-step view shows, and why.  With
 * --step the step named; else the busiest: the step whose windows hold
 * the most device busy time (prof-bubbles' busy_union_ns, the union of
 * the device intervals clipped to the window, summed over the ranks
 * that have the step), the earliest on a tie (doc/analysis-rules.md,
 * Reports).  A step is an id shared by the ranks: step 552 of every
 * rank is one step, so that the view shows the ranks side by side.
 * Ranks without a device timeline (no device data, an op-simulator
 * trace) are left out, as from the step table.
 *
 * The busiest, not the first or the last: the capture boundary cuts the
 * first and the last steps, warm-up and compilation slow the first
 * ones, and a step that did the most device work is where a kernel,
 * copy or bubble costs the most; it is what xprof's and HTA's
 * one-step views are opened on by hand.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "xalloc.h"

/* One step id: its busy time over the ranks and its earliest start. */
struct cand {
	const char	*step;
	int64_t		 busy, ts;
	int		 has_busy;
	size_t		 nranks;
};

static int
cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return strcmp(x->step, y->step);
}

/* The busy time of a window as written (integer ns), or -1. */
static int64_t
step_busy(const struct rstep *s)
{
	const char *v = s->m[SM_BUSY];
	char *end;
	long long n;

	if (v == NULL || *v == '\0')
		return -1;
	n = strtoll(v, &end, 10);
	return *end == '\0' && n >= 0 ? (int64_t)n : -1;
}

/* Whether A is to be shown rather than B (more busy, then earlier). */
static int
better(const struct cand *a, const struct cand *b)
{
	if (a->has_busy != b->has_busy)
		return a->has_busy;
	if (a->busy != b->busy)
		return a->busy > b->busy;
	if (a->ts != b->ts)
		return a->ts < b->ts;
	return dec_cmp(a->step, b->step) < 0;
}

/*
 * Gather the step ids of every rank's windows (one entry per id, sorted
 * by id), their busy time summed and their earliest start.
 */
static size_t
gather(const struct rmodel *m, struct cand **out)
{
	struct cand *c = NULL;
	size_t i, j, n = 0, k;

	for (i = 0; i < m->ndevs; i++)
		n += dev_timeline(m->devs[i]) ? m->devs[i]->nsteps : 0;
	if (n == 0) {
		*out = NULL;
		return 0;
	}
	c = xcalloc(n, sizeof(*c));
	n = 0;
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->nsteps; j++) {
			const struct rstep *s = &m->devs[i]->steps[j];
			int64_t b = step_busy(s);

			if (s->step == NULL || *s->step == '\0')
				continue;
			c[n].step = s->step;
			c[n].ts = s->ts;
			c[n].busy = b < 0 ? 0 : b;
			c[n].has_busy = b >= 0;
			c[n].nranks = 1;
			n++;
		}
	qsort(c, n, sizeof(*c), cand_cmp);
	for (i = 0, k = 0; i < n; i++) {
		if (k > 0 && strcmp(c[k - 1].step, c[i].step) == 0) {
			struct cand *p = &c[k - 1];

			if (c[i].has_busy) {
				p->busy = INT64_MAX - p->busy < c[i].busy ?
				    INT64_MAX : p->busy + c[i].busy;
				p->has_busy = 1;
			}
			p->ts = c[i].ts < p->ts ? c[i].ts : p->ts;
			p->nranks++;
			continue;
		}
		c[k++] = c[i];
	}
	*out = c;
	return k;
}

/*
 * The ranks whose window of the step lies outside their dominant step
 * group (a warm-up step, one that differs from the rest): the view then
 * says so, as the step is not a typical one there.
 */
static void
off_group(const struct rmodel *m, struct rstepsel *sel)
{
	size_t i, j, at = 0;
	const struct rgroup *g;
	int n;

	for (i = 0; i < m->ndevs; i++) {
		g = dev_timeline(m->devs[i]) ? model_dominant(m->devs[i]) :
		    NULL;
		for (j = 0; g != NULL && j < m->devs[i]->nsteps; j++) {
			const struct rstep *s = &m->devs[i]->steps[j];

			if (strcmp(s->step, sel->step) != 0 || s->group == NULL ||
			    *s->group == '\0' || strcmp(s->group, g->id) == 0)
				continue;
			n = snprintf(sel->off + at, sizeof(sel->off) - at,
			    "%s%s", at ? ", " : "", m->devs[i]->id);
			if (n < 0 || (size_t)n >= sizeof(sel->off) - at) {
				/* too many to list: end with an ellipsis */
				memcpy(sel->off + sizeof(sel->off) - 5, ", ...",
				    5);
				sel->off[sizeof(sel->off) - 1] = '\0';
				return;
			}
			at += (size_t)n;
		}
	}
}

int
render_step_pick(const struct rmodel *m, const char *named,
    struct rstepsel *sel)
{
	struct cand *c, *best = NULL;
	size_t i, n = gather(m, &c);

	memset(sel, 0, sizeof(*sel));
	sel->named = named;
	sel->nsteps = n;
	for (i = 0; i < n; i++) {
		if (named != NULL ? strcmp(c[i].step, named) == 0 :
		    best == NULL || better(&c[i], best))
			best = &c[i];
	}
	/* without any busy time, no step is the busiest */
	if (best != NULL && (named != NULL || best->has_busy)) {
		sel->step = best->step;
		sel->busy = best->has_busy ? best->busy : -1;
		sel->ts = best->ts;
		sel->nranks = best->nranks;
	}
	free(c);
	if (sel->step != NULL)
		off_group(m, sel);
	return sel->step != NULL;
}

/*
 * The choice in words: "step 552 (the busiest: 123.456 ms of device
 * time, of 5 steps)".
 */
void
render_step_reason(FILE *f, const struct rstepsel *sel)
{
	if (sel->step == NULL) {
		if (sel->named != NULL)
			fprintf(f, "step %s (named with --step) is not in the "
			    "stream, which has %zu step(s)", sel->named,
			    sel->nsteps);
		else
			fputs("no step has a busy time (the stream did not go "
			    "through prof-steps, prof-merge and prof-bubbles)",
			    f);
		return;
	}
	fprintf(f, "step %s (%s", sel->step, sel->named != NULL ?
	    "named with --step; " : sel->nsteps == 1 ? "the only step: " :
	    "the busiest: ");
	if (sel->busy >= 0) {
		put_ms(f, sel->busy, 3);
		fputs(" ms of device time", f);
	} else
		fputs("device time unknown", f);
	if (sel->nranks > 1)
		fprintf(f, " summed over %zu ranks", sel->nranks);
	fprintf(f, ", of %zu step%s", sel->nsteps, sel->nsteps == 1 ? "" :
	    "s");
	if (sel->off[0] != '\0')
		fprintf(f, "; not of the dominant step group on rank(s) %s",
		    sel->off);
	putc(')', f);
}

/* What the choice was, as the JSON report names it. */
const char *
render_step_how(const struct rstepsel *sel)
{
	return sel->named != NULL ? "named" : sel->nsteps == 1 ? "only" :
	    "busiest";
}
