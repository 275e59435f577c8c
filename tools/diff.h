/*
 * prof-diff internals: the two sides (diff-read.c reads a prof-tsv
 * stream or a reference table into a group table), the matched rows
 * (prof-diff.c), and the reports (diff-out.c).
 */
#ifndef DIFF_H
#define DIFF_H

#include <stdint.h>

#include "ops.h"

/* One side of the comparison. */
struct dside {
	const char	*path;
	const char	*dev;		/* -A / -B: the one device, or NULL */
	int		 ref;		/* a reference table, not a stream */
	unsigned	 has_parts;	/* signature columns it has */
	struct ops_tab	 tab;
	__int128	 total;
	uint64_t	 calls;
	int		 failed;	/* the input was damaged */
	void		*rd;		/* its reader (diff-read.c) */
	size_t		 ngroups;	/* groups read (before matching) */
};

/* One compared group: both sides, or one. */
struct drow {
	const char	*key;
	const struct ops_group *a, *b;
	__int128	 diff;		/* total B - total A */
	int		 flag;		/* enum dflag */
	int64_t		 rank;
};

enum dflag { DF_IN, DF_SLOWER, DF_FASTER, DF_ONLY_A, DF_ONLY_B };
extern const char *const diff_flag_names[];

struct dopts {
	struct ops_keyopts ko;
	int64_t		 lo, hi;	/* band, ratios scaled by 10^6 */
	int64_t		 top;
	const char	*format;
};

/* The result, for the writers. */
struct dres {
	struct dside	*a, *b;
	struct drow	*rows;
	size_t		 nrows;
	__int128	 change;	/* the sum of every row's diff */
	__int128	 explained;	/* diff of the top rows */
	size_t		 nflag, nonly_a, nonly_b, nmatched;
	__int128	 only_a_ns, only_b_ns;
};

/* Open SIDE's input and find what it has (first pass: headers). */
void	 diff_open(struct dside *);
/* Read SIDE into its group table with the key options. */
void	 diff_read(struct dside *, const struct ops_keyopts *);

void	 diff_write_md(const struct dres *, const struct dopts *);
void	 diff_write_json(const struct dres *, const struct dopts *);
void	 diff_write_tsv(const struct dres *, const struct dopts *, int,
	    char **);
/* Decimal text of R's ratio (avg B / avg A) into BUF, or 0. */
size_t	 diff_ratio(char *, const struct drow *);

#endif
