/*
 * A spool: an unlinked temporary file that is appended to and read
 * back, for a program that must read its input twice and has it from a
 * pipe (prof-steps) or keeps sorted runs on disk (prof-ingest's sink).
 * It is read sequentially from the start (spool_rewind, spool_read) or
 * at any offset (spool_pread), also while it is still written to: what
 * is not yet on disk is read from the write buffer.
 *
 * The file is written and read in aligned blocks of SPOOL_CHUNK bytes
 * with O_DIRECT where the file system takes it, so that the spooled
 * bytes do not pass through the page cache.  Why: a spool is read back
 * once, soon, and is as large as the input; through the page cache
 * every byte costs a copy into a freshly allocated page (on the 2-vCPU
 * VM of BENCHMARKS.md, pages the hypervisor has taken back, at three to
 * four times a copy's cost: 1.7 s of system time for 1 GB against 0.2 s
 * direct) and it pushes the user's trace out of the cache.  The
 * environment variable PROF_SPOOL_DIRECT=0 turns it off (a slow or
 * network /tmp, where the page cache would have hidden the disk);
 * where O_DIRECT is refused, the spool is an ordinary file.
 *
 * Errors are fatal (diag_errno with EXIT_BAD), naming the directory.
 */
#ifndef PROF_SPOOL_H
#define PROF_SPOOL_H

#include <stddef.h>
#include <sys/types.h>

/* Write and read unit; a spool holds two buffers of it. */
#define SPOOL_CHUNK	((size_t)1 << 20)

struct spool;

/* A new, empty spool in directory DIR ("prof-spool.XXXXXX", unlinked). */
struct spool	*spool_open(const char *dir);

/* Append LEN bytes at P. */
void		 spool_write(struct spool *, const void *p, size_t len);

/*
 * Start reading sequentially at the first byte written.  A thread reads
 * ahead what is on disk (two chunks or more); until spool_close() or the
 * next spool_rewind(), the spool is only read with spool_read().
 */
void		 spool_rewind(struct spool *);

/* Read up to LEN bytes into P from where reading is: the count, 0 at
 * the end. */
size_t		 spool_read(struct spool *, void *p, size_t len);

/* Read LEN bytes at offset OFF into P; all of them must have been
 * written. */
void		 spool_pread(struct spool *, void *p, size_t len, off_t off);

/* The bytes written. */
off_t		 spool_size(const struct spool *);

/* Whether the spool bypasses the page cache (for tests and -v). */
int		 spool_direct(const struct spool *);

/* Close and free (NULL is allowed). */
void		 spool_close(struct spool *);

#endif
