/*
 * prof-ingest: read profiler output (Ascend torch_npu and msprof, PyTorch
 * Kineto, the Ascend op simulator, any Chrome trace), plain, compressed or
 * archived, and write one time-ordered prof-tsv record stream.
 *
 * This file walks the operands, decides what each file is from its name
 * and first bytes, and hands it to the reader for its format; the readers
 * (ingest-ascend.c, ingest-chrome.c) feed the sink (ingest-sink.c).
 */
#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "ingest.h"
#include "input.h"
#include "xalloc.h"

static int exit_status = EXIT_OK;
static const char *tmp_dir;	/* -T, for the readers' copies */
static int inventory;		/* -i */
static struct sink *sink;	/* where every reader's records go */
int ingest_lenient;

static int	 is_output(const char *);

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [PATH]...\n", diag_progname());
	printf("Read profiler output and write one time-ordered prof-tsv "
	    "record stream.\n\n");
	printf("PATH is a file, a directory (read recursively), or a tar or "
	    "zip archive;\nfiles may be compressed (gzip, zstd, xz, bzip2, "
	    "lz4).  With no PATH,\nor when PATH is -, read standard "
	    "input.\n\n");
	printf("  -i, --inventory     list what was found per rank and source "
	    "instead of\n"
	    "                      writing records\n"
	    "  -k, --lenient       report malformed rows and events, count "
	    "them in the\n"
	    "                      inventory, and go on (exit status 0)\n"
	    "  -m, --memory=SIZE   keep at most SIZE bytes of records in "
	    "memory before\n"
	    "                      spilling sorted runs to disk (default "
	    "12M; K, M, G)\n"
	    "  -o, --output=FILE   write to FILE instead of standard output\n"
	    "  -q, --quiet         no progress messages on standard error\n"
	    "  -T, --tmpdir=DIR    put temporary files in DIR (default "
	    "$TMPDIR or /tmp)\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Formats: torch_npu ASCEND_PROFILER_OUTPUT (kernel_details.csv, "
	    "trace_view.json,\ncommunication.json, step_trace_time.csv), msprof "
	    "op_summary_*.csv, PyTorch\nKineto traces (*.json, *.json.gz), the "
	    "Ascend op simulator trace.json, and\nany Chrome trace JSON; "
	    "SQLite exports: torch_npu and msprof databases\n"
	    "(ascend_pytorch_profiler_N.db, msprof_*.db, report_*.db, "
	    "analysis.db) and\nNsight Systems (nsys export --type sqlite).  "
	    "See prof-ingest(1) and prof-tsv(5).\n\n");
	printf("Exit status: 0 if all input was read, 1 if some input was bad "
	    "or unreadable\n(records before the damage are still written), "
	    "2 for usage errors.\n");
	exit(EXIT_OK);
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/*
 * The rank encoded in a path: a component like "rank_3", "rank3",
 * "rank-3", "test_rank_1" or "queue_rank0of16".  Returns -1 if none.
 */
static int64_t
rank_from_path(const char *path)
{
	const char *p = path, *hit;
	int64_t rank = -1;

	while ((hit = strstr(p, "rank")) != NULL) {
		const char *d = hit + 4;

		if (*d == '_' || *d == '-')
			d++;
		if ((hit == path || !isalnum((unsigned char)hit[-1])) &&
		    isdigit((unsigned char)*d))
			rank = strtoll(d, NULL, 10);
		p = hit + 4;
	}
	return rank;
}

/*
 * The profile run a file belongs to: for torch_npu output the
 * "*_ascend_pt" directory (parent of ASCEND_PROFILER_OUTPUT), otherwise
 * the file's own directory.  Sources of one run share a rank and are
 * deduplicated against each other.
 */
static char *
run_of(const char *path)
{
	const char *cut = strstr(path, "/ASCEND_PROFILER_OUTPUT/");
	const char *slash;

	if (cut == NULL && ingest_has_prefix(path, "ASCEND_PROFILER_OUTPUT/"))
		return xstrdup(".");
	if (cut != NULL)
		return xstrndup(path, (size_t)(cut - path));
	slash = strrchr(path, '/');
	return slash != NULL ? xstrndup(path, (size_t)(slash - path)) :
	    xstrdup(".");
}

/*
 * Rank of an Ascend run directory from its profiler_info_N.json name.
 * The files of a run come one after another in the walk, so the last
 * answer is kept: reading the directory again for each of its files
 * made a directory of many files take time quadratic in their number.
 */
