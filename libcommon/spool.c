/*
 * The spool (see spool.h): an aligned write buffer of SPOOL_CHUNK bytes
 * that is written out whole when full, so that every write is a whole
 * chunk at an aligned offset and what it holds (the tail of the file,
 * from WOFF) is read from memory; a second buffer for the reads, which
 * are of aligned spans, copied out.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/*
 * The read-ahead of a sequential read (spool_rewind, spool_read): a
 * thread reads the chunks on disk into a ring of RA_SLOTS buffers while
 * the caller works on the one before, as direct reads get no read-ahead
 * from the kernel and would otherwise stall the reader (prof-steps'
 * second pass, at the head of a pipeline) for every chunk.
 */
#define RA_SLOTS	2

struct spool_ra {
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	unsigned char	*buf[RA_SLOTS];
	size_t		 len[RA_SLOTS];
	int		 full[RA_SLOTS];
	off_t		 next;		/* the thread's next offset */
	off_t		 end;		/* what is on disk: woff */
	int		 stop;		/* spool_close() asks it to end */
	int		 err;		/* errno of its failed read, or 0 */
	unsigned	 head;		/* the reader's slot */
	size_t		 pos;		/* and where in it */
};

struct spool {
	int		 fd;
	int		 direct;	/* O_DIRECT is on */
	unsigned char	*wbuf;		/* the file from woff, blen bytes */
	size_t		 blen;
	off_t		 woff;		/* a multiple of SPOOL_CHUNK */
	unsigned char	*rbuf;		/* SPOOL_CHUNK + SPOOL_ALIGN bytes */
	off_t		 rbuf_off;	/* file offset of rbuf[0], or -1 */
	size_t		 rbuf_len;
	off_t		 roff;		/* spool_read()'s next byte */
	struct spool_ra	*ra;		/* or NULL */
	char		*dir;		/* for messages */
};

static void
spool_fail(const struct spool *sp, const char *what)
{
	diag_errno(EXIT_BAD, "%s: spool file: %s", sp->dir, what);
}

