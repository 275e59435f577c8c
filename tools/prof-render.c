/*
 * prof-render: the reports people read and the files tools open, from a
 * prof-tsv stream, whatever stages it went through.  It computes nothing
 * a stage should have computed: every number comes from a record.
 *
 * This file holds the options and the table of output formats; the
 * stream is read once (render-model.c), the Chrome trace being written
 * during that read, and each format is a writer given a render context
 * (struct rctx: the output, the model, the options) in render-*.c.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "render.h"
#include "xalloc.h"

static struct render_opts opts = { 5, 10, 20, 0, 0, 500, NULL, 1, 0, NULL };

/*
 * The output formats, in the order -o writes them (the Chrome trace is
 * written while the stream is read, before the others).  -f names a
 * format; the charts share the name svg and are told apart by -c.
 */
const struct rformat render_formats[] = {
	{ "md", NULL, "anomaly_report", "md", "anomaly report", 0,
	    render_md },
	{ "json", NULL, "anomaly_discovery", "json", "anomaly_discovery "
	    "object", 0, render_json },
	{ "text", NULL, "summary", "txt", "terminal summary", 0,
	    render_text },
	{ "html", NULL, "report", "html", "HTML report", RF_SPANS | RF_POINTS,
	    render_html },
	{ "chrome", NULL, "trace", "json", "Chrome trace", RF_STREAM,
	    render_chrome },
	{ "svg", "timeline", "timeline", "svg", "timeline chart", RF_SPANS,
	    render_svg_timeline },
	{ "svg", "breakdown", "breakdown", "svg", "per-step breakdown chart",
	    0, render_svg_breakdown },
	{ "svg", "ranks", "ranks", "svg", "per-rank chart", 0,
	    render_svg_ranks },
	{ "svg", "roofline", "roofline", "svg", "roofline chart", RF_POINTS,
	    render_svg_roofline },
	{ "arch", NULL, "model_architecture_report", "md", "architecture "
	    "report", RF_ARCH | RF_SAY, render_arch },
	{ NULL, NULL, NULL, NULL, NULL, 0, NULL }
};

static struct rmodel model;

/*
 * The file being written under -o DIR, removed on every way out before
 * it is complete (a write error on a full disk, bad input, a failed
 * rename): the hidden file the Chrome trace is written to until the
 * profile's name is known, which the user never asked for, or a report
 * cut short.  NULL between files.
 */
static char *tmp_path;

static void
remove_tmp(void)
{
	if (tmp_path != NULL)
		(void)unlink(tmp_path);
}

