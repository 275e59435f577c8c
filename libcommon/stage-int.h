/*
 * The insides of the stage loop, shared by stage.c (reading the input,
 * the current record) and stage-out.c (the output queue, records written
 * later).  Not for tools: they use stage.h.
 */
#ifndef PROF_STAGE_INT_H
#define PROF_STAGE_INT_H

#include <stdint.h>
#include <string.h>

#include "stage.h"

struct okey {
	int64_t		 ts;
	uint64_t	 seq;
};

/* A value of a record written later. */
struct sval {
	size_t		 off;		/* in buf */
	size_t		 len;
	int		 plain;		/* it needs no escape */
};

/*
 * A record written later.  Its values live in one buffer, NUL-terminated
 * one after the other (a value set twice leaves its old bytes behind),
 * and freed records are kept for reuse: a stage makes one for nearly
 * every gap or segment, millions in a long capture.
 */
struct srec {
	struct okey	 key;
	struct stage	*st;		/* whose open heap holds it */
	size_t		 open_slot;	/* index in st->open */
	char		*buf;
	size_t		 blen, bcap;
	struct sval	*v;		/* per column, valid where set */
	/*
	 * A bit per column given a value: a record made by stage_new()
	 * gets 6 or 8 values out of 25 to 60 columns, in any order, and
	 * emptying and writing it should cost what was set, not a step
	 * per column.
	 */
	uint64_t	*set;
	/*
	 * Bytes of buf that, with a TAB after each of the first nin - 1
	 * values, are the input columns as they were read (0: none).  A
	 * kept record starts with the input line's decoded copy, which is
	 * the raw text itself when the line had no escape, so that writing
	 * it needs no escaping; setting an input column ends that.
	 */
	size_t		 rawlen;
	/*
	 * Kept whole: the first RAWLEN bytes of buf are the input line as
	 * read, TABs and all, and the input columns' values are found in
	 * it only when one is asked for or set (keep_split()).  prof-layers
	 * keeps nearly every kernel and only adds columns to them.
	 */
	int		 whole;
	int		 discard;	/* opened past a damaged input's end */
	struct srec	*next_free;
};

/*
 * Spare bytes at the end of a line being built: a run of absent columns
 * is written 16 TABs at a time, and the last 16 may reach past the line.
 */
#define LINE_SLACK	16

/* A line waiting in a FIFO: its key and where its bytes are. */
struct fent {
	struct okey	 key;
	size_t		 off;
	size_t		 len;
};

/*
 * Lines in key order, one after the other in buf with their newlines,
 * so that a run of them is written in one copy.
 */
struct fifo {
	char		*buf;
	size_t		 head, len, cap;	/* bytes of buf */
	struct fent	*q;
	size_t		 qhead, qlen, qcap;	/* entries of q */
	/*
	 * Lines past the memory bound, in order after those in buf, in a
	 * temporary file (see stage-out.c, "spill"): a record open over a
	 * whole capture must not keep the capture in memory.
	 */
	int		 sfd;		/* its descriptor, when has_sfd */
	int		 has_sfd;
	int		 spilling;	/* new lines go to the file */
	off_t		 swoff, sroff;	/* where to write, to read */
	size_t		 nspill;	/* lines in the file */
	char		*wbuf;		/* lines not yet written to it */
	size_t		 wlen;
	struct okey	 last;		/* of the line queued last */
};

/* A put record waiting in the heap, already escaped. */
struct hent {
	struct okey	 key;
	char		*line;
	size_t		 len;
};

struct stage {
	struct tsvr	*in;
	struct tsvw	*out;
	size_t		 nin;		/* input columns */
	size_t		 ncols;		/* output columns */
	size_t		 nwords;	/* of a record's set bits */
	char		**names;
	const void	*cols;		/* the stage's column struct */
	/* current record */
	int64_t		 ts, dur;
	uint64_t	 seq;		/* last key sequence number given */
	uint64_t	 cur_seq;	/* that of the current record */
	int		 incur;		/* a current record was read */
	const char	*kind;		/* the current record's kind */
	size_t		 kindlen;
	char		**setv;		/* values set for the current record */
	size_t		*setl;
	size_t		*setcap;
	unsigned char	*isset;
	int		 nset;
	int		 inset;		/* an input column was overridden */
	size_t		 setsum;	/* the lengths set, added up */
	/* output queue */
	struct fifo	 passed;	/* input records */
	struct fifo	 put;		/* put records, in order */
	size_t		 nqueued;	/* lines in both and the heap */
	struct hent	*heap;
	size_t		 nheap, heapcap;
	struct srec	**open;
	size_t		 nopen, opencap;
	struct srec	*free_recs;
	int64_t		 last_out;
	char		*line;		/* scratch for building lines */
	size_t		 linecap;
	int		 failed;	/* stage_error() was called */
	int		 keep_values;	/* keep by values, not whole */
};

static inline int
key_lt(struct okey a, struct okey b)
{
	return a.ts < b.ts || (a.ts == b.ts && a.seq < b.seq);
}

/*
 * The bytes of waiting lines a FIFO keeps in memory before it spills to
 * a file; exits 2 when PROF_QUEUE_MEMORY is not a size.
 */
size_t	stage_queue_mem(void);
/* Write what is still queued and free the queue (stage_close()). */
void	stage_out_close(struct stage *);

#endif
