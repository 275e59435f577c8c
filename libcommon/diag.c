/*
 * Diagnostics: every message starts with the program name, positioned ones
 * follow the GNU "prog: FILE:LINE: msg" form so editors can jump to them.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static const char *progname = "proftools";

void
diag_setprogname(const char *name)
{
	progname = name;
}

const char *
diag_progname(void)
{
	return progname;
}

const char *
diag_path(const char *path)
{
	if (path == NULL || strcmp(path, "-") == 0)
		return "<stdin>";
	return path;
}

static void
vwarn_common(int with_errno, const char *fmt, va_list ap)
{
	int saved = errno;

	fflush(stdout);
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	if (with_errno)
		fprintf(stderr, ": %s", strerror(saved));
	fputc('\n', stderr);
}

void
diag_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(0, fmt, ap);
	va_end(ap);
}

void
diag_warnerr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(1, fmt, ap);
	va_end(ap);
}

void
diag_err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(0, fmt, ap);
	va_end(ap);
	exit(status);
}

void
diag_errno(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_common(1, fmt, ap);
	va_end(ap);
	exit(status);
}

/*
 * Positioned messages can be muted: a reader that reads its input a
 * second time (prof-ingest's direct output) has said everything the
 * first time.  A thread of a reader that reads part of its input ahead,
 * and has it read again in order by the first thread where it met
 * anything to say, is quiet on its own (diag_quiet_thread()).
 */
static int muted;
static _Thread_local int thread_quiet;

void
diag_mute(int on)
{
	muted = on;
}

void
diag_quiet_thread(int on)
{
	thread_quiet = on;
}

void
diag_vat(const char *path, unsigned long line, const char *fmt, va_list ap)
{
	if (muted || thread_quiet)
		return;
	fflush(stdout);
	if (line > 0)
		fprintf(stderr, "%s: %s:%lu: ", progname, diag_path(path),
		    line);
	else
		fprintf(stderr, "%s: %s: ", progname, diag_path(path));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
diag_at(const char *path, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(path, line, fmt, ap);
	va_end(ap);
}

void
diag_atcol(const char *path, unsigned long line, unsigned long col,
    const char *fmt, ...)
{
	va_list ap;

	if (muted || thread_quiet)
		return;
	fflush(stdout);
	fprintf(stderr, "%s: %s:%lu:%lu: ", progname, diag_path(path), line,
	    col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
diag_at_fatal(int status, const char *path, unsigned long line,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(path, line, fmt, ap);
	va_end(ap);
	exit(status);
}
