/*
 * prof-roofline: whether each kernel is compute-bound, memory-bound or
 * neither against the chip's peaks, and what bounds each step and the
 * run.
 *
 * Kernels pass through with their FLOPs and bytes (from the trace, or
 * estimated from shapes and dtypes), arithmetic intensity, bound class,
 * utilisations and time at the roof.  A Kineto kernel carries no shapes:
 * it gets those of the host operator that launched it, found through
 * its correlation id and the launch's External id in two direct-mapped
 * tables of recent ids (bounded memory; ids are nearly sequential).
 * Summary roof, bottleneck and metric records follow at the end.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "diag.h"
#include "hash.h"
#include "num.h"
#include "roofline.h"
#include "stage.h"
#include "tsv.h"
#include "xalloc.h"

static const char *const added[] = {
	"flops", "bytes", "dtype", "ai", "bound", "bound_src", "pipe_bound",
	"pipe_ratio", "mfu_ratio", "bw_ratio", "roofline_ns", "shortfall_ns",
	"ridge", "src_op", "scope", "calls", "dur_total_ns", "cov_ratio",
	"busy_ns", "chip", "evidence", "value", "step", "tags"
};

static struct stage *st;
static struct rf_opts opts = { 0, 0, 10000, 10, 50, 1000 };
static struct rf_peaks peaks;
static int c_flops, c_bytes, c_dtype, c_ai, c_bound, c_bsrc, c_pipe;
static int c_pratio, c_mfu, c_bw, c_roof, c_short, c_srcop, c_tags;
static int c_type, c_core, c_step, c_cat, c_ext, c_corr, c_pmu;
static int c_ish, c_idt, c_osh, c_odt, c_labels, c_value;
static int user_peaks;		/* -c, -f or --peak-*: no chip from the trace */

/* With their lengths: one is written for most kernels. */
static const struct rf_word bounds[B_NBOUND] = {
	RF_WORD("unknown", B_UNKNOWN), RF_WORD("compute", B_COMPUTE),
	RF_WORD("memory", B_MEMORY), RF_WORD("latency", B_LATENCY)
};

const char *
rf_bound_name(int b)
{
	return b >= 0 && b < B_NBOUND ? bounds[b].s : "";
}

/* ---- Kineto: kernel -> launch -> host op ---- */

#define LINK_CAP	65536
#define OPNAME_MAX	64

/* A host op's estimate, by External id. */
struct hostop {
	int64_t		 ext;
	int64_t		 flops, bytes;
	int		 dt, kind, used, set;
	unsigned	 flags;		/* EF_* */
	char		 name[OPNAME_MAX];
};
#define EF_FLOPS_EST	0x01
#define EF_BYTES_EST	0x02
#define EF_IN_ONLY	0x04

/* A launch: correlation id to External id. */
struct launch {
	int64_t		 corr, ext;
	int		 set;
};

static struct hostop *ops;
static struct launch *launches;

static size_t
slot_of(int64_t id)
{
	return (size_t)((uint64_t)id % LINK_CAP);
}

static int64_t
col_i64(int col, int *absent)
{
	*absent = 1;
	if (col < 0 || stage_absent(st, col))
		return 0;
	return stage_i64(st, col, absent);
}

/* The shapes of the current record; 0 when it has none. */
static int
record_shapes(struct rf_shapes *s)
{
	size_t sl, dl;
	const char *sh = stage_get(st, c_ish, &sl);
	const char *dt = stage_get(st, c_idt, &dl);

	s->nin = s->nout = 0;
	if (sl > 0)
		s->nin = rf_parse_shapes(sh, sl, dt, dl, s->in);
	sh = stage_get(st, c_osh, &sl);
	dt = stage_get(st, c_odt, &dl);
	if (sl > 0)
		s->nout = rf_parse_shapes(sh, sl, dt, dl, s->out);
	if (s->nin < 0 || s->nout < 0) {
		s->nin = s->nout = 0;
		return -1;
	}
	return s->nin + s->nout > 0;
}

/* The op kind of the current record: its type, else its name. */
static int
record_kind(void)
{
	size_t n;
	const char *s = stage_get(st, c_type, &n);
	int k = n > 0 ? rf_op_kind(s, n) : OPK_NONE;

	if (k == OPK_NONE) {
		s = stage_get(st, COL_NAME, &n);
		k = rf_op_kind(s, n);
	}
	return k;
}

static int aux_kernel(const char *);
static int comm_name(const char *, size_t);

/* The text of a number, or of the ratio A / B, written for A (and B). */
struct numtext {
	int64_t		 a, b;
	size_t		 len;		/* 0: none */
	char		 s[NUM_BUFSIZE];
};

/*
 * What the name, type, shapes and dtypes of a record alone decide: the
 * estimate from its shapes (FLAGS say which parts are estimates), the
 * text of its FLOPs, bytes and intensity, and what its name says.
 */
