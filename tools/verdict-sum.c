/*
 * The budget and verdict records of prof-verdict, written at the end of
 * the stream: per device the budget of every step, of every step group
 * and of the run, then the verdict of each group and of the run (the
 * class with the most time, its runner-up, confidence and evidence),
 * and the recommendations (verdict-advice.c).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "stage.h"
#include "verdict.h"
#include "xalloc.h"

const char *const vp_name[VP_N] = {
	"busy_compute", "busy_memory", "busy_latency", "busy_unclassed",
	"comm_hidden", "comm_exposed", "idle_sync", "idle_input",
	"idle_launch", "idle_host", "idle_untraced"
};

const char *const vc_name[VC_N] = {
	"compute", "memory", "launch", "communication", "sync", "input",
	"host", "untraced"
};

static struct stage *st;
static const struct v_opts *opt;
static int64_t at;

/* NS as milliseconds with three decimals, rounded to the microsecond. */
char *
vsum_ms(char *buf, size_t cap, int64_t ns)
{
	/* 128 bits: ns + 500 passes 2^63 - 1 at the top */
	int64_t us = (int64_t)(ns >= 0 ? ((__int128)ns + 500) / 1000 :
	    -((-(__int128)ns + 500) / 1000));

	snprintf(buf, cap, "%s%lld.%03lld ms", us < 0 ? "-" : "",
	    (long long)(us < 0 ? -us : us) / 1000,
	    (long long)(us < 0 ? -us : us) % 1000);
	return buf;
}

/* NUM / DEN as a percentage with one decimal ("66.0%"). */
char *
vsum_pct(char *buf, size_t cap, __int128 num, __int128 den)
{
	char t[NUM_BUFSIZE];

	if (den <= 0 || num < 0) {
		snprintf(buf, cap, "-");
		return buf;
	}
	num_ratio_i128(t, num * 1000, den, 0);	/* tenths of a percent */
	if (strlen(t) < 2)
		snprintf(buf, cap, "0.%s%%", t);
	else
		snprintf(buf, cap, "%.*s.%s%%", (int)strlen(t) - 1, t,
		    t + strlen(t) - 1);
	return buf;
}

/*
 * NS over STEPS, rounded to the nearest ns.  NS sums STEPS int64
 * values of one sign, so the result is one too.
 */
int64_t
vsum_per_step(__int128 ns, int64_t steps)
{
	return (int64_t)(steps > 0 ? (ns + steps / 2) / steps : ns);
}

void
vsum_total(struct srec *r, int col, const char *name, __int128 v)
{
	char buf[NUM_BUFSIZE];
	size_t len;
	const char *dev = srec_get(r, COL_DEV, &len);

	if (v >= INT64_MIN && v <= INT64_MAX) {
		srec_set_i64(r, col, (int64_t)v);
		return;
	}
	num_ratio_i128(buf, v, 1, 0);
	stage_error(st, "%s record of dev '%.*s': %s of %s ns is past 64-bit "
	    "nanoseconds: left empty", srec_get(r, COL_KIND, NULL),
	    (int)len, dev, name, buf);
}

/* The class times of a budget: what each class would explain. */
static void
classes(struct vverdict *v)
{
	const __int128 *p = v->part, *h = v->hid;

	v->cls_ns[VC_COMPUTE] = p[VP_BUSY_COMPUTE] + p[VP_BUSY_UNCLASSED] +
	    h[VP_BUSY_COMPUTE] + h[VP_BUSY_UNCLASSED];
	v->cls_ns[VC_MEMORY] = p[VP_BUSY_MEMORY] + h[VP_BUSY_MEMORY];
	v->cls_ns[VC_LAUNCH] = p[VP_BUSY_LATENCY] + h[VP_BUSY_LATENCY] +
	    p[VP_IDLE_LAUNCH];
	v->cls_ns[VC_COMM] = p[VP_COMM_EXPOSED];
	v->cls_ns[VC_SYNC] = p[VP_IDLE_SYNC];
	v->cls_ns[VC_INPUT] = p[VP_IDLE_INPUT];
	v->cls_ns[VC_HOST] = p[VP_IDLE_HOST];
	v->cls_ns[VC_UNTRACED] = p[VP_IDLE_UNTRACED];
}