static char	*last_run;	/* the run directory looked at last */
static int64_t	 last_rank;	/* and its rank */

static int64_t
rank_from_run_dir(const char *run)
{
	DIR *d;
	struct dirent *e;
	int64_t rank = -1;

	if (last_run != NULL && strcmp(run, last_run) == 0)
		return last_rank;
	free(last_run);
	last_run = xstrdup(run);
	last_rank = -1;
	if ((d = opendir(run)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;

		if (ingest_has_prefix(n, "profiler_info_") &&
		    isdigit((unsigned char)n[14]) && ingest_has_suffix(n, ".json"))
			rank = strtoll(n + 14, NULL, 10);
	}
	closedir(d);
	return last_rank = rank;
}

/* Read one member that has been recognised as format FMT. */
static void
ingest_member(struct input *in, const char *name,
    const struct ingest_format *fmt)
{
	struct ingest_ctx ctx;
	char *run = run_of(name);

	memset(&ctx, 0, sizeof(ctx));
	ctx.sink = sink;
	ctx.rank = rank_from_path(name);
	if (ctx.rank < 0 && !input_is_archive(in))
		ctx.rank = rank_from_run_dir(run);
	ctx.run = run;
	ctx.fmt = fmt;
	ctx.tmpdir = tmp_dir;
	ctx.inventory = inventory;
	if (fmt->read(in, input_where(in), &ctx) != 0) {
		exit_status = EXIT_BAD;
		/* The reader's complaint may be the symptom of corruption. */
		input_drain(in);
	}
	free(run);
}

/*
 * What an unread side file says about its run: torch_npu writes the
 * Call Stack and Input Shapes columns of operator_details.csv only when
 * with_stack and record_shapes were on, so its header is evidence that
 * the run's traces have stacks and shapes even where no column of ours
 * carries them.
 */
static void
side_file_notes(struct input *in, const char *name)
{
	const void *head;
	const char *nl;
	ssize_t n;
	size_t len;
	char *run;

	if (!ingest_has_prefix(base_name(name), "operator_details") ||
	    !ingest_has_suffix(base_name(name), ".csv") ||
	    (n = input_peek(in, &head, 64 << 10)) <= 0)
		return;
	nl = memchr(head, '\n', (size_t)n);
	len = nl != NULL ? (size_t)(nl - (const char *)head) : (size_t)n;
	run = run_of(name);
	if (ingest_head_has(head, len, "Call Stack"))
		sink_run_note(sink, run, "stacks");
	if (ingest_head_has(head, len, "Input Shapes"))
		sink_run_note(sink, run, "shapes");
	free(run);
}

/*
 * Recognise and read every member of one input.  EXPLICIT is set for a
 * file named on the command line: there an unknown format is an error,
 * while inside a directory it is only listed in the inventory.
 */
static void
ingest_path(const char *path, int explicit)
{
	struct input *in = input_open(path);
	const char *name;
	int r;

	if (in == NULL) {
		exit_status = EXIT_BAD;
		return;
	}
	while ((r = input_next(in, &name)) == 1) {
		const char *base = base_name(name);
		const struct ingest_format *by_name = ingest_format_by_name(base);
		const struct ingest_format *what = by_name;
		int named = explicit && !input_is_archive(in);
		const char *stray;
		const void *head;
		ssize_t n;

		/* Inside a directory, known side files are only listed. */
		if (what != NULL && what->read == NULL && !named) {
			side_file_notes(in, name);
			sink_ignored(sink, input_where(in), what->not_read);
			continue;
		}
		if ((n = input_peek(in, &head, 64 << 10)) < 0) {
			exit_status = EXIT_BAD;
			break;
		}
		if (what == NULL || what->read == NULL)
			what = ingest_format_by_content(head, (size_t)n);
		if (what != NULL && what->stray != NULL && !named &&
		    (stray = what->stray(base, head, (size_t)n)) != NULL) {
			sink_ignored(sink, input_where(in), stray);
			continue;
		}
		if (what == NULL) {
			const char *why = by_name != NULL ? by_name->not_read :
			    NULL;

			if (named && n == 0) {
				diag_at(input_where(in), 0, "empty input");
				exit_status = EXIT_BAD;
			} else if (named) {
				diag_at(input_where(in), 0,
				    "unsupported format (%s)", why != NULL ?
				    why : "not a profile this version reads");
				exit_status = EXIT_BAD;
				input_drain(in);
			} else
				sink_ignored(sink, input_where(in),
				    "unsupported format");
			continue;
		}
		ingest_member(in, name, what);
	}
	if (r < 0)
		exit_status = EXIT_BAD;
	input_close(in);
}

/*
 * The files and directories read so far, by device and inode: a
 * symbolic link to a directory above (a loop), a link or a second name
 * for a run directory or a file, or a path named twice, is read once,
 * and says so: reading it again would count every record twice.
 */
struct seen {
	dev_t		 dev;
	ino_t		 ino;
	char		*path;		/* where it was read */
	struct seen	*next;
};

#define SEEN_BUCKETS	4096
static struct seen *seen[SEEN_BUCKETS];

/* The path under which ST's file was read before, or NULL (noted now). */
static const char *
seen_before(const struct stat *st, const char *path)
{
	uint64_t h = ((uint64_t)st->st_dev * 0x9e3779b97f4a7c15ULL) ^
	    (uint64_t)st->st_ino;
	struct seen **b = &seen[(h ^ h >> 29) % SEEN_BUCKETS], *e;

	for (e = *b; e != NULL; e = e->next)
		if (e->dev == st->st_dev && e->ino == st->st_ino)
			return e->path;
	e = xmalloc(sizeof(*e));
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->path = xstrdup(path);
	e->next = *b;
	*b = e;
	return NULL;
}

/* Whether PATH (with stat ST) was read already; if so, say where. */
static int
already_read(const struct stat *st, const char *path)
{
	const char *first = seen_before(st, path);

	if (first == NULL)
		return 0;
	diag_at(path, 0, "same %s as '%s' (a link or a second name): read "
	    "once", S_ISDIR(st->st_mode) ? "directory" : "file", first);
	return 1;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk a directory in name order so that output is reproducible. */
static void
ingest_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, i;

	if (d == NULL) {
		diag_warnerr("%s", dir);
		exit_status = EXIT_BAD;
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	/* An empty directory leaves NAMES null, which qsort must not get. */
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]) + 2;
		char *path = xmalloc(len);
		struct stat st;

		snprintf(path, len, "%s%s%s", dir,
		    ingest_has_suffix(dir, "/") ? "" : "/", names[i]);
		if (stat(path, &st) != 0) {
			diag_warnerr("%s", path);
			exit_status = EXIT_BAD;
		} else if (is_output(path)) {
			diag_at(path, 0, "is the output file (-o): not read");
			exit_status = EXIT_BAD;
		} else if ((S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) &&
		    already_read(&st, path))
			;
		else if (S_ISDIR(st.st_mode))
			ingest_dir(path);
		else if (S_ISREG(st.st_mode))
			ingest_path(path, 0);
		free(path);
		free(names[i]);
	}
	free(names);
}

