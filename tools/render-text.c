/*
 * -f text: the answer in a screenful, for a terminal.  First what bounds
 * each rank (prof-verdict's verdict: the class, its share of the step,
 * the time at stake, the confidence, the MFU or how to get it) and the
 * time budget of a step; then per rank how much of a step the device
 * idles and where, the host events during the idle time, the three
 * longest bubbles, the causes, the costliest op; then the
 * recommendations in their order.  The Markdown report has the evidence
 * behind it.
 *
 * Every line fits the width prof-render was given (the terminal's, else
 * $COLUMNS, else 80): a logical line is built whole, then wrapped at
 * spaces, its continuation lines indented; a word wider than the line is
 * broken.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render.h"

/* A space the wrapping does not break at: "3.476 ms" stays whole. */
#define NB	"\001"

/* A logical line, built in memory and written wrapped. */
struct tline {
	FILE	*f;
	char	*buf;
	size_t	 len;
};

static FILE *
line_open(struct tline *l)
{
	l->buf = NULL;
	l->len = 0;
	if ((l->f = open_memstream(&l->buf, &l->len)) == NULL)
		diag_errno(EXIT_BAD, "open_memstream");
	return l->f;
}

/* Bytes of S that fit COLS columns (at least one character). */
static size_t
fit(const char *s, size_t cols)
{
	size_t i, w = 0;

	for (i = 0; s[i] != '\0'; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && w++ == cols &&
		    i > 0)
			break;
	return i;
}

/* N bytes of S, the non-breaking spaces as spaces. */
static void
put_part(FILE *f, const char *s, size_t n)
{
	for (; n > 0; s++, n--)
		putc(*s == '\001' ? ' ' : *s, f);
}

/* The bytes of the word at S: up to a space, or through a comma. */
static size_t
word_len(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0' && s[n] != ' ' && (n == 0 || s[n - 1] != ','))
		n++;
	return n;
}

/*
 * Write the line wrapped to the width: break at the last space (or
 * after the last comma of a list written without spaces) that fits,
 * indent the continuation lines by HANG columns.  A word is never
 * broken: one wider than a continuation line (a long kernel name under
 * a deep indent) starts its line further left, down to 2 columns, and
 * only one wider than that is shortened with an ellipsis.
 */
static void
line_close(struct rctx *rc, struct tline *l, size_t hang)
{
	size_t width = (size_t)rc->width, ind = 0, n, k, wl;
	const char *s;

	if (fclose(l->f) != 0)
		diag_errno(EXIT_BAD, "open_memstream");
	if (hang > width / 2)
		hang = width / 2;
	for (s = l->buf; ; ) {
		if (text_width(s) <= width - ind) {
			fprintf(rc->out, "%*s", (int)ind, "");
			put_part(rc->out, s, strlen(s));
			putc('\n', rc->out);
			break;
		}
		wl = word_len(s + strspn(s, " ")) + strspn(s, " ");
		if (ind > 0)
			while (ind > 2 && fit(s, width - ind) < wl)
				ind--;
		fprintf(rc->out, "%*s", (int)ind, "");
		n = fit(s, width - ind);
		if (n < wl) {
			/* wider than any line: shortened */
			n = fit(s, width - ind - 1);
			put_part(rc->out, s, n);
			fputs("\xe2\x80\xa6", rc->out);
			n = wl;
		} else {
			/* the last space within the fit, not the indent */
			for (k = n; k > 0 && s[k] != ' ' && s[k - 1] != ',';
			    k--)
				;
			while (k > 0 && s[k - 1] == ' ')
				k--;
			if (k > strspn(s, " "))
				n = k;
			put_part(rc->out, s, n);
		}
		s += n;
		s += strspn(s, " ");
		putc('\n', rc->out);
		if (*s == '\0')
			break;
		ind = hang;
	}
	free(l->buf);
}

/* A line of fixed text, wrapped too. */
static void
say(struct rctx *rc, const char *s)
{
	struct tline l;

	fputs(s, line_open(&l));
	line_close(rc, &l, 2);
}

