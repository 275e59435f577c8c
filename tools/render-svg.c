/*
 * -f svg: four charts, chosen with -c; the roofline is in render-roof.c.
 *
 *   timeline   per rank, three lanes over the capture: step windows,
 *              busy segments, and bubbles coloured by their first label;
 *              segments that meet within a quarter pixel and share a
 *              colour are drawn as one rectangle, so the file stays
 *              small on long captures.
 *   breakdown  per step, a stacked bar of busy, prelaunch, internal and
 *              tail time (ms), scaled to the longest service time.
 *   ranks      per rank, a stacked bar of the mean step: device work,
 *              exposed communication, waiting for other ranks at
 *              collectives, idle time (prof-verdict's run budget and
 *              prof-cluster's waits), scaled to the longest step.
 *   roofline   kernels against the chip's roof: render-roof.c.
 *
 * Geometry is computed in double; the numbers printed as text keep the
 * stages' exact values.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render.h"

#define W	1200.0
#define LEFT	150.0
#define RIGHT	30.0

static void	text(struct rctx *, const char *);

static const char *
label_colour(const char *label)
{
	static const char *const t[][2] = {
		{ "possible_sync_or_h2d", "#d62728" },
		{ "possible_comm_wait", "#9467bd" },
		{ "possible_host_launch_lag", "#ff7f0e" },
		{ "possible_python_serialization_or_lock", "#8c564b" },
		{ "possible_untraced_host_blocking", "#e377c2" },
		{ "insufficient_evidence", "#7f7f7f" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i][0], label) == 0)
			return t[i][1];
	return "#bcbd22";
}

static void
header(struct rctx *rc, double h, const char *title)
{
	fprintf(rc->out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	    "font-family=\"sans-serif\" font-size=\"12\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	    "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">",
	    W, h, W, h);
	text(rc, title);
	fputs(" &#8212; ", rc->out);
	text(rc, rc->m->name);
	fputs("</text>\n", rc->out);
}

/*
 * S escaped for SVG text: an XML document is well-formed UTF-8 with no
 * control characters but three and no U+FFFE or U+FFFF, whatever the
 * profiler named.
 */
static void
text(struct rctx *rc, const char *s)
{
	size_t k, skip;

	for (; *s != '\0'; s++) {
		if ((unsigned char)*s >= 0x80) {
			if ((k = render_utf8(s, &skip)) == 0 || (k == 3 &&
			    memcmp(s, "\xef\xbf", 2) == 0 &&
			    (unsigned char)s[2] >= 0xbe)) {
				fputs("\xef\xbf\xbd", rc->out);	/* U+FFFD */
				s += (k ? k : skip) - 1;
			} else {
				fwrite(s, 1, k, rc->out);
				s += k - 1;
			}
			continue;
		}
		switch (*s) {
		case '<':
			fputs("&lt;", rc->out);
			break;
		case '>':
			fputs("&gt;", rc->out);
			break;
		case '&':
			fputs("&amp;", rc->out);
			break;
		case '"':
			fputs("&quot;", rc->out);
			break;
		default:
			/* XML 1.0 has no control characters but these. */
			if ((unsigned char)*s < 0x20 && *s != '\t' &&
			    *s != '\n' && *s != '\r')
				fputs("\xef\xbf\xbd", rc->out);	/* U+FFFD */
			else
				putc(*s, rc->out);
		}
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about N ticks. */
static double
nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw)));

	if (raw / p >= 5)
		return 5 * p;
	if (raw / p >= 2)
		return 2 * p;
	return p;
}

static void
time_axis(struct rctx *rc, double y0, double y1, double t0, double t1)
{
	double step = nice_step((t1 - t0) / 1e6, 8), v;
	double sx = (W - LEFT - RIGHT) / (t1 - t0);

	for (v = ceil(t0 / 1e6 / step) * step; v * 1e6 <= t1; v += step) {
		double x = LEFT + (v * 1e6 - t0) * sx;
		fprintf(rc->out, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
		    "y2=\"%.1f\" stroke=\"#ddd\"/>\n<text x=\"%.2f\" "
		    "y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, y0, x,
		    y1, x, y1 + 14, v);
	}
	fprintf(rc->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
	    "time from the stream's origin (ms)</text>\n", W - RIGHT,
	    y1 + 30);
}

