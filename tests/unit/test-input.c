/*
 * Unit test of libcommon/input.c: plain, compressed and empty files, tar
 * and zip archives with plain and compressed members, peeking, and the
 * errors (missing file, truncated gzip).  The fixtures are written here
 * with libarchive's write API, so the test needs no outside program.
 */
#include <config.h>

#include <sys/stat.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "check.h"
#include "errcap.h"
#include "diag.h"
#include "input.h"

static char tmpdir[1024];
static char *paths[32];
static int npaths;

/* A path in the scratch directory, remembered for the cleanup. */
static const char *
tpath(const char *name)
{
	size_t n = strlen(tmpdir) + strlen(name) + 2;

	CHECK(npaths < 32);
	paths[npaths] = malloc(n);
	snprintf(paths[npaths], n, "%s/%s", tmpdir, name);
	return paths[npaths++];
}

static void
cleanup(void)
{
	while (npaths > 0) {
		npaths--;
		unlink(paths[npaths]);
		free(paths[npaths]);
	}
	rmdir(tmpdir);
}

static void
write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	CHECK(f != NULL);
	CHECK(fwrite(data, 1, len, f) == len);
	CHECK(fclose(f) == 0);
}

/* Compress DATA with FILTER ("gzip", "zstd") into OUT; returns the size. */
static size_t
compress_mem(const char *filter, const void *data, size_t len, void *out,
    size_t cap)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	size_t used = 0;

	CHECK(archive_write_add_filter_by_name(a, filter) == ARCHIVE_OK);
	CHECK(archive_write_set_format_raw(a) == ARCHIVE_OK);
	CHECK(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
	CHECK(archive_write_open_memory(a, out, cap, &used) == ARCHIVE_OK);
	archive_entry_set_pathname(e, "data");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_size(e, (la_int64_t)len);
	CHECK(archive_write_header(a, e) == ARCHIVE_OK);
	CHECK(archive_write_data(a, data, len) == (la_ssize_t)len);
	CHECK(archive_write_close(a) == ARCHIVE_OK);
	archive_entry_free(e);
	archive_write_free(a);
	return used;
}

/* Add a member to an archive being written; DATA NULL makes a directory. */
static void
add_member(struct archive *a, const char *name, const void *data,
    size_t len)
{
	struct archive_entry *e = archive_entry_new();

	archive_entry_set_pathname(e, name);
	archive_entry_set_filetype(e, data != NULL ? AE_IFREG : AE_IFDIR);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, data != NULL ? (la_int64_t)len : 0);
	CHECK(archive_write_header(a, e) == ARCHIVE_OK);
	if (data != NULL && len > 0)
		CHECK(archive_write_data(a, data, len) == (la_ssize_t)len);
	archive_entry_free(e);
}

/* Read the rest of the current member into BUF; returns its length. */
static ssize_t
slurp(struct input *in, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;

	while ((r = input_read(in, buf + n, cap - n > 7 ? 7 : cap - n)) > 0)
		n += (size_t)r;
	return r < 0 ? -1 : (ssize_t)n;
}

/* Text that compresses badly, so a cut lands inside the deflate data. */
static char *
noise(size_t len)
{
	char *s = malloc(len);
	unsigned long x = 12345;
	size_t i;

	for (i = 0; i < len; i++) {
		x = x * 1103515245 + 12345;
		s[i] = (char)('!' + (x >> 16) % 90);
	}
	return s;
}

static void
test_plain_and_peek(void)
{
	const char *p = tpath("a.json");
	struct input *in;
	const char *name;
	const void *pk;
	char buf[256];

	write_file(p, "{\"a\":1}\n", 8);
	CHECK((in = input_open(p)) != NULL);
	CHECK(!input_is_archive(in));
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, p);
	CHECK_STR(input_where(in), p);
	CHECK_STR(input_path(in), p);
	CHECK_STR(input_filter(in), "none");
	CHECK(input_peek(in, &pk, 4) == 4);
	CHECK(memcmp(pk, "{\"a\"", 4) == 0);
	CHECK(input_peek(in, &pk, 100) == 8);
	CHECK(slurp(in, buf, sizeof(buf)) == 8);
	CHECK(memcmp(buf, "{\"a\":1}\n", 8) == 0);
	CHECK(input_next(in, &name) == 0);
	input_close(in);
}

