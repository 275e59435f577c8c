/*
 * libFuzzer harness for the CSV front end: libcommon/csvin.c over
 * input.c, then prof-ingest's kernel_details.csv and op_summary.csv
 * reader (tools/ingest-ascend.c) on the same bytes, strictly and with
 * --lenient, and its step_trace_time.csv reader.  Every field of every
 * row is read in full.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csvin.h"
#include "fuzz.h"
#include "ingest.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
raw_csv(const char *path)
{
	struct input *in;
	struct csvin *c;
	const char *name, *f;
	size_t i, n, len;

	if ((in = input_open(path)) == NULL)
		return;
	while (input_next(in, &name) == 1) {
		/* A small field cap, so the "too large" path is reached. */
		if ((c = csvin_open(in, input_where(in), 4096)) == NULL)
			continue;
		for (i = 0; i < csvin_ncols(c); i++) {
			f = csvin_colname(c, i);
			fuzz_touch(f, strlen(f) + 1);
		}
		(void)csvin_col(c, "Start Time(us)");
		while (csvin_next(c) == 1) {
			n = csvin_nfields(c);
			/* One past the row's end reads as "". */
			for (i = 0; i <= n; i++) {
				f = csvin_field(c, (int)i, &len);
				fuzz_touch(f, len + 1);
				(void)csvin_absent(c, (int)i);
			}
			(void)csvin_line(c);
		}
		csvin_close(c);
	}
	input_close(in);
}

/* Read PATH as the format table's row FMT says (its reader). */
static void
ingest(const char *path, const char *fmt, int lenient)
{
	struct ingest_ctx ctx;
	struct input *in;
	const char *name;

	memset(&ctx, 0, sizeof(ctx));
	ctx.rank = -1;
	ctx.run = ".";
	if ((ctx.fmt = ingest_format_named(fmt)) == NULL ||
	    ctx.fmt->read == NULL)
		abort();
	ingest_lenient = lenient;
	if ((in = input_open(path)) == NULL)
		return;
	while (input_next(in, &name) == 1)
		(void)ctx.fmt->read(in, input_where(in), &ctx);
	input_close(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;

	fuzz_quiet();
	path = fuzz_file(data, size);
	raw_csv(path);
	ingest(path, "kernel_details", 0);
	ingest(path, "kernel_details", 1);
	ingest(path, "op_summary", 1);
	ingest(path, "step_trace_time", 0);
	ingest(path, "cluster_step_trace_time", 0);
	ingest(path, "instr_exe", 1);
	return 0;
}
