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
 */
#include <config.h>

#include <limits.h>
#include <stddef.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jsontok.h"

#define JT_MAXDEPTH	32	/* deeper nesting is left to jsmn */

/* Results of the helpers below. */
#define JT_OK		0
#define JT_NOMEM	(-1)
#define JT_PASS		(-2)

struct jt {
	const char	*js;
	size_t		 len;
	size_t		 pos;	/* next byte to look at */
	jsmntok_t	*tok;
	unsigned int	 ntok;
	unsigned int	 next;	/* tokens used */
};

static int	jt_value(struct jt *, int, int);

/* A byte of a bare value (number, true, false, null). */
static inline int
prim_byte(unsigned char c)
{
	unsigned char l = c | 0x20;

	return (c >= '0' && c <= '9') || (l >= 'a' && l <= 'z') ||
	    c == '-' || c == '+' || c == '.';
}

/* A byte that ends a bare value for jsmn, ':' aside. */
static inline int
prim_end(unsigned char c)
{
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' ||
	    c == '\r' || c == '\t';
}

/*
 * Index of the first quote, backslash or NUL in S[I, LEN), or LEN.  The
 * 16-byte loads never reach past LEN, so the caller needs no padding.
 */
static inline size_t
str_stop(const char *s, size_t i, size_t len)
{
#ifdef __SSE2__
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

/* Take the next token, START its first byte, as jsmn_alloc_token does. */
static jsmntok_t *
jt_alloc(struct jt *t, jsmntype_t type, size_t start, int parent)
{
	jsmntok_t *k;

	if (t->next >= t->ntok)
		return NULL;
	k = &t->tok[t->next++];
	k->type = type;
	k->start = (int)start;
	k->end = -1;
	k->size = 0;
#ifdef JSMN_PARENT_LINKS
	k->parent = parent;
#else
	(void)parent;
#endif
	return k;
}

/* Skip blanks; returns the next byte, or -1 at the end of the text. */
static inline int
jt_ws(struct jt *t)
{
	unsigned char c;

	for (; t->pos < t->len; t->pos++) {
		c = (unsigned char)t->js[t->pos];
		if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
			return c;
	}
	return -1;
}

/* The string at t->pos; its token spans the bytes between the quotes. */
static int
jt_string(struct jt *t, int parent)
{
	size_t i = t->pos + 1, start = i, n;
	jsmntok_t *k;

	for (;;) {
		i = str_stop(t->js, i, t->len);
		if (i >= t->len || t->js[i] == '\0')
			return JT_PASS;
		if (t->js[i] == '"')
			break;
		if ((n = escape_len(t->js + i, t->len - i)) == 0)
			return JT_PASS;
		i += n;
	}
	if ((k = jt_alloc(t, JSMN_STRING, start, parent)) == NULL)
		return JT_NOMEM;
	k->end = (int)i;
	t->pos = i + 1;
	return JT_OK;
}

/* A bare value: it must end where jsmn ends it, at a delimiter. */
static int
jt_prim(struct jt *t, int parent)
{
	size_t i = t->pos;
	jsmntok_t *k;

	while (i < t->len && prim_byte((unsigned char)t->js[i]))
		i++;
	if (i >= t->len || !prim_end((unsigned char)t->js[i]))
		return JT_PASS;
	if ((k = jt_alloc(t, JSMN_PRIMITIVE, t->pos, parent)) == NULL)
		return JT_NOMEM;
	k->end = (int)i;
	t->pos = i;
	return JT_OK;
}

/*
 * An object: jsmn counts its keys in its size, gives each key the size 1
 * (its value) and makes the key the value's parent.
 */
static int
jt_object(struct jt *t, int parent, int depth)
{
	int self = (int)t->next, key, r, c;

	if (depth > JT_MAXDEPTH)
		return JT_PASS;
	if (jt_alloc(t, JSMN_OBJECT, t->pos, parent) == NULL)
		return JT_NOMEM;
	t->pos++;
	if ((c = jt_ws(t)) != '}')
		for (;;) {
			if (c != '"')
				return JT_PASS;
			key = (int)t->next;
			if ((r = jt_string(t, self)) != JT_OK)
				return r;
			t->tok[self].size++;
			if (jt_ws(t) != ':')
				return JT_PASS;
			t->pos++;
			(void)jt_ws(t);
			if ((r = jt_value(t, key, depth)) != JT_OK)
				return r;
			t->tok[key].size = 1;
			if ((c = jt_ws(t)) == '}')
				break;
			if (c != ',')
				return JT_PASS;
			t->pos++;
			c = jt_ws(t);
		}
	t->tok[self].end = (int)t->pos + 1;
	t->pos++;
	return JT_OK;
}

/* An array: its size counts its elements, each its child. */
static int
jt_array(struct jt *t, int parent, int depth)
{
	int self = (int)t->next, r, c;

	if (depth > JT_MAXDEPTH)
		return JT_PASS;
	if (jt_alloc(t, JSMN_ARRAY, t->pos, parent) == NULL)
		return JT_NOMEM;
	t->pos++;
	if (jt_ws(t) != ']')
		for (;;) {
			if ((r = jt_value(t, self, depth)) != JT_OK)
				return r;
			t->tok[self].size++;
			if ((c = jt_ws(t)) == ']')
				break;
			if (c != ',')
				return JT_PASS;
			t->pos++;
			(void)jt_ws(t);
		}
	t->tok[self].end = (int)t->pos + 1;
	t->pos++;
	return JT_OK;
}

/* Any value at t->pos, blanks before it already skipped. */
static int
jt_value(struct jt *t, int parent, int depth)
{
	unsigned char c;

	if (t->pos >= t->len)
		return JT_PASS;
	c = (unsigned char)t->js[t->pos];
	switch (c) {
	case '"':
		return jt_string(t, parent);
	case '{':
		return jt_object(t, parent, depth + 1);
	case '[':
		return jt_array(t, parent, depth + 1);
	default:
		return prim_byte(c) ? jt_prim(t, parent) : JT_PASS;
	}
}

int
jsontok_object(const char *js, size_t len, jsmntok_t *tok,
    unsigned int ntok, size_t *endp)
{
	struct jt t;
	int r;

	/* jsmn's offsets are int. */
	t.js = js;
	t.len = len < INT_MAX ? len : INT_MAX;
	t.pos = 0;
	t.tok = tok;
	t.ntok = ntok;
	t.next = 0;
	if (t.len == 0 || js[0] != '{')
		return JSONTOK_PASS;
	if ((r = jt_object(&t, -1, 1)) == JT_NOMEM)
		return JSONTOK_NOMEM;
	if (r != JT_OK)
		return JSONTOK_PASS;
	*endp = t.pos;
	return (int)t.next;
}
