/*
 * Capturing what a call writes to standard error, for the unit tests of
 * diagnostics: err_begin() sends it to a temporary file, err_end() puts
 * it back and returns what was written, less a last newline (in a
 * static buffer, until the next err_end()).
 */
#ifndef PROF_ERRCAP_H
#define PROF_ERRCAP_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static struct {
	char	 path[64];
	int	 saved;			/* the real stderr while captured */
} errcap;

static inline void
err_begin(void)
{
	const char *t = getenv("TMPDIR");
	int fd;

	fflush(stderr);
	snprintf(errcap.path, sizeof(errcap.path), "%s/test-err.XXXXXX",
	    t != NULL && *t != '\0' && strlen(t) < 40 ? t : "/tmp");
	fd = mkstemp(errcap.path);
	CHECK(fd >= 0);
	errcap.saved = dup(2);
	CHECK(errcap.saved >= 0 && dup2(fd, 2) == 2);
	close(fd);
}

static inline const char *
err_end(void)
{
	static char buf[4096];
	FILE *f;
	size_t n;

	fflush(stderr);
	CHECK(dup2(errcap.saved, 2) == 2);
	close(errcap.saved);
	CHECK((f = fopen(errcap.path, "r")) != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	unlink(errcap.path);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

#endif
