/*
 * Unit tests of the prof-tsv writer and reader: escaping round trips,
 * the header, preamble metadata, and every malformed-record diagnostic
 * (run in a child so the fatal exit can be observed).
 */
#include <config.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "tsv.h"

static char tmpl[64];

static const char *
write_bytes(const char *text, size_t len)
{
	int fd;

	strcpy(tmpl, "/tmp/test-tsv.XXXXXX");
	fd = mkstemp(tmpl);
	CHECK(fd >= 0);
	CHECK(write(fd, text, len) == (ssize_t)len);
	close(fd);
	return tmpl;
}

static const char *
write_file(const char *text)
{
	return write_bytes(text, strlen(text));
}

/* Read all records of LEN bytes of TEXT in a child; its exit status. */
static int
read_bytes_status(const char *text, size_t len)
{
	const char *path = write_bytes(text, len);
	pid_t pid = fork();
	int st;

	CHECK(pid >= 0);
	if (pid == 0) {
		struct tsvr *r;
		int rc;

		freopen("/dev/null", "w", stderr);
		if ((r = tsvr_open(path)) == NULL)
			_exit(3);
		while ((rc = tsvr_next(r)) == 1)
			continue;
		/* -1: a damaged record, reported; the reader stays failed */
		if (rc < 0 && (!tsvr_failed(r) || tsvr_next(r) != -1))
			_exit(4);
		_exit(rc < 0 ? 1 : 0);
	}
	waitpid(pid, &st, 0);
	unlink(path);
	return WEXITSTATUS(st);
}

static int
read_all_status(const char *text)
{
	return read_bytes_status(text, strlen(text));
}

static void
test_roundtrip(void)
{
	static const char *const cols[] = { "kind", "name" };
	const char *path = write_file("");
	int fd = open(path, O_WRONLY | O_TRUNC);
	struct tsvw *w = tsvw_open(fd, path);
	struct tsvr *r;
	size_t len;
	const char *f;

	tsvw_preamble(w, "prof-tsv 1");
	tsvw_preamble(w, "origin_ns 1736408883688177930");
	tsvw_header(w, cols, 2);
	tsvw_str(w, "host");
	tsvw_str(w, "a\tb\nc\\d\re");
	tsvw_end(w);
	tsvw_str(w, "kernel");
	tsvw_empty(w);
	tsvw_end(w);
	tsvw_close(w);
	close(fd);

	r = tsvr_open(path);
	CHECK(r != NULL);
	CHECK_STR(tsvr_meta(r, "origin_ns"), "1736408883688177930");
	CHECK(tsvr_meta(r, "origin") == NULL);
	CHECK(tsvr_ncols(r) == 2);
	CHECK(tsvr_col(r, "name") == 1);
	CHECK(tsvr_col(r, "nope") == -1);
	CHECK(tsvr_next(r) == 1);
	f = tsvr_field(r, 1, &len);
	CHECK(len == 9 && memcmp(f, "a\tb\nc\\d\re", 9) == 0);
	f = tsvr_line(r, &len);
	CHECK(len == 18 && memcmp(f, "host\ta\\tb", 9) == 0);
	CHECK(tsvr_next(r) == 1);
	CHECK(tsvr_field(r, 1, &len)[0] == '\0' && len == 0);
	CHECK(tsvr_lineno(r) == 5);
	CHECK(tsvr_next(r) == 0);
	tsvr_close(r);
	unlink(path);
}

/* Escaping as the format defines it, one byte at a time. */
static size_t
escape_ref(const char *s, size_t len, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		switch (s[i]) {
		case '\t': out[n++] = '\\'; out[n++] = 't'; break;
		case '\n': out[n++] = '\\'; out[n++] = 'n'; break;
		case '\r': out[n++] = '\\'; out[n++] = 'r'; break;
		case '\\': out[n++] = '\\'; out[n++] = '\\'; break;
		default: out[n++] = s[i]; break;
		}
	return n;
}

/*
 * Every field length around the 8- and 16-byte steps, with a special
 * byte at every place (or none, or two): the word and vector scans and
 * their overlapping last loads must find the first one.
 */
