/*
 * -f arch: the evidence that decided the layers and passes
 * (arch_evidence), the pass boundaries (arch_passes), the layer
 * classification (arch_layer_types) and the cross-verification of op
 * counts (arch_crosscheck), as pipe tables.  Only the marker index
 * ranges are counted here.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static void
ms(struct rctx *rc, const char *ns)
{
	put_dec(rc->out, ns, 6, 3);
}

/* The first layer_seq row of (phase, type), or NULL. */
static const struct arow *
seq_first(const struct adev *d)
{
	return d->r[AR_SEQ].n > 0 ? &d->r[AR_SEQ].v[0] : NULL;
}

/*
 * The median marker of every pass, a row per phase (rule A1 of the
 * method: doc/analysis-rules.md, Markers and passes).
 */
static void
marker_rows(struct rctx *rc, const struct arows *p, int conv)
{
	static const char *const phases[] = { "prefill", "decode", "forward",
	    "backward", "" };
	static const char *const why[] = {
		"over 10 ms: prefill (rule A1)",
		"under 1 ms after a prefill pass: decode (rule A1)",
		"neither threshold, or the data-driven split: forward",
		"gradient kernels (`grad`, `bwd` in the name): backward",
		"detected anchor that is not an attention kernel: unknown"
	};
	static const char *const cwhy[] = {
		"", "", "convolution and GEMM runs with no gradient kernel: "
		"forward",
		"a gradient kernel in the run (`dgrad`, `wgrad`, `wrw`, "
		"`Backprop`, ...) or two GEMMs: backward", ""
	};
	size_t i, j;
	int any;

	for (j = 0; j < sizeof(phases) / sizeof(phases[0]); j++) {
		for (i = 0, any = 0; i < p->n; i++) {
			if (strcmp(p->v[i].f[A_PHASE], phases[j]) != 0)
				continue;
			if (any++)
				fprintf(rc->out, ", pass %s ",
				    p->v[i].f[A_PASS]);
			else
				fprintf(rc->out, "| Median marker duration, %s "
				    "passes | pass %s ", *phases[j] ?
				    phases[j] : "unknown", p->v[i].f[A_PASS]);
			ms(rc, p->v[i].f[A_MDUR]);
			fputs(" ms", rc->out);
		}
		if (any)
			fprintf(rc->out, " | %s |\n", conv ? cwhy[j] : why[j]);
	}
}

