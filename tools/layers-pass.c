/*
 * prof-layers: passes and layers from attention markers, per device.
 *
 * A layer is [marker_i.start, marker_i+1.start) (doc/analysis-rules.md,
 * Layer types); the kernels
 * that start in it are held (stage_keep) until the next marker closes
 * it, then annotated with the layer's type and written.  A marker opens
 * a new pass instead when its direction differs (forward attention
 * after backward), when the step column changes, when the method's
 * duration thresholds put it in another phase (> 10 ms vs < 1 ms), or
 * when the gap since the previous marker exceeds the gap factor (-g)
 * times the reference gap: the median marker-to-marker gap of the pass
 * so far, or of the previous pass while this one has no gap yet.  This
 * breaks the method's circle (num_passes from passes) in a stream
 * (doc/analysis-rules.md, Markers and passes).
 *
 * The last layer of a pass has no next marker: it is given the
 * reference gap as its length (kernels starting after that lie between
 * passes, in no layer), or less when the next pass starts sooner.  Once
 * the input passes the last marker by the gap factor times the
 * reference gap, no later marker can continue the pass, so it is
 * closed there and memory stays bounded by one pass.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ival.h"
#include "layers.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

#define MS	1000000	/* ns */

enum {
	RULE_FIRST, RULE_GAP, RULE_DIR, RULE_STEP, RULE_PHASE, RULE_SAMPLE,
	RULE_HEAD, RULE_LENGTH
};
static const char *const rule_names[] = {
	"first", "gap", "direction", "step", "phase", "sampling", "head",
	"length"
};

/*
 * Layers a pass may hold before the next marker opens a new one (rule
 * length).  The largest models run a few hundred layers a pass; a pass's
 * layer records wait for its end (they take its phase), so without a
 * bound a period found in a capture-long stream of kernels with no
 * other pass boundary would hold the whole capture.
 */
#define PASS_LAYERS_MAX	4096
/* passes whose layer counts the median is exact over (then medq) */
#define LAYERS_PER_EXACT	65536

const char *const phase_names[NPHASES] = {
	"", "prefill", "decode", "forward", "backward"
};

/*
 * Layer records of the open pass, their walls and what they hold (LM_
 * bits): they take its phase, the outlier tag, and their residual block
 * and stage, when it closes.
 */
static struct srec **lrecs;
static int64_t *lwalls;
static unsigned *lmeta;
static size_t nlrecs, lrcap;

void
held_push(struct ldev *d, struct lkern *k)
{
	if (k->rec == NULL)
		k->rec = stage_keep(lst);
	if (d->nk == d->kcap) {
		d->kcap = d->kcap ? 2 * d->kcap : 16;
		d->k = xreallocarray(d->k, d->kcap, sizeof(*d->k));
	}
	d->k[d->nk++] = *k;
}

/* Write a kernel that is in no layer. */
void
let_go(struct lkern *k)
{
	if (k->rec != NULL)
		stage_put(lst, k->rec);
	else
		stage_pass(lst);
}

static void
push64(int64_t **v, size_t *n, size_t *cap, int64_t x)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*n)++] = x;
}

/*
 * The marker-to-marker gaps of the open pass are kept sorted, so that
 * the reference gap, asked for at every marker, is read, not sorted: a
 * pass of thousands of layers made the sort most of the stage's time.
 */
static void
gap_insert(struct ldev *d, int64_t g)
{
	size_t lo = 0, hi = d->ngaps, mid;

	push64(&d->gaps, &d->ngaps, &d->gapcap, g);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->gaps[mid] <= g)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&d->gaps[lo + 1], &d->gaps[lo], (d->ngaps - 1 - lo) *
	    sizeof(*d->gaps));
	d->gaps[lo] = g;
}

/* The median of N sorted values, rounded down, as median_of. */
static int64_t
sorted_median(const int64_t *v, size_t n)
{
	int64_t twice;

	num_median(v, n, &twice);
	return twice / 2;
}

/*
 * The reference gap of the open pass (0: none yet): the median of its
 * gaps, or of the last pass while it has none; for convolution units,
 * of the last pass of its direction, since a backward unit takes about
 * twice a forward one.
 */
static int64_t
ref_gap(struct ldev *d)
{
	if (d->ngaps > 0)
		return sorted_median(d->gaps, d->ngaps);
	if (d->family == FAM_CONV)
		return d->ref_gap_dir[d->pass_dir];
	return d->ref_gap;
}

/*
 * The gap factor of D, in millionths: -g, else 1.5 for attention and
 * repeating layers, which follow each other at a steady pace, and 8 for
 * convolution units, whose marker-to-marker gaps vary with the shape of
 * each convolution (up to 3.8 times the median in a ResNet-50 forward
 * pass).
 */
