/*
 * Unit tests of the prof-tsv writer and reader: escaping round trips,
 * the header, preamble metadata, and every malformed-record diagnostic
 * (run in a child so the fatal exit can be observed).
 */
#include <config.h>

#include <fcntl.h>
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

		freopen("/dev/null", "w", stderr);
		if ((r = tsvr_open(path)) == NULL)
			_exit(3);
		while (tsvr_next(r) == 1)
			continue;
		_exit(0);
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

int
main(void)
{
	diag_setprogname("test-tsv");
	test_roundtrip();
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
