/*
 * prof-layers: what is summed over the whole capture, per dev, and the
 * summary records written at the end: per layer type the variation of
 * layer wall time, the functional role groups and one collapsed kernel
 * sequence; per stream its role; the communication/compute overlap.
 * Everything kept here is small (one wall time per layer, one sequence
 * per layer type, a few intervals), so memory stays bounded by a pass.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ival.h"
#include "layers.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

/* Intervals kept in a run before the prefix that is final is summed. */
#define LRUN_CUT	256

/* Mean of N values, rounded down (0 for none). */
int64_t
mean_of(const int64_t *v, size_t n)
{
	__int128 sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n > 0 ? (int64_t)(sum / (__int128)n) : 0;
}

/* Median of N values (sorted in place), rounded down to an integer. */
int64_t
median_of(int64_t *v, size_t n)
{
	int64_t twice;

	if (n == 0)
		return 0;
	num_sort(v, n);
	num_median(v, n, &twice);
	return twice / 2;
}

/* Room for the overlap of every pair of N streams (N x N, row-major). */
static void
pair_grow(struct ldev *d, size_t n)
{
	int64_t *m;
	size_t i, j, cap = d->paircap;

	if (n <= cap)
		return;
	while (cap < n)
		cap = cap ? 2 * cap : 4;
	m = xcalloc(cap * cap, sizeof(*m));
	for (i = 0; i < d->paircap; i++)
		for (j = 0; j < d->paircap; j++)
			m[i * cap + j] = d->pair[i * d->paircap + j];
	free(d->pair);
	d->pair = m;
	d->paircap = cap;
}

uint32_t
stream_of(struct ldev *d, const char *track, size_t len)
{
	size_t i;

	for (i = 0; i < d->nstreams; i++)
		if (strlen(d->streams[i].track) == len &&
		    memcmp(d->streams[i].track, track, len) == 0)
			return (uint32_t)i;
	d->streams = xreallocarray(d->streams, d->nstreams + 1,
	    sizeof(*d->streams));
	memset(&d->streams[d->nstreams], 0, sizeof(*d->streams));
	d->streams[d->nstreams].track = xstrndup(track, len);
	pair_grow(d, d->nstreams + 1);
	return (uint32_t)d->nstreams++;
}

const char *
stream_name(const struct ldev *d, uint32_t i)
{
	return d->streams[i].track;
}

static void
lrun_add(struct lrun *r, int64_t s, int64_t e)
{
	if (r->n > 0 && s <= r->e[r->n - 1]) {
		if (e > r->e[r->n - 1])
			r->e[r->n - 1] = e;
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->s = xreallocarray(r->s, r->cap, sizeof(*r->s));
		r->e = xreallocarray(r->e, r->cap, sizeof(*r->e));
	}
	r->s[r->n] = s;
	r->e[r->n++] = e;
}

/* Copy the part of R before T into IV; returns the count. */
static size_t
lrun_before(const struct lrun *r, int64_t t, struct ival *iv)
{
	size_t i, n = 0;

	for (i = 0; i < r->n && r->s[i] < t; i++) {
		iv[n].s = r->s[i];
		iv[n++].e = r->e[i] < t ? r->e[i] : t;
	}
	return n;
}

/* Drop the part of R before T. */
static void
lrun_trim(struct lrun *r, int64_t t)
{
	size_t i, j;

	for (i = j = 0; i < r->n; i++) {
		if (r->e[i] <= t)
			continue;
		r->s[j] = r->s[i] > t ? r->s[i] : t;
		r->e[j++] = r->e[i];
	}
	r->n = j;
}

/* The part of R before T as intervals (freed by the caller). */
static struct ival *
run_ivals(const struct lrun *r, int64_t t, size_t *n)
{
	struct ival *iv = xreallocarray(NULL, r->n + 1, sizeof(*iv));

	*n = lrun_before(r, t, iv);
	return iv;
}

/*
 * Sum what lies before T: no interval that starts at or after T can
 * change the unions or the overlaps there.  Communication against
 * compute for the overlap ratio, and every stream against every other
 * for the table of which stream overlaps which.
 */