static void
ingest_operand(const char *path)
{
	struct stat st;
	size_t before = sink_nsources(sink);
	int status = exit_status;

	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) &&
	    already_read(&st, path))
		return;
	exit_status = EXIT_OK;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		ingest_dir(path);
	else
		ingest_path(path, 1);
	/*
	 * A directory or archive with nothing to read is most often the
	 * wrong one, and an empty stream says nothing: warn.  The status
	 * stays 0, as all of it was read (a directory of SQLite exports is
	 * a fine thing to have; -i lists it).  An operand that failed has
	 * already said why.
	 */
	if (exit_status == EXIT_OK && sink_nsources(sink) == before)
		diag_at(path, 0, "no profile found (no file this version "
		    "reads; -i lists what is there)");
	if (status != EXIT_OK)
		exit_status = status;
}

/*
 * -o FILE.  The sink writes to descriptor 1, so a file must become it;
 * but FILE may be one of the inputs, or the user may count on it while
 * this runs, so it is never truncated before the input is read: a
 * regular FILE (or a new one) is written as a temporary file beside it,
 * renamed over it once all is written, and removed on any failure.
 * Anything else (a device, a FIFO) is opened as it is.
 */
static char	*out_path, *out_tmp;	/* the temporary file, until renamed */
static dev_t	 out_dev;
static ino_t	 out_ino;
static int	 out_exists;		/* FILE was a regular file */

static void
output_abandon(void)
{
	if (out_tmp != NULL)
		unlink(out_tmp);
}

