/*
 * -f chrome: the stream as a Chrome trace (JSON object format) for
 * Perfetto and chrome://tracing, written record by record while the
 * stream is read, so memory does not grow with the capture.
 *
 * Original events keep their place: kernels and comm ops on the rank's
 * device process (pid = dev, tid = stream), host events on their host
 * process (pid = the pid column) and thread, flows as s/t/f events,
 * counters as C events.  What the stages derived becomes overlay tracks
 * on the rank's device process: steps (window), busy segments, bubbles
 * named by their labels, and every other derived kind with an extent
 * (layer, pass, ...) on a track of its own.  Per-step metrics become
 * counter tracks.  Summary records without extent (op, cause, group)
 * are left to -f json.
 *
 * Times are written in us with three decimals, exactly the stream's ns,
 * relative to the stream's origin; the origin is given as Kineto's
 * baseTimeNanoseconds, so prof-ingest reads the file back to the same
 * absolute times.
 *
 * A viewer binds each end of a flow arrow to the slice that encloses it
 * on its thread.  prof-ingest keeps one record per device task (an
 * Ascend run's kernel_details rows rather than trace_view's tasks, whose
 * MEMCPY_ASYNC and EVENT_RECORD tasks it drops), so the source's arrows
 * may point at a task that is not there, or at the device process of
 * the source rather than the rank's.  Each end is therefore held until
 * every record that starts at or before it has been drawn, then bound:
 * on its host thread, else on the rank's device stream of the same id;
 * an arrow with an end that binds nowhere is dropped whole and counted.
 * Each task is drawn once: an HCCL op that the kernel table holds is not
 * drawn again from the HCCL process of the trace, nor from
 * communication.json; the HCCL process's other tasks (its planes) get
 * tracks of their own beside the streams.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "devtab.h"
#include "diag.h"
#include "num.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

#define OVERLAY_TID	1000000000LL
/* Device tracks that are no stream: after every stream id. */
#define HCCL_TID	900000000LL	/* + the HCCL process's track */
#define NOSTREAM_TID	899999999LL	/* a kernel without a stream id */
#define COMMJSON_TID	899999998LL	/* communication.json's ops */

/* What is known of a drawn track (and, as "pid/", of a process). */
struct ctrack {
	int		 named;
	int64_t		 reach;		/* the latest end of its slices */
	/* a device track: the ends of its open slices, innermost last */
	int64_t		*open;
	size_t		 nopen, capopen;
	long long	 lanes;		/* overlap lanes beside it */
};

/*
 * Lane K of a device track: a slice that overlaps another of its track
 * without holding it or being held (two kernels of a stream whose
 * clocks overlap by a microsecond, two HCCL tasks without a stream id,
 * a step bubble across a global one) goes to the first lane where it
 * nests, as a viewer needs; its times are kept.
 */
#define LANE_STEP	100000000000LL

/* One end of a flow arrow, held until it can be bound. */
struct fend {
	char		 ph;
	int64_t		 ts;
	char		*id, *name, *cat;
	char		 hpid[32], htid[32];	/* the host thread, or "" */
	char		 dpid[32], dtid[32];	/* the rank's device stream */
	int		 bound;			/* 0: nowhere, 1: host, 2: device */
};

/* The ends of one arrow seen so far. */
struct fgroup {
	struct fend	*ends;
	size_t		 n;
	int		 bad;		/* an end bound nowhere */
};

struct chrome_out {
	FILE		*f;
	int		 started, nevents;
	char	       **kinds;		/* overlay kinds, by track index */
	size_t		 nkinds;
	/*
	 * "pid/" or "pid/tid" already named, by hash: every record asks,
	 * and a job of 100,000 ranks has as many pids.
	 */
	struct devtab	 named;		/* of struct ctrack */
	int		 c_step, c_type, c_corr, c_cat, c_pid, c_labels;
	int		 c_value, c_core;
	uint64_t	 skipped;
	/* op-simulator lanes: the cores and the pipes past dataflow[] */
	char	       **cores, **pipes;
	size_t		 ncores, npipes;
	/* flows: ends not yet bound (all at or after `held'), arrows */
	struct fend	*held;
	size_t		 nheld, capheld;
	int64_t		 now;
	struct devtab	 flows;		/* of struct fgroup, by cat and id */
	uint64_t	 arrows, dropped, repointed, dup;
	/* what the sources say (their #source lines) */
	int		 kernel_table, device_src;
	int		 device_only;
	/* -z: the trace through zlib, then to `raw' */
	FILE		*raw;
	z_stream	 z;
	int		 gz;
	const struct tsvr *in;		/* the record being drawn */
};