static void
overlap_cut(struct ldev *d, int64_t t)
{
	size_t na, nb, i, j, ns = d->nstreams;
	struct ival *a = run_ivals(&d->comm, t, &na);
	struct ival *b = run_ivals(&d->comp, t, &nb);
	struct ival **sv = xreallocarray(NULL, ns + 1, sizeof(*sv));
	size_t *sn = xreallocarray(NULL, ns + 1, sizeof(*sn));

	d->comm_union += ival_total(a, na);
	d->comm_overlap += ival_overlap(a, na, b, nb);
	lrun_trim(&d->comm, t);
	lrun_trim(&d->comp, t);
	free(a);
	free(b);
	for (i = 0; i < ns; i++) {
		sv[i] = run_ivals(&d->streams[i].run, t, &sn[i]);
		d->streams[i].busy += ival_total(sv[i], sn[i]);
		lrun_trim(&d->streams[i].run, t);
	}
	for (i = 0; i < ns; i++)
		for (j = i + 1; j < ns; j++)
			if (sn[i] > 0 && sn[j] > 0)
				d->pair[i * d->paircap + j] += ival_overlap(
				    sv[i], sn[i], sv[j], sn[j]);
	for (i = 0; i < ns; i++)
		free(sv[i]);
	free(sv);
	free(sn);
	d->nruns = 0;
}

/*
 * Every kernel of the dev, in input order: stream statistics and the
 * two unions of the overlap ratio (communication kernels; compute
 * kernels, which are neither communication, memory nor AI CPU ones).
 */
void
sum_kernel(struct ldev *d, const struct lkern *k, unsigned flags)
{
	struct lstream *s = &d->streams[k->track];
	int64_t dur = k->e - k->s;
	int role = names_get(k->name)->role;

	s->n++;
	s->sum = num_sat_add(s->sum, dur);
	d->nkernels++;
	if (flags & NF_COMM) {
		s->comm = num_sat_add(s->comm, dur);
		d->comm_sum = num_sat_add(d->comm_sum, dur);
		lrun_add(&d->comm, k->s, k->e);
	} else if (flags & NF_AICPU)
		s->aicpu = num_sat_add(s->aicpu, dur);
	else if (role != ROLE_MEM)
		lrun_add(&d->comp, k->s, k->e);
	lrun_add(&s->run, k->s, k->e);
	if (++d->nruns > LRUN_CUT)
		overlap_cut(d, k->s);
}

/* The collapsed kernel sequence of a layer: runs of a name on a stream. */
static void
set_seq(struct ltype *ty, const struct lkern *k, size_t n)
{
	size_t i, m = 0;

	ty->seq_name = xreallocarray(ty->seq_name, n + 1, sizeof(uint32_t));
	ty->seq_track = xreallocarray(ty->seq_track, n + 1, sizeof(uint32_t));
	ty->seq_rep = xreallocarray(ty->seq_rep, n + 1, sizeof(uint32_t));
	ty->seq_dur = xreallocarray(ty->seq_dur, n + 1, sizeof(int64_t));
	for (i = 0; i < n; i++) {
		if (m > 0 && ty->seq_name[m - 1] == k[i].name &&
		    ty->seq_track[m - 1] == k[i].track) {
			ty->seq_rep[m - 1]++;
			ty->seq_dur[m - 1] += k[i].e - k[i].s;
			continue;
		}
		ty->seq_name[m] = k[i].name;
		ty->seq_track[m] = k[i].track;
		ty->seq_rep[m] = 1;
		ty->seq_dur[m++] = k[i].e - k[i].s;
	}
	ty->nseq = m;
}

/*
 * A layer of type T closed: its N kernels K, its span [TS, END), and
 * whether it is complete (not the last of its pass, whose end is an
 * estimate).  Role busy time is the union of the role's kernels within
 * the span, per layer.
 */
