/*
 * -f arch: the model architecture report, from the records of
 * prof-layers (pass, layer, check, per-device metric, layer_type, role,
 * layer_seq, stream, stream_overlap) and the preamble of prof-ingest.
 * This file keeps those records while the stream is read, reads the
 * hints of the profile directory's name, writes the configuration
 * (arch_configuration) and puts the sections in order: the evidence,
 * passes, layer types and cross-checks are in render-archtab.c, the
 * layer structure, decode phase, communication and variation in
 * render-archsec.c, the summary in render-archsum.c.
 *
 * Like every format, it only formats: a number is a record's value with
 * its decimal point moved to change the unit.  The exceptions are
 * positions: the marker index ranges of passes and layer types (counted
 * over the layer records) and the extent of the kernel records.  A
 * section whose records are missing says which stage or capture option
 * would supply them.
 */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

static const char *const acol[A_N] = {
	"ts_ns", "dur_ns", "track", "name", "pass", "layer", "layer_type",
	"phase", "rule", "layers", "kernel_count", "kernel_sum_ns", "busy_ns",
	"marker_dur_ns", "marker_mean_ns", "value", "expect_layers",
	"per_layer", "min_ns", "median_ns", "max_ns", "cv_ratio",
	"share_ratio", "seq", "repeat", "tags", "cost_total_ns", "task_mix",
	"block_wall_ns", "block_busy_ns", "block_sum_ns", "block_cost_ns",
	"side_wall_ns", "side_busy_ns", "side_sum_ns", "side_cost_ns",
	"idle_ns", "gap_ns", "between_ns", "step_share_ratio", "step",
	"micro", "residual", "stage", "residual_blocks", "stages", "evidence"
};
static const char *const akind[AR_N] = {
	"pass", "layer", "check", "layer_type", "role", "layer_seq", "stream",
	"stream_overlap", "metric", "model"
};

struct arch {
	int		 col[A_N];
	int		 init;
	struct adev    **devs;
	size_t		 ndevs, capdevs;
	struct devtab	 byname;	/* items: a struct adev pointer */
};

struct arch *
arch_open(void)
{
	struct arch *a = xcalloc(1, sizeof(struct arch));

	devtab_init(&a->byname, sizeof(struct adev *));
	return a;
}

void
arch_close(struct arch *a)
{
	size_t i, j, k;

	if (a == NULL)
		return;
	for (i = 0; i < a->ndevs; i++) {
		for (k = 0; k < AR_N; k++) {
			for (j = 0; j < a->devs[i]->r[k].n; j++)
				free(a->devs[i]->r[k].v[j].block);
			free(a->devs[i]->r[k].v);
		}
		free(a->devs[i]->id);
		free(a->devs[i]);
	}
	free(a->devs);
	devtab_free(&a->byname);
	free(a);
}

/* The rank ID, made on first sight; found by hash, as model_read's. */
static struct adev *
adev_of(struct arch *a, const char *id)
{
	int isnew;
	struct adev **slot = devtab_get(&a->byname, id, strlen(id), &isnew);

	if (!isnew)
		return *slot;
	if (a->ndevs == a->capdevs) {
		a->capdevs = a->capdevs ? 2 * a->capdevs : 16;
		a->devs = xreallocarray(a->devs, a->capdevs, sizeof(*a->devs));
	}
	*slot = a->devs[a->ndevs++] = xcalloc(1, sizeof(struct adev));
	(*slot)->id = xstrdup(id);
	return *slot;
}

static void
keep(struct arch *a, const struct tsvr *in, struct arows *rs)
{
	struct arow *r;
	const char *s;
	char *p;
	size_t i, n, len;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 16;
		rs->v = xreallocarray(rs->v, rs->cap, sizeof(*rs->v));
	}
	r = &rs->v[rs->n++];
	/* One block per row: a layer costs about 300 bytes, not 27 mallocs. */
	for (i = 0, len = 0; i < A_N; i++)
		if (a->col[i] >= 0) {
			(void)tsvr_field(in, (size_t)a->col[i], &n);
			len += n + 1;
		}
	r->block = p = xmalloc(len + 1);
	*p++ = '\0';
	for (i = 0; i < A_N; i++) {
		r->f[i] = p - 1;	/* an absent column is "" */
		if (a->col[i] < 0)
			continue;
		s = tsvr_field(in, (size_t)a->col[i], &n);
		if (n == 0)
			continue;
		memcpy(p, s, n);
		p[n] = '\0';
		r->f[i] = p;
		p += n + 1;
	}
}

