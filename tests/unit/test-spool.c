/*
 * Unit tests for libcommon/spool: what is written comes back, byte for
 * byte, in any split of writes and reads, at sizes around the aligned
 * block and the chunk, with O_DIRECT and without (PROF_SPOOL_DIRECT=0).
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "spool.h"

/* A byte of position I that differs from its neighbours' and repeats late. */
static unsigned char
byte_at(size_t i)
{
	return (unsigned char)((i * 2654435761u) >> 13);
}

/* N bytes of byte_at(), and a buffer as large for reading them back. */
static unsigned char *
pattern(size_t n, unsigned char **dst)
{
	unsigned char *src = malloc(n + 1);
	size_t i;

	*dst = malloc(n + 1);
	CHECK(src != NULL && *dst != NULL);
	for (i = 0; i < n; i++)
		src[i] = byte_at(i);
	return src;
}

/* Write N bytes in pieces of about WSTEP, read them back in about RSTEP. */
static void
round_trip(const char *dir, size_t n, size_t wstep, size_t rstep)
{
	struct spool *sp = spool_open(dir);
	unsigned char *dst, *src = pattern(n, &dst);
	size_t i, k, got;

	for (i = 0; i < n; i += k) {
		k = wstep + i % 7;
		if (k > n - i)
			k = n - i;
		spool_write(sp, src + i, k);
	}
	CHECK(spool_size(sp) == (off_t)n);
	spool_rewind(sp);
	for (got = 0; got < n; got += k) {
		k = spool_read(sp, dst + got, rstep + got % 5);
		CHECK(k > 0);
	}
	CHECK(got == n);
	CHECK(spool_read(sp, dst, 1) == 0);
	CHECK(memcmp(src, dst, n) == 0);
	spool_close(sp);
	free(src);
	free(dst);
}

/*
 * Positional reads while the spool grows: after each write, a piece
 * that ends at the end (partly in the write buffer) and one from the
 * start, as prof-ingest's merge reads runs while it appends.
 */
static void
pread_growing(const char *dir, size_t n, size_t wstep)
{
	struct spool *sp = spool_open(dir);
	unsigned char *dst, *src = pattern(n, &dst);
	size_t i, k, back;

	for (i = 0; i < n; i += k) {
		k = wstep + i % 11;
		if (k > n - i)
			k = n - i;
		spool_write(sp, src + i, k);
		back = (i + k) / 3 + 1;
		if (back > i + k)
			back = i + k;
		spool_pread(sp, dst, back, (off_t)(i + k - back));
		CHECK(memcmp(dst, src + i + k - back, back) == 0);
		spool_pread(sp, dst, (i + k) / 2, 0);
		CHECK(memcmp(dst, src, (i + k) / 2) == 0);
	}
	spool_pread(sp, dst, n, 0);
	CHECK(memcmp(dst, src, n) == 0);
	spool_close(sp);
	free(src);
	free(dst);
}

static void
all_sizes(const char *dir)
{
	static const size_t sizes[] = {
		0, 1, 511, 4095, 4096, 4097, SPOOL_CHUNK - 1, SPOOL_CHUNK,
		SPOOL_CHUNK + 1, 3 * SPOOL_CHUNK + 4099
	};
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		round_trip(dir, sizes[i], 1000, 777);
		round_trip(dir, sizes[i], 65536, 1 << 16);
		round_trip(dir, sizes[i], SPOOL_CHUNK + 3, 3 * SPOOL_CHUNK);
	}
	pread_growing(dir, 3 * SPOOL_CHUNK + 4099, 300007);
	pread_growing(dir, SPOOL_CHUNK + 1, 4096);
}

int
main(void)
{
	const char *dir = getenv("TMPDIR");
	struct spool *sp;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	all_sizes(dir);
	/* An empty spool reads as empty without a rewind. */
	sp = spool_open(dir);
	CHECK(spool_read(sp, &sp, 1) == 0);
	spool_close(sp);
	spool_close(NULL);
	CHECK(setenv("PROF_SPOOL_DIRECT", "0", 1) == 0);
	sp = spool_open(dir);
	CHECK(!spool_direct(sp));
	spool_close(sp);
	all_sizes(dir);
	CHECK_DONE();
}
