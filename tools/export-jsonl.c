/*
 * prof-export -f jsonl: one JSON object per record (JSON Lines), keys in
 * the stream's column order, absent fields left out.  Ids and names are
 * strings whatever their text (export_coltype()): a flow id past 2^64
 * or a group hash past 2^53 would lose digits as a JSON number in every
 * reader that parses numbers as doubles.  Other fields that are numbers
 * are written as numbers, digit for digit.  The preamble has no place in
 * a JSON Lines file; the SQLite export keeps it.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "export.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

static void
put_record(const struct tsvr *in, const int *coltype, size_t ncols)
{
	const char *f;
	size_t i, n;

	putchar('{');
	for (i = 0; i < ncols; i++) {
		f = tsvr_field(in, i, &n);
		if (n == 0)
			continue;
		if (i > 0)
			putchar(',');
		put_json_str(stdout, tsvr_colname(in, i));
		putchar(':');
		/* A field may hold a NUL only as the end of its text. */
		if (coltype[i] != EX_TEXT && export_valtype(f, n) != EX_TEXT)
			fwrite(f, 1, n, stdout);
		else
			put_json_str(stdout, f);
	}
	fputs("}\n", stdout);
}

int
export_jsonl(const char *path)
{
	struct tsvr *in;
	int *coltype, r;
	size_t i, ncols;

	if ((in = tsvr_open(path)) == NULL)
		return EXIT_BAD;
	ncols = tsvr_ncols(in);
	coltype = xcalloc(ncols, sizeof(*coltype));
	for (i = 0; i < ncols; i++)
		coltype[i] = export_coltype(tsvr_colname(in, i));
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	while (tsvr_next(in) == 1)
		if (export_check(in) == 0)
			put_record(in, coltype, ncols);
	if (render_bad_utf8 > 0)
		diag_warn("%s: %zu ill-formed UTF-8 sequence%s replaced with "
		    "U+FFFD (prof-tsv is UTF-8)", diag_path(path),
		    render_bad_utf8, render_bad_utf8 == 1 ? "" : "s");
	r = tsvr_failed(in) ? EXIT_BAD : EXIT_OK;
	tsvr_close(in);
	free(coltype);
	return r;
}
