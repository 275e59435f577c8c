/*
 * libFuzzer harness for the prof-tsv reader, libcommon/tsvr.c: preamble,
 * header, field counts, escapes.  Every field of every record is read in
 * full, raw and decoded.  (The stage loop over it is fuzz-stage.c.)
 * Some bad input ends the reader with exit(): see track.h.
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "track.h"
#include "tsv.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
read_all(void *arg)
{
	struct tsvr *r;
	const char *f;
	size_t i, len;

	if ((r = tsvr_open(arg)) == NULL)
		return;
	for (i = 0; i < tsvr_npreamble(r); i++) {
		f = tsvr_preamble(r, i);
		fuzz_touch(f, strlen(f) + 1);
	}
	(void)tsvr_meta(r, "source");
	for (i = 0; i < tsvr_ncols(r); i++) {
		f = tsvr_colname(r, i);
		fuzz_touch(f, strlen(f) + 1);
	}
	(void)tsvr_col(r, "ts_ns");
	while (tsvr_next(r) == 1) {
		for (i = 0; i < tsvr_ncols(r); i++) {
			f = tsvr_field(r, i, &len);
			fuzz_touch(f, len + 1);
			f = tsvr_rawfield(r, i, &len);
			fuzz_touch(f, len);
		}
		f = tsvr_line(r, &len);
		fuzz_touch(f, len);
		(void)tsvr_lineno(r);
	}
	(void)tsvr_path(r);
	tsvr_close(r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet();
	(void)track_run(read_all, (void *)fuzz_file(data, size));
	track_release();
	return 0;
}