/*
 * The op simulator's pipes in dataflow order (as prof-ingest(1) writes
 * the instr_exe table): a kernel reads in, computes, writes out, and
 * its lanes read in that order top to bottom.
 */
static const char *const dataflow[] = {
	"MTE2", "MTE1", "CUBE", "VECTOR", "FIXPIPE", "MTE3"
};
#define NFLOW	6
#define LANES	16	/* lanes per core: the six, then others */

/*
 * -z: a FILE that deflates what is written to it into a gzip member on
 * the real output, so that every writer below keeps its stdio calls.
 */
static ssize_t
gz_write(void *arg, const char *buf, size_t n)
{
	struct chrome_out *c = arg;
	unsigned char out[1 << 16];

	c->z.next_in = (unsigned char *)(uintptr_t)buf;
	c->z.avail_in = (uInt)n;
	do {
		c->z.next_out = out;
		c->z.avail_out = sizeof(out);
		(void)deflate(&c->z, Z_NO_FLUSH);
		if (fwrite(out, 1, sizeof(out) - c->z.avail_out, c->raw) !=
		    sizeof(out) - c->z.avail_out)
			return -1;
	} while (c->z.avail_out == 0);
	return (ssize_t)n;
}

static int
gz_close(void *arg)
{
	struct chrome_out *c = arg;
	unsigned char out[1 << 16];
	int r;

	c->z.avail_in = 0;
	do {
		c->z.next_out = out;
		c->z.avail_out = sizeof(out);
		r = deflate(&c->z, Z_FINISH);
		if (fwrite(out, 1, sizeof(out) - c->z.avail_out, c->raw) !=
		    sizeof(out) - c->z.avail_out)
			return -1;
	} while (r == Z_OK);
	deflateEnd(&c->z);
	return r == Z_STREAM_END ? 0 : -1;
}

