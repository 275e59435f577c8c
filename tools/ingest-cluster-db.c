/*
 * msprof-analyze's cluster_analysis.db (`msprof-analyze cluster` with
 * db export): the database twin of cluster_step_trace_time.csv and
 * cluster_communication.json, read into the records their text readers
 * give (tools/ingest-ascend.c), so that the two exports of one cluster
 * analysis are one stream.
 *
 * - ClusterStepTraceTime(step, type, "index", computing, ...): per row a
 *   metric per present value column, profiler_<column>_ns in exact
 *   integer ns (the values are us), cat step_trace_time for a rank row
 *   (its dev the rank "index" names), stage_profiler_<column>_ns with
 *   cat step_trace_time_stage for a stage row (dev its first rank, group
 *   its ranks written as the text writes them, "(0, 1, ...)").
 * - ClusterCommAnalyzerTime(rank_set, step, rank_id, hccl_op_name,
 *   group_name, start_timestamp, elapsed_time, ...): per op and rank a
 *   comm record on the rank's dev: start (us), duration (elapsed_time,
 *   ms), name, group (the group hash), step ("step1" -> 1), pmu the
 *   transit, wait, synchronisation and idle times (ms), and from
 *   ClusterCommAnalyzerBandwidth the transit size (MB) and time (ms) of
 *   each link type that carried data, their sizes added into bytes less
 *   SDMA's, as cluster_communication.json's reader does.  The per-rank
 *   "Total Op Info" rows are aggregates, not ops.  The database has no
 *   collective/p2p column: an op whose name says send, recv or receive
 *   is taken for p2p, any other for collective (a guess from the name:
 *   the corpus database has no p2p op to check it on).
 *
 * A number is read as the double SQLite holds and written as Python's
 * repr() writes it (as msprof-analyze wrote it into the text twin),
 * then parsed as the text is: the records equal the text reader's.
 * CommunicationGroup and ClusterCommAnalyzerMatrix are listed, not read
 * (communication_group.json and cluster_communication_matrix.json are
 * not read either).  A table that is absent is skipped; one that lacks
 * a column the records need is refused by name.
 */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dtime.h"
#include "ingest-sqlite.h"
#include "xalloc.h"

#define STEP_TABLE	"ClusterStepTraceTime"
#define TIME_TABLE	"ClusterCommAnalyzerTime"
#define BW_TABLE	"ClusterCommAnalyzerBandwidth"

int
sq_is_cluster(const struct sqdb *q)
{
	return sq_has_table(q, STEP_TABLE) || sq_has_table(q, TIME_TABLE);
}

/*
 * D as Python's repr() writes a float, which is what msprof-analyze
 * wrote into the text twin: the fewest significant digits that read
 * back as D, fixed notation from 1e-4 up to 1e16 with at least one
 * decimal ("0.0", "1234.5"), exponent notation outside ("2e-05").
 */
static size_t
py_float(double d, char *buf, size_t cap)
{
	char e[40], *x;
	int p, exp;

	if (d != d || d - d != 0)
		return (size_t)snprintf(buf, cap, "%s", d != d ? "nan" :
		    d > 0 ? "inf" : "-inf");
	for (p = 1; p < 17; p++) {
		snprintf(e, sizeof(e), "%.*e", p - 1, d);
		if (strtod(e, NULL) == d)
			break;
	}
	snprintf(e, sizeof(e), "%.*e", p - 1, d);
	x = strchr(e, 'e');
	exp = x != NULL ? atoi(x + 1) : 0;
	if (d == 0 || (exp >= -4 && exp < 16)) {
		snprintf(buf, cap, "%.*f", p - 1 - exp > 0 ? p - 1 - exp : 0,
		    d);
		if (strchr(buf, '.') == NULL && strlen(buf) + 3 <= cap)
			strcat(buf, ".0");
	} else
		snprintf(buf, cap, "%s", e);
	return strlen(buf);
}

/*
 * Cell I as text into BUF (CAP bytes): TEXT as it is, a number as
 * Python writes a float (SQLite's NUMERIC columns keep a float with no
 * fraction as an INTEGER: 0.0 comes back 0).  Returns its length; 0 for
 * NULL or a value too long.
 */
