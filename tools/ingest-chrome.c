/*
 * prof-ingest reader for Chrome trace JSON: PyTorch Kineto traces, Ascend
 * trace_view.json and msprof timelines, the Ascend op simulator's
 * trace.json, and any other file in the Trace Event Format.
 *
 * Events stream in one at a time from jsonev, so memory does not grow
 * with the file.  Each event becomes at most a few records; text columns
 * point into the event's own text unless a string holds escapes, which
 * are decoded into per-column buffers that are reused.  What the file is
 * (Kineto, trace_view, simulator) is only known once top-level keys and
 * process names have been seen, and those may come after the events, so
 * the format is set on the source at the end.
 *
 * The pairing of B and E events is in ingest-pair.c, the top-level keys
 * in ingest-toplevel.c; ingest-chrome.h holds the reader's state that
 * they share.
 */
#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dtime.h"
#include "ingest-chrome.h"
#include "json.h"
#include "jsonev.h"
#include "xalloc.h"

#define COL_STACK	(-2)		/* an args key noted, not kept */

/* What an event's category says about where it ran. */
enum evclass {
	EC_DEVICE,	/* GPU/NPU kernel, memcpy, memset */
	EC_DEVMARK,	/* device-side user annotation */
	EC_HOST,	/* any other category */
	EC_NOCAT	/* no category: decided by pid (Ascend, simulator) */
};

/* A string with its length, for tables compared against token text. */
struct lit {
	const char	*s;
	size_t		 n;
};
#define LIT(s)	{ s, sizeof(s) - 1 }

static const struct lit device_cats[] = {
	LIT("kernel"), LIT("Kernel"), LIT("gpu_memcpy"), LIT("gpu_memset"),
	LIT("Memcpy"), LIT("Memset"), LIT("mtia_ccp_events"), { NULL, 0 }
};

/*
 * Device-side ranges that are no kernels: user annotations on a stream,
 * and the CUPTI range profiler's per-kernel counter windows, whose times
 * are synthetic (back to back, all of one length).
 */
static const struct lit devmark_cats[] = {
	LIT("gpu_user_annotation"), LIT("cuda_profiler_range"), { NULL, 0 }
};

static const struct lit kineto_cats[] = {
	LIT("kernel"), LIT("Kernel"), LIT("cpu_op"), LIT("Operator"),
	LIT("cuda_runtime"), LIT("Runtime"), LIT("gpu_memcpy"),
	LIT("gpu_memset"), LIT("cuda_driver"), LIT("ac2g"), { NULL, 0 }
};

static const struct lit kineto_keys[] = {
	LIT("schemaVersion"), LIT("deviceProperties"), LIT("distributedInfo"),
	LIT("baseTimeNanoseconds"), LIT("traceName"),
	LIT("cuda_runtime_version"), LIT("hip_runtime_version"),
	LIT("cupti_version"), LIT("roctracer_version"), { NULL, 0 }
};

static const struct lit ascend_procs[] = {
	LIT("Ascend Hardware"), LIT("CANN"), LIT("HCCL"),
	LIT("Overlap Analysis"), LIT("AI Core Freq"), { NULL, 0 }
};

static const struct lit step_prefixes[] = {
	LIT("ProfilerStep#"), LIT("Iteration#"), LIT("Step#"), { NULL, 0 }
};

/* The args kept, by key, and the column each goes to. */
static const struct {
	struct lit	 key;
	int		 col;
} arg_map[] = {
	{ LIT("correlation"), IC_CORR }, { LIT("correlation_id"), IC_CORR },
	{ LIT("External id"), IC_EXT }, { LIT("Input Dims"), IC_IN_SHAPES },
	{ LIT("Input type"), IC_IN_DTYPES }, { LIT("flops"), IC_FLOPS },
	{ LIT("bytes"), IC_BYTES }, { LIT("size(Byte)"), IC_BYTES },
	{ LIT("Process Group Name"), IC_GROUP },
	{ LIT("Collective name"), IC_TYPE }, { LIT("Task Type"), IC_CORE },
	{ LIT("stream"), IC_TRACK }, { LIT("Call stack"), COL_STACK },
	{ LIT("Call Stack"), COL_STACK }, { { NULL, 0 }, 0 }
};