static void
ms(FILE *f, const char *ns)
{
	put_dec(f, ns, 6, 3);
}

/* "communication-bound, 66.0% of the step, 101.963 ms per step ..." */
static void
verdict_item(struct rctx *rc, const struct rdev *d)
{
	const struct rverdict *v = d->verdict;
	struct tline l;
	FILE *f = line_open(&l);

	fprintf(f, "  rank %s: ", d->id);
	if (v == NULL)
		fputs("no verdict record for this rank", f);
	else if (strcmp(v->cls, "no_device_data") == 0)
		fprintf(f, "no device data: %s (not idle)", *v->evidence ?
		    v->evidence : verdict_about(v->cls));
	else if (strcmp(v->cls, "in_core") == 0) {
		fprintf(f, "in-core, bounded by the %s pipe (op-simulator "
		    "trace): ", *v->pipe ? v->pipe : "unknown");
		put_pct(f, v->share);
		fprintf(f, " of the span, confidence %s%s%s", v->confidence,
		    *v->tags ? "; tags " : "", v->tags);
	} else {
		fprintf(f, "%s, ", verdict_words_of(v));
		put_pct(f, v->share);
		fputs(" of the step, ", f);
		ms(f, v->stake);
		fputs(" ms per step at stake of ", f);
		ms(f, v->window);
		fprintf(f, " ms, confidence %s", *v->confidence ?
		    v->confidence : "-");
		if (*v->second) {
			fprintf(f, "; runner-up %s ", v->second);
			put_pct(f, v->second_ratio);
		}
		fputs("; ", f);
		put_mfu(f, v);
		if (*v->tags)
			fprintf(f, "; tags %s", v->tags);
	}
	line_close(rc, &l, 4);
}

/* The budget parts of the run, largest first, zero ones left out. */
static void
budget_line(struct rctx *rc, const struct rdev *d)
{
	const struct rbudget *b[RP_N], *t;
	struct tline l;
	FILE *f;
	size_t i, j, n = 0;

	for (i = 0; i < RP_N; i++)
		if ((t = budget_part(d, "run", NULL, render_part[i])) != NULL &&
		    *t->per_step && dec_cmp(t->per_step, "0") != 0) {
			for (j = n++; j > 0 && dec_cmp(b[j - 1]->per_step,
			    t->per_step) < 0; j--)
				b[j] = b[j - 1];
			b[j] = t;
		}
	if (n == 0)
		return;
	f = line_open(&l);
	fprintf(f, "  rank %s", d->id);
	if (d->verdict != NULL && *d->verdict->window) {
		fputs(", ", f);
		ms(f, d->verdict->window);
		fprintf(f, " ms per step over %s step(s)", *d->verdict->steps ?
		    d->verdict->steps : "?");
	}
	fputs(":", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s %s" NB, i ? "," : "", b[i]->part);
		ms(f, b[i]->per_step);
		fputs(NB "ms" NB, f);
		put_pct(f, b[i]->share);
	}
	line_close(rc, &l, 4);
}

/* The verdict of every rank, then the budget: the first lines. */
static void
verdicts(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct tline l;
	size_t i;
	int any = 0;

	if (!m->verdict_ran) {
		line_open(&l);
		fputs("verdict: none, prof-verdict did not run: add "
		    "prof-verdict to the pipeline, last before prof-render, "
		    "to learn what bounds each rank", l.f);
		line_close(rc, &l, 2);
		return;
	}
	say(rc, "verdict (prof-verdict):");
	for (i = 0; i < m->ndevs; i++)
		if (*m->devs[i]->id != '\0')
			verdict_item(rc, m->devs[i]);
	for (i = 0; i < m->ndevs; i++)
		if (budget_has(m->devs[i])) {
			if (!any++)
				say(rc, "time budget per step (ms, % of the "
				    "step window):");
			budget_line(rc, m->devs[i]);
		}
}

