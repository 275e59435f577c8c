/*
 * -f arch, the summary (arch_summary): a box of the rank (name hints,
 * layers per phase and type, streams, communication) in box-drawing
 * characters, and the per-pass timeline with the layer blocks of the
 * first pass of each phase.  The cells of the timeline
 * are the only arithmetic; the numbers printed are the records'.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "render.h"
#include "xalloc.h"

static void
ms(struct rctx *rc, const char *ns)
{
	put_dec(rc->out, ns, 6, 3);
}

static int64_t
i64(const char *s)
{
	return strtoll(s, NULL, 10);
}

/* Display width of UTF-8 text: the bytes that start a character. */
static size_t
width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

struct box {
	char	**l;
	size_t	  n;
};

static void
box_add(struct box *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
box_add(struct box *b, const char *fmt, ...)
{
	va_list ap;
	char *buf;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	buf = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	va_start(ap, fmt);
	(void)vsnprintf(buf, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	va_end(ap);
	b->l = xreallocarray(b->l, b->n + 1, sizeof(*b->l));
	b->l[b->n++] = buf;
}

/* An integer ns value of a record as ms with 3 decimals, for a line. */
static const char *
msb(char *buf, size_t cap, const char *ns)
{
	if (ns == NULL || *ns == '\0' || cap < NUM_BUFSIZE)
		return "-";
	num_ratio(buf, i64(ns), 1000000, 3);
	return buf;
}

static void
box_print(struct rctx *rc, struct box *b)
{
	size_t i, j, w = 0;

	for (i = 0; i < b->n; i++)
		if (*b->l[i] != '\0' && width(b->l[i]) > w)
			w = width(b->l[i]);
	fputs("┌", rc->out);
	for (j = 0; j < w + 2; j++)
		fputs("─", rc->out);
	fputs("┐\n", rc->out);
	for (i = 0; i < b->n; i++) {
		if (*b->l[i] == '\0') {
			fputs("├", rc->out);
			for (j = 0; j < w + 2; j++)
				fputs("─", rc->out);
			fputs("┤\n", rc->out);
		} else
			fprintf(rc->out, "│ %s%*s │\n", b->l[i],
			    (int)(w - width(b->l[i])), "");
		free(b->l[i]);
	}
	fputs("└", rc->out);
	for (j = 0; j < w + 2; j++)
		fputs("─", rc->out);
	fputs("┘\n", rc->out);
	free(b->l);
}

static void
box_phases(struct box *b, const struct adev *d)
{
	const struct arows *p = &d->r[AR_PASS];
	char m[64];
	size_t i, j, k;

	for (i = 0; i < p->n; i++) {
		const char *ph = p->v[i].f[A_PHASE];
		char lay[160] = "";
		size_t np = 0;
		for (j = 0; j < i; j++)
			if (strcmp(p->v[j].f[A_PHASE], ph) == 0)
				break;
		if (j < i)
			continue;
		for (j = i; j < p->n; j++)
			if (strcmp(p->v[j].f[A_PHASE], ph) == 0 &&
			    strlen(lay) < sizeof(lay) - 16) {
				snprintf(lay + strlen(lay), sizeof(lay) -
				    strlen(lay), "%s%s", np++ ? " + " : "",
				    p->v[j].f[A_LAYERS]);
			}
		box_add(b, "%s: %zu pass(es) of %s layers", *ph ? ph :
		    "unknown", np, lay);
		for (k = 0; k < d->r[AR_LTYPE].n; k++) {
			const struct arow *t = &d->r[AR_LTYPE].v[k];
			if (strcmp(t->f[A_PHASE], ph) != 0)
				continue;
			box_add(b, "  %-8s ×%-4s wall %s ms median, %s kernels "
			    "per layer", t->f[A_NAME], t->f[A_VALUE],
			    msb(m, sizeof(m), t->f[A_MEDIAN]), t->f[A_KCOUNT]);
		}
	}
}

static void
box_streams(struct box *b, const struct adev *d)
{
	char s[256] = "", m[64];
	const char *r = arch_metric(d, "comm_overlap_ratio");
	size_t i;

	for (i = 0; i < d->r[AR_STREAM].n && strlen(s) < 200; i++)
		snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%s %s",
		    i ? ", " : "", *d->r[AR_STREAM].v[i].f[A_TRACK] ?
		    d->r[AR_STREAM].v[i].f[A_TRACK] : "-",
		    d->r[AR_STREAM].v[i].f[A_NAME]);
	box_add(b, "streams: %s", *s ? s : "none recorded");
	if (r != NULL) {
		box_add(b, "communication: %s ms, hidden ratio %s",
		    msb(m, sizeof(m), arch_metric(d, "comm_union_ns")), r);
	} else
		box_add(b, "communication: none on this rank");
}

/* Cells [c0, c1) of WIDTH for [ts, ts + dur) on the axis [t0, t1). */
static void
cells(int64_t ts, int64_t dur, int64_t t0, int64_t t1, int w, int *c0, int *c1)
{
	/* times differ by up to 2^63 ns: the products take 128 bits */
	__int128 span = t1 > t0 ? (__int128)t1 - t0 : 1;

	*c0 = (int)(((__int128)ts - t0) * w / span);
	*c1 = (int)(((__int128)ts + dur - t0) * w / span);
	if (*c1 <= *c0)
		*c1 = *c0 + 1;
	if (*c1 > w)
		*c1 = w;
}

static const char *
phase_cell(const char *ph)
{
	if (strcmp(ph, "backward") == 0)
		return "▓";
	if (strcmp(ph, "decode") == 0)
		return "▒";
	return "█";
}

/* One row of the layers of pass R, each a block of W cells' share. */
static void
layer_blocks(struct rctx *rc, const struct adev *d, const struct arow *r, int w)
{
	const struct arows *l = &d->r[AR_LAYER];
	int64_t s0 = i64(r->f[A_TS]), s1 = s0 + i64(r->f[A_DUR]);
	size_t j, n = 0;
	int c = 0, c0, c1;
	char a[64];

	fprintf(rc->out, "pass %-3s %-9s│", r->f[A_PASS], *r->f[A_PHASE] ?
	    r->f[A_PHASE] : "unknown");
	for (j = 0; j < l->n; j++) {
		const struct arow *y = &l->v[j];
		if (strcmp(y->f[A_PASS], r->f[A_PASS]) != 0)
			continue;
		cells(i64(y->f[A_TS]), i64(y->f[A_DUR]), s0, s1, w, &c0, &c1);
		for (; c < c0; c++)
			fputs(" ", rc->out);
		for (; c < c1; c++)
			fputs(n % 2 ? "░" : "█", rc->out);
		n++;
	}
	for (; c < w; c++)
		fputs(" ", rc->out);
	fputs("│ ", rc->out);
	ms(rc, r->f[A_TS]);
	fputs("–", rc->out);
	snprintf(a, sizeof(a), "%" PRId64, s1);
	ms(rc, a);
	fputs(" ms\n", rc->out);
}

static void
timeline(struct rctx *rc, const struct adev *d)
{
	const struct arows *p = &d->r[AR_PASS];
	enum { W = 64 };
	int64_t t0 = i64(p->v[0].f[A_TS]), t1 = t0;
	size_t i;
	int c, c0, c1;
	char a[64], b[64];

	for (i = 0; i < p->n; i++)
		if (i64(p->v[i].f[A_TS]) + i64(p->v[i].f[A_DUR]) > t1)
			t1 = i64(p->v[i].f[A_TS]) + i64(p->v[i].f[A_DUR]);
	fprintf(rc->out, "\nPer-pass timeline (ms from the stream origin; █ "
	    "prefill or forward, ▒ decode, ▓ backward; one cell is 1/%d of "
	    "the axis):\n\n```text\n", W);
	snprintf(a, sizeof(a), "%" PRId64, t0);
	snprintf(b, sizeof(b), "%" PRId64, t1);
	fprintf(rc->out, "axis: %s ms to ", msb(a, sizeof(a), a));
	fprintf(rc->out, "%s ms\n", msb(b, sizeof(b), b));
	for (i = 0; i < p->n; i++) {
		const struct arow *r = &p->v[i];
		cells(i64(r->f[A_TS]), i64(r->f[A_DUR]), t0, t1, W, &c0, &c1);
		fprintf(rc->out, "pass %-3s %-9s│", r->f[A_PASS],
		    *r->f[A_PHASE] ?
		    r->f[A_PHASE] : "unknown");
		for (c = 0; c < W; c++)
			fputs(c >= c0 && c < c1 ? phase_cell(r->f[A_PHASE]) :
			    " ", rc->out);
		fprintf(rc->out, "│ %s layers\n", r->f[A_LAYERS]);
	}
	fputs("```\n\nLayer blocks of the first pass of each phase "
	    "(alternating █ and ░, one block per layer):\n\n```text\n",
	    rc->out);
	for (i = 0; i < p->n; i++) {
		size_t k;
		for (k = 0; k < i; k++)
			if (strcmp(p->v[k].f[A_PHASE], p->v[i].f[A_PHASE]) == 0)
				break;
		if (k == i)
			layer_blocks(rc, d, &p->v[i], W);
	}
	fputs("```\n", rc->out);
}

/* The box of the rank and its per-pass timeline. */
void
arch_summary(struct rctx *rc, const struct adev *d)
{
	struct box b = { NULL, 0 };
	char *dir = arch_profile_dir(rc->m), hints[256], *v;
	const struct rdev *rd;

	fputs("### 10. Model Architecture Summary\n\n```text\n", rc->out);
	box_add(&b, "%s, rank %s", rc->m->name, d->id);
	arch_hint_line(dir != NULL ? dir : rc->m->name, hints,
	    sizeof(hints));
	free(dir);
	box_add(&b, "name hints: %s", hints);
	if (rc->m->verdict_ran && (rd = model_dev(rc->m, d->id)) != NULL) {
		v = verdict_line(rd);
		box_add(&b, "verdict: %s", v);
		free(v);
	}
	box_add(&b, "%s", "");
	if (d->r[AR_PASS].n > 0)
		box_phases(&b, d);
	else
		box_add(&b, "layers: none found (see section 2)");
	box_add(&b, "%s", "");
	box_streams(&b, d);
	box_print(rc, &b);
	fputs("```\n", rc->out);
	if (d->r[AR_PASS].n == 0) {
		fputs("\nMissing: no `pass` records, so no per-pass timeline.\n",
		    rc->out);
		return;
	}
	timeline(rc, d);
}
