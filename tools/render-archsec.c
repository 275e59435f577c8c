/*
 * -f arch, sections 6 to 9: per-layer sub-structure with the kernel
 * sequence trees, the decode phase (or the backward pass of a training
 * capture), the communication pipeline, layer-to-layer variation.  The
 * drawing follows section 9.3 of the analysis rules: trees with ├─ │ └─
 * and → between kernels, ×N for repeats; the geometry of the bars is
 * the only arithmetic here, and no number is printed from it.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static FILE *out;

static void
ms(const char *ns)
{
	put_dec(out, ns, 6, 3);
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

#define ANON	"(anonymous namespace)"

/*
 * A kernel name that fits a tree line: C++ names run to 500 bytes, so
 * a name longer than MAX loses its return type, anonymous namespaces and
 * its template and argument lists ("vllm::fused_add_rms_norm_kernel<…>"),
 * then is cut.
 */
void
arch_kname(FILE *f, const char *s, size_t max)
{
	char b[256];
	size_t o = 0, i, start = 0;
	int depth = 0, paren = 0;

	if (strlen(s) <= max || max < 8) {
		fputs(s, f);
		return;
	}
	if (strncmp(s, "void ", 5) == 0)
		s += 5;
	/* The name proper ends at the first '(' outside a template. */
	for (i = start; s[i] != '\0'; i++) {
		/* A '>' in parentheses inside a template compares. */
		if (depth > 0 && s[i] == '(')
			paren++;
		else if (depth > 0 && s[i] == ')' && paren > 0)
			paren--;
		else if (paren > 0)
			continue;
		else if (s[i] == '<')
			depth++;
		else if (s[i] == '>' && depth > 0)
			depth--;
		else if (depth == 0 && s[i] == ' ')
			start = i + 1;	/* a return type before it */
		else if (depth == 0 && strncmp(s + i, ANON, strlen(ANON)) == 0)
			i += strlen(ANON) - 1;
		else if (depth == 0 && s[i] == '(')
			break;
	}
	for (depth = paren = 0; start < i && o + 6 < sizeof(b); start++) {
		if (depth > 0 && s[start] == '(')
			paren++;
		else if (depth > 0 && s[start] == ')' && paren > 0)
			paren--;
		else if (paren > 0)
			continue;
		else if (depth == 0 && strncmp(s + start, ANON "::",
		    strlen(ANON) + 2) == 0)
			start += strlen(ANON) + 1;
		else if (s[start] == '<' && depth++ == 0) {
			memcpy(b + o, "<…>", 5);
			o += 5;
		} else if (s[start] == '>' && depth > 0)
			depth--;
		else if (depth == 0)
			b[o++] = s[start];
	}
	b[o] = '\0';
	if (o == 0)
		snprintf(b, sizeof(b), "%.*s", (int)max, s);
	if (strlen(b) > max + 4)
		fprintf(f, "%.*s…", (int)max - 1, b);
	else
		fputs(b, f);
}

/* One run of the sequence: name ×N (time). */
static void
run(const struct arow *r, const char *track)
{
	arch_kname(out, r->f[A_NAME], 60);
	if (strcmp(r->f[A_REPEAT], "1") != 0)
		fprintf(out, " ×%s", r->f[A_REPEAT]);
	fputs(" (", out);
	ms(r->f[A_KSUM]);
	fputs(" ms)", out);
	if (strcmp(r->f[A_TRACK], track) != 0)
		fprintf(out, " [stream %s]", *r->f[A_TRACK] ? r->f[A_TRACK] :
		    "-");
}

/*
 * The kernel sequence of (phase, type) starting at row FIRST of the
 * layer_seq records, as a tree: one branch per run of one role group,
 * its kernels joined by →, three to a line.
 */
