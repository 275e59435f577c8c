/*
 * prof-ingest's reader of XPlane protobufs (*.xplane.pb, written by
 * jax.profiler, TensorBoard's profiler and xprof): one XSpace message of
 * planes (a device, the host, the time base), each plane of lines
 * (timelines), each line of events that name their op by an id into the
 * plane's event metadata.
 *
 * Every XLA-written file serializes a plane's lines before its event and
 * stat metadata, and the time base (the Task Environment plane) last, so
 * no event can be named as it is met.  The file is mapped and read in
 * passes: the planes' places and the time base first, then per plane its
 * metadata into tables and then its lines, event by event.  Memory is
 * one plane's tables (bounded by its distinct ops), and the pages behind
 * the reader are given back, so it does not grow with the file.  A pipe
 * or an archive member is first copied to a temporary file.
 *
 * The wire format is decoded by libcommon/pbuf.c, not protobuf-c: an
 * XEvent is five scalar fields, a hand walk needs no allocation per
 * event, and nothing has to be generated at build time.
 *
 * Times are picoseconds.  A time in ns is the floor of its picoseconds
 * over 1000, start and end each (so that nesting is kept), dur = end -
 * start, and the sub-ns parts go to ext as "ps=S:E" (see prof-tsv(5)).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "hash.h"
#include "ingest.h"
#include "ingest-xplane.h"
#include "tsv.h"
#include "xalloc.h"

/* What the planes are. */
enum pcls { XP_SKIP, XP_TPU, XP_GPU, XP_HOST, XP_ENV };
/* What a line's events become. */
enum lcls { LC_OPS, LC_STREAM, LC_ASYNC, LC_MODULES, LC_STEPS, LC_MARK,
	LC_HOST, LC_SKIP };

#define RELEASE_STEP	(8 << 20)	/* pages given back at a time */
#define STREAM_RELEASE	(8 << 20)	/* by all the streams at once */
#define NSCRATCH	12
/* The most ops of all planes together, and lines, that the direct
 * output holds. */
#define DIRECT_OPS	32768
#define DIRECT_STREAMS	1024
/* Room after an op's ext for an event's ";ps=S:E" (S, E < 1000). */
#define EXT_SPARE	32

struct xr {
	const char	*where;
	struct sink	*sink;
	int		 src;
	const unsigned char *map;
	size_t		 size, released;
	struct xplane_tabs *t;		/* the plane's: t0, or a stream's */
	struct xplane_tabs t0;
	int64_t		 start_ns;	/* Task Environment's profile start */
	/* the plane being read */
	enum pcls	 pcls;
	int64_t		 dev;
	const char	*pname;
	size_t		 pnamel;
	const char	*core;		/* "SparseCore N" */
	size_t		 corel;
	/* the line being read */
	enum lcls	 lcls;
	int64_t		 lid, lts;
	const char	*lname;
	size_t		 lnamel, lthread;
	char		 track[32];
	size_t		 trackl;
	/* the numbers of the file's device planes */
	int64_t		*devs;
	size_t		 ndevs;
	/* source stacks written as metric records */
	uint64_t	*stk;
	size_t		 stkcap, stkn;
	struct xext	 ext, mext;	/* a record's, a metric's */
	struct xop	*ext_op;	/* the record's ext is this op's */
	char		*sbuf[NSCRATCH];
	size_t		 scap[NSCRATCH];
	int		 noted_flops, noted_shapes, noted_stacks;
	/* Read twice (see ingest.h, struct sink_replay): */
	int		 mode;		/* XM_ONCE, XM_FACTS, XM_AGAIN */
	int64_t		 last_ts;	/* the line's last start, first pass */
	uint64_t	 lno;		/* the lines met, to key facts_known() */
	int		 unordered;	/* a line out of order */
	size_t		 good;		/* the bytes of whole planes */
	size_t		 nops;		/* the file's ops, all planes' */
	struct xstream	*st;		/* the second pass's streams */
	size_t		 nst, st_release;	/* pages each gives back at once */
	size_t		 cur_stream;	/* the one being read */
	struct xplane_tabs **tabs;	/* the planes' tables, for them */
	char		**pnames;
	size_t		 ntabs;
};

enum { XM_ONCE, XM_FACTS, XM_AGAIN };

/*
 * A line read again in the direct output: where its events are, and
 * what read_event() takes from its plane and line (copied into struct
 * xr before its events are read).
 */
struct xstream {
	struct pbuf	 l;
	struct xplane_tabs *t;
	enum pcls	 pcls;
	int64_t		 dev;
	const char	*core;
	size_t		 corel;
	enum lcls	 lcls;
	int64_t		 lid, lts;
	const char	*lname;
	size_t		 lnamel, lthread;
	char		*lname_own;
	char		 track[32];
	size_t		 trackl;
	size_t		 released;	/* its pages given back up to */
};

/* ---- diagnostics ---- */

static int
wire_error(struct xr *x, const struct pbuf *b, const char *what)
{
	diag_at(x->where, 0, "byte %" PRIu64 ": %s in %s",
	    pbuf_off(b, b->errat), pbuf_strerror(b->err), what);
	return -1;
}

/* The tables' error, or a field of the wrong wire type. */
static int
tab_error(struct xr *x)
{
	const struct pbuf *b = &x->t->err_buf;

	if (b->err != PBE_OK)
		return wire_error(x, b, x->t->err_what);
	diag_at(x->where, 0, "byte %" PRIu64 ": a field of %s has the wrong "
	    "wire type", pbuf_off(b, b->errat), x->t->err_what);
	return -1;
}

static int
wrong_type(struct xr *x, const struct pbuf *b, const struct pbuf_field *f,
    const char *what, int want)
{
	diag_at(x->where, 0, "byte %" PRIu64 ": field %" PRIu64 " of %s is "
	    "%s, expected %s", pbuf_off(b, f->at), f->num, what,
	    pbuf_wtname(f->wt), pbuf_wtname(want));
	return -1;
}

/*
 * Give back the mapped pages from *REL to P, read once and not needed
 * again, when STEP bytes or more are.  Called per event: the common case
 * costs one comparison.
 */
static inline void
give_back(const struct xr *x, size_t *rel, const unsigned char *p,
    size_t step)
{
	size_t at = (size_t)(p - x->map), pg;

	if (at < *rel + step)
		return;
	pg = (size_t)sysconf(_SC_PAGESIZE);
	at -= at % pg;
	(void)madvise((void *)(uintptr_t)(x->map + *rel), at - *rel,
	    MADV_DONTNEED);
	*rel = at;
}

/* The pages before P, in a pass that reads the file in its order. */
static void
release(struct xr *x, const unsigned char *p)
{
	if (x->st == NULL)
		give_back(x, &x->released, p, RELEASE_STEP);
}

/* ---- values ---- */

static const char *
clean(struct xr *x, int slot, const char *s, size_t *n)
{
	return xclean(s, n, &x->sbuf[slot], &x->scap[slot]);
}

/* An integer stat as int64 (a whole double too); 0 if it is none. */
static int
val_int(const struct xvals *v, int code, int64_t *out)
{
	const struct xval *e = &v->v[code];

	if (!(v->mask & 1U << code))
		return 0;
	switch (e->k) {
	case XV_INT:
		*out = e->x.i;
		return 1;
	case XV_UINT:
		if (e->x.u > INT64_MAX)
			return 0;
		*out = (int64_t)e->x.u;
		return 1;
	case XV_DBL:
		if (!(e->x.d >= 0 && e->x.d < 9.2e18) ||
		    e->x.d != (double)(int64_t)e->x.d)
			return 0;
		*out = (int64_t)e->x.d;
		return 1;
	default:
		return 0;
	}
}

