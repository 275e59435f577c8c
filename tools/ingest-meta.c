/*
 * torch_npu's profiler_metadata.json: what the job said about itself.
 * Its distributed_args give the parallel layout (tensor, pipeline, data,
 * context and expert parallel sizes, the rank, the world size) and its
 * parallel_group_info the communication groups (name, the rank's place
 * in the group, the group's global ranks).  Each becomes a timeless
 * metric of cat profiler_metadata on the rank's dev:
 *
 *   metric NAME           value = the number (true 1, false 0), for each
 *                         number or boolean of distributed_args
 *   metric parallel_group type = the group's name (pp, tp, dp_cp ...),
 *                         group = its global ranks, comma-separated,
 *                         value = the rank's index in it
 *
 * so that prof-cluster can tell a pipeline stage from a slow rank.  The
 * environment variables are not kept (they are text, and no analysis
 * reads them yet).  A rank the path does not name is taken from
 * distributed_args.rank.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dtime.h"
#include "ingest.h"
#include "json.h"
#include "xalloc.h"

#define META_MAXJSON	(16 * 1024 * 1024)

struct meta {
	const struct json_doc *d;
	struct sink	*sink;
	int		 src;
	char		*key;
	size_t		 keycap;
};

static void
put_metric(struct meta *m, const char *name, size_t nlen, const char *type,
    size_t tlen, const char *group, size_t glen, int64_t v)
{
	struct irec r;
	char vbuf[24];

	memset(&r, 0, sizeof(r));
	r.kind = IK_METRIC;
	r.ts = IREC_NO_TS;
	r.dev = IREC_DEV_SRC;
	r.v[IC_CAT] = "profiler_metadata";
	r.len[IC_CAT] = strlen(r.v[IC_CAT]);
	r.v[IC_NAME] = name;
	r.len[IC_NAME] = nlen;
	r.v[IC_TYPE] = type;
	r.len[IC_TYPE] = tlen;
	r.v[IC_GROUP] = group;
	r.len[IC_GROUP] = glen;
	r.v[IC_VALUE] = vbuf;
	r.len[IC_VALUE] = (size_t)snprintf(vbuf, sizeof(vbuf), "%" PRId64, v);
	sink_add(m->sink, m->src, &r);
}

/* The integer or boolean at token T into *V; 0 when it is neither. */
static int
meta_int(const struct json_doc *d, int t, int64_t *v)
{
	if (t < 0 || d->tok[t].type != JSMN_PRIMITIVE)
		return 0;
	if (json_eq(d->text, d->tok, t, "true"))
		return *v = 1, 1;
	if (json_eq(d->text, d->tok, t, "false"))
		return *v = 0, 1;
	return json_dec(d->text, d->tok, t, 0, v) == DTIME_OK;
}

static void
distributed_args(struct meta *m, int obj, int64_t *rank)
{
	const struct json_doc *d = m->d;
	int i, k;
	long n;
	int64_t v;

	i = obj + 1;
	for (k = 0; k < d->tok[obj].size && i + 1 < d->ntok; k++) {
		if (d->tok[i].type == JSMN_STRING &&
		    meta_int(d, i + 1, &v) &&
		    (n = json_str(d->text, d->tok, i, &m->key,
		    &m->keycap)) > 0) {
			put_metric(m, m->key, (size_t)n, "", 0, "", 0, v);
			if (strcmp(m->key, "rank") == 0)
				*rank = v;
		}
		i = json_skip(d->tok, d->ntok, i + 1);
	}
}

/* One group: {"group_name": "pp", "group_rank": 0, "global_ranks": [..]} */
static void
parallel_group(struct meta *m, int obj)
{
	const struct json_doc *d = m->d;
	int name = json_get(d->text, d->tok, d->ntok, obj, "group_name");
	int gr = json_get(d->text, d->tok, d->ntok, obj, "group_rank");
	int ranks = json_get(d->text, d->tok, d->ntok, obj, "global_ranks");
	char *list;
	size_t len = 0;
	int i, k;
	int64_t v, place;
	long n;

	if (name < 0 || ranks < 0 || d->tok[ranks].type != JSMN_ARRAY ||
	    !meta_int(d, gr, &place) ||
	    (n = json_str(d->text, d->tok, name, &m->key, &m->keycap)) <= 0)
		return;
	list = xmalloc((size_t)d->tok[ranks].size * 21 + 1);
	list[0] = '\0';
	for (i = ranks + 1, k = 0; k < d->tok[ranks].size; k++, i++)
		if (meta_int(d, i, &v))
			len += (size_t)sprintf(list + len, "%s%" PRId64,
			    len > 0 ? "," : "", v);
	put_metric(m, "parallel_group", 14, m->key, (size_t)n, list, len,
	    place);
	free(list);
}

int
ingest_name_metadata(const char *base)
{
	return strcmp(base, "profiler_metadata.json") == 0;
}

int
ingest_metadata(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	struct json_doc doc;
	struct meta m;
	int t, i, k;
	int64_t rank = -1;

	memset(&m, 0, sizeof(m));
	m.d = &doc;
	m.sink = ctx->sink;
	m.src = sink_begin(m.sink, ctx->fmt, where, ctx->run, ctx->rank);
	if (json_load(in, where, META_MAXJSON, &doc) != 0) {
		sink_end(m.sink, m.src);
		return -1;
	}
	if (doc.tok[0].type != JSMN_OBJECT) {
		diag_at(where, 0, "not a profiler_metadata.json object");
		json_free(&doc);
		sink_end(m.sink, m.src);
		return -1;
	}
	t = json_get(doc.text, doc.tok, doc.ntok, 0, "distributed_args");
	if (t >= 0 && doc.tok[t].type == JSMN_OBJECT)
		distributed_args(&m, t, &rank);
	t = json_get(doc.text, doc.tok, doc.ntok, 0, "parallel_group_info");
	if (t >= 0 && doc.tok[t].type == JSMN_OBJECT) {
		i = t + 1;
		for (k = 0; k < doc.tok[t].size && i + 1 < doc.ntok; k++) {
			if (doc.tok[i + 1].type == JSMN_OBJECT)
				parallel_group(&m, i + 1);
			i = json_skip(doc.tok, doc.ntok, i + 1);
		}
	}
	if (ctx->rank < 0 && rank >= 0)
		sink_set_rank(m.sink, m.src, rank);
	free(m.key);
	json_free(&doc);
	sink_end(m.sink, m.src);
	return 0;
}
