/*
 * libFuzzer harness for compressed and archived inputs: libcommon/unz.c
 * (gzip, zstd, xz, bzip2, lz4) under input.c, with tar and zip archives
 * whose members may be compressed too, every member read in pieces whose
 * size the input's first byte varies, peeked at first as prof-ingest
 * does.  Where the input is one compressed stream, libarchive decodes it
 * as well and the two must agree on every byte both give: ours may go
 * further (libarchive drops the block it was filling when the data is
 * cut) or stop sooner (at a checksum libarchive does not check, or at
 * bytes after the end that it ignores), but never differ.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "fuzz.h"
#include "input.h"
#include "unz.h"

#define CAP	(4 << 20)	/* decoded bytes compared, at most */

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static unsigned char ours[CAP], theirs[CAP];

/*
 * Read every member of PATH in pieces of STEP bytes and more; the first
 * member's bytes go to OUT.  Returns their count; *SINGLE tells whether
 * the input was one stream, not an archive.
 */
static size_t
read_ours(const char *path, size_t step, int *single)
{
	struct input *in;
	const char *name;
	const void *pk;
	size_t got = 0, want;
	ssize_t n;
	int first = 1;

	*single = 0;
	if ((in = input_open(path)) == NULL)
		return 0;
	*single = !input_is_archive(in);
	while (input_next(in, &name) == 1) {
		fuzz_touch(name, strlen(name) + 1);
		fuzz_touch(input_where(in), strlen(input_where(in)) + 1);
		(void)input_filter(in);
		if ((n = input_peek(in, &pk, 100)) > 0)
			fuzz_touch(pk, (size_t)n);
		for (;;) {
			if (first) {
				want = step + got % 7;
				if (want > CAP - got)
					want = CAP - got;
				if (want == 0)
					break;
				n = input_read(in, ours + got, want);
			} else
				n = input_read(in, theirs, step);
			if (n <= 0)
				break;
			if (first)
				got += (size_t)n;
		}
		if (first && n < 0)
			(void)input_drain(in);
		first = 0;
	}
	input_close(in);
	return got;
}

/* The same bytes decoded by libarchive's filters, up to their error. */
static size_t
read_theirs(const uint8_t *data, size_t size)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	const void *blk;
	size_t got = 0, len;
	la_int64_t off;

	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	archive_read_support_format_empty(a);
	if (archive_read_open_memory(a, data, size) == ARCHIVE_OK &&
	    archive_read_next_header(a, &e) == ARCHIVE_OK)
		while (got < CAP && archive_read_data_block(a, &blk, &len,
		    &off) == ARCHIVE_OK) {
			if (len > CAP - got)
				len = CAP - got;
			memcpy(theirs + got, blk, len);
			got += len;
		}
	archive_read_free(a);
	return got;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	size_t n, m, step;
	int single;

	fuzz_quiet();
	if (size < 1)
		return 0;
	step = 1 + data[0] % 64 * 61;
	path = fuzz_file(data + 1, size - 1);
	n = read_ours(path, step, &single);
	if (!single || unz_detect(data + 1, size - 1) == UNZ_NONE)
		return 0;
	m = read_theirs(data + 1, size - 1);
	if (memcmp(ours, theirs, n < m ? n : m) != 0)
		abort();
	return 0;
}
