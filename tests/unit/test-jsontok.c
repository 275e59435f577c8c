/*
 * Unit test of libcommon/jsontok.c, the fast event tokenizer.  Its one
 * promise is to agree with the way it replaces, the event scanner's
 * bracket walk followed by jsmn: same end, same tokens, field for field.
 * Whatever it cannot promise that for it must pass on (JSONTOK_PASS).
 * Fixed cases cover each JSON form and each refusal; then mutations of
 * real-looking events check the promise on thousands of near misses.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jsontok.h"

#define NTOK	256

static jsmntok_t got[NTOK], want[NTOK];

/*
 * The end of the value at JS[0] as the event scanner finds it: strings
 * (a backslash hides the next byte), and brackets of either kind counted
 * together.  Returns 0 when the text runs out first.
 */
static size_t
scan_end(const char *js, size_t len)
{
	long depth = 0;
	int instr = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (instr) {
			if (js[i] == '\\')
				i++;
			else if (js[i] == '"')
				instr = 0;
		} else if (js[i] == '"')
			instr = 1;
		else if (js[i] == '{' || js[i] == '[')
			depth++;
		else if ((js[i] == '}' || js[i] == ']') && --depth <= 0)
			return i + 1;
	}
	return 0;
}

/* The old way: scanner, then jsmn on what it found.  -1 on failure. */
static int
old_way(const char *js, size_t len, size_t *endp)
{
	jsmn_parser p;
	size_t end = scan_end(js, len);
	int r;

	if (end == 0 || memchr(js, '\0', end) != NULL)
		return -1;
	jsmn_init(&p);
	r = jsmn_parse(&p, js, end, want, NTOK);
	if (r < 1 || want[0].type != JSMN_OBJECT)
		return -1;
	*endp = end;
	return r;
}

static int
tok_same(const jsmntok_t *a, const jsmntok_t *b)
{
	return a->type == b->type && a->start == b->start &&
	    a->end == b->end && a->size == b->size && a->parent == b->parent;
}

/*
 * Tokenize the LEN bytes at JS both ways.  When the fast way answers,
 * the old one must agree exactly; returns the fast way's result.
 */
static int
agree(const char *js, size_t len)
{
	size_t end = 0, oend = 0;
	int n, o, i;

	n = jsontok_object(js, len, got, NTOK, &end);
	CHECK(n >= JSONTOK_PASS || n == JSONTOK_NOMEM);
	if (n <= 0)
		return n;
	o = old_way(js, len, &oend);
	if (o != n || oend != end) {
		fprintf(stderr, "disagree on '%.*s': %d/%zu vs %d/%zu\n",
		    (int)len, js, n, end, o, oend);
		CHECK(0);
	}
	for (i = 0; i < n; i++)
		CHECK(tok_same(&got[i], &want[i]));
	return n;
}

/* A text the fast way must take: N tokens, ending at its last byte. */
static void
take(const char *js, int ntok)
{
	size_t len = strlen(js), k;

	CHECK(agree(js, len) == ntok);
	/* Every cut-off prefix is passed on: the end is not in sight. */
	for (k = 0; k < len; k++)
		CHECK(agree(js, k) == JSONTOK_PASS);
}

static void
test_take(void)
{
	take("{}", 1);
	take("{\"a\":1}", 3);
	take("{ \"ph\" : \"X\" ,\n\t\"ts\":\"1.5\", \"dur\": -2.5e3,\r\n"
	    "\"args\": {}, \"b\": [], \"t\": true, \"n\": null}", 15);
	take("{\"args\": {\"Input Dims\": [[32, 3], [], [1]], "
	    "\"o\": {\"p\": {\"q\": [{}]}}}}", 18);
	take("{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\uD83D\\ude00\"}",
	    3);
	take("{\"long\":\"0123456789abcdef0123456789abcdef\\\"0123\"}", 3);
	take("{\"raw\":\"\t\x01\xc3\xa9\"}", 3);		/* jsmn takes these */
	take("{\"k\":[1,2,3]}", 6);
	/* Bare words: jsmn (not strict) takes any, and so does the fast way. */
	take("{\"a\":tru,\"b\":0x1F,\"c\":+1.}", 7);
}

