/*
 * prof-layers internals shared by its files: kernel names and what they
 * are (layers-names.c), passes and layers found from attention markers
 * (layers-pass.c), convolution units (layers-conv.c), the
 * repeating-sequence fallback (layers-detect.c), the costs of every
 * structure (layers-cost.c), the per-device summaries (layers-sum.c) and
 * the stage loop (prof-layers.c).
 */
#ifndef LAYERS_H
#define LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "ival.h"
#include "medq.h"

struct stage;
struct srec;

/* Marker direction: a forward or a backward (gradient) attention. */
enum { DIR_NONE, DIR_FWD, DIR_BWD };

/* Functional role groups (doc/analysis-rules.md, Role groups), in order. */
enum {
	ROLE_ATTN, ROLE_CONV, ROLE_MATMUL, ROLE_NORM, ROLE_PREP, ROLE_ACT,
	ROLE_POOL, ROLE_ROUTE, ROLE_EXPERT, ROLE_TPCOMM, ROLE_EPCOMM,
	ROLE_PPCOMM, ROLE_SAMPLE, ROLE_MEM, ROLE_OTHER, NROLES
};

/* What a kernel name says, for the layer type and the cross-check. */
#define NF_DFC		0x001	/* DispatchFFNCombine */
#define NF_GMM		0x002	/* grouped matmul / grouped GEMM */
#define NF_ROUTE	0x004	/* MoE gating, top-k routing */
#define NF_A2A		0x008	/* all-to-all (expert parallel) */
#define NF_SAMPLE	0x010	/* sampling ops */
#define NF_COMM		0x020	/* a communication kernel */
#define NF_AICPU	0x040	/* runs on the AI CPU */
#define NF_KVC		0x080	/* KV-cache update (ReshapeAndCache) */
#define NF_QKV		0x100	/* split_qkv_rmsnorm_rope */
#define NF_HELP		0x200	/* continues a convolution's run (layout) */
#define NF_BWDN		0x400	/* the name says gradient (grad, bwd, ...) */
#define NF_RESADD	0x800	/* a tensor-tensor add: a residual join */
#define NF_ELEM		0x1000	/* elementwise, fill, copy: never an anchor */

/* Task classes of the cost columns (the core column, or the GPU kind). */
#define NCLASS	16

/*
 * The ops the per-pass cross-check counts (doc/analysis-rules.md,
 * Cross-checks), by NF_ bit.
 */
#define NCHECK	6

/* One distinct kernel name (interned; ids are indexes). */
struct lname {
	const char	*name;		/* kept by the table of names */
	size_t		 len;
	unsigned	 flags;		/* NF_ */
	int		 role;		/* ROLE_ */
	int		 dir;		/* DIR_ when it is a marker */
	int		 cls;		/* task class (names_class) */
};

/* A kernel held until its layer closes. */
struct lkern {
	struct srec	*rec;		/* NULL once written */
	int64_t		 s, e;
	int64_t		 wait;		/* wait_ns, 0 when absent */
	uint32_t	 name;		/* lname id */
	uint32_t	 track;		/* stream index in the dev */
};

/* Pass phases. */
enum { PH_NONE, PH_PREFILL, PH_DECODE, PH_FWD, PH_BWD, NPHASES };

/* Layer types. */
enum {
	LT_DENSE, LT_MOE, LT_MOE_GMM, LT_MOE_DFC, LT_CONV, LT_LINEAR,
	LT_BLOCK, NLTYPES
};

/* How a dev's structure was found (the model record). */
enum { FAM_NONE, FAM_ATTN, FAM_CONV, FAM_PERIODIC, NFAMS };

/*
 * Block and side of a structure (doc/analysis-rules.md, Block, side and
 * the four timing views).
 */
enum { PART_BLOCK, PART_SIDE, NPARTS };

/* One timing view set of a part: wall from FIRST to LAST. */
struct lpart {
	int64_t		 first, last, busy, sum, cost;
	uint64_t	 n;
};

/*
 * The costs of a structure (layer or pass) beyond its kernel sum and
 * busy time: total cost (duration + wait), kernel time per task class,
 * block and side, device idle inside it and the gap before it.
 */
