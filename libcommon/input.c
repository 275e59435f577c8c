/*
 * Opening any input: a plain file, standard input, a compressed file
 * (gzip, zstd, xz, bzip2, lz4), or the members of a tar or zip archive,
 * members that are themselves compressed included.
 *
 * Those five compressions are decoded by unz.c, not by libarchive's
 * filters: libarchive drops the block it was filling when the data ends
 * early and never checks a gzip member's CRC-32, while unz hands over
 * every byte that decodes before damage and checks every checksum.  So
 * the first bytes of the file are looked at first; a compressed file is
 * decoded by unz, and libarchive sees the decoded bytes only when they
 * are a tar or zip archive.  Anything else is opened by libarchive as
 * before: formats registered one by one (format_all would let the mtree
 * reader claim plain text), a plain, uncompressed regular file then read
 * with read(2) straight into the caller's buffer, as libarchive would
 * copy every byte once more through its own.  Member data is taken with
 * archive_read_data_block, never archive_read_data, which drops the
 * bytes it had gathered in a call that ends in an error; a member that
 * is itself compressed gets an unz decoder fed by those blocks.
 */
#include <config.h>

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "diag.h"
#include "input.h"
#include "unz.h"
#include "xalloc.h"

#define INPUT_BLOCK	(1 << 20)	/* libarchive read block size */
#define BID_BLOCK	(64 << 10)	/* the same on a regular file */
#define SNIFF_LEN	512		/* decoded bytes that tell an archive */

struct input {
	char		*path;		/* for diagnostics: "<stdin>" */
	int		 fd;
	int		 regular;	/* fd is a regular file */
	struct archive	*outer;		/* NULL for a compressed single file */
	int		 archive;	/* tar or zip, not a single stream */
	struct archive_entry *first;	/* read by input_open, or NULL */
	int		 first_pending;	/* input_next has not taken it */
	int		 empty;		/* empty input: one empty member */
	int		 started;	/* input_next returned a member */
	int		 failed;	/* a diagnostic was printed */
	int		 direct;	/* plain regular file: read(2) */
	off_t		 taken;		/* bytes libarchive gave, -1 once
					   direct reading has begun */
	/* The first bytes of fd, read to tell what the file is. */
	unsigned char	 head[UNZ_MAGIC_LEN];
	size_t		 headoff, headlen;
	/* A compressed file's first decoded bytes, read to tell an archive. */
	unsigned char	 pre[SNIFF_LEN];
	size_t		 preoff, prelen;
	struct unz	*fz;		/* decoder of the file itself */
	enum unz_kind	 fzkind;
	int		 zfailed;	/* fz said what is wrong */
	struct unz	*mz;		/* decoder of the current member */
	enum unz_kind	 mzkind;
	/* The libarchive data block being handed out. */
	const unsigned char *dblk;
	size_t		 dleft;
	int64_t		 dpos;		/* member bytes handed out */
	int64_t		 hole;		/* zeros owed for a sparse member */
	int		 dend;		/* the member's data ended */
	char		*name;		/* current member, suffix removed */
	char		*where;		/* "PATH" or "PATH(MEMBER)" */
	unsigned char	*peek;		/* bytes read ahead, not consumed */
	size_t		 peekcap, peekoff, peeklen;
	unsigned char	*blk;		/* read callbacks' buffer */
	unsigned char	 magic[UNZ_MAGIC_LEN];
	size_t		 magicoff, magiclen;	/* given to mz first */
	char		*spool;		/* input_seekable's copy, or NULL */
};

static const char *const suffixes[] = {
	".gz", ".zst", ".xz", ".bz2", ".lz4", NULL
};

/*
 * libarchive's messages about damage, in the words of what they mean
 * for the user's file, with how far into the member the damage is when
 * AT is set; the others are passed on as they are.
 */
static const struct {
	const char	*prefix;
	int		 at;
	const char	*say;
} la_words[] = {
	{ "ZIP decompression failed (-5)", 1, "truncated archive: the "
	    "member's compressed data ends early" },
	{ "ZIP decompression failed", 1, "corrupt archive: the member's "
	    "compressed data is damaged" },
	{ "Truncated ZIP file", 1, "truncated archive: it ends inside this "
	    "member" },
	{ "ZIP bad CRC", 0, "corrupt archive: the member fails its CRC-32 "
	    "check" },
	{ "Truncated tar archive", 1, "truncated archive: it ends inside "
	    "this member" },
	{ "Truncated input file", 0, "truncated archive: it ends early" },
	{ "Damaged tar archive", 0, "corrupt archive: a tar header is "
	    "damaged" },
	/* Filters unz does not decode (lzma, lzip, compress, ...). */
	{ "lzma library error", 0, "the compressed data is damaged or cut "
	    "short" },
	{ "truncated", 0, "the data ends early: the file is truncated" },
	{ NULL, 0, NULL }
};

