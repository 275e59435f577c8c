/*
 * prof-layers: what the model does, layer by layer, from the trace
 * alone (the method's architecture pipeline, A1 to A7: doc/analysis-
 * rules.md, Markers and passes to Streams and communication overlap,
 * for Ascend and GPU names).
 *
 * Attention kernels mark layers: one per layer and pass.  Kernels pass
 * through annotated with their pass, layer and layer type; pass, layer
 * and per-pass cross-check records are added in time order, and per
 * device summary records (layer types and their variation, role groups,
 * one collapsed kernel sequence per type, stream roles, metrics) at the
 * end.  This file is the stage loop: options, per-device dispatch, and
 * the clock that closes passes no later marker can continue.
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
#include "layers.h"
#include "stage.h"
#include "xalloc.h"

#define COL(m, name, f)	STAGE_COLUMN(struct layers_cols, m, name, f)
/* The columns prof-layers adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(pass, "pass", STAGE_ADD),
	COL(layer, "layer", STAGE_ADD),
	COL(ltype, "layer_type", STAGE_ADD),
	COL(phase, "phase", STAGE_ADD),
	COL(rule, "rule", STAGE_ADD),
	COL(layers, "layers", STAGE_ADD),
	COL(kcount, "kernel_count", STAGE_ADD),
	COL(ksum, "kernel_sum_ns", STAGE_ADD),
	COL(busy, "busy_ns", STAGE_ADD),
	COL(mdur, "marker_dur_ns", STAGE_ADD),
	COL(mmean, "marker_mean_ns", STAGE_ADD),
	COL(expect, "expect_layers", STAGE_ADD),
	COL(perlayer, "per_layer", STAGE_ADD),
	COL(min, "min_ns", STAGE_ADD),
	COL(median, "median_ns", STAGE_ADD),
	COL(max, "max_ns", STAGE_ADD),
	COL(cv, "cv_ratio", STAGE_ADD),
	COL(share, "share_ratio", STAGE_ADD),
	COL(seq, "seq", STAGE_ADD),
	COL(repeat, "repeat", STAGE_ADD),
	COL(value, "value", STAGE_READ | STAGE_ADD),
	COL(tags, "tags", STAGE_READ | STAGE_ADD),
	COL(cost, "cost_total_ns", STAGE_ADD),
	COL(mix, "task_mix", STAGE_ADD),
	COL(pcol[PART_BLOCK][0], "block_wall_ns", STAGE_ADD),
	COL(pcol[PART_BLOCK][1], "block_busy_ns", STAGE_ADD),
	COL(pcol[PART_BLOCK][2], "block_sum_ns", STAGE_ADD),
	COL(pcol[PART_BLOCK][3], "block_cost_ns", STAGE_ADD),
	COL(pcol[PART_SIDE][0], "side_wall_ns", STAGE_ADD),
	COL(pcol[PART_SIDE][1], "side_busy_ns", STAGE_ADD),
	COL(pcol[PART_SIDE][2], "side_sum_ns", STAGE_ADD),
	COL(pcol[PART_SIDE][3], "side_cost_ns", STAGE_ADD),
	COL(idle, "idle_ns", STAGE_ADD),
	COL(gap, "gap_ns", STAGE_ADD),
	COL(between, "between_ns", STAGE_ADD),
	COL(share_step, "step_share_ratio", STAGE_ADD),
	COL(micro, "micro", STAGE_ADD),
	COL(res, "residual", STAGE_ADD),
	COL(stage, "stage", STAGE_ADD),
	COL(nres, "residual_blocks", STAGE_ADD),
	COL(nstages, "stages", STAGE_ADD),
	COL(nrecompute, "recompute_layers", STAGE_ADD),
	COL(evidence, "evidence", STAGE_ADD),
	COL(step, "step", STAGE_READ),
	COL(type, "type", STAGE_READ),
	COL(core, "core", STAGE_READ),
	COL(wait, "wait_ns", STAGE_READ),
};
#undef COL

struct lopts lopts;
struct stage *lst;

static struct devtab devs, wins;
static int64_t min_deadline = INT64_MAX;

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Find passes and layers from attention kernels, convolutions "
	    "or the repeating\nkernel sequence, type each layer, say what "
	    "each costs, and annotate kernels\nwith pass, layer and "
	    "type.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -C, --no-conv       no convolution units: a device without "
	    "markers goes to\n"
	    "                      the repeating kernel sequence\n"
	    "  -c, --confidence=R  least confidence (0 to 1) of a "
	    "detected layer sequence\n"
	    "                      (default 0.5)\n"
	    "  -d, --detect        ignore attention markers and "
	    "convolutions: find layers\n"
	    "                      from the repeating kernel sequence\n"
	    "  -g, --gap=F         a marker more than F times the typical "
	    "marker gap after\n"
	    "                      the previous one starts a new pass "
	    "(default 1.5;\n"
	    "                      8 for convolution units)\n"
	    "  -m, --marker=PAT    a layer marker: kernel name or type "
	    "containing PAT, or\n"
	    "                      matching it as a glob; repeatable; "
	    "replaces the\n"
	    "                      defaults\n"
	    "  -p, --period=N      the detected sequence repeats every N "
	    "kernels\n"
	    "  -w, --window=N      kernels held per device to detect the "
	    "sequence\n"
	    "                      (default 8192)\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Adds pass, layer, check and summary records; see "
	    "prof-layers(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

struct ltype *
ldev_pend(struct ldev *d, int t)
{
	if (d->pend == NULL)
		d->pend = xcalloc(NLTYPES, sizeof(*d->pend));
	return &d->pend[t];
}

struct ltype *
ldev_type(struct ldev *d, int ph, int t)
{
	if (d->types == NULL)
		d->types = xcalloc((size_t)NPHASES * NLTYPES,
		    sizeof(*d->types));
	return &d->types[ph * NLTYPES + t];
}

int
ldev_has_type(const struct ldev *d, int ph, int t)
{
	return d->types != NULL && d->types[ph * NLTYPES + t].n > 0;
}

static struct ldev *
dev_of(const char *name, size_t len)
{
	int isnew;
	struct ldev *d = devtab_get(&devs, name, len, &isnew);

	if (isnew) {
		d->name = devs.v[devs.n - 1].name;
		d->deadline = INT64_MAX;
		d->pass_step = xstrdup("");
		d->win_step = xstrdup("");
		d->run_step = xstrdup("");
		d->win = devtab_get(&wins, name, len, NULL);
	}
	return d;
}

/* Close the passes that no marker can continue once the input is at TS. */
static void
tick(int64_t ts)
{
	size_t i;

	if (ts <= min_deadline)
		return;
	min_deadline = INT64_MAX;
	for (i = 0; i < devs.n; i++) {
		struct ldev *d = devs.v[i].item;

		pass_tick(d, ts);
		if (d->deadline < min_deadline)
			min_deadline = d->deadline;
	}
}

