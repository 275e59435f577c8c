/*
 * prof-render: what the formats share.  The stream is read once into a
 * small model (render-model.c): the summary records the stages wrote
 * (windows with their per-step metrics, group statistics, capture gap
 * metrics, causes, the costliest ops) and the longest bubbles of each
 * rank.  Every format is a function from the model to text; only the
 * Chrome trace needs every record, and it is written while reading.
 */
#ifndef PROF_RENDER_H
#define PROF_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tsvr;

/* Per-step metrics kept from prof-steps and prof-bubbles, by index. */
enum {
	SM_SERVICE, SM_BUSY, SM_UNDERFEED, SM_UNDERFEED_RATIO, SM_PRELAUNCH,
	SM_TAIL, SM_INTERNAL, SM_LARGEST, SM_BUBBLES, SM_INTER_STEP,
	SM_KERNELS, SM_SIGNIFICANT, SM_N
};
extern const char *const render_step_metric[SM_N];

/* A named value (metric name and its text as written). */
struct rkv {
	char	*name;
	char	*value;
};

/* A window record with the metrics written at its start. */
struct rstep {
	char	*step, *name, *group, *tags, *cat;
	int64_t	 ts, dur;
	char	*m[SM_N];
};

/* A step group: group record, its statistics, its bubble_group. */
struct rgroup {
	char		*id;
	char		*size;		/* number of steps, as written */
	int		 dominant;
	struct rkv	*stat;		/* service_ns_avg, ... */
	size_t		 nstat;
	char		*pattern;	/* bubble_group name */
	char		*pattern_tags;
};

/* What the host was doing during a gap (prof-attrib's idle_*_ns). */
enum { HC_SYNC, HC_INPUT, HC_LAUNCH, HC_HOST, HC_UNTRACED, HC_N };
extern const char *const render_host_class[HC_N];

/* A bubble record with the columns the reports show. */
struct rbubble {
	int64_t	 ts, dur;
	char	*id, *scope, *step, *group, *tags, *labels;
	char	*host_cov, *sync_cov, *comm_cov, *host_par;
	char	*prev_name, *prev_core, *prev_dur, *prev_track;
	char	*next_name, *next_core, *next_dur, *next_track;
	char	*host_top;		/* "RATIO NAME;RATIO NAME" */
	char	*idle[HC_N];		/* idle_sync_ns, ... */
};

/* A verdict record of prof-verdict (scope run, or group). */
struct rverdict {
	char	*cls, *scope, *group, *steps, *share, *stake, *window;
	char	*confidence, *second, *second_ratio, *mfu, *mfu_cov, *chip;
	char	*pipe, *evidence, *tags;
};

/* A budget record: one part of a scope's window time (run or group). */
struct rbudget {
	char	*part, *scope, *group, *steps, *budget, *per_step, *share;
	char	*window;
};

/* An advice record: one recommendation of prof-verdict. */
struct radvice {
	int64_t	 rank;			/* 1 first */
	char	*name, *prio, *scope, *target, *stake, *share, *evidence;
	char	*text, *followup;
};

/* A hostcov record: a host event during the idle time of a scope. */
struct rhostcov {
	char	*name, *scope, *step, *group, *cls, *covered, *share;
};

struct rcause {
	char	*label, *value, *confidence, *scope, *target, *evidence;
	char	*followup, *tags;
};

struct rop {
	char	*name, *core, *calls, *dur_avg, *wait_avg, *cost_avg;
	char	*cost_total, *wait_ratio, *rank_cost, *rank_dur, *masked;
	char	*tags;
	int64_t	 rank;
};

/* A top gap of the whole capture (prof-bubbles' top_gap_* metrics). */
struct rgap {
	int64_t	 start, dur;
	char	*bubble_id;
};

/* A time range drawn on the timeline chart. */
struct rspan {
	int64_t	 ts, dur;
	int	 what;		/* 0 window, 1 busy, else label index + 2 */
};

/* A kernel placed on the roofline chart. */
struct rpoint {
	double	 ai, flops_s;
	int64_t	 dur;
	char	*name, *bound;
};

/*
 * A layer record (prof-layers), to place bubbles in the structure, and
 * its idle time and block and side (-1: the column is absent).
 */
struct rlayer {
	int64_t	 ts, dur;
	char	*name, *pass, *layer, *mix;
	int64_t	 idle, gap, bbusy, sbusy, bcost, scost;
	int	 kept;		/* in the device's layers, which own its text */
};