static void
test_pass(void)
{
	static const char *const bad[] = {
		"[1]", " {}", "{,}", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":}",
		"{1:2}", "{\"a\":1 \"b\":2}", "{\"a\":[1,]}", "{\"a\":[1 2]}",
		"{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\\u12\"}",
		"{\"a\":1:2}", "{\"a\":1\"}", "{\"a\":'x'}", "{\"a\":1]",
		"{\"a\":[}}", "{\"a\":{]}", "{\"a\":@}", "{\"a\":1e+\x7f}",
		NULL
	};
	char deep[200];
	int i;

	for (i = 0; bad[i] != NULL; i++)
		CHECK(agree(bad[i], strlen(bad[i])) == JSONTOK_PASS);
	/* NUL in a string or between tokens. */
	CHECK(agree("{\"a\":\"x\0y\"}", 11) == JSONTOK_PASS);
	CHECK(agree("{\"a\":1\0}", 8) == JSONTOK_PASS);
	/* Nesting deeper than the fast way goes. */
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	deep[0] = '{';
	memcpy(deep + 1, "\"a\":", 4);
	deep[199] = '}';
	CHECK(agree(deep, sizeof(deep)) == JSONTOK_PASS);
	/* Bytes after the object are not looked at. */
	CHECK(agree("{\"a\":1}, {garbage", 17) == 3);
}

static void
test_nomem(void)
{
	size_t end;

	CHECK(jsontok_object("{\"a\":[1,2]}", 11, got, 4, &end) ==
	    JSONTOK_NOMEM);
	CHECK(jsontok_object("{\"a\":[1,2]}", 11, got, 5, &end) == 5);
	CHECK(end == 11);
}

/* A small deterministic generator, so a failure can be replayed. */
static uint32_t
rnd(void)
{
	static uint32_t x = 2463534242u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

/* Bytes that change the structure, and a few that do not. */
static const char mut_bytes[] = "{}[]\":,\\ \n0aeu.-+/\x01\x7f\xc3";

/* One to three random edits of SRC into DST; returns the length. */
static size_t
mutate(const char *src, size_t n, char *dst)
{
	int edits = 1 + (int)(rnd() % 3), e;
	size_t at;
	char c;

	memcpy(dst, src, n);
	for (e = 0; e < edits && n > 1; e++) {
		at = rnd() % n;
		c = mut_bytes[rnd() % (sizeof(mut_bytes) - 1)];
		switch (rnd() % 3) {
		case 0:
			dst[at] = c;
			break;
		case 1:
			memmove(dst + at + 1, dst + at, n - at);
			dst[at] = c;
			n++;
			break;
		default:
			memmove(dst + at, dst + at + 1, n - at - 1);
			n--;
			break;
		}
	}
	return n;
}

static void
test_mutations(void)
{
	static const char *const seeds[] = {
		"{\"ph\": \"X\", \"name\": \"aten::mul\", \"pid\": 3096504, "
		"\"tid\": 3096504, \"ts\": \"1736408883686009.889\", "
		"\"dur\": 44.34, \"cat\": \"cpu_op\", \"args\": {\"Input Dims\""
		": \"32,9216;\\r\\n\", \"Call stack\": \"a.py(1): f;\\r\\n"
		"<string>(1): <module>\"}}",
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void gemm<\\\"x\\\">"
		"\",\"pid\":0,\"tid\":7,\"ts\":1.5,\"dur\":2,\"args\":{\"grid\":"
		"[128,1,1],\"block\":[256, 1, 1],\"correlation\":42,\"o\":{}}}",
		"{\"ph\": \"C\", \"name\": \"mem\", \"args\": {\"a\": 1, "
		"\"b\": [true, false, null, {\"c\": \"\\u00e9\"}]}}",
		NULL
	};
	char buf[512];
	int i, k, taken = 0, passed = 0;
	size_t n;

	for (i = 0; seeds[i] != NULL; i++)
		for (k = 0; k < 20000; k++) {
			n = mutate(seeds[i], strlen(seeds[i]), buf);
			if (agree(buf, n) > 0)
				taken++;
			else
				passed++;
		}
	/* Both outcomes are exercised, or the test proves little. */
	CHECK(taken > 1000 && passed > 1000);
}

int
main(void)
{
	test_take();
	test_pass();
	test_nomem();
	test_mutations();
	CHECK_DONE();
}
