/*
 * prof-waitanchor: the op table and the summary op records.
 *
 * One entry per distinct op (dev, name and, with --by-shape, input
 * shapes), holding integer sums only; averages, ratios and ranks are
 * made once at the end, exactly, from those sums.
 */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "hash.h"
#include "num.h"
#include "stage.h"
#include "waitanchor.h"
#include "xalloc.h"

void
wa_map_init(struct wa_map *m)
{
	memset(m, 0, sizeof(*m));
	devtab_init(&m->devs, sizeof(struct strtab));
}

/* Whether NAME is a communication kernel's (hcom, HCCL, NCCL). */
int
wa_is_comm_name(const char *name, size_t len)
{
	static const char *const pat[] = { "hcom", "hccl", "nccl" };
	size_t i, p;

	for (i = 0; i + 4 <= len; i++)
		for (p = 0; p < 3; p++)
			if (strncasecmp(name + i, pat[p], 4) == 0)
				return 1;
	return 0;
}

/* The entry of NAME (NL bytes) of DEV (DL bytes) in M, made when new. */
static struct nament *
name_of(struct wa_map *m, const char *dev, size_t dl, const char *name,
    size_t nl)
{
	struct strtab *names;
	struct nament **at;
	int isnew;

	names = devtab_get(&m->devs, dev, dl, &isnew);
	if (isnew)
		strtab_init(names, sizeof(struct nament *));
	at = strtab_val(names, strtab_intern(names, name, nl, &isnew));
	if (!isnew)
		return *at;
	*at = xcalloc(1, sizeof(**at));
	strtab_init(&(*at)->ops, sizeof(struct opent *));
	if (m->nnames == m->capnames) {
		m->capnames = m->capnames ? 2 * m->capnames : 64;
		m->names = xreallocarray(m->names, m->capnames,
		    sizeof(*m->names));
	}
	m->names[m->nnames++] = *at;
	return *at;
}

/*
 * The op of a kernel, made on first sight with its name entry.  SL is
 * 0 unless ops are keyed by shapes; DL is 0 with --all-devs.
 */
struct opent *
wa_op(struct wa_map *m, const char *dev, size_t dl, const char *name,
    size_t nl, const char *sh, size_t sl)
{
	struct nament *nm = name_of(m, dev, dl, name, nl);
	struct opent *op, **at;
	size_t len = dl + nl + sl + 2;
	int isnew;

	at = strtab_val(&nm->ops, strtab_intern(&nm->ops, sh, sl, &isnew));
	if (!isnew)
		return *at;
	op = *at = xcalloc(1, sizeof(*op));
	op->key = xmalloc(len + 1);	/* shapes NUL-terminated too */
	memcpy(op->key, dev, dl);
	op->key[dl] = '\0';
	memcpy(op->key + dl + 1, name, nl);
	op->key[dl + 1 + nl] = '\0';
	memcpy(op->key + dl + nl + 2, sh, sl);
	op->key[len] = '\0';
	op->dev = op->key;
	op->name = op->key + dl + 1;
	op->shapes = op->key + dl + nl + 2;
	op->nm = nm;
	if (wa_is_comm_name(name, nl))
		op->flags |= OPF_COMM;
	if (m->nops == m->capops) {
		m->capops = m->capops ? 2 * m->capops : 256;
		m->ops = xreallocarray(m->ops, m->capops, sizeof(*m->ops));
	}
	m->ops[m->nops++] = op;
	return op;
}

/* What a kernel of OP on CORE is (the name can make it communication). */
static int
core_class(const struct opent *op, const char *core)
{
	if ((op->flags & OPF_COMM) || strcmp(core, "HCCL") == 0 ||
	    strcmp(core, "COMMUNICATION") == 0)
		return WA_COMM;
	return strcmp(core, "AI_CPU") == 0 ? WA_AICPU : WA_COMPUTE;
}

/*
 * Count the core a call ran on (the op reports the most frequent) and
 * return the kernel's class, worked out once per op and core.
 */