/* The host events during the idle time of the dominant group. */
static void
hostcov(struct rctx *rc, const struct rdev *d, const struct rgroup *g)
{
	struct tline l;
	FILE *f = NULL;
	size_t i, n = 0;

	for (i = 0; i < d->nhostcov; i++) {
		const struct rhostcov *h = &d->hostcov[i];
		if (strcmp(h->scope, "group") != 0 || (g != NULL &&
		    strcmp(h->group, g->id) != 0))
			continue;
		if (n++ == 0) {
			f = line_open(&l);
			fprintf(f, "  host during idle time%s%s:", g ? " of "
			    "group " : "", g ? g->id : "");
		}
		fputs(n > 1 ? ", " : " ", f);
		put_name(f, h->name);
		fputs(" ", f);
		put_pct(f, h->share);
		fprintf(f, " (%s)", *h->cls ? h->cls : "?");
	}
	if (n > 0)
		line_close(rc, &l, 4);
}

/* The idle time of a step, and of the capture against the steps'. */
static void
idle(struct rctx *rc, const struct rdev *d, const struct rgroup *g)
{
	struct ridle r;
	struct tline l;
	FILE *f = line_open(&l);
	const char *sig = model_stat(g, "significant_bubble_count_avg");

	fprintf(f, "rank %s: idle ", d->id);
	ms(f, model_stat(g, "underfeed_ns_avg"));
	fputs(" ms of ", f);
	ms(f, model_stat(g, "service_ns_avg"));
	/* the mean of the steps' shares, not the ratio of the means */
	fputs(" ms per step (a step's share averages ", f);
	put_pct(f, model_stat(g, "underfeed_ratio_avg"));
	fprintf(f, "), group %s of %s step(s), mainly %s", g->id,
	    g->size ? g->size : "?", g->pattern);
	if (sig != NULL) {
		fputs("; ", f);
		const char *all = model_stat(g, "bubble_count_avg");

		/* an average that is a whole number is shown as one */
		put_dec(f, sig, 0, strchr(sig, '.') != NULL);
		fputs(" significant bubble(s) per step (of ", f);
		put_dec(f, all, 0, all != NULL && strchr(all, '.') != NULL);
		fputs(" gaps)", f);
	}
	line_close(rc, &l, 4);
	if (*g->pattern_tags) {
		f = line_open(&l);
		fprintf(f, "  tags: %s", g->pattern_tags);
		line_close(rc, &l, 4);
	}
	if (idle_reconcile(d, &r)) {
		f = line_open(&l);
		fputs("  ", f);
		put_idle_sentence(f, &r);
		line_close(rc, &l, 4);
	}
}

static void
bubbles(struct rctx *rc, const struct rdev *d)
{
	struct tline l;
	FILE *f;
	size_t i;

	for (i = 0; i < d->ntop && i < 3; i++) {
		const struct rbubble *b = &d->top[i];
		f = line_open(&l);
		fputs(i ? "                   " : "  longest bubbles: ", f);
		put_ms(f, b->dur, 3);
		fprintf(f, " ms %s at ", b->scope);
		put_ms(f, b->ts, 3);
		fputs(" ms, ", f);
		put_name(f, *b->prev_name ? b->prev_name : "(start)");
		fputs(" -> ", f);
		put_name(f, *b->next_name ? b->next_name : "(end)");
		fprintf(f, " [%s]", *b->labels ? b->labels : "no labels");
		if (*b->host_top) {
			fputs("; host: ", f);
			put_host_top(f, b->host_top, put_name);
		}
		line_close(rc, &l, 21);
	}
}

static void
causes_ops(struct rctx *rc, const struct rdev *d)
{
	struct tline l;
	FILE *f;
	size_t i;

	for (i = 0; i < d->ncauses; i++) {
		const struct rcause *c = &d->causes[i];
		int ie = strcmp(c->label, "insufficient_evidence") == 0;
		f = line_open(&l);
		fprintf(f, "  cause (%s%s%s): %s (%s, confidence %s)%s%s",
		    *c->scope ? c->scope : "global", *c->target ? " " : "",
		    c->target, c->label, ie ? "no cause supported" :
		    certainty(c->confidence), c->confidence,
		    *c->followup ? "; follow-up " : "", c->followup);
		line_close(rc, &l, 4);
	}
	for (i = 0; i < d->nops; i++)
		if (d->ops[i].rank == 1) {
			f = line_open(&l);
			fputs("  costliest op: ", f);
			put_name(f, d->ops[i].name);
			fputs(", ", f);
			put_dec(f, d->ops[i].cost_avg, 3, 3);
			fputs(" us per call, wait ", f);
			put_pct(f, d->ops[i].wait_ratio);
			fprintf(f, "%s%s", *d->ops[i].tags ? ", " : "",
			    d->ops[i].tags);
			line_close(rc, &l, 4);
		}
}