/* The rows of the passes, their boundaries and the layer types. */
static void
pass_rows(struct rctx *rc, const struct adev *d, const struct arows *p)
{
	size_t i;

	fprintf(rc->out, "| Passes | %s:", arch_metric_or(d, "pass_count",
	    "-"));
	for (i = 0; i < p->n; i++)
		fprintf(rc->out, "%s %s", i ? " +" : "", p->v[i].f[A_LAYERS]);
	fputs(" layers | a pass starts where a rule fires: ", rc->out);
	for (i = 0; i < p->n; i++)
		fprintf(rc->out, "%s%s", i ? ", " : "", p->v[i].f[A_RULE]);
	fputs(" |\n| Transition points | ", rc->out);
	for (i = 1; i < p->n; i++) {
		fprintf(rc->out, "%spass %s at ", i > 1 ? "; " : "",
		    p->v[i].f[A_PASS]);
		ms(rc, p->v[i].f[A_TS]);
		fprintf(rc->out, " ms (%s)", p->v[i].f[A_RULE]);
	}
	fprintf(rc->out, "%s | the boundaries between passes |\n", p->n < 2 ?
	    "none: one pass" : "");
	fputs("| Layer types | ", rc->out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		fprintf(rc->out, "%s%s ×%s (%s)", i ? ", " : "",
		    d->r[AR_LTYPE].v[i].f[A_NAME],
		    d->r[AR_LTYPE].v[i].f[A_VALUE],
		    d->r[AR_LTYPE].v[i].f[A_PHASE]);
	fputs(" | presence tests over each layer's kernels (rule A3) |\n",
	    rc->out);
}

/*
 * The residual blocks and stages of the first forward pass that has
 * them: blocks per stage, counted over its layer records.
 */
static void
residual_rows(struct rctx *rc, const struct adev *d)
{
	const struct arows *p = &d->r[AR_PASS], *l = &d->r[AR_LAYER];
	const struct arow *f = NULL;
	size_t i;
	long stage = -1, blk = -1, nblk = 0;

	for (i = 0; i < p->n && f == NULL; i++)
		if (*p->v[i].f[A_NRES] != '\0')
			f = &p->v[i];
	if (f == NULL) {
		fputs("| Residual blocks | none | no convolution layer ends "
		    "with a tensor add: a plain network |\n", rc->out);
		return;
	}
	fprintf(rc->out, "| Residual blocks | %s in %s stages (pass %s): ",
	    f->f[A_NRES], f->f[A_NSTAGES], f->f[A_PASS]);
	for (i = 0; i < l->n; i++) {
		const struct arow *r = &l->v[i];
		long s, b;

		if (strcmp(r->f[A_PASS], f->f[A_PASS]) != 0 ||
		    *r->f[A_STAGE] == '\0')
			continue;
		s = strtol(r->f[A_STAGE], NULL, 10);
		b = strtol(r->f[A_RES], NULL, 10);
		if (s != stage) {
			if (stage >= 0)
				fprintf(rc->out, "%ld, ", nblk);
			stage = s;
			nblk = 0;
		}
		if (b != blk)
			nblk++;
		blk = b;
	}
	fprintf(rc->out, "%ld blocks per stage | a layer with a tensor-tensor "
	    "add after its convolution ends a residual block; one with more "
	    "convolutions than most (its shortcut) starts a stage |\n",
	    nblk);
}

/* The markers, passes and layer types prof-layers found, with why. */
void
arch_evidence(struct rctx *rc, const struct adev *d)
{
	const struct arows *p = &d->r[AR_PASS];
	const struct arow *s = seq_first(d);
	size_t i, nmis = 0, nchk = d->r[AR_CHECK].n;
	int det = 0, conv = arch_is(d, "cnn");

	fputs("### 2. Model Architecture Determination\n\n"
	    "| Evidence | Value | Interpretation |\n|---|---|---|\n", rc->out);
	for (i = 0; i < p->n; i++)
		det |= tag_has(p->v[i].f[A_TAGS], "detected");
	fputs("| Marker kernel | ", rc->out);
	if (s != NULL) {
		/* Names are short or C++ templates without '|' or '`'. */
		fputs("`", rc->out);
		arch_kname(rc->out, s->f[A_NAME], NAME_MAX_COLS);
		fputs("`", rc->out);
	} else
		fputs("-", rc->out);
	fprintf(rc->out, " | %s |\n", conv ? "a convolution layer's "
	    "first kernel (no attention marker): each run of convolution or "
	    "GEMM kernels is a layer's main op" : det ? "detected anchor: "
	    "the kernel of the repeating sequence (no attention marker)" :
	    "the attention kernel: once per layer per pass (rule A1)");
	if (arch_model(d) != NULL)
		fprintf(rc->out, "| Structure | %s, confidence %s | %s |\n",
		    arch_model(d)->f[A_NAME], arch_model(d)->f[A_VALUE],
		    arch_model(d)->f[A_EVIDENCE]);
	if (det || conv)
		fprintf(rc->out,
		    "| Detection confidence | %s | %s |\n",
		    arch_metric_or(d, "layer_detect_confidence_ratio", "-"),
		    conv ? "(shaped + 1) / (units + 2): units followed by a "
		    "norm, activation or pooling, or gradients (never 1)" :
		    "(recurring + 1) / (kernels + 2): kernels that recur one "
		    "period later (never 1)");
	fprintf(rc->out, "| Markers | %s | one per layer: %s layers found |\n",
	    arch_metric_or(d, "marker_count", "-"),
	    arch_metric_or(d, "layer_count", "-"));
	marker_rows(rc, p, conv);
	pass_rows(rc, d, p);
	if (conv)
		residual_rows(rc, d);
	for (i = 0; i < nchk; i++)
		nmis += tag_has(d->r[AR_CHECK].v[i].f[A_TAGS], "mismatch");
	fprintf(rc->out,
	    "| Cross-checks | %zu, %zu mismatch | op counts per pass "
	    "against the layers (section 5) |\n\n", nchk, nmis);
	fprintf(rc->out,
	    "**%s layers in %s passes**, each layer from one marker's "
	    "start to the next one's.\n", arch_metric_or(d, "layer_count", "-"),
	    arch_metric_or(d, "pass_count", "-"));
}

static void
ms_or(struct rctx *rc, const char *ns)
{
	if (*ns == '\0')
		fputs("-", rc->out);
	else
		ms(rc, ns);
}

/*
 * What every pass costs (the four views of doc/analysis-rules.md,
 * Block, side and the four timing views), its block and side, the
 * device idle inside its layers and between them, its share of the step
 * and its task classes.
 */
void
arch_costs(struct rctx *rc, const struct adev *d)
{
	const struct arows *p = &d->r[AR_PASS];
	size_t i;

	fputs("\nWhat each pass costs: wall, busy union, kernel-time sum and "
	    "total cost (duration + wait) of its layers; the device idle "
	    "inside its layers and between them; its block (the main compute "
	    "chain: marker stream, 10 us or more, no communication or AI "
	    "CPU) and its side (everything else).\n\n"
	    "| Pass | Step (micro) | Wall (ms) | Busy (ms) | Kernel time (ms) "
	    "| Total cost (ms) | Idle in layers (ms) | Idle between layers "
	    "(ms) | Block busy / cost (ms) | Side busy / cost (ms) | Share of "
	    "step (%) | Task classes |\n"
	    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
	    rc->out);
	for (i = 0; i < p->n; i++) {
		const struct arow *r = &p->v[i];

		fprintf(rc->out, "| %s | %s%s%s%s | ", r->f[A_PASS],
		    *r->f[A_STEP] ? r->f[A_STEP] : "-", *r->f[A_MICRO] ?
		    " (" : "", r->f[A_MICRO], *r->f[A_MICRO] ? ")" : "");
		ms(rc, r->f[A_DUR]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_BUSY]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_KSUM]);
		fputs(" | ", rc->out);
		ms_or(rc, r->f[A_COST]);
		fputs(" | ", rc->out);
		ms_or(rc, r->f[A_IDLE]);
		fputs(" | ", rc->out);
		ms_or(rc, r->f[A_BETWEEN]);
		fputs(" | ", rc->out);
		ms_or(rc, r->f[A_BBUSY]);
		fputs(" / ", rc->out);
		ms_or(rc, r->f[A_BCOST]);
		fputs(" | ", rc->out);
		ms_or(rc, r->f[A_SBUSY]);
		fputs(" / ", rc->out);
		ms_or(rc, r->f[A_SCOST]);
		fputs(" | ", rc->out);
		arch_pct(rc->out, r->f[A_SSHARE]);
		fputs(" | ", rc->out);
		arch_mix(rc->out, r->f[A_MIX]);
		fputs(" |\n", rc->out);
	}
}

