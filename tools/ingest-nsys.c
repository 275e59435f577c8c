/*
 * prof-ingest reader for Nsight Systems SQLite exports (`nsys export
 * --type sqlite`), schema versions 2.x (2022) to 3.x (2024) at least.
 *
 * The records are those the Kineto reader makes of the same activity,
 * so that the analysis runs on an nsys capture as on a Kineto trace:
 * kernels, memcpy and memset on the device (dev = CUDA device, track =
 * stream, Kineto's names and categories), CUDA runtime and driver calls
 * on the host (cuda_runtime, cuda_driver), joined to the device work by
 * the correlation id, and NVTX ranges as host events (ProfilerStep#N
 * ranges, which PyTorch's nsys mode emits, are step markers).  nsys
 * times are nanoseconds from the session start: the session's UTC start
 * (TARGET_INFO_SESSION_START_TIME.utcEpochNs) is the source's base, so
 * that captures of several ranks share one axis.
 *
 * Traps, from the files themselves: the runtime table repeats a call as
 * a CUDA-backtrace event (event class 67) with the same correlation id,
 * which would launch every kernel twice, so only classes 0 (runtime)
 * and 1 (driver) are read; correlation ids are unique only within a
 * process, so with several processes they are written PID:ID; columns
 * and tables come and go between versions (greenContextId, a name column
 * a post-processor appended, the metadata table's name), so every one is
 * found by name.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ingest-sqlite.h"
#include "tsv.h"
#include "xalloc.h"

#define T_KERNEL	"CUPTI_ACTIVITY_KIND_KERNEL"
#define T_MEMCPY	"CUPTI_ACTIVITY_KIND_MEMCPY"
#define T_MEMSET	"CUPTI_ACTIVITY_KIND_MEMSET"
#define T_RUNTIME	"CUPTI_ACTIVITY_KIND_RUNTIME"
#define T_NVTX		"NVTX_EVENTS"

struct nsys {
	struct sqdb	*q;
	struct irec	 r;
	int		 multi;		/* several processes: PID:CORR */
	/* Processes whose kernels ran on one device: their host side's. */
	int64_t		*ppid, *pdev;
	size_t		 nproc;
	char		 trackbuf[24], pidbuf[24], corrbuf[48], bytesbuf[24];
	char		 namebuf[128];
};

static void
rec_start(struct nsys *n, int kind)
{
	memset(&n->r, 0, sizeof(n->r));
	n->r.kind = kind;
	n->r.dev = IREC_DEV_SRC;
}

/* The pid of a globalPid/globalTid: bits 24 to 47. */
static int64_t
gpid(sqlite3_stmt *st, int i)
{
	return ((uint64_t)sqlite3_column_int64(st, i) >> 24) & 0xffffff;
}

static void
set_corr(struct nsys *n, sqlite3_stmt *st, int corr, int pid)
{
	if (SQ_NULL(st, corr))
		return;
	n->r.v[IC_CORR] = n->corrbuf;
	if (n->multi && !SQ_NULL(st, pid))
		n->r.len[IC_CORR] = (size_t)snprintf(n->corrbuf,
		    sizeof(n->corrbuf), "%" PRId64 ":%" PRId64, gpid(st, pid),
		    (int64_t)sqlite3_column_int64(st, corr));
	else
		n->r.len[IC_CORR] = (size_t)snprintf(n->corrbuf,
		    sizeof(n->corrbuf), "%" PRId64,
		    (int64_t)sqlite3_column_int64(st, corr));
}

/* Columns common to the device tables, after start and end. */
enum { D_DEV = 2, D_STREAM, D_CORR, D_PID, D_X };

static void
device_cols(struct nsys *n, struct sqlbuf *b, const char *t)
{
	sq_sql(b, "SELECT start, end");
	sq_sql_col(n->q, b, t, NULL, "deviceId");
	sq_sql_col(n->q, b, t, NULL, "streamId");
	sq_sql_col(n->q, b, t, NULL, "correlationId");
	sq_sql_col(n->q, b, t, NULL, "globalPid");
}

