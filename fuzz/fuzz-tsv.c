/*
 * libFuzzer harness for the prof-tsv reader, libcommon/tsvr.c and
 * tsvr-field.c: preamble, header, field counts, escapes, the times.  Every
 * field of every record is read in full, raw and decoded, from the last
 * one down (the reader finds a field when it is asked for, from the
 * field before or from its masks), then all at once; the times and the
 * order are checked as the stages check them.  (The stage loop over it
 * is fuzz-stage.c.)
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
	const size_t *lens;
	char *const *all;
	size_t i, len;
	int64_t ts, dur;
	int stream;

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
	/* the contract's checks where the header has the fixed columns */
	for (i = 0; i < TSV_NFIXED && i < tsvr_ncols(r) &&
	    strcmp(tsvr_colname(r, i), tsv_fixed_cols[i]) == 0; i++)
		;
	stream = i == TSV_NFIXED;
	while ((stream ? tsvr_record(r, &ts, &dur) : tsvr_next(r)) == 1) {
		for (i = tsvr_ncols(r); i-- > 0;) {
			f = tsvr_text(r, i, &len);
			fuzz_touch(f, len);
			f = tsvr_field(r, i, &len);
			fuzz_touch(f, len + 1);
			f = tsvr_rawfield(r, i, &len);
			fuzz_touch(f, len);
		}
		all = tsvr_fields(r, &lens);
		for (i = 0; i < tsvr_ncols(r); i++)
			fuzz_touch(all[i], lens[i] + 1);
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
