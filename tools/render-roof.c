/*
 * -f svg -c roofline: the kernels against the chip's roof, a chart to
 * put in a slide.
 *
 * The roof is one shape: the memory slope (HBM bytes/s times the
 * arithmetic intensity) up to the ridge point, then the highest compute
 * roof flat; the roof of every other dtype is a dashed flat line from
 * its own ridge.  The ridge is marked and labelled with its intensity.
 * Each kernel is a disc whose area is its time, so that what matters is
 * what one sees; the longest are named where a label fits without
 * covering another.  The subtitle says which chip's peaks these are and
 * whether the trace named the chip or they were assumed (prof-roofline
 * -c, a peaks file): a roofline against an assumed chip is a what-if.
 * Ticks are in engineering units: 10 TFLOP/s, 1 PFLOP/s; 0.1, 10, 1k
 * FLOP/byte.
 *
 * The numbers written as text are the peaks' exact integers (tera());
 * geometry is double.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "render.h"
#include "xalloc.h"

#define W		1200.0
#define RIGHT		30.0
#define NLABELS		10	/* the longest kernels named on the chart */
#define CHAR_W		6.2	/* an 11 px sans-serif character, about */

/* The plot area and its log axes. */
struct plot {
	double	 x0, y0, w, h;
	double	 xlo, xhi, ylo, yhi;
};

/* A label's box, to keep the next ones off it. */
struct box {
	double	 x0, y0, x1, y1;
};

static double
px(const struct plot *p, double v)
{
	return p->x0 + (log10(v) - log10(p->xlo)) /
	    (log10(p->xhi) - log10(p->xlo)) * p->w;
}

static double
py(const struct plot *p, double v)
{
	return p->y0 + p->h - (log10(v) - log10(p->ylo)) /
	    (log10(p->yhi) - log10(p->ylo)) * p->h;
}

static double
val(const char *s)
{
	return s != NULL && *s ? strtod(s, NULL) : 0;
}

/*
 * V (a power of ten) in engineering notation with UNIT: "100 T" +
 * UNIT, "1 P" + UNIT, "0.01" for what is under one.
 */
static void
eng(double v, const char *unit, char *buf, size_t n)
{
	static const char pre[] = " kMGTPEZY";
	int e = (int)floor(log10(v) + 1e-9), k;

	if (e < 0) {
		snprintf(buf, n, "%.*f%s%s", -e, v, *unit ? " " : "", unit);
		return;
	}
	k = e / 3;
	if (k > 8)
		k = 8;
	snprintf(buf, n, "%.0f %s%s", v / pow(10, 3 * k),
	    k > 0 ? (char[]){ pre[k], '\0' } : "", unit);
	if (k == 0 && *unit == '\0')
		buf[strcspn(buf, " ")] = '\0';
}

static void
axes(struct rctx *rc, const struct plot *p)
{
	char b[48];
	double v;

	for (v = pow(10, ceil(log10(p->xlo) - 1e-9)); v <= p->xhi; v *= 10) {
		eng(v, "", b, sizeof(b));
		fprintf(rc->out, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
		    "y2=\"%.1f\" stroke=\"#e4e4e4\"/><text x=\"%.2f\" "
		    "y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px(p, v),
		    p->y0, px(p, v), p->y0 + p->h, px(p, v),
		    p->y0 + p->h + 15, b);
	}
	for (v = pow(10, ceil(log10(p->ylo) - 1e-9)); v <= p->yhi; v *= 10) {
		eng(v, "FLOP/s", b, sizeof(b));
		fprintf(rc->out, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" "
		    "y2=\"%.2f\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" "
		    "y=\"%.2f\" text-anchor=\"end\">%s</text>\n", p->x0,
		    py(p, v), p->x0 + p->w, py(p, v), p->x0 - 5, py(p, v) + 4,
		    b);
	}
	fprintf(rc->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	    "height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n<text "
	    "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">arithmetic "
	    "intensity (FLOP/byte)</text>\n<text x=\"16\" y=\"%.1f\" "
	    "transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">"
	    "achieved FLOP/s</text>\n", p->x0, p->y0, p->w, p->h,
	    p->x0 + p->w / 2, p->y0 + p->h + 36, p->y0 + p->h / 2,
	    p->y0 + p->h / 2);
}

