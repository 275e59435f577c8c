/*
 * Eight decimal digits in one step, for the integer and time parsers
 * that every record goes through (a 16-digit epoch time, a 9-digit
 * ts_ns): two of these instead of sixteen multiply-adds.
 */
#ifndef PROF_DIGITS_H
#define PROF_DIGITS_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_DIGITS8	1
/*
 * If the 8 bytes at S are all digits, their value in *V (and 1), else 0.
 * The pairs, then quads, then the whole are formed in place, each lane
 * too small to carry into the next.
 */
static inline int
digits8(const char *s, uint64_t *v)
{
	const uint64_t hi = 0xf0f0f0f0f0f0f0f0ULL, zeros = 0x3030303030303030ULL;
	uint64_t w;

	memcpy(&w, s, 8);
	if ((w & hi) != zeros ||
	    ((w + 0x0606060606060606ULL) & hi) != zeros)
		return 0;
	w -= zeros;
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	*v = (w * 10000 + (w >> 32)) & 0xffffffffULL;
	return 1;
}
#endif

#endif
