/*
 * prof-ingest readers for Ascend tables: torch_npu kernel_details.csv,
 * msprof op_summary_*.csv, step_trace_time.csv and communication.json.
 *
 * The CSV headers changed with every torch_npu release (at least five
 * generations, from 8 to 47 columns), so every column is found by name
 * and only the name, start and duration are required.  Times are epoch
 * microseconds with up to three decimals (ns), or milliseconds in
 * communication.json; they go through dtime_parse / json_dec, never a
 * double.  "N/A" and "NA" read as absent, which prof-tsv writes as an
 * empty field.
 */
#include <config.h>

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvin.h"
#include "diag.h"
#include "dtime.h"
#include "ingest.h"
#include "json.h"
#include "xalloc.h"

#define ASCEND_MAXJSON	(256 * 1024 * 1024)	/* communication.json cap */
#define ASCEND_NSHAPES	4			/* IC_IN_SHAPES.. */

/* Where the columns of a kernel table are; -1 when absent. */
struct kcols {
	int	 name, ts, dur, wait, step, dev, track, type, core;
	int	 shape[ASCEND_NSHAPES];
	int	 pmu;		/* first PMU column */
};

/*
 * How a kernel table is read.  Once, its records stored as they come;
 * or, the run's only source in a plain file, twice (see ingest.h, struct
 * sink_replay): a first pass that gives every diagnostic and fact but
 * stores nothing, then, when its rows were in time order (every
 * torch_npu and msprof table of the corpus is), a second pass that
 * hands each record to the output as the output needs it.  Nothing is
 * stored or spilled then: on the benchmark's 1 GiB kernel_details.csv
 * that was 2 GB of sorted runs written to disk and read back.
 */
enum { AM_ONCE, AM_FACTS, AM_AGAIN };

/* One Ascend CSV being read. */
struct areader {
	struct csvin	*cv;
	const char	*where;
	struct sink	*sink;
	int		 src;
	char		**keys;		/* sanitised column names */
	size_t		*keylen;
	char		*buf;		/* the PMU text of a row */
	size_t		 cap;
	int		 shapes, pmu, steps;	/* seen, for sink_note */
	int		 dup;		/* a column read is named twice */
	int		 mode;		/* AM_ONCE, AM_FACTS, AM_AGAIN */
	int		 unordered;	/* AM_FACTS: a row went back in time */
	int64_t		 first_ts;	/* AM_FACTS: the first row's start */
	int64_t		 last_ts;	/* AM_FACTS: the row before's start */
	uint64_t	 nrec;		/* records given (not AM_ONCE) */
	int		 pause;		/* AM_AGAIN: the output has enough */
	/* AM_FACTS: the file, and where a second thread notes the facts */
	const char	*path;
	struct stat	 st;
	struct sink_facts *facts;
};

/* Column names, canonical first: kernel_details, then op_summary. */
static const char *const col_name[] = { "Name", "Op Name", NULL };
static const char *const col_name_op[] = { "Op Name", "Name", NULL };
static const char *const col_ts[] = {
	"Start Time(us)", "Task Start Time(us)", NULL
};
static const char *const col_ts_op[] = {
	"Task Start Time(us)", "Start Time(us)", NULL
};
static const char *const col_dur[] = {
	"Duration(us)", "Task Duration(us)", NULL
};
static const char *const col_dur_op[] = {
	"Task Duration(us)", "Duration(us)", NULL
};
static const char *const col_wait[] = {
	"Wait Time(us)", "Task Wait Time(us)", NULL
};
static const char *const col_type[] = { "Type", "OP Type", NULL };
static const char *const col_core[] = {
	"Accelerator Core", "Task Type", NULL
};
static const char *const col_shape[ASCEND_NSHAPES] = {
	"Input Shapes", "Input Data Types", "Output Shapes",
	"Output Data Types"
};

/*
 * Whether column I, one the reader takes, has a namesake: which of the
 * two holds the data is not known, and taking the first would be a
 * guess, so the header is an error.
 */
static int
col_twice(struct areader *a, int i)
{
	int j = csvin_col_dup(a->cv, i);

	if (j < 0)
		return 0;
	diag_at(a->where, 1, "column '%s' appears twice in the header "
	    "(columns %d and %d)", csvin_colname(a->cv, (size_t)i), i + 1,
	    j + 1);
	a->dup = 1;
	return 1;
}

/* Index of the first of NAMES in the header, or -1. */
static int
col_any(struct areader *a, const char *const *names)
{
	int i;

	for (; *names != NULL; names++)
		if ((i = csvin_col(a->cv, *names)) >= 0) {
			col_twice(a, i);
			return i;
		}
	return -1;
}

/* csvin_col, with the check for a namesake. */
static int
col_one(struct areader *a, const char *name)
{
	const char *const names[] = { name, NULL };

	return col_any(a, names);
}

/* Like col_any, but a missing column is an error on the header line. */
static int
col_need(struct areader *a, const char *const *names, int *out)
{
	const char *first;

	if ((*out = col_any(a, names)) >= 0)
		return a->dup ? -1 : 0;
	/*
	 * Show how the header begins: a file that is no such table at all
	 * (JSON under a .csv name, another table) shows at once.
	 */
	first = csvin_ncols(a->cv) > 0 ? csvin_colname(a->cv, 0) : "";
	diag_at(a->where, 1, "missing column '%s' (the header begins '%.40s%s')",
	    names[0], first, strlen(first) > 40 || csvin_ncols(a->cv) > 1 ?
	    "..." : "");
	return -1;
}

/* Append the word W to a key being built at O, after a separator. */
static char *
key_word(const char *start, char *o, const char *w)
{
	if (o > start)
		*o++ = '_';
	while (*w != '\0')
		*o++ = *w++;
	return o;
}

/*
 * A header name as a key of [a-z0-9_]: "aic_l0a_read_bw(GB/s)" gives
 * aic_l0a_read_bw_gbps, "cube_utilization(%)" cube_utilization_pct,
 * "Communication(Not Overlapped)" communication_not_overlapped.  Any run
 * of other bytes becomes one '_'.  A name with no letter or digit gets
 * colN, so that no key is empty.
 */
