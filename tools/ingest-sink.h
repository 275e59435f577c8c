/*
 * Internals of prof-ingest's sink, shared by the files it is split into
 * by concern: ingest-sink.c takes the sources and their records,
 * ingest-runs.c sorts them into runs and spills those to disk,
 * ingest-merge.c merges the runs back into time order, and
 * ingest-output.c writes the stream or the inventory.  The sink is one
 * object, struct sink, that the readers reach through their context;
 * nothing but those four files includes this.
 */
#ifndef PROF_INGEST_SINK_H
#define PROF_INGEST_SINK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ingest.h"

/* A stored record: this header, then TEXTLEN bytes, padded to 8. */
struct sink_rec {
	int64_t		 ts;
	int64_t		 dur;
	int64_t		 dev;
	int64_t		 pid;
	uint32_t	 src;
	uint32_t	 textlen;
	uint8_t		 kind;
	uint8_t		 has_dur;
	uint8_t		 pad[6];
};

#define SINK_REC_SIZE(textlen) \
	((sizeof(struct sink_rec) + (textlen) + 7) & ~(size_t)7)

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

/* A sorted run: in the arena (index array) or in the spill file. */
struct sink_run {
	uint32_t	 src;
	size_t		 count;
	size_t		*index;		/* arena offsets, when in memory */
	off_t		 foff;		/* file offset, when spilled */
	off_t		 flen;
	/* Merge cursor. */
	size_t		 pos;
	unsigned char	*buf;
	size_t		 bufcap, buflen, bufpos;
	off_t		 fread_off;
	const struct sink_rec *cur;
	int64_t		 key;		/* sink_abs_ts(cur), the heap's */
};

struct sink_spill_job;

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
	/* The offsets of the open run's records, kept as they are added. */
	size_t		*cur_index;
	size_t		 cur_count, cur_cap;
	size_t		 last_count;	/* the last run's size, a guess */
	struct sink_run	*runs;
	size_t		 nruns;
	/* The spill file, and the thread that writes one arena's runs. */
	FILE		*spill;
	off_t		 spill_len;
	char		*spill_buf;
	pthread_t	 spill_thread;
	struct sink_spill_job *pending;
	/* The merge: run indices ordered by their current record's time. */
	size_t		*heap;
	size_t		 nheap;
	/* Files found and not read, and notes of a run's side files. */
	char		**ignored;	/* "PATH\tWHY" */
	size_t		 nignored;
	char		**run_notes;	/* "RUN\tNOTE" */
	size_t		 nrun_notes;
	/* Scratch of sink_add. */
	char		*textbuf, *fixed;
	size_t		 textcap, fixedcap;
	size_t		 kindlen[IK_NKINDS];
};

/* ingest-sink.c: what the sources' facts decide at the end. */
void	 sink_resolve_sources(struct sink *);

/* ingest-runs.c */
void	 sink_sort_run(const unsigned char *, size_t *, size_t);
void	 sink_index_add(struct sink *, size_t);
void	 sink_close_run(struct sink *, uint32_t);
void	 sink_spill_join(struct sink *);
unsigned char *sink_arena_reserve(struct sink *, uint32_t, size_t);

/* ingest-merge.c */
int64_t	 sink_abs_ts(const struct sink *, const struct sink_rec *);
int	 sink_run_next(struct sink *, struct sink_run *);
void	 sink_run_start(struct sink *, struct sink_run *);
void	 sink_heap_build(struct sink *);
/* The earliest record, and in *WHICH its run; NULL when all are done. */
const struct sink_rec *sink_heap_top(const struct sink *, size_t *);
void	 sink_heap_advance(struct sink *);
void	 sink_reduce_runs(struct sink *);
void	 sink_sort_memory_runs(struct sink *);

#endif
