/*
 * prof-roofline internals shared by its files: the chip peak table
 * (roofline-peaks.c), FLOP and byte estimates from shapes and dtypes
 * (roofline-est.c), Ascend PMU pipe ratios and op-simulator pipe lanes
 * (roofline-pipe.c), the group, step and run sums with the bottleneck
 * rule (roofline-sum.c), and the stage loop (prof-roofline.c).
 *
 * Every quantity is an integer: FLOPs, bytes, nanoseconds, FLOP/s and
 * bytes/s; times at the roof are kept in picoseconds so that the sums
 * over many short kernels do not lose what one nanosecond would round.
 */
#ifndef ROOFLINE_H
#define ROOFLINE_H

#include <stddef.h>
#include <stdint.h>

#include "num.h"

struct stage;
struct rf_acc;		/* sums of a group, step or run */

/*
 * The columns prof-roofline reads and adds, bound by stage_open() from
 * the table in prof-roofline.c (-1: the input lacks one read); every
 * file reaches them by stage_columns().
 */
struct rf_cols {
	/* added, in their order */
	int	flops, bytes, dtype, ai, bound, bsrc, pipe, pratio, mfu, bw;
	int	roof, shortfall, ridge, srcop, scope, calls, durt, cov, busy;
	int	chip, evid, value, step, tags;
	/* read */
	int	type, core, pmu, labels, cat, ext, corr, ish, idt, osh, odt;
};

/* A word of a lookup table and the value it stands for. */
struct rf_word {
	const char	*s;
	size_t		 len;
	int		 v;
};
#define RF_WORD(s, v)	{ s, sizeof(s) - 1, v }

/*
 * The value of word S (N bytes) in a table of NT words, with case
 * folded when FOLD; DFLT when it is not there.
 */
int		 rf_word_find(const struct rf_word *, size_t, const char *,
		    size_t, int, int);

/* ---- peaks ---- */

/* The dtypes a peak is given for, in table order. */
enum rf_dtype {
	DT_FP32, DT_TF32, DT_BF16, DT_FP16, DT_FP8, DT_INT8, DT_NPEAK,
	/* Known element sizes without a peak of their own. */
	DT_FP64 = DT_NPEAK, DT_INT16, DT_INT32, DT_INT64, DT_BOOL, DT_UINT8,
	DT_NDTYPE,
	DT_NONE = -1
};

struct rf_chip {
	const char	*name;
	int64_t		 flops[DT_NPEAK];	/* dense FLOP/s, 0: none */
	int64_t		 bw;			/* HBM bytes/s, 0: none */
	const char	*desc;			/* what it is, for -c list */
};

/* The peaks in use: a chip from the table, then overrides. */
struct rf_peaks {
	char		 name[64];		/* "" when no chip */
	int64_t		 flops[DT_NPEAK];
	int64_t		 bw;
	char		 tag[48];		/* where the chip came from */
	char		 device[64];		/* a device not in the table */
};

const char	*rf_dtype_name(int);
/* The dtype of a peak name ("bf16"), or DT_NONE. */
int		 rf_dtype_parse(const char *);
/* The dtype of a trace dtype string (DT_BF16, c10::BFloat16, float...). */
int		 rf_dtype_of(const char *, size_t);
/* Element size in bytes of a dtype, 0 when unknown. */
int		 rf_dtype_size(int);

/* Set P from chip NAME (case-insensitive, '-' and '_' alike); 0: unknown. */
int		 rf_chip_set(struct rf_peaks *, const char *);
/*
 * The built-in chip that a device record names (NAME, memory BYTES or
 * -1), or NULL when none matches without doubt.
 */
const char	*rf_chip_of_device(const char *, int64_t);
/* Print the built-in table (and P's overrides) as TSV on stdout. */
void		 rf_chip_list(void);
/* Read a peaks file into P: lines "chip dtype flops_per_s hbm_bytes_per_s". */
void		 rf_peaks_file(struct rf_peaks *, const char *);
/* Apply "--peak-flops DTYPE=N"; usage error when bad. */
void		 rf_peak_flops_opt(struct rf_peaks *, const char *);