static int
val_str(const struct xvals *v, int code, const char **s, size_t *n)
{
	if (!(v->mask & 1U << code) || v->v[code].k != XV_STR ||
	    v->v[code].n == 0)
		return 0;
	*s = v->v[code].s;
	*n = v->v[code].n;
	return 1;
}

static void
set_col(struct irec *r, int col, const char *s, size_t n)
{
	r->v[col] = s;
	r->len[col] = n;
}

static void
set_int(struct irec *r, int col, char *buf, int64_t v)
{
	set_col(r, col, buf, tsv_i64(buf, v));
}

static int
has_word(const char *s, size_t n, const char *w)
{
	return n == strlen(w) && memcmp(s, w, n) == 0;
}

/* Collectives: all-reduce, all-gather, reduce-scatter, ... (and -start). */
static int
is_collective(const char *s, size_t n)
{
	static const char *const w[] = {
		"all-reduce", "all-gather", "reduce-scatter", "all-to-all",
		"collective-permute", "collective-broadcast", "send", "recv",
		"ragged-all-to-all", NULL
	};
	size_t i, k;

	/* Asked per execution: most types start with no word's letter. */
	if (n == 0 || s[0] == '\0' || strchr("acrs", s[0]) == NULL)
		return 0;
	for (i = 0; w[i] != NULL; i++)
		if (w[i][0] == s[0] && n >= (k = strlen(w[i])) &&
		    memcmp(s, w[i], k) == 0)
			return 1;
	return 0;
}

/* ---- records ---- */

/* A source stack is written once per file, as a metric record. */
static void
note_stack(struct xr *x, uint64_t h, const char *s, size_t n)
{
	struct irec r;
	char hex[17], nb[24];
	size_t j, frames = 1, i;

	if (2 * (x->stkn + 1) > x->stkcap) {
		uint64_t *o = x->stk;
		size_t oc = x->stkcap;

		x->stkcap = oc ? 2 * oc : 256;
		x->stk = xcalloc(x->stkcap, sizeof(*x->stk));
		for (i = 0; i < oc; i++)
			if (o[i] != 0) {
				for (j = o[i] & (x->stkcap - 1); x->stk[j] != 0;
				    j = (j + 1) & (x->stkcap - 1))
					;
				x->stk[j] = o[i];
			}
		free(o);
	}
	if (h == 0)
		h = 1;
	for (j = h & (x->stkcap - 1); x->stk[j] != 0;
	    j = (j + 1) & (x->stkcap - 1))
		if (x->stk[j] == h)
			return;
	x->stk[j] = h;
	x->stkn++;
	if (x->mode == XM_AGAIN)
		return;		/* written the first time */
	for (i = 0; i < n; i++)
		frames += s[i] == '\n';
	memset(&r, 0, sizeof(r));
	r.kind = IK_METRIC;
	r.ts = IREC_NO_TS;
	r.dev = IREC_DEV_SRC;
	set_col(&r, IC_NAME, "source_stack", 12);
	snprintf(hex, sizeof(hex), "%016" PRIx64, h);
	set_col(&r, IC_TRACK, hex, 16);
	set_col(&r, IC_CAT, "xplane", 6);
	set_int(&r, IC_VALUE, nb, (int64_t)frames);
	x->mext.n = 0;
	s = clean(x, 0, s, &n);
	xext_add(&x->mext, "stack", s, n);
	set_col(&r, IC_EXT, x->mext.b, x->mext.n);
	sink_add(x->sink, x->src, &r);
	if (!x->noted_stacks) {
		sink_note(x->sink, x->src, "stacks");
		x->noted_stacks = 1;
	}
}

/* The op's name: its display name (the HLO op) when it has one. */
static const char *
op_name(struct xr *x, const struct xop *op, size_t *n)
{
	if (op == NULL) {
		*n = 9;
		return "(unknown)";
	}
	(void)x;
	*n = op->cnamel;
	return op->cname;
}

/* The ext keys every device op carries (see prof-tsv(5)). */
static void
op_ext(struct xr *x, const struct xop *op, const struct xvals *v)
{
	const char *s;
	size_t n;
	int64_t i;
	char hex[17];

	if (val_str(v, XS_HLO_OP, &s, &n)) {
		s = clean(x, 2, s, &n);
		xext_add(&x->ext, "hlo", s, n);
	}
	if (val_str(v, XS_HLO_MODULE, &s, &n) ||
	    (v->mask & 1U << XS_PROGRAM_ID && (s = xtab_module(x->t,
	    v->v[XS_PROGRAM_ID].k == XV_UINT ? v->v[XS_PROGRAM_ID].x.u :
	    (uint64_t)v->v[XS_PROGRAM_ID].x.i, &n)) != NULL)) {
		s = clean(x, 2, s, &n);
		xext_add(&x->ext, "module", s, n);
	}
	if (val_str(v, XS_STACK, &s, &n)) {
		uint64_t h = hash_bytes(s, n, 0);

		note_stack(x, h, s, n);
		snprintf(hex, sizeof(hex), "%016" PRIx64, h == 0 ? 1 : h);
		xext_add(&x->ext, "stack", hex, 16);
	}
	if (val_str(v, XS_NAME, &s, &n) || (val_str(v, XS_TF_OP, &s, &n) &&
	    !has_word(s, n, "XlaModule:"))) {
		s = clean(x, 2, s, &n);
		xext_add(&x->ext, "scope", s, n);
	}
	if (val_int(v, XS_MODEL_FLOPS, &i))
		xext_addi(&x->ext, "model_flops", i);
	/* Layouts only where they change: what the audit of copies needs. */
	if (op != NULL && op->changes != NULL) {
		xext_add(&x->ext, "changes", op->changes, strlen(op->changes));
		if (op->in_layout != NULL)
			xext_add(&x->ext, "in_layout", op->in_layout,
			    strlen(op->in_layout));
		if (op->layout != NULL)
			xext_add(&x->ext, "layout", op->layout,
			    strlen(op->layout));
	}
}

/* The stats op_ext() reads: an event with none of its own shares them. */
#define EXT_STATS	(1U << XS_HLO_OP | 1U << XS_HLO_MODULE |	\
	1U << XS_PROGRAM_ID | 1U << XS_SOURCE | 1U << XS_STACK |	\
	1U << XS_NAME | 1U << XS_TF_OP | 1U << XS_MODEL_FLOPS)

/*
 * The ext keys of an event: those of its op, made once per op, when the
 * event has no stats of its own among them (every TPU op execution).
 */
static void
event_ext(struct xr *x, struct xop *op, const struct xvals *v,
    uint32_t own)
{
	if (op == NULL || (own & EXT_STATS) != 0) {
		op_ext(x, op, v);
		return;
	}
	if (!op->has_ext) {
		op_ext(x, op, &op->base);
		op->ext = xmalloc(x->ext.n + EXT_SPARE);
		if (x->ext.n > 0)
			memcpy(op->ext, x->ext.b, x->ext.n);
		op->extl = x->ext.n;
		op->has_ext = 1;
		return;
	}
	/* The record's ext is the op's, with its ps after it: not copied. */
	if (x->ext.n == 0) {
		x->ext_op = op;
		return;
	}
	if (op->extl > 0)
		xext_raw(&x->ext, op->ext, op->extl);
}

/*
 * The record's ext: the op's own (event_ext()), its picosecond parts
 * written after it in the room left there, or x->ext with them added.
 */
