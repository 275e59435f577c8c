/*
 * The spool (see spool.h): one aligned buffer of SPOOL_CHUNK bytes that
 * fills with what is written and is written out whole, then, once
 * rewound, is refilled from the file for the reader.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "spool.h"
#include "xalloc.h"

/*
 * O_DIRECT wants the buffer's address, the length and the file offset
 * aligned to the device's logical block: 4096 covers 512-byte and
 * 4 KiB devices alike.
 */
#define SPOOL_ALIGN	4096

struct spool {
	int		 fd;
	int		 direct;	/* O_DIRECT is on */
	int		 reading;	/* spool_rewind() was called */
	unsigned char	*buf;		/* SPOOL_CHUNK bytes, aligned */
	size_t		 blen;		/* bytes in buf (writing) */
	off_t		 woff;		/* file offset of buf (writing) */
	off_t		 size;		/* bytes written */
	off_t		 roff;		/* file offset of the next block */
	size_t		 rpos, rlen;	/* buf[rpos .. rlen) not yet read */
	char		*dir;		/* for messages */
};

static void
spool_fail(const struct spool *sp, const char *what)
{
	diag_errno(EXIT_BAD, "%s: spool file: %s", sp->dir, what);
}

/* Turn O_DIRECT off: the file system would not take an I/O with it. */
static void
go_buffered(struct spool *sp)
{
#ifdef O_DIRECT
	int fl = fcntl(sp->fd, F_GETFL);

	if (fl == -1 || fcntl(sp->fd, F_SETFL, fl & ~O_DIRECT) == -1)
		spool_fail(sp, "cannot turn O_DIRECT off");
#endif
	sp->direct = 0;
}

struct spool *
spool_open(const char *dir)
{
	struct spool *sp = xcalloc(1, sizeof(*sp));
	const char *env = getenv("PROF_SPOOL_DIRECT");
	size_t n = strlen(dir) + sizeof("/prof-spool.XXXXXX");
	char *path = xmalloc(n);
	void *buf;
	int err;

	sp->dir = xstrdup(dir);
	(void)snprintf(path, n, "%s/prof-spool.XXXXXX", dir);
	sp->fd = mkstemp(path);
	err = errno;
	if (sp->fd >= 0)
		(void)unlink(path);
	free(path);
	if (sp->fd < 0) {
		errno = err;
		diag_errno(EXIT_BAD, "%s: temporary file", dir);
	}
	if ((err = posix_memalign(&buf, SPOOL_ALIGN, SPOOL_CHUNK)) != 0) {
		errno = err;
		diag_errno(EXIT_BAD, "spool buffer");
	}
	sp->buf = buf;
#ifdef O_DIRECT
	if (env == NULL || strcmp(env, "0") != 0) {
		int fl = fcntl(sp->fd, F_GETFL);

		sp->direct = fl != -1 &&
		    fcntl(sp->fd, F_SETFL, fl | O_DIRECT) != -1;
	}
#else
	(void)env;
#endif
	return sp;
}

/*
 * Write buf[0 .. len) at woff.  LEN is a multiple of SPOOL_ALIGN while
 * the spool is direct, but for the last block of a buffered one.
 */
static void
put_block(struct spool *sp, size_t len)
{
	size_t done = 0;
	ssize_t w;

	while (done < len) {
		w = pwrite(sp->fd, sp->buf + done, len - done,
		    sp->woff + (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && sp->direct) {
			go_buffered(sp);
			continue;
		}
		if (w <= 0)
			spool_fail(sp, "write");
		done += (size_t)w;
	}
	sp->woff += (off_t)len;
}

void
spool_write(struct spool *sp, const void *p, size_t len)
{
	const unsigned char *s = p;
	size_t k;

	while (len > 0) {
		k = SPOOL_CHUNK - sp->blen;
		if (k > len)
			k = len;
		memcpy(sp->buf + sp->blen, s, k);
		sp->blen += k;
		sp->size += (off_t)k;
		s += k;
		len -= k;
		if (sp->blen == SPOOL_CHUNK) {
			put_block(sp, SPOOL_CHUNK);
			sp->blen = 0;
		}
	}
}

void
spool_rewind(struct spool *sp)
{
	size_t len = sp->blen;

	if (len > 0) {
		/* The padding is written but never read: size ends it. */
		if (sp->direct && len % SPOOL_ALIGN != 0) {
			len += SPOOL_ALIGN - len % SPOOL_ALIGN;
			memset(sp->buf + sp->blen, 0, len - sp->blen);
		}
		put_block(sp, len);
		sp->blen = 0;
	}
	sp->reading = 1;
	sp->roff = 0;
	sp->rpos = sp->rlen = 0;
}

/* Read the next block into buf. */
static void
get_block(struct spool *sp)
{
	size_t want = SPOOL_CHUNK;
	ssize_t got;

	if ((off_t)want > sp->size - sp->roff && !sp->direct)
		want = (size_t)(sp->size - sp->roff);
	for (;;) {
		got = pread(sp->fd, sp->buf, want, sp->roff);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EINVAL && sp->direct) {
			go_buffered(sp);
			continue;
		}
		break;
	}
	if (got < 0)
		spool_fail(sp, "read");
	if (got == 0) {
		errno = EIO;
		spool_fail(sp, "shorter than what was written to it");
	}
	if ((off_t)got > sp->size - sp->roff)
		got = (ssize_t)(sp->size - sp->roff);
	sp->roff += got;
	sp->rpos = 0;
	sp->rlen = (size_t)got;
}

size_t
spool_read(struct spool *sp, void *p, size_t len)
{
	size_t k;

	if (!sp->reading)
		spool_rewind(sp);
	if (sp->rpos == sp->rlen) {
		if (sp->roff >= sp->size)
			return 0;
		get_block(sp);
	}
	k = sp->rlen - sp->rpos;
	if (k > len)
		k = len;
	memcpy(p, sp->buf + sp->rpos, k);
	sp->rpos += k;
	return k;
}

off_t
spool_size(const struct spool *sp)
{
	return sp->size;
}

int
spool_direct(const struct spool *sp)
{
	return sp->direct;
}

void
spool_close(struct spool *sp)
{
	if (sp == NULL)
		return;
	(void)close(sp->fd);
	free(sp->buf);
	free(sp->dir);
	free(sp);
}
