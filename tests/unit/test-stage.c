/*
 * Unit test of the stage loop: pass-through with an added column, a
 * record opened before its end is known, a kept record filled in later,
 * and the output order that the queue must keep.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "stage.h"

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

int
main(void)
{
	char in[] = "/tmp/test-stage-in.XXXXXX", out[] = "/tmp/test-stage-out.XXXXXX";
	const char *add[] = { "step", "note" };
	char *argv[] = { "tests/test-stage", "x\ty", NULL };
	struct stage *st;
	struct srec *span = NULL, *host = NULL;
	int fd, saved, kernels = 0, note, stepc;

	diag_setprogname("test-stage");
	CHECK((fd = mkstemp(in)) >= 0);
	CHECK(write(fd, input, sizeof(input) - 1) == sizeof(input) - 1);
	close(fd);
	CHECK((fd = mkstemp(out)) >= 0);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);

	st = stage_open(in, 2, argv, add, 2);
	note = stage_col(st, "note");
	stepc = stage_col(st, "step");
	CHECK(stepc == 6 && note == 7 && stage_ncols(st) == 8);
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
	CHECK_DONE();
}