#define RENDER_LAYERS_KEPT	65536
#define RENDER_IDLEST		5
/* The drill-down's order of layers: most idle (inside and before) first. */
int	 rlayer_idle_cmp(const struct rlayer *, const struct rlayer *);

/* A layer_type summary record (prof-layers): where its costs lie. */
struct rltype {
	char	*name, *phase;
	int64_t	 n, idle, gap, bbusy, sbusy, bcost, scost;
};

/* AI CPU classes counted on kernel records. */
enum { AC_MASKED, AC_PARTIAL, AC_EXPOSED, AC_RISK, AC_N };
extern const char *const render_aicpu_tag[AC_N];

/* Everything known about one device (rank). */
struct rdev {
	char		*id;
	struct rstep	*steps;
	size_t		 nsteps, capsteps;
	struct rgroup	*groups;
	size_t		 ngroups;
	struct rkv	*cap;		/* capture_* and largest_gap_ns */
	size_t		 ncap;
	char		*largest_gap_tags;
	struct rgap	*gaps;
	size_t		 ngaps;
	struct rbubble	*top;		/* longest first, at most opts.top */
	size_t		 ntop;
	uint64_t	 nbubbles, nscope[4];
	struct rcause	*causes;
	size_t		 ncauses;
	struct rop	*ops;		/* cost rank <= opts.ops, or tagged */
	size_t		 nops;
	uint64_t	 nkernel, nhost, ncomm, naicpu, nkind_other, nbusy;
	uint64_t	 aicpu[AC_N];
	struct rkv	*flags;		/* wait_recorded, variable_shape_... */
	size_t		 nflags;
	struct rspan	*spans;		/* for the timeline chart */
	size_t		 nspans, capspans;
	struct rpoint	*points;	/* for the roofline chart */
	size_t		 npoints;
	/*
	 * Layer records for the drill-down: the first RENDER_LAYERS_KEPT
	 * (a period over a whole capture makes hundreds of thousands), and
	 * the RENDER_IDLEST with the most idle of all, most first.
	 */
	struct rlayer	*layers;
	size_t		 nlayers;
	uint64_t	 layers_past;	/* layers after the kept ones */
	struct rlayer	 idlest[5];
	size_t		 nidlest;
	struct rltype	*ltypes;	/* layer_type records */
	size_t		 nltypes;
	struct rverdict	*verdict;	/* the run's, or NULL */
	struct rverdict	*gverdicts;	/* per step group */
	size_t		 ngverdicts;
	struct rbudget	*budget;	/* run and group scopes */
	size_t		 nbudget;
	struct radvice	*advice;	/* in rank order */
	size_t		 nadvice;
	struct rhostcov	*hostcov;	/* group scope, and step scope */
	size_t		 nhostcov;
};

/* A derived kind with extent seen in the stream (layer, pass, ...). */
struct rkind {
	char		*name;
	uint64_t	 n;
};

struct rmodel {
	const char	*path;
	char		*origin;	/* #origin_ns, or NULL */
	char		*name;		/* the profile's name for file names */
	char	       **stages;	/* "#stage" programs, in order */
	size_t		 nstages;
	char	       **sources;	/* "#source" lines */
	size_t		 nsources;
	struct rdev    **devs;
	size_t		 ndevs;
	struct rkind	*kinds;
	size_t		 nkinds;
	char	       **labels;	/* bubble labels seen, for colours */
	size_t		 nlabels;
	struct rkv	*peaks;		/* peak_* metrics, for the roofline */
	size_t		 npeaks;
	char		*peak_chip, *peak_tags;	/* of the first peak */
	int		 has_roofline;	/* kernels with ai and flops seen */
	int		 has_verdict;	/* verdict records seen */
	int		 has_advice;	/* advice records seen */
	int		 verdict_ran;	/* those, or a prof-verdict #stage */
	uint64_t	 nrecords;
	int		 damaged;	/* the input stopped at a bad record */
};

struct render_opts {
	size_t		 top;		/* bubbles per rank */
	size_t		 ops;		/* ops per rank by cost rank */
	size_t		 steps;		/* step rows in md and text */
	int		 spans;		/* keep spans for the timeline */
	int		 points;	/* keep kernels for the roofline */
	size_t		 maxpoints;
	const char	*name;		/* -N */
	int		 warn_roof;	/* say on stderr the roofline is empty */
	int		 chrome;	/* CHROME_GZIP, CHROME_DEVICE_ONLY */
	const char	*step;		/* --step: the step shown, or NULL */
};

