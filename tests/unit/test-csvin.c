/*
 * Unit tests for csvin: each case writes a small CSV to a temporary file,
 * opens it through input_open as the tools do, and checks fields, row
 * start lines and the exact diagnostics (stderr is captured to a file).
 */
#include <config.h>

#include <csv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "csvin.h"
#include "diag.h"
#include "input.h"

static char	 path[64];
static struct input *cur_in;
static char	 errpath[64];
static int	 saved_stderr = -1;

/* Write TEXT (LEN bytes) to a fresh temporary file and open it. */
static struct input *
open_text(const char *text, size_t len)
{
	const char *name;
	int fd;

	snprintf(path, sizeof(path), "/tmp/test-csvin.XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, text, len) == (ssize_t)len);
	close(fd);
	cur_in = input_open(path);
	CHECK(cur_in != NULL);
	CHECK(input_next(cur_in, &name) == 1);
	return cur_in;
}

static void
close_text(struct csvin *c)
{
	csvin_close(c);
	input_close(cur_in);
	unlink(path);
}

/* Send stderr to a temporary file until capture_end. */
static void
capture_begin(void)
{
	int fd;

	snprintf(errpath, sizeof(errpath), "/tmp/test-csvin-err.XXXXXX");
	fd = mkstemp(errpath);
	CHECK(fd >= 0);
	fflush(stderr);
	saved_stderr = dup(2);
	CHECK(saved_stderr >= 0);
	CHECK(dup2(fd, 2) == 2);
	close(fd);
}

/* Restore stderr and return what was written to it (static buffer). */
static const char *
capture_end(void)
{
	static char buf[1024];
	FILE *fp;
	size_t n;

	fflush(stderr);
	CHECK(dup2(saved_stderr, 2) == 2);
	close(saved_stderr);
	fp = fopen(errpath, "r");
	CHECK(fp != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	unlink(errpath);
	return buf;
}

/*
 * The diagnostic expected for the current temporary file: LINE 0 leaves
 * out the line, COL 0 the column.
 */
static const char *
diag_for(unsigned long line, unsigned long col, const char *msg)
{
	static char buf[512];

	if (line == 0)
		snprintf(buf, sizeof(buf), "test-csvin: %s: %s\n", path, msg);
	else if (col == 0)
		snprintf(buf, sizeof(buf), "test-csvin: %s:%lu: %s\n", path,
		    line, msg);
	else
		snprintf(buf, sizeof(buf), "test-csvin: %s:%lu:%lu: %s\n",
		    path, line, col, msg);
	return buf;
}

#define OPEN(s)	open_text((s), sizeof(s) - 1)

/* BOM, CRLF, the TAB after a time value, N/A and NA. */
static void
test_bom_crlf_tab(void)
{
	struct csvin *c;
	size_t len;

	OPEN("\xEF\xBB\xBF" "Step Id,Start Time(us),Name,Core\r\n"
	    "50,1736408883704643.212\t,N/A,NA\r\n"
	    "51, 1.5\t ,x,AI_CORE\r\n");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	CHECK(csvin_ncols(c) == 4);
	CHECK_STR(csvin_colname(c, 0), "Step Id");
	CHECK_STR(csvin_colname(c, 3), "Core");
	CHECK(csvin_col(c, "Step Id") == 0);
	CHECK(csvin_col(c, "Core") == 3);
	CHECK(csvin_col(c, "Start Time") == -1);
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_line(c) == 2);
	CHECK(csvin_nfields(c) == 4);
	CHECK_STR(csvin_field(c, 0, &len), "50");
	CHECK_STR(csvin_field(c, 1, &len), "1736408883704643.212");
	CHECK(len == 20);
	CHECK(csvin_absent(c, 2));
	CHECK(csvin_absent(c, 3));
	CHECK(!csvin_absent(c, 0));
	CHECK(csvin_absent(c, 7));
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_line(c) == 3);
	CHECK_STR(csvin_field(c, 1, NULL), "1.5");
	CHECK_STR(csvin_field(c, 3, NULL), "AI_CORE");
	CHECK(csvin_next(c) == 0);
	CHECK(csvin_next(c) == 0);
	close_text(c);
}

