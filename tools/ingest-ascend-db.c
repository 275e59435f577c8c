/*
 * prof-ingest reader for Ascend SQLite exports: torch_npu's
 * ascend_pytorch_profiler_N.db (export_type=db), msprof's msprof_*.db and
 * its 2024 generation report_*.db, and torch_npu's analysis.db.
 *
 * The records are those of the text export, so that every stage works
 * unchanged: a kernel is a row of TASK joined with COMPUTE_TASK_INFO (the
 * rows of kernel_details.csv), and each op of COMMUNICATION_OP is a
 * kernel on the HCCL core as kernel_details.csv has it, with the wait
 * computed as torch_npu computes that column: the idle time since the
 * end of the task before, over all of them in start order.  Host API
 * calls (CANN_API, or API in 2024), framework ops (PYTORCH_API), mstx
 * ranges, flows from a launching API call to its device task (their
 * shared connectionId), the HCCL op and task records of trace_view.json
 * and the step_trace_time metrics of analysis.db follow.  Every name is
 * an id into STRING_IDS, loaded once; every column is found by name (the
 * schema changed across releases and MindStudio-Insight adds columns),
 * a missing one reads as absent.
 *
 * Kernels come ordered by start time from SQLite (an index on TASK's
 * start in torch_npu files; a sort in temporary files otherwise) since
 * the wait needs the task before; the rest is ordered by the sink, or,
 * for a lone database, as much of it as comes in time order is merged
 * straight into the output (see "straight to the output" below).
 */
#include <config.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dtime.h"
#include "ingest-sqlite.h"
#include "tsv.h"
#include "xalloc.h"

struct devcur;
struct hcur;

/* The host side's streams, in the order they are read (host_stream()). */
enum { HS_COMM, HS_API, HS_TORCH, HS_MSTX, HS_N };

/* A step of STEP_TIME. */
struct astep {
	int64_t		 id, start, end;
};

struct adb {
	struct sqdb	*q;
	struct irec	 r;
	struct astep	*steps;
	size_t		 nsteps;
	char		 stepbuf[24], trackbuf[24], waitbuf[24], corrbuf[24];
	char		 pidbuf[24], bytesbuf[24];
	char		*pmubuf, *namebuf;
	size_t		 pmucap, namecap;
	int		 pmu, shapes, stepids;
	int		 nstepmarks;	/* PYTORCH_API's step markers */
	int64_t		 prev_end;	/* of the device task before */
	int		 have_prev;
	const char	*api;		/* CANN_API or API */
	uint64_t	*launched;	/* TASK's connection ids, as bits */
	size_t		 nlaunched;	/* words */
	/* The device tasks, when they go straight to the output. */
	int		 mode;		/* what emit() does: AM_* */
	int		 pause;		/* the output's buffer is full */
	size_t		 nheld;
	struct devcur	*dc;
	/* Streams 1 .. nds - 1 of the output: host streams, read so. */
	int		 hk[HS_N + 1];
	struct hcur	*hc;
	size_t		 nds;
	char		*where, *path;	/* the database's, kept */
	struct ingest_ctx ctx;
};

/* The time columns of the framework ops' and mstx queries. */
#define TORCH_TIMES	"CAST(p.startNs AS INTEGER), CAST(p.endNs AS INTEGER)"
#define MSTX_TIMES	"m.startNs, coalesce(m.endNs, m.startNs)"

/* What becomes of a device task's records (emit()). */
enum { AM_STORE, AM_HOLD, AM_FACT, AM_DIRECT };

/* Whether S (LEN bytes) is the text export's absent value. */
static int
absent(const char *s, size_t len)
{
	return s == NULL || len == 0 || (len == 3 && memcmp(s, "N/A", 3) == 0)
	    || (len == 2 && memcmp(s, "NA", 2) == 0);
}

/* Set column IC from string id column I, as kernel_details.csv has it. */
static int
set_str(struct adb *a, const struct sqrow *row, int i, int ic)
{
	size_t len;
	const char *s = sq_col_str(a->q, row, i, &len);

	if (absent(s, len))
		return 0;
	/* torch_npu keeps a literal pair of quotes around shapes. */
	if (ic >= IC_IN_SHAPES && ic <= IC_OUT_DTYPES && len >= 2 &&
	    s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
		if (len == 0)
			return 0;
	}
	a->r.v[ic] = s;
	a->r.len[ic] = len;
	return 1;
}

static void
rec_start(struct adb *a, int kind)
{
	memset(&a->r, 0, sizeof(a->r));
	a->r.kind = kind;
	a->r.dev = IREC_DEV_SRC;
}

/* A device task's record R: stored, or held, noted or rendered for the
 * output (see ascend_direct()). */
static void
emit(struct adb *a)
{
	struct sqdb *q = a->q;

	switch (a->mode) {
	case AM_STORE:
		sink_add(q->sink, q->src, &a->r);
		break;
	case AM_HOLD:
		sink_hold(q->sink, q->src, &a->r);
		a->nheld++;
		break;
	case AM_FACT:
		sink_fact(q->sink, q->src, &a->r);
		break;
	default:
		a->pause |= sink_emit(q->sink, q->src, &a->r);
	}
}

/* ---- steps ---- */

static int
load_steps(struct adb *a)
{
	sqlite3_stmt *st;
	int r;

	if (!sq_has_table(a->q, "STEP_TIME") ||
	    !sq_has_col(a->q, "STEP_TIME", "startNs"))
		return 0;
	st = sq_prepare(a->q, "SELECT id, startNs, endNs FROM STEP_TIME "
	    "WHERE startNs IS NOT NULL AND endNs IS NOT NULL ORDER BY startNs",
	    "STEP_TIME");
	if (st == NULL)
		return -1;
	while ((r = sq_step(a->q, st, "STEP_TIME")) == 1) {
		a->steps = xreallocarray(a->steps, a->nsteps + 1,
		    sizeof(*a->steps));
		a->steps[a->nsteps].id = sqlite3_column_int64(st, 0);
		a->steps[a->nsteps].start = sqlite3_column_int64(st, 1);
		a->steps[a->nsteps].end = sqlite3_column_int64(st, 2);
		a->nsteps++;
	}
	sqlite3_finalize(st);
	sq_table(a->q, "STEP_TIME", (int64_t)a->nsteps,
	    "step ids of the device tasks and HCCL ops");
	return r;
}

/* The step a device task starting at TS lies in (the last that starts
 * at or before it and ends after it), as kernel_details' Step Id. */
static void
set_step(struct adb *a, int64_t ts)
{
	size_t lo = 0, hi = a->nsteps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->steps[mid].start <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || ts > a->steps[lo - 1].end)
		return;
	sq_set_i64(&a->r, IC_STEP, a->stepbuf, a->steps[lo - 1].id);
	a->stepids = 1;
}

/* The wait of a device task: idle time since the task before ended. */
static void
set_wait(struct adb *a)
{
	int64_t w = 0, end;

	if (a->have_prev && a->r.ts > a->prev_end)
		w = a->r.ts - a->prev_end;
	a->r.v[IC_WAIT] = a->waitbuf;
	a->r.len[IC_WAIT] = dtime_format(w, 0, a->waitbuf);
	if (__builtin_add_overflow(a->r.ts, a->r.dur, &end))
		end = INT64_MAX;
	a->prev_end = end;
	a->have_prev = 1;
}

/* ---- PMU counters ---- */

/*
 * TASK_PMU_INFO holds kernel_details' PMU columns as (task, name, value)
 * rows, with no index on the task: one pass gathers each task's
 * counters into a temporary table keyed by task (in temporary files,
 * not in memory) that the kernel query joins.
 */
