/*
 * The sums of prof-roofline: per op group, per (dev, step) and per dev
 * for the run, and per simulator core and pipe; then the summary roof,
 * bottleneck and metric records written at the end of the stream.
 *
 * Memory: one entry per group, step and core; nothing per kernel.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "ival.h"
#include "num.h"
#include "roofline.h"
#include "stage.h"
#include "strtab.h"
#include "xalloc.h"

/* Sums over kernels: a group, a step or a run. */
struct rf_acc {
	char		*dev, *key;	/* key: group name or step */
	size_t		 devlen, keylen;
	int		 is_step;	/* a (dev, step) or run entry */
	uint64_t	 calls, est, tiny;
	/*
	 * Sums of durations in 128 bits: kernels overlap on streams (and
	 * devices under --all-devs), so a sum of int64 durations need not
	 * be one.  The busy union and spans lie within the capture, whose
	 * span is an int64 (tsvr_times()).
	 */
	__int128	 dur;		/* all its kernels but comm */
	__int128	 roof_dur;	/* kernels with both roofs */
	__int128	 flops, bytes;	/* of the rooflined kernels */
	__int128	 flop_ps, byte_ps, roof_ps;
	__int128	 by_bound[B_NBOUND];
	int		 dt;		/* -2: mixed */
	/* steps and runs */
	int64_t		 first, last_end;
	struct ival_run	 kern;		/* the kernel union so far */
	int64_t		 win_ts, win_dur;
	int		 has_win;
	__int128	 comm_k, comm_r;	/* comm kernels, comm records */
	__int128	 idle_b, sync_b, comm_b;	/* from bubbles */
	int		 has_bubble;
	__int128	 sync_host;
	uint64_t	 kernels;
};

/* The sums of a kind, found by device, then by is_step and key. */
struct map {
	struct devtab	 devs;		/* struct mdev */
	struct rf_acc	**v;		/* in order of first sight */
	size_t		 n, cap;
};

/* A device's sums: a strtab of struct rf_acc pointers per is_step. */
struct mdev {
	struct strtab	 by[3];
};

static struct map groups, steps;

/* A simulator core: per-pipe busy time. */
struct core {
	char		*dev, *name;
	__int128	 busy[P_NPIPE];
	uint64_t	 instr[P_NPIPE];
	__int128	 sync_ns;
	int64_t		 first, last_end;
	uint64_t	 nsync;
};
static struct core *cores;
static size_t ncores;

static struct rf_acc *
map_get(struct map *m, const char *dev, size_t dl, const char *key,
    size_t kl, int is_step)
{
	struct mdev *d;
	struct rf_acc *a, **at;
	int isnew, k;

	d = devtab_get(&m->devs, dev, dl, &isnew);
	if (isnew)
		for (k = 0; k < 3; k++)
			strtab_init(&d->by[k], sizeof(struct rf_acc *));
	at = strtab_val(&d->by[is_step], strtab_intern(&d->by[is_step], key,
	    kl, &isnew));
	if (!isnew)
		return *at;
	a = *at = xcalloc(1, sizeof(*a));
	a->dev = xstrndup(dev, dl);
	a->key = xstrndup(key, kl);
	a->devlen = dl;
	a->keylen = kl;
	a->is_step = is_step;
	a->dt = DT_NONE;
	a->first = INT64_MAX;
	a->last_end = a->kern.end = INT64_MIN;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = xreallocarray(m->v, m->cap, sizeof(*m->v));
	}
	m->v[m->n++] = a;
	return a;
}