struct chrome_out *
chrome_open(FILE *f, int flags)
{
	static const char *const fixed[] = { "window", "busy", "bubble" };
	struct chrome_out *c = xcalloc(1, sizeof(*c));
	cookie_io_functions_t io = { NULL, gz_write, NULL, gz_close };
	size_t i;

	c->f = f;
	c->device_only = (flags & CHROME_DEVICE_ONLY) != 0;
	if (flags & CHROME_GZIP) {
		/* windowBits 15 + 16: a gzip header and trailer */
		if (deflateInit2(&c->z, 6, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK ||
		    (c->f = fopencookie(c, "w", io)) == NULL)
			diag_err(EXIT_BAD, "cannot set up gzip output");
		c->raw = f;
		c->gz = 1;
	}
	devtab_init(&c->named, sizeof(struct ctrack));
	devtab_init(&c->flows, sizeof(struct fgroup));
	c->now = INT64_MIN;
	/* Events are small and many: write in large blocks. */
	setvbuf(c->f, NULL, _IOFBF, 1 << 20);
	/* Steps, busy time and bubbles keep their order on every rank. */
	c->kinds = xreallocarray(NULL, 3, sizeof(*c->kinds));
	for (i = 0; i < 3; i++)
		c->kinds[c->nkinds++] = xstrdup(fixed[i]);
	return c;
}

static const char *
field(const struct tsvr *in, int col)
{
	size_t n;

	return col < 0 ? "" : tsvr_field(in, (size_t)col, &n);
}

/* Whether S is a whole non-negative integer that fits a JSON int. */
static int
is_id(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n < 16 && s[n] == '\0';
}

static void
head(struct chrome_out *c, const struct tsvr *in)
{
	const char *o = tsvr_meta(in, "origin_ns");
	size_t i;

	c->c_step = tsvr_col(in, "step");
	c->c_type = tsvr_col(in, "type");
	c->c_corr = tsvr_col(in, "corr");
	c->c_cat = tsvr_col(in, "cat");
	c->c_pid = tsvr_col(in, "pid");
	c->c_labels = tsvr_col(in, "labels");
	c->c_value = tsvr_col(in, "value");
	c->c_core = tsvr_col(in, "core");
	for (i = 0; i < tsvr_npreamble(in); i++) {
		const char *p = tsvr_preamble(in, i), *fmt;
		if (strncmp(p, "source ", 7) != 0)
			continue;
		fmt = p + 7 + strcspn(p + 7, " ");
		fmt += *fmt == ' ';
		if (strncmp(fmt, "kernel_details ", 15) == 0 ||
		    strncmp(fmt, "op_summary ", 11) == 0)
			c->kernel_table = c->device_src = 1;
		else if (strncmp(fmt, "trace_view ", 11) == 0)
			c->device_src = 1;
	}
	fputs("{\"displayTimeUnit\":\"ns\",", c->f);
	if (o != NULL && dec_valid(o) && *o != '-')
		fprintf(c->f, "\"baseTimeNanoseconds\":%s,", o);
	fputs("\"otherData\":{\"generator\":\"prof-render\",\"preamble\":[",
	    c->f);
	for (i = 0; i < tsvr_npreamble(in); i++) {
		if (i > 0)
			putc(',', c->f);
		put_json_str(c->f, tsvr_preamble(in, i));
	}
	fputs("]},\n\"traceEvents\":[", c->f);
	c->started = 1;
}

static void
begin(struct chrome_out *c)
{
	fputs(c->nevents++ ? ",\n" : "\n", c->f);
}

/*
 * NS as us with up to three decimals, exact (num_ratio's result, by
 * integer division: this runs twice per event).
 */
static void
put_time(FILE *f, int64_t ns)
{
	char b[TSV_I64_MAX + 8];
	size_t n;
	int64_t frac;

	if (ns < 0) {
		char r[NUM_BUFSIZE];
		num_ratio(r, ns, 1000, 3);
		fputs(r, f);
		return;
	}
	n = tsv_i64(b, ns / 1000);
	if ((frac = ns % 1000) != 0) {
		b[n++] = '.';
		b[n++] = (char)('0' + frac / 100);
		b[n++] = (char)('0' + frac / 10 % 10);
		b[n++] = (char)('0' + frac % 10);
		while (b[n - 1] == '0')
			n--;
	}
	fwrite(b, 1, n, f);
}

/* The track PID/TID (TID NULL: the process), made when first seen. */
static struct ctrack *
track_of(struct chrome_out *c, const char *pid, const char *tid)
{
	char buf[128], *key = buf;
	size_t np = strlen(pid), nt = tid ? strlen(tid) : 0, n = np + nt + 2;
	struct ctrack *t;
	int isnew;

	if (n > sizeof(buf))
		key = xmalloc(n);
	memcpy(key, pid, np);
	key[np] = '/';
	memcpy(key + np + 1, tid ? tid : "", nt + 1);
	t = devtab_get(&c->named, key, n - 1, &isnew);
	if (key != buf)
		free(key);
	if (isnew)
		t->reach = INT64_MIN;
	return t;
}

/* A process_name / thread_name metadata event, once per pid or tid. */
static void
name_once(struct chrome_out *c, const char *pid, const char *tid,
    const char *name, long long sort)
{
	struct ctrack *t = track_of(c, pid, tid);

	if (t->named)
		return;
	t->named = 1;
	begin(c);
	fprintf(c->f, "{\"ph\":\"M\",\"name\":\"%s_name\",\"pid\":%s,",
	    tid ? "thread" : "process", pid);
	if (tid)
		fprintf(c->f, "\"tid\":%s,", tid);
	fputs("\"args\":{\"name\":", c->f);
	put_json_str(c->f, name);
	fputs("}}", c->f);
	if (sort != 0) {
		begin(c);
		fprintf(c->f, "{\"ph\":\"M\",\"name\":\"%s_sort_index\","
		    "\"pid\":%s,", tid ? "thread" : "process", pid);
		if (tid)
			fprintf(c->f, "\"tid\":%s,", tid);
		fprintf(c->f, "\"args\":{\"sort_index\":%lld}}", sort);
	}
}

static const char *
field_pid(const struct chrome_out *c)
{
	return field(c->in, c->c_pid);
}

/*
 * A slice's name, at most NAME_MAX_BYTES: C++ template and Triton kernel
 * names run to thousands of characters, which timeline viewers draw as
 * one unreadable line and speedscope 1.25 cannot import at all (nor a
 * long string among the args, which it makes part of a frame's key, so
 * the whole name is not repeated there: it stays in the stream).  A
 * longer name is cut at a character boundary and ends in "...".
 */
#define NAME_MAX_BYTES	256

static void
slice_name(struct chrome_out *c, const char *name)
{
	size_t n = strlen(name), cut;
	char *buf;

	if (n <= NAME_MAX_BYTES) {
		put_json_str(c->f, name);
		return;
	}
	cut = NAME_MAX_BYTES - 3;
	while (cut > 0 && ((unsigned char)name[cut] & 0xc0) == 0x80)
		cut--;		/* not inside a UTF-8 sequence */
	buf = xmalloc(cut + 4);
	memcpy(buf, name, cut);
	memcpy(buf + cut, "...", 4);
	put_json_str(c->f, buf);
	free(buf);
}

/* The other non-empty columns as string args. */
static void
args(struct chrome_out *c, const struct tsvr *in)
{
	size_t i, n;
	int any = 0;
	const char *v;

	fputs(",\"args\":{", c->f);
	for (i = 6; i < tsvr_ncols(in); i++) {
		v = tsvr_field(in, i, &n);
		if (n == 0)
			continue;
		if (any++)
			putc(',', c->f);
		put_json_str(c->f, tsvr_colname(in, i));
		putc(':', c->f);
		put_json_str(c->f, v);
	}
	fputs("}}", c->f);
}

/* The overlay track of derived kind KIND on device DEV. */
static long long
overlay_tid(struct chrome_out *c, const char *dev, const char *kind)
{
	static const char *const known[][2] = {
		{ "window", "steps (prof-steps)" },
		{ "busy", "busy (prof-merge)" },
		{ "bubble", "bubbles (prof-bubbles)" },
	};
	char tid[32];
	const char *label = kind;
	size_t i;

	for (i = 0; i < c->nkinds; i++)
		if (strcmp(c->kinds[i], kind) == 0)
			break;
	if (i == c->nkinds) {
		c->kinds = xreallocarray(c->kinds, c->nkinds + 1,
		    sizeof(*c->kinds));
		c->kinds[c->nkinds++] = xstrdup(kind);
	}
	snprintf(tid, sizeof(tid), "%lld", OVERLAY_TID + (long long)i);
	for (size_t k = 0; k < 3; k++)
		if (strcmp(known[k][0], kind) == 0)
			label = known[k][1];
	name_once(c, dev, tid, label, -1000 + (long long)i);
	return OVERLAY_TID + (long long)i;
}

/* Index of S in V (added when ADD and there is room), or -1. */
static long
lane_index(char ***v, size_t *n, const char *s, int add, size_t max)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return (long)i;
	if (!add || *n == max)
		return -1;
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
	return (long)i;
}