/*
 * The hook run on every record: prof-layers' records are kept (per-dev
 * metrics only when they carry no step: the per-step ones belong to
 * other stages), kernels give the extent of the capture.
 */
void
arch_record(const struct tsvr *in, void *arg)
{
	struct arch *a = arg;
	const char *kind;
	struct adev *d;
	size_t i, n;
	int absent;

	if (!a->init) {
		for (i = 0; i < A_N; i++)
			a->col[i] = tsvr_col(in, acol[i]);
		a->init = 1;
	}
	kind = tsvr_field(in, 0, &n);
	d = adev_of(a, tsvr_field(in, 3, &n));
	if (strcmp(kind, "kernel") == 0) {
		int64_t ts = tsvr_i64(in, 1, &absent), dur;
		if (absent)
			return;
		dur = tsvr_i64(in, 2, &absent);
		if (d->nk == 0 || ts < d->kfirst)
			d->kfirst = ts;
		if (d->nk == 0 || ts + (absent ? 0 : dur) > d->kend)
			d->kend = ts + (absent ? 0 : dur);
		d->nk++;
		return;
	}
	for (i = 0; i < AR_N; i++)
		if (strcmp(kind, akind[i]) == 0)
			break;
	if (i == AR_N)
		return;
	if (i == AR_METRIC) {
		int c = tsvr_col(in, "step");
		if (c >= 0 && (tsvr_field(in, (size_t)c, &n), n > 0))
			return;
	}
	keep(a, in, &d->r[i]);
}

/* Small helpers shared by the render-arch*.c files. */

const char *
arch_metric(const struct adev *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->r[AR_METRIC].n; i++)
		if (strcmp(d->r[AR_METRIC].v[i].f[A_NAME], name) == 0)
			return d->r[AR_METRIC].v[i].f[A_VALUE];
	return NULL;
}

/* The model record of D (how prof-layers found its structure), or NULL. */
const struct arow *
arch_model(const struct adev *d)
{
	return d->r[AR_MODEL].n > 0 ? &d->r[AR_MODEL].v[0] : NULL;
}

/* Whether D's structure was found the way FAMILY says (cnn, ...). */
int
arch_is(const struct adev *d, const char *family)
{
	const struct arow *m = arch_model(d);

	return m != NULL && strcmp(m->f[A_NAME], family) == 0;
}

/*
 * A task_mix column ("0.538013 AI_CORE;0.454321 AI_VECTOR_CORE") as
 * "AI_CORE 53.8%, AI_VECTOR_CORE 45.4%".
 */
void
arch_mix(FILE *f, const char *mix)
{
	const char *p = mix, *e, *sp;
	char r[64];

	if (*mix == '\0') {
		fputs("-", f);
		return;
	}
	while (*p != '\0') {
		e = p + strcspn(p, ";");
		sp = memchr(p, ' ', (size_t)(e - p));
		if (sp != NULL && (size_t)(sp - p) < sizeof(r)) {
			memcpy(r, p, (size_t)(sp - p));
			r[sp - p] = '\0';
			fprintf(f, "%s%.*s ", p > mix ? ", " : "",
			    (int)(e - sp - 1), sp + 1);
			arch_pct(f, r);
			fputs("%", f);
		}
		p = *e ? e + 1 : e;
	}
}

/* A ratio (0.176557) as a percentage with one decimal (17.7). */
void
arch_pct(FILE *f, const char *ratio)
{
	char b[160];

	if (ratio == NULL || *ratio == '\0') {
		fputs("-", f);
		return;
	}
	dec_scale(ratio, -2, b, sizeof(b));
	put_dec(f, b, 0, 1);
}