/*
 * Quoted fields keep commas, doubled quotes, newlines and a trailing TAB;
 * rows after a multi-line field and after blank lines get their real
 * starting line; a last row without a newline is delivered.
 */
static void
test_quoted_lines(void)
{
	struct csvin *c;
	size_t len;

	OPEN("a,b\n"
	    "1,\"x,\"\"y\"\"\nz\"\n"
	    "\n"
	    "   \t\n"
	    "2,\"\"\"32,3,224,224\"\"\"\n"
	    "\"multi\n\nline\",\"1.5\t\"\n"
	    "3,q");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_line(c) == 2);
	CHECK_STR(csvin_field(c, 1, &len), "x,\"y\"\nz");
	CHECK(len == 7);
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_line(c) == 6);
	CHECK_STR(csvin_field(c, 1, NULL), "\"32,3,224,224\"");
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_line(c) == 7);
	CHECK_STR(csvin_field(c, 0, NULL), "multi\n\nline");
	CHECK_STR(csvin_field(c, 1, NULL), "1.5\t");
	/* A last row with no line end is where the file was cut. */
	capture_begin();
	CHECK(csvin_next(c) == -1);
	CHECK_STR(capture_end(), diag_for(10, 0, "truncated file: it ends "
	    "inside this row (no line end after it); the row is not read"));
	close_text(c);
}

/* Rows with fewer or more fields than the header are returned as is. */
static void
test_ragged(void)
{
	struct csvin *c;

	OPEN("a,b,c\n1,2\n1,2,3,4\n,,\n");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_nfields(c) == 2);
	CHECK_STR(csvin_field(c, 2, NULL), "");
	CHECK_STR(csvin_field(c, -1, NULL), "");
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_nfields(c) == 4);
	CHECK_STR(csvin_field(c, 3, NULL), "4");
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_nfields(c) == 3);
	CHECK(csvin_absent(c, 1));
	CHECK(csvin_line(c) == 4);
	CHECK(csvin_next(c) == 0);
	close_text(c);
}

/* An unterminated quote at the end is an error on the row's line. */
static void
test_unterminated(void)
{
	struct csvin *c;
	const char *msg;
	int r, r2;

	OPEN("a,b\n1,2\n3,\"open\nmore\n");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_line(c) == 2);
	capture_begin();
	r = csvin_next(c);
	r2 = csvin_next(c);
	msg = capture_end();
	CHECK(r == -1 && r2 == -1);
	CHECK_STR(msg,
	    diag_for(3, 0, "unterminated quoted field at end of file"));
	close_text(c);
}

/* Strict quoting: a stray quote is reported with its line and column. */
static void
test_bad_quote(void)
{
	struct csvin *c;
	const char *msg;
	int r;

	OPEN("a,b\r\n1,2\r\n3,x\"y\r\n4,5\r\n");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	CHECK(csvin_next(c) == 1);
	capture_begin();
	r = csvin_next(c);
	msg = capture_end();
	CHECK(r == -1);
	CHECK_STR(msg,
	    diag_for(3, 4, "quote inside an unquoted field"));
	close_text(c);

	OPEN("a,b\n\"x\"y,2\n");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	capture_begin();
	r = csvin_next(c);
	msg = capture_end();
	CHECK(r == -1);
	CHECK_STR(msg,
	    diag_for(2, 4, "text after a closing quote"));
	close_text(c);
}

/* A field over the cap (here 100 bytes) is an error, not a big alloc. */
static void
test_field_cap(void)
{
	char text[4096];
	struct csvin *c;
	const char *msg;
	int r;
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "a,b\n1,%0*d\n2,\"",
	    100, 7);
	memset(text + n, 'x', 101);
	n += 101;
	memcpy(text + n, "\"\n", 2);
	c = csvin_open(open_text(text, n + 2), path, 100);
	CHECK(c != NULL);
	CHECK(csvin_next(c) == 1);
	CHECK(csvin_field(c, 1, &n) != NULL && n == 100);
	capture_begin();
	r = csvin_next(c);
	msg = capture_end();
	CHECK(r == -1);
	CHECK_STR(msg,
	    diag_for(3, 0, "field larger than 100 bytes"));
	close_text(c);
}

