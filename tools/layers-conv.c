/*
 * prof-layers: convolutional networks, which have no attention kernel
 * and no sequence that repeats kernel for kernel (each stage runs other
 * shapes, so other convolution algorithms).  What repeats is the unit:
 * a convolution, then its norm, activation and pooling.  A device that
 * shows no attention marker but convolutions in its detection window
 * (layers-detect.c) is of the conv family, and then:
 *
 * - A run is a maximal sequence of the device's kernels that are
 *   convolutions or GEMMs, with the layout transforms, offset helpers,
 *   memsets, copies, communication and AI CPU kernels that sit between
 *   them, and the other kernels of the same aclnn op (aclnnMm_Cast...);
 *   any other kernel ends it.  One run is one layer's main op: a
 *   convolution (cuDNN's winograd is four kernels, a gradient is dgrad
 *   then wgrad) or, with no convolution kernel in it, a fully connected
 *   layer.
 * - The run's first kernel is the layer's marker, so a layer is
 *   [run_i.start, run_i+1.start): the convolution with its norm,
 *   activation and pooling (type Conv), or a linear layer with its
 *   activation and dropout (type Head: the classifier head, whose
 *   fully connected layers are one layer, as a transformer's output
 *   head is in no layer, and not counted in the pass's layers).
 * - Its direction is decided when the run ends, from all its kernels: a
 *   gradient name anywhere in it (dgrad, wgrad, wrw, Backprop, ...), or
 *   two GEMMs in a run with no convolution (a linear layer's input and
 *   weight gradients), is backward.  A name alone cannot say it:
 *   cuDNN computes some data gradients with its forward winograd
 *   kernels.
 *
 * The pass rules of layers-pass.c then apply, with a rule of its own
 * (head: a forward convolution after a linear layer starts the next
 * forward pass) and no phase or sampling rule.  When a pass closes, its
 * forward units are grouped into blocks: a unit whose kernels after its
 * run hold a tensor-tensor add ends a residual block, one with pooling a
 * plain one (the stem), and a residual block with more convolutions than
 * most (its shortcut convolution) starts a stage.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "layers.h"
#include "stage.h"
#include "xalloc.h"

/* What a kernel is to a run. */
enum { RK_BREAK, RK_CONV, RK_GEMM, RK_HELP };

/*
 * The length of NAME's aclnn op prefix ("aclnnMm" of
 * "aclnnMm_CastAiCore_Cast"), 0 when it has none: Ascend names every
 * kernel of one aclnn op so, and the casts and transposes of a matmul
 * belong to it.
 */
static size_t
aclnn_prefix(const struct lname *e)
{
	const char *u;

	if (e->len < 6 || strncmp(e->name, "aclnn", 5) != 0)
		return 0;
	u = memchr(e->name, '_', e->len);
	return u != NULL ? (size_t)(u - e->name) : 0;
}

/* Whether K is a kernel of the same aclnn op as the run's last one. */
static int
same_op(const struct ldev *d, const struct lname *e)
{
	const struct lname *l;
	size_t n = aclnn_prefix(e);

	if (n == 0 || d->nrun == 0)
		return 0;
	l = names_get(d->run[d->nrun - 1].name);
	return aclnn_prefix(l) == n && memcmp(l->name, e->name, n) == 0;
}

static int
run_kind(const struct lname *e)
{
	if (e->role == ROLE_CONV)
		return RK_CONV;
	if (e->flags & (NF_HELP | NF_COMM | NF_AICPU))
		return RK_HELP;
	if (e->role == ROLE_MATMUL && !(e->flags & NF_ELEM))
		return RK_GEMM;
	if (e->role == ROLE_MEM)
		return RK_HELP;
	return RK_BREAK;
}

/* Whether a kernel named E starts a run (convolution or GEMM). */
int
conv_is_start(const struct lname *e)
{
	int k = run_kind(e);

	return k == RK_CONV || k == RK_GEMM;
}

static void
run_push(struct ldev *d, struct lkern *k)
{
	const struct lname *e = names_get(k->name);
	int rk = run_kind(e);

	if (k->rec == NULL)
		k->rec = stage_keep(lst);
	if (d->nrun == d->runcap) {
		d->runcap = d->runcap ? 2 * d->runcap : 32;
		d->run = xreallocarray(d->run, d->runcap, sizeof(*d->run));
	}
	d->run[d->nrun++] = *k;
	d->run_conv |= rk == RK_CONV;
	d->run_gemm += rk == RK_GEMM;
	d->run_bwd |= (e->flags & NF_BWDN) != 0;
	live_add(d, k);
}

/* End the open run: its first kernel becomes a marker, the rest follow. */
void
conv_flush(struct ldev *d)
{
	size_t i;
	int dir, unit;

	if (d->nrun == 0)
		return;
	dir = d->run_bwd || (!d->run_conv && d->run_gemm >= 2) ? DIR_BWD :
	    DIR_FWD;
	unit = d->run_conv ? LT_CONV : LT_LINEAR;
	d->next_normbefore = d->run_normbefore;
	pass_marker(d, &d->run[0], dir, d->run_step, strlen(d->run_step),
	    unit);
	for (i = 1; i < d->nrun; i++) {
		if (d->pass_rec != NULL)
			held_push(d, &d->run[i]);
		else
			let_go(&d->run[i]);
	}
	d->nrun = 0;
	d->run_conv = d->run_bwd = d->run_gemm = 0;
}

/*
 * One kernel K of a conv-family dev, whose step column is STEP: it
 * joins the open run, starts one, or ends it and then goes where a
 * kernel that is no marker goes.
 */
