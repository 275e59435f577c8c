/*
 * Exact decimal-to-integer conversion for times.  Profilers write times as
 * decimal text (epoch microseconds with three decimals, milliseconds, ...).
 * A double cannot hold 1.7e15 us to the nanosecond, so these functions work
 * on the digits and never use floating point.
 */
#ifndef PROF_DTIME_H
#define PROF_DTIME_H

#include <stddef.h>
#include <stdint.h>

enum dtime_err {
	DTIME_OK = 0,
	DTIME_EMPTY,		/* nothing but blanks */
	DTIME_SYNTAX,		/* not [-+]digits[.digits][(e|E)[-+]digits] */
	DTIME_RANGE		/* does not fit in int64 after scaling */
};

/*
 * Parse decimal text S of length LEN and multiply it by 10^SCALE (SCALE 3
 * turns microseconds into nanoseconds, 6 milliseconds, 9 seconds, 0 plain
 * integers).  Digits below the unit are rounded to the nearest integer,
 * halves away from zero.  Leading and trailing blanks (space, TAB) are
 * ignored; surrounding double quotes are not accepted here.
 */
enum dtime_err dtime_parse(const char *, size_t, int, int64_t *);
/* A message for an error code, e.g. "not a decimal number". */
const char *dtime_strerror(enum dtime_err);
/*
 * Format V / 10^SCALE as exact decimal text with trailing zeros trimmed,
 * into BUF (at least 32 bytes).  Returns the length.
 */
size_t	 dtime_format(int64_t, int, char *);

#endif