struct opfacts {
	struct rf_est	 e;
	unsigned	 flags;		/* EF_* */
	int		 comm;		/* hcom, hccl, nccl or rccl */
	int		 tf32;		/* a TF32 GEMM by its name */
	int		 aux;		/* moves data for a GEMM-like op */
	struct numtext	 flops, bytes, ai;
	char		 tags[96];	/* est_tags() of the estimate */
	size_t		 tagslen;
	struct rf_acc	*group;		/* its kernels' last op group */
};

/*
 * Add the tags of an estimate: FLAGS, and its NOTE when not NULL.  They
 * are fixed words, some 60 bytes at most: they always fit.
 */
static void
est_tags(char *tags, size_t cap, unsigned flags, const char *note)
{
	if (flags & EF_FLOPS_EST)
		stage_tag_add(tags, cap, "flops_est");
	if (flags & EF_BYTES_EST)
		stage_tag_add(tags, cap, "bytes_est");
	if (flags & EF_IN_ONLY)
		stage_tag_add(tags, cap, "bytes_inputs_only");
	if (note != NULL)
		stage_tag_add(tags, cap, note);
}

static void
op_facts(struct opfacts *f)
{
	struct rf_shapes s;
	struct rf_est *e = &f->e;
	size_t n;
	const char *name = stage_get(st, COL_NAME, &n);
	int has = record_shapes(&s);

	f->flags = 0;
	if (has > 0) {
		rf_estimate(record_kind(), &s, e);
		if (e->flops >= 0)
			f->flags |= EF_FLOPS_EST;
		if (e->bytes >= 0)
			f->flags |= EF_BYTES_EST;
		if (e->in_only)
			f->flags |= EF_IN_ONLY;
	} else {
		memset(e, 0, sizeof(*e));
		e->flops = e->bytes = -1;
		e->dt = DT_NONE;
		if (has < 0)
			e->note = "bad_shapes";
	}
	f->flops.len = f->bytes.len = f->ai.len = 0;
	f->flops.b = f->bytes.b = 0;
	if ((f->flops.a = e->flops) >= 0)
		f->flops.len = tsv_i64(f->flops.s, e->flops);
	if ((f->bytes.a = e->bytes) >= 0)
		f->bytes.len = tsv_i64(f->bytes.s, e->bytes);
	f->ai.a = e->flops;
	if ((f->ai.b = e->bytes) > 0 && e->flops >= 0)
		f->ai.len = num_ratio_u128(f->ai.s, (unsigned __int128)e->flops,
		    (unsigned __int128)e->bytes, 6);
	f->group = NULL;
	f->tags[0] = '\0';
	est_tags(f->tags, sizeof(f->tags), f->flags, e->note);
	f->tagslen = strlen(f->tags);
	f->comm = comm_name(name, n);
	f->tf32 = strstr(name, "s1688") != NULL || strstr(name, "tf32") != NULL;
	f->aux = aux_kernel(name);
}

/*
 * The facts of each distinct (name, type, shapes, dtypes), kept: a
 * capture repeats a few hundred ops, and parsing their shapes and
 * scanning their names cost more than the rest of a kernel's work.
 * Open addressing; the table is emptied when half full and a key longer
 * than MEMO_KEYMAX is worked out each time, so memory stays bounded
 * (about 3 MiB at worst) whatever the input.
 */
#define MEMO_SLOTS	2048
#define MEMO_KEYMAX	2048
enum { MK_NAME, MK_TYPE, MK_ISH, MK_IDT, MK_OSH, MK_ODT, MK_N };

struct memo {
	char		*key;		/* the MK_N fields end to end */
	size_t		 len[MK_N];
	uint64_t	 hash;
	struct opfacts	 f;
};
static struct memo *memo;
static size_t nmemo;
static int memo_col[MK_N];	/* the columns of the key */

static void
memo_clear(void)
{
	size_t i;

	for (i = 0; memo != NULL && i < MEMO_SLOTS; i++) {
		free(memo[i].key);
		memo[i].key = NULL;
	}
	nmemo = 0;
}

/*
 * The facts of the current record, worked out on its key's first use:
 * in the table, else in SCRATCH.
 */
static struct opfacts *
record_facts(struct opfacts *scratch)
{
	const char *v[MK_N];
	size_t len[MK_N], total = 0, i, j, off;
	uint64_t h;
	struct memo *m;

	for (j = 0; j < MK_N; j++) {
		v[j] = stage_get(st, memo_col[j], &len[j]);
		total += len[j];
	}
	if (total > MEMO_KEYMAX) {
		op_facts(scratch);
		return scratch;
	}
	/* The name and input shapes set the ops apart; all is compared. */
	h = hash_bytes(v[MK_ISH], len[MK_ISH], hash_bytes(v[MK_NAME],
	    len[MK_NAME], 0));
	if (memo == NULL)
		memo = xcalloc(MEMO_SLOTS, sizeof(*memo));
	for (i = h & (MEMO_SLOTS - 1); (m = &memo[i])->key != NULL;
	    i = (i + 1) & (MEMO_SLOTS - 1)) {
		if (m->hash != h)
			continue;
		for (j = 0, off = 0; j < MK_N; off += len[j++])
			if (m->len[j] != len[j] ||
			    memcmp(m->key + off, v[j], len[j]) != 0)
				break;
		if (j == MK_N)
			return &m->f;
	}
	op_facts(scratch);
	if (2 * (nmemo + 1) > MEMO_SLOTS) {
		memo_clear();
		for (i = h & (MEMO_SLOTS - 1); memo[i].key != NULL;
		    i = (i + 1) & (MEMO_SLOTS - 1))
			;
		m = &memo[i];
	}
	m->key = xmalloc(total + 1);
	for (j = 0, off = 0; j < MK_N; off += len[j++]) {
		memcpy(m->key + off, v[j], len[j]);
		m->len[j] = len[j];
	}
	m->hash = h;
	m->f = *scratch;
	nmemo++;
	return &m->f;
}