/* The hooks run on every record while the model is read. */
static void
hooks(const struct tsvr *in, void *arg)
{
	struct rctx *rc = arg;

	if (rc->chrome != NULL)
		chrome_record(in, rc->chrome);
	if (rc->arch != NULL)
		arch_record(in, rc->arch);
	ranks_record(in, rc->ranks);
	opsv_record(in, rc->ops);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Render a prof-tsv stream as reports and files for tools: "
	    "the Markdown\nanomaly report, its JSON object, a terminal "
	    "summary, a Chrome trace with\noverlays for Perfetto, SVG "
	    "charts, and the model architecture report.\nEvery report "
	    "for people states first what bounds each rank (the verdict\n"
	    "of prof-verdict) and the time budget of a step.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -f, --format=FMT    md (Markdown anomaly report), json "
	    "(anomaly_discovery),\n"
	    "                      text (terminal summary), chrome "
	    "(Chrome trace JSON),\n"
	    "                      svg (a chart, see -c), arch (the "
	    "model architecture\n"
	    "                      report, from prof-layers' records).  "
	    "Default: text on\n"
	    "                      a terminal, md otherwise; text fits the "
	    "terminal's\n"
	    "                      width, else $COLUMNS, else 80\n"
	    "  -c, --chart=CHART   the svg chart: timeline (steps, busy "
	    "time, bubbles\n"
	    "                      by label; the default), breakdown "
	    "(per-step time),\n"
	    "                      ranks (each rank's mean step: work, "
	    "communication,\n"
	    "                      waiting, idle), roofline (kernels against "
	    "the peaks)\n"
	    "  -z, --gzip          -f chrome: write the trace gzip-compressed "
	    "(-o: as\n"
	    "                      trace_NAME.json.gz; Perfetto opens it)\n"
	    "  -D, --device-only   -f chrome: only the devices and the "
	    "overlays (no host\n"
	    "                      threads, no flows)\n"
	    "  -o, --output-dir=DIR  write the report files into DIR "
	    "(every format, or\n"
	    "                      only -f's) instead of standard output\n"
	    "  -N, --name=NAME     the profile name in file names "
	    "(default: from the\n"
	    "                      stream's prof-ingest command line)\n"
	    "  -n, --top=N         bubbles shown per rank (default 5)\n"
	    "  -k, --ops=N         ops shown per rank by cost rank "
	    "(default 10)\n"
	    "  -s, --steps=N       step rows per rank in md and text "
	    "(default 20)\n"
	    "  -S, --step=ID       the step the single-step views show "
	    "(md, text, json:\n"
	    "                      the step shown; default: the busiest, "
	    "the most device\n"
	    "                      busy time over the ranks, the earliest on "
	    "a tie)\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Files written by -o: anomaly_report_NAME.md, "
	    "anomaly_discovery_NAME.json,\nsummary_NAME.txt, "
	    "trace_NAME.json, timeline_NAME.svg, breakdown_NAME.svg,\n"
	    "ranks_NAME.svg, roofline_NAME.svg, "
	    "model_architecture_report_NAME.md; see\nprof-render(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

/* The value of -f or -c: one that the format table names. */
static const char *
lookup(const char *s, int chart, const char *opt)
{
	const struct rformat *f;

	for (f = render_formats; f->name != NULL; f++)
		if (chart ? f->chart != NULL && strcmp(f->chart, s) == 0 :
		    strcmp(f->name, s) == 0)
			return chart ? f->chart : f->name;
	cli_usage_error("option '%s': invalid value '%s'", opt, s);
}

static FILE *
create(const char *dir, const char *stem, const char *ext, char **path)
{
	size_t n = strlen(dir) + strlen(stem) + strlen(model.name) +
	    strlen(ext) + 4;
	FILE *f;

	*path = xmalloc(n);
	snprintf(*path, n, "%s/%s_%s.%s", dir, stem, model.name, ext);
	if ((f = fopen(*path, "w")) == NULL)
		diag_errno(EXIT_BAD, "%s", *path);
	return f;
}

static void
finish(FILE *f, char *path)
{
	if (fflush(f) != 0 || ferror(f)) {
		errno = errno ? errno : EIO;
		diag_errno(EXIT_BAD, "write error: %s", path);
	}
	if (fclose(f) != 0)
		diag_errno(EXIT_BAD, "write error: %s", path);
	free(path);
}

/*
 * Whether format F is one to write for -f FMT (every format when NULL)
 * and -c CHART (every chart when NULL): on standard output the first
 * one selected is written, so -f svg alone is the timeline.
 */
static int
selected(const struct rformat *f, const char *fmt, const char *chart)
{
	if (fmt != NULL && strcmp(f->name, fmt) != 0)
		return 0;
	return fmt == NULL || f->chart == NULL || chart == NULL ||
	    strcmp(f->chart, chart) == 0;
}

/*
 * The width of -f text: the terminal's when standard output is one
 * (and the text goes there), else $COLUMNS, else 80; at least 40.
 */
static int
text_columns(int tostdout)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");
	long w = 0;
	char *end;

	if (tostdout && isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		w = ws.ws_col;
	if (w <= 0 && c != NULL && *c != '\0') {
		w = strtol(c, &end, 10);
		if (*end != '\0')
			w = 0;
	}
	if (w <= 0)
		w = 80;
	return w < 40 ? 40 : w > 1000 ? 1000 : (int)w;
}

static void
ctx_init(struct rctx *rc, FILE *out)
{
	memset(rc, 0, sizeof(*rc));
	rc->out = out;
	rc->m = &model;
	rc->opts = &opts;
	rc->width = text_columns(out == stdout);
}

/* Read the stream, keeping what the formats in NEEDS want. */
static void
read_model(struct rctx *rc, const char *path, unsigned needs, FILE *stream)
{
	opts.spans = (needs & RF_SPANS) != 0;
	opts.points = (needs & RF_POINTS) != 0;
	if (needs & RF_STREAM)
		rc->chrome = chrome_open(stream, opts.chrome);
	if (needs & RF_ARCH)
		rc->arch = arch_open();
	rc->ranks = ranks_open();
	rc->ops = opsv_open();
	model_read(&model, path, &opts, hooks, rc);
}

/* -o DIR: every format (or FMT's only) into files of DIR. */
static void
run_dir(const char *path, const char *dir, const char *fmt, const char *chart)
{
	const struct rformat *f, *streamed = NULL;
	const char *sext = NULL;
	struct rctx rc;
	unsigned needs = 0;
	FILE *sf = NULL, *out;
	char *spath = NULL, *p;
	struct stat sb;
	size_t n;

	atexit(remove_tmp);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		diag_errno(EXIT_BAD, "%s", dir);
	if (stat(dir, &sb) != 0)
		diag_errno(EXIT_BAD, "%s", dir);
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		diag_errno(EXIT_BAD, "%s", dir);
	}
	for (f = render_formats; f->name != NULL; f++)
		if (selected(f, fmt, chart)) {
			needs |= f->needs;
			if (f->needs & RF_STREAM)
				streamed = f;
		}
	/* The roofline file says itself when it is empty. */
	opts.warn_roof = 0;
	if (streamed != NULL) {
		/* The profile's name, in the file's, is known only later. */
		sext = opts.chrome & CHROME_GZIP ? "json.gz" : streamed->ext;
		n = strlen(dir) + strlen(streamed->stem) + strlen(sext) + 8;
		spath = xmalloc(n);
		snprintf(spath, n, "%s/.%s.%s.tmp", dir, streamed->stem, sext);
		if ((sf = fopen(spath, "w")) == NULL)
			diag_errno(EXIT_BAD, "%s", spath);
		tmp_path = spath;
	}
	ctx_init(&rc, sf);
	read_model(&rc, path, needs, sf);
	if (streamed != NULL) {
		streamed->write(&rc);
		finish(sf, xstrdup(spath));
		p = xmalloc(strlen(dir) + strlen(streamed->stem) +
		    strlen(model.name) + strlen(sext) + 4);
		sprintf(p, "%s/%s_%s.%s", dir, streamed->stem, model.name,
		    sext);
		if (rename(spath, p) != 0)
			diag_errno(EXIT_BAD, "%s", p);
		tmp_path = NULL;
		free(spath);
		free(p);
	}
	for (f = render_formats; f->name != NULL; f++) {
		if (!selected(f, fmt, chart) || (f->needs & RF_STREAM))
			continue;
		rc.out = out = create(dir, f->stem, f->ext, &p);
		/* a report cut short by a write error is not left behind */
		tmp_path = p;
		f->write(&rc);
		finish(out, xstrdup(p));
		tmp_path = NULL;
		/*
		 * Step A9 of the method: tell the user the path
		 * (doc/analysis-rules.md, Reports).
		 */
		if (f->needs & RF_SAY)
			fprintf(stderr, "%s: %s written to %s\n",
			    diag_progname(), f->what, p);
		free(p);
	}
	arch_close(rc.arch);
	ranks_close(rc.ranks);
	opsv_close(rc.ops);
}

