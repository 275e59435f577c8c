/*
 * CSV front end over libcsv for profiler tables: strips a UTF-8 BOM,
 * accepts LF and CRLF, trims the TAB torch_npu writes after time values,
 * keeps quoted fields with commas, quotes and newlines intact, and reports
 * the physical line where each row starts.  The first row is the header;
 * columns are found by name.
 */
#ifndef PROF_CSVIN_H
#define PROF_CSVIN_H

#include <stddef.h>
#include <stdint.h>
#include "input.h"

struct csvin;

/*
 * Read the current member of IN as CSV; WHERE names it in diagnostics.
 * Reads the header row at once; returns NULL after a diagnostic if there
 * is none or it is malformed.  MAXFIELD caps one field's size in bytes
 * (0: 16 MiB).
 */
struct csvin	*csvin_open(struct input *, const char *, size_t);
/*
 * Read bytes FROM to TO of the file open at FD (the part of a table
 * after some row's end) with the header of HEAD, already read, for a
 * second thread that reads part of a large table.  Its lines are
 * counted from 1 at FROM, so its diagnostics are to be said by a
 * reader of the whole file; FD stays open.
 */
struct csvin	*csvin_open_part(int, uint64_t, uint64_t,
		    const struct csvin *);
/*
 * The offset in the file (in the member) of the current row's first
 * byte, or UINT64_MAX where it is not known (a row that libcsv began
 * inside a physical line read in two blocks).
 */
uint64_t	 csvin_row_offset(const struct csvin *);
/* Number of header columns, and the name of column I. */
size_t		 csvin_ncols(const struct csvin *);
const char	*csvin_colname(const struct csvin *, size_t);
/* Index of the header column named NAME (exact match), or -1. */
int		 csvin_col(const struct csvin *, const char *);
/* Index of a later column with the same name as column I, or -1. */
int		 csvin_col_dup(const struct csvin *, int);
/*
 * Read the next data row: 1 with a row, 0 at the end, -1 after
 * "prog: WHERE:LINE: msg" (bad quoting, field too large, read error).
 * A row with a field count different from the header's is returned; the
 * caller decides (see csvin_nfields).  Blank lines are skipped.
 */
int		 csvin_next(struct csvin *);
size_t		 csvin_nfields(const struct csvin *);
/*
 * Field I of the current row, NUL-terminated, with its length in *LEN
 * (LEN may be NULL).  A column beyond the row's end reads as "".
 * Surrounding blanks of unquoted fields are already trimmed.
 */
const char	*csvin_field(const struct csvin *, int, size_t *);
/* Whether field I is empty or a profiler's "N/A" / "NA" placeholder. */
int		 csvin_absent(const struct csvin *, int);
/* Physical line (from 1) where the current row starts. */
unsigned long	 csvin_line(const struct csvin *);
void		 csvin_close(struct csvin *);

#endif