static char *
ascend_key(const char *name, size_t idx)
{
	char *out = xmalloc(4 * strlen(name) + 24), *o = out;
	int sep = 0;

	while (*name != '\0') {
		if (strncmp(name, "GB/s", 4) == 0) {
			o = key_word(out, o, "gbps");
			name += 4;
			sep = 1;
		} else if (*name == '%') {
			o = key_word(out, o, "pct");
			name++;
			sep = 1;
		} else if (isalnum((unsigned char)*name)) {
			if (sep && o > out)
				*o++ = '_';
			sep = 0;
			*o++ = (char)tolower((unsigned char)*name++);
		} else {
			sep = 1;
			name++;
		}
	}
	if (o == out)
		o += sprintf(out, "col%zu", idx + 1);
	*o = '\0';
	return out;
}

/* Parse field COL as a time with SCALE (3: us, 6: ms) into ns. */
static int
field_time(const struct areader *a, int col, int scale, int64_t *out)
{
	size_t len;
	const char *s = csvin_field(a->cv, col, &len);

	enum dtime_err e;

	if ((e = dtime_parse(s, len, scale, out)) == DTIME_OK)
		return 0;
	/* The reason, and at most 60 bytes of a (maybe huge) field. */
	diag_at(a->where, csvin_line(a->cv),
	    "column '%s': invalid time '%.*s%s': %s",
	    csvin_colname(a->cv, (size_t)col), len > 60 ? 60 : (int)len, s,
	    len > 60 ? "..." : "", dtime_strerror(e));
	return -1;
}

/*
 * The lowest 64-bit value marks an absent time in prof-tsv(5): a start
 * that parses to it is out of range, not absent.
 */
static int
field_start(const struct areader *a, int col, int64_t ts)
{
	if (ts != INT64_MIN)
		return 0;
	diag_at(a->where, csvin_line(a->cv), "column '%s': invalid time "
	    "'%s': value out of range", csvin_colname(a->cv, (size_t)col),
	    csvin_field(a->cv, col, NULL));
	return -1;
}

/*
 * Parse field COL as the duration (us) of a record starting at TS.  A
 * negative duration, or one that takes the end past 64-bit nanoseconds,
 * is refused here, where the file and line are known: prof-tsv(5) allows
 * neither, and every stage would otherwise stop on the record far from
 * its source.
 */
static int
field_dur(const struct areader *a, int col, int64_t ts, int64_t *out)
{
	int64_t end;

	if (field_time(a, col, 3, out) != 0)
		return -1;
	if (*out < 0) {
		diag_at(a->where, csvin_line(a->cv),
		    "column '%s': negative duration '%s'",
		    csvin_colname(a->cv, (size_t)col),
		    csvin_field(a->cv, col, NULL));
		return -1;
	}
	if (__builtin_add_overflow(ts, *out, &end)) {
		diag_at(a->where, csvin_line(a->cv),
		    "column '%s': start + duration overflows 64-bit "
		    "nanoseconds", csvin_colname(a->cv, (size_t)col));
		return -1;
	}
	return 0;
}

/* The Device_id of a row when it is a plain number; else the rank's. */
static int64_t
field_dev(const struct areader *a, int col)
{
	size_t len, i;
	const char *s;

	if (col < 0)
		return IREC_DEV_SRC;
	s = csvin_field(a->cv, col, &len);
	if (len == 0 || len > 18)
		return IREC_DEV_SRC;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return IREC_DEV_SRC;
	return strtoll(s, NULL, 10);
}

/* Set text column IC from field COL unless it is absent. */
static int
set_text(const struct areader *a, struct irec *r, int ic, int col)
{
	if (col < 0 || csvin_absent(a->cv, col))
		return 0;
	r->v[ic] = csvin_field(a->cv, col, &r->len[ic]);
	return 1;
}

/*
 * Shape and dtype fields: torch_npu writes """32,3,224,224""", which
 * libcsv hands over with one literal pair of quotes; drop that pair.
 */
static int
set_shape(const struct areader *a, struct irec *r, int ic, int col)
{
	if (!set_text(a, r, ic, col))
		return 0;
	if (r->len[ic] >= 2 && r->v[ic][0] == '"' &&
	    r->v[ic][r->len[ic] - 1] == '"') {
		r->v[ic]++;
		r->len[ic] -= 2;
	}
	return r->len[ic] > 0;
}

/* Make room for LEN more bytes after N in the reader's text buffer. */
static char *
buf_room(struct areader *a, size_t n, size_t len)
{
	if (a->cap - n < len) {
		a->cap = (a->cap + len) * 2;
		a->buf = xrealloc(a->buf, a->cap);
	}
	return a->buf + n;
}

/*
 * Join the present PMU fields from column FIRST on as key=value,...  This
 * runs for some 25 fields of every row, so the keys come with their '='
 * and length, and an absent value is looked up only for short fields
 * ("", "NA", "N/A").
 */
static void
set_pmu(struct areader *a, struct irec *r, int first)
{
	size_t n = 0, len, i, ncols = csvin_ncols(a->cv);
	const char *s;
	char *o;

	for (i = (size_t)first; i < ncols; i++) {
		s = csvin_field(a->cv, (int)i, &len);
		if (len <= 3 && csvin_absent(a->cv, (int)i))
			continue;
		if (a->mode == AM_FACTS) {	/* whether there are, only */
			a->pmu = 1;
			return;
		}
		o = buf_room(a, n, a->keylen[i] + len + 1);
		memcpy(o, a->keys[i], a->keylen[i]);
		memcpy(o + a->keylen[i], s, len);
		o[a->keylen[i] + len] = ',';
		n += a->keylen[i] + len + 1;
	}
	if (n > 0) {
		r->v[IC_PMU] = a->buf;
		r->len[IC_PMU] = n - 1;
		a->pmu = 1;
	}
}

/* A row whose field count differs from the header's is an error. */
static int
row_ragged(const struct areader *a)
{
	size_t nf = csvin_nfields(a->cv), nc = csvin_ncols(a->cv);

	if (nf == nc)
		return 0;
	diag_at(a->where, csvin_line(a->cv),
	    "row has %zu fields, the header has %zu", nf, nc);
	return 1;
}

/*
 * After a bad row has been reported: with --lenient count it and go on
 * (returns 0), otherwise the file ends here (returns -1).
 */
static int
skip_row(const struct areader *a)
{
	if (!ingest_lenient)
		return -1;
	sink_skip(a->sink, a->src, "malformed row (--lenient)");
	return 0;
}

/* The three tables this file reads; they differ in column names. */
enum atable {
	AT_KERNEL_DETAILS, AT_OP_SUMMARY, AT_STEP_TRACE, AT_CLUSTER_STEP
};

