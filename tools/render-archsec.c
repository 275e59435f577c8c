/*
 * -f arch: the per-layer sub-structure with the kernel sequence trees
 * (arch_substructure), the decode phase or the backward pass of a
 * training capture (arch_decode), the communication pipeline
 * (arch_comm), the layer-to-layer variation (arch_variation).  Trees
 * are drawn with ├─ │ └─ and → between kernels, ×N for repeats; the
 * geometry of the bars is the only arithmetic here, and no number is
 * printed from it.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int
same(const struct arow *r, const char *phase, const char *type)
{
	return strcmp(r->f[A_PHASE], phase) == 0 &&
	    strcmp(r->f[A_LTYPE], type) == 0;
}

/* A kernel name that fits a tree line (MAX columns): name_short(). */
void
arch_kname(FILE *f, const char *s, size_t max)
{
	char b[512];

	fputs(name_short(s, b, sizeof(b), max), f);
}

/* One run of the sequence: name ×N (time). */
static void
run(struct rctx *rc, const struct arow *r, const char *track)
{
	arch_kname(rc->out, r->f[A_NAME], NAME_MAX_COLS);
	if (strcmp(r->f[A_REPEAT], "1") != 0)
		fprintf(rc->out, " ×%s", r->f[A_REPEAT]);
	fputs(" (", rc->out);
	ms(rc, r->f[A_KSUM]);
	fputs(" ms)", rc->out);
	if (strcmp(r->f[A_TRACK], track) != 0)
		fprintf(rc->out, " [stream %s]",
		    *r->f[A_TRACK] ? r->f[A_TRACK] :
		    "-");
}

/*
 * The kernel sequence of (phase, type) starting at row FIRST of the
 * layer_seq records, as a tree: one branch per run of one role group,
 * its kernels joined by →, three to a line.
 */
void
arch_tree(struct rctx *rc, const struct adev *d, const struct arow *first)
{
	const struct arows *s = &d->r[AR_SEQ];
	size_t i = (size_t)(first - s->v), j, end, k, nk = 0;

	for (end = i; end < s->n && same(&s->v[end], first->f[A_PHASE],
	    first->f[A_LTYPE]); end++)
		nk += (size_t)i64(s->v[end].f[A_REPEAT]);
	fprintf(rc->out, "```text\nlayer %s of pass %s (%s, %s): %zu kernels, "
	    "marker stream %s\n", first->f[A_LAYER], first->f[A_PASS],
	    first->f[A_LTYPE], first->f[A_PHASE], nk,
	    *first->f[A_TRACK] ? first->f[A_TRACK] : "-");
	for (j = i; j < end; j = k) {
		int last;
		size_t n = 0;
		for (k = j; k < end && strcmp(s->v[k].f[A_TAGS],
		    s->v[j].f[A_TAGS]) == 0; k++)
			;
		last = k == end;
		fprintf(rc->out, "%s %s: ", last ? "└─" : "├─",
		    *s->v[j].f[A_TAGS] ? s->v[j].f[A_TAGS] : "other");
		for (; j < k; j++, n++) {
			if (n > 0 && n % 3 == 0)
				fprintf(rc->out, "\n%s   → ", last ? " " : "│");
			else if (n > 0)
				fputs(" → ", rc->out);
			run(rc, &s->v[j], first->f[A_TRACK]);
		}
		fputs("\n", rc->out);
	}
	fputs("```\n", rc->out);
}

/* The first layer_seq row of (phase, type). */
static const struct arow *
seq_of(const struct adev *d, const char *phase, const char *type)
{
	size_t i;

	for (i = 0; i < d->r[AR_SEQ].n; i++)
		if (same(&d->r[AR_SEQ].v[i], phase, type))
			return &d->r[AR_SEQ].v[i];
	return NULL;
}

