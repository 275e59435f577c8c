/*
 * prof-bubbles: device idle gaps ("bubbles") of a prof-tsv stream with
 * step windows (prof-steps) and busy segments (prof-merge): per-step
 * gap metrics and severity tags, one bubble record per gap with the
 * kernels before and after it, group statistics and the whole-capture
 * gap analysis (doc/analysis-rules.md: Busy time, Step bubble metrics,
 * Bubbles and severity, Group statistics and the idle pattern,
 * Whole-capture gaps).
 *
 * This file holds the options and the read loop; bubbles-gap.c follows
 * the gaps, bubbles-sum.c writes the summaries.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bubbles.h"
#include "cli.h"
#include "diag.h"
#include "stage.h"

enum {
	OPT_MIN_HEAVY = 256, OPT_HEAVY, OPT_UNDERFEED, OPT_IDLE_RULE,
	OPT_RECURRING, OPT_MIXED, OPT_SHARE, OPT_NEAR, OPT_FLOOR
};

#define COL(m, name, flags)	STAGE_COLUMN(struct bub_cols, m, name, flags)
/* The columns prof-bubbles adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(step, "step", STAGE_ADD),
	COL(group, "step_group", STAGE_ADD),
	COL(tags, "tags", STAGE_ADD),
	COL(value, "value", STAGE_ADD),
	COL(id, "bubble_id", STAGE_ADD),
	COL(prev[0], "prev_name", STAGE_ADD),
	COL(prev[1], "prev_core", STAGE_ADD),
	COL(prev[2], "prev_dur_ns", STAGE_ADD),
	COL(prev[3], "prev_track", STAGE_ADD),
	COL(next[0], "next_name", STAGE_ADD),
	COL(next[1], "next_core", STAGE_ADD),
	COL(next[2], "next_dur_ns", STAGE_ADD),
	COL(next[3], "next_track", STAGE_ADD),
	COL(core, "core", STAGE_READ),
};
#undef COL

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Find device idle gaps (bubbles) per step and over the whole "
	    "capture.\n\n");
	printf("Reads a prof-tsv stream with window records (prof-steps), "
	    "busy records\n(prof-merge) and kernel records; with no FILE, "
	    "or when FILE is -, reads\nstandard input.\n\n");
	printf("  -t, --top=N            top whole-capture gaps per device "
	    "(default 5)\n"
	    "      --min-heavy=NS     floor of the heavy-gap threshold T "
	    "(default 1000000)\n"
	    "      --heavy=RATIO      T = max(min-heavy, RATIO * service) "
	    "(default 0.1)\n"
	    "      --underfeed=RATIO  underfeed ratio of DEVICE_IDLE_GAP_HEAVY"
	    " (default 0.3)\n"
	    "      --idle-rule=RULE   'rulebook' (any heavy gap, default) or "
	    "'script'\n"
	    "                         (underfeed ratio only) for "
	    "DEVICE_IDLE_GAP_HEAVY\n"
	    "      --recurring=RATIO  share of steps with bubbles for "
	    "RECURRING_BUBBLE_PATTERN\n"
	    "                         (default 0.6)\n"
	    "      --mixed=RATIO      dominant pattern 'mixed' when the top "
	    "two differ by\n"
	    "                         less than RATIO of the top (default "
	    "0.1; 0: never)\n"
	    "      --tag-share=RATIO  share of a group's steps for a dominant "
	    "tag (default 0.5)\n"
	    "      --near=NS          distance from the capture boundary "
	    "that counts as at\n"
	    "                         it (default 1000000)\n"
	    "  -h, --help             display this help and exit\n"
	    "  -V, --version          output version information and "
	    "exit\n\n");
	printf("Adds bubble records (prelaunch, step_internal, tail, global), "
	    "per-step metric\nrecords, tags on window records, and summary "
	    "records; see prof-bubbles(1).\n\n");
	printf("Exit status: 0 if the stream was read and written, 1 for bad "
	    "input or a write\nerror, 2 for usage errors.\n");
	exit(EXIT_OK);
}

/* A decimal fraction from 0 to 1 ("0.3", "1", ".25") as NUM / DEN. */
static struct ratio
parse_ratio(const char *arg, const char *opt)
{
	struct ratio r = { 0, 1 };
	const char *p = arg;
	int digits = 0, frac = 0;

	for (; *p >= '0' && *p <= '9' && r.num <= r.den; p++, digits++)
		r.num = r.num * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && frac < 9; p++, frac++,
		    digits++) {
			r.num = r.num * 10 + (*p - '0');
			r.den *= 10;
		}
	if (*p != '\0' || digits == 0 || r.num > r.den)
		cli_usage_error("option '%s': invalid ratio '%s' (expected a "
		    "decimal from 0 to 1, at most 9 places)", opt, arg);
	return r;
}

