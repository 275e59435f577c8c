/*
 * Internals of prof-ingest's sink, shared by the files it is split into
 * by concern: ingest-sink.c takes the sources and their records,
 * ingest-runs.c sorts them into runs and spills those to disk,
 * ingest-merge.c merges the runs back into time order, and
 * ingest-output.c writes the stream or the inventory.  The sink is a
 * single object whose state is these globals; nothing else includes this.
 */
#ifndef PROF_INGEST_SINK_H
#define PROF_INGEST_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ingest.h"

/* A stored record: this header, then TEXTLEN bytes, padded to 8. */
struct srec {
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

#define SREC_SIZE(textlen) \
	((sizeof(struct srec) + (textlen) + 7) & ~(size_t)7)

/* What an Ascend trace_view process holds, from its name. */
enum proc_class {
	PC_HOST, PC_DEVICE, PC_HCCL, PC_DERIVED
};

struct process {
	int64_t		 pid;
	enum proc_class	 cls;
};

struct source {
	const struct ingest_format *fmt;
	char		*path;
	char		*run;
	int64_t		 rank;		/* -1 when unknown */
	int64_t		 base;
	int64_t		 tmin, tmax;	/* first start, last end, own clock */
	int		 bad;		/* its times cannot be placed */
	int		 skip_device;
	int		 skip_all;	/* another source of its run has it all */
	struct process	*procs;
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
struct run {
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
	const struct srec *cur;
	int64_t		 key;		/* abs_ts(cur), cached for the heap */
};

/* The sink's state (defined in ingest-sink.c). */
extern struct sink_opts opts;
extern struct source *srcs;
extern size_t nsrcs;
extern unsigned char *arena;		/* the one being filled */
extern size_t arena_len, arena_cap;
extern unsigned char *arenas[2];
extern size_t arena_caps[2];
extern int cur_arena;
extern size_t cur_start;	/* arena offset where the open source began */
extern struct run *runs;
extern size_t nruns;
extern FILE *spill;
extern off_t spill_len;
extern char **ignored;
extern size_t nignored;
extern size_t kindlen[IK_NKINDS];

/* ingest-sink.c */
void	 sink_apply_run_notes(void);

/* ingest-runs.c */
void	 sort_run(const unsigned char *, size_t *, size_t);
void	 index_add(size_t);
void	 close_run(uint32_t);
void	 spill_join(void);
unsigned char *arena_reserve(uint32_t, size_t);

/* ingest-merge.c */
int64_t	 abs_ts(const struct srec *);
int	 run_next(struct run *);
void	 run_start(struct run *);
void	 heap_build(void);
const struct srec *heap_pop(size_t *);
void	 heap_advance(void);
void	 reduce_runs(void);
void	 sort_memory_runs(void);

#endif
