/*
 * prof-attrib internals shared by its files: marker families and their
 * cache (attrib-match.c), normalised host names and name maps
 * (attrib-names.c), the soft labels and the summary cause records
 * (attrib-sum.c), host_top and the hostcov summary (attrib-cov.c), and
 * the stage loop (prof-attrib.c).
 */
#ifndef PROF_ATTRIB_H
#define PROF_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

#include "ival.h"

struct stage;

/* Marker families: a host event may belong to several. */
enum {
	FAM_HOST, FAM_SYNC, FAM_COMM, FAM_LAUNCH, FAM_INPUT, FAM_CPU, FAM_N
};
#define FAM_BIT(f)	(1u << (f))
/*
 * Not a family: a Python frame that matches none.  It is host work in a
 * gap it begins or ends in; one open across the whole gap is only the
 * module around the work (prof-attrib(1), HOST EVENTS).
 */
#define MATCH_FRAME	(1u << FAM_N)

/*
 * The idle classes that partition a bubble, highest first: what the
 * host was doing at each instant (CLS_N: untraced, nothing counted open).
 */
enum {
	CLS_SYNC, CLS_INPUT, CLS_LAUNCH, CLS_HOST, CLS_N
};
/* The class of an event of families MASK, or -1 when it counts as none. */
int		 cls_of(unsigned);
const char	*cls_name(int);

/*
 * Soft labels, in the order they are written: the reference script's,
 * then this program's, insufficient_evidence last (doc/analysis-
 * rules.md, Soft labels).
 */
enum {
	LAB_SYNC, LAB_COMM, LAB_UNTRACED, LAB_LAUNCH, LAB_PYTHON,
	LAB_INPUT_STALL, LAB_SYNC_STALL, LAB_LAUNCH_BOUND, LAB_CPU_WORK,
	LAB_INSUFFICIENT, LAB_N
};
/* The labels that name what the host did, superseding the launch lag. */
#define LAB_SPECIFIC	((1u << LAB_INPUT_STALL) | (1u << LAB_SYNC_STALL) | \
	(1u << LAB_LAUNCH_BOUND) | (1u << LAB_CPU_WORK))

/* Thresholds as millionths (ppm), so that every comparison is exact. */
struct attrib_opts {
	int64_t	sync_min;	/* possible_sync_or_h2d: sync >= */
	int64_t	comm_min;	/* possible_comm_wait: comm >= */
	int64_t	untraced_max;	/* possible_untraced_host_blocking: host < */
	int64_t	launch_min;	/* possible_host_launch_lag: host >= */
	int64_t	par_max;	/* possible_python_serialization: par < */
	int64_t	share_min;	/* a label's share of significant time */
	int64_t	underfeed_min;	/* high underfeed */
	int64_t	clear_min;	/* host coverage of "clear" markers */
	int64_t	significant_ns;	/* floor of the significant bubble */
	int64_t	input_min;	/* input_pipeline_stall: input >= */
	int64_t	stall_min;	/* host_sync_stall: sync >= */
	int64_t	busy_min;	/* launch_bound, host_cpu_work: launch+host >= */
	int64_t	lshare_min;	/* launch_bound: launch >= this of launch+host */
	int64_t	cpu_min;	/* host_cpu_work: cpu family >= */
	int64_t	small_count;	/* many small gaps: per step >= */
	int64_t	small_share;	/* their time over the window time >= */
	int64_t	small_host;	/* launch+host over their time >= */
	int	step_causes;	/* also write step-scope cause records */
	/* ranks outside the stream have device data (a rank pipeline) */
	int	device_elsewhere;
};
extern struct attrib_opts aopt;

/* What one closed bubble measured, in integer ns. */
struct bubble_meas {
	int64_t	dur;
	int64_t	cov[FAM_N];	/* union of each family, clipped */
	/* sum over threads of their host union: up to threads x dur */
	__int128 thr_sum;
	int64_t	idle[CLS_N + 1];	/* the partition; [CLS_N] untraced */
	int	launches;	/* the rank's capture has launch events */
};

/* Name tables of attrib-names.c. */
enum {
	NT_HOST, NT_KERNEL
};