static void
defaults(struct bub_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->top = 5;
	o->min_heavy = 1000000;
	o->heavy = (struct ratio){ 1, 10 };
	o->underfeed = (struct ratio){ 3, 10 };
	o->recurring = (struct ratio){ 6, 10 };
	o->mixed = (struct ratio){ 1, 10 };
	o->share = (struct ratio){ 1, 2 };
	o->near = 1000000;
	o->floor = 100000;
}

static void
parse_opt(struct bub_opts *o, int c)
{
	switch (c) {
	case 't':
		o->top = cli_parse_i64(optarg, "--top", 0, 1000000);
		break;
	case OPT_MIN_HEAVY:
		o->min_heavy = cli_parse_i64(optarg, "--min-heavy", 0,
		    INT64_MAX);
		break;
	case OPT_HEAVY:
		o->heavy = parse_ratio(optarg, "--heavy");
		break;
	case OPT_UNDERFEED:
		o->underfeed = parse_ratio(optarg, "--underfeed");
		break;
	case OPT_IDLE_RULE:
		if (strcmp(optarg, "script") != 0 &&
		    strcmp(optarg, "rulebook") != 0)
			cli_usage_error("option '--idle-rule': invalid rule "
			    "'%s' (expected 'rulebook' or 'script')", optarg);
		o->script_idle = strcmp(optarg, "script") == 0;
		break;
	case OPT_RECURRING:
		o->recurring = parse_ratio(optarg, "--recurring");
		break;
	case OPT_MIXED:
		o->mixed = parse_ratio(optarg, "--mixed");
		break;
	case OPT_SHARE:
		o->share = parse_ratio(optarg, "--tag-share");
		break;
	case OPT_NEAR:
		o->near = cli_parse_i64(optarg, "--near", 0, INT64_MAX);
		break;
	case OPT_FLOOR:
		o->floor = cli_parse_i64(optarg, "--floor", 0, INT64_MAX);
		break;
	default:
		cli_try_help();
	}
}

/* Whether the field S of length LEN is the literal kind K. */
#define IS(s, len, k) ((len) == sizeof(k) - 1 && memcmp((s), (k), (len)) == 0)

/* The read loop: bubbles are proven and windows ended before a record. */
static void
run(const char *path, const struct bub_opts *o, int argc, char *argv[])
{
	struct stage *st;
	struct bub_cols c;
	const char *kind;
	size_t len;

	st = stage_open(path, argc, argv, columns,
	    sizeof(columns) / sizeof(columns[0]), &c);
	gap_init(st, o, &c);
	sum_init(st, o, &c);
	while (stage_next(st)) {
		int64_t ts = stage_ts(st);

		if (ts == STAGE_NO_TS) {
			stage_pass(st);
			continue;
		}
		gap_before(ts);
		kind = stage_get(st, COL_KIND, &len);
		if (IS(kind, len, "window")) {
			gap_window();
			continue;
		}
		stage_pass(st);
		if (IS(kind, len, "busy"))
			gap_busy();
		else if (IS(kind, len, "kernel"))
			gap_kernel();
	}
	gap_finish();
	sum_write();
	stage_close(st);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "top",	required_argument,	NULL, 't' },
		{ "min-heavy",	required_argument,	NULL, OPT_MIN_HEAVY },
		{ "heavy",	required_argument,	NULL, OPT_HEAVY },
		{ "underfeed",	required_argument,	NULL, OPT_UNDERFEED },
		{ "idle-rule",	required_argument,	NULL, OPT_IDLE_RULE },
		{ "recurring",	required_argument,	NULL, OPT_RECURRING },
		{ "mixed",	required_argument,	NULL, OPT_MIXED },
		{ "tag-share",	required_argument,	NULL, OPT_SHARE },
		{ "near",	required_argument,	NULL, OPT_NEAR },
		{ "floor",	required_argument,	NULL, OPT_FLOOR },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	struct bub_opts o;
	int c;

	cli_init("prof-bubbles");
	defaults(&o);
	while ((c = getopt_long(argc, argv, "ht:V", longopts, NULL)) != -1) {
		if (c == 'h')
			usage();
		else if (c == 'V')
			cli_version();
		else
			parse_opt(&o, c);
	}
	if (argc - optind > 1)
		cli_usage_error("too many operands: one FILE at most");
	run(optind < argc ? argv[optind] : "-", &o, argc, argv);
	return EXIT_OK;
}
