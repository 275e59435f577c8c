/*
 * prof-waitanchor: the op-level view of a prof-tsv stream, with the wait
 * anchor, wait pollution and AI CPU exposure rules of
 * doc/analysis-rules.md (Wait anchors, AI CPU overlap classes).
 *
 * Kernels pass through (tagged where a rule applies to the single
 * kernel); every op gets one summary record at the end.  This file is
 * the stage loop: it reads each kernel once, feeds the op table
 * (waitanchor-ops.c) and the per-device windows (waitanchor-dev.c), and
 * keeps an AI CPU kernel back until the input has passed its end, so
 * that compute kernels starting after it still count as masking it.
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "devtab.h"
#include "diag.h"
#include "dueq.h"
#include "num.h"
#include "stage.h"
#include "waitanchor.h"
#include "xalloc.h"

#define COL(m, name, flags)	STAGE_COLUMN(struct wa_cols, m, name, flags)
/* The columns prof-waitanchor adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(calls, "calls", STAGE_ADD),
	COL(dur_avg, "dur_avg_ns", STAGE_ADD),
	COL(wait_avg, "wait_avg_ns", STAGE_ADD),
	COL(cost_avg, "cost_avg_ns", STAGE_ADD),
	COL(cost_total, "cost_total_ns", STAGE_ADD),
	COL(wait_ratio, "wait_ratio", STAGE_ADD),
	COL(rank_cost, "rank_cost", STAGE_ADD),
	COL(rank_dur, "rank_dur", STAGE_ADD),
	COL(tags, "tags", STAGE_READ | STAGE_ADD),
	COL(dur_total, "dur_total_ns", STAGE_ADD),
	COL(masked, "masked_ratio", STAGE_ADD),
	COL(value, "value", STAGE_ADD),
	COL(core, "core", STAGE_READ),
	COL(wait, "wait_ns", STAGE_READ),
	COL(shapes, "in_shapes", STAGE_READ),
	COL(step, "step", STAGE_READ),
	COL(group, "step_group", STAGE_READ),
	COL(type, "type", STAGE_READ),
	COL(bubble_id, "bubble_id", STAGE_READ),
};
#undef COL

static struct wa_opts opts;
static struct stage *st;
static struct wa_map ops;
static struct devtab devs;
static size_t nopen_ai;			/* AI CPU kernels kept back */
static int64_t ai_min_end = INT64_MAX;	/* the earliest of their ends */
static struct dueq ai_due;		/* the devices by that end */
static int bubbles_known;		/* the input went through prof-bubbles */

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Summarise kernels per op (calls, duration, wait, total cost, "
	    "both rankings)\nand tag wait-anchor false hotspots, wait "
	    "pollution and AI CPU exposure.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -a, --all-devs      one op record per op across all "
	    "devices (default: per\n"
	    "                      device)\n"
	    "  -n, --top=N         cost rank limit of the hotspot rules "
	    "(default 10)\n"
	    "  -r, --rank=WHAT     rank ops by 'avg' (per-call averages, "
	    "the default) or\n"
	    "                      'total' (sums over all calls)\n"
	    "  -s, --by-shape      an op is a name and its input shapes, "
	    "not a name\n"
	    "  -t, --by-type       an op is the kernel's op type (column "
	    "'type', as\n"
	    "                      MatMulV2), not its name\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Adds op records at the end of the stream; see "
	    "prof-waitanchor(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

/* The state of the current record's device. */
static struct wadev *
cur_dev(void)
{
	size_t len;
	const char *name = stage_get(st, COL_DEV, &len);
	int isnew;
	struct wadev *d = devtab_get(&devs, name, len, &isnew);

	if (isnew) {
		d->name = devs.v[devs.n - 1].name;
		d->bub_max_end = INT64_MIN;
		d->queued = INT64_MAX;
	}
	return d;
}

/* The tags column of the current record, with NEW appended. */
static void
set_tags(const char *new)
{
	const struct wa_cols *cols = stage_columns(st);
	size_t n;
	const char *old = stage_get(st, cols->tags, &n);
	char *buf;

	if (new[0] == '\0')
		return;
	if (n == 0) {
		stage_set_str(st, cols->tags, new);
		return;
	}
	buf = xmalloc(n + strlen(new) + 2);
	memcpy(buf, old, n);
	buf[n] = ',';
	strcpy(buf + n + 1, new);
	stage_set_str(st, cols->tags, buf);
	free(buf);
}

/* The same for a kept record. */
static void
srec_tags(struct srec *r, const char *new)
{
	const struct wa_cols *cols = stage_columns(st);
	size_t n;
	const char *old = srec_get(r, cols->tags, &n);
	char *buf = xmalloc(n + strlen(new) + 2);

	if (n > 0)
		snprintf(buf, n + strlen(new) + 2, "%s,%s", old, new);
	else
		strcpy(buf, new);
	srec_set_str(r, cols->tags, buf);
	free(buf);
}

/*
 * Finish an AI CPU kernel: its masked ratio is the part of it that the
 * union of compute kernels on the device covers (doc/analysis-rules.md,
 * AI CPU overlap classes).  It is
 * exposed (AICPU_EXPOSED_RISK) when it borders or overlaps a bubble and
 * is not masked; without bubble records, when its class is
 * AICPU_EXPOSED_NOT_ALLOWED.
 */
static void
ai_finish(struct wadev *d, struct aiopen *a)
{
	const struct wa_cols *cols = stage_columns(st);
	struct ival one = { a->s, a->e };
	int64_t dur = a->e - a->s, ov;
	const char *cls;
	char buf[NUM_BUFSIZE];
	int exposed;

	if (dur <= 0) {
		stage_put(st, a->rec);
		return;
	}
	ov = ival_overlap(&one, 1, d->compute.v + d->compute.head,
	    d->compute.n - d->compute.head);
	cls = wa_aicpu_class(ov, dur);
	exposed = bubbles_known ? a->contact &&
	    strcmp(cls, "AICPU_MASKED_BUT_UNDESIRABLE") != 0 :
	    strcmp(cls, "AICPU_EXPOSED_NOT_ALLOWED") == 0;
	a->op->ai_calls++;
	a->op->ai_dur += dur;
	a->op->ai_overlap += ov;
	srec_set(a->rec, cols->masked, buf, num_ratio(buf, ov, dur, 6));
	srec_tags(a->rec, cls);
	if (exposed) {
		a->op->flags |= OPF_EXPOSED;
		srec_tags(a->rec, "AICPU_EXPOSED_RISK");
	}
	stage_put(st, a->rec);
}

/*
 * Finish the AI CPU kernels of D that end before TS (ALL: every one);
 * the earliest end of those it keeps.
 */
static int64_t
ai_close_dev(struct wadev *d, int64_t ts, int all)
{
	int64_t next = INT64_MAX;
	size_t j;

	for (j = 0; j < d->nai; ) {
		if (all || d->ai[j].e < ts) {
			ai_finish(d, &d->ai[j]);
			d->ai[j] = d->ai[--d->nai];
			nopen_ai--;
			continue;
		}
		if (d->ai[j].e < next)
			next = d->ai[j].e;
		j++;
	}
	return next;
}

/*
 * Finish the AI CPU kernels that end before TS, on the devices that
 * have one: a job of 100,000 ranks is not visited rank by rank at each
 * (see dueq.h).  Each device is queued again at the earliest end it
 * keeps.  At the end of the input (ALL) every device finishes all of
 * its kernels, those that end at INT64_MAX too.
 */
static void
ai_close(int64_t ts, int all)
{
	struct wadev *d;
	size_t i;

	if (all) {
		for (i = 0; i < devs.n; i++)
			(void)ai_close_dev(devs.v[i].item, ts, 1);
		dueq_free(&ai_due);
		return;
	}
	while (ai_due.n > 0 && dueq_first(&ai_due) < ts) {
		d = dueq_take(&ai_due);
		dueq_add(&ai_due, ai_close_dev(d, ts, 0), d, &d->queued);
	}
	ai_min_end = dueq_first(&ai_due);
}

/* Keep the current AI CPU kernel back until the input passes its end. */
static void
ai_open(struct wadev *d, struct opent *op, int64_t ts, int64_t dur)
{
	struct aiopen *a;

	if (d->nai == d->aicap) {
		d->aicap = d->aicap ? 2 * d->aicap : 8;
		d->ai = xreallocarray(d->ai, d->aicap, sizeof(*d->ai));
	}
	a = &d->ai[d->nai++];
	a->rec = stage_keep(st);
	a->op = op;
	a->s = ts;
	a->e = ts + dur;
	a->contact = d->bub_max_end >= ts;
	nopen_ai++;
	dueq_add(&ai_due, a->e, d, &d->queued);
	if (a->e < ai_min_end)
		ai_min_end = a->e;
}

/* A compute kernel: part of the union that masks AI CPU kernels. */
static void
compute_add(struct wadev *d, int64_t ts, int64_t dur)
{
	int64_t lim = ts;
	size_t i;

	for (i = 0; i < d->nai; i++)
		if (d->ai[i].s < lim)
			lim = d->ai[i].s;
	ivrun_prune(&d->compute, lim);
	ivrun_add(&d->compute, ts, ts + dur);
}

/* A bubble (prof-bubbles): an idle gap of the device. */
static void
do_bubble(void)
{
	struct wadev *d = cur_dev();
	int64_t e = stage_ts(st) + (stage_dur(st) > 0 ? stage_dur(st) : 0);
	size_t i;

	if (stage_ts(st) == STAGE_NO_TS)
		return;
	if (e > d->bub_max_end)
		d->bub_max_end = e;
	for (i = 0; i < d->nai; i++)
		d->ai[i].contact = 1;
}

/* A communication record: a window that pollutes waits under it. */
static void
do_comm(void)
{
	struct wadev *d = cur_dev();

	if (stage_ts(st) != STAGE_NO_TS && stage_dur(st) > 0)
		ivrun_add(&d->comm, stage_ts(st), stage_ts(st) +
		    stage_dur(st));
}

/* The wait of the current kernel, and whether it was recorded. */
static int64_t
kernel_wait(int *has)
{
	const struct wa_cols *cols = stage_columns(st);
	int absent = 1;
	int64_t w = cols->wait >= 0 ? stage_i64(st, cols->wait, &absent) : 0;

	*has = !absent;		/* never negative: the stage library checks */
	return w;
}

/* Shape bookkeeping for VARIABLE_SHAPE_SAME_TEMPLATE. */
static void
kernel_shapes(struct wadev *d, struct opent *op, const char *dev,
    const char *sh, size_t sl)
{
	const struct wa_cols *cols = stage_columns(st);
	const char *step = stage_get(st, cols->step, NULL);

	if (sl > 0)
		d->shapes_seen = 1;
	if (step[0] == '\0')
		return;
	d->steps_seen = 1;
	if (cols->shapes >= 0)
		wa_vshape(op->nm, dev, stage_get(st, cols->group, NULL), step,
		    sh, sl);
}

/*
 * A kernel needs a place on the timeline and a duration (the stage
 * library has already rejected a negative one).
 */
static void
kernel_check(int64_t ts)
{
	if (ts == STAGE_NO_TS || stage_absent(st, COL_DUR))
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "kernel record without %s", ts == STAGE_NO_TS ? "ts_ns" :
		    "dur_ns");
}