static int64_t
count_rows(struct sqdb *q, const char *t)
{
	char sql[96];
	sqlite3_stmt *st;
	int64_t n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", t);
	if ((st = sq_prepare(q, sql, t)) == NULL)
		return -1;
	if (sq_step(q, st, t) == 1)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int
has_pmu(struct adb *a)
{
	return sq_has_table(a->q, "TASK_PMU_INFO") &&
	    sq_has_col(a->q, "TASK_PMU_INFO", "globalTaskId") &&
	    sq_has_col(a->q, "TASK_PMU_INFO", "name") &&
	    sq_has_col(a->q, "TASK_PMU_INFO", "value");
}

/* Made on the connection that runs the kernel query (ingest-sqpf.c). */
static const char pmu_setup[] = "CREATE TEMP TABLE prof_pmu (id INTEGER "
    "PRIMARY KEY, txt TEXT); INSERT INTO temp.prof_pmu SELECT "
    "globalTaskId, group_concat(name || ':' || value, ',') FROM "
    "TASK_PMU_INFO WHERE globalTaskId IS NOT NULL GROUP BY globalTaskId";

/* Grow the PMU buffer to hold N more bytes after LEN. */
static char *
pmu_room(struct adb *a, size_t len, size_t n)
{
	if (a->pmucap - len < n) {
		a->pmucap = (a->pmucap + n) * 2;
		a->pmubuf = xrealloc(a->pmubuf, a->pmucap);
	}
	return a->pmubuf + len;
}

/*
 * Move the decimal point of the number S (N bytes) 3 places left: the
 * database's PMU times are ns, kernel_details' are us.
 */
static size_t
ns_to_us(const char *s, size_t n, char *out)
{
	char d[64];
	size_t nd = 0, il = 0, k, o = 0;
	int dot = 0;

	if (n >= sizeof(d) - 4 || memchr(s, 'e', n) != NULL) {
		memcpy(out, s, n);	/* not plain decimal: as it is */
		return n;
	}
	if (n > 0 && s[0] == '-')
		out[o++] = '-';
	for (k = 0; k < n; k++) {
		if (s[k] == '.')
			dot = 1;
		else if (s[k] >= '0' && s[k] <= '9') {
			d[nd++] = s[k];
			il += !dot;
		}
	}
	while (il <= 3) {
		memmove(d + 1, d, nd++);
		d[0] = '0';
		il++;
	}
	il -= 3;
	for (k = 0; k < il; k++)
		out[o++] = d[k];
	while (nd > il && d[nd - 1] == '0')
		nd--;
	if (nd > il) {
		out[o++] = '.';
		for (k = il; k < nd; k++)
			out[o++] = d[k];
	}
	return o;
}

/*
 * The PMU text of a task from "nameid:value,..." as kernel_details'
 * column keys have it: a time (ns) becomes NAME_us in microseconds, the
 * totals aic_total_time and aiv_total_time are aicore_time_us and
 * aiv_time_us there; every other counter keeps its name.
 */
static void
set_pmu(struct adb *a, const char *txt, size_t n)
{
	const char *p = txt, *end = txt + n, *comma, *colon, *name;
	size_t len = 0, nl, vl;
	char *o;

	while (p < end) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (comma == NULL)
			comma = end;
		colon = memchr(p, ':', (size_t)(comma - p));
		if (colon != NULL && (name = sq_str(a->q,
		    strtoll(p, NULL, 10), &nl)) != NULL && nl > 0) {
			vl = (size_t)(comma - colon - 1);
			o = pmu_room(a, len, nl + vl + 16);
			if (nl == 14 && memcmp(name, "aic_total_time", 14) == 0)
				o += sprintf(o, "aicore_time_us=");
			else if (nl == 14 &&
			    memcmp(name, "aiv_total_time", 14) == 0)
				o += sprintf(o, "aiv_time_us=");
			else if (nl > 5 && memcmp(name + nl - 5, "_time", 5) ==
			    0) {
				memcpy(o, name, nl);
				o += nl;
				o += sprintf(o, "_us=");
			} else {
				memcpy(o, name, nl);
				o += nl;
				*o++ = '=';
			}
			if (o[-2] == 's' && o[-3] == 'u' && o[-4] == '_')
				o += ns_to_us(colon + 1, vl, o);
			else {
				memcpy(o, colon + 1, vl);
				o += vl;
			}
			*o++ = ',';
			len = (size_t)(o - a->pmubuf);
		}
		p = comma + 1;
	}
	if (len > 0) {
		a->r.v[IC_PMU] = a->pmubuf;
		a->r.len[IC_PMU] = len - 1;
		a->pmu = 1;
	}
}

/* ---- device tasks: kernels and HCCL ops, merged in start order ---- */

enum { K_TS, K_END, K_DEV, K_STREAM, K_NAME, K_TYPE, K_CORE, K_SHAPE,
	K_CONN = K_SHAPE + 4, K_PMU };

static struct sqpf *
kernel_query(struct adb *a, int pmu)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };
	static const char *const shapes[] = {
		"inputShapes", "inputDataTypes", "outputShapes",
		"outputDataTypes"
	};
	struct sqpf *pf;
	int i;

	sq_sql(&b, "SELECT t.startNs, t.endNs");
	sq_sql_col(q, &b, "TASK", "t", "deviceId");
	sq_sql_col(q, &b, "TASK", "t", "streamId");
	sq_sql_col(q, &b, "COMPUTE_TASK_INFO", "c", "name");
	sq_sql_col(q, &b, "COMPUTE_TASK_INFO", "c", "opType");
	sq_sql_col(q, &b, "COMPUTE_TASK_INFO", "c", "taskType");
	for (i = 0; i < 4; i++)
		sq_sql_col(q, &b, "COMPUTE_TASK_INFO", "c", shapes[i]);
	sq_sql_col(q, &b, "TASK", "t", "connectionId");
	sq_sql(&b, "%s FROM TASK t CROSS JOIN COMPUTE_TASK_INFO c ON "
	    "c.globalTaskId = t.globalTaskId", pmu ? ", p.txt" : "");
	if (pmu)
		sq_sql(&b, " LEFT JOIN temp.prof_pmu p ON p.id = "
		    "t.globalTaskId");
	sq_sql(&b, " ORDER BY t.startNs, t.globalTaskId");
	pf = sqpf_open(q, pmu ? pmu_setup : NULL, "TASK_PMU_INFO", b.s,
	    "TASK");
	free(b.s);
	return pf;
}

static int
kernel_row(struct adb *a, const struct sqrow *row, int pmu)
{
	const char *txt;
	int64_t v;
	size_t n;
	int i;

	rec_start(a, IK_KERNEL);
	if (sq_times(a->q, row, K_TS, "TASK", 0, &a->r) != 0)
		return 0;
	if (sqr_int(row, K_DEV, &v))
		a->r.dev = v;
	if (sqr_int(row, K_STREAM, &v))
		sq_set_i64(&a->r, IC_TRACK, a->trackbuf, v);
	set_str(a, row, K_NAME, IC_NAME);
	set_str(a, row, K_TYPE, IC_TYPE);
	set_str(a, row, K_CORE, IC_CORE);
	for (i = 0; i < 4; i++)
		if (set_str(a, row, K_SHAPE + i, IC_IN_SHAPES + i) && i == 0)
			a->shapes = 1;
	set_step(a, a->r.ts);
	set_wait(a);
	if (pmu && (txt = sqr_text(row, K_PMU, &n)) != NULL)
		set_pmu(a, txt, n);
	emit(a);
	/* The launch's flow ends at the task (trace_view's HostToDevice). */
	if (sqr_int(row, K_CONN, &v)) {
		int64_t ts = a->r.ts, dev = a->r.dev;
		const char *track = a->r.v[IC_TRACK];
		size_t tl = a->r.len[IC_TRACK];

		rec_start(a, IK_FLOW);
		a->r.ts = ts;
		a->r.dev = dev;
		a->r.v[IC_TRACK] = track;
		a->r.len[IC_TRACK] = tl;
		a->r.v[IC_NAME] = a->r.v[IC_CAT] = "HostToDevice";
		a->r.len[IC_NAME] = a->r.len[IC_CAT] = 12;
		a->r.v[IC_TYPE] = "f";
		a->r.len[IC_TYPE] = 1;
		sq_set_i64(&a->r, IC_CORR, a->corrbuf, v);
		emit(a);
	}
	return 1;
}