static void
test_compressed(const char *filter, const char *file)
{
	const char *p = tpath(file);
	char *data = noise(100000), *z = malloc(200000), buf[100001];
	struct input *in;
	const char *name;
	const void *pk;
	size_t zn = compress_mem(filter, data, 100000, z, 200000);

	write_file(p, z, zn);
	CHECK((in = input_open(p)) != NULL);
	CHECK(input_next(in, &name) == 1);
	/* The member is named as the file, less its compression suffix. */
	CHECK(strlen(name) == strlen(p) - strlen(strrchr(p, '.')));
	CHECK(strncmp(name, p, strlen(name)) == 0);
	CHECK_STR(input_filter(in), filter);
	CHECK(input_peek(in, &pk, 10) == 10);
	CHECK(memcmp(pk, data, 10) == 0);
	CHECK(slurp(in, buf, sizeof(buf)) == 100000);
	CHECK(memcmp(buf, data, 100000) == 0);
	CHECK(input_next(in, &name) == 0);
	input_close(in);
	free(data);
	free(z);
}

/*
 * Read the member to its end or error; the bytes read before an error
 * stay in BUF, their count in *GOT.  Returns -1 on error, else 0.
 */
static int
slurp_upto(struct input *in, char *buf, size_t cap, size_t *got)
{
	ssize_t r;

	*got = 0;
	while ((r = input_read(in, buf + *got, cap - *got > 4096 ? 4096 :
	    cap - *got)) > 0)
		*got += (size_t)r;
	return r < 0 ? -1 : 0;
}

/*
 * A compressed stream cut short is an error, never a short file, and
 * the bytes that decode before the cut are read first: a prefix of the
 * data (for gzip and xz, which decode as the bytes come, nearly all of
 * the prefix the kept half of the compressed bytes holds).
 */
static void
test_truncated(const char *filter, const char *file)
{
	const char *p = tpath(file);
	char *data = noise(300000), *z = malloc(400000), *buf = malloc(300000);
	size_t zn = compress_mem(filter, data, 300000, z, 400000), got = 0;
	struct input *in;
	const char *name, *msg;
	char want[1100];
	int failed = 0;

	write_file(p, z, zn / 2);
	err_begin();
	if ((in = input_open(p)) == NULL)
		failed = 1;
	else if (input_next(in, &name) != 1 ||
	    slurp_upto(in, buf, 300000, &got) == -1)
		failed = 1;
	msg = err_end();
	CHECK(failed);
	snprintf(want, sizeof(want), "test-input: %s: %s data cut short at "
	    "byte %zu: the file is truncated", p, filter, zn / 2);
	CHECK_STR(msg, want);
	CHECK(memcmp(buf, data, got) == 0);
	if (strcmp(filter, "gzip") == 0 || strcmp(filter, "xz") == 0)
		CHECK(got > 300000 / 2 * 9 / 10);
	input_close(in);
	free(data);
	free(z);
	free(buf);
}

/* Compress DATA with lz4 and libarchive's OPTIONS for the filter. */
static size_t
lz4_mem(const char *options, const void *data, size_t len, void *out,
    size_t cap)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	size_t used = 0;

	CHECK(archive_write_add_filter_lz4(a) == ARCHIVE_OK);
	CHECK(archive_write_set_options(a, options) == ARCHIVE_OK);
	CHECK(archive_write_set_format_raw(a) == ARCHIVE_OK);
	CHECK(archive_write_set_bytes_in_last_block(a, 1) == ARCHIVE_OK);
	CHECK(archive_write_open_memory(a, out, cap, &used) == ARCHIVE_OK);
	archive_entry_set_pathname(e, "data");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_size(e, (la_int64_t)len);
	CHECK(archive_write_header(a, e) == ARCHIVE_OK);
	CHECK(archive_write_data(a, data, len) == (la_ssize_t)len);
	CHECK(archive_write_close(a) == ARCHIVE_OK);
	archive_entry_free(e);
	archive_write_free(a);
	return used;
}