/* Column COL of the passes of pass I's phase, from I on: " a → b". */
static void
drift(struct rctx *rc, const struct arows *p, size_t i, int col)
{
	size_t j;

	for (j = i; j < p->n; j++)
		if (strcmp(p->v[j].f[A_PHASE], p->v[i].f[A_PHASE]) == 0) {
			fputs(j > i ? " → " : " ", rc->out);
			ms(rc, p->v[j].f[col]);
			fputs(" ms", rc->out);
		}
}

/* Every pass: its rule, markers, times, and the drift across passes. */
void
arch_passes(struct rctx *rc, const struct adev *d)
{
	const struct arows *p = &d->r[AR_PASS];
	size_t i;
	long first = 0;
	int64_t ts, dur;

	fputs("### 3. Forward Pass Boundaries\n\n", rc->out);
	fputs("Passes of every phase (backward passes included), times from "
	    "the stream origin.\n\n", rc->out);
	fputs("| Pass | Phase | Rule | Marker range | Start (s) | End (s) | "
	    "Wall (ms) | Median marker (ms) | Mean marker (ms) | Kernels | "
	    "Kernel time (ms) | Busy (ms) |\n"
	    "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
	    rc->out);
	for (i = 0; i < p->n; i++) {
		const struct arow *r = &p->v[i];
		long n = strtol(r->f[A_LAYERS], NULL, 10);
		ts = strtoll(r->f[A_TS], NULL, 10);
		dur = strtoll(r->f[A_DUR], NULL, 10);
		fprintf(rc->out, "| %s | %s | %s | #%ld–#%ld | ", r->f[A_PASS],
		    *r->f[A_PHASE] ? r->f[A_PHASE] : "unknown", r->f[A_RULE],
		    first, first + n - 1);
		first += n;
		arch_seconds(rc->out, ts);
		fputs(" | ", rc->out);
		arch_seconds(rc->out, ts + dur);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_DUR]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_MDUR]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_MMEAN]);
		fprintf(rc->out, " | %s | ", r->f[A_KCOUNT]);
		ms(rc, r->f[A_KSUM]);
		fputs(" | ", rc->out);
		ms(rc, r->f[A_BUSY]);
		fputs(" |\n", rc->out);
	}
	fputs("\nDrift across passes of one phase (KV-cache growth, memory "
	    "pressure, a pipeline wait show here):", rc->out);
	for (i = 0; i < p->n; i++) {
		size_t j;
		int any = 0;
		for (j = 0; j < i; j++)
			if (strcmp(p->v[j].f[A_PHASE], p->v[i].f[A_PHASE]) == 0)
				any = 1;
		if (any)
			continue;
		fprintf(rc->out, "\n- %s: median marker", *p->v[i].f[A_PHASE] ?
		    p->v[i].f[A_PHASE] : "unknown");
		drift(rc, p, i, A_MDUR);
		fputs("; wall", rc->out);
		drift(rc, p, i, A_DUR);
	}
	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].f[A_LAYERS], arch_metric_or(d,
		    "layers_per_pass_max", "")) != 0)
			fprintf(rc->out,
			    "\n- **pass %s has %s layers of the %s of "
			    "the longest pass**: a capture that starts or ends "
			    "inside a pass cuts it, or a rule split one",
			    p->v[i].f[A_PASS], p->v[i].f[A_LAYERS],
			    arch_metric_or(d, "layers_per_pass_max", "-"));
	fputs("\n\nKernel time above busy time means kernels overlap: "
	    "communication on its own stream, or a collective that waits "
	    "for its peer while the compute runs.\n", rc->out);
	arch_costs(rc, d);
}

