/*
 * prof-verdict: what bounds each rank's time, why, and what to do first.
 * Per step window a time budget that adds up to the window (device busy
 * by bound, communication hidden and exposed, idle by what the host was
 * doing), then per step group and run the class that explains most of
 * it, with its evidence and confidence, and the recommendations ranked
 * by the time at stake.  See prof-verdict(1).
 *
 * This file holds the options and the read loop, which feeds kernels,
 * windows and bubbles to the sweep (verdict-sweep.c) and keeps the
 * summary facts of earlier stages (roofs, ops, causes, host names);
 * verdict-sum.c and verdict-advice.c write the records at the end.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "kclass.h"
#include "stage.h"
#include "verdict.h"
#include "xalloc.h"

enum { OPT_SMALL_GAP = 256, OPT_SHORT_KERNEL, OPT_TIE, OPT_LOSS, OPT_FLOOR, OPT_NAMES };

#define COL(m, name, f)	STAGE_COLUMN(struct verdict_cols, m, name, f)
/* The columns prof-verdict adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(step, "step", STAGE_READ | STAGE_ADD),
	COL(group, "step_group", STAGE_READ | STAGE_ADD),
	COL(scope, "scope", STAGE_READ | STAGE_ADD),
	COL(steps, "steps", STAGE_ADD),
	COL(budget, "budget_ns", STAGE_ADD),
	COL(per_step, "per_step_ns", STAGE_ADD),
	COL(share, "share_ratio", STAGE_ADD),
	COL(window, "window_ns", STAGE_ADD),
	COL(stake, "stake_ns", STAGE_ADD),
	COL(conf, "confidence", STAGE_ADD),
	COL(second, "second", STAGE_ADD),
	COL(second_r, "second_ratio", STAGE_ADD),
	COL(mfu, "mfu_ratio", STAGE_READ | STAGE_ADD),
	COL(mfu_cov, "mfu_cov_ratio", STAGE_ADD),
	COL(chip, "chip", STAGE_READ | STAGE_ADD),
	COL(pipe, "pipe", STAGE_ADD),
	COL(evid, "evidence", STAGE_ADD),
	COL(tags, "tags", STAGE_READ | STAGE_ADD),
	COL(order, "order", STAGE_ADD),
	COL(prio, "prio", STAGE_ADD),
	COL(target, "target_id", STAGE_READ | STAGE_ADD),
	COL(text, "text", STAGE_ADD),
	COL(followup, "followup", STAGE_READ | STAGE_ADD),
	COL(core, "core", STAGE_READ),
	COL(bound, "bound", STAGE_READ),
	COL(cov, "cov_ratio", STAGE_READ),
	COL(pipe_bound, "pipe_bound", STAGE_READ),
	COL(pipe_ratio, "pipe_ratio", STAGE_READ),
	COL(busy, "busy_ns", STAGE_READ),
	COL(durt, "dur_total_ns", STAGE_READ),
	COL(host_class, "host_class", STAGE_READ),
	COL(covered, "covered_ns", STAGE_READ),
	COL(cost_total, "cost_total_ns", STAGE_READ),
	COL(value, "value", STAGE_READ),
	COL(idle[IB_SYNC], "idle_sync_ns", STAGE_READ),
	COL(idle[IB_INPUT], "idle_input_ns", STAGE_READ),
	COL(idle[IB_LAUNCH], "idle_launch_ns", STAGE_READ),
	COL(idle[IB_HOST], "idle_host_ns", STAGE_READ),
	COL(idle[IB_UNTRACED], "idle_untraced_ns", STAGE_READ),
};
#undef COL

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Say what bounds each rank's time: a time budget per step, "
	    "a verdict per\nstep group and run, and recommendations ranked "
	    "by the time at stake.\n\n");
	printf("Reads a prof-tsv stream with window records (prof-steps) "
	    "and kernel records;\nuses prof-roofline's bounds, prof-attrib's "
	    "bubble split and host names,\nprof-waitanchor's op records when "
	    "present.  With no FILE, or when FILE is -,\nreads standard "
	    "input.\n\n");
	printf("      --small-gap=NS    host work in idle gaps shorter than "
	    "this is launch\n"
	    "                        overhead (default 100000)\n"
	    "      --short-kernel=NS latency-bound kernels shorter than this "
	    "are launch\n"
	    "                        overhead, longer ones compute "
	    "(default 10000)\n"
	    "      --tie=RATIO       classes within RATIO of the window of "
	    "each other are a\n"
	    "                        near tie (default 0.05)\n"
	    "      --loss=RATIO      the largest loss class (time the device "
	    "waits) is the\n"
	    "                        verdict from this share of the window "
	    "(default 0.25)\n"
	    "      --floor=RATIO     recommend on a budget part from this "
	    "share of the\n"
	    "                        window (default 0.05)\n"
	    "      --names=N         names in each evidence line (default "
	    "3)\n"
	    "  -h, --help            display this help and exit\n"
	    "  -V, --version         output version information and exit\n"
	    "\n");
	printf("Adds budget, verdict and advice records at the end of the "
	    "stream; see\nprof-verdict(1).\n\n");
	printf("Exit status: 0 if the stream was read and written, 1 for bad "
	    "input or a write\nerror, 2 for usage errors.\n");
	exit(EXIT_OK);
}

/* A decimal fraction from 0 to 1 ("0.05", "1", ".25") as NUM / DEN. */
static struct ratio
parse_ratio(const char *arg, const char *name)
{
	struct ratio r;

	r.den = 1000000000;
	r.num = cli_parse_fixed(arg, name, 9, 0, r.den);
	return r;
}