/* Component | Kernels | Wall | Kernel time | Share, for (phase, type). */
static void
roles(struct rctx *rc, const struct adev *d, const char *phase,
    const char *type)
{
	size_t i;

	fputs("| Component | Kernels | Wall time, all layers (ms) | Kernel "
	    "time (ms) | Share of layer wall (%) |\n"
	    "|---|---:|---:|---:|---:|\n", rc->out);
	for (i = 0; i < d->r[AR_ROLE].n; i++) {
		const struct arow *r = &d->r[AR_ROLE].v[i];
		if (!same(r, phase, type))
			continue;
		fprintf(rc->out, "| `%s` | %s | ", r->f[A_NAME], r->f[A_VALUE]);
		ms(rc, r->f[A_BUSY]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_KSUM]);
		fputs(" | ", rc->out);
		arch_pct(rc->out, r->f[A_SHARE]);
		fputs(" |\n", rc->out);
	}
}

static const struct arow *
dominant(const struct adev *d, const char *phase, const char *type)
{
	const struct arow *b = NULL;
	size_t i;

	for (i = 0; i < d->r[AR_ROLE].n; i++) {
		const struct arow *r = &d->r[AR_ROLE].v[i];
		if (same(r, phase, type) && (b == NULL ||
		    i64(r->f[A_BUSY]) > i64(b->f[A_BUSY])))
			b = r;
	}
	return b;
}

/* Layers of (phase, type) tagged first, last or outlier. */
static void
anomalies(struct rctx *rc, const struct adev *d, const char *phase,
    const char *type)
{
	size_t i, n = 0;

	for (i = 0; i < d->r[AR_LAYER].n; i++) {
		const struct arow *l = &d->r[AR_LAYER].v[i];
		const char *t = l->f[A_TAGS];
		if (!same(l, phase, type) || !(tag_has(t, "outlier") ||
		    tag_has(t, "sampling") || (tag_has(t, "last") && n < 8)))
			continue;
		if (n++ == 0)
			fputs("\nLayers that differ:\n\n", rc->out);
		fprintf(rc->out, "- layer %s of pass %s: wall ", l->f[A_LAYER],
		    l->f[A_PASS]);
		ms(rc, l->f[A_DUR]);
		fprintf(rc->out, " ms, %s kernels, kernel time ",
		    l->f[A_KCOUNT]);
		ms(rc, l->f[A_KSUM]);
		fputs(" ms", rc->out);
		if (tag_has(t, "outlier"))
			fputs(tag_has(t, "first") ? "; **outlier: first layer "
			    "of its pass (warm-up)**" : "; **outlier: twice "
			    "the pass's median wall or more**", rc->out);
		if (tag_has(t, "last"))
			fputs("; last of its pass: ends at its last kernel "
			    "(the output head, loss, sampling or a pipeline "
			    "send that follow belong to no layer)", rc->out);
		if (tag_has(t, "sampling"))
			fputs("; **runs sampling ops** (decode/sampling "
			    "logic)", rc->out);
		fputs("\n", rc->out);
	}
}

/* Per layer type: the kernel sequence tree and the components. */
void
arch_substructure(struct rctx *rc, const struct adev *d)
{
	size_t i;

	fputs("### 6. Per-Layer Sub-Structure\n\n", rc->out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		const struct arow *s = seq_of(d, t->f[A_PHASE], t->f[A_NAME]);
		const struct arow *r = dominant(d, t->f[A_PHASE],
		    t->f[A_NAME]);
		fprintf(rc->out, "#### %s layers (%s)\n\n", t->f[A_NAME],
		    t->f[A_PHASE]);
		fprintf(rc->out,
		    "%s layer(s), %s kernels per layer (median), typical "
		    "wall ", t->f[A_VALUE], t->f[A_KCOUNT]);
		ms(rc, t->f[A_MEDIAN]);
		fputs(" ms", rc->out);
		if (r != NULL) {
			fprintf(rc->out, "; dominant component **`%s`, ",
			    r->f[A_NAME]);
			arch_pct(rc->out, r->f[A_SHARE]);
			fputs("% of the layer wall**", rc->out);
		}
		fputs(".\n\n", rc->out);
		if (s != NULL)
			arch_tree(rc, d, s);
		else
			fputs("No `layer_seq` record for this type.\n",
			    rc->out);
		fputs("\n", rc->out);
		roles(rc, d, t->f[A_PHASE], t->f[A_NAME]);
		anomalies(rc, d, t->f[A_PHASE], t->f[A_NAME]);
		fputs("\n", rc->out);
	}
}

