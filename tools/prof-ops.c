/*
 * prof-ops: where the device time goes, by what the program ran.
 *
 * Every device task (a kernel record; with -k pipe, an op-simulator pipe
 * record) falls into one group by a key chosen on the command line:
 * name, op type, signature, scope, category or pipe.  The groups hold
 * integer sums and the durations (ops-tab.c); at the end of the input
 * each device gets its top groups, one tail record that adds the rest,
 * so that the groups add up to the device's task time to the ns, the
 * non-compute audit (copies, casts, transposes, pads, layout changes,
 * fills, XLA broadcasts, with what the HLO text says each op changes)
 * and a few metrics, the time in XLA while containers among them,
 * apart from the groups.  Every input record passes unchanged: memory
 * holds the groups, not the records.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "devtab.h"
#include "diag.h"
#include "dtime.h"
#include "num.h"
#include "ops.h"
#include "stage.h"
#include "strtab.h"
#include "xalloc.h"

/* The columns, bound by stage_open() (-1: the input lacks one read). */
struct ops_cols {
	int	key, rank, calls, durt, davg, dmed, dstd, dmin, dmax, share;
	int	wshare, flops, bytes, category, opcat, nc, pmu_avg, groups;
	int	top, tags, value, stack, change, topch;
	/* read */
	int	part[OP_NPARTS], core, cat, ext, pmu, corr, frame;
};

#define COL(m, name, f)	STAGE_COLUMN(struct ops_cols, m, name, f)
/* The columns prof-ops adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(key, "key", STAGE_ADD),
	COL(rank, "rank", STAGE_ADD),
	COL(calls, "calls", STAGE_ADD),
	COL(durt, "dur_total_ns", STAGE_ADD),
	COL(davg, "dur_avg_ns", STAGE_ADD),
	COL(dmed, "dur_median_ns", STAGE_ADD),
	COL(dstd, "dur_std_ns", STAGE_ADD),
	COL(dmin, "dur_min_ns", STAGE_ADD),
	COL(dmax, "dur_max_ns", STAGE_ADD),
	COL(share, "share_ratio", STAGE_ADD),
	COL(wshare, "wall_share_ratio", STAGE_ADD),
	COL(flops, "flops", STAGE_READ | STAGE_ADD),
	COL(bytes, "bytes", STAGE_READ | STAGE_ADD),
	COL(category, "category", STAGE_ADD),
	COL(opcat, "op_cat", STAGE_ADD),
	COL(nc, "nc_class", STAGE_ADD),
	COL(pmu_avg, "pmu_avg", STAGE_ADD),
	COL(groups, "groups", STAGE_ADD),
	COL(top, "top_groups", STAGE_ADD),
	COL(tags, "tags", STAGE_READ | STAGE_ADD),
	COL(value, "value", STAGE_READ | STAGE_ADD),
	COL(stack, "stack", STAGE_ADD),
	COL(change, "change", STAGE_ADD),
	COL(topch, "top_changes", STAGE_ADD),
	/* the key parts, as ops_part_names[] spells them */
	COL(part[OP_TYPE], "type", STAGE_READ),
	COL(part[OP_IN_SHAPES], "in_shapes", STAGE_READ),
	COL(part[OP_IN_DTYPES], "in_dtypes", STAGE_READ),
	COL(part[OP_IN_FORMATS], "in_formats", STAGE_READ),
	COL(part[OP_OUT_SHAPES], "out_shapes", STAGE_READ),
	COL(part[OP_OUT_DTYPES], "out_dtypes", STAGE_READ),
	COL(part[OP_OUT_FORMATS], "out_formats", STAGE_READ),
	COL(core, "core", STAGE_READ),
	COL(cat, "cat", STAGE_READ),
	COL(ext, "ext", STAGE_READ),
	COL(pmu, "pmu", STAGE_READ),
	COL(corr, "corr", STAGE_READ),
	COL(frame, "frame", STAGE_READ),
};
#undef COL

/* Per device: what the shares are taken of. */
struct odev {
	__int128	 total;		/* task time */
	__int128	 window;	/* prof-steps' windows */
	int64_t		 first, last;	/* task span */
	uint64_t	 nwin, ngroups;
	__int128	 nc[NC_N];	/* task time per non-compute class */
	uint64_t	 ncn[NC_N], ncg[NC_N];
	__int128	 loop;		/* time in XLA while containers */
	uint64_t	 nloop;
};