static int64_t
gap_factor(const struct ldev *d)
{
	if (lopts.gap_ppm > 0)
		return lopts.gap_ppm;
	return d->family == FAM_CONV ? 8000000 : 1500000;
}

/* Keep the deadline of the open pass current after a marker. */
static void
set_deadline(struct ldev *d)
{
	int64_t ref = ref_gap(d);

	d->deadline = INT64_MAX;
	if (ref > 0 && ref < INT64_MAX / 8)
		d->deadline = d->mark_ts + (int64_t)((__int128)ref *
		    gap_factor(d) / 1000000);
}

/*
 * The type of the open conv-family unit, from its first N held kernels:
 * its run's (Conv, or Head for a fully connected layer), but a GEMM with a norm is a 1x1
 * convolution that cuDNN ran as a GEMM, not a fully connected layer.
 * The norm follows the GEMM in a forward pass; in a backward one its
 * gradient comes first, between the previous run and this one.
 */
static int
unit_type(const struct ldev *d, size_t n)
{
	size_t i;

	if (d->layer_unit != LT_LINEAR)
		return d->layer_unit;
	if (d->pass_dir == DIR_BWD)
		return d->layer_normbefore ? LT_CONV : LT_LINEAR;
	for (i = 0; i < n && i < d->nk; i++)
		if (names_get(d->k[i].name)->role == ROLE_NORM)
			return LT_CONV;
	return LT_LINEAR;
}

/*
 * The layer type from the flags of its kernels (doc/analysis-rules.md,
 * Layer types), for a layer
 * with attention (ROLES, a bit per role present); a detected layer with
 * no attention is a Conv one when it holds a convolution, else a Block.
 */
static int
layer_type(unsigned f, unsigned roles)
{
	if (!(roles & (1u << ROLE_ATTN)) && !(f & (NF_DFC | NF_GMM |
	    NF_ROUTE)))
		return roles & (1u << ROLE_CONV) ? LT_CONV : LT_BLOCK;
	if (f & NF_DFC)
		return LT_MOE_DFC;
	if (f & NF_GMM)
		return LT_MOE_GMM;
	if (f & NF_ROUTE)
		return LT_MOE;
	return LT_DENSE;
}

/* What the kernels of a layer add up to. */
struct lsums {
	size_t		 n;		/* kernels in the layer */
	unsigned	 flags;		/* NF_ of their names */
	unsigned	 roles;		/* a bit per role present */
	unsigned	 meta;		/* LM_ bits (conv family) */
	int64_t		 ksum, busy, end;
	uint64_t	 cnt[NCHECK];	/* cross-check counts */
	uint64_t	 nnorm;		/* norm kernels */
};

/*
 * Sum the layer's kernels: the first N held (all of them unless it is
 * the pass's last layer, whose kernels start before END).  The last
 * layer's span ends with its last kernel, but not after END.
 */
static void
layer_sums(struct ldev *d, int64_t end, int last, struct lsums *ls)
{
	struct ival *iv = cost_scratch(d->nk + 1);
	size_t i;
	int c;

	memset(ls, 0, sizeof(*ls));
	for (i = 0; i < d->nk && (!last || d->k[i].s < end); i++) {
		const struct lname *e = names_get(d->k[i].name);

		ls->n++;
		ls->flags |= e->flags;
		ls->roles |= 1u << e->role;
		ls->nnorm += e->role == ROLE_NORM;
		/* what follows the run: its first kernel is the marker */
		if (i > 0 && e->role != ROLE_CONV && e->role != ROLE_MATMUL) {
			if (e->flags & NF_RESADD)
				ls->meta |= LM_ADD;
			if (e->role == ROLE_POOL)
				ls->meta |= LM_POOL;
		}
		ls->ksum += d->k[i].e - d->k[i].s;
		ls->cnt[0] += i == 0;
		for (c = 1; c < NCHECK; c++)
			ls->cnt[c] += (e->flags & check_flags[c]) != 0;
	}
	ls->end = end;
	if (last) {
		ls->end = d->layer_ts;
		for (i = 0; i < ls->n; i++)
			if (d->k[i].e > ls->end)
				ls->end = d->k[i].e;
		if (ls->end > end)
			ls->end = end;
	}
	for (i = 0; i < ls->n; i++) {
		iv[i].s = d->k[i].s;
		iv[i].e = d->k[i].e < ls->end ? d->k[i].e : ls->end;
	}
	ls->busy = busy_sorted(iv, ls->n, NULL);
}