/* Marker index ranges of the layers of (phase, type): "#0–#13, #28". */
static void
ranges(struct rctx *rc, const struct adev *d, const char *phase,
    const char *type)
{
	const struct arows *l = &d->r[AR_LAYER];
	size_t i, start = 0, nr = 0;
	int open = 0;

	for (i = 0; i <= l->n; i++) {
		int in = i < l->n &&
		    strcmp(l->v[i].f[A_PHASE], phase) == 0 &&
		    strcmp(l->v[i].f[A_LTYPE], type) == 0;
		if (in && !open) {
			start = i;
			open = 1;
		} else if (!in && open) {
			fprintf(rc->out, "%s#%zu", nr++ ? ", " : "", start);
			if (i - 1 > start)
				fprintf(rc->out, "–#%zu", i - 1);
			open = 0;
		}
	}
}

static const char *
type_meaning(const char *t)
{
	if (strcmp(t, "Conv") == 0)
		return "a convolution with its norm, activation and pooling";
	if (strcmp(t, "Head") == 0)
		return "a CNN's classifier head: its fully connected layers, "
		    "one layer record for all (not counted in the pass's "
		    "layers)";
	if (strcmp(t, "Block") == 0)
		return "a repeating block with no attention or convolution";
	if (strcmp(t, "MoE+DFC") == 0)
		return "fused expert dispatch (`DispatchFFNCombine`)";
	if (strcmp(t, "MoE+GMM") == 0)
		return "grouped matmul experts (`GroupedMatmul`, grouped GEMM, "
		    "MoE finalize)";
	if (strcmp(t, "MoE") == 0)
		return "MoE routing without a recognised expert kernel";
	return "no MoE routing or expert kernel";
}

/* The role with the largest share of (phase, type), or NULL. */
static const struct arow *
top_role(const struct adev *d, const char *phase, const char *type)
{
	const struct arow *best = NULL;
	size_t i;

	for (i = 0; i < d->r[AR_ROLE].n; i++) {
		const struct arow *r = &d->r[AR_ROLE].v[i];
		if (strcmp(r->f[A_PHASE], phase) != 0 ||
		    strcmp(r->f[A_LTYPE], type) != 0)
			continue;
		if (best == NULL || strtoll(r->f[A_BUSY], NULL, 10) >
		    strtoll(best->f[A_BUSY], NULL, 10))
			best = r;
	}
	return best;
}