struct lcost {
	int64_t		 cost;
	int64_t		 cls[NCLASS];
	struct lpart	 part[NPARTS];
	int64_t		 devbusy;	/* device busy time in the span */
	int64_t		 idle;		/* inside, between busy stretches */
	int64_t		 gap;		/* before its first kernel */
	int64_t		 trail;		/* at its end, before the next */
	int64_t		 between;	/* pass: gaps between its layers */
};

/* Per (dev, layer type) summary. */
struct ltype {
	/*
	 * A pending type (ldev_pend) keeps the open pass's layers, at most
	 * PASS_LAYERS_MAX, in wall and kcount; a pass's type (ldev_type)
	 * keeps medians in bounded memory (wall_med, kc_med) and the sums
	 * the variation is computed from, so that a capture of millions of
	 * layers costs the same as one of a few.
	 */
	int64_t		*wall;		/* pending: every layer's wall */
	int64_t		*kcount;	/* and its kernel count */
	size_t		 n, cap;
	struct medq	 wall_med, kc_med;
	int64_t		 wall_min, wall_max;
	unsigned __int128 wall_sq;	/* sum of squared walls */
	int		 sq_over;	/* wall_sq overflowed: sq_approx */
	long double	 sq_approx;
	int64_t		 role_busy[NROLES], role_sum[NROLES];
	uint64_t	 role_n[NROLES];
	int64_t		 wall_sum, ksum, busy;
	int64_t		 cost, idle, gap, pbusy[NPARTS], psum[NPARTS];
	int64_t		 pcost[NPARTS];
	/* the collapsed kernel sequence of the first complete layer */
	uint32_t	*seq_name, *seq_track, *seq_rep;
	int64_t		*seq_dur;
	size_t		 nseq;
	int64_t		 seq_layer, seq_pass;
	int		 seq_final;	/* from a layer that is not a last one */
};

/* A merged interval list that is cut from the front as time passes. */
struct lrun {
	int64_t		*s, *e;
	size_t		 n, cap;
};

/* A stream of a dev: what runs on it, for its role. */
struct lstream {
	char		*track;
	uint64_t	 n;
	int64_t		 sum, comm, aicpu;
	struct lrun	 run;		/* its busy intervals, not yet summed */
	int64_t		 busy;		/* union of its kernels, summed */
};

/*
 * What step records say of a dev, kept apart from its state so that a
 * dev with steps and no kernel (a host-only or communication-only rank)
 * gets no summary: the last prof-steps window (for step_share_ratio)
 * and the host step records seen (ProfilerStep#N).
 */
struct lwin {
	char		*name;		/* step column of the last window */
	int64_t		 dur;
	int64_t		 hsteps;
};

