/*
 * prof-bubbles: what its parts share.  bubbles-gap.c follows the stream
 * (windows, busy segments, kernels) and writes the bubble and per-step
 * records; bubbles-sum.c keeps the per-step table and the whole-capture
 * gap statistics and writes the summary records at the end;
 * bubbles-text.c has small text helpers.
 */
#ifndef PROF_BUBBLES_H
#define PROF_BUBBLES_H

#include <stddef.h>
#include <stdint.h>

struct stage;
struct srec;

/* A threshold given as an exact decimal fraction NUM / DEN. */
struct ratio {
	int64_t	num;
	int64_t	den;
};

struct bub_opts {
	int64_t		top;		/* top gaps per device */
	int64_t		min_heavy;	/* floor of T, ns */
	struct ratio	heavy;		/* T = max(min_heavy, heavy * service) */
	struct ratio	underfeed;	/* DEVICE_IDLE_GAP_HEAVY ratio */
	struct ratio	recurring;	/* share of steps with bubbles */
	struct ratio	mixed;		/* top two patterns closer than this */
	struct ratio	share;		/* dominant tag: share of steps */
	int64_t		near;		/* capture boundary distance, ns */
	int64_t		floor;		/* shortest significant gap, ns */
	int		script_idle;	/* DEVICE_IDLE_GAP_HEAVY from ratio only */
};

/* The per-step metrics, in the order they are written. */
enum {
	M_SERVICE, M_BUSY, M_UNDER, M_RATIO, M_PRE, M_TAIL, M_INTERNAL,
	M_LARGEST, M_COUNT, M_SIG, M_INTER, NMET
};

/* Step tags, as bits. */
enum {
	TAG_IDLE = 1, TAG_PRE = 2, TAG_TAIL = 4, TAG_INTERNAL = 8,
	TAG_PARTIAL = 16, TAG_NBITS = 5
};

extern const char *const bub_metric_names[NMET];
extern const char *const bub_tag_names[TAG_NBITS];

/* Output columns the parts write. */
struct bub_cols {
	int	step, group, tags, value, id;
	int	prev[4], next[4];	/* name, core, dur_ns, track */
	int	core;			/* input column, or -1 */
};

/* Scale of the underfeed ratio in the step table: 10^-12 steps. */
#define BUB_RATIO_SCALE	1000000000000LL

/* A growing text buffer. */
struct sbuf {
	char	*p;
	size_t	 len, cap;
};

/* bubbles-text.c */
void		 sbuf_set(struct sbuf *, const char *, size_t);
/* Decimal text of V at the end of BUF[24]; returns its start. */
char		*i64_text(char *, int64_t);
/* Set a field of a derived record to an integer. */
void		 set_i64(struct srec *, int, int64_t);
/* The bubble id PREFIX "." C N (a buffer reused by the next call). */
const char	*make_id(const char *, char, int64_t);
/* Whether the comma-separated list S of length LEN holds WORD. */

/* bubbles-gap.c */
void	 gap_init(struct stage *, const struct bub_opts *,
	    const struct bub_cols *);
void	 gap_before(int64_t);
void	 gap_window(void);
void	 gap_busy(void);
void	 gap_kernel(void);
void	 gap_finish(void);

/* bubbles-sum.c */
void	 sum_init(struct stage *, const struct bub_opts *,
	    const struct bub_cols *);
void	 sum_step(const char *, size_t, const char *, const int64_t *,
	    unsigned);
void	 sum_dev(size_t, const char *, size_t);
void	 sum_capture(size_t, int64_t, int64_t, int64_t);
void	 sum_gap(size_t, int64_t, int64_t, const char *);
void	 sum_write(void);
/* Whether NUM >= R * DEN, exactly. */
int	 ratio_ge(int64_t, struct ratio, int64_t);

#endif