static void
event_ext_ps(struct xr *x, struct irec *r, int rs, int re)
{
	struct xop *op = x->ext_op;
	char ps[48];
	size_t n;

	if (op == NULL) {
		if (rs != 0 || re != 0) {
			n = tsv_i64(ps, rs);
			ps[n++] = ':';
			n += tsv_i64(ps + n, re);
			xext_add(&x->ext, "ps", ps, n);
		}
		set_col(r, IC_EXT, x->ext.b, x->ext.n);
		return;
	}
	n = op->extl;
	if (rs != 0 || re != 0) {
		if (n > 0)
			op->ext[n++] = ';';
		memcpy(op->ext + n, "ps=", 3);
		n += 3;
		n += tsv_i64(op->ext + n, rs);
		op->ext[n++] = ':';
		n += tsv_i64(op->ext + n, re);
	}
	set_col(r, IC_EXT, op->ext, n);
}

/*
 * The text S (*N bytes) of stat CODE made fit for a stream: once per op
 * when it is the op's own metadata stat (every execution of a TPU op),
 * in scratch SLOT otherwise.
 */
static const char *
op_text(struct xr *x, struct xop *op, int code, int slot, const char *s,
    size_t *n)
{
	const char **c;
	char **own, *buf = NULL;
	size_t *cl, cap = 0, m = *n;

	if (op == NULL || !(op->base.mask & 1U << code) ||
	    op->base.v[code].s != s || op->base.v[code].n != *n)
		return clean(x, slot, s, n);
	c = code == XS_CATEGORY ? &op->ccat : &op->csrc;
	cl = code == XS_CATEGORY ? &op->ccatl : &op->csrcl;
	own = code == XS_CATEGORY ? &op->ccat_own : &op->csrc_own;
	if (*c == NULL) {
		*c = xclean(s, &m, &buf, &cap);
		*cl = m;
		if (*c == buf)
			*own = buf;
		else
			free(buf);
	}
	*n = *cl;
	return *c;
}

/* Columns of a device op: type, core, flops, bytes, shapes. */
static void
op_cols(struct xr *x, struct irec *r, struct xop *op,
    const struct xvals *v, char *fb, char *bb)
{
	const char *s;
	size_t n;
	int64_t i;

	if (val_str(v, XS_CATEGORY, &s, &n))
		set_col(r, IC_TYPE, op_text(x, op, XS_CATEGORY, 3, s, &n), n);
	else if (op != NULL && op->opcode != NULL)
		set_col(r, IC_TYPE, op->opcode, op->opcodel);
	else if (val_str(v, XS_HLO_OP, &s, &n)) {
		/* "copy.1" is a copy */
		size_t d = n;

		while (d > 0 && ((s[d - 1] >= '0' && s[d - 1] <= '9')))
			d--;
		if (d > 0 && d < n && s[d - 1] == '.')
			n = d - 1;
		set_col(r, IC_TYPE, clean(x, 3, s, &n), n);
	}
	if (r->len[IC_TYPE] > 0 && is_collective(r->v[IC_TYPE],
	    r->len[IC_TYPE]))
		set_col(r, IC_CORE, "COMMUNICATION", 13);
	else if (x->core != NULL)
		set_col(r, IC_CORE, x->core, x->corel);
	/* The op's Python source line: the frame column's one meaning. */
	if (val_str(v, XS_SOURCE, &s, &n))
		set_col(r, IC_FRAME, op_text(x, op, XS_SOURCE, 8, s, &n), n);
	/* A loop or an async span holds ops whose work is theirs. */
	if (r->kind != IK_KERNEL)
		return;
	if (val_int(v, XS_FLOPS, &i) && i >= 0) {
		set_int(r, IC_FLOPS, fb, i);
		if (!x->noted_flops) {
			sink_note(x->sink, x->src, "flops");
			x->noted_flops = 1;
		}
	}
	if (val_int(v, XS_BYTES, &i) && i >= 0)
		set_int(r, IC_BYTES, bb, i);
	if (op == NULL)
		return;
	if (op->in_shapes != NULL) {
		set_col(r, IC_IN_SHAPES, op->in_shapes, op->in_shapesl);
		if (!x->noted_shapes) {
			sink_note(x->sink, x->src, "shapes");
			x->noted_shapes = 1;
		}
	}
	if (op->in_dtypes != NULL)
		set_col(r, IC_IN_DTYPES, op->in_dtypes, op->in_dtypesl);
	if (op->out_shapes != NULL)
		set_col(r, IC_OUT_SHAPES, op->out_shapes, op->out_shapesl);
	if (op->out_dtypes != NULL)
		set_col(r, IC_OUT_DTYPES, op->out_dtypes, op->out_dtypesl);
}

/* What kind of record an event of the current line is, and its cat. */
static int
event_kind(struct xr *x, const struct xop *op, const struct xvals *v,
    const char **cat)
{
	const char *s = "";
	size_t n = 0;

	switch (x->lcls) {
	case LC_OPS:
		*cat = "xla_op";
		/* A loop or branch holds ops: never compute time itself. */
		if (op != NULL && op->container != NULL) {
			*cat = op->container;
			return IK_MARK;
		}
		if (val_str(v, XS_CATEGORY, &s, &n) && has_word(s, n, "while")) {
			*cat = "xla_while";
			return IK_MARK;
		}
		return IK_KERNEL;
	case LC_STREAM:
		if (op != NULL)
			s = op->name, n = op->namel;
		*cat = (v->mask & 1U << XS_MEMCPY) || ingest_head_has(s, n, "emcpy") ||
		    ingest_head_has(s, n, "MEMCPY") ? "gpu_memcpy" :
		    ingest_head_has(s, n, "emset") ? "gpu_memset" : "kernel";
		return IK_KERNEL;
	case LC_ASYNC:
		*cat = "xla_async";
		return IK_MARK;
	case LC_MODULES:
		*cat = "xla_module";
		return IK_MARK;
	case LC_STEPS:
		*cat = "xla_steps";
		return IK_STEP;
	case LC_HOST:
		*cat = NULL;
		return v->mask & 1U << XS_STEP_NUM ? IK_STEP : IK_HOST;
	default:
		*cat = has_word(x->lname, x->lnamel, "XLA TraceMe") ?
		    "xla_traceme" : "xla_line";
		return IK_MARK;
	}
}

/* A step's number: step_num, group_id, or the name's last digits. */
static int
step_number(const struct xvals *v, const char *name, size_t n, int64_t *num)
{
	size_t d = n;

	if (val_int(v, XS_STEP_NUM, num) || val_int(v, XS_GROUP_ID, num))
		return 1;
	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d == n || n - d > 18)
		return 0;
	*num = strtoll(name + d, NULL, 10);
	return 1;
}

/*
 * Times: T = line ns * 1000 + offset ps; ns = floor(ps / 1000), start
 * and end each.  Returns -1 when they do not fit 64-bit ns.
 */
static int
event_times(struct xr *x, int64_t off, int64_t dur, struct irec *r,
    int *rs, int *re)
{
	__int128 s, e, sn, en;
	int64_t s64, e64;

	/* The common case in 64 bits: __int128 division is slow. */
	if (!__builtin_mul_overflow(x->lts, 1000, &s64) &&
	    !__builtin_add_overflow(s64, off, &s64) &&
	    !__builtin_add_overflow(s64, dur, &e64) && s64 >= 0 && dur >= 0) {
		r->ts = s64 / 1000;
		r->dur = e64 / 1000 - r->ts;
		r->has_dur = 1;
		*rs = (int)(s64 % 1000);
		*re = (int)(e64 % 1000);
		return 0;
	}
	s = (__int128)x->lts * 1000 + off;
	e = s + dur;
	sn = s >= 0 ? s / 1000 : -((-s + 999) / 1000);
	en = e >= 0 ? e / 1000 : -((-e + 999) / 1000);
	if (sn < -INT64_MAX || sn > INT64_MAX || en < -INT64_MAX ||
	    en > INT64_MAX || dur < 0)
		return -1;
	r->ts = (int64_t)sn;
	r->dur = (int64_t)(en - sn);
	r->has_dur = 1;
	*rs = (int)(s - sn * 1000);
	*re = (int)(e - en * 1000);
	return 0;
}