/*
 * The XLA while containers of one device (mark records, cat xla_while):
 * the union of their spans, so that a loop nested in a loop counts
 * once.  Marks come in ts_ns order, so the union is kept in one pass by
 * the end of the span covered so far.
 */
struct oloop {
	int64_t		 end;		/* covered up to here */
	__int128	 total;
	uint64_t	 n;
};

static struct {
	struct ops_keyopts ko;
	int		 all_devs;
	int64_t		 top;
	int64_t		 exact;
} opts;

static struct stage *st;
static struct ops_tab tab;
static struct devtab devs;
static struct devtab loops;	/* real dev -> struct oloop */

/*
 * What the non-compute ops of an XLA run change (ops_change(): dtype,
 * layout, memory space), by "dev\tclass\tchange": the audit's
 * top_changes.  Bounded by the distinct changes, a few per op.
 */
struct ochange {
	__int128	 total;
	uint64_t	 n;
};
static struct strtab changes;
static char *chkey;
static size_t chcap;
static struct ops_ext *ext;
static char *keybuf;
static size_t keycap;

/*
 * -k source: the user frames open on each host thread (python_function
 * events and operators that carry a frame), innermost last, so that an
 * operator without a stack of its own takes the innermost one around
 * it.  Bounded by the nesting depth of each thread.
 */
struct pyframes {
	int64_t		*end;
	char	       **frame;
	size_t		 n, cap;
};
static struct devtab threads;	/* "dev\ttrack" -> struct pyframes */
static char *thrkey;
static size_t thrcap;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Group device tasks by name, op type, signature, scope or "
	    "category, with\ncounts, totals, median, spread and shares, the "
	    "top groups and a tail that\nadds up to the total, and an audit "
	    "of non-compute work.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -a, --all-devs      one group across all devices (default: "
	    "per device)\n"
	    "  -d, --depth=N       scope key: the first N scope parts "
	    "(default 0: the\n"
	    "                      innermost scope of each op)\n"
	    "  -k, --key=KEY       name, type, sig, scope, category, source, "
	    "pipe or "
	    "cycles\n"
	    "                      (default name)\n"
	    "  -m, --exact=N       durations kept per group for an exact "
	    "median (default\n"
	    "                      65536; past it a histogram within 1%%)\n"
	    "  -n, --top=N         groups written per device before the "
	    "tail (default 20)\n"
	    "  -p, --parts=LIST    signature parts, comma-separated: type, "
	    "in_shapes,\n"
	    "                      in_dtypes, in_formats, out_shapes, "
	    "out_dtypes,\n"
	    "                      out_formats (default: all)\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Adds opgroup, opaudit and metric records at the end of the "
	    "stream; see\nprof-ops(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

static struct odev *
get_dev(const char *name, size_t len)
{
	int isnew;
	struct odev *d = devtab_get(&devs, name, len, &isnew);

	if (isnew) {
		d->first = INT64_MAX;
		d->last = INT64_MIN;
	}
	return d;
}

/* The fields of the current record that keys are made from. */
static void
task_fields(struct ops_task *t)
{
	const struct ops_cols *cols = stage_columns(st);
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < OP_NPARTS; i++)
		t->f[i] = stage_get(st, cols->part[i], &t->fl[i]);
	t->name = stage_get(st, opts.ko.key >= OK_PIPE ? COL_TRACK : COL_NAME,
	    &t->namel);
	t->core = stage_get(st, cols->core, &t->corel);
	t->cat = stage_get(st, cols->cat, &t->catl);
	t->frame = stage_get(st, cols->frame, &t->framel);
	if (cols->ext >= 0 && opts.ko.key < OK_PIPE) {
		size_t el;
		const char *e = stage_get(st, cols->ext, &el);

		ops_ext_xla(e, el, t);
	}
	if (ext != NULL && cols->ext >= 0) {
		size_t el, cl;
		const char *e = stage_get(st, cols->ext, &el);
		const char *c = stage_get(st, cols->corr, &cl);

		ops_ext_fill(ext, e, el, c, cl, t);
	}
}

/* The user frames open on the current record's thread at TS. */
static struct pyframes *
thread_frames(int64_t ts)
{
	size_t dl, tl;
	const char *d = stage_get(st, COL_DEV, &dl);
	const char *tr = stage_get(st, COL_TRACK, &tl);
	struct pyframes *p;
	int isnew;

	if (thrcap < dl + tl + 2) {
		thrcap = 2 * (dl + tl + 2);
		thrkey = xrealloc(thrkey, thrcap);
	}
	memcpy(thrkey, d, dl);
	thrkey[dl] = '\t';
	memcpy(thrkey + dl + 1, tr, tl);
	p = devtab_get(&threads, thrkey, dl + tl + 1, &isnew);
	while (p->n > 0 && p->end[p->n - 1] <= ts)
		free(p->frame[--p->n]);
	return p;
}

