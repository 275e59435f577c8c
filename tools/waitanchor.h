/*
 * prof-waitanchor internals shared by its three files: the op table
 * (waitanchor-ops.c), the per-device windows for wait pollution and AI
 * CPU masking (waitanchor-dev.c), and the stage loop (prof-waitanchor.c).
 */
#ifndef WAITANCHOR_H
#define WAITANCHOR_H

#include <stddef.h>
#include <stdint.h>

#include "devtab.h"
#include "ival.h"
#include "strtab.h"

struct stage;
struct srec;

/* Options, set once in main(). */
struct wa_opts {
	int		 by_shape;	/* key ops by name and in_shapes */
	int		 by_type;	/* the name is the op type */
	int		 all_devs;	/* one op across every device */
	int		 rank_total;	/* rank by totals, not averages */
	int64_t		 top;		/* rank limit of hotspot rules */
};

/*
 * The columns prof-waitanchor reads and adds, bound by stage_open()
 * from the table in prof-waitanchor.c (-1: the input lacks one read).
 */
struct wa_cols {
	int	calls, dur_avg, wait_avg, cost_avg, cost_total, wait_ratio;
	int	rank_cost, rank_dur, tags, dur_total, masked, value;
	/* read */
	int	core, wait, shapes, step, group, type, bubble_id;
};

/* Op flags, from the kernels of the op. */
#define OPF_POLLUTED	0x01	/* a wait window met a comm window */
#define OPF_EXPOSED	0x02	/* an AI CPU call got AICPU_EXPOSED_RISK */
#define OPF_COMM	0x04	/* the name is a communication kernel's */

#define OP_NCORES	4

/* What a kernel is, for the interval rules. */
enum { WA_COMPUTE, WA_AICPU, WA_COMM };

/*
 * Per (dev, step_group) shape bookkeeping of one op name: the multiset
 * of input shapes of the first step seen (as a count and a sum of
 * hashes) and that of the step being read.
 */
struct vgroup {
	char		*dev;
	char		*group;
	char		*step;		/* the step being read */
	uint64_t	 ref_sum, cur_sum;
	uint64_t	 ref_cnt, cur_cnt;
	int		 ref_set;
};

/* State per op name: the VARIABLE_SHAPE_SAME_TEMPLATE check. */
struct nament {
	struct strtab	 ops;		/* its ops by shapes: struct opent * */
	struct vgroup	*groups;
	size_t		 ngroups;
	size_t		 last;		/* group used last */
	int		 variable;
};

/* One op: what the summary record says. */
struct opent {
	char		*key;		/* dev NUL name NUL shapes */
	const char	*dev, *name, *shapes;
	struct nament	*nm;
	uint64_t	 calls, wait_calls;
	/*
	 * Sums over the calls, in 128 bits: an op's kernels can overlap
	 * (streams, ranks under -a), and waits add to durations, so a sum
	 * of int64 values need not be one.
	 */
	__int128	 dur_sum, wait_sum;
	uint64_t	 ai_calls;	/* AI CPU calls with a duration */
	__int128	 ai_dur, ai_overlap;
	unsigned	 flags;
	char		*core[OP_NCORES];
	uint64_t	 core_n[OP_NCORES];
	unsigned char	 core_cls[OP_NCORES];
	int64_t		 rank_cost, rank_dur;
};

/*
 * The op table: the names of each device (of the op's dev, which is ""
 * with --all-devs), then each name's ops by shapes.
 */
struct wa_map {
	struct devtab	 devs;		/* a strtab of struct nament * by name */
	struct nament	**names;	/* in order of first sight */
	size_t		 nnames, capnames;
	struct opent	**ops;		/* in order of first sight */
	size_t		 nops, capops;
};

void		 wa_map_init(struct wa_map *);
void		 wa_map_free(struct wa_map *);

/* The op of the current kernel; keys built from dev, name, shapes. */
struct opent	*wa_op(struct wa_map *, const char *, size_t, const char *,
		    size_t, const char *, size_t);
int		 wa_op_core(struct opent *, const char *);
void		 wa_vshape(struct nament *, const char *, const char *,
		    const char *, const char *, size_t);
void		 wa_vshape_finish(struct wa_map *);
/* Write the summary op records; returns how many. */
size_t		 wa_summary(struct stage *, struct wa_map *,
		    const struct wa_opts *, int64_t);
const char	*wa_aicpu_class(__int128, __int128);
int		 wa_is_comm_name(const char *, size_t);

/* ---- per-device windows ---- */

/* A growing set of merged intervals fed in start order. */
struct ivrun {
	struct ival	*v;
	size_t		 head, n, cap;
};

/* An AI CPU kernel kept until the input passes its end. */
struct aiopen {
	struct srec	*rec;
	struct opent	*op;
	int64_t		 s, e;
	int		 contact;	/* borders or overlaps a bubble */
};

struct wadev {
	const char	*name;		/* kept by the devtab */
	struct ivrun	 comm;		/* comm records */
	struct ivrun	*kcomm;		/* comm kernels, per track */
	char		**kcomm_track;
	size_t		 nkcomm;
	struct ivrun	 compute;	/* non-AI CPU, non-comm kernels */
	struct aiopen	*ai;
	size_t		 nai, aicap;
	int64_t		 bub_max_end;
	int		 wait_seen, shapes_seen, steps_seen;
	int64_t		 queued;	/* its earliest time in the AI queue */
};

void		 ivrun_add(struct ivrun *, int64_t, int64_t);
int		 ivrun_meets(const struct ivrun *, int64_t, int64_t);
void		 ivrun_prune(struct ivrun *, int64_t);
void		 ivrun_free(struct ivrun *);
int		 wa_polluted(const struct wadev *, const char *, size_t,
		    int64_t, int64_t);
void		 wa_comm_kernel(struct wadev *, const char *, size_t,
		    int64_t, int64_t);

#endif