/* Whether the LEN bytes at S equal one of the strings of LIST. */
static int
in_list(const char *s, size_t len, const struct lit *list)
{
	for (; list->s != NULL; list++)
		if (list->n == len && memcmp(s, list->s, len) == 0)
			return 1;
	return 0;
}

/* Whether token I is a key or string whose raw text is S. */
static int
tok_is(const struct chrome *c, int i, const char *s, size_t n)
{
	return i >= 0 && (size_t)(c->tok[i].end - c->tok[i].start) == n &&
	    memcmp(c->js + c->tok[i].start, s, n) == 0;
}

#define TOK_IS(c, i, lit)	tok_is((c), (i), (lit), sizeof(lit) - 1)

/* Where the current event is, worked out the first time it is needed. */
void
event_pos(struct chrome *c)
{
	if (c->line == 0)
		jsonev_linecol(c->ev, c->e, &c->line, &c->col);
}

/*
 * "prog: WHERE:LINE:COL: MSG 'VALUE': WHY" about the current event, the
 * value being token T's text (left out when T is -1); returns -1.
 */
int
bad_event(struct chrome *c, const char *msg, int t, const char *why)
{
	int n = t >= 0 ? c->tok[t].end - c->tok[t].start : 0;

	event_pos(c);
	diag_atcol(c->where, c->line, c->col, "%s%s%.*s%s%s%s", msg,
	    t >= 0 ? " '" : "", n > 60 ? 60 : n,
	    t >= 0 ? c->js + c->tok[t].start : "", t >= 0 ? "'" : "",
	    why != NULL ? ": " : "", why != NULL ? why : "");
	c->failed = 1;
	return -1;
}

/* Index past token I's value; flat values are the common case. */
static int
next_tok(const struct chrome *c, int i)
{
	if (c->tok[i].type == JSMN_STRING || c->tok[i].type == JSMN_PRIMITIVE)
		return i + 1;
	return json_skip(c->tok, c->ntok, i);
}

/* Find the top-level fields of the current event in one walk. */
void
find_fields(const struct chrome *c, struct evf *f)
{
	int i, k, v;

	f->ph = f->name = f->cat = f->pid = f->tid = f->ts = f->dur = -1;
	f->id = f->args = -1;
	for (k = 0, i = 1; k < c->tok[0].size && i + 1 < c->ntok; k++) {
		v = i + 1;
		switch (c->tok[i].end - c->tok[i].start) {
		case 2:
			if (TOK_IS(c, i, "ph"))
				f->ph = v;
			else if (TOK_IS(c, i, "ts"))
				f->ts = v;
			else if (TOK_IS(c, i, "id"))
				f->id = v;
			break;
		case 3:
			if (TOK_IS(c, i, "cat"))
				f->cat = v;
			else if (TOK_IS(c, i, "pid"))
				f->pid = v;
			else if (TOK_IS(c, i, "tid"))
				f->tid = v;
			else if (TOK_IS(c, i, "dur"))
				f->dur = v;
			break;
		case 4:
			if (TOK_IS(c, i, "name"))
				f->name = v;
			else if (TOK_IS(c, i, "args"))
				f->args = v;
			break;
		}
		i = next_tok(c, v);
	}
}

/*
 * Set column COL of the record to token T's text: raw for numbers and
 * for strings without escapes, decoded into the column's buffer
 * otherwise.  Objects and arrays keep their JSON text.
 */