/* Field COL of the current record as a new string ("" when absent). */
static char *
dup_field(struct stage *st, int col)
{
	size_t n = 0;
	const char *s = col >= 0 ? stage_get(st, col, &n) : "";

	return xstrndup(s, n);
}

static int
field_is(struct stage *st, int col, const char *want)
{
	size_t n = 0;
	const char *s = col >= 0 ? stage_get(st, col, &n) : "";

	return n == strlen(want) && memcmp(s, want, n) == 0;
}

static int
tags_have(struct stage *st, const char *tag)
{
	const struct verdict_cols *c = stage_columns(st);
	size_t n = 0;
	const char *s = c->tags >= 0 ? stage_get(st, c->tags, &n) : "";

	return stage_tag_has(s, n, tag);
}

/* A + B for the totals of durations, at most INT64_MAX. */
static int64_t
sat_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/*
 * The part a kernel record's time belongs to while it runs.  A
 * latency-bound kernel is launch overhead only when it is short: a long
 * one far below its roofs (a scalar-bound vector kernel, say) is bound
 * by its own code, and faster launches would not help it.
 */
static int
kernel_part(struct stage *st, int64_t short_kernel)
{
	const struct verdict_cols *c = stage_columns(st);
	size_t n = 0, cn = 0;
	const char *name = stage_get(st, COL_NAME, &n);
	const char *core = c->core >= 0 ? stage_get(st, c->core, &cn) : "";

	if (kclass_comm_core(core, cn) || kclass_comm_name(name, n))
		return VP_COMM_EXPOSED;
	if (field_is(st, c->bound, "compute"))
		return VP_BUSY_COMPUTE;
	if (field_is(st, c->bound, "memory"))
		return VP_BUSY_MEMORY;
	if (field_is(st, c->bound, "latency"))
		return stage_dur(st) < short_kernel ? VP_BUSY_LATENCY :
		    VP_BUSY_COMPUTE;
	return VP_BUSY_UNCLASSED;
}

static void
on_bubble(struct stage *st, struct vdev *d)
{
	const struct verdict_cols *c = stage_columns(st);
	int64_t cls[IB_N];
	int i, absent, split = 1;

	if (field_is(st, COL_NAME, "global") || c->step < 0 ||
	    stage_absent(st, c->step))
		return;
	for (i = 0; i < IB_N; i++) {
		cls[i] = c->idle[i] >= 0 ? stage_i64(st, c->idle[i], &absent) :
		    0;
		if (c->idle[i] < 0 || absent)
			split = 0;
	}
	vs_bubble(d, stage_ts(st), stage_dur(st), cls, split);
}

/* prof-roofline's run roof (MFU) and op-simulator core roofs. */
static void
on_roof(struct stage *st, struct vdev *d)
{
	const struct verdict_cols *c = stage_columns(st);

	if (field_is(st, c->scope, "run")) {
		free(d->mfu);
		free(d->mfu_cov);
		free(d->chip);
		d->mfu = dup_field(st, c->mfu);
		d->mfu_cov = dup_field(st, c->cov);
		d->chip = dup_field(st, c->chip);
		d->roof_run = 1;
	} else if (field_is(st, c->scope, "core") && d->pipe == NULL) {
		/* The first core: a simulator trace has one. */
		d->pipe = dup_field(st, c->pipe_bound);
		d->pipe_ratio = dup_field(st, c->pipe_ratio);
		d->core_tags = dup_field(st, c->tags);
		d->core_busy = dup_field(st, c->busy);
		d->core_span = dup_field(st, c->durt);
	}
}

