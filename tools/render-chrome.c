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
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "num.h"
#include "render.h"
#include "tsv.h"
#include "xalloc.h"

#define OVERLAY_TID	1000000000LL

struct chrome_out {
	FILE		*f;
	int		 started, nevents;
	char	       **kinds;		/* overlay kinds, by track index */
	size_t		 nkinds;
	/*
	 * "pid/" or "pid/tid" already named, by hash: every record asks,
	 * and a job of 100,000 ranks has as many pids.
	 */
	struct devtab	 named;
	int		 c_step, c_type, c_corr, c_cat, c_pid, c_labels;
	int		 c_value, c_core;
	uint64_t	 skipped;
	/* op-simulator lanes: the cores and the pipes past dataflow[] */
	char	       **cores, **pipes;
	size_t		 ncores, npipes;
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

struct chrome_out *
chrome_open(FILE *f)
{
	static const char *const fixed[] = { "window", "busy", "bubble" };
	struct chrome_out *c = xcalloc(1, sizeof(*c));
	size_t i;

	c->f = f;
	devtab_init(&c->named, 1);
	/* Events are small and many: write in large blocks. */
	setvbuf(f, NULL, _IOFBF, 1 << 20);
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

/* A process_name / thread_name metadata event, once per pid or tid. */
static void
name_once(struct chrome_out *c, const char *pid, const char *tid,
    const char *name, long long sort)
{
	char buf[128], *key = buf;
	size_t n = strlen(pid) + (tid ? strlen(tid) : 0) + 2;
	int isnew;

	if (n > sizeof(buf))
		key = xmalloc(n);
	snprintf(key, n, "%s/%s", pid, tid ? tid : "");
	(void)devtab_get(&c->named, key, n - 1, &isnew);
	if (key != buf)
		free(key);
	if (!isnew)
		return;
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

static void
span(struct chrome_out *c, const struct tsvr *in, const char *name,
    const char *cat, const char *pid, const char *tid, int64_t ts,
    int64_t dur, int absent)
{
	begin(c);
	fputs("{\"ph\":", c->f);
	fputs(absent ? "\"i\",\"s\":\"t\"" : "\"X\"", c->f);
	fputs(",\"name\":", c->f);
	put_json_str(c->f, name);
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

static void
flow(struct chrome_out *c, const struct tsvr *in, const char *pid,
    const char *tid, int64_t ts)
{
	const char *ph = field(in, c->c_type), *id = field(in, c->c_corr);
	size_t n;

	if (strlen(ph) != 1 || strchr("stf", *ph) == NULL || *id == '\0') {
		c->skipped++;
		return;
	}
	begin(c);
	fprintf(c->f, "{\"ph\":\"%s\",%s\"id\":", ph,
	    *ph == 's' ? "" : "\"bp\":\"e\",");
	put_json_str(c->f, id);
	fputs(",\"name\":", c->f);
	put_json_str(c->f, tsvr_field(in, 5, &n));
	fputs(",\"cat\":", c->f);
	put_json_str(c->f, *field(in, c->c_cat) ? field(in, c->c_cat) :
	    "flow");
	fprintf(c->f, ",\"pid\":%s,\"tid\":%s,\"ts\":", pid, tid);
	put_time(c->f, ts);
	fputs("}", c->f);
}

void
chrome_record(const struct tsvr *in, void *arg)
{
	struct chrome_out *c = arg;
	size_t n;
	const char *kind = tsvr_field(in, 0, &n), *dev, *name, *track;
	const char *cat, *hp;
	char devpid[32], tid[32], pname[64];
	int64_t ts, dur;
	long long ll;
	int tabsent, dabsent;

	if (!c->started)
		head(c, in);
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
	snprintf(devpid, sizeof(devpid), "%s", is_id(dev) ? dev : "0");
	snprintf(tid, sizeof(tid), "%s", is_id(track) ? track : "0");
	snprintf(pname, sizeof(pname), "rank %.20s device", dev);
	if (strcmp(kind, "host") == 0 || strcmp(kind, "step") == 0 ||
	    strcmp(kind, "mark") == 0 || strcmp(kind, "flow") == 0) {
		hp = field(in, c->c_pid);
		if (is_id(hp)) {
			snprintf(devpid, sizeof(devpid), "%s", hp);
			snprintf(pname, sizeof(pname), "rank %.20s host", dev);
		}
	}
	if (!is_id(track) && (strcmp(kind, "pipe") == 0 ||
	    strcmp(kind, "flow") == 0) && (ll = pipe_lane(c, devpid,
	    *field(in, c->c_core) ? field(in, c->c_core) : field(in,
	    c->c_pid), track, *kind == 'p')) > 0)
		snprintf(tid, sizeof(tid), "%lld", ll);
	if (strcmp(kind, "flow") == 0) {
		flow(c, in, devpid, tid, ts);
		return;
	}
	name_once(c, devpid, NULL, pname, 0);
	if (strcmp(kind, "kernel") == 0 || strcmp(kind, "comm") == 0 ||
	    strcmp(kind, "host") == 0 || strcmp(kind, "step") == 0 ||
	    strcmp(kind, "mark") == 0 || strcmp(kind, "pipe") == 0) {
		/* prof-ingest reads cat "kernel" as a device event. */
		span(c, in, name, strcmp(kind, "kernel") == 0 ? "kernel" :
		    *cat ? cat : kind, devpid, tid, ts, dur, dabsent);
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
		    cat2, devpid, tid, ts, dur, 0);
	} else
		c->skipped++;
}

void
chrome_close(struct chrome_out *c, const struct rmodel *m)
{
	size_t i;

	if (!c->started)
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", c->f);
	fputs("\n],\n\"prof_render\":{\"records\":", c->f);
	fprintf(c->f, "%llu,\"summary_records_not_drawn\":%llu,"
	    "\"profile\":", (unsigned long long)m->nrecords,
	    (unsigned long long)c->skipped);
	put_json_str(c->f, m->name);
	fputs("}}\n", c->f);
	for (i = 0; i < c->nkinds; i++)
		free(c->kinds[i]);
	for (i = 0; i < c->ncores; i++)
		free(c->cores[i]);
	for (i = 0; i < c->npipes; i++)
		free(c->pipes[i]);
	free(c->cores);
	free(c->pipes);
	devtab_free(&c->named);
	free(c->kinds);
	free(c);
}

/* The writer of -f chrome: the trace was written while reading. */
void
render_chrome(struct rctx *rc)
{
	chrome_close(rc->chrome, rc->m);
}
