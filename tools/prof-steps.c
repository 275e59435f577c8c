/*
 * prof-steps: find the step windows of every device in a prof-tsv
 * stream, assign every record to the window its start lies in, write a
 * window record and per-step inventory metrics at each step start, and
 * group alike steps.
 *
 * The windows come first from a scan of the whole input (steps-scan.c,
 * steps-windows.c, steps-detect.c); this file is the stage loop that
 * then reads the input again (libcommon's reader rewinds it, from a
 * temporary copy when it is a pipe) and writes the annotated stream.
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "num.h"
#include "hash.h"
#include "stage.h"
#include "steps.h"
#include "xalloc.h"

struct steps_opts steps_opt;

/* Kernel classes of the inventory, by the unit that ran them. */
enum { KC_AI_CORE, KC_AI_CPU, KC_HCCL, KC_OTHER, KC_N };

/* Inventory metrics, in the order they are written. */
enum {
	M_KERNEL_COUNT, M_AI_CORE, M_AI_CPU, M_HCCL, M_DUR_SUM, M_WAIT_SUM,
	M_STREAMS, M_MISMATCH, M_N
};
static const char *const metric_name[M_N] = {
	"kernel_count", "ai_core_count", "ai_cpu_count", "hccl_count",
	"kernel_dur_sum_ns", "kernel_wait_sum_ns", "stream_count",
	"step_id_mismatch_count"
};
static const char *const src_name[] = {
	"marker", "step_id", "detected", "capture", "host_loop"
};

#define SIGBITS		512	/* bits of the kernel-name set signature */

/* A step group: its first step is the representative. */
struct grp {
	uint64_t	 bits[SIGBITS / 64];
	int64_t		 nkern;
	int		 dom;
	int64_t		 nsteps, service;
};

/* Per device, while the stage loop runs. */
struct run {
	size_t		 next;		/* next window to open */
	struct swin	*cur;		/* the open window, or NULL */
	char		 num[24];	/* its step number as text */
	size_t		 numlen;
	struct srec	*wrec, *mrec[M_N];
	int64_t		 cnt[KC_N], dursum, waitsum, mismatch;
	uint64_t	 bits[SIGBITS / 64];
	uint64_t	*streams;
	size_t		 nstreams, streamcap;
	struct grp	*grp;
	size_t		 ngrp;
};

/* A window boundary in time order across devices. */
struct event {
	int64_t		 at;		/* handled once ts_ns >= at */
	struct sdev	*dev;
	size_t		 win;		/* window to open, or SIZE_MAX: close */
};

/* The columns prof-steps reads and adds, bound by stage_open(). */
struct steps_cols {
	int	cat, step, value, group, tags;	/* added */
	int	core, wait;			/* read */
};

#define COL(m, name, flags)	STAGE_COLUMN(struct steps_cols, m, name, flags)
static const struct stage_column columns[] = {
	COL(cat, "cat", STAGE_ADD),
	COL(step, "step", STAGE_READ | STAGE_ADD),
	COL(value, "value", STAGE_ADD),
	COL(group, "step_group", STAGE_READ | STAGE_ADD),
	COL(tags, "tags", STAGE_ADD),
	COL(core, "core", STAGE_READ),
	COL(wait, "wait_ns", STAGE_READ),
};
#undef COL