/* Draw one lane's spans of kind WHAT (or bubbles when WHAT is 2). */
static void
lane(struct rctx *rc, const struct rdev *d, int what, double y, double h,
    double t0, double sx)
{
	double x0 = -1, x1 = -1;
	const char *colour = NULL, *c;
	size_t i, n = 0;

	for (i = 0; i < d->nspans; i++) {
		const struct rspan *s = &d->spans[i];
		if ((what < 2 && s->what != what) || (what == 2 && s->what < 2))
			continue;
		c = what == 0 ? (n++ % 2 ? "#9ecae1" : "#6baed6") :
		    what == 1 ? "#31a354" :
		    label_colour(rc->m->labels[s->what - 2]);
		double a = LEFT + ((double)s->ts - t0) * sx;
		double b = a + (double)s->dur * sx;
		if (what != 0 && colour == c && a <= x1 + 0.25) {
			if (b > x1)
				x1 = b;
			continue;
		}
		if (colour != NULL)
			fprintf(rc->out,
			    "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
			    "height=\"%.1f\" fill=\"%s\"/>\n", x0, y,
			    x1 - x0 < 0.5 ? 0.5 : x1 - x0, h, colour);
		colour = c;
		x0 = a;
		x1 = b;
	}
	if (colour != NULL)
		fprintf(rc->out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		    "height=\"%.1f\" fill=\"%s\"/>\n", x0, y,
		    x1 - x0 < 0.5 ? 0.5 : x1 - x0, h, colour);
}

void
render_svg_timeline(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	double t0 = 0, t1 = 0, sx, y;
	size_t i, j;
	int any = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nspans; j++) {
			const struct rspan *s = &m->devs[i]->spans[j];
			if (!any++ || (double)s->ts < t0)
				t0 = (double)s->ts;
			if ((double)(s->ts + s->dur) > t1)
				t1 = (double)(s->ts + s->dur);
		}
	header(rc,
	    60 + 80.0 * (double)m->ndevs + 60 + 20.0 * (double)m->nlabels,
	    "Step timeline: steps, busy time and bubbles by label");
	if (!any) {
		fputs("<text x=\"10\" y=\"50\">No window, busy or bubble "
		    "records: run prof-steps, prof-merge and prof-bubbles."
		    "</text>\n</svg>\n", rc->out);
		return;
	}
	if (t1 <= t0)
		t1 = t0 + 1;
	sx = (W - LEFT - RIGHT) / (t1 - t0);
	for (i = 0; i < m->ndevs; i++) {
		y = 40 + 80.0 * (double)i;
		fprintf(rc->out,
		    "<text x=\"10\" y=\"%.1f\" font-weight=\"bold\">"
		    "rank ", y + 14);
		text(rc, m->devs[i]->id);
		fprintf(rc->out,
		    "</text>\n<text x=\"70\" y=\"%.1f\">steps</text>"
		    "\n<text x=\"70\" y=\"%.1f\">busy</text>\n<text x=\"70\" "
		    "y=\"%.1f\">bubbles</text>\n", y + 14, y + 38, y + 62);
		lane(rc, m->devs[i], 0, y, 20, t0, sx);
		lane(rc, m->devs[i], 1, y + 24, 20, t0, sx);
		lane(rc, m->devs[i], 2, y + 48, 20, t0, sx);
	}
	y = 40 + 80.0 * (double)m->ndevs;
	time_axis(rc, 40, y, t0, t1);
	for (i = 0; i < m->nlabels; i++) {
		fprintf(rc->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
		    "height=\"12\" fill=\"%s\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
		    LEFT, y + 44 + 20.0 * (double)i,
		    label_colour(m->labels[i]), LEFT + 18,
		    y + 54 + 20.0 * (double)i);
		text(rc, m->labels[i]);
		fputs("</text>\n", rc->out);
	}
	fputs("</svg>\n", rc->out);
}

