/*
 * prof-render: the reports people read and the files tools open, from a
 * prof-tsv stream, whatever stages it went through.  It computes nothing
 * a stage should have computed: every number comes from a record.
 *
 * This file holds the options and the choice of outputs; the stream is
 * read once (render-model.c), the Chrome trace being written during that
 * read, and each format is a function of the model (render-*.c).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "render.h"
#include "xalloc.h"

struct render_opts render_opts = { 5, 10, 20, 0, 0, 500, NULL, 1 };

enum fmt { F_MD, F_JSON, F_TEXT, F_CHROME, F_SVG, F_ARCH, F_N };
static const char *const fmtname[F_N] = {
	"md", "json", "text", "chrome", "svg", "arch"
};
static const char *const chartname[] = { "timeline", "breakdown",
	"roofline" };

static struct rmodel model;

/* The hooks run on every record while the model is read. */
static struct chrome_out *hook_chrome;
static struct arch *hook_arch;

static void
hooks(const struct tsvr *in, void *arg)
{
	(void)arg;
	if (hook_chrome != NULL)
		chrome_record(in, hook_chrome);
	if (hook_arch != NULL)
		arch_record(in, hook_arch);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Render a prof-tsv stream as reports and files for tools: "
	    "the Markdown\nanomaly report, its JSON object, a terminal "
	    "summary, a Chrome trace with\noverlays for Perfetto, SVG "
	    "charts, and the model architecture report.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -f, --format=FMT    md (Markdown anomaly report), json "
	    "(anomaly_discovery),\n"
	    "                      text (terminal summary), chrome "
	    "(Chrome trace JSON),\n"
	    "                      svg (a chart, see -c), arch (the "
	    "model architecture\n"
	    "                      report, from prof-layers' records).  "
	    "Default: text on\n"
	    "                      a terminal, md otherwise\n"
	    "  -c, --chart=CHART   the svg chart: timeline (steps, busy "
	    "time, bubbles\n"
	    "                      by label; the default), breakdown "
	    "(per-step time),\n"
	    "                      roofline (kernels against the peaks)\n"
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
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Files written by -o: anomaly_report_NAME.md, "
	    "anomaly_discovery_NAME.json,\nsummary_NAME.txt, "
	    "trace_NAME.json, timeline_NAME.svg, breakdown_NAME.svg,\n"
	    "roofline_NAME.svg, model_architecture_report_NAME.md; see "
	    "prof-render(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

static int
lookup(const char *const *names, int n, const char *s, const char *opt)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
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

static void
write_fmt(FILE *f, int fmt, int chart)
{
	switch (fmt) {
	case F_MD:
		render_md(f, &model);
		break;
	case F_JSON:
		render_json(f, &model);
		break;
	case F_TEXT:
		render_text(f, &model);
		break;
	case F_SVG:
		render_svg(f, &model, chart);
		break;
	case F_ARCH:
		render_arch(f, &model, hook_arch);
		break;
	default:
		break;
	}
}

/* -o DIR: every format (or FMT's only) into files of DIR. */
static void
run_dir(const char *path, const char *dir, int fmt, int chart)
{
	static const char *const stem[] = { "anomaly_report",
	    "anomaly_discovery", "summary" };
	static const char *const ext[] = { "md", "json", "txt" };
	struct chrome_out *co = NULL;
	FILE *cf = NULL;
	char *cpath = NULL, *p;
	FILE *f;
	struct stat sb;
	int i;


	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		diag_errno(EXIT_BAD, "%s", dir);
	if (stat(dir, &sb) != 0)
		diag_errno(EXIT_BAD, "%s", dir);
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		diag_errno(EXIT_BAD, "%s", dir);
	}
	/* The roofline file says itself when it is empty. */
	render_opts.warn_roof = 0;
	render_opts.spans = fmt < 0 || fmt == F_SVG;
	render_opts.points = fmt < 0 || fmt == F_SVG;
	if (fmt < 0 || fmt == F_CHROME) {
		size_t n = strlen(dir) + 32;
		cpath = xmalloc(n);
		snprintf(cpath, n, "%s/.trace.json.tmp", dir);
		if ((cf = fopen(cpath, "w")) == NULL)
			diag_errno(EXIT_BAD, "%s", cpath);
		co = chrome_open(cf);
	}
	hook_chrome = co;
	if (fmt < 0 || fmt == F_ARCH)
		hook_arch = arch_open();
	model_read(&model, path, co || hook_arch ? hooks : NULL, NULL);
	if (co != NULL) {
		chrome_close(co, &model);
		/* The profile's name is known only now. */
		finish(cf, xstrdup(cpath));
		p = xmalloc(strlen(dir) + strlen(model.name) + 16);
		sprintf(p, "%s/trace_%s.json", dir, model.name);
		if (rename(cpath, p) != 0)
			diag_errno(EXIT_BAD, "%s", p);
		free(cpath);
		free(p);
	}
	for (i = 0; i < 3; i++)
		if (fmt < 0 || fmt == i) {
			f = create(dir, stem[i], ext[i], &p);
			write_fmt(f, i, 0);
			finish(f, p);
		}
	for (i = 0; i < 3; i++)
		if (fmt < 0 || (fmt == F_SVG && (chart < 0 || chart == i))) {
			f = create(dir, chartname[i], "svg", &p);
			render_svg(f, &model, i);
			finish(f, p);
		}
	if (fmt < 0 || fmt == F_ARCH) {
		f = create(dir, "model_architecture_report", "md", &p);
		render_arch(f, &model, hook_arch);
		finish(f, xstrdup(p));
		/* Step A9 of the analysis rules: tell the user the path. */
		fprintf(stderr, "%s: architecture report written to %s\n",
		    diag_progname(), p);
		free(p);
	}
}

