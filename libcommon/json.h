/*
 * Helpers over jsmn tokens: key lookup, exact numbers and times from
 * number or string tokens, string unescaping, and whole-document loading
 * for the small nested JSON files (communication.json, profiler_info).
 */
#ifndef PROF_JSON_H
#define PROF_JSON_H

#define JSMN_HEADER
#include <jsmn.h>
#undef JSMN_HEADER

#include <stddef.h>
#include <stdint.h>
#include "input.h"

/* Index of the token after the subtree rooted at token I. */
int	 json_skip(const jsmntok_t *, int, int);
/*
 * Index of the value of KEY in the object at token OBJ, or -1.  Only the
 * object's own keys are searched.
 */
int	 json_get(const char *, const jsmntok_t *, int, int, const char *);
/* Whether token I is a string or primitive whose raw text equals S. */
int	 json_eq(const char *, const jsmntok_t *, int, const char *);
/*
 * Exact decimal value of token I (number, or string holding a number)
 * times 10^SCALE, as in dtime_parse.  Returns a dtime_err code.
 */
int	 json_dec(const char *, const jsmntok_t *, int, int, int64_t *);
/*
 * Decode the JSON string (or raw primitive) at token I into OUT (grown as
 * needed with xrealloc; *CAP is its size), NUL-terminated.  \uXXXX
 * escapes, surrogate pairs included, become UTF-8.  Returns the length,
 * or -1 for a malformed escape.
 */
long	 json_str(const char *, const jsmntok_t *, int, char **, size_t *);

/* A whole JSON document held in memory with its tokens. */
struct json_doc {
	char		*text;
	size_t		 len;
	jsmntok_t	*tok;
	int		 ntok;
};
/*
 * Read the rest of the current member of IN (at most MAX bytes) and
 * tokenize it.  Returns 0, or -1 after "prog: WHERE: msg".
 */
int	 json_load(struct input *, const char *, size_t, struct json_doc *);
/*
 * Like json_load, but a document cut short, damaged or followed by a
 * read error keeps what came before the damage: the damage is reported
 * and 1 returned, with the tokens jsmn made before it (a container it
 * left open has end -1: only closed ones are whole).  -1 when nothing
 * is left.
 */
int	 json_load_prefix(struct input *, const char *, size_t,
	    struct json_doc *);
/*
 * Tokenize JS (LEN bytes) into *TOK, grown as needed (*NTOK entries; 0
 * to allocate), in time linear at any nesting depth: jsontok for plain
 * JSON objects, jsmn only for what is shallow.  Returns the token count,
 * a jsmn error, or JSON_TOO_DEEP.
 */
#define JSON_TOO_DEEP	(-10)
int	 json_tokenize(const char *, size_t, jsmntok_t **, unsigned int *);
/* The deepest nesting of brackets in the text, strings skipped. */
long	 json_depth(const char *, size_t);
void	 json_free(struct json_doc *);

#endif