struct arch;
struct chrome_out;
struct ranks;

/*
 * What a writer is given: where to write, the model read from the
 * stream, the options, and what was gathered while reading for the
 * formats that need more than the model (the architecture report's
 * records, the Chrome trace being written).
 */
struct rctx {
	FILE			*out;
	const struct rmodel	*m;
	const struct render_opts *opts;
	struct arch		*arch;
	struct chrome_out	*chrome;
	struct ranks		*ranks;		/* prof-cluster's records */
	struct opsview		*ops;		/* prof-ops', the simulator's */
	int			 width;		/* -f text's columns */
};

/* What a format needs while the stream is read. */
#define RF_SPANS	0x01	/* the timeline's spans */
#define RF_POINTS	0x02	/* the roofline's kernels */
#define RF_ARCH		0x04	/* prof-layers' records (arch_record) */
#define RF_STREAM	0x08	/* written while reading (the Chrome trace) */
#define RF_SAY		0x10	/* -o names the file on stderr */

/*
 * An output format: -f NAME (-c CHART for the charts), the file -o
 * writes (STEM_PROFILE.EXT), what it is, and its writer.
 */
struct rformat {
	const char	*name;
	const char	*chart;
	const char	*stem;
	const char	*ext;
	const char	*what;
	unsigned	 needs;
	void		(*write)(struct rctx *);
};
extern const struct rformat render_formats[];

/*
 * render-model.c.  model_read() stops at a damaged record, after its
 * diagnostic, with m->damaged set: the reports are made from the
 * records before it, and the program then exits 1.
 */
typedef void	 render_hook(const struct tsvr *, void *);
void		 model_read(struct rmodel *, const char *,
		    const struct render_opts *, render_hook *, void *);
int		 model_stage_ran(const struct rmodel *, const char *);
const char	*model_cap(const struct rdev *, const char *);
const char	*model_stat(const struct rgroup *, const char *);
struct rgroup	*model_dominant(const struct rdev *);
const struct rdev *model_dev(const struct rmodel *, const char *);
struct rkind	*model_kind(const struct rmodel *, const char *);

/* render-util.c */
size_t		 dec_scale(const char *, int, char *, size_t);
int		 dec_valid(const char *);
int		 tag_has(const char *, const char *);
void		 put_ms(FILE *, int64_t, int);
void		 put_us(FILE *, int64_t);
void		 put_scaled(FILE *, const char *, int);
void		 put_dec(FILE *, const char *, int, int);
void		 put_json_str(FILE *, const char *);
/*
 * The well-formed UTF-8 character at P, or 0 (counted in
 * render_bad_utf8) with *SKIP the bytes one U+FFFD replaces.
 */
size_t		 render_utf8(const char *, size_t *);
extern size_t	 render_bad_utf8;
void		 put_json_num(FILE *, const char *, int);
void		 put_md(FILE *, const char *);
const char	*certainty(const char *);
void		 put_pct(FILE *, const char *);
size_t		 text_width(const char *);
#define NAME_MAX_COLS	60	/* kernel names in human formats */
const char	*name_short(const char *, char *, size_t, size_t);
void		 put_name(FILE *, const char *);
void		 put_md_name(FILE *, const char *);
char		*text_short(const char *);
int		 dec_cmp(const char *, const char *);

/* render-verdict.c: prof-verdict's records in words. */
enum {
	RP_BUSY_COMPUTE, RP_BUSY_MEMORY, RP_BUSY_LATENCY, RP_BUSY_UNCLASSED,
	RP_COMM_HIDDEN, RP_COMM_EXPOSED, RP_IDLE_SYNC, RP_IDLE_INPUT,
	RP_IDLE_LAUNCH, RP_IDLE_HOST, RP_IDLE_UNTRACED, RP_N
};
extern const char *const render_part[RP_N];
extern const char *const render_part_words[RP_N];
const char	*verdict_words(const char *);
const char	*verdict_about(const char *);
const char	*verdict_words_of(const struct rverdict *);
const char	*verdict_about_of(const struct rverdict *);
int		 dev_nodata(const struct rdev *);
int		 dev_incore(const struct rdev *);
int		 dev_timeline(const struct rdev *);
void		 put_mfu(FILE *, const struct rverdict *);
const struct rbudget *budget_part(const struct rdev *, const char *,
		    const char *, const char *);
