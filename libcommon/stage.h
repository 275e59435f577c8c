/*
 * The loop every annotating stage shares (see prof-tsv(5), "Stages").
 *
 * A stage reads one prof-tsv stream, copies its preamble with its own
 * "#stage" line added, and writes the input columns followed by the
 * columns it adds.  It checks that records arrive in order (timeless
 * ones first, then ts_ns ascending) and stops with "FILE:LINE: records
 * out of order" otherwise.
 *
 * Output stays in ts_ns order even though a stage often learns a
 * derived record only after reading past its start (a busy segment ends,
 * a step window closes).  Such a record is opened with stage_new() at its
 * start time, as soon as the start is known; from then on every record
 * that would sort after it waits in an output queue until it is put with
 * stage_put() or dropped with stage_drop().  stage_keep() does the same
 * with a copy of the current input record, so that a stage can fill in
 * columns it learns later (a bubble's host coverage).  Memory is bounded
 * by what lies between the oldest open record and the input position.
 *
 * Order among records with equal ts_ns: input records keep their order;
 * a record made by stage_new() sorts after the input records read before
 * the call, and a kept record keeps its input position.
 */
#ifndef PROF_STAGE_H
#define PROF_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tsv.h"

/* The fixed leading columns of every stream. */
enum {
	COL_KIND, COL_TS, COL_DUR, COL_DEV, COL_TRACK, COL_NAME, COL_NFIXED
};

/* ts_ns of a timeless record, which sorts before every timed one. */
#define STAGE_NO_TS	TSV_NO_TS

struct stage;
struct srec;

/*
 * The columns a stage reads and adds, declared once: one table per
 * stage, whose entries each name a column and an int member of the
 * stage's own column struct, which receives the column's output index
 * when the stage opens:
 *
 *	struct my_cols { int step, tags, core; };
 *	#define COL(m, name, f)	STAGE_COLUMN(struct my_cols, m, name, f)
 *	static const struct stage_column columns[] = {
 *		COL(step, "step", STAGE_ADD),
 *		COL(tags, "tags", STAGE_READ | STAGE_ADD),
 *		COL(core, "core", STAGE_READ),
 *	};
 *	...
 *	struct my_cols c;
 *	st = stage_open(path, argc, argv, columns,
 *	    sizeof(columns) / sizeof(columns[0]), &c);
 *
 * STAGE_ADD columns are written by the stage and appended after the
 * input's in table order; a name the input already has keeps its place,
 * so that a column such as tags is shared.  STAGE_READ columns are only
 * read: one the input lacks binds -1, which stage_get() reads as empty
 * and a stage tests for where it does without the column.  A column both
 * read and written is STAGE_READ | STAGE_ADD.  A name may appear twice,
 * binding two members to one column.
 */
#define STAGE_READ	0x1
#define STAGE_ADD	0x2

struct stage_column {
	const char	*name;
	size_t		 off;	/* offsetof() an int in the column struct */
	int		 flags;
};

/* A table entry binding member M of column struct T to column NAME. */
#define STAGE_COLUMN(T, M, NAME, FLAGS)	{ (NAME), offsetof(T, M), (FLAGS) }

/*
 * Open PATH ("-" or NULL: stdin) and write the preamble and header.
 * ARGV (ARGC entries, ARGV[0] the program) makes the "#stage" line.
 * COLS (NCOLS entries) is the stage's column table, bound into the
 * column struct at BIND, which stage_columns() gives back to whatever
 * part of the stage holds the stage: BIND must outlive it.  Exits 1
 * after a diagnostic on bad input.
 */
struct stage	*stage_open(const char *, int, char *[],
		    const struct stage_column *, size_t, void *);

/*
 * The same with the input already open: IN, from tsvr_open_stream(), or
 * read once before and rewound; the stage owns it from then on.
 */
struct stage	*stage_open_input(struct tsvr *, int, char *[],
		    const struct stage_column *, size_t, void *);

/* The column struct bound by stage_open(): cast to the stage's type. */
const void	*stage_columns(const struct stage *);

/* The output columns: how many, and the name of each. */
size_t		 stage_ncols(const struct stage *);
const char	*stage_colname(const struct stage *, size_t);
/* The input's "#KEY VALUE" preamble value, or NULL. */
const char	*stage_meta(const struct stage *, const char *);
/* Preamble line I of the input without its '#' (NULL past the last). */
const char	*stage_preamble(const struct stage *, size_t);
/*
 * The input line that shows program PROG already ran on it: its
 * "#stage PROG ..." preamble line, else the header when an input column
 * is named COL (NULL: none); 0 when neither.  A stage that would repeat
 * its own records refuses such input.
 */
