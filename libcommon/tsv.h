/*
 * The prof-tsv record stream (see prof-tsv(5)): a "#" preamble, one header
 * line, then TAB-separated records with \t \n \r \\ escapes.  A buffered
 * writer that escapes every field, and a reader that checks field counts,
 * decodes escapes, and finds columns by name.
 */
#ifndef PROF_TSV_H
#define PROF_TSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TSV_VERSION	1

/* The fixed leading columns of every stream: kind ts_ns dur_ns dev track name. */
#define TSV_NFIXED	6
extern const char *const tsv_fixed_cols[TSV_NFIXED];

/* ---- writer ---- */

struct tsvw;

/* Write to file descriptor FD; PATH names it in write errors. */
struct tsvw	*tsvw_open(int, const char *);
/* Write "#" LINE "\n"; LINE must not hold a newline. */
void		 tsvw_preamble(struct tsvw *, const char *);
/*
 * Write the provenance line of a program that wrote the stream,
 * "#stage PROG VERSION ARG...": ARGV[1] .. ARGV[ARGC - 1], each escaped
 * as a field and after a space.  Every program that writes a stream
 * writes it through here, so that prof-merge and a reader of the
 * preamble find one form.
 */
void		 tsvw_stage(struct tsvw *, const char *, int, char *const []);
/* Write the header line from N column names. */
void		 tsvw_header(struct tsvw *, const char *const *, size_t);
/* Append one field, escaping \t \n \r \\ as needed. */
void		 tsvw_field(struct tsvw *, const char *, size_t);
void		 tsvw_str(struct tsvw *, const char *);
/* Append one already-escaped field (copied as is). */
void		 tsvw_raw(struct tsvw *, const char *, size_t);
void		 tsvw_i64(struct tsvw *, int64_t);
void		 tsvw_empty(struct tsvw *);
/* End the record with "\n". */
void		 tsvw_end(struct tsvw *);
/*
 * Room for LEN more bytes at the end of the output, for a caller that
 * builds whole lines (newline included) in place rather than field by
 * field; tsvw_commit() then adds the first N of them to the output.
 * Nothing else may be written in between.
 */
char		*tsvw_reserve(struct tsvw *, size_t);
void		 tsvw_commit(struct tsvw *, size_t);
/*
 * Append LEN bytes of whole lines, newlines included; a long run is
 * written past the buffer, not copied into it.
 */
void		 tsvw_write(struct tsvw *, const char *, size_t);
/* Bytes written so far. */
uint64_t	 tsvw_bytes(const struct tsvw *);
/* Flush; on a write error print "prog: write error: ..." and exit 1. */
void		 tsvw_flush(struct tsvw *);
void		 tsvw_close(struct tsvw *);

/*
 * Make a pipe at FD hold TSV_PIPE_SIZE bytes (where the system allows:
 * Linux's F_SETPIPE_SZ; a refusal is no error).  A pipeline moves
 * gigabytes from stage to stage, and with the 64 KiB default every
 * stage wakes its neighbours sixteen times a megabyte.  The reader and
 * the writer both call it.
 */
#define TSV_PIPE_SIZE	(1 << 20)
void		 tsv_widen_pipe(int);

/* Decimal text of an int64 at BUF (no NUL); returns its length. */
#define TSV_I64_MAX	20
size_t		 tsv_i64_any(char *, int64_t);
/* Inline to three digits (a device, a source, a picosecond part: a
 * column of every record). */
static inline size_t
tsv_i64(char *buf, int64_t v)
{
	if ((uint64_t)v < 10) {
		*buf = (char)('0' + v);
		return 1;
	}
	if ((uint64_t)v < 100) {
		buf[0] = (char)('0' + v / 10);
		buf[1] = (char)('0' + v % 10);
		return 2;
	}
	if ((uint64_t)v < 1000) {
		buf[0] = (char)('0' + v / 100);
		buf[1] = (char)('0' + v / 10 % 10);
		buf[2] = (char)('0' + v % 10);
		return 3;
	}
	return tsv_i64_any(buf, v);
}

/*
 * Copy LEN bytes from S to D.  A field, or a value a stage sets, is
 * mostly a number or a name of a few bytes, where two overlapping moves
 * of a fixed size cost a fraction of a call to memcpy.
 */
static inline void
tsv_copy(char *d, const char *s, size_t len)
{
	if (len > 16)
		memcpy(d, s, len);
	else if (len >= 8) {
		memcpy(d, s, 8);
		memcpy(d + len - 8, s + len - 8, 8);
	} else if (len >= 4) {
		memcpy(d, s, 4);
		memcpy(d + len - 4, s + len - 4, 4);
	} else if (len > 0) {
		d[0] = s[0];
		d[len / 2] = s[len / 2];
		d[len - 1] = s[len - 1];
	}
}

/* Escape S into OUT (at least 2*LEN bytes); returns the escaped length. */
size_t		 tsv_escape(const char *, size_t, char *);

/* ---- reader ---- */

struct tsvr;

/*
 * Open PATH ("-" or NULL: stdin) and read its preamble and header.
 * Returns NULL after a diagnostic.
 */
struct tsvr	*tsvr_open(const char *);
/*
 * Open PATH as a prof-tsv stream, as every program that reads one does
 * (the stage loop, prof-merge, prof-render): tsvr_open(), then the fixed
 * leading columns checked, a fatal "not a prof-tsv stream: column N is
 * 'NAME', expected 'kind'" otherwise.  An empty input has no columns
 * and no records.  Read its records with tsvr_record().
 */
