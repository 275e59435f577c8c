/*
 * prof-ingest internals: the record being built by a format reader, the
 * sink that orders records and writes the stream, and the readers.
 */
#ifndef PROF_INGEST_H
#define PROF_INGEST_H

#include <stddef.h>
#include <stdint.h>
#include "input.h"

/* Output columns, in order (see prof-ingest(1) and prof-tsv(5)). */
enum icol {
	IC_KIND, IC_TS, IC_DUR, IC_DEV, IC_TRACK, IC_NAME, IC_CAT, IC_TYPE,
	IC_CORE, IC_STEP, IC_WAIT, IC_PID, IC_CORR, IC_EXT, IC_GROUP,
	IC_IN_SHAPES, IC_IN_DTYPES, IC_OUT_SHAPES, IC_OUT_DTYPES, IC_FLOPS,
	IC_BYTES, IC_VALUE, IC_PMU, IC_SRC,
	IC_NCOLS
};
/* The text columns a reader fills: those after the numbers. */
#define IC_FIRST_TEXT	IC_TRACK

/* Record kinds written by prof-ingest. */
enum ikind {
	IK_KERNEL, IK_HOST, IK_STEP, IK_COMM, IK_FLOW, IK_COUNTER, IK_MARK,
	IK_PIPE, IK_METRIC, IK_DEVICE,
	IK_NKINDS,
	IK_DEFER = 100		/* decided at output from the process name */
};

extern const char *const ingest_colnames[IC_NCOLS];
extern const char *const ingest_kindnames[IK_NKINDS];

#define IREC_NO_TS	INT64_MIN	/* a timeless record (metric) */
#define IREC_DEV_SRC	INT64_MIN	/* dev: the source's rank, at output */

/*
 * One record as a reader builds it.  Times are integer nanoseconds on the
 * source's own clock; the sink adds the source's base at output.
 */
struct irec {
	int		 kind;		/* enum ikind */
	int64_t		 ts;		/* or IREC_NO_TS */
	int64_t		 dur;
	int		 has_dur;
	int64_t		 dev;		/* or IREC_DEV_SRC */
	int64_t		 pid;		/* for IK_DEFER: the Chrome pid */
	const char	*v[IC_NCOLS];	/* text of columns >= IC_TRACK */
	size_t		 len[IC_NCOLS];
};

/* What kind of file a source is; names appear in the inventory. */
enum isrc_fmt {
	ISF_KERNEL_DETAILS, ISF_OP_SUMMARY, ISF_STEP_TRACE, ISF_COMM_JSON,
	ISF_TRACE_VIEW, ISF_KINETO, ISF_SIMULATOR, ISF_CHROME,
	ISF_NFMTS
};
extern const char *const ingest_fmtnames[ISF_NFMTS];

/* ---- sink (ingest-sink.c) ---- */

struct sink_opts {
	size_t		 mem_limit;	/* bytes of records kept in memory */
	const char	*tmpdir;
	int		 inventory;	/* write the inventory, not records */
	int		 progress;	/* progress on stderr */
};

void	 sink_init(const struct sink_opts *);
/*
 * Start a source: returns its index.  RANK is -1 when unknown; RUN names
 * the profile run (directory) for the inventory.
 */
int	 sink_begin(enum isrc_fmt, const char *, const char *, int64_t);
/* Nanoseconds to add to every time of source SRC (Kineto's base). */
void	 sink_set_base(int, int64_t);
void	 sink_set_rank(int, int64_t);
/* Record that source SRC's pid PID is a process named NAME. */
void	 sink_set_process(int, int64_t, const char *);
/* Change source SRC's format once its content has told what it is. */
void	 sink_set_fmt(int, enum isrc_fmt);
/*
 * Drop source SRC's device tasks resolved from the "Ascend Hardware"
 * process: kernel_details.csv of the same rank has them with more detail.
 */
void	 sink_set_skip_device(int);
/* List a file that was found but not ingested, with the reason. */
void	 sink_ignored(const char *, const char *);
/* Note evidence that a side file of run RUN holds on the run's sources. */
void	 sink_run_note(const char *, const char *);
/* Note facts for the inventory: shapes, stacks, flops present. */
void	 sink_note(int, const char *);
/* Add one record of source SRC; the sink copies what it needs. */
void	 sink_add(int, const struct irec *);
/* Count a row or event that was skipped, with the reason. */
void	 sink_skip(int, const char *);
/* The number of sources begun so far. */
size_t	 sink_nsources(void);
/* End source SRC (its records may now be spilled as one sorted run). */
void	 sink_end(int);
/* Write the preamble, header and all records in time order, or the
 * inventory.  ARGV is recorded in the preamble.  Returns -1 when a
 * source's records were dropped because its times cannot be placed
 * (a diagnostic said so), else 0. */
int	 sink_finish(int, char **);

/* ---- readers ---- */

/*
 * --lenient: a malformed row or event is reported, counted with
 * sink_skip() and passed over instead of ending its file.
 */
extern int ingest_lenient;

/* Per-run context shared by the readers of one profile directory. */
struct ingest_ctx {
	int64_t		 rank;		/* -1 when unknown */
	const char	*run;		/* run directory, for the inventory */
	int		 have_kernel_details; /* skip trace_view device tasks */
};

int	 ingest_ascend_csv(struct input *, const char *,
	    const struct ingest_ctx *, enum isrc_fmt);
int	 ingest_comm_json(struct input *, const char *,
	    const struct ingest_ctx *);
int	 ingest_chrome(struct input *, const char *,
	    const struct ingest_ctx *);

#endif