/* NS as seconds with six decimals. */
void
arch_seconds(FILE *f, int64_t ns)
{
	char b[64];

	snprintf(b, sizeof(b), "%" PRId64, ns);
	put_dec(f, b, 9, 6);
}

/* The per-device metric NAME, or DFLT when absent or empty. */
const char *
arch_metric_or(const struct adev *d, const char *name, const char *dflt)
{
	const char *v = arch_metric(d, name);

	return v != NULL && *v != '\0' ? v : dflt;
}

/* Hints in the profile directory's name (parallelism, lengths, ...). */
struct hints {
	char	 par[128];	/* "PP 2 × DP 2" */
	char	 ep[32];
	char	 bs[32];
	char	 len[64];	/* "100k / 1k" */
	char	 world[32];
	char	 mode[32];
	char	 model[96];
	int	 nlen;
};

/* Append SEP (when DST is not empty) and S to DST, cut to CAP. */
static void
cat(char *dst, size_t cap, const char *sep, const char *s)
{
	size_t n = strlen(dst);

	snprintf(dst + n, cap - n, "%s%s", n ? sep : "", s);
}

/* "pp2dp2", "tp8", "ep": parallelism of one token, 0 when not one. */
static int
par_token(struct hints *h, const char *t)
{
	static const char *const dims[] = { "etp", "dp", "tp", "pp", "ep",
	    "cp", "sp" };
	char buf[128] = "", one[32];
	const char *p = t;
	size_t i, n;

	if (strcmp(t, "ep") == 0) {
		snprintf(h->ep, sizeof(h->ep), "on");
		return 1;
	}
	while (*p != '\0') {
		for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++)
			if (strncmp(p, dims[i], strlen(dims[i])) == 0 &&
			    isdigit((unsigned char)p[strlen(dims[i])]))
				break;
		if (i == sizeof(dims) / sizeof(dims[0]))
			return 0;
		p += strlen(dims[i]);
		n = strspn(p, "0123456789");
		snprintf(one, sizeof(one), "%c%c%s %.*s",
		    toupper((unsigned char)dims[i][0]),
		    toupper((unsigned char)dims[i][1]), dims[i][2] ? "P" : "",
		    (int)n, p);
		if (strcmp(dims[i], "ep") == 0)
			snprintf(h->ep, sizeof(h->ep), "%.*s", (int)n, p);
		cat(buf, sizeof(buf), " × ", one);
		p += n;
	}
	cat(h->par, sizeof(h->par), " × ", buf);
	return 1;
}

/* digits, then SUFFIX exactly (case already folded). */
static int
num_suffix(const char *t, const char *sfx, int dot)
{
	size_t n = strspn(t, dot ? "0123456789." : "0123456789");

	return n > 0 && isdigit((unsigned char)t[0]) &&
	    strcmp(t + n, sfx) == 0;
}