static void
on_op(struct stage *st, struct vdev *d)
{
	const struct verdict_cols *c = stage_columns(st);
	static const char *const rules[] = {
		"WAIT_ANCHOR_FALSE_HOTSPOT", "WAIT_POLLUTION_RISK",
		"AICPU_EXPOSED_NOT_ALLOWED", "AICPU_EXPOSED_RISK",
		"AICPU_PARTIALLY_EXPOSED", "AICPU_MASKED_BUT_UNDESIRABLE"
	};
	struct vop *o;
	size_t i;
	int absent;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (tags_have(st, rules[i]))
			break;
	if (i == sizeof(rules) / sizeof(rules[0]))
		return;
	d->ops = xreallocarray(d->ops, d->nops + 1, sizeof(*d->ops));
	o = &d->ops[d->nops++];
	o->name = dup_field(st, COL_NAME);
	o->tags = dup_field(st, c->tags);
	o->cost_total = c->cost_total >= 0 ?
	    stage_i64(st, c->cost_total, &absent) : 0;
	o->dur_total = c->durt >= 0 ? stage_i64(st, c->durt, &absent) : 0;
}

static void
on_cause(struct stage *st, struct vdev *d)
{
	const struct verdict_cols *c = stage_columns(st);
	struct vcause *k;

	if (c->followup < 0 || stage_absent(st, c->followup))
		return;
	d->causes = xreallocarray(d->causes, d->ncauses + 1,
	    sizeof(*d->causes));
	k = &d->causes[d->ncauses++];
	k->label = dup_field(st, COL_NAME);
	k->followup = dup_field(st, c->followup);
	k->scope = dup_field(st, c->scope);
	k->target = dup_field(st, c->target);
}

/* prof-attrib's host names per step group, summed over the groups. */
static void
on_hostcov(struct stage *st, struct vdev *d)
{
	const struct verdict_cols *c = stage_columns(st);
	static const struct {
		const char *name;
		int cls;
	} classes[] = {
		{ "sync", VC_SYNC }, { "input", VC_INPUT },
		{ "launch", VC_LAUNCH }, { "host", VC_HOST }
	};
	size_t i, n;
	const char *name;
	int absent;
	int64_t ns;

	if (!field_is(st, c->scope, "group") || c->covered < 0)
		return;
	ns = stage_i64(st, c->covered, &absent);
	name = stage_get(st, COL_NAME, &n);
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (field_is(st, c->host_class, classes[i].name))
			vs_host_name(d, classes[i].cls, name, n, ns);
}

#define IS(s, len, k) ((len) == sizeof(k) - 1 && memcmp((s), (k), (len)) == 0)

/* The device of the current record, or NULL when it has none. */
static struct vdev *
rec_dev(struct stage *st)
{
	size_t n;
	const char *dev = stage_get(st, COL_DEV, &n);

	return n > 0 ? vs_dev(dev, n) : NULL;
}

/* prof-ingest's step_trace_time metrics that make the profiler's split. */
static void
on_metric(struct stage *st, struct vdev *d)
{
	const struct verdict_cols *c = stage_columns(st);
	static const char *const names[PF_N] = {
		"profiler_computing_ns",
		"profiler_communication_not_overlapped_ns",
		"profiler_overlapped_ns", "profiler_stage_ns"
	};
	size_t sn;
	const char *step;
	int64_t v;
	int k, absent;

	if (d == NULL || c->step < 0 || c->value < 0 ||
	    stage_absent(st, c->step))
		return;
	for (k = 0; k < PF_N; k++)
		if (field_is(st, COL_NAME, names[k]))
			break;
	if (k == PF_N)
		return;
	v = stage_i64(st, c->value, &absent);
	if (absent || v < 0)
		return;
	step = stage_get(st, c->step, &sn);
	vs_profiler(d, step, sn, k, v);
}