void
sum_layer(struct ldev *d, int t, const struct lkern *k, size_t n,
    int64_t ts, int64_t end, int64_t ksum, int64_t busy, int complete)
{
	struct ltype *ty = ldev_pend(d, t);
	struct ival *iv = cost_scratch(n + 1);
	unsigned present = 0;
	size_t i, m;
	int r;

	if (ty->n == ty->cap) {
		ty->cap = ty->cap ? 2 * ty->cap : 64;
		ty->wall = xreallocarray(ty->wall, ty->cap, sizeof(int64_t));
		ty->kcount = xreallocarray(ty->kcount, ty->cap,
		    sizeof(int64_t));
	}
	ty->kcount[ty->n] = (int64_t)n;
	ty->wall[ty->n++] = end - ts;
	ty->wall_sum += end - ts;
	ty->ksum += ksum;
	ty->busy += busy;
	for (i = 0; i < n; i++)
		present |= 1u << names_get(k[i].name)->role;
	for (r = 0; r < NROLES; r++) {
		if (!(present & (1u << r)))
			continue;
		for (i = m = 0; i < n; i++) {
			if (names_get(k[i].name)->role != r)
				continue;
			iv[m].s = k[i].s;
			iv[m++].e = k[i].e < end ? k[i].e : end;
			ty->role_sum[r] += k[i].e - k[i].s;
			ty->role_n[r]++;
		}
		ty->role_busy[r] += busy_sorted(iv, m, NULL);
	}
	if (ty->nseq == 0 || (!ty->seq_final && complete)) {
		set_seq(ty, k, n);
		ty->seq_final = complete;
		ty->seq_pass = d->pass_idx;
		ty->seq_layer = d->layer_idx;
	}
}

/* Move the sequence of F into T. */
static void
seq_move(struct ltype *t, struct ltype *f)
{
	free(t->seq_name);
	free(t->seq_track);
	free(t->seq_rep);
	free(t->seq_dur);
	t->seq_name = f->seq_name;
	t->seq_track = f->seq_track;
	t->seq_rep = f->seq_rep;
	t->seq_dur = f->seq_dur;
	t->nseq = f->nseq;
	t->seq_final = f->seq_final;
	t->seq_pass = f->seq_pass;
	t->seq_layer = f->seq_layer;
	f->seq_name = f->seq_track = f->seq_rep = NULL;
	f->seq_dur = NULL;
	f->nseq = 0;
	f->seq_final = 0;
}

/*
 * Count a layer of WALL ns and KC kernels in a pass's type: its medians
 * exact up to TYPE_EXACT layers, then within 1/MEDQ_SUB (the record is
 * tagged median_approx), and the sum of squares for the variation in
 * 128 bits, or in long double once even that overflows.
 */
#define TYPE_EXACT	65536

static void
type_add(struct ltype *to, int64_t wall, int64_t kc)
{
	unsigned __int128 sq = (unsigned __int128)(wall < 0 ? -(__int128)wall :
	    wall) * (unsigned __int128)(wall < 0 ? -(__int128)wall : wall);

	if (to->n == 0 || wall < to->wall_min)
		to->wall_min = wall;
	if (to->n == 0 || wall > to->wall_max)
		to->wall_max = wall;
	to->n++;
	medq_add(&to->wall_med, wall, TYPE_EXACT);
	medq_add(&to->kc_med, kc, TYPE_EXACT);
	if (!to->sq_over && to->wall_sq > ~(unsigned __int128)0 - sq) {
		to->sq_over = 1;
		to->sq_approx = (long double)to->wall_sq;
	}
	if (to->sq_over)
		to->sq_approx += (long double)wall * (long double)wall;
	else
		to->wall_sq += sq;
}

/*
 * The open pass closed with phase PH: its layers join the summaries of
 * their (phase, type), since a backward or decode layer is not a
 * forward or prefill one of the same type.
 */
