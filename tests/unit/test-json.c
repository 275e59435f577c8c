/*
 * Unit test of libcommon/json.c: exact numbers from number and string
 * tokens (the fast path must agree with dtime_parse digit for digit),
 * string unescaping with surrogate pairs, key lookup and subtree skipping,
 * and json_load with its errors.
 */
#include <config.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "errcap.h"
#include "diag.h"
#include "dtime.h"
#include "json.h"

static char tmpdir[1024];
static char filepath[1100];

/* Tokenize JS into TOK (at most 64 tokens); returns the count. */
static int
parse(const char *js, jsmntok_t *tok)
{
	jsmn_parser p;

	jsmn_init(&p);
	return jsmn_parse(&p, js, strlen(js), tok, 64);
}

/* json_dec on the one token of JS (a number or a string). */
static int
dec(const char *js, int scale, int64_t *v)
{
	jsmntok_t tok[64];

	CHECK(parse(js, tok) == 1);
	return json_dec(js, tok, 0, scale, v);
}

static void
test_dec(void)
{
	int64_t v;

	CHECK(dec("\"1736408883688177.930\"", 3, &v) == DTIME_OK);
	CHECK(v == 1736408883688177930);
	CHECK(dec("1712195495519695.8", 3, &v) == DTIME_OK);
	CHECK(v == 1712195495519695800);
	CHECK(dec("53.7410625", 3, &v) == DTIME_OK && v == 53741);
	CHECK(dec("0.0005", 3, &v) == DTIME_OK && v == 1);
	CHECK(dec("-0.0005", 3, &v) == DTIME_OK && v == -1);
	CHECK(dec("-2.5", 0, &v) == DTIME_OK && v == -3);
	CHECK(dec("\"1e3\"", 3, &v) == DTIME_OK && v == 1000000);
	CHECK(dec("7", 0, &v) == DTIME_OK && v == 7);
	CHECK(dec("\" 12 \"", 3, &v) == DTIME_OK && v == 12000);
	CHECK(dec("9223372036854775807", 0, &v) == DTIME_OK &&
	    v == INT64_MAX);
	CHECK(dec("9223372036854775.808", 3, &v) == DTIME_RANGE);
	CHECK(dec("9999999999999999.999", 3, &v) == DTIME_RANGE);
	CHECK(dec("\"abc\"", 3, &v) == DTIME_SYNTAX);
	CHECK(dec("\"1.2.3\"", 3, &v) == DTIME_SYNTAX);
	CHECK(dec("\"\"", 3, &v) == DTIME_EMPTY);
	CHECK(dec("true", 3, &v) == DTIME_SYNTAX);
}

/*
 * json_dec takes a shortcut for plain decimals: compare it with
 * dtime_parse on many generated texts, near every boundary it has.
 */
static void
test_dec_agrees(void)
{
	static const char alphabet[] = "0123456789.-5e/:?";
	unsigned long x = 42;
	char js[40];
	jsmntok_t tok;
	int64_t a, b;
	int i, k, n, scale, ea, eb;

	tok.type = JSMN_PRIMITIVE;
	tok.start = 0;
	for (i = 0; i < 200000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		n = 1 + (int)(x >> 59) % 24;
		for (k = 0; k < n; k++) {
			x = x * 6364136223846793005UL + 1;
			js[k] = k < 18 && (x >> 60) < 13 ?
			    (char)('0' + (x >> 40) % 10) :
			    alphabet[(x >> 33) % (sizeof(alphabet) - 1)];
		}
		js[n] = '\0';
		tok.end = n;
		scale = (int)(x >> 20) % 5;
		ea = json_dec(js, &tok, 0, scale, &a);
		eb = dtime_parse(js, (size_t)n, scale, &b);
		CHECK(ea == eb);
		if (ea == DTIME_OK && a != b)
			CHECK_STR(js, "(value differs)");
	}
}

/*
 * json_str on JS, a quoted string or a bare primitive; returns the length.
 * The token is built here, because jsmn itself rejects some bad escapes.
 */
static long
str(const char *js, char **out, size_t *cap)
{
	jsmntok_t tok;
	int quoted = js[0] == '"';

	tok.type = quoted ? JSMN_STRING : JSMN_PRIMITIVE;
	tok.start = quoted;
	tok.end = (int)strlen(js) - quoted;
	tok.size = 0;
	return json_str(js, &tok, 0, out, cap);
}

