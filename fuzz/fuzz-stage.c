/*
 * libFuzzer harness for the stage loop, libcommon/stage.c over tsvr.c:
 * the order check, ts_ns/dur_ns parsing and overflow checks, and the
 * output queue that orders kept and new records.  A toy stage keeps
 * every record whose name starts with 'k' until the next record, and
 * opens a derived record at every third record's start, as prof-steps
 * and prof-bubbles do.  Bad input is a fatal error that calls exit();
 * track.h turns that into a return here, and frees what the stage held.
 *
 * For the integers at the ends of the format (issue 14): the durations
 * read go through the 128-bit order statistics and ratios of num.c,
 * whose results are checked against their bounds; a name starting with
 * 'e' makes a stage_error(); every name is repaired by utf8_sanitize(),
 * whose output must be well-formed.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "num.h"
#include "stage.h"
#include "track.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* An added column, one the input has already, and a read one. */
struct fuzz_cols {
	int	tag, name, dev;
};

static const struct stage_column columns[] = {
	STAGE_COLUMN(struct fuzz_cols, tag, "fuzz_tag", STAGE_ADD),
	STAGE_COLUMN(struct fuzz_cols, name, "name", STAGE_ADD),
	STAGE_COLUMN(struct fuzz_cols, dev, "dev", STAGE_READ),
};

#define NDUR	64

/* Order statistics of the durations read: within their range, exact. */
static void
check_stats(int64_t *v, size_t n)
{
	char buf[NUM_BUFSIZE];
	__int128 w, sum = 0;
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		sum += v[i];
	num_sort(v, n);
	num_percentile(v, n, 95, &w);
	if (w < (__int128)v[0] * 100 || w > (__int128)v[n - 1] * 100)
		abort();
	num_ratio_i128(buf, w, 100, 6);
	num_median128(v, n, &w);
	if (w < (__int128)v[0] * 2 || w > (__int128)v[n - 1] * 2)
		abort();
	num_ratio_i128(buf, sum, (__int128)n, 6);
	fuzz_touch(buf, strlen(buf) + 1);
}

/* NAME (LEN bytes) repaired must be well-formed UTF-8. */
static void
check_utf8(const char *name, size_t len)
{
	char *out = malloc(3 * len + 1);
	size_t n, bad = 0;

	n = utf8_sanitize(name, len, out, &bad);
	if (!utf8_valid(out, n) || (bad == 0 && (n != len ||
	    memcmp(out, name, len) != 0)) || (bad == 0) != utf8_valid(name, len))
		abort();
	free(out);
}

static void
run_stage(void *arg)
{
	const char *path = arg;
	static char *argv[] = { "prof-fuzz", "-x", NULL };
	struct fuzz_cols c;
	struct stage *st;
	struct srec *held = NULL, *made;
	const char *name;
	size_t len;
	unsigned long n = 0;
	int col = -1, absent;
	int64_t durs[NDUR];
	size_t ndur = 0;

	st = stage_open(path, 2, argv, columns,
	    sizeof(columns) / sizeof(columns[0]), &c);
	col = c.tag;
	while (stage_next(st)) {
		(void)stage_dur(st);
		(void)stage_end_ts(st);
		if (c.dev >= 0)
			(void)stage_i64(st, c.dev, &absent);
		name = stage_get(st, COL_NAME, &len);
		fuzz_touch(name, len + 1);
		check_utf8(name, len);
		if (stage_dur(st) >= 0 && ndur < NDUR)
			durs[ndur++] = stage_dur(st);
		if (len > 0 && name[0] == 'e')
			stage_error(st, "fuzz: '%.*s'", (int)len, name);
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
	check_stats(durs, ndur);
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
