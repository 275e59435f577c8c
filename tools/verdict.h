/*
 * prof-verdict: what the parts share.  prof-verdict.c reads the stream
 * and hands each record to the sweep (verdict-sweep.c: the time budget of
 * every step window) or keeps the summary facts other stages wrote
 * (verdict-facts in the same file); verdict-sum.c turns the budgets into
 * budget and verdict records, verdict-advice.c into advice records.
 */
#ifndef PROF_VERDICT_H
#define PROF_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "strtab.h"

struct stage;
struct srec;

/* The parts of a step window's time (prof-verdict(1), BUDGET). */
enum vpart {
	VP_BUSY_COMPUTE, VP_BUSY_MEMORY, VP_BUSY_LATENCY, VP_BUSY_UNCLASSED,
	VP_COMM_HIDDEN, VP_COMM_EXPOSED,
	VP_IDLE_SYNC, VP_IDLE_INPUT, VP_IDLE_LAUNCH, VP_IDLE_HOST,
	VP_IDLE_UNTRACED, VP_N
};
#define VP_NBUSY	(VP_COMM_EXPOSED + 1)	/* the parts from kernels */
extern const char *const vp_name[VP_N];

/* The bottleneck classes of a verdict (prof-verdict(1), CLASSES). */
enum vclass {
	VC_COMPUTE, VC_MEMORY, VC_LAUNCH, VC_COMM, VC_SYNC, VC_INPUT,
	VC_HOST, VC_UNTRACED, VC_N
};
extern const char *const vc_name[VC_N];

/* Idle classes of prof-attrib's bubble columns, in the budget's order. */
enum { IB_SYNC, IB_INPUT, IB_LAUNCH, IB_HOST, IB_UNTRACED, IB_N };

struct ratio {
	int64_t	num, den;
};

struct v_opts {
	int64_t		small_gap;	/* host work in shorter gaps: launch */
	int64_t		short_kernel;	/* latency-bound and shorter: launch */
	struct ratio	tie;		/* near tie: within this of a window */
	struct ratio	loss;		/* a loss class wins from this share */
	struct ratio	floor;		/* advice for a part from this share */
	int		names;		/* named ops per evidence line */
};

/* A step window and its budget. */
struct vstep {
	char		*step, *group;
	int64_t		 ts, dur;
	int64_t		 part[VP_N];	/* busy parts; idle after vs_finish */
	int64_t		 bub[IB_N];	/* idle by prof-attrib's columns */
	int64_t		 hid[VP_BUSY_UNCLASSED + 1];	/* comm_hidden by bound */
	int64_t		 bub_total;
	int		 cut;		/* the capture boundary cuts it */
};

/*
 * The profiler's own split of a step (Ascend step_trace_time), kept to
 * stand in for a kernel timeline that holds too little of it.
 */
enum { PF_COMPUTING, PF_COMM_NOT_OVERLAPPED, PF_OVERLAPPED, PF_STAGE, PF_N };
struct vprof {
	char		*step;
	int64_t		 ns[PF_N];
	unsigned	 have;		/* bit per PF_ value read */
};

/* Time per name, for the evidence: one entry per kernel or host name. */
/* The value of a name in a device's table of them. */
struct vname {
	const char	*name;		/* the table's key */
	int64_t		 ns[VC_N];	/* time credited per class */
	uint32_t	 last;		/* segment id of the last credit */
};

/* An op record of prof-waitanchor that a rule tagged. */
struct vop {
	char		*name, *tags;
	int64_t		 cost_total, dur_total;
};

/* A cause record of prof-attrib with follow-ups. */
struct vcause {
	char		*label, *followup, *scope, *target;
};