/*
 * The device a host event is about: a TPU runtime call that enqueues a
 * program to a device, or completes its callbacks, says which by its
 * device_ordinal, when that is the number of a device plane of the file
 * (a transfer's ordinal counts otherwise, and a GPU runtime call's
 * device_id is a handle, not the plane's number: those stay on the
 * source's device).  IREC_DEV_SRC when none.
 */
static int64_t
host_dev(const struct xr *x, const struct xvals *v)
{
	int64_t n;
	size_t i;

	if (!val_int(v, XS_DEVICE_ORDINAL, &n))
		return IREC_DEV_SRC;
	for (i = 0; i < x->ndevs; i++)
		if (x->devs[i] == n)
			return n;
	return IREC_DEV_SRC;
}

/*
 * The first pass of a file read twice: of a timed record, only what the
 * sink must know before the stream starts (its time, its device) and the
 * evidence its columns would show (flops, shapes, source stacks, as
 * op_cols() and event_ext() note them); whether its line is in order.
 */
static int
event_facts(struct xr *x, struct xop *op, const struct xvals *v,
    uint32_t own, const struct irec *r)
{
	int64_t i;

	if (r->ts < x->last_ts)
		x->unordered = 1;
	x->last_ts = r->ts;
	sink_fact(x->sink, x->src, r);
	if (x->pcls == XP_HOST || r->kind == IK_STEP)
		return 0;
	if (r->kind == IK_KERNEL && !x->noted_flops &&
	    val_int(v, XS_FLOPS, &i) && i >= 0) {
		sink_note(x->sink, x->src, "flops");
		x->noted_flops = 1;
	}
	if (r->kind == IK_KERNEL && !x->noted_shapes && op != NULL &&
	    op->in_shapes != NULL) {
		sink_note(x->sink, x->src, "shapes");
		x->noted_shapes = 1;
	}
	/* Stacks are noted when an op's ext is first made, or per event
	 * with stats of its own. */
	if (op != NULL && op->has_ext && (own & EXT_STATS) == 0)
		return 0;
	x->ext.n = 0;
	event_ext(x, op, v, own);
	return 0;
}

/* What every execution of OP reads (see struct xop_hot). */
static struct xop_hot *
hot_of(const struct xr *x, const struct xop *op)
{
	return &x->t->hot[op - x->t->ops];
}

/*
 * After an execution of OP with no stats of its own, read in full by
 * the first pass, the op's facts are noted (its stacks, the flops and
 * shapes it shows): its next executions on the line differ only in
 * their times.  What they share is kept with the op.
 */
static void
facts_known(struct xr *x, struct xop *op, const struct irec *r)
{
	struct xop_hot *h = hot_of(x, op);

	h->fk_line = x->lno;
	h->fk_kind = r->kind;
	h->fk_dev = r->dev;
}

/*
 * The direct output of an execution whose record is its op's on this
 * line but for its times and ps parts: the op's stored columns, the ps
 * parts between them (the end of the ext column).
 */
static int
emit_cached(struct xr *x, const struct xop_hot *op, const struct irec *r,
    int rs, int re)
{
	char ps[48];
	size_t n = 0;
	int ref = op->ref_stream == x->cur_stream + 1;

	if (rs != 0 || re != 0) {
		if (ref ? op->ref_ext : op->rc_ext)
			ps[n++] = ';';
		memcpy(ps + n, "ps=", 3);
		n += 3;
		n += tsv_i64(ps + n, rs);
		ps[n++] = ':';
		n += tsv_i64(ps + n, re);
	}
	if (ref)
		return sink_emit_ref(x->sink, x->src, r, op->ref_pre,
		    op->ref_prel, ps, n, op->ref_post, op->ref_postl);
	return sink_emit_text(x->sink, x->src, r, op->rc_pre, op->rc_prel, ps,
	    n, op->rc_post, op->rc_postl);
}

/*
 * The op's first record made is kept to the end (the output points to
 * it): the op's record on another line is made apart (made again as the
 * lines take turns).
 */
static void
keep_cached(struct xop_hot *h)
{
	if (h->ref_stream != 0)
		return;
	h->ref_stream = h->rc_stream;
	h->ref_pre = h->rc_pre;
	h->ref_post = h->rc_post;
	h->ref_prel = h->rc_prel;
	h->ref_postl = h->rc_postl;
	h->ref_dev = h->fk_dev;
	h->ref_kind = h->fk_kind;
	h->ref_ext = h->rc_ext;
	h->rc_stream = 0;
	h->rc_pre = h->rc_post = NULL;
}

/*
 * Keep R's columns, its ext EXT (the op's: of a device op, what
 * event_ext() made of its stats; of a host op, its hlo and module), for
 * the op's next executions on this line.
 */
static int
make_cached(struct xr *x, struct xop *op, struct irec *r, const char *ext,
    size_t extl)
{
	struct xop_hot *h = hot_of(x, op);
	ssize_t a, b;
	size_t need = 3 * extl + 1;
	int i;

	for (i = IC_FIRST_TEXT; i < IC_SRC; i++)
		need += 3 * r->len[i] + 1;
	set_col(r, IC_EXT, ext, extl);
	h->rc_ext = extl > 0;
	h->rc_pre = xrealloc(h->rc_pre, need);
	h->rc_post = xrealloc(h->rc_post, need + 1);
	h->rc_post[0] = '\t';
	a = sink_render_cols(x->sink, r, IC_FIRST_TEXT, IC_EXT, h->rc_pre);
	b = sink_render_cols(x->sink, r, IC_GROUP, IC_SRC - 1,
	    h->rc_post + 1);
	if (a < 0 || b < 0 || a > INT32_MAX || b > INT32_MAX) {
		op->rc_bad = 1;
		h->rc_stream = 0;
		return 0;
	}
	h->rc_prel = (uint32_t)a;
	h->rc_postl = (uint32_t)b + 1;
	h->fk_kind = r->kind;
	h->fk_dev = r->dev;
	/* Kept for every op of the file: no more room than it takes. */
	h->rc_pre = xrealloc(h->rc_pre, h->rc_prel + 1);
	h->rc_post = xrealloc(h->rc_post, h->rc_postl);
	h->rc_stream = x->cur_stream + 1;
	keep_cached(h);
	return 1;
}

/* One XEvent {1 metadata_id, 2 offset_ps, 3 duration_ps, 4 stats,
 * 5 num_occurrences}: one record. */