/*
 * The facts of the current record (SCRATCH may hold them), and its
 * FLOPs and bytes in E: what the trace says, else the estimate from its
 * shapes.  FLAGS says which were estimated.
 */
static struct opfacts *
record_work(struct opfacts *scratch, struct rf_est *e, unsigned *flags)
{
	int fa, ba;
	int64_t fl = col_i64(c_flops, &fa), b = col_i64(c_bytes, &ba);
	struct opfacts *f = record_facts(scratch);

	*e = f->e;
	*flags = f->flags;
	if (!fa && fl >= 0) {
		e->flops = fl;
		*flags &= ~(unsigned)EF_FLOPS_EST;
	}
	if (!ba && b >= 0) {
		e->bytes = b;
		*flags &= ~(unsigned)(EF_BYTES_EST | EF_IN_ONLY);
	}
	return f;
}

/*
 * The host ops with an estimate that are open on each host thread, so
 * that a launch that names no such op (older Kineto traces give the
 * launch and the kernel the correlation id as External id) finds the
 * innermost op around it.  Depth is bounded: deeper ops are dropped.
 */
#define NEST_MAX	32
struct nest {
	char		*key;		/* dev NUL track */
	size_t		 keylen;
	int64_t		 end[NEST_MAX], ext[NEST_MAX];
	int		 n;
};
static struct nest *nests;
static size_t nnests;

static struct nest *
nest_of(void)
{
	size_t dl, tl, i;
	const char *dev = stage_get(st, COL_DEV, &dl);
	const char *track = stage_get(st, COL_TRACK, &tl);
	struct nest *n;

	for (i = 0; i < nnests; i++)
		if (nests[i].keylen == dl + tl + 1 &&
		    memcmp(nests[i].key, dev, dl) == 0 &&
		    memcmp(nests[i].key + dl + 1, track, tl) == 0)
			return &nests[i];
	nests = xreallocarray(nests, nnests + 1, sizeof(*nests));
	n = &nests[nnests++];
	memset(n, 0, sizeof(*n));
	n->keylen = dl + tl + 1;
	n->key = xmalloc(n->keylen);
	memcpy(n->key, dev, dl);
	n->key[dl] = '\0';
	memcpy(n->key + dl + 1, track, tl);
	return n;
}

/* The ops of N that are still open at TS. */
static void
nest_pop(struct nest *n, int64_t ts)
{
	while (n->n > 0 && n->end[n->n - 1] <= ts)
		n->n--;
}

/* A host op with an External id: keep its estimate for its kernels. */
static void
do_hostop(int64_t ext)
{
	struct opfacts scratch;
	struct rf_est e;
	unsigned flags;
	struct hostop *h;
	size_t nl;
	const char *name = stage_get(st, COL_NAME, &nl);

	record_work(&scratch, &e, &flags);
	if (e.flops < 0 && e.bytes < 0)
		return;
	if (stage_ts(st) != STAGE_NO_TS && stage_dur(st) > 0) {
		struct nest *ns = nest_of();

		nest_pop(ns, stage_ts(st));
		if (ns->n < NEST_MAX) {
			ns->end[ns->n] = stage_ts(st) + stage_dur(st);
			ns->ext[ns->n++] = ext;
		}
	}
	if (ops == NULL)
		ops = xcalloc(LINK_CAP, sizeof(*ops));
	h = &ops[slot_of(ext)];
	h->ext = ext;
	h->set = 1;
	h->used = 0;
	h->flops = e.flops;
	h->bytes = e.bytes;
	h->dt = e.dt;
	h->kind = e.kind;
	h->flags = flags;
	if (nl >= OPNAME_MAX)
		nl = OPNAME_MAX - 1;
	memcpy(h->name, name, nl);
	h->name[nl] = '\0';
}

/* Whether a host op with External id EXT is known. */
static int
op_known(int64_t ext)
{
	return ops != NULL && ops[slot_of(ext)].set &&
	    ops[slot_of(ext)].ext == ext;
}