static double
val(const char *s)
{
	return s != NULL && *s ? strtod(s, NULL) : 0;
}

void
render_svg_breakdown(struct rctx *rc)
{
	static const struct { int m; const char *name, *colour; } part[] = {
		{ SM_BUSY, "busy", "#31a354" },
		{ SM_PRELAUNCH, "prelaunch", "#fd8d3c" },
		{ SM_INTERNAL, "internal bubbles", "#d62728" },
		{ SM_TAIL, "tail", "#9467bd" },
	};
	const struct rmodel *m = rc->m;
	double maxs = 0, sx, y = 50, x;
	size_t i, j, k, rows = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nsteps && j < rc->opts->steps;
		    j++, rows++)
			if (val(m->devs[i]->steps[j].m[SM_SERVICE]) > maxs)
				maxs = val(m->devs[i]->steps[j].m[SM_SERVICE]);
	header(rc, 90 + 22.0 * (double)rows, "Per-step time breakdown (ms)");
	if (rows == 0 || maxs <= 0) {
		fputs("<text x=\"10\" y=\"50\">No per-step metrics: run "
		    "prof-steps, prof-merge and prof-bubbles.</text>\n</svg>\n",
		    rc->out);
		return;
	}
	sx = (W - LEFT - RIGHT - 90) / maxs;
	for (k = 0; k < 4; k++)
		fprintf(rc->out, "<rect x=\"%.1f\" y=\"30\" width=\"12\" "
		    "height=\"12\" fill=\"%s\"/><text x=\"%.1f\" y=\"41\">%s"
		    "</text>\n", LEFT + 160.0 * (double)k, part[k].colour,
		    LEFT + 160.0 * (double)k + 16, part[k].name);
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nsteps && j < rc->opts->steps;
		    j++) {
			const struct rstep *s = &m->devs[i]->steps[j];
			y += 22;
			fputs("<text x=\"10\" y=\"", rc->out);
			fprintf(rc->out, "%.1f\">rank ", y + 12);
			text(rc, m->devs[i]->id);
			fputs(" step ", rc->out);
			text(rc, *s->step ? s->step : "-");
			fputs("</text>\n", rc->out);
			x = LEFT;
			for (k = 0; k < 4; k++) {
				double w = val(s->m[part[k].m]) * sx;
				fprintf(rc->out, "<rect x=\"%.2f\" y=\"%.1f\" "
				    "width=\"%.2f\" height=\"16\" fill=\"%s\">"
				    "<title>%s ", x, y, w, part[k].colour,
				    part[k].name);
				put_dec(rc->out, s->m[part[k].m], 6, 3);
				fputs(" ms</title></rect>\n", rc->out);
				x += w;
			}
			fprintf(rc->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 6,
			    y + 12);
			put_dec(rc->out, s->m[SM_SERVICE], 6, 3);
			fputs(" ms</text>\n", rc->out);
		}
	fputs("</svg>\n", rc->out);
}

/* The per-step ns of PART in D's run budget, 0 when absent. */
static double
run_part(const struct rdev *d, const char *part)
{
	const struct rbudget *b = budget_part(d, "run", NULL, part);

	return b != NULL ? val(b->per_step) : 0;
}

/*
 * Waiting is the time a rank spent in collectives before the last rank
 * arrived (prof-cluster's waited_ns over the rank's steps); it is part
 * of the rank's exposed communication, so it is taken out of it, never
 * added to the step.
 */
