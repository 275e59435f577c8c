/*
 * Unit test of the stage loop: pass-through with an added column, a
 * record opened before its end is known, a kept record filled in later,
 * and the output order that the queue must keep; then the ways a record
 * is filled in (columns out of order, set twice, set empty) and put (in
 * order, out of order, at once).
 */
#include <config.h>

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "stage.h"

/* The columns of fill_and_put(). */
struct xy_cols {
	int	x, y;
};

static const struct stage_column xy_columns[] = {
	STAGE_COLUMN(struct xy_cols, x, "x", STAGE_ADD),
	STAGE_COLUMN(struct xy_cols, y, "y", STAGE_ADD),
};

/* The columns of main(): one the input has, one added, one absent. */
struct main_cols {
	int	step, note, missing, step2;
};

static const struct stage_column main_columns[] = {
	STAGE_COLUMN(struct main_cols, step, "step", STAGE_READ | STAGE_ADD),
	STAGE_COLUMN(struct main_cols, note, "note", STAGE_ADD),
	STAGE_COLUMN(struct main_cols, missing, "missing", STAGE_READ),
	STAGE_COLUMN(struct main_cols, step2, "step", STAGE_READ),
};

static struct xy_cols xy;

static const char input[] =
    "#prof-tsv 1\n"
    "#origin_ns 1000\n"
    "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tstep\n"
    "metric\t\t\t0\t\tfree_ns\t1\n"
    "kernel\t10\t5\t0\t1\ta\\tb\t\n"
    "host\t12\t1\t0\t7\th\t\n"
    "kernel\t20\t5\t0\t1\tc\t\n"
    "host\t30\t1\t0\t7\tlast\t\n";

static const char want[] =
    "#prof-tsv 1\n"
    "#origin_ns 1000\n"
    "#stage test-stage " PACKAGE_VERSION " x\\ty\n"
    "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tstep\tnote\n"
    "metric\t\t\t0\t\tfree_ns\t1\t\n"
    "kernel\t10\t5\t0\t1\ta\\tb\t9\tk\n"
    "span\t10\t15\t0\t\tspan\t\t2 kernels\n"
    "host\t12\t1\t0\t7\th\t\tseen 2\n"
    "kernel\t20\t5\t0\t1\tc\t9\tk\n"
    "host\t30\t1\t0\t7\tlast\t\tseen 0\n";

static const char input2[] =
    "#prof-tsv 1\n"
    "kind\tts_ns\tdur_ns\tdev\ttrack\tname\n"
    "kernel\t010\t5\t0\t1\ta\n"
    "kernel\t20\t5\t0\t1\tb\n"
    "host\t30\t1\t0\t7\tc\\\\d\n"
    "host\t50\t1\t0\t7\te\n"
    "kernel\t60\t5\t0\t1\tf\n";

/*
 * The new record at 10 has its ts_ns written anew, not as read ("010");
 * the one kept at 20 was put out of order and sorts before the one
 * opened after it; the escaped name of the one kept at 30 is escaped
 * again, and the name set empty before keeping the one at 50 is empty.
 */
static const char want2[] =
    "#prof-tsv 1\n"
    "#stage test-stage " PACKAGE_VERSION "\n"
    "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tx\ty\n"
    "kernel\t010\t5\t0\t1\ta\t\t\n"
    "seg\t10\t7\t\t\tn2\t\tY1\n"
    "kernel\t20\t5\t0\t\tb\tkx\t\n"
    "seg\t20\t\t\t\t\t\t-42\n"
    "host\t30\t1\t0\t7\tc\\\\d\t\tt\\tab\n"
    "host\t50\t1\t0\t7\t\t\t\n"
    "kernel\t60\t5\t0\t1\tf\t\t\n";