static struct stage *st;
static struct event *ev;
static size_t nev, evpos;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Find the step windows of each device in a prof-tsv stream, "
	    "assign every\nrecord to a step, count each step's kernels and "
	    "group alike steps.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -d, --no-detect       without markers or step ids, make one "
	    "pseudo-step\n"
	    "                        instead of detecting iterations\n"
	    "  -H, --host-windows    keep host step markers' own times; by "
	    "default a\n"
	    "                        step starts with the first kernel its "
	    "marker launched\n"
	    "  -k, --step-kernel=PATTERN  a step starts at each kernel whose "
	    "name\n"
	    "                        matches PATTERN (fnmatch); markers and "
	    "step ids\n"
	    "                        are then ignored\n"
	    "  -m, --marker=PATTERN  step marker names (fnmatch pattern, the "
	    "step number\n"
	    "                        ending the name); repeat for more; "
	    "replaces the\n"
	    "                        defaults ProfilerStep#* Iteration#* "
	    "Step#*\n"
	    "  -p, --period=N        detected steps hold about N kernels: take "
	    "the period\n"
	    "                        of that length as the step\n"
	    "  -q, --quiet           no warning about kernels outside every "
	    "step\n"
	    "  -t, --tolerance=PCT   steps group together when their kernel "
	    "counts and\n"
	    "                        kernel-name sets differ by at most PCT "
	    "percent\n"
	    "                        (default 10)\n"
	    "  -T, --tmpdir=DIR      spool standard input in DIR (default "
	    "$TMPDIR or /tmp)\n"
	    "  -h, --help            display this help and exit\n"
	    "  -V, --version         output version information and exit\n\n");
	printf("Exit status: 0 if all went well, 1 for bad input or an I/O "
	    "error, 2 for\nusage errors.  See prof-steps(1).\n");
	exit(EXIT_OK);
}

/* ---- window boundaries ---- */

static int
cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* Every window opens at its start; the last of a device closes after e. */
static void
make_events(struct sdev **devs, size_t ndevs)
{
	size_t i, j;

	for (i = 0; i < ndevs; i++) {
		struct sdev *d = devs[i];

		d->run = xcalloc(1, sizeof(struct run));
		ev = xreallocarray(ev, nev + d->nwin + 1, sizeof(*ev));
		for (j = 0; j < d->nwin; j++)
			ev[nev++] = (struct event){ d->win[j].s, d, j };
		if (d->nwin > 0)
			ev[nev++] = (struct event){
			    num_sat_add(d->win[d->nwin - 1].e, 1), d, SIZE_MAX };
	}
	if (nev > 0)
		qsort(ev, nev, sizeof(*ev), cmp_event);
}

/* ---- step groups ---- */