/* ---- estimates ---- */

#define RF_MAXDIM	8
#define RF_MAXT		32

/* One tensor of a shape list. */
struct rf_tensor {
	int		 nd;		/* -1: not a tensor (scalar, list, bad) */
	int64_t		 d[RF_MAXDIM];
	int		 dt;		/* dtype, DT_NONE when unknown */
};

struct rf_shapes {
	struct rf_tensor in[RF_MAXT], out[RF_MAXT];
	int		 nin, nout;
};

/* What an op's estimate is. */
enum rf_kind {
	OPK_NONE,	/* no FLOP model */
	OPK_GEMM,	/* mm, matmul, linear, MatMul* (A = in[0], B = in[1]) */
	OPK_ADDMM,	/* addmm, baddbmm (A = in[1], B = in[2]) */
	OPK_LINEAR,	/* linear: W is [N, K] */
	OPK_GROUPED,	/* grouped GEMM */
	OPK_ATTN,	/* flash attention forward, 3-D S-first or BNSD */
	OPK_ATTN_BSND,	/* flash_attn library forward: [B, S, N, D] */
	OPK_ATTN_BWD,	/* attention backward: 2.5 x forward */
	OPK_ATTN_BSND_BWD,
	OPK_CONV,	/* convolution forward with an output shape */
	OPK_CONV_BWD_IN,	/* gradient of the input */
	OPK_CONV_BWD_W,		/* gradient of the weights */
	OPK_MOVE,	/* data movement: no FLOPs */
	OPK_FILL,	/* writes its output only */
	OPK_GATHER,	/* reads indices and the rows it writes */
	OPK_ELTWISE	/* one FLOP per output element */
};

/* An estimate: FLOPs and bytes, -1 when unknown; why in NOTE. */
struct rf_est {
	int64_t		 flops, bytes;
	int		 dt;		/* the compute dtype */
	int		 kind;
	int		 in_only;	/* bytes of the inputs only */
	__int128	 out_elems;	/* derived output size, -1 */
	const char	*note;		/* why no FLOPs, or a caveat tag */
};

/* The op kind of a kernel type or host op name. */
int		 rf_op_kind(const char *, size_t);
/*
 * Parse one shapes column (Ascend "4096,1024;4096,1024" or Kineto JSON
 * "[[4096, 1024], [1024]]") and its dtypes column into T (N at most
 * RF_MAXT); returns the number of entries, -1 when unparseable.
 */
int		 rf_parse_shapes(const char *, size_t, const char *, size_t,
		    struct rf_tensor *);
/* Estimate FLOPs and bytes for an op of KIND from S. */
void		 rf_estimate(int, const struct rf_shapes *, struct rf_est *);

/* ---- pipes ---- */

enum rf_pipe {
	P_CUBE, P_VECTOR, P_MTE1, P_MTE2, P_MTE3, P_FIXPIPE, P_SCALAR,
	P_NPIPE, P_NONE = -1
};

const char	*rf_pipe_name(int);
/* The pipe of a simulator lane name (MTE2, CUBE, ...), or P_NONE. */
int		 rf_pipe_of(const char *, size_t);
/*
 * The busiest pipe of a PMU column ("aic_mac_ratio=0.78,..."), its ratio
 * in parts per million in *PPM; P_NONE when no ratio is there.
 */
int		 rf_pmu_pipe(const char *, size_t, int64_t *);
/* Whether an instruction name is a sync (SET_FLAG, WAIT_FLAG, BARRIER). */
int		 rf_is_sync_instr(const char *, size_t);
/* The bound class of a pipe: B_COMPUTE, B_MEMORY or B_LATENCY. */
int		 rf_pipe_bound(int);

/* ---- sums ---- */

/* Bound classes of a kernel. */
enum rf_bound { B_UNKNOWN, B_COMPUTE, B_MEMORY, B_LATENCY, B_NBOUND };

const char	*rf_bound_name(int);