enum { C_TS, C_END, C_NAME, C_TYPE, C_GROUP, C_CONN };

static sqlite3_stmt *
commop_query(struct adb *a)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };
	sqlite3_stmt *st;

	if (!sq_has_table(q, "COMMUNICATION_OP") ||
	    !sq_has_col(q, "COMMUNICATION_OP", "startNs"))
		return NULL;
	sq_sql(&b, "SELECT o.startNs, o.endNs");
	sq_sql_col(q, &b, "COMMUNICATION_OP", "o", "opName");
	sq_sql_col(q, &b, "COMMUNICATION_OP", "o", "opType");
	sq_sql_col(q, &b, "COMMUNICATION_OP", "o", "groupName");
	sq_sql_col(q, &b, "COMMUNICATION_OP", "o", "connectionId");
	sq_sql(&b, " FROM COMMUNICATION_OP o ORDER BY o.startNs");
	st = sq_prepare(q, b.s, "COMMUNICATION_OP");
	free(b.s);
	return st;
}

/*
 * An HCCL op: the kernel record kernel_details.csv has for it (core
 * HCCL, no stream), and the op record of communication.json (category
 * communication, collective or p2p, its group by name).
 */
static int
commop_row(struct adb *a, const struct sqrow *row)
{
	const char *name;
	size_t nlen;

	rec_start(a, IK_KERNEL);
	if (sq_times(a->q, row, C_TS, "COMMUNICATION_OP", 0, &a->r) != 0)
		return 0;
	set_str(a, row, C_NAME, IC_NAME);
	set_str(a, row, C_TYPE, IC_TYPE);
	a->r.v[IC_CORE] = "HCCL";
	a->r.len[IC_CORE] = 4;
	set_step(a, a->r.ts);
	set_wait(a);
	emit(a);

	a->r.kind = IK_COMM;
	a->r.v[IC_WAIT] = NULL;
	a->r.len[IC_WAIT] = 0;
	a->r.v[IC_CORE] = NULL;
	a->r.len[IC_CORE] = 0;
	a->r.v[IC_CAT] = "communication";
	a->r.len[IC_CAT] = 13;
	name = a->r.v[IC_TYPE] != NULL ? a->r.v[IC_TYPE] : a->r.v[IC_NAME];
	nlen = a->r.v[IC_TYPE] != NULL ? a->r.len[IC_TYPE] :
	    a->r.len[IC_NAME];
	a->r.v[IC_TYPE] = "collective";
	/* send, receive and batch send/recv ops are point to point. */
	if (name != NULL && (memmem(name, nlen, "end", 3) != NULL ||
	    memmem(name, nlen, "eceive", 6) != NULL ||
	    memmem(name, nlen, "ecv", 3) != NULL))
		a->r.v[IC_TYPE] = "p2p";
	a->r.len[IC_TYPE] = strlen(a->r.v[IC_TYPE]);
	set_str(a, row, C_GROUP, IC_GROUP);
	emit(a);
	return 1;
}

/*
 * The device tasks as one stream: the kernels' query and the HCCL ops',
 * both in start order, merged for the wait; a row at a time.
 */
struct devcur {
	struct sqpf	*k;
	sqlite3_stmt	*c;
	struct sqrow	 krow, crow;
	int		 rk, rc, pmu;
	int64_t		 nk, nc;
};

/* 0, or -1 after a diagnostic. */
static int
dev_open(struct adb *a, struct devcur *d)
{
	memset(d, 0, sizeof(*d));
	if (sq_has_table(a->q, "TASK") &&
	    sq_has_table(a->q, "COMPUTE_TASK_INFO") &&
	    sq_has_col(a->q, "TASK", "startNs") &&
	    sq_has_col(a->q, "TASK", "globalTaskId") &&
	    sq_has_col(a->q, "COMPUTE_TASK_INFO", "globalTaskId")) {
		if ((d->k = kernel_query(a, d->pmu = has_pmu(a))) == NULL)
			return -1;
		/* Its rows are counted for -i only: a scan of the largest
		 * table. */
		if (d->pmu)
			sq_table(a->q, "TASK_PMU_INFO", a->q->ctx->inventory ?
			    count_rows(a->q, "TASK_PMU_INFO") : -1,
			    "PMU counters");
		d->rk = sqpf_next(d->k, &d->krow);
	}
	if ((d->c = commop_query(a)) == NULL && a->q->failed) {
		sqpf_close(d->k);
		d->k = NULL;
		return -1;
	}
	d->crow.st = d->c;
	d->crow.c = NULL;
	if (d->c != NULL)
		d->rc = sq_step(a->q, d->c, "COMMUNICATION_OP");
	return 0;
}

static int
dev_more(const struct devcur *d)
{
	return d->rk == 1 || d->rc == 1;
}

/* The next row's records; 0 when there are no more rows. */
static int
dev_step(struct adb *a, struct devcur *d)
{
	int64_t kts = 0, cts = 0;

	if (!dev_more(d))
		return 0;
	if (d->rk == 1)
		(void)sqr_int(&d->krow, K_TS, &kts);
	if (d->rc == 1)
		(void)sqr_int(&d->crow, C_TS, &cts);
	if (d->rk == 1 && (d->rc != 1 || kts <= cts)) {
		d->nk += kernel_row(a, &d->krow, d->pmu);
		d->rk = sqpf_next(d->k, &d->krow);
	} else {
		d->nc += commop_row(a, &d->crow);
		d->rc = sq_step(a->q, d->c, "COMMUNICATION_OP");
	}
	return 1;
}

/* 0, or -1 when a query failed (it said why). */
static int
dev_close(struct adb *a, struct devcur *d)
{
	sqpf_close(d->k);
	sqlite3_finalize(d->c);
	if (d->k != NULL) {
		sq_table(a->q, "COMPUTE_TASK_INFO", d->nk,
		    "kernels, joined with TASK");
		sq_table(a->q, "TASK", d->nk, "the times of the kernels and "
		    "HCCL tasks; its other runtime tasks are not read");
	}
	if (d->c != NULL)
		sq_table(a->q, "COMMUNICATION_OP", d->nc,
		    "HCCL ops: kernels on the HCCL core and comm ops");
	d->k = NULL;
	d->c = NULL;
	return d->rk < 0 || d->rc < 0 ? -1 : 0;
}

static int
device_tasks(struct adb *a)
{
	struct devcur d;

	if (dev_open(a, &d) < 0)
		return -1;
	while (dev_step(a, &d))
		;
	return dev_close(a, &d);
}

/* ---- HCCL tasks ---- */