static void
test_escape(void)
{
	static const char specials[] = "\t\n\r\\";
	char in[48], got[96], want[96];
	size_t len, at, at2, k, n;

	for (len = 0; len <= 40; len++)
		for (at = 0; at <= len; at++)
			for (k = 0; k < 4; k++) {
				memset(in, 'a' + (int)(len % 26), len);
				in[len] = '\0';
				if (at < len)
					in[at] = specials[k];
				at2 = (at + 7 + k) % (len + 1);
				if (k == 3 && at2 < len)
					in[at2] = '\t';
				n = tsv_escape(in, len, got);
				CHECK(n == escape_ref(in, len, want));
				CHECK(memcmp(got, want, n) == 0);
			}
	/* High bytes are no special ones. */
	CHECK(tsv_escape("\xc3\xa9\x89\x8a\x8d\xdc\xff\x09", 8, got) == 9);
	CHECK(memcmp(got, "\xc3\xa9\x89\x8a\x8d\xdc\xff\\t", 9) == 0);
}

/* Numbers come out as printf writes them, at every digit count. */
static void
test_i64(void)
{
	static const int64_t fixed[] = {
		0, 1, -1, 9, 10, -10, 99, 100, 999, 1000, 9999, 10000, 99999,
		100000, 1736408883688177930, INT64_MAX, INT64_MIN,
		INT64_MIN + 1
	};
	const char *path = write_file("");
	int fd = open(path, O_WRONLY | O_TRUNC);
	struct tsvw *w = tsvw_open(fd, path);
	char want[64 * 100], got[sizeof(want)];
	size_t n = 0, i;
	int64_t v;
	FILE *f;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		tsvw_i64(w, fixed[i]);
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%" PRId64,
		    i > 0 ? "\t" : "", fixed[i]);
	}
	for (v = 7, i = 0; i < 18; i++, v = v * 10 + 3) {
		tsvw_i64(w, v);
		tsvw_i64(w, -v);
		n += (size_t)snprintf(want + n, sizeof(want) - n,
		    "\t%" PRId64 "\t%" PRId64, v, -v);
	}
	/* each side of every power of ten, where the digit count steps */
	for (v = 1, i = 0; i < 18; i++) {
		v *= 10;
		tsvw_i64(w, v - 1);
		tsvw_i64(w, v);
		tsvw_i64(w, -v);
		n += (size_t)snprintf(want + n, sizeof(want) - n,
		    "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, v - 1, v, -v);
	}
	tsvw_end(w);
	want[n++] = '\n';
	tsvw_close(w);
	close(fd);
	CHECK((f = fopen(path, "r")) != NULL);
	CHECK(fread(got, 1, sizeof(got), f) == n);
	CHECK(memcmp(got, want, n) == 0);
	fclose(f);
	unlink(path);
}

/*
 * Random records read back field by field: lines of every length around
 * the reader's 64-byte blocks, runs of empty fields (a block of TABs
 * only), escapes anywhere, a TAB in every position of a block, and the
 * three ways of getting at a field.  The reader finds a field when it
 * is asked for (from the TAB offsets it keeps of the first ones, from
 * the field before, or from its masks), so the fields are asked for in
 * order, in a random order with repeats, and from the last one down.
 */
static uint64_t rng_state = 88172645463325252ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The Ith field to ask for, of NCOLS, in ORDER (0, 1 or 2; see above). */
static size_t
split_pick(int order, size_t i, size_t ncols)
{
	if (order == 0)
		return i;
	if (order == 1)
		return (size_t)(rng() % ncols);
	return ncols - 1 - i;
}