void
sum_pass(struct ldev *d, int ph)
{
	int t, r;

	for (t = 0; t < NLTYPES; t++) {
		struct ltype *f = ldev_pend(d, t), *to = ldev_type(d, ph, t);
		size_t i;

		for (i = 0; i < f->n; i++)
			type_add(to, f->wall[i], f->kcount[i]);
		to->wall_sum += f->wall_sum;
		to->ksum += f->ksum;
		to->busy += f->busy;
		to->cost += f->cost;
		to->idle += f->idle;
		to->gap += f->gap;
		for (r = 0; r < NPARTS; r++) {
			to->pbusy[r] += f->pbusy[r];
			to->psum[r] += f->psum[r];
			to->pcost[r] += f->pcost[r];
			f->pbusy[r] = f->psum[r] = f->pcost[r] = 0;
		}
		f->cost = f->idle = f->gap = 0;
		for (r = 0; r < NROLES; r++) {
			to->role_busy[r] += f->role_busy[r];
			to->role_sum[r] += f->role_sum[r];
			to->role_n[r] += f->role_n[r];
			f->role_busy[r] = f->role_sum[r] = 0;
			f->role_n[r] = 0;
		}
		if (f->nseq > 0 && (to->nseq == 0 || (!to->seq_final &&
		    f->seq_final)))
			seq_move(to, f);
		f->nseq = 0;
		f->seq_final = 0;
		f->n = 0;
		f->wall_sum = f->ksum = f->busy = 0;
	}
}

static struct srec *
summary(struct ldev *d, const char *kind, const char *name)
{
	struct srec *r = stage_new(lst, kind, stage_end_ts(lst));

	srec_set_str(r, COL_DEV, d->name);
	srec_set_str(r, COL_NAME, name);
	return r;
}

static void
metric(struct ldev *d, const char *name, int64_t v)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct srec *r = summary(d, "metric", name);

	srec_set_i64(r, cols->value, v);
	stage_put(lst, r);
}

static void
metric_ratio(struct ldev *d, const char *name, int64_t num, int64_t den)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct srec *r = summary(d, "metric", name);

	srec_set_ratio(r, cols->value, num, den);
	stage_put(lst, r);
}

/* Integer square root (floor). */
static int64_t
isqrt(__int128 v)
{
	int64_t x = 0, b = (int64_t)1 << 62;
	__int128 t;

	for (; b > 0; b >>= 1) {
		t = (__int128)(x + b) * (x + b);
		if (t <= v)
			x += b;
	}
	return x;
}

/* Square root by Newton's method from above (no libm for one call). */
static long double
sqrt_ld(long double v)
{
	long double x, y;
	int i;

	if (v <= 0)
		return 0;
	x = v > 1 ? v : 1;
	for (i = 0; i < 256; i++) {
		y = (x + v / x) / 2;
		if (y >= x)
			break;
		x = y;
	}
	return x;
}

/*
 * The coefficient of variation of a type's layer walls: the population
 * standard deviation, rounded down to the nanosecond, over the mean.
 * With S the sum and Q the sum of squares of the n walls,
 * n Q - S^2 = n^2 sd^2, so n sd = sqrt(n Q - S^2) and cv = n sd / S;
 * n sd is taken to a millionth of a nanosecond where that fits.  Walls
 * so long that Q overflows 128 bits (hours, thousands of layers) give
 * a cv from long double arithmetic.
 */
static void
put_cv(struct srec *r, const struct ltype *ty, int64_t n)
{
	const struct layers_cols *cols = stage_columns(lst);
	const unsigned __int128 umax = ~(unsigned __int128)0;
	unsigned __int128 nq, s2;
	__int128 scale = 1000000, var;
	int64_t q = 1000000;

	s2 = (unsigned __int128)((__int128)ty->wall_sum * ty->wall_sum);
	nq = (unsigned __int128)n * ty->wall_sq;
	if (ty->sq_over || ty->wall_sq > umax / (unsigned __int128)n ||
	    nq - s2 > umax >> 1) {
		long double sq = ty->sq_over ? ty->sq_approx :
		    (long double)ty->wall_sq;
		long double v = (long double)n * sq -
		    (long double)ty->wall_sum * (long double)ty->wall_sum;

		srec_set_ratio(r, cols->cv, (int64_t)(sqrt_ld(v) /
		    (long double)ty->wall_sum * 1000000), 1000000);
		return;
	}
	var = (__int128)(nq - s2);
	if (var >= (__int128)10000000000000 * 1000000000000 ||
	    ty->wall_sum > INT64_MAX / q)
		scale = q = 1;
	srec_set_ratio(r, cols->cv, isqrt(var * scale * scale),
	    ty->wall_sum * q);
}