/* Add K's roofline figures to A. */
static void
acc_add(struct rf_acc *a, const struct rf_kern *k, int64_t tiny_ns)
{
	int64_t end = k->ts + k->dur;

	if (a->is_step) {
		a->kernels++;
		if (k->ts < a->first)
			a->first = k->ts;
		ival_run_add(&a->kern, k->ts, end);
		if (end > a->last_end)
			a->last_end = end;
		if (k->comm) {
			a->comm_k += k->dur;
			return;
		}
	}
	a->calls++;
	a->dur += k->dur;
	if (k->dur < tiny_ns)
		a->tiny++;
	if (k->est)
		a->est++;
	a->by_bound[k->bound] += k->dur;
	/*
	 * A CUDA copy runs on a copy engine, beside the kernels: its time
	 * is no part of a step's or run's MFU (an XLA copy-done, in the
	 * op stream, is, as the TPU tools count it).
	 */
	if (k->flop_ps < 0 || k->byte_ps < 0 || (k->copy && a->is_step))
		return;
	a->roof_dur += k->dur;
	a->flops += k->flops;
	a->bytes += k->bytes;
	a->flop_ps += k->flop_ps;
	a->byte_ps += k->byte_ps;
	a->roof_ps += k->flop_ps > k->byte_ps ? k->flop_ps : k->byte_ps;
	a->dt = a->dt == DT_NONE || a->dt == k->dt ? k->dt : -2;
}

static int64_t tiny_ns_opt = 10000;
static int all_devs;

/* Whether A is the entry of DEV and KEY: the last one used, mostly. */
static int
acc_is(const struct rf_acc *a, const char *dev, size_t dl, const char *key,
    size_t kl)
{
	return a != NULL && a->devlen == dl && a->keylen == kl &&
	    memcmp(a->dev, dev, dl) == 0 && memcmp(a->key, key, kl) == 0;
}

void
rf_sum_kernel(const struct rf_kern *k)
{
	static struct rf_acc *lgroup, *lstep, *lrun;
	const char *dev = all_devs ? "" : k->dev;
	size_t dl = all_devs ? 0 : k->devlen;
	/* kernels of different ops alternate: the op keeps its group */
	struct rf_acc **g = k->group != NULL ? k->group : &lgroup;

	if (!k->comm) {
		if (!acc_is(*g, dev, dl, k->key, k->keylen))
			*g = map_get(&groups, dev, dl, k->key, k->keylen, 0);
		acc_add(*g, k, tiny_ns_opt);
	}
	/*
	 * Steps and runs change rarely: skip the hash for the last one.
	 * The run is the same sums under the step key "" of kind 2: the
	 * last one's while the step, and so the device, is.
	 */
	if (!acc_is(lstep, k->dev, k->devlen, k->step, k->steplen)) {
		lstep = map_get(&steps, k->dev, k->devlen, k->step, k->steplen,
		    1);
		if (!acc_is(lrun, k->dev, k->devlen, "", 0))
			lrun = map_get(&steps, k->dev, k->devlen, "", 0, 2);
	}
	acc_add(lstep, k, tiny_ns_opt);
	acc_add(lrun, k, tiny_ns_opt);
}

/* As in rf_sum_kernel, the last entry is tried before the hash. */
static struct rf_acc *
step_of(const char *dev, const char *step)
{
	static struct rf_acc *last;
	size_t dl = strlen(dev), sl = strlen(step);

	if (!acc_is(last, dev, dl, step, sl))
		last = map_get(&steps, dev, dl, step, sl, 1);
	return last;
}

static struct rf_acc *
run_of(const char *dev)
{
	static struct rf_acc *last;
	size_t dl = strlen(dev);

	if (!acc_is(last, dev, dl, "", 0))
		last = map_get(&steps, dev, dl, "", 0, 2);
	return last;
}

/* The run's span covers its windows and bubbles, not only kernels. */
static void
run_extend(struct rf_acc *r, int64_t ts, int64_t dur)
{
	if (ts < r->first)
		r->first = ts;
	if (ts + dur > r->last_end)
		r->last_end = ts + dur;
}

void
rf_sum_window(const char *dev, const char *step, int64_t ts, int64_t dur)
{
	struct rf_acc *a = step_of(dev, step);

	a->has_win = 1;
	a->win_ts = ts;
	a->win_dur = dur;
	run_extend(run_of(dev), ts, dur);
}