/* Fill in the open layer's record, to be written when the pass closes. */
static void
layer_record(struct ldev *d, int t, int last, const struct lsums *ls,
    const struct lcost *lc)
{
	const struct layers_cols *cols = stage_columns(lst);
	char tags[64] = "";

	if (d->layer_idx == 0)
		stage_tag_add(tags, sizeof(tags), "first");
	if (last)
		stage_tag_add(tags, sizeof(tags), "last");
	if ((ls->flags & NF_SAMPLE) && d->family != FAM_CONV) {
		stage_tag_add(tags, sizeof(tags), "sampling");
		d->sample_layers++;
	}
	if (d->detected)
		stage_tag_add(tags, sizeof(tags), "detected");
	if (d->layer_recompute)
		stage_tag_add(tags, sizeof(tags), "recompute");
	if (t == LT_LINEAR && d->family == FAM_CONV)
		srec_set_i64(d->layer_rec, cols->layers, d->layer_linear);
	srec_set_i64(d->layer_rec, COL_DUR, ls->end - d->layer_ts);
	srec_set_str(d->layer_rec, COL_NAME, ltype_names[t]);
	srec_set_str(d->layer_rec, cols->ltype, ltype_names[t]);
	srec_set_i64(d->layer_rec, cols->kcount, (int64_t)ls->n);
	srec_set_i64(d->layer_rec, cols->ksum, ls->ksum);
	srec_set_i64(d->layer_rec, cols->busy, ls->busy);
	cost_put(d->layer_rec, lc);
	cost_share(d, d->layer_rec, ls->end - d->layer_ts);
	if (tags[0] != '\0')
		srec_set_str(d->layer_rec, cols->tags, tags);
	if (nlrecs == lrcap) {
		lrcap = lrcap ? 2 * lrcap : 64;
		lrecs = xreallocarray(lrecs, lrcap, sizeof(*lrecs));
		lwalls = xreallocarray(lwalls, lrcap, sizeof(*lwalls));
		lmeta = xreallocarray(lmeta, lrcap, sizeof(*lmeta));
	}
	lwalls[nlrecs] = ls->end - d->layer_ts;
	lmeta[nlrecs] = ls->meta | (t == LT_CONV ? LM_CONV : 0) |
	    (t == LT_LINEAR && d->family == FAM_CONV ? LM_HEAD : 0);
	lrecs[nlrecs++] = d->layer_rec;
	d->layer_rec = NULL;
}

/*
 * Close the open layer at END: its kernels get its pass, index and type
 * and are written (they still wait behind the pass record); the held
 * kernels after a last layer's end lie between passes and are written
 * as they are.
 */
static void
close_layer(struct ldev *d, int64_t end, int last)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct lsums ls;
	struct lcost lc;
	size_t i;
	int t, c, body;

	layer_sums(d, end, last, &ls);
	t = d->family == FAM_CONV ? unit_type(d, ls.n) :
	    layer_type(ls.flags, ls.roles);
	cost_layer(d, d->k, ls.n, d->layer_ts, ls.end, &lc);
	cost_add(&d->pass_cost, &lc, d->layer_idx == 0);
	for (i = 0; i < d->nk; i++) {
		if (i < ls.n) {
			srec_set_i64(d->k[i].rec, cols->pass, d->pass_idx);
			srec_set_i64(d->k[i].rec, cols->layer, d->layer_idx);
			srec_set_str(d->k[i].rec, cols->ltype, ltype_names[t]);
		}
		stage_put(lst, d->k[i].rec);
		d->k[i].rec = NULL;
	}
	sum_layer(d, t, d->k, ls.n, d->layer_ts, ls.end, ls.ksum, ls.busy,
	    !last);
	d->nk = 0;
	for (c = 0; c < NCHECK; c++) {
		d->chk_n[c] += ls.cnt[c];
		d->chk_layers[c] += ls.cnt[c] > 0;
	}
	d->type_layers[t]++;
	ldev_pend(d, t)->cost += lc.cost;
	ldev_pend(d, t)->idle += lc.idle;
	ldev_pend(d, t)->gap += lc.gap > 0 ? lc.gap : 0;
	for (c = 0; c < NPARTS; c++) {
		ldev_pend(d, t)->pbusy[c] += lc.part[c].busy;
		ldev_pend(d, t)->psum[c] += lc.part[c].sum;
		ldev_pend(d, t)->pcost[c] += lc.part[c].cost;
	}
	d->prev_unit = t;
	/* a CNN's head and its recomputed units are no layers of the body */
	body = !(d->family == FAM_CONV && (t == LT_LINEAR ||
	    d->layer_recompute));
	if (!body && t != LT_LINEAR)
		d->pass_recompute++;
	if (d->family == FAM_CONV && !d->layer_recompute) {
		d->cv_norm_layers += ls.nnorm > 0;
		d->cv_norm += (int64_t)ls.nnorm;
	}
	if (t == LT_CONV && d->family == FAM_CONV && !d->layer_recompute) {
		d->cv_layers++;
		d->conv_units++;
		d->conv_shaped += d->pass_dir == DIR_BWD || (ls.roles &
		    (1u << ROLE_NORM | 1u << ROLE_ACT | 1u << ROLE_POOL));
	}
	layer_record(d, t, last, &ls, &lc);
	d->pass_layers += body;
	d->pass_kern += (int64_t)ls.n;
	d->pass_ksum += ls.ksum;
	d->pass_busy += ls.busy;
	d->pass_end = ls.end;
	d->nlayers += body;
}