/*
 * A host record with a frame opens it on its thread until its end; an
 * operator without one takes the innermost open one (T's frame).
 */
static void
track_frames(struct ops_task *t)
{
	int64_t ts = stage_ts(st), dur = stage_dur(st);
	struct pyframes *p;

	if (ts == STAGE_NO_TS || dur < 0)
		return;
	p = thread_frames(ts);
	if (t->framel == 0) {
		if (p->n > 0) {
			t->frame = p->frame[p->n - 1];
			t->framel = strlen(t->frame);
		}
		return;
	}
	if (p->n == p->cap) {
		p->cap = 2 * p->cap + 8;
		p->end = xreallocarray(p->end, p->cap, sizeof(*p->end));
		p->frame = xreallocarray(p->frame, p->cap, sizeof(*p->frame));
	}
	p->end[p->n] = ts + dur;
	p->frame[p->n++] = xstrndup(t->frame, t->framel);
}

/* A host operator's category: "cpu_op", or "Operator" in older traces. */
static int
host_op(const char *cat)
{
	return strcmp(cat, "cpu_op") == 0 || strcmp(cat, "Operator") == 0;
}

/*
 * A Kineto host operator: the type, shapes and frame of the kernels it
 * launches; a runtime call: the link from its correlation id to it.
 */
static void
do_host(void)
{
	const struct ops_cols *cols = stage_columns(st);
	size_t el, cl;
	const char *e = stage_get(st, cols->ext, &el);
	const char *c = stage_get(st, cols->corr, &cl);
	struct ops_task t;

	memset(&t, 0, sizeof(t));
	t.name = stage_get(st, COL_NAME, &t.namel);
	t.f[OP_IN_SHAPES] = stage_get(st, cols->part[OP_IN_SHAPES],
	    &t.fl[OP_IN_SHAPES]);
	t.f[OP_IN_DTYPES] = stage_get(st, cols->part[OP_IN_DTYPES],
	    &t.fl[OP_IN_DTYPES]);
	t.frame = stage_get(st, cols->frame, &t.framel);
	if (opts.ko.key == OK_SOURCE)
		track_frames(&t);
	if (host_op(stage_get(st, cols->cat, NULL))) {
		if (el > 0 && t.namel > 0)
			ops_ext_add(ext, e, el, &t);
	} else if (cl > 0)
		ops_ext_link(ext, c, cl, e, el, &t);
}

static void
free_frames(void)
{
	struct pyframes *p;
	size_t i;

	for (i = 0; i < threads.n; i++) {
		p = threads.v[i].item;
		while (p->n > 0)
			free(p->frame[--p->n]);
		free(p->end);
		free(p->frame);
	}
	devtab_free(&threads);
	free(thrkey);
}

/*
 * What task T of group G changes, from its HLO text: the group keeps
 * its first task's, the audit sums the time per class and change.
 */
static void
add_change(const struct ops_task *t, struct ops_group *g, const char *dev,
    size_t dl, int64_t dur)
{
	char ch[512];
	size_t n = ops_change(t, ch, sizeof(ch)), kl;
	const char *cn = ops_nc_names[g->nc];
	struct ochange *c;

	if (n == 0 || g->nc == NC_NONE)
		return;
	if (g->calls == 0)
		g->change = xstrndup(ch, n);
	kl = dl + strlen(cn) + n + 2;
	if (chcap < kl + 1) {
		chcap = 2 * kl + 1;
		chkey = xrealloc(chkey, chcap);
	}
	snprintf(chkey, chcap, "%.*s\t%s\t%.*s", (int)dl, dev, cn, (int)n,
	    ch);
	c = strtab_val(&changes, strtab_intern(&changes, chkey, kl, NULL));
	c->total += dur;
	c->n++;
}

/*
 * Add the current record, a task of DUR (ns, or cycles for pipe_cycles)
 * starting at TS (STAGE_NO_TS: no place on the timeline).
 */
