/*
 * The recommendations of prof-verdict: one per budget class that takes
 * at least --floor of the window (and always the verdict's), one per op
 * a prof-waitanchor rule tagged, one per follow-up prof-attrib named,
 * each with the time it puts at stake per step.  The verdict's own
 * class comes first, so that what to do first agrees with what bounds
 * the run (a busy device's compute time can outweigh the input stall
 * that is the verdict, yet it cannot all be removed); the rest are
 * ranked by the time at stake, actions before follow-ups among equals,
 * so that an op-level item outranks a system-level one only when more
 * time rides on it.
 *
 * Priority from the share of the window at stake: P0 from 25 %, P1 from
 * 10 %, P2 from 2 %, P3 below.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "stage.h"
#include "verdict.h"
#include "xalloc.h"

struct item {
	const char	*name, *scope;
	char		*target, *text, *evidence;
	int64_t		 stake;		/* per step */
	__int128	 share_num, share_den;
	int		 followup, prio;
	int		 lead;		/* the verdict's class: first */
};

static struct item *items;
static size_t nitems;

static void
add(const char *name, const char *scope, const char *target, int64_t stake,
    __int128 num, __int128 den, int followup, const char *evidence,
    const char *fmt, const char *arg)
{
	struct item *it;
	char text[1536];
	const char *at = strstr(fmt, "%s");

	/* The tables' texts hold one "%s" for ARG: put it in by hand. */
	if (at == NULL)
		snprintf(text, sizeof(text), "%s", fmt);
	else
		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - fmt), fmt,
		    arg, at + 2);
	items = xreallocarray(items, nitems + 1, sizeof(*items));
	it = &items[nitems++];
	it->name = name;
	it->scope = scope;
	it->target = xstrdup(target);
	it->text = xstrdup(text);
	it->evidence = xstrdup(evidence);
	it->stake = stake;
	it->share_num = num;
	it->share_den = den;
	it->followup = followup;
	it->lead = 0;
	if (den <= 0)
		it->prio = followup ? 1 : 3;
	else if (4 * num >= den)
		it->prio = 0;
	else if (10 * num >= den)
		it->prio = 1;
	else if (50 * num >= den)
		it->prio = 2;
	else
		it->prio = 3;
}

/* What to do about each class (prof-verdict(1), RECOMMENDATIONS). */
static const struct {
	const char *name, *text;
	int followup;
} action[VC_N] = {
	{ "raise_kernel_efficiency", "the device is busy with compute: "
	    "raise the efficiency of its largest kernels (%s): larger or "
	    "fused GEMMs, better tiling, lower precision", 0 },
	{ "cut_memory_traffic", "memory-bound kernels take the time (%s): "
	    "fuse elementwise and normalisation ops, avoid casts, copies and "
	    "layout changes", 0 },
	{ "cut_launch_overhead", "short kernels and the gaps between them: "
	    "the host cannot launch fast enough (%s): fuse small ops, capture "
	    "graphs (CUDA graphs, torch.compile, ACL graph mode), raise the "
	    "work per kernel", 0 },
	{ "hide_communication", "communication runs with no compute to hide "
	    "it (%s): overlap it with compute (bucketed all-reduce during "
	    "backward, asynchronous send/receive), shrink it, and check the "
	    "slowest rank and link", 0 },
	{ "remove_host_sync", "the host waits on the device inside the step "
	    "(%s): take .item(), .cpu() and synchronize calls out of the "
	    "step; copy non_blocking from pinned memory", 0 },
	{ "feed_the_input_pipeline", "the input pipeline stalls the device "
	    "(%s): load in DataLoader workers (num_workers > 0) with "
	    "pin_memory and prefetching, or move preprocessing off the "
	    "training loop", 0 },
	{ "move_host_work", "host work keeps the device idle (%s): move it "
	    "off the step's critical path or overlap it with device work", 0 },
	{ "sample_the_host", "idle time that no traced host event explains "
	    "(%s): sample the host (py-spy, perf) over the same steps to see "
	    "what it did", 1 },
};