static const struct arow *
ltype(const struct adev *d, const char *phase)
{
	size_t i;

	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		if (strcmp(d->r[AR_LTYPE].v[i].f[A_PHASE], phase) == 0)
			return &d->r[AR_LTYPE].v[i];
	return NULL;
}

/* One phase's layers against another's: marker, wall, kernels. */
static void
contrast(struct rctx *rc, const struct adev *d, const char *a, const char *b)
{
	const struct arow *ta = ltype(d, a), *tb = ltype(d, b);
	const struct arow *pa = NULL, *pb = NULL;
	size_t i;

	for (i = 0; i < d->r[AR_PASS].n; i++) {
		const struct arow *p = &d->r[AR_PASS].v[i];
		if (pa == NULL && strcmp(p->f[A_PHASE], a) == 0)
			pa = p;
		if (pb == NULL && strcmp(p->f[A_PHASE], b) == 0)
			pb = p;
	}
	if (ta == NULL || tb == NULL || pa == NULL || pb == NULL)
		return;
	fprintf(rc->out, "| Measure | %s | %s |\n|---|---:|---:|\n", a, b);
	fprintf(rc->out, "| Median marker (%s) duration, first pass (ms) | ",
	    arch_is(d, "cnn") ? "first kernel of a convolution or GEMM run" :
	    "attention");
	ms(rc, pa->f[A_MDUR]);
	fputs(" | ", rc->out);
	ms(rc, pb->f[A_MDUR]);
	fputs(" |\n| Median layer wall, first layer type (ms) | ", rc->out);
	ms(rc, ta->f[A_MEDIAN]);
	fprintf(rc->out, " (%s) | ", ta->f[A_NAME]);
	ms(rc, tb->f[A_MEDIAN]);
	fprintf(rc->out, " (%s) |\n| Kernels per layer (median), first layer "
	    "type | %s (%s) | %s (%s) |\n", tb->f[A_NAME], ta->f[A_KCOUNT],
	    ta->f[A_NAME], tb->f[A_KCOUNT], tb->f[A_NAME]);
	fputs("| Pass wall, first pass (ms) | ", rc->out);
	ms(rc, pa->f[A_DUR]);
	fputs(" | ", rc->out);
	ms(rc, pb->f[A_DUR]);
	fputs(" |\n\n", rc->out);
}

static void
phase_costs(struct rctx *rc, const struct adev *d, const char *phase)
{
	size_t i;

	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		if (strcmp(t->f[A_PHASE], phase) != 0)
			continue;
		fprintf(rc->out,
		    "Dominant costs of the %s %s layers (the tree is "
		    "in section 6):\n\n", phase, t->f[A_NAME]);
		roles(rc, d, phase, t->f[A_NAME]);
		fputs("\n", rc->out);
	}
}