static int
popcount64(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* Whether A is within TOL percent of B. */
static int
near(int64_t a, int64_t b)
{
	int64_t diff = a > b ? a - b : b - a;

	return diff * 100 <= b * steps_opt.tol;
}

/* The same kernel names, up to the tolerance (Jaccard on the signature). */
static int
same_names(const uint64_t *a, const uint64_t *b)
{
	int64_t both = 0, any = 0;
	size_t i;

	for (i = 0; i < SIGBITS / 64; i++) {
		both += popcount64(a[i] & b[i]);
		any += popcount64(a[i] | b[i]);
	}
	return any == 0 || both * 100 >= any * (100 - steps_opt.tol);
}

static int
dominant_class(const int64_t *cnt)
{
	int k, best = 0;

	for (k = 1; k < KC_N; k++)
		if (cnt[k] > cnt[best])
			best = k;
	return best;
}

/* The group a closing step joins: the first whose representative fits. */
static size_t
join_group(struct run *r, int64_t nkern, int64_t service)
{
	int dom = dominant_class(r->cnt);
	struct grp *g;
	size_t i;

	for (i = 0; i < r->ngrp; i++) {
		g = &r->grp[i];
		if (g->dom == dom && near(nkern, g->nkern) &&
		    same_names(r->bits, g->bits))
			break;
	}
	if (i == r->ngrp) {
		r->grp = xreallocarray(r->grp, r->ngrp + 1, sizeof(*r->grp));
		g = &r->grp[r->ngrp++];
		memset(g, 0, sizeof(*g));
		memcpy(g->bits, r->bits, sizeof(g->bits));
		g->nkern = nkern;
		g->dom = dom;
	}
	r->grp[i].nsteps++;
	r->grp[i].service += service;
	return i;
}

/* ---- opening and closing windows ---- */

static void
open_window(struct sdev *d, size_t j)
{
	struct run *r = d->run;
	struct swin *w = &d->win[j];
	int m;

	r->cur = w;
	r->numlen = (size_t)snprintf(r->num, sizeof(r->num), "%" PRId64,
	    w->num);
	r->wrec = stage_new(st, "window", w->s);
	for (m = 0; m < M_N; m++)
		r->mrec[m] = stage_new(st, "metric", w->s);
	memset(r->cnt, 0, sizeof(r->cnt));
	memset(r->bits, 0, sizeof(r->bits));
	r->dursum = r->waitsum = r->mismatch = 0;
	r->nstreams = 0;
}

/* The fields every record of a step shares. */
static void
set_common(struct sdev *d, struct srec *rec, const char *group)
{
	const struct steps_cols *cols = stage_columns(st);
	struct run *r = d->run;

	srec_set(rec, COL_DEV, d->key, d->keylen);
	srec_set(rec, cols->step, r->num, r->numlen);
	srec_set_str(rec, cols->group, group);
}

static void
tags_text(const struct run *r, char *buf, size_t sz)
{
	static const struct { int bit; const char *name; } tag[] = {
		{ WT_CUT_START, "cut_start" }, { WT_CUT_END, "cut_end" },
		{ WT_DETECTED, "detected" }, { WT_CONFIRMED, "confirmed" },
		{ WT_LAUNCH, "launch_aligned" }, { WT_PASS, "pass" },
		{ WT_DEVMISMATCH, "device_marker_mismatch" },
		{ WT_FORCED, "forced" }, { WT_HOSTLOOP, "host_loop" },
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(tag) / sizeof(tag[0]); i++)
		if (r->cur->tags & tag[i].bit)
			stage_tag_add(buf, sz, tag[i].name);
	if (r->mismatch > 0)
		stage_tag_add(buf, sz, "step_id_mismatch");
}

static void
put_metrics(struct sdev *d, const char *group)
{
	const struct steps_cols *cols = stage_columns(st);
	struct run *r = d->run;
	int64_t v[M_N];
	int m;

	v[M_KERNEL_COUNT] = r->cnt[KC_AI_CORE] + r->cnt[KC_AI_CPU] +
	    r->cnt[KC_HCCL] + r->cnt[KC_OTHER];
	v[M_AI_CORE] = r->cnt[KC_AI_CORE];
	v[M_AI_CPU] = r->cnt[KC_AI_CPU];
	v[M_HCCL] = r->cnt[KC_HCCL];
	v[M_DUR_SUM] = r->dursum;
	v[M_WAIT_SUM] = r->waitsum;
	v[M_STREAMS] = (int64_t)r->nstreams;
	v[M_MISMATCH] = r->mismatch;
	for (m = 0; m < M_N; m++) {
		if (m == M_MISMATCH && r->mismatch == 0) {
			stage_drop(st, r->mrec[m]);
			continue;
		}
		set_common(d, r->mrec[m], group);
		srec_set_str(r->mrec[m], COL_NAME, metric_name[m]);
		srec_set_i64(r->mrec[m], cols->value, v[m]);
		stage_put(st, r->mrec[m]);
	}
}

static void
close_window(struct sdev *d)
{
	const struct steps_cols *cols = stage_columns(st);
	struct run *r = d->run;
	struct swin *w = r->cur;
	int64_t nkern = r->cnt[KC_AI_CORE] + r->cnt[KC_AI_CPU] +
	    r->cnt[KC_HCCL] + r->cnt[KC_OTHER];
	char group[24], tags[192], name[40];

	snprintf(group, sizeof(group), "g%zu", join_group(r, nkern,
	    w->e - w->s));
	set_common(d, r->wrec, group);
	srec_set_i64(r->wrec, COL_DUR, w->e - w->s);
	if (w->name == NULL)
		snprintf(name, sizeof(name), "step %s", r->num);
	srec_set_str(r->wrec, COL_NAME, w->name != NULL ? w->name : name);
	srec_set_str(r->wrec, cols->cat, src_name[d->src]);
	tags_text(r, tags, sizeof(tags));
	srec_set_str(r->wrec, cols->tags, tags);
	stage_put(st, r->wrec);
	put_metrics(d, group);
	r->cur = NULL;
}

/* Open and close the windows of every device up to time TS. */
static void
advance(int64_t ts)
{
	while (evpos < nev && ev[evpos].at <= ts) {
		struct event *e = &ev[evpos++];
		struct run *r = e->dev->run;

		if (r->cur != NULL)
			close_window(e->dev);
		if (e->win != SIZE_MAX)
			open_window(e->dev, e->win);
	}
}

/* ---- the records of a step ---- */

/*
 * NAME (a C string) holds "nccl" in any case: strcasestr() without its
 * two-way set-up, which cost more than the rest of the record.  The C
 * locale's case folding, as strcasestr() does it here: ASCII only.
 */
static int
has_nccl(const char *s)
{
	for (; *s != '\0'; s++)
		if ((*s | 0x20) == 'n' && (s[1] | 0x20) == 'c' &&
		    (s[2] | 0x20) == 'c' && (s[3] | 0x20) == 'l')
			return 1;
	return 0;
}

/*
 * Whether a kernel name (LEN bytes, hash H) marks communication: an hcom
 * prefix or nccl anywhere.  Remembered per name, a few hundred of which
 * repeat through a capture: the search costs more than the rest of the
 * record.  The name itself is compared, so a hash collision costs a
 * search, never a wrong answer.
 */
#define NAME_MEMO	512
struct name_memo {
	char	*name;
	size_t	 len;
	int	 comm;
};
static struct name_memo name_memo[NAME_MEMO];

static int
name_is_comm(const char *name, size_t len, uint64_t h)
{
	struct name_memo *m = &name_memo[h % NAME_MEMO];

	if (m->name != NULL && m->len == len &&
	    memcmp(m->name, name, len) == 0)
		return m->comm;
	free(m->name);
	m->name = xstrndup(name, len);
	m->len = len;
	m->comm = (len >= 4 && (name[0] | 0x20) == 'h' &&
	    (name[1] | 0x20) == 'c' && (name[2] | 0x20) == 'o' &&
	    (name[3] | 0x20) == 'm') || has_nccl(m->name);
	return m->comm;
}

static void
name_memo_free(void)
{
	size_t i;

	for (i = 0; i < NAME_MEMO; i++)
		free(name_memo[i].name);
}

/* The class of the current kernel, whose name is NAME (LEN bytes, hash H). */
static int
kernel_class(const char *name, size_t nlen, uint64_t h)
{
	const struct steps_cols *cols = stage_columns(st);
	size_t len;
	const char *core = stage_get(st, cols->core, &len);

	if (len == 6 && memcmp(core, "AI_CPU", 6) == 0)
		return KC_AI_CPU;
	if ((len == 4 && memcmp(core, "HCCL", 4) == 0) || (len == 13 &&
	    memcmp(core, "COMMUNICATION", 13) == 0) ||
	    name_is_comm(name, nlen, h))
		return KC_HCCL;
	if ((len == 7 && memcmp(core, "AI_CORE", 7) == 0) ||
	    (len == 14 && memcmp(core, "AI_VECTOR_CORE", 14) == 0) ||
	    (len == 7 && (memcmp(core, "MIX_AIC", 7) == 0 ||
	    memcmp(core, "MIX_AIV", 7) == 0)))
		return KC_AI_CORE;
	return KC_OTHER;
}

static void
add_stream(struct run *r)
{
	size_t len, i;
	const char *t = stage_get(st, COL_TRACK, &len);
	uint64_t h = hash_bytes(t, len, 0);

	for (i = 0; i < r->nstreams; i++)
		if (r->streams[i] == h)
			return;
	if (r->nstreams == r->streamcap) {
		r->streamcap = r->streamcap ? 2 * r->streamcap : 16;
		r->streams = xreallocarray(r->streams, r->streamcap,
		    sizeof(*r->streams));
	}
	r->streams[r->nstreams++] = h;
}

static void
count_kernel(struct run *r)
{
	const struct steps_cols *cols = stage_columns(st);
	size_t len;
	const char *name = stage_get(st, COL_NAME, &len);
	uint64_t h = hash_bytes(name, len, 0);
	int64_t dur = stage_dur(st);
	int absent;

	r->cnt[kernel_class(name, len, h)]++;
	r->bits[(h % SIGBITS) / 64] |= 1ULL << (h % 64);
	r->dursum = num_sat_add(r->dursum, dur > 0 ? dur : 0);
	if (cols->wait >= 0)
		r->waitsum = num_sat_add(r->waitsum, stage_i64(st, cols->wait,
		    &absent));
	add_stream(r);
}

/*
 * Every kernel's busy time, and that of the kernels outside every window
 * of a device that has windows: they are counted and reported, never
 * dropped silently.
 */
static void
count_busy(struct sdev *d, int outside)
{
	int64_t ts = stage_ts(st), dur = stage_dur(st);
	int64_t end = ts + (dur > 0 ? dur : 0);

	ival_run_add(&d->all_busy, ts, end);
	if (outside && d->nwin > 0) {
		d->out_kern++;
		ival_run_add(&d->out_busy, ts, end);
	}
}

/* Set the step of the current record: its window's, or none. */
static void
assign(void)
{
	const struct steps_cols *cols = stage_columns(st);
	size_t dlen, slen;
	const char *dev = stage_get(st, COL_DEV, &dlen);
	const char *step = stage_get(st, cols->step, &slen);
	struct sdev *d = steps_dev(dev, dlen);
	struct run *r = d != NULL ? d->run : NULL;
	int kernel = stage_is(st, "kernel");

	if (kernel && d != NULL)
		count_busy(d, r == NULL || r->cur == NULL);
	if (r == NULL || r->cur == NULL) {
		if (slen > 0)
			stage_set(st, cols->step, "", 0);
		return;
	}
	if (slen != r->numlen || memcmp(step, r->num, slen) != 0) {
		if (kernel && slen > 0)
			r->mismatch++;
		stage_set(st, cols->step, r->num, r->numlen);
	}
	if (kernel)
		count_kernel(r);
}

/* ---- summary ---- */

static const char *const level_name[PL_N] = { "step", "pass", "layer" };

static void
put_metric(struct sdev *d, int64_t end, const char *name, int64_t v,
    const char *tags)
{
	const struct steps_cols *cols = stage_columns(st);
	struct srec *m = stage_new(st, "metric", end);

	srec_set(m, COL_DEV, d->key, d->keylen);
	srec_set_str(m, COL_NAME, name);
	srec_set_i64(m, cols->value, v);
	srec_set_str(m, cols->tags, tags);
	stage_put(st, m);
}

/* The periods detection placed, coarsest first, with their evidence. */
static void
put_periods(struct sdev *d, int64_t end)
{
	const struct steps_cols *cols = stage_columns(st);
	static const struct { int bit; const char *name; } evtag[] = {
		{ PE_KERNELS, "detected" }, { PE_OPTIMIZER, "optimizer" },
		{ PE_BRACKETED, "bracketed" }, { PE_PASSES, "passes" },
		{ PE_FORCED, "forced" }, { PE_HOSTLOOP, "host_loop" },
	};
	char tags[96], val[NUM_BUFSIZE];
	size_t i;
	int lv;

	for (lv = 0; lv < PL_N; lv++) {
		const struct speriod *p = &d->per[lv];
		struct srec *m;

		if (p->count == 0)
			continue;
		snprintf(tags, sizeof(tags), "%s", level_name[lv]);
		for (i = 0; i < sizeof(evtag) / sizeof(evtag[0]); i++)
			if (p->ev & evtag[i].bit)
				stage_tag_add(tags, sizeof(tags), evtag[i].name);
		put_metric(d, end, "period_count", p->count, tags);
		put_metric(d, end, "period_kernels", p->kernels, tags);
		put_metric(d, end, "period_ns", p->dur, tags);
		m = stage_new(st, "metric", end);
		srec_set(m, COL_DEV, d->key, d->keylen);
		srec_set_str(m, COL_NAME, "period_confidence");
		srec_set(m, cols->value, val, num_ratio(val, p->conf_num,
		    p->conf_den, 6));
		srec_set_str(m, cols->tags, tags);
		stage_put(st, m);
	}
}

/* "12.345" for 12.345 ms, rounded: a message, not a value written. */
static const char *
ms_text(char *buf, size_t sz, int64_t ns)
{
	int64_t t = num_sat_add(ns, 500) / 1000;

	snprintf(buf, sz, "%" PRId64 ".%03" PRId64, t / 1000, t % 1000);
	return buf;
}

static void
put_outside(struct sdev *d, int64_t end, const char *path)
{
	char a[32], b[32];

	if (d->out_kern == 0)
		return;
	put_metric(d, end, "kernels_outside_steps", d->out_kern, "");
	put_metric(d, end, "busy_outside_steps_ns", d->out_busy.total, "");
	if (!steps_opt.quiet)
		diag_at(path, 0, "dev '%s': %" PRId64 " of %" PRId64 " kernels "
		    "start outside every step (%s of %s ms busy)", d->key,
		    d->out_kern, d->nkern, ms_text(a, sizeof(a),
		    d->out_busy.total), ms_text(b, sizeof(b), d->all_busy.total));
}

static void
put_summary(struct sdev *d, int64_t end, const char *path)
{
	const struct steps_cols *cols = stage_columns(st);
	struct run *r = d->run;
	size_t i, dom = 0;
	char name[24], val[NUM_BUFSIZE];

	for (i = 1; i < r->ngrp; i++)
		if (r->grp[i].service > r->grp[dom].service)
			dom = i;
	for (i = 0; i < r->ngrp; i++) {
		struct srec *g = stage_new(st, "group", end);

		snprintf(name, sizeof(name), "g%zu", i);
		srec_set(g, COL_DEV, d->key, d->keylen);
		srec_set_str(g, COL_NAME, name);
		srec_set_str(g, cols->group, name);
		srec_set_i64(g, cols->value, r->grp[i].nsteps);
		if (i == dom)
			srec_set_str(g, cols->tags, "dominant");
		stage_put(st, g);
	}
	if (d->detect_ran) {
		struct srec *m = stage_new(st, "metric", end);

		srec_set(m, COL_DEV, d->key, d->keylen);
		srec_set_str(m, COL_NAME, "step_detect_confidence");
		srec_set(m, cols->value, val, num_ratio(val, d->conf_num,
		    d->conf_den, 6));
		if (d->src == SRC_DETECTED)
			srec_set_str(m, cols->tags, "detected");
		else if (d->win_tags & WT_HOSTLOOP)
			srec_set_str(m, cols->tags, "host_loop");
		stage_put(st, m);
	}
	put_periods(d, end);
	put_outside(d, end, path);
}

/* The summary metrics prof-steps writes. */
static const char *const summary_name[] = {
	"step_detect_confidence", "period_count", "period_kernels",
	"period_ns", "period_confidence", "kernels_outside_steps",
	"busy_outside_steps_ns"
};

/*
 * A record an earlier prof-steps wrote: it is made again from this
 * input, so the old one is dropped and running twice changes nothing.
 */
static int
ours(void)
{
	const struct steps_cols *cols = stage_columns(st);
	size_t len, i, klen;
	const char *name, *kind = stage_get(st, COL_KIND, &klen);

	/* one look at the kind, not a stage_is() per kind: per record */
	if ((klen == 6 && memcmp(kind, "window", 6) == 0) ||
	    (klen == 5 && memcmp(kind, "group", 5) == 0))
		return 1;
	if (klen != 6 || memcmp(kind, "metric", 6) != 0)
		return 0;
	name = stage_get(st, COL_NAME, &len);
	for (i = 0; i < sizeof(summary_name) / sizeof(summary_name[0]); i++)
		if (strcmp(name, summary_name[i]) == 0)
			return 1;
	if (stage_absent(st, cols->group))
		return 0;
	for (i = 0; i < M_N; i++)
		if (strcmp(name, metric_name[i]) == 0)
			return 1;
	return 0;
}

static void
run(const char *path, int argc, char **argv)
{
	struct steps_cols c;
	struct sdev **devs;
	struct tsvr *in;
	size_t ndevs, i;
	int64_t ts;

	if ((in = tsvr_open_twice(path, steps_opt.tmpdir)) == NULL)
		exit(EXIT_BAD);
	devs = steps_scan(in, &ndevs);
	make_events(devs, ndevs);
	tsvr_rewind(in);
	st = stage_open_input(in, argc, argv, columns, sizeof(columns) /
	    sizeof(columns[0]), &c);
	while (stage_next(st)) {
		if ((ts = stage_ts(st)) != STAGE_NO_TS)
			advance(ts);
		if (ours())
			continue;
		if (ts != STAGE_NO_TS)
			assign();
		stage_pass(st);
	}
	advance(INT64_MAX);
	for (i = 0; i < ndevs; i++)
		put_summary(devs[i], stage_end_ts(st), path);
	stage_close(st);
	name_memo_free();
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "host-windows", no_argument,		NULL, 'H' },
		{ "marker",	required_argument,	NULL, 'm' },
		{ "no-detect",	no_argument,		NULL, 'd' },
		{ "period",	required_argument,	NULL, 'p' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "step-kernel", required_argument,	NULL, 'k' },
		{ "tmpdir",	required_argument,	NULL, 'T' },
		{ "tolerance",	required_argument,	NULL, 't' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	static const char *const defpat[] = {
		"ProfilerStep#*", "Iteration#*", "Step#*"
	};
	const char *tol = NULL, *period = NULL;
	int c;

	cli_init("prof-steps");
	steps_opt.detect = 1;
	while ((c = getopt_long(argc, argv, "dHhk:m:p:qt:T:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd':
			steps_opt.detect = 0;
			break;
		case 'h':
			usage();
			break;
		case 'H':
			steps_opt.host_windows = 1;
			break;
		case 'k':
			steps_opt.step_kernel = optarg;
			break;
		case 'p':
			period = optarg;
			break;
		case 'q':
			steps_opt.quiet = 1;
			break;
		case 'm':
			if (steps_opt.npat == STEPS_MAXPAT)
				cli_usage_error("option '--marker': more than "
				    "%d patterns", STEPS_MAXPAT);
			steps_opt.pat[steps_opt.npat++] = optarg;
			steps_opt.custom_pat = 1;
			break;
		case 't':
			tol = optarg;
			break;
		case 'T':
			steps_opt.tmpdir = optarg;
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	steps_opt.tol = tol != NULL ? (int)cli_parse_i64(tol, "--tolerance",
	    0, 100) : 10;
	if (period != NULL)
		steps_opt.period = cli_parse_i64(period, "--period", 4,
		    1000000000);
	for (c = 0; steps_opt.npat == 0 && c < 3; c++)
		steps_opt.pat[c] = defpat[c];
	if (!steps_opt.custom_pat)
		steps_opt.npat = 3;
	if (steps_opt.tmpdir == NULL &&
	    (steps_opt.tmpdir = getenv("TMPDIR")) == NULL)
		steps_opt.tmpdir = "/tmp";
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	run(optind < argc ? argv[optind] : "-", argc, argv);
	return EXIT_OK;
}
