/*
 * prof-merge: merge sorted prof-tsv streams (one per rank, or one per
 * file) onto one time origin, and annotate the result with "busy"
 * records, the union of the device intervals per device and step.
 *
 * With one input the busy stage reads it directly.  With several, a
 * thread runs the k-way merge into a pipe that the stage reads: the two
 * halves then use two cores, and the stage library stays the only code
 * that keeps the output order.  Either thread may stop the process with
 * a diagnostic; the reader never sees the end of the pipe before the
 * writer is done, so a merge error cannot show up as a bogus error of
 * the stage on a cut-off line.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "merge.h"
#include "xalloc.h"

static void	usage(void) __attribute__((noreturn));

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]...\n", diag_progname());
	printf("Merge sorted prof-tsv streams onto one time origin and add "
	    "busy records,\nthe union of the device intervals per device "
	    "and step window.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.  "
	    "With several FILEs,\nmerge them first (ties keep the order of "
	    "the FILEs).\n\n");
	printf("  -c, --capture       ignore window records: one union per "
	    "device over the\n"
	    "                      whole capture\n"
	    "  -k, --kinds=LIST    record kinds that count as busy, "
	    "comma-separated\n"
	    "                      (default: kernel)\n"
	    "  -l, --hold-limit=N  write a busy segment in touching pieces "
	    "when it keeps\n"
	    "                      more than N records waiting (default "
	    "100000)\n"
	    "  -m, --merge-only    only merge the FILEs; add no busy "
	    "records\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("See prof-merge(1) and prof-tsv(5).\n\n");
	printf("Exit status: 0 on success, 1 if some input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

/* Whether the N bytes at P are a kind name, [a-z_][a-z0-9_]*. */
static int
valid_kind(const char *p, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!((p[i] >= 'a' && p[i] <= 'z') || p[i] == '_' ||
		    (i > 0 && p[i] >= '0' && p[i] <= '9')))
			return 0;
	return 1;
}

static void
free_kinds(struct busy_opts *o)
{
	while (o->nkinds > 0)
		free(o->kinds[--o->nkinds]);
	free(o->kinds);
	o->kinds = NULL;
}

/* Replace O's kinds by the comma-separated LIST, checked first. */
static void
parse_kinds(struct busy_opts *o, const char *list)
{
	const char *p;
	size_t n;

	for (p = list;; p += n + 1) {
		n = strcspn(p, ",");
		if (!valid_kind(p, n))
			cli_usage_error("option '--kinds': invalid kind "
			    "list '%s'", list);
		if (p[n] == '\0')
			break;
	}
	free_kinds(o);
	for (p = list;; p += n + 1) {
		n = strcspn(p, ",");
		o->kinds = xreallocarray(o->kinds, o->nkinds + 1,
		    sizeof(*o->kinds));
		o->kinds[o->nkinds++] = xstrndup(p, n);
		if (p[n] == '\0')
			break;
	}
}

struct merge_job {
	char	*const *paths;
	size_t	 n;
	int	 fd;
	int	 status;
};

static void *
merge_thread(void *arg)
{
	struct merge_job *job = arg;

	job->status = merge_run(job->paths, job->n, job->fd, 0, NULL);
	close(job->fd);
	return NULL;
}

/*
 * Merge the inputs in a thread and run the busy stage on the result;
 * the merge's status.
 */
static int
merge_and_busy(char *const *paths, size_t n, const struct busy_opts *o,
    int argc, char *argv[])
{
	struct merge_job job;
	pthread_t tid;
	char path[32];
	int fd[2];

	if (pipe(fd) == -1)
		diag_errno(EXIT_BAD, "pipe");
	/* Fewer, larger hand-overs between the threads; best effort. */
	(void)fcntl(fd[1], F_SETPIPE_SZ, 1 << 20);
	job.paths = paths;
	job.n = n;
	job.fd = fd[1];
	if ((errno = pthread_create(&tid, NULL, merge_thread, &job)) != 0)
		diag_errno(EXIT_BAD, "pthread_create");
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	busy_run(path, o, argc, argv);
	pthread_join(tid, NULL);
	close(fd[0]);
	return job.status;
}

/*
 * Merge, annotate, or both, as the options and operands ask; the exit
 * status (the busy stage exits 1 itself on a damaged input).
 */
static int
run(char **files, size_t n, int merge_only, const struct busy_opts *o,
    int argc, char *argv[])
{
	static char *std_in[] = { "-" };

	if (merge_only)
		return merge_run(n > 0 ? files : std_in, n > 0 ? n : 1,
		    STDOUT_FILENO, argc, argv);
	if (n > 1)
		return merge_and_busy(files, n, o, argc, argv);
	busy_run(n > 0 ? files[0] : "-", o, argc, argv);
	return EXIT_OK;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "capture",	no_argument,		NULL, 'c' },
		{ "kinds",	required_argument,	NULL, 'k' },
		{ "hold-limit",	required_argument,	NULL, 'l' },
		{ "merge-only",	no_argument,		NULL, 'm' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	struct busy_opts o;
	int ch, merge_only = 0, status;

	cli_init("prof-merge");
	memset(&o, 0, sizeof(o));
	parse_kinds(&o, "kernel");
	o.hold = 100000;
	while ((ch = getopt_long(argc, argv, "ck:l:mhV", longopts, NULL)) != -1)
		switch (ch) {
		case 'c':
			o.capture = 1;
			break;
		case 'k':
			parse_kinds(&o, optarg);
			break;
		case 'l':
			o.hold = (uint64_t)cli_parse_i64(optarg, "--hold-limit",
			    1, INT64_MAX);
			break;
		case 'm':
			merge_only = 1;
			break;
		case 'h':
			usage();
		case 'V':
			cli_version();
		default:
			cli_try_help();
		}
	status = run(argv + optind, (size_t)(argc - optind), merge_only, &o,
	    argc, argv);
	free_kinds(&o);
	return status;
}
