/*
 * Internals of prof-ingest's sink, shared by the files it is split into
 * by concern: ingest-sink.c takes the sources and their records,
 * ingest-runs.c sorts them into runs and spills those to disk,
 * ingest-merge.c merges the runs back into time order,
 * ingest-output.c writes the stream or the inventory, and
 * ingest-direct.c merges a lone source read twice straight into it.
 * The sink is one object, struct sink, that the readers reach through
 * their context; nothing but those five files includes this.
 */
#ifndef PROF_INGEST_SINK_H
#define PROF_INGEST_SINK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ingest.h"

/*
 * A stored record: this header, the numbers that do not fit it (an int64
 * each, in the order of the flags below), then TEXTLEN bytes of text, the
 * columns already escaped, padded to 8.  Most records need the header
 * only: every byte here is written to the spill file and read back.
 */
struct sink_rec {
	int64_t		 ts;
	uint32_t	 src;
	uint32_t	 textlen;
	uint32_t	 dur;		/* SR_DUR without SR_DUR64 */
	uint16_t	 dev;		/* SR_DEV without SR_DEV64 */
	uint8_t		 kind;
	uint8_t		 flags;
};

#define SR_DUR		0x01	/* it has a duration */
#define SR_DUR64	0x02	/* in an int64 after the header */
#define SR_DEV		0x04	/* its own dev, not the source's rank */
#define SR_DEV64	0x08	/* in an int64 after the header */
#define SR_PID		0x10	/* an int64 pid follows (IK_DEFER) */
#define SR_REF		0x20	/* a struct sink_ref follows (direct) */

/*
 * A record of the direct output's streams (never stored) may hold its
 * text in three pieces, the first and last by reference, in memory that
 * its reader keeps until the output ends (an op's columns, the same for
 * all its executions); TEXTLEN is then the middle piece's length.
 */
struct sink_ref {
	const char	*pre, *post;
	uint32_t	 prel, postl;
};

static inline size_t
sink_rec_nextra(unsigned flags)
{
	return !!(flags & SR_DUR64) + !!(flags & SR_DEV64) +
	    !!(flags & SR_PID);
}

static inline size_t
sink_rec_hlen(unsigned flags)
{
	return sizeof(struct sink_rec) + 8 * sink_rec_nextra(flags) +
	    (flags & SR_REF ? sizeof(struct sink_ref) : 0);
}

static inline size_t
sink_rec_size(const struct sink_rec *sr)
{
	return (sink_rec_hlen(sr->flags) + sr->textlen + 7) & ~(size_t)7;
}

static inline const char *
sink_rec_text(const struct sink_rec *sr)
{
	return (const char *)sr + sink_rec_hlen(sr->flags);
}

/* The pieces by reference of an SR_REF record. */
static inline const struct sink_ref *
sink_rec_ref(const struct sink_rec *sr)
{
	return (const void *)((const char *)(sr + 1) + 8 *
	    sink_rec_nextra(sr->flags));
}

static inline int64_t
sink_rec_dur(const struct sink_rec *sr)
{
	if (!(sr->flags & SR_DUR))
		return 0;
	return sr->flags & SR_DUR64 ? ((const int64_t *)(sr + 1))[0] :
	    sr->dur;
}

static inline int64_t
sink_rec_dev(const struct sink_rec *sr)
{
	if (!(sr->flags & SR_DEV))
		return IREC_DEV_SRC;
	return sr->flags & SR_DEV64 ?
	    ((const int64_t *)(sr + 1))[!!(sr->flags & SR_DUR64)] : sr->dev;
}

static inline int64_t
sink_rec_pid(const struct sink_rec *sr)
{
	if (!(sr->flags & SR_PID))
		return 0;
	return ((const int64_t *)(sr + 1))[!!(sr->flags & SR_DUR64) +
	    !!(sr->flags & SR_DEV64)];
}

/* What an Ascend trace_view process holds, from its name. */
enum sink_pclass {
	SINK_PC_HOST, SINK_PC_DEVICE, SINK_PC_HCCL, SINK_PC_DERIVED
};