void
conv_kernel(struct ldev *d, struct lkern *k, const char *step, size_t slen)
{
	int rk = run_kind(names_get(k->name));

	if (d->nrun > 0 && slen > 0 && (strlen(d->run_step) != slen ||
	    memcmp(d->run_step, step, slen) != 0))
		conv_flush(d);
	if (d->nrun > 0) {
		if (rk != RK_BREAK || same_op(d, names_get(k->name))) {
			run_push(d, k);
			return;
		}
		conv_flush(d);
	}
	pass_step_change(d, k, step, slen);
	if (rk == RK_CONV || rk == RK_GEMM) {
		/* the device busy the layer inherits, as of its first kernel */
		live_carry(d, k->s, &d->mk_carry, &d->nmk_carry,
		    &d->mk_carrycap, &d->mk_gap);
		free(d->run_step);
		d->run_step = xstrndup(step, slen);
		d->run_normbefore = d->norm_seen;
		d->norm_seen = 0;
		run_push(d, k);
		return;
	}
	if (names_get(k->name)->role == ROLE_NORM)
		d->norm_seen = 1;
	if (d->pass_rec != NULL)
		held_push(d, k);
	else
		let_go(k);
	live_add(d, k);
}

/*
 * The confidence that the window K (N kernels) is a convolutional
 * network, in millionths, and in *UNITS its number of convolution runs.
 * A unit counts for it when it is shaped like a conv block: a norm, an
 * activation, a pooling kernel or a residual add is among the first
 * three kernels after its run (helpers aside), or the run is a
 * gradient, whose norm and activation gradients come before it.  The
 * confidence is (shaped + 1) / (units + 2), the rule of succession: an
 * estimate of the share of such units that is never 1, since a name
 * match is evidence, not proof.
 */
int64_t
conv_confidence(const struct lkern *k, size_t n, int64_t *units)
{
	int64_t shaped = 0;
	size_t i;
	int inrun = 0, conv = 0, bwd = 0, tail = 0, open = 0, seen = 0;

	*units = 0;
	for (i = 0; i <= n; i++) {
		const struct lname *e = i < n ? names_get(k[i].name) : NULL;
		int rk = e != NULL ? run_kind(e) : RK_BREAK;

		if (inrun && rk != RK_BREAK) {
			conv |= rk == RK_CONV;
			bwd |= (e->flags & NF_BWDN) != 0;
			continue;
		}
		if (inrun) {		/* the run ended: a unit opens */
			inrun = 0;
			if (open)
				shaped += tail;
			open = conv;
			*units += conv;
			tail = conv && bwd;
			seen = 0;
		}
		if (e != NULL && (rk == RK_CONV || rk == RK_GEMM)) {
			inrun = 1;
			conv = rk == RK_CONV;
			bwd = (e->flags & NF_BWDN) != 0;
			continue;
		}
		if (e == NULL || rk == RK_HELP || seen >= 3)
			continue;
		seen++;
		if (e->role == ROLE_NORM || e->role == ROLE_ACT ||
		    e->role == ROLE_POOL || (e->flags & NF_RESADD))
			tail = 1;
	}
	if (open)
		shaped += tail;
	return (shaped + 1) * 1000000 / (*units + 2);
}

/*
 * The residual blocks and stages of a forward pass of N layer records
 * R, with what each holds in M (LM_ bits): the residual and stage
 * columns of its convolution layers, and the counts on the pass record.
 * Residual blocks are believed only when they hold two convolutions or
 * more on average: a network that adds a bias after every convolution
 * has a tensor add in every unit, and no residual structure.
 */
void
conv_blocks(struct ldev *d, struct srec **r, const unsigned *m, size_t n)
{
	const struct layers_cols *cols = stage_columns(lst);
	int64_t *blk = xcalloc(n + 1, sizeof(*blk)), *cnt, nres = 0, nconv = 0;
	int64_t mode = 0, best = 0, stage = -1;
	size_t i, j, start = 0;
	int prev_res = 0;

	/* blk[i]: the residual block of layer i, -1 none */
	cnt = xcalloc(n + 1, sizeof(*cnt));
	for (i = 0; i < n; i++) {
		blk[i] = -1;
		if (!(m[i] & LM_CONV)) {
			start = i + 1;
			continue;
		}
		if (m[i] & LM_ADD) {
			for (j = start; j <= i; j++)
				if (m[j] & LM_CONV) {
					blk[j] = nres;
					cnt[nres]++;
					nconv++;
				}
			nres++;
			start = i + 1;
		} else if (m[i] & LM_POOL)
			start = i + 1;
	}
	if (nres == 0 || nconv < 2 * nres) {
		free(blk);
		free(cnt);
		return;
	}
	/* the most common convolutions per residual block */
	for (i = 0; i < (size_t)nres; i++) {
		int64_t c = 0;

		for (j = 0; j < (size_t)nres; j++)
			c += cnt[j] == cnt[i];
		if (c > best || (c == best && cnt[i] < mode)) {
			best = c;
			mode = cnt[i];
		}
	}
	for (i = 0; i < n; i++) {
		if (blk[i] < 0) {
			prev_res = 0;
			continue;
		}
		if ((i == 0 || blk[i - 1] != blk[i]) && (!prev_res ||
		    cnt[blk[i]] > mode))
			stage++;
		prev_res = 1;
		srec_set_i64(r[i], cols->res, blk[i]);
		srec_set_i64(r[i], cols->stage, stage);
	}
	srec_set_i64(d->pass_rec, cols->nres, nres);
	srec_set_i64(d->pass_rec, cols->nstages, stage + 1);
	if (nres > d->res_blocks_max)
		d->res_blocks_max = nres;
	if (stage + 1 > d->stages_max)
		d->stages_max = stage + 1;
	d->res_passes++;
	free(blk);
	free(cnt);
}
