/*
 * Fast tokenizer for one well-formed JSON object, token for token the
 * same as jsmn's (built with JSMN_PARENT_LINKS, without JSMN_STRICT).
 *
 * jsmn looks at every byte of every string in a switch, and the event
 * scanner in front of it had already walked the same bytes to find where
 * the event ends: together about a third of the time to ingest a Chrome
 * trace.  This parser follows the JSON grammar directly, so it finds the
 * end itself, and it crosses strings 16 bytes at a time.  It accepts only
 * what is both well-formed JSON and tokenized alike by jsmn: objects and
 * arrays with ',' and ':' in their places, strings whose escapes jsmn
 * accepts and that hold no NUL, and bare values made of letters, digits
 * and "+-.".  Anything else returns JSONTOK_PASS, and the caller goes the
 * old way, so malformed input gets exactly the old diagnostics.
 *
 * It is one loop over local state with an explicit stack of the open
 * objects and arrays, not a recursive descent: the position and the token
 * count stay in registers, which halves the instructions per token.
 */
#include <config.h>

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "simd.h"

#include "jsontok.h"

/*
 * Open objects and arrays are kept on the C stack up to this depth and
 * on the heap beyond it: jsmn takes time quadratic in the depth (each
 * closing bracket walks up from the last token), so deep nesting must
 * not be left to it.
 */
#define JT_STACK	32

/* Byte classes: part of a bare value, what jsmn ends one with, blank. */
#define P	1
#define E	2
#define W	(E | 4)

static const unsigned char jt_class[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, W, W, 0, 0, W, 0, 0,	/* \t \n \r */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	W, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, P, E, P, P, 0,	/* ' ' + , - . */
	P, P, P, P, P, P, P, P, P, P, 0, 0, 0, 0, 0, 0,	/* 0-9 */
	0, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,	/* A-O */
	P, P, P, P, P, P, P, P, P, P, P, 0, 0, E, 0, 0,	/* P-Z ] */
	0, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,	/* a-o */
	P, P, P, P, P, P, P, P, P, P, P, 0, 0, E, 0, 0	/* p-z } */
};

/*
 * Index of the first quote, backslash or NUL in S[I, LEN), or LEN.  The
 * 16-byte loads never reach past LEN, so the caller needs no padding.
 */
static inline size_t
str_stop(const char *s, size_t i, size_t len)
{
#ifdef PROF_SSE2
	const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\');
	const __m128i z = _mm_setzero_si128();
	__m128i v;
	unsigned m;

	for (; i + 16 <= len; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, b)),
		    _mm_cmpeq_epi8(v, z)));
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	for (; i < len; i++)
		if (s[i] == '"' || s[i] == '\\' || s[i] == '\0')
			break;
	return i;
}

static inline int
hex_byte(unsigned char c)
{
	unsigned char l = c | 0x20;

	return (c >= '0' && c <= '9') || (l >= 'a' && l <= 'f');
}

/* Length of the escape at S (AVAIL bytes), or 0 where jsmn may differ. */
static size_t
escape_len(const char *s, size_t avail)
{
	if (avail < 2)
		return 0;
	switch (s[1]) {
	case '"': case '/': case '\\':
	case 'b': case 'f': case 'r': case 'n': case 't':
		return 2;
	case 'u':
		if (avail < 6 || !hex_byte((unsigned char)s[2]) ||
		    !hex_byte((unsigned char)s[3]) ||
		    !hex_byte((unsigned char)s[4]) ||
		    !hex_byte((unsigned char)s[5]))
			return 0;
		return 6;
	default:
		return 0;
	}
}

/*
 * Index of the quote that closes the string whose first byte is at I, or
 * 0 to pass (no string closes at 0: the object's '{' is there).
 */
static inline size_t
str_end(const char *js, size_t i, size_t len)
{
	size_t n;

	for (;;) {
		i = str_stop(js, i, len);
		if (i >= len || js[i] == '\0')
			return 0;
		if (js[i] == '"')
			return i;
		if ((n = escape_len(js + i, len - i)) == 0)
			return 0;
		i += n;
	}
}

/* The first byte from I on that is no blank, or LEN. */
static inline size_t
skip_ws(const char *js, size_t i, size_t len)
{
	/* Every blank is at most ' ': the usual case takes one test. */
	if (i < len && (unsigned char)js[i] > ' ')
		return i;
	while (i < len && jt_class[(unsigned char)js[i]] == W)
		i++;
	return i;
}

/* Fill token K as jsmn_alloc_token and jsmn_fill_token would. */
static inline void
tok_set(jsmntok_t *k, jsmntype_t type, size_t start, int parent)
{
	k->type = type;
	k->start = (int)start;
	k->end = -1;
	k->size = 0;
#ifdef JSMN_PARENT_LINKS
	k->parent = parent;
#else
	(void)parent;
#endif
}