/* The layer types, where they are and what marks them. */
void
arch_layer_types(struct rctx *rc, const struct adev *d)
{
	size_t i, j, nsamp, nout;

	fputs("### 4. Layer Classification\n\n| Layer Type | Phase | Layers "
	    "| Count | Characteristics |\n|---|---|---|---:|---|\n", rc->out);
	for (i = 0; i < d->r[AR_LTYPE].n; i++) {
		const struct arow *t = &d->r[AR_LTYPE].v[i];
		const struct arow *r = top_role(d, t->f[A_PHASE], t->f[A_NAME]);
		nsamp = nout = 0;
		for (j = 0; j < d->r[AR_LAYER].n; j++) {
			const struct arow *l = &d->r[AR_LAYER].v[j];
			if (strcmp(l->f[A_PHASE], t->f[A_PHASE]) != 0 ||
			    strcmp(l->f[A_LTYPE], t->f[A_NAME]) != 0)
				continue;
			nsamp += tag_has(l->f[A_TAGS], "sampling");
			nout += tag_has(l->f[A_TAGS], "outlier");
		}
		fprintf(rc->out, "| %s | %s | ", t->f[A_NAME], t->f[A_PHASE]);
		ranges(rc, d, t->f[A_PHASE], t->f[A_NAME]);
		fprintf(rc->out, " | %s | %s; median wall ", t->f[A_VALUE],
		    type_meaning(t->f[A_NAME]));
		ms(rc, t->f[A_MEDIAN]);
		fputs(" ms (", rc->out);
		ms(rc, t->f[A_MIN]);
		fputs("–", rc->out);
		ms(rc, t->f[A_MAX]);
		fprintf(rc->out, " ms), %s kernels per layer (median)",
		    t->f[A_KCOUNT]);
		if (r != NULL) {
			fprintf(rc->out, "; largest role `%s`, ", r->f[A_NAME]);
			arch_pct(rc->out, r->f[A_SHARE]);
			fputs("% of the wall", rc->out);
		}
		if (nsamp)
			fprintf(rc->out, "; **%zu with sampling ops**", nsamp);
		if (nout)
			fprintf(rc->out, "; **%zu outlier(s)**", nout);
		fputs(" |\n", rc->out);
	}
	fprintf(rc->out, "\nMarker indices (#) count the layers of the rank "
	    "in time order; a layer runs from its marker to the next marker, "
	    "so it holds %s.\n", arch_is(d, "cnn") ? "its convolution's "
	    "norm, activation and pooling (in a backward pass, those of the "
	    "convolution before it)" : "the next layer's input norm and "
	    "projections");
}

static const char *
check_meaning(const char *op)
{
	static const char *const t[][2] = {
		{ "attention_marker", "attention marker (FIA): one per layer" },
		{ "dispatch_ffn_combine", "`DispatchFFNCombine`: one per "
		    "MoE+DFC layer" },
		{ "grouped_matmul", "`GroupedMatmul` / grouped GEMM: the "
		    "MoE+GMM layers" },
		{ "moe_gating_topk", "`MoeGatingTopK` / routing: every MoE "
		    "layer" },
		{ "kv_cache_update", "`ReshapeAndCache` KV-cache updates: "
		    "every layer but the first, whose update runs before the "
		    "first marker (the spec's N+1)" },
		{ "split_qkv_rmsnorm_rope", "`split_qkv_rmsnorm_rope`: next-"
		    "layer prep, every layer but the first" },
		{ "norm", "norm kernels: one per convolution in a network "
		    "with batch norms" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i][0], op) == 0)
			return t[i][1];
	return "";
}

/* Op counts per pass against the layers that should hold them. */
void
arch_crosscheck(struct rctx *rc, const struct adev *d)
{
	const struct arows *c = &d->r[AR_CHECK];
	size_t i;

	fputs("### 5. Cross-Verification Table\n\n", rc->out);
	if (c->n == 0) {
		fputs(d->r[AR_PASS].n > 0 ? "No `check` records: no op of "
		    "these passes is counted (a convolutional network without "
		    "norms has none).\n" : "No `check` records: prof-layers "
		    "found no pass.\n", rc->out);
		return;
	}
	fputs("| Op | Pass | Per Pass Count | Layers with it | Expected layers "
	    "| Per layer | Result | Interpretation |\n"
	    "|---|---:|---:|---:|---:|---:|---|---|\n", rc->out);
	for (i = 0; i < c->n; i++) {
		const struct arow *r = &c->v[i];
		fprintf(rc->out,
		    "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n",
		    r->f[A_NAME], r->f[A_PASS], r->f[A_VALUE], r->f[A_LAYERS],
		    r->f[A_EXPECT], r->f[A_PERLAYER],
		    tag_has(r->f[A_TAGS], "mismatch") ? "**mismatch**" :
		    "match", check_meaning(r->f[A_NAME]));
	}
	fputs("\nCounts are compared as layers × kernels per layer (spec 12, "
	    "item 12).", rc->out);
	for (i = 0; i < c->n; i++)
		if (tag_has(c->v[i].f[A_TAGS], "mismatch"))
			fprintf(rc->out,
			    "\n**Pass %s: `%s` is in %s layer(s), %s "
			    "expected: stated, not corrected.**",
			    c->v[i].f[A_PASS], c->v[i].f[A_NAME],
			    c->v[i].f[A_LAYERS], c->v[i].f[A_EXPECT]);
	fputs("\n", rc->out);
}