static int
is_bw(const char *name)
{
	return strstr(name, "byte") != NULL || strstr(name, "bw") != NULL;
}

static int
is_flops(const char *name)
{
	return !is_bw(name) && strstr(name, "flop") != NULL;
}

/*
 * VALUE (exact decimal text of a rate) in units of 1e12, as "313" or
 * "1.555", by integer arithmetic so that a roof's label is the table's
 * number, not a rounded double.
 */
static void
tera(const char *value, char *buf, size_t n)
{
	char *end;
	long long v = strtoll(value, &end, 10);
	long long t = 1000000000000LL, frac;
	int digits = 12;

	if (*end != '\0' || v < 0) {
		snprintf(buf, n, "%s / 1e12", value);
		return;
	}
	frac = v % t;
	if (frac == 0) {
		snprintf(buf, n, "%lld", v / t);
		return;
	}
	while (frac % 10 == 0)
		frac /= 10, digits--;
	snprintf(buf, n, "%lld.%0*lld", v / t, digits, frac);
}

/*
 * The label of FLOP/s roof I: "bf16, fp16 313 TFLOP/s", every dtype
 * whose peak is the same; 0 when an earlier roof had that value.
 */
static int
flops_label(const struct rmodel *m, size_t i, char *buf, size_t n)
{
	char num[64];
	const char *sp;
	size_t k, len = 0;

	for (k = 0; k < i; k++)
		if (is_flops(m->peaks[k].name) &&
		    strcmp(m->peaks[k].value, m->peaks[i].value) == 0)
			return 0;
	tera(m->peaks[i].value, num, sizeof(num));
	buf[0] = '\0';
	for (k = i; k < m->npeaks && len < n; k++) {
		if (!is_flops(m->peaks[k].name) ||
		    strcmp(m->peaks[k].value, m->peaks[i].value) != 0)
			continue;
		sp = strchr(m->peaks[k].name, ' ');
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
		    len > 0 ? ", " : "", sp != NULL ? sp + 1 : "");
	}
	if (len < n)
		snprintf(buf + len, n - len, "%s%s TFLOP/s", len > 0 ? " " : "",
		    num);
	return 1;
}

/* Whether box B meets any of the N boxes at K. */
static int
collides(const struct box *b, const struct box *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b->x0 < k[i].x1 && k[i].x0 < b->x1 && b->y0 < k[i].y1 &&
		    k[i].y0 < b->y1)
			return 1;
	return 0;
}

/*
 * Text S at (X, Y) with ANCHOR, if its box stays in the plot and off
 * the boxes placed so far (then added to them): 1, else 0.
 */
static int
place(struct rctx *rc, const struct plot *p, struct box *k, size_t *nk,
    size_t cap, double x, double y, const char *anchor, const char *s,
    const char *attrs)
{
	double tw = CHAR_W * (double)text_width(s);
	struct box b;

	b.x0 = *anchor == 's' ? x : *anchor == 'e' ? x - tw : x - tw / 2;
	b.x1 = b.x0 + tw;
	b.y0 = y - 10;
	b.y1 = y + 2;
	if (b.x0 < p->x0 + 2 || b.x1 > p->x0 + p->w - 2 || b.y0 < p->y0 + 2 ||
	    b.y1 > p->y0 + p->h - 2 || collides(&b, k, *nk) || *nk == cap)
		return 0;
	k[(*nk)++] = b;
	fprintf(rc->out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" "
	    "font-size=\"11\"%s>", x, y, anchor, attrs);
	svg_text(rc, s);
	fputs("</text>\n", rc->out);
	return 1;
}

/*
 * The roof: shaded under the memory slope and the highest compute roof,
 * the ridge marked, the other dtypes' roofs dashed.  Their labels go
 * into K so that the kernels' labels keep off them.
 */
