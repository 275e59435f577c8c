/*
 * prof-attrib: soft attribution of device idle bubbles to host activity.
 *
 * For every bubble record it measures how much of its time host events,
 * sync or copy markers and communication markers cover, how many host
 * threads were active at once, what the host was doing at each instant
 * (sync, input, launch, other host work, nothing traced) and which host
 * events cover it most (attrib-bub.c); from these it writes the
 * candidate labels.  At the end it writes summary "cause" records per
 * step group and per rank (attrib-sum.c) and the host names that cover
 * each step's and group's idle time (attrib-cov.c).  This file holds the
 * options and the read loop.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "cli.h"
#include "diag.h"
#include "stage.h"
#include "xalloc.h"

struct attrib_opts aopt = {
	200000, 200000, 50000, 100000, 1200000, 200000, 300000, 500000,
	1000000, 500000, 500000, 500000, 100000, 500000, 10, 50000, 500000, 0, 0
};

#define COL(m, name, flags)	STAGE_COLUMN(struct attrib_cols, m, name, flags)
/* The columns prof-attrib adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(host, "host_cov_ratio", STAGE_ADD),
	COL(sync, "sync_cov_ratio", STAGE_ADD),
	COL(comm, "comm_cov_ratio", STAGE_ADD),
	COL(par, "host_par", STAGE_ADD),
	COL(labels, "labels", STAGE_ADD),
	COL(tags, "tags", STAGE_READ | STAGE_ADD),
	COL(value, "value", STAGE_ADD),
	COL(confidence, "confidence", STAGE_ADD),
	COL(scope, "scope", STAGE_ADD),
	COL(target, "target_id", STAGE_ADD),
	COL(evidence, "evidence", STAGE_ADD),
	COL(followup, "followup", STAGE_ADD),
	COL(idle[CLS_SYNC], "idle_sync_ns", STAGE_ADD),
	COL(idle[CLS_INPUT], "idle_input_ns", STAGE_ADD),
	COL(idle[CLS_LAUNCH], "idle_launch_ns", STAGE_ADD),
	COL(idle[CLS_HOST], "idle_host_ns", STAGE_ADD),
	COL(idle[CLS_N], "idle_untraced_ns", STAGE_ADD),
	COL(top, "host_top", STAGE_ADD),
	COL(host_class, "host_class", STAGE_ADD),
	COL(covered, "covered_ns", STAGE_ADD),
	COL(share, "share_ratio", STAGE_ADD),
	COL(cat, "cat", STAGE_READ),
	COL(step, "step", STAGE_READ),
	COL(group, "step_group", STAGE_READ),
	COL(shapes, "in_shapes", STAGE_READ),
	COL(next, "next_name", STAGE_READ),
};
#undef COL

static void
read_window(struct stage *st, int64_t dur)
{
	const struct attrib_cols *c = stage_columns(st);
	const char *step, *group;
	size_t slen, glen;

	step = stage_get(st, c->step, &slen);
	group = stage_get(st, c->group, &glen);
	if (slen > 0 && dur > 0)
		sum_window(bub_dev_id(st), step, slen, group, glen, dur);
}

/* One input record: feed what it says, then pass or keep it. */
static void
record(struct stage *st, int64_t *first)
{
	int64_t ts = stage_ts(st), dur = stage_dur(st);
	const char *kind;
	size_t klen;

	if (ts != STAGE_NO_TS && *first == STAGE_NO_TS)
		*first = ts;
	kind = stage_get(st, COL_KIND, &klen);
	if (bub_record(st, ts, dur, kind, klen))
		return;
	if (klen == 6 && memcmp(kind, "window", 6) == 0)
		read_window(st, dur);
	stage_pass(st);
}