static void
hint_token(struct hints *h, const char *orig)
{
	static const char *const fam[] = { "qwen", "llama", "deepseek",
	    "mixtral", "mistral", "gpt", "glm", "gemma", "baichuan", "bert",
	    "alexnet", "resnet", "vit", "t5", "bloom", "opt", "phi" };
	char t[64];
	size_t i, n = strlen(orig);

	if (n == 0 || n >= sizeof(t))
		return;
	for (i = 0; i <= n; i++)
		t[i] = (char)tolower((unsigned char)orig[i]);
	if (par_token(h, t))
		return;
	if (strncmp(t, "bs", 2) == 0 && num_suffix(t + 2, "", 0))
		snprintf(h->bs, sizeof(h->bs), "%.20s", t + 2);
	else if (num_suffix(t, "k", 0) && h->nlen++ < 2)
		cat(h->len, sizeof(h->len), " / ", orig);
	else if (num_suffix(t, "rank", 0) || num_suffix(t, "ranks", 0) ||
	    num_suffix(t, "card", 0) || num_suffix(t, "cards", 0) ||
	    num_suffix(t, "npu", 0) || num_suffix(t, "gpu", 0))
		snprintf(h->world, sizeof(h->world), "%.*s devices",
		    (int)strspn(t, "0123456789"), t);
	else if (strcmp(t, "infer") == 0 || strcmp(t, "inference") == 0 ||
	    strcmp(t, "serving") == 0 || strcmp(t, "prefill") == 0 ||
	    strcmp(t, "decode") == 0 || strcmp(t, "prefilldecode") == 0)
		cat(h->mode, sizeof(h->mode), ", ", strcmp(t, "infer") == 0 ?
		    "inference" : t);
	else if (strcmp(t, "train") == 0 || strcmp(t, "training") == 0 ||
	    strcmp(t, "pretrain") == 0 || strcmp(t, "sft") == 0)
		cat(h->mode, sizeof(h->mode), ", ", strcmp(t, "train") == 0 ?
		    "training" : t);
	else if (num_suffix(t, "b", 1)) {
		char s[80];
		snprintf(s, sizeof(s), "%s parameters", orig);
		cat(h->model, sizeof(h->model), ", ", s);
	} else
		for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
			if (strncmp(t, fam[i], strlen(fam[i])) == 0 &&
			    (t[strlen(fam[i])] == '\0' ||
			    !isalpha((unsigned char)t[strlen(fam[i])]))) {
				cat(h->model, sizeof(h->model), ", ", orig);
				break;
			}
}

static void
hints_parse(struct hints *h, const char *name)
{
	char *s = xstrdup(name), *p, *tok;

	memset(h, 0, sizeof(*h));
	for (p = s; (tok = strsep(&p, "_-")) != NULL; )
		hint_token(h, tok);
	free(s);
}

/*
 * The profile directory of the first #source path: the component above
 * the first one a profiler names (*_ascend_pt, *_ascend_ms,
 * ASCEND_PROFILER_OUTPUT, mindstudio_profiler_output, PROF_*), else the
 * file's own name.  NULL without a source line.
 */
char *
arch_profile_dir(const struct rmodel *m)
{
	const char *p, *c, *prev = NULL, *e = "";
	size_t n, k;
	int sp = 0;

	if (m->nsources == 0)
		return NULL;
	for (p = m->sources[0]; *p != '\0' && sp < 3; p++)
		if (*p == ' ')
			sp++;
	for (c = p; *c != '\0'; c = *e ? e + 1 : e) {
		e = c + strcspn(c, "/");
		n = (size_t)(e - c);
		if ((n > 10 && (strncmp(e - 10, "_ascend_pt", 10) == 0 ||
		    strncmp(e - 10, "_ascend_ms", 10) == 0)) ||
		    (n == 22 && strncmp(c, "ASCEND_PROFILER_OUTPUT", n) == 0) ||
		    (n == 26 && strncmp(c, "mindstudio_profiler_output", n) ==
		    0) || strncmp(c, "PROF_", 5) == 0)
			break;
		if (*e == '\0')
			break;
		if (n > 0)
			prev = c;
	}
	if (*c != '\0' && *e != '\0' && prev != NULL) {
		/* prev ends at the next '/'. */
		k = strcspn(prev, "/");
		return xstrndup(prev, k);
	}
	/* A file: its name without the suffixes prof-render drops. */
	{
		static const char *const sfx[] = { ".gz", ".zst", ".bz2",
		    ".xz", ".json", ".trace", ".pt", ".csv", ".tar", ".zip",
		    ".tsv", ".db", ".pb", ".xplane" };
		char *s = xstrdup(c);
		size_t i;
		int again = 1;

		while (again) {
			again = 0;
			for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
				n = strlen(s);
				k = strlen(sfx[i]);
				if (n > k + 1 && strcmp(s + n - k,
				    sfx[i]) == 0) {
					s[n - k] = '\0';
					again = 1;
				}
			}
		}
		return s;
	}
}