static void
add_task(int64_t ts, int64_t dur)
{
	const struct ops_cols *cols = stage_columns(st);
	size_t dl, kl, l;
	const char *dev = stage_get(st, COL_DEV, &dl);
	struct ops_task t;
	struct ops_group *g;
	struct odev *d;
	const char *s;
	int isnew;

	task_fields(&t);
	kl = ops_key_make(&opts.ko, &t, &keybuf, &keycap);
	if (opts.all_devs)
		dl = 0;
	d = get_dev(dev, dl);
	g = ops_tab_get(&tab, dev, dl, keybuf, kl, &isnew);
	if (isnew) {
		g->cat = ops_category(&t, &g->nc);
		s = t.corel > 0 ? t.core : t.cat;
		l = t.corel > 0 ? t.corel : t.catl;
		g->opcat = xstrndup(s, l);
		g->example = xstrndup(t.name, t.namel);
		g->labell = ops_key_label(&opts.ko, &t, kl);
		d->ngroups++;
		d->ncg[g->nc]++;
	}
	if (t.changesl > 0)
		add_change(&t, g, dev, dl, dur);
	ops_group_add(&tab, g, dur);
	s = stage_get(st, cols->flops, &l);
	ops_group_num(&g->flops, &g->nflops, s, l);
	s = stage_get(st, cols->bytes, &l);
	ops_group_num(&g->bytes, &g->nbytes, s, l);
	s = stage_get(st, cols->pmu, &l);
	if (l > 0)
		ops_group_pmu(g, s, l);
	d->total += dur;
	d->nc[g->nc] += dur;
	d->ncn[g->nc]++;
	if (ts == STAGE_NO_TS)
		return;
	if (ts < d->first)
		d->first = ts;
	if (ts + dur > d->last)
		d->last = ts + dur;
}

static void
do_task(void)
{
	int64_t ts = stage_ts(st), dur = stage_dur(st);

	if (ts == STAGE_NO_TS || dur < 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "%s record without %s", opts.ko.key == OK_PIPE ? "pipe" :
		    "kernel", ts == STAGE_NO_TS ? "ts_ns" : "dur_ns");
	add_task(ts, dur);
}

/*
 * With -k cycles, the cycles per pipe of the op simulator's instr_exe
 * table (prof-ingest's pipe_cycles metrics) are tasks too: the pipe
 * with the most cycles bounds the kernel.
 */
static void
do_cycles(void)
{
	const struct ops_cols *cols = stage_columns(st);
	size_t n;
	const char *v = stage_get(st, cols->value, &n);
	int64_t cyc;

	if (strcmp(stage_get(st, COL_NAME, NULL), "pipe_cycles") != 0)
		return;
	if (dtime_parse(v, n, 0, &cyc) != DTIME_OK || cyc < 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "pipe_cycles: invalid value '%.*s'", (int)n, v);
	add_task(STAGE_NO_TS, cyc);
}

/*
 * An XLA while container (prof-ingest's mark, cat xla_while): the ops
 * inside it are kernels of their own, so its time is reported apart
 * and never added to a group or the task time.  The union is taken per
 * device, then added across devices with -a.
 */
static void
do_loop(void)
{
	const struct ops_cols *cols = stage_columns(st);
	int64_t ts = stage_ts(st), dur = stage_dur(st), end;
	size_t dl;
	const char *dev = stage_get(st, COL_DEV, &dl);
	struct oloop *l;
	int isnew;

	if (strcmp(stage_get(st, cols->cat, NULL), "xla_while") != 0 ||
	    ts == STAGE_NO_TS || dur < 0)
		return;
	l = devtab_get(&loops, dev, dl, &isnew);
	if (isnew)
		l->end = INT64_MIN;
	l->n++;
	end = ts > INT64_MAX - dur ? INT64_MAX : ts + dur;
	if (end <= l->end)
		return;
	l->total += end - (ts > l->end ? ts : l->end);
	l->end = end;
}

/* The while-container time of each device onto its odev (-a: summed). */
static void
loop_totals(void)
{
	struct oloop *l;
	struct odev *d;
	size_t i;

	for (i = 0; i < loops.n; i++) {
		l = loops.v[i].item;
		d = get_dev(loops.v[i].name, opts.all_devs ? 0 :
		    loops.v[i].len);
		d->loop += l->total;
		d->nloop += l->n;
	}
}

/* A step window of prof-steps: the wall time shares are taken of. */
static void
do_window(void)
{
	size_t dl;
	const char *dev = stage_get(st, COL_DEV, &dl);
	struct odev *d = get_dev(dev, opts.all_devs ? 0 : dl);

	if (stage_dur(st) > 0) {
		d->window += stage_dur(st);
		d->nwin++;
	}
}