static void
from_class(const struct vdev *d, const struct vverdict *v, int k,
    int64_t per_step)
{
	char names[1024], timed[1024], ev[2600], ms[64], win[64], pct[64];
	const char *text = action[k].text;
	int followup;

	/*
	 * The sentence names the ops; their times, which differ from rank
	 * to rank, go to the evidence, so that the same advice of several
	 * ranks reads the same and merges in the reports.
	 */
	vsum_names(names, sizeof(names), d, k, 3, 0);
	vsum_names(timed, sizeof(timed), d, k, 3, v->steps);
	if (names[0] == '\0')
		snprintf(names, sizeof(names), "%s", k == VC_UNTRACED ?
		    "no host event open" : "no names recorded");
	if (k == VC_COMPUTE && strstr(v->tags, "bound_unknown") != NULL)
		text = "the device is busy with kernels whose bound is not "
		    "known (%s): run prof-roofline -c CHIP to tell compute- "
		    "from memory-bound kernels";
	if (k == VC_UNTRACED && d->nhost == 0)
		text = "the idle time has no host trace at all (%s): "
		    "re-profile with host activity (CPU ops) to name it";
	/*
	 * Host events are in the capture but no stage split the idle time
	 * by them: the evidence is there, so this is no follow-up.
	 */
	followup = action[k].followup;
	if (k == VC_UNTRACED && d->nhost > 0 && d->no_attrib) {
		text = "idle time not yet split by host activity (%s): run "
		    "prof-attrib before prof-verdict so that its idle_*_ns "
		    "bubble columns say what the host was doing";
		followup = 0;
	}
	snprintf(ev, sizeof(ev), "%s %s/step of %s (%s)%s%s", vc_name[k],
	    vsum_ms(ms, sizeof(ms), per_step), vsum_ms(win, sizeof(win),
	    vsum_per_step(v->window, v->steps)),
	    vsum_pct(pct, sizeof(pct), v->cls_ns[k], v->window),
	    timed[0] ? ": " : "", timed);
	add(action[k].name, "run", "", per_step, v->cls_ns[k], v->window,
	    followup, ev, text, names);
	items[nitems - 1].lead = k == v->cls;
}

/*
 * The ops one prof-waitanchor rule tagged, as one item naming the three
 * with the most device time.  Its stake is their device time: what an
 * engineer would spend optimising an op whose cost is really waiting
 * (the wait itself is already in the budget, as idle or communication).
 */
static void
from_ops(const struct vdev *d, const struct vverdict *v, const char *tag,
    const char *name, const char *text)
{
	const struct vop *top[3] = { NULL, NULL, NULL };
	char names[1024], ev[256];
	__int128 sum = 0;
	size_t i, k, n = 0, len = 0;

	for (i = 0; i < d->nops; i++) {
		if (strstr(d->ops[i].tags, tag) == NULL)
			continue;
		n++;
		sum += d->ops[i].dur_total;
		for (k = 0; k < 3; k++)
			if (top[k] == NULL ||
			    d->ops[i].dur_total > top[k]->dur_total) {
				memmove(&top[k + 1], &top[k],
				    (2 - k) * sizeof(top[0]));
				top[k] = &d->ops[i];
				break;
			}
	}
	if (n == 0)
		return;
	names[0] = '\0';
	for (k = 0; k < 3 && top[k] != NULL; k++)
		len += (size_t)snprintf(names + len, len < sizeof(names) ?
		    sizeof(names) - len : 0, "%s%s", k ? ", " : "",
		    top[k]->name);
	if (n > 3 && len < sizeof(names))
		snprintf(names + len, sizeof(names) - len, " and %zu more",
		    n - 3);
	snprintf(ev, sizeof(ev), "%zu ops tagged %s", n, tag);
	add(name, "op", top[0]->name, vsum_per_step(sum, v->steps), sum,
	    v->window, 0, ev, text, names);
}

/* prof-attrib's follow-ups, once each, at the time they would explain. */
static void
from_followups(const struct vdev *d, const struct vverdict *v)
{
	static const struct {
		const char *flag, *name, *text;
		int part;
	} fups[] = {
		{ "with_stack=true", "profile_with_stack", "re-profile with "
		    "with_stack=true%s: no Python call stacks, so host time "
		    "stays unnamed", VP_IDLE_HOST },
		{ "record_shapes=true", "profile_with_shapes", "re-profile "
		    "with record_shapes=true%s: no input shapes, so shape "
		    "variation is unchecked", -1 },
		{ "host_sampling", "sample_the_host", "take host-side "
		    "sampling or a thread view over the same steps%s: the "
		    "host's activity during the bubbles is not in the trace",
		    VP_IDLE_UNTRACED },
		{ "inspect_comm_sync", "inspect_comm_sync", "inspect the "
		    "communication and sync paths around the bubbles%s: which "
		    "rank waits for which is not resolved", VP_COMM_EXPOSED },
	};
	size_t i, j, k;
	__int128 t;

	for (k = 0; k < sizeof(fups) / sizeof(fups[0]); k++) {
		for (i = 0; i < d->ncauses; i++)
			if (strstr(d->causes[i].followup, fups[k].flag))
				break;
		if (i == d->ncauses)
			continue;
		for (j = 0; j < nitems; j++)	/* said by a class already */
			if (strcmp(items[j].name, fups[k].name) == 0)
				break;
		if (j < nitems)
			continue;
		t = fups[k].part >= 0 ? v->part[fups[k].part] : 0;
		add(fups[k].name, "run", "", vsum_per_step(t, v->steps), t,
		    v->window, 1, d->causes[i].label, fups[k].text, "");
	}
}