/*
 * The host side's streams after the device tasks, in the order they are
 * read: each a query read a row at a time (struct hcur), by the loop
 * of host_stream() when stored, or as the output asks (see
 * ascend_direct()).
 */
struct hcur {
	struct sqpf	*pf;
	struct sqrow	 row;
	int		 r;		/* the last sqpf_next(): 1 a row */
	int64_t		 n;		/* records made of them */
	int		 bits;		/* API: the launched ids as bits */
};

/* Open the query B (freed) of table T, read ahead: 0, or -1 after a
 * diagnostic. */
static int
hs_query(struct adb *a, struct hcur *h, const char *setup, const char *st,
    struct sqlbuf *b, const char *t)
{
	h->pf = sqpf_open(a->q, setup, st, b->s, t);
	free(b->s);
	return h->pf == NULL ? -1 : 0;
}

/* The HCCL tasks' query, or 0 and none when the tables are not. */
static int
comm_open(struct adb *a, struct hcur *h)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };

	if (!sq_has_table(q, "COMMUNICATION_TASK_INFO") ||
	    !sq_has_table(q, "TASK") ||
	    !sq_has_col(q, "COMMUNICATION_TASK_INFO", "globalTaskId"))
		return 0;
	sq_sql(&b, "SELECT t.startNs, t.endNs");
	sq_sql_col(q, &b, "TASK", "t", "deviceId");
	sq_sql_col(q, &b, "COMMUNICATION_TASK_INFO", "i", "planeId");
	sq_sql_col(q, &b, "COMMUNICATION_TASK_INFO", "i", "taskType");
	sq_sql_col(q, &b, "COMMUNICATION_TASK_INFO", "i", "size");
	sq_sql_col(q, &b, "COMMUNICATION_TASK_INFO", "i", "groupName");
	sq_sql(&b, " FROM COMMUNICATION_TASK_INFO i JOIN TASK t ON "
	    "t.globalTaskId = i.globalTaskId");
	return hs_query(a, h, NULL, NULL, &b, "COMMUNICATION_TASK_INFO");
}

static void
comm_row(struct adb *a, struct hcur *h)
{
	const struct sqrow *row = &h->row;
	int64_t v;

	rec_start(a, IK_COMM);
	if (sq_times(a->q, row, 0, "TASK", 0, &a->r) != 0)
		return;
	if (sqr_int(row, 2, &v))
		a->r.dev = v;
	/* trace_view's HCCL threads: 0 the ops, plane N is N + 1. */
	if (sqr_int(row, 3, &v))
		sq_set_i64(&a->r, IC_TRACK, a->trackbuf, v + 1);
	set_str(a, row, 4, IC_NAME);
	if (sqr_int(row, 5, &v))
		sq_set_i64(&a->r, IC_BYTES, a->bytesbuf, v);
	set_str(a, row, 6, IC_GROUP);
	emit(a);
	h->n++;
}

/* ---- host side ---- */

/* The level of a CANN API call as trace_view.json names it. */
static const char *
api_prefix(int64_t type)
{
	switch (type) {
	case 5000:	return "Runtime";
	case 5500:	return "Hccl";
	case 10000:	return "Node";
	case 15000:	return "Model";
	case 20000:	return "AscendCL";
	default:	return NULL;
	}
}

/* globalTid: the pid in the high 32 bits, the tid in the low. */
static void
set_tid(struct adb *a, const struct sqrow *row, int i)
{
	int64_t v;
	uint64_t g;

	if (!sqr_int(row, i, &v))
		return;
	g = (uint64_t)v;
	sq_set_i64(&a->r, IC_TRACK, a->trackbuf, (int64_t)(g & 0xffffffffu));
	sq_set_i64(&a->r, IC_PID, a->pidbuf, (int64_t)(g >> 32));
}

/*
 * The connection ids of TASK, for the calls that launched a task: TASK
 * has no index on them, and a lookup per call would scan it per call.
 * They are counters from 0 in every file seen: one pass sets their bits
 * in a bitmap (LAUNCHED_MAX ids at most, 8 MiB), and a call's is a bit
 * test.  Where they are not (an id out of that range, or not an
 * integer, or the calls' column not of INTEGER affinity, where SQLite's
 * comparison of the two would convert), they go to a temporary table
 * keyed by id that the calls' query looks up, on the connection that
 * runs it (ingest-sqpf.c), as SQLite would compare them.
 */
#define LAUNCHED_MAX	((int64_t)1 << 26)

static const char launched_setup[] = "CREATE TEMP TABLE prof_conn (id "
    "INTEGER PRIMARY KEY); INSERT OR IGNORE INTO temp.prof_conn SELECT "
    "connectionId FROM TASK WHERE connectionId IS NOT NULL";

/* The bitmap of TASK's connection ids, or 0 (and none) where it cannot
 * stand for the table. */
static int
launched_bits(struct adb *a)
{
	sqlite3_stmt *st;
	int64_t id;
	size_t need;
	int r, t;

	if (!sq_col_integer(a->q, a->api, "connectionId") ||
	    sqlite3_prepare_v2(a->q->db, "SELECT connectionId FROM TASK "
	    "WHERE connectionId IS NOT NULL", -1, &st, NULL) != SQLITE_OK)
		return 0;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		t = sqlite3_column_type(st, 0);
		id = sqlite3_column_int64(st, 0);
		if (t != SQLITE_INTEGER || id < 0 || id >= LAUNCHED_MAX)
			break;
		if ((size_t)(id / 64) >= a->nlaunched) {
			need = (size_t)(id / 64) + 1;
			need = need > 2 * a->nlaunched ? need : 2 * a->nlaunched;
			a->launched = xreallocarray(a->launched, need,
			    sizeof(*a->launched));
			memset(a->launched + a->nlaunched, 0,
			    (need - a->nlaunched) * sizeof(*a->launched));
			a->nlaunched = need;
		}
		a->launched[id / 64] |= (uint64_t)1 << (id % 64);
	}
	sqlite3_finalize(st);
	if (r == SQLITE_DONE)
		return 1;
	/* The table then says what it makes of them, errors included. */
	free(a->launched);
	a->launched = NULL;
	a->nlaunched = 0;
	return 0;
}

/* Whether the call of ROW launched a task (bitmap or query's answer). */
static int
launched(const struct adb *a, const struct sqrow *row, int bits)
{
	int64_t id;

	if (!bits)
		return sqr_int(row, 6, &id) && id != 0;
	/* INTEGER affinity: an id that is no integer equals no rowid. */
	if ((row->st != NULL ? sqlite3_column_type(row->st, 5) :
	    row->c[5].type) != SQLITE_INTEGER)
		return 0;
	(void)sqr_int(row, 5, &id);
	return id >= 0 && (size_t)(id / 64) < a->nlaunched &&
	    (a->launched[id / 64] >> (id % 64) & 1);
}

static int
api_open(struct adb *a, struct hcur *h)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };
	int conn;

	if ((a->api = sq_has_table(q, "CANN_API") ? "CANN_API" :
	    sq_has_table(q, "API") ? "API" : NULL) == NULL ||
	    !sq_has_col(q, a->api, "startNs"))
		return 0;
	conn = sq_has_col(q, a->api, "connectionId") &&
	    sq_has_col(q, "TASK", "connectionId");
	sq_sql(&b, "SELECT a.startNs, a.endNs");
	sq_sql_col(q, &b, a->api, "a", "type");
	sq_sql_col(q, &b, a->api, "a", "globalTid");
	sq_sql_col(q, &b, a->api, "a", "name");
	if (conn && (h->bits = launched_bits(a)))
		sq_sql(&b, ", a.connectionId, 0");
	else if (conn)
		sq_sql(&b, ", a.connectionId, EXISTS (SELECT 1 FROM "
		    "temp.prof_conn c WHERE c.id = a.connectionId)");
	else
		sq_sql(&b, ", NULL, 0");
	sq_sql(&b, " FROM %s a", a->api);
	return hs_query(a, h, conn && !h->bits ? launched_setup : NULL, "TASK",
	    &b, a->api);
}