int
wa_op_core(struct opent *op, const char *core)
{
	size_t i;

	if (core[0] == '\0')
		return core_class(op, core);
	for (i = 0; i < OP_NCORES && op->core[i] != NULL; i++)
		if (strcmp(op->core[i], core) == 0) {
			op->core_n[i]++;
			return op->core_cls[i];
		}
	if (i == OP_NCORES)
		return core_class(op, core);
	op->core[i] = xstrdup(core);
	op->core_n[i] = 1;
	op->core_cls[i] = (unsigned char)core_class(op, core);
	return op->core_cls[i];
}

/* Compare the step just finished with the group's first step. */
static void
vgroup_close(struct nament *nm, struct vgroup *g)
{
	if (g->cur_cnt == 0)
		return;
	if (!g->ref_set) {
		g->ref_sum = g->cur_sum;
		g->ref_cnt = g->cur_cnt;
		g->ref_set = 1;
	} else if (g->cur_cnt == g->ref_cnt && g->cur_sum != g->ref_sum)
		nm->variable = 1;
	g->cur_sum = g->cur_cnt = 0;
}

static struct vgroup *
vgroup_of(struct nament *nm, const char *dev, const char *group)
{
	struct vgroup *g;
	size_t i;

	if (nm->ngroups > 0) {
		g = &nm->groups[nm->last];
		if (strcmp(g->dev, dev) == 0 && strcmp(g->group, group) == 0)
			return g;
	}
	for (i = 0; i < nm->ngroups; i++) {
		g = &nm->groups[i];
		if (strcmp(g->dev, dev) == 0 && strcmp(g->group, group) == 0) {
			nm->last = i;
			return g;
		}
	}
	nm->groups = xreallocarray(nm->groups, nm->ngroups + 1,
	    sizeof(*nm->groups));
	g = &nm->groups[nm->ngroups];
	memset(g, 0, sizeof(*g));
	g->dev = xstrdup(dev);
	g->group = xstrdup(group);
	g->step = xstrdup("");
	nm->last = nm->ngroups++;
	return g;
}

/*
 * Add one call of the name with input shapes SH (LEN bytes) in STEP of
 * the step group GROUP on DEV.  A step's shapes are a multiset (sum of
 * hashes), so the order of calls on several streams does not matter.
 */
void
wa_vshape(struct nament *nm, const char *dev, const char *group,
    const char *step, const char *sh, size_t len)
{
	struct vgroup *g = vgroup_of(nm, dev, group);

	if (strcmp(g->step, step) != 0) {
		vgroup_close(nm, g);
		free(g->step);
		g->step = xstrdup(step);
	}
	g->cur_sum += hash_bytes(sh, len, 0);
	g->cur_cnt++;
}

/* Close the last step of every group. */
void
wa_vshape_finish(struct wa_map *m)
{
	size_t i, j;
	struct nament *nm;

	for (i = 0; i < m->nnames; i++) {
		nm = m->names[i];
		for (j = 0; j < nm->ngroups; j++)
			vgroup_close(nm, &nm->groups[j]);
	}
}

static int rank_total;		/* for the comparators below */

/*
 * -1, 0, 1 as X / A is above, equal to, below Y / B (A, B > 0), exactly:
 * the quotients, then the remainders' fractions, whose cross products
 * stay below A * B, within 128 bits (a cross product of the sums would
 * not).
 */
static int
cmp_avg(__int128 x, uint64_t a, __int128 y, uint64_t b)
{
	__int128 qx = x / a, qy = y / b, rx = x % a, ry = y % b;

	/* floor, not truncation: a negative wait makes a sum negative */
	if (rx < 0) {
		rx += a;
		qx--;
	}
	if (ry < 0) {
		ry += b;
		qy--;
	}
	if (qx != qy)
		return qx > qy ? -1 : 1;
	rx *= b;
	ry *= a;
	return rx > ry ? -1 : rx < ry ? 1 : 0;
}

/* -1, 0, 1 as A's cost (or duration, DUR) is above, equal, below B's. */
static int
cmp_measure(const struct opent *a, const struct opent *b, int dur)
{
	__int128 x = dur ? a->dur_sum : a->dur_sum + a->wait_sum;
	__int128 y = dur ? b->dur_sum : b->dur_sum + b->wait_sum;

	if (!rank_total)
		return cmp_avg(x, a->calls, y, b->calls);
	return x > y ? -1 : x < y ? 1 : 0;
}