static void
do_launch(int64_t corr, int64_t ext, int has_ext)
{
	struct launch *l;
	struct nest *ns;

	if ((!has_ext || !op_known(ext)) && stage_ts(st) != STAGE_NO_TS) {
		ns = nest_of();
		nest_pop(ns, stage_ts(st));
		if (ns->n == 0)
			return;
		ext = ns->ext[ns->n - 1];
	}

	if (launches == NULL)
		launches = xcalloc(LINK_CAP, sizeof(*launches));
	l = &launches[slot_of(corr)];
	l->corr = corr;
	l->ext = ext;
	l->set = 1;
}

static void
do_host(void)
{
	int ea, ca;
	int64_t ext = col_i64(c_ext, &ea), corr = col_i64(c_corr, &ca);
	size_t n;
	const char *name = stage_get(st, COL_NAME, &n);

	if (!ca && strcmp(stage_get(st, c_cat, NULL), "cpu_op") != 0)
		do_launch(corr, ext, !ea);
	else if (!ea)
		do_hostop(ext);
	/*
	 * Host synchronisation calls, for the bottleneck rule
	 * (cudaDeviceSynchronize, aclrtSynchronizeStream, ...).
	 */
	if (stage_dur(st) > 0 && strstr(name, "Synchronize") != NULL)
		rf_sum_sync(stage_get(st, COL_DEV, NULL), stage_get(st,
		    c_step, NULL), stage_dur(st));
}

/*
 * Kernels that only move data for a GEMM, attention or convolution op
 * (a layout copy, a memset before split-K): they do not take the op's
 * FLOPs, which go to its first kernel that is none of these.
 */
static int
aux_kernel(const char *name)
{
	static const char *const pat[] = {
		"elementwise", "Memset", "Memcpy", "memset", "memcpy", "fill",
		"copy", "splitKreduce", "transpose", NULL
	};
	int i;

	for (i = 0; pat[i] != NULL; i++)
		if (strstr(name, pat[i]) != NULL)
			return 1;
	return 0;
}

/* The host op that launched the current kernel, or NULL. */
static struct hostop *
kernel_hostop(void)
{
	int ea, ca;
	int64_t ext = col_i64(c_ext, &ea), corr = col_i64(c_corr, &ca);
	struct launch *l;
	struct hostop *h;

	if (!ca && launches != NULL) {
		l = &launches[slot_of(corr)];
		if (l->set && l->corr == corr) {
			ext = l->ext;
			ea = 0;
		}
	}
	if (ea || ops == NULL)
		return NULL;
	h = &ops[slot_of(ext)];
	return h->set && h->ext == ext ? h : NULL;
}

/*
 * Whether a kernel name holds hcom, hccl, nccl or rccl in any case (one
 * pass: Kineto kernel names run to hundreds of bytes).
 */
static int
comm_name(const char *s, size_t n)
{
	size_t i;
	uint32_t w = 0;

	/* The last four bytes, ASCII letters folded to lower case. */
	for (i = 0; i < n; i++) {
		w = w << 8 | (uint32_t)(unsigned char)(s[i] | 0x20);
		if (i >= 3 && (w == 0x68636f6d || w == 0x6863636c ||
		    w == 0x6e63636c || w == 0x7263636c))
			return 1;	/* hcom, hccl, nccl, rccl */
	}
	return 0;
}

/* A communication kernel: core HCCL or COMMUNICATION, or by its name. */
static int
is_comm_kernel(const struct opfacts *f)
{
	size_t n;
	const char *core = stage_get(st, c_core, &n);

#define CORE_IS(s)	(n == sizeof(s) - 1 && memcmp(core, s, n) == 0)
	return CORE_IS("HCCL") || CORE_IS("COMMUNICATION") || f->comm;
#undef CORE_IS
}

/*
 * SCALE / PEAK (PEAK > 0) in lowest terms, MUL / DIV, kept for the last
 * PEAK.  Peaks are round numbers, so that the terms of a utilisation or
 * of a time at a roof mostly fit in 64 bits once reduced, where a
 * division is one instruction and not a library call.  The value of a
 * fraction, and so each digit written or rounded from it, is the same.
 */
struct lowest {
	int64_t		 scale, peak, mul, div;
};

static const struct lowest *
lowest(struct lowest *l, int64_t peak)
{
	int64_t a = l->scale, b = peak, t;

	if (peak == l->peak)
		return l;
	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	l->peak = peak;
	l->mul = l->scale / a;
	l->div = peak / a;
	return l;
}

/* ps at a roof: N * 10^12 / PEAK, rounded; -1 when unknown. */
static int64_t
roof_ps(int64_t n, int64_t peak, struct lowest *l)
{
	int64_t v;
	__int128 w;

	if (n < 0 || peak <= 0)
		return -1;
	lowest(l, peak);
	if (!__builtin_mul_overflow(n, l->mul, &v) &&
	    v <= INT64_MAX - l->div / 2)
		return (v + l->div / 2) / l->div;
	w = ((__int128)n * l->mul + l->div / 2) / l->div;
	return w > INT64_MAX ? -1 : (int64_t)w;
}