struct tsvr	*tsvr_open_stream(const char *);
/*
 * Open PATH as tsvr_open_stream() does, to be read twice: a program that
 * needs the whole stream before it writes (prof-steps finds the step
 * windows first) reads the records, then tsvr_rewind() and reads them
 * again.  A regular file is read again where it lies; anything else (a
 * pipe, a FIFO, <(...)) is copied as it is read to a temporary file in
 * TMPDIR, removed at once, and read again from there (exit 1 when it
 * cannot be made or written).  The first pass ends at a damaged record
 * without a diagnostic: the second pass tells it.
 */
struct tsvr	*tsvr_open_twice(const char *, const char *);
/*
 * Start the second pass at the first record: the line numbers, the
 * checks of the order and the span, and the damage begin again.
 */
void		 tsvr_rewind(struct tsvr *);
/*
 * Whether damage is told (0) or only ends the records (1): a pass
 * between the first and the last, read again after tsvr_rewind(),
 * leaves the telling to the last.
 */
void		 tsvr_set_quiet(struct tsvr *, int);
/* The preamble lines, without "#" and newline. */
size_t		 tsvr_npreamble(const struct tsvr *);
const char	*tsvr_preamble(const struct tsvr *, size_t);
/* The value of preamble line "#KEY VALUE", or NULL. */
const char	*tsvr_meta(const struct tsvr *, const char *);
size_t		 tsvr_ncols(const struct tsvr *);
const char	*tsvr_colname(const struct tsvr *, size_t);
/* Index of column NAME, or -1. */
int		 tsvr_col(const struct tsvr *, const char *);
/*
 * Read the next record: 1, 0 at the end, or -1 after a diagnostic
 * (field count, bad escape, CR before LF, NUL byte, a last line without
 * newline).  The records before a damaged one are good: a caller
 * finishes its work on them, then exits 1.  After -1, tsvr_next()
 * returns -1 again.  (tsvr_open() exits 1 on a damaged preamble or
 * header, on an unknown version, and on a preamble without a header.)
 */
int		 tsvr_next(struct tsvr *);
/*
 * Say that the current record is damaged, "FILE:LINE: MSG" on stderr;
 * tsvr_next() then returns -1 and tsvr_failed() 1.
 */
void		 tsvr_damage(struct tsvr *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
int		 tsvr_failed(const struct tsvr *);
/*
 * The next record, checked against prof-tsv(5) as every program that
 * reads the stream checks it, so that none computes on what another
 * refuses: tsvr_next(); the times (tsvr_times()); wait_ns, when the
 * stream has it, a whole int64 and not negative; the order, timeless
 * records first, then ts_ns never decreasing.  Returns 1 and the times
 * as tsvr_times() gives them, 0 at the end, or -1 after the diagnostic:
 * the records before are good, and a caller finishes its work on them,
 * then exits 1.
 */
int		 tsvr_record(struct tsvr *, int64_t *, int64_t *);
/* The largest ts_ns + dur_ns tsvr_record() took (TSV_NO_TS before any). */
int64_t		 tsvr_end(const struct tsvr *);
/* ts_ns of a timeless record (an empty ts_ns field). */
#define TSV_NO_TS	INT64_MIN
/*
 * The current record's ts_ns and dur_ns (columns 2 and 3), checked as
 * prof-tsv(5) says: whole integers, ts_ns not -2^63 (*TS is TSV_NO_TS
 * when empty), dur_ns not negative (*DUR is -1 when empty), their sum
 * within int64, both present on a kernel, and the capture (from the
 * earliest ts_ns to the latest end read so far) within 2^63 - 1 ns, so
 * that the difference of any two of its times is an int64.  Returns 0,
 * or -1 after tsvr_damage().
 */
int		 tsvr_times(struct tsvr *, int64_t *, int64_t *);
/* Decoded field I of the current record and its length. */
const char	*tsvr_field(const struct tsvr *, size_t, size_t *);
/*
 * Decoded field I of the current record and its length, not always
 * NUL-terminated: where it needs no decoding, the field as it lies in
 * the line, without the copy tsvr_field() makes.  For a program that
 * compares or parses a field of every record.
 */
const char	*tsvr_text(const struct tsvr *, size_t, size_t *);
/*
 * All decoded fields of the current record at once: their starts (in
 * one buffer, the first at its beginning) and, in *LENS, their lengths;
 * for a stage that copies whole records.
 */
char *const	*tsvr_fields(struct tsvr *, const size_t **);
/*
 * Whether the current record has no escape: its raw line is its
 * decoded text, field for field.
 */
int		 tsvr_plain(const struct tsvr *);
/* Field I of the current record as it was read, still escaped. */
const char	*tsvr_rawfield(const struct tsvr *, size_t, size_t *);
/* The current record's raw (still escaped) line without the newline. */
const char	*tsvr_line(const struct tsvr *, size_t *);
/*
 * Field I as a whole int64; empty fields give 0 with *ABSENT set (ABSENT
 * may be NULL).  A malformed value is a fatal "column 'NAME': invalid
 * integer 'TEXT'" error at the current line.
 */
int64_t		 tsvr_i64(const struct tsvr *, size_t, int *);
/*
 * Parse S (LEN bytes) as a whole prof-tsv integer: an optional '-' and
 * decimal digits, within int64.  Returns 0 and sets *OUT, or -1.
 */
int		 tsv_parse_i64(const char *, size_t, int64_t *);
unsigned long	 tsvr_lineno(const struct tsvr *);
const char	*tsvr_path(const struct tsvr *);
void		 tsvr_close(struct tsvr *);

#endif
