/*
 * prof-layers: layers without an attention marker.  A dev that has
 * shown no marker holds its kernels in a window (up to -w kernels, one
 * step, or the input's end), which then decides how its structure is
 * found, in this order:
 *
 * 1. Convolutions: two convolution runs or more make the dev one of the
 *    conv family (layers-conv.c), unless -d or -C.
 * 2. The repeating kernel sequence of the layers: the kernel that marks
 *    one period of it becomes the dev's marker.
 * 3. Nothing: the window's kernels are written without layers, a new
 *    window starts, and the model record says no repeating structure
 *    was found, with the best confidence seen.
 *
 * In the first two the window and the rest of the input then go through
 * the same pass and layer rules.
 *
 * Candidates are names that occur at least four times and can mark a
 * layer: attention, convolution, GEMM, norm, activation, layer
 * preparation, MoE routing or expert kernels, never an elementwise,
 * fill, cast or copy kernel (an optimizer's per-parameter update or a
 * gradient's zeroing repeats too, with no layer in it).  For each, the
 * modal distance (in kernels) between its consecutive occurrences is
 * the candidate period P (or -p), and its score is the number of
 * kernels from its first occurrence F to P before its last one L that
 * recur P kernels later (s[i] == s[i+P], F <= i <= L-P).  A name that
 * occurs once per layer gives the layer period; one that occurs several
 * times per layer gives a period that does not repeat the sequence and
 * scores low.  Scores within 5% of the best tie; ties go to an
 * attention kernel, then to the longest total duration.  Confidence =
 * (score + 1) / (L - P - F + 3), the rule of succession over the N = L -
 * P - F + 1 kernels of the repeated region: an estimate of the share of
 * kernels that recur one period later which a finite window never
 * takes to 1, since a period found is a guess, rounded down to a
 * millionth.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "layers.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

/* The candidates whose score is computed in full. */
#define NCAND	64
/*
 * Occurrences a name needs to mark layers: three identical GEMMs (a
 * test of stream events) are not a model's layers, and a model of two
 * or three layers has its attention or convolution kernels to say so.
 */
#define MIN_REPEAT	4

struct cand {
	uint32_t	 name;
	size_t		 first, last, count, period, modal, score;
	int64_t		 dur;
};

/*
 * The modal gap between consecutive occurrences of C's name, the
 * smallest of equally frequent ones, from its occurrences AT (C->count
 * positions, ascending).  Gaps are counted in CNT (zero on entry and on
 * return, indexed by gap < the window's size): a sort per candidate
 * made detection cost more than the rest of a kernel's work.
 */
static void
modal_gap(struct cand *c, const size_t *at, size_t *cnt)
{
	size_t i, g, best = 0;

	c->period = 0;
	for (i = 1; i < c->count; i++) {
		g = at[i] - at[i - 1];
		if (++cnt[g] > best || (cnt[g] == best && g < c->period)) {
			best = cnt[g];
			c->period = g;
		}
	}
	for (i = 1; i < c->count; i++)
		cnt[at[i] - at[i - 1]] = 0;
	c->modal = best;
}

/*
 * The positions in K of each candidate's name, grouped by candidate
 * (C[i]'s from (*START)[i]), in one pass over the window.
 */
static size_t *
occurrences(const struct lkern *k, size_t n, const struct cand *c,
    size_t nc, size_t **start)
{
	uint32_t maxid = 0;
	size_t i, *at = xreallocarray(NULL, n + 1, sizeof(*at)), *fill;
	size_t *of;

	for (i = 0; i < nc; i++)
		if (c[i].name > maxid)
			maxid = c[i].name;
	of = xcalloc((size_t)maxid + 1, sizeof(*of));	/* cand + 1 */
	*start = xreallocarray(NULL, nc + 1, sizeof(**start));
	fill = xreallocarray(NULL, nc + 1, sizeof(*fill));
	for (i = 0; i < nc; i++) {
		of[c[i].name] = i + 1;
		(*start)[i] = fill[i] = i > 0 ? (*start)[i - 1] +
		    c[i - 1].count : 0;
	}
	for (i = 0; i < n; i++)
		if (k[i].name <= maxid && of[k[i].name] > 0)
			at[fill[of[k[i].name] - 1]++] = i;
	free(of);
	free(fill);
	return at;
}

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->modal != y->modal)
		return x->modal > y->modal ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/*
 * The kernels of C's region that recur one period later, where that is
 * still inside the region: positions first .. last - period, so that no
 * candidate loses for lying nearer the window's end.
 */
static size_t
score(const struct cand *c, const struct lkern *k)
{
	size_t i, m = 0;

	for (i = c->first; i + c->period <= c->last; i++)
		m += k[i].name == k[i + c->period].name;
	return m;
}

/* Whether a kernel named E may mark a layer (see above). */
static int
anchor_role(const struct lname *e)
{
	if (e->flags & NF_ELEM)
		return 0;
	switch (e->role) {
	case ROLE_ATTN: case ROLE_CONV: case ROLE_MATMUL: case ROLE_NORM:
	case ROLE_PREP: case ROLE_ACT: case ROLE_ROUTE: case ROLE_EXPERT:
		return 1;
	}
	return 0;
}

/*
 * The candidates: every name that may mark a layer, seen three times,
 * and more than once a step when the window spans STEPS host steps (two
 * or more): a kernel that runs once a step repeats with the step, and a
 * step is not a layer.
 */