/* Idle time of a bubble, split by prof-attrib's labels when present. */
void
rf_sum_bubble(const char *dev, const char *step, int64_t ts, int64_t dur,
    const char *labels)
{
	struct rf_acc *a[2] = { step_of(dev, step), run_of(dev) };
	int i, sync = strstr(labels, "sync") != NULL,
	    comm = !sync && strstr(labels, "comm") != NULL;

	run_extend(a[1], ts, dur);
	for (i = 0; i < 2; i++) {
		a[i]->has_bubble = 1;
		a[i]->idle_b += dur;
		if (sync)
			a[i]->sync_b += dur;
		else if (comm)
			a[i]->comm_b += dur;
	}
}

void
rf_sum_sync(const char *dev, const char *step, int64_t dur)
{
	step_of(dev, step)->sync_host += dur;
	run_of(dev)->sync_host += dur;
}

void
rf_sum_comm(const char *dev, const char *step, int64_t dur)
{
	step_of(dev, step)->comm_r += dur;
	run_of(dev)->comm_r += dur;
}

void
rf_sum_pipe(const char *dev, const char *core, int pipe, int64_t ts,
    int64_t dur, int sync)
{
	struct core *c = NULL;
	size_t i;

	for (i = ncores; i-- > 0; )
		if (strcmp(cores[i].name, core) == 0 &&
		    strcmp(cores[i].dev, dev) == 0) {
			c = &cores[i];
			break;
		}
	if (c == NULL) {
		cores = xreallocarray(cores, ncores + 1, sizeof(*cores));
		c = &cores[ncores++];
		memset(c, 0, sizeof(*c));
		c->dev = xstrdup(dev);
		c->name = xstrdup(core);
		c->first = ts;
		c->last_end = INT64_MIN;
	}
	if (ts + dur > c->last_end)
		c->last_end = ts + dur;
	if (sync) {
		c->sync_ns += dur;
		c->nsync++;
	} else if (pipe != P_NONE) {
		c->busy[pipe] += dur;
		c->instr[pipe]++;
	}
}

/* ---- writing ---- */

static struct stage *st;
static const struct rf_opts *opt;
static const struct rf_peaks *pk;
static int64_t at;

/* A ratio of sums that cannot be negative: a negative one stays empty. */
static void
set_ratio(struct srec *r, int col, __int128 num, __int128 den)
{
	if (num >= 0)
		srec_set_ratio(r, col, num, den);
}

/* The decimal text of V at BUF (NUM_BUFSIZE bytes). */
static const char *
i128_text(char *buf, __int128 v)
{
	num_ratio_i128(buf, v, 1, 0);
	return buf;
}

/*
 * Integer column COL (named NAME) of record R, of DEV and WHAT, when V
 * is an int64 as prof-tsv(5) wants; else it stays empty and the stage
 * fails at its end, the rest written.
 */
static void
set_i128(struct srec *r, int col, const char *name, const char *dev,
    const char *what, __int128 v)
{
	char buf[NUM_BUFSIZE];

	if (v >= INT64_MIN && v <= INT64_MAX) {
		srec_set_i64(r, col, (int64_t)v);
		return;
	}
	stage_error(st, "%s of dev '%s': %s of %s is past 64 bits: left "
	    "empty", what, dev, name, i128_text(buf, v));
}

/* ps to the nearest ns. */
static __int128
ps_ns(__int128 ps)
{
	return (ps + 500) / 1000;
}