/*
 * The lane (tid) of an op-simulator pipe record (ADD) or of a flow
 * between pipes: per core, the pipes in dataflow order, named and
 * sorted so, instead of all on one thread of a track name that is no
 * number; 0 when TRACK is neither one of the six nor a pipe seen.
 */
static long long
pipe_lane(struct chrome_out *c, const char *pid, const char *core,
    const char *track, int add)
{
	char tid[32], name[128];
	long k, p;

	for (p = 0; p < NFLOW && strcmp(dataflow[p], track) != 0; p++)
		;
	if (p == NFLOW && (p = lane_index(&c->pipes, &c->npipes, track, add,
	    LANES - NFLOW)) >= 0)
		p += NFLOW;
	if (p < 0 || (k = lane_index(&c->cores, &c->ncores, core, add ||
	    p < NFLOW, 1000)) < 0)
		return 0;
	snprintf(tid, sizeof(tid), "%ld", 1 + k * LANES + p);
	snprintf(name, sizeof(name), "%.80s%s%s", core, *core ? " " : "",
	    track);
	name_once(c, pid, tid, name, 1 + k * LANES + p);
	return 1 + k * LANES + p;
}

/* The lane of device track PID/TID where [TS, END] nests, in LTID. */
static void
lane_of(struct chrome_out *c, const char *pid, const char *tid, int64_t ts,
    int64_t end, char *ltid, size_t size)
{
	struct ctrack *base = track_of(c, pid, tid), *t;
	char label[96];
	long long k;

	for (k = 0;; k++) {
		snprintf(ltid, size, "%lld", atoll(tid) + k * LANE_STEP);
		t = k == 0 ? base : track_of(c, pid, ltid);
		while (t->nopen > 0 && t->open[t->nopen - 1] <= ts)
			t->nopen--;
		if (t->nopen == 0 || end <= t->open[t->nopen - 1])
			break;
	}
	if (k > base->lanes) {
		base->lanes = k;
		snprintf(label, sizeof(label), "track %.40s, overlap %lld", tid,
		    k);
		name_once(c, pid, ltid, label, atoll(ltid) + 1);
	}
	if (t->nopen == t->capopen) {
		t->capopen = t->capopen ? 2 * t->capopen : 4;
		t->open = xreallocarray(t->open, t->capopen,
		    sizeof(*t->open));
	}
	t->open[t->nopen++] = end;
}

