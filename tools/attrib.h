/*
 * prof-attrib internals shared by its three files: marker families
 * (attrib-match.c), the soft labels and the summary cause records
 * (attrib-sum.c), and the stage loop (prof-attrib.c).
 */
#ifndef PROF_ATTRIB_H
#define PROF_ATTRIB_H

#include <stddef.h>
#include <stdint.h>

struct stage;

/* Marker families: a host event may belong to several. */
enum {
	FAM_HOST, FAM_SYNC, FAM_COMM, FAM_LAUNCH, FAM_N
};
#define FAM_BIT(f)	(1u << (f))

/* Soft labels, in the order they are written (spec section 10). */
enum {
	LAB_SYNC, LAB_COMM, LAB_UNTRACED, LAB_LAUNCH, LAB_PYTHON,
	LAB_INSUFFICIENT, LAB_N
};

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
	int	step_causes;	/* also write step-scope cause records */
};
extern struct attrib_opts aopt;

/* What one closed bubble measured, in integer ns. */
struct bubble_meas {
	int64_t	dur;
	int64_t	cov[FAM_N];	/* union of each family, clipped */
	int64_t	thr_sum;	/* sum over threads of their host union */
};

/* attrib-match.c */
void		 match_add(int, const char *);
void		 match_defaults(void);
void		 match_read_file(const char *);
int		 match_family(const char *);
const char	*match_famname(int);
void		 match_list(void);
unsigned	 match_classify(const char *, size_t, const char *, size_t);

/* attrib-sum.c */
unsigned	 sum_labels(const struct bubble_meas *);
const char	*sum_labname(int);
int		 sum_ge(int64_t, int64_t, int64_t);
void		 sum_window(int64_t, const char *, size_t, const char *, size_t,
		    int64_t);
void		 sum_bubble(int64_t, const char *, size_t, const char *, size_t,
		    int, const struct bubble_meas *, unsigned);
void		 sum_dev(int64_t, int, int, int);
void		 sum_write(struct stage *, int64_t, int64_t);

#endif