/* Start a device record: dev, stream, pid, correlation. */
static int
device_row(struct nsys *n, sqlite3_stmt *st, const char *t, const char *cat)
{
	rec_start(n, IK_KERNEL);
	if (sq_times(n->q, SQ_LIVE(st), 0, t, 1, &n->r) != 0)
		return -1;
	if (!SQ_NULL(st, D_DEV))
		n->r.dev = sqlite3_column_int64(st, D_DEV);
	if (!SQ_NULL(st, D_STREAM))
		sq_set_i64(&n->r, IC_TRACK, n->trackbuf,
		    sqlite3_column_int64(st, D_STREAM));
	if (!SQ_NULL(st, D_PID))
		sq_set_i64(&n->r, IC_PID, n->pidbuf, gpid(st, D_PID));
	set_corr(n, st, D_CORR, D_PID);
	n->r.v[IC_CAT] = cat;
	n->r.len[IC_CAT] = strlen(cat);
	return 0;
}

static int
kernels(struct nsys *n)
{
	static const char *const names[] = {
		"demangledName", "shortName", "mangledName", NULL
	};
	struct sqlbuf b = { NULL, 0, 0 };
	const char *col;
	sqlite3_stmt *st;
	int64_t k = 0;
	int r;

	if (!sq_has_col(n->q, T_KERNEL, "start"))
		return 0;
	col = sq_col_any(n->q, T_KERNEL, names);
	device_cols(n, &b, T_KERNEL);
	sq_sql_col(n->q, &b, T_KERNEL, NULL, col != NULL ? col : "NULL");
	sq_sql(&b, " FROM " T_KERNEL);
	st = sq_prepare(n->q, b.s, T_KERNEL);
	free(b.s);
	if (st == NULL)
		return -1;
	while ((r = sq_step(n->q, st, T_KERNEL)) == 1) {
		if (device_row(n, st, T_KERNEL, "kernel") != 0)
			continue;
		n->r.v[IC_NAME] = sq_col_str(n->q, SQ_LIVE(st), D_X,
		    &n->r.len[IC_NAME]);
		sink_add(n->q->sink, n->q->src, &n->r);
		k++;
	}
	sqlite3_finalize(st);
	sq_table(n->q, T_KERNEL, k, "kernels");
	return r;
}

/* Kineto's short names of CUDA copy kinds and memory kinds. */
static const char *
copy_kind(int64_t k)
{
	static const char *const s[] = {
		"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
		"DtoA", "DtoD", "HtoH", "PtoP", "HtoD", "DtoH", "DtoD"
	};

	return k >= 0 && k < 14 ? s[k] : "Unknown";
}

static const char *
mem_kind(int64_t k)
{
	static const char *const s[] = {
		"Pageable", "Pinned", "Device", "Array", "Managed",
		"Device Static", "Managed Static", "Unknown"
	};

	return k >= 0 && k < 8 ? s[k] : "Unknown";
}