static size_t
cell_num(sqlite3_stmt *st, int i, char *buf, size_t cap)
{
	const char *s;
	size_t n;

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		return 0;
	case SQLITE_FLOAT:
		return py_float(sqlite3_column_double(st, i), buf, cap);
	case SQLITE_INTEGER:
		n = (size_t)snprintf(buf, cap, "%lld.0",
		    (long long)sqlite3_column_int64(st, i));
		return n < cap ? n : 0;
	default:
		s = (const char *)sqlite3_column_text(st, i);
		n = (size_t)sqlite3_column_bytes(st, i);
		if (s == NULL || n >= cap)
			return 0;
		memcpy(buf, s, n);
		buf[n] = '\0';
		return n;
	}
}

/* A key cell (step, rank, name, group): an INTEGER without ".0". */
static size_t
cell_text(sqlite3_stmt *st, int i, char *buf, size_t cap)
{
	size_t n;

	if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
		return cell_num(st, i, buf, cap);
	n = (size_t)snprintf(buf, cap, "%lld",
	    (long long)sqlite3_column_int64(st, i));
	return n < cap ? n : 0;
}

/* A key cell of any length into *BUF (grown as needed). */
static size_t
cell_dup(sqlite3_stmt *st, int i, char **buf, size_t *cap)
{
	char num[64];
	const char *s = num;
	size_t n;

	if (sqlite3_column_type(st, i) == SQLITE_TEXT) {
		s = (const char *)sqlite3_column_text(st, i);
		n = (size_t)sqlite3_column_bytes(st, i);
		if (s == NULL)
			n = 0;
	} else
		n = cell_text(st, i, num, sizeof(num));
	if (n + 1 > *cap) {
		*cap = 2 * (n + 1);
		*buf = xrealloc(*buf, *cap);
	}
	if (n > 0)
		memcpy(*buf, s, n);
	(*buf)[n] = '\0';
	return n;
}

/* Cell I as a time in ns (SCALE 3: us, 6: ms); 1 when NULL. */
static int
cell_time(struct sqdb *q, sqlite3_stmt *st, int i, const char *table,
    int scale, int64_t *v)
{
	char num[64];
	size_t n;
	enum dtime_err e;

	if (SQ_NULL(st, i))
		return 1;
	n = cell_num(st, i, num, sizeof(num));
	if ((e = dtime_parse(num, n, scale, v)) == DTIME_OK)
		return 0;
	diag_at(q->where, 0, "table %s: column '%s': invalid time '%s': %s",
	    table, sqlite3_column_name(st, i), num, dtime_strerror(e));
	return -1;
}

static int
need_cols(struct sqdb *q, const char *t, const char *const *cols)
{
	for (; *cols != NULL; cols++)
		if (!sq_has_col(q, t, *cols)) {
			diag_at(q->where, 0, "table %s: no column '%s': not "
			    "msprof-analyze's cluster schema", t, *cols);
			return -1;
		}
	return 0;
}

/* "(0,1,2)" as Python writes the tuple: "(0, 1, 2)". */
static size_t
rank_set(const char *s, size_t n, char *out, size_t cap)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 2 < cap; i++) {
		out[o++] = s[i];
		if (s[i] == ',') {
			out[o++] = ' ';
			while (i + 1 < n && s[i + 1] == ' ')
				i++;
		}
	}
	out[o] = '\0';
	return o;
}

/* "step1" in the comm tables, "1" in the step table: the step, "1". */
static size_t
step_text(sqlite3_stmt *st, int i, char *out, size_t cap)
{
	size_t n = cell_text(st, i, out, cap);

	if (n >= 4 && memcmp(out, "step", 4) == 0) {
		memmove(out, out + 4, n - 3);
		n -= 4;
	}
	return n;
}

static int
key_col(const char *n)
{
	static const char *const keys[] = { "step", "type", "index",
	    "dp_index", "pp_index", "tp_index", NULL };
	size_t i;

	for (i = 0; keys[i] != NULL; i++)
		if (strcmp(n, keys[i]) == 0)
			return 1;
	return 0;
}