static void
roof(struct rctx *rc, const struct plot *p, double bw, const char *bwtext,
    double top, size_t itop, struct box *k, size_t *nk, size_t cap)
{
	const struct rmodel *m = rc->m;
	double ridge = top / bw, xa = p->xlo, xr, ang, lx, ly, prev;
	char label[256], num[64];
	size_t i;

	if (bw * xa < p->ylo)
		xa = p->ylo / bw;
	xr = ridge < p->xhi ? ridge : p->xhi;
	fprintf(rc->out, "<path d=\"M%.2f %.2f L%.2f %.2f L%.2f %.2f L%.2f "
	    "%.2f L%.2f %.2f Z\" fill=\"#f2f2f2\" stroke=\"none\"/>\n<path "
	    "d=\"M%.2f %.2f L%.2f %.2f L%.2f %.2f\" fill=\"none\" "
	    "stroke=\"black\" stroke-width=\"2.5\" "
	    "stroke-linejoin=\"round\"/>\n",
	    px(p, xa), p->y0 + p->h, px(p, xa), py(p, bw * xa), px(p, xr),
	    py(p, bw * xr), p->x0 + p->w, py(p, bw * xr), p->x0 + p->w,
	    p->y0 + p->h, px(p, xa), py(p, bw * xa), px(p, xr),
	    py(p, bw * xr), p->x0 + p->w, py(p, bw * xr));
	/*
	 * The bandwidth along the slope, its baseline 6 px above the line
	 * (along the normal, so that it never crosses it), near its foot.
	 */
	ang = atan2(py(p, bw * xr) - py(p, bw * xa), px(p, xr) - px(p, xa));
	lx = px(p, xa) + 24 * cos(ang) + 6 * sin(ang);
	ly = py(p, bw * xa) + 24 * sin(ang) - 6 * cos(ang);
	snprintf(label, sizeof(label), "HBM %s TB/s", bwtext);
	fprintf(rc->out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"12\" "
	    "transform=\"rotate(%.2f %.2f %.2f)\">", lx, ly,
	    ang * 180 / M_PI, lx, ly);
	svg_text(rc, label);
	fputs("</text>\n", rc->out);
	if (*nk < cap) {	/* its box, for the kernels' labels */
		double ex = lx + CHAR_W * (double)text_width(label) * cos(ang),
		    ey = ly + CHAR_W * (double)text_width(label) * sin(ang);
		k[*nk].x0 = fmin(lx, ex) - 2;
		k[*nk].x1 = fmax(lx, ex) + 2;
		k[*nk].y0 = fmin(ly, ey) - 14;
		k[*nk].y1 = fmax(ly, ey) + 4;
		(*nk)++;
	}
	/* the roofs' labels first, highest first, above or else below */
	if (flops_label(m, itop, label, sizeof(label)))
		(void)place(rc, p, k, nk, cap, p->x0 + p->w - 6, py(p, top) - 6,
		    "end", label, " font-weight=\"bold\"");
	for (prev = top;;) {
		double v, best = 0;
		size_t ib = 0;
		for (i = 0; i < m->npeaks; i++) {
			v = val(m->peaks[i].value);
			if (is_flops(m->peaks[i].name) && v < prev && v > best &&
			    v >= p->ylo)
				best = v, ib = i;
		}
		if (best == 0)
			break;
		prev = best;
		if (!flops_label(m, ib, label, sizeof(label)))
			continue;
		fprintf(rc->out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		    "y2=\"%.2f\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
		    px(p, best / bw > p->xlo ? best / bw : p->xlo), py(p, best),
		    p->x0 + p->w, py(p, best));
		if (!place(rc, p, k, nk, cap, p->x0 + p->w - 6, py(p, best) - 5,
		    "end", label, ""))
			(void)place(rc, p, k, nk, cap, p->x0 + p->w - 6,
			    py(p, best) + 13, "end", label, "");
	}
	if (ridge < p->xhi) {
		const char *dt = strchr(m->peaks[itop].name, ' ');
		snprintf(num, sizeof(num), "ridge %.4g FLOP/byte%s%s%s", ridge,
		    dt != NULL ? " (" : "", dt != NULL ? dt + 1 : "",
		    dt != NULL ? ")" : "");
		fprintf(rc->out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4.5\" "
		    "fill=\"white\" stroke=\"black\" stroke-width=\"2\"/>\n",
		    px(p, ridge), py(p, top));
		/* above the slope, left of the point: off every roof line */
		if (!place(rc, p, k, nk, cap, px(p, ridge) - 9, py(p, top) - 7,
		    "end", num, ""))
			(void)place(rc, p, k, nk, cap, px(p, ridge) - 9,
			    py(p, top) - 21, "end", num, "");
	}
}