/* The wall time of D: its windows, else the span of its tasks. */
static __int128
dev_wall(const struct odev *d)
{
	if (d->nwin > 0)
		return d->window;
	return d->last > d->first ? (__int128)d->last - d->first : 0;
}

static void
set_i128(struct srec *r, int col, __int128 v)
{
	char buf[NUM_BUFSIZE];

	srec_set(r, col, buf, ops_i128(buf, v));
}

/* The pmu_avg column: each "..._ratio" key's average. */
static void
set_pmu(struct srec *r, const struct ops_group *g)
{
	const struct ops_cols *cols = stage_columns(st);
	char out[OPS_NPMU * 64], num[NUM_BUFSIZE];
	size_t at = 0, n;
	int i;

	for (i = 0; i < OPS_NPMU && g->pmuk[i] != NULL; i++) {
		if (g->pmus[i] == 0)	/* the other core's keys: noise */
			continue;
		n = num_ratio_i128(num, g->pmus[i], (__int128)g->pmun[i] *
		    1000000, 6);
		if (at + strlen(g->pmuk[i]) + n + 3 > sizeof(out))
			break;
		at += (size_t)snprintf(out + at, sizeof(out) - at, "%s%s=%.*s",
		    at ? "," : "", g->pmuk[i], (int)n, num);
	}
	if (at > 0)
		srec_set(r, cols->pmu_avg, out, at);
}

/*
 * The name a group is shown by: its key, but for -k source on an XLA op
 * the innermost line alone, unless another group of the device has the
 * same line from another call path (then the key, with the stack).
 */
static size_t
group_name(const struct ops_group *g)
{
	return g->shown_full ? g->keylen : g->labell;
}

/* The stack hash of a -k source group keyed by one, or NULL. */
static const char *
group_stack(const struct ops_group *g, size_t *n)
{
	size_t sfx = strlen(OPS_STACK_SFX);

	if (g->labell == g->keylen || g->keylen < g->labell + sfx + 1)
		return NULL;
	*n = g->keylen - g->labell - sfx - 1;
	return g->key + g->labell + sfx;
}

/*
 * Mark the groups V[0..N) of one device whose line another group has
 * (one line, two call paths): they are shown with their stacks.
 */
static void
mark_shared(struct ops_group **v, size_t n)
{
	struct strtab lines;
	size_t i, *c;
	int isnew;

	strtab_init(&lines, sizeof(size_t));
	for (i = 0; i < n; i++) {
		if (v[i]->labell == v[i]->keylen)
			continue;
		c = strtab_val(&lines, strtab_intern(&lines, v[i]->key,
		    v[i]->labell, &isnew));
		if (isnew)
			*c = 0;
		(*c)++;
	}
	for (i = 0; i < n; i++) {
		if (v[i]->labell == v[i]->keylen)
			continue;
		c = strtab_val(&lines, strtab_intern(&lines, v[i]->key,
		    v[i]->labell, &isnew));
		v[i]->shown_full = *c > 1;
	}
	strtab_free(&lines);
}

/* One opgroup record for group G, ranked RANK on its device D. */
static void
put_group(const struct ops_group *g, const struct odev *d, int64_t rank,
    int64_t end)
{
	const struct ops_cols *cols = stage_columns(st);
	struct srec *r = stage_new(st, "opgroup", end);
	__int128 med;
	int approx;
	int64_t sd;
	const char *s;
	size_t sl;

	srec_set_str(r, COL_DEV, g->dev);
	srec_set(r, COL_NAME, g->key, group_name(g));
	if ((s = group_stack(g, &sl)) != NULL)
		srec_set(r, cols->stack, s, sl);
	srec_set_str(r, cols->key, ops_key_name(opts.ko.key));
	srec_set_i64(r, cols->rank, rank);
	srec_set_i64(r, cols->calls, (int64_t)g->calls);
	set_i128(r, cols->durt, g->total);
	srec_set_quot(r, cols->davg, g->total, (__int128)g->calls, 3);
	ops_group_median(g, &med, &approx);
	srec_set_quot(r, cols->dmed, med, 2, 1);
	if ((sd = ops_group_std(g)) >= 0)
		srec_set_i64(r, cols->dstd, sd);
	srec_set_i64(r, cols->dmin, g->min);
	srec_set_i64(r, cols->dmax, g->max);
	srec_set_ratio(r, cols->share, g->total, d->total);
	srec_set_ratio(r, cols->wshare, g->total, dev_wall(d));
	if (g->nflops > 0)
		set_i128(r, cols->flops, g->flops);
	if (g->nbytes > 0)
		set_i128(r, cols->bytes, g->bytes);
	srec_set_str(r, cols->category, ops_cat_names[g->cat]);
	srec_set_str(r, cols->opcat, g->opcat);
	srec_set_str(r, cols->nc, ops_nc_names[g->nc]);
	if (g->change != NULL)
		srec_set_str(r, cols->change, g->change);
	set_pmu(r, g);
	if (approx)
		srec_tag_add(r, cols->tags, "median_approx");
	if (sd < 0 && g->calls > 1)
		srec_tag_add(r, cols->tags, "std_overflow");
	stage_put(st, r);
}