struct sink_proc {
	int64_t		 pid;
	enum sink_pclass cls;
};

struct sink_source {
	const struct ingest_format *fmt;
	char		*path;
	char		*run;
	int64_t		 rank;		/* -1 when unknown */
	int64_t		 base;
	int64_t		 tmin, tmax;	/* first start, last end, own clock */
	int		 bad;		/* its times cannot be placed */
	int		 skip_device;
	int		 skip_all;	/* another source of its run has it all */
	struct sink_proc *procs;
	size_t		 nprocs;
	int64_t		 lone_dev;	/* -1 none yet, -2 several */
	char		 notes[128];
	/* Inventory, counted at output after resolution. */
	uint64_t	 nkind[IK_NKINDS];
	uint64_t	 ndropped;
	int64_t		 first, last;	/* absolute ns */
	char		**skipwhy;
	uint64_t	*skipn;
	size_t		 nskip;
	uint64_t	 utf8_fixed;	/* ill-formed sequences replaced */
	int		 open;
};

/*
 * A run: records of one source that arrived one after another, in time
 * order or sorted into it, in the arena or in the spill file.  A source's
 * timeless records (metrics) make runs of their own, as all of them come
 * first.  Timed runs that follow each other in time form a chain, which
 * the merge reads as one sorted sequence: a source read in time order is
 * one chain, however many times it filled the arena.
 */
struct sink_run {
	uint32_t	 src;
	int		 timeless;	/* its records have no time */
	int		 sorted;	/* they came in time order */
	int		 inmem;		/* in the arena, not spilled */
	int		 mixed;		/* timeless records lie in its span */
	size_t		 count;
	size_t		*index;		/* arena offsets, when not in order */
	size_t		 aoff, aend;	/* its span of the arena, in order */
	int64_t		 first, last;	/* its times' range, own clock */
	off_t		 foff;		/* file offset, when spilled */
	off_t		 flen;
	/* The chain (see sink_chains()): the next run of it, or 0. */
	size_t		 next;
	int		 cont;		/* it continues the timed run before */
	/* Merge cursor, kept in a chain's first run. */
	size_t		 at;		/* the run being read */
	size_t		 pos;		/* index or arena position in it */
	unsigned char	*buf;
	size_t		 bufcap, buflen, bufpos;
	off_t		 fread_off, fend;
	const struct sink_rec *cur;
	int64_t		 key;		/* sink_abs_ts(cur), the merge's */
};

struct sink_spill_job;
struct spool;
struct sink_dstream;

struct sink {
	struct sink_opts opts;
	struct sink_source *srcs;
	size_t		 nsrcs;
	/* Two arenas: one filling, one being spilled. */
	unsigned char	*arena;		/* the one being filled */
	size_t		 arena_len, arena_cap;
	unsigned char	*arenas[2];
	size_t		 arena_caps[2];
	int		 cur_arena;
	size_t		 cur_start;	/* where the open run began */
	/*
	 * The open run: its timed records, in time order so far or (after
	 * one came out of order) with their offsets kept as they are added
	 * for the sort; and its timeless records' offsets.
	 */
	int		 cur_sorted;
	size_t		 cur_ntimed;
	int64_t		 cur_last, cur_min, cur_max;
	size_t		*cur_index;
	size_t		 cur_count, cur_cap;
	size_t		 last_count;	/* the last sort's size, a guess */
	size_t		*cur_tindex;
	size_t		 cur_tcount, cur_tcap;
	struct sink_run	*runs;
	size_t		 nruns;
	/* The spill file, and the thread that writes one arena's runs. */
	struct spool	*spill;		/* or NULL */
	pthread_t	 spill_thread;
	struct sink_spill_job *pending;
	/* The merge: a tree of losers over the chains (ingest-merge.c). */
	size_t		*lt;		/* [0] the winner, then losers */
	unsigned __int128 *lt_key;	/* per chain: its time, its order */
	size_t		*lt_run;	/* per chain: its first run */
	size_t		 lt_n;
	/* Files found and not read, and notes of a run's side files. */
	char		**ignored;	/* "PATH\tWHY" */
	size_t		 nignored;
	char		**run_notes;	/* "RUN\tNOTE" */
	size_t		 nrun_notes;
	/* The direct output (ingest-direct.c): the source read twice. */
	struct sink_replay replay;
	int		 replay_src;
	int		 has_replay, replay_ordered;
	int		 replay_failed;	/* the reader said why */
	int		 replaying;	/* SINK_STORE or SINK_DIRECT */
	struct sink_dstream *ds;	/* per stream: its records rendered */
	size_t		 ds_cur, ds_fill;
	int		 ds_buf;
	/* Stream 0's records read before the output (sink_hold()). */
	unsigned char	*hold;
	size_t		 hold_len, hold_cap;
	uint64_t	 hold_utf8;	/* their names' repairs */
	/* Scratch of sink_add. */
	char		*textbuf, *fixed;
	size_t		 textcap, fixedcap;
	size_t		 kindlen[IK_NKINDS];
};