static int
step_trace(struct sqdb *q)
{
	static const char *const cols[] = { "step", "type", "index", NULL };
	sqlite3_stmt *st;
	char step[64], type[16], vbuf[32], nbuf[128], *ix = NULL, *grp = NULL;
	size_t ixcap = 0, grpcap = 0;
	int ncol, i, rs, stage, cstep = -1, ctype = -1, cix = -1;
	int64_t v, n = 0;
	size_t tl, il, j;
	struct irec r;

	if (!sq_has_table(q, STEP_TABLE))
		return 0;
	if (need_cols(q, STEP_TABLE, cols) != 0 ||
	    (st = sq_prepare(q, "SELECT * FROM " STEP_TABLE " ORDER BY rowid",
	    STEP_TABLE)) == NULL)
		return -1;
	ncol = sqlite3_column_count(st);
	for (i = 0; i < ncol; i++) {
		const char *cn = sqlite3_column_name(st, i);

		if (strcmp(cn, "step") == 0)
			cstep = i;
		else if (strcmp(cn, "type") == 0)
			ctype = i;
		else if (strcmp(cn, "index") == 0)
			cix = i;
	}
	while ((rs = sq_step(q, st, STEP_TABLE)) == 1) {
		memset(&r, 0, sizeof(r));
		r.kind = IK_METRIC;
		r.ts = IREC_NO_TS;
		r.dev = IREC_DEV_SRC;
		tl = cell_text(st, ctype, type, sizeof(type));
		stage = strcmp(type, "stage") == 0 && tl > 0;
		if (!stage && !(tl > 0 && strcmp(type, "rank") == 0)) {
			diag_at(q->where, 0, "table %s: type '%s' is neither "
			    "rank nor stage", STEP_TABLE, tl > 0 ? type : "");
			sqlite3_finalize(st);
			free(ix);
			free(grp);
			return -1;
		}
		r.v[IC_CAT] = stage ? "step_trace_time_stage" :
		    "step_trace_time";
		r.len[IC_CAT] = strlen(r.v[IC_CAT]);
		if ((r.len[IC_STEP] = step_text(st, cstep, step,
		    sizeof(step))) > 0)
			r.v[IC_STEP] = step;
		il = cell_dup(st, cix, &ix, &ixcap);
		if (stage) {
			if (2 * il + 1 > grpcap) {
				grpcap = 2 * il + 1;
				grp = xrealloc(grp, grpcap);
			}
			r.len[IC_GROUP] = rank_set(ix, il, grp, grpcap);
			r.v[IC_GROUP] = grp;
			j = strspn(grp, "( ");
			if (grp[j] >= '0' && grp[j] <= '9')
				r.dev = strtoll(grp + j, NULL, 10);
		} else if (il > 0 && il <= 18 && strspn(ix, "0123456789") == il)
			r.dev = strtoll(ix, NULL, 10);
		for (i = 0; i < ncol; i++) {
			const char *cn = sqlite3_column_name(st, i);
			int t;

			if (key_col(cn))
				continue;
			if ((t = cell_time(q, st, i, STEP_TABLE, 3, &v)) < 0) {
				sqlite3_finalize(st);
				free(ix);
				free(grp);
				return -1;
			}
			if (t > 0)
				continue;
			r.len[IC_NAME] = (size_t)snprintf(nbuf, sizeof(nbuf),
			    "%sprofiler_%s_ns", stage ? "stage_" : "", cn);
			if (r.len[IC_NAME] >= sizeof(nbuf))
				r.len[IC_NAME] = sizeof(nbuf) - 1;
			r.v[IC_NAME] = nbuf;
			r.v[IC_VALUE] = vbuf;
			r.len[IC_VALUE] = dtime_format(v, 0, vbuf);
			sink_add(q->sink, q->src, &r);
		}
		n++;
	}
	sqlite3_finalize(st);
	free(ix);
	free(grp);
	sq_table(q, STEP_TABLE, n, "cluster_step_trace_time metrics");
	return rs < 0 ? -1 : 0;
}

/* The op being built: its pmu figures and summed bytes. */
struct cop {
	char		*pmu;
	size_t		 len, cap;
	int64_t		 bytes;
};

static void
pmu_add(struct cop *o, const char *prefix, const char *key, const char *val)
{
	size_t need = o->len + strlen(prefix) + strlen(key) + strlen(val) + 4;

	if (need > o->cap) {
		o->cap = 2 * need;
		o->pmu = xrealloc(o->pmu, o->cap);
	}
	o->len += (size_t)sprintf(o->pmu + o->len, "%s%s%s%s=%s",
	    o->len > 0 ? "," : "", prefix, *prefix != '\0' ? "_" : "", key,
	    val);
}

/* Columns of the comm query. */
enum {
	C_STEP, C_RANK, C_NAME, C_GROUP, C_START, C_ELAPSED,
	C_TRANSIT, C_WAIT, C_SYNC, C_IDLE, C_ROWID, C_BAND, C_BSIZE,
	C_BTIME
};

