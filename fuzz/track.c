/* Allocation and stream records for the harnesses: see track.h. */
#include <config.h>

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "track.h"

#define NSLOT	(1 << 16)	/* open addressing; more live blocks abort */
#define GONE	((void *)1)	/* a freed slot: probing goes on past it */

static void	*slot[NSLOT];
static size_t	 nlive;
static FILE	*streams[64];
static jmp_buf	 jb;
static int	 armed;

static size_t
hash(const void *p)
{
	uintptr_t v = (uintptr_t)p;

	v ^= v >> 17;
	v *= 0x9e3779b97f4a7c15u;
	return (size_t)(v >> 40) & (NSLOT - 1);
}

static void
add(void *p)
{
	size_t i;

	if (p == NULL)
		return;
	if (nlive >= NSLOT / 2)
		abort();	/* harness inputs never need this many */
	for (i = hash(p); slot[i] != NULL && slot[i] != GONE;
	    i = (i + 1) & (NSLOT - 1))
		;
	slot[i] = p;
	nlive++;
}

static void
del(void *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = hash(p); slot[i] != NULL; i = (i + 1) & (NSLOT - 1))
		if (slot[i] == p) {
			slot[i] = GONE;
			nlive--;
			return;
		}
}

void *
track_xmalloc(size_t n)
{
	void *p = xmalloc(n);

	add(p);
	return p;
}

void *
track_xcalloc(size_t n, size_t size)
{
	void *p = xcalloc(n, size);

	add(p);
	return p;
}

void *
track_xrealloc(void *old, size_t n)
{
	void *p;

	del(old);
	p = xrealloc(old, n);
	add(p);
	return p;
}

void *
track_xreallocarray(void *old, size_t n, size_t size)
{
	void *p;

	del(old);
	p = xreallocarray(old, n, size);
	add(p);
	return p;
}

char *
track_xstrdup(const char *s)
{
	char *p = xstrdup(s);

	add(p);
	return p;
}

char *
track_xstrndup(const char *s, size_t n)
{
	char *p = xstrndup(s, n);

	add(p);
	return p;
}

void
track_free(void *p)
{
	del(p);
	free(p);
}

ssize_t
track_getline(char **line, size_t *cap, FILE *fp)
{
	ssize_t n;

	del(*line);
	n = getline(line, cap, fp);
	add(*line);
	return n;
}

FILE *
track_fopen(const char *path, const char *mode)
{
	FILE *fp = fopen(path, mode);
	size_t i;

	for (i = 0; fp != NULL && i < sizeof(streams) / sizeof(*streams); i++)
		if (streams[i] == NULL) {
			streams[i] = fp;
			break;
		}
	return fp;
}

int
track_fclose(FILE *fp)
{
	size_t i;

	for (i = 0; i < sizeof(streams) / sizeof(*streams); i++)
		if (streams[i] == fp)
			streams[i] = NULL;
	return fclose(fp);
}

void
track_exit(int status)
{
	if (armed) {
		armed = 0;
		longjmp(jb, 1);
	}
	exit(status);
}

/*
 * Descriptors open when a run starts: the reader opens its input with
 * open(2), not fopen, and an exit caught in the middle of a run leaves
 * it open; track_release() closes what the run left (without it, a long
 * campaign ends in "Too many open files").
 */
#define NFD	1024
static unsigned char fd_before[NFD];

int
track_run(void (*fn)(void *), void *arg)
{
	int fd;

	for (fd = 3; fd < NFD; fd++)
		fd_before[fd] = fcntl(fd, F_GETFD) != -1;
	if (setjmp(jb) != 0)
		return 1;
	armed = 1;
	fn(arg);
	armed = 0;
	return 0;
}

void
track_release(void)
{
	size_t i;

	for (i = 0; i < NSLOT; i++) {
		if (slot[i] != NULL && slot[i] != GONE)
			free(slot[i]);
		slot[i] = NULL;
	}
	nlive = 0;
	for (i = 0; i < sizeof(streams) / sizeof(*streams); i++)
		if (streams[i] != NULL) {
			fclose(streams[i]);
			streams[i] = NULL;
		}
	for (i = 3; i < NFD; i++)
		if (!fd_before[i] && fcntl((int)i, F_GETFD) != -1)
			(void)close((int)i);
}