#define SINK_STORE	1
#define SINK_DIRECT	2

/* ingest-sink.c: what the sources' facts decide at the end. */
void	 sink_resolve_sources(struct sink *);
/* The most bytes R takes stored; store it at DST, return its size. */
size_t	 sink_rec_bound(const struct irec *);
size_t	 sink_render(struct sink *, int, const struct irec *, unsigned char *);
size_t	 sink_render_text(struct sink *, int, const struct irec *,
	    unsigned char *, const char *, size_t, const char *, size_t,
	    const char *, size_t);
size_t	 sink_render_ref(struct sink *, int, const struct irec *,
	    unsigned char *, const char *, size_t, const char *, size_t,
	    const char *, size_t);
/* Say how many ill-formed UTF-8 sequences source SRC had replaced. */
void	 sink_utf8_note(const struct sink_source *);

/* ingest-direct.c */
/* Store the replayed source's records unless the direct output can
 * take them (FINAL: no source follows); 1 when it can. */
int	 sink_direct_settle(struct sink *, int);
int64_t	 sink_direct_origin(const struct sink *);
/* Merge the streams, giving each record to PUT in order. */
void	 sink_direct_merge(struct sink *,
	    void (*)(void *, const struct sink_rec *), void *);
/* -1 when the second pass failed (it said why). */
int	 sink_direct_end(struct sink *);

/* ingest-runs.c */
/* Note the record about to be stored at the arena's end (time TS). */
void	 sink_run_add(struct sink *, uint32_t, int64_t);
void	 sink_close_run(struct sink *, uint32_t);
void	 sink_spill_join(struct sink *);
unsigned char *sink_arena_reserve(struct sink *, uint32_t, size_t);
/* Sort the runs still in memory that did not come in order. */
void	 sink_sort_memory_runs(struct sink *);

/* ingest-merge.c */
/* Absolute time of a record, timeless ones first (inline: the merges
 * ask it of every record, two or three times). */
static inline int64_t
sink_abs_ts(const struct sink *sk, const struct sink_rec *sr)
{
	if (sr->ts == IREC_NO_TS)
		return INT64_MIN;
	/* A bad source's records are dropped; their key needs no base. */
	if (sk->srcs[sr->src].bad)
		return sr->ts;
	return sr->ts + sk->srcs[sr->src].base;
}
/* Link the timed runs that follow each other in time into chains. */
void	 sink_chains(struct sink *);
int	 sink_run_next(struct sink *, struct sink_run *);
void	 sink_run_start(struct sink *, struct sink_run *, size_t);
void	 sink_run_release(struct sink_run *);
void	 sink_merge_start(struct sink *);
/* The earliest record; NULL when all are done. */
const struct sink_rec *sink_merge_top(const struct sink *);
void	 sink_merge_advance(struct sink *);
void	 sink_reduce_runs(struct sink *);

#endif