static void
span(struct chrome_out *c, const struct tsvr *in, const char *name,
    const char *cat, const char *pid, const char *tid, int64_t ts,
    int64_t dur, int absent, int lanes)
{
	struct ctrack *t;
	char ltid[32];

	if (lanes) {
		lane_of(c, pid, tid, ts, ts + (absent ? 0 : dur), ltid,
		    sizeof(ltid));
		tid = ltid;
	}
	begin(c);
	fputs("{\"ph\":", c->f);
	fputs(absent ? "\"i\",\"s\":\"t\"" : "\"X\"", c->f);
	fputs(",\"name\":", c->f);
	slice_name(c, name);
	fputs(",\"cat\":", c->f);
	put_json_str(c->f, cat);
	fputs(",\"pid\":", c->f);
	fputs(pid, c->f);
	fputs(",\"tid\":", c->f);
	fputs(tid, c->f);
	fputs(",\"ts\":", c->f);
	put_time(c->f, ts);
	if (!absent) {
		fputs(",\"dur\":", c->f);
		put_time(c->f, dur);
	}
	args(c, in);
	t = track_of(c, pid, tid);
	if (ts + (absent ? 0 : dur) > t->reach)
		t->reach = ts + (absent ? 0 : dur);
}

static void
counter(struct chrome_out *c, const char *name, const char *pid,
    int64_t ts, const char *value)
{
	begin(c);
	fputs("{\"ph\":\"C\",\"name\":", c->f);
	put_json_str(c->f, name);
	fprintf(c->f, ",\"pid\":%s,\"ts\":", pid);
	put_time(c->f, ts);
	fputs(",\"args\":{\"value\":", c->f);
	put_scaled(c->f, value, 0);	/* "007" is no JSON number */
	fputs("}}", c->f);
}

static int
is_step_metric(const char *name)
{
	size_t k;

	for (k = 0; k < SM_N; k++)
		if (strcmp(name, render_step_metric[k]) == 0)
			return 1;
	return 0;
}

/*
 * Whether a slice of track PID/TID (TID: 32 bytes), or of one of its
 * lanes, holds TS; TID becomes that lane's.
 */
static int
bind_on(struct chrome_out *c, const char *pid, char *tid, int64_t ts)
{
	long long k, base = atoll(tid), lanes = track_of(c, pid, tid)->lanes;

	for (k = 0; k <= lanes; k++) {
		snprintf(tid, 32, "%lld", base + k * LANE_STEP);
		if (track_of(c, pid, tid)->reach >= ts)
			return 1;
	}
	snprintf(tid, 32, "%lld", base);
	return 0;
}

/* Where end E binds: its host thread, else the rank's device stream. */
static void
bind_end(struct chrome_out *c, struct fend *e)
{
	e->bound = 0;
	if (*e->hpid != '\0' && bind_on(c, e->hpid, e->htid, e->ts))
		e->bound = 1;
	else if (bind_on(c, e->dpid, e->dtid, e->ts)) {
		e->bound = 2;
		if (*e->hpid != '\0')
			c->repointed++;
	}
}

/*
 * An end of arrow number ID.  Flow ids are one name space for the whole
 * trace, and two ranks use the same ones (Ascend's enqueue ids count
 * from the same start on every rank): each arrow gets a number of its
 * own, and the source's id goes in args.
 */