int
set_col(struct chrome *c, int col, int t)
{
	const jsmntok_t *k = &c->tok[t];
	const char *s = c->js + k->start;
	size_t n = (size_t)(k->end - k->start);
	long len;

	if (k->type == JSMN_STRING && memchr(s, '\\', n) != NULL) {
		len = json_str(c->js, c->tok, t, &c->sbuf[col], &c->scap[col]);
		if (len < 0)
			return bad_event(c, "bad escape in string", t, NULL);
		s = c->sbuf[col];
		n = (size_t)len;
	}
	c->rec.v[col] = s;
	c->rec.len[col] = n;
	return 0;
}

/* Token T as an integer (pid, device), or 0 when it is not one. */
static int
tok_int(const struct chrome *c, int t, int64_t *out)
{
	if (t < 0 || c->tok[t].type != JSMN_PRIMITIVE)
		return 0;
	return json_dec(c->js, c->tok, t, 0, out) == DTIME_OK;
}

/* Parse time token T (microseconds) into nanoseconds. */
static int
get_time(struct chrome *c, int t, const char *what, int64_t *out)
{
	int err;

	if (c->tok[t].type == JSMN_STRING)
		c->string_ts = 1;
	if ((err = json_dec(c->js, c->tok, t, 3, out)) != DTIME_OK) {
		char msg[32];

		snprintf(msg, sizeof(msg), "invalid '%s' value", what);
		return bad_event(c, msg, t, dtime_strerror(err));
	}
	return 0;
}

/* The event's ts, which every phase but M needs. */
int
get_ts(struct chrome *c, const struct evf *f, int64_t *ts)
{
	if (f->ts < 0)
		return bad_event(c, "event without 'ts'", -1, NULL);
	if (get_time(c, f->ts, "ts", ts) < 0)
		return -1;
	/* The lowest 64-bit value marks an absent time in prof-tsv(5). */
	if (*ts == INT64_MIN)
		return bad_event(c, "invalid 'ts' value", f->ts,
		    "value out of range");
	return 0;
}

/* Tell the sink once about shapes, stacks and flops in the source. */
static void
note(struct chrome *c, int *done, const char *what)
{
	if (!*done) {
		*done = 1;
		sink_note(c->sink, c->src, what);
	}
}

static enum evclass
classify(struct chrome *c, const struct evf *f)
{
	const char *s;
	size_t n;

	if (f->cat < 0)
		return EC_NOCAT;
	s = c->js + c->tok[f->cat].start;
	n = (size_t)(c->tok[f->cat].end - c->tok[f->cat].start);
	if (!c->kineto_cat && in_list(s, n, kineto_cats))
		c->kineto_cat = 1;
	if (n == 15 && memcmp(s, "python_function", 15) == 0)
		note(c, &c->noted_stacks, "stacks");
	if (in_list(s, n, device_cats))
		return EC_DEVICE;
	if (in_list(s, n, devmark_cats))
		return EC_DEVMARK;
	return EC_HOST;
}

/* Copy args value V into column COL, noting what the inventory wants. */
static int
arg_col(struct chrome *c, int col, int v)
{
	if (col == IC_IN_SHAPES)
		note(c, &c->noted_shapes, "shapes");
	else if (col == IC_FLOPS)
		note(c, &c->noted_flops, "flops");
	return set_col(c, col, v);
}

/* The record column an args key goes to, COL_STACK, or -1. */
static int
arg_column(const char *k, size_t n, int device)
{
	int i;

	for (i = 0; arg_map[i].key.s != NULL; i++)
		if (arg_map[i].key.n == n && k[0] == arg_map[i].key.s[0] &&
		    memcmp(arg_map[i].key.s, k, n) == 0)
			return arg_map[i].col == IC_TRACK && !device ? -1 :
			    arg_map[i].col;
	return -1;
}

/*
 * The frame column of a stack (args value T): its innermost user frame,
 * the part of the decoded text it is.
 */