/*
 * Layer-to-layer variation of a type: min, median and max wall time and
 * the coefficient of variation (population standard deviation, rounded
 * down to the nanosecond, over the mean).
 */
static void
put_type(struct ldev *d, int ph, int t)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct ltype *ty = ldev_type(d, ph, t);
	struct srec *r = summary(d, "layer_type", ltype_names[t]);
	__int128 med2;
	int64_t n = (int64_t)ty->n;
	int p, approx, kapprox;

	srec_set_str(r, cols->ltype, ltype_names[t]);
	srec_set_str(r, cols->phase, phase_names[ph]);
	srec_set_i64(r, cols->value, n);
	srec_set_i64(r, cols->min, ty->wall_min);
	medq_median2(&ty->wall_med, &med2, &approx);
	srec_set_i64(r, cols->median, (int64_t)(med2 / 2));
	srec_set_i64(r, cols->max, ty->wall_max);
	if (ty->wall_sum > 0)
		put_cv(r, ty, n);
	srec_set_i64(r, cols->ksum, ty->ksum);
	srec_set_i64(r, cols->busy, ty->busy);
	medq_median2(&ty->kc_med, &med2, &kapprox);
	srec_set_i64(r, cols->kcount, (int64_t)(med2 / 2));
	if (approx || kapprox)
		srec_tag_add(r, cols->tags, "median_approx");
	/* what the type's layers cost and where their idle time lies */
	srec_set_i64(r, cols->cost, ty->cost);
	srec_set_i64(r, cols->idle, ty->idle);
	srec_set_i64(r, cols->gap, ty->gap);
	for (p = 0; p < NPARTS; p++) {
		srec_set_i64(r, cols->pcol[p][1], ty->pbusy[p]);
		srec_set_i64(r, cols->pcol[p][2], ty->psum[p]);
		srec_set_i64(r, cols->pcol[p][3], ty->pcost[p]);
	}
	stage_put(lst, r);
}

/* The role groups of a type, with busy time and share of layer wall. */
static void
put_roles(struct ldev *d, int ph, int t)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct ltype *ty = ldev_type(d, ph, t);
	int ro;

	for (ro = 0; ro < NROLES; ro++) {
		struct srec *r;

		if (ty->role_n[ro] == 0)
			continue;
		r = summary(d, "role", role_names[ro]);
		srec_set_str(r, cols->ltype, ltype_names[t]);
		srec_set_str(r, cols->phase, phase_names[ph]);
		srec_set_i64(r, cols->value, (int64_t)ty->role_n[ro]);
		srec_set_i64(r, cols->busy, ty->role_busy[ro]);
		srec_set_i64(r, cols->ksum, ty->role_sum[ro]);
		if (ty->wall_sum > 0)
			srec_set_ratio(r, cols->share, ty->role_busy[ro],
			    ty->wall_sum);
		stage_put(lst, r);
	}
}

static void
put_seq(struct ldev *d, int ph, int t)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct ltype *ty = ldev_type(d, ph, t);
	size_t i;

	for (i = 0; i < ty->nseq; i++) {
		const struct lname *e = names_get(ty->seq_name[i]);
		struct srec *r = summary(d, "layer_seq", e->name);

		srec_set_str(r, COL_TRACK, stream_name(d, ty->seq_track[i]));
		srec_set_str(r, cols->ltype, ltype_names[t]);
		srec_set_str(r, cols->phase, phase_names[ph]);
		srec_set_i64(r, cols->pass, ty->seq_pass);
		srec_set_i64(r, cols->layer, ty->seq_layer);
		srec_set_i64(r, cols->seq, (int64_t)i);
		srec_set_i64(r, cols->repeat, ty->seq_rep[i]);
		srec_set_i64(r, cols->ksum, ty->seq_dur[i]);
		srec_set_str(r, cols->tags, role_names[e->role]);
		stage_put(lst, r);
	}
}