static int
read_event(struct xr *x, struct pbuf *lb, const struct pbuf_field *ef)
{
	struct pbuf e, s;
	struct pbuf_field f;
	struct xvals v;
	const struct xvals *vp;
	struct xop *op;
	struct irec r;
	const char *cat, *nm, *str;
	char fb[24], bb[24], cb[24], sb[24], stepname[40];
	int64_t mid = 0, off = 0, dur = 0, num;
	int r1, code, has_off = 0, nocc = 0, rs, re, kind, cached;
	uint32_t own;
	size_t n, sl, i;
	struct xop_hot *h;

	v.mask = 0;
	pbuf_sub(&e, lb, ef);
	while ((r1 = pbuf_next(&e, &f)) > 0) {
		if (f.num <= 5 && f.wt != (f.num == 4 ? PB_LEN : PB_VARINT))
			return wrong_type(x, &e, &f, "XEvent", f.num == 4 ?
			    PB_LEN : PB_VARINT);
		switch (f.num) {
		case 1:
			mid = pbuf_i64(f.u);
			break;
		case 2:
			off = pbuf_i64(f.u);
			has_off = 1;
			break;
		case 3:
			dur = pbuf_i64(f.u);
			break;
		case 4:
			if (xtab_stat_unused(x->t, f.data, f.len))
				break;
			pbuf_sub(&s, &e, &f);
			if (xtab_stat(x->t, &s, &v, &code) < 0)
				return tab_error(x);
			break;
		case 5:
			nocc = 1;
			break;
		}
	}
	if (r1 < 0)
		return wire_error(x, &e, "XEvent");
	/* The first pass, an op's later executions on a line: their
	 * times. */
	if (x->mode == XM_FACTS && v.mask == 0 && has_off &&
	    (i = xtab_find(x->t, mid)) > 0 &&
	    (h = &x->t->hot[i - 1])->fk_line == x->lno &&
	    event_times(x, off, dur, &r, &rs, &re) == 0) {
		r.kind = h->fk_kind;
		r.dev = h->fk_dev;
		if (r.ts < x->last_ts)
			x->unordered = 1;
		x->last_ts = r.ts;
		sink_fact(x->sink, x->src, &r);
		return 0;
	}
	/* The direct output, the same: the op's record, their times. */
	if (x->mode == XM_AGAIN && v.mask == 0 && has_off && x->st != NULL &&
	    (i = xtab_find(x->t, mid)) > 0 &&
	    ((h = &x->t->hot[i - 1])->ref_stream == x->cur_stream + 1 ||
	    h->rc_stream == x->cur_stream + 1) &&
	    event_times(x, off, dur, &r, &rs, &re) == 0) {
		r.kind = h->ref_stream == x->cur_stream + 1 ? h->ref_kind :
		    h->fk_kind;
		r.dev = h->ref_stream == x->cur_stream + 1 ? h->ref_dev :
		    h->fk_dev;
		r.pid = 0;
		return emit_cached(x, h, &r, rs, re);
	}
	if (nocc && !has_off) {
		sink_skip(x->sink, x->src, "aggregated event "
		    "(num_occurrences, no start)");
		return 0;
	}
	if ((op = xtab_op(x->t, mid)) != NULL && !op->decoded &&
	    xop_decode(x->t, op, lb) < 0)
		return tab_error(x);
	own = v.mask;
	vp = &v;
	/* Most executions have no stats of their own: the op's are theirs,
	 * read where they are. */
	if (op != NULL && own == 0)
		vp = &op->base;
	else if (op != NULL) {
		uint32_t m = op->base.mask & ~v.mask;
		int c;

		/* The execution's own stats win over the op's. */
		for (c = 0; m != 0; c++, m >>= 1)
			if (m & 1)
				v.v[c] = op->base.v[c];
		v.mask |= op->base.mask;
	}
	/* Per execution: the lengths say which columns are set, and a
	 * memset of the whole record (its pointers too) costs more. */
	r.kind = 0;
	r.ts = r.dur = r.dev = r.pid = 0;
	r.has_dur = 0;
	memset(r.len, 0, sizeof(r.len));
	if (event_times(x, off, dur, &r, &rs, &re) < 0) {
		diag_at(x->where, 0, "byte %" PRIu64 ": event time out of "
		    "range (offset %" PRId64 " ps, duration %" PRId64 " ps)",
		    pbuf_off(lb, ef->at), off, dur);
		return -1;
	}
	kind = event_kind(x, op, vp, &cat);
	r.kind = kind;
	r.dev = x->pcls == XP_HOST ? host_dev(x, vp) : x->dev;
	if (x->mode == XM_FACTS) {
		if (event_facts(x, op, vp, own, &r) == 0 && op != NULL &&
		    vp == &op->base)
			facts_known(x, op, &r);
		return 0;
	}
	/* In the direct output, an op's record on a line is made once. */
	cached = x->st != NULL && op != NULL && vp == &op->base &&
	    kind != IK_STEP && !op->rc_bad;
	if (cached && (hot_of(x, op)->rc_stream == x->cur_stream + 1 ||
	    hot_of(x, op)->ref_stream == x->cur_stream + 1))
		return emit_cached(x, hot_of(x, op), &r, rs, re);
	nm = op_name(x, op, &n);
	set_col(&r, IC_NAME, nm, n);
	set_col(&r, IC_TRACK, x->track, x->trackl);
	if (cat != NULL)
		set_col(&r, IC_CAT, cat, strlen(cat));
	else
		set_col(&r, IC_CAT, x->lname, x->lthread);
	if (val_int(vp, XS_CORR, &num))
		set_int(&r, IC_CORR, cb, num);
	x->ext.n = 0;
	x->ext_op = NULL;
	if (kind == IK_STEP && step_number(vp, nm, n, &num)) {
		set_int(&r, IC_STEP, sb, num);
		xext_add(&x->ext, "marker", nm, n);
		set_col(&r, IC_NAME, stepname, (size_t)snprintf(stepname,
		    sizeof(stepname), "Step#%" PRId64, num));
	} else if (val_int(vp, XS_GROUP_ID, &num))
		set_int(&r, IC_STEP, sb, num);
	if (x->pcls != XP_HOST && kind != IK_STEP) {
		op_cols(x, &r, op, vp, fb, bb);
		event_ext(x, op, vp, own);
	} else if (val_str(vp, XS_HLO_OP, &str, &sl)) {
		str = clean(x, 2, str, &sl);
		xext_add(&x->ext, "hlo", str, sl);
		if (val_str(vp, XS_HLO_MODULE, &str, &sl)) {
			str = clean(x, 2, str, &sl);
			xext_add(&x->ext, "module", str, sl);
		}
	}
	if (cached && x->pcls != XP_HOST && x->ext_op == op &&
	    make_cached(x, op, &r, op->ext, op->extl))
		return emit_cached(x, hot_of(x, op), &r, rs, re);
	if (cached && x->pcls == XP_HOST &&
	    make_cached(x, op, &r, x->ext.b, x->ext.n))
		return emit_cached(x, hot_of(x, op), &r, rs, re);
	event_ext_ps(x, &r, rs, re);
	if (x->mode == XM_AGAIN)
		return sink_emit(x->sink, x->src, &r);
	sink_add(x->sink, x->src, &r);
	return 0;
}

/* Which record kind a line's events become, from plane and line name. */
static enum lcls
line_class(const struct xr *x)
{
	const char *s = x->lname;
	size_t n = x->lnamel;

	if (x->pcls == XP_HOST)
		return LC_HOST;
	if (has_word(s, n, "XLA Ops"))
		return x->pcls == XP_TPU ? LC_OPS : LC_MARK;
	if (n > 8 && memcmp(s, "Stream #", 8) == 0)
		return x->pcls == XP_GPU ? LC_STREAM : LC_MARK;
	if (has_word(s, n, "Async XLA Ops"))
		return LC_ASYNC;
	if (has_word(s, n, "XLA Modules"))
		return LC_MODULES;
	if (has_word(s, n, "Steps"))
		return LC_STEPS;
	if (ingest_head_has(s, n, "counters"))
		return LC_SKIP;
	return LC_MARK;
}

/*
 * One XLine {1 id, 2 name, 3 timestamp_ns, 4 events, 9 duration_ps,
 * 10 display_id, 11 display_name}: its header first (in any order), then
 * its events.
 */
