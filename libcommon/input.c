/*
 * Opening any input through libarchive.  One struct archive reads the file
 * (tar, zip, or a single raw stream through any compression filter); a
 * member that is itself compressed gets a second struct archive stacked on
 * top of the first, fed by archive_read_data on the outer one.  Formats
 * are registered one by one: format_all would let the mtree reader claim
 * plain text.  Every archive_read_data result is checked, because a
 * truncated gzip stream is reported only there.  A plain, uncompressed
 * regular file is read with read(2) once libarchive has told what it is,
 * straight into the caller's buffer: libarchive would copy every byte
 * once more through its own.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "diag.h"
#include "input.h"
#include "xalloc.h"

#define INPUT_BLOCK	(1 << 20)	/* libarchive read block size */
#define MAGIC_LEN	6		/* longest magic: xz */

struct input {
	char		*path;		/* for diagnostics: "<stdin>" */
	int		 fd;
	struct archive	*outer;
	struct archive	*inner;		/* compressed member, or NULL */
	int		 archive;	/* tar or zip, not a single stream */
	struct archive_entry *first;	/* read by input_open, or NULL */
	int		 first_pending;	/* input_next has not taken it */
	int		 empty;		/* empty input: one empty member */
	int		 inner_empty;	/* compressed member holds nothing */
	int		 started;	/* input_next returned a member */
	int		 failed;	/* a diagnostic was printed */
	int		 direct;	/* plain regular file: read(2) */
	off_t		 taken;		/* bytes libarchive gave, -1 once
					   direct reading has begun */
	char		*name;		/* current member, suffix removed */
	char		*where;		/* "PATH" or "PATH(MEMBER)" */
	unsigned char	*peek;		/* bytes read ahead, not consumed */
	size_t		 peekcap, peekoff, peeklen;
	unsigned char	*blk;		/* inner's read callback buffer */
	unsigned char	 magic[MAGIC_LEN];
	size_t		 magiclen;	/* magic bytes not yet given inner */
};

static const char *const suffixes[] = {
	".gz", ".zst", ".xz", ".bz2", ".lz4", NULL
};

/*
 * Report libarchive's last error on A, lowercasing its first letter when
 * that makes a plain word ("Truncated input" but not "ZIP ...").
 */
static void
report(struct input *in, struct archive *a, const char *fallback)
{
	const char *msg = archive_error_string(a);
	char *s;

	if (msg == NULL || *msg == '\0')
		msg = fallback;
	s = xstrdup(msg);
	if (s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z')
		s[0] = (char)(s[0] - 'A' + 'a');
	diag_at(in->where != NULL ? in->where : in->path, 0, "%s", s);
	free(s);
	in->failed = 1;
}

/* The name of a single stream: PATH without a compression suffix. */
static char *
strip_suffix(const char *path)
{
	size_t n = strlen(path), k;
	int i;

	for (i = 0; suffixes[i] != NULL; i++) {
		k = strlen(suffixes[i]);
		if (n > k && strcmp(path + n - k, suffixes[i]) == 0)
			return xstrndup(path, n - k);
	}
	return xstrdup(path);
}

static struct archive *
new_reader(int archives)
{
	struct archive *a = archive_read_new();

	if (a == NULL)
		diag_err(EXIT_BAD, "out of memory");
	archive_read_support_filter_all(a);
	if (archives) {
		archive_read_support_format_tar(a);
		archive_read_support_format_zip(a);
	}
	archive_read_support_format_empty(a);
	archive_read_support_format_raw(a);
	return a;
}

/* Open the file descriptor ourselves so that errors carry errno text. */
static int
open_fd(struct input *in, const char *path)
{
	struct stat st;

	if (path == NULL || strcmp(path, "-") == 0)
		return 0;
	if ((in->fd = open(path, O_RDONLY)) == -1) {
		diag_at(in->path, 0, "%s", strerror(errno));
		return -1;
	}
	if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		diag_at(in->path, 0, "%s", strerror(EISDIR));
		return -1;
	}
	return 0;
}

/*
 * A single stream with no compression filter, on a regular file, is read
 * with read(2).  libarchive read ahead to detect the format, so the first
 * direct read seeks back to the first byte it did not give.  Offsets are
 * from the start of the file, as libarchive's are: its zip reader looks
 * at the end of a seekable file and then reads it from offset 0, even
 * when it was handed the file at another offset.
 */
static void
check_direct(struct input *in)
{
	struct stat st;

	in->direct = !in->archive && !in->empty &&
	    archive_format(in->outer) == ARCHIVE_FORMAT_RAW &&
	    archive_filter_count(in->outer) == 1 &&
	    archive_filter_code(in->outer, 0) == ARCHIVE_FILTER_NONE &&
	    fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
}