/* Sum the steps of D in GROUP (NULL: all) into V. */
static void
gather(const struct vdev *d, const char *group, struct vverdict *v)
{
	const struct vstep *s;
	size_t i;
	int k;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < d->nsteps; i++) {
		s = &d->steps[i];
		if (group != NULL && strcmp(s->group, group) != 0)
			continue;
		for (k = 0; k < VP_N; k++)
			v->part[k] += s->part[k];
		for (k = 0; k <= VP_BUSY_UNCLASSED; k++)
			v->hid[k] += s->hid[k];
		v->window += s->dur;
		v->steps++;
		v->cut |= s->cut;
	}
	classes(v);
}

static const char *
confidence(__int128 share, __int128 margin, __int128 window)
{
	/* share and margin as parts of the window, compared exactly */
	if (2 * share >= window && 5 * margin >= window)
		return "high";
	if (4 * share >= window && 10 * margin >= window)
		return "medium";
	return "low";
}

/* Whether class K is device work (the device computing, well or not). */
#define IS_WORK(k)	((k) == VC_COMPUTE || (k) == VC_MEMORY)

/*
 * Pick the class of V and its runner-up; fill confidence and tags.  The
 * class is the largest loss class (launch, communication, sync, input,
 * host, untraced: time the device waits) when it takes at least --loss
 * of the window, else the largest class: a device that waits a quarter
 * of its time is bounded by what keeps it waiting, however busy it is
 * the rest.  Confidence weighs the class's share and its margin over
 * the next class of its own kind (loss or work).
 */
static void
decide(const struct vdev *d, struct vverdict *v)
{
	int k, w = -1, s = -1, n = -1, loss = -1;

	for (k = 0; k < VC_N; k++)
		if (!IS_WORK(k) && (loss < 0 || v->cls_ns[k] > v->cls_ns[loss]))
			loss = k;
	if (v->cls_ns[loss] * opt->loss.den >= opt->loss.num * v->window &&
	    v->cls_ns[loss] > 0)
		w = loss;
	else
		for (k = 0; k < VC_N; k++)
			if (w < 0 || v->cls_ns[k] > v->cls_ns[w])
				w = k;
	for (k = 0; k < VC_N; k++) {
		if (k == w)
			continue;
		if (s < 0 || v->cls_ns[k] > v->cls_ns[s])
			s = k;
		if (IS_WORK(k) == IS_WORK(w) &&
		    (n < 0 || v->cls_ns[k] > v->cls_ns[n]))
			n = k;
	}
	v->cls = w;
	v->second = s;
	v->confidence = confidence(v->cls_ns[w], v->cls_ns[w] -
	    v->cls_ns[n], v->window);
	v->tags[0] = '\0';
	if ((v->cls_ns[w] - v->cls_ns[n]) * opt->tie.den <
	    opt->tie.num * v->window)
		stage_tag_add(v->tags, sizeof(v->tags), "near_tie");
	if (w == VC_COMPUTE && v->part[VP_BUSY_UNCLASSED] +
	    v->hid[VP_BUSY_UNCLASSED] > v->part[VP_BUSY_COMPUTE] +
	    v->hid[VP_BUSY_COMPUTE]) {
		stage_tag_add(v->tags, sizeof(v->tags), "bound_unknown");
		if (strcmp(v->confidence, "high") == 0)
			v->confidence = "medium";
	}
	/*
	 * Memory-bound time that is mostly copies far below the HBM roof
	 * (to or from host memory: an XLA host offload's copy-done, a
	 * DMA wait) is not fixed by fusing kernels: say so.
	 */
	if (w == VC_MEMORY && d->slow_ns > 0 && d->slow_ns >= d->mem_ns -
	    d->slow_ns)
		stage_tag_add(v->tags, sizeof(v->tags), "slow_transfers");
	if (v->steps == 1)
		stage_tag_add(v->tags, sizeof(v->tags), "single_step");
	if (v->cut)
		stage_tag_add(v->tags, sizeof(v->tags), "boundary_caveat");
	if (!d->roof_run)
		stage_tag_add(v->tags, sizeof(v->tags), "no_roofline");
	else if ((d->mfu == NULL || d->mfu[0] == '\0') && (d->chip == NULL ||
	    d->chip[0] == '\0'))
		stage_tag_add(v->tags, sizeof(v->tags), "no_chip");
	else if (d->mfu == NULL || d->mfu[0] == '\0')
		/* the chip is known: no kernel has a FLOP count */
		stage_tag_add(v->tags, sizeof(v->tags), "no_flops");
	if (d->profiler_split) {
		stage_tag_add(v->tags, sizeof(v->tags), "profiler_split");
		if (strcmp(v->confidence, "high") == 0)
			v->confidence = "medium";
	} else if (d->no_attrib || !d->has_bubbles)
		stage_tag_add(v->tags, sizeof(v->tags), "no_attrib");
}