/* The groups of one device past the top: one record that adds them. */
static void
put_tail(struct ops_group **v, size_t n, const struct odev *d,
    int64_t end)
{
	const struct ops_cols *cols = stage_columns(st);
	struct srec *r;
	__int128 total = 0;
	uint64_t calls = 0;
	int64_t mn = INT64_MAX, mx = INT64_MIN;
	char name[64];
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		total += v[i]->total;
		calls += v[i]->calls;
		mn = v[i]->min < mn ? v[i]->min : mn;
		mx = v[i]->max > mx ? v[i]->max : mx;
	}
	r = stage_new(st, "opgroup", end);
	snprintf(name, sizeof(name), "(%zu other groups)", n);
	srec_set_str(r, COL_DEV, v[0]->dev);
	srec_set_str(r, COL_NAME, name);
	srec_set_str(r, cols->key, ops_key_name(opts.ko.key));
	srec_set_i64(r, cols->calls, (int64_t)calls);
	srec_set_i64(r, cols->groups, (int64_t)n);
	set_i128(r, cols->durt, total);
	srec_set_quot(r, cols->davg, total, (__int128)calls, 3);
	srec_set_i64(r, cols->dmin, mn);
	srec_set_i64(r, cols->dmax, mx);
	srec_set_ratio(r, cols->share, total, d->total);
	srec_set_ratio(r, cols->wshare, total, dev_wall(d));
	srec_tag_add(r, cols->tags, "tail");
	stage_put(st, r);
}

/*
 * The top_changes column of class CN on device DEV: its three largest
 * changes by time ("NS CHANGE" joined by ';'), from the HLO text.
 */
static void
set_top_changes(struct srec *r, const char *dev, const char *cn)
{
	const struct ops_cols *cols = stage_columns(st);
	char pre[256], out[1024], num[NUM_BUFSIZE];
	size_t top[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX }, i, k, kl, pl, at;
	const struct ochange *c, *o;
	const char *key;

	pl = (size_t)snprintf(pre, sizeof(pre), "%s\t%s\t", dev, cn);
	if (pl >= sizeof(pre))
		return;
	for (i = 0; i < changes.n; i++) {
		key = strtab_key(&changes, i, &kl);
		if (kl <= pl || memcmp(key, pre, pl) != 0)
			continue;
		c = strtab_val(&changes, i);
		for (k = 0; k < 3; k++) {
			o = top[k] == SIZE_MAX ? NULL : strtab_val(&changes,
			    top[k]);
			if (o == NULL || c->total > o->total) {
				memmove(top + k + 1, top + k, (2 - k) *
				    sizeof(*top));
				top[k] = i;
				break;
			}
		}
	}
	for (k = 0, at = 0; k < 3 && top[k] != SIZE_MAX; k++) {
		key = strtab_key(&changes, top[k], &kl);
		c = strtab_val(&changes, top[k]);
		i = ops_i128(num, c->total);
		if (at + i + kl - pl + 3 > sizeof(out))
			break;
		at += (size_t)snprintf(out + at, sizeof(out) - at, "%s%.*s %.*s",
		    at ? ";" : "", (int)i, num, (int)(kl - pl), key + pl);
	}
	if (at > 0)
		srec_set(r, cols->topch, out, at);
}

/*
 * The audit of device D: per non-compute class with time, its total,
 * shares and its three largest groups ("NS KEY" joined by ';').
 */