/* The hints of DIR on one line, for the summary box. */
void
arch_hint_line(const char *dir, char *buf, size_t cap)
{
	struct hints h;

	hints_parse(&h, dir);
	*buf = '\0';
	if (*h.par)
		cat(buf, cap, ", ", h.par);
	if (*h.ep) {
		cat(buf, cap, ", ", "EP ");
		cat(buf, cap, "", h.ep);
	}
	if (*h.len) {
		cat(buf, cap, ", ", "lengths ");
		cat(buf, cap, "", h.len);
	}
	if (*h.bs) {
		cat(buf, cap, ", ", "batch ");
		cat(buf, cap, "", h.bs);
	}
	if (*h.world)
		cat(buf, cap, ", ", h.world);
	if (*h.mode)
		cat(buf, cap, ", ", h.mode);
	if (*h.model)
		cat(buf, cap, ", ", h.model);
	if (*buf == '\0')
		snprintf(buf, cap, "none in `%s`", dir);
}

static void
row(struct rctx *rc, const char *item, const char *value, const char *src)
{
	fprintf(rc->out, "| %s | %s | %s |\n", item, value, src);
}

static void
hint_row(struct rctx *rc, const char *item, const char *v, const char *dir,
    const char *none)
{
	char src[320];

	if (*v == '\0') {
		row(rc, item, "not in the directory name", none);
		return;
	}
	snprintf(src, sizeof(src), "parsed from the directory name `%s`", dir);
	row(rc, item, v, src);
}

static size_t
count_phase(const struct adev *d, const char *phase)
{
	size_t i, n = 0;

	for (i = 0; i < d->r[AR_PASS].n; i++)
		if (strcmp(d->r[AR_PASS].v[i].f[A_PHASE], phase) == 0)
			n++;
	return n;
}

static int
has_type(const struct adev *d, const char *prefix)
{
	size_t i;

	for (i = 0; i < d->r[AR_LTYPE].n; i++)
		if (strncmp(d->r[AR_LTYPE].v[i].f[A_NAME], prefix,
		    strlen(prefix)) == 0)
			return 1;
	return 0;
}

static void
model_type(struct rctx *rc, const struct adev *d)
{
	const char *kind = count_phase(d, "backward") ? "training (forward "
	    "and backward passes)" : count_phase(d, "prefill") ||
	    count_phase(d, "decode") ? "inference (prefill and decode)" :
	    "forward passes only (inference, or evaluation: the trace does "
	    "not say which)";

	fprintf(rc->out,
	    "| Model type | %s; %s | `pass` and `layer_type` records "
	    "(prof-layers) |\n", kind, arch_is(d, "cnn") ? "**convolutional "
	    "network** (convolution layers, no attention)" :
	    arch_is(d, "repeating") ? "repeating blocks found without a "
	    "marker" : has_type(d, "MoE") ? "**MoE** layers "
	    "(routing and expert kernels)" : "Dense layers only (no MoE "
	    "routing or expert kernel)");
}

/* How the structure was found: the model record. */
static void
structure_row(struct rctx *rc, const struct adev *d)
{
	const struct arow *m = arch_model(d);

	if (m == NULL)
		return;
	fprintf(rc->out, "| Structure | %s, confidence %s: %s | `model` "
	    "record (prof-layers) |\n", m->f[A_NAME], *m->f[A_VALUE] ?
	    m->f[A_VALUE] : "-", m->f[A_EVIDENCE]);
}

/* Passes per step, when the step column placed them (macro steps). */
static void
macro_row(struct rctx *rc, const struct adev *d)
{
	const char *f = arch_metric(d, "forward_passes_per_step_max");
	const char *b = arch_metric(d, "backward_passes_per_step_max");
	const char *n = arch_metric(d, "macro_step_count");

	if (f == NULL || b == NULL)
		return;
	fprintf(rc->out, "| Passes per step | up to %s forward and %s "
	    "backward; %s step(s) hold several forward passes%s | "
	    "`forward_passes_per_step_max`, `backward_passes_per_step_max`, "
	    "`macro_step_count` |\n", f, b, n != NULL ? n : "-",
	    n != NULL && strcmp(n, "0") != 0 ? " (micro-batches, or prefill "
	    "and decode in one step: **macro steps**)" : "");
}