static void
rank(struct rctx *rc, const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);
	struct tline l;

	if (dev_nodata(d)) {
		line_open(&l);
		fprintf(l.f, "rank %s: no device data (no device kernels): "
		    "nothing to say of its idle time", d->id);
		line_close(rc, &l, 4);
		return;
	}
	if (dev_incore(d)) {
		line_open(&l);
		fprintf(l.f, "rank %s: an op-simulator trace: the verdict "
		    "above is its bounding pipe; no step or bubble analysis",
		    d->id);
		line_close(rc, &l, 4);
		return;
	}
	if (g != NULL && g->pattern != NULL)
		idle(rc, d, g);
	else {
		line_open(&l);
		fprintf(l.f, "rank %s: %" PRIu64 " kernels, %" PRIu64
		    " bubbles, no step statistics", d->id, d->nkernel,
		    d->nbubbles);
		line_close(rc, &l, 4);
	}
	hostcov(rc, d, g);
	bubbles(rc, d);
	causes_ops(rc, d);
}

/* Free text with its kernel names shortened. */
static void
put_text(FILE *f, const char *s)
{
	char *t = text_short(s);

	fputs(t, f);
	free(t);
}

/* The recommendations of prof-verdict, the first six. */
static void
recommendations(struct rctx *rc)
{
	struct rrec *r;
	struct tline l;
	FILE *f;
	size_t i, n = recs_build(rc->m, &r);
	char *t;

	if (n == 0) {
		line_open(&l);
		fputs(rc->m->verdict_ran ? "recommendations: none from "
		    "prof-verdict" : "recommendations come from prof-verdict, "
		    "which did not run: add it to the pipeline, last before "
		    "prof-render", l.f);
		line_close(rc, &l, 2);
		return;
	}
	say(rc, "recommendations (prof-verdict: the verdict's first, then by "
	    "the time at stake):");
	for (i = 0; i < n && i < 6; i++) {
		f = line_open(&l);
		t = text_short(r[i].a->text);
		fprintf(f, "  %zu. %s %s (rank%s %s): %s.  At stake ", i + 1,
		    *r[i].a->prio ? r[i].a->prio : "-", r[i].a->name,
		    r[i].n > 1 ? "s" : "", r[i].devs, *t ? t : "-");
		free(t);
		if (rec_has_stake(&r[i])) {
			put_rec_stake(f, &r[i]);
			fputs(NB "ms per step (", f);
			put_rec_share(f, &r[i]);
			fputs(" of the step)", f);
		} else
			fputs("no time measured", f);
		fputs("; evidence: ", f);
		put_rec_evidence(f, &r[i], put_text);
		fputs(strcmp(r[i].a->followup, "1") == 0 ? "; a follow-up: "
		    "capture what is missing" : "", f);
		line_close(rc, &l, 6);
	}
	if (n > 6) {
		line_open(&l);
		fprintf(l.f, "  ... %zu more in the Markdown report (-f md)",
		    n - 6);
		line_close(rc, &l, 4);
	}
	recs_free(r, n);
}

/* A logical line of another file's section, wrapped. */
static void
put_line(struct rctx *rc, const char *s, size_t hang)
{
	struct tline l;

	fputs(s, line_open(&l));
	line_close(rc, &l, hang);
}

