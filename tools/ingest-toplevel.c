/*
 * The top-level keys of a Chrome trace other than traceEvents, for
 * prof-ingest's Chrome trace reader (ingest-chrome.c): Kineto's
 * baseTimeNanoseconds, distributedInfo (the rank) and deviceProperties
 * (one device record per GPU).  Each value arrives as one JSON text and
 * is tokenized here on its own, apart from the stream of events.
 */
#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "dtime.h"
#include "ingest-chrome.h"
#include "xalloc.h"

/*
 * Tokenize a small JSON text into a reusable, growing token array, in
 * time linear at any nesting depth (json_tokenize).
 */
int
parse_small(const char *text, size_t len, jsmntok_t **tok,
    unsigned int *ntok)
{
	return json_tokenize(text, len, tok, ntok);
}

/* Kineto (since mid-2024) writes ts relative to this, in ns. */
void
top_base(struct chrome *c, const char *val, size_t n)
{
	int64_t base;

	if (n >= 2 && val[0] == '"') {
		val++;
		n -= 2;
	}
	if (dtime_parse(val, n, 0, &base) != DTIME_OK) {
		diag_at(c->where, 0, "invalid 'baseTimeNanoseconds' value "
		    "'%.*s'", (int)(n > 60 ? 60 : n), val);
		c->failed = 1;
		return;
	}
	sink_set_base(c->sink, c->src, base);
}

/* distributedInfo.rank is the trace's own word on its rank. */
void
top_rank(struct chrome *c, const char *val, size_t n)
{
	int64_t rank;
	int r, v;

	r = parse_small(val, n, &c->btok, &c->nbtok);
	if (r < 1 || c->btok[0].type != JSMN_OBJECT)
		return;
	v = json_get(val, c->btok, r, 0, "rank");
	if (v >= 0 && json_dec(val, c->btok, v, 0, &rank) == DTIME_OK &&
	    rank >= 0)
		sink_set_rank(c->sink, c->src, rank);
}

/*
 * deviceProperties: one timeless device record per GPU, so that later
 * stages (prof-roofline) can tell the chip.  dev is the GPU id, which
 * the sink replaces by the rank when known, as for kernels.
 */
void
top_devices(struct chrome *c, const char *val, size_t n)
{
	char idbuf[24], mem[24];
	struct irec r;
	int64_t id, bytes;
	int nt, i, v;
	long len;

	nt = parse_small(val, n, &c->btok, &c->nbtok);
	if (nt < 1 || c->btok[0].type != JSMN_ARRAY)
		return;
	for (i = 1; i < nt; i = json_skip(c->btok, nt, i)) {
		if (c->btok[i].type != JSMN_OBJECT)
			continue;
		v = json_get(val, c->btok, nt, i, "id");
		if (v < 0 || json_dec(val, c->btok, v, 0, &id) != DTIME_OK ||
		    id < 0)
			continue;
		memset(&r, 0, sizeof(r));
		r.kind = IK_DEVICE;
		r.ts = IREC_NO_TS;
		r.dev = id;
		r.v[IC_TRACK] = idbuf;
		r.len[IC_TRACK] = (size_t)snprintf(idbuf, sizeof(idbuf),
		    "%" PRId64, id);
		r.v[IC_CAT] = "deviceProperties";
		r.len[IC_CAT] = strlen(r.v[IC_CAT]);
		v = json_get(val, c->btok, nt, i, "name");
		if (v >= 0 && (len = json_str(val, c->btok, v, &c->kbuf,
		    &c->kcap)) >= 0) {
			r.v[IC_NAME] = c->kbuf;
			r.len[IC_NAME] = (size_t)len;
		}
		v = json_get(val, c->btok, nt, i, "totalGlobalMem");
		if (v >= 0 && json_dec(val, c->btok, v, 0, &bytes) ==
		    DTIME_OK && bytes >= 0) {
			r.v[IC_VALUE] = mem;
			r.len[IC_VALUE] = (size_t)snprintf(mem, sizeof(mem),
			    "%" PRId64, bytes);
		}
		sink_add(c->sink, c->src, &r);
	}
}