static void
on_record(struct stage *st, const char *kind, size_t len,
    const struct v_opts *o)
{
	const struct verdict_cols *c = stage_columns(st);
	size_t n, sn = 0, gn = 0;
	const char *dev = stage_get(st, COL_DEV, &n), *s, *g;
	struct vdev *d;

	if (n == 0)
		return;
	d = vs_dev(dev, n);
	if (IS(kind, len, "kernel")) {
		int part = kernel_part(st, o->short_kernel);

		s = stage_get(st, COL_NAME, &sn);
		vs_kernel(d, stage_ts(st), stage_dur(st), part, s, sn);
		if (part == VP_BUSY_MEMORY && stage_dur(st) > 0) {
			d->mem_ns = sat_add(d->mem_ns, stage_dur(st));
			if (tags_have(st, "below_memory_roof"))
				d->slow_ns = sat_add(d->slow_ns,
				    stage_dur(st));
		}
	} else if (IS(kind, len, "window")) {
		s = c->step >= 0 ? stage_get(st, c->step, &sn) : "";
		g = c->group >= 0 ? stage_get(st, c->group, &gn) : "";
		vs_window(d, stage_ts(st), stage_dur(st), s, sn, g, gn,
		    tags_have(st, "cut_start") || tags_have(st, "cut_end"));
	} else if (IS(kind, len, "bubble"))
		on_bubble(st, d);
	else if (IS(kind, len, "host"))
		d->nhost++;
	else if (IS(kind, len, "pipe"))
		d->npipes++;
	else if (IS(kind, len, "roof"))
		on_roof(st, d);
	else if (IS(kind, len, "op"))
		on_op(st, d);
	else if (IS(kind, len, "cause"))
		on_cause(st, d);
	else if (IS(kind, len, "hostcov"))
		on_hostcov(st, d);
	else if (IS(kind, len, "metric"))
		on_metric(st, d);
}

static void
run(const char *path, const struct v_opts *o, int argc, char *argv[])
{
	static struct stage *st;	/* reachable when a diagnostic exits */
	struct verdict_cols c;
	const char *kind;
	size_t len;
	unsigned long seen;

	st = stage_open(path, argc, argv, columns,
	    sizeof(columns) / sizeof(columns[0]), &c);
	/* a second run would add every summary record again */
	if ((seen = stage_seen(st, "prof-verdict", "second_ratio")) != 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), seen, "input already "
		    "annotated by prof-verdict: its records would be "
		    "repeated");
	vs_init(st, o);
	while (stage_next(st)) {
		kind = stage_get(st, COL_KIND, &len);
		/* summary records have no time; the profiler's split too */
		if (stage_ts(st) != STAGE_NO_TS)
			on_record(st, kind, len, o);
		else if (IS(kind, len, "metric"))
			on_metric(st, rec_dev(st));
		stage_pass(st);
	}
	vs_finish();
	vsum_write(st, o);
	vs_free();
	stage_close(st);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "small-gap",	required_argument,	NULL, OPT_SMALL_GAP },
		{ "short-kernel", required_argument,	NULL, OPT_SHORT_KERNEL },
		{ "tie",	required_argument,	NULL, OPT_TIE },
		{ "loss",	required_argument,	NULL, OPT_LOSS },
		{ "floor",	required_argument,	NULL, OPT_FLOOR },
		{ "names",	required_argument,	NULL, OPT_NAMES },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	struct v_opts o = {
		100000, 10000, { 5, 100 }, { 25, 100 }, { 5, 100 }, 3
	};
	int ch;

	cli_init("prof-verdict");
	while ((ch = getopt_long(argc, argv, "hV", longopts, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage();
			break;
		case 'V':
			cli_version();
			break;
		case OPT_SMALL_GAP:
			o.small_gap = cli_parse_i64(optarg, "--small-gap", 0,
			    INT64_MAX);
			break;
		case OPT_SHORT_KERNEL:
			o.short_kernel = cli_parse_i64(optarg, "--short-kernel",
			    0, INT64_MAX);
			break;
		case OPT_TIE:
			o.tie = parse_ratio(optarg, "--tie");
			break;
		case OPT_LOSS:
			o.loss = parse_ratio(optarg, "--loss");
			break;
		case OPT_FLOOR:
			o.floor = parse_ratio(optarg, "--floor");
			break;
		case OPT_NAMES:
			o.names = (int)cli_parse_i64(optarg, "--names", 0, 20);
			break;
		default:
			cli_try_help();
		}
	if (argc - optind > 1)
		cli_usage_error("too many operands: one FILE at most");
	run(optind < argc ? argv[optind] : "-", &o, argc, argv);
	return EXIT_OK;
}