/* Double the stack of open brackets, moving it to the heap; -1 if no memory. */
static int
grow(int **up, int *stack, int *max)
{
	int *n;

	if (*max > INT_MAX / 2)
		return -1;
	if ((n = realloc(*up == stack ? NULL : *up, (size_t)*max * 2 *
	    sizeof(**up))) == NULL)
		return -1;
	if (*up == stack)
		memcpy(n, stack, sizeof(*stack) * JT_STACK);
	*up = n;
	*max *= 2;
	return 0;
}

#define RETURN(v)	do { ret = (v); goto done; } while (0)

/*
 * The states: OPEN at a '{' or '[' that becomes a child of PARENT; KEY
 * where an object expects a key (or its end); VALUE at a value that
 * becomes a child of PARENT; AFTER behind a value, where ',' or the
 * bracket that closes CUR must come.  jsmn counts an object's keys, an
 * array's elements and a key's one value in their size, and makes a key
 * the parent of its value.
 */
int
jsontok_object(const char *js, size_t len, jsmntok_t *tok,
    unsigned int ntok, size_t *endp)
{
	int stack[JT_STACK], *up = stack;	/* the open objects and arrays */
	int depth = 0, maxdepth = JT_STACK, cur = -1, parent = -1, k, ret;
	unsigned int next = 0;
	size_t i = 0, e;
	jsmntype_t type = JSMN_OBJECT;

	/* jsmn's offsets are int. */
	if (len > INT_MAX)
		len = INT_MAX;
	if (len == 0 || js[0] != '{')
		return JSONTOK_PASS;
open:
	if (depth == maxdepth && grow(&up, stack, &maxdepth) != 0)
		RETURN(JSONTOK_PASS);
	if (next >= ntok)
		RETURN(JSONTOK_NOMEM);
	cur = (int)next++;
	tok_set(&tok[cur], type, i, parent);
	up[depth++] = cur;
	i = skip_ws(js, i + 1, len);
	if (i >= len)
		RETURN(JSONTOK_PASS);
	if (type == JSMN_OBJECT) {
		if (js[i] == '}')
			goto close;
		goto key;
	}
	if (js[i] == ']')
		goto close;
	tok[cur].size++;
	parent = cur;
	goto value;
key:
	if (js[i] != '"' || (e = str_end(js, i + 1, len)) == 0)
		RETURN(JSONTOK_PASS);
	if (next >= ntok)
		RETURN(JSONTOK_NOMEM);
	k = (int)next++;
	tok_set(&tok[k], JSMN_STRING, i + 1, cur);
	tok[k].end = (int)e;
	tok[k].size = 1;	/* its value, which must follow */
	tok[cur].size++;
	i = skip_ws(js, e + 1, len);
	if (i >= len || js[i] != ':')
		RETURN(JSONTOK_PASS);
	i = skip_ws(js, i + 1, len);
	if (i >= len)
		RETURN(JSONTOK_PASS);
	parent = k;
value:
	switch (js[i]) {
	case '{':
		type = JSMN_OBJECT;
		goto open;
	case '[':
		type = JSMN_ARRAY;
		goto open;
	case '"':
		if ((e = str_end(js, i + 1, len)) == 0)
			RETURN(JSONTOK_PASS);
		if (next >= ntok)
			RETURN(JSONTOK_NOMEM);
		tok_set(&tok[next], JSMN_STRING, i + 1, parent);
		tok[next++].end = (int)e;
		i = e + 1;
		break;
	default:
		/* A bare value: it must end where jsmn ends it. */
		for (e = i; e < len && jt_class[(unsigned char)js[e]] == P; e++)
			;
		if (e == i || e >= len || !(jt_class[(unsigned char)js[e]] & E))
			RETURN(JSONTOK_PASS);
		if (next >= ntok)
			RETURN(JSONTOK_NOMEM);
		tok_set(&tok[next], JSMN_PRIMITIVE, i, parent);
		tok[next++].end = (int)e;
		i = e;
		break;
	}
after:
	i = skip_ws(js, i, len);
	if (i >= len)
		RETURN(JSONTOK_PASS);
	if (js[i] == ',') {
		i = skip_ws(js, i + 1, len);
		if (i >= len)
			RETURN(JSONTOK_PASS);
		if (tok[cur].type == JSMN_OBJECT)
			goto key;
		tok[cur].size++;
		parent = cur;
		goto value;
	}
close:
	if (js[i] != (tok[cur].type == JSMN_OBJECT ? '}' : ']'))
		RETURN(JSONTOK_PASS);
	tok[cur].end = (int)i + 1;
	i++;
	if (--depth == 0) {
		*endp = i;
		RETURN((int)next);
	}
	cur = up[depth - 1];
	goto after;
done:
	if (up != stack)
		free(up);
	return ret;
}