static void
put_end(struct chrome_out *c, const struct fend *e, uint64_t id)
{
	begin(c);
	fprintf(c->f, "{\"ph\":\"%c\",%s\"id\":%llu", e->ph,
	    e->ph == 's' ? "" : "\"bp\":\"e\",", (unsigned long long)id);
	fputs(",\"name\":", c->f);
	put_json_str(c->f, e->name);
	fputs(",\"cat\":", c->f);
	put_json_str(c->f, e->cat);
	fprintf(c->f, ",\"pid\":%s,\"tid\":%s,\"ts\":",
	    e->bound == 1 ? e->hpid : e->dpid,
	    e->bound == 1 ? e->htid : e->dtid);
	put_time(c->f, e->ts);
	fputs(",\"args\":{\"corr\":", c->f);
	put_json_str(c->f, e->id);
	fputs("}}", c->f);
}

static void
free_group(struct fgroup *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		free(g->ends[i].id);
		free(g->ends[i].name);
		free(g->ends[i].cat);
	}
	free(g->ends);
	g->ends = NULL;
	g->n = 0;
	g->bad = 0;
}

/*
 * Bind end E and add it to its arrow; at the arrow's finish, write it
 * whole, or drop it whole when an end bound nowhere or it never started.
 */
/*
 * An arrow whose last end was not a finish: drawn when it is a start and
 * steps, all bound, its last step made the finish (the op simulator
 * writes s then t, as the format allows, and viewers that need an f end
 * draw nothing else); else dropped and counted.
 */
static void
end_open(struct chrome_out *c, struct fgroup *g)
{
	size_t i;

	if (g->n >= 2 && !g->bad && g->ends[0].ph == 's' &&
	    g->ends[g->n - 1].ph == 't') {
		g->ends[g->n - 1].ph = 'f';
		c->arrows++;
		for (i = 0; i < g->n; i++)
			put_end(c, &g->ends[i], c->arrows);
	} else if (g->n > 0)
		c->dropped++;
	free_group(g);
}

static void
settle(struct chrome_out *c, struct fend *e)
{
	struct fgroup *g;
	char *key;
	size_t i, n = strlen(e->dpid) + strlen(e->cat) + strlen(e->id) + 3;

	/* an arrow is within one rank: its ids are the rank's */
	key = xmalloc(n);
	snprintf(key, n, "%s\037%s\037%s", e->dpid, e->cat, e->id);
	g = devtab_get(&c->flows, key, n - 1, NULL);
	free(key);
	bind_end(c, e);
	if (e->ph == 's' && g->n > 0)
		end_open(c, g);		/* a start again: the last never ended */
	g->ends = xreallocarray(g->ends, g->n + 1, sizeof(*g->ends));
	g->ends[g->n++] = *e;
	if (e->bound == 0)
		g->bad = 1;
	if (e->ph != 'f')
		return;
	if (g->bad || g->ends[0].ph != 's')
		c->dropped++;
	else {
		c->arrows++;
		for (i = 0; i < g->n; i++)
			put_end(c, &g->ends[i], c->arrows);
	}
	free_group(g);
}

/* Bind the held ends that start before NOW: nothing drawn later covers them. */
static void
settle_held(struct chrome_out *c, int64_t now)
{
	size_t i, k = 0;

	for (i = 0; i < c->nheld; i++)
		if (c->held[i].ts < now)
			settle(c, &c->held[i]);
		else
			c->held[k++] = c->held[i];
	c->nheld = k;
}

static void
flow(struct chrome_out *c, const struct tsvr *in, const char *hpid,
    const char *dev, const char *track, int64_t ts)
{
	const char *ph = field(in, c->c_type), *id = field(in, c->c_corr);
	const char *cat = field(in, c->c_cat);
	struct fend *e;
	size_t n;

	if (strlen(ph) != 1 || strchr("stf", *ph) == NULL || *id == '\0' ||
	    c->device_only) {
		c->skipped++;
		return;
	}
	if (c->nheld == c->capheld) {
		c->capheld = c->capheld ? 2 * c->capheld : 64;
		c->held = xreallocarray(c->held, c->capheld,
		    sizeof(*c->held));
	}
	e = &c->held[c->nheld++];
	memset(e, 0, sizeof(*e));
	e->ph = *ph;
	e->ts = ts;
	e->id = xstrdup(id);
	e->name = xstrdup(tsvr_field(in, 5, &n));
	e->cat = xstrdup(*cat ? cat : "flow");
	if (is_id(hpid))
		snprintf(e->hpid, sizeof(e->hpid), "%s", hpid);
	snprintf(e->htid, sizeof(e->htid), "%s", is_id(track) ? track : "0");
	snprintf(e->dpid, sizeof(e->dpid), "%s", is_id(dev) ? dev : "0");
	snprintf(e->dtid, sizeof(e->dtid), "%s", is_id(track) ? track : "0");
}

