/*
 * Allocation that cannot fail from the caller's point of view: running out
 * of memory ends the program with exit status 1 and a message.
 */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "xalloc.h"

static void
oom(size_t n)
{
	diag_err(EXIT_BAD, "out of memory (%zu bytes)", n);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xreallocarray(void *old, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(old, n * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		diag_err(EXIT_BAD, "cannot format a message");
	p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	(void)vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