static void
do_kernel(void)
{
	const struct layers_cols *cols = stage_columns(lst);
	size_t nl, tl, cl, kl, sl, dl;
	const char *name = stage_get(lst, COL_NAME, &nl);
	const char *type = stage_get(lst, cols->type, &tl);
	const char *core = stage_get(lst, cols->core, &cl);
	const char *track = stage_get(lst, COL_TRACK, &kl);
	const char *step = stage_get(lst, cols->step, &sl);
	const char *dev = stage_get(lst, COL_DEV, &dl);
	struct ldev *d = dev_of(dev, dl);
	struct lkern k;
	int64_t ts = stage_ts(lst);

	if (ts == STAGE_NO_TS || stage_absent(lst, COL_DUR))
		diag_at_fatal(EXIT_BAD, stage_path(lst), stage_lineno(lst),
		    "kernel record without %s", ts == STAGE_NO_TS ? "ts_ns" :
		    "dur_ns");
	k.rec = NULL;
	k.s = ts;
	k.e = ts + stage_dur(lst);
	k.wait = 0;
	if (cols->wait >= 0) {
		int absent;
		int64_t w = stage_i64(lst, cols->wait, &absent);

		if (!absent && w > 0)
			k.wait = w;
	}
	k.name = names_intern(name, nl, type, tl, core, cl);
	k.track = stream_of(d, track, kl);
	sum_kernel(d, &k, names_get(k.name)->flags);
	pass_kernel(d, &k, step, sl);
	if (d->deadline < min_deadline)
		min_deadline = d->deadline;
}

/*
 * A step window of prof-steps: the share of the step a structure takes
 * is its wall over the window of its step, the last one of its dev.
 */
static void
do_window(void)
{
	const struct layers_cols *cols = stage_columns(lst);
	size_t dl, sl;
	const char *dev = stage_get(lst, COL_DEV, &dl);
	const char *step = cols->step >= 0 ? stage_get(lst, cols->step,
	    &sl) : "";
	struct lwin *w = devtab_get(&wins, dev, dl, NULL);

	if (cols->step < 0)
		sl = 0;
	free(w->name);
	w->name = xstrndup(step, sl);
	w->dur = stage_dur(lst);
	stage_pass(lst);
}

/*
 * A host step record (ProfilerStep#N): counted while the dev's
 * detection window is open, so that a kernel that runs once a step is
 * not taken for a layer's anchor.
 */
static void
do_hstep(void)
{
	size_t dl;
	const char *dev = stage_get(lst, COL_DEV, &dl);
	struct lwin *w = devtab_get(&wins, dev, dl, NULL);
	/* A device's window is the one of its own name (dev_of). */
	struct ldev *d = devtab_find(&devs, dev, dl);

	w->hsteps++;
	if (d != NULL && d->win == w && d->nk > 0 && !d->seen_marker &&
	    d->family == FAM_NONE)
		d->win_hsteps++;
	stage_pass(lst);
}

static void
ltype_free(struct ltype *t)
{
	free(t->wall);
	free(t->kcount);
	medq_free(&t->wall_med);
	medq_free(&t->kc_med);
	free(t->seq_name);
	free(t->seq_track);
	free(t->seq_rep);
	free(t->seq_dur);
}

