/*
 * Interval algebra over half-open integer-nanosecond intervals [s, e).
 */
#ifndef PROF_IVAL_H
#define PROF_IVAL_H

#include <stddef.h>
#include <stdint.h>

struct ival {
	int64_t	s;
	int64_t	e;
};

/*
 * Sort and merge in place; intervals with e <= s vanish, touching ones
 * (a.e == b.s) merge.  Returns the number of merged intervals.
 */
size_t	 ival_union(struct ival *, size_t);
/* Sum of lengths of already merged intervals. */
int64_t	 ival_total(const struct ival *, size_t);
/* Length of the intersection of two merged sets. */
int64_t	 ival_overlap(const struct ival *, size_t, const struct ival *,
	    size_t);

#endif