/*
 * lz4 frames one after another, each with its own block size (4 MiB,
 * then 64 KiB and empty, then 256 KiB), block dependence and checksums:
 * one stream of their data, each frame's matches within itself.  A
 * frame of smaller blocks after a large one must not shrink the buffer
 * the large one's output is still in.
 */
static void
test_lz4_frames(void)
{
	static const char *const opts[] = {
		"lz4:block-size=7,lz4:block-checksum",
		"lz4:block-size=4,lz4:block-dependence",
		"lz4:block-size=5,lz4:block-dependence,lz4:block-checksum"
	};
	static const size_t len[] = { 1000000, 0, 300000 };
	/* An empty frame of 64 KiB blocks (libarchive writes none). */
	static const char empty[] = "\x04\x22\x4d\x18\x40\x40\xc0"
	    "\0\0\0\0";
	const char *p = tpath("frames.lz4");
	char *data = noise(1000000), *z = malloc(2000000), *buf = malloc(1300000);
	size_t zn = 0, got, i;
	struct input *in;
	const char *name;

	for (i = 0; i < 3; i++)
		if (len[i] > 0)
			zn += lz4_mem(opts[i], data, len[i], z + zn,
			    2000000 - zn);
		else {
			memcpy(z + zn, empty, sizeof(empty) - 1);
			zn += sizeof(empty) - 1;
		}
	write_file(p, z, zn);
	CHECK((in = input_open(p)) != NULL);
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(input_filter(in), "lz4");
	CHECK(slurp_upto(in, buf, 1300000, &got) == 0);
	CHECK(got == 1300000);
	CHECK(memcmp(buf, data, 1000000) == 0);
	CHECK(memcmp(buf + 1000000, data, 300000) == 0);
	input_close(in);
	free(data);
	free(z);
	free(buf);
}

/*
 * A gzip member whose trailer does not match its data (CRC-32, then
 * length) is an error after all of the data was read.
 */
static void
test_gzip_trailer(int field)
{
	const char *p = tpath(field == 0 ? "crc.json.gz" : "len.json.gz");
	char *data = noise(100000), *z = malloc(200000), *buf = malloc(100000);
	size_t zn = compress_mem("gzip", data, 100000, z, 200000), got = 0;
	struct input *in;
	const char *name, *msg;
	char want[1100];

	z[zn - (field == 0 ? 8 : 4)] ^= 1;
	write_file(p, z, zn);
	err_begin();
	CHECK((in = input_open(p)) != NULL);
	CHECK(input_next(in, &name) == 1);
	CHECK(slurp_upto(in, buf, 100000, &got) == -1);
	msg = err_end();
	if (field == 0)
		snprintf(want, sizeof(want), "test-input: %s: gzip member 1 "
		    "fails its CRC-32 check (the trailer ending at byte %zu "
		    "does not match the data): the data is corrupt", p, zn - 4);
	else
		snprintf(want, sizeof(want), "test-input: %s: gzip member 1 "
		    "fails its length check (the size in the trailer ending "
		    "at byte %zu is not the size of the data): the data is "
		    "corrupt", p, zn);
	CHECK_STR(msg, want);
	CHECK(got == 100000 && memcmp(buf, data, got) == 0);
	input_close(in);
	free(data);
	free(z);
	free(buf);
}

static void
test_empty(void)
{
	const char *p = tpath("empty.json");
	struct input *in;
	const char *name;
	const void *pk;
	char buf[16];

	write_file(p, "", 0);
	CHECK((in = input_open(p)) != NULL);
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, p);
	CHECK(input_peek(in, &pk, 10) == 0);
	CHECK(slurp(in, buf, sizeof(buf)) == 0);
	CHECK(input_next(in, &name) == 0);
	input_close(in);
}