unsigned long	 stage_seen(const struct stage *, const char *,
		    const char *);

/*
 * Read the next record: 1, or 0 at the end of the input.  A malformed
 * or unordered record is reported naming the file and line, and ends
 * the input there: the stage finishes its work on the records before
 * it, as at the end, and stage_close() then exits 1.
 */
int		 stage_next(struct stage *);
/*
 * Whether the input ended early at a damaged record: a remark about
 * what the input lacked would then be about the records lost.
 */
int		 stage_failed(const struct stage *);
/* Decoded field COL of the current record ("" when the column is added). */
const char	*stage_get(const struct stage *, int, size_t *);
/* Whether field COL is empty (absent). */
int		 stage_absent(const struct stage *, int);
/* Field COL as int64, 0 and *ABSENT set when empty; bad text is fatal. */
int64_t		 stage_i64(const struct stage *, int, int *);
/* ts_ns (STAGE_NO_TS when timeless) and dur_ns (-1 when absent). */
int64_t		 stage_ts(const struct stage *);
int64_t		 stage_dur(const struct stage *);
/* Whether the current record's kind is KIND. */
int		 stage_is(const struct stage *, const char *);
/* Position of the current record, for diagnostics. */
const char	*stage_path(const struct stage *);
unsigned long	 stage_lineno(const struct stage *);
/* The largest ts_ns + dur_ns read so far (STAGE_NO_TS before any). */
int64_t		 stage_end_ts(const struct stage *);

/* Set output field COL of the current record (before stage_pass). */
void		 stage_set(struct stage *, int, const char *, size_t);
void		 stage_set_str(struct stage *, int, const char *);
void		 stage_set_i64(struct stage *, int, int64_t);
/*
 * Write the current record, with what was set, in its place.  A record
 * that is neither passed nor kept is consumed: it is not written.
 */
void		 stage_pass(struct stage *);

/*
 * Take a copy of the current record, with what was set, to be written
 * later with stage_put(); records after it wait until then.
 */
struct srec	*stage_keep(struct stage *);
/*
 * Open a new record starting at TS (kind and ts_ns set, every other
 * field empty).  TS must not be earlier than a record already written:
 * open it no later than reading the first record that starts after TS.
 */
struct srec	*stage_new(struct stage *, const char *, int64_t);
/* Write R in its place and free it. */
void		 stage_put(struct stage *, struct srec *);
/* Free R without writing it. */
void		 stage_drop(struct stage *, struct srec *);

void		 srec_set(struct srec *, int, const char *, size_t);
void		 srec_set_str(struct srec *, int, const char *);
void		 srec_set_i64(struct srec *, int, int64_t);
/*
 * Set column COL to NUM / DEN with PLACES decimals, exactly
 * (num_ratio_i128()): the form of every ratio and average column.  The
 * field is left as it is when DEN is not positive.
 */
void		 stage_set_quot(struct stage *, int, __int128, __int128, int);
void		 srec_set_quot(struct srec *, int, __int128, __int128, int);
/* The same with six decimals, as ratio columns have. */
void		 stage_set_ratio(struct stage *, int, __int128, __int128);
void		 srec_set_ratio(struct srec *, int, __int128, __int128);
/* Field COL of R ("" when empty). */
const char	*srec_get(const struct srec *, int, size_t *);
int64_t		 srec_ts(const struct srec *);

/*
 * Append TAG to the comma-separated tag list in BUF (CAP bytes), the
 * form of every tags column; a tag that does not fit is left out.
 */
void		 stage_tag_add(char *, size_t, const char *);
/* Append TAG to the comma-separated list in column COL of R. */
void		 srec_tag_add(struct srec *, int, const char *);
/* Whether the comma-separated tag list TAGS (LEN bytes) holds TAG. */
int		 stage_tag_has(const char *, size_t, const char *);

/*
 * Report a result the stage cannot write, "prog: FILE: MSG" (a total
 * past 64 bits): the stage goes on and writes the rest, and
 * stage_close() exits 1.
 */
void		 stage_error(struct stage *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/*
 * Write what is left, check that no record is still open, flush and
 * free.  Write errors exit 1, and so does an input that stage_next()
 * found damaged, once everything before the damage is written, and a
 * stage_error().
 */
void		 stage_close(struct stage *);

#endif