static void
test_split(int order)
{
	static const size_t ncols_try[] = { 1, 2, 5, 9, 75, 130 };
	static const char alpha[] = "ab\\\t\n\r0123456789_xyz";
	enum { NREC = 400, MAXF = 160 };
	char name[24], *vals, *want, raw[2 * MAXF + 1];
	const char **names;
	size_t *lens, c, k, ncols, len, got_len, i;
	const size_t *all_lens;
	char *const *all;
	const char *path, *f;
	struct tsvw *w;
	struct tsvr *r;
	int fd, rec;

	for (c = 0; c < sizeof(ncols_try) / sizeof(ncols_try[0]); c++) {
		ncols = ncols_try[c];
		names = calloc(ncols, sizeof(*names));
		vals = malloc(NREC * ncols * MAXF);
		lens = calloc(NREC * ncols, sizeof(*lens));
		CHECK(names != NULL && vals != NULL && lens != NULL);
		for (k = 0; k < ncols; k++) {
			snprintf(name, sizeof(name), "c%zu", k);
			names[k] = strdup(name);
		}
		path = write_file("");
		fd = open(path, O_WRONLY | O_TRUNC);
		w = tsvw_open(fd, path);
		tsvw_header(w, names, ncols);
		for (rec = 0; rec < NREC; rec++)
			for (k = 0; k < ncols; k++) {
				size_t at = (size_t)rec * ncols + k;
				uint64_t x = rng();

				/* a third empty, some long, most short */
				len = x % 3 == 0 ? 0 : x % 7 == 0 ?
				    (x >> 8) % MAXF : (x >> 8) % 12;
				for (i = 0; i < len; i++)
					vals[at * MAXF + i] = alpha[rng() %
					    (sizeof(alpha) - 1)];
				lens[at] = len;
				tsvw_field(w, vals + at * MAXF, len);
				if (k == ncols - 1)
					tsvw_end(w);
			}
		tsvw_close(w);
		close(fd);
		r = tsvr_open(path);
		CHECK(r != NULL && tsvr_ncols(r) == ncols);
		for (rec = 0; rec < NREC; rec++) {
			CHECK(tsvr_next(r) == 1);
			for (i = 0; i < ncols; i++) {
				size_t at;

				k = split_pick(order, i, ncols);
				at = (size_t)rec * ncols + k;
				want = vals + at * MAXF;
				f = tsvr_field(r, k, &got_len);
				CHECK(got_len == lens[at]);
				CHECK(memcmp(f, want, got_len) == 0);
				CHECK(f[got_len] == '\0');
				f = tsvr_rawfield(r, k, &got_len);
				CHECK(got_len == escape_ref(want, lens[at], raw));
				CHECK(memcmp(f, raw, got_len) == 0);
			}
			all = tsvr_fields(r, &all_lens);
			for (k = 0; k < ncols; k++) {
				size_t at = (size_t)rec * ncols + k;

				CHECK(all_lens[k] == lens[at]);
				CHECK(memcmp(all[k], vals + at * MAXF,
				    lens[at]) == 0);
			}
		}
		CHECK(tsvr_next(r) == 0);
		tsvr_close(r);
		unlink(path);
		for (k = 0; k < ncols; k++)
			free((char *)names[k]);
		free(names);
		free(vals);
		free(lens);
	}
}

/*
 * A record line with a TAB too many or too few at every place in a
 * block, and a NUL byte at every place: each is found, whatever its
 * position relative to the 64-byte blocks.
 */
static void
test_split_errors(void)
{
	char text[400];
	size_t at, n;

	for (at = 0; at < 140; at++) {
		n = (size_t)snprintf(text, sizeof(text), "a\tb\n");
		memset(text + n, 'x', 150);
		text[n + 150] = '\t';
		text[n + 151] = 'y';
		text[n + 152] = '\n';
		text[n + at] = '\t';		/* three fields */
		CHECK(read_bytes_status(text, n + 153) == 1);
		text[n + at] = '\0';		/* a NUL byte */
		CHECK(read_bytes_status(text, n + 153) == 1);
		text[n + at] = 'x';
		CHECK(read_bytes_status(text, n + 153) == 0);
	}
}

/*
 * Integers read back at every digit count, both signs, the int64 ends,
 * and the malformed ones (checked in a child: they are fatal), so that
 * the eight-digit step and the overflow check meet at every length.
 */