/*
 * The phase of the pass being closed, from its median marker duration
 * MD: the method's thresholds first, else a ratio of 4 or more against
 * the previous forward pass, else the previous pass's phase.  Unknown
 * (empty) when the marker is a detected anchor that is not attention.
 */
static int
pass_phase(struct ldev *d, int64_t md)
{
	int64_t prev = d->prev_fwd_mdur;

	if (d->pass_dir == DIR_BWD)
		return PH_BWD;
	if (d->family == FAM_CONV)
		return PH_FWD;
	/* a detected anchor that is not attention says nothing of phase */
	if (d->detected && names_get(d->anchor)->role != ROLE_ATTN)
		return PH_NONE;
	if (md > 10 * MS)
		return PH_PREFILL;
	if (md < 1 * MS && d->prev_phase == PH_PREFILL)
		return PH_DECODE;
	if (prev > 0 && md <= prev / 4)
		return PH_DECODE;
	if (prev > 0 && md / 4 >= prev)
		return PH_PREFILL;
	if (prev > 0 && (d->prev_phase == PH_PREFILL ||
	    d->prev_phase == PH_DECODE))
		return d->prev_phase;
	return PH_FWD;
}

/* One check record of the pass: NAME, counted VALUE, LAYERS and EXPECT. */
static void
put_check(struct ldev *d, const char *name, int64_t value, int64_t layers,
    int64_t expect)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct srec *r = stage_new(lst, "check", d->pass_ts);

	srec_set_str(r, COL_DEV, d->name);
	srec_set_str(r, COL_NAME, name);
	srec_set_i64(r, cols->pass, d->pass_idx);
	srec_set_i64(r, cols->value, value);
	srec_set_i64(r, cols->layers, layers);
	srec_set_i64(r, cols->expect, expect);
	if (layers > 0)
		srec_set_ratio(r, cols->perlayer, value, layers);
	srec_set_str(r, cols->tags, layers == expect && (layers == 0 ||
	    value % layers == 0) ? "match" : "mismatch");
	stage_put(lst, r);
}

/*
 * The cross-check of a conv-family pass: a network with batch norms
 * runs one norm per convolution, so the convolution layers that hold a
 * norm kernel should be all of them, each with the same number.
 */
static void
conv_checks(struct ldev *d)
{
	if (d->cv_norm > 0)
		put_check(d, "norm", d->cv_norm, d->cv_norm_layers,
		    d->cv_layers);
	d->cv_layers = d->cv_norm_layers = d->cv_norm = 0;
}

/*
 * The cross-check records of the pass (doc/analysis-rules.md,
 * Cross-checks).
 */
static void
put_checks(struct ldev *d)
{
	uint64_t expect[NCHECK];
	uint64_t moe = d->type_layers[LT_MOE] + d->type_layers[LT_MOE_GMM] +
	    d->type_layers[LT_MOE_DFC];
	int c;

	expect[0] = (uint64_t)d->pass_layers;
	/* the prep of layer 0 runs before the first marker */
	expect[4] = expect[5] = (uint64_t)d->pass_layers - 1;
	expect[1] = d->type_layers[LT_MOE_DFC];
	expect[2] = d->type_layers[LT_MOE_GMM];
	expect[3] = moe;
	if (d->family == FAM_CONV) {
		conv_checks(d);
		return;
	}
	for (c = 0; c < NCHECK; c++) {
		if (d->chk_n[c] == 0 && (expect[c] == 0 || c >= 4))
			continue;
		put_check(d, check_names[c], (int64_t)d->chk_n[c],
		    (int64_t)d->chk_layers[c], (int64_t)expect[c]);
	}
}

/*
 * Write the layer records of the pass that closed with phase PH.  A
 * layer at least twice the median wall of its pass is tagged outlier
 * (layer-0 warm-up, a transition layer, a stall): the method's
 * type-specific anomalies start there (doc/analysis-rules.md, Layer
 * types).
 */