static void
set_ratio(int col, __int128 num, __int128 den)
{
	char buf[NUM_BUFSIZE];

	if (den > 0 && num >= 0)
		stage_set(st, col, buf, num_ratio_u128(buf,
		    (unsigned __int128)num, (unsigned __int128)den, 6));
}

/* Set COL to a string literal, its length known. */
#define SET_LIT(col, s)	stage_set(st, col, s, sizeof(s) - 1)

/* Whether T is the text of A / B (of A when B is 0). */
static int
is_text(const struct numtext *t, int64_t a, int64_t b)
{
	return t->len > 0 && t->a == a && t->b == b;
}

/* The roofline columns of the current kernel, F the facts of its op. */
static void
kernel_roof(struct rf_kern *k, const struct opfacts *f, char *tags,
    size_t tcap)
{
	static struct lowest fps = { 1000000000000LL, 0, 0, 0 };
	static struct lowest bps = { 1000000000000LL, 0, 0, 0 };
	static struct lowest mfu = { 1000000000, 0, 0, 0 };
	static struct lowest bw = { 1000000000, 0, 0, 0 };
	const struct lowest *l;
	int64_t dur = k->dur, pf, rns;

	k->flop_ps = k->byte_ps = -1;
	/* an op's estimate is written from the text made with it */
	if (is_text(&f->flops, k->flops, 0))
		stage_set(st, c_flops, f->flops.s, f->flops.len);
	else if (k->flops >= 0)
		stage_set_i64(st, c_flops, k->flops);
	if (is_text(&f->bytes, k->bytes, 0))
		stage_set(st, c_bytes, f->bytes.s, f->bytes.len);
	else if (k->bytes >= 0)
		stage_set_i64(st, c_bytes, k->bytes);
	if (k->dt >= 0)
		stage_set_str(st, c_dtype, rf_dtype_name(k->dt));
	if (is_text(&f->ai, k->flops, k->bytes))
		stage_set(st, c_ai, f->ai.s, f->ai.len);
	else if (k->flops >= 0 && k->bytes > 0)
		set_ratio(c_ai, k->flops, k->bytes);
	pf = k->dt >= 0 && k->dt < DT_NPEAK ? peaks.flops[k->dt] : 0;
	if (k->flops > 0 && pf == 0 && peaks.name[0] != '\0')
		stage_tag_add(tags, tcap, "no_peak_for_dtype");
	k->flop_ps = k->flops == 0 ? 0 : roof_ps(k->flops, pf, &fps);
	k->byte_ps = roof_ps(k->bytes, peaks.bw, &bps);
	if (k->flop_ps >= 0 && dur > 0) {
		/* flops * 10^9 / (dur * peak) */
		l = lowest(&mfu, pf > 0 ? pf : 1);
		set_ratio(c_mfu, (__int128)k->flops * l->mul, (__int128)dur *
		    l->div);
	}
	if (k->byte_ps >= 0 && dur > 0) {
		l = lowest(&bw, peaks.bw);
		set_ratio(c_bw, (__int128)k->bytes * l->mul, (__int128)dur *
		    l->div);
	}
	if (k->flop_ps < 0 || k->byte_ps < 0) {
		if (k->byte_ps >= 0) {
			/* Only the memory roof: a lower bound on the time. */
			stage_set_i64(st, c_roof, (k->byte_ps + 500) / 1000);
			stage_tag_add(tags, tcap, "memory_roof_only");
		}
		k->flop_ps = k->byte_ps = -1;
		return;
	}
	/* to the nearest ns; in 64 bits unsigned, where the sum fits */
	rns = (int64_t)(((uint64_t)(k->flop_ps > k->byte_ps ? k->flop_ps :
	    k->byte_ps) + 500) / 1000);
	stage_set_i64(st, c_roof, rns);
	stage_set_i64(st, c_short, dur - rns);
	if (rns > dur)
		stage_tag_add(tags, tcap, "above_roof");
	if ((__int128)rns * 100 < (__int128)opts.latency_pct * dur)
		k->bound = B_LATENCY;
	else
		k->bound = k->flop_ps >= k->byte_ps ? B_COMPUTE : B_MEMORY;
	stage_set(st, c_bound, bounds[k->bound].s, bounds[k->bound].len);
	SET_LIT(c_bsrc, "roofline");
}

/*
 * Set COL to the text of a pipe ratio, PPM / 10^6.  msprof writes three
 * decimals, so that some thousand values recur: their text is kept, by
 * value.
 */
static void
set_ppm(int col, int64_t ppm)
{
	static struct numtext seen[1024];
	struct numtext *t = &seen[(uint64_t)ppm / 1000 % 1024];

	if (!is_text(t, ppm, 1000000)) {
		t->a = ppm;
		t->b = 1000000;
		t->len = num_ratio_u128(t->s, (unsigned __int128)ppm, 1000000, 6);
	}
	stage_set(st, col, t->s, t->len);
}