static void
test_read_i64(void)
{
	static const char *const bad[] = {
		"12345678a", "1234567a9", "a2345678", "-", "--1", "+1", " 1",
		"1 ", "9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "1.5", "12345678\\t"
	};
	char text[4096], *p = text;
	const char *path;
	struct tsvr *r;
	int64_t v, want[64];
	size_t n = 0, i;
	int absent;

	p += sprintf(p, "a\tb\n");
	for (v = 7, i = 0; i < 18; i++, v = v * 10 + (int64_t)(i % 10)) {
		want[n++] = v;
		want[n++] = -v;
	}
	want[n++] = INT64_MAX;
	want[n++] = INT64_MIN;
	want[n++] = 0;
	want[n++] = 100000000;
	want[n++] = 1736408883688177930;
	for (i = 0; i < n; i++)
		p += sprintf(p, "%" PRId64 "\t\n", want[i]);
	path = write_file(text);
	r = tsvr_open(path);
	CHECK(r != NULL);
	for (i = 0; i < n; i++) {
		CHECK(tsvr_next(r) == 1);
		CHECK(tsvr_i64(r, 0, &absent) == want[i] && !absent);
		CHECK(tsvr_i64(r, 1, &absent) == 0 && absent);
	}
	CHECK(tsvr_next(r) == 0);
	tsvr_close(r);
	unlink(path);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pid_t pid;
		int st;

		snprintf(text, sizeof(text), "a\tb\n%s\t\n", bad[i]);
		path = write_file(text);
		CHECK((pid = fork()) >= 0);
		if (pid == 0) {
			freopen("/dev/null", "w", stderr);
			if ((r = tsvr_open(path)) == NULL || tsvr_next(r) != 1)
				_exit(3);
			(void)tsvr_i64(r, 0, NULL);
			_exit(0);
		}
		waitpid(pid, &st, 0);
		unlink(path);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	}
}

/*
 * Lines built in place and runs of whole lines, a short run copied into
 * the buffer and a long one written past it, come out in their order.
 */
static void
test_lines(void)
{
	const char *path = write_file("");
	int fd = open(path, O_WRONLY | O_TRUNC);
	struct tsvw *w = tsvw_open(fd, path);
	size_t bigl = 200000, n = 0, i;
	char *big = malloc(bigl), *want = malloc(bigl + 64);
	char *got = malloc(bigl + 64), *p;
	FILE *f;

	CHECK(big != NULL && want != NULL && got != NULL);
	for (i = 0; i < bigl; i++)
		big[i] = i % 50 == 49 ? '\n' : (char)('a' + i % 26);
	tsvw_str(w, "a");
	tsvw_end(w);
	p = tsvw_reserve(w, 16);
	memcpy(p, "bb\n", 3);
	tsvw_commit(w, 3);
	tsvw_write(w, "c\nd\n", 4);
	tsvw_write(w, big, bigl);
	tsvw_i64(w, 5);
	tsvw_end(w);
	memcpy(want, "a\nbb\nc\nd\n", n = 9);
	memcpy(want + n, big, bigl);
	n += bigl;
	memcpy(want + n, "5\n", 2);
	n += 2;
	CHECK(tsvw_bytes(w) == n);
	tsvw_close(w);
	close(fd);
	CHECK((f = fopen(path, "r")) != NULL);
	CHECK(fread(got, 1, bigl + 64, f) == n);
	CHECK(memcmp(got, want, n) == 0);
	fclose(f);
	unlink(path);
	free(big);
	free(want);
	free(got);
}

/* Diagnostics expected by a test go to /dev/null, and back. */
static int saved_err = -1;

static void
quiet(int on)
{
	int fd;

	fflush(stderr);
	if (on) {
		saved_err = dup(2);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 2);
		close(fd);
	} else {
		dup2(saved_err, 2);
		close(saved_err);
	}
}

/*
 * A stream cut short: a last line without newline is never a record
 * (its last field may have lost digits), and a preamble without a
 * header is not an empty stream.  The records before the cut are read.
 */