static void
put_layers(struct ldev *d, int ph)
{
	const struct layers_cols *cols = stage_columns(lst);
	int64_t *w = xreallocarray(NULL, nlrecs + 1, sizeof(*w)), med;
	size_t i;

	memcpy(w, lwalls, nlrecs * sizeof(*w));
	med = median_of(w, nlrecs);
	free(w);
	if (d->family == FAM_CONV && ph == PH_FWD)
		conv_blocks(d, lrecs, lmeta, nlrecs);
	for (i = 0; i < nlrecs; i++) {
		srec_set_str(lrecs[i], cols->phase, phase_names[ph]);
		/* a CNN's head is several layers in one: no outlier */
		if (nlrecs > 2 && lwalls[i] / 2 >= med &&
		    !(lmeta[i] & LM_HEAD))
			srec_tag_add(lrecs[i], cols->tags, "outlier");
		stage_put(lst, lrecs[i]);
	}
	nlrecs = 0;
}

/*
 * Write the record of the pass that closed, with its cut tags (see
 * prof-layers(1), "Cut passes").  Every pass runs the same layers of
 * the model, so a first pass with fewer layers than the second began
 * before the capture, and a last pass, closed by the end of the input,
 * with fewer layers than the one before it was still running when the
 * capture stopped.  The first pass's record waits for the second, but
 * no longer than the first lasted (see close_pass, pass_tick): memory
 * stays bounded when no second pass comes.
 */
static void
put_pass(struct ldev *d)
{
	const struct layers_cols *cols = stage_columns(lst);

	if (d->at_end && d->nlp > 0 &&
	    d->pass_layers < d->lp_last)
		srec_tag_add(d->pass_rec, cols->tags, "cut_end");
	if (d->npasses == 0) {
		d->first_rec = d->pass_rec;
		d->first_layers = d->pass_layers;
	} else
		stage_put(lst, d->pass_rec);
	d->pass_rec = NULL;
	if (d->first_rec != NULL && d->npasses == 1) {
		if (d->first_layers < d->pass_layers)
			srec_tag_add(d->first_rec, cols->tags, "cut_start");
		stage_put(lst, d->first_rec);
		d->first_rec = NULL;
	}
}

/* Close the open pass: its last layer ends by CUT. */
static void
close_pass(struct ldev *d, int64_t cut)
{
	const struct layers_cols *cols = stage_columns(lst);
	int64_t md;
	int ph;

	close_layer(d, cut, 1);
	num_sort(d->mdur, d->nmdur);
	md = median_of(d->mdur, d->nmdur);
	ph = pass_phase(d, md);
	sum_pass(d, ph);
	put_checks(d);
	put_layers(d, ph);
	srec_set_i64(d->pass_rec, COL_DUR, d->pass_end - d->pass_ts);
	srec_set_str(d->pass_rec, COL_NAME, phase_names[ph]);
	srec_set_str(d->pass_rec, cols->phase, phase_names[ph]);
	srec_set_str(d->pass_rec, cols->rule, rule_names[d->pass_rule]);
	srec_set_i64(d->pass_rec, cols->layers, d->pass_layers);
	srec_set_i64(d->pass_rec, cols->kcount, d->pass_kern);
	srec_set_i64(d->pass_rec, cols->ksum, d->pass_ksum);
	srec_set_i64(d->pass_rec, cols->busy, d->pass_busy);
	srec_set_i64(d->pass_rec, cols->mdur, md);
	srec_set_i64(d->pass_rec, cols->mmean, mean_of(d->mdur, d->nmdur));
	cost_put(d->pass_rec, &d->pass_cost);
	srec_set_i64(d->pass_rec, cols->between, d->pass_cost.between);
	if (d->pass_recompute > 0) {
		srec_set_i64(d->pass_rec, cols->nrecompute, d->pass_recompute);
		srec_tag_add(d->pass_rec, cols->tags, "recompute");
	}
	cost_share(d, d->pass_rec, d->pass_end - d->pass_ts);
	if (d->detected)
		srec_set_str(d->pass_rec, cols->tags, "detected");
	/*
	 * A forward pass between backward ones with fewer layers than a
	 * full forward pass recomputes a checkpointed segment.
	 */
	if (d->pass_dir == DIR_FWD && d->last_dir == DIR_BWD &&
	    d->pass_rule == RULE_DIR && d->pass_layers < d->fwd_layers_max)
		srec_tag_add(d->pass_rec, cols->tags, "recompute");
	if (d->pass_dir == DIR_FWD && d->pass_layers > d->fwd_layers_max)
		d->fwd_layers_max = d->pass_layers;
	d->last_dir = d->pass_dir;
	put_pass(d);
	if (d->ngaps > 0)
		d->ref_gap = d->ref_gap_dir[d->pass_dir] = sorted_median(d->gaps,
		    d->ngaps);
	if (ph != PH_BWD) {
		d->prev_fwd_mdur = md;
		d->prev_phase = ph;
	}
	d->nprefill += ph == PH_PREFILL;
	d->ndecode += ph == PH_DECODE;
	d->nphase_layers[ph] += d->pass_layers;
	if (ph != PH_NONE)
		d->ndir[d->pass_dir]++;
	d->npasses++;
	medq_add(&d->layers_per, d->pass_layers, LAYERS_PER_EXACT);
	d->nlp++;
	d->lp_last = d->pass_layers;
	if (d->pass_layers > d->lp_max)
		d->lp_max = d->pass_layers;
	d->deadline = INT64_MAX;
	/* the first pass waits for a second no longer than it lasted */
	if (d->first_rec != NULL)
		d->deadline = d->first_wait = d->pass_end + (d->pass_end -
		    d->pass_ts);
}