/* The op's own figures, under the names the text reader gives them. */
static void
op_figures(sqlite3_stmt *st, struct cop *o)
{
	static const struct {
		int		 col;
		const char	*key;
	} f[] = {
		{ C_TRANSIT, "transit_time_ms" },
		{ C_WAIT, "wait_time_ms" },
		{ C_SYNC, "synchronization_time_ms" },
		{ C_IDLE, "idle_time_ms" },
	};
	char num[64];
	size_t i;

	o->len = 0;
	o->bytes = 0;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (cell_num(st, f[i].col, num, sizeof(num)) > 0)
			pmu_add(o, "", f[i].key, num);
}

/* One link type of the op: its size and time, when it carried data. */
static void
op_band(sqlite3_stmt *st, struct cop *o)
{
	char band[64], num[64];
	size_t n, i;
	int64_t b;

	if ((n = cell_text(st, C_BAND, band, sizeof(band))) == 0 ||
	    (i = cell_num(st, C_BSIZE, num, sizeof(num))) == 0 ||
	    dtime_parse(num, i, 6, &b) != DTIME_OK || b <= 0)
		return;
	for (i = 0; i < n; i++)
		band[i] = (char)tolower((unsigned char)band[i]);
	pmu_add(o, band, "transit_size_mb", num);
	if (cell_num(st, C_BTIME, num, sizeof(num)) > 0)
		pmu_add(o, band, "transit_time_ms", num);
	if (strcmp(band, "sdma") != 0 &&
	    __builtin_add_overflow(o->bytes, b, &o->bytes))
		o->bytes = INT64_MAX;
}