/*
 * Find the kernel table's columns.  PMU counters are whatever follows
 * Context ID or Output Formats (whichever is later); the Level0 export
 * has neither and no counters.
 */
static int
kernel_cols(struct areader *a, enum atable fmt, struct kcols *k)
{
	int i, ctx, fmts;

	if (col_need(a, fmt == AT_OP_SUMMARY ? col_name_op : col_name,
	    &k->name) != 0 ||
	    col_need(a, fmt == AT_OP_SUMMARY ? col_ts_op : col_ts,
	    &k->ts) != 0 ||
	    col_need(a, fmt == AT_OP_SUMMARY ? col_dur_op : col_dur,
	    &k->dur) != 0)
		return -1;
	k->wait = col_any(a, col_wait);
	k->step = col_one(a, "Step Id");
	k->dev = col_one(a, "Device_id");
	k->track = col_one(a, "Stream ID");
	k->type = col_any(a, col_type);
	k->core = col_any(a, col_core);
	for (i = 0; i < ASCEND_NSHAPES; i++)
		k->shape[i] = col_one(a, col_shape[i]);
	ctx = csvin_col(a->cv, "Context ID");
	fmts = csvin_col(a->cv, "Output Formats");
	k->pmu = (ctx > fmts ? ctx : fmts) + 1;
	if (k->pmu == 0 || (size_t)k->pmu >= csvin_ncols(a->cv))
		k->pmu = -1;
	return a->dup ? -1 : 0;
}

/* Turn one kernel_details / op_summary row into a kernel record. */
static int
kernel_row(struct areader *a, const struct kcols *k)
{
	struct irec r;
	char wbuf[32];
	int64_t wait;
	int i;

	memset(&r, 0, sizeof(r));
	r.kind = IK_KERNEL;
	r.has_dur = 1;
	if (field_time(a, k->ts, 3, &r.ts) != 0 ||
	    field_start(a, k->ts, r.ts) != 0 ||
	    field_dur(a, k->dur, r.ts, &r.dur) != 0)
		return -1;
	if (k->wait >= 0 && !csvin_absent(a->cv, k->wait)) {
		if (field_time(a, k->wait, 3, &wait) != 0)
			return -1;
		/* A wait is time before the start: never below zero. */
		if (wait < 0) {
			diag_at(a->where, csvin_line(a->cv),
			    "column '%s': negative wait '%s'",
			    csvin_colname(a->cv, (size_t)k->wait),
			    csvin_field(a->cv, k->wait, NULL));
			return -1;
		}
		if (a->mode != AM_FACTS) {
			r.v[IC_WAIT] = wbuf;
			r.len[IC_WAIT] = dtime_format(wait, 0, wbuf);
		}
	}
	r.dev = field_dev(a, k->dev);
	set_text(a, &r, IC_TRACK, k->track);
	set_text(a, &r, IC_NAME, k->name);
	set_text(a, &r, IC_TYPE, k->type);
	set_text(a, &r, IC_CORE, k->core);
	a->steps |= set_text(a, &r, IC_STEP, k->step);
	for (i = 0; i < ASCEND_NSHAPES; i++)
		if (set_shape(a, &r, IC_IN_SHAPES + i, k->shape[i]) && i == 0)
			a->shapes = 1;
	if (k->pmu >= 0)
		set_pmu(a, &r, k->pmu);
	switch (a->mode) {
	case AM_ONCE:
		sink_add(a->sink, a->src, &r);
		break;
	case AM_FACTS:
		if (r.ts < a->last_ts)
			a->unordered = 1;
		if (a->nrec++ == 0)
			a->first_ts = r.ts;
		a->last_ts = r.ts;
		if (a->facts != NULL)
			sink_facts_add(a->facts, &r);
		else
			sink_fact(a->sink, a->src, &r);
		break;
	default:
		a->nrec++;
		a->pause = sink_emit(a->sink, a->src, &r);
		break;
	}
	return 0;
}

static void	areader_free(struct areader *);
static void	make_keys(struct areader *, enum atable);

/*
 * The first pass of a large table on two threads: a second one reads
 * the rows from just after the first line end past the middle of the
 * file, quietly, while this one reads up to there.  The split is a
 * guess that a row starts there (not a line inside a quoted field):
 * it held when this thread's first row at or after that byte starts
 * where the second thread's first row did.  Then the second half's
 * facts are taken as they are; when the guess was wrong, or the second
 * half had anything to say (damage, a bad time), this thread reads on
 * alone, as if there were no second one, and says it in order.
 */
#define SPLIT_MIN	((uint64_t)32 << 20)	/* smaller: one thread */

struct afirst2 {
	struct areader	 a;		/* AM_FACTS, with facts of its own */
	struct kcols	 k;
	struct sink_facts f;
	pthread_t	 thread;
	int		 fd;
	uint64_t	 from;		/* the guess */
	uint64_t	 first_off;	/* of its first row; UINT64_MAX: none */
	int		 ok;		/* read to the end, nothing to say */
	atomic_int	 stop;		/* this thread read on alone */
};

static void *
first2_work(void *arg)
{
	struct afirst2 *t = arg;
	struct areader *a = &t->a;
	int r;

	diag_quiet_thread(1);
	while ((r = csvin_next(a->cv)) == 1) {
		if (atomic_load_explicit(&t->stop, memory_order_relaxed))
			return NULL;
		if (t->first_off == UINT64_MAX)
			t->first_off = csvin_row_offset(a->cv);
		if (row_ragged(a) || kernel_row(a, &t->k) != 0)
			return NULL;
	}
	t->ok = r == 0;
	return NULL;
}

/* The first line end at or after the middle of FD's SIZE bytes, plus 1. */
static uint64_t
split_point(int fd, uint64_t size)
{
	char buf[16384];
	uint64_t at = size / 2;
	const char *nl;
	ssize_t n;

	while (at < size && at - size / 2 < ((uint64_t)16 << 20)) {
		if ((n = pread(fd, buf, sizeof(buf), (off_t)at)) <= 0)
			return 0;
		if ((nl = memchr(buf, '\n', (size_t)n)) != NULL)
			return at + (uint64_t)(nl - buf) + 1;
		at += (uint64_t)n;
	}
	return 0;
}