/* Everything known about one device. */
struct vdev {
	const char	*id;		/* kept by the devtab */
	size_t		 idlen;
	struct vstep	*steps;
	size_t		 nsteps, capsteps, cur;
	/* the sweep */
	int64_t		 t;
	struct vact	*act;		/* active kernels: a heap by end */
	size_t		 nact, capact;
	int		 cnt[VP_NBUSY];	/* active kernels per busy part */
	uint64_t	 nkernels, npipes, nhost;
	int		 no_attrib;	/* a bubble without prof-attrib's split */
	int		 has_bubbles;
	struct strtab	 names;		/* kernels, then host names: vname */
	/* facts of other stages */
	char		*mfu, *mfu_cov, *chip;
	int		 roof_run;
	char		*pipe, *pipe_ratio, *core_tags, *core_busy, *core_span;
	struct vop	*ops;
	size_t		 nops;
	struct vcause	*causes;
	size_t		 ncauses;
	int		 stacks, shapes, wait_known;
	struct vprof	*prof;		/* step_trace_time rows, by step */
	size_t		 nprof;
	int		 profiler_split;	/* the budget is the profiler's */
	/*
	 * Memory-bound kernel time, and the part of it in kernels far
	 * below the HBM roof with no FLOPs (prof-roofline's
	 * below_memory_roof: copies to or from host memory, DMA waits).
	 */
	int64_t		 mem_ns, slow_ns;
};

/*
 * The columns prof-verdict reads and adds, bound by stage_open() from
 * the table in prof-verdict.c (-1: the input lacks one read); every
 * part reaches them by stage_columns().
 */
struct verdict_cols {
	/* added, in their order */
	int	step, group, scope, steps, budget, per_step, share, window;
	int	stake, conf, second, second_r, mfu, mfu_cov, chip, pipe;
	int	evid, tags, order, prio, target, text, followup;
	/* read */
	int	core, bound, cov, pipe_bound, pipe_ratio, busy, durt;
	int	host_class, covered, cost_total, value, idle[IB_N];
};

/* verdict-sweep.c */
void		 vs_init(struct stage *, const struct v_opts *);
struct vdev	*vs_dev(const char *, size_t);
void		 vs_window(struct vdev *, int64_t, int64_t, const char *,
		    size_t, const char *, size_t, int);
void		 vs_kernel(struct vdev *, int64_t, int64_t, int, const char *,
		    size_t);
void		 vs_bubble(struct vdev *, int64_t, int64_t, const int64_t *,
		    int);
void		 vs_profiler(struct vdev *, const char *, size_t, int,
		    int64_t);
void		 vs_host_name(struct vdev *, int, const char *, size_t,
		    int64_t);
void		 vs_finish(void);
size_t		 vs_ndevs(void);
struct vdev	*vs_devn(size_t);
void		 vs_free(void);
size_t		 vn_id(struct strtab *, const char *, size_t);

/* verdict-sum.c */
/* The verdict of a set of steps (a group or the run). */
struct vverdict {
	int		 cls;		/* VC_*, or VV_NO_DATA, VV_IN_CORE */
	int		 second;	/* VC_*, or -1 */
	/*
	 * Sums over the steps of a scope, in 128 bits: each step's parts
	 * are int64s, but the profiler's split (step_trace_time) need not
	 * keep their sum within 64 bits.  A product with a ratio's terms
	 * (30 bits at most) stays within 2^127 for fewer than 2^33 steps.
	 */
	__int128	 part[VP_N], hid[VP_BUSY_UNCLASSED + 1];
	__int128	 cls_ns[VC_N];
	__int128	 window;
	int64_t		 steps;
	int		 cut;
	char		 tags[192];
	const char	*confidence;
};
#define VV_NO_DATA	(-1)
#define VV_IN_CORE	(-2)
void		 vsum_write(struct stage *, const struct v_opts *);
/* NS as "X.XXX ms" and NUM / DEN as "X.X%" in BUF; BUF returned. */
char		*vsum_ms(char *, size_t, int64_t);
char		*vsum_pct(char *, size_t, __int128, __int128);
/* A sum of int64 values over STEPS of them, per step: an int64. */
int64_t		 vsum_per_step(__int128, int64_t);
/*
 * Integer column NAME of R (a scope's total, such as budget_ns) when V
 * is an int64; else left empty, with a diagnostic, and the stage exits
 * 1 at its end.
 */
void		 vsum_total(struct srec *, int, const char *, __int128);
/* The top N names of class CLS of D, as "name (x ms/step), ..." */
void		 vsum_names(char *, size_t, const struct vdev *, int, int,
		    int64_t);

/* verdict-advice.c */
void		 vadv_write(struct stage *, const struct v_opts *,
		    struct vdev *, const struct vverdict *);

#endif