static void
free_devs(void)
{
	size_t i, j;
	int ph;

	for (i = 0; i < devs.n; i++) {
		struct ldev *d = devs.v[i].item;

		for (j = 0; j < NLTYPES && d->pend != NULL; j++)
			ltype_free(&d->pend[j]);
		for (j = 0; j < NLTYPES && d->types != NULL; j++)
			for (ph = 0; ph < NPHASES; ph++)
				ltype_free(ldev_type(d, ph, (int)j));
		free(d->pend);
		free(d->types);
		for (j = 0; j < d->nstreams; j++) {
			free(d->streams[j].track);
			free(d->streams[j].run.s);
			free(d->streams[j].run.e);
		}
		free(d->pair);
		free(d->streams);
		free(d->comm.s);
		free(d->comm.e);
		free(d->comp.s);
		free(d->comp.e);
		free(d->k);
		free(d->gaps);
		free(d->mdur);
		medq_free(&d->layers_per);
		free(d->pass_step);
		free(d->win_step);
		free(d->run_step);
		free(d->run);
		free(d->carry);
		free(d->mk_carry);
		free(d->micro_step);
	}
	devtab_free(&devs);
	for (i = 0; i < wins.n; i++)
		free(((struct lwin *)wins.v[i].item)->name);
	devtab_free(&wins);
}

static void
run(const char *path, int argc, char *argv[])
{
	struct layers_cols c;
	unsigned long line;
	size_t i;

	devtab_init(&devs, sizeof(struct ldev));
	devtab_init(&wins, sizeof(struct lwin));
	lst = stage_open(path, argc, argv, columns, sizeof(columns) /
	    sizeof(columns[0]), &c);
	/* a second run would add every pass, layer and summary again */
	if ((line = stage_seen(lst, "prof-layers", "layer_type")) != 0)
		diag_at_fatal(EXIT_BAD, stage_path(lst), line, "input already "
		    "annotated by prof-layers: its records would be repeated");
	while (stage_next(lst)) {
		if (stage_ts(lst) != STAGE_NO_TS)
			tick(stage_ts(lst));
		if (stage_is(lst, "kernel"))
			do_kernel();
		else if (stage_is(lst, "step"))
			do_hstep();
		else if (stage_is(lst, "window") &&
		    stage_ts(lst) != STAGE_NO_TS && !stage_absent(lst, COL_DUR))
			do_window();
		else
			stage_pass(lst);
	}
	for (i = 0; i < devs.n; i++)
		pass_finish(devs.v[i].item);
	for (i = 0; i < devs.n; i++)
		sum_dev(devs.v[i].item);
	stage_close(lst);
	free_devs();
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "confidence",	required_argument,	NULL, 'c' },
		{ "no-conv",	no_argument,		NULL, 'C' },
		{ "detect",	no_argument,		NULL, 'd' },
		{ "gap",	required_argument,	NULL, 'g' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "marker",	required_argument,	NULL, 'm' },
		{ "period",	required_argument,	NULL, 'p' },
		{ "version",	no_argument,		NULL, 'V' },
		{ "window",	required_argument,	NULL, 'w' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *conf = "0.5", *gap = NULL, *win = "8192", *per = NULL;
	int c;

	cli_init("prof-layers");
	while ((c = getopt_long(argc, argv, "Cc:dg:hm:p:Vw:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'C':
			lopts.no_conv = 1;
			break;
		case 'c':
			conf = optarg;
			break;
		case 'd':
			lopts.detect = 1;
			break;
		case 'g':
			gap = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'm':
			if (optarg[0] == '\0')
				cli_usage_error("option '--marker': empty "
				    "pattern");
			lopts.markers = xreallocarray(lopts.markers,
			    lopts.nmarkers + 1, sizeof(*lopts.markers));
			lopts.markers[lopts.nmarkers++] = optarg;
			break;
		case 'p':
			per = optarg;
			break;
		case 'V':
			cli_version();
			break;
		case 'w':
			win = optarg;
			break;
		default:
			cli_try_help();
		}
	}
	lopts.min_conf_ppm = cli_parse_fixed(conf, "--confidence", 6, 0,
	    1000000);
	lopts.min_conf_text = conf;
	if (gap != NULL)
		lopts.gap_ppm = cli_parse_fixed(gap, "--gap", 6, 1000000,
		    1000000000);
	lopts.window = cli_parse_i64(win, "--window", 16, 1 << 24);
	if (per != NULL)
		lopts.period = cli_parse_i64(per, "--period", 2, lopts.window);
	if (lopts.detect && lopts.markers != NULL)
		cli_usage_error("options '--detect' and '--marker' exclude "
		    "each other");
	if (lopts.detect) {
		/* no name is a marker: every dev goes to detection */
		lopts.nmarkers = 0;
		lopts.markers = xcalloc(1, sizeof(*lopts.markers));
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	run(optind < argc ? argv[optind] : "-", argc, argv);
	free(lopts.markers);
	return EXIT_OK;
}