/* PMU pipe ratios: the busiest pipe, and the bound when no roof is known. */
static void
kernel_pmu(struct rf_kern *k, char *tags, size_t tcap)
{
	size_t n;
	const char *pmu = stage_get(st, c_pmu, &n);
	int64_t ppm;
	int p, b;

	if (n == 0 || (p = rf_pmu_pipe(pmu, n, &ppm)) == P_NONE)
		return;
	set_ppm(c_pratio, ppm);
	if (ppm * 100 < opts.pipe_pct * 1000000) {
		SET_LIT(c_pipe, "none");
		b = B_LATENCY;
	} else {
		stage_set_str(st, c_pipe, rf_pipe_name(p));
		b = rf_pipe_bound(p);
	}
	if (k->bound == B_UNKNOWN) {
		k->bound = b;
		stage_set(st, c_bound, bounds[b].s, bounds[b].len);
		SET_LIT(c_bsrc, "pmu");
	} else if (k->bound != b && k->bound != B_LATENCY && b != B_LATENCY)
		stage_tag_add(tags, tcap, "pmu_disagrees");
}

/* Append TAGS to the tags column of the current record. */
static void
append_tags(const char *tags)
{
	size_t tl, nl = strlen(tags);
	const char *old = stage_get(st, c_tags, &tl);
	char sbuf[512], *buf = sbuf;

	if (tl == 0) {
		stage_set(st, c_tags, tags, nl);
		return;
	}
	/* on the stack mostly: a kernel's tags are short */
	if (tl + nl + 1 > sizeof(sbuf))
		buf = xmalloc(tl + nl + 1);
	memcpy(buf, old, tl);
	buf[tl] = ',';
	memcpy(buf + tl + 1, tags, nl);
	stage_set(st, c_tags, buf, tl + nl + 1);
	if (buf != sbuf)
		free(buf);
}

static void
do_kernel(void)
{
	struct rf_kern k;
	struct opfacts scratch;
	struct opfacts *f;
	struct rf_est est, *e = &est;
	unsigned flags;
	struct hostop *h = NULL;
	char tags[256];
	size_t n;
	const char *name = stage_get(st, COL_NAME, &n);

	tags[0] = '\0';		/* not "= \"\"": that zeroes all of it */
	memset(&k, 0, sizeof(k));
	if (stage_ts(st) == STAGE_NO_TS || stage_dur(st) < 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "kernel record without %s", stage_ts(st) == STAGE_NO_TS ?
		    "ts_ns" : "dur_ns");
	k.dev = stage_get(st, COL_DEV, &k.devlen);
	k.key = name;
	k.keylen = n;
	k.step = stage_get(st, c_step, &k.steplen);
	k.ts = stage_ts(st);
	k.dur = stage_dur(st);
	if (opts.by_type && c_type >= 0 && !stage_absent(st, c_type))
		k.key = stage_get(st, c_type, &k.keylen);
	f = record_work(&scratch, e, &flags);
	k.comm = is_comm_kernel(f);
	k.group = &f->group;
	if (e->flops < 0 && e->bytes < 0 && (h = kernel_hostop()) != NULL) {
		stage_set_str(st, c_srcop, h->name);
		if (opts.by_type) {
			k.key = h->name;
			k.keylen = strlen(h->name);
		}
		if (h->used || (h->kind >= OPK_GEMM && h->kind <=
		    OPK_CONV_BWD_W && f->aux))
			stage_tag_add(tags, sizeof(tags), h->used ?
			    "op_shared" : "op_aux");
		else {
			h->used = 1;
			e->flops = h->flops;
			e->bytes = h->bytes;
			e->dt = h->dt;
			flags = h->flags;
		}
	}
	if (k.comm) {
		e->flops = e->bytes = -1;
		stage_tag_add(tags, sizeof(tags), "comm");
	}
	/*
	 * An fp32 GEMM that ran on TF32 tensor cores says so in its
	 * kernel name (cuBLAS/CUTLASS "s1688gemm", "tf32"): use that peak.
	 */
	if (e->dt == DT_FP32 && e->flops > 0 && f->tf32) {
		e->dt = DT_TF32;
		stage_tag_add(tags, sizeof(tags), "tf32_from_name");
	}
	k.flops = e->flops;
	k.bytes = e->bytes;
	k.dt = e->dt;
	k.est = (flags & (EF_FLOPS_EST | EF_BYTES_EST)) != 0;
	/* mostly the op's own estimate, its tags already made */
	if (tags[0] == '\0' && h == NULL && flags == f->flags)
		memcpy(tags, f->tags, f->tagslen + 1);
	else
		est_tags(tags, sizeof(tags), flags, h == NULL ? e->note :
		    NULL);
	if (!k.comm) {
		kernel_roof(&k, f, tags, sizeof(tags));
		kernel_pmu(&k, tags, sizeof(tags));
	}
	if (tags[0] != '\0')
		append_tags(tags);
	rf_sum_kernel(&k);
	stage_pass(st);
}