/* The per-dev state. */
struct ldev {
	const char	*name;		/* kept by the devtab */
	/* kernels held: the open layer's, or the detection window */
	struct lkern	*k;
	size_t		 nk, kcap;
	/* the open pass */
	struct srec	*pass_rec;
	int64_t		 pass_ts, pass_idx, pass_rule;
	int		 pass_dir;
	char		*pass_step;	/* step column of its first marker */
	int64_t		*gaps;		/* marker-to-marker starts */
	size_t		 ngaps, gapcap;
	int64_t		*mdur;		/* marker durations */
	size_t		 nmdur, mdcap;
	int64_t		 ref_gap;	/* median gap of the last pass */
	int64_t		 ref_gap_dir[3];	/* ... of the last of each DIR_ */
	int64_t		 prev_fwd_mdur;	/* median marker dur, last fwd pass */
	int		 prev_phase;
	int64_t		 pass_layers, pass_kern, pass_ksum, pass_busy;
	int64_t		 pass_end;
	struct lcost	 pass_cost;
	int64_t		 micro;		/* the pass's index in its step */
	int64_t		 fwd_layers_max;	/* layers of the longest forward */
	int		 last_dir;	/* of the last pass closed */
	uint64_t	 chk_n[NCHECK], chk_layers[NCHECK];
	uint64_t	 type_layers[NLTYPES], sample_layers;
	/* the open layer */
	struct srec	*layer_rec;
	int64_t		 layer_ts, layer_idx, marker_dur;
	int64_t		 mark_ts;	/* its latest marker (a CNN's head has
					   one per linear layer) */
	uint32_t	 marker_track;
	int		 layer_unit;	/* LT_CONV, LT_LINEAR: a unit's type */
	int64_t		 layer_gap;	/* device idle before its marker */
	struct ival	*carry;		/* device busy carried into it */
	size_t		 ncarry, carrycap;
	int64_t		 deadline;	/* pass closes when input passes it */
	/* the first pass's record, until the second closes (cut_start) */
	struct srec	*first_rec;
	int64_t		 first_layers;
	int64_t		 first_wait;	/* a second pass starting later: none */
	int		 at_end;	/* the input ended: no later marker */
	/* kernels still running: the device busy a new marker inherits */
	int64_t		 last_end;	/* the latest kernel end so far */
	int64_t		 nkseen;	/* kernels gone through live_add */
	/* the open convolution or linear run (FAM_CONV) */
	struct lkern	*run;
	size_t		 nrun, runcap;
	int		 run_conv, run_bwd, run_gemm;
	char		*run_step;
	/* the next marker's inherited busy time and gap (live_carry) */
	struct ival	*mk_carry;
	size_t		 nmk_carry, mk_carrycap;
	int64_t		 mk_gap;
	int		 next_unit;	/* its unit type (FAM_CONV) */
	int		 next_normbefore, layer_normbefore, run_normbefore;
	int		 next_recompute, layer_recompute;
	int64_t		 layer_linear;	/* linear units in the open head */
	int64_t		 pass_recompute;	/* recomputed units in the pass */
	int		 norm_seen;	/* a norm since the last run */
	int		 prev_unit;	/* type of the last unit of the pass */
	struct lwin	*win;		/* its steps, kept apart (below) */
	/* passes per step (macro steps) */
	char		*micro_step;
	int64_t		 micro_n[3], micro_max[3], macro_steps;
	/* detection window (no marker seen yet on this dev) */
	int		 family;	/* FAM_ */
	int		 seen_marker;
	int		 detected;	/* the anchor came from detection */
	uint32_t	 anchor;	/* detected anchor name id */
	int64_t		 period;	/* its period, in kernels */
	int		 anchor_dir;	/* the direction its name says */
	int64_t		 confidence_ppm;
	int		 detect_ran;
	/* the conv family's evidence: units and their shape */
	int64_t		 conv_units, conv_shaped, res_blocks_max, stages_max;
	int64_t		 res_passes;
	int64_t		 cv_layers, cv_norm_layers, cv_norm;	/* this pass */
	char		*win_step;
	int64_t		 win_hsteps;	/* host step records during it */
	/* whole-capture summary */
	/*
	 * Per layer type: the open pass's layers, and per phase; NULL until
	 * the device has a layer (a job of 100,000 ranks without markers
	 * must not cost 20 KB a rank): reach them through ldev_pend() and
	 * ldev_type().
	 */
	struct ltype	*pend;		/* [NLTYPES] */
	struct ltype	*types;		/* [NPHASES * NLTYPES] */
	int64_t		 npasses, nlayers, nmarkers, ndir[3];
	int64_t		 nprefill, ndecode, nphase_layers[NPHASES];
	int64_t		 nkernels;
	struct medq	 layers_per;	/* layers of each pass */
	int64_t		 lp_last, lp_max;
	size_t		 nlp;
	struct lstream	*streams;
	size_t		 nstreams;
	struct lrun	 comm, comp;
	int64_t		 comm_union, comm_overlap, comm_sum;
	int64_t		*pair;		/* stream overlaps, paircap^2 */
	size_t		 paircap, nruns;
};

/* Options, set once in main(). */
struct lopts {
	char		**markers;	/* -m patterns, NULL: the defaults */
	size_t		  nmarkers;
	int64_t		  gap_ppm;	/* -g as a millionth fraction */
	int		  detect;	/* -d: 0 auto, 1 always */
	int64_t		  window;	/* -w: detection window in kernels */
	int64_t		  min_conf_ppm;	/* -c */
	const char	 *min_conf_text;
	int64_t		  period;	/* -p: force the detected period */
	int		  no_conv;	/* -C: no convolution units */
};