static char *
slurp(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	CHECK(fp != NULL);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* Run FN as a stage on TEXT with added columns ADD; its output. */
static char *
run_stage(const char *text, int argc,
    char **argv, void (*fn)(struct stage *))
{
	char in[] = "/tmp/test-stage-in.XXXXXX";
	char out[] = "/tmp/test-stage-out.XXXXXX";
	int fd, saved;
	struct stage *st;
	char *got;

	CHECK((fd = mkstemp(in)) >= 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK((fd = mkstemp(out)) >= 0);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	st = stage_open(in, argc, argv, xy_columns,
	    sizeof(xy_columns) / sizeof(xy_columns[0]), &xy);
	fn(st);
	stage_close(st);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	got = slurp(out);
	unlink(in);
	unlink(out);
	return got;
}

static void
fill_and_put(struct stage *st)
{
	int x = xy.x, y = xy.y;
	struct srec *a = NULL, *b = NULL, *k = NULL, *h, *e;
	size_t len;

	while (stage_next(st)) {
		int64_t ts = stage_ts(st);

		if (ts == 10) {
			a = stage_new(st, "seg", ts);
			srec_set_str(a, y, "Y1");
			srec_set_str(a, COL_NAME, "n1");
			srec_set_i64(a, COL_DUR, 7);
			srec_set_str(a, COL_NAME, "n2");
			srec_set(a, x, "", 0);
			CHECK_STR(srec_get(a, COL_NAME, NULL), "n2");
			stage_pass(st);
		} else if (ts == 20) {
			b = stage_new(st, "seg", ts);
			srec_set_i64(b, y, -42);
			stage_set_str(st, x, "kx");
			k = stage_keep(st);
			srec_set(k, COL_TRACK, "", 0);
			CHECK_STR(srec_get(k, COL_NAME, NULL), "b");
			CHECK_STR(srec_get(k, x, NULL), "kx");
		} else if (ts == 30) {
			h = stage_keep(st);
			srec_set_str(h, y, "t\tab");
			CHECK_STR(srec_get(h, COL_NAME, NULL), "c\\d");
			stage_put(st, b);	/* waits, in order */
			stage_put(st, k);	/* waits, before b */
			stage_put(st, h);	/* waits, in order */
			stage_put(st, a);	/* the oldest: out with all */
		} else if (ts == 50) {
			stage_set(st, COL_NAME, "", 0);
			e = stage_keep(st);
			CHECK(srec_get(e, COL_NAME, &len)[0] == '\0' &&
			    len == 0);
			stage_put(st, e);
		} else
			stage_pass(st);
	}
}

int
main(void)
{
	char in[] = "/tmp/test-stage-in.XXXXXX", out[] = "/tmp/test-stage-out.XXXXXX";
	char *argv[] = { "tests/test-stage", "x\ty", NULL };
	struct stage *st;
	struct srec *span = NULL, *host = NULL;
	struct main_cols c;
	int fd, saved, kernels = 0, note, stepc;

	diag_setprogname("test-stage");
	CHECK((fd = mkstemp(in)) >= 0);
	CHECK(write(fd, input, sizeof(input) - 1) == sizeof(input) - 1);
	close(fd);
	CHECK((fd = mkstemp(out)) >= 0);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);

	st = stage_open(in, 2, argv, main_columns,
	    sizeof(main_columns) / sizeof(main_columns[0]), &c);
	note = c.note;
	stepc = c.step;
	CHECK(stepc == 6 && note == 7 && stage_ncols(st) == 8);
	CHECK(c.missing == -1 && c.step2 == 6);
	CHECK(strcmp(stage_meta(st, "origin_ns"), "1000") == 0);
	while (stage_next(st)) {
		if (stage_is(st, "kernel")) {
			if (span == NULL)
				span = stage_new(st, "span", stage_ts(st));
			kernels++;
			stage_set_str(st, stepc, "9");	/* override */
			stage_set_str(st, note, "k");
			stage_pass(st);
		} else if (stage_is(st, "host") && host == NULL) {
			/* Kept, and told later how many kernels came. */
			host = stage_keep(st);
		} else if (stage_is(st, "host")) {
			char buf[16];

			snprintf(buf, sizeof(buf), "seen %d", kernels);
			srec_set_str(host, note, buf);
			stage_put(st, host);
			srec_set_i64(span, COL_DUR, 15);
			srec_set_str(span, COL_NAME, "span");
			srec_set_str(span, COL_DEV, "0");
			srec_set_str(span, note, "2 kernels");
			stage_put(st, span);
			stage_set_str(st, note, "seen 0");
			stage_pass(st);
		} else
			stage_pass(st);
	}
	CHECK(stage_end_ts(st) == 31);
	stage_close(st);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	CHECK_STR(slurp(out), want);
	unlink(in);
	unlink(out);
	{
		char *argv2[] = { "tests/test-stage", NULL };

		CHECK_STR(run_stage(input2, 1, argv2,
		    fill_and_put), want2);
	}
	CHECK_DONE();
}