/*
 * The device track of a kernel or comm record at *TID, named once: a
 * stream by its id; a kernel without one (Ascend's HCCL tasks) and the
 * HCCL process's tracks after every stream.  0 when the record is not
 * drawn: an op that another record already draws.
 */
static int
device_track(struct chrome_out *c, const char *kind, const char *cat,
    const char *name, const char *pid, const char *track, char *tid,
    size_t tidsize)
{
	char label[64];
	long long t = is_id(track) ? atoll(track) : -1;

	if (strcmp(kind, "comm") == 0 && strcmp(cat, "communication") == 0) {
		/* communication.json: the ops the device tasks show */
		if (c->device_src)
			return 0;
		t = COMMJSON_TID;
		snprintf(label, sizeof(label), "communication.json");
	} else if (strcmp(kind, "comm") == 0 && *field_pid(c) != '\0') {
		/* the HCCL process: its op is the kernel table's HCCL task */
		if (c->kernel_table && strncmp(name, "hcom_", 5) == 0)
			return 0;
		snprintf(label, sizeof(label), "HCCL track %.20s", track);
		t = HCCL_TID + (t >= 0 && t < 1000000 ? t : 999999);
	} else if (t < 0 || t >= NOSTREAM_TID) {
		t = NOSTREAM_TID;
		snprintf(label, sizeof(label), "tasks without a stream id");
	} else
		snprintf(label, sizeof(label), "stream %lld", t);
	snprintf(tid, tidsize, "%lld", t);
	name_once(c, pid, tid, label, t + 1);
	return 1;
}

