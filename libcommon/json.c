/*
 * Helpers over jsmn tokens.  jsmn leaves string escapes undecoded and
 * numbers as text; these helpers decode strings to UTF-8 and read numbers
 * exactly through dtime_parse, so no value ever passes through a double.
 * json_load tokenizes a whole (small) document for the nested JSON files.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dtime.h"
#include "digits.h"
#include "json.h"
#include "jsontok.h"
#include "xalloc.h"

#define LOAD_CHUNK	(1 << 20)

/*
 * Every token's size counts the children attached to it (an object's
 * keys, a key's value, an array's elements), so the subtree ends when
 * all announced children have been walked.
 */
int
json_skip(const jsmntok_t *tok, int ntok, int i)
{
	long pending = 1;

	while (pending > 0 && i < ntok) {
		pending += tok[i].size - 1;
		i++;
	}
	return i;
}

int
json_get(const char *js, const jsmntok_t *tok, int ntok, int obj,
    const char *key)
{
	size_t klen = strlen(key);
	int i, k;

	if (obj < 0 || obj >= ntok || tok[obj].type != JSMN_OBJECT)
		return -1;
	i = obj + 1;
	for (k = 0; k < tok[obj].size && i + 1 < ntok; k++) {
		if ((size_t)(tok[i].end - tok[i].start) == klen &&
		    memcmp(js + tok[i].start, key, klen) == 0)
			return i + 1;
		i = json_skip(tok, ntok, i + 1);
	}
	return -1;
}

int
json_eq(const char *js, const jsmntok_t *tok, int i, const char *s)
{
	size_t n = strlen(s);

	if (tok[i].type != JSMN_STRING && tok[i].type != JSMN_PRIMITIVE)
		return 0;
	return (size_t)(tok[i].end - tok[i].start) == n &&
	    memcmp(js + tok[i].start, s, n) == 0;
}

/*
 * The common case of dtime_parse, for speed on every event's ts and dur:
 * [-]digits[.digits], at most 16 integer digits (epoch microseconds),
 * SCALE 0 to 3, rounded the same way.  Below 10^19 the value cannot wrap
 * a uint64.  Returns 0 for anything else, left to dtime_parse.
 */