static void
test_cut(void)
{
	const char *path;
	struct tsvr *r;

	CHECK(read_all_status("a\tb\n1\t2") == 1);
	CHECK(read_all_status("a\tb\n1\t2\n3\t4") == 1);
	CHECK(read_all_status("a\tb\n1\t2\r") == 1);
	CHECK(read_all_status("#prof-tsv 1\n") == 1);
	CHECK(read_all_status("#prof-tsv 1\n#origin_ns 5\n") == 1);
	CHECK(read_all_status("#prof-tsv 1\n#origin_n") == 1);
	CHECK(read_all_status("#prof-tsv 1\nkind\tts_n") == 1);
	CHECK(read_all_status("a\tb") == 1);
	CHECK(read_all_status("#prof-tsv 2\na\tb\n") == 1);
	CHECK(read_all_status("#prof-tsv 1\na\tb\n") == 0);
	CHECK(read_all_status("#prof-tsv 1\na\tb\n1\t2\n") == 0);
	path = write_file("a\tb\n1\t2\n3\t45");
	CHECK((r = tsvr_open(path)) != NULL);
	CHECK(tsvr_next(r) == 1);
	CHECK_STR(tsvr_field(r, 1, NULL), "2");
	CHECK(!tsvr_failed(r));
	quiet(1);
	CHECK(tsvr_next(r) == -1);
	quiet(0);
	CHECK(tsvr_failed(r));
	CHECK(tsvr_next(r) == -1);
	tsvr_close(r);
	unlink(path);
}

/*
 * The fixed times as every program reads them (tsvr_times): absent
 * values, the int64 ends, and each rule of prof-tsv(5) broken once.
 */
static void
test_times(void)
{
	static const struct {
		const char	*line;
		int		 rc;
		int64_t		 ts, dur;
	} c[] = {
		{ "kernel\t5\t3\n", 0, 5, 3 },
		{ "metric\t\t\n", 0, TSV_NO_TS, -1 },
		{ "host\t5\t\n", 0, 5, -1 },
		{ "kernel\t-9223372036854775807\t0\n", 0, INT64_MIN + 1, 0 },
		{ "kernel\t0\t9223372036854775807\n", 0, 0, INT64_MAX },
		{ "kernel\t9223372036854775806\t1\n", 0, INT64_MAX - 1, 1 },
		{ "kernel\t-9223372036854775808\t1\n", -1, 0, 0 },
		{ "mark\t-9223372036854775808\t\n", -1, 0, 0 },
		{ "kernel\t9223372036854775807\t1\n", -1, 0, 0 },
		{ "kernel\t5\t-1\n", -1, 0, 0 },
		{ "kernel\t5\t\n", -1, 0, 0 },
		{ "kernel\t\t5\n", -1, 0, 0 },
		{ "kernel\tx\t5\n", -1, 0, 0 },
		{ "kernel\t5\t5.0\n", -1, 0, 0 },
		{ "kernels\t5\t\n", 0, 5, -1 },
	};
	char text[256];
	const char *path;
	struct tsvr *r;
	int64_t ts, dur;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(text, sizeof(text), "kind\tts_ns\tdur_ns\n%s",
		    c[i].line);
		path = write_file(text);
		CHECK((r = tsvr_open(path)) != NULL);
		CHECK(tsvr_next(r) == 1);
		quiet(1);
		rc = tsvr_times(r, &ts, &dur);
		quiet(0);
		CHECK(rc == c[i].rc);
		CHECK(tsvr_failed(r) == (c[i].rc < 0));
		if (c[i].rc == 0)
			CHECK(ts == c[i].ts && dur == c[i].dur);
		else
			CHECK(tsvr_next(r) == -1);
		tsvr_close(r);
		unlink(path);
	}
}

int
main(void)
{
	diag_setprogname("test-tsv");
	test_roundtrip();
	test_escape();
	test_i64();
	test_split(0);
	test_split(1);
	test_split(2);
	test_split_errors();
	test_read_i64();
	test_lines();
	test_cut();
	test_times();
	CHECK(read_all_status("a\tb\n1\t2\n") == 0);
	CHECK(read_all_status("") == 0);
	CHECK(read_all_status("a\tb\n1\t2\t3\n") == 1);
	CHECK(read_all_status("a\tb\n1\n") == 1);
	CHECK(read_all_status("a\tb\n1\t2\r\n") == 1);
	CHECK(read_all_status("a\tb\n1\\x\t2\n") == 1);
	CHECK(read_all_status("a\tb\n1\\\t2\n") == 1);
	CHECK(read_all_status("a\tA\n") == 1);
	CHECK(read_all_status("a\ta\n") == 1);
	CHECK(read_bytes_status("a\tb\n1\0\t2\n", 9) == 1);
	CHECK_DONE();
}
