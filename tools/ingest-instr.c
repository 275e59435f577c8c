/*
 * The Ascend op simulator's per-instruction table, CORE_instr_exe.csv
 * (instr, addr, pipe, call_count, cycles, running_time(us), detail):
 * the in-core view of a simulated kernel.  The trace beside it draws the
 * pipe lanes; this table says how many cycles each pipe was busy, which
 * is what bounds the kernel.  One row per instruction is more than any
 * report needs, so the reader sums per pipe and writes, per core, one
 * timeless metric per pipe and one for the core:
 *
 *   metric pipe_cycles   track = pipe, core = core, value = cycles
 *   metric pipe_instr_count (the same, value = the calls)
 *   metric core_cycles   core = core, value = all pipes' cycles; type =
 *                        degenerate_trace when the table is near empty
 *                        (fewer than 1000 cycles in all) or a cube core
 *                        has no CUBE cycles
 *
 * Pipes come in dataflow order (MTE2, MTE1, CUBE, VECTOR, FIXPIPE, MTE3,
 * then the others as first seen), the order of the lanes.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvin.h"
#include "diag.h"
#include "dtime.h"
#include "ingest.h"
#include "xalloc.h"

#define INSTR_NPIPES	32
#define INSTR_NEAR_ZERO	1000	/* cycles: less is a degenerate table */

static const char *const dataflow[] = {
	"MTE2", "MTE1", "CUBE", "VECTOR", "FIXPIPE", "MTE3", NULL
};

struct pipesum {
	char		*name;
	int64_t		 cycles, calls;
};

int
ingest_name_instr_exe(const char *base)
{
	return ingest_has_suffix(base, "_instr_exe.csv");
}

int
ingest_content_instr_exe(const char *head, size_t len)
{
	return !ingest_looks_json(head, len) && len >= 6 &&
	    memcmp(head, "instr,", 6) == 0 &&
	    ingest_head_has(head, len, "cycles");
}

/* The pipe entry of NAME, made when new; NULL past INSTR_NPIPES. */
static struct pipesum *
pipe_get(struct pipesum *p, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp(p[i].name, name) == 0)
			return &p[i];
	if (*n == INSTR_NPIPES)
		return NULL;
	p[*n].name = xstrdup(name);
	p[*n].cycles = p[*n].calls = 0;
	return &p[(*n)++];
}

/* Dataflow rank of a pipe: its place in dataflow[], others after. */
static int
flow_rank(const char *name)
{
	int i;

	for (i = 0; dataflow[i] != NULL; i++)
		if (strcmp(dataflow[i], name) == 0)
			return i;
	return i;
}

static int
cmp_flow(const void *a, const void *b)
{
	const struct pipesum *x = a, *y = b;

	return flow_rank(x->name) - flow_rank(y->name);
}

/* The core: the file's base name before "_instr_exe.csv". */
static char *
core_of(const char *where)
{
	const char *base = strrchr(where, '/'), *end;

	base = base != NULL ? base + 1 : where;
	end = strstr(base, "_instr_exe");
	return xstrndup(base, end != NULL ? (size_t)(end - base) :
	    strlen(base));
}

static void
put_metric(struct sink *sk, int src, const char *name, const char *track,
    const char *core, const char *type, int64_t v)
{
	struct irec r;
	char buf[24];

	memset(&r, 0, sizeof(r));
	r.kind = IK_METRIC;
	r.ts = IREC_NO_TS;
	r.dev = IREC_DEV_SRC;
	r.v[IC_NAME] = name;
	r.len[IC_NAME] = strlen(name);
	r.v[IC_TRACK] = track;
	r.len[IC_TRACK] = strlen(track);
	r.v[IC_CORE] = core;
	r.len[IC_CORE] = strlen(core);
	r.v[IC_TYPE] = type;
	r.len[IC_TYPE] = strlen(type);
	r.v[IC_CAT] = "instr_exe";
	r.len[IC_CAT] = 9;
	r.v[IC_VALUE] = buf;
	r.len[IC_VALUE] = (size_t)snprintf(buf, sizeof(buf), "%lld",
	    (long long)v);
	sink_add(sk, src, &r);
}

/* Sum the rows per pipe; -1 after a diagnostic. */
static int
read_rows(struct csvin *cv, const char *where, struct pipesum *p, size_t *n)
{
	int cpipe = csvin_col(cv, "pipe"), ccyc = csvin_col(cv, "cycles");
	int ccall = csvin_col(cv, "call_count"), got;
	int64_t cyc, calls;
	struct pipesum *e;

	if (cpipe < 0 || ccyc < 0) {
		diag_at(where, 1, "no column '%s'", cpipe < 0 ? "pipe" :
		    "cycles");
		return -1;
	}
	while ((got = csvin_next(cv)) == 1) {
		const char *c = csvin_field(cv, ccyc, NULL);

		if (dtime_parse(c, strlen(c), 0, &cyc) != DTIME_OK || cyc < 0) {
			diag_at(where, csvin_line(cv), "column 'cycles': "
			    "invalid count '%s'", c);
			return -1;
		}
		calls = 0;
		if (ccall >= 0 && !csvin_absent(cv, ccall))
			(void)dtime_parse(csvin_field(cv, ccall, NULL),
			    strlen(csvin_field(cv, ccall, NULL)), 0, &calls);
		if ((e = pipe_get(p, n, csvin_field(cv, cpipe, NULL))) == NULL)
			continue;
		if (__builtin_add_overflow(e->cycles, cyc, &e->cycles) ||
		    __builtin_add_overflow(e->calls, calls, &e->calls)) {
			diag_at(where, csvin_line(cv), "cycles past 2^63");
			return -1;
		}
	}
	return got < 0 ? -1 : 0;
}

int
ingest_instr_exe(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	struct pipesum p[INSTR_NPIPES];
	size_t n = 0, i;
	struct sink *sk = ctx->sink;
	int src = sink_begin(sk, ctx->fmt, where, ctx->run, ctx->rank);
	int rc = -1;
	int64_t total = 0, cube = 0;
	struct csvin *cv;
	char *core = core_of(where);
	const char *why = "";

	if ((cv = csvin_open(in, where, 0)) != NULL) {
		rc = read_rows(cv, where, p, &n);
		csvin_close(cv);
	}
	qsort(p, n, sizeof(*p), cmp_flow);
	for (i = 0; i < n; i++) {
		put_metric(sk, src, "pipe_cycles", p[i].name, core, "",
		    p[i].cycles);
		put_metric(sk, src, "pipe_instr_count", p[i].name, core, "",
		    p[i].calls);
		if (__builtin_add_overflow(total, p[i].cycles, &total))
			total = INT64_MAX;	/* held: still not near zero */
		if (strcmp(p[i].name, "CUBE") == 0)
			cube = p[i].cycles;
	}
	if (total < INSTR_NEAR_ZERO ||
	    (strstr(core, "cube") != NULL && cube == 0))
		why = "degenerate_trace";
	if (rc == 0)
		put_metric(sk, src, "core_cycles", "", core, why, total);
	for (i = 0; i < n; i++)
		free(p[i].name);
	free(core);
	sink_end(sk, src);
	return rc;
}