/* Add the current kernel to its op's sums; returns its wait (0: none). */
static int64_t
kernel_count(struct wadev *d, struct opent *op, int64_t dur)
{
	int has;
	int64_t wait = kernel_wait(&has);

	op->calls++;
	op->dur_sum += dur;
	op->wait_sum += wait;
	if (has) {
		op->wait_calls++;
		d->wait_seen = 1;
	}
	return wait;
}

static void
do_kernel(void)
{
	const struct wa_cols *cols = stage_columns(st);
	size_t dl, nl, tl, sl;
	const char *dev = stage_get(st, COL_DEV, &dl);
	const char *name = stage_get(st, COL_NAME, &nl);
	const char *track = stage_get(st, COL_TRACK, &tl);
	const char *sh = stage_get(st, cols->shapes, &sl);
	int64_t ts = stage_ts(st), dur = stage_dur(st), wait;
	struct wadev *d = cur_dev();
	struct opent *op;
	char tags[128] = "";
	int cls;

	if (opts.by_type && cols->type >= 0 && !stage_absent(st, cols->type))
		name = stage_get(st, cols->type, &nl);
	kernel_check(ts);
	op = wa_op(&ops, dev, opts.all_devs ? 0 : dl, name, nl, sh,
	    opts.by_shape ? sl : 0);
	wait = kernel_count(d, op, dur);
	cls = wa_op_core(op, stage_get(st, cols->core, NULL));
	if (wait > 0 && 10 * (__int128)wait > 8 * ((__int128)dur + wait))
		stage_tag_add(tags, sizeof(tags), "WAIT_HEAVY");
	if (wait > 0 && cls != WA_COMM && wa_polluted(d, track, tl,
	    ts < INT64_MIN + wait ? INT64_MIN : ts - wait, ts)) {
		op->flags |= OPF_POLLUTED;
		stage_tag_add(tags, sizeof(tags), "WAIT_POLLUTION_RISK");
	}
	kernel_shapes(d, op, dev, sh, sl);
	set_tags(tags);
	if (cls == WA_COMM)
		wa_comm_kernel(d, track, tl, ts, ts + dur);
	else if (cls == WA_AICPU) {
		ai_open(d, op, ts, dur);
		return;
	} else
		compute_add(d, ts, dur);
	stage_pass(st);
}

