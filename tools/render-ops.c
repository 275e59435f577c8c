/*
 * prof-render: the "Ops" section.  Where the device time goes by what
 * the program ran (prof-ops' opgroup, opaudit and metric records: the
 * top groups with their shares, the tail that adds up the rest, the
 * non-compute audit), and, for the Ascend op simulator, the in-core
 * view of each core (prof-ingest's pipe_cycles and core_cycles metrics
 * from *_instr_exe.csv: busy cycles per pipe and their share, the
 * bounding pipe, the degenerate-trace flag, with prof-roofline's word
 * on the trace).  The records are kept while the stream is read
 * (opsv_record, a render_hook), as text, per rank; the Markdown report,
 * the terminal summary and the JSON object format the same rows.
 *
 * The only arithmetic here is a pipe's share of its core's cycles,
 * exact (num_ratio_i128): prof-ops -k cycles writes the same share only
 * when it runs with that key, and the in-core view must not depend on
 * it.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "devtab.h"
#include "dtime.h"
#include "num.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

/* The columns kept, by name. */
enum {
	V_DEV, V_NAME, V_KEY, V_RANK, V_CALLS, V_TOTAL, V_AVG, V_MEDIAN,
	V_STD, V_MIN, V_MAX, V_SHARE, V_WSHARE, V_FLOPS, V_BYTES, V_CAT,
	V_OPCAT, V_NC, V_PMU, V_GROUPS, V_TOP, V_TAGS, V_VALUE, V_TRACK,
	V_CORE, V_TYPE, V_SCOPE, V_BUSY, V_TOPCH, V_N
};
static const char *const vcol[V_N] = {
	"dev", "name", "key", "rank", "calls", "dur_total_ns", "dur_avg_ns",
	"dur_median_ns", "dur_std_ns", "dur_min_ns", "dur_max_ns",
	"share_ratio", "wall_share_ratio", "flops", "bytes", "category",
	"op_cat", "nc_class", "pmu_avg", "groups", "top_groups", "tags",
	"value", "track", "core", "type", "scope", "busy_ns", "top_changes"
};

/* What a row is. */
enum { R_GROUP, R_TAIL, R_AUDIT, R_PIPE, R_PINSTR, R_CORE, R_ROOF, R_N };

struct vrow {
	int	 what;
	char	*f[V_N];
};

/* One rank's rows, in stream order, and its prof-ops metrics. */
struct vdev {
	char		*id;
	struct vrow	*r;
	size_t		 n;
	char		*total, *wall, *wall_from, *ngroups, *nc, *nc_ratio;
	char		*loop, *nloop;	/* XLA while containers */
};

struct opsview {
	int		 col[V_N];
	int		 init;
	struct devtab	 byid;		/* id -> index + 1 in v */
	struct vdev	*v;
	size_t		 nv;
	int		 sorted;
};

struct opsview *
opsv_open(void)
{
	struct opsview *o = xcalloc(1, sizeof(*o));

	devtab_init(&o->byid, sizeof(size_t));
	return o;
}

void
opsv_close(struct opsview *o)
{
	size_t i, j, c;

	if (o == NULL)
		return;
	for (i = 0; i < o->nv; i++) {
		for (j = 0; j < o->v[i].n; j++)
			for (c = 0; c < V_N; c++)
				free(o->v[i].r[j].f[c]);
		free(o->v[i].r);
		free(o->v[i].id);
		free(o->v[i].total);
		free(o->v[i].wall);
		free(o->v[i].wall_from);
		free(o->v[i].ngroups);
		free(o->v[i].nc);
		free(o->v[i].nc_ratio);
		free(o->v[i].loop);
		free(o->v[i].nloop);
	}
	free(o->v);
	devtab_free(&o->byid);
	free(o);
}

static const char *
col(const struct tsvr *in, const struct opsview *o, int c)
{
	size_t n;

	return o->col[c] < 0 ? "" : tsvr_field(in, (size_t)o->col[c], &n);
}

static struct vdev *
vdev_of(struct opsview *o, const char *id)
{
	int isnew;
	size_t *ix = devtab_get(&o->byid, id, strlen(id), &isnew);

	if (isnew) {
		o->v = xreallocarray(o->v, o->nv + 1, sizeof(*o->v));
		memset(&o->v[o->nv], 0, sizeof(*o->v));
		o->v[o->nv].id = xstrdup(id);
		*ix = ++o->nv;
	}
	return &o->v[*ix - 1];
}