/*
 * Report libarchive's last error on A: in plain words when it is about
 * damage, else its own text with the first letter lowercased when that
 * makes a plain word ("Truncated input" but not "ZIP ...").  Nothing
 * when unz already said what is wrong with the compressed data under
 * the archive.
 */
static void
report(struct input *in, struct archive *a, const char *fallback)
{
	const char *msg = archive_error_string(a);
	const char *where = in->where != NULL ? in->where : in->path;
	char *s;
	int i;

	in->failed = 1;
	if (in->zfailed)
		return;
	if (msg == NULL || *msg == '\0')
		msg = fallback;
	for (i = 0; la_words[i].prefix != NULL; i++) {
		if (strncasecmp(msg, la_words[i].prefix,
		    strlen(la_words[i].prefix)) != 0)
			continue;
		if (la_words[i].at && in->where != NULL && in->archive)
			diag_at(where, 0, "%s, after byte %jd of its data",
			    la_words[i].say, (intmax_t)in->dpos);
		else if (!la_words[i].at)
			diag_at(where, 0, "%s", la_words[i].say);
		else
			continue;
		return;
	}
	s = xstrdup(msg);
	if (s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z')
		s[0] = (char)(s[0] - 'A' + 'a');
	diag_at(where, 0, "%s", s);
	free(s);
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

/*
 * A reader of tar, zip and single raw streams.  FILTERS: through any
 * compression libarchive knows; not over bytes unz has decoded.
 */
static struct archive *
new_reader(int filters)
{
	struct archive *a = archive_read_new();

	if (a == NULL)
		diag_err(EXIT_BAD, "out of memory");
	if (filters)
		archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_empty(a);
	archive_read_support_format_raw(a);
	return a;
}

/* Open the file descriptor ourselves so that errors carry errno text. */
static int
open_fd(struct input *in, const char *path)
{
	struct stat st;

	if (path != NULL && strcmp(path, "-") != 0 &&
	    (in->fd = open(path, O_RDONLY)) == -1) {
		diag_at(in->path, 0, "%s", strerror(errno));
		return -1;
	}
	if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		diag_at(in->path, 0, "%s", strerror(EISDIR));
		return -1;
	}
	in->regular = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
	return 0;
}

/* read(2) that retries on EINTR and reports an error; -1 after it. */
static ssize_t
fd_read(struct input *in, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(in->fd, buf, len);
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		diag_at(input_where(in), 0, "%s", strerror(errno));
		in->failed = 1;
	}
	return n;
}

/* The file's bytes: those read to look at its start, then the rest. */
static ssize_t
file_read(void *arg, void *buf, size_t len)
{
	struct input *in = arg;
	size_t n;

	if (in->headoff < in->headlen) {
		n = in->headlen - in->headoff;
		if (n > len)
			n = len;
		memcpy(buf, in->head + in->headoff, n);
		in->headoff += n;
		return (ssize_t)n;
	}
	return fd_read(in, buf, len);
}

/* libarchive's read callback over file_read (a pipe), or over fz. */
static la_ssize_t
outer_read(struct archive *a, void *arg, const void **buf)
{
	struct input *in = arg;
	ssize_t n;

	if (in->blk == NULL)
		in->blk = xmalloc(INPUT_BLOCK);
	*buf = in->blk;
	if (in->fz != NULL && in->preoff < in->prelen) {
		n = (ssize_t)(in->prelen - in->preoff);
		memcpy(in->blk, in->pre + in->preoff, (size_t)n);
		in->preoff = in->prelen;
		return n;
	}
	n = in->fz != NULL ? unz_read(in->fz, in->blk, INPUT_BLOCK) :
	    file_read(in, in->blk, INPUT_BLOCK);
	if (n < 0) {
		/* Already reported: by unz, or by fd_read. */
		in->zfailed = 1;
		archive_set_error(a, EIO, "read error");
		return -1;
	}
	return n;
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
	in->direct = !in->archive && !in->empty && in->regular &&
	    archive_format(in->outer) == ARCHIVE_FORMAT_RAW &&
	    archive_filter_count(in->outer) == 1 &&
	    archive_filter_code(in->outer, 0) == ARCHIVE_FILTER_NONE;
}