/*
 * Which stream overlaps which: one record per ordered pair that shares
 * time, track = the stream, name = the other, busy_ns = the time both
 * are busy, share_ratio = that over the stream's own busy time.
 */
static void
put_pairs(struct ldev *d)
{
	const struct layers_cols *cols = stage_columns(lst);
	size_t i, j;

	for (i = 0; i < d->nstreams; i++)
		for (j = 0; j < d->nstreams; j++) {
			int64_t ov = i < j ? d->pair[i * d->paircap + j] :
			    d->pair[j * d->paircap + i];
			struct srec *r;

			if (i == j || ov == 0)
				continue;
			r = summary(d, "stream_overlap", d->streams[j].track);
			srec_set_str(r, COL_TRACK, d->streams[i].track);
			srec_set_i64(r, cols->busy, ov);
			srec_set_ratio(r, cols->share, ov, d->streams[i].busy);
			stage_put(lst, r);
		}
}

/*
 * Stream roles: communication or AI CPU when that is most of the
 * stream's kernel time, else compute; the compute stream with the most
 * kernel time is the main one.
 */
static void
put_streams(struct ldev *d)
{
	const struct layers_cols *cols = stage_columns(lst);
	size_t i, main_i = d->nstreams;
	int64_t total = 0, best = -1;

	for (i = 0; i < d->nstreams; i++) {
		struct lstream *s = &d->streams[i];

		total = num_sat_add(total, s->sum);
		if (2 * (__int128)s->comm <= s->sum &&
		    2 * (__int128)s->aicpu <= s->sum &&
		    s->sum > best) {
			best = s->sum;
			main_i = i;
		}
	}
	for (i = 0; i < d->nstreams; i++) {
		struct lstream *s = &d->streams[i];
		const char *role = "compute";
		struct srec *r;

		if (s->n == 0)
			continue;
		if (2 * (__int128)s->comm > s->sum)
			role = "comm";
		else if (2 * (__int128)s->aicpu > s->sum)
			role = "ai_cpu";
		else if (i == main_i)
			role = "main_compute";
		r = summary(d, "stream", role);
		srec_set_str(r, COL_TRACK, s->track);
		srec_set_i64(r, cols->value, (int64_t)s->n);
		srec_set_i64(r, cols->ksum, s->sum);
		srec_set_i64(r, cols->busy, s->busy);
		if (total > 0)
			srec_set_ratio(r, cols->share, s->sum, total);
		stage_put(lst, r);
	}
	put_pairs(d);
}

static const char *const fam_names[NFAMS] = {
	"none", "transformer", "cnn", "repeating"
};

/*
 * The model record of D: how its structure was found (name: none,
 * transformer, cnn, repeating), with what confidence (value: 1 for
 * markers found by name; the detection's confidence, never 1, else),
 * and the evidence in words.
 */