static void
api_row(struct adb *a, struct hcur *h)
{
	const struct sqrow *row = &h->row;
	const char *pre, *s;
	int64_t type, v;
	size_t len, pl;

	rec_start(a, IK_HOST);
	if (sq_times(a->q, row, 0, a->api, 0, &a->r) != 0)
		return;
	set_tid(a, row, 3);
	s = sq_col_str(a->q, row, 4, &len);
	pre = sqr_int(row, 2, &type) ? api_prefix(type) : NULL;
	if (s != NULL && pre != NULL) {
		pl = strlen(pre);
		if (a->namecap < pl + len + 2) {
			a->namecap = pl + len + 64;
			a->namebuf = xrealloc(a->namebuf, a->namecap);
		}
		memcpy(a->namebuf, pre, pl);
		a->namebuf[pl] = '@';
		memcpy(a->namebuf + pl + 1, s, len);
		a->r.v[IC_NAME] = a->namebuf;
		a->r.len[IC_NAME] = pl + 1 + len;
	} else if (s != NULL) {
		a->r.v[IC_NAME] = s;
		a->r.len[IC_NAME] = len;
	}
	emit(a);
	h->n++;
	/* A call that launched device tasks starts their flow. */
	if (launched(a, row, h->bits)) {
		a->r.kind = IK_FLOW;
		a->r.has_dur = 0;
		a->r.dur = 0;
		a->r.v[IC_NAME] = a->r.v[IC_CAT] = "HostToDevice";
		a->r.len[IC_NAME] = a->r.len[IC_CAT] = 12;
		a->r.v[IC_TYPE] = "s";
		a->r.len[IC_TYPE] = 1;
		(void)sqr_int(row, 5, &v);
		sq_set_i64(&a->r, IC_CORR, a->corrbuf, v);
		emit(a);
	}
}

/*
 * The category trace_view.json gives a framework event, from its
 * ENUM_API_TYPE level: op, queue (Enqueue / Dequeue@...), trace (python
 * functions), mstx.
 */
static void
set_fw_cat(struct adb *a, int64_t type)
{
	const char *c = NULL;

	switch (type) {
	case 50001: c = "cpu_op"; break;
	case 50002:
		c = a->r.len[IC_NAME] >= 7 &&
		    memcmp(a->r.v[IC_NAME], "Dequeue", 7) == 0 ? "dequeue" :
		    "enqueue";
		break;
	case 50003: c = "python_function"; break;
	case 50004: c = "mstx"; break;
	}
	if (c != NULL) {
		a->r.v[IC_CAT] = c;
		a->r.len[IC_CAT] = strlen(c);
	}
}

static int
torch_open(struct adb *a, struct hcur *h)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };

	if (!sq_has_table(q, "PYTORCH_API") ||
	    !sq_has_col(q, "PYTORCH_API", "startNs"))
		return 0;
	/* Declared TEXT in torch_npu: read as the integers they hold. */
	sq_sql(&b, "SELECT " TORCH_TIMES);
	sq_sql_col(q, &b, "PYTORCH_API", "p", "globalTid");
	sq_sql_col(q, &b, "PYTORCH_API", "p", "name");
	sq_sql_col(q, &b, "PYTORCH_API", "p", "type");
	sq_sql_col(q, &b, "PYTORCH_API", "p", "inputShapes");
	sq_sql_col(q, &b, "PYTORCH_API", "p", "inputDtypes");
	sq_sql(&b, " FROM PYTORCH_API p");
	return hs_query(a, h, NULL, NULL, &b, "PYTORCH_API");
}

static void
torch_row(struct adb *a, struct hcur *h)
{
	const struct sqrow *row = &h->row;
	int64_t v;

	rec_start(a, IK_HOST);
	if (sq_times(a->q, row, 0, "PYTORCH_API", 0, &a->r) != 0)
		return;
	set_tid(a, row, 2);
	set_str(a, row, 3, IC_NAME);
	if (sqr_int(row, 4, &v))
		set_fw_cat(a, v);
	set_str(a, row, 5, IC_IN_SHAPES);
	set_str(a, row, 6, IC_IN_DTYPES);
	sq_check_step(&a->r);
	a->nstepmarks += a->r.kind == IK_STEP;
	emit(a);
	h->n++;
}

/* Without framework step markers, STEP_TIME's steps are the markers. */
static void
step_markers(struct adb *a)
{
	size_t i;

	for (i = 0; i < a->nsteps; i++) {
		rec_start(a, IK_STEP);
		a->r.ts = a->steps[i].start;
		a->r.dur = a->steps[i].end - a->steps[i].start;
		a->r.has_dur = a->r.dur >= 0;
		if (a->r.dur < 0)
			continue;
		if (a->namecap < 48) {
			a->namecap = 48;
			a->namebuf = xrealloc(a->namebuf, a->namecap);
		}
		a->r.v[IC_NAME] = a->namebuf;
		a->r.len[IC_NAME] = (size_t)snprintf(a->namebuf, 48,
		    "ProfilerStep#%" PRId64, a->steps[i].id);
		a->r.v[IC_CAT] = "STEP_TIME";
		a->r.len[IC_CAT] = 9;
		sq_set_i64(&a->r, IC_STEP, a->stepbuf, a->steps[i].id);
		sink_add(a->q->sink, a->q->src, &a->r);
	}
}

/* msprof's mstx ranges and marks (MSTX_EVENTS). */
static int
mstx_open(struct adb *a, struct hcur *h)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };

	if (!sq_has_table(q, "MSTX_EVENTS") ||
	    !sq_has_col(q, "MSTX_EVENTS", "startNs"))
		return 0;
	sq_sql(&b, "SELECT " MSTX_TIMES);
	sq_sql_col(q, &b, "MSTX_EVENTS", "m", "globalTid");
	sq_sql_col(q, &b, "MSTX_EVENTS", "m", "message");
	sq_sql(&b, " FROM MSTX_EVENTS m");
	return hs_query(a, h, NULL, NULL, &b, "MSTX_EVENTS");
}

static void
mstx_row(struct adb *a, struct hcur *h)
{
	const struct sqrow *row = &h->row;

	rec_start(a, IK_HOST);
	if (sq_times(a->q, row, 0, "MSTX_EVENTS", 0, &a->r) != 0)
		return;
	if (a->r.dur == 0)
		a->r.kind = IK_MARK;
	set_tid(a, row, 2);
	set_str(a, row, 3, IC_NAME);
	a->r.v[IC_CAT] = "mstx";
	a->r.len[IC_CAT] = 4;
	sq_check_step(&a->r);
	emit(a);
	h->n++;
}

/* ---- the host streams, a row at a time ---- */

static const struct {
	int		(*open)(struct adb *, struct hcur *);
	void		(*row)(struct adb *, struct hcur *);
} hs[HS_N] = {
	{ comm_open, comm_row },
	{ api_open, api_row },
	{ torch_open, torch_row },
	{ mstx_open, mstx_row },
};

/* 0, or -1 after a diagnostic; with the first row, if any. */
static int
hs_open(struct adb *a, int k, struct hcur *h)
{
	memset(h, 0, sizeof(*h));
	if (hs[k].open(a, h) < 0)
		return -1;
	if (h->pf != NULL)
		h->r = sqpf_next(h->pf, &h->row);
	return 0;
}