static void
do_pipe(void)
{
	size_t tn, nn;
	const char *track = stage_get(st, COL_TRACK, &tn);
	const char *name = stage_get(st, COL_NAME, &nn);
	const char *core = stage_get(st, c_core, NULL);

	if (stage_ts(st) == STAGE_NO_TS || stage_dur(st) < 0)
		return;
	rf_sum_pipe(stage_get(st, COL_DEV, NULL), core[0] != '\0' ? core :
	    track, rf_pipe_of(track, tn), stage_ts(st), stage_dur(st),
	    rf_is_sync_instr(name, nn));
}

/*
 * A device record (prof-ingest, Kineto deviceProperties) names the chip
 * when the user gave no peaks.  Timeless records come first, so this is
 * decided before any kernel.  One chip for the whole stream: the first
 * device's, with a tag when a later one has another name.
 */
static void
do_device(void)
{
	static char first[64];
	static int seen;
	const char *name = stage_get(st, COL_NAME, NULL), *chip;
	int64_t bytes;
	int absent;

	if (user_peaks || name[0] == '\0')
		return;
	if (seen) {
		if (strcmp(name, first) != 0 &&
		    strstr(peaks.tag, "mixed_devices") == NULL)
			stage_tag_add(peaks.tag, sizeof(peaks.tag),
			    "mixed_devices");
		return;
	}
	seen = 1;
	snprintf(first, sizeof(first), "%s", name);
	bytes = col_i64(c_value, &absent);
	if ((chip = rf_chip_of_device(name, absent ? -1 : bytes)) != NULL &&
	    rf_chip_set(&peaks, chip)) {
		stage_tag_add(peaks.tag, sizeof(peaks.tag), "chip_from_trace");
		return;
	}
	snprintf(peaks.device, sizeof(peaks.device), "%s", name);
	stage_tag_add(peaks.tag, sizeof(peaks.tag), "unknown_device");
	diag_warn("%s: device '%s' is not in the chip table: no peaks "
	    "(give -c or --peak-flops/--peak-bw)", diag_path(stage_path(st)),
	    name);
}