/* The rows of the directory name's hints, said to be parsed. */
static void
hint_rows(struct rctx *rc, const struct hints *h, const char *dir)
{
	const char *src = "no record carries it (prof-ingest reads no "
	    "parallelism metadata)";

	hint_row(rc, "Parallelism", h->par, dir, src);
	hint_row(rc, "Expert parallelism (EP)", h->ep, dir, src);
	hint_row(rc, "Prefill / decode lengths", h->len, dir, "not recorded in "
	    "the trace");
	hint_row(rc, "Batch size", h->bs, dir, "not recorded in the trace");
	hint_row(rc, "Devices", h->world, dir, "see the ranks below");
	hint_row(rc, "Mode", h->mode, dir, "see model type below");
	hint_row(rc, "Model", h->model, dir, "not recorded in the trace");
}

/* What prof-layers found, in the configuration table. */
static void
layer_rows(struct rctx *rc, const struct adev *d)
{
	model_type(rc, d);
	fprintf(rc->out, "| Layers | ~%s per pass (median %s) | "
	    "`layers_per_pass_max`, `layers_per_pass_median` |\n",
	    arch_metric_or(d, "layers_per_pass_max", "-"),
	    arch_metric_or(d, "layers_per_pass_median", "-"));
	fprintf(rc->out,
	    "| Passes | %s: %s forward, %s backward, %s prefill, %s "
	    "decode | `pass_count` and per-phase counts |\n",
	    arch_metric_or(d, "pass_count", "-"),
	    arch_metric_or(d, "forward_pass_count", "-"),
	    arch_metric_or(d, "backward_pass_count", "-"),
	    arch_metric_or(d, "prefill_pass_count", "-"),
	    arch_metric_or(d, "decode_pass_count", "-"));
	macro_row(rc, d);
	if (arch_is(d, "cnn"))
		fprintf(rc->out, "| Layer markers | %s (a convolution or GEMM "
		    "run each) | `marker_count` |\n",
		    arch_metric_or(d, "marker_count", "-"));
	else
		fprintf(rc->out, "| Attention markers | %s (prefill %s, decode "
		    "%s) | `marker_count`, `prefill_layer_count`, "
		    "`decode_layer_count` |\n",
		    arch_metric_or(d, "marker_count", "-"),
		    arch_metric_or(d, "prefill_layer_count", "-"),
		    arch_metric_or(d, "decode_layer_count", "-"));
}

/* The profile and what the capture says of its configuration. */
static void
arch_configuration(struct rctx *rc, const struct rdev *rd, const struct adev *d,
    const char *dir)
{
	const struct rmodel *m = rc->m;
	struct hints h;
	char v[128];

	fputs("### 1. Configuration Context\n\n", rc->out);
	hints_parse(&h, dir);
	fputs("| Item | Value | Source |\n|---|---|---|\n", rc->out);
	fprintf(rc->out, "| Profile | `%s` | ", dir);
	fputs(m->nsources ? "`#source` paths (prof-ingest)" :
	    "no `#source` line: the stream's name", rc->out);
	fputs(" |\n", rc->out);
	hint_rows(rc, &h, dir);
	fprintf(rc->out, "| Ranks in the stream | %zu | `dev` column |\n",
	    m->ndevs - (m->ndevs > 0 && *m->devs[0]->id == '\0'));
	if (rd->nsteps > 0)
		fprintf(rc->out,
		    "| Profiling scope | %zu step window(s) | `window` "
		    "records (prof-steps) |\n", rd->nsteps);
	else
		fputs("| Profiling scope | single pseudo-step: no step windows "
		    "| prof-steps did not run or found no step |\n", rc->out);
	if (d->nk > 0) {
		fputs("| Capture | kernels from ", rc->out);
		arch_seconds(rc->out, d->kfirst);
		fputs(" s to ", rc->out);
		arch_seconds(rc->out, d->kend);
		fputs(" s from the stream origin: span ", rc->out);
		put_ms(rc->out, d->kend - d->kfirst, 3);
		fputs(" ms | `kernel` records |\n", rc->out);
	}
	snprintf(v, sizeof(v), "%s", arch_metric_or(d, "kernel_count", ""));
	if (*v == '\0')
		snprintf(v, sizeof(v), "%" PRIu64, d->nk);
	row(rc, "Kernels", v, arch_metric(d, "kernel_count") ? "`kernel_count` "
	    "(prof-layers)" : "`kernel` records");
	row(rc, "Streams", arch_metric_or(d, "stream_count", "-"),
	    "`stream_count` "
	    "(prof-layers)");
	structure_row(rc, d);
	if (d->r[AR_PASS].n > 0)
		layer_rows(rc, d);
	if (*h.par != '\0' && strstr(h.par, "PP") != NULL)
		fputs("\nThe name says pipeline parallelism: this rank runs one "
		    "pipeline stage, so its passes hold that stage's share of "
		    "the model's layers.\n", rc->out);
}