/* The next row's records; 0 when there are no more rows. */
static int
hs_step(struct adb *a, int k, struct hcur *h)
{
	if (h->r != 1)
		return 0;
	hs[k].row(a, h);
	h->r = sqpf_next(h->pf, &h->row);
	return 1;
}

/* The table's rows taken, for -i; -1 when reading failed. */
static int
hs_close(struct adb *a, int k, struct hcur *h)
{
	static const char *const why[HS_N] = {
		"HCCL tasks, joined with TASK", "host API calls",
		"framework ops, queue and python events",
		"mstx ranges and marks"
	};
	static const char *const table[HS_N] = {
		"COMMUNICATION_TASK_INFO", NULL, "PYTORCH_API", "MSTX_EVENTS"
	};

	if (h->pf == NULL)
		return 0;
	sqpf_close(h->pf);
	h->pf = NULL;
	sq_table(a->q, k == HS_API ? a->api : table[k], h->n, why[k]);
	return h->r < 0 ? -1 : 0;
}

/* Host stream K read and stored: 0, or -1 after a diagnostic. */
static int
host_stream(struct adb *a, int k)
{
	struct hcur h;

	if (hs_open(a, k, &h) < 0)
		return -1;
	while (hs_step(a, k, &h))
		;
	return hs_close(a, k, &h);
}

/* The rank of a database whose path does not say: RANK_DEVICE_MAP. */
static void
db_rank(struct adb *a)
{
	sqlite3_stmt *st;

	if (a->q->ctx->rank >= 0 || !sq_has_table(a->q, "RANK_DEVICE_MAP") ||
	    sqlite3_prepare_v2(a->q->db, "SELECT min(rankId), max(rankId) "
	    "FROM RANK_DEVICE_MAP WHERE rankId >= 0", -1, &st, NULL) !=
	    SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && !SQ_NULL(st, 0) &&
	    sqlite3_column_int64(st, 0) == sqlite3_column_int64(st, 1)) {
		sink_set_rank(a->q->sink, a->q->src,
		    sqlite3_column_int64(st, 0));
		sq_table(a->q, "RANK_DEVICE_MAP", 1, "the rank");
	}
	sqlite3_finalize(st);
}

static void
not_read(struct sqdb *q)
{
	static const struct {
		const char	*t, *why;
	} nr[] = {
		{ "PYTORCH_CALLCHAINS", "call stacks: evidence only" },
		{ "CONNECTION_IDS", "framework op to task links: not used" },
		{ "NPU_MEM", "memory counters: not ingested" },
		{ "NPU_MODULE_MEM", "memory counters: not ingested" },
		{ "NPU_OP_MEM", "memory counters: not ingested" },
		{ "MEMORY_RECORD", "memory counters: not ingested" },
		{ "OP_MEMORY", "memory counters: not ingested" },
		{ "HBM", "bandwidth counters: not ingested" },
		{ "LLC", "cache counters: not ingested" },
		{ "DDR", "bandwidth counters: not ingested" },
		{ "ACC_PMU", "counters: not ingested" },
		{ "SOC_BANDWIDTH_LEVEL", "counters: not ingested" },
		{ "AICORE_FREQ", "frequency counters: not ingested" },
		{ "OVERLAP_ANALYSIS", "MindStudio-Insight's derived view" },
		{ NULL, NULL }
	};
	size_t i;

	for (i = 0; nr[i].t != NULL; i++)
		sq_table(q, nr[i].t, -1, nr[i].why);
}

/* ---- straight to the output ---- */

/*
 * A lone database's records, stored, sorted and spilled to disk, cost a
 * third of the time of reading it, and more the larger it is
 * (BENCHMARKS.md).  Its device tasks, a kernel or two per row of the
 * largest join, come from a query in time order, and the host streams
 * read after them often come in time order too: those are not stored
 * but read as the output is written, and merged there with the rest,
 * stored as always (see ingest.h, struct sink_replay).  What the output
 * must know before its first line comes from the device tasks' first
 * rows, read now and held (their earliest time, the evidence notes:
 * each seen, or one that no row can give, or all rows read), and from
 * one pass over each host stream's times (host_direct()).  Where the
 * first rows do not settle the notes, or a query fails, the device
 * tasks are read again from the start and everything is stored, as
 * PROF_INGEST_DIRECT=0 has it always.
 */
#define PRIME_ROWS	4096

/*
 * Whether the start times of table T sort as the numbers they are read
 * as: SQLite puts TEXT and BLOB values after every number, so a query
 * ordered by them would not give the records in time order.  max() is
 * an index's last entry where an index leads with the column.
 */