static int
is_p2p(const char *s, size_t n)
{
	char low[256];
	size_t i;

	if (n >= sizeof(low))
		n = sizeof(low) - 1;
	for (i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[n] = '\0';
	return strstr(low, "send") != NULL || strstr(low, "recv") != NULL ||
	    strstr(low, "receive") != NULL;
}

static int
comm_ops(struct sqdb *q)
{
	static const char *const cols[] = { "rank_set", "step", "rank_id",
	    "hccl_op_name", "group_name", "start_timestamp", "elapsed_time",
	    NULL };
	static const char *const bcols[] = { "rank_set", "step", "rank_id",
	    "hccl_op_name", "group_name", "band_type", "transit_size",
	    "transit_time", NULL };
	struct sqlbuf b = { NULL, 0, 0 };
	struct cop o = { NULL, 0, 0, 0 };
	sqlite3_stmt *st;
	char step[64], bytes[24], *name = NULL, *group = NULL;
	size_t namecap = 0, groupcap = 0;
	int64_t n = 0, nb = 0, rowid = 0, dev;
	int rs, bw = 0, have = 0, rc = 0, t;
	struct irec r;
	size_t i;

	if (!sq_has_table(q, TIME_TABLE)) {
		sq_table(q, BW_TABLE, -1, "links of the ops of "
		    TIME_TABLE ", which is absent");
		return 0;
	}
	if (need_cols(q, TIME_TABLE, cols) != 0)
		return -1;
	if (sq_has_table(q, BW_TABLE)) {
		for (i = 0; bcols[i] != NULL; i++)
			if (!sq_has_col(q, BW_TABLE, bcols[i]))
				break;
		bw = bcols[i] == NULL;
		if (!bw)
			sq_table(q, BW_TABLE, -1, "not msprof-analyze's "
			    "schema: no link figures");
	}
	sq_sql(&b, "SELECT t.step, t.rank_id, t.hccl_op_name, t.group_name, "
	    "t.start_timestamp, t.elapsed_time");
	sq_sql_col(q, &b, TIME_TABLE, "t", "transit_time");
	sq_sql_col(q, &b, TIME_TABLE, "t", "wait_time");
	sq_sql_col(q, &b, TIME_TABLE, "t", "synchronization_time");
	sq_sql_col(q, &b, TIME_TABLE, "t", "idle_time");
	sq_sql(&b, ", t.rowid");
	/*
	 * A link type has a row per packet size, each with the type's
	 * transit size and time again: one per type, in table order.
	 */
	if (bw)
		sq_sql(&b, ", b.band_type, b.transit_size, b.transit_time "
		    "FROM " TIME_TABLE " t LEFT JOIN (SELECT rank_set, step, "
		    "rank_id, hccl_op_name, group_name, band_type, "
		    "transit_size, transit_time, min(rowid) AS o FROM "
		    BW_TABLE " GROUP BY rank_set, step, rank_id, hccl_op_name, "
		    "group_name, band_type) b ON b.rank_set = t.rank_set AND "
		    "b.step = t.step AND b.rank_id = t.rank_id AND "
		    "b.hccl_op_name = t.hccl_op_name AND b.group_name = "
		    "t.group_name");
	else
		sq_sql(&b, ", NULL, NULL, NULL FROM " TIME_TABLE " t");
	sq_sql(&b, " WHERE t.hccl_op_name IS NOT 'Total Op Info' ORDER BY "
	    "t.rowid%s", bw ? ", b.o" : "");
	st = sq_prepare(q, b.s, TIME_TABLE);
	free(b.s);
	if (st == NULL)
		return -1;
	memset(&r, 0, sizeof(r));
	for (;;) {
		rs = sq_step(q, st, TIME_TABLE);
		if (rs == 1 && have && sqlite3_column_int64(st, C_ROWID) ==
		    rowid) {
			nb += !SQ_NULL(st, C_BAND);
			op_band(st, &o);
			continue;
		}
		if (have) {		/* the op before this row is whole */
			if (o.bytes > 0) {
				r.v[IC_BYTES] = bytes;
				r.len[IC_BYTES] = (size_t)sprintf(bytes,
				    "%" PRId64, o.bytes);
			}
			if (o.len > 0) {
				r.v[IC_PMU] = o.pmu;
				r.len[IC_PMU] = o.len;
			}
			sink_add(q->sink, q->src, &r);
			n++;
			have = 0;
		}
		if (rs != 1)
			break;
		memset(&r, 0, sizeof(r));
		rowid = sqlite3_column_int64(st, C_ROWID);
		if (SQ_NULL(st, C_START)) {
			sink_skip(q->sink, q->src,
			    "communication op without a start time");
			continue;
		}
		r.kind = IK_COMM;
		if (!sq_int(st, C_RANK, &dev) || dev < 0 ||
		    sqlite3_column_type(st, C_RANK) != SQLITE_INTEGER) {
			diag_at(q->where, 0, "table %s: rank_id '%s' is not "
			    "a rank", TIME_TABLE, SQ_NULL(st, C_RANK) ? "" :
			    (const char *)sqlite3_column_text(st, C_RANK));
			rc = -1;
			break;
		}
		r.dev = dev;
		if ((t = cell_time(q, st, C_START, TIME_TABLE, 3, &r.ts)) < 0 ||
		    r.ts == INT64_MIN ||
		    (t = cell_time(q, st, C_ELAPSED, TIME_TABLE, 6, &r.dur)) <
		    0) {
			if (t == 0)
				diag_at(q->where, 0, "table %s: "
				    "start_timestamp out of range",
				    TIME_TABLE);
			rc = -1;
			break;
		}
		r.has_dur = t == 0;
		if (!r.has_dur)
			r.dur = 0;
		/* Copied: the row is gone when the op is added. */
		r.len[IC_NAME] = cell_dup(st, C_NAME, &name, &namecap);
		r.v[IC_NAME] = name;
		if ((r.len[IC_GROUP] = cell_dup(st, C_GROUP, &group,
		    &groupcap)) > 0)
			r.v[IC_GROUP] = group;
		if ((r.len[IC_STEP] = step_text(st, C_STEP, step,
		    sizeof(step))) > 0)
			r.v[IC_STEP] = step;
		r.v[IC_TYPE] = is_p2p(r.v[IC_NAME], r.len[IC_NAME]) ? "p2p" :
		    "collective";
		r.len[IC_TYPE] = strlen(r.v[IC_TYPE]);
		r.v[IC_CAT] = "communication";
		r.len[IC_CAT] = strlen(r.v[IC_CAT]);
		op_figures(st, &o);
		nb += !SQ_NULL(st, C_BAND);
		op_band(st, &o);
		have = 1;
	}
	sqlite3_finalize(st);
	free(o.pmu);
	free(name);
	free(group);
	if (rc != 0 || rs < 0)
		return -1;
	sq_table(q, TIME_TABLE, n, "communication ops per rank, less the "
	    "Total Op Info rows");
	if (bw)
		sq_table(q, BW_TABLE, nb, "link figures of the ops, one row "
		    "per link type");
	return 0;
}

int
ingest_cluster_db(struct sqdb *q)
{
	int rc = 0;

	sq_table(q, "CommunicationGroup", -1, "rank sets of the groups: not "
	    "ingested");
	sq_table(q, "ClusterCommAnalyzerMatrix", -1, "per-link aggregates: "
	    "not ingested");
	if (step_trace(q) != 0 || comm_ops(q) != 0)
		rc = -1;
	return rc;
}