static void
test_str(void)
{
	char *out = NULL;
	size_t cap = 0;

	CHECK(str("\"plain\"", &out, &cap) == 5);
	CHECK_STR(out, "plain");
	CHECK(str("\"a\\tb\\nc\\\\d\\\"e\\/f\\r\\b\\f\"", &out, &cap) == 14);
	CHECK_STR(out, "a\tb\nc\\d\"e/f\r\b\f");
	CHECK(str("\"caf\\u00e9 \\u20ac\"", &out, &cap) == 9);
	CHECK_STR(out, "caf\xc3\xa9 \xe2\x82\xac");
	/* U+1F600 as a surrogate pair: 4 bytes of UTF-8. */
	CHECK(str("\"\\ud83d\\ude00!\"", &out, &cap) == 5);
	CHECK_STR(out, "\xf0\x9f\x98\x80!");
	/* A lone surrogate and \u0000 cannot be UTF-8 text: U+FFFD. */
	CHECK(str("\"x\\ud83dy\"", &out, &cap) == 5);
	CHECK_STR(out, "x\xef\xbf\xbdy");
	CHECK(str("\"\\u0000\"", &out, &cap) == 3);
	CHECK_STR(out, "\xef\xbf\xbd");
	CHECK(str("\"raw \xe2\x82\xac\"", &out, &cap) == 7);
	CHECK(str("\"bad \\x\"", &out, &cap) == -1);
	CHECK(str("\"bad \\u12g4\"", &out, &cap) == -1);
	CHECK(str("\"cut \\u12\"", &out, &cap) == -1);
	CHECK(str("\"cut \\\"", &out, &cap) == -1);
	CHECK(str("12.50", &out, &cap) == 5);
	CHECK_STR(out, "12.50");
	free(out);
}

static void
test_get_skip(void)
{
	const char *js = "{\"a\":{\"x\":[1,{\"y\":2}],\"z\":3},\"name\":\"n\","
	    "\"ts\":\"5\",\"ts2\":[[],[]],\"last\":null}";
	jsmntok_t tok[64];
	int n = parse(js, tok), v;

	CHECK(n > 0);
	CHECK(json_skip(tok, n, 0) == n);
	CHECK(json_skip(tok, n, 2) == 11);	/* past "a"'s object */
	CHECK((v = json_get(js, tok, n, 0, "name")) == 12);
	CHECK(json_eq(js, tok, v, "n"));
	CHECK(!json_eq(js, tok, v, "nn"));
	CHECK(json_get(js, tok, n, 0, "x") == -1);	/* nested: not ours */
	CHECK(json_get(js, tok, n, 0, "y") == -1);
	CHECK((v = json_get(js, tok, n, 0, "last")) == n - 1);
	CHECK(json_eq(js, tok, v, "null"));
	CHECK(json_get(js, tok, n, 2, "z") == 10);
	CHECK(json_get(js, tok, n, 12, "n") == -1);	/* not an object */
}

/* json_load on a file holding TEXT (LEN bytes) with cap MAX. */
static int
load(const char *text, size_t len, size_t max, struct json_doc *doc)
{
	struct input *in;
	const char *name;
	FILE *f;
	int r;

	CHECK((f = fopen(filepath, "wb")) != NULL);
	CHECK(fwrite(text, 1, len, f) == len);
	CHECK(fclose(f) == 0);
	CHECK((in = input_open(filepath)) != NULL);
	CHECK(input_next(in, &name) == 1);
	r = json_load(in, "doc.json", max, doc);
	input_close(in);
	return r;
}

static void
test_load(void)
{
	static const char good[] = "\xef\xbb\xbf{\"step50\": {\"p2p\": {},\n"
	    "  \"t\": 1736408883732241.5}}\n";
	struct json_doc doc;
	int v;

	CHECK(load(good, sizeof(good) - 1, 1000, &doc) == 0);
	CHECK(doc.ntok == 7 && doc.tok[0].type == JSMN_OBJECT);
	v = json_get(doc.text, doc.tok, doc.ntok, 0, "step50");
	CHECK(json_get(doc.text, doc.tok, doc.ntok, v, "t") == 6);
	json_free(&doc);
	err_begin();
	CHECK(load(good, sizeof(good) - 1, 20, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json: JSON document larger "
	    "than 20 bytes");
	err_begin();
	CHECK(load("{\"a\": [1,\n 2", 12, 1000, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json:2:3: truncated JSON "
	    "document");
	err_begin();
	CHECK(load("{\"a\":\n\"x\0y\"}", 12, 1000, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json:2:3: NUL byte in JSON text");
	err_begin();
	CHECK(load("{\"a\": 1}\n}", 10, 1000, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json:2:1: unexpected text "
	    "after the JSON value");
	err_begin();
	CHECK(load("{\"a\": 1,\n]", 10, 1000, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json:2:1: invalid JSON");
	err_begin();
	CHECK(load("{\"a\": 1} x", 10, 1000, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json:1:10: unexpected text "
	    "after the JSON value");
	err_begin();
	CHECK(load("", 0, 1000, &doc) == -1);
	CHECK_STR(err_end(), "test-json: doc.json: not a JSON object or "
	    "array");
	CHECK(doc.text == NULL && doc.tok == NULL);
}

int
main(void)
{
	const char *t = getenv("TMPDIR");

	diag_setprogname("test-json");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test-json.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	CHECK(mkdtemp(tmpdir) != NULL);
	snprintf(filepath, sizeof(filepath), "%s/doc.json", tmpdir);
	test_dec();
	test_dec_agrees();
	test_str();
	test_get_skip();
	test_load();
	unlink(filepath);
	rmdir(tmpdir);
	CHECK_DONE();
}