/*
 * The sections after the configuration, numbered from 2 in this order:
 * its title, its writer, whether a blank line follows it, whether it is
 * written for a rank where prof-layers found no layer, and what to say
 * when prof-layers did not run (NULL: the records of prof-layers).
 */
static const struct {
	const char	*title;
	void		(*write)(struct rctx *, const struct adev *);
	int		 blank, nolayers;
	const char	*nostage;
} sections[] = {
	{ "Model Architecture Determination", arch_evidence, 1, 0,
	    "Missing: the `pass`, `layer`, `check`, `layer_type`, `role`, "
	    "`layer_seq`, `stream` and `stream_overlap` records and the "
	    "per-device metrics of prof-layers, which did not run: put "
	    "`prof-layers` in the pipeline before `prof-render`." },
	{ "Forward Pass Boundaries", arch_passes, 1, 0, NULL },
	{ "Layer Classification", arch_layer_types, 1, 0, NULL },
	{ "Cross-Verification Table", arch_crosscheck, 1, 0, NULL },
	{ "Per-Layer Sub-Structure", arch_substructure, 0, 0, NULL },
	{ "Decode Phase Analysis", arch_decode, 0, 0, NULL },
	{ "Communication Pipeline Structure", arch_comm, 0, 1,
	    "Missing: the `stream` and `stream_overlap` records and the "
	    "`comm_*` metrics of prof-layers (section 2)." },
	{ "Layer-to-Layer Variation", arch_variation, 0, 0, NULL },
	{ "Model Architecture Summary", arch_summary, 0, 1, NULL },
};
#define NSECTIONS	(sizeof(sections) / sizeof(sections[0]))

static void
missing(struct rctx *rc, size_t i, const char *why)
{
	fprintf(rc->out, "### %zu. %s\n\n%s\n\n", i + 2, sections[i].title,
	    why);
}

/* Why prof-layers found no layer on the rank, in WHY. */
static void
why_nolayers(const struct adev *d, char *why, size_t cap)
{
	const char *c = arch_metric(d, "layer_detect_confidence_ratio");

	snprintf(why, cap, "Missing: **no repeating structure found** on "
	    "this rank: no attention marker kernel, no convolution units, and "
	    "%s%s%s. Name the model's attention kernel with `prof-layers -m "
	    "PATTERN`, give the period with `-p`, or lower the detection "
	    "threshold with `-c`; a capture without a whole layer has none.",
	    c ? "the repeating-sequence detection stayed below its "
	    "confidence threshold (best confidence " : "no kernel to detect "
	    "a sequence in", c ? c : "", c ? ")" : "");
}