static void
put_metric(const char *dev, const char *name, int value, const char *why,
    int64_t end)
{
	const struct wa_cols *cols = stage_columns(st);
	struct srec *r = stage_new(st, "metric", end);

	srec_set_str(r, COL_DEV, dev);
	srec_set_str(r, COL_NAME, name);
	srec_set_str(r, cols->value, value ? "1" : "0");
	if (why != NULL)
		srec_set_str(r, cols->tags, why);
	stage_put(st, r);
}

/*
 * Say per device (or once with --all-devs) whether wait times were
 * recorded and whether the shape check could run, so that an absent tag
 * is not read as a clean result.
 */
static void
write_metrics(int64_t end)
{
	size_t i, n = opts.all_devs && devs.n > 0 ? 1 : devs.n;
	const struct wadev *d;
	int w, sh, stp;

	devtab_sort(&devs, devtab_cmp);
	for (i = 0; i < n; i++) {
		d = devs.v[i].item;
		w = d->wait_seen;
		sh = d->shapes_seen;
		stp = d->steps_seen;
		if (opts.all_devs)
			for (w = sh = stp = 0; i < devs.n; i++) {
				d = devs.v[i].item;
				w |= d->wait_seen;
				sh |= d->shapes_seen;
				stp |= d->steps_seen;
			}
		put_metric(opts.all_devs ? "" : d->name, "wait_recorded",
		    w, w ? NULL : "no_wait_ns", end);
		put_metric(opts.all_devs ? "" : d->name,
		    "variable_shape_checked", sh && stp, !sh ? "no_shapes" :
		    !stp ? "no_steps" : NULL, end);
	}
}