/* Write the first pass's record without comparing it with a second. */
static void
first_untagged(struct ldev *d)
{
	if (d->first_rec != NULL)
		stage_put(lst, d->first_rec);
	d->first_rec = NULL;
}

/*
 * The step of the pass that opens with direction DIR: its index among
 * the passes of that direction in its step (micro), and the most per
 * step, so that a step holding several micro-batches or forward passes
 * (a macro step) is seen.  Without a step column there is none.
 */
static void
macro_count(struct ldev *d, int dir)
{
	const struct layers_cols *cols = stage_columns(lst);

	d->micro = -1;
	if (d->pass_step[0] == '\0')
		return;
	if (d->micro_step == NULL || strcmp(d->micro_step, d->pass_step) != 0) {
		free(d->micro_step);
		d->micro_step = xstrdup(d->pass_step);
		memset(d->micro_n, 0, sizeof(d->micro_n));
	}
	d->micro = d->micro_n[dir]++;
	if (d->micro_n[dir] > d->micro_max[dir])
		d->micro_max[dir] = d->micro_n[dir];
	if (dir == DIR_FWD && d->micro_n[dir] == 2)
		d->macro_steps++;
	srec_set_i64(d->pass_rec, cols->micro, d->micro);
	if (cols->step >= 0)
		srec_set_str(d->pass_rec, cols->step, d->pass_step);
}

static void
open_pass(struct ldev *d, const struct lkern *k, int dir, int rule,
    const char *step, size_t slen)
{
	const struct layers_cols *cols = stage_columns(lst);

	if (k->s > d->first_wait)
		first_untagged(d);
	d->pass_rec = stage_new(lst, "pass", k->s);
	srec_set_str(d->pass_rec, COL_DEV, d->name);
	srec_set_i64(d->pass_rec, cols->pass, d->npasses);
	d->pass_idx = d->npasses;
	d->pass_ts = k->s;
	d->pass_dir = dir;
	d->pass_rule = rule;
	free(d->pass_step);
	d->pass_step = xstrndup(step, slen);
	macro_count(d, dir);
	d->ngaps = d->nmdur = 0;
	d->pass_layers = d->pass_kern = d->pass_ksum = d->pass_busy = 0;
	d->pass_recompute = 0;
	memset(d->chk_n, 0, sizeof(d->chk_n));
	memset(d->chk_layers, 0, sizeof(d->chk_layers));
	memset(d->type_layers, 0, sizeof(d->type_layers));
	d->layer_idx = -1;
}

static void
open_layer(struct ldev *d, struct lkern *k)
{
	const struct layers_cols *cols = stage_columns(lst);
	struct ival *t;
	size_t tn;

	/* the busy time it inherits, and the gap before it (live_carry) */
	t = d->carry;
	d->carry = d->mk_carry;
	d->mk_carry = t;
	tn = d->ncarry;
	d->ncarry = d->nmk_carry;
	d->nmk_carry = 0;
	tn = d->carrycap;
	d->carrycap = d->mk_carrycap;
	d->mk_carrycap = tn;
	d->layer_gap = d->mk_gap;
	d->layer_unit = d->next_unit;
	d->layer_normbefore = d->next_normbefore;
	d->layer_recompute = d->next_recompute;
	d->layer_linear = 1;
	d->layer_rec = stage_new(lst, "layer", k->s);
	srec_set_str(d->layer_rec, COL_DEV, d->name);
	srec_set_str(d->layer_rec, COL_TRACK,
	    stream_name(d, k->track));
	d->layer_ts = d->mark_ts = k->s;
	d->layer_idx++;
	d->marker_dur = k->e - k->s;
	srec_set_i64(d->layer_rec, cols->pass, d->pass_idx);
	srec_set_i64(d->layer_rec, cols->layer, d->layer_idx);
	srec_set_i64(d->layer_rec, cols->mdur, d->marker_dur);
	d->nmarkers++;
	push64(&d->mdur, &d->nmdur, &d->mdcap, d->marker_dur);
	held_push(d, k);
	set_deadline(d);
}