/* What the record is to the section, or -1. */
static int
row_kind(const struct tsvr *in, const struct opsview *o, const char *kind)
{
	const char *name = col(in, o, V_NAME);

	if (strcmp(kind, "opgroup") == 0)
		return tag_has(col(in, o, V_TAGS), "tail") ? R_TAIL : R_GROUP;
	if (strcmp(kind, "opaudit") == 0)
		return R_AUDIT;
	if (strcmp(kind, "roof") == 0)
		return strcmp(col(in, o, V_SCOPE), "core") == 0 ? R_ROOF : -1;
	if (strcmp(kind, "metric") != 0)
		return -1;
	if (strcmp(name, "pipe_cycles") == 0)
		return R_PIPE;
	if (strcmp(name, "pipe_instr_count") == 0)
		return R_PINSTR;
	if (strcmp(name, "core_cycles") == 0)
		return R_CORE;
	return R_N;		/* maybe one of prof-ops' metrics */
}

/* prof-ops' per-rank metrics: kept on the rank, not as rows. */
static void
ops_metric(struct vdev *d, const char *name, const char *v,
    const char *tags)
{
	char **p = NULL;

	if (strcmp(name, "ops_task_total_ns") == 0)
		p = &d->total;
	else if (strcmp(name, "ops_group_count") == 0)
		p = &d->ngroups;
	else if (strcmp(name, "noncompute_ns") == 0)
		p = &d->nc;
	else if (strcmp(name, "noncompute_ratio") == 0)
		p = &d->nc_ratio;
	else if (strcmp(name, "ops_while_ns") == 0)
		p = &d->loop;
	else if (strcmp(name, "ops_while_calls") == 0)
		p = &d->nloop;
	else if (strcmp(name, "ops_wall_ns") == 0) {
		free(d->wall_from);
		d->wall_from = xstrdup(tags);
		p = &d->wall;
	}
	if (p != NULL) {
		free(*p);
		*p = xstrdup(v);
	}
}

void
opsv_record(const struct tsvr *in, void *arg)
{
	struct opsview *o = arg;
	struct vdev *d;
	struct vrow *w;
	size_t n, c;
	int k;

	if (!o->init) {
		for (c = 0; c < V_N; c++)
			o->col[c] = tsvr_col(in, vcol[c]);
		o->init = 1;
	}
	if ((k = row_kind(in, o, tsvr_field(in, 0, &n))) < 0)
		return;
	d = vdev_of(o, col(in, o, V_DEV));
	if (k == R_N) {
		ops_metric(d, col(in, o, V_NAME), col(in, o, V_VALUE),
		    col(in, o, V_TAGS));
		return;
	}
	d->r = xreallocarray(d->r, d->n + 1, sizeof(*d->r));
	w = &d->r[d->n++];
	w->what = k;
	for (c = 0; c < V_N; c++)
		w->f[c] = xstrdup(col(in, o, c));
}

static int
cmp_vdev(const void *a, const void *b)
{
	return devtab_cmp(((const struct vdev *)a)->id,
	    ((const struct vdev *)b)->id);
}

/* The ranks in report order (the index is rebuilt: it points into v). */
static void
sort_devs(struct opsview *o)
{
	size_t i, *ix;
	int isnew;

	if (o->sorted)
		return;
	if (o->nv > 1)
		qsort(o->v, o->nv, sizeof(*o->v), cmp_vdev);
	for (i = 0; i < o->nv; i++) {
		ix = devtab_get(&o->byid, o->v[i].id, strlen(o->v[i].id),
		    &isnew);
		*ix = i + 1;
	}
	o->sorted = 1;
}

static size_t
count(const struct vdev *d, int what)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->r[i].what == what;
	return n;
}

/* Whether D has groups to show (not -k cycles, whose are the pipes). */
static int
has_groups(const struct vdev *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if ((d->r[i].what == R_GROUP || d->r[i].what == R_TAIL) &&
		    strcmp(d->r[i].f[V_KEY], "cycles") != 0)
			return 1;
	return 0;
}

int
opsv_any(const struct opsview *o)
{
	size_t i;

	for (i = 0; o != NULL && i < o->nv; i++)
		if (has_groups(&o->v[i]) || count(&o->v[i], R_PIPE) > 0)
			return 1;
	return 0;
}

/* The key prof-ops grouped by, from the first group row. */
static const char *
key_of(const struct opsview *o)
{
	size_t i, j;

	for (i = 0; i < o->nv; i++)
		for (j = 0; j < o->v[i].n; j++)
			if (o->v[i].r[j].what == R_GROUP &&
			    strcmp(o->v[i].r[j].f[V_KEY], "cycles") != 0)
				return o->v[i].r[j].f[V_KEY];
	return "name";
}