static int
line_head(struct xr *x, struct pbuf *pb, const struct pbuf_field *lf)
{
	struct pbuf l;
	struct pbuf_field f;
	int r;

	x->lid = x->lts = 0;
	x->lname = "";
	x->lnamel = 0;
	x->lno++;
	/*
	 * The header fields come before the events (XLA writes fields in
	 * number order, display_name, not read, last): the walk stops at
	 * the first event, so that a line's pages are touched once.
	 */
	pbuf_sub(&l, pb, lf);
	while ((r = pbuf_next(&l, &f)) > 0 && f.num != 4) {
		if ((f.num == 1 || f.num == 3) && f.wt != PB_VARINT)
			return wrong_type(x, &l, &f, "XLine", PB_VARINT);
		if ((f.num == 2 || f.num == 4) && f.wt != PB_LEN)
			return wrong_type(x, &l, &f, "XLine", PB_LEN);
		if (f.num == 1)
			x->lid = pbuf_i64(f.u);
		else if (f.num == 3)
			x->lts = pbuf_i64(f.u);
		else if (f.num == 2) {
			x->lname = (const char *)f.data;
			x->lnamel = f.len;
		}
	}
	if (r < 0)
		return wire_error(x, &l, "XLine");
	/* A file not normalized by xprof has epoch times on its lines. */
	if (x->start_ns > 0 && x->lts >= x->start_ns && x->lts > 100000000000000000LL)
		x->lts -= x->start_ns;
	x->lname = clean(x, 5, x->lname, &x->lnamel);
	x->lcls = line_class(x);
	/* A host thread's name: "main/3116817" is main. */
	{
		const char *sl = memchr(x->lname, '/', x->lnamel);

		x->lthread = sl != NULL ? (size_t)(sl - x->lname) :
		    x->lnamel;
	}
	if (x->pcls == XP_HOST)
		x->trackl = (size_t)snprintf(x->track, sizeof(x->track),
		    "%" PRId64, x->lid);
	else if (x->lcls == LC_STREAM) {
		x->trackl = strspn(x->lname + 8, "0123456789");
		if (x->trackl == 0 || x->trackl >= sizeof(x->track))
			x->trackl = (size_t)snprintf(x->track,
			    sizeof(x->track), "%" PRId64, x->lid);
		else
			memcpy(x->track, x->lname + 8, x->trackl);
	} else {
		x->trackl = x->lnamel < sizeof(x->track) ? x->lnamel :
		    sizeof(x->track) - 1;
		memcpy(x->track, x->lname, x->trackl);
	}
	return 0;
}

static int
read_line(struct xr *x, struct pbuf *pb, const struct pbuf_field *lf)
{
	struct pbuf l;
	struct pbuf_field f;
	int r, events;

	if (line_head(x, pb, lf) < 0)
		return -1;
	x->last_ts = INT64_MIN;
	pbuf_sub(&l, pb, lf);
	events = 0;
	while ((r = pbuf_next(&l, &f)) > 0) {
		if ((f.num == 1 || f.num == 2 || f.num == 3) && events) {
			diag_at(x->where, 0, "byte %" PRIu64 ": field %" PRIu64
			    " of XLine after its events: not read (times and "
			    "names would change under the events before it)",
			    pbuf_off(&l, f.at), f.num);
			return -1;
		}
		if (f.num != 4)
			continue;
		if (f.wt != PB_LEN)
			return wrong_type(x, &l, &f, "XLine", PB_LEN);
		events = 1;
		if (x->lcls == LC_SKIP)
			sink_skip(x->sink, x->src, "event of a counter line");
		else if (read_event(x, &l, &f) < 0) {
			/* The event's own bytes are bad, not the line's. */
			if (!ingest_lenient)
				return -1;
			sink_skip(x->sink, x->src,
			    "malformed event (--lenient)");
		}
		release(x, f.data + f.len);
	}
	if (r < 0)
		return wire_error(x, &l, "XLine");
	return 0;
}

/*
 * A device plane's kind and number, from its name: XP_TPU or XP_GPU and
 * N in *DEV, and where its SparseCore name starts in *END; else XP_SKIP.
 */
static enum pcls
device_plane(const char *s, size_t n, int64_t *dev, const char **end)
{
	const char *e = s + n, *p;
	enum pcls c;

	if (n > 12 && memcmp(s, "/device:TPU:", 12) == 0)
		c = XP_TPU;
	else if (n > 12 && memcmp(s, "/device:GPU:", 12) == 0)
		c = XP_GPU;
	else
		return XP_SKIP;
	*dev = 0;
	for (p = s + 12; p < e && *p >= '0' && *p <= '9' && *dev < 100000000;
	    p++)
		*dev = *dev * 10 + (*p - '0');
	*end = p;
	return p == s + 12 ? XP_SKIP : c;
}

/* A plane's name: /device:TPU:N, /device:GPU:N[ SparseCore M], /host:. */
static enum pcls
plane_class(struct xr *x)
{
	const char *s = x->pname, *e = s + x->pnamel, *p;
	enum pcls c;

	x->core = NULL;
	if (has_word(s, x->pnamel, "Task Environment"))
		return XP_ENV;
	if (x->pnamel >= 6 && memcmp(s, "/host:", 6) == 0)
		return has_word(s, x->pnamel, "/host:metadata") ? XP_SKIP :
		    XP_HOST;
	if ((c = device_plane(s, x->pnamel, &x->dev, &p)) == XP_SKIP)
		return XP_SKIP;
	if (p < e && *p == ' ') {
		x->core = p + 1;
		x->corel = (size_t)(e - p - 1);
	}
	return c;
}

/*
 * Note the device of the plane at F, for the host events that name it
 * (host_dev()).  Its name comes before its lines in every file seen; a
 * walk of its fields is cheap either way (a line is one field), and
 * damage here is left for the plane's own pass to report.
 */
static void
note_device(struct xr *x, const struct pbuf *top, const struct pbuf_field *f)
{
	struct pbuf p;
	struct pbuf_field g;
	const char *end;
	int64_t dev;

	pbuf_sub(&p, top, f);
	while (pbuf_next(&p, &g) > 0) {
		if (g.num != 2 || g.wt != PB_LEN)
			continue;
		if (device_plane((const char *)g.data, g.len, &dev, &end) ==
		    XP_SKIP)
			return;
		if ((x->ndevs & (x->ndevs - 1)) == 0)
			x->devs = xreallocarray(x->devs, x->ndevs > 0 ?
			    2 * x->ndevs : 1, sizeof(*x->devs));
		x->devs[x->ndevs++] = dev;
		return;
	}
}


/* A device record per device plane, for prof-roofline's chip. */
static void
device_record(struct xr *x, const struct xvals *v)
{
	struct irec r;
	char id[24], mem[24], name[64];
	const char *s;
	size_t n;
	int64_t i;

	if (x->core != NULL || x->mode == XM_AGAIN)
		return;		/* a SparseCore: its TensorCore says it */
	memset(&r, 0, sizeof(r));
	r.kind = IK_DEVICE;
	r.ts = IREC_NO_TS;
	r.dev = x->dev;
	set_int(&r, IC_TRACK, id, x->dev);
	set_col(&r, IC_CAT, "xplane", 6);
	if (val_str(v, XS_DEVICE_TYPE, &s, &n))
		set_col(&r, IC_NAME, clean(x, 6, s, &n), n);
	else if (val_str(v, XS_VENDOR, &s, &n))
		set_col(&r, IC_NAME, name, (size_t)snprintf(name, sizeof(name),
		    "%.*s GPU", (int)(n > 40 ? 40 : n), s));
	if (val_int(v, XS_MEMORY_SIZE, &i))
		set_int(&r, IC_VALUE, mem, i);
	x->ext.n = 0;
	if (v->mask & 1U << XS_PEAK_TFLOPS && v->v[XS_PEAK_TFLOPS].k == XV_DBL)
		xext_addi(&x->ext, "peak_gflops",
		    (int64_t)(v->v[XS_PEAK_TFLOPS].x.d * 1000));
	if (v->mask & 1U << XS_PEAK_HBM && v->v[XS_PEAK_HBM].k == XV_DBL)
		xext_addi(&x->ext, "peak_hbm_mbps",
		    (int64_t)(v->v[XS_PEAK_HBM].x.d * 1000));
	set_col(&r, IC_EXT, x->ext.b, x->ext.n);
	sink_add(x->sink, x->src, &r);
}

