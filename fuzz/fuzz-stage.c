/*
 * libFuzzer harness for the stage loop, libcommon/stage.c over tsvr.c:
 * the order check, ts_ns/dur_ns parsing and overflow checks, and the
 * output queue that orders kept and new records.  A toy stage keeps
 * every record whose name starts with 'k' until the next record, and
 * opens a derived record at every third record's start, as prof-steps
 * and prof-bubbles do.  Bad input is a fatal error that calls exit();
 * track.h turns that into a return here, and frees what the stage held.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "stage.h"
#include "track.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const add[] = { "fuzz_tag", "name" };

static void
run_stage(void *arg)
{
	const char *path = arg;
	static char *argv[] = { "prof-fuzz", "-x", NULL };
	struct stage *st;
	struct srec *held = NULL, *made;
	const char *name;
	size_t len;
	unsigned long n = 0;
	int col = -1, absent;

	st = stage_open(path, 2, argv, add, 2);
	col = stage_col(st, "fuzz_tag");
	while (stage_next(st)) {
		(void)stage_dur(st);
		(void)stage_end_ts(st);
		if (stage_col(st, "dev") >= 0)
			(void)stage_i64(st, stage_col(st, "dev"), &absent);
		name = stage_get(st, COL_NAME, &len);
		fuzz_touch(name, len + 1);
		if (n++ % 3 == 0 && stage_ts(st) != STAGE_NO_TS) {
			made = stage_new(st, "fuzz", stage_ts(st));
			srec_set_str(made, col, "made");
			srec_set_i64(made, COL_DUR, 0);
			fuzz_touch(srec_get(made, col, &len), len + 1);
			stage_put(st, made);
		}
		if (held != NULL) {
			stage_put(st, held);
			held = NULL;
		}
		stage_set_str(st, col, stage_is(st, "kernel") ? "k" : "");
		if (len > 0 && name[0] == 'k')
			held = stage_keep(st);
		else
			stage_pass(st);
	}
	if (held != NULL)
		stage_put(st, held);
	stage_close(st);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;

	fuzz_quiet();
	path = fuzz_file(data, size);
	(void)track_run(run_stage, (void *)path);
	track_release();
	return 0;
}