/* Memcpy (columns bytes, copyKind, srcKind, dstKind) and memset. */
static int
memops(struct nsys *n, const char *t, int memset_)
{
	struct sqlbuf b = { NULL, 0, 0 };
	sqlite3_stmt *st;
	int64_t k = 0;
	int r;

	if (!sq_has_col(n->q, t, "start"))
		return 0;
	device_cols(n, &b, t);
	sq_sql_col(n->q, &b, t, NULL, "bytes");
	sq_sql_col(n->q, &b, t, NULL, memset_ ? "memKind" : "copyKind");
	sq_sql_col(n->q, &b, t, NULL, "srcKind");
	sq_sql_col(n->q, &b, t, NULL, "dstKind");
	sq_sql(&b, " FROM ");
	sq_sql(&b, "%s", t);
	st = sq_prepare(n->q, b.s, t);
	free(b.s);
	if (st == NULL)
		return -1;
	while ((r = sq_step(n->q, st, t)) == 1) {
		if (device_row(n, st, t, memset_ ? "gpu_memset" :
		    "gpu_memcpy") != 0)
			continue;
		if (!SQ_NULL(st, D_X))
			sq_set_i64(&n->r, IC_BYTES, n->bytesbuf,
			    sqlite3_column_int64(st, D_X));
		if (memset_)
			snprintf(n->namebuf, sizeof(n->namebuf),
			    "Memset (%s)", SQ_NULL(st, D_X + 1) ? "Device" :
			    mem_kind(sqlite3_column_int64(st, D_X + 1)));
		else
			snprintf(n->namebuf, sizeof(n->namebuf),
			    "Memcpy %s (%s -> %s)",
			    copy_kind(sqlite3_column_int64(st, D_X + 1)),
			    mem_kind(SQ_NULL(st, D_X + 2) ? 7 :
			    sqlite3_column_int64(st, D_X + 2)),
			    mem_kind(SQ_NULL(st, D_X + 3) ? 7 :
			    sqlite3_column_int64(st, D_X + 3)));
		n->r.v[IC_NAME] = n->namebuf;
		n->r.len[IC_NAME] = strlen(n->namebuf);
		sink_add(n->q->sink, n->q->src, &n->r);
		k++;
	}
	sqlite3_finalize(st);
	sq_table(n->q, t, k, memset_ ? "memsets" : "memcpys");
	return r;
}

/*
 * One capture of a multi-GPU job (nsys profile torchrun ...) holds every
 * rank's process: the host events of a process whose kernels all ran on
 * one device go to that device, so that each rank's calls meet its own
 * kernels; those of other processes go to the source's device.
 */