void
chrome_record(const struct tsvr *in, void *arg)
{
	struct chrome_out *c = arg;
	size_t n;
	const char *kind = tsvr_field(in, 0, &n), *dev, *name, *track;
	const char *cat, *hp;
	char devpid[32], tid[32], pname[96];
	int64_t ts, dur;
	long long ll;
	int tabsent, dabsent, host = 0;

	if (!c->started)
		head(c, in);
	c->in = in;
	ts = tsvr_i64(in, 1, &tabsent);
	dur = tsvr_i64(in, 2, &dabsent);
	dev = tsvr_field(in, 3, &n);
	track = tsvr_field(in, 4, &n);
	name = tsvr_field(in, 5, &n);
	cat = field(in, c->c_cat);
	if (tabsent) {
		c->skipped++;
		return;
	}
	/* every record from here on starts after the held flow ends */
	if (ts > c->now) {
		settle_held(c, ts);
		c->now = ts;
	}
	snprintf(devpid, sizeof(devpid), "%s", is_id(dev) ? dev : "0");
	snprintf(tid, sizeof(tid), "%s", is_id(track) ? track : "0");
	snprintf(pname, sizeof(pname), "rank %.20s device", dev);
	hp = field(in, c->c_pid);
	/* the op simulator's pipes: a lane each, in dataflow order */
	ll = 0;
	if (!is_id(track) && (strcmp(kind, "pipe") == 0 ||
	    strcmp(kind, "flow") == 0) && (ll = pipe_lane(c, devpid,
	    *field(in, c->c_core) ? field(in, c->c_core) : field(in,
	    c->c_pid), track, *kind == 'p')) > 0)
		snprintf(tid, sizeof(tid), "%lld", ll);
	if (strcmp(kind, "flow") == 0) {
		/* a flow between pipes binds on their lanes */
		flow(c, in, hp, dev, ll > 0 ? tid : track, ts);
		return;
	}
	if ((strcmp(kind, "host") == 0 || strcmp(kind, "step") == 0 ||
	    strcmp(kind, "mark") == 0) && is_id(hp)) {
		/* two host processes of a rank (Python, CANN) told apart */
		snprintf(devpid, sizeof(devpid), "%s", hp);
		snprintf(pname, sizeof(pname), "rank %.20s host (pid %s)", dev,
		    hp);
		host = 1;
	}
	if (host && c->device_only) {
		c->skipped++;
		return;
	}
	if ((strcmp(kind, "kernel") == 0 || strcmp(kind, "comm") == 0) &&
	    !device_track(c, kind, cat, name, devpid, track, tid,
	    sizeof(tid))) {
		c->dup++;
		return;
	}
	name_once(c, devpid, NULL, pname, 0);
	if (host) {
		snprintf(pname, sizeof(pname), "thread %s", tid);
		name_once(c, devpid, tid, pname, 0);
	} else if (strcmp(kind, "pipe") == 0 || strcmp(kind, "mark") == 0 ||
	    strcmp(kind, "step") == 0 || strcmp(kind, "host") == 0) {
		snprintf(pname, sizeof(pname), "%s %.60s", kind, track);
		name_once(c, devpid, tid, pname, 0);
	}
	if (strcmp(kind, "kernel") == 0 || strcmp(kind, "comm") == 0 ||
	    strcmp(kind, "host") == 0 || strcmp(kind, "step") == 0 ||
	    strcmp(kind, "mark") == 0 || strcmp(kind, "pipe") == 0) {
		/* prof-ingest reads cat "kernel" as a device event. */
		span(c, in, name, strcmp(kind, "kernel") == 0 ? "kernel" :
		    *cat ? cat : kind, devpid, tid, ts, dur, dabsent, 1);
	} else if (strcmp(kind, "counter") == 0) {
		const char *v = field(in, c->c_value);
		if (dec_valid(v))
			counter(c, name, devpid, ts, v);
		else
			c->skipped++;
	} else if (strcmp(kind, "metric") == 0) {
		const char *v = field(in, c->c_value);
		if (*field(in, c->c_step) != '\0' && is_step_metric(name) &&
		    dec_valid(v))
			counter(c, name, devpid, ts, v);
		else
			c->skipped++;
	} else if (!dabsent) {
		char cat2[64];
		const char *lab = field(in, c->c_labels);
		snprintf(tid, sizeof(tid), "%lld", overlay_tid(c, devpid,
		    kind));
		snprintf(cat2, sizeof(cat2), "prof.%.50s", kind);
		span(c, in, strcmp(kind, "bubble") == 0 && *lab ? lab : name,
		    cat2, devpid, tid, ts, dur, 0, 1);
	} else
		c->skipped++;
}

void
chrome_close(struct chrome_out *c, const struct rmodel *m)
{
	struct fgroup *g;
	size_t i;

	if (!c->started)
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", c->f);
	settle_held(c, INT64_MAX);
	for (i = 0; i < c->flows.n; i++) {
		g = c->flows.v[i].item;
		end_open(c, g);		/* started, never finished */
	}
	fputs("\n],\n\"prof_render\":{\"records\":", c->f);
	fprintf(c->f, "%llu,\"summary_records_not_drawn\":%llu,"
	    "\"flow_arrows\":%llu,\"flow_arrows_dropped\":%llu,"
	    "\"flow_ends_moved_to_device\":%llu,"
	    "\"duplicate_ops_not_drawn\":%llu,\"profile\":",
	    (unsigned long long)m->nrecords, (unsigned long long)c->skipped,
	    (unsigned long long)c->arrows, (unsigned long long)c->dropped,
	    (unsigned long long)c->repointed, (unsigned long long)c->dup);
	put_json_str(c->f, m->name);
	fputs("}}\n", c->f);
	if (c->gz && fclose(c->f) != 0)
		diag_err(EXIT_BAD, "write error in the gzip output");
	for (i = 0; i < c->nkinds; i++)
		free(c->kinds[i]);
	for (i = 0; i < c->ncores; i++)
		free(c->cores[i]);
	for (i = 0; i < c->npipes; i++)
		free(c->pipes[i]);
	free(c->cores);
	free(c->pipes);
	for (i = 0; i < c->named.n; i++)
		free(((struct ctrack *)c->named.v[i].item)->open);
	devtab_free(&c->named);
	devtab_free(&c->flows);
	free(c->held);
	free(c->kinds);
	free(c);
}

/* The writer of -f chrome: the trace was written while reading. */
void
render_chrome(struct rctx *rc)
{
	chrome_close(rc->chrome, rc->m);
}