static int
by_stake(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->lead != y->lead)
		return y->lead - x->lead;
	if (x->stake != y->stake)
		return x->stake > y->stake ? -1 : 1;
	if (x->followup != y->followup)
		return x->followup - y->followup;
	if (x->prio != y->prio)
		return x->prio - y->prio;
	return strcmp(x->name, y->name);
}

static void
put(struct stage *st, const struct vdev *d, const struct item *it,
    size_t order)
{
	const struct verdict_cols *c = stage_columns(st);
	struct srec *r = stage_new(st, "advice", stage_end_ts(st) ==
	    STAGE_NO_TS ? 0 : stage_end_ts(st));
	char buf[NUM_BUFSIZE], prio[4];

	srec_set(r, COL_DEV, d->id, d->idlen);
	srec_set_str(r, COL_NAME, it->name);
	srec_set_i64(r, c->order, (int64_t)order);
	snprintf(prio, sizeof(prio), "P%d", it->prio);
	srec_set_str(r, c->prio, prio);
	srec_set_str(r, c->scope, it->scope);
	srec_set_str(r, c->target, it->target);
	srec_set_i64(r, c->stake, it->stake);
	if (it->share_den > 0)
		srec_set(r, c->share, buf,
		    num_ratio_i128(buf, it->share_num, it->share_den, 6));
	srec_set_str(r, c->evid, it->evidence);
	srec_set_str(r, c->text, it->text);
	srec_set_str(r, c->followup, it->followup ? "1" : "0");
	stage_put(st, r);
}

void
vadv_write(struct stage *st, const struct v_opts *o, struct vdev *d,
    const struct vverdict *v)
{
	size_t i;
	int k;

	nitems = 0;
	if (v->cls == VV_NO_DATA)
		add("capture_the_device", "run", "", 0, 0, 0, 1, "no device "
		    "kernels", "profile the device side of rank %s too "
		    "(ProfilerActivity.CUDA or NPU; torch_npu activities): "
		    "nothing on it can be analysed now", d->id);
	else if (v->cls == VV_IN_CORE) {
		add("relieve_the_pipe", "run", "", 0, 0, 0, 0, v->tags,
		    "the kernel is bound by its %s pipe: balance the work "
		    "across pipes (double buffering, overlap of data moves "
		    "with vector or cube work)", d->pipe && *d->pipe ?
		    d->pipe : "busiest");
		if (strstr(v->tags, "degenerate") != NULL)
			add("simulate_real_input", "run", "", 0, 0, 0, 1,
			    v->tags, "the simulated trace is near-empty%s: "
			    "simulate the kernel on a representative input "
			    "before drawing conclusions", "");
	} else {
		for (k = 0; k < VC_N; k++)
			if (k == v->cls || (v->cls_ns[k] > 0 &&
			    v->cls_ns[k] * o->floor.den >= o->floor.num *
			    v->window))
				from_class(d, v, k, vsum_per_step(v->cls_ns[k],
				    v->steps));
		from_ops(d, v, "WAIT_ANCHOR_FALSE_HOTSPOT",
		    "ignore_wait_anchors", "do not optimise %s: their cost is "
		    "waiting; look at the idle time before them");
		from_ops(d, v, "WAIT_POLLUTION_RISK", "check_wait_pollution",
		    "the waits of %s overlap communication: inspect the "
		    "communication and sync paths before trusting them");
		from_ops(d, v, "AICPU_EXPOSED", "move_off_ai_cpu", "move %s "
		    "off the AI CPU (an AI Core implementation, another dtype "
		    "or shape): they run while the AI Core idles");
		from_followups(d, v);
	}
	if (nitems > 1)	/* qsort wants a non-null array */
		qsort(items, nitems, sizeof(*items), by_stake);
	for (i = 0; i < nitems; i++) {
		put(st, d, &items[i], i + 1);
		free(items[i].target);
		free(items[i].text);
		free(items[i].evidence);
	}
	free(items);
	items = NULL;
	nitems = 0;
}