static int
by_name_ns(const void *a, const void *b, void *arg)
{
	int cls = *(const int *)arg;
	const struct vname *x = *(struct vname *const *)a;
	const struct vname *y = *(struct vname *const *)b;

	if (x->ns[cls] != y->ns[cls])
		return x->ns[cls] > y->ns[cls] ? -1 : 1;
	return strcmp(x->name, y->name);
}

void
vsum_names(char *buf, size_t cap, const struct vdev *d, int cls, int n,
    int64_t steps)
{
	/* STEPS 0: the names alone, without their time */
	struct vname **v;
	size_t i, k = 0, len = 0;
	char ms[64];

	buf[0] = '\0';
	if (n <= 0 || d->names.n == 0)
		return;
	v = xreallocarray(NULL, d->names.n, sizeof(*v));
	for (i = 0; i < d->names.n; i++) {
		struct vname *e = strtab_val(&d->names, i);

		if (e->ns[cls] > 0)
			v[k++] = e;
	}
	qsort_r(v, k, sizeof(*v), by_name_ns, &cls);
	for (i = 0; i < k && i < (size_t)n && len + 1 < cap; i++)
		if (steps == 0)
			len += (size_t)snprintf(buf + len, cap - len, "%s%s",
			    i ? ", " : "", v[i]->name);
		else
			len += (size_t)snprintf(buf + len, cap - len,
			    "%s%s (%s/step)", i ? ", " : "", v[i]->name,
			    vsum_ms(ms, sizeof(ms), vsum_per_step(v[i]->ns[cls],
			    steps)));
	if (len >= cap && cap > 4)
		memcpy(buf + cap - 4, "...", 4);
	free(v);
}

/* The evidence of V: its largest parts and the names behind its class. */
static void
evidence(char *buf, size_t cap, const struct vdev *d, const struct vverdict *v)
{
	int order[VP_N], i, j, t;
	size_t len = 0;
	char ms[64], pct[64], names[1024];

	for (i = 0; i < VP_N; i++)
		order[i] = i;
	for (i = 1; i < VP_N; i++)	/* largest first, stable */
		for (j = i; j > 0 && v->part[order[j]] >
		    v->part[order[j - 1]]; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < 3 && v->part[order[i]] > 0; i++)
		len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0,
		    "%s%s %s/step (%s)", i ? ", " : "", vp_name[order[i]],
		    vsum_ms(ms, sizeof(ms), vsum_per_step(v->part[order[i]],
		    v->steps)), vsum_pct(pct, sizeof(pct), v->part[order[i]],
		    v->window));
	vsum_names(names, sizeof(names), d, v->cls, opt->names, v->steps);
	if (names[0] != '\0' && len < cap)
		snprintf(buf + len, cap - len, "; %s: %s", v->cls == VC_COMM ?
		    "exposed by" : v->cls <= VC_LAUNCH ? "kernels" :
		    "host events", names);
}