struct input *
input_open(const char *path)
{
	struct input *in = xcalloc(1, sizeof(*in));
	struct archive_entry *e;
	int r;

	in->fd = 0;
	in->path = xstrdup(diag_path(path));
	if (open_fd(in, path) == -1)
		goto fail;
	in->outer = new_reader(1);
	if (archive_read_open_fd(in->outer, in->fd, INPUT_BLOCK) != ARCHIVE_OK) {
		report(in, in->outer, "cannot open input");
		goto fail;
	}
	/* Read the first header now, so the format is known at once. */
	do
		r = archive_read_next_header(in->outer, &e);
	while (r == ARCHIVE_RETRY);
	if (r < ARCHIVE_WARN) {
		report(in, in->outer, "cannot read input");
		goto fail;
	}
	switch (archive_format(in->outer) & ARCHIVE_FORMAT_BASE_MASK) {
	case ARCHIVE_FORMAT_RAW:
	case ARCHIVE_FORMAT_EMPTY:
	case 0:
		in->archive = 0;
		break;
	default:
		in->archive = 1;
		break;
	}
	in->first_pending = 1;
	if (r == ARCHIVE_EOF)
		in->empty = !in->archive;
	else
		in->first = e;
	check_direct(in);
	return in;
fail:
	input_close(in);
	return NULL;
}

/* Whether the first bytes of a member are a compressed stream's magic. */
static int
is_compressed(const unsigned char *m, size_t n)
{
	static const unsigned char gz[] = { 0x1f, 0x8b },
	    zst[] = { 0x28, 0xb5, 0x2f, 0xfd },
	    xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 },
	    bz[] = { 'B', 'Z', 'h' },
	    lz4[] = { 0x04, 0x22, 0x4d, 0x18 };

	return (n >= sizeof(gz) && memcmp(m, gz, sizeof(gz)) == 0) ||
	    (n >= sizeof(zst) && memcmp(m, zst, sizeof(zst)) == 0) ||
	    (n >= sizeof(xz) && memcmp(m, xz, sizeof(xz)) == 0) ||
	    (n >= sizeof(bz) && memcmp(m, bz, sizeof(bz)) == 0) ||
	    (n >= sizeof(lz4) && memcmp(m, lz4, sizeof(lz4)) == 0);
}

/*
 * The inner archive's read callback: first the magic bytes that were
 * read from the outer member to detect compression, then the rest.  An
 * outer failure is passed on with its own message.
 */
static la_ssize_t
inner_read(struct archive *a, void *arg, const void **buf)
{
	struct input *in = arg;
	la_ssize_t n;

	*buf = in->blk;
	if (in->magiclen > 0) {
		memcpy(in->blk, in->magic, in->magiclen);
		n = (la_ssize_t)in->magiclen;
		in->magiclen = 0;
		return n;
	}
	n = archive_read_data(in->outer, in->blk, INPUT_BLOCK);
	if (n < 0) {
		const char *msg = archive_error_string(in->outer);

		archive_set_error(a, archive_errno(in->outer), "%s",
		    msg != NULL ? msg : "read error");
		return -1;
	}
	return n;
}

/* Stack a decompressing reader on the current (compressed) member. */
static int
open_inner(struct input *in)
{
	struct archive_entry *e;
	int r;

	if (in->blk == NULL)
		in->blk = xmalloc(INPUT_BLOCK);
	in->inner = new_reader(0);
	if (archive_read_open(in->inner, in, NULL, inner_read, NULL) !=
	    ARCHIVE_OK) {
		report(in, in->inner, "cannot open compressed member");
		return -1;
	}
	do
		r = archive_read_next_header(in->inner, &e);
	while (r == ARCHIVE_RETRY);
	if (r < ARCHIVE_WARN) {
		report(in, in->inner, "cannot read compressed member");
		return -1;
	}
	in->inner_empty = r == ARCHIVE_EOF;
	return 0;
}

/* Read a plain file with read(2), first seeking past what was given. */
static ssize_t
direct_read(struct input *in, void *buf, size_t len)
{
	ssize_t n;

	if (in->taken != -1) {
		if (lseek(in->fd, in->taken, SEEK_SET) == -1) {
			diag_at(input_where(in), 0, "%s", strerror(errno));
			in->failed = 1;
			return -1;
		}
		in->taken = -1;
	}
	do
		n = read(in->fd, buf, len);
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		diag_at(input_where(in), 0, "%s", strerror(errno));
		in->failed = 1;
	}
	return n;
}

/* Read from the current member, below the peek buffer. */
static ssize_t
raw_read(struct input *in, void *buf, size_t len)
{
	struct archive *a = in->inner != NULL ? in->inner : in->outer;
	la_ssize_t n;

	if (in->empty || (in->inner != NULL && in->inner_empty))
		return 0;
	if (in->direct)
		return direct_read(in, buf, len);
	do
		n = archive_read_data(a, buf, len);
	while (n == ARCHIVE_RETRY);
	if (n == ARCHIVE_WARN)
		n = 0;
	if (n < 0) {
		report(in, a, "read error");
		return -1;
	}
	in->taken += n;
	return n;
}