static void
put_audit(struct ops_group **v, size_t n, const char *dev,
    const struct odev *d, int64_t end)
{
	const struct ops_cols *cols = stage_columns(st);
	char top[1024], num[NUM_BUFSIZE];
	size_t i, at, nl;
	int c, k;
	struct srec *r;

	for (c = 1; c < NC_N; c++) {
		if (d->ncn[c] == 0)
			continue;
		r = stage_new(st, "opaudit", end);
		srec_set_str(r, COL_DEV, dev);
		srec_set_str(r, COL_NAME, ops_nc_names[c]);
		srec_set_str(r, cols->key,
		    ops_key_name(opts.ko.key));
		srec_set_str(r, cols->category,
		    ops_cat_names[OC_DATA]);
		srec_set_i64(r, cols->calls, (int64_t)d->ncn[c]);
		srec_set_i64(r, cols->groups, (int64_t)d->ncg[c]);
		set_i128(r, cols->durt, d->nc[c]);
		srec_set_ratio(r, cols->share, d->nc[c], d->total);
		srec_set_ratio(r, cols->wshare, d->nc[c], dev_wall(d));
		for (i = 0, at = 0, k = 0; i < n && k < 3; i++) {
			if ((int)v[i]->nc != c)
				continue;
			nl = ops_i128(num, v[i]->total);
			if (at + nl + v[i]->keylen + 3 > sizeof(top))
				break;
			at += (size_t)snprintf(top + at, sizeof(top) - at,
			    "%s%.*s %.*s", at ? ";" : "", (int)nl, num,
			    (int)group_name(v[i]), v[i]->key);
			k++;
		}
		srec_set(r, cols->top, top, at);
		if (changes.n > 0)
			set_top_changes(r, dev, ops_nc_names[c]);
		stage_put(st, r);
	}
}

static void
put_metric(const char *dev, const char *name, const char *val, size_t n,
    const char *tag, int64_t end)
{
	const struct ops_cols *cols = stage_columns(st);
	struct srec *r = stage_new(st, "metric", end);

	srec_set_str(r, COL_DEV, dev);
	srec_set_str(r, COL_NAME, name);
	srec_set(r, cols->value, val, n);
	if (tag != NULL)
		srec_set_str(r, cols->tags, tag);
	stage_put(st, r);
}

/*
 * The time in XLA while containers, apart from the task time: the ops
 * inside a loop are its kernels, so the container is neither compute
 * nor a group: prof-ingest(1) makes it a mark, never a kernel.
 */
static void
put_loops(const char *dev, const struct odev *d, int64_t end)
{
	char buf[NUM_BUFSIZE];

	if (d->nloop == 0)
		return;
	put_metric(dev, "ops_while_ns", buf, ops_i128(buf, d->loop),
	    "xla_while", end);
	put_metric(dev, "ops_while_calls", buf, ops_i128(buf,
	    (__int128)d->nloop), "xla_while", end);
}

static void
put_metrics(const char *dev, const struct odev *d, int64_t end)
{
	char buf[NUM_BUFSIZE];
	__int128 nc = d->total - d->nc[NC_NONE];

	put_metric(dev, "ops_task_total_ns", buf, ops_i128(buf, d->total),
	    NULL, end);
	put_metric(dev, "ops_group_count", buf, ops_i128(buf,
	    (__int128)d->ngroups), ops_key_name(opts.ko.key), end);
	put_metric(dev, "ops_wall_ns", buf, ops_i128(buf, dev_wall(d)),
	    d->nwin > 0 ? "windows" : "span", end);
	put_metric(dev, "noncompute_ns", buf, ops_i128(buf, nc), NULL, end);
	if (d->total > 0)
		put_metric(dev, "noncompute_ratio", buf, num_ratio_i128(buf,
		    nc, d->total, 6), NULL, end);
	put_loops(dev, d, end);
}

static int
cmp_dev_total(const void *a, const void *b)
{
	const struct ops_group *x = *(struct ops_group *const *)a;
	const struct ops_group *y = *(struct ops_group *const *)b;
	int c = devtab_cmp(x->dev, y->dev);

	return c != 0 ? c : ops_group_cmp(a, b);
}