static struct srec *
rec(const char *kind, const struct vdev *d, const char *name)
{
	struct srec *r = stage_new(st, kind, at);

	srec_set(r, COL_DEV, d->id, d->idlen);
	srec_set_str(r, COL_NAME, name);
	return r;
}

static void
write_budget(const struct vdev *d, const char *scope, const char *step,
    const char *group, const __int128 *part, __int128 window, int64_t steps)
{
	const struct verdict_cols *cols = stage_columns(st);
	struct srec *r;
	int k;

	for (k = 0; k < VP_N; k++) {
		r = rec("budget", d, vp_name[k]);
		srec_set_str(r, cols->scope, scope);
		if (step != NULL)
			srec_set_str(r, cols->step, step);
		if (group != NULL)
			srec_set_str(r, cols->group, group);
		srec_set_i64(r, cols->steps, steps);
		vsum_total(r, cols->budget, "budget_ns", part[k]);
		srec_set_i64(r, cols->per_step, vsum_per_step(part[k], steps));
		srec_set_ratio(r, cols->share, part[k], window);
		vsum_total(r, cols->window, "window_ns", window);
		stage_put(st, r);
	}
}

/* The budget of one step, its int64 parts widened. */
static void
write_step_budget(const struct vdev *d, const struct vstep *s)
{
	__int128 part[VP_N];
	int k;

	for (k = 0; k < VP_N; k++)
		part[k] = s->part[k];
	write_budget(d, "step", s->step, s->group, part, s->dur, 1);
}

static void
write_verdict(const struct vdev *d, const char *scope, const char *group,
    const struct vverdict *v)
{
	const struct verdict_cols *cols = stage_columns(st);
	struct srec *r;
	char ev[2048];

	if (v->cls == VV_NO_DATA || v->cls == VV_IN_CORE) {
		r = rec("verdict", d, v->cls == VV_NO_DATA ? "no_device_data" :
		    "in_core");
		srec_set_str(r, cols->scope, scope);
		srec_set_str(r, cols->conf, v->confidence);
		srec_set_str(r, cols->tags, v->tags);
		if (v->cls == VV_IN_CORE) {
			srec_set_str(r, cols->pipe, d->pipe ? d->pipe : "");
			srec_set_str(r, cols->share, d->pipe_ratio ?
			    d->pipe_ratio : "");
			srec_set_str(r, cols->window, d->core_span ?
			    d->core_span : "");
			snprintf(ev, sizeof(ev), "op simulator: core busy %s "
			    "ns of %s ns; bounding pipe %s at %s of the span",
			    d->core_busy ? d->core_busy : "-",
			    d->core_span ? d->core_span : "-",
			    d->pipe && *d->pipe ? d->pipe : "unknown",
			    d->pipe_ratio && *d->pipe_ratio ?
			    d->pipe_ratio : "-");
		} else
			snprintf(ev, sizeof(ev), "no device kernels on this "
			    "rank: %llu host records and no device timeline",
			    (unsigned long long)d->nhost);
		srec_set_str(r, cols->evid, ev);
		stage_put(st, r);
		return;
	}
	r = rec("verdict", d, vc_name[v->cls]);
	srec_set_str(r, cols->scope, scope);
	if (group != NULL)
		srec_set_str(r, cols->group, group);
	srec_set_i64(r, cols->steps, v->steps);
	srec_set_ratio(r, cols->share, v->cls_ns[v->cls], v->window);
	srec_set_i64(r, cols->stake, vsum_per_step(v->cls_ns[v->cls],
	    v->steps));
	srec_set_i64(r, cols->window, vsum_per_step(v->window, v->steps));
	srec_set_str(r, cols->conf, v->confidence);
	if (v->second >= 0) {
		srec_set_str(r, cols->second, vc_name[v->second]);
		srec_set_ratio(r, cols->second_r, v->cls_ns[v->second],
		    v->window);
	}
	if (d->mfu != NULL && d->mfu[0] != '\0') {
		srec_set_str(r, cols->mfu, d->mfu);
		srec_set_str(r, cols->mfu_cov, d->mfu_cov);
	}
	if (d->chip != NULL)
		srec_set_str(r, cols->chip, d->chip);
	evidence(ev, sizeof(ev), d, v);
	srec_set_str(r, cols->evid, ev);
	srec_set_str(r, cols->tags, v->tags);
	stage_put(st, r);
}