static int
cmp_ident(const struct opent *a, const struct opent *b)
{
	int c = strcmp(a->name, b->name);

	return c != 0 ? c : strcmp(a->shapes, b->shapes);
}

/* Order by device, then by the measure (dearest first), then by name. */
static int
cmp_by(const void *pa, const void *pb, int dur)
{
	const struct opent *a = *(struct opent *const *)pa;
	const struct opent *b = *(struct opent *const *)pb;
	int c = devtab_cmp(a->dev, b->dev);

	if (c == 0)
		c = cmp_measure(a, b, dur);
	return c != 0 ? c : cmp_ident(a, b);
}

static int
by_cost(const void *pa, const void *pb)
{
	return cmp_by(pa, pb, 0);
}

static int
by_dur(const void *pa, const void *pb)
{
	return cmp_by(pa, pb, 1);
}

static int
by_rank(const void *pa, const void *pb)
{
	const struct opent *a = *(struct opent *const *)pa;
	const struct opent *b = *(struct opent *const *)pb;
	int c = devtab_cmp(a->dev, b->dev);

	if (c == 0)
		c = a->rank_cost < b->rank_cost ? -1 : a->rank_cost >
		    b->rank_cost;
	return c;
}

/* Sort V by CMP and number each device's ops 1, 2, ... into *RANK. */
static void
rank_ops(struct opent **v, size_t n, int (*cmp)(const void *,
    const void *), int dur)
{
	size_t i;
	int64_t r = 0;

	qsort(v, n, sizeof(*v), cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(v[i]->dev, v[i - 1]->dev) != 0)
			r = 0;
		if (dur)
			v[i]->rank_dur = ++r;
		else
			v[i]->rank_cost = ++r;
	}
}

/*
 * The class of an overlap OV out of a duration D > 0 (doc/analysis-
 * rules.md, AI CPU overlap classes).
 */
const char *
wa_aicpu_class(__int128 ov, __int128 d)
{
	if (10 * ov >= 9 * d)
		return "AICPU_MASKED_BUT_UNDESIRABLE";
	if (5 * ov < d)
		return "AICPU_EXPOSED_NOT_ALLOWED";
	return "AICPU_PARTIALLY_EXPOSED";
}

/*
 * The op's tags, in a fixed order.  The wait anchor test is the
 * reference script's score_wait_anchor on the per-op averages
 * (doc/analysis-rules.md, Wait anchors): wait ratio
 * above 0.95, average duration below 10 us, cost rank within TOP; the
 * comparisons are made on the integer sums, exactly.
 */
static void
op_tags(const struct opent *op, int64_t top, char *buf, size_t cap)
{
	__int128 w = op->wait_sum, c = op->dur_sum + op->wait_sum;

	buf[0] = '\0';
	if (op->wait_calls > 0 && c > 0 && 100 * w > 95 * c &&
	    op->dur_sum < (__int128)10000 * op->calls && op->rank_cost <= top)
		stage_tag_add(buf, cap, "WAIT_ANCHOR_FALSE_HOTSPOT");
	if (op->wait_calls > 0 && c > 0 && 10 * w > 8 * c)
		stage_tag_add(buf, cap, "WAIT_HEAVY");
	if (op->rank_cost <= top && op->rank_dur > top)
		stage_tag_add(buf, cap, "RANK_DISAGREEMENT");
	if (op->flags & OPF_POLLUTED) {
		stage_tag_add(buf, cap, "WAIT_POLLUTION_RISK");
		stage_tag_add(buf, cap, "wait_not_reliable_for_rootcause");
	}
	if (op->ai_calls > 0)
		stage_tag_add(buf, cap, wa_aicpu_class(op->ai_overlap, op->ai_dur));
	if (op->flags & OPF_EXPOSED)
		stage_tag_add(buf, cap, "AICPU_EXPOSED_RISK");
	if (op->nm->variable)
		stage_tag_add(buf, cap, "VARIABLE_SHAPE_SAME_TEMPLATE");
}

static const char *
main_core(const struct opent *op)
{
	size_t i, best = 0;

	for (i = 1; i < OP_NCORES && op->core[i] != NULL; i++)
		if (op->core_n[i] > op->core_n[best])
			best = i;
	return op->core[best];
}