/* The sections of one rank. */
static void
rank(struct rctx *rc, const struct rdev *rd, const struct adev *d,
    const char *dir)
{
	char why[512];
	size_t i;

	fprintf(rc->out, "## Rank %s\n\n", rd->id);
	arch_configuration(rc, rd, d, dir);
	fputs("\n", rc->out);
	if (!model_stage_ran(rc->m, "prof-layers")) {
		for (i = 0; i < NSECTIONS; i++)
			missing(rc, i, sections[i].nostage != NULL ?
			    sections[i].nostage : "Missing: the records of "
			    "prof-layers (section 2).");
		return;
	}
	if (d->r[AR_PASS].n == 0) {
		why_nolayers(d, why, sizeof(why));
		for (i = 0; i < NSECTIONS; i++) {
			if (sections[i].nolayers)
				sections[i].write(rc, d);
			else
				missing(rc, i, i == 0 ? why : "Missing: no "
				    "layers on this rank (section 2 says why).");
		}
		return;
	}
	for (i = 0; i < NSECTIONS; i++) {
		sections[i].write(rc, d);
		if (sections[i].blank)
			fputs("\n", rc->out);
	}
}

/* What bounds each rank, first, as in every report. */
static void
verdicts(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	char *v;
	size_t i;

	if (!m->verdict_ran) {
		fputs("\nVerdict: none, prof-verdict did not run (add it to "
		    "the pipeline, last before prof-render, to learn what "
		    "bounds each rank).\n", rc->out);
		return;
	}
	fputs("\nVerdict (prof-verdict), what bounds each rank:\n\n",
	    rc->out);
	for (i = 0; i < m->ndevs; i++) {
		if (*m->devs[i]->id == '\0')
			continue;
		v = verdict_line(m->devs[i]);
		fprintf(rc->out, "- Rank %s: %s.\n", m->devs[i]->id, v);
		free(v);
	}
}

static struct adev *
find(struct arch *a, const char *id)
{
	struct adev **slot;

	if (a == NULL)
		return NULL;
	slot = devtab_find(&a->byname, id, strlen(id));
	return slot != NULL ? *slot : NULL;
}

/*
 * One section set per rank that has kernels or prof-layers records, in
 * rank order; the ranks with neither (communication only, host only)
 * are named at the top.
 */
void
render_arch(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	struct arch *a = rc->arch;
	char *dir = arch_profile_dir(m);
	size_t i, nskip = 0, nshown = 0;

	if (dir == NULL)
		dir = xstrdup(m->name);
	fprintf(rc->out, "# Model architecture report: %s\n\n", m->name);
	fputs("Reverse-engineered from the trace alone by prof-layers; every "
	    "number is a record of the stream (ms and s from the stream "
	    "origin", rc->out);
	if (m->origin != NULL)
		fprintf(rc->out, ", %s ns since the epoch", m->origin);
	fputs(").  Stages: ", rc->out);
	for (i = 0; i < m->nstages; i++)
		fprintf(rc->out, "%s`%.*s`", i ? ", " : "",
		    (int)strcspn(m->stages[i], " "), m->stages[i]);
	fputs(m->nstages ? ".\n" : "none recorded.\n", rc->out);
	verdicts(rc);
	for (i = 0; i < m->ndevs; i++) {
		struct adev *d = find(a, m->devs[i]->id);
		if (*m->devs[i]->id == '\0')
			continue;	/* records of no device (peaks) */
		if (d == NULL || (d->nk == 0 && d->r[AR_PASS].n == 0 &&
		    d->r[AR_STREAM].n == 0)) {
			fprintf(rc->out, "%s%s",
			    nskip++ ? ", " : "\nNo kernels and "
			    "no prof-layers records on rank(s) ",
			    m->devs[i]->id);
			continue;
		}
	}
	if (nskip)
		fputs(" (communication or host records only): no sections for "
		    "them.\n", rc->out);
	for (i = 0; i < m->ndevs; i++) {
		struct adev *d = find(a, m->devs[i]->id);
		if (d == NULL || (d->nk == 0 && d->r[AR_PASS].n == 0 &&
		    d->r[AR_STREAM].n == 0))
			continue;
		fputs("\n", rc->out);
		rank(rc, m->devs[i], d, dir);
		nshown++;
	}
	if (nshown == 0) {
		fprintf(rc->out, "\n## No rank\n\nMissing: the stream has no "
		    "kernel record and no prof-layers record, so there is "
		    "nothing to reverse-engineer.  Ingest a profile with "
		    "device kernels (prof-ingest), then run prof-layers.\n");
	}
	free(dir);
}
