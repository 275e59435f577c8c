/*
 * The median of a stream of non-negative integers in bounded memory:
 * the values are kept exactly up to a cap, and past it they go into a
 * log-linear histogram (MEDQ_SUB buckets per power of two, exact below
 * MEDQ_SUB), so that the median read from it is within 1/MEDQ_SUB of
 * the true one and said to be approximate (there, a negative value
 * counts as 0).  A median over millions of
 * values (every small gap of a step over a whole capture, every call of
 * an op) then costs at most the cap's values or 64 KiB of buckets.
 */
#ifndef PROF_MEDQ_H
#define PROF_MEDQ_H

#include <stddef.h>
#include <stdint.h>

#define MEDQ_SUB	128
#define MEDQ_BUCKETS	(64 * MEDQ_SUB)

struct medq {
	uint64_t	 n;		/* values added */
	int64_t		*v;		/* exact values, up to the cap */
	size_t		 nv, vcap;
	uint64_t	*hist;		/* past the cap */
};

/* Add V; keep at most CAP values exactly. */
void	 medq_add(struct medq *, int64_t, size_t);
/*
 * The median of the values times 2 (the sum of the middle two) in *NUM,
 * and whether it is read from the histogram (*APPROX).  N must be > 0.
 */
void	 medq_median2(const struct medq *, __int128 *, int *);
void	 medq_free(struct medq *);

#endif