/* Interrupted: the temporary file goes, then the signal does its work. */
static void
output_signal(int sig)
{
	if (out_tmp != NULL)
		unlink(out_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Whether PATH is the output file itself (same device and inode). */
static int
is_output(const char *path)
{
	struct stat st;

	return out_exists && strcmp(path, "-") != 0 &&
	    stat(path, &st) == 0 && st.st_dev == out_dev &&
	    st.st_ino == out_ino;
}

static void
redirect_stdout(const char *path)
{
	struct stat st;
	const char *slash = strrchr(path, '/');
	size_t n = strlen(path) + 32;
	mode_t mask;
	int fd;

	out_path = xstrdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
			diag_errno(EXIT_BAD, "%s", path);
	} else {
		if ((out_exists = stat(path, &st) == 0)) {
			out_dev = st.st_dev;
			out_ino = st.st_ino;
		}
		/* A hidden name: a directory walk passes over it. */
		out_tmp = xmalloc(n);
		snprintf(out_tmp, n, "%.*s.%s.XXXXXX", slash != NULL ?
		    (int)(slash - path + 1) : 0, path,
		    slash != NULL ? slash + 1 : path);
		if ((fd = mkstemp(out_tmp)) < 0) {
			free(out_tmp);
			out_tmp = NULL;
			diag_errno(EXIT_BAD, "%s", path);
		}
		atexit(output_abandon);
		signal(SIGHUP, output_signal);
		signal(SIGINT, output_signal);
		signal(SIGTERM, output_signal);
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, out_exists ? st.st_mode & 07777 :
		    0666 & ~mask) != 0)
			diag_errno(EXIT_BAD, "%s", path);
	}
	if (fd != STDOUT_FILENO) {
		if (dup2(fd, STDOUT_FILENO) < 0)
			diag_errno(EXIT_BAD, "%s", path);
		close(fd);
	}
}

/* Everything was written: the temporary file becomes FILE. */
static void
output_commit(void)
{
	if (out_tmp == NULL)
		return;
	if (fflush(stdout) != 0 || ferror(stdout))
		diag_errno(EXIT_BAD, "%s", out_path);
	if (rename(out_tmp, out_path) != 0)
		diag_errno(EXIT_BAD, "%s", out_path);
	free(out_tmp);
	out_tmp = NULL;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "inventory",	no_argument,		NULL, 'i' },
		{ "lenient",	no_argument,		NULL, 'k' },
		{ "memory",	required_argument,	NULL, 'm' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "tmpdir",	required_argument,	NULL, 'T' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	struct sink_opts so;
	struct stat st;
	const char *memory = NULL, *output = NULL;
	int c, i;

	cli_init("prof-ingest");
	memset(&so, 0, sizeof(so));
	while ((c = getopt_long(argc, argv, "hikm:o:qT:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
			break;
		case 'i':
			so.inventory = 1;
			break;
		case 'k':
			ingest_lenient = 1;
			break;
		case 'm':
			memory = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			so.progress = -1;
			break;
		case 'T':
			so.tmpdir = optarg;
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	so.mem_limit = memory != NULL ? cli_parse_size(memory, "--memory") :
	    12 << 20;
	if (so.mem_limit < (1 << 20))
		cli_usage_error("option '--memory': size '%s' below 1M",
		    memory);
	if (so.tmpdir == NULL && (so.tmpdir = getenv("TMPDIR")) == NULL)
		so.tmpdir = "/tmp";
	so.progress = so.progress == 0 && isatty(STDERR_FILENO);
	if (output != NULL)
		redirect_stdout(output);
	for (i = optind; i < argc; i++)
		if (is_output(argv[i]))
			cli_usage_error("'%s' is both an input and the output "
			    "file: refusing to overwrite it", argv[i]);

	/* One file, the run's only source: it may go to the output
	 * without being stored (sink_can_direct()). */
	so.lone = argc - optind == 1 && strcmp(argv[optind], "-") != 0 &&
	    stat(argv[optind], &st) == 0 && S_ISREG(st.st_mode);
	tmp_dir = so.tmpdir;
	inventory = so.inventory;
	sink = sink_open(&so);
	if (optind == argc)
		ingest_operand("-");
	for (i = optind; i < argc; i++)
		ingest_operand(argv[i]);
	if (sink_finish(sink, argc, argv) != 0)
		exit_status = EXIT_BAD;
	output_commit();
	return exit_status;
}
