/*
 * Unit test of libcommon/jsonev.c, the streaming Chrome trace reader:
 * top-level keys around "traceEvents", the bare array form with and
 * without its ']', strings holding brackets, quotes and escapes, events
 * across read blocks and larger than a block, line and column numbers,
 * and every diagnostic (truncation, NUL, size cap, missing traceEvents).
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
#include "jsonev.h"

static char tmpdir[1024];
static char filepath[1100];

/* What a run saw: the events' texts and the top-level pairs. */
static char events[1 << 16], tops[1 << 12];
static int nevents;
static unsigned long lastline, lastcol;

static void
on_top(void *arg, const char *key, size_t klen, const char *val,
    size_t vlen)
{
	size_t n = strlen(tops);

	(void)arg;
	snprintf(tops + n, sizeof(tops) - n, "%.*s=%.*s;", (int)klen, key,
	    (int)vlen, val);
}

static void
write_file(const char *text, size_t len)
{
	FILE *f = fopen(filepath, "wb");

	CHECK(f != NULL);
	CHECK(len == 0 || fwrite(text, 1, len, f) == len);
	CHECK(fclose(f) == 0);
}

/* Read the file with the event cap MAX; collect events and top pairs. */
static int
run_file(size_t max)
{
	struct jsonev_event e;
	struct jsonev *ev;
	struct input *in;
	const char *name;
	size_t n;
	int r;

	events[0] = tops[0] = '\0';
	nevents = 0;
	CHECK((in = input_open(filepath)) != NULL);
	CHECK(input_next(in, &name) == 1);
	ev = jsonev_open(in, "t.json", max);
	jsonev_ontop(ev, on_top, NULL);
	while ((r = jsonev_next(ev, &e)) == 1) {
		CHECK(e.ntok >= 1 && e.tok[0].type == JSMN_OBJECT);
		CHECK(e.tok[0].end == (int)e.len && e.text[0] == '{');
		n = strlen(events);
		if (e.len < 200)
			snprintf(events + n, sizeof(events) - n, "%.*s|",
			    (int)e.len, e.text);
		nevents++;
		jsonev_linecol(ev, &e, &lastline, &lastcol);
	}
	CHECK(jsonev_next(ev, &e) == r);	/* the end stays the end */
	jsonev_close(ev);
	input_close(in);
	return r;
}

static int
run(const char *text, size_t max)
{
	write_file(text, strlen(text));
	return run_file(max);
}

/* A run that must fail with the diagnostic WANT. */
static void
run_fail(const char *text, size_t len, size_t max, const char *want)
{
	int r;

	write_file(text, len);
	err_begin();
	r = run_file(max);
	CHECK_STR(err_end(), want);
	CHECK(r == -1);
}

static void
test_keys(void)
{
	CHECK(run("\n{\"schemaVersion\": 1, \"x\": {\"traceEvents\": [1]},\n"
	    "  \"s\": \"traceEvents\", \"traceEvents\": [\n"
	    "{\"ph\":\"X\",\"ts\":\"1.5\"},\n {\"a\":\"}{\\\"][\"} ],\n"
	    "\"baseTimeNanoseconds\": 1700000000000000000,\n"
	    "\"arr\": [1, {\"b\": \"]\"}], \"n\": null}\n", 0) == 0);
	CHECK(nevents == 2);
	CHECK_STR(events, "{\"ph\":\"X\",\"ts\":\"1.5\"}|{\"a\":\"}{\\\"][\"}|");
	CHECK_STR(tops, "schemaVersion=1;x={\"traceEvents\": [1]};"
	    "s=\"traceEvents\";baseTimeNanoseconds=1700000000000000000;"
	    "arr=[1, {\"b\": \"]\"}];n=null;");
	CHECK(lastline == 5 && lastcol == 2);
	/* No other keys at all, and traceEvents last. */
	CHECK(run("{\"traceEvents\":[]}", 0) == 0 && nevents == 0);
	CHECK(run("{\"a\":\"b\",\"traceEvents\":[{}]}", 0) == 0);
	CHECK(nevents == 1);
	CHECK_STR(tops, "a=\"b\";");
}

static void
test_array(void)
{
	CHECK(run("[{\"a\":1},\n{\"b\":2}]\n", 0) == 0 && nevents == 2);
	/*
	 * The Trace Event Format allows the ']' to be missing, but every
	 * profiler writes it: its absence is a cut, after the events.
	 */
	CHECK(run("[{\"a\":1},\n{\"b\":2},\n", 0) == -1 && nevents == 2);
	CHECK(run("[{\"a\":1}", 0) == -1 && nevents == 1);
	CHECK(run("\xef\xbb\xbf[{\"a\":1}]", 0) == 0 && nevents == 1);
	CHECK(run("[]", 0) == 0 && nevents == 0);
	CHECK(run(" [ ] ", 0) == 0 && nevents == 0);
}

/* Escapes reach jsmn undecoded; tokens still find them. */
static void
test_strings(void)
{
	CHECK(run("[{\"name\":\"a\\tb\\\\\",\"s\":\"\\ud83d\\ude00\","
	    "\"ts\":\"1715068411367849.123\"}]", 0) == 0);
	CHECK(nevents == 1);
	CHECK_STR(events, "{\"name\":\"a\\tb\\\\\",\"s\":\"\\ud83d\\ude00\","
	    "\"ts\":\"1715068411367849.123\"}|");
}

