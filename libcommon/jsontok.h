/*
 * A fast tokenizer for one JSON object that gives exactly the tokens jsmn
 * gives (types, offsets, sizes, parent links), for the well-formed JSON
 * that trace events are.  It skips strings 16 bytes at a time and finds
 * the object's end by itself, so the event scanner need not look at the
 * bytes first.  Anything outside plain well-formed JSON (a trailing
 * comma, a bad escape, a NUL byte, deep nesting) and an object cut off by
 * the end of the text are left to the scanner and jsmn, whose checks and
 * diagnostics stay the only ones.
 */
#ifndef PROF_JSONTOK_H
#define PROF_JSONTOK_H

#include <stddef.h>
#include "json.h"

#define JSONTOK_PASS	0	/* not handled: use the scanner and jsmn */
#define JSONTOK_NOMEM	(-1)	/* more tokens needed: grow and call again */

/*
 * Tokenize the object that starts at JS[0] ('{'), reading no byte at or
 * past JS[LEN].  Returns the number of tokens with *ENDP the object's
 * length, or JSONTOK_PASS or JSONTOK_NOMEM.
 */
int	 jsontok_object(const char *, size_t, jsmntok_t *, unsigned int,
	    size_t *);

#endif
