/*
 * prof-roofline: what a kernel record's op is, before any peak is
 * applied.  The FLOPs, bytes and intensity its name, type, shapes and
 * dtypes decide are worked out once per distinct op and kept in a memo
 * (a capture repeats a few hundred ops millions of times).  A Kineto
 * kernel carries no shapes: it gets those of the host operator that
 * launched it, found through its correlation id and the launch's
 * External id in two direct-mapped tables of recent ids (bounded memory;
 * ids are nearly sequential).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "hash.h"
#include "kclass.h"
#include "num.h"
#include "roofline.h"
#include "stage.h"
#include "tsv.h"
#include "xalloc.h"

static struct stage *st;

#define LINK_CAP	65536


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

int64_t
rf_col_i64(int col, int *absent)
{
	*absent = 1;
	if (col < 0 || stage_absent(st, col))
		return 0;
	return stage_i64(st, col, absent);
}

/*
 * The Kineto External id of the current record.  An XPlane's ext holds
 * key=value entries instead (prof-tsv(5)): no id, and no error.
 */
static int64_t
ext_id(int *absent)
{
	const struct rf_cols *cols = stage_columns(st);
	size_t n, i;
	const char *s;

	*absent = 1;
	if (cols->ext < 0 || stage_absent(st, cols->ext))
		return 0;
	s = stage_get(st, cols->ext, &n);
	for (i = s[0] == '-'; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return stage_i64(st, cols->ext, absent);
}

/* The shapes of the current record; 0 when it has none. */
static int
record_shapes(struct rf_shapes *s)
{
	const struct rf_cols *cols = stage_columns(st);
	size_t sl, dl;
	const char *sh = stage_get(st, cols->ish, &sl);
	const char *dt = stage_get(st, cols->idt, &dl);

	s->nin = s->nout = 0;
	if (sl > 0)
		s->nin = rf_parse_shapes(sh, sl, dt, dl, s->in);
	sh = stage_get(st, cols->osh, &sl);
	dt = stage_get(st, cols->odt, &dl);
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
	const struct rf_cols *cols = stage_columns(st);
	size_t n;
	const char *s = stage_get(st, cols->type, &n);
	int k = n > 0 ? rf_op_kind(s, n) : OPK_NONE;

	if (k == OPK_NONE) {
		s = stage_get(st, COL_NAME, &n);
		k = rf_op_kind(s, n);
	}
	return k;
}

static int aux_kernel(const char *);



/*
 * Add the tags of an estimate: FLAGS, and its NOTE when not NULL.  They
 * are fixed words, some 60 bytes at most: they always fit.
 */
void
rf_est_tags(char *tags, size_t cap, unsigned flags, const char *note)
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
	rf_est_tags(f->tags, sizeof(f->tags), f->flags, e->note);
	f->tagslen = strlen(f->tags);
	f->comm = kclass_comm_name(name, n);
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
	const struct rf_cols *cols = stage_columns(st);
	const int col[MK_N] = {	/* the columns of the key */
		[MK_NAME] = COL_NAME, [MK_TYPE] = cols->type,
		[MK_ISH] = cols->ish, [MK_IDT] = cols->idt,
		[MK_OSH] = cols->osh, [MK_ODT] = cols->odt
	};
	const char *v[MK_N];
	size_t len[MK_N], total = 0, i, j, off;
	uint64_t h;
	struct memo *m;

	for (j = 0; j < MK_N; j++) {
		v[j] = stage_get(st, col[j], &len[j]);
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
struct opfacts *
rf_record_work(struct opfacts *scratch, struct rf_est *e, unsigned *flags)
{
	const struct rf_cols *cols = stage_columns(st);
	int fa, ba;
	int64_t fl = rf_col_i64(cols->flops, &fa);
	int64_t b = rf_col_i64(cols->bytes, &ba);
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

	rf_record_work(&scratch, &e, &flags);
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

void
rf_do_host(void)
{
	const struct rf_cols *cols = stage_columns(st);
	int ea, ca;
	int64_t ext = ext_id(&ea), corr = rf_col_i64(cols->corr, &ca);
	size_t n;
	const char *name = stage_get(st, COL_NAME, &n);

	if (!ca && strcmp(stage_get(st, cols->cat, NULL), "cpu_op") != 0)
		do_launch(corr, ext, !ea);
	else if (!ea)
		do_hostop(ext);
	/*
	 * Host synchronisation calls, for the bottleneck rule
	 * (cudaDeviceSynchronize, aclrtSynchronizeStream, ...).
	 */
	if (stage_dur(st) > 0 && strstr(name, "Synchronize") != NULL)
		rf_sum_sync(stage_get(st, COL_DEV, NULL), stage_get(st,
		    cols->step, NULL), stage_dur(st));
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
struct hostop *
rf_kernel_hostop(void)
{
	const struct rf_cols *cols = stage_columns(st);
	int ea, ca;
	int64_t ext = ext_id(&ea), corr = rf_col_i64(cols->corr, &ca);
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

/* A communication kernel: core HCCL or COMMUNICATION, or by its name. */
int
rf_is_comm_kernel(const struct opfacts *f)
{
	const struct rf_cols *cols = stage_columns(st);
	size_t n;
	const char *core = stage_get(st, cols->core, &n);

return kclass_comm_core(core, n) || f->comm;
}

void
rf_ops_open(struct stage *s)
{
	st = s;
}

void
rf_ops_close(void)
{
	free(ops);
	free(launches);
	while (nnests > 0)
		free(nests[--nnests].key);
	free(nests);
	memo_clear();
	free(memo);
}