static void
test_errors(void)
{
	run_fail("{\"traceEvents\": [\n{\"a\":1},\n  {\"b\": \"x", 37, 0,
	    "test-jsonev: t.json:3:3: truncated JSON: unterminated event "
	    "object");
	CHECK(nevents == 1);		/* the event before it was read */
	run_fail("[{\"a\":\"x\0y\"}]", 13, 0,
	    "test-jsonev: t.json:1:9: NUL byte in JSON text");
	run_fail("[{\"a\":1},\0", 10, 0,
	    "test-jsonev: t.json:1:10: NUL byte in JSON text");
	run_fail("[{\"a\":1},\001", 10, 0,
	    "test-jsonev: t.json:1:10: expected an event object, found "
	    "byte 0x01");
	run_fail("[\n {\"a\":\"0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789\"}]", 91, 64,
	    "test-jsonev: t.json:2:2: event object larger than 64 bytes");
	run_fail("{\"a\": 1}\n", 9, 0, "test-jsonev: t.json: no "
	    "'traceEvents' array in the top-level object");
	run_fail("", 0, 0, "test-jsonev: t.json:1:1: empty input: no JSON "
	    "value");
	run_fail("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0",
	    50, 0, "test-jsonev: t.json:1:42: truncated JSON: unterminated "
	    "top-level value");
	run_fail("{\"traceEvents\": {}}", 19, 0, "test-jsonev: t.json:1:17: "
	    "expected '[' after \"traceEvents\", found '{'");
	run_fail("{\"traceEvents\": [{\"a\":1}", 24, 0, "test-jsonev: "
	    "t.json:1:25: truncated JSON: unterminated 'traceEvents' array");
	run_fail("[{\"a\":1}] x", 11, 0, "test-jsonev: t.json:1:11: "
	    "unexpected text after the JSON document");
	run_fail("[1]", 3, 0, "test-jsonev: t.json:1:2: expected an event "
	    "object, found '1'");
	run_fail("[{\"a\":1]}", 9, 0, "test-jsonev: t.json:1:8: invalid JSON "
	    "in event object");
	run_fail("{\"x\" 1}", 7, 0, "test-jsonev: t.json:1:6: expected ':' "
	    "after a key, found '1'");
	run_fail("{\"traceEvents\": []\n\"x\": 1}", 25, 0, "test-jsonev: "
	    "t.json:2:1: expected ',' or '}' in the top-level object, found "
	    "'\"'");
	run_fail("nonsense", 8, 0, "test-jsonev: t.json:1:1: expected '{' or "
	    "'[' (a Chrome trace), found 'n'");
	run_fail("{\"a\": tru", 9, 0, "test-jsonev: t.json:1:7: truncated "
	    "JSON: unterminated top-level value");
}

/*
 * Many events over several 4 MiB reads, one of them larger than a whole
 * read: every event arrives intact, numbered, on its own line.
 */
static void
test_blocks(void)
{
	enum { NEV = 120000, HUGE = 5 << 20 };
	size_t cap = (size_t)NEV * 80 + HUGE + 100, n = 0;
	char *text = malloc(cap);
	struct jsonev_event e;
	struct jsonev *ev;
	struct input *in;
	const char *name;
	int64_t id;
	unsigned long line, col;
	int i, v;

	n += (size_t)snprintf(text, cap, "{\"traceEvents\": [\n");
	for (i = 0; i < NEV; i++) {
		n += (size_t)snprintf(text + n, cap - n, "%s{\"id\": %d, "
		    "\"name\": \"e\\\"{[%*s\"", i ? ",\n" : "", i, i % 37, "");
		if (i == NEV / 2) {
			memset(text + n - 1, 'x', HUGE);
			n += HUGE;
			text[n - 1] = '"';
		}
		n += (size_t)snprintf(text + n, cap - n, "}");
	}
	n += (size_t)snprintf(text + n, cap - n, "\n], \"traceName\": \"x\"}");
	write_file(text, n);
	free(text);
	CHECK((in = input_open(filepath)) != NULL);
	CHECK(input_next(in, &name) == 1);
	ev = jsonev_open(in, "t.json", 0);
	for (i = 0; jsonev_next(ev, &e) == 1; i++) {
		v = json_get(e.text, e.tok, e.ntok, 0, "id");
		CHECK(v > 0 && json_dec(e.text, e.tok, v, 0, &id) == DTIME_OK);
		CHECK(id == i);
		/* Asked for now and then: lines are counted in between. */
		if (i % 3 == 1) {
			jsonev_linecol(ev, &e, &line, &col);
			CHECK(line == (unsigned long)i + 2 && col == 1);
		}
		if (i == NEV / 2)
			CHECK(e.len > HUGE);
	}
	CHECK(i == NEV);
	CHECK(jsonev_offset(ev) == (uint64_t)n);
	jsonev_close(ev);
	input_close(in);
}

int
main(void)
{
	const char *t = getenv("TMPDIR");

	diag_setprogname("test-jsonev");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test-jsonev.XXXXXX",
	    t != NULL && *t != '\0' ? t : "/tmp");
	CHECK(mkdtemp(tmpdir) != NULL);
	snprintf(filepath, sizeof(filepath), "%s/t.json", tmpdir);
	test_keys();
	test_array();
	test_strings();
	test_errors();
	test_blocks();
	unlink(filepath);
	rmdir(tmpdir);
	CHECK_DONE();
}
