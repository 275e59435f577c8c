/*
 * Internals of prof-ingest's Chrome trace reader, shared by the files it
 * is split into: ingest-chrome.c reads events and builds their records;
 * ingest-pair.c pairs B and E events, which needs the reader's state and
 * its record building but is a concern of its own (a table of open
 * events, limits, replay of a stored B); ingest-toplevel.c reads the
 * top-level keys beside traceEvents.  Nothing else includes this.
 */
#ifndef PROF_INGEST_CHROME_H
#define PROF_INGEST_CHROME_H

#include <stddef.h>
#include <stdint.h>

#include "ingest.h"
#include "json.h"
#include "jsonev.h"

#define BE_NBUCKETS	1024

/* Token indices of the fields of one event, -1 when absent. */
struct evf {
	int	 ph, name, cat, pid, tid, ts, dur, id, args;
};

/* A B event waiting for its E, or an E that came before its B (by id). */
struct bopen {
	struct bopen	*down;
	char		*text;		/* the B event's JSON, NULL for an E */
	size_t		 len;
	int64_t		 ts;
	unsigned long	 line, col;
};

/* Open B events of one (pid, tid) or one (pid, id), newest first. */
struct bkey {
	struct bkey	*next;
	char		*key;
	size_t		 klen;
	struct bopen	*top;
};

struct chrome {
	struct sink	*sink;
	int		 src;
	const char	*where;
	/* The event being read. */
	struct jsonev	*ev;
	const struct jsonev_event *e;
	const char	*js;
	jsmntok_t	*tok;
	int		 ntok;
	unsigned long	 line, col;	/* 0 until asked for */
	struct irec	 rec;
	char		*sbuf[IC_NCOLS];	/* decoded text per column */
	size_t		 scap[IC_NCOLS];
	char		*kbuf;			/* a decoded args key */
	size_t		 kcap;
	char		*nbuf;			/* a counter's name */
	size_t		 ncap;
	/* Evidence of what the file is. */
	int		 kineto_key, kineto_cat, sim_key, sim_pid;
	int		 ascend_proc, string_ts;
	int		 noted_shapes, noted_stacks, noted_flops;
	int		 failed;
	/* B/E pairing. */
	struct bkey	*bk[BE_NBUCKETS];
	size_t		 nopen, openbytes;
	jsmntok_t	*btok;
	unsigned int	 nbtok;
	char		*keybuf;		/* the key being looked up */
	size_t		 keycap;
};

/* ingest-chrome.c */
void	 event_pos(struct chrome *);
int	 bad_event(struct chrome *, const char *, int, const char *);
void	 find_fields(const struct chrome *, struct evf *);
int	 set_col(struct chrome *, int, int);
int	 get_ts(struct chrome *, const struct evf *, int64_t *);
int	 build_span(struct chrome *, const struct evf *, int64_t, int64_t,
	    int);

/* ingest-toplevel.c */
int	 parse_small(const char *, size_t, jsmntok_t **, unsigned int *);
void	 top_base(struct chrome *, const char *, size_t);
void	 top_rank(struct chrome *, const char *, size_t);
void	 top_devices(struct chrome *, const char *, size_t);

/* ingest-pair.c */
int	 do_begin(struct chrome *, const struct evf *,
	    const struct jsonev_event *);
int	 do_end(struct chrome *, const struct evf *,
	    const struct jsonev_event *);
void	 be_flush(struct chrome *, int);

#endif