/* prof-cluster's findings, after the verdicts; nothing without them. */
static void
across_ranks(struct rctx *rc)
{
	const struct ranks *r = rc->ranks;
	struct tline l;
	FILE *f;
	size_t i;
	const char *name;

	for (i = 0; i < ranks_count(r, RK_CLUSTER); i++) {
		name = ranks_get(r, RK_CLUSTER, i, RC_NAME);
		f = line_open(&l);
		if (strcmp(name, "slow_rank") == 0)
			fprintf(f, "across ranks: slow rank %s: %s",
			    ranks_get(r, RK_CLUSTER, i, RC_SLOW),
			    ranks_get(r, RK_CLUSTER, i, RC_EVIDENCE));
		else if (strcmp(name, "step_skew") == 0) {
			fprintf(f, "across ranks: step %s is the most skewed: "
			    "rank %s takes ", ranks_get(r, RK_CLUSTER, i,
			    RC_STEP), ranks_get(r, RK_CLUSTER, i, RC_SLOW));
			put_pct(f, ranks_get(r, RK_CLUSTER, i, RC_SKEW));
			fputs(" longer than the fastest", f);
			if (strstr(ranks_get(r, RK_CLUSTER, i, RC_TAGS),
			    "STEP_SKEW") != NULL)
				fputs(" (STEP_SKEW)", f);
		} else if (strcmp(name, "compute_imbalance") == 0) {
			fprintf(f, "across ranks: compute per step %s; the "
			    "most over the least ", ranks_get(r, RK_CLUSTER, i,
			    RC_EVIDENCE));
			put_pct(f, ranks_get(r, RK_CLUSTER, i, RC_SKEW));
		} else if (strcmp(name, "stage_imbalance") == 0) {
			fprintf(f, "across ranks: pipeline stages %s",
			    ranks_get(r, RK_CLUSTER, i, RC_EVIDENCE));
		} else if (strcmp(name, "slow_link") == 0) {
			fprintf(f, "across ranks: links %s", ranks_get(r,
			    RK_CLUSTER, i, RC_EVIDENCE));
			fputs(strstr(ranks_get(r, RK_CLUSTER, i, RC_TAGS),
			    "SLOW_LINK") != NULL ? " (SLOW_LINK: under 80% of "
			    "the median)" : "; none under 80% of the median", f);
		} else
			fprintf(f, "across ranks: %s", name);
		line_close(rc, &l, 4);
	}
}

/*
 * The single-step view: the step shown (--step, else the busiest) and
 * each rank's window, busy time and idle share in it; not for a
 * capture of one step unless --step names it.
 */
static void
step_shown(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct rstepsel sel;
	struct tline l;
	FILE *f;
	size_t i, j;

	/* one step is the whole capture: no line for it on a screenful */
	if ((!render_step_pick(m, rc->opts->step, &sel) || sel.nsteps < 2) &&
	    sel.named == NULL)
		return;
	f = line_open(&l);
	fputs("step shown: ", f);
	render_step_reason(f, &sel);
	line_close(rc, &l, 4);
	for (i = 0; sel.step != NULL && i < m->ndevs; i++)
		for (j = 0; dev_timeline(m->devs[i]) &&
		    j < m->devs[i]->nsteps; j++) {
			const struct rstep *s = &m->devs[i]->steps[j];

			if (strcmp(s->step, sel.step) != 0)
				continue;
			f = line_open(&l);
			fprintf(f, "  rank %s: window ", m->devs[i]->id);
			put_ms(f, s->dur, 3);
			fputs(NB "ms, busy ", f);
			put_dec(f, s->m[SM_BUSY], 6, 3);
			fputs(NB "ms, idle ", f);
			put_pct(f, s->m[SM_UNDERFEED_RATIO]);
			fputs(", bubbles ", f);
			put_dec(f, s->m[SM_BUBBLES], 0, 0);
			line_close(rc, &l, 4);
		}
}

void
render_text(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct tline l;
	size_t i;

	line_open(&l);
	fprintf(l.f, "%s: %zu rank(s), %" PRIu64 " records", m->name,
	    m->ndevs, m->nrecords);
	line_close(rc, &l, 2);
	verdicts(rc);
	text_ops(rc, put_line);
	across_ranks(rc);
	step_shown(rc);
	for (i = 0; i < m->ndevs; i++)
		rank(rc, m->devs[i]);
	recommendations(rc);
}