static int
user_frame_of(struct chrome *c, int t)
{
	struct irec *r = &c->rec;

	if (c->tok[t].type != JSMN_STRING || set_col(c, IC_FRAME, t) < 0)
		return c->tok[t].type != JSMN_STRING ? 0 : -1;
	r->v[IC_FRAME] = ingest_user_frame(r->v[IC_FRAME], r->len[IC_FRAME],
	    &r->len[IC_FRAME]);
	return 0;
}

/* A python_function event that is a user frame is its own frame. */
static void
python_frame(struct chrome *c, const struct evf *f)
{
	struct irec *r = &c->rec;
	const char *p;
	size_t n;

	if (r->len[IC_FRAME] > 0 || f->cat < 0 || !TOK_IS(c, f->cat,
	    "python_function"))
		return;
	p = ingest_user_frame(r->v[IC_NAME], r->len[IC_NAME], &n);
	if (p == r->v[IC_NAME] && n == r->len[IC_NAME]) {
		r->v[IC_FRAME] = p;
		r->len[IC_FRAME] = n;
	}
}

/* Pick the args a record keeps (see prof-ingest(1) for the list). */
static int
read_args(struct chrome *c, int args, int device)
{
	int i, k, col;

	if (args < 0 || c->tok[args].type != JSMN_OBJECT)
		return 0;
	for (k = 0, i = args + 1; k < c->tok[args].size && i + 1 < c->ntok;
	    k++) {
		col = arg_column(c->js + c->tok[i].start,
		    (size_t)(c->tok[i].end - c->tok[i].start), device);
		if (col == COL_STACK) {
			note(c, &c->noted_stacks, "stacks");
			if (user_frame_of(c, i + 1) < 0)
				return -1;
		} else if (col >= 0 && arg_col(c, col, i + 1) < 0)
			return -1;
		i = next_tok(c, i + 1);
	}
	return 0;
}

/* A step marker name: ProfilerStep#N and the like; sets the step. */
static void
check_step(struct chrome *c)
{
	const char *s = c->rec.v[IC_NAME], *d;
	size_t n = c->rec.len[IC_NAME], k, i;
	int p;

	if (n < 6 || (s[0] != 'P' && s[0] != 'I' && s[0] != 'S'))
		return;
	for (p = 0; step_prefixes[p].s != NULL; p++) {
		k = step_prefixes[p].n;
		if (n <= k || memcmp(s, step_prefixes[p].s, k) != 0)
			continue;
		for (d = s + k, i = k; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i < n)
			return;
		c->rec.kind = IK_STEP;
		c->rec.v[IC_STEP] = d;
		c->rec.len[IC_STEP] = n - k;
		return;
	}
}

/* Start a record of KIND at TS with the columns every event has. */
static int
rec_start(struct chrome *c, const struct evf *f, int kind, int64_t ts)
{
	struct irec *r = &c->rec;

	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->ts = ts;
	r->dev = IREC_DEV_SRC;
	if ((f->name >= 0 && set_col(c, IC_NAME, f->name) < 0) ||
	    (f->cat >= 0 && set_col(c, IC_CAT, f->cat) < 0) ||
	    (f->pid >= 0 && set_col(c, IC_PID, f->pid) < 0) ||
	    (f->tid >= 0 && set_col(c, IC_TRACK, f->tid) < 0))
		return -1;
	return 0;
}

/*
 * An event without a category: in Ascend trace_view its process
 * (Ascend Hardware, HCCL, CANN) decides the kind at output; in the
 * simulator the pid is a core name and the tid a pipe.
 */
static int
nocat_kind(struct chrome *c, const struct evf *f, int instant)
{
	struct irec *r = &c->rec;

	if (tok_int(c, f->pid, &r->pid))
		return IK_DEFER;
	if (instant)
		return IK_MARK;
	c->sim_pid = 1;
	r->dev = 0;
	r->v[IC_CORE] = r->v[IC_PID];
	r->len[IC_CORE] = r->len[IC_PID];
	return IK_PIPE;
}