static void
free_devs(void)
{
	size_t i, j;

	for (i = 0; i < devs.n; i++) {
		struct wadev *d = devs.v[i].item;

		ivrun_free(&d->comm);
		ivrun_free(&d->compute);
		for (j = 0; j < d->nkcomm; j++) {
			ivrun_free(&d->kcomm[j]);
			free(d->kcomm_track[j]);
		}
		free(d->kcomm);
		free(d->kcomm_track);
		free(d->ai);
	}
	devtab_free(&devs);
}

static void
run(const char *path, int argc, char *argv[])
{
	struct wa_cols c;
	int64_t end;

	devtab_init(&devs, sizeof(struct wadev));
	wa_map_init(&ops);
	st = stage_open(path, argc, argv, columns, sizeof(columns) /
	    sizeof(columns[0]), &c);
	bubbles_known = c.bubble_id >= 0;
	while (stage_next(st)) {
		if (nopen_ai > 0 && stage_ts(st) > ai_min_end)
			ai_close(stage_ts(st), 0);
		if (stage_is(st, "kernel")) {
			do_kernel();
			continue;
		}
		if (stage_is(st, "comm"))
			do_comm();
		else if (stage_is(st, "bubble"))
			do_bubble();
		stage_pass(st);
	}
	ai_close(INT64_MAX, 1);
	wa_vshape_finish(&ops);
	end = stage_end_ts(st) == STAGE_NO_TS ? 0 : stage_end_ts(st);
	write_metrics(end);
	wa_summary(st, &ops, &opts, end);
	stage_close(st);
	wa_map_free(&ops);
	free_devs();
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all-devs",	no_argument,		NULL, 'a' },
		{ "by-shape",	no_argument,		NULL, 's' },
		{ "by-type",	no_argument,		NULL, 't' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "rank",	required_argument,	NULL, 'r' },
		{ "top",	required_argument,	NULL, 'n' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *rank = "avg", *top = NULL;
	int c;

	cli_init("prof-waitanchor");
	while ((c = getopt_long(argc, argv, "ahn:r:stV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'a':
			opts.all_devs = 1;
			break;
		case 'h':
			usage();
			break;
		case 'n':
			top = optarg;
			break;
		case 'r':
			rank = optarg;
			break;
		case 's':
			opts.by_shape = 1;
			break;
		case 't':
			opts.by_type = 1;
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	opts.top = top != NULL ? cli_parse_i64(top, "--top", 0, INT64_MAX) :
	    10;
	if (strcmp(rank, "avg") == 0 || strcmp(rank, "total") == 0)
		opts.rank_total = strcmp(rank, "total") == 0;
	else
		cli_usage_error("option '--rank': invalid value '%s' "
		    "(want 'avg' or 'total')", rank);
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	run(optind < argc ? argv[optind] : "-", argc, argv);
	return EXIT_OK;
}