/* The decode phase, or the backward pass of a training capture. */
void
arch_decode(struct rctx *rc, const struct adev *d)
{
	const char *nd = arch_metric(d, "decode_pass_count");
	const char *nb = arch_metric(d, "backward_pass_count");

	fputs("### 7. Decode Phase Analysis\n\n", rc->out);
	if (nd != NULL && strcmp(nd, "0") != 0) {
		fprintf(rc->out, "%s decode pass(es), %s decode layers.\n\n",
		    nd,
		    arch_metric(d, "decode_layer_count"));
		phase_costs(rc, d, "decode");
		contrast(rc, d, "prefill", "decode");
		fputs("Decode attends one new token per sequence against the "
		    "KV cache: the attention kernel collapses and the layer is "
		    "bound by weight and cache reads and by launch latency, "
		    "not by compute; communication (all-to-all for expert "
		    "parallelism) then takes a larger share.\n\n", rc->out);
		return;
	}
	if (nb != NULL && strcmp(nb, "0") != 0) {
		fprintf(rc->out, "**Training capture: no decode phase.**  The "
		    "backward pass takes its place here: %s backward "
		    "pass(es).\n\n", nb);
		phase_costs(rc, d, "backward");
		contrast(rc, d, "forward", "backward");
		fputs(arch_is(d, "cnn") ? "The backward layer computes two "
		    "gradients for each convolution, its input's (data "
		    "gradient) and its weights' (weight gradient), and the "
		    "norm and activation gradients: about twice the forward "
		    "layer's work.\n\n" : "The backward layer recomputes and "
		    "differentiates: its attention gradient and the weight and "
		    "input gradient matmuls make it longer than the forward "
		    "layer.\n\n", rc->out);
		return;
	}
	fputs("Missing: no decode and no backward pass on this rank; every "
	    "pass is forward", rc->out);
	if (arch_metric(d, "prefill_pass_count") != NULL &&
	    strcmp(arch_metric(d, "prefill_pass_count"), "0") != 0)
		fputs(" or prefill", rc->out);
	fputs(".  A decode analysis needs a capture that covers token "
	    "generation (the profiler's schedule active over decode steps); "
	    "prof-layers then tells decode passes by their short attention "
	    "kernels.\n\n", rc->out);
}

/* A bar of WIDTH cells, NUM / DEN of it filled. */
static void
bar(struct rctx *rc, int64_t num, int64_t den, int width)
{
	int i, n = den > 0 ? (int)((__int128)(num > den ? den : num) * width /
	    den) : 0;

	if (num > 0 && n == 0)
		n = 1;
	for (i = 0; i < width; i++)
		fputs(i < n ? "█" : "░", rc->out);
}

static void
track(struct rctx *rc, const char *t)
{
	fprintf(rc->out, "%s", *t ? t : "-");
}

/*
 * Stream | Purpose | ... | Overlaps with (rule A7 of the method:
 * doc/analysis-rules.md, Streams and communication overlap).
 */
static void
stream_table(struct rctx *rc, const struct arows *s, const struct arows *o)
{
	size_t i, j;
	int n;

	fputs("| Stream | Purpose | Kernels | Kernel time (ms) | Busy (ms) | "
	    "Share of kernel time (%) | Overlaps with |\n"
	    "|---|---|---:|---:|---:|---:|---|\n", rc->out);
	for (i = 0; i < s->n; i++) {
		const struct arow *r = &s->v[i];
		fputs("| `", rc->out);
		track(rc, r->f[A_TRACK]);
		fprintf(rc->out, "` | %s | %s | ", r->f[A_NAME], r->f[A_VALUE]);
		ms(rc, r->f[A_KSUM]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_BUSY]);
		fputs(" | ", rc->out);
		arch_pct(rc->out, r->f[A_SHARE]);
		fputs(" | ", rc->out);
		for (j = 0, n = 0; j < o->n; j++) {
			if (strcmp(o->v[j].f[A_TRACK], r->f[A_TRACK]) != 0)
				continue;
			fputs(n++ ? ", `" : "`", rc->out);
			track(rc, o->v[j].f[A_NAME]);
			fputs("` ", rc->out);
			ms(rc, o->v[j].f[A_BUSY]);
			fputs(" ms (", rc->out);
			arch_pct(rc->out, o->v[j].f[A_SHARE]);
			fputs("%)", rc->out);
		}
		fputs(n ? " |\n" : "none |\n", rc->out);
	}
}