/* The roofline columns of a group, step or run. */
static void
put_roof(struct srec *r, const struct rf_acc *a)
{
	const struct rf_cols *cols = stage_columns(st);
	char tags[128] = "", what[160];
	__int128 roof_ns;

	if (a->is_step == 2)
		snprintf(what, sizeof(what), "the run");
	else
		snprintf(what, sizeof(what), "%s '%.*s'", a->is_step == 0 ?
		    "op" : "step", (int)(a->keylen > 120 ? 120 : a->keylen),
		    a->key);
	srec_set_i64(r, cols->calls, (int64_t)a->calls);
	/* the run's chip, which prof-verdict names beside its MFU */
	if (a->is_step == 2 && pk->name[0] != '\0')
		srec_set_str(r, cols->chip, pk->name);
	set_i128(r, cols->durt, "dur_total_ns", a->dev, what, a->dur);
	set_ratio(r, cols->cov, a->roof_dur, a->dur);
	if (a->dt >= 0)
		srec_set_str(r, cols->dtype, rf_dtype_name(a->dt));
	else if (a->dt == -2)
		srec_set_str(r, cols->dtype, "mixed");
	if (a->est > 0)
		stage_tag_add(tags, sizeof(tags), "estimated");
	if (a->roof_dur == 0 || a->roof_dur < 0) {
		stage_tag_add(tags, sizeof(tags), "no_roofline");
		if (a->by_bound[B_COMPUTE] + a->by_bound[B_MEMORY] +
		    a->by_bound[B_LATENCY] > 0) {
			int b = B_COMPUTE, i;

			for (i = B_MEMORY; i < B_NBOUND; i++)
				if (a->by_bound[i] > a->by_bound[b])
					b = i;
			srec_set_str(r, cols->bound, rf_bound_name(b));
			stage_tag_add(tags, sizeof(tags), "bound_by_pmu");
		}
		srec_set_str(r, cols->tags, tags);
		return;
	}
	set_i128(r, cols->flops, "flops", a->dev, what, a->flops);
	set_i128(r, cols->bytes, "bytes", a->dev, what, a->bytes);
	set_ratio(r, cols->ai, a->flops, a->bytes);
	roof_ns = ps_ns(a->roof_ps);
	set_i128(r, cols->roof, "roofline_ns", a->dev, what, roof_ns);
	set_i128(r, cols->shortfall, "shortfall_ns", a->dev, what, a->roof_dur -
	    roof_ns);
	/*
	 * A run or step whose kernels with both roofs have no FLOPs at all
	 * (only copies and memsets) has no MFU to speak of: an MFU of 0
	 * over its copies would read as an idle device.
	 */
	if (a->flops > 0 || a->is_step == 0)
		set_ratio(r, cols->mfu, a->flop_ps, (__int128)a->roof_dur *
		    1000);
	else
		stage_tag_add(tags, sizeof(tags), "no_flops");
	set_ratio(r, cols->bw, a->byte_ps, (__int128)a->roof_dur * 1000);
	if (a->dt >= 0 && a->dt < DT_NPEAK && pk->bw > 0 &&
	    pk->flops[a->dt] > 0)
		set_ratio(r, cols->ridge, pk->flops[a->dt], pk->bw);
	if (a->roof_ps * 100 < (__int128)opt->latency_pct * a->roof_dur * 1000)
		srec_set_str(r, cols->bound, "latency");
	else
		srec_set_str(r, cols->bound, a->flop_ps >= a->byte_ps ?
		    "compute" : "memory");
	srec_set_str(r, cols->tags, tags);
}