void
arch_tree(FILE *f, const struct adev *d, const struct arow *first)
{
	const struct arows *s = &d->r[AR_SEQ];
	size_t i = (size_t)(first - s->v), j, end, k, nk = 0;

	out = f;
	for (end = i; end < s->n && same(&s->v[end], first->f[A_PHASE],
	    first->f[A_LTYPE]); end++)
		nk += (size_t)i64(s->v[end].f[A_REPEAT]);
	fprintf(out, "```text\nlayer %s of pass %s (%s, %s): %zu kernels, "
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
		fprintf(out, "%s %s: ", last ? "└─" : "├─",
		    *s->v[j].f[A_TAGS] ? s->v[j].f[A_TAGS] : "other");
		for (; j < k; j++, n++) {
			if (n > 0 && n % 3 == 0)
				fprintf(out, "\n%s   → ", last ? " " : "│");
			else if (n > 0)
				fputs(" → ", out);
			run(&s->v[j], first->f[A_TRACK]);
		}
		fputs("\n", out);
	}
	fputs("```\n", out);
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
roles(const struct adev *d, const char *phase, const char *type)
{
	size_t i;

	fputs("| Component | Kernels | Wall time, all layers (ms) | Kernel "
	    "time (ms) | Share of layer wall (%) |\n"
	    "|---|---:|---:|---:|---:|\n", out);
	for (i = 0; i < d->r[AR_ROLE].n; i++) {
		const struct arow *r = &d->r[AR_ROLE].v[i];
		if (!same(r, phase, type))
			continue;
		fprintf(out, "| `%s` | %s | ", r->f[A_NAME], r->f[A_VALUE]);
		ms(r->f[A_BUSY]);
		fputs(" | ", out);
		ms(r->f[A_KSUM]);
		fputs(" | ", out);
		arch_pct(out, r->f[A_SHARE]);
		fputs(" |\n", out);
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
anomalies(const struct adev *d, const char *phase, const char *type)
{
	size_t i, n = 0;

	for (i = 0; i < d->r[AR_LAYER].n; i++) {
		const struct arow *l = &d->r[AR_LAYER].v[i];
		const char *t = l->f[A_TAGS];
		if (!same(l, phase, type) || !(tag_has(t, "outlier") ||
		    tag_has(t, "sampling") || (tag_has(t, "last") && n < 8)))
			continue;
		if (n++ == 0)
			fputs("\nLayers that differ:\n\n", out);
		fprintf(out, "- layer %s of pass %s: wall ", l->f[A_LAYER],
		    l->f[A_PASS]);
		ms(l->f[A_DUR]);
		fprintf(out, " ms, %s kernels, kernel time ", l->f[A_KCOUNT]);
		ms(l->f[A_KSUM]);
		fputs(" ms", out);
		if (tag_has(t, "outlier"))
			fputs(tag_has(t, "first") ? "; **outlier: first layer "
			    "of its pass (warm-up)**" : "; **outlier: twice "
			    "the pass's median wall or more**", out);
		if (tag_has(t, "last"))
			fputs("; last of its pass: ends at its last kernel "
			    "(the output head, loss, sampling or a pipeline "
			    "send that follow belong to no layer)", out);
		if (tag_has(t, "sampling"))
			fputs("; **runs sampling ops** (decode/sampling "
			    "logic)", out);
		fputs("\n", out);
	}
}

void
arch_sec6(FILE *f, const struct adev *d)
{
	size_t i;

	out = f;
	fputs("### 6. Per-Layer Sub-Structure\n\n", out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		const struct arow *s = seq_of(d, t->f[A_PHASE], t->f[A_NAME]);
		const struct arow *r = dominant(d, t->f[A_PHASE],
		    t->f[A_NAME]);
		fprintf(out, "#### %s layers (%s)\n\n", t->f[A_NAME],
		    t->f[A_PHASE]);
		fprintf(out, "%s layer(s), %s kernels per layer (median), typical "
		    "wall ", t->f[A_VALUE], t->f[A_KCOUNT]);
		ms(t->f[A_MEDIAN]);
		fputs(" ms", out);
		if (r != NULL) {
			fprintf(out, "; dominant component **`%s`, ",
			    r->f[A_NAME]);
			arch_pct(out, r->f[A_SHARE]);
			fputs("% of the layer wall**", out);
		}
		fputs(".\n\n", out);
		if (s != NULL)
			arch_tree(out, d, s);
		else
			fputs("No `layer_seq` record for this type.\n", out);
		fputs("\n", out);
		roles(d, t->f[A_PHASE], t->f[A_NAME]);
		anomalies(d, t->f[A_PHASE], t->f[A_NAME]);
		fputs("\n", out);
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
contrast(const struct adev *d, const char *a, const char *b)
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
	fprintf(out, "| Measure | %s | %s |\n|---|---:|---:|\n", a, b);
	fputs("| Median marker (attention) duration, first pass (ms) | ", out);
	ms(pa->f[A_MDUR]);
	fputs(" | ", out);
	ms(pb->f[A_MDUR]);
	fputs(" |\n| Median layer wall, first layer type (ms) | ", out);
	ms(ta->f[A_MEDIAN]);
	fprintf(out, " (%s) | ", ta->f[A_NAME]);
	ms(tb->f[A_MEDIAN]);
	fprintf(out, " (%s) |\n| Kernels per layer (median), first layer "
	    "type | %s (%s) | %s (%s) |\n", tb->f[A_NAME], ta->f[A_KCOUNT],
	    ta->f[A_NAME], tb->f[A_KCOUNT], tb->f[A_NAME]);
	fputs("| Pass wall, first pass (ms) | ", out);
	ms(pa->f[A_DUR]);
	fputs(" | ", out);
	ms(pb->f[A_DUR]);
	fputs(" |\n\n", out);
}

static void
phase_costs(const struct adev *d, const char *phase)
{
	size_t i;

	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		if (strcmp(t->f[A_PHASE], phase) != 0)
			continue;
		fprintf(out, "Dominant costs of the %s %s layers (the tree is "
		    "in section 6):\n\n", phase, t->f[A_NAME]);
		roles(d, phase, t->f[A_NAME]);
		fputs("\n", out);
	}
}

void
arch_sec7(FILE *f, const struct adev *d)
{
	const char *nd = arch_metric(d, "decode_pass_count");
	const char *nb = arch_metric(d, "backward_pass_count");

	out = f;
	fputs("### 7. Decode Phase Analysis\n\n", out);
	if (nd != NULL && strcmp(nd, "0") != 0) {
		fprintf(out, "%s decode pass(es), %s decode layers.\n\n", nd,
		    arch_metric(d, "decode_layer_count"));
		phase_costs(d, "decode");
		contrast(d, "prefill", "decode");
		fputs("Decode attends one new token per sequence against the "
		    "KV cache: the attention kernel collapses and the layer is "
		    "bound by weight and cache reads and by launch latency, "
		    "not by compute; communication (all-to-all for expert "
		    "parallelism) then takes a larger share.\n\n", out);
		return;
	}
	if (nb != NULL && strcmp(nb, "0") != 0) {
		fprintf(out, "**Training capture: no decode phase.**  The "
		    "backward pass takes its place here: %s backward "
		    "pass(es).\n\n", nb);
		phase_costs(d, "backward");
		contrast(d, "forward", "backward");
		fputs("The backward layer recomputes and differentiates: its "
		    "attention gradient and the weight and input gradient "
		    "matmuls make it longer than the forward layer.\n\n", out);
		return;
	}
	fputs("Missing: no decode and no backward pass on this rank; every "
	    "pass is forward", out);
	if (arch_metric(d, "prefill_pass_count") != NULL &&
	    strcmp(arch_metric(d, "prefill_pass_count"), "0") != 0)
		fputs(" or prefill", out);
	fputs(".  A decode analysis needs a capture that covers token "
	    "generation (the profiler's schedule active over decode steps); "
	    "prof-layers then tells decode passes by their short attention "
	    "kernels.\n\n", out);
}

/* A bar of WIDTH cells, NUM / DEN of it filled. */
static void
bar(int64_t num, int64_t den, int width)
{
	int i, n = den > 0 ? (int)((num > den ? den : num) * width / den) : 0;

	if (num > 0 && n == 0)
		n = 1;
	for (i = 0; i < width; i++)
		fputs(i < n ? "█" : "░", out);
}

static void
track(const char *t)
{
	fprintf(out, "%s", *t ? t : "-");
}

/* Stream | Purpose | ... | Overlaps with (rule A7). */
static void
stream_table(const struct arows *s, const struct arows *o)
{
	size_t i, j;
	int n;

	fputs("| Stream | Purpose | Kernels | Kernel time (ms) | Busy (ms) | "
	    "Share of kernel time (%) | Overlaps with |\n"
	    "|---|---|---:|---:|---:|---:|---|\n", out);
	for (i = 0; i < s->n; i++) {
		const struct arow *r = &s->v[i];
		fputs("| `", out);
		track(r->f[A_TRACK]);
		fprintf(out, "` | %s | %s | ", r->f[A_NAME], r->f[A_VALUE]);
		ms(r->f[A_KSUM]);
		fputs(" | ", out);
		ms(r->f[A_BUSY]);
		fputs(" | ", out);
		arch_pct(out, r->f[A_SHARE]);
		fputs(" | ", out);
		for (j = 0, n = 0; j < o->n; j++) {
			if (strcmp(o->v[j].f[A_TRACK], r->f[A_TRACK]) != 0)
				continue;
			fputs(n++ ? ", `" : "`", out);
			track(o->v[j].f[A_NAME]);
			fputs("` ", out);
			ms(o->v[j].f[A_BUSY]);
			fputs(" ms (", out);
			arch_pct(out, o->v[j].f[A_SHARE]);
			fputs("%)", out);
		}
		fputs(n ? " |\n" : "none |\n", out);
	}
}

/* The overlap diagram: a bar per stream, and one of hidden comm. */
static void
stream_bars(const struct adev *d, const char *ratio)
{
	const struct arows *s = &d->r[AR_STREAM];
	int64_t span = d->kend - d->kfirst;
	size_t i;

	fputs("\nBusy time of each stream over the kernels' extent (", out);
	put_ms(out, span, 3);
	fputs(" ms):\n\n```text\n", out);
	for (i = 0; i < s->n; i++) {
		fprintf(out, "stream %-6s %-12s │", *s->v[i].f[A_TRACK] ?
		    s->v[i].f[A_TRACK] : "-", s->v[i].f[A_NAME]);
		bar(i64(s->v[i].f[A_BUSY]), span, 40);
		fputs("│ ", out);
		ms(s->v[i].f[A_BUSY]);
		fputs(" ms\n", out);
	}
	if (ratio != NULL) {
		fprintf(out, "%-27s│", "comm hidden under compute");
		bar(i64(arch_metric(d, "comm_overlap_ns")),
		    i64(arch_metric(d, "comm_union_ns")), 40);
		fputs("│ ", out);
		arch_pct(out, ratio);
		fputs("% of comm\n", out);
	}
	fputs("```\n\n", out);
}

void
arch_sec8(FILE *f, const struct adev *d)
{
	const char *ratio = arch_metric(d, "comm_overlap_ratio");

	out = f;
	fputs("### 8. Communication Pipeline Structure\n\n", out);
	if (d->r[AR_STREAM].n == 0) {
		fputs("Missing: no `stream` records (prof-layers did not run on "
		    "this rank's kernels).\n\n", out);
		return;
	}
	stream_table(&d->r[AR_STREAM], &d->r[AR_OVL]);
	stream_bars(d, ratio);
	if (ratio == NULL) {
		fputs("No communication kernels on this rank: a single-device "
		    "run, or the collectives are not in the trace (capture "
		    "with the communication activities on).\n\n", out);
		return;
	}
	fputs("**", out);
	arch_pct(out, ratio);
	fputs("% of the communication time is hidden under compute** "
	    "(`comm_overlap_ratio` ", out);
	put_dec(out, ratio, 0, 6);
	fputs("; above 0.9 is well hidden): ", out);
	ms(arch_metric(d, "comm_overlap_ns"));
	fputs(" ms of the ", out);
	ms(arch_metric(d, "comm_union_ns"));
	fputs(" ms when communication runs.  Communication kernels add up to ",
	    out);
	ms(arch_metric(d, "comm_kernel_sum_ns"));
	fputs(" ms: kernel time exceeds wall time where collectives overlap "
	    "each other or other streams, and a collective's duration "
	    "includes the time it waits for its peers, so the sum of kernel "
	    "times is not time spent.\n\n", out);
}

/* One row of the variation table: a column per layer_type record. */
static void
vrow(const struct adev *d, const char *label, int col, int unit)
{
	size_t i;

	fprintf(out, "| %s |", label);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const char *v = d->r[AR_LTYPE].v[i].f[col];
		fputs(" ", out);
		if (unit == 1)
			ms(v);
		else
			fputs(*v ? v : "-", out);
		fputs(" |", out);
	}
	fputs("\n", out);
}

static void
vrole(const struct adev *d, const char *label, const char *role)
{
	size_t i, j;

	fprintf(out, "| %s |", label);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		const char *v = NULL;
		for (j = 0; j < d->r[AR_ROLE].n; j++)
			if (same(&d->r[AR_ROLE].v[j], t->f[A_PHASE],
			    t->f[A_NAME]) && strcmp(d->r[AR_ROLE].v[j].f[A_NAME],
			    role) == 0)
				v = d->r[AR_ROLE].v[j].f[A_SHARE];
		fputs(" ", out);
		arch_pct(out, v);
		fputs(" |", out);
	}
	fputs("\n", out);
}

void
arch_sec9(FILE *f, const struct adev *d)
{
	size_t i;

	out = f;
	fputs("### 9. Layer-to-Layer Variation\n\n| Metric |", out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		fprintf(out, " %s (%s) |", d->r[AR_LTYPE].v[i].f[A_NAME],
		    d->r[AR_LTYPE].v[i].f[A_PHASE]);
	fputs("\n|---|", out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		fputs("---:|", out);
	fputs("\n", out);
	vrow(d, "Layers", A_VALUE, 0);
	vrow(d, "Wall time, min (ms)", A_MIN, 1);
	vrow(d, "Wall time, median (ms)", A_MEDIAN, 1);
	vrow(d, "Wall time, max (ms)", A_MAX, 1);
	vrow(d, "Coefficient of variation", A_CV, 0);
	vrow(d, "Kernels per layer (median)", A_KCOUNT, 0);
	vrow(d, "Kernel time, all layers (ms)", A_KSUM, 1);
	vrow(d, "Busy time, all layers (ms)", A_BUSY, 1);
	vrole(d, "Attention share of wall (%)", "attention");
	vrole(d, "Expert share of wall (%)", "expert");
	vrole(d, "Matmul share of wall (%)", "matmul");
	vrole(d, "Communication (TP) share of wall (%)", "tp_comm");
	fputs("\nWithin-type variation:", out);
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
		fprintf(out, "\n- %s (%s): wall ", t->f[A_NAME], t->f[A_PHASE]);
		ms(t->f[A_MIN]);
		fputs("–", out);
		ms(t->f[A_MAX]);
		fprintf(out, " ms, coefficient of variation %s", t->f[A_CV]);
		if (nout)
			fprintf(out, "; **%zu outlier layer(s)** (twice the "
			    "pass median or more), %zu of them the first layer "
			    "of a pass (warm-up)", nout, nfirst);
		if (nlast)
			fprintf(out, "; %zu last layer(s) of a pass, whose span "
			    "ends at their last kernel and is shorter", nlast);
	}
	fputs("\n\n", out);
}