/*
 * A row of 70000 empty fields passes the row cap, which is 1 MiB for a
 * small field cap (each field counts 17 bytes).
 */
static void
test_row_cap(void)
{
	static char text[80000];
	struct csvin *c;
	const char *msg;
	int r;
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "a\nb\n");
	memset(text + n, ',', 70000);
	n += 70000;
	text[n++] = '\n';
	c = csvin_open(open_text(text, n), path, 100);
	CHECK(c != NULL);
	CHECK(csvin_next(c) == 1);
	CHECK_STR(csvin_field(c, 0, NULL), "b");
	capture_begin();
	r = csvin_next(c);
	msg = capture_end();
	CHECK(r == -1);
	CHECK_STR(msg,
	    diag_for(3, 0, "row larger than 1048576 bytes"));
	close_text(c);
}

/* No header: an empty file, or one of blank lines only. */
static void
test_no_header(void)
{
	struct csvin *c;
	const char *msg;

	OPEN("");
	capture_begin();
	c = csvin_open(cur_in, path, 0);
	msg = capture_end();
	CHECK(c == NULL);
	CHECK_STR(msg, diag_for(0, 0, "no header row"));
	close_text(NULL);

	OPEN("\r\n  \n\n");
	capture_begin();
	c = csvin_open(cur_in, path, 0);
	msg = capture_end();
	CHECK(c == NULL);
	CHECK_STR(msg, diag_for(0, 0, "no header row"));
	close_text(NULL);
}

/*
 * A header alone gives no rows; without its newline, the file was cut
 * inside it: no table at all.
 */
static void
test_header_only(void)
{
	struct csvin *c;
	const char *msg;

	OPEN("x,y\n");
	c = csvin_open(cur_in, path, 0);
	CHECK(c != NULL);
	CHECK(csvin_ncols(c) == 2);
	CHECK(csvin_nfields(c) == 0);
	CHECK(csvin_next(c) == 0);
	close_text(c);

	OPEN("x,y,z");
	capture_begin();
	c = csvin_open(cur_in, path, 0);
	msg = capture_end();
	CHECK(c == NULL);
	CHECK_STR(msg, diag_for(1, 0, "truncated file: it ends inside the "
	    "header row (no line end after it)"));
	close_text(NULL);
}

/*
 * Many rows across the 64 KiB read blocks, every seventh with a quoted
 * field spanning two lines: fields and starting lines stay right.
 */
static void
test_blocks(void)
{
	char *text, want[64];
	size_t n = 0, cap = 4 << 20;
	unsigned long line = 2;
	struct csvin *c;
	int i;

	text = malloc(cap);
	CHECK(text != NULL);
	n += (size_t)snprintf(text + n, cap - n, "id,val\r\n");
	for (i = 0; i < 40000; i++)
		n += (size_t)snprintf(text + n, cap - n, i % 7 ?
		    "%d,v%d\t\r\n" : "%d,\"v%d\r\nw\"\r\n", i, i);
	c = csvin_open(open_text(text, n), path, 0);
	CHECK(c != NULL);
	for (i = 0; i < 40000; i++) {
		CHECK(csvin_next(c) == 1);
		CHECK(csvin_line(c) == line);
		snprintf(want, sizeof(want), "%d", i);
		CHECK_STR(csvin_field(c, 0, NULL), want);
		snprintf(want, sizeof(want), i % 7 ? "v%d" : "v%d\r\nw", i);
		CHECK_STR(csvin_field(c, 1, NULL), want);
		line += i % 7 ? 1 : 2;
	}
	CHECK(csvin_next(c) == 0);
	close_text(c);
	free(text);
}

/*
 * csvin cuts most lines itself and leaves the rest to libcsv: on random
 * documents of the pieces that tell the two apart (quotes, escaped
 * quotes, blanks around fields, CR, CRLF, fields over lines), every
 * document libcsv accepts must give libcsv's rows, field for field.
 */
