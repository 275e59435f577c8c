/*
 * Command-line conventions shared by every tool: --version text, usage
 * errors (exit 2 with the "Try --help" line), strict option numbers, and
 * the final check that standard output really reached its destination.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "dtime.h"

void
cli_version(void)
{
	printf("%s (proftools) %s\n", diag_progname(), PACKAGE_VERSION);
	printf("Copyright (C) 2026 the proftools authors.\n"
	    "License: MIT <https://opensource.org/licenses/MIT>.\n");
	exit(EXIT_OK);
}

void
cli_try_help(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n",
	    diag_progname());
	exit(EXIT_USAGE);
}

void
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", diag_progname());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cli_try_help();
}

int64_t
cli_parse_i64(const char *arg, const char *opt, int64_t min, int64_t max)
{
	char *end;
	intmax_t v;

	errno = 0;
	v = strtoimax(arg, &end, 10);
	if (end == arg || *end != '\0' || errno == ERANGE || v < min ||
	    v > max)
		cli_usage_error("option '%s': invalid number '%s' "
		    "(expected %" PRId64 "..%" PRId64 ")", opt, arg, min, max);
	return v;
}

/*
 * A decimal option argument ("1.5") scaled by 10^SCALE, exactly (no
 * binary floating point), within [MIN, MAX] after scaling; MIN and MAX
 * are printed unscaled in the message.
 */
int64_t
cli_parse_fixed(const char *arg, const char *opt, int scale, int64_t min,
    int64_t max)
{
	char lo[32], hi[32];
	int64_t v;

	if (dtime_parse(arg, strlen(arg), scale, &v) != DTIME_OK ||
	    strpbrk(arg, " \t") != NULL || v < min || v > max) {
		dtime_format(min, scale, lo);
		dtime_format(max, scale, hi);
		cli_usage_error("option '%s': invalid number '%s' "
		    "(expected %s..%s)", opt, arg, lo, hi);
	}
	return v;
}

uint64_t
cli_parse_size(const char *arg, const char *opt)
{
	char *end;
	uintmax_t v;
	unsigned shift = 0;

	errno = 0;
	if (arg[0] == '-' || arg[0] == '\0')
		cli_usage_error("option '%s': invalid size '%s'", opt, arg);
	v = strtoumax(arg, &end, 10);
	if (end == arg || errno == ERANGE)
		cli_usage_error("option '%s': invalid size '%s'", opt, arg);
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	default:
		cli_usage_error("option '%s': invalid size '%s'", opt, arg);
	}
	if (*end != '\0' && end[1] != '\0' && strcmp(end + 1, "iB") != 0 &&
	    strcmp(end + 1, "B") != 0)
		cli_usage_error("option '%s': invalid size '%s'", opt, arg);
	if (v > (UINT64_MAX >> shift))
		cli_usage_error("option '%s': size '%s' too large", opt, arg);
	return (uint64_t)v << shift;
}

void
cli_close_stdout(void)
{
	int failed = ferror(stdout) != 0;

	if (fclose(stdout) != 0 || failed) {
		/* A closed pipe is the reader's choice, not our failure. */
		if (errno == EPIPE)
			_exit(EXIT_BAD);
		fprintf(stderr, "%s: write error: %s\n", diag_progname(),
		    strerror(errno ? errno : EIO));
		_exit(EXIT_BAD);
	}
}

void
cli_init(const char *name)
{
	diag_setprogname(name);
	atexit(cli_close_stdout);
}