/* Whether the first decoded bytes are a tar header or a zip member. */
static int
is_archive(const unsigned char *p, size_t n)
{
	unsigned long sum = 0, want = 0;
	size_t i;

	if (n >= 4 && p[0] == 'P' && p[1] == 'K' &&
	    ((p[2] == 3 && p[3] == 4) || (p[2] == 5 && p[3] == 6)))
		return 1;
	if (n < 512)
		return 0;
	if (memcmp(p + 257, "ustar", 5) == 0)
		return 1;
	/* An old tar header: its octal checksum, with the field blank. */
	for (i = 0; i < 512; i++)
		sum += i >= 148 && i < 156 ? ' ' : p[i];
	for (i = 148; i < 156 && p[i] == ' '; i++)
		;
	for (; i < 156 && p[i] >= '0' && p[i] <= '7'; i++)
		want = want * 8 + (unsigned long)(p[i] - '0');
	return i > 148 && want == sum && p[0] != '\0';
}

/*
 * Read the first bytes of the file into in->head (up to LEN), which the
 * readers over file_read get first.  A regular file is instead rewound
 * when libarchive is to read it: archive_read_open_fd seeks in it.
 */
static int
read_start(struct input *in, size_t len)
{
	ssize_t n;

	while (in->headlen < len) {
		if ((n = fd_read(in, in->head + in->headlen,
		    len - in->headlen)) < 0)
			return -1;
		if (n == 0)
			break;
		in->headlen += (size_t)n;
	}
	return 0;
}

/*
 * A compressed file: unz decodes it.  Its first decoded bytes, kept in
 * in->pre, tell a tar or zip archive (read by libarchive over unz) from
 * a single stream (read from unz directly).
 */
static int
open_compressed(struct input *in, enum unz_kind kind)
{
	ssize_t n;

	in->fz = unz_open(kind, file_read, in, in->path, "file");
	in->fzkind = kind;
	while (in->prelen < SNIFF_LEN) {
		n = unz_read(in->fz, in->pre + in->prelen,
		    SNIFF_LEN - in->prelen);
		if (n < 0) {
			in->zfailed = 1;
			break;
		}
		if (n == 0)
			break;
		in->prelen += (size_t)n;
	}
	if (!is_archive(in->pre, in->prelen)) {
		in->first_pending = 1;
		in->empty = in->prelen == 0 && !in->zfailed;
		return 0;
	}
	in->archive = 1;
	in->outer = new_reader(0);
	if (archive_read_open(in->outer, in, NULL, outer_read, NULL) !=
	    ARCHIVE_OK) {
		report(in, in->outer, "cannot open input");
		return -1;
	}
	return 1;
}