static struct afirst2 *
first2_start(struct areader *a, enum atable fmt)
{
	struct afirst2 *t;
	struct stat st;
	uint64_t from;
	int fd;

	if (a->path == NULL || (uint64_t)a->st.st_size < SPLIT_MIN)
		return NULL;
	if ((fd = open(a->path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || st.st_dev != a->st.st_dev ||
	    st.st_ino != a->st.st_ino ||
	    (from = split_point(fd, (uint64_t)st.st_size)) == 0 ||
	    from >= (uint64_t)st.st_size) {
		(void)close(fd);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->fd = fd;
	t->from = from;
	t->first_off = UINT64_MAX;
	atomic_init(&t->stop, 0);
	sink_facts_init(&t->f);
	t->a.where = a->where;
	t->a.mode = AM_FACTS;
	t->a.last_ts = INT64_MIN;
	t->a.facts = &t->f;
	t->a.cv = csvin_open_part(fd, from, (uint64_t)st.st_size, a->cv);
	make_keys(&t->a, fmt);
	if (kernel_cols(&t->a, fmt, &t->k) != 0 ||
	    (errno = pthread_create(&t->thread, NULL, first2_work, t)) != 0) {
		areader_free(&t->a);
		(void)close(fd);
		free(t);
		return NULL;
	}
	return t;
}

/*
 * This thread's row at offset OFF is the first at or after the guess:
 * take the second half's facts (1: the table is read), or drop them
 * (0: read on).  OFF UINT64_MAX: at the end, or the row's start is not
 * known; dropped.
 */
static int
first2_join(struct areader *a, struct afirst2 *t, uint64_t off)
{
	int took = 0;

	if (off == UINT64_MAX)
		atomic_store(&t->stop, 1);
	(void)pthread_join(t->thread, NULL);
	if (off != UINT64_MAX && t->ok && off == t->first_off) {
		sink_facts_give(a->sink, a->src, &t->f);
		if (t->a.nrec > 0) {
			if (a->nrec > 0 && t->a.first_ts < a->last_ts)
				a->unordered = 1;
			if (a->nrec == 0)
				a->first_ts = t->a.first_ts;
			a->last_ts = t->a.last_ts;
		}
		a->nrec += t->a.nrec;
		a->unordered |= t->a.unordered;
		a->shapes |= t->a.shapes;
		a->pmu |= t->a.pmu;
		a->steps |= t->a.steps;
		took = 1;
	}
	areader_free(&t->a);
	(void)close(t->fd);
	free(t);
	return took;
}

static int
read_kernels(struct areader *a, enum atable fmt)
{
	struct afirst2 *t = NULL;
	struct kcols k;
	uint64_t off;
	int r;

	if (kernel_cols(a, fmt, &k) != 0)
		return -1;
	if (a->mode == AM_FACTS)
		t = first2_start(a, fmt);
	while ((r = csvin_next(a->cv)) == 1) {
		if (t != NULL && (off = csvin_row_offset(a->cv)) >= t->from) {
			if (first2_join(a, t, off))
				return 0;
			t = NULL;
		}
		if ((row_ragged(a) || kernel_row(a, &k) != 0) &&
		    skip_row(a) != 0) {
			r = -1;
			break;
		}
	}
	if (t != NULL)
		(void)first2_join(a, t, UINT64_MAX);
	return r;
}

/* Whether column I of step_trace_time.csv is a key, not a value. */
static int
step_key_col(const struct csvin *cv, size_t i)
{
	const char *n = csvin_colname(cv, i);

	return strcmp(n, "Step") == 0 || strcmp(n, "Device_id") == 0 ||
	    strcmp(n, "Type") == 0 || strcmp(n, "Index") == 0 ||
	    strcmp(n, "DP Index") == 0 || strcmp(n, "PP Index") == 0 ||
	    strcmp(n, "TP Index") == 0;
}

/*
 * One step_trace_time row: a metric per present value column, named
 * profiler_<column>_ns, with the value in exact integer ns.  A row of
 * msprof-analyze's cluster_step_trace_time.csv is the same figures for
 * the rank its Index names (Type "rank"), or the maxima over the ranks
 * of a pipeline stage (Type "stage", Index the ranks as "(0, 1, ...)"):
 * those are named stage_profiler_<column>_ns, with cat
 * step_trace_time_stage, the stage's first rank as dev and its ranks in
 * group, so that nothing takes a stage for a rank.
 */
static int
step_row(struct areader *a, int step, int dev, int type)
{
	size_t i, ncols = csvin_ncols(a->cv), tl = 0;
	char vbuf[32], nbuf[96];
	struct irec r;
	int64_t v;
	const char *t = type >= 0 ? csvin_field(a->cv, type, &tl) : "";
	int stage = tl == 5 && memcmp(t, "stage", 5) == 0;

	memset(&r, 0, sizeof(r));
	r.kind = IK_METRIC;
	r.ts = IREC_NO_TS;
	r.dev = field_dev(a, dev);
	r.v[IC_CAT] = stage ? "step_trace_time_stage" : "step_trace_time";
	r.len[IC_CAT] = strlen(r.v[IC_CAT]);
	set_text(a, &r, IC_STEP, step);
	if (type >= 0 && !stage && !(tl == 4 && memcmp(t, "rank", 4) == 0)) {
		diag_at(a->where, csvin_line(a->cv), "Type '%.*s' is neither "
		    "rank nor stage", (int)tl, t);
		return -1;
	}
	if (stage) {
		const char *ix = csvin_field(a->cv, dev, &r.len[IC_GROUP]);
		size_t j = strspn(ix, "( ");

		r.v[IC_GROUP] = ix;
		r.dev = (ix[j] >= '0' && ix[j] <= '9') ? strtoll(ix + j, NULL,
		    10) : IREC_DEV_SRC;
	}
	for (i = 0; i < ncols; i++) {
		if (step_key_col(a->cv, i) || csvin_absent(a->cv, (int)i))
			continue;
		if (field_time(a, (int)i, 3, &v) != 0)
			return -1;
		if (stage) {
			r.len[IC_NAME] = (size_t)snprintf(nbuf, sizeof(nbuf),
			    "stage_%s", a->keys[i]);
			r.v[IC_NAME] = nbuf;
			if (r.len[IC_NAME] >= sizeof(nbuf))
				r.len[IC_NAME] = sizeof(nbuf) - 1;
		} else {
			r.v[IC_NAME] = a->keys[i];
			r.len[IC_NAME] = a->keylen[i];
		}
		r.v[IC_VALUE] = vbuf;
		r.len[IC_VALUE] = dtime_format(v, 0, vbuf);
		sink_add(a->sink, a->src, &r);
	}
	return 0;
}

static int
read_step_trace(struct areader *a, enum atable fmt)
{
	static const char *const col_step[] = { "Step", NULL };
	static const char *const col_index[] = { "Index", NULL };
	int step, dev, type = -1, r;
	size_t i;

	if (col_need(a, col_step, &step) != 0)
		return -1;
	if (fmt == AT_CLUSTER_STEP) {
		static const char *const col_rowtype[] = { "Type", NULL };

		if (col_need(a, col_rowtype, &type) != 0 ||
		    col_need(a, col_index, &dev) != 0)
			return -1;
	} else
		dev = csvin_col(a->cv, "Device_id");
	/* Every column is read: each name must be one column's. */
	for (i = 0; i < csvin_ncols(a->cv); i++)
		if (col_twice(a, (int)i))
			return -1;
	while ((r = csvin_next(a->cv)) == 1)
		if ((row_ragged(a) || step_row(a, step, dev, type) != 0) &&
		    skip_row(a) != 0)
			return -1;
	return r;
}

/* Tell the inventory what the source carried. */
static void
ascend_notes(const struct areader *a)
{
	if (a->shapes)
		sink_note(a->sink, a->src, "shapes");
	if (a->pmu)
		sink_note(a->sink, a->src, "pmu");
	if (a->steps)
		sink_note(a->sink, a->src, "step_ids");
}

/*
 * Sanitise every header name once: PMU keys get their '=' (kernel
 * tables), metric names become profiler_<key>_ns (step_trace_time).
 */
static void
make_keys(struct areader *a, enum atable fmt)
{
	size_t i, n = csvin_ncols(a->cv);
	char *k;

	a->keys = xreallocarray(NULL, n + 1, sizeof(*a->keys));
	a->keylen = xreallocarray(NULL, n + 1, sizeof(*a->keylen));
	for (i = 0; i < n; i++) {
		k = ascend_key(csvin_colname(a->cv, i), i);
		a->keys[i] = xmalloc(strlen(k) + 16);
		if (fmt == AT_STEP_TRACE || fmt == AT_CLUSTER_STEP)
			sprintf(a->keys[i], "profiler_%s_ns", k);
		else
			sprintf(a->keys[i], "%s=", k);
		a->keylen[i] = strlen(a->keys[i]);
		free(k);
	}
}

/* Free what reader A holds (not A itself). */
static void
areader_free(struct areader *a)
{
	size_t i;

	if (a->cv != NULL) {
		for (i = 0; i < csvin_ncols(a->cv); i++)
			free(a->keys[i]);
		free(a->keys);
		free(a->keylen);
		csvin_close(a->cv);
	}
	free(a->buf);
}

/* The second pass of a kernel table read twice (AM_AGAIN). */
struct areplay {
	struct areader	 a;
	struct kcols	 k;
	struct input	*in;
	char		*path, *where;
	enum atable	 fmt;
	struct stat	 st;		/* the file as the first pass found it */
	uint64_t	 nrec;		/* the records the first pass gave */
	int		 opened, ended, failed;
};

/*
 * Open the file again.  One that is no longer the file the first pass
 * read (replaced, grown, rewritten) fails the second pass: its records
 * would not be the ones the preamble and the diagnostics were about.
 */
static void
replay_open(struct areplay *p)
{
	struct stat now;
	const char *name;

	p->opened = 1;
	if (stat(p->path, &now) != 0 || now.st_dev != p->st.st_dev ||
	    now.st_ino != p->st.st_ino || now.st_size != p->st.st_size ||
	    now.st_mtime != p->st.st_mtime ||
	    (p->in = input_open(p->path)) == NULL ||
	    input_next(p->in, &name) != 1 ||
	    (p->a.cv = csvin_open(p->in, p->where, 0)) == NULL) {
		p->failed = p->ended = 1;
		return;
	}
	make_keys(&p->a, p->fmt);
	if (kernel_cols(&p->a, p->fmt, &p->k) != 0)
		p->ended = 1;		/* as in the first pass: no rows */
}

/*
 * The next rows, until the output has enough (1) or the table ends (0):
 * where the first pass stopped at a damaged row, so does this one.
 */
static int
replay_rows(struct areplay *p)
{
	if (!p->opened)
		replay_open(p);
	while (!p->ended) {
		if (csvin_next(p->a.cv) != 1 || row_ragged(&p->a) ||
		    kernel_row(&p->a, &p->k) != 0) {
			p->ended = 1;
			break;
		}
		if (p->a.pause) {
			p->a.pause = 0;
			return 1;
		}
	}
	return 0;
}

static int
replay_fill(void *arg, size_t stream)
{
	(void)stream;		/* a table is one stream */
	return replay_rows(arg);
}

/* Every record again, stored (sink_emit() adds them then). */
static void
replay_store(void *arg)
{
	while (replay_rows(arg))
		continue;
}

static int
replay_done(void *arg)
{
	struct areplay *p = arg;
	int rc = 0;

	if (p->failed || p->a.nrec != p->nrec) {
		diag_at(p->where, 0, "the file changed while it was read; "
		    "its records are not all in the output");
		rc = -1;
	}
	areader_free(&p->a);
	if (p->in != NULL)
		input_close(p->in);
	free(p->path);
	free(p->where);
	free(p);
	return rc;
}

/* After the first pass: the sink reads the table again when it needs. */
static void
replay_offer(const struct areader *a, enum atable fmt, const char *path,
    const struct stat *st, int rc)
{
	struct areplay *p = xcalloc(1, sizeof(*p));
	struct sink_replay rp;
	int ordered = rc == 0 && !a->unordered;

	p->a.where = p->where = xstrdup(a->where);
	p->a.sink = a->sink;
	p->a.src = a->src;
	p->a.mode = AM_AGAIN;
	p->path = xstrdup(path);
	p->fmt = fmt;
	p->st = *st;
	p->nrec = a->nrec;
	memset(&rp, 0, sizeof(rp));
	rp.arg = p;
	rp.nstreams = ordered ? 1 : 0;
	rp.fill = replay_fill;
	rp.store = replay_store;
	rp.done = replay_done;
	sink_direct(a->sink, a->src, &rp, ordered);
}

static int
read_table(struct input *in, const char *where,
    const struct ingest_ctx *ctx, enum atable fmt)
{
	struct areader a;
	struct stat st;
	const char *plain = NULL;
	int rc = -1;

	memset(&a, 0, sizeof(a));
	a.where = where;
	a.sink = ctx->sink;
	/* Read twice (AM_FACTS): not with --lenient, whose skips a
	 * second pass would have to find again. */
	if ((fmt == AT_KERNEL_DETAILS || fmt == AT_OP_SUMMARY) &&
	    !ingest_lenient && sink_can_direct(a.sink) &&
	    (plain = input_plain_path(in)) != NULL && stat(plain, &st) == 0) {
		a.mode = AM_FACTS;
		a.last_ts = INT64_MIN;
		a.path = plain;
		a.st = st;
	}
	a.src = sink_begin(a.sink, ctx->fmt, where, ctx->run, ctx->rank);
	if ((a.cv = csvin_open(in, where, 0)) != NULL) {
		make_keys(&a, fmt);
		if (fmt == AT_STEP_TRACE || fmt == AT_CLUSTER_STEP)
			rc = read_step_trace(&a, fmt);
		else
			rc = read_kernels(&a, fmt);
		ascend_notes(&a);
		if (a.mode == AM_FACTS)
			replay_offer(&a, fmt, plain, &st, rc);
	}
	areader_free(&a);
	sink_end(a.sink, a.src);
	return rc < 0 ? -1 : 0;
}

/* A CSV file: its first bytes do not open a JSON value. */
static int
csv_head_has(const char *head, size_t len, const char *column)
{
	return !ingest_looks_json(head, len) &&
	    ingest_head_has(head, len, column);
}

int
ingest_name_op_summary(const char *base)
{
	return ingest_has_prefix(base, "op_summary") &&
	    ingest_has_suffix(base, ".csv");
}

int
ingest_content_op_summary(const char *head, size_t len)
{
	return csv_head_has(head, len, "Task Start Time(us)");
}

int
ingest_name_kernel_details(const char *base)
{
	return ingest_has_prefix(base, "kernel_details") &&
	    ingest_has_suffix(base, ".csv");
}

int
ingest_content_kernel_details(const char *head, size_t len)
{
	return csv_head_has(head, len, "Start Time(us)") &&
	    ingest_head_has(head, len, "Duration(us)");
}

int
ingest_name_cluster_step(const char *base)
{
	return strcmp(base, "cluster_step_trace_time.csv") == 0;
}

int
ingest_content_cluster_step(const char *head, size_t len)
{
	return csv_head_has(head, len, ",Type,Index,") &&
	    ingest_head_has(head, len, "Computing");
}

int
ingest_name_step_trace(const char *base)
{
	return strcmp(base, "step_trace_time.csv") == 0;
}

int
ingest_content_step_trace(const char *head, size_t len)
{
	return csv_head_has(head, len, "Computing") &&
	    ingest_head_has(head, len, "Free");
}

/*
 * The four tables, told apart by the format table's row that matched:
 * they share a reader and differ only in their column names.
 */
int
ingest_ascend_table(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	static const struct {
		const char	*fmt;
		enum atable	 table;
	} tables[] = {
		{ "op_summary", AT_OP_SUMMARY },
		{ "kernel_details", AT_KERNEL_DETAILS },
		{ "cluster_step_trace_time", AT_CLUSTER_STEP },
		{ "step_trace_time", AT_STEP_TRACE },
	};
	size_t i;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (strcmp(ctx->fmt->name, tables[i].fmt) == 0)
			return read_table(in, where, ctx, tables[i].table);
	diag_at(where, 0, "internal error: no table for format %s",
	    ctx->fmt->name);
	return -1;
}

/* ---- communication.json ---- */

/* The document being read and the op being built. */
struct creader {
	const struct json_doc *doc;
	const char	*where;
	struct sink	*sink;
	int		 src;
	char		*key;		/* decoded op key */
	size_t		 keycap;
	char		*pmu;		/* the op's figures, key=value,... */
	size_t		 pmucap;
};

/*
 * Read the time at token T (SCALE 3: us, 6: ms).  The message names the
 * op and field, since the whole file is usually one line.
 */
static int
comm_time(const struct creader *c, int t, const char *field, int scale,
    int64_t *out)
{
	const jsmntok_t *tok = &c->doc->tok[t];

	if (json_dec(c->doc->text, c->doc->tok, t, scale, out) == DTIME_OK)
		return 0;
	diag_at(c->where, 0, "op '%s': field '%s': invalid time '%.*s'",
	    c->key, field, (int)(tok->end - tok->start),
	    c->doc->text + tok->start);
	return -1;
}

/*
 * The op's start and duration from its Communication Time Info.  Its
 * "Wait Time(ms)" is spent inside the duration waiting for the peers, not
 * queued before the start as a kernel's wait_ns is, so it is not kept
 * (see prof-ingest(1)).
 */
static int
comm_times(const struct creader *c, int info, struct irec *r)
{
	const struct json_doc *d = c->doc;
	int t;

	t = json_get(d->text, d->tok, d->ntok, info, "Start Timestamp(us)");
	if (comm_time(c, t, "Start Timestamp(us)", 3, &r->ts) != 0)
		return -1;
	if (r->ts == INT64_MIN) {
		diag_at(c->where, 0, "op '%s': field 'Start Timestamp(us)': "
		    "time out of range", c->key);
		return -1;
	}
	t = json_get(d->text, d->tok, d->ntok, info, "Elapse Time(ms)");
	if (t >= 0) {
		if (comm_time(c, t, "Elapse Time(ms)", 6, &r->dur) != 0)
			return -1;
		r->has_dur = 1;
	}
	return 0;
}

/* Append "PREFIX_KEY=VALUE" (the number at token T, as written) to *LEN. */
static void
comm_figure(struct creader *c, size_t *len, const char *prefix,
    const char *name, int t)
{
	const struct json_doc *d = c->doc;
	const jsmntok_t *tok = &d->tok[t];
	size_t vl = (size_t)(tok->end - tok->start);
	char *k = ascend_key(name, 0), *p;

	if (tok->type != JSMN_PRIMITIVE || tok->end < tok->start)
		goto out;
	if (*len + strlen(prefix) + strlen(k) + vl + 4 > c->pmucap) {
		c->pmucap = 2 * (*len + strlen(prefix) + strlen(k) + vl + 4);
		c->pmu = xrealloc(c->pmu, c->pmucap);
	}
	p = c->pmu + *len;
	p += sprintf(p, "%s%s%s%s=", *len > 0 ? "," : "", prefix,
	    *prefix != '\0' ? "_" : "", k);
	memcpy(p, d->text + tok->start, vl);
	p[vl] = '\0';
	*len = (size_t)(p - c->pmu) + vl;
out:
	free(k);
}

/*
 * The op's own figures, in pmu as the file wrote them: transit, wait,
 * synchronisation and idle time (the Wait Time is spent inside the op's
 * duration waiting for its peers, not queued before its start as a
 * kernel's wait_ns is), and per transport link that carried data (RDMA,
 * HCCS, PCIE, SDMA, SIO ...) its transit size and time; their sizes,
 * in decimal MB, added up exactly into bytes, less SDMA's.  Returns the
 * pmu length.
 */
static size_t
comm_figures(struct creader *c, int op, int info, struct irec *r,
    char *bytes)
{
	static const char *const times[] = { "Transit Time(ms)",
	    "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)" };
	const struct json_doc *d = c->doc;
	size_t len = 0, i;
	int bw, t, k, sz, tt;
	int64_t b, total = 0;
	char name[64];

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		if ((t = json_get(d->text, d->tok, d->ntok, info,
		    times[i])) >= 0)
			comm_figure(c, &len, "", times[i], t);
	bw = json_get(d->text, d->tok, d->ntok, op,
	    "Communication Bandwidth Info");
	if (bw >= 0 && d->tok[bw].type == JSMN_OBJECT) {
		t = bw + 1;
		for (k = 0; k < d->tok[bw].size && t + 1 < d->ntok; k++) {
			sz = json_get(d->text, d->tok, d->ntok, t + 1,
			    "Transit Size(MB)");
			tt = json_get(d->text, d->tok, d->ntok, t + 1,
			    "Transit Time(ms)");
			if (sz >= 0 && d->tok[t].type == JSMN_STRING &&
			    json_dec(d->text, d->tok, sz, 6, &b) ==
			    DTIME_OK && b > 0) {
				size_t nl = (size_t)(d->tok[t].end -
				    d->tok[t].start);

				if (nl >= sizeof(name))
					nl = sizeof(name) - 1;
				memcpy(name, d->text + d->tok[t].start, nl);
				name[nl] = '\0';
				for (i = 0; i < nl; i++)
					name[i] = (char)tolower(
					    (unsigned char)name[i]);
				comm_figure(c, &len, name, "Transit Size(MB)",
				    sz);
				if (tt >= 0)
					comm_figure(c, &len, name,
					    "Transit Time(ms)", tt);
				/*
				 * msprof-analyze's SDMA entry is the sum of
				 * the on-node links (HCCS, PCIE) again.
				 */
				if (strcmp(name, "sdma") != 0 &&
				    __builtin_add_overflow(total, b, &total))
					total = INT64_MAX;
			}
			t = json_skip(d->tok, d->ntok, t + 1);
		}
	}
	if (total > 0) {
		r->v[IC_BYTES] = bytes;
		r->len[IC_BYTES] = (size_t)sprintf(bytes, "%" PRId64, total);
	}
	if (len > 0) {
		r->v[IC_PMU] = c->pmu;
		r->len[IC_PMU] = len;
	}
	return len;
}

/*
 * One op of a step: KEY is "<op>@<group hash>", VAL its object.  The
 * per-section "Total Op Info" aggregate is not an op; an op with no start
 * timestamp cannot be placed and is counted as skipped.
 */
static int
comm_op(struct creader *c, int key, int val, const char *step,
    const char *type, int64_t dev)
{
	const struct json_doc *d = c->doc;
	struct irec r;
	char *at, bytes[24];
	int info;
	long n;

	/*
	 * An op the damage cut (left open, end -1) is not whole: not read.
	 * The damage may also leave something other than a string where
	 * a key belongs, and open: only a whole string names an op.
	 */
	if (d->tok[key].type != JSMN_STRING || d->tok[key].end < 0 ||
	    d->tok[val].end < 0 ||
	    json_eq(d->text, d->tok, key, "Total Op Info"))
		return 0;
	if ((n = json_str(d->text, d->tok, key, &c->key, &c->keycap)) < 0) {
		diag_at(c->where, 0, "bad escape in op name");
		return -1;
	}
	info = json_get(d->text, d->tok, d->ntok, val,
	    "Communication Time Info");
	if (json_get(d->text, d->tok, d->ntok, info,
	    "Start Timestamp(us)") < 0) {
		sink_skip(c->sink, c->src,
		    "communication op without a start time");
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.kind = IK_COMM;
	r.dev = dev;
	if (comm_times(c, info, &r) != 0)
		return -1;
	r.v[IC_NAME] = c->key;
	r.len[IC_NAME] = (size_t)n;
	if ((at = memchr(c->key, '@', (size_t)n)) != NULL) {
		r.len[IC_NAME] = (size_t)(at - c->key);
		r.v[IC_GROUP] = at + 1;
		r.len[IC_GROUP] = (size_t)n - r.len[IC_NAME] - 1;
	}
	r.v[IC_STEP] = step;
	r.len[IC_STEP] = strlen(step);
	r.v[IC_TYPE] = type;
	r.len[IC_TYPE] = strlen(type);
	r.v[IC_CAT] = "communication";
	r.len[IC_CAT] = strlen(r.v[IC_CAT]);
	(void)comm_figures(c, val, info, &r, bytes);
	sink_add(c->sink, c->src, &r);
	return 0;
}

/* The ops of one section ("collective" or "p2p") of a step. */
static int
comm_section(struct creader *c, int obj, const char *step,
    const char *type)
{
	const struct json_doc *d = c->doc;
	int i, k;

	if (d->tok[obj].type != JSMN_OBJECT)
		return 0;
	i = obj + 1;
	for (k = 0; k < d->tok[obj].size && i + 1 < d->ntok; k++) {
		if (comm_op(c, i, i + 1, step, type, IREC_DEV_SRC) != 0)
			return -1;
		i = json_skip(d->tok, d->ntok, i + 1);
	}
	return 0;
}

/*
 * The step a key "stepN" names ("N"; "step" alone, when the run had no
 * step ids, names none), into STEP (CAP bytes); 0 when the key is not a
 * whole string (damage can leave one open, end -1).
 */
static int
step_key(const jsmntok_t *kt, const char *s, char *step, size_t cap)
{
	size_t len;

	if (kt->type != JSMN_STRING || kt->end < kt->start)
		return 0;
	len = (size_t)(kt->end - kt->start);
	if (len >= 4 && memcmp(s, "step", 4) == 0) {
		s += 4;
		len -= 4;
	}
	if (len >= cap)
		len = cap - 1;
	memcpy(step, s, len);
	step[len] = '\0';
	return 1;
}

/*
 * One step: KEY is "stepN" (or "step" when the run had no step ids),
 * VAL holds the collective and p2p sections.
 */
static int
comm_step(struct creader *c, int key, int val)
{
	static const char *const types[] = { "collective", "p2p" };
	const struct json_doc *d = c->doc;
	const jsmntok_t *kt = &d->tok[key];
	char step[32];
	size_t i;
	const char *s = d->text + kt->start;
	int sec;

	if (!step_key(kt, s, step, sizeof(step)))
		return 0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		sec = json_get(d->text, d->tok, d->ntok, val, types[i]);
		if (sec >= 0 && comm_section(c, sec, step, types[i]) != 0)
			return -1;
	}
	return 0;
}

int
ingest_name_comm_json(const char *base)
{
	return strcmp(base, "communication.json") == 0;
}

int
ingest_content_comm_json(const char *head, size_t len)
{
	return ingest_looks_json(head, len) &&
	    ingest_head_has(head, len, "\"Communication Time Info\"");
}

int
ingest_comm_json(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	struct json_doc doc;
	struct creader c;
	int i, k, rc = 0, damaged;

	memset(&c, 0, sizeof(c));
	c.where = where;
	c.doc = &doc;
	c.sink = ctx->sink;
	c.src = sink_begin(c.sink, ctx->fmt, where, ctx->run, ctx->rank);
	/* A damaged file keeps the ops that were whole before the damage. */
	if ((damaged = json_load_prefix(in, where, ASCEND_MAXJSON,
	    &doc)) < 0) {
		sink_end(c.sink, c.src);
		return -1;
	}
	if (doc.tok[0].type != JSMN_OBJECT) {
		diag_at(where, 0, "not a communication.json object");
		rc = -1;
	}
	i = 1;
	for (k = 0; rc == 0 && k < doc.tok[0].size && i + 1 < doc.ntok;
	    k++) {
		if (doc.tok[i + 1].type == JSMN_OBJECT)
			rc = comm_step(&c, i, i + 1);
		i = json_skip(doc.tok, doc.ntok, i + 1);
	}
	free(c.key);
	free(c.pmu);
	json_free(&doc);
	sink_end(c.sink, c.src);
	return damaged ? -1 : rc;
}

/* ---- cluster_communication.json ---- */

/*
 * msprof-analyze's cluster_communication.json holds every rank's
 * communication.json ops, nested one level deeper: communication group
 * ("p2p", or the ranks of a collective group as "(0, 1, ...)") -> step
 * -> op -> rank -> the op's Communication Time Info.  Each becomes the
 * comm record that rank's own communication.json gives, on the rank's
 * dev; the groups' "Total Op Info" aggregates are not ops.
 */
static int
cluster_op(struct creader *c, int key, int val, const char *step,
    const char *type)
{
	const struct json_doc *d = c->doc;
	int i, k;
	int64_t dev;
	char *end;

	if (d->tok[val].type != JSMN_OBJECT || d->tok[val].end < 0)
		return 0;
	i = val + 1;
	for (k = 0; k < d->tok[val].size && i + 1 < d->ntok; k++) {
		const jsmntok_t *rt = &d->tok[i];

		if (rt->type == JSMN_STRING && rt->end > rt->start &&
		    d->tok[i + 1].type == JSMN_OBJECT) {
			dev = strtoll(d->text + rt->start, &end, 10);
			if (end != d->text + rt->end || dev < 0) {
				diag_at(c->where, 0, "rank '%.*s' is not a "
				    "number", (int)(rt->end - rt->start),
				    d->text + rt->start);
				return -1;
			}
			if (comm_op(c, key, i + 1, step, type, dev) != 0)
				return -1;
		}
		i = json_skip(d->tok, d->ntok, i + 1);
	}
	return 0;
}

static int
cluster_group(struct creader *c, int key, int val)
{
	const struct json_doc *d = c->doc;
	const char *type = json_eq(d->text, d->tok, key, "p2p") ? "p2p" :
	    "collective";
	char step[32];
	int i, k, j, m, op;

	if (d->tok[val].type != JSMN_OBJECT)
		return 0;
	i = val + 1;
	for (k = 0; k < d->tok[val].size && i + 1 < d->ntok; k++) {
		if (step_key(&d->tok[i], d->text + d->tok[i].start, step,
		    sizeof(step)) && d->tok[i + 1].type == JSMN_OBJECT) {
			op = i + 1;
			j = op + 1;
			for (m = 0; m < d->tok[op].size && j + 1 < d->ntok;
			    m++) {
				if (d->tok[j].type == JSMN_STRING &&
				    d->tok[j].end > 0 &&
				    !json_eq(d->text, d->tok, j,
				    "Total Op Info") &&
				    cluster_op(c, j, j + 1, step, type) != 0)
					return -1;
				j = json_skip(d->tok, d->ntok, j + 1);
			}
		}
		i = json_skip(d->tok, d->ntok, i + 1);
	}
	return 0;
}

int
ingest_name_cluster_comm(const char *base)
{
	return strcmp(base, "cluster_communication.json") == 0;
}

int
ingest_cluster_comm(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	struct json_doc doc;
	struct creader c;
	int i, k, rc = 0, damaged;

	memset(&c, 0, sizeof(c));
	c.where = where;
	c.doc = &doc;
	c.sink = ctx->sink;
	c.src = sink_begin(c.sink, ctx->fmt, where, ctx->run, ctx->rank);
	if ((damaged = json_load_prefix(in, where, ASCEND_MAXJSON,
	    &doc)) < 0) {
		sink_end(c.sink, c.src);
		return -1;
	}
	if (doc.tok[0].type != JSMN_OBJECT) {
		diag_at(where, 0, "not a cluster_communication.json object");
		rc = -1;
	}
	i = 1;
	for (k = 0; rc == 0 && k < doc.tok[0].size && i + 1 < doc.ntok;
	    k++) {
		rc = cluster_group(&c, i, i + 1);
		i = json_skip(doc.tok, doc.ntok, i + 1);
	}
	free(c.key);
	free(c.pmu);
	json_free(&doc);
	sink_end(c.sink, c.src);
	return damaged ? -1 : rc;
}