static void
run(const char *path, int argc, char **argv)
{
	struct attrib_cols c;
	struct stage *st;
	int64_t first = STAGE_NO_TS;

	st = stage_open(path, argc, argv, columns,
	    sizeof(columns) / sizeof(columns[0]), &c);
	bub_init(st);
	while (stage_next(st))
		record(st, &first);
	bub_end(st);
	sum_write(st, first, stage_end_ts(st));
	cov_write(st, stage_end_ts(st));
	stage_close(st);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Measure host, sync and communication coverage of each device "
	    "idle bubble,\nsplit it by what the host was doing, name the host "
	    "events that cover it,\nlabel its possible causes, and summarize "
	    "them per step group and rank.\n\n");
	printf("FILE is a prof-tsv stream with bubble records "
	    "(prof-bubbles); with no FILE,\nor when FILE is -, read standard "
	    "input.\n\n");
	printf("Marker families (PATTERN: glob with '*', whole name, case "
	    "sensitive;\n'cat:' matches the cat column, '!' excludes):\n"
	    "      --host=PATTERN      add a pattern to the host family\n"
	    "      --sync=PATTERN      ... to the sync/copy family\n"
	    "      --comm=PATTERN      ... to the communication family\n"
	    "      --launch=PATTERN    ... to the kernel launch family\n"
	    "      --input=PATTERN     ... to the input pipeline family\n"
	    "      --cpu=PATTERN       ... to the CPU work (optimizer) family\n"
	    "  -M, --markers=FILE      read 'FAMILY PATTERN' lines from "
	    "FILE\n"
	    "  -n, --no-default-markers  start from empty families\n"
	    "  -l, --list-markers      print the patterns in effect and "
	    "exit\n\n");
	printf("Thresholds (ratios with up to 6 decimals):\n"
	    "      --sync-min=R        possible_sync_or_h2d at sync >= R "
	    "(0.2)\n"
	    "      --comm-min=R        possible_comm_wait at comm >= R "
	    "(0.2)\n"
	    "      --untraced-max=R    possible_untraced_host_blocking at "
	    "host < R (0.05)\n"
	    "      --launch-min=R      possible_host_launch_lag at host >= R "
	    "(0.1)\n"
	    "      --par-max=R         possible_python_serialization_or_lock "
	    "at\n"
	    "                          host_par < R (1.2; 0 turns it off)\n"
	    "      --share-min=R       summary label at share >= R (0.2)\n"
	    "      --underfeed-min=R   high underfeed at >= R (0.3)\n"
	    "      --clear-min=R       clear host markers at coverage >= R "
	    "(0.5)\n"
	    "      --input-min=R       input_pipeline_stall at input >= R "
	    "(0.5)\n"
	    "      --sync-stall-min=R  host_sync_stall at sync idle >= R "
	    "(0.5)\n"
	    "      --busy-min=R        launch_bound or host_cpu_work at "
	    "launch+host >= R (0.5)\n"
	    "      --launch-share=R    launch_bound at launch >= R of "
	    "launch+host (0.1)\n"
	    "      --cpu-min=R         host_cpu_work at cpu family >= R "
	    "(0.5)\n"
	    "      --small-count=N     many small gaps: at least N per step "
	    "(10)\n"
	    "      --small-share=R     ... holding >= R of the window time "
	    "(0.05)\n"
	    "      --small-host=R      ... launch+host >= R of their time "
	    "(0.5)\n"
	    "  -s, --significant=NS    significant bubble floor in ns "
	    "(1000000)\n"
	    "  -S, --step-causes       also write cause records per step\n"
	    "      --device-elsewhere  ranks of the job not in this stream have "
	    "device data:\n"
	    "                          a rank here without any is judged so "
	    "(prof-report's\n"
	    "                          pipeline per rank)\n\n");
	printf("  -h, --help              display this help and exit\n"
	    "  -V, --version           output version information and exit\n\n");
	printf("Exit status: 0 on success, 1 for bad input or a write error, "
	    "2 for usage\nerrors.  See prof-attrib(1).\n");
	exit(EXIT_OK);
}

/* A ratio option: digits with up to 6 decimals, as millionths. */
static int64_t
parse_ppm(const char *opt, const char *arg)
{
	const char *p = arg;
	int64_t v = 0, scale = 1000000;
	int digits = 0;

	for (; *p >= '0' && *p <= '9' && v < 1000000; p++, digits++)
		v = v * 10 + (*p - '0');
	v *= scale;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && scale > 1; p++, digits++) {
			scale /= 10;
			v += (*p - '0') * scale;
		}
	if (digits == 0 || *p != '\0')
		cli_usage_error("option '--%s': invalid ratio '%s'", opt, arg);
	return v;
}

/* The family options in the order of the families (FAM_*). */
enum {
	O_HOST = 256, O_SYNC, O_COMM, O_LAUNCH, O_INPUT, O_CPU, O_SYNCMIN,
	O_COMMMIN, O_UNTRACED, O_LAUNCHMIN, O_PARMAX, O_SHARE, O_UNDERFEED,
	O_CLEAR, O_INPUTMIN, O_STALLMIN, O_BUSYMIN, O_LSHARE, O_CPUMIN,
	O_SMALLCOUNT, O_SMALLSHARE, O_SMALLHOST, O_ELSEWHERE
};