static int
acc_cmp(const void *x, const void *y)
{
	const struct rf_acc *a = *(struct rf_acc *const *)x;
	const struct rf_acc *b = *(struct rf_acc *const *)y;
	int c = strcmp(a->dev, b->dev);

	if (c != 0)
		return c;
	if (a->is_step != b->is_step)
		return a->is_step - b->is_step;
	if (a->is_step == 0 && a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	/* Step numbers in numeric order: a shorter number is smaller. */
	if (a->is_step && a->keylen != b->keylen &&
	    strspn(a->key, "0123456789") == a->keylen &&
	    strspn(b->key, "0123456789") == b->keylen)
		return a->keylen < b->keylen ? -1 : 1;
	return strcmp(a->key, b->key);
}

static struct rf_acc **
sorted(struct map *m)
{
	struct rf_acc **v = xcalloc(m->n + 1, sizeof(*v));

	if (m->n > 0)
		memcpy(v, m->v, m->n * sizeof(*v));
	qsort(v, m->n, sizeof(*v), acc_cmp);
	return v;
}

static void
write_groups(void)
{
	const struct rf_cols *cols = stage_columns(st);
	struct rf_acc **v = sorted(&groups);
	struct srec *r;
	size_t i;

	for (i = 0; v[i] != NULL; i++) {
		r = stage_new(st, "roof", at);
		srec_set(r, COL_DEV, v[i]->dev, v[i]->devlen);
		srec_set(r, COL_NAME, v[i]->key, v[i]->keylen);
		srec_set_str(r, cols->scope, "op");
		put_roof(r, v[i]);
		stage_put(st, r);
	}
	free(v);
}

/*
 * The bottleneck of a step or run (prof-roofline(1), BOTTLENECK): the
 * largest of the time the kernels spend compute-bound, memory-bound, in
 * communication, the idle and latency-bound time that is launch
 * overhead, the idle time under synchronisation, and kernels that could
 * not be classed.
 */
static void
write_bottleneck(const struct rf_acc *a)
{
	const struct rf_cols *cols = stage_columns(st);
	enum { K_COMPUTE, K_MEMORY, K_COMM, K_LAUNCH, K_SYNC, K_UNKNOWN, K_N };
	static const char *const cls[K_N] = {
		"compute", "memory", "communication", "launch", "sync",
		"unknown"
	};
	__int128 v[K_N], idle, sync, comm;
	int64_t span;
	char ev[768], tags[64] = "", t[8][NUM_BUFSIZE];
	struct srec *r;
	int i, w = 0;

	span = a->has_win ? a->win_dur : a->last_end > a->first ?
	    a->last_end - a->first : 0;
	if (a->has_bubble)
		idle = a->idle_b;
	else
		idle = span > a->kern.total ? span - a->kern.total : 0;
	if (a->has_bubble && a->sync_b + a->comm_b > 0)
		sync = a->sync_b;
	else
		sync = a->sync_host < idle ? a->sync_host : idle;
	comm = a->comm_k > 0 ? a->comm_k : a->comm_r;
	v[K_COMPUTE] = a->by_bound[B_COMPUTE];
	v[K_MEMORY] = a->by_bound[B_MEMORY];
	v[K_COMM] = comm + (a->has_bubble ? a->comm_b : 0);
	v[K_SYNC] = sync;
	v[K_LAUNCH] = idle - sync - (a->has_bubble ? a->comm_b : 0) +
	    a->by_bound[B_LATENCY];
	v[K_UNKNOWN] = a->by_bound[B_UNKNOWN];
	for (i = 1; i < K_N; i++)
		if (v[i] > v[w])
			w = i;
	snprintf(ev, sizeof(ev), "span_ns=%lld,busy_ns=%lld,compute_ns=%s,"
	    "memory_ns=%s,latency_ns=%s,unknown_ns=%s,comm_ns=%s,"
	    "idle_ns=%s,sync_ns=%s,kernels=%llu,tiny_kernels=%llu",
	    (long long)span, (long long)a->kern.total,
	    i128_text(t[0], v[K_COMPUTE]), i128_text(t[1], v[K_MEMORY]),
	    i128_text(t[2], a->by_bound[B_LATENCY]),
	    i128_text(t[3], v[K_UNKNOWN]), i128_text(t[4], v[K_COMM]),
	    i128_text(t[5], idle), i128_text(t[6], sync),
	    (unsigned long long)a->kernels, (unsigned long long)a->tiny);
	r = stage_new(st, "bottleneck", at);
	srec_set(r, COL_DEV, a->dev, a->devlen);
	srec_set_str(r, COL_NAME, cls[w]);
	srec_set_str(r, cols->scope, a->is_step == 1 ? "step" : "run");
	if (a->is_step == 1)
		srec_set(r, cols->step, a->key, a->keylen);
	srec_set_str(r, cols->evid, ev);
	srec_set_i64(r, cols->durt, span);
	set_ratio(r, cols->value, v[w], span);
	if (!a->has_win && a->is_step == 1)
		stage_tag_add(tags, sizeof(tags), "span_from_kernels");
	if (a->has_bubble)
		stage_tag_add(tags, sizeof(tags), "idle_from_bubbles");
	if (w == K_UNKNOWN && pk->name[0] == '\0')
		stage_tag_add(tags, sizeof(tags), "no_peaks");
	srec_set_str(r, cols->tags, tags);
	stage_put(st, r);
}

static void
write_steps(void)
{
	const struct rf_cols *cols = stage_columns(st);
	struct rf_acc **v = sorted(&steps);
	struct srec *r;
	size_t i;

	for (i = 0; v[i] != NULL; i++) {
		/* Records outside every step only count in the run. */
		if (v[i]->is_step == 1 && v[i]->keylen == 0)
			continue;
		r = stage_new(st, "roof", at);
		srec_set(r, COL_DEV, v[i]->dev, v[i]->devlen);
		srec_set_str(r, COL_NAME, v[i]->is_step == 1 ? "step" : "run");
		srec_set_str(r, cols->scope, v[i]->is_step == 1 ? "step" :
		    "run");
		if (v[i]->is_step == 1)
			srec_set(r, cols->step, v[i]->key, v[i]->keylen);
		put_roof(r, v[i]);
		stage_put(st, r);
		if (v[i]->kernels > 0 || v[i]->has_win)
			write_bottleneck(v[i]);
	}
	free(v);
}

/*
 * Simulator cores: the busy time of each pipe and the pipe that bounds
 * the kernel.  A trace whose pipes are busy for less than
 * --degenerate-ns in all, or whose compute pipes never ran, is flagged
 * degenerate: a data-dependent kernel fed zeros looks fast.
 */
static void
write_cores(void)
{
	const struct rf_cols *cols = stage_columns(st);
	struct srec *r;
	size_t i;
	int p, b;
	__int128 total;
	int64_t span;
	char tags[128], what[160], t[NUM_BUFSIZE];

	for (i = 0; i < ncores; i++) {
		struct core *c = &cores[i];

		span = c->last_end - c->first;
		snprintf(what, sizeof(what), "core '%.120s'", c->name);
		for (p = 0, b = P_NONE, total = 0; p < P_NPIPE; p++) {
			total += c->busy[p];
			if (c->instr[p] == 0)
				continue;
			r = stage_new(st, "roof", at);
			srec_set_str(r, COL_DEV, c->dev);
			srec_set_str(r, COL_TRACK, rf_pipe_name(p));
			srec_set_str(r, COL_NAME, c->name);
			srec_set_str(r, cols->scope, "pipe");
			srec_set_i64(r, cols->calls, (int64_t)c->instr[p]);
			set_i128(r, cols->busy, "busy_ns", c->dev, what,
			    c->busy[p]);
			set_ratio(r, cols->value, c->busy[p], span);
			stage_put(st, r);
			if (b == P_NONE || c->busy[p] > c->busy[b])
				b = p;
		}
		tags[0] = '\0';
		if (total < opt->degenerate_ns)
			stage_tag_add(tags, sizeof(tags), "degenerate");
		if (total < opt->degenerate_ns)
			stage_tag_add(tags, sizeof(tags), "near_zero_busy");
		if (c->busy[P_CUBE] + c->busy[P_VECTOR] == 0) {
			if (strstr(tags, "degenerate") == NULL)
				stage_tag_add(tags, sizeof(tags), "degenerate");
			stage_tag_add(tags, sizeof(tags), "no_compute_pipe");
		}
		if (strstr(c->name, "cube") != NULL && c->busy[P_CUBE] == 0)
			stage_tag_add(tags, sizeof(tags), "cube_zero");
		r = stage_new(st, "roof", at);
		srec_set_str(r, COL_DEV, c->dev);
		srec_set_str(r, COL_NAME, c->name);
		srec_set_str(r, cols->scope, "core");
		set_i128(r, cols->busy, "busy_ns", c->dev, what, total);
		srec_set_i64(r, cols->durt, span);
		if (b != P_NONE) {
			srec_set_str(r, cols->pipe, rf_pipe_name(b));
			srec_set_str(r, cols->bound,
			    rf_bound_name(rf_pipe_bound(b)));
			set_ratio(r, cols->pratio, c->busy[b], span);
		}
		{
			char ev[96];

			snprintf(ev, sizeof(ev), "sync_instr=%llu,sync_ns=%s",
			    (unsigned long long)c->nsync,
			    i128_text(t, c->sync_ns));
			srec_set_str(r, cols->evid, ev);
		}
		srec_set_str(r, cols->tags, tags);
		stage_put(st, r);
		free(c->dev);
		free(c->name);
	}
	free(cores);
}

/* Which peaks were used: one metric per dtype, and the bandwidth. */
static void
write_peaks(void)
{
	const struct rf_cols *cols = stage_columns(st);
	struct srec *r;
	int d;

	if (pk->name[0] == '\0' && pk->bw == 0) {
		r = stage_new(st, "metric", at);
		srec_set_str(r, COL_NAME, "peaks_known");
		srec_set_str(r, cols->value, "0");
		if (pk->device[0] != '\0') {
			char ev[80];

			snprintf(ev, sizeof(ev), "device=%s", pk->device);
			srec_set_str(r, cols->evid, ev);
		}
		srec_set_str(r, cols->tags, pk->tag[0] != '\0' ? pk->tag :
		    "no_chip");
		stage_put(st, r);
		return;
	}
	for (d = 0; d < DT_NPEAK; d++) {
		if (pk->flops[d] == 0)
			continue;
		r = stage_new(st, "metric", at);
		srec_set_str(r, COL_NAME, "peak_flops_per_s");
		srec_set_str(r, cols->chip, pk->name);
		srec_set_str(r, cols->dtype, rf_dtype_name(d));
		srec_set_i64(r, cols->value, pk->flops[d]);
		srec_set_str(r, cols->tags, pk->tag);
		stage_put(st, r);
	}
	r = stage_new(st, "metric", at);
	srec_set_str(r, COL_NAME, "peak_hbm_bytes_per_s");
	srec_set_str(r, cols->chip, pk->name);
	if (pk->bw > 0)
		srec_set_i64(r, cols->value, pk->bw);
	srec_set_str(r, cols->tags, pk->tag);
	stage_put(st, r);
}

static void
map_free(struct map *m)
{
	struct mdev *d;
	size_t i;
	int k;

	for (i = 0; i < m->n; i++) {
		free(m->v[i]->dev);
		free(m->v[i]->key);
		free(m->v[i]);
	}
	free(m->v);
	for (i = 0; i < m->devs.n; i++) {
		d = m->devs.v[i].item;
		for (k = 0; k < 3; k++)
			strtab_free(&d->by[k]);
	}
	devtab_free(&m->devs);
}

void
rf_sum_opts(const struct rf_opts *o)
{
	devtab_init(&groups.devs, sizeof(struct mdev));
	devtab_init(&steps.devs, sizeof(struct mdev));
	tiny_ns_opt = o->tiny_ns;
	all_devs = o->all_devs;
}

void
rf_sum_write(struct stage *s, const struct rf_opts *o,
    const struct rf_peaks *p, int64_t end)
{
	st = s;
	opt = o;
	pk = p;
	at = end;
	write_peaks();
	write_groups();
	write_steps();
	write_cores();
	map_free(&groups);
	map_free(&steps);
}