/*
 * A total of the op, in column NAME, when it is an int64 as prof-tsv(5)
 * wants an integer field; else the field stays empty and the stage
 * fails at its end, the rest written.
 */
static void
set_total(struct stage *st, struct srec *r, const struct opent *op,
    int col, const char *name, __int128 v)
{
	char buf[NUM_BUFSIZE];

	if (v >= INT64_MIN && v <= INT64_MAX) {
		srec_set_i64(r, col, (int64_t)v);
		return;
	}
	num_ratio_i128(buf, v, 1, 0);
	stage_error(st, "op '%s' of dev '%s': %s of %s ns is past 64-bit "
	    "nanoseconds: left empty", op->name, op->dev, name, buf);
}

/* Write the summary record of one op. */
static void
write_op(struct stage *st, const struct opent *op, const struct wa_opts *o,
    int64_t end)
{
	const struct wa_cols *c = stage_columns(st);
	struct srec *r = stage_new(st, "op", end);
	__int128 cost = op->dur_sum + op->wait_sum;
	char tags[512];

	srec_set_str(r, COL_DEV, op->dev);
	srec_set_str(r, COL_NAME, op->name);
	if (c->core >= 0 && op->core[0] != NULL)
		srec_set_str(r, c->core, main_core(op));
	if (o->by_type && c->type >= 0)
		srec_set_str(r, c->type, op->name);
	if (o->by_shape && c->shapes >= 0)
		srec_set_str(r, c->shapes, op->shapes);
	srec_set_i64(r, c->calls, (int64_t)op->calls);
	set_total(st, r, op, c->dur_total, "dur_total_ns", op->dur_sum);
	srec_set_ratio(r, c->dur_avg, op->dur_sum, op->calls);
	if (op->wait_calls > 0) {
		srec_set_ratio(r, c->wait_avg, op->wait_sum, op->calls);
		if (cost > 0)
			srec_set_ratio(r, c->wait_ratio, op->wait_sum, cost);
		else
			srec_set_str(r, c->wait_ratio, "0");
	}
	srec_set_ratio(r, c->cost_avg, cost, op->calls);
	set_total(st, r, op, c->cost_total, "cost_total_ns", cost);
	srec_set_i64(r, c->rank_cost, op->rank_cost);
	srec_set_i64(r, c->rank_dur, op->rank_dur);
	if (op->ai_calls > 0)
		srec_set_ratio(r, c->masked, op->ai_overlap, op->ai_dur);
	op_tags(op, o->top, tags, sizeof(tags));
	if (tags[0] != '\0')
		srec_set_str(r, c->tags, tags);
	stage_put(st, r);
}

/*
 * Rank every device's ops both ways, then write them per device in
 * cost rank order, at END (the end of the capture).
 */
size_t
wa_summary(struct stage *st, struct wa_map *m, const struct wa_opts *o,
    int64_t end)
{
	struct opent **v = xreallocarray(NULL, m->nops + 1, sizeof(*v));
	size_t i, n = m->nops;

	if (n > 0)
		memcpy(v, m->ops, n * sizeof(*v));
	rank_total = o->rank_total;
	rank_ops(v, n, by_dur, 1);
	rank_ops(v, n, by_cost, 0);
	qsort(v, n, sizeof(*v), by_rank);
	for (i = 0; i < n; i++)
		write_op(st, v[i], o, end);
	free(v);
	return n;
}

/* Free the table, its names and its ops. */
void
wa_map_free(struct wa_map *m)
{
	size_t i, j;

	for (i = 0; i < m->nops; i++) {
		for (j = 0; j < OP_NCORES; j++)
			free(m->ops[i]->core[j]);
		free(m->ops[i]->key);
		free(m->ops[i]);
	}
	for (i = 0; i < m->nnames; i++) {
		struct nament *nm = m->names[i];

		for (j = 0; j < nm->ngroups; j++) {
			free(nm->groups[j].dev);
			free(nm->groups[j].group);
			free(nm->groups[j].step);
		}
		free(nm->groups);
		strtab_free(&nm->ops);
		free(nm);
	}
	for (i = 0; i < m->devs.n; i++)
		strtab_free(m->devs.v[i].item);
	devtab_free(&m->devs);
	free(m->ops);
	free(m->names);
}