/* Build the record of a complete, instant or paired B/E event. */
int
build_span(struct chrome *c, const struct evf *f, int64_t ts, int64_t dur,
    int instant)
{
	struct irec *r = &c->rec;
	enum evclass cls = classify(c, f);
	int64_t dev, end;

	if (__builtin_add_overflow(ts, dur, &end))
		return bad_event(c, "'ts' + 'dur' overflows 64-bit nanoseconds",
		    -1, NULL);
	if (rec_start(c, f, IK_HOST, ts) < 0)
		return -1;
	r->dur = dur;
	r->has_dur = 1;
	switch (cls) {
	case EC_DEVICE:
	case EC_DEVMARK:
		/* Kineto's device events have the device index as pid. */
		r->kind = cls == EC_DEVICE ? IK_KERNEL : IK_MARK;
		if (tok_int(c, f->pid, &dev))
			r->dev = dev;
		break;
	case EC_HOST:
		break;
	case EC_NOCAT:
		r->kind = nocat_kind(c, f, instant);
		break;
	}
	if (cls != EC_DEVMARK &&
	    read_args(c, f->args, cls == EC_DEVICE) < 0)
		return -1;
	if (cls == EC_HOST)
		python_frame(c, f);
	check_step(c);
	return 0;
}

/* ph X: a complete event. */
static int
do_complete(struct chrome *c, const struct evf *f)
{
	int64_t ts, dur = 0;

	if (get_ts(c, f, &ts) < 0 ||
	    (f->dur >= 0 && get_time(c, f->dur, "dur", &dur) < 0))
		return -1;
	/* prof-tsv(5) has no negative durations: say so at the event. */
	if (dur < 0)
		return bad_event(c, "invalid 'dur' value", f->dur,
		    "negative duration");
	if (f->dur < 0) {
		sink_skip(c->sink, c->src, "complete event without 'dur'");
		return 0;
	}
	if (build_span(c, f, ts, dur, 0) < 0)
		return -1;
	sink_add(c->sink, c->src, &c->rec);
	return 0;
}

/* ph i, I, n: an instant, a record of duration 0. */
static int
do_instant(struct chrome *c, const struct evf *f)
{
	int64_t ts;

	if (get_ts(c, f, &ts) < 0 || build_span(c, f, ts, 0, 1) < 0)
		return -1;
	sink_add(c->sink, c->src, &c->rec);
	return 0;
}

/* ph s, f, t: a flow step, tied to its other ends by the id. */
static int
do_flow(struct chrome *c, const struct evf *f)
{
	struct irec *r = &c->rec;
	int64_t ts;

	if (get_ts(c, f, &ts) < 0 || rec_start(c, f, IK_FLOW, ts) < 0)
		return -1;
	r->v[IC_TYPE] = c->js + c->tok[f->ph].start;
	r->len[IC_TYPE] = 1;
	if (f->id >= 0 && set_col(c, IC_CORR, f->id) < 0)
		return -1;
	sink_add(c->sink, c->src, r);
	return 0;
}

/* Whether token T is a JSON number (not a bare word like 0x1f). */
static int
is_number(const struct chrome *c, int t)
{
	int64_t v;
	int e;

	if (c->tok[t].type != JSMN_PRIMITIVE)
		return 0;
	e = dtime_parse(c->js + c->tok[t].start,
	    (size_t)(c->tok[t].end - c->tok[t].start), 0, &v);
	return e == DTIME_OK || e == DTIME_RANGE;
}