/*
 * Whether the open layer sampled a token: inference ends a forward pass
 * with sampling, so the next marker starts the next pass however short
 * the gap (a fast decode loop leaves little time between passes).
 */
static int
has_sampling(const struct ldev *d)
{
	size_t i;

	for (i = 0; i < d->nk; i++)
		if (names_get(d->k[i].name)->flags & NF_SAMPLE)
			return 1;
	return 0;
}

/*
 * Which rule makes marker K (direction DIR, step STEP) start a new pass,
 * or -1 when it continues the open one.  With no pass open (the first
 * marker, or the clock closed the last pass) it says why the new one is
 * new: direction, step and phase come before sampling and the gap.  A
 * conv-family unit has no phase or sampling rule (its marker's duration
 * follows the layer's shape, not a prefill or decode), but the head
 * rule: a forward convolution after a linear layer (the classifier
 * head) starts the next forward pass.
 */
static int
new_pass_rule(struct ldev *d, const struct lkern *k, int dir,
    const char *step, size_t slen)
{
	int64_t ref = ref_gap(d), gap = k->s - d->mark_ts;
	int64_t prev = d->marker_dur, cur = k->e - k->s;
	int conv = d->family == FAM_CONV;

	if (d->npasses == 0 && d->pass_rec == NULL)
		return RULE_FIRST;
	if (slen > 0 && (strlen(d->pass_step) != slen ||
	    memcmp(d->pass_step, step, slen) != 0))
		return RULE_STEP;
	/*
	 * In a step, a forward convolution after the backward pass began
	 * recomputes a checkpointed segment: it stays in that pass.
	 */
	d->next_recompute = 0;
	if (conv && slen > 0 && d->pass_rec != NULL && dir == DIR_FWD &&
	    d->pass_dir == DIR_BWD) {
		d->next_recompute = 1;
		return -1;
	}
	if (dir != d->pass_dir)
		return RULE_DIR;
	if (!conv && ((prev > 10 * MS && cur < MS) ||
	    (prev < MS && cur > 10 * MS)))
		return RULE_PHASE;
	if (conv && dir == DIR_FWD && d->next_unit == LT_CONV &&
	    (d->pass_rec != NULL ? unit_type(d, d->nk) : d->prev_unit) ==
	    LT_LINEAR)
		return RULE_HEAD;
	if (d->pass_rec == NULL)
		return RULE_GAP;
	if (d->pass_layers >= PASS_LAYERS_MAX)
		return RULE_LENGTH;
	if (!conv && has_sampling(d))
		return RULE_SAMPLE;
	if (ref > 0 && (__int128)gap * 1000000 > (__int128)ref *
	    gap_factor(d))
		return RULE_GAP;
	return -1;
}

/* A marker K of direction DIR. */
static void
on_marker(struct ldev *d, struct lkern *k, int dir, const char *step,
    size_t slen)
{
	int rule = new_pass_rule(d, k, dir, step, slen);
	int64_t ref, cut;

	d->seen_marker = 1;
	if (d->pass_rec != NULL) {
		/* the fully connected layers of a CNN's head are one layer */
		if (rule < 0 && d->family == FAM_CONV && d->next_unit ==
		    LT_LINEAR && !d->next_recompute && !d->layer_recompute &&
		    unit_type(d, d->nk) == LT_LINEAR && (dir == DIR_FWD ||
		    !d->next_normbefore)) {
			d->layer_linear++;
			d->mark_ts = k->s;
			held_push(d, k);
			set_deadline(d);
			return;
		}
		if (rule < 0) {
			close_layer(d, k->s, 0);
			gap_insert(d, k->s - d->layer_ts);
			open_layer(d, k);
			return;
		}
		ref = ref_gap(d);
		cut = ref > 0 && d->mark_ts + ref < k->s ? d->mark_ts + ref :
		    k->s;
		close_pass(d, cut);
	}
	open_pass(d, k, dir, rule, step, slen);
	open_layer(d, k);
}

/*
 * A conv-family unit's marker K, of direction DIR and unit type UNIT:
 * its inherited busy time and gap are in D's mk_carry and mk_gap.
 */
void
pass_marker(struct ldev *d, struct lkern *k, int dir, const char *step,
    size_t slen, int unit)
{
	d->next_unit = unit;
	on_marker(d, k, dir, step, slen);
}

/*
 * A kernel K has run: the latest end of D's kernels so far is all a
 * structure needs to know of them (live_carry).  A list of the kernels
 * still running made each kernel cost a pass over it, quadratic when
 * thousands run at once (rows of one timestamp, a damaged clock).
 */
void
live_add(struct ldev *d, const struct lkern *k)
{
	if (d->nkseen++ == 0 || k->e > d->last_end)
		d->last_end = k->e;
}