/*
 * A rank whose class differs from the job's only by a near tie takes the
 * job's class: two ranks of one job with near-identical budgets get one
 * answer.  The job's class is the one with the largest sum of shares
 * over its ranks with device data.
 */
static void
consensus(struct vverdict *v, size_t n)
{
	uint64_t sum[VC_N] = { 0 };
	size_t i, ranks = 0;
	int k, job = 0;

	for (i = 0; i < n; i++)
		if (v[i].cls >= 0 && v[i].window > 0) {
			ranks++;
			for (k = 0; k < VC_N; k++)
				sum[k] += (uint64_t)((__int128)v[i].cls_ns[k] *
				    1000000 / v[i].window);
		}
	if (ranks < 2)
		return;
	for (k = 1; k < VC_N; k++)
		if (sum[k] > sum[job])
			job = k;
	for (i = 0; i < n; i++)
		if (v[i].cls >= 0 && v[i].cls != job &&
		    (v[i].cls_ns[v[i].cls] - v[i].cls_ns[job]) *
		    opt->tie.den < opt->tie.num * v[i].window) {
			v[i].second = v[i].cls;
			v[i].cls = job;
			stage_tag_add(v[i].tags, sizeof(v[i].tags),
			    "job_consensus");
		}
}

/* The verdict of a device without kernels. */
static void
no_kernels(const struct vdev *d, struct vverdict *v)
{
	memset(v, 0, sizeof(*v));
	v->second = -1;
	if (d->npipes > 0 || d->pipe != NULL) {
		v->cls = VV_IN_CORE;
		v->confidence = d->core_tags != NULL &&
		    strstr(d->core_tags, "degenerate") != NULL ? "low" :
		    "medium";
		if (d->core_tags != NULL)
			snprintf(v->tags, sizeof(v->tags), "%s", d->core_tags);
		if (d->core_tags != NULL &&
		    strstr(d->core_tags, "degenerate") != NULL)
			stage_tag_add(v->tags, sizeof(v->tags),
			    "degenerate_trace");
		if (d->pipe == NULL)
			stage_tag_add(v->tags, sizeof(v->tags), "no_roofline");
	} else {
		v->cls = VV_NO_DATA;
		v->confidence = "high";
	}
}

void
vsum_write(struct stage *s, const struct v_opts *o)
{
	size_t i, j, k, n = vs_ndevs();
	struct vverdict *run = xcalloc(n ? n : 1, sizeof(*run)), g;
	struct vdev *d;

	st = s;
	opt = o;
	at = stage_end_ts(st);
	if (at == STAGE_NO_TS)
		at = 0;
	for (i = 0; i < n; i++) {
		d = vs_devn(i);
		if (d->nkernels == 0) {
			no_kernels(d, &run[i]);
			continue;
		}
		gather(d, NULL, &run[i]);
		decide(d, &run[i]);
	}
	consensus(run, n);
	for (i = 0; i < n; i++) {
		d = vs_devn(i);
		if (d->nkernels > 0) {
			for (j = 0; j < d->nsteps; j++)
				write_step_budget(d, &d->steps[j]);
			/* each group once, at its first step */
			for (j = 0; j < d->nsteps; j++) {
				for (k = 0; k < j; k++)
					if (strcmp(d->steps[k].group,
					    d->steps[j].group) == 0)
						break;
				if (k < j)
					continue;
				gather(d, d->steps[j].group, &g);
				decide(d, &g);
				write_budget(d, "group", NULL,
				    d->steps[j].group, g.part, g.window,
				    g.steps);
				write_verdict(d, "group", d->steps[j].group,
				    &g);
			}
			write_budget(d, "run", NULL, NULL, run[i].part,
			    run[i].window, run[i].steps);
		}
		write_verdict(d, "run", NULL, &run[i]);
		vadv_write(st, o, d, &run[i]);
	}
	free(run);
}