static const char *
key_words(const char *key)
{
	static const char *const w[][2] = {
		{ "name", "kernel name" }, { "type", "op type" },
		{ "sig", "op signature" }, { "scope", "scope" },
		{ "category", "category" }, { "pipe", "pipe" },
		{ "source", "source line" }
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (strcmp(key, w[i][0]) == 0)
			return w[i][1];
	return key;
}

/* A ratio as a percentage with one decimal, without the sign. */
static void
pct(FILE *f, const char *ratio)
{
	char b[160];

	if (*ratio == '\0' || !dec_valid(ratio)) {
		fputs("-", f);
		return;
	}
	dec_scale(ratio, -2, b, sizeof(b));
	put_dec(f, b, 0, 1);
}

/* ---- the in-core view ---- */

/* A core of the op simulator, with its pipes' rows. */
struct vcore {
	const char	*core;
	const struct vrow *pipes[32], *instr[32];
	size_t		 n;
	const struct vrow *total, *roof;
	size_t		 bound;		/* index of the bounding pipe */
	int		 degenerate;	/* 1 table, 2 trace, 3 both */
};

static int64_t
i64_of(const char *s)
{
	int64_t v = 0;

	if (dtime_parse(s, strlen(s), 0, &v) != DTIME_OK)
		return 0;
	return v;
}

/* The cores of D, in the order their pipes came; returns how many. */
static size_t
cores_of(const struct vdev *d, struct vcore *c, size_t max)
{
	size_t i, k, n = 0;
	const struct vrow *r;

	for (i = 0; i < d->n; i++) {
		r = &d->r[i];
		if (r->what != R_PIPE && r->what != R_PINSTR &&
		    r->what != R_CORE && r->what != R_ROOF)
			continue;
		for (k = 0; k < n; k++)
			if (strcmp(c[k].core, r->what == R_ROOF ?
			    r->f[V_NAME] : r->f[V_CORE]) == 0)
				break;
		if (k == n) {
			if (n == max || r->what == R_ROOF)
				continue;
			memset(&c[n], 0, sizeof(c[n]));
			c[n++].core = r->f[V_CORE];
		}
		if (r->what == R_PIPE && c[k].n < 32)
			c[k].pipes[c[k].n++] = r;
		else if (r->what == R_CORE)
			c[k].total = r;
		else if (r->what == R_ROOF)
			c[k].roof = r;
	}
	for (k = 0; k < n; k++) {
		for (i = 0; i < d->n; i++)
			for (size_t p = 0; p < c[k].n; p++)
				if (d->r[i].what == R_PINSTR &&
				    strcmp(d->r[i].f[V_CORE], c[k].core) == 0 &&
				    strcmp(d->r[i].f[V_TRACK],
				    c[k].pipes[p]->f[V_TRACK]) == 0)
					c[k].instr[p] = &d->r[i];
		/* the most cycles; the first in dataflow order on a tie */
		for (i = 1; i < c[k].n; i++)
			if (i64_of(c[k].pipes[i]->f[V_VALUE]) >
			    i64_of(c[k].pipes[c[k].bound]->f[V_VALUE]))
				c[k].bound = i;
		if (c[k].total != NULL &&
		    strcmp(c[k].total->f[V_TYPE], "degenerate_trace") == 0)
			c[k].degenerate |= 1;
		if (c[k].roof != NULL &&
		    tag_has(c[k].roof->f[V_TAGS], "degenerate"))
			c[k].degenerate |= 2;
	}
	return n;
}

/* The share of pipe P of its core's cycles, as a ratio (6 places). */
static void
pipe_share(const struct vcore *c, size_t p, char *buf)
{
	int64_t tot = c->total != NULL ? i64_of(c->total->f[V_VALUE]) : 0;

	if (tot <= 0) {
		strcpy(buf, "");
		return;
	}
	buf[num_ratio_i128(buf, i64_of(c->pipes[p]->f[V_VALUE]), tot, 6)] =
	    '\0';
}

/* Why a core is flagged, in words. */
static void
put_degenerate(FILE *f, const struct vcore *c)
{
	if (c->degenerate & 1)
		fputs("its instr_exe table is near empty (under 1000 cycles) "
		    "or a cube core ran no CUBE cycle", f);
	if (c->degenerate == 3)
		fputs("; ", f);
	if (c->degenerate & 2) {
		fputs("the simulated trace is near empty (prof-roofline: ", f);
		fputs(c->roof->f[V_TAGS], f);
		if (*c->roof->f[V_BUSY] != '\0') {
			fputs(", core busy ", f);
			fputs(c->roof->f[V_BUSY], f);
			fputs(" ns of ", f);
			fputs(c->roof->f[V_TOTAL], f);
			fputs(" ns", f);
		}
		fputc(')', f);
	}
}

/*
 * prof-verdict's bounding pipe is the busiest on the trace's timeline;
 * when it is another, say so: the table's cycles count every wait.
 */
static void
put_verdict_pipe(FILE *f, const struct rctx *rc, const struct vdev *d,
    const char *pipe)
{
	const struct rdev *m = model_dev(rc->m, d->id);

	if (m == NULL || m->verdict == NULL || *m->verdict->pipe == '\0' ||
	    strcasecmp(m->verdict->pipe, pipe) == 0)
		return;
	fprintf(f, "- The verdict names the %s pipe: the busiest on the "
	    "simulated trace's timeline, where this table counts every "
	    "cycle of the run, waits (SET_FLAG, WAIT_FLAG) included.\n",
	    m->verdict->pipe);
}

static void
md_incore(struct rctx *rc, const struct vdev *d)
{
	struct vcore c[16];
	size_t n = cores_of(d, c, 16), k, p;
	char share[NUM_BUFSIZE];
	FILE *f = rc->out;

	for (k = 0; k < n; k++) {
		fprintf(f, "### Rank %s: in-core view of `%s` (op simulator)"
		    "\n\n", d->id, c[k].core);
		if (c[k].degenerate)
			fputs("- **Degenerate trace**: ", f), put_degenerate(f,
			    &c[k]), fputs(".  Simulate the kernel on a "
			    "representative input before drawing conclusions."
			    "\n", f);
		if (c[k].n > 0) {
			pipe_share(&c[k], c[k].bound, share);
			fprintf(f, "- Bounding pipe: **%s**, ",
			    c[k].pipes[c[k].bound]->f[V_TRACK]);
			put_pct(f, share);
			fprintf(f, " of the core's %s busy cycles (the pipe "
			    "with the most, from its instr_exe table).\n",
			    c[k].total != NULL ? c[k].total->f[V_VALUE] : "-");
			put_verdict_pipe(f, rc, d,
			    c[k].pipes[c[k].bound]->f[V_TRACK]);
		}
		fputs("\n| pipe | busy cycles | share of the core (%) | "
		    "instructions |\n|---|---:|---:|---:|\n", f);
		for (p = 0; p < c[k].n; p++) {
			pipe_share(&c[k], p, share);
			fprintf(f, "| %s%s%s | %s | ", p == c[k].bound ? "**" :
			    "", c[k].pipes[p]->f[V_TRACK], p == c[k].bound ?
			    "**" : "", c[k].pipes[p]->f[V_VALUE]);
			pct(f, share);
			fprintf(f, " | %s |\n", c[k].instr[p] != NULL ?
			    c[k].instr[p]->f[V_VALUE] : "-");
		}
		fputs("\nPipes in dataflow order (MTE2, MTE1, CUBE, VECTOR, "
		    "FIXPIPE, MTE3, then the others); a pipe's cycles count "
		    "its waits too (SET_FLAG, WAIT_FLAG).\n\n", f);
	}
}

/* ---- the groups ---- */

static void
ms(FILE *f, const char *ns)
{
	put_dec(f, *ns ? ns : NULL, 6, 3);
}

static void
us(FILE *f, const char *ns)
{
	put_dec(f, *ns ? ns : NULL, 3, 3);
}

/* The top_groups column ("NS KEY;NS KEY") as "KEY (X ms), ...". */
static void
put_top(FILE *f, const char *s, void (*name)(FILE *, const char *))
{
	char *t = xstrdup(s), *p, *e, *sp;
	int first = 1;

	for (p = t; p != NULL && *p != '\0'; p = e) {
		if ((e = strchr(p, ';')) != NULL)
			*e++ = '\0';
		if ((sp = strchr(p, ' ')) == NULL)
			continue;
		*sp = '\0';
		fputs(first ? "" : ", ", f);
		first = 0;
		name(f, sp + 1);
		fputs(" (", f);
		ms(f, p);
		fputs(" ms)", f);
	}
	free(t);
}

static void
md_group_row(FILE *f, const struct vrow *r, int flops)
{
	fprintf(f, "| %s | ", r->f[V_RANK]);
	if (r->what == R_TAIL)
		fputs(r->f[V_NAME], f);
	else
		put_md_name(f, r->f[V_NAME]);
	fprintf(f, " | %s | ", r->f[V_CALLS]);
	ms(f, r->f[V_TOTAL]);
	fputs(" | ", f);
	pct(f, r->f[V_SHARE]);
	fputs(" | ", f);
	pct(f, r->f[V_WSHARE]);
	fputs(" | ", f);
	us(f, r->f[V_AVG]);
	fputs(" | ", f);
	us(f, r->f[V_MEDIAN]);
	fputs(" | ", f);
	us(f, r->f[V_STD]);
	fputs(" | ", f);
	us(f, r->f[V_MIN]);
	fputs(" | ", f);
	us(f, r->f[V_MAX]);
	if (flops)
		fprintf(f, " | %s | %s", *r->f[V_FLOPS] ? r->f[V_FLOPS] : "-",
		    *r->f[V_BYTES] ? r->f[V_BYTES] : "-");
	fprintf(f, " | %s", r->what == R_TAIL ? "" : r->f[V_CAT]);
	if (*r->f[V_OPCAT] != '\0' && r->what != R_TAIL)
		fprintf(f, " (%s)", r->f[V_OPCAT]);
	if (*r->f[V_NC] != '\0')
		fprintf(f, ", %s", r->f[V_NC]);
	fputs(" |\n", f);
}

static void
md_groups(struct rctx *rc, const struct vdev *d, const char *key)
{
	FILE *f = rc->out;
	size_t i, npmu = 0;
	int flops = 0, chg = 0;

	for (i = 0; i < d->n; i++)
		flops |= *d->r[i].f[V_FLOPS] != '\0' ||
		    *d->r[i].f[V_BYTES] != '\0';
	fprintf(f, "### Rank %s: device time by %s\n\n", d->id,
	    key_words(key));
	fputs("Task time ", f);
	ms(f, d->total != NULL ? d->total : "");
	fprintf(f, " ms in %s groups; wall time ", d->ngroups != NULL ?
	    d->ngroups : "-");
	ms(f, d->wall != NULL ? d->wall : "");
	fprintf(f, " ms (%s).  Non-compute work ", d->wall_from != NULL &&
	    strcmp(d->wall_from, "windows") == 0 ? "the step windows" :
	    "first task to last");
	ms(f, d->nc != NULL ? d->nc : "");
	fputs(" ms, ", f);
	put_pct(f, d->nc_ratio);
	fputs(" of the task time.", f);
	if (d->loop != NULL) {
		fputs("  XLA while loops ", f);
		ms(f, d->loop);
		fprintf(f, " ms (%s runs), apart: their ops are in the groups, "
		    "the containers are not.", d->nloop != NULL ? d->nloop :
		    "-");
	}
	fputs("\n\n", f);
	fprintf(f, "| # | %s | calls | total (ms) | share (%%) | of wall (%%) "
	    "| avg (us) | median (us) | std (us) | min (us) | max (us) |%s "
	    "category |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	    "---:|%s---|\n", key_words(key), flops ? " FLOPs | bytes |" : "",
	    flops ? "---:|---:|" : "");
	for (i = 0; i < d->n; i++)
		if (d->r[i].what == R_GROUP || d->r[i].what == R_TAIL)
			md_group_row(f, &d->r[i], flops);
	fputs("| | **all** | | ", f);
	ms(f, d->total != NULL ? d->total : "");
	fputs(" | 100.0 | | | | | | |", f);
	fputs(flops ? " | | |\n" : " |\n", f);
	for (i = 0; i < d->n; i++) {
		if (d->r[i].what != R_GROUP || *d->r[i].f[V_PMU] == '\0' ||
		    npmu == 3)
			continue;
		if (npmu++ == 0)
			fputs("\nPMU ratio averages (Ascend) of the top groups:"
			    "\n\n", f);
		fputs("- ", f);
		put_md_name(f, d->r[i].f[V_NAME]);
		fprintf(f, ": %s\n", d->r[i].f[V_PMU]);
	}
	if (count(d, R_AUDIT) == 0) {
		fputs("\nNon-compute audit: no copy, cast, transpose, pad, "
		    "layout change or fill on this rank.\n\n", f);
		return;
	}
	for (i = 0; i < d->n; i++)
		chg |= d->r[i].what == R_AUDIT && *d->r[i].f[V_TOPCH] != '\0';
	fprintf(f, "\nNon-compute audit (copies, casts, transposes, pads, "
	    "layout changes, fills):\n\n| class | calls | groups "
	    "| total (ms) | share (%%) | of wall (%%) | largest groups |%s\n"
	    "|---|---:|---:|---:|---:|---:|---|%s\n", chg ? " what changes "
	    "(HLO) |" : "", chg ? "---|" : "");
	for (i = 0; i < d->n; i++) {
		const struct vrow *r = &d->r[i];

		if (r->what != R_AUDIT)
			continue;
		fprintf(f, "| %s | %s | %s | ", r->f[V_NAME], r->f[V_CALLS],
		    r->f[V_GROUPS]);
		ms(f, r->f[V_TOTAL]);
		fputs(" | ", f);
		pct(f, r->f[V_SHARE]);
		fputs(" | ", f);
		pct(f, r->f[V_WSHARE]);
		fputs(" | ", f);
		put_top(f, r->f[V_TOP], put_md_name);
		if (chg) {
			fputs(" | ", f);
			put_top(f, r->f[V_TOPCH], put_md_name);
		}
		fputs(" |\n", f);
	}
	putc('\n', f);
}

/* The Markdown section; nothing when neither kind of record is there. */
void
md_ops(struct rctx *rc)
{
	struct opsview *o = rc->ops;
	const char *key;
	size_t i;

	if (!opsv_any(o))
		return;
	sort_devs(o);
	key = key_of(o);
	fputs("## Ops\n\n", rc->out);
	for (i = 0; i < o->nv && !has_groups(&o->v[i]); i++)
		;
	if (i < o->nv)
		fprintf(rc->out, "Where the device time goes by %s (prof-ops -k %s): "
	    "per rank the top groups by total time, then one row for all "
	    "the others, so that the rows add up to the rank's task time "
	    "(tasks on several streams each count their whole duration); "
	    "then the non-compute audit.  Shares are of the task time and "
	    "of the wall time.\n\n", key_words(key), key);
	for (i = 0; i < o->nv; i++) {
		if (has_groups(&o->v[i]))
			md_groups(rc, &o->v[i], key);
		md_incore(rc, &o->v[i]);
	}
}

/* ---- the terminal summary ---- */

static void
text_groups(struct rctx *rc, const struct vdev *d, const char *key,
    render_line *line)
{
	char *buf = NULL;
	size_t len = 0, i, k = 0;
	FILE *f = open_memstream(&buf, &len);

	fprintf(f, "ops by %s: rank %s: task time ", key_words(key), d->id);
	ms(f, d->total != NULL ? d->total : "");
	fputs("\001ms; top:", f);
	for (i = 0; i < d->n; i++) {
		const struct vrow *r = &d->r[i];

		if (r->what == R_TAIL) {
			fprintf(f, "%s %s ", k++ ? "," : "", r->f[V_NAME]);
			put_pct(f, r->f[V_SHARE]);
		} else if (r->what == R_GROUP && k < 5) {
			fprintf(f, "%s ", k++ ? "," : "");
			put_name(f, r->f[V_NAME]);
			putc(' ', f);
			put_pct(f, r->f[V_SHARE]);
		}
	}
	fputs("; non-compute ", f);
	put_pct(f, d->nc_ratio);
	for (i = 0, k = 0; i < d->n; i++)
		if (d->r[i].what == R_AUDIT) {
			fprintf(f, "%s %s ", k++ ? "," : ":", d->r[i].f[V_NAME]);
			put_pct(f, d->r[i].f[V_SHARE]);
		}
	if (d->loop != NULL) {
		fputs("; while loops apart ", f);
		ms(f, d->loop);
		fputs("\001ms", f);
	}
	fclose(f);
	line(rc, buf, 2);
	free(buf);
}

static void
text_incore(struct rctx *rc, const struct vdev *d, render_line *line)
{
	struct vcore c[16];
	size_t n = cores_of(d, c, 16), k, p;
	char share[NUM_BUFSIZE], *buf;
	size_t len;
	FILE *f;

	for (k = 0; k < n; k++) {
		if (c[k].n == 0)
			continue;
		buf = NULL;
		f = open_memstream(&buf, &len);
		pipe_share(&c[k], c[k].bound, share);
		fprintf(f, "in-core: rank %s %s: bounded by %s (", d->id,
		    c[k].core, c[k].pipes[c[k].bound]->f[V_TRACK]);
		put_pct(f, share);
		fprintf(f, " of %s cycles):", c[k].total != NULL ?
		    c[k].total->f[V_VALUE] : "-");
		for (p = 0; p < c[k].n; p++) {
			pipe_share(&c[k], p, share);
			fprintf(f, "%s %s ", p ? "," : "",
			    c[k].pipes[p]->f[V_TRACK]);
			put_pct(f, share);
		}
		if (c[k].degenerate) {
			fputs("; DEGENERATE TRACE: ", f);
			put_degenerate(f, &c[k]);
		}
		fclose(f);
		line(rc, buf, 2);
		free(buf);
	}
}

void
text_ops(struct rctx *rc, render_line *line)
{
	struct opsview *o = rc->ops;
	size_t i;

	if (!opsv_any(o))
		return;
	sort_devs(o);
	for (i = 0; i < o->nv; i++) {
		if (has_groups(&o->v[i]))
			text_groups(rc, &o->v[i], key_of(o), line);
		text_incore(rc, &o->v[i], line);
	}
}

/* ---- the JSON object ---- */

static void
jnum(struct jw *jw, const char *s, int k)
{
	if (*s == '\0')
		jw_null(jw);
	else
		jw_num(jw, s, k);
}

static void
json_group(struct jw *jw, const struct vrow *r)
{
	jw_open(jw, '{');
	jw_key(jw, "rank"), jnum(jw, r->f[V_RANK], 0);
	jw_key(jw, "key"), jw_str(jw, r->f[V_NAME]);
	jw_key(jw, "tail"), jw_bool(jw, r->what == R_TAIL);
	if (r->what == R_TAIL)
		jw_key(jw, "groups"), jnum(jw, r->f[V_GROUPS], 0);
	jw_key(jw, "calls"), jnum(jw, r->f[V_CALLS], 0);
	jw_key(jw, "total_ms"), jnum(jw, r->f[V_TOTAL], 6);
	jw_key(jw, "share_ratio"), jnum(jw, r->f[V_SHARE], 0);
	jw_key(jw, "wall_share_ratio"), jnum(jw, r->f[V_WSHARE], 0);
	jw_key(jw, "avg_us"), jnum(jw, r->f[V_AVG], 3);
	jw_key(jw, "median_us"), jnum(jw, r->f[V_MEDIAN], 3);
	jw_key(jw, "std_us"), jnum(jw, r->f[V_STD], 3);
	jw_key(jw, "min_us"), jnum(jw, r->f[V_MIN], 3);
	jw_key(jw, "max_us"), jnum(jw, r->f[V_MAX], 3);
	jw_key(jw, "flops"), jnum(jw, r->f[V_FLOPS], 0);
	jw_key(jw, "bytes"), jnum(jw, r->f[V_BYTES], 0);
	jw_key(jw, "category"), jw_strnull(jw, r->f[V_CAT]);
	jw_key(jw, "op_cat"), jw_strnull(jw, r->f[V_OPCAT]);
	jw_key(jw, "noncompute_class"), jw_strnull(jw, r->f[V_NC]);
	jw_key(jw, "pmu_avg"), jw_strnull(jw, r->f[V_PMU]);
	jw_key(jw, "tags"), jw_strnull(jw, r->f[V_TAGS]);
	jw_close(jw, '}');
}

/*
 * A "NS NAME;NS NAME" column (top_groups, top_changes) as an array of
 * objects: NAME under KEY, and total_ms.
 */
static void
json_tops(struct jw *jw, const char *s, const char *key)
{
	char *t = xstrdup(s), *p, *e, *sp;

	jw_open(jw, '[');
	for (p = t; *p != '\0'; p = e) {
		if ((e = strchr(p, ';')) == NULL)
			e = p + strlen(p);
		else
			*e++ = '\0';
		if ((sp = strchr(p, ' ')) == NULL)
			continue;
		*sp = '\0';
		jw_open(jw, '{');
		jw_key(jw, key), jw_str(jw, sp + 1);
		jw_key(jw, "total_ms"), jw_num(jw, p, 6);
		jw_close(jw, '}');
	}
	jw_close(jw, ']');
	free(t);
}

static void
json_audit(struct jw *jw, const struct vrow *r)
{
	jw_open(jw, '{');
	jw_key(jw, "class"), jw_str(jw, r->f[V_NAME]);
	jw_key(jw, "calls"), jnum(jw, r->f[V_CALLS], 0);
	jw_key(jw, "groups"), jnum(jw, r->f[V_GROUPS], 0);
	jw_key(jw, "total_ms"), jnum(jw, r->f[V_TOTAL], 6);
	jw_key(jw, "share_ratio"), jnum(jw, r->f[V_SHARE], 0);
	jw_key(jw, "wall_share_ratio"), jnum(jw, r->f[V_WSHARE], 0);
	jw_key(jw, "top_groups"), json_tops(jw, r->f[V_TOP], "key");
	jw_key(jw, "top_changes"), json_tops(jw, r->f[V_TOPCH], "change");
	jw_close(jw, '}');
}

static void
json_rank(struct jw *jw, const struct vdev *d)
{
	size_t i;

	jw_open(jw, '{');
	jw_key(jw, "dev"), jw_str(jw, d->id);
	jw_key(jw, "task_total_ms"), jnum(jw, d->total ? d->total : "", 6);
	jw_key(jw, "wall_ms"), jnum(jw, d->wall ? d->wall : "", 6);
	jw_key(jw, "wall_from"), jw_strnull(jw, d->wall_from);
	jw_key(jw, "group_count"), jnum(jw, d->ngroups ? d->ngroups : "", 0);
	jw_key(jw, "noncompute_ms"), jnum(jw, d->nc ? d->nc : "", 6);
	jw_key(jw, "noncompute_ratio"), jnum(jw, d->nc_ratio ? d->nc_ratio :
	    "", 0);
	jw_key(jw, "while_ms"), jnum(jw, d->loop ? d->loop : "", 6);
	jw_key(jw, "while_calls"), jnum(jw, d->nloop ? d->nloop : "", 0);
	jw_key(jw, "groups"), jw_open(jw, '[');
	for (i = 0; i < d->n; i++)
		if (d->r[i].what == R_GROUP || d->r[i].what == R_TAIL)
			json_group(jw, &d->r[i]);
	jw_close(jw, ']');
	jw_key(jw, "noncompute_audit"), jw_open(jw, '[');
	for (i = 0; i < d->n; i++)
		if (d->r[i].what == R_AUDIT)
			json_audit(jw, &d->r[i]);
	jw_close(jw, ']');
	jw_close(jw, '}');
}

static void
json_core(struct jw *jw, const struct vdev *d, const struct vcore *c)
{
	char share[NUM_BUFSIZE];
	size_t p;

	jw_open(jw, '{');
	jw_key(jw, "dev"), jw_str(jw, d->id);
	jw_key(jw, "core"), jw_str(jw, c->core);
	jw_key(jw, "cycles"), jnum(jw, c->total ? c->total->f[V_VALUE] : "",
	    0);
	jw_key(jw, "bounding_pipe"), jw_strnull(jw, c->n > 0 ?
	    c->pipes[c->bound]->f[V_TRACK] : NULL);
	jw_key(jw, "degenerate_trace"), jw_bool(jw, c->degenerate != 0);
	jw_key(jw, "degenerate_from"), jw_open(jw, '[');
	if (c->degenerate & 1)
		jw_str(jw, "instr_exe");
	if (c->degenerate & 2)
		jw_str(jw, "trace");
	jw_close(jw, ']');
	jw_key(jw, "pipes"), jw_open(jw, '[');
	for (p = 0; p < c->n; p++) {
		pipe_share(c, p, share);
		jw_open(jw, '{');
		jw_key(jw, "pipe"), jw_str(jw, c->pipes[p]->f[V_TRACK]);
		jw_key(jw, "cycles"), jnum(jw, c->pipes[p]->f[V_VALUE], 0);
		jw_key(jw, "share_ratio"), jnum(jw, share, 0);
		jw_key(jw, "instructions"), jnum(jw, c->instr[p] != NULL ?
		    c->instr[p]->f[V_VALUE] : "", 0);
		jw_close(jw, '}');
	}
	jw_close(jw, ']');
	jw_close(jw, '}');
}

/* The "ops" member: the key, the ranks' groups and audits, the cores. */
void
json_ops(struct jw *jw, struct rctx *rc)
{
	struct opsview *o = rc->ops;
	struct vcore c[16];
	size_t i, k, n;

	sort_devs(o);
	jw_open(jw, '{');
	jw_key(jw, "key"), jw_str(jw, key_of(o));
	jw_key(jw, "ranks"), jw_open(jw, '[');
	for (i = 0; i < o->nv; i++)
		if (has_groups(&o->v[i]))
			json_rank(jw, &o->v[i]);
	jw_close(jw, ']');
	jw_key(jw, "in_core"), jw_open(jw, '[');
	for (i = 0; i < o->nv; i++) {
		n = cores_of(&o->v[i], c, 16);
		for (k = 0; k < n; k++)
			if (c[k].n > 0)
				json_core(jw, &o->v[i], &c[k]);
	}
	jw_close(jw, ']');
	jw_close(jw, '}');
}