static struct cand *
candidates(const struct lkern *k, size_t n, size_t *ncand, int64_t steps)
{
	struct cand *c = NULL;
	size_t i, j, nc = 0, cap = 0;
	uint32_t maxid = 0;
	int64_t *idx;

	for (i = 0; i < n; i++)
		if (k[i].name > maxid)
			maxid = k[i].name;
	idx = xcalloc((size_t)maxid + 1, sizeof(*idx));
	for (i = 0; i < n; i++) {
		if (!anchor_role(names_get(k[i].name)))
			continue;
		j = (size_t)idx[k[i].name];
		if (j == 0) {
			if (nc == cap) {
				cap = cap ? 2 * cap : 64;
				c = xreallocarray(c, cap, sizeof(*c));
			}
			memset(&c[nc], 0, sizeof(c[nc]));
			c[nc].name = k[i].name;
			c[nc].first = i;
			idx[k[i].name] = (int64_t)++nc;
			j = nc;
		}
		c[j - 1].last = i;
		c[j - 1].count++;
		c[j - 1].dur = num_sat_add(c[j - 1].dur, k[i].e - k[i].s);
	}
	free(idx);
	for (i = j = 0; i < nc; i++)
		if (c[i].count >= MIN_REPEAT && (steps < 2 ||
		    (int64_t)c[i].count > steps + 1))
			c[j++] = c[i];
	*ncand = j;
	return c;
}

/*
 * The anchor of the window K (N kernels), or -1; *CONF is its
 * confidence in millionths.  Candidates within 5% of the best score
 * are equal: an attention kernel among them is the natural marker (a
 * capture that starts mid-layer gives it one occurrence less than the
 * kernels before it), then the one with the most kernel time.
 */
static int64_t
find_anchor(const struct lkern *k, size_t n, int64_t *conf, int64_t *period,
    int64_t steps)
{
	struct cand *c;
	size_t nc, i, *at, *start, *cnt, best_sc = 0;
	int64_t best = -1, best_dur = 0;
	int best_attn = 0;

	c = candidates(k, n, &nc, steps);
	at = occurrences(k, n, c, nc, &start);
	cnt = xcalloc(n + 1, sizeof(*cnt));
	for (i = 0; i < nc; i++) {
		modal_gap(&c[i], at + start[i], cnt);
		if (lopts.period > 0)	/* -p: the period is given */
			c[i].period = (size_t)lopts.period;
	}
	free(cnt);
	free(start);
	free(at);
	if (nc > 1)
		qsort(c, nc, sizeof(*c), cmp_cand);
	if (nc > NCAND)
		nc = NCAND;
	for (i = 0; i < nc; i++) {
		c[i].score = c[i].period < 2 || c[i].modal < 2 ||
		    c[i].first + c[i].period > c[i].last ? 0 :
		    score(&c[i], k);
		if (c[i].score > best_sc)
			best_sc = c[i].score;
	}
	*conf = 0;
	for (i = 0; i < nc && best_sc > 0; i++) {
		int attn = names_get(c[i].name)->role == ROLE_ATTN;

		if (20 * c[i].score < 19 * best_sc || (best >= 0 &&
		    (best_attn > attn || (best_attn == attn &&
		    c[i].dur <= best_dur))))
			continue;
		best = c[i].name;
		best_dur = c[i].dur;
		best_attn = attn;
		*conf = (int64_t)((__int128)(c[i].score + 1) * 1000000 /
		    (int64_t)(c[i].last - c[i].period - c[i].first + 3));
		*period = (int64_t)c[i].period;
	}
	free(c);
	return best;
}

/* Replay the window W (N kernels of step STEP) through the rules. */
static void
replay(struct ldev *d, struct lkern *w, size_t n, char *step)
{
	size_t i;

	d->k = NULL;
	d->nk = d->kcap = 0;
	d->win_step = NULL;
	for (i = 0; i < n; i++) {
		pass_tick(d, w[i].s);
		pass_kernel(d, &w[i], step, strlen(step));
	}
	free(step);
	free(w);
}

/*
 * Search the window of D: convolutions first, then the repeating
 * sequence.  With either, the dev switches to it and the window is
 * replayed; else the window's kernels are written as they are and a new
 * window starts.
 */
void
detect_window(struct ldev *d, int eof)
{
	struct lkern *w = d->k;
	size_t i, n = d->nk;
	int64_t anchor, conf, units, period = 0;

	(void)eof;
	d->detect_ran = 1;
	if (!lopts.detect && !lopts.no_conv) {
		conf = conv_confidence(w, n, &units);
		if (units >= 2 && conf >= lopts.min_conf_ppm) {
			d->family = FAM_CONV;
			d->confidence_ppm = conf;
			replay(d, w, n, d->win_step);
			return;
		}
	}
	anchor = find_anchor(w, n, &conf, &period, d->win_hsteps);
	if (anchor < 0 || conf < lopts.min_conf_ppm) {
		if (conf > d->confidence_ppm)
			d->confidence_ppm = conf;
		for (i = 0; i < n; i++) {
			live_add(d, &w[i]);
			stage_put(lst, w[i].rec);
		}
		d->nk = 0;
		return;
	}
	d->detected = 1;
	d->family = FAM_PERIODIC;
	d->anchor = (uint32_t)anchor;
	d->anchor_dir = names_anchor_dir(d->anchor);
	d->confidence_ppm = conf;
	d->period = period;
	replay(d, w, n, d->win_step);
}