static int
starts_numeric(struct sqdb *q, const char *t)
{
	char sql[96];
	sqlite3_stmt *st;
	int ok = 0, ty;

	if (!sq_has_table(q, t) || !sq_has_col(q, t, "startNs"))
		return 1;
	snprintf(sql, sizeof(sql), "SELECT max(startNs) FROM %s", t);
	if (sqlite3_prepare_v2(q->db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		ty = sqlite3_column_type(st, 0);
		ok = ty == SQLITE_INTEGER || ty == SQLITE_FLOAT ||
		    ty == SQLITE_NULL;
	}
	sqlite3_finalize(st);
	return ok;
}

/* Whether the notes the device tasks give are known. */
static int
dev_settled(const struct adb *a, const struct devcur *d, int shapes_col)
{
	if (!dev_more(d))
		return 1;
	return (a->shapes || d->k == NULL || !shapes_col) &&
	    (a->pmu || !d->pmu) && (a->stepids || a->nsteps == 0);
}

/* Read the device tasks' first rows and hold them: 1 when the rest may
 * go to the output unstored, 0 when nothing was read after all. */
static int
dev_prime(struct adb *a)
{
	struct devcur *d;
	int shapes_col, r;
	size_t n = 0;

	if (!a->q->direct || !starts_numeric(a->q, "TASK") ||
	    !starts_numeric(a->q, "COMMUNICATION_OP"))
		return 0;
	shapes_col = sq_has_col(a->q, "COMPUTE_TASK_INFO", "inputShapes");
	d = xcalloc(1, sizeof(*d));
	a->mode = AM_HOLD;
	diag_mute(1);
	if ((r = dev_open(a, d)) == 0)
		while (n++ < PRIME_ROWS && !(dev_settled(a, d, shapes_col) &&
		    (a->nheld > 0 || !dev_more(d))))
			(void)dev_step(a, d);
	diag_mute(0);
	a->mode = AM_STORE;
	if (r == 0 && d->rk >= 0 && d->rc >= 0 &&
	    dev_settled(a, d, shapes_col)) {
		a->dc = d;
		a->hc = xcalloc(HS_N + 1, sizeof(*a->hc));
		a->nds = 1;
		return 1;
	}
	/* Again from the start, stored; what was said is said again. */
	if (r == 0)
		(void)dev_close(a, d);
	free(d);
	sink_hold_drop(a->q->sink, a->q->src);
	a->nheld = 0;
	a->shapes = a->pmu = a->stepids = 0;
	a->have_prev = 0;
	a->prev_end = 0;
	a->q->failed = 0;
	return 0;
}

/*
 * A host stream's query has no ORDER BY: its rows come in the table's
 * order.  One pass over its times alone (an aggregate that sees the rows
 * in the order of a scan of the table, which is the query's where the
 * table has no index to read instead) proves them in time order, as
 * sq_times() keeps them, and gives their span, and, for the framework
 * ops, whether any is a step marker.
 */
struct hproof {
	const struct adb *a;
	int64_t		 prev, tmin, tmax;
	int		 any, ordered;
	int		 steps;
};

static void
proof_step(sqlite3_context *cx, int argc, sqlite3_value **v)
{
	struct hproof *p = sqlite3_user_data(cx);
	struct sqcell c;
	struct sqrow row = { NULL, &c };
	struct irec r;
	int64_t s, e;
	size_t len;

	if (!p->ordered || sqlite3_value_type(v[0]) == SQLITE_NULL ||
	    sqlite3_value_type(v[1]) == SQLITE_NULL)
		return;
	s = sqlite3_value_int64(v[0]);
	e = sqlite3_value_int64(v[1]);
	if (e < s || s == INT64_MIN)
		return;		/* skipped */
	if (p->any && s < p->prev) {
		p->ordered = 0;
		return;
	}
	if (!p->any)
		p->tmin = s;
	if (!p->any || e > p->tmax)
		p->tmax = e;
	p->prev = s;
	p->any = 1;
	if (argc < 3 || p->steps)
		return;
	/* The name as set_str() makes it, and sq_check_step() on it. */
	memset(&c, 0, sizeof(c));
	c.type = sqlite3_value_type(v[2]);
	c.i = sqlite3_value_int64(v[2]);
	memset(&r, 0, sizeof(r));
	r.v[IC_NAME] = sq_col_str(p->a->q, &row, 0, &len);
	r.len[IC_NAME] = len;
	if (absent(r.v[IC_NAME], len))
		r.v[IC_NAME] = NULL;
	sq_check_step(&r);
	p->steps = r.kind == IK_STEP;
}

static void
proof_final(sqlite3_context *cx)
{
	sqlite3_result_null(cx);
}

/* The proof's SQL for host stream K, or NULL where it cannot be had. */
static char *
proof_sql(struct adb *a, int k)
{
	struct sqdb *q = a->q;
	struct sqlbuf b = { NULL, 0, 0 };
	sqlite3_stmt *st;
	const char *t;
	int ok;

	t = k == HS_API ? a->api : k == HS_TORCH ? "PYTORCH_API" :
	    "MSTX_EVENTS";
	sq_sql(&b, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
	    "AND tbl_name = '%s'", t);
	ok = sqlite3_prepare_v2(q->db, b.s, -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		ok = sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int64(st, 0) == 0;
		sqlite3_finalize(st);
	}
	b.len = 0;
	if (k == HS_API)
		sq_sql(&b, "SELECT prof_proof(a.startNs, a.endNs) FROM %s a", t);
	else if (k == HS_TORCH) {
		sq_sql(&b, "SELECT prof_proof(" TORCH_TIMES);
		sq_sql_col(q, &b, t, "p", "name");
		sq_sql(&b, ") FROM %s p", t);
	} else
		sq_sql(&b, "SELECT prof_proof(" MSTX_TIMES ") FROM %s m", t);
	if (!ok) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/*
 * The proof runs on a connection of its own, on a thread of its own
 * where one can be had, while the reader opens the stream's query (for
 * the API calls, a pass over TASK for the launched ids): two passes of
 * about the same time side by side.  Its function sees the string
 * table, loaded and no longer changed.
 */
struct hproof_run {
	struct hproof	 p;
	char		*sql;
	const char	*path;
	pthread_t	 thread;
	int		 ok;
};

static void *
proof_work(void *arg)
{
	struct hproof_run *pr = arg;
	sqlite3 *db = NULL;
	sqlite3_stmt *st;

	pr->ok = 0;
	if (sq_connect(pr->path, &db) == SQLITE_OK &&
	    sqlite3_create_function(db, "prof_proof", -1, SQLITE_UTF8, &pr->p,
	    NULL, proof_step, proof_final) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, pr->sql, -1, &st, NULL) == SQLITE_OK) {
		pr->ok = sqlite3_step(st) == SQLITE_ROW && pr->p.ordered;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return NULL;
}

/*
 * Host stream K to the output as it is read, when it is proven in order
 * (the HCCL tasks' join, when it has rows, is not: it stops the direct
 * streams there, and the rest is stored, so that each stream keeps its
 * ties with those read before): 1; 2 when it was read and stored, not
 * proven; 0 when not read, the HCCL tasks; or -1 after a diagnostic.
 * Its query opens now, where it would have.
 */
static int
host_direct(struct adb *a, int k)
{
	struct sqdb *q = a->q;
	struct hproof_run pr;
	struct hcur *h = &a->hc[a->nds];
	struct irec r;
	sqlite3_stmt *st;
	int empty = 0, threaded, rc;

	if (k == HS_COMM) {
		if (!sq_has_table(q, "COMMUNICATION_TASK_INFO") ||
		    !sq_has_table(q, "TASK") || !sq_has_col(q,
		    "COMMUNICATION_TASK_INFO", "globalTaskId"))
			return 1;
		if (sqlite3_prepare_v2(q->db, "SELECT EXISTS (SELECT 1 FROM "
		    "COMMUNICATION_TASK_INFO)", -1, &st, NULL) == SQLITE_OK) {
			empty = sqlite3_step(st) == SQLITE_ROW &&
			    sqlite3_column_int64(st, 0) == 0;
			sqlite3_finalize(st);
		}
		return empty;
	}
	if (k == HS_API)
		a->api = sq_has_table(q, "CANN_API") ? "CANN_API" :
		    sq_has_table(q, "API") ? "API" : NULL;
	if (k == HS_API ? a->api == NULL || !sq_has_col(q, a->api,
	    "startNs") : !sq_has_col(q, k == HS_TORCH ? "PYTORCH_API" :
	    "MSTX_EVENTS", "startNs"))
		return 1;	/* not read at all */
	memset(&pr, 0, sizeof(pr));
	pr.p.a = a;
	pr.p.ordered = 1;
	pr.path = q->path;
	if ((pr.sql = proof_sql(a, k)) == NULL)
		return 0;
	threaded = pthread_create(&pr.thread, NULL, proof_work, &pr) == 0;
	rc = hs_open(a, k, h);
	if (!threaded)
		(void)proof_work(&pr);
	else if (pthread_join(pr.thread, NULL) != 0)
		pr.ok = 0;
	free(pr.sql);
	if (rc < 0)
		return -1;
	if (!pr.ok) {
		/* Stored, as it would have been. */
		while (hs_step(a, k, h))
			;
		return hs_close(a, k, h) < 0 ? -1 : 2;
	}
	a->hk[a->nds++] = k;
	a->nstepmarks += pr.p.steps;
	/* Its span: the first start, the last end. */
	memset(&r, 0, sizeof(r));
	r.kind = IK_HOST;
	r.dev = IREC_DEV_SRC;
	r.ts = pr.p.tmin;
	if (pr.p.any)
		sink_fact(q->sink, q->src, &r);
	r.ts = pr.p.tmax;
	if (pr.p.any)
		sink_fact(q->sink, q->src, &r);
	return 1;
}

static int
dev_fill(void *arg, size_t i)
{
	struct adb *a = arg;
	struct hcur *h;
	int k;

	a->mode = AM_DIRECT;
	a->pause = 0;
	if (i == 0) {
		while (!a->pause && dev_step(a, a->dc))
			;
		return dev_more(a->dc);
	}
	k = a->hk[i];
	h = &a->hc[i];
	while (!a->pause && hs_step(a, k, h))
		;
	return h->r == 1;
}

/* Cannot happen for a lone file: the records would lose their ties. */
static void
dev_store(void *arg)
{
	struct adb *a = arg;
	size_t i;

	a->mode = AM_STORE;
	while (dev_step(a, a->dc))
		;
	for (i = 1; i < a->nds; i++)
		while (hs_step(a, a->hk[i], &a->hc[i]))
			;
}

/* Every row's facts, on a query of its own, the wait's state kept. */
static void
dev_facts(void *arg)
{
	struct adb *a = arg;
	struct devcur d;
	int64_t prev_end = a->prev_end;
	int have_prev = a->have_prev;

	a->mode = AM_FACT;
	if (dev_open(a, &d) == 0) {
		while (dev_step(a, &d))
			;
		(void)dev_close(a, &d);
	}
	a->prev_end = prev_end;
	a->have_prev = have_prev;
	a->q->failed = 0;
}

static void
adb_free(struct adb *a)
{
	free(a->steps);
	free(a->pmubuf);
	free(a->namebuf);
	free(a->launched);
	free(a);
}

static int
dev_done(void *arg)
{
	struct adb *a = arg;
	int rc = dev_close(a, a->dc);
	size_t i;

	for (i = 1; i < a->nds; i++)
		if (hs_close(a, a->hk[i], &a->hc[i]) < 0)
			rc = -1;
	free(a->hc);
	free(a->dc);
	free(a->where);
	free(a->path);
	sq_free(a->q);
	adb_free(a);
	return rc;
}

/* The database stays open, and the reader's state, till the output. */
static void
dev_offer(struct adb *a)
{
	struct sqdb *q = a->q;
	struct sink_replay rp;

	a->where = xstrdup(q->where);
	q->where = a->where;
	a->path = xstrdup(q->path);
	q->path = a->path;
	a->ctx = *q->ctx;
	q->ctx = &a->ctx;
	q->kept = 1;
	memset(&rp, 0, sizeof(rp));
	rp.arg = a;
	rp.nstreams = a->nds;
	rp.fill = dev_fill;
	rp.store = dev_store;
	rp.done = dev_done;
	rp.facts = dev_facts;
	rp.loud = 1;
	sink_direct(q->sink, q->src, &rp, 1);
}

int
ingest_ascend_db(struct sqdb *q)
{
	struct adb *a = xcalloc(1, sizeof(*a));
	int rc = 0, direct = 0, k = HS_COMM, r;

	a->q = q;
	if (sq_load_strings(q, "STRING_IDS") < 0) {
		adb_free(a);
		return -1;
	}
	db_rank(a);
	if (sq_has_table(q, "PYTORCH_CALLCHAINS"))
		sink_note(q->sink, q->src, "stacks");
	if (load_steps(a) < 0 ||
	    (!(direct = dev_prime(a)) && device_tasks(a) < 0))
		rc = -1;
	/* After the device tasks, the host streams that can go so too. */
	for (k = HS_COMM; rc == 0 && direct && k < HS_N; k++)
		if ((r = host_direct(a, k)) != 1) {
			rc = r < 0 ? -1 : 0;
			k += r == 2;
			break;
		}
	for (; rc == 0 && k < HS_N; k++)
		rc = host_stream(a, k);
	if (rc == 0 && a->nstepmarks == 0)
		step_markers(a);
	if (a->shapes)
		sink_note(q->sink, q->src, "shapes");
	if (a->pmu)
		sink_note(q->sink, q->src, "pmu");
	if (a->stepids)
		sink_note(q->sink, q->src, "step_ids");
	not_read(q);
	if (direct)
		dev_offer(a);
	else
		adb_free(a);
	return rc;
}

/* ---- analysis.db ---- */

/*
 * StepTraceTime: step_trace_time.csv's twin, in us, one metric per
 * present value column (profiler_<column>_ns, exact integer ns), as the
 * text reader writes them.  The CommAnalyzer tables hold REAL start times
 * that lost up to tens of microseconds (15 significant digits): the ops
 * come exactly from the profiler database's COMMUNICATION_OP instead.
 */
int
ingest_analysis_db(struct sqdb *q)
{
	sqlite3_stmt *st;
	char num[64], vbuf[32], key[160], stepbuf[64];
	struct irec r;
	int64_t v, n = 0;
	int ncol, i, rs, step = -1, dev = -1;
	enum dtime_err e;
	size_t len, sl;
	const char *s;

	sq_table(q, "CommAnalyzerTime", -1, "REAL start times, lossy: the "
	    "ops come from COMMUNICATION_OP");
	sq_table(q, "CommAnalyzerBandwidth", -1, "per-link aggregates: not "
	    "ingested");
	sq_table(q, "CommAnalyzerMatrix", -1, "per-link aggregates: not "
	    "ingested");
	if (!sq_has_table(q, "StepTraceTime"))
		return 0;
	if ((st = sq_prepare(q, "SELECT * FROM StepTraceTime",
	    "StepTraceTime")) == NULL)
		return -1;
	ncol = sqlite3_column_count(st);
	for (i = 0; i < ncol; i++) {
		if (strcmp(sqlite3_column_name(st, i), "step") == 0)
			step = i;
		else if (strcmp(sqlite3_column_name(st, i), "deviceId") == 0)
			dev = i;
	}
	while ((rs = sq_step(q, st, "StepTraceTime")) == 1) {
		memset(&r, 0, sizeof(r));
		r.kind = IK_METRIC;
		r.ts = IREC_NO_TS;
		r.dev = dev >= 0 && sqlite3_column_type(st, dev) ==
		    SQLITE_INTEGER ? sqlite3_column_int64(st, dev) :
		    IREC_DEV_SRC;
		r.v[IC_CAT] = "step_trace_time";
		r.len[IC_CAT] = 15;
		if (step >= 0 && !SQ_NULL(st, step)) {
			s = (const char *)sqlite3_column_text(st, step);
			sl = (size_t)sqlite3_column_bytes(st, step);
			/* "step50" in some releases, "50" in others. */
			if (sl > 4 && memcmp(s, "step", 4) == 0) {
				s += 4;
				sl -= 4;
			}
			if (sl >= sizeof(stepbuf))
				sl = sizeof(stepbuf) - 1;
			memcpy(stepbuf, s, sl);
			r.v[IC_STEP] = stepbuf;
			r.len[IC_STEP] = sl;
		}
		for (i = 0; i < ncol; i++) {
			const char *cn = sqlite3_column_name(st, i);

			if (i == step || i == dev || SQ_NULL(st, i) ||
			    strcmp(cn, "type") == 0 || strcmp(cn, "index") == 0)
				continue;
			s = (const char *)sqlite3_column_text(st, i);
			len = (size_t)sqlite3_column_bytes(st, i);
			if (s == NULL || len >= sizeof(num))
				continue;
			memcpy(num, s, len);
			if ((e = dtime_parse(num, len, 3, &v)) != DTIME_OK) {
				diag_at(q->where, 0, "table StepTraceTime: "
				    "column '%s': invalid time '%.*s': %s", cn,
				    (int)len, s, dtime_strerror(e));
				sqlite3_finalize(st);
				return -1;
			}
			snprintf(key, sizeof(key), "profiler_%s_ns", cn);
			r.v[IC_NAME] = key;
			r.len[IC_NAME] = strlen(key);
			r.v[IC_VALUE] = vbuf;
			r.len[IC_VALUE] = dtime_format(v, 0, vbuf);
			sink_add(q->sink, q->src, &r);
		}
		n++;
	}
	sqlite3_finalize(st);
	sq_table(q, "StepTraceTime", n, "step_trace_time metrics");
	return rs < 0 ? -1 : 0;
}