int		 budget_has(const struct rdev *);
char		*verdict_line(const struct rdev *);

/* Capture idle = steps' idle - window time outside the span + rest. */
struct ridle {
	int64_t	 capture, steps, outside, rest;
	size_t	 nsteps;
};
int		 idle_reconcile(const struct rdev *, struct ridle *);
void		 put_idle_sentence(FILE *, const struct ridle *);

/* A recommendation: an advice record, with the ranks that have it. */
struct rrec {
	const struct radvice	 *a;		/* the first rank's */
	int64_t			  rank;		/* the best of its ranks' */
	size_t			  first, seq;	/* for the order */
	char			 *devs;		/* "0,1" */
	const struct radvice	**all;		/* one per rank */
	const struct rdev	**alldev;
	size_t			  n;
};
size_t		 recs_build(const struct rmodel *, struct rrec **);
void		 recs_free(struct rrec *, size_t);
int		 rec_has_stake(const struct rrec *);
void		 put_rec_stake(FILE *, const struct rrec *);
void		 put_rec_share(FILE *, const struct rrec *);
void		 put_rec_evidence(FILE *, const struct rrec *,
		    void (*)(FILE *, const char *));
void		 put_host_top(FILE *, const char *,
		    void (*)(FILE *, const char *));
void		 put_idle_split(FILE *, const struct rbubble *);
/*
 * render-step.c: the step the single-step views show (--step, else the
 * busiest: the most device busy time, the earliest on a tie).
 */
struct rstepsel {
	const char	*step;		/* NULL: none to show */
	const char	*named;		/* --step's value, or NULL */
	int64_t		 busy;		/* summed over its ranks; -1 unknown */
	int64_t		 ts;		/* its earliest window start */
	size_t		 nsteps;	/* step ids in the stream */
	size_t		 nranks;	/* ranks with a window of it */
	char		 off[128];	/* ranks where it is not of the
					   dominant step group: "0, 1" */
};
int		 render_step_pick(const struct rmodel *, const char *,
		    struct rstepsel *);
void		 render_step_reason(FILE *, const struct rstepsel *);
const char	*render_step_how(const struct rstepsel *);

/* render-mdverdict.c */
void		 md_verdict(struct rctx *);
void		 md_group_verdicts(struct rctx *);
void		 md_recommendations(struct rctx *);

/* The writers of the formats (render_formats[] in prof-render.c). */
void		 render_md(struct rctx *);
void		 render_md_findings(struct rctx *);
void		 render_json(struct rctx *);
void		 render_text(struct rctx *);
void		 render_html(struct rctx *);
void		 render_svg_timeline(struct rctx *);
void		 render_svg_breakdown(struct rctx *);
void		 render_svg_ranks(struct rctx *);
void		 render_svg_roofline(struct rctx *);
void		 svg_header(struct rctx *, double, const char *);
void		 svg_text(struct rctx *, const char *);
void		 render_chrome(struct rctx *);
void		 render_arch(struct rctx *);

/* render-chrome.c: written while the model is read. */
#define CHROME_GZIP		0x01	/* -z: gzip the trace */
#define CHROME_DEVICE_ONLY	0x02	/* --device-only: no host side */
struct chrome_out *chrome_open(FILE *, int);
void		 chrome_record(const struct tsvr *, void *);
void		 chrome_close(struct chrome_out *, const struct rmodel *);

/*
 * -f arch: the architecture report.  The records of prof-layers are kept
 * while the stream is read (arch_record, a render_hook), by dev, with
 * the columns the report shows as text (render-arch.c); the sections are
 * written from them: the configuration in render-arch.c, the evidence,
 * passes, layer types and cross-checks in render-archtab.c, the layer
 * structure, decode, communication and variation in render-archsec.c,
 * the summary box and timeline in render-archsum.c.
 */