/* The overlap diagram: a bar per stream, and one of hidden comm. */
static void
stream_bars(struct rctx *rc, const struct adev *d, const char *ratio)
{
	const struct arows *s = &d->r[AR_STREAM];
	int64_t span = d->kend - d->kfirst;
	size_t i;

	fputs("\nBusy time of each stream over the kernels' extent (", rc->out);
	put_ms(rc->out, span, 3);
	fputs(" ms):\n\n```text\n", rc->out);
	for (i = 0; i < s->n; i++) {
		fprintf(rc->out, "stream %-6s %-12s │", *s->v[i].f[A_TRACK] ?
		    s->v[i].f[A_TRACK] : "-", s->v[i].f[A_NAME]);
		bar(rc, i64(s->v[i].f[A_BUSY]), span, 40);
		fputs("│ ", rc->out);
		ms(rc, s->v[i].f[A_BUSY]);
		fputs(" ms\n", rc->out);
	}
	if (ratio != NULL) {
		fprintf(rc->out, "%-27s│", "comm hidden under compute");
		bar(rc, i64(arch_metric(d, "comm_overlap_ns")),
		    i64(arch_metric(d, "comm_union_ns")), 40);
		fputs("│ ", rc->out);
		arch_pct(rc->out, ratio);
		fputs("% of comm\n", rc->out);
	}
	fputs("```\n\n", rc->out);
}

/* The streams, what overlaps what, and the hidden communication. */
void
arch_comm(struct rctx *rc, const struct adev *d)
{
	const char *ratio = arch_metric(d, "comm_overlap_ratio");

	fputs("### 8. Communication Pipeline Structure\n\n", rc->out);
	if (d->r[AR_STREAM].n == 0) {
		fputs("Missing: no `stream` records (prof-layers did not run on "
		    "this rank's kernels).\n\n", rc->out);
		return;
	}
	stream_table(rc, &d->r[AR_STREAM], &d->r[AR_OVL]);
	stream_bars(rc, d, ratio);
	if (ratio == NULL) {
		fputs("No communication kernels on this rank: a single-device "
		    "run, or the collectives are not in the trace (capture "
		    "with the communication activities on).\n\n", rc->out);
		return;
	}
	fputs("**", rc->out);
	arch_pct(rc->out, ratio);
	fputs("% of the communication time is hidden under compute** "
	    "(`comm_overlap_ratio` ", rc->out);
	put_dec(rc->out, ratio, 0, 6);
	fputs("; above 0.9 is well hidden): ", rc->out);
	ms(rc, arch_metric(d, "comm_overlap_ns"));
	fputs(" ms of the ", rc->out);
	ms(rc, arch_metric(d, "comm_union_ns"));
	fputs(" ms when communication runs.  Communication kernels add up to ",
	    rc->out);
	ms(rc, arch_metric(d, "comm_kernel_sum_ns"));
	fputs(" ms: kernel time exceeds wall time where collectives overlap "
	    "each other or other streams, and a collective's duration "
	    "includes the time it waits for its peers, so the sum of kernel "
	    "times is not time spent.\n\n", rc->out);
}

/* One row of the variation table: a column per layer_type record. */
static void
vrow(struct rctx *rc, const struct adev *d, const char *label, int col,
    int unit)
{
	size_t i;

	fprintf(rc->out, "| %s |", label);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const char *v = d->r[AR_LTYPE].v[i].f[col];
		fputs(" ", rc->out);
		if (unit == 1)
			ms(rc, v);
		else
			fputs(*v ? v : "-", rc->out);
		fputs(" |", rc->out);
	}
	fputs("\n", rc->out);
}

static void
vrole(struct rctx *rc, const struct adev *d, const char *label,
    const char *role)
{
	size_t i, j;

	fprintf(rc->out, "| %s |", label);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		const char *v = NULL;
		for (j = 0; j < d->r[AR_ROLE].n; j++)
			if (same(&d->r[AR_ROLE].v[j], t->f[A_PHASE],
			    t->f[A_NAME]) && strcmp(d->r[AR_ROLE].v[j].f[A_NAME],
			    role) == 0)
				v = d->r[AR_ROLE].v[j].f[A_SHARE];
		fputs(" ", rc->out);
		arch_pct(rc->out, v);
		fputs(" |", rc->out);
	}
	fputs("\n", rc->out);
}