/*
 * Pass A over a plane {1 id, 2 name, 3 lines, 4 event_metadata,
 * 5 stat_metadata, 6 stats}: its name and tables; the stats wait for the
 * stat names.  STATS gets the plane stats.
 */
static int
plane_tables(struct xr *x, const struct pbuf *top,
    const struct pbuf_field *pf, struct xvals *stats)
{
	struct pbuf p, s;
	struct pbuf_field f;
	int r, code;

	xtab_clear(x->t);
	x->pname = "";
	x->pnamel = 0;
	stats->mask = 0;
	pbuf_sub(&p, top, pf);
	while ((r = pbuf_next(&p, &f)) > 0) {
		if (f.num >= 2 && f.num <= 6 && f.wt != PB_LEN)
			return wrong_type(x, &p, &f, "XPlane", PB_LEN);
		if (f.num == 1 && f.wt != PB_VARINT)
			return wrong_type(x, &p, &f, "XPlane", PB_VARINT);
		if (f.num == 2) {
			x->pname = (const char *)f.data;
			x->pnamel = f.len;
		} else if (f.num == 4 && xtab_event_entry(x->t, &p, &f) < 0)
			return tab_error(x);
		else if (f.num == 5 && xtab_stat_entry(x->t, &p, &f) < 0)
			return tab_error(x);
	}
	if (r < 0)
		return wire_error(x, &p, "XPlane");
	pbuf_sub(&p, top, pf);
	while (pbuf_next(&p, &f) > 0)
		if (f.num == 6) {
			pbuf_sub(&s, &p, &f);
			if (xtab_stat(x->t, &s, stats, &code) < 0)
				return tab_error(x);
		}
	return 0;
}

static int
read_plane(struct xr *x, const struct pbuf *top, const struct pbuf_field *pf)
{
	struct pbuf p;
	struct pbuf_field f;
	struct xvals stats;

	if (plane_tables(x, top, pf, &stats) < 0)
		return -1;
	x->pname = clean(x, 7, x->pname, &x->pnamel);
	x->pcls = plane_class(x);
	if (x->pcls == XP_ENV)
		return 0;
	if (x->pcls == XP_TPU || x->pcls == XP_GPU)
		device_record(x, &stats);
	pbuf_sub(&p, top, pf);
	while (pbuf_next(&p, &f) > 0) {
		if (f.num != 3)
			continue;
		if (x->pcls == XP_SKIP)
			sink_skip(x->sink, x->src,
			    "line of a plane that is not read");
		else if (read_line(x, &p, &f) < 0)
			return -1;
	}
	release(x, pf->data + pf->len);
	return 0;
}

/* The first bytes of a Riegeli/records file (google/riegeli's spec). */
static const unsigned char riegeli_sig[16] = {
	0x83, 0xaf, 0x70, 0xd1, 0x0d, 0x88, 0x4a, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0
};

int
ingest_content_xplane(const char *head, size_t len)
{
	size_t i, n;

	if (len >= 16 && memcmp(head, riegeli_sig, 16) == 0)
		return 1;
	/* A plane's name field (0x12, length, name) near the start. */
	for (i = 0; i + 2 < len && i < 32; i++) {
		n = (unsigned char)head[i + 1];
		if (head[i] != 0x12 || n < 6 || n > 127 || i + 2 + n > len)
			continue;
		if (memcmp(head + i + 2, "/device:", n < 8 ? n : 8) == 0 ||
		    memcmp(head + i + 2, "/host:", 6) == 0 ||
		    (n == 16 && memcmp(head + i + 2, "Task Environment", 16) ==
		    0))
			return 1;
	}
	return 0;
}

/* The ops (event metadata entries) of the plane at F. */
static size_t
count_ops(const struct pbuf *top, const struct pbuf_field *f)
{
	struct pbuf p;
	struct pbuf_field g;
	size_t n = 0;

	pbuf_sub(&p, top, f);
	while (pbuf_next(&p, &g) > 0)
		n += g.num == 4;
	return n;
}

/*
 * Pass 0: the planes, checked as messages, and the time base from the
 * Task Environment plane (the last one in every file seen).  *GOOD is
 * where the whole planes end: a file cut short keeps those.
 */
static int
time_base(struct xr *x, const struct pbuf *top0, size_t *good)
{
	struct pbuf top = *top0;
	struct pbuf_field f;
	struct xvals stats;
	int r;
	int64_t t;

	*good = 0;
	while ((r = pbuf_next(&top, &f)) > 0) {
		if (f.num == 1 && f.wt != PB_LEN)
			return wrong_type(x, &top, &f, "XSpace", PB_LEN);
		*good = (size_t)(top.p - top.base);
		if (f.num != 1)
			continue;
		note_device(x, top0, &f);
		if (x->mode == XM_FACTS)
			x->nops += count_ops(top0, &f);
		if (f.len < 18 || memmem(f.data, f.len < 64 ? f.len : 64,
		    "Task Environment", 16) == NULL)
			continue;
		if (plane_tables(x, top0, &f, &stats) < 0)
			return -1;
		if (has_word(x->pname, x->pnamel, "Task Environment") &&
		    val_int(&stats, XS_START_TIME, &t))
			x->start_ns = t;
	}
	if (r < 0 && (top.err == PBE_PASTEND || top.err == PBE_TRUNC)) {
		diag_at(x->where, 0, "byte %" PRIu64 ": the file is cut short "
		    "(%zu bytes) inside a plane; the %zu bytes of whole planes "
		    "before it are read%s", pbuf_off(&top, top.errat), x->size,
		    *good, x->start_ns > 0 ? "" : ", on the profile's own "
		    "clock (no Task Environment plane)");
		return -1;
	}
	if (r < 0)
		return wire_error(x, &top, "XSpace");
	*good = x->size;
	return 0;
}

static int
read_space(struct xr *x)
{
	struct pbuf top;
	struct pbuf_field f;
	size_t good;
	int rc;

	pbuf_init(&top, x->map, x->size, x->map);
	rc = time_base(x, &top, &good);
	if (rc < 0 && good == 0)
		return -1;
	if (x->start_ns > 0)
		sink_set_base(x->sink, x->src, x->start_ns);
	/*
	 * The direct output holds every plane's tables at once: past
	 * DIRECT_OPS ops in all, the file is read once and stored, its
	 * memory one plane's tables.
	 */
	if (x->mode == XM_FACTS && x->nops > DIRECT_OPS)
		x->mode = XM_ONCE;
	/* The count touched every plane's metadata: not needed yet. */
	if (x->nops > 0)
		(void)madvise((void *)(uintptr_t)x->map, x->size,
		    MADV_DONTNEED);
	x->good = good;
	pbuf_init(&top, x->map, good, x->map);
	while (pbuf_next(&top, &f) > 0)
		if (f.num == 1 && read_plane(x, &top, &f) < 0)
			return -1;
	return rc;
}

/* ---- the second pass of a file read twice ---- */

static void
xr_free(struct xr *x)
{
	size_t i;

	munmap((void *)(uintptr_t)x->map, x->size);
	xtab_free(&x->t0);
	for (i = 0; i < x->ntabs; i++) {
		if (x->tabs[i] != NULL)
			xtab_free(x->tabs[i]);
		free(x->tabs[i]);
		free(x->pnames[i]);
	}
	free(x->tabs);
	free(x->pnames);
	for (i = 0; i < x->nst; i++)
		free(x->st[i].lname_own);
	free(x->st);
	free(x->stk);
	free(x->devs);
	free(x->ext.b);
	free(x->mext.b);
	for (i = 0; i < NSCRATCH; i++)
		free(x->sbuf[i]);
	free(x);
}