static void
run(const char *path, int fmt, int chart)
{
	struct chrome_out *co = NULL;

	if (fmt == F_CHROME)
		co = chrome_open(stdout);
	render_opts.spans = fmt == F_SVG && chart == SVG_TIMELINE;
	render_opts.points = fmt == F_SVG && chart == SVG_ROOFLINE;
	hook_chrome = co;
	if (fmt == F_ARCH)
		hook_arch = arch_open();
	model_read(&model, path, co || hook_arch ? hooks : NULL, NULL);
	if (co != NULL)
		chrome_close(co, &model);
	else
		write_fmt(stdout, fmt, chart);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chart",	required_argument,	NULL, 'c' },
		{ "format",	required_argument,	NULL, 'f' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "name",	required_argument,	NULL, 'N' },
		{ "ops",	required_argument,	NULL, 'k' },
		{ "output-dir",	required_argument,	NULL, 'o' },
		{ "steps",	required_argument,	NULL, 's' },
		{ "top",	required_argument,	NULL, 'n' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *dir = NULL;
	int c, fmt = -1, chart = -1;

	cli_init("prof-render");
	while ((c = getopt_long(argc, argv, "c:f:hk:N:n:o:s:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'c':
			chart = lookup(chartname, 3, optarg, "--chart");
			break;
		case 'f':
			fmt = lookup(fmtname, F_N, optarg, "--format");
			break;
		case 'h':
			usage();
			break;
		case 'k':
			render_opts.ops = (size_t)cli_parse_i64(optarg,
			    "--ops", 0, 1000000);
			break;
		case 'N':
			if (*optarg == '\0' || strchr(optarg, '/') != NULL)
				cli_usage_error("option '--name': invalid "
				    "value '%s'", optarg);
			render_opts.name = optarg;
			break;
		case 'n':
			render_opts.top = (size_t)cli_parse_i64(optarg,
			    "--top", 0, 1000000);
			break;
		case 'o':
			dir = optarg;
			break;
		case 's':
			render_opts.steps = (size_t)cli_parse_i64(optarg,
			    "--steps", 0, 100000000);
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	if (chart >= 0 && fmt >= 0 && fmt != F_SVG)
		cli_usage_error("option '--chart' needs '--format=svg'");
	if (chart >= 0 && fmt < 0 && dir == NULL)
		fmt = F_SVG;
	if (dir != NULL)
		run_dir(optind < argc ? argv[optind] : "-", dir, fmt, chart);
	else
		run(optind < argc ? argv[optind] : "-", fmt >= 0 ? fmt :
		    isatty(STDOUT_FILENO) ? F_TEXT : F_MD,
		    chart >= 0 ? chart : SVG_TIMELINE);
	return EXIT_OK;
}