/* What a kernel adds to its op group, step and run. */
struct rf_kern {
	const char	*dev, *key;	/* group key (name, type or host op) */
	size_t		 devlen, keylen;
	const char	*step;
	size_t		 steplen;
	int64_t		 ts, dur;
	int64_t		 flops, bytes;	/* -1 when unknown */
	int64_t		 flop_ps, byte_ps;	/* time at the roofs, -1 */
	int		 dt;
	int		 bound;
	int		 comm;		/* a communication kernel */
	int		 est;		/* flops or bytes estimated */
	struct rf_acc	**group;	/* its op group when last seen, or NULL */
};

struct rf_opts {
	int		 by_type;	/* group by type / host op */
	int		 all_devs;	/* groups across devices */
	int64_t		 tiny_ns;	/* a kernel this short is tiny */
	int64_t		 latency_pct;	/* roof below this % of dur: latency */
	int64_t		 pipe_pct;	/* PMU: no pipe above this %: latency */
	int64_t		 degenerate_ns;	/* simulator: busy below: degenerate */
};

void		 rf_sum_opts(const struct rf_opts *);
void		 rf_sum_kernel(const struct rf_kern *);
/* A window record (prof-steps): the span of (dev, step). */
void		 rf_sum_window(const char *, const char *, int64_t, int64_t);
/* A bubble record: idle time, with prof-attrib labels when present. */
void		 rf_sum_bubble(const char *, const char *, int64_t, int64_t,
		    const char *);
/* A host synchronisation call. */
void		 rf_sum_sync(const char *, const char *, int64_t);
/* A comm record. */
void		 rf_sum_comm(const char *, const char *, int64_t);
/* A simulator pipe instruction. */
void		 rf_sum_pipe(const char *, const char *, int, int64_t, int64_t,
		    int);
/* Write the summary records at END; free everything. */
void		 rf_sum_write(struct stage *, const struct rf_opts *,
		    const struct rf_peaks *, int64_t);


/* ---- what a record's op is (roofline-ops.c) ---- */

#define OPNAME_MAX	64
#define EF_FLOPS_EST	0x01	/* the FLOPs are an estimate */
#define EF_BYTES_EST	0x02	/* the bytes are an estimate */
#define EF_IN_ONLY	0x04	/* bytes of the inputs only */

/* A host op's estimate, by External id. */
struct hostop {
	int64_t		 ext;
	int64_t		 flops, bytes;
	int		 dt, kind, used, set;
	unsigned	 flags;		/* EF_* */
	char		 name[OPNAME_MAX];
};

/* The text of a number, or of the ratio A / B, written for A (and B). */
struct numtext {
	int64_t		 a, b;
	size_t		 len;		/* 0: none */
	char		 s[NUM_BUFSIZE];
};

/*
 * What the name, type, shapes and dtypes of a record alone decide: the
 * estimate from its shapes (FLAGS say which parts are estimates), the
 * text of its FLOPs, bytes and intensity, and what its name says.
 */
struct opfacts {
	struct rf_est	 e;
	unsigned	 flags;		/* EF_* */
	int		 comm;		/* hcom, hccl, nccl or rccl */
	int		 tf32;		/* a TF32 GEMM by its name */
	int		 aux;		/* moves data for a GEMM-like op */
	struct numtext	 flops, bytes, ai;
	char		 tags[96];	/* est_tags() of the estimate */
	size_t		 tagslen;
	struct rf_acc	*group;		/* its kernels' last op group */
};

struct stage;

/* The stage whose records the op code reads. */
void		 rf_ops_open(struct stage *);
void		 rf_ops_close(void);
/* An integer column of the current record, 0 and *ABSENT when empty. */
int64_t		 rf_col_i64(int, int *);
/*
 * The facts of the current record's op (from the memo, else made in
 * SCRATCH) with its estimate copied to E and its EF_* flags to *FLAGS.
 */
struct opfacts	*rf_record_work(struct opfacts *, struct rf_est *, unsigned *);
int		 rf_is_comm_kernel(const struct opfacts *);
/* Remember a Kineto host op or launch record (cat cpu_op, cuda_runtime). */
void		 rf_do_host(void);
/* The host op that launched the current Kineto kernel, or NULL. */
struct hostop	*rf_kernel_hostop(void);
void		 rf_est_tags(char *, size_t, unsigned, const char *);

#endif
