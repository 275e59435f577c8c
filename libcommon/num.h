/*
 * Exact decimal text for derived numbers.  Stages compute in integer
 * nanoseconds; a ratio, an average or a time in milliseconds is written
 * by exact long division, never through binary floating point, so that
 * the same input always gives the same digits on every machine.
 */
#ifndef PROF_NUM_H
#define PROF_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Big enough for any num_ratio*() result: sign, 39 digits, point, 18. */
#define NUM_BUFSIZE	64

/*
 * Write NUM / DEN with at most PLACES decimals (0-18) into BUF, rounded
 * half away from zero, trailing fraction zeros removed ("0.625", "3",
 * "-1.5").  DEN must not be 0.  Returns the length.
 */
size_t	 num_ratio(char *, int64_t, int64_t, int);
/*
 * The same for unsigned 128-bit NUM and DEN (FLOPs times 10^9 over a
 * duration times a peak in FLOP/s); DEN must not be 0, and DEN times
 * 10^PLACES must stay below 2^128.
 */
size_t	 num_ratio_u128(char *, unsigned __int128, unsigned __int128, int);
/*
 * The same for a signed 128-bit NUM and DEN (DEN not 0): sums of int64
 * values and the percentiles below, which need more than 64 bits for
 * values past 2^56.  |DEN| times 10^PLACES must stay below 2^127.
 */
size_t	 num_ratio_i128(char *, __int128, __int128, int);
/*
 * The P-th percentile (0-100) of N sorted values by linear interpolation
 * between closest ranks (position P/100 * (N-1), as numpy and pandas do
 * by default), as the fraction *NUM / 100, exact for any int64 values.
 * N must be at least 1.
 */
void	 num_percentile(const int64_t *, size_t, int, __int128 *);
/* Median of N sorted values as *NUM / 2 (mean of the middle two). */
void	 num_median128(const int64_t *, size_t, __int128 *);
/*
 * The same as an int64, for values within +-2^62 (their double must
 * fit); a value past that is an internal error, never a wrong median.
 * New code uses num_median128().
 */
void	 num_median(const int64_t *, size_t, int64_t *);
/* Sort N int64 values ascending. */
void	 num_sort(int64_t *, size_t);

/*
 * A + B held at INT64_MAX or INT64_MIN: for sums of durations, which
 * spec-valid extreme values can carry past 64 bits, where a held total
 * is still the right order and never wraps to a negative time.
 */
static inline int64_t
num_sat_add(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

#endif