/* Look at an archive member's first bytes; decompress it if needed. */
static int
start_member(struct input *in)
{
	ssize_t n;

	in->magiclen = 0;
	while (in->magiclen < MAGIC_LEN) {
		n = raw_read(in, in->magic + in->magiclen,
		    MAGIC_LEN - in->magiclen);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		in->magiclen += (size_t)n;
	}
	if (is_compressed(in->magic, in->magiclen))
		return open_inner(in);
	/* Plain: the magic bytes become the start of the peek buffer. */
	if (in->peekcap < MAGIC_LEN) {
		in->peekcap = INPUT_BLOCK;
		in->peek = xrealloc(in->peek, in->peekcap);
	}
	memcpy(in->peek, in->magic, in->magiclen);
	in->peekoff = 0;
	in->peeklen = in->magiclen;
	in->magiclen = 0;
	return 0;
}

/* Set the member's name and diagnostic name. */
static void
set_names(struct input *in, const char *member)
{
	size_t n;

	free(in->name);
	free(in->where);
	if (!in->archive) {
		in->name = strip_suffix(strcmp(in->path, "<stdin>") == 0 ?
		    "-" : in->path);
		in->where = xstrdup(in->path);
		return;
	}
	in->name = strip_suffix(member);
	n = strlen(in->path) + strlen(member) + 3;
	in->where = xmalloc(n);
	snprintf(in->where, n, "%s(%s)", in->path, member);
}

/*
 * Advance the outer reader to the next regular file entry; the first
 * header was already read by input_open.  Returns 1, 0 at the end, -1.
 */
static int
next_entry(struct input *in, struct archive_entry **e)
{
	int r;

	for (;;) {
		if (in->first_pending) {
			in->first_pending = 0;
			if ((*e = in->first) == NULL)
				return in->empty;
			r = ARCHIVE_OK;
		} else {
			do
				r = archive_read_next_header(in->outer, e);
			while (r == ARCHIVE_RETRY);
		}
		if (r == ARCHIVE_EOF)
			return 0;
		if (r < ARCHIVE_WARN) {
			report(in, in->outer, "cannot read archive header");
			return -1;
		}
		if (*e == NULL || archive_entry_filetype(*e) == AE_IFREG)
			return 1;
	}
}

/* Drop the state of the member being left. */
static void
end_member(struct input *in)
{
	if (in->inner != NULL) {
		archive_read_free(in->inner);
		in->inner = NULL;
	}
	in->peekoff = in->peeklen = 0;
	in->magiclen = 0;
}

int
input_next(struct input *in, const char **name)
{
	struct archive_entry *e;
	int r;

	if (in->failed)
		return -1;
	end_member(in);
	/* libarchive did not see the direct reads: the one member ends. */
	if (in->direct && in->started)
		return 0;
	if (in->empty && in->started) {
		in->empty = 0;
		return 0;
	}
	if ((r = next_entry(in, &e)) <= 0)
		return r;
	in->started = 1;
	if (!in->archive) {
		set_names(in, NULL);
		*name = in->name;
		return 1;
	}
	set_names(in, archive_entry_pathname(e) != NULL ?
	    archive_entry_pathname(e) : "?");
	if (start_member(in) == -1)
		return -1;
	*name = in->name;
	return 1;
}

/* Serve bytes from the peek buffer first, then from the member. */
ssize_t
input_read(struct input *in, void *buf, size_t len)
{
	size_t n;

	if (in->failed)
		return -1;
	if (in->peekoff < in->peeklen) {
		n = in->peeklen - in->peekoff;
		if (n > len)
			n = len;
		memcpy(buf, in->peek + in->peekoff, n);
		in->peekoff += n;
		return (ssize_t)n;
	}
	return raw_read(in, buf, len);
}

/* Read ahead until LEN bytes are buffered or the member ends. */
ssize_t
input_peek(struct input *in, const void **p, size_t len)
{
	ssize_t n;
	size_t have;

	if (in->failed)
		return -1;
	have = in->peeklen - in->peekoff;
	if (have < len) {
		if (in->peekoff > 0) {
			memmove(in->peek, in->peek + in->peekoff, have);
			in->peekoff = 0;
			in->peeklen = have;
		}
		if (in->peekcap < len) {
			in->peekcap = len;
			in->peek = xrealloc(in->peek, in->peekcap);
		}
		while (in->peeklen < len) {
			n = raw_read(in, in->peek + in->peeklen,
			    len - in->peeklen);
			if (n < 0)
				return -1;
			if (n == 0)
				break;
			in->peeklen += (size_t)n;
		}
		have = in->peeklen;
	}
	*p = in->peek + in->peekoff;
	return (ssize_t)(have < len ? have : len);
}

int
input_is_archive(const struct input *in)
{
	return in->archive;
}

const char *
input_filter(const struct input *in)
{
	if (in->inner != NULL)
		return archive_filter_name(in->inner, 0);
	if (in->archive)
		return "none";
	return archive_filter_name(in->outer, 0);
}

const char *
input_path(const struct input *in)
{
	return in->path;
}

const char *
input_where(const struct input *in)
{
	return in->where != NULL ? in->where : in->path;
}

void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	if (in->inner != NULL)
		archive_read_free(in->inner);
	if (in->outer != NULL)
		archive_read_free(in->outer);
	if (in->fd > 0)
		close(in->fd);
	free(in->path);
	free(in->name);
	free(in->where);
	free(in->peek);
	free(in->blk);
	free(in);
}