static int
replay_done(void *arg)
{
	xr_free(arg);
	return 0;
}

/* Every record again, plane after plane as the first pass read them. */
static void
replay_store(void *arg)
{
	struct xr *x = arg;
	struct pbuf top;
	struct pbuf_field f;

	x->t = &x->t0;
	x->released = 0;
	pbuf_init(&top, x->map, x->good, x->map);
	while (pbuf_next(&top, &f) > 0)
		if (f.num == 1 && read_plane(x, &top, &f) < 0)
			return;
}

/* A new stream for the line just read by line_head(), at LF of P. */
static void
add_stream(struct xr *x, const struct pbuf *p, const struct pbuf_field *lf)
{
	struct xstream *st;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), at;

	if ((x->nst & (x->nst - 1)) == 0)
		x->st = xreallocarray(x->st, x->nst > 0 ? 2 * x->nst : 1,
		    sizeof(*x->st));
	st = &x->st[x->nst++];
	memset(st, 0, sizeof(*st));
	pbuf_sub(&st->l, p, lf);
	st->t = x->t;
	st->pcls = x->pcls;
	st->dev = x->dev;
	st->core = x->core;
	st->corel = x->corel;
	st->lcls = x->lcls;
	st->lid = x->lid;
	st->lts = x->lts;
	st->lname = x->lname;
	st->lnamel = x->lnamel;
	if (x->lname == x->sbuf[5]) {	/* repaired in scratch: kept */
		st->lname = st->lname_own = xmalloc(x->lnamel + 1);
		memcpy(st->lname_own, x->lname, x->lnamel);
	}
	st->lthread = x->lthread;
	memcpy(st->track, x->track, sizeof(st->track));
	st->trackl = x->trackl;
	at = (size_t)(lf->data - x->map);
	st->released = (at + pg - 1) / pg * pg;
}

/*
 * The streams of the direct output: every line of a read plane, with
 * its plane's tables (all planes' at once: memory follows their
 * distinct ops).  The first pass found no damage, so none is met.
 */
static int
build_streams(struct xr *x)
{
	struct pbuf top, p;
	struct pbuf_field f, g;
	struct xvals stats;
	size_t i;

	pbuf_init(&top, x->map, x->good, x->map);
	while (pbuf_next(&top, &f) > 0) {
		if (f.num != 1)
			continue;
		i = x->ntabs++;
		x->tabs = xreallocarray(x->tabs, x->ntabs, sizeof(*x->tabs));
		x->pnames = xreallocarray(x->pnames, x->ntabs,
		    sizeof(*x->pnames));
		x->tabs[i] = x->t = xcalloc(1, sizeof(*x->t));
		x->pnames[i] = NULL;
		if (plane_tables(x, &top, &f, &stats) < 0)
			return -1;
		x->pname = clean(x, 7, x->pname, &x->pnamel);
		x->pnames[i] = xmalloc(x->pnamel + 1);
		memcpy(x->pnames[i], x->pname, x->pnamel);
		x->pname = x->pnames[i];
		x->pcls = plane_class(x);
		if (x->pcls == XP_ENV || x->pcls == XP_SKIP) {
			xtab_free(x->tabs[i]);
			free(x->tabs[i]);
			x->tabs[i] = NULL;
			continue;
		}
		pbuf_sub(&p, &top, &f);
		while (pbuf_next(&p, &g) > 0) {
			if (g.num != 3)
				continue;
			if (line_head(x, &p, &g) < 0)
				return -1;
			if (x->lcls != LC_SKIP)
				add_stream(x, &p, &g);
		}
	}
	return 0;
}

/* Give back the pages of stream ST that are read. */
static void
stream_release(struct xr *x, struct xstream *st)
{
	give_back(x, &st->released, st->l.p, x->st_release);
}

/* The next records of line I, until the sink has enough of them. */
static int
replay_fill(void *arg, size_t i)
{
	struct xr *x = arg;
	struct xstream *st = &x->st[i];
	struct pbuf_field f;

	x->cur_stream = i;
	x->t = st->t;
	x->pcls = st->pcls;
	x->dev = st->dev;
	x->core = st->core;
	x->corel = st->corel;
	x->lcls = st->lcls;
	x->lid = st->lid;
	x->lts = st->lts;
	x->lname = st->lname;
	x->lnamel = st->lnamel;
	x->lthread = st->lthread;
	memcpy(x->track, st->track, sizeof(x->track));
	x->trackl = st->trackl;
	while (pbuf_next(&st->l, &f) > 0) {
		/* A bad event was passed over the first time (--lenient). */
		if (f.num == 4 && f.wt == PB_LEN &&
		    read_event(x, &st->l, &f) == 1) {
			stream_release(x, st);
			return 1;
		}
	}
	stream_release(x, st);
	return 0;
}

/*
 * After the first pass of a file read twice: hand the sink what it needs
 * for the second, the lines as streams when each was in order.
 */
static void
replay_offer(struct xr *x, int rc)
{
	struct sink_replay rp;
	int ordered = rc == 0 && !x->unordered;

	x->mode = XM_AGAIN;
	/* Each stream costs buffers and mapped pages: not too many. */
	if (ordered && (build_streams(x) < 0 || x->nst > DIRECT_STREAMS))
		ordered = 0;
	/* What the mapping holds of the streams' pages, all together. */
	x->st_release = x->nst > 0 ? STREAM_RELEASE / x->nst : 0;
	if (x->st_release < (16 << 10))
		x->st_release = 16 << 10;
	memset(&rp, 0, sizeof(rp));
	rp.arg = x;
	rp.nstreams = ordered ? x->nst : 0;
	rp.fill = replay_fill;
	rp.store = replay_store;
	rp.done = replay_done;
	sink_direct(x->sink, x->src, &rp, ordered);
}

int
ingest_xplane(struct input *in, const char *where,
    const struct ingest_ctx *ctx)
{
	struct xr *x;
	struct stat st;
	const unsigned char *map;
	const char *path;
	int copied, fd, rc;

	if ((path = input_seekable(in, ctx->tmpdir, &copied)) == NULL)
		return -1;
	if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &st) < 0) {
		diag_at(where, 0, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		diag_at(where, 0, "empty input: no XSpace");
		close(fd);
		return -1;
	}
	if ((map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
	    fd, 0)) == MAP_FAILED) {
		diag_at(where, 0, "cannot map the file: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (st.st_size >= 16 && memcmp(map, riegeli_sig, 16) == 0) {
		diag_at(where, 0, "a Riegeli-chunked XPlane (.xplane.riegeli, "
		    "Brotli-compressed XSpace chunks): not supported; save "
		    "the profile as .xplane.pb (one XSpace)");
		munmap((void *)(uintptr_t)map, (size_t)st.st_size);
		return -1;
	}
	x = xcalloc(1, sizeof(*x));
	x->where = where;
	x->size = (size_t)st.st_size;
	x->map = map;
	x->t = &x->t0;
	x->sink = ctx->sink;
	/*
	 * The run's only source, in a file that stays: read twice, its
	 * records go straight to the output (see ingest.h).  The mapping
	 * stays for the second pass; a copy (of a pipe) would not.
	 */
	if (!copied && sink_can_direct(x->sink))
		x->mode = XM_FACTS;
	x->src = sink_begin(x->sink, ctx->fmt, where, ctx->run, ctx->rank);
	rc = read_space(x);
	if (x->mode == XM_FACTS)
		replay_offer(x, rc);
	sink_end(x->sink, x->src);
	if (x->mode == XM_ONCE)
		xr_free(x);
	return rc;
}