/* Column NAME := BASE (N bytes), '.', and the decoded key K. */
static int
counter_name(struct chrome *c, const char *base, size_t n, int k)
{
	struct irec *r = &c->rec;
	long kl;

	if ((kl = json_str(c->js, c->tok, k, &c->kbuf, &c->kcap)) < 0)
		return bad_event(c, "bad escape in args key", k, NULL);
	if (c->ncap < n + (size_t)kl + 2) {
		c->ncap = n + (size_t)kl + 2;
		c->nbuf = xrealloc(c->nbuf, c->ncap);
	}
	if (n > 0)
		memmove(c->nbuf, base, n);
	c->nbuf[n] = '.';
	memcpy(c->nbuf + n + 1, c->kbuf, (size_t)kl);
	r->v[IC_NAME] = c->nbuf;
	r->len[IC_NAME] = n + 1 + (size_t)kl;
	return 0;
}

/*
 * ph C: one counter record per numeric args key, named after the event,
 * or "event.key" when there are several, with the number as written.
 */
static int
do_counter(struct chrome *c, const struct evf *f)
{
	struct irec *r = &c->rec;
	const char *base;
	size_t blen;
	int64_t ts;
	int i, k, nkeys;

	if (get_ts(c, f, &ts) < 0 || rec_start(c, f, IK_COUNTER, ts) < 0)
		return -1;
	if (f->args < 0 || c->tok[f->args].type != JSMN_OBJECT ||
	    (nkeys = c->tok[f->args].size) == 0) {
		sink_skip(c->sink, c->src, "counter event without values");
		return 0;
	}
	base = r->v[IC_NAME];
	blen = r->len[IC_NAME];
	for (k = 0, i = f->args + 1; k < nkeys && i + 1 < c->ntok; k++) {
		if (!is_number(c, i + 1))
			sink_skip(c->sink, c->src, "non-numeric counter value");
		else if (nkeys > 1 && counter_name(c, base, blen, i) < 0)
			return -1;
		else {
			r->v[IC_VALUE] = c->js + c->tok[i + 1].start;
			r->len[IC_VALUE] = (size_t)(c->tok[i + 1].end -
			    c->tok[i + 1].start);
			sink_add(c->sink, c->src, r);
		}
		i = next_tok(c, i + 1);
	}
	return 0;
}

/* ph M: only process names matter (Ascend kinds are decided by them). */
static int
do_meta(struct chrome *c, const struct evf *f)
{
	int64_t pid;
	long n;
	int v;

	if (!TOK_IS(c, f->name, "process_name") || f->args < 0 ||
	    !tok_int(c, f->pid, &pid))
		return 0;
	if ((v = json_get(c->js, c->tok, c->ntok, f->args, "name")) < 0)
		return 0;
	if ((n = json_str(c->js, c->tok, v, &c->kbuf, &c->kcap)) < 0)
		return bad_event(c, "bad escape in process name", v, NULL);
	if (in_list(c->kbuf, (size_t)n, ascend_procs))
		c->ascend_proc = 1;
	sink_set_process(c->sink, c->src, pid, c->kbuf);
	return 0;
}

/* Dispatch one event on its phase. */
static int
do_event(struct chrome *c, const struct jsonev_event *e)
{
	struct evf f;

	c->js = e->text;
	c->tok = e->tok;
	c->ntok = e->ntok;
	c->e = e;
	c->line = c->col = 0;
	find_fields(c, &f);
	if (f.ph < 0 || c->tok[f.ph].end - c->tok[f.ph].start != 1) {
		sink_skip(c->sink, c->src, f.ph < 0 ? "event without 'ph'" :
		    "unsupported event phase");
		return 0;
	}
	switch (c->js[c->tok[f.ph].start]) {
	case 'X':
		return do_complete(c, &f);
	case 'B':
		return do_begin(c, &f, e);
	case 'E':
		return do_end(c, &f, e);
	case 'i': case 'I': case 'n':
		return do_instant(c, &f);
	case 's': case 'f': case 't':
		return do_flow(c, &f);
	case 'C':
		return do_counter(c, &f);
	case 'M':
		return do_meta(c, &f);
	default:
		sink_skip(c->sink, c->src, "unsupported event phase");
		return 0;
	}
}