static void
put_model(struct ldev *d)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct srec *r = summary(d, "model", fam_names[d->family]);
	char ev[512], tg[64] = "";
	int n;
	const char *an = d->detected ? names_get(d->anchor)->name : "";

	switch (d->family) {
	case FAM_ATTN:
		srec_set_i64(r, cols->value, 1);
		stage_tag_add(tg, sizeof(tg), "marker");
		snprintf(ev, sizeof(ev), "%lld attention markers in %lld "
		    "pass(es)", (long long)d->nmarkers, (long long)d->npasses);
		break;
	case FAM_CONV:
		srec_set_ratio(r, cols->value, d->confidence_ppm, 1000000);
		stage_tag_add(tg, sizeof(tg), "conv");
		if (d->res_passes > 0)
			stage_tag_add(tg, sizeof(tg), "residual");
		n = snprintf(ev, sizeof(ev), "%lld convolution layers, %lld "
		    "of them with a norm, activation or pooling, or a "
		    "gradient; ", (long long)d->conv_units,
		    (long long)d->conv_shaped);
		if (d->res_blocks_max > 0)
			snprintf(ev + n, sizeof(ev) - (size_t)n, "up to %lld "
			    "residual blocks in %lld stages per forward pass",
			    (long long)d->res_blocks_max,
			    (long long)d->stages_max);
		else
			snprintf(ev + n, sizeof(ev) - (size_t)n, "no residual "
			    "blocks");
		break;
	case FAM_PERIODIC:
		srec_set_ratio(r, cols->value, d->confidence_ppm, 1000000);
		stage_tag_add(tg, sizeof(tg), "detected");
		snprintf(ev, sizeof(ev), "repeating kernel sequence: anchor "
		    "%.64s%s every %lld kernels", an, strlen(an) > 64 ? "..." :
		    "", (long long)d->period);
		break;
	default:
		srec_set_ratio(r, cols->value, d->confidence_ppm, 1000000);
		stage_tag_add(tg, sizeof(tg), "no_structure");
		snprintf(ev, sizeof(ev), "no repeating structure found: %s, "
		    "no repeating kernel sequence of confidence %s or more",
		    lopts.detect ? "markers and convolutions ignored (-d)" :
		    lopts.no_conv ? "no attention marker, convolution units "
		    "off (-C)" : "no attention marker, no convolution units "
		    "of that confidence", lopts.min_conf_text);
		break;
	}
	if (lopts.detect)
		stage_tag_add(tg, sizeof(tg), "forced");
	srec_set_str(r, cols->tags, tg);
	srec_set_str(r, cols->evidence, ev);
	stage_put(lst, r);
}

/* End of input: the summary records of dev D. */
void
sum_dev(struct ldev *d)
{
	int ph, t;

	overlap_cut(d, INT64_MAX);
	metric(d, "pass_count", d->npasses);
	metric(d, "forward_pass_count", d->ndir[DIR_FWD]);
	metric(d, "backward_pass_count", d->ndir[DIR_BWD]);
	metric(d, "prefill_pass_count", d->nprefill);
	metric(d, "decode_pass_count", d->ndecode);
	metric(d, "layer_count", d->nlayers);
	metric(d, "prefill_layer_count", d->nphase_layers[PH_PREFILL]);
	metric(d, "decode_layer_count", d->nphase_layers[PH_DECODE]);
	metric(d, "sampling_layer_count", (int64_t)d->sample_layers);
	metric(d, "marker_count", d->nmarkers);
	if (d->nlp > 0) {
		__int128 twice;
		int approx;

		medq_median2(&d->layers_per, &twice, &approx);
		metric_ratio(d, "layers_per_pass_median", (int64_t)twice, 2);
		metric(d, "layers_per_pass_max", d->lp_max);
	}
	metric(d, "kernel_count", d->nkernels);
	metric(d, "stream_count", (int64_t)d->nstreams);
	metric(d, "comm_kernel_sum_ns", d->comm_sum);
	metric(d, "comm_union_ns", d->comm_union);
	metric(d, "comm_overlap_ns", d->comm_overlap);
	if (d->comm_union > 0)
		metric_ratio(d, "comm_overlap_ratio", d->comm_overlap,
		    d->comm_union);
	if (d->detect_ran)
		metric_ratio(d, "layer_detect_confidence_ratio",
		    d->confidence_ppm, 1000000);
	if (d->micro_max[DIR_FWD] + d->micro_max[DIR_BWD] > 0) {
		metric(d, "forward_passes_per_step_max",
		    d->micro_max[DIR_FWD]);
		metric(d, "backward_passes_per_step_max",
		    d->micro_max[DIR_BWD]);
		metric(d, "macro_step_count", d->macro_steps);
	}
	put_model(d);
	for (ph = 0; ph < NPHASES; ph++)
		for (t = 0; t < NLTYPES; t++) {
			if (!ldev_has_type(d, ph, t))
				continue;
			put_type(d, ph, t);
			put_roles(d, ph, t);
			put_seq(d, ph, t);
		}
	put_streams(d);
}
