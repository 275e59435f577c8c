/*
 * Decoding compressed streams (gzip, zstd, xz, bzip2, lz4) so that every
 * byte that decodes before damage reaches the caller, every checksum the
 * format carries is checked, and what is wrong is said with the byte
 * offset in the compressed data.  input.c stacks a decoder on a file or
 * an archive member whose first bytes are one of these formats.
 */
#ifndef PROF_UNZ_H
#define PROF_UNZ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum unz_kind {
	UNZ_NONE, UNZ_GZIP, UNZ_ZSTD, UNZ_XZ, UNZ_BZIP2, UNZ_LZ4
};

/* The longest magic unz_detect looks at. */
#define UNZ_MAGIC_LEN	6

/*
 * Where a decoder reads its compressed bytes: up to LEN bytes into BUF,
 * returning the count, 0 at the end, or -1 after printing a diagnostic.
 */
typedef ssize_t	(*unz_readfn)(void *, void *, size_t);

struct unz;

/* The format whose magic starts the N bytes at P, or UNZ_NONE. */
enum unz_kind	 unz_detect(const void *, size_t);
/* "gzip", "zstd", "xz", "bzip2", "lz4" (libarchive's filter names). */
const char	*unz_name(enum unz_kind);
/*
 * A decoder of KIND over READ(ARG).  WHERE names the data in diagnostics
 * and WHAT says what it is ("file", "member") in the words of a
 * truncation message; both are copied.
 */
struct unz	*unz_open(enum unz_kind, unz_readfn, void *, const char *,
		    const char *);
/*
 * Up to LEN decoded bytes into BUF: the count, 0 at the end of the data,
 * or -1 after printing "prog: WHERE: ..." (truncated or corrupt data, a
 * failed checksum).  The bytes decoded before an error are returned
 * first; the error comes with the next call.
 */
ssize_t		 unz_read(struct unz *, void *, size_t);
void		 unz_close(struct unz *);

#endif