/* Read the first header now, so the format is known at once. */
static int
first_header(struct input *in)
{
	struct archive_entry *e;
	int r;

	do
		r = archive_read_next_header(in->outer, &e);
	while (r == ARCHIVE_RETRY);
	if (r < ARCHIVE_WARN) {
		report(in, in->outer, "cannot read input");
		return -1;
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
	return 0;
}

struct input *
input_open(const char *path)
{
	struct input *in = xcalloc(1, sizeof(*in));
	enum unz_kind kind;
	int r;

	in->fd = 0;
	in->path = xstrdup(diag_path(path));
	if (open_fd(in, path) == -1 || read_start(in, UNZ_MAGIC_LEN) == -1)
		goto fail;
	if ((kind = unz_detect(in->head, in->headlen)) != UNZ_NONE) {
		if ((r = open_compressed(in, kind)) < 0)
			goto fail;
		if (r == 0)
			return in;
	} else {
		in->outer = new_reader(1);
		if (in->regular && lseek(in->fd, 0, SEEK_SET) == -1) {
			diag_at(in->path, 0, "%s", strerror(errno));
			goto fail;
		}
		if (in->regular)
			in->headoff = in->headlen;
		/*
		 * A small block: for a plain file libarchive only looks at
		 * the start (read(2) takes the rest), and a walk through
		 * thousands of small files should not cost 1 MiB each.
		 */
		if (in->regular)
			r = archive_read_open_fd(in->outer, in->fd,
			    BID_BLOCK);
		else
			r = archive_read_open(in->outer, in, NULL, outer_read,
			    NULL);
		if (r != ARCHIVE_OK) {
			report(in, in->outer, "cannot open input");
			goto fail;
		}
	}
	if (first_header(in) == -1)
		goto fail;
	if (in->fz == NULL)
		check_direct(in);
	return in;
fail:
	input_close(in);
	return NULL;
}

/*
 * The current member's data from libarchive, a block at a time: a call
 * that ends in an error never takes back the bytes of earlier blocks.
 * A sparse member's holes read as zeros, as archive_read_data gives them.
 */
static ssize_t
block_read(struct input *in, void *buf, size_t len)
{
	const void *p;
	size_t n;
	la_int64_t off;
	int r;

	while (in->dleft == 0 && in->hole == 0) {
		if (in->dend)
			return 0;
		do
			r = archive_read_data_block(in->outer, &p, &n, &off);
		while (r == ARCHIVE_RETRY);
		if (r == ARCHIVE_EOF) {
			in->dend = 1;
			return 0;
		}
		if (r < ARCHIVE_WARN) {
			report(in, in->outer, "read error");
			return -1;
		}
		if (off > in->dpos)
			in->hole = off - in->dpos;
		in->dblk = p;
		in->dleft = n;
	}
	if (in->hole > 0) {
		n = (uint64_t)in->hole < len ? (size_t)in->hole : len;
		memset(buf, 0, n);
		in->hole -= (int64_t)n;
	} else {
		n = in->dleft < len ? in->dleft : len;
		memcpy(buf, in->dblk, n);
		in->dblk += n;
		in->dleft -= n;
	}
	in->dpos += (int64_t)n;
	in->taken += (off_t)n;
	return (ssize_t)n;
}

/* A compressed member's bytes: its magic, read to detect it, then more. */
static ssize_t
member_read(void *arg, void *buf, size_t len)
{
	struct input *in = arg;
	size_t n;

	if (in->magicoff < in->magiclen) {
		n = in->magiclen - in->magicoff;
		if (n > len)
			n = len;
		memcpy(buf, in->magic + in->magicoff, n);
		in->magicoff += n;
		return (ssize_t)n;
	}
	return block_read(in, buf, len);
}

/* Read a plain file with read(2), first seeking past what was given. */
static ssize_t
direct_read(struct input *in, void *buf, size_t len)
{
	if (in->taken != -1) {
		if (lseek(in->fd, in->taken, SEEK_SET) == -1) {
			diag_at(input_where(in), 0, "%s", strerror(errno));
			in->failed = 1;
			return -1;
		}
		in->taken = -1;
	}
	return fd_read(in, buf, len);
}

/* Read from the current member, below the peek buffer. */
static ssize_t
raw_read(struct input *in, void *buf, size_t len)
{
	ssize_t n;

	if (in->empty)
		return 0;
	if (in->mz != NULL)
		n = unz_read(in->mz, buf, len);
	else if (in->outer == NULL)
		n = unz_read(in->fz, buf, len);
	else if (in->direct)
		return direct_read(in, buf, len);
	else
		return block_read(in, buf, len);
	if (n < 0)
		in->failed = 1;
	return n;
}

/* Look at an archive member's first bytes; decompress it if needed. */
static int
start_member(struct input *in)
{
	enum unz_kind kind;
	ssize_t n;

	in->magiclen = in->magicoff = 0;
	while (in->magiclen < UNZ_MAGIC_LEN) {
		n = raw_read(in, in->magic + in->magiclen,
		    UNZ_MAGIC_LEN - in->magiclen);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		in->magiclen += (size_t)n;
	}
	if ((kind = unz_detect(in->magic, in->magiclen)) != UNZ_NONE) {
		in->mz = unz_open(kind, member_read, in, in->where, "member");
		in->mzkind = kind;
		return 0;
	}
	/* Plain: the magic bytes become the start of the peek buffer. */
	if (in->peekcap < UNZ_MAGIC_LEN) {
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
				return in->empty || in->outer == NULL;
			r = ARCHIVE_OK;
		} else if (in->outer == NULL)
			return 0;
		else {
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

/* Remove input_seekable's copy of the member being left. */
static void
drop_spool(struct input *in)
{
	if (in->spool == NULL)
		return;
	(void)unlink(in->spool);
	free(in->spool);
	in->spool = NULL;
}

/* Drop the state of the member being left. */
static void
end_member(struct input *in)
{
	drop_spool(in);
	unz_close(in->mz);
	in->mz = NULL;
	in->peekoff = in->peeklen = 0;
	in->magiclen = in->magicoff = 0;
	in->dleft = 0;
	in->dpos = in->hole = 0;
	in->dend = 0;
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
	if ((in->direct || in->outer == NULL) && in->started)
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
		/* A compressed file's first decoded bytes are its start. */
		if (in->outer == NULL && in->prelen > 0) {
			if (in->peekcap < in->prelen) {
				in->peekcap = INPUT_BLOCK;
				in->peek = xrealloc(in->peek, in->peekcap);
			}
			memcpy(in->peek, in->pre, in->prelen);
			in->peeklen = in->prelen;
		}
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

	/* Bytes read ahead before damage are the member's all the same. */
	if (in->peekoff < in->peeklen) {
		n = in->peeklen - in->peekoff;
		if (n > len)
			n = len;
		memcpy(buf, in->peek + in->peekoff, n);
		in->peekoff += n;
		return (ssize_t)n;
	}
	if (in->failed)
		return -1;
	return raw_read(in, buf, len);
}

/* Read ahead until LEN bytes are buffered or the member ends. */
ssize_t
input_peek(struct input *in, const void **p, size_t len)
{
	ssize_t n;
	size_t have;

	have = in->peeklen - in->peekoff;
	if (in->failed && have == 0)
		return -1;
	if (have < len && !in->failed) {
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
			/* What came before an error is kept for reading. */
			if (n < 0 && in->peeklen == 0)
				return -1;
			if (n <= 0)
				break;
			in->peeklen += (size_t)n;
		}
		have = in->peeklen;
	}
	*p = in->peek + in->peekoff;
	return (ssize_t)(have < len ? have : len);
}

int
input_drain(struct input *in)
{
	static char sink[1 << 16];
	ssize_t n;

	if (in->failed)
		return -1;
	if (in->mz == NULL && (in->fz == NULL || in->outer != NULL))
		return 0;
	while ((n = raw_read(in, sink, sizeof(sink))) > 0)
		;
	return n < 0 ? -1 : 0;
}

/* Copy the rest of the member into FD; 0, or -1 after a diagnostic. */
static int
spool_member(struct input *in, int fd, const char *tmp)
{
	static char buf[1 << 16];
	ssize_t n, w;
	size_t off;

	while ((n = input_read(in, buf, sizeof(buf))) > 0)
		for (off = 0; off < (size_t)n; off += (size_t)w)
			if ((w = write(fd, buf + off, (size_t)n - off)) < 0) {
				if (errno == EINTR) {
					w = 0;
					continue;
				}
				diag_warnerr("%s", tmp);
				in->failed = 1;
				return -1;
			}
	return n < 0 ? -1 : 0;
}

const char *
input_seekable(struct input *in, const char *tmpdir, int *copied)
{
	const char *dir = tmpdir;
	size_t len;
	int fd;

	*copied = 0;
	/*
	 * Nothing read yet from a plain file: the file itself will do.  Not
	 * standard input, even from a regular file: it has no path to give.
	 */
	if (in->direct && in->peekoff == 0 && in->mz == NULL &&
	    in->fd != STDIN_FILENO)
		return in->path;
	if (dir == NULL || *dir == '\0')
		dir = getenv("TMPDIR");
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	drop_spool(in);
	len = strlen(dir) + sizeof("/prof-ingest.XXXXXX");
	in->spool = xmalloc(len);
	(void)snprintf(in->spool, len, "%s/prof-ingest.XXXXXX", dir);
	if ((fd = mkstemp(in->spool)) == -1) {
		diag_warnerr("%s: cannot make a temporary copy of %s",
		    dir, input_where(in));
		free(in->spool);
		in->spool = NULL;
		return NULL;
	}
	if (spool_member(in, fd, in->spool) == -1) {
		(void)close(fd);
		drop_spool(in);
		return NULL;
	}
	if (close(fd) == -1) {
		diag_warnerr("%s", in->spool);
		drop_spool(in);
		return NULL;
	}
	*copied = 1;
	return in->spool;
}

const char *
input_plain_path(const struct input *in)
{
	return in->direct && in->mz == NULL && in->fd != STDIN_FILENO ?
	    in->path : NULL;
}

int
input_is_archive(const struct input *in)
{
	return in->archive;
}

const char *
input_filter(const struct input *in)
{
	if (in->mz != NULL)
		return unz_name(in->mzkind);
	if (in->archive)
		return "none";
	if (in->fz != NULL)
		return unz_name(in->fzkind);
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
	drop_spool(in);
	unz_close(in->mz);
	if (in->outer != NULL)
		archive_read_free(in->outer);
	if (in->fd > 0)
		close(in->fd);
	free(in->path);
	free(in->name);
	free(in->where);
	free(in->peek);
	free(in->blk);
	unz_close(in->fz);
	free(in);
}
