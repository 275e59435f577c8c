/*
 * Streaming reader for Chrome trace JSON (the Trace Event Format): each
 * event object of the "traceEvents" array (or of a top-level array) is
 * tokenized alone, into jsmn tokens (by jsontok, or the scanner and jsmn),
 * so memory is bounded by the largest single event, not by the file.  Top-level keys other than
 * "traceEvents" are reported through a callback with their raw value text.
 */
#ifndef PROF_JSONEV_H
#define PROF_JSONEV_H

#include <stddef.h>
#include <stdint.h>
#include "json.h"
#include "input.h"

struct jsonev;

struct jsonev_event {
	const char	*text;	/* the object's text, '{' to '}' */
	size_t		 len;
	jsmntok_t	*tok;	/* tok[0] is the object */
	int		 ntok;
	uint64_t	 offset;/* byte offset of '{' in the member */
};

/*
 * Called for each top-level key other than "traceEvents", with the raw
 * text of its value (a string value keeps its quotes).  Values larger than
 * the event size cap are reported as an error.
 */
typedef void	(*jsonev_topfn)(void *, const char *, size_t, const char *,
		    size_t);

/*
 * Read events from the current member of IN.  WHERE names it in
 * diagnostics.  MAXEVENT caps one event's (and one top-level value's)
 * size in bytes; 0 means the default of 64 MiB.
 */
struct jsonev	*jsonev_open(struct input *, const char *, size_t);
void		 jsonev_ontop(struct jsonev *, jsonev_topfn, void *);
/*
 * Returns 1 with the next event in *EV (valid until the next call), 0 at
 * the end of the document, -1 after printing "prog: WHERE:LINE:COL: msg"
 * (truncated input, bad JSON, NUL byte, event too large, no traceEvents).
 */
int		 jsonev_next(struct jsonev *, struct jsonev_event *);
/*
 * Line and column (byte), from 1, of the '{' of event E, the one the
 * last jsonev_next returned.  Worked out on demand: counting lines at
 * every event costs more than it is worth.
 */
void		 jsonev_linecol(struct jsonev *, const struct jsonev_event *,
		    unsigned long *, unsigned long *);
/* Bytes consumed so far, for progress reports. */
uint64_t	 jsonev_offset(const struct jsonev *);
void		 jsonev_close(struct jsonev *);

#endif