static const struct option longopts[] = {
	{ "host",		required_argument,	NULL, O_HOST },
	{ "sync",		required_argument,	NULL, O_SYNC },
	{ "comm",		required_argument,	NULL, O_COMM },
	{ "launch",		required_argument,	NULL, O_LAUNCH },
	{ "input",		required_argument,	NULL, O_INPUT },
	{ "cpu",		required_argument,	NULL, O_CPU },
	{ "markers",		required_argument,	NULL, 'M' },
	{ "no-default-markers",	no_argument,		NULL, 'n' },
	{ "list-markers",	no_argument,		NULL, 'l' },
	{ "sync-min",		required_argument,	NULL, O_SYNCMIN },
	{ "comm-min",		required_argument,	NULL, O_COMMMIN },
	{ "untraced-max",	required_argument,	NULL, O_UNTRACED },
	{ "launch-min",		required_argument,	NULL, O_LAUNCHMIN },
	{ "par-max",		required_argument,	NULL, O_PARMAX },
	{ "share-min",		required_argument,	NULL, O_SHARE },
	{ "underfeed-min",	required_argument,	NULL, O_UNDERFEED },
	{ "clear-min",		required_argument,	NULL, O_CLEAR },
	{ "input-min",		required_argument,	NULL, O_INPUTMIN },
	{ "sync-stall-min",	required_argument,	NULL, O_STALLMIN },
	{ "busy-min",		required_argument,	NULL, O_BUSYMIN },
	{ "launch-share",	required_argument,	NULL, O_LSHARE },
	{ "cpu-min",		required_argument,	NULL, O_CPUMIN },
	{ "small-count",	required_argument,	NULL, O_SMALLCOUNT },
	{ "small-share",	required_argument,	NULL, O_SMALLSHARE },
	{ "small-host",		required_argument,	NULL, O_SMALLHOST },
	{ "device-elsewhere",	no_argument,		NULL, O_ELSEWHERE },
	{ "significant",	required_argument,	NULL, 's' },
	{ "step-causes",	no_argument,		NULL, 'S' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'V' },
	{ NULL,			0,			NULL, 0 }
};

/* Where each threshold option stores its value. */
static int64_t *
threshold(int c)
{
	switch (c) {
	case O_SYNCMIN:		return &aopt.sync_min;
	case O_COMMMIN:		return &aopt.comm_min;
	case O_UNTRACED:	return &aopt.untraced_max;
	case O_LAUNCHMIN:	return &aopt.launch_min;
	case O_PARMAX:		return &aopt.par_max;
	case O_SHARE:		return &aopt.share_min;
	case O_UNDERFEED:	return &aopt.underfeed_min;
	case O_CLEAR:		return &aopt.clear_min;
	case O_INPUTMIN:	return &aopt.input_min;
	case O_STALLMIN:	return &aopt.stall_min;
	case O_BUSYMIN:		return &aopt.busy_min;
	case O_LSHARE:		return &aopt.lshare_min;
	case O_CPUMIN:		return &aopt.cpu_min;
	case O_SMALLSHARE:	return &aopt.small_share;
	case O_SMALLHOST:	return &aopt.small_host;
	}
	return NULL;
}

static const char *
opt_name(int c)
{
	size_t i;

	for (i = 0; longopts[i].name != NULL; i++)
		if (longopts[i].val == c)
			break;
	return longopts[i].name;
}

/*
 * Marker options are applied in order after the defaults, so that
 * --no-default-markers anywhere on the line drops only the built-ins.
 */
struct mopt {
	int		 fam;	/* -1: a markers file */
	const char	*arg;
};

static void
set_markers(struct mopt *mo, size_t nmo, int nodef)
{
	size_t i;

	if (!nodef)
		match_defaults();
	for (i = 0; i < nmo; i++)
		if (mo[i].fam < 0)
			match_read_file(mo[i].arg);
		else
			match_add(mo[i].fam, mo[i].arg);
	free(mo);
}

int
main(int argc, char **argv)
{
	/* Static, so that a usage error that exits does not leave it lost. */
	static struct mopt *mo;
	size_t nmo = 0;
	int c, nodef = 0, list = 0;

	cli_init("prof-attrib");
	mo = xcalloc((size_t)argc, sizeof(*mo));
	while ((c = getopt_long(argc, argv, "hlM:ns:SV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case O_HOST: case O_SYNC: case O_COMM: case O_LAUNCH:
		case O_INPUT: case O_CPU:
			mo[nmo].fam = c - O_HOST;
			mo[nmo++].arg = optarg;
			break;
		case 'M':
			mo[nmo].fam = -1;
			mo[nmo++].arg = optarg;
			break;
		case 'n':
			nodef = 1;
			break;
		case 'l':
			list = 1;
			break;
		case 's':
			aopt.significant_ns = cli_parse_i64(optarg,
			    "--significant", 0, INT64_MAX);
			break;
		case 'S':
			aopt.step_causes = 1;
			break;
		case O_ELSEWHERE:
			aopt.device_elsewhere = 1;
			break;
		case O_SMALLCOUNT:
			aopt.small_count = cli_parse_i64(optarg,
			    "--small-count", 0, INT64_MAX / 4);
			break;
		case 'h':
			usage();
			break;
		case 'V':
			cli_version();
			break;
		default:
			if (threshold(c) == NULL)
				cli_try_help();
			*threshold(c) = parse_ppm(opt_name(c), optarg);
		}
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	set_markers(mo, nmo, nodef);
	if (list) {
		match_list();
		return EXIT_OK;
	}
	run(optind < argc ? argv[optind] : NULL, argc, argv);
	return EXIT_OK;
}
