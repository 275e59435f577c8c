/*
 * The op grouping that prof-ops and prof-diff share: what key a device
 * task falls under (ops-key.c), its category and non-compute class, and
 * the group table with its exact statistics (ops-tab.c).  Both programs
 * group the same way, so that a group prof-ops reports is the group
 * prof-diff compares.
 */
#ifndef OPS_H
#define OPS_H

#include <stddef.h>
#include <stdint.h>

#include "devtab.h"
#include "medq.h"

/* What a group is keyed by (-k). */
enum ops_key {
	OK_NAME, OK_TYPE, OK_SIG, OK_SCOPE, OK_CATEGORY, OK_SOURCE, OK_PIPE,
	OK_CYCLES
};

/* The parts of a signature (-p), in the order they are joined. */
enum ops_part {
	OP_TYPE, OP_IN_SHAPES, OP_IN_DTYPES, OP_IN_FORMATS, OP_OUT_SHAPES,
	OP_OUT_DTYPES, OP_OUT_FORMATS, OP_NPARTS
};
extern const char *const ops_part_names[OP_NPARTS];

/* Category of a device task. */
enum ops_cat {
	OC_COMPUTE, OC_DATA, OC_COMM, OC_OTHER, OC_NCATS
};
extern const char *const ops_cat_names[OC_NCATS];

/* Non-compute classes of the audit (0: none). */
enum ops_nc {
	NC_NONE, NC_COPY, NC_CAST, NC_TRANSPOSE, NC_PAD, NC_LAYOUT, NC_FILL,
	NC_BROADCAST, NC_N
};
extern const char *const ops_nc_names[NC_N];

/* The fields of one task that keys are made from (text, may be empty). */
struct ops_task {
	const char	*f[OP_NPARTS];	/* type and the signature columns */
	size_t		 fl[OP_NPARTS];
	const char	*name, *core, *cat;
	size_t		 namel, corel, catl;
	const char	*frame;		/* the innermost user frame */
	size_t		 framel;
	const char	*scope;		/* an XLA op's scope path (ext) */
	size_t		 scopel;
	const char	*stack;		/* an XLA op's source stack hash (ext) */
	size_t		 stackl;
	/* an XLA op's HLO text as prof-ingest read it (ext) */
	int		 xla;		/* ext names its HLO module */
	const char	*changes, *in_layout, *layout;
	size_t		 changesl, in_layoutl, layoutl;
};

struct ops_keyopts {
	enum ops_key	 key;
	unsigned	 parts;		/* 1 << enum ops_part */
	int		 depth;		/* scope: leading parts, 0: the leaf */
};

/* Parse a -k argument / a -p list; -1 when bad. */
int	 ops_key_parse(const char *, enum ops_key *);
int	 ops_parts_parse(const char *, unsigned *);
const char *ops_key_name(enum ops_key);

enum ops_cat	 ops_category(const struct ops_task *, enum ops_nc *);
/*
 * The key of task T into BUF (grown as needed, *CAP bytes); returns its
 * length.  Parts are joined by '|' and empty parts written as '-'.
 */
size_t	 ops_key_make(const struct ops_keyopts *, const struct ops_task *,
	    char **, size_t *);
/*
 * -k source on an XLA op with a source stack: the key is the innermost
 * line, then OPS_STACK_SFX and the stack's hash, then ']', so that one
 * line reached by two call paths makes two groups.  The length of the
 * key's label (the line alone) of a key of KL bytes made from T.
 */
#define OPS_STACK_SFX	" [stack "
size_t	 ops_key_label(const struct ops_keyopts *, const struct ops_task *,
	    size_t);
/*
 * The scope path and source stack hash an XPlane op carries in its ext
 * column ("...;stack=HEX;scope=jit(f)/mul;...") into T; none elsewhere
 * (a Kineto ext is a number).
 */