struct ref_rows {
	char		 text[8192];	/* fields, each NUL-ended, rows by \n */
	size_t		 len;
};

static void
ref_field(void *s, size_t len, void *data)
{
	struct ref_rows *r = data;

	CHECK(r->len + len + 2 < sizeof(r->text));
	memcpy(r->text + r->len, s, len);
	r->len += len;
	r->text[r->len++] = '\0';
}

static void
ref_row(int term, void *data)
{
	struct ref_rows *r = data;

	(void)term;
	CHECK(r->len + 1 < sizeof(r->text));
	r->text[r->len++] = '\n';
}

static void
test_fast_vs_libcsv(void)
{
	static const char *piece[] = {
		"abc", " abc ", "\t1.5\t", "", "\"q,\"\"x\"\"\"", "\"\"",
		" \"sp\" ", "\"end\"x", "\"multi\nline\"", "a b", "\"\"\"3,2\"\"\"",
		"x\r", "\"cr\rin\"", "N/A"
	};
	static const char *eol[] = { "\n", "\r\n", "\n\n", "\r" };
	unsigned seed = 12345;
	char doc[2048];
	int n, tested = 0;

	for (n = 0; n < 4000; n++) {
		struct ref_rows want, got;
		struct csv_parser p;
		struct csvin *c;
		size_t len = 0, i, k, f, nrows;
		int r;

		len = (size_t)snprintf(doc, sizeof(doc), "h1,h2,h3\n");
		nrows = 1 + (seed = seed * 1103515245 + 12345) % 4;
		for (i = 0; i < nrows; i++) {
			k = 1 + (seed = seed * 1103515245 + 12345) % 4;
			for (f = 0; f < k; f++) {
				const char *pc;

				seed = seed * 1103515245 + 12345;
				pc = piece[(seed >> 8) % (sizeof(piece) /
				    sizeof(piece[0]))];
				len += (size_t)snprintf(doc + len,
				    sizeof(doc) - len, "%s%s", f ? "," : "", pc);
			}
			len += (size_t)snprintf(doc + len, sizeof(doc) - len,
			    "%s", eol[(seed >> 20) % 4]);
		}
		/* libcsv on the whole document: the rows to expect. */
		memset(&want, 0, sizeof(want));
		CHECK(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI |
		    CSV_APPEND_NULL) == 0);
		if (csv_parse(&p, doc, len, ref_field, ref_row, &want) != len ||
		    csv_fini(&p, ref_field, ref_row, &want) != 0) {
			csv_free(&p);
			continue;
		}
		csv_free(&p);
		/* csvin: the header, then every row. */
		memset(&got, 0, sizeof(got));
		open_text(doc, len);
		c = csvin_open(cur_in, path, 0);
		CHECK(c != NULL);
		for (i = 0; i < csvin_ncols(c); i++)
			ref_field((void *)(uintptr_t)csvin_colname(c, i),
			    strlen(csvin_colname(c, i)), &got);
		ref_row('\n', &got);
		while ((r = csvin_next(c)) == 1) {
			for (i = 0; i < csvin_nfields(c); i++) {
				const char *fv = csvin_field(c, (int)i, &k);

				ref_field((void *)(uintptr_t)fv, k, &got);
			}
			ref_row('\n', &got);
		}
		CHECK(r == 0);
		close_text(c);
		if (got.len != want.len || memcmp(got.text, want.text,
		    got.len) != 0) {
			fprintf(stderr, "document %d differs: %.*s\n", n,
			    (int)len, doc);
			CHECK(0);
		}
		tested++;
	}
	CHECK(tested > 500);
	printf("%d random documents as libcsv reads them\n", tested);
}

int
main(void)
{
	diag_setprogname("test-csvin");
	test_fast_vs_libcsv();
	test_bom_crlf_tab();
	test_quoted_lines();
	test_ragged();
	test_unterminated();
	test_bad_quote();
	test_field_cap();
	test_row_cap();
	test_no_header();
	test_header_only();
	test_blocks();
	CHECK_DONE();
}