static unsigned char *
aligned_buf(size_t len)
{
	void *p;
	int err;

	if ((err = posix_memalign(&p, SPOOL_ALIGN, len)) != 0) {
		errno = err;
		diag_errno(EXIT_BAD, "spool buffer");
	}
	return p;
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
	sp->wbuf = aligned_buf(SPOOL_CHUNK);
	sp->rbuf = aligned_buf(SPOOL_CHUNK + SPOOL_ALIGN);
	sp->rbuf_off = -1;
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

/* Write the full write buffer at woff. */
static void
put_chunk(struct spool *sp)
{
	size_t done = 0;
	ssize_t w;

	while (done < SPOOL_CHUNK) {
		w = pwrite(sp->fd, sp->wbuf + done, SPOOL_CHUNK - done,
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
	sp->woff += (off_t)SPOOL_CHUNK;
	sp->blen = 0;
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
		memcpy(sp->wbuf + sp->blen, s, k);
		sp->blen += k;
		s += k;
		len -= k;
		if (sp->blen == SPOOL_CHUNK)
			put_chunk(sp);
	}
}

/* Read LEN bytes at OFF into BUF with the spool's rules: the count. */
static ssize_t
read_at(struct spool *sp, unsigned char *buf, size_t len, off_t off)
{
	size_t done = 0;
	ssize_t got;

	while (done < len) {
		got = pread(sp->fd, buf + done, len - done, off + (off_t)done);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EINVAL && sp->direct) {
			go_buffered(sp);
			continue;
		}
		if (got < 0)
			return -1;
		if (got == 0) {
			errno = EIO;
			return -1;
		}
		done += (size_t)got;
	}
	return (ssize_t)done;
}

/*
 * Read the aligned span of the file around [off, off + len), all of it
 * below woff, into rbuf (len is at most SPOOL_CHUNK).
 */
static void
get_span(struct spool *sp, off_t off, size_t len)
{
	off_t from = off - off % SPOOL_ALIGN, to = off + (off_t)len;

	if (to % SPOOL_ALIGN != 0)
		to += SPOOL_ALIGN - to % SPOOL_ALIGN;
	if (to > sp->woff)
		to = sp->woff;
	if (read_at(sp, sp->rbuf, (size_t)(to - from), from) < 0)
		spool_fail(sp, errno == EIO ? "shorter than what was written "
		    "to it" : "read");
	sp->rbuf_off = from;
	sp->rbuf_len = (size_t)(to - from);
}

/*
 * Copy up to LEN bytes at OFF (below the end) into P: the count.  What
 * is read from the file is read SPAN bytes at a time (at most a chunk).
 */
static size_t
copy_at(struct spool *sp, unsigned char *p, size_t len, off_t off,
    size_t span)
{
	size_t k;

	if (off >= sp->woff) {		/* still in the write buffer */
		k = (size_t)(sp->woff + (off_t)sp->blen - off);
		if (k > len)
			k = len;
		memcpy(p, sp->wbuf + (off - sp->woff), k);
		return k;
	}
	if (sp->rbuf_off < 0 || off < sp->rbuf_off ||
	    off >= sp->rbuf_off + (off_t)sp->rbuf_len)
		get_span(sp, off, span);
	k = (size_t)(sp->rbuf_off + (off_t)sp->rbuf_len - off);
	if (k > len)
		k = len;
	memcpy(p, sp->rbuf + (off - sp->rbuf_off), k);
	return k;
}

void
spool_pread(struct spool *sp, void *p, size_t len, off_t off)
{
	unsigned char *d = p;
	size_t k;

	if (off < 0 || off + (off_t)len > spool_size(sp)) {
		errno = EINVAL;
		spool_fail(sp, "read past the end");
	}
	while (len > 0) {
		k = copy_at(sp, d, len, off,
		    len < SPOOL_CHUNK ? len : SPOOL_CHUNK);
		d += k;
		off += (off_t)k;
		len -= k;
	}
}

static void *
ra_work(void *arg)
{
	struct spool *sp = arg;
	struct spool_ra *ra = sp->ra;
	unsigned slot = 0;
	size_t want;
	ssize_t got;

	while (ra->next < ra->end) {
		int stop;

		pthread_mutex_lock(&ra->mu);
		while (ra->full[slot] && !ra->stop)
			pthread_cond_wait(&ra->cv, &ra->mu);
		stop = ra->stop;
		pthread_mutex_unlock(&ra->mu);
		if (stop)
			break;
		want = SPOOL_CHUNK;
		if ((off_t)want > ra->end - ra->next)
			want = (size_t)(ra->end - ra->next);
		got = read_at(sp, ra->buf[slot], want, ra->next);
		pthread_mutex_lock(&ra->mu);
		if (got < 0)
			ra->err = errno;
		ra->len[slot] = got < 0 ? 0 : (size_t)got;
		ra->full[slot] = 1;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
		if (got < 0)
			break;
		ra->next += got;
		slot = (slot + 1) % RA_SLOTS;
	}
	return NULL;
}

/* Stop and free the read-ahead. */
static void
ra_end(struct spool *sp)
{
	struct spool_ra *ra = sp->ra;
	unsigned i;

	if (ra == NULL)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	(void)pthread_join(ra->th, NULL);
	pthread_mutex_destroy(&ra->mu);
	pthread_cond_destroy(&ra->cv);
	for (i = 0; i < RA_SLOTS; i++)
		free(ra->buf[i]);
	free(ra);
	sp->ra = NULL;
}

/*
 * Start the read-ahead of what is on disk, when there are two chunks or
 * more; without a thread, the reads are made as they are asked for.
 */
static void
ra_start(struct spool *sp)
{
	struct spool_ra *ra;
	unsigned i;

	if (sp->woff < 2 * (off_t)SPOOL_CHUNK)
		return;
	ra = xcalloc(1, sizeof(*ra));
	for (i = 0; i < RA_SLOTS; i++)
		ra->buf[i] = aligned_buf(SPOOL_CHUNK);
	ra->end = sp->woff;
	pthread_mutex_init(&ra->mu, NULL);
	pthread_cond_init(&ra->cv, NULL);
	sp->ra = ra;
	if ((errno = pthread_create(&ra->th, NULL, ra_work, sp)) != 0) {
		sp->ra = NULL;
		for (i = 0; i < RA_SLOTS; i++)
			free(ra->buf[i]);
		free(ra);
	}
}

/* spool_read() of what the read-ahead holds: up to LEN bytes. */
static size_t
ra_read(struct spool *sp, unsigned char *p, size_t len)
{
	struct spool_ra *ra = sp->ra;
	unsigned h = ra->head;
	size_t k;

	pthread_mutex_lock(&ra->mu);
	while (!ra->full[h])
		pthread_cond_wait(&ra->cv, &ra->mu);
	pthread_mutex_unlock(&ra->mu);
	if (ra->len[h] == 0) {
		errno = ra->err != 0 ? ra->err : EIO;
		spool_fail(sp, "read");
	}
	k = ra->len[h] - ra->pos;
	if (k > len)
		k = len;
	memcpy(p, ra->buf[h] + ra->pos, k);
	ra->pos += k;
	if (ra->pos == ra->len[h]) {
		pthread_mutex_lock(&ra->mu);
		ra->full[h] = 0;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
		ra->head = (h + 1) % RA_SLOTS;
		ra->pos = 0;
	}
	return k;
}

void
spool_rewind(struct spool *sp)
{
	ra_end(sp);
	sp->roff = 0;
	ra_start(sp);
}

size_t
spool_read(struct spool *sp, void *p, size_t len)
{
	size_t k;

	if (sp->roff >= spool_size(sp) || len == 0)
		return 0;
	if (sp->ra != NULL && sp->roff < sp->ra->end) {
		k = ra_read(sp, p, len);
		sp->roff += (off_t)k;
		return k;
	}
	/* A chunk from the file at a time, whatever the caller asks. */
	k = copy_at(sp, p, len, sp->roff,
	    SPOOL_CHUNK - (size_t)(sp->roff % SPOOL_ALIGN));
	sp->roff += (off_t)k;
	return k;
}

off_t
spool_size(const struct spool *sp)
{
	return sp->woff + (off_t)sp->blen;
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
	ra_end(sp);
	(void)close(sp->fd);
	free(sp->wbuf);
	free(sp->rbuf);
	free(sp->dir);
	free(sp);
}