void	 ops_ext_xla(const char *, size_t, struct ops_task *);
/*
 * What an XLA op changes, read from its HLO text (prof-ingest's ext
 * changes=, in_layout=, layout= and the dtype columns), into BUF of CAP
 * bytes: "dtype f32->bf16", "layout 1,0->0,1", "space S(0)->S(5)"
 * (a move between memory spaces, not a layout change), joined by ','.
 * Returns its length, 0 when the op changes none of them.
 */
size_t	 ops_change(const struct ops_task *, char *, size_t);

/*
 * Kineto kernels carry no type, shapes or stack: the host operator that
 * launched them does, under the same External id (or, in older traces,
 * through the runtime call of the same correlation id).  The last
 * OPS_EXT_KEEP host operators seen are kept (a launch is never far
 * behind its operator in a time-ordered stream), so memory stays
 * bounded.
 */
#define OPS_EXT_KEEP	65536
struct ops_ext;
struct ops_ext	*ops_ext_new(void);
/* The operator T (name, input shapes and dtypes, frame) of EXT. */
void	 ops_ext_add(struct ops_ext *, const char *, size_t,
	    const struct ops_task *);
/*
 * A runtime call of correlation CORR launched for the operator EXT, or
 * (no such operator) from the frame of T.
 */
void	 ops_ext_link(struct ops_ext *, const char *, size_t, const char *,
	    size_t, const struct ops_task *);
/*
 * Fill T's empty type, input shapes and dtypes and frame from the
 * operator of EXT, else of the runtime call of CORR.
 */
void	 ops_ext_fill(struct ops_ext *, const char *, size_t, const char *,
	    size_t, struct ops_task *);
void	 ops_ext_free(struct ops_ext *);

/* ---- the group table ---- */

/*
 * Durations of a group are kept exactly up to a cap (-m); past it they
 * go into libcommon's log-linear histogram (medq.h: a median within
 * 1/128 of the true one) and the group is tagged approx: memory is
 * bounded by the number of groups.
 */

#define OPS_NPMU	16

struct ops_group {
	char		*dev;		/* dev text ("" across devices) */
	char		*key;
	size_t		 devlen, keylen;
	uint64_t	 calls;
	__int128	 total;
	unsigned __int128 sumsq;	/* for the standard deviation */
	int		 sq_over;	/* sumsq passed 128 bits */
	int64_t		 min, max;
	struct medq	 med;		/* its durations, for the median */
	__int128	 flops, bytes;
	uint64_t	 nflops, nbytes;
	enum ops_cat	 cat;
	enum ops_nc	 nc;
	char		*opcat;		/* core or cat of the first task */
	char		*example;	/* a kernel name of the group */
	size_t		 labell;	/* -k source: the line alone */
	char		*change;	/* ops_change() of the first task */
	int		 shown_full;	/* the label is not unique: key shown */
	/* PMU "..._ratio" averages, scaled by 10^6 */
	char		*pmuk[OPS_NPMU];
	__int128	 pmus[OPS_NPMU];
	uint64_t	 pmun[OPS_NPMU];
};

struct ops_tab {
	struct devtab	 devs;		/* a strtab of group pointers by key */
	size_t		 vcap_max;	/* exact durations kept per group */
	struct ops_group **v;		/* the groups in order of first sight */
	size_t		 nv, vcap;
};

void	 ops_tab_init(struct ops_tab *, size_t);
struct ops_group *ops_tab_get(struct ops_tab *, const char *, size_t,
	    const char *, size_t, int *);
void	 ops_group_add(struct ops_tab *, struct ops_group *, int64_t);
void	 ops_group_pmu(struct ops_group *, const char *, size_t);
void	 ops_group_num(__int128 *, uint64_t *, const char *, size_t);
/* Median as NUM/2 exact (or from the histogram, then *APPROX = 1). */
void	 ops_group_median(const struct ops_group *, __int128 *, int *);
/* Sample standard deviation rounded to ns; -1 when not known. */
int64_t	 ops_group_std(const struct ops_group *);
/* Order of reports: total descending, then dev, then key. */
int	 ops_group_cmp(const void *, const void *);
void	 ops_tab_free(struct ops_tab *);

/* Shared helpers for writing. */
size_t	 ops_i128(char *, __int128);

#endif