extern struct lopts	 lopts;
extern struct stage	*lst;

/*
 * The columns prof-layers reads and adds, bound by stage_open() from the
 * table in prof-layers.c (-1: the input lacks one read); every file
 * reaches them by stage_columns(lst).
 */
struct layers_cols {
	/* added */
	int	pass, layer, ltype, phase, rule, layers, kcount, ksum, busy;
	int	mdur, mmean, expect, perlayer, min, median, max, cv, share;
	int	seq, repeat, value, tags, cost, mix, idle, gap, between;
	int	share_step, micro, res, stage, nres, nstages, nrecompute;
	int	evidence;
	int	pcol[NPARTS][4];	/* PART_*: wall, busy, sum, cost */
	/* read */
	int	step, type, core, wait;
};

/* layers-names.c */
uint32_t	 names_intern(const char *, size_t, const char *, size_t,
		    const char *, size_t);
const struct lname *names_get(uint32_t);
int		 names_marker_dir(const char *, size_t, const char *, size_t);
int		 names_anchor_dir(uint32_t);
const char	*names_class(int);
int		 names_nclass(void);
extern const char *const role_names[NROLES];
extern const char *const ltype_names[NLTYPES];
extern const char *const check_names[NCHECK];
extern const char *const phase_names[NPHASES];
extern const unsigned check_flags[NCHECK];

/* layers-pass.c */
void		 pass_kernel(struct ldev *, struct lkern *, const char *,
		    size_t);
void		 pass_tick(struct ldev *, int64_t);
void		 pass_finish(struct ldev *);
void		 held_push(struct ldev *, struct lkern *);
void		 pass_marker(struct ldev *, struct lkern *, int, const char *,
		    size_t, int);
void		 let_go(struct lkern *);
void		 live_add(struct ldev *, const struct lkern *);
void		 live_carry(const struct ldev *, int64_t, struct ival **,
		    size_t *, size_t *, int64_t *);
void		 pass_step_change(struct ldev *, const struct lkern *,
		    const char *, size_t);

/* layers-conv.c */
void		 conv_kernel(struct ldev *, struct lkern *, const char *,
		    size_t);
void		 conv_flush(struct ldev *);
int		 conv_is_start(const struct lname *);
int64_t		 conv_confidence(const struct lkern *, size_t, int64_t *);
void		 conv_blocks(struct ldev *, struct srec **, const unsigned *,
		    size_t);

/* What close_layer notes of a conv-family layer, for conv_blocks. */
#define LM_CONV		0x1	/* a convolution unit */
#define LM_ADD		0x2	/* a tensor-tensor add after its run */
#define LM_POOL		0x4	/* pooling after its run */
#define LM_HEAD		0x8	/* a CNN's head (its linear layers) */

/* layers-cost.c */
void		 cost_layer(struct ldev *, const struct lkern *, size_t,
		    int64_t, int64_t, struct lcost *);
void		 cost_add(struct lcost *, const struct lcost *, int);
void		 cost_put(struct srec *, const struct lcost *);
void		 cost_share(const struct ldev *, struct srec *, int64_t);
int64_t		 busy_sorted(const struct ival *, size_t, int64_t *);
struct ival	*cost_scratch(size_t);

/* layers-detect.c */
void		 detect_window(struct ldev *, int);

/* layers-sum.c */
void		 sum_layer(struct ldev *, int, const struct lkern *, size_t,
		    int64_t, int64_t, int64_t, int64_t, int);
void		 sum_pass(struct ldev *, int);
void		 sum_kernel(struct ldev *, const struct lkern *, unsigned);
void		 sum_dev(struct ldev *);
uint32_t	 stream_of(struct ldev *, const char *, size_t);
const char	*stream_name(const struct ldev *, uint32_t);
int64_t		 median_of(int64_t *, size_t);
int64_t		 mean_of(const int64_t *, size_t);

/* D's summary of layer type T in the open pass, or in phase PH. */
struct ltype	*ldev_pend(struct ldev *, int);
struct ltype	*ldev_type(struct ldev *, int, int);
/* Whether D has layers of type T in phase PH. */
int		 ldev_has_type(const struct ldev *, int, int);

#endif
