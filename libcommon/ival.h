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

/*
 * A running union of intervals added in the order of their starts, as a
 * stage meets them: the time it covers so far and where it ends.  Set
 * END to INT64_MIN (or to the start of the range it is clipped to) and
 * TOTAL to 0 to begin.
 */
struct ival_run {
	int64_t	end;
	int64_t	total;
};

/* Add [S, E) to R: S is no earlier than any start added before. */
static inline void
ival_run_add(struct ival_run *r, int64_t s, int64_t e)
{
	if (s < r->end)
		s = r->end;
	if (e > s) {
		r->total += e - s;
		r->end = e;
	}
}

#endif