static int
dec_fast(const char *s, size_t n, int scale, int64_t *out)
{
	const char *e = s + n;
	uint64_t v = 0;
#ifdef HAVE_DIGITS8
	uint64_t d8;
#endif
	int neg = 0, nint = 0, k;

	if (scale < 0 || scale > 3)
		return 0;
	if (s < e && *s == '-')
		neg = *s++ == '-';
#ifdef HAVE_DIGITS8
	/* Wraps only past 16 digits, which are refused below. */
	for (; e - s >= 8 && digits8(s, &d8); s += 8, nint += 8)
		v = v * 100000000 + d8;
#endif
	for (; s < e && *s >= '0' && *s <= '9'; s++, nint++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (nint == 0 || nint > 16)
		return 0;
	if (s < e && *s == '.')
		s++;
	for (k = 0; k < scale; k++)
		v = v * 10 + (s < e && *s >= '0' && *s <= '9' ?
		    (uint64_t)(*s++ - '0') : 0);
	if (s < e && *s >= '5' && *s <= '9')
		v++;
	while (s < e && *s >= '0' && *s <= '9')
		s++;
	if (s != e || v > INT64_MAX)
		return 0;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 1;
}

int
json_dec(const char *js, const jsmntok_t *tok, int i, int scale,
    int64_t *out)
{
	const char *s = js + tok[i].start;
	size_t n = (size_t)(tok[i].end - tok[i].start);

	if (tok[i].type != JSMN_STRING && tok[i].type != JSMN_PRIMITIVE)
		return DTIME_SYNTAX;
	if (dec_fast(s, n, scale, out))
		return DTIME_OK;
	return dtime_parse(s, n, scale, out);
}

/* Value of 4 hex digits at S, or -1. */
static long
hex4(const char *s)
{
	long v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		v <<= 4;
		if (s[i] >= '0' && s[i] <= '9')
			v |= s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			v |= s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			v |= s[i] - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static size_t
put_utf8(char *o, unsigned long c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | (c >> 12 & 0x3f));
	o[2] = (char)(0x80 | (c >> 6 & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/*
 * Decode the \uXXXX escape at S (END bounds it), joining a surrogate
 * pair.  A lone surrogate and \u0000 become U+FFFD: the text is valid
 * JSON, but neither can be written as UTF-8 into a prof-tsv field.
 * Returns the bytes of input used, or 0 when malformed.
 */
static size_t
unicode_escape(const char *s, const char *end, char *o, size_t *olen)
{
	long c, lo;
	size_t used = 6;

	if (end - s < 6 || (c = hex4(s + 2)) < 0)
		return 0;
	if (c >= 0xd800 && c <= 0xdbff && end - s >= 12 && s[6] == '\\' &&
	    s[7] == 'u' && (lo = hex4(s + 8)) >= 0xdc00 && lo <= 0xdfff) {
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
		used = 12;
	} else if ((c >= 0xd800 && c <= 0xdfff) || c == 0)
		c = 0xfffd;
	*olen = put_utf8(o, (unsigned long)c);
	return used;
}

/* Decode the escape at S into O; returns input bytes used, 0 if bad. */
static size_t
unescape(const char *s, const char *end, char *o, size_t *olen)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *p;

	if (end - s < 2)
		return 0;
	if (s[1] == 'u')
		return unicode_escape(s, end, o, olen);
	if ((p = memchr(from, s[1], sizeof(from) - 1)) == NULL)
		return 0;
	*o = to[p - from];
	*olen = 1;
	return 2;
}

long
json_str(const char *js, const jsmntok_t *tok, int i, char **out,
    size_t *cap)
{
	const char *s = js + tok[i].start, *end = js + tok[i].end, *bs;
	size_t n = 0, used, olen;
	char *o;

	/* Output is never longer than the input, plus the NUL. */
	if (*out == NULL || *cap < (size_t)(end - s) + 1) {
		*cap = (size_t)(end - s) + 1;
		*out = xrealloc(*out, *cap);
	}
	o = *out;
	if (tok[i].type != JSMN_STRING ||
	    (bs = memchr(s, '\\', (size_t)(end - s))) == NULL) {
		memcpy(o, s, (size_t)(end - s));
		o[end - s] = '\0';
		return end - s;
	}
	do {
		memcpy(o + n, s, (size_t)(bs - s));
		n += (size_t)(bs - s);
		if ((used = unescape(bs, end, o + n, &olen)) == 0)
			return -1;
		n += olen;
		s = bs + used;
	} while ((bs = memchr(s, '\\', (size_t)(end - s))) != NULL);
	memcpy(o + n, s, (size_t)(end - s));
	n += (size_t)(end - s);
	o[n] = '\0';
	return (long)n;
}

/* Line and column (from 1) of byte POS of TEXT, for a diagnostic. */
static void
position(const char *text, size_t pos, unsigned long *line,
    unsigned long *col)
{
	const char *p = text, *nl, *end = text + pos;

	*line = 1;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		(*line)++;
		p = nl + 1;
	}
	*col = (unsigned long)(end - p) + 1;
}

/* Read the rest of the member into DOC->text; -1 after a diagnostic. */
static int
load_text(struct input *in, const char *where, size_t max,
    struct json_doc *doc)
{
	size_t cap = LOAD_CHUNK;
	ssize_t n;

	doc->text = xmalloc(cap + 1);
	doc->len = 0;
	for (;;) {
		if (doc->len == cap) {
			if (cap > max)
				break;
			cap *= 2;
			doc->text = xrealloc(doc->text, cap + 1);
		}
		n = input_read(in, doc->text + doc->len, cap - doc->len);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		doc->len += (size_t)n;
		if (doc->len > max)
			break;
	}
	doc->text[doc->len] = '\0';
	if (doc->len > max) {
		diag_at(where, 0, "JSON document larger than %zu bytes", max);
		return -1;
	}
	return 0;
}

/* The deepest nesting of brackets in TEXT, strings skipped. */
long
json_depth(const char *text, size_t len)
{
	long depth = 0, max = 0;
	size_t i;
	int instr = 0;

	for (i = 0; i < len; i++) {
		if (instr) {
			if (text[i] == '\\')
				i++;
			else if (text[i] == '"')
				instr = 0;
		} else if (text[i] == '"')
			instr = 1;
		else if (text[i] == '{' || text[i] == '[') {
			if (++depth > max)
				max = depth;
		} else if (text[i] == '}' || text[i] == ']')
			depth--;
	}
	return max;
}

/*
 * jsmn walks up from its last token at every closing bracket, so its
 * time grows with the square of the nesting depth: a few megabytes
 * nested deep would take an hour.  jsontok, linear at any depth, takes
 * every well-formed object; jsmn gets only what is shallower than this.
 */
#define JSON_JSMN_DEPTH	64

/*
 * Tokenize JS[0, LEN) into *TOK (*NTOK entries, grown as needed).  P,
 * when not NULL, is left as jsmn left it, for the caller to see how far
 * it got.  Returns the token count, a jsmn error, or JSON_TOO_DEEP.
 */
static int
tokenize_text(const char *js, size_t len, jsmntok_t **tok,
    unsigned int *ntok, jsmn_parser *p)
{
	jsmn_parser local;
	size_t i = 0, end;
	int r;

	if (p == NULL)
		p = &local;
	jsmn_init(p);
	if (*ntok == 0) {
		*ntok = 64;
		*tok = xreallocarray(NULL, *ntok, sizeof(**tok));
	}
	while (i < len && (js[i] == ' ' || js[i] == '\t' || js[i] == '\n' ||
	    js[i] == '\r'))
		i++;
	while ((r = jsontok_object(js + i, len - i, *tok, *ntok, &end)) ==
	    JSONTOK_NOMEM) {
		*ntok *= 2;
		*tok = xreallocarray(*tok, *ntok, sizeof(**tok));
	}
	if (r != JSONTOK_PASS) {
		/* jsontok's offsets are from the object's first byte. */
		for (int k = 0; k < r; k++) {
			(*tok)[k].start += (int)i;
			(*tok)[k].end += (int)i;
		}
		p->pos = (unsigned int)(i + end);
		p->toknext = (unsigned int)r;
		return r;
	}
	if (json_depth(js, len) > JSON_JSMN_DEPTH)
		return JSON_TOO_DEEP;
	for (;;) {
		jsmn_init(p);
		r = jsmn_parse(p, js, len, *tok, *ntok);
		if (r != JSMN_ERROR_NOMEM)
			return r;
		*ntok *= 2;
		*tok = xreallocarray(*tok, *ntok, sizeof(**tok));
	}
}

int
json_tokenize(const char *js, size_t len, jsmntok_t **tok,
    unsigned int *ntok)
{
	return tokenize_text(js, len, tok, ntok, NULL);
}

/*
 * Tokenize DOC->text.  PREFIX: a document cut short or damaged keeps the
 * tokens before the damage (those of containers left open have end -1)
 * and returns 1; else damage returns -1.  Either way it is reported.
 */
static int
tokenize(const char *where, struct json_doc *doc, int prefix)
{
	jsmn_parser p;
	unsigned int ntok = 0;
	unsigned long line, col;
	const char *nul;
	size_t len = doc->len;
	int r;

	/* A NUL byte ends the text: jsmn would stop there unasked. */
	if ((nul = memchr(doc->text, '\0', doc->len)) != NULL) {
		len = (size_t)(nul - doc->text);
		if (!prefix) {
			position(doc->text, len, &line, &col);
			diag_atcol(where, line, col, "NUL byte in JSON text");
			return -1;
		}
	}
	r = tokenize_text(doc->text, len, &doc->tok, &ntok, &p);
	if (r == JSON_TOO_DEEP) {
		diag_at(where, 0, "invalid JSON (nested %ld levels deep)",
		    json_depth(doc->text, len));
		return -1;
	}
	if (r >= 0 && nul == NULL) {
		doc->ntok = r;
		return 0;
	}
	if (nul != NULL && (r >= 0 || r == JSMN_ERROR_PART)) {
		position(doc->text, len, &line, &col);
		diag_atcol(where, line, col, "NUL byte in JSON text");
	} else if (r == JSMN_ERROR_INVAL) {
		position(doc->text, p.pos, &line, &col);
		diag_atcol(where, line, col, "invalid JSON");
	} else {
		position(doc->text, len, &line, &col);
		diag_atcol(where, line, col, prefix ? "truncated JSON: the "
		    "document ends early (the file is cut short)" :
		    "truncated JSON document");
	}
	if (!prefix || p.toknext == 0)
		return -1;
	doc->ntok = (int)p.toknext;
	if (r >= 0)
		doc->ntok = r;
	return 1;
}

/* The first byte from POS on that is not JSON whitespace, or LEN. */
static size_t
skip_space(const char *text, size_t pos, size_t len)
{
	while (pos < len && (text[pos] == ' ' || text[pos] == '\t' ||
	    text[pos] == '\n' || text[pos] == '\r'))
		pos++;
	return pos;
}

/* Load and tokenize; PREFIX as for tokenize. */
static int
load(struct input *in, const char *where, size_t max, struct json_doc *doc,
    int prefix)
{
	unsigned long line, col;
	size_t end;
	int r;

	memset(doc, 0, sizeof(*doc));
	if (load_text(in, where, max, doc) == -1) {
		/* What was read before a read error is a prefix too. */
		if (!prefix || doc->len == 0)
			goto fail;
		doc->text[doc->len] = '\0';
		if ((r = tokenize(where, doc, 1)) == -1 || doc->ntok == 0)
			goto fail;
		return 1;
	}
	/* jsmn would take a UTF-8 BOM for a bad bare word: blank it. */
	if (doc->len >= 3 && memcmp(doc->text, "\xef\xbb\xbf", 3) == 0)
		memset(doc->text, ' ', 3);
	if ((r = tokenize(where, doc, prefix)) == -1)
		goto fail;
	if (doc->ntok == 0 || (doc->tok[0].type != JSMN_OBJECT &&
	    doc->tok[0].type != JSMN_ARRAY)) {
		if (r == 0)
			diag_at(where, 0, "not a JSON object or array");
		goto fail;
	}
	if (r == 1)
		return 1;
	end = skip_space(doc->text, (size_t)doc->tok[0].end, doc->len);
	if (end < doc->len) {
		position(doc->text, end, &line, &col);
		diag_atcol(where, line, col,
		    "unexpected text after the JSON value");
		if (prefix)
			return 1;
		goto fail;
	}
	return 0;
fail:
	json_free(doc);
	return -1;
}

int
json_load(struct input *in, const char *where, size_t max,
    struct json_doc *doc)
{
	return load(in, where, max, doc, 0);
}

int
json_load_prefix(struct input *in, const char *where, size_t max,
    struct json_doc *doc)
{
	return load(in, where, max, doc, 1);
}

void
json_free(struct json_doc *doc)
{
	free(doc->text);
	free(doc->tok);
	memset(doc, 0, sizeof(*doc));
}