/* One format on standard output. */
static void
run(const char *path, const char *fmt, const char *chart)
{
	const struct rformat *f;
	struct rctx rc;

	for (f = render_formats; !selected(f, fmt, chart); f++)
		;
	ctx_init(&rc, stdout);
	read_model(&rc, path, f->needs, stdout);
	f->write(&rc);
	arch_close(rc.arch);
	ranks_close(rc.ranks);
	opsv_close(rc.ops);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chart",	required_argument,	NULL, 'c' },
		{ "device-only", no_argument,		NULL, 'D' },
		{ "gzip",	no_argument,		NULL, 'z' },
		{ "format",	required_argument,	NULL, 'f' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "name",	required_argument,	NULL, 'N' },
		{ "ops",	required_argument,	NULL, 'k' },
		{ "output-dir",	required_argument,	NULL, 'o' },
		{ "step",	required_argument,	NULL, 'S' },
		{ "steps",	required_argument,	NULL, 's' },
		{ "top",	required_argument,	NULL, 'n' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *dir = NULL, *fmt = NULL, *chart = NULL;
	int c;

	cli_init("prof-render");
	while ((c = getopt_long(argc, argv, "c:Df:hk:N:n:o:S:s:Vz", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'c':
			chart = lookup(optarg, 1, "--chart");
			break;
		case 'D':
			opts.chrome |= CHROME_DEVICE_ONLY;
			break;
		case 'f':
			fmt = lookup(optarg, 0, "--format");
			break;
		case 'h':
			usage();
			break;
		case 'k':
			opts.ops = (size_t)cli_parse_i64(optarg, "--ops", 0,
			    1000000);
			break;
		case 'N':
			if (*optarg == '\0' || strchr(optarg, '/') != NULL)
				cli_usage_error("option '--name': invalid "
				    "value '%s'", optarg);
			opts.name = optarg;
			break;
		case 'n':
			opts.top = (size_t)cli_parse_i64(optarg, "--top", 0,
			    1000000);
			break;
		case 'o':
			dir = optarg;
			break;
		case 'S':
			if (*optarg == '\0')
				cli_usage_error("option '--step': invalid "
				    "value ''");
			opts.step = optarg;
			break;
		case 's':
			opts.steps = (size_t)cli_parse_i64(optarg, "--steps",
			    0, 100000000);
			break;
		case 'V':
			cli_version();
			break;
		case 'z':
			opts.chrome |= CHROME_GZIP;
			break;
		default:
			cli_try_help();
		}
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	if (opts.chrome != 0 && fmt != NULL && strcmp(fmt, "chrome") != 0)
		cli_usage_error("options '--gzip' and '--device-only' need "
		    "'--format=chrome'");
	if (chart != NULL && fmt != NULL && strcmp(fmt, "svg") != 0)
		cli_usage_error("option '--chart' needs '--format=svg'");
	if (chart != NULL && fmt == NULL && dir == NULL)
		fmt = "svg";
	if (dir != NULL)
		run_dir(optind < argc ? argv[optind] : "-", dir, fmt, chart);
	else
		run(optind < argc ? argv[optind] : "-", fmt != NULL ? fmt :
		    isatty(STDOUT_FILENO) ? "text" : "md", chart);
	if (render_bad_utf8 > 0)
		diag_warn("%s: %zu ill-formed UTF-8 sequence%s replaced with "
		    "U+FFFD in the JSON and SVG output (prof-tsv is UTF-8)",
		    diag_path(optind < argc ? argv[optind] : "-"),
		    render_bad_utf8, render_bad_utf8 == 1 ? "" : "s");
	/* a damaged input: the reports hold what came before it */
	return model.damaged ? EXIT_BAD : EXIT_OK;
}