/* A top-level key other than traceEvents, before or after it. */
static void
on_top(void *arg, const char *key, size_t klen, const char *val,
    size_t vlen)
{
	struct chrome *c = arg;

	if (in_list(key, klen, kineto_keys))
		c->kineto_key = 1;
	if (klen == 13 && memcmp(key, "profilingType", 13) == 0)
		c->sim_key = 1;
	else if (klen == 19 && memcmp(key, "baseTimeNanoseconds", 19) == 0)
		top_base(c, val, vlen);
	else if (klen == 15 && memcmp(key, "distributedInfo", 15) == 0)
		top_rank(c, val, vlen);
	else if (klen == 16 && memcmp(key, "deviceProperties", 16) == 0)
		top_devices(c, val, vlen);
}

/*
 * What the file was: the simulator names cores as pids, Ascend writes ts
 * as strings and names its processes, Kineto has its own top-level keys
 * and categories.
 */
static const struct ingest_format *
decide_fmt(const struct chrome *c, const struct ingest_format *chrome)
{
	if (c->sim_key || c->sim_pid)
		return ingest_format_named("simulator");
	if (c->ascend_proc || c->string_ts)
		return ingest_format_named("trace_view");
	if (c->kineto_key || c->kineto_cat)
		return ingest_format_named("kineto");
	return chrome;
}

static void
chrome_free(struct chrome *c)
{
	int i;

	be_flush(c, 0);
	for (i = 0; i < IC_NCOLS; i++)
		free(c->sbuf[i]);
	free(c->kbuf);
	free(c->nbuf);
	free(c->btok);
	free(c->keybuf);
}

int
ingest_name_chrome(const char *base)
{
	return ingest_has_suffix(base, ".json");
}

/*
 * Any JSON document goes to this reader, which names what is wrong (no
 * traceEvents, truncation) far better than a guess from the first bytes
 * could.
 */
int
ingest_content_chrome(const char *head, size_t len)
{
	return ingest_looks_json(head, len);
}

/*
 * A stray JSON file in a profile directory is no error: one with no
 * trace events in its first bytes is listed, not read.  But a file
 * named as a trace (*trace.json) that is no JSON at all is damage, not
 * a stray file: the reader says what is wrong.
 */
const char *
ingest_stray_chrome(const char *name, const char *head, size_t len)
{
	const struct ingest_format *f;

	if (ingest_head_has(head, len, "\"ph\"") ||
	    ingest_head_has(head, len, "\"traceEvents\""))
		return NULL;
	f = ingest_format_by_content(head, len);
	if (f != NULL && (f->read == ingest_chrome ||
	    f->read == ingest_comm_json))
		return "JSON without trace events";
	if (!ingest_has_suffix(name, "trace.json"))
		return "not JSON";
	return NULL;
}

int
ingest_chrome(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	struct chrome c;
	struct jsonev *ev;
	struct jsonev_event e;
	int r = 0;

	memset(&c, 0, sizeof(c));
	c.where = where;
	c.sink = ctx->sink;
	c.src = sink_begin(c.sink, ctx->fmt, where, ctx->run, ctx->rank);
	ev = jsonev_open(in, where, 0);
	c.ev = ev;
	jsonev_ontop(ev, on_top, &c);
	while (!c.failed && (r = jsonev_next(ev, &e)) == 1)
		if (do_event(&c, &e) < 0) {
			if (!ingest_lenient)
				break;
			/*
			 * bad_event() marked the file failed; under
			 * --lenient only the event is.
			 */
			c.failed = 0;
			sink_skip(c.sink, c.src, "malformed event (--lenient)");
		}
	if (c.failed)
		r = -1;
	else if (r == 0)
		be_flush(&c, 1);	/* count what never paired */
	sink_set_fmt(c.sink, c.src, decide_fmt(&c, ctx->fmt));
	sink_end(c.sink, c.src);
	jsonev_close(ev);
	chrome_free(&c);
	return r < 0 ? -1 : 0;
}