/*
 * What a structure whose first kernel starts at S inherits: the parts
 * after S of the kernels still running (into *CV, *N of *CAP), and the
 * device's idle gap before S (0 when something runs at S, -1 when no
 * kernel ran before).
 */
void
live_carry(const struct ldev *d, int64_t s, struct ival **cv, size_t *n,
    size_t *cap, int64_t *gap)
{
	/*
	 * The kernels still running at S all started before it: the parts
	 * of them after S are [S, their end], whose union is [S, the
	 * latest end], and only that union is used (busy time).
	 */
	*n = 0;
	if (d->nkseen > 0 && d->last_end > s) {
		if (*cap == 0) {
			*cap = 8;
			*cv = xreallocarray(*cv, *cap, sizeof(**cv));
		}
		(*cv)[0].s = s;
		(*cv)[0].e = d->last_end;
		*n = 1;
	}
	if (*n > 0)
		*gap = 0;
	else if (d->nkseen == 0)
		*gap = -1;
	else
		*gap = s > d->last_end ? s - d->last_end : 0;
}

/*
 * The step column changed under the open pass at kernel K: close it
 * there (a pass lies in one step).
 */
void
pass_step_change(struct ldev *d, const struct lkern *k, const char *step,
    size_t slen)
{
	if (d->pass_rec != NULL && slen > 0 && d->pass_step[0] != '\0' &&
	    (strlen(d->pass_step) != slen ||
	    memcmp(d->pass_step, step, slen) != 0))
		close_pass(d, k->s);
}

/* Hold K in the detection window of D. */
static void
window_hold(struct ldev *d, struct lkern *k, const char *step, size_t slen)
{
	if (d->nk == 0) {
		free(d->win_step);
		d->win_step = xstrndup(step, slen);
		/* the host step open when it starts counts too */
		d->win_hsteps = d->win->hsteps > 0;
	}
	held_push(d, k);
}

/*
 * One kernel K of dev D, whose step column is STEP (SLEN bytes, 0 when
 * absent).  It is held while a layer or the detection window is open,
 * else written at once.
 */
void
pass_kernel(struct ldev *d, struct lkern *k, const char *step, size_t slen)
{
	const struct lname *e = names_get(k->name);
	int dir;

	if (d->family == FAM_CONV) {
		conv_kernel(d, k, step, slen);
		return;
	}
	dir = d->detected ? (k->name == d->anchor ? d->anchor_dir :
	    DIR_NONE) : e->dir;
	if (!d->seen_marker && !d->detected && dir == DIR_NONE) {
		if (d->nk > 0 && (d->nk >= (size_t)lopts.window ||
		    (slen > 0 && (strlen(d->win_step) != slen ||
		    memcmp(d->win_step, step, slen) != 0))))
			detect_window(d, 0);
		if (d->detected || d->family == FAM_CONV) {
			pass_kernel(d, k, step, slen);
			return;
		}
		window_hold(d, k, step, slen);
		return;
	}
	pass_step_change(d, k, step, slen);
	if (dir != DIR_NONE) {
		if (!d->seen_marker && !d->detected) {
			/* the window before the first marker: no layer */
			size_t i;

			for (i = 0; i < d->nk; i++) {
				live_add(d, &d->k[i]);
				stage_put(lst, d->k[i].rec);
			}
			d->nk = 0;
		}
		if (d->family == FAM_NONE)
			d->family = d->detected ? FAM_PERIODIC : FAM_ATTN;
		live_carry(d, k->s, &d->mk_carry, &d->nmk_carry,
		    &d->mk_carrycap, &d->mk_gap);
		on_marker(d, k, dir, step, slen);
		live_add(d, k);
		return;
	}
	if (d->pass_rec != NULL)
		held_push(d, k);
	else
		let_go(k);
	live_add(d, k);
}

/*
 * The input has reached TS: close the pass when no marker can follow, or
 * stop holding the first pass's record when no second pass has come.
 */
void
pass_tick(struct ldev *d, int64_t ts)
{
	int64_t ref;

	if (ts <= d->deadline)
		return;
	if (d->pass_rec == NULL) {	/* no second pass came in time */
		first_untagged(d);
		d->deadline = INT64_MAX;
		return;
	}
	ref = ref_gap(d);
	close_pass(d, d->mark_ts + ref);
}

/* End of input. */
void
pass_finish(struct ldev *d)
{
	int64_t ref;

	if (!d->seen_marker && !d->detected && d->family == FAM_NONE &&
	    d->nk > 0)
		detect_window(d, 1);
	conv_flush(d);
	d->at_end = 1;
	if (d->pass_rec != NULL) {
		ref = ref_gap(d);
		close_pass(d, ref > 0 ? d->mark_ts + ref : INT64_MAX);
	}
	first_untagged(d);	/* the only pass */
}