static void
run(const char *path, int argc, char *argv[])
{
	int64_t end;
	const char *dev;

	st = stage_open(path, argc, argv, added, sizeof(added) /
	    sizeof(added[0]));
	c_flops = stage_col(st, "flops");
	c_bytes = stage_col(st, "bytes");
	c_dtype = stage_col(st, "dtype");
	c_ai = stage_col(st, "ai");
	c_bound = stage_col(st, "bound");
	c_bsrc = stage_col(st, "bound_src");
	c_pipe = stage_col(st, "pipe_bound");
	c_pratio = stage_col(st, "pipe_ratio");
	c_mfu = stage_col(st, "mfu_ratio");
	c_bw = stage_col(st, "bw_ratio");
	c_roof = stage_col(st, "roofline_ns");
	c_short = stage_col(st, "shortfall_ns");
	c_srcop = stage_col(st, "src_op");
	c_tags = stage_col(st, "tags");
	c_type = stage_col(st, "type");
	c_core = stage_col(st, "core");
	c_step = stage_col(st, "step");
	c_cat = stage_col(st, "cat");
	c_ext = stage_col(st, "ext");
	c_corr = stage_col(st, "corr");
	c_pmu = stage_col(st, "pmu");
	c_ish = stage_col(st, "in_shapes");
	c_idt = stage_col(st, "in_dtypes");
	c_osh = stage_col(st, "out_shapes");
	c_odt = stage_col(st, "out_dtypes");
	c_labels = stage_col(st, "labels");
	c_value = stage_col(st, "value");
	memo_col[MK_NAME] = COL_NAME;
	memo_col[MK_TYPE] = c_type;
	memo_col[MK_ISH] = c_ish;
	memo_col[MK_IDT] = c_idt;
	memo_col[MK_OSH] = c_osh;
	memo_col[MK_ODT] = c_odt;
	rf_sum_opts(&opts);
	while (stage_next(st)) {
		/* the kind read once, not a stage_is() per kind: per record */
		size_t klen;
		const char *kind = stage_get(st, COL_KIND, &klen);

#define KIND_IS(s)	(klen == sizeof(s) - 1 && memcmp(kind, s, klen) == 0)
		if (KIND_IS("kernel")) {
			do_kernel();
			continue;
		}
		dev = stage_get(st, COL_DEV, NULL);
		if (KIND_IS("device"))
			do_device();
		else if (KIND_IS("host"))
			do_host();
		else if (KIND_IS("pipe"))
			do_pipe();
		else if (KIND_IS("window") && stage_dur(st) >= 0)
			rf_sum_window(dev, stage_get(st, c_step, NULL),
			    stage_ts(st), stage_dur(st));
		else if (KIND_IS("bubble") && stage_dur(st) > 0)
			rf_sum_bubble(dev, stage_get(st, c_step, NULL),
			    stage_ts(st), stage_dur(st), stage_get(st,
			    c_labels, NULL));
		else if (KIND_IS("comm") && stage_dur(st) > 0)
			rf_sum_comm(dev, stage_get(st, c_step, NULL),
			    stage_dur(st));
#undef KIND_IS
		stage_pass(st);
	}
	end = stage_end_ts(st) == STAGE_NO_TS ? 0 : stage_end_ts(st);
	rf_sum_write(st, &opts, &peaks, end);
	stage_close(st);
	free(ops);
	free(launches);
	while (nnests > 0)
		free(nests[--nnests].key);
	free(nests);
	memo_clear();
	free(memo);
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Class each kernel as compute-, memory- or latency-bound "
	    "against the chip's\npeaks, and say what bounds each step and "
	    "the run.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -c, --chip=NAME         the chip's peaks ('-c list' "
	    "prints the table)\n"
	    "  -f, --peaks-file=FILE   peaks from FILE (chip, dtype, "
	    "flops_per_s,\n"
	    "                          hbm_bytes_per_s per line)\n"
	    "      --peak-flops=DTYPE=N  peak FLOP/s for DTYPE (fp32, tf32, "
	    "bf16, fp16,\n"
	    "                          fp8, int8)\n"
	    "      --peak-bw=N         peak HBM bandwidth in bytes/s\n"
	    "  -a, --all-devs          one op record per op across all "
	    "devices\n"
	    "  -t, --by-type           group ops by type (or launching host "
	    "op)\n"
	    "      --tiny-ns=N         a kernel shorter than N ns is tiny "
	    "(default 10000)\n"
	    "      --latency-pct=P     latency-bound below P%% of the roof "
	    "(default 10)\n"
	    "      --pipe-pct=P        PMU: latency-bound when no pipe is "
	    "busy P%%\n"
	    "                          (default 50)\n"
	    "      --degenerate-ns=N   simulator: degenerate below N ns of "
	    "pipe work\n"
	    "                          (default 1000)\n"
	    "  -h, --help              display this help and exit\n"
	    "  -V, --version           output version information and "
	    "exit\n\n");
	printf("See prof-roofline(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

int
main(int argc, char **argv)
{
	enum { O_PEAKF = 256, O_PEAKBW, O_TINY, O_LAT, O_PIPE, O_DEGEN };
	static const struct option longopts[] = {
		{ "all-devs",	no_argument,		NULL, 'a' },
		{ "by-type",	no_argument,		NULL, 't' },
		{ "chip",	required_argument,	NULL, 'c' },
		{ "degenerate-ns", required_argument,	NULL, O_DEGEN },
		{ "help",	no_argument,		NULL, 'h' },
		{ "latency-pct", required_argument,	NULL, O_LAT },
		{ "peak-bw",	required_argument,	NULL, O_PEAKBW },
		{ "peak-flops",	required_argument,	NULL, O_PEAKF },
		{ "peaks-file",	required_argument,	NULL, 'f' },
		{ "pipe-pct",	required_argument,	NULL, O_PIPE },
		{ "tiny-ns",	required_argument,	NULL, O_TINY },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *chip = NULL, *file = NULL, *bw = NULL;
	char **pf = xcalloc((size_t)argc + 1, sizeof(*pf));
	size_t npf = 0, i;
	int c;

	cli_init("prof-roofline");
	while ((c = getopt_long(argc, argv, "ac:f:htV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'a':
			opts.all_devs = 1;
			break;
		case 'c':
			chip = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'h':
			usage();
			break;
		case 't':
			opts.by_type = 1;
			break;
		case 'V':
			cli_version();
			break;
		case O_PEAKF:
			pf[npf++] = optarg;
			break;
		case O_PEAKBW:
			bw = optarg;
			break;
		case O_TINY:
			opts.tiny_ns = cli_parse_i64(optarg, "--tiny-ns", 0,
			    INT64_MAX);
			break;
		case O_LAT:
			opts.latency_pct = cli_parse_i64(optarg,
			    "--latency-pct", 0, 100);
			break;
		case O_PIPE:
			opts.pipe_pct = cli_parse_i64(optarg, "--pipe-pct", 0,
			    100);
			break;
		case O_DEGEN:
			opts.degenerate_ns = cli_parse_i64(optarg,
			    "--degenerate-ns", 0, INT64_MAX);
			break;
		default:
			cli_try_help();
		}
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	user_peaks = chip != NULL || file != NULL || npf > 0 || bw != NULL;
	if (file != NULL)
		rf_peaks_file(&peaks, file);
	if (chip != NULL && strcmp(chip, "list") == 0) {
		rf_chip_list();
		free(pf);
		return EXIT_OK;
	}
	if (chip != NULL && !rf_chip_set(&peaks, chip))
		cli_usage_error("option '--chip': unknown chip '%s' (see "
		    "'-c list')", chip);
	for (i = 0; i < npf; i++)
		rf_peak_flops_opt(&peaks, pf[i]);
	free(pf);
	if (bw != NULL)
		peaks.bw = cli_parse_i64(bw, "--peak-bw", 1, INT64_MAX);
	if (peaks.name[0] == '\0' && (npf > 0 || bw != NULL))
		snprintf(peaks.name, sizeof(peaks.name), "custom");
	run(optind < argc ? argv[optind] : "-", argc, argv);
	return EXIT_OK;
}