/* The subtitle: whose peaks, and whether the trace named the chip. */
static void
subtitle(struct rctx *rc, int have_roof)
{
	const struct rmodel *m = rc->m;

	fputs("<text x=\"10\" y=\"40\" font-size=\"12\">", rc->out);
	if (!have_roof)
		fputs("no chip peaks in the stream (prof-roofline -c CHIP, or "
		    "a chip the trace names): no roof", rc->out);
	else {
		fputs("peaks of ", rc->out);
		svg_text(rc, m->peak_chip != NULL && *m->peak_chip ?
		    m->peak_chip : "a chip given by --peak-flops/--peak-bw");
		if (m->peak_tags != NULL &&
		    tag_has(m->peak_tags, "chip_from_trace"))
			fputs(", the chip the trace names", rc->out);
		else
			fputs(", ASSUMED (prof-roofline -c or a peaks file): "
			    "the trace does not name its chip", rc->out);
	}
	fputs("; disc area = kernel time</text>\n", rc->out);
}

/* What the colours mean, top right. */
static void
legend(struct rctx *rc)
{
	static const struct {
		const char *colour, *what;
	} key[] = {
		{ "#d62728", "compute-bound" },
		{ "#1f77b4", "memory-bound" },
		{ "#7f7f7f", "latency-bound or unknown" },
	};
	size_t i;

	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++)
		fprintf(rc->out, "<circle cx=\"%.1f\" cy=\"56\" r=\"5\" "
		    "fill=\"%s\" fill-opacity=\"0.6\"/><text x=\"%.1f\" "
		    "y=\"60\">%s</text>\n", 90 + 190.0 * (double)i,
		    key[i].colour, 98 + 190.0 * (double)i, key[i].what);
}

/* The kernels, largest first so that small ones stay visible on top. */
static const struct rpoint **
sorted_points(const struct rmodel *m, size_t *n, int64_t *longest)
{
	const struct rpoint **v = NULL;
	size_t i, j, k;

	*n = 0;
	*longest = 1;
	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->npoints; j++) {
			const struct rpoint *p = &m->devs[i]->points[j];
			if (p->ai <= 0 || p->flops_s <= 0)
				continue;
			v = xreallocarray(v, *n + 1, sizeof(*v));
			for (k = (*n)++; k > 0 && v[k - 1]->dur < p->dur; k--)
				v[k] = v[k - 1];
			v[k] = p;
			if (p->dur > *longest)
				*longest = p->dur;
		}
	return v;
}