/* Write an archive with a directory, plain, compressed and empty members. */
static void
write_archive(const char *path, int zip)
{
	struct archive *a = archive_write_new();
	char z[512];
	size_t zn = compress_mem("gzip", "{\"b\":2}", 7, z, sizeof(z));

	if (zip)
		CHECK(archive_write_set_format_zip(a) == ARCHIVE_OK);
	else
		CHECK(archive_write_set_format_ustar(a) == ARCHIVE_OK);
	CHECK(archive_write_open_filename(a, path) == ARCHIVE_OK);
	add_member(a, "d/", NULL, 0);
	add_member(a, "d/a.json", "{\"a\":1}", 7);
	if (zip)
		CHECK(archive_write_zip_set_compression_store(a) ==
		    ARCHIVE_OK);
	add_member(a, "d/b.json.gz", z, zn);
	add_member(a, "d/e.txt", "", 0);
	CHECK(archive_write_close(a) == ARCHIVE_OK);
	archive_write_free(a);
}

static void
test_archive(const char *file, int zip)
{
	const char *p = tpath(file);
	struct input *in;
	const char *name;
	char buf[64], want[1100];

	write_archive(p, zip);
	CHECK((in = input_open(p)) != NULL);
	CHECK(input_is_archive(in));
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, "d/a.json");
	snprintf(want, sizeof(want), "%s(d/a.json)", p);
	CHECK_STR(input_where(in), want);
	CHECK(slurp(in, buf, sizeof(buf)) == 7);
	CHECK(memcmp(buf, "{\"a\":1}", 7) == 0);
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, "d/b.json");
	snprintf(want, sizeof(want), "%s(d/b.json.gz)", p);
	CHECK_STR(input_where(in), want);
	CHECK_STR(input_filter(in), "gzip");
	CHECK(slurp(in, buf, sizeof(buf)) == 7);
	CHECK(memcmp(buf, "{\"b\":2}", 7) == 0);
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, "d/e.txt");
	CHECK(slurp(in, buf, sizeof(buf)) == 0);
	CHECK(input_next(in, &name) == 0);
	input_close(in);
}

/* A member left half read is skipped cleanly by input_next. */
static void
test_skip_member(void)
{
	const char *p = tpath("skip.tar");
	struct input *in;
	const char *name;
	const void *pk;
	char buf[64];

	write_archive(p, 0);
	CHECK((in = input_open(p)) != NULL);
	CHECK(input_next(in, &name) == 1);
	CHECK(input_peek(in, &pk, 3) == 3);
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, "d/b.json");
	CHECK(input_read(in, buf, 2) == 2);
	CHECK(input_next(in, &name) == 1);
	CHECK_STR(name, "d/e.txt");
	input_close(in);
}

static void
test_missing(void)
{
	const char *p = tpath("no-such-file");
	char want[1100];
	struct input *in;

	err_begin();
	in = input_open(p);
	snprintf(want, sizeof(want), "test-input: %s: No such file or "
	    "directory", p);
	CHECK_STR(err_end(), want);
	CHECK(in == NULL);
	err_begin();
	in = input_open(tmpdir);
	snprintf(want, sizeof(want), "test-input: %s: Is a directory", tmpdir);
	CHECK_STR(err_end(), want);
	CHECK(in == NULL);
}

int
main(void)
{
	const char *t = getenv("TMPDIR");

	diag_setprogname("test-input");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test-input.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	CHECK(mkdtemp(tmpdir) != NULL);
	test_plain_and_peek();
	test_compressed("gzip", "c.json.gz");
	test_compressed("zstd", "c.json.zst");
	test_compressed("xz", "c.json.xz");
	test_compressed("bzip2", "c.json.bz2");
	test_compressed("lz4", "c.json.lz4");
	test_truncated("gzip", "cut.json.gz");
	test_truncated("zstd", "cut.json.zst");
	test_truncated("xz", "cut.json.xz");
	test_truncated("bzip2", "cut.json.bz2");
	test_truncated("lz4", "cut.json.lz4");
	test_lz4_frames();
	test_gzip_trailer(0);
	test_gzip_trailer(1);
	test_empty();
	test_archive("p.tar", 0);
	test_archive("p.zip", 1);
	test_skip_member();
	test_missing();
	cleanup();
	CHECK_DONE();
}