/*
 * A name's covered time: a running union while a bubble is open (and
 * only the end, the name's latest, in a rank's table of running names;
 * only the total, a count, in other tables).
 */
struct ncov {
	uint32_t	 id;
	int		 used;
	struct ival_run	 cov;
};

struct nmap {
	struct ncov	*v;
	size_t		 cap, n;
};

/*
 * The columns prof-attrib reads and adds, bound by stage_open() from the
 * table in prof-attrib.c; every part reaches them by stage_columns().
 */
struct attrib_cols {
	int	cat, step, group, shapes, next;		/* read */
	int	host, sync, comm, par, labels, tags, value, confidence;
	int	scope, target, evidence, followup, idle[CLS_N + 1];
	int	top, host_class, covered, share;
};

/* Where a closed bubble lies, from its record. */
struct bubble_info {
	int64_t			 dev;
	const char		*step, *scope, *group, *next;
	size_t			 slen, sclen, glen, nlen;
	int			 boundary;	/* PARTIAL_CAPTURE_BOUNDARY */
	int64_t			 next_id;	/* NEXT interned, -1: not yet */
	const struct nmap	*names;		/* covered time per name */
};

/* attrib-bub.c */
/*
 * Ranks are told apart by the text of dev (any text): each gets an id,
 * 0, 1, ... in order of first sight, that the summaries index by.
 */
int64_t		 bub_dev_id(struct stage *);
const char	*bub_dev_name(int64_t);
/* The report order of two ranks' names (devtab_cmp()). */
int		 bub_dev_cmp(int64_t, int64_t);
void		 bub_init(struct stage *);
int		 bub_record(struct stage *, int64_t, int64_t, const char *,
		    size_t);
void		 bub_end(struct stage *);

/* attrib-small.c */
/* Append to BUF (CAP bytes, *N used) as printf would, truncating. */
void		 attrib_app(char *, size_t, size_t *, const char *, ...)
		    __attribute__((format(printf, 4, 5)));

/* attrib-match.c */
void		 match_add(int, const char *);
void		 match_defaults(void);
void		 match_read_file(const char *);
int		 match_family(const char *);
const char	*match_famname(int);
void		 match_list(void);
unsigned	 match_classify(const char *, size_t, const char *, size_t,
		    uint32_t *);

/* attrib-names.c */
size_t		 names_norm(const char *, size_t, char *);
uint32_t	 names_intern(int, const char *, size_t);
const char	*names_str(int, uint32_t, size_t *);
int		 names_class(uint32_t);
void		 names_set_class(uint32_t, int);
struct ncov	*nmap_get(struct nmap *, uint32_t);
void		 nmap_free(struct nmap *);
void		 nmap_addall(struct nmap *, const struct nmap *);
size_t		 nmap_top(int, const struct nmap *, struct ncov *, size_t);

/* attrib-sum.c */
unsigned	 sum_labels(const struct bubble_meas *);
const char	*sum_labname(int);
int		 sum_ge(__int128, __int128, int64_t);
/* *A += V, or INT64_MAX and a diagnostic at the end if it overflows. */
void		 sum_ns(int64_t *, int64_t);
void		 sum_window(int64_t, const char *, size_t, const char *, size_t,
		    int64_t);
void		 sum_bubble(struct bubble_info *,
		    const struct bubble_meas *, unsigned);
void		 sum_dev(int64_t, int, int, int, int);
int		 sum_has_device(int64_t);
void		 sum_write(struct stage *, int64_t, int64_t);

/* attrib-small.c */
struct small;
struct small	*small_new(void);
void		 small_add(struct small *, struct bubble_info *,
		    const struct bubble_meas *);
int		 small_judge(const struct small *, int64_t, int64_t, int64_t,
		    int64_t *, int64_t *, int *, char *, size_t);
void		 small_app_name(char *, size_t, size_t *, const char *,
		    size_t);

/* attrib-cov.c */
size_t		 cov_top(const struct nmap *, int64_t, size_t, char **);
void		 cov_bubble(const struct bubble_info *,
		    const struct bubble_meas *);
void		 cov_write(struct stage *, int64_t);

#endif