static void
points(struct rctx *rc, const struct plot *p, const struct rpoint **v,
    size_t n, int64_t longest, struct box *k, size_t *nk, size_t cap)
{
	char nb[512];
	size_t i, j, named = 0;
	double r, x, y;

	for (i = 0; i < n; i++) {
		const char *c = strstr(v[i]->bound, "mem") ? "#1f77b4" :
		    strstr(v[i]->bound, "comp") ? "#d62728" : "#7f7f7f";
		r = 2 + 12 * sqrt((double)v[i]->dur / (double)longest);
		fprintf(rc->out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" "
		    "fill=\"%s\" fill-opacity=\"0.55\" stroke=\"%s\" "
		    "stroke-width=\"0.6\"><title>", px(p, v[i]->ai),
		    py(p, v[i]->flops_s), r, c, c);
		svg_text(rc, name_short(v[i]->name, nb, sizeof(nb),
		    NAME_MAX_COLS));
		fprintf(rc->out, " %s, %.3f ms</title></circle>\n",
		    v[i]->bound, (double)v[i]->dur / 1e6);
	}
	/* then the names of the longest, each once, where they fit */
	for (i = 0; i < n && named < NLABELS; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(v[j]->name, v[i]->name) == 0)
				break;
		if (j < i)
			continue;
		r = 2 + 12 * sqrt((double)v[i]->dur / (double)longest);
		x = px(p, v[i]->ai);
		y = py(p, v[i]->flops_s);
		name_short(v[i]->name, nb, sizeof(nb), 28);
		if (place(rc, p, k, nk, cap, x + r + 3, y + 4, "start", nb,
		    "") || place(rc, p, k, nk, cap, x - r - 3, y + 4, "end",
		    nb, "") || place(rc, p, k, nk, cap, x, y - r - 4, "middle",
		    nb, "") || place(rc, p, k, nk, cap, x, y + r + 13,
		    "middle", nb, ""))
			named++;
	}
}

void
render_svg_roofline(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct plot p = { 100, 75, W - 100 - RIGHT, 520, 1e300, 0, 1e300, 0 };
	struct box boxes[64];
	const struct rpoint **v;
	char bwtext[64] = "";
	double bw = 0, top = 0;
	size_t i, n, nk = 0, itop = 0;
	int64_t longest;

	svg_header(rc, 650, "Roofline: kernels by arithmetic intensity and "
	    "achieved FLOP/s");
	v = sorted_points(m, &n, &longest);
	if (n == 0) {
		if (rc->opts->warn_roof)
			diag_warn("%s: no kernel has the roofline columns 'ai' and "
			    "'flops' (run prof-roofline): the chart is empty",
			    m->path && strcmp(m->path, "-") ? m->path :
			    "<stdin>");
		fputs("<text x=\"10\" y=\"60\">No roofline data: no kernel "
		    "record has the columns ai and flops (written by "
		    "prof-roofline).</text>\n</svg>\n", rc->out);
		return;
	}
	for (i = 0; i < n; i++) {
		p.xlo = fmin(p.xlo, v[i]->ai), p.xhi = fmax(p.xhi, v[i]->ai);
		p.ylo = fmin(p.ylo, v[i]->flops_s);
		p.yhi = fmax(p.yhi, v[i]->flops_s);
	}
	for (i = 0; i < m->npeaks; i++) {
		double x = val(m->peaks[i].value);
		if (x > 0 && is_bw(m->peaks[i].name) && bw == 0) {
			bw = x;
			tera(m->peaks[i].value, bwtext, sizeof(bwtext));
		} else if (x > top && is_flops(m->peaks[i].name))
			top = x, itop = i;
	}
	if (top > 0)
		p.yhi = fmax(p.yhi, top);
	if (bw > 0 && top > 0)
		p.xhi = fmax(p.xhi, 8 * top / bw);	/* a flat roof to see */
	/* whole decades, with room above the roof for its labels */
	p.xlo = pow(10, floor(log10(p.xlo / 2)));
	p.xhi = pow(10, ceil(log10(p.xhi * 2)));
	p.ylo = pow(10, floor(log10(p.ylo / 2)));
	p.yhi = pow(10, ceil(log10(p.yhi * 3)));
	subtitle(rc, bw > 0 && top > 0);
	legend(rc);
	axes(rc, &p);
	if (bw > 0 && top > 0)
		roof(rc, &p, bw, bwtext, top, itop, boxes, &nk,
		    sizeof(boxes) / sizeof(boxes[0]));
	points(rc, &p, v, n, longest, boxes, &nk,
	    sizeof(boxes) / sizeof(boxes[0]));
	free(v);
	fputs("</svg>\n", rc->out);
}