static int
process_devices(struct nsys *n)
{
	sqlite3_stmt *st;
	int r;

	if (!n->multi || !sq_has_col(n->q, T_KERNEL, "deviceId"))
		return 0;
	if ((st = sq_prepare(n->q, "SELECT globalPid, min(deviceId), "
	    "max(deviceId) FROM " T_KERNEL " WHERE globalPid IS NOT NULL "
	    "GROUP BY globalPid", T_KERNEL)) == NULL)
		return -1;
	while ((r = sq_step(n->q, st, T_KERNEL)) == 1) {
		if (sqlite3_column_int64(st, 1) != sqlite3_column_int64(st, 2))
			continue;
		n->ppid = xreallocarray(n->ppid, n->nproc + 1,
		    sizeof(*n->ppid));
		n->pdev = xreallocarray(n->pdev, n->nproc + 1,
		    sizeof(*n->pdev));
		n->ppid[n->nproc] = gpid(st, 0);
		n->pdev[n->nproc++] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return r;
}

/* globalTid: pid in bits 24 to 47, tid in bits 0 to 23. */
static void
set_tid(struct nsys *n, sqlite3_stmt *st, int i)
{
	int64_t pid;
	size_t k;

	if (SQ_NULL(st, i))
		return;
	pid = gpid(st, i);
	for (k = 0; k < n->nproc; k++)
		if (n->ppid[k] == pid)
			n->r.dev = n->pdev[k];
	sq_set_i64(&n->r, IC_TRACK, n->trackbuf,
	    sqlite3_column_int64(st, i) & 0xffffff);
	sq_set_i64(&n->r, IC_PID, n->pidbuf, gpid(st, i));
}

/*
 * CUDA runtime and driver calls.  nsys names a call by its versioned
 * entry point (cudaLaunchKernel_v7000): the suffix goes, so that the
 * names are CUDA's and Kineto's, which prof-attrib classes by.
 */
static int
runtime(struct nsys *n)
{
	struct sqlbuf b = { NULL, 0, 0 };
	sqlite3_stmt *st;
	int64_t k = 0, cls;
	size_t len, i;
	const char *s;
	int r;

	if (!sq_has_col(n->q, T_RUNTIME, "start"))
		return 0;
	sq_sql(&b, "SELECT start, end");
	sq_sql_col(n->q, &b, T_RUNTIME, NULL, "eventClass");
	sq_sql_col(n->q, &b, T_RUNTIME, NULL, "globalTid");
	sq_sql_col(n->q, &b, T_RUNTIME, NULL, "correlationId");
	sq_sql_col(n->q, &b, T_RUNTIME, NULL, "nameId");
	sq_sql(&b, " FROM " T_RUNTIME);
	st = sq_prepare(n->q, b.s, T_RUNTIME);
	free(b.s);
	if (st == NULL)
		return -1;
	while ((r = sq_step(n->q, st, T_RUNTIME)) == 1) {
		cls = SQ_NULL(st, 2) ? 0 : sqlite3_column_int64(st, 2);
		if (cls != 0 && cls != 1) {
			sink_skip(n->q->sink, n->q->src, "CUDA API row of "
			    "another event class (a backtrace's copy of a "
			    "call)");
			continue;
		}
		rec_start(n, IK_HOST);
		if (sq_times(n->q, SQ_LIVE(st), 0, T_RUNTIME, 1, &n->r) != 0)
			continue;
		set_tid(n, st, 3);
		set_corr(n, st, 4, 3);
		s = sq_col_str(n->q, SQ_LIVE(st), 5, &len);
		for (i = len; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
			;
		if (s != NULL && i < len && i >= 3 && s[i - 1] == 'v' &&
		    s[i - 2] == '_')
			len = i - 2;
		n->r.v[IC_NAME] = s;
		n->r.len[IC_NAME] = len;
		n->r.v[IC_CAT] = cls == 1 ? "cuda_driver" : "cuda_runtime";
		n->r.len[IC_CAT] = strlen(n->r.v[IC_CAT]);
		sink_add(n->q->sink, n->q->src, &n->r);
		k++;
	}
	sqlite3_finalize(st);
	sq_table(n->q, T_RUNTIME, k, "CUDA runtime and driver calls");
	return r;
}

/*
 * NVTX: push/pop (59) and start/end (60) ranges are host events, marks
 * (34) are marks; thread names and domains (39, 75) are not events.
 */
static int
nvtx(struct nsys *n)
{
	struct sqlbuf b = { NULL, 0, 0 };
	sqlite3_stmt *st;
	int64_t k = 0, type;
	const char *s;
	size_t len;
	int r;

	if (!sq_has_col(n->q, T_NVTX, "start"))
		return 0;
	sq_sql(&b, "SELECT start, end");
	sq_sql_col(n->q, &b, T_NVTX, NULL, "eventType");
	sq_sql_col(n->q, &b, T_NVTX, NULL, "globalTid");
	sq_sql_col(n->q, &b, T_NVTX, NULL, "text");
	sq_sql_col(n->q, &b, T_NVTX, NULL, "textId");
	sq_sql(&b, " FROM " T_NVTX);
	st = sq_prepare(n->q, b.s, T_NVTX);
	free(b.s);
	if (st == NULL)
		return -1;
	while ((r = sq_step(n->q, st, T_NVTX)) == 1) {
		type = SQ_NULL(st, 2) ? -1 : sqlite3_column_int64(st, 2);
		if (type != 34 && type != 59 && type != 60)
			continue;
		rec_start(n, type == 34 ? IK_MARK : IK_HOST);
		if (sq_times(n->q, SQ_LIVE(st), 0, T_NVTX, 1, &n->r) != 0)
			continue;
		set_tid(n, st, 3);
		if (!SQ_NULL(st, 4)) {
			s = (const char *)sqlite3_column_text(st, 4);
			len = (size_t)sqlite3_column_bytes(st, 4);
		} else
			s = sq_col_str(n->q, SQ_LIVE(st), 5, &len);
		n->r.v[IC_NAME] = s;
		n->r.len[IC_NAME] = len;
		n->r.v[IC_CAT] = "nvtx";
		n->r.len[IC_CAT] = 4;
		sq_check_step(&n->r);
		sink_add(n->q->sink, n->q->src, &n->r);
		k++;
	}
	sqlite3_finalize(st);
	sq_table(n->q, T_NVTX, k, "NVTX ranges and marks");
	return r;
}

/* The GPUs, as Kineto's deviceProperties: prof-roofline's chip. */
static int
gpus(struct nsys *n)
{
	sqlite3_stmt *st;
	char mem[24];
	int64_t k = 0;
	int r;

	if (!sq_has_col(n->q, "TARGET_INFO_GPU", "id") ||
	    !sq_has_col(n->q, "TARGET_INFO_GPU", "name") ||
	    !sq_has_col(n->q, "TARGET_INFO_GPU", "totalMemory"))
		return 0;
	if ((st = sq_prepare(n->q, "SELECT id, name, totalMemory FROM "
	    "TARGET_INFO_GPU ORDER BY id", "TARGET_INFO_GPU")) == NULL)
		return -1;
	while ((r = sq_step(n->q, st, "TARGET_INFO_GPU")) == 1) {
		if (SQ_NULL(st, 0))
			continue;
		rec_start(n, IK_DEVICE);
		n->r.ts = IREC_NO_TS;
		n->r.dev = sqlite3_column_int64(st, 0);
		sq_set_i64(&n->r, IC_TRACK, n->trackbuf, n->r.dev);
		n->r.v[IC_NAME] = (const char *)sqlite3_column_text(st, 1);
		n->r.len[IC_NAME] = (size_t)sqlite3_column_bytes(st, 1);
		n->r.v[IC_CAT] = "deviceProperties";
		n->r.len[IC_CAT] = 16;
		if (!SQ_NULL(st, 2))
			sq_set_i64(&n->r, IC_VALUE, mem,
			    sqlite3_column_int64(st, 2));
		sink_add(n->q->sink, n->q->src, &n->r);
		k++;
	}
	sqlite3_finalize(st);
	sq_table(n->q, "TARGET_INFO_GPU", k, "the GPUs");
	return r;
}

/* One integer from SQL, or DEF. */
static int64_t
one_int(struct nsys *n, const char *sql, int64_t def)
{
	sqlite3_stmt *st;
	int64_t v = def;

	if (sqlite3_prepare_v2(n->q->db, sql, -1, &st, NULL) != SQLITE_OK)
		return def;
	if (sqlite3_step(st) == SQLITE_ROW && !SQ_NULL(st, 0))
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int
ingest_nsys_db(struct sqdb *q)
{
	struct nsys n;
	int64_t base;
	int rc = 0;

	memset(&n, 0, sizeof(n));
	n.q = q;
	if (sq_load_strings(q, "StringIds") < 0)
		return -1;
	if (sq_has_col(q, "TARGET_INFO_SESSION_START_TIME", "utcEpochNs")) {
		base = one_int(&n, "SELECT utcEpochNs FROM "
		    "TARGET_INFO_SESSION_START_TIME", 0);
		sink_set_base(q->sink, q->src, base);
		sq_table(q, "TARGET_INFO_SESSION_START_TIME", 1,
		    "the time base");
	}
	if (sq_has_col(q, T_KERNEL, "globalPid"))
		n.multi = one_int(&n, "SELECT count(DISTINCT globalPid) FROM "
		    T_KERNEL, 0) > 1;
	if (process_devices(&n) < 0 || gpus(&n) < 0 || kernels(&n) < 0 ||
	    memops(&n, T_MEMCPY, 0) < 0 || memops(&n, T_MEMSET, 1) < 0 ||
	    runtime(&n) < 0 || nvtx(&n) < 0)
		rc = -1;
	sq_table(q, "OSRT_API", -1, "OS runtime calls: not ingested");
	sq_table(q, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", -1,
	    "the waits are in the runtime calls");
	free(n.ppid);
	free(n.pdev);
	return rc;
}