void
render_svg_ranks(struct rctx *rc)
{
	static const char *const work[] = { "busy_compute", "busy_memory",
	    "busy_latency", "busy_unclassed", "comm_hidden" };
	static const char *const idle[] = { "idle_sync", "idle_input",
	    "idle_launch", "idle_host", "idle_untraced" };
	static const struct { const char *name, *colour; } part[] = {
		{ "device work", "#31a354" },
		{ "exposed communication", "#1f77b4" },
		{ "waiting for other ranks", "#d62728" },
		{ "idle", "#bdbdbd" },
	};
	const struct rmodel *m = rc->m;
	double v[4], maxs = 0, sx, y = 50, x, steps, total;
	size_t i, k, rows = 0;
	const char *dev;

	for (i = 0; i < m->ndevs; i++)
		if (budget_part(m->devs[i], "run", NULL, "comm_exposed") !=
		    NULL)
			rows++;
	header(rc, 90 + 22.0 * (double)rows, "Per-rank mean step (ms)");
	if (rows == 0) {
		fputs("<text x=\"10\" y=\"50\">No time budget: run prof-verdict "
		    "(and prof-cluster for the waiting).</text>\n</svg>\n",
		    rc->out);
		return;
	}
	for (i = 0; i < m->ndevs; i++) {
		const struct rbudget *b = budget_part(m->devs[i], "run", NULL,
		    "comm_exposed");
		if (b != NULL && val(b->window) / val(b->steps) > maxs)
			maxs = val(b->window) / val(b->steps);
	}
	sx = maxs > 0 ? (W - LEFT - RIGHT - 90) / maxs : 0;
	for (k = 0; k < 4; k++)
		fprintf(rc->out, "<rect x=\"%.1f\" y=\"30\" width=\"12\" "
		    "height=\"12\" fill=\"%s\"/><text x=\"%.1f\" y=\"41\">%s"
		    "</text>\n", LEFT + 220.0 * (double)k, part[k].colour,
		    LEFT + 220.0 * (double)k + 16, part[k].name);
	for (i = 0; i < m->ndevs; i++) {
		const struct rdev *d = m->devs[i];
		const struct rbudget *b = budget_part(d, "run", NULL,
		    "comm_exposed");

		if (b == NULL)
			continue;
		steps = val(b->steps) > 0 ? val(b->steps) : 1;
		memset(v, 0, sizeof(v));
		for (k = 0; k < sizeof(work) / sizeof(work[0]); k++)
			v[0] += run_part(d, work[k]);
		v[1] = run_part(d, "comm_exposed");
		for (k = 0; k < ranks_count(rc->ranks, RK_RANK_WAIT); k++) {
			dev = ranks_get(rc->ranks, RK_RANK_WAIT, k, RC_DEV);
			if (strcmp(dev, d->id) == 0)
				v[2] = val(ranks_get(rc->ranks, RK_RANK_WAIT, k,
				    RC_WAITED)) / steps;
		}
		if (v[2] > v[1])
			v[2] = v[1];
		v[1] -= v[2];
		for (k = 0; k < sizeof(idle) / sizeof(idle[0]); k++)
			v[3] += run_part(d, idle[k]);
		y += 22;
		fprintf(rc->out, "<text x=\"10\" y=\"%.1f\">rank ", y + 12);
		text(rc, d->id);
		fputs("</text>\n", rc->out);
		x = LEFT;
		total = 0;
		for (k = 0; k < 4; k++) {
			double w = v[k] * sx;

			fprintf(rc->out, "<rect x=\"%.2f\" y=\"%.1f\" "
			    "width=\"%.2f\" height=\"16\" fill=\"%s\">"
			    "<title>%s %.3f ms</title></rect>\n", x, y, w,
			    part[k].colour, part[k].name, v[k] / 1e6);
			x += w;
			total += v[k];
		}
		fprintf(rc->out, "<text x=\"%.2f\" y=\"%.1f\">%.3f ms</text>"
		    "\n", x + 6, y + 12, total / 1e6);
	}
	fputs("</svg>\n", rc->out);
}

/* The header and the text escapes, for the roofline chart's file. */
void
svg_header(struct rctx *rc, double h, const char *title)
{
	header(rc, h, title);
}

void
svg_text(struct rctx *rc, const char *s)
{
	text(rc, s);
}
