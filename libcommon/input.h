/*
 * Opening any input through libarchive: a plain file, standard input, a
 * compressed file (gzip, zstd, xz, bzip2, lz4), or the members of a tar or
 * zip archive, members that are themselves compressed included.  Callers
 * see a sequence of members, each a stream of decompressed bytes.
 */
#ifndef PROF_INPUT_H
#define PROF_INPUT_H

#include <stddef.h>
#include <sys/types.h>

struct input;

/*
 * Open PATH ("-" or NULL for standard input).  On failure print
 * "prog: PATH: reason" and return NULL.
 */
struct input	*input_open(const char *);
/*
 * Advance to the next regular member.  Returns 1 and sets *NAME to the
 * member's name (for a single, possibly compressed, file: the path without
 * its compression suffix), 0 at the end, -1 after printing a diagnostic.
 * A plain or compressed file has exactly one member.
 */
int		 input_next(struct input *, const char **);
/*
 * Read up to LEN decompressed bytes of the current member.  Returns the
 * count, 0 at the member's end, or -1 after printing a diagnostic (a
 * truncated or corrupt stream is an error, never an end).
 */
ssize_t		 input_read(struct input *, void *, size_t);
/*
 * Look at up to LEN first bytes of the current member without consuming
 * them; later input_read calls return them again.  Returns the count
 * available (fewer at the member's end, or before damage: the error
 * then comes from the input_read after them), or -1 after a diagnostic.
 */
ssize_t		 input_peek(struct input *, const void **, size_t);
/*
 * Read the rest of a compressed member and drop it, so that damage
 * behind the point where its reader stopped is still found: a flipped
 * bit in deflate data decodes to wrong text, and only the CRC-32 at the
 * end says why.  Returns 0, or -1 after the decoder's diagnostic.  A
 * plain member is left alone.
 */
int		 input_drain(struct input *);
/*
 * A seekable file that holds the current member, for readers that need
 * random access (an SQLite database, an XPlane protobuf read in passes):
 * the input's own path when the member is a plain regular file, else a
 * copy of the member's bytes in a temporary file under TMPDIR (NULL:
 * $TMPDIR, then /tmp), removed at the next input_next or input_close.
 * Sets *COPIED to whether a copy was made.  Returns the path, or NULL
 * after printing a diagnostic (the member is damaged or cut short, or
 * the copy cannot be written).  Call it before reading the member.
 */
const char	*input_seekable(struct input *, const char *, int *);
/*
 * The path of the plain (uncompressed, not archived) regular file that
 * is the current member, for a reader that reads it again; NULL for
 * standard input, a pipe, an archive member or a compressed file.
 * Nothing is copied: the file must stay as it is while it is read.
 */
const char	*input_plain_path(const struct input *);
/* Whether the input is an archive (tar, zip) rather than a single file. */
int		 input_is_archive(const struct input *);
/* The compression of the current member ("none", "gzip", "zstd", ...). */
const char	*input_filter(const struct input *);
/* The path given to input_open, for diagnostics ("<stdin>" for stdin). */
const char	*input_path(const struct input *);
/*
 * The name to use in diagnostics about the current member: the path for
 * a single file, "PATH(MEMBER)" for an archive member.
 */
const char	*input_where(const struct input *);
void		 input_close(struct input *);

#endif