/* Every device's groups, in rank order of devices and of totals. */
static void
summary(int64_t end)
{
	struct ops_group **v = tab.v;
	size_t i, j, k;
	struct odev *d;

	if (tab.nv > 1)	/* an empty table has no array */
		qsort(v, tab.nv, sizeof(*v), cmp_dev_total);
	for (i = 0; i < tab.nv; i = j) {
		for (j = i; j < tab.nv && strcmp(v[j]->dev, v[i]->dev) == 0;
		    j++)
			;
		d = devtab_find(&devs, v[i]->dev, v[i]->devlen);
		mark_shared(v + i, j - i);
		for (k = i; k < j && (int64_t)(k - i) < opts.top; k++)
			put_group(v[k], d, (int64_t)(k - i + 1), end);
		put_tail(v + k, j - k, d, end);
		put_audit(v + i, j - i, v[i]->dev, d, end);
		put_metrics(v[i]->dev, d, end);
		d->ngroups = UINT64_MAX;	/* written */
	}
	/* a device with while containers and no kernel */
	devtab_sort(&devs, devtab_cmp);
	for (i = 0; i < devs.n; i++) {
		d = devs.v[i].item;
		if (d->ngroups != UINT64_MAX)
			put_loops(devs.v[i].name, d, end);
	}
}

static void
run(const char *path, int argc, char *argv[])
{
	const char *task = opts.ko.key == OK_PIPE ? "pipe" :
	    opts.ko.key == OK_CYCLES ? "-" : "kernel";
	struct ops_cols c;
	unsigned long seen;
	int64_t end;

	devtab_init(&devs, sizeof(struct odev));
	devtab_init(&loops, sizeof(struct oloop));
	strtab_init(&changes, sizeof(struct ochange));
	devtab_init(&threads, sizeof(struct pyframes));
	ops_tab_init(&tab, (size_t)opts.exact);
	st = stage_open(path, argc, argv, columns, sizeof(columns) /
	    sizeof(columns[0]), &c);
	if ((seen = stage_seen(st, "prof-ops", "nc_class")) != 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), seen, "input already "
		    "annotated by prof-ops: its records would be repeated");
	if (c.ext >= 0 && opts.ko.key < OK_PIPE)
		ext = ops_ext_new();
	while (stage_next(st)) {
		if (stage_is(st, task))
			do_task();
		else if (stage_is(st, "window"))
			do_window();
		else if (opts.ko.key == OK_CYCLES && stage_is(st, "metric"))
			do_cycles();
		else if (ext != NULL && stage_is(st, "host"))
			do_host();
		else if (c.cat >= 0 && opts.ko.key < OK_PIPE &&
		    stage_is(st, "mark"))
			do_loop();
		stage_pass(st);
	}
	end = stage_end_ts(st) == STAGE_NO_TS ? 0 : stage_end_ts(st);
	loop_totals();
	summary(end);
	stage_close(st);
	ops_tab_free(&tab);
	ops_ext_free(ext);
	devtab_free(&devs);
	devtab_free(&loops);
	strtab_free(&changes);
	free(chkey);
	free_frames();
	free(keybuf);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all-devs",	no_argument,		NULL, 'a' },
		{ "depth",	required_argument,	NULL, 'd' },
		{ "exact",	required_argument,	NULL, 'm' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "key",	required_argument,	NULL, 'k' },
		{ "parts",	required_argument,	NULL, 'p' },
		{ "top",	required_argument,	NULL, 'n' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *key = "name", *parts = NULL, *top = NULL, *depth = NULL,
	    *exact = NULL;
	int c;

	cli_init("prof-ops");
	while ((c = getopt_long(argc, argv, "ad:hk:m:n:p:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a':
			opts.all_devs = 1;
			break;
		case 'd':
			depth = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'k':
			key = optarg;
			break;
		case 'm':
			exact = optarg;
			break;
		case 'n':
			top = optarg;
			break;
		case 'p':
			parts = optarg;
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	if (ops_key_parse(key, &opts.ko.key) < 0)
		cli_usage_error("option '--key': invalid value '%s' (want "
		    "name, type, sig, scope, category, source, pipe or "
		    "cycles)", key);
	opts.ko.parts = (1u << OP_NPARTS) - 1;
	if (parts != NULL && ops_parts_parse(parts, &opts.ko.parts) < 0)
		cli_usage_error("option '--parts': invalid list '%s'", parts);
	opts.ko.depth = depth != NULL ? (int)cli_parse_i64(depth, "--depth",
	    0, 1000) : 0;
	opts.top = top != NULL ? cli_parse_i64(top, "--top", 0, INT64_MAX) :
	    20;
	opts.exact = exact != NULL ? cli_parse_i64(exact, "--exact", 1,
	    (int64_t)1 << 30) : 65536;
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	run(optind < argc ? argv[optind] : "-", argc, argv);
	return EXIT_OK;
}
