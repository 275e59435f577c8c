/*
 * libFuzzer harness for the JSON side: the event scanner and tokenizers
 * (libcommon/jsonev.c, jsontok.c, jsmn, json.c) over input.c, then
 * prof-ingest's Chrome/Kineto reader (tools/ingest-chrome.c) strictly
 * and with --lenient, and its communication.json reader
 * (tools/ingest-ascend.c, through json_load).  Where the input starts
 * with '{' it also holds jsontok to its promise, the very tokens jsmn
 * gives, as tests/unit/test-jsontok.c does on its mutations.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ingest.h"
#include "input.h"
#include "json.h"
#include "jsonev.h"
#include "jsontok.h"

#define NTOK	512

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
top(void *arg, const char *key, size_t klen, const char *val, size_t vlen)
{
	(void)arg;
	fuzz_touch(key, klen);
	fuzz_touch(val, vlen);
}

static void
events(const char *path)
{
	struct input *in;
	struct jsonev *ev;
	struct jsonev_event e;
	const char *name;
	char *buf = NULL;
	size_t cap = 0;
	unsigned long line, col;
	int64_t v;
	int i;

	if ((in = input_open(path)) == NULL)
		return;
	while (input_next(in, &name) == 1) {
		if ((ev = jsonev_open(in, input_where(in), 1 << 16)) == NULL)
			continue;
		jsonev_ontop(ev, top, NULL);
		while (jsonev_next(ev, &e) == 1) {
			fuzz_touch(e.text, e.len);
			if (e.ntok < 1 || e.tok[0].type != JSMN_OBJECT)
				abort();
			for (i = 0; i < e.ntok; i++)
				if (e.tok[i].start < 0 || e.tok[i].end < 0 ||
				    (size_t)e.tok[i].end > e.len)
					abort();
			if ((i = json_get(e.text, e.tok, e.ntok, 0, "ts")) > 0)
				(void)json_dec(e.text, e.tok, i, 3, &v);
			if ((i = json_get(e.text, e.tok, e.ntok, 0, "name")) > 0)
				(void)json_str(e.text, e.tok, i, &buf, &cap);
			(void)json_eq(e.text, e.tok, 0, "{}");
			jsonev_linecol(ev, &e, &line, &col);
		}
		(void)jsonev_offset(ev);
		jsonev_close(ev);
	}
	free(buf);
	input_close(in);
}

static void
ingest(const char *path, int comm, int lenient)
{
	struct ingest_ctx ctx;
	struct input *in;
	const char *name;

	memset(&ctx, 0, sizeof(ctx));
	ctx.rank = -1;
	ctx.run = ".";
	/* the rows the readers are, as prof-ingest hands them over */
	ctx.fmt = ingest_format_named(comm == 2 ? "cluster_communication" :
	    comm == 3 ? "profiler_metadata" : comm ? "communication" :
	    "chrome");
	if (ctx.fmt == NULL || ctx.fmt->read == NULL)
		abort();
	ingest_lenient = lenient;
	if ((in = input_open(path)) == NULL)
		return;
	while (input_next(in, &name) == 1)
		(void)ctx.fmt->read(in, input_where(in), &ctx);
	input_close(in);
}

/* jsontok must give jsmn's tokens for whatever it does not pass on. */
static void
tokens(const uint8_t *data, size_t size)
{
	static jsmntok_t got[NTOK], want[NTOK];
	jsmn_parser p;
	size_t end = 0;
	int n, m;

	if (size == 0 || data[0] != '{')
		return;
	n = jsontok_object((const char *)data, size, got, NTOK, &end);
	if (n <= 0)
		return;
	if (end > size)
		abort();
	jsmn_init(&p);
	m = jsmn_parse(&p, (const char *)data, end, want, NTOK);
	if (m != n || memcmp(got, want, (size_t)n * sizeof(got[0])) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;

	fuzz_quiet();
	tokens(data, size);
	path = fuzz_file(data, size);
	events(path);
	ingest(path, 0, 0);
	ingest(path, 0, 1);
	ingest(path, 1, 0);
	ingest(path, 2, 0);
	ingest(path, 3, 0);
	return 0;
}