enum {
	A_TS, A_DUR, A_TRACK, A_NAME, A_PASS, A_LAYER, A_LTYPE, A_PHASE,
	A_RULE, A_LAYERS, A_KCOUNT, A_KSUM, A_BUSY, A_MDUR, A_MMEAN, A_VALUE,
	A_EXPECT, A_PERLAYER, A_MIN, A_MEDIAN, A_MAX, A_CV, A_SHARE, A_SEQ,
	A_REPEAT, A_TAGS, A_COST, A_MIX, A_BWALL, A_BBUSY, A_BSUM, A_BCOST,
	A_SWALL, A_SBUSY, A_SSUM, A_SCOST, A_IDLE, A_GAP, A_BETWEEN,
	A_SSHARE, A_STEP, A_MICRO, A_RES, A_STAGE, A_NRES, A_NSTAGES,
	A_EVIDENCE, A_N
};
struct arow {
	char	*f[A_N];
	char	*block;		/* the one allocation the fields point into */
};
struct arows {
	struct arow	*v;
	size_t		 n, cap;
};
enum { AR_PASS, AR_LAYER, AR_CHECK, AR_LTYPE, AR_ROLE, AR_SEQ, AR_STREAM,
	AR_OVL, AR_METRIC, AR_MODEL, AR_N };
struct adev {
	char		*id;
	struct arows	 r[AR_N];
	int64_t		 kfirst, kend;	/* first kernel start, last end */
	uint64_t	 nk;
};
struct arch	*arch_open(void);
void		 arch_close(struct arch *);
void		 arch_record(const struct tsvr *, void *);
char		*arch_profile_dir(const struct rmodel *);
void		 arch_hint_line(const char *, char *, size_t);
const char	*arch_metric(const struct adev *, const char *);
const char	*arch_metric_or(const struct adev *, const char *,
		    const char *);
void		 arch_pct(FILE *, const char *);
void		 arch_mix(FILE *, const char *);
const struct arow *arch_model(const struct adev *);
int		 arch_is(const struct adev *, const char *);
void		 arch_seconds(FILE *, int64_t);
/* render-archtab.c */
void		 arch_evidence(struct rctx *, const struct adev *);
void		 arch_passes(struct rctx *, const struct adev *);
void		 arch_layer_types(struct rctx *, const struct adev *);
void		 arch_crosscheck(struct rctx *, const struct adev *);
/* render-archsec.c */
void		 arch_kname(FILE *, const char *, size_t);
void		 arch_tree(struct rctx *, const struct adev *,
		    const struct arow *);
void		 arch_substructure(struct rctx *, const struct adev *);
void		 arch_decode(struct rctx *, const struct adev *);
void		 arch_comm(struct rctx *, const struct adev *);
void		 arch_variation(struct rctx *, const struct adev *);
void		 arch_costs(struct rctx *, const struct adev *);
void		 arch_idle(struct rctx *, const struct adev *);
/* render-archsum.c */
void		 arch_summary(struct rctx *, const struct adev *);

/* render-ranks.c: prof-cluster's records, for "Across ranks" */
enum { RK_RANK_STEP, RK_STEP_SKEW, RK_COLLECTIVE, RK_RANK_WAIT, RK_CLUSTER,
	RK_NKIND };
enum { RC_DEV, RC_NAME, RC_STEP, RC_RANKS, RC_STEP_NS, RC_MIN, RC_MEDIAN,
	RC_MAX, RC_SKEW, RC_SLOW, RC_FAST, RC_LAST, RC_ARRIVAL, RC_WAITED,
	RC_CAUSED, RC_MATCHED, RC_LAST_COUNT, RC_EVIDENCE, RC_TAGS,
	RC_COMPUTE, RK_NCOL };
struct ranks	*ranks_open(void);
void		 ranks_close(struct ranks *);
void		 ranks_record(const struct tsvr *, void *);
int		 ranks_kind(const char *);
size_t		 ranks_count(const struct ranks *, int);
const char	*ranks_get(const struct ranks *, int, size_t, int);
void		 md_ranks(struct rctx *);

/* render-json.c: its writer, for the members other files write */
struct jw;
void		 jw_key(struct jw *, const char *);
void		 jw_open(struct jw *, int);
void		 jw_close(struct jw *, int);
void		 jw_str(struct jw *, const char *);
void		 jw_strnull(struct jw *, const char *);
void		 jw_num(struct jw *, const char *, int);
void		 jw_null(struct jw *);
void		 jw_bool(struct jw *, int);

/* render-ops.c: the Ops section (prof-ops, the op simulator's cycles) */
typedef void	 render_line(struct rctx *, const char *, size_t);
struct opsview	*opsv_open(void);
void		 opsv_close(struct opsview *);
void		 opsv_record(const struct tsvr *, void *);
int		 opsv_any(const struct opsview *);
void		 md_ops(struct rctx *);
void		 text_ops(struct rctx *, render_line *);
void		 json_ops(struct jw *, struct rctx *);

#endif