/* The layer types side by side, and the variation within each. */
void
arch_variation(struct rctx *rc, const struct adev *d)
{
	size_t i;

	fputs("### 9. Layer-to-Layer Variation\n\n| Metric |", rc->out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		fprintf(rc->out, " %s (%s) |", d->r[AR_LTYPE].v[i].f[A_NAME],
		    d->r[AR_LTYPE].v[i].f[A_PHASE]);
	fputs("\n|---|", rc->out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		fputs("---:|", rc->out);
	fputs("\n", rc->out);
	vrow(rc, d, "Layers", A_VALUE, 0);
	vrow(rc, d, "Wall time, min (ms)", A_MIN, 1);
	vrow(rc, d, "Wall time, median (ms)", A_MEDIAN, 1);
	vrow(rc, d, "Wall time, max (ms)", A_MAX, 1);
	vrow(rc, d, "Coefficient of variation", A_CV, 0);
	vrow(rc, d, "Kernels per layer (median)", A_KCOUNT, 0);
	vrow(rc, d, "Kernel time, all layers (ms)", A_KSUM, 1);
	vrow(rc, d, "Busy time, all layers (ms)", A_BUSY, 1);
	vrow(rc, d, "Total cost (duration + wait), all layers (ms)", A_COST,
	    1);
	vrow(rc, d, "Device idle inside the layers (ms)", A_IDLE, 1);
	vrow(rc, d, "Device idle before the layers (ms)", A_GAP, 1);
	vrow(rc, d, "Block busy, all layers (ms)", A_BBUSY, 1);
	vrow(rc, d, "Side busy, all layers (ms)", A_SBUSY, 1);
	vrow(rc, d, "Block cost, all layers (ms)", A_BCOST, 1);
	vrow(rc, d, "Side cost, all layers (ms)", A_SCOST, 1);
	vrole(rc, d, "Attention share of wall (%)", "attention");
	if (arch_is(d, "cnn"))
		vrole(rc, d, "Convolution share of wall (%)", "conv");
	vrole(rc, d, "Expert share of wall (%)", "expert");
	vrole(rc, d, "Matmul share of wall (%)", "matmul");
	vrole(rc, d, "Communication (TP) share of wall (%)", "tp_comm");
	fputs("\nWithin-type variation:", rc->out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		size_t j, nout = 0, nlast = 0, nfirst = 0;
		for (j = 0; j < d->r[AR_LAYER].n; j++) {
			const struct arow *l = &d->r[AR_LAYER].v[j];
			if (!same(l, t->f[A_PHASE], t->f[A_NAME]))
				continue;
			nout += tag_has(l->f[A_TAGS], "outlier");
			nfirst += tag_has(l->f[A_TAGS], "outlier") &&
			    tag_has(l->f[A_TAGS], "first");
			nlast += tag_has(l->f[A_TAGS], "last");
		}
		fprintf(rc->out, "\n- %s (%s): wall ", t->f[A_NAME],
		    t->f[A_PHASE]);
		ms(rc, t->f[A_MIN]);
		fputs("–", rc->out);
		ms(rc, t->f[A_MAX]);
		fprintf(rc->out, " ms, coefficient of variation %s",
		    t->f[A_CV]);
		if (nout)
			fprintf(rc->out,
			    "; **%zu outlier layer(s)** (twice the "
			    "pass median or more), %zu of them the first layer "
			    "of a pass (warm-up)", nout, nfirst);
		if (nlast)
			fprintf(rc->out,
			    "; %zu last layer(s) of a pass, whose span "
			    "ends at their last kernel and is shorter", nlast);
	}
	fputs("\n\n", rc->out);
	arch_idle(rc, d);
}

static int64_t
num_of(const char *s)
{
	return strtoll(s, NULL, 10);
}

/* Layers by device idle inside them and before them, most first. */
static int
by_idle(const void *a, const void *b)
{
	const struct arow *x = *(const struct arow *const *)a;
	const struct arow *y = *(const struct arow *const *)b;
	int64_t u = num_of(x->f[A_IDLE]) + num_of(x->f[A_GAP]);
	int64_t v = num_of(y->f[A_IDLE]) + num_of(y->f[A_GAP]);

	if (u != v)
		return u > v ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Which structure holds the idle time and which side carries the cost
 * (the structure-level drill-down of doc/analysis-rules.md, Reports):
 * the layer type with the most device idle, the side against the
 * block, and the layers with the most idle inside and before them.
 */
void
arch_idle(struct rctx *rc, const struct adev *d)
{
	const struct arows *t = &d->r[AR_LTYPE], *l = &d->r[AR_LAYER];
	const struct arow **v, *most = NULL;
	int64_t bc = 0, sc = 0, bb = 0, sb = 0;
	size_t i, n;

	if (l->n == 0 || *l->v[0].f[A_IDLE] == '\0')
		return;
	for (i = 0; i < t->n; i++) {
		const struct arow *r = &t->v[i];
		if (most == NULL || num_of(r->f[A_IDLE]) + num_of(r->f[A_GAP]) >
		    num_of(most->f[A_IDLE]) + num_of(most->f[A_GAP]))
			most = r;
		bc += num_of(r->f[A_BCOST]);
		sc += num_of(r->f[A_SCOST]);
		bb += num_of(r->f[A_BBUSY]);
		sb += num_of(r->f[A_SBUSY]);
	}
	fputs("Where the idle time is, and which side carries the cost:\n",
	    rc->out);
	if (most != NULL) {
		fprintf(rc->out, "- **%s (%s) layers hold the most device idle**:"
		    " ", most->f[A_NAME], most->f[A_PHASE]);
		ms(rc, most->f[A_IDLE]);
		fputs(" ms inside them and ", rc->out);
		ms(rc, most->f[A_GAP]);
		fputs(" ms in the gaps before them (a gap between layers is "
		    "host launch lag between them; idle inside, a dispatch, AI "
		    "CPU or sync stall within the layer)", rc->out);
	}
	fputs(".\n- ", rc->out);
	fprintf(rc->out, "**The %s carries more of the cost**: block ",
	    sc > bc ? "side" : "block");
	put_ms(rc->out, bc, 3);
	fputs(" ms total cost, ", rc->out);
	put_ms(rc->out, bb, 3);
	fputs(" ms busy; side ", rc->out);
	put_ms(rc->out, sc, 3);
	fputs(" ms total cost, ", rc->out);
	put_ms(rc->out, sb, 3);
	fputs(" ms busy (the side: communication, AI CPU, other streams and "
	    "kernels under 10 us; a side heavy in cost and light in busy "
	    "time waits).\n\nThe layers with the most device idle, inside "
	    "and before them:\n\n"
	    "| Pass | Layer | Type | Start (ms) | Wall (ms) | Idle inside (ms) "
	    "| Idle before (ms) | Block busy (ms) | Side busy (ms) | Task "
	    "classes |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---|\n",
	    rc->out);
	v = xreallocarray(NULL, l->n, sizeof(*v));
	for (i = 0; i < l->n; i++)
		v[i] = &l->v[i];
	qsort(v, l->n, sizeof(*v), by_idle);
	n = l->n < 5 ? l->n : 5;
	for (i = 0; i < n; i++) {
		fprintf(rc->out, "| %s | %s | %s | ", v[i]->f[A_PASS],
		    v[i]->f[A_LAYER], v[i]->f[A_LTYPE]);
		ms(rc, v[i]->f[A_TS]);
		fputs(" | ", rc->out);
		ms(rc, v[i]->f[A_DUR]);
		fputs(" | ", rc->out);
		ms(rc, v[i]->f[A_IDLE]);
		fputs(" | ", rc->out);
		ms(rc, *v[i]->f[A_GAP] ? v[i]->f[A_GAP] : "0");
		fputs(" | ", rc->out);
		ms(rc, *v[i]->f[A_BBUSY] ? v[i]->f[A_BBUSY] : "0");
		fputs(" | ", rc->out);
		ms(rc, *v[i]->f[A_SBUSY] ? v[i]->f[A_SBUSY] : "0");
		fputs(" | ", rc->out);
		arch_mix(rc->out, v[i]->f[A_MIX]);
		fputs(" |\n", rc->out);
	}
	free(v);
	fputs("\n", rc->out);
}
