/*
 * prof-ingest internals: the record being built by a format reader, the
 * sink that orders records and writes the stream, and the readers.
 */
#ifndef PROF_INGEST_H
#define PROF_INGEST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "input.h"

/* Output columns, in order (see prof-ingest(1) and prof-tsv(5)). */
enum icol {
	IC_KIND, IC_TS, IC_DUR, IC_DEV, IC_TRACK, IC_NAME, IC_CAT, IC_TYPE,
	IC_CORE, IC_STEP, IC_WAIT, IC_PID, IC_CORR, IC_EXT, IC_GROUP,
	IC_IN_SHAPES, IC_IN_DTYPES, IC_OUT_SHAPES, IC_OUT_DTYPES, IC_FLOPS,
	IC_BYTES, IC_VALUE, IC_PMU, IC_FRAME, IC_SRC,
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

struct ingest_ctx;

/*
 * A format prof-ingest knows (the table is in ingest-formats.c).  NAME
 * appears in the inventory and the stream's source lines.
 */
struct ingest_format {
	const char	*name;
	/* Whether a file of this base name is one (NULL: never by name). */
	int		(*by_name)(const char *);
	/* Whether the first bytes are one; they start after a byte-order
	 * mark and white space (NULL: never by content). */
	int		(*by_content)(const char *, size_t);
	/* Read the current member; 0, or -1 after a diagnostic. */
	int		(*read)(struct input *, const char *,
			    const struct ingest_ctx *);
	/* A known file that is not read (read is NULL): why, for -i. */
	const char	*not_read;
	/* Formats of the same run whose copy of the device tasks wins. */
	const char *const *device_yields_to;
	/*
	 * Formats of the same run that hold all of this one's records (a
	 * torch_npu run exported both as text and as a database): when one
	 * was read, this source's records are dropped, and counted so.
	 */
	const char *const *yields_to;
	/*
	 * For a file found in a directory, not named: the reason to only
	 * list it (it is not this format after all), or NULL to read it.
	 */
	const char	*(*stray)(const char *, const char *, size_t);
};

extern const struct ingest_format ingest_formats[];

const struct ingest_format *ingest_format_by_name(const char *);
const struct ingest_format *ingest_format_by_content(const char *, size_t);
/* The row called NAME; NULL if there is none. */
const struct ingest_format *ingest_format_named(const char *);
/* Whether F's device tasks give way to those of OTHER in one run. */
int	 ingest_yields_device(const struct ingest_format *,
	    const struct ingest_format *);
/* Whether all of F's records give way to those of OTHER in one run. */
int	 ingest_yields_all(const struct ingest_format *,
	    const struct ingest_format *);

/*
 * The innermost user frame of a Python call stack (entries "FILE(LINE):
 * FUNCTION" joined by ';', innermost first), inside it, with its
 * length; NULL when every frame is PyTorch's or Python's own
 * (ingest-frame.c).
 */
const char *ingest_user_frame(const char *, size_t, size_t *);

int	 ingest_has_suffix(const char *, const char *);
int	 ingest_has_prefix(const char *, const char *);
/* Whether the LEN bytes at HEAD contain the text NEEDLE. */
int	 ingest_head_has(const char *, size_t, const char *);
/* Whether the (white-space-stripped) first bytes open a JSON value. */
int	 ingest_looks_json(const char *, size_t);

/* ---- sink (ingest-sink.c) ---- */

/*
 * The sink: it takes every reader's records, orders them by time with
 * bounded memory, and writes the stream (or the inventory) at the end.
 * Readers reach it through their context and name their source by the
 * index sink_begin() returned.
 */
struct sink;

struct sink_opts {
	size_t		 mem_limit;	/* bytes of records kept in memory */
	const char	*tmpdir;
	int		 inventory;	/* write the inventory, not records */
	int		 progress;	/* progress on stderr */
	int		 lone;		/* one operand, a regular file */
};

struct sink *sink_open(const struct sink_opts *);
/*
 * Start a source: returns its index.  RANK is -1 when unknown; RUN names
 * the profile run (directory) for the inventory.
 */
int	 sink_begin(struct sink *, const struct ingest_format *,
	    const char *, const char *, int64_t);
/* Nanoseconds to add to every time of source SRC (Kineto's base). */
void	 sink_set_base(struct sink *, int, int64_t);
void	 sink_set_rank(struct sink *, int, int64_t);
/* Record that source SRC's pid PID is a process named NAME. */
void	 sink_set_process(struct sink *, int, int64_t, const char *);
/* Change source SRC's format once its content has told what it is. */
void	 sink_set_fmt(struct sink *, int, const struct ingest_format *);
/* List a file that was found but not ingested, with the reason. */
void	 sink_ignored(struct sink *, const char *, const char *);
/* Note evidence that a side file of run RUN holds on the run's sources. */
void	 sink_run_note(struct sink *, const char *, const char *);
/* Note facts for the inventory: shapes, stacks, flops present. */
void	 sink_note(struct sink *, int, const char *);
/* Add one record of source SRC; the sink copies what it needs. */
void	 sink_add(struct sink *, int, const struct irec *);
/* Count a row or event that was skipped, with the reason. */
void	 sink_skip(struct sink *, int, const char *);
/* The number of sources begun so far. */
size_t	 sink_nsources(const struct sink *);
/* End source SRC (its records may now be spilled as one sorted run). */
void	 sink_end(struct sink *, int);
/*
 * The direct output (ingest-direct.c).  A reader whose records come as
 * streams each in time order (an XPlane's lines) may, when its source
 * is the run's only one (sink_can_direct()), read its input twice and
 * store none of its timed records: the first pass gives every fact
 * (notes, skips, diagnostics, timeless records through sink_add) and
 * the timed records' times only (sink_fact()); the sink then asks for
 * the records again, stream by stream, as the output needs them, and
 * merges them straight into the stream.  When the direct output cannot
 * be used (another source follows, -i, a stream out of order, an
 * error), the sink asks for them all once more in the order of the
 * first pass and stores them as sink_add() would have: the same output
 * either way.  During the second pass diag_at() is muted, and
 * sink_skip() and sink_note() count nothing.
 *
 * A reader may also leave out the first pass of streams it can prove in
 * time order otherwise (an Ascend database's device tasks, whose query
 * is ordered by an index, and its host calls, whose times one pass
 * checks; see ingest-ascend-db.c).  It stores the rest of its records
 * with sink_add(): those of queries it reads after the streams, so that
 * the streams' records won every tie of equal times, as the merge still
 * has it (a stream's record goes before a stored one of the same time).
 * The streams' facts are their first records', given with sink_hold()
 * (stream 0's, kept for the output), and their spans, by sink_fact();
 * FACTS gives the rest when the output needs them: the lone device of a
 * source of no rank, the span of one with a time before 0.  Such a
 * second pass is the only one: LOUD, its diagnostics are said, and
 * DONE's -1 says it failed.
 */
struct sink_replay {
	void		*arg;
	size_t		 nstreams;
	/* Give stream I's next records with sink_emit() until it returns
	 * 1; return 0 once the stream has no more. */
	int		(*fill)(void *, size_t);
	/* Give every timed record again, as the first pass met them. */
	void		(*store)(void *);
	/* Free what the replay kept; -1 when reading failed. */
	int		(*done)(void *);
	/* Give every timed record's facts with sink_fact(), or NULL. */
	void		(*facts)(void *);
	int		 loud;
};
int	 sink_can_direct(const struct sink *);
/* The facts of a timed record of the first pass: not stored. */
void	 sink_fact(struct sink *, int, const struct irec *);
/*
 * The same facts gathered apart from the sink (by a second thread of a
 * reader, which may not call it) and then given to it at once.
 */
struct sink_facts {
	int64_t		 tmin, tmax, lone_dev;
};
void	 sink_facts_init(struct sink_facts *);
void	 sink_facts_add(struct sink_facts *, const struct irec *);
void	 sink_facts_give(struct sink *, int, const struct sink_facts *);
/* A timed record of stream 0 read before the output starts: its facts
 * are noted and it is kept, to go first; or all of them dropped again. */
void	 sink_hold(struct sink *, int, const struct irec *);
void	 sink_hold_drop(struct sink *, int);
/* The first pass of SRC ended; ORDERED: every stream was in order. */
void	 sink_direct(struct sink *, int, const struct sink_replay *, int);
/* A timed record of the second pass; 1 when the stream should pause. */
int	 sink_emit(struct sink *, int, const struct irec *);
/*
 * The same, with R's text columns given already stored (made by
 * sink_render_cols()) in three pieces, for a reader that makes the same
 * columns for many records.
 */
int	 sink_emit_text(struct sink *, int, const struct irec *,
	    const char *, size_t, const char *, size_t, const char *, size_t);
/*
 * The same, the first and third pieces not copied but pointed to: they
 * must stay as they are until the output ends.
 */
int	 sink_emit_ref(struct sink *, int, const struct irec *,
	    const char *, size_t, const char *, size_t, const char *, size_t);
ssize_t	 sink_render_cols(struct sink *, const struct irec *, int, int,
	    char *);

/* Write the preamble, header and all records in time order, or the
 * inventory.  ARGV is recorded in the preamble.  Returns -1 when a
 * source's records were dropped because its times cannot be placed
 * (a diagnostic said so), else 0. */
int	 sink_finish(struct sink *, int, char **);

/* ---- readers ---- */

/*
 * --lenient: a malformed row or event is reported, counted with
 * sink_skip() and passed over instead of ending its file.
 */
extern int ingest_lenient;

/* Per-run context shared by the readers of one profile directory. */
struct ingest_ctx {
	struct sink	*sink;		/* where the records go */
	int64_t		 rank;		/* -1 when unknown */
	const char	*run;		/* run directory, for the inventory */
	const struct ingest_format *fmt; /* the row the file matched */
	const char	*tmpdir;	/* for copies of databases (-T) */
	int		 inventory;	/* -i: readers may count more */
};

/* ingest-ascend.c: torch_npu and msprof text exports. */
/* op_summary, kernel_details, (cluster_)step_trace_time: by ctx->fmt. */
int	 ingest_ascend_table(struct input *, const char *,
	    const struct ingest_ctx *);
int	 ingest_name_op_summary(const char *);
int	 ingest_content_op_summary(const char *, size_t);
int	 ingest_name_kernel_details(const char *);
int	 ingest_content_kernel_details(const char *, size_t);
/* The op simulator's CORE_instr_exe.csv (ingest-instr.c). */
int	 ingest_name_instr_exe(const char *);
int	 ingest_content_instr_exe(const char *, size_t);
int	 ingest_instr_exe(struct input *, const char *,
	    const struct ingest_ctx *);
int	 ingest_name_cluster_step(const char *);
int	 ingest_content_cluster_step(const char *, size_t);
int	 ingest_name_step_trace(const char *);
int	 ingest_content_step_trace(const char *, size_t);
int	 ingest_name_cluster_comm(const char *);
int	 ingest_cluster_comm(struct input *, const char *,
	    const struct ingest_ctx *);
int	 ingest_name_comm_json(const char *);
int	 ingest_content_comm_json(const char *, size_t);
int	 ingest_comm_json(struct input *, const char *,
	    const struct ingest_ctx *);

/* ingest-meta.c: torch_npu's profiler_metadata.json. */
int	 ingest_name_metadata(const char *);
int	 ingest_metadata(struct input *, const char *,
	    const struct ingest_ctx *);

/* ingest-chrome.c: Chrome traces (Kineto, trace_view, the simulator). */
int	 ingest_name_chrome(const char *);
int	 ingest_content_chrome(const char *, size_t);
const char *ingest_stray_chrome(const char *, const char *, size_t);
int	 ingest_chrome(struct input *, const char *,
	    const struct ingest_ctx *);

/* ingest-sqlite.c: SQLite exports (Ascend databases, Nsight Systems). */
int	 ingest_name_sqlite(const char *);
int	 ingest_content_sqlite(const char *, size_t);
const char *ingest_stray_sqlite(const char *, const char *, size_t);
int	 ingest_sqlite(struct input *, const char *,
	    const struct ingest_ctx *);

/* ingest-xplane.c: XPlane protobufs (jax.profiler, xprof). */
int	 ingest_content_xplane(const char *, size_t);
int	 ingest_xplane(struct input *, const char *,
	    const struct ingest_ctx *);

#endif
