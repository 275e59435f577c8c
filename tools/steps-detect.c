/*
 * prof-steps: find the repeating periods of a device's kernel sequence
 * when the profile has no step markers and no step ids.
 *
 * A period runs the same kernels in the same order, so a kernel name
 * that runs once per period recurs with it, and the stretches between
 * its occurrences look alike.  Candidates are tried from the rarest
 * recurring names up (the longest period first); the first whose
 * consecutive stretches align well enough is the coarsest period seen,
 * and a shorter one nested in it (a whole number of them per period)
 * is remembered too.  Whether the coarsest period is the step or a layer
 * that repeats inside one pass is decided in steps-level.c: the longest
 * period of a single forward pass is its layer.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "strtab.h"
#include "xalloc.h"

#define DETECT_TRIES	64	/* distinct occurrence counts tried */
#define DETECT_PAIRS	16	/* stretch pairs compared while choosing */
#define DETECT_ACCEPT	85	/* percent of aligned kernels to accept */
#define ALIGN_LOOK	8	/* kernels looked ahead to resynchronise */
#define DETECT_COVER	50	/* percent of kernels the periods must span */
#define NEST_MAX	8	/* shorter periods per period looked for */
#define MIN_LAG		4	/* kernels: shorter periods repeat an op */

/* ---- interned kernel names ---- */

/* The kernel names by id. */
static struct strtab names;

uint32_t
steps_intern(const char *s, size_t len)
{
	return (uint32_t)strtab_intern(&names, s, len, NULL);
}

uint32_t
steps_nnames(void)
{
	return (uint32_t)names.n;
}

/* ---- alignment of two stretches ---- */

/*
 * Kernels of [a, ae) and [b, be) matched in order, skipping up to
 * ALIGN_LOOK kernels on either side to get back in step after an extra
 * or missing kernel (a memcpy, a kernel on another stream that started
 * a little earlier this time).
 */
int64_t
steps_align(const struct ktup *k, size_t a, size_t ae, size_t b, size_t be)
{
	int64_t m = 0;
	size_t j;

	while (a < ae && b < be) {
		if (k[a].name == k[b].name) {
			m++, a++, b++;
			continue;
		}
		for (j = 1; j <= ALIGN_LOOK; j++) {
			if (b + j < be && k[a].name == k[b + j].name) {
				b += j;
				break;
			}
			if (a + j < ae && k[a + j].name == k[b].name) {
				a += j;
				break;
			}
		}
		if (j > ALIGN_LOOK)
			a++, b++;
	}
	return m;
}

/*
 * Two occurrences whose second period the capture cut: the kernels after
 * the second against the start of the first period, and those before
 * the first against the end of the first period.  Together they must
 * cover a period: a capture of exactly two steps shows every kernel of
 * the step twice, the anchor's second period only in two pieces.
 */
static int
score_two(const struct ktup *k, size_t n, const size_t *q, int64_t *num,
    int64_t *den)
{
	size_t lag = q[1] - q[0], tail = n - q[1];

	if (tail + q[0] < lag)
		return 0;
	*num = 2 * steps_align(k, q[0], q[0] + tail, q[1], n) +
	    2 * steps_align(k, q[1] - q[0], q[1], 0, q[0]);
	*den = 2 * (int64_t)(tail + q[0]);
	return *den > 0;
}

/*
 * How well the stretches between the C occurrences Q of a name align:
 * twice the matched kernels over the kernels compared.  With two
 * occurrences the second stretch runs to the end, or is completed by
 * the kernels before the first (score_two).
 */
static int
score(const struct ktup *k, size_t n, const size_t *q, size_t c,
    size_t maxpairs, int64_t *num, int64_t *den)
{
	size_t j, pairs = c >= 3 ? c - 2 : 1, step = 1;

	*num = 0;
	*den = 0;
	if (c == 2 && n - q[1] < q[1] - q[0])
		return score_two(k, n, q, num, den);
	if (pairs > maxpairs)
		step = pairs / maxpairs;
	for (j = 0; j + 1 < c && j < pairs; j += step) {
		size_t be = j + 2 < c ? q[j + 2] : q[1] + (q[1] - q[0]);

		*num += 2 * steps_align(k, q[j], q[j + 1], q[j + 1], be);
		*den += (int64_t)(be - q[j]);
	}
	return *den > 0;
}

/* ---- choosing the period ---- */

struct cand {
	size_t		*pos;		/* all positions, grouped by name */
	size_t		*first;		/* start of each name's positions */
	uint32_t	*best;		/* per count: most regular name + 1 */
};

static void
index_names(const struct ktup *k, size_t n, struct cand *cd)
{
	size_t i, *fill;
	uint32_t id;

	cd->first = xcalloc(names.n + 1, sizeof(*cd->first));
	for (i = 0; i < n; i++)
		cd->first[k[i].name + 1]++;
	for (id = 0; id < names.n; id++)
		cd->first[id + 1] += cd->first[id];
	fill = xreallocarray(NULL, names.n + 1, sizeof(*fill));
	memcpy(fill, cd->first, (names.n + 1) * sizeof(*fill));
	cd->pos = xreallocarray(NULL, n, sizeof(*cd->pos));
	for (i = 0; i < n; i++)
		cd->pos[fill[k[i].name]++] = i;
	free(fill);
}

/* Per occurrence count, the name whose occurrences are most even. */
static void
pick_regular(size_t n, struct cand *cd)
{
	size_t *spread = xcalloc(n / 2 + 1, sizeof(*spread));
	uint32_t id;

	cd->best = xcalloc(n / 2 + 1, sizeof(*cd->best));
	for (id = 0; id < names.n; id++) {
		size_t c = cd->first[id + 1] - cd->first[id], j, lo, hi;
		const size_t *q = cd->pos + cd->first[id];

		if (c < 2 || c > n / 2)
			continue;
		lo = hi = q[1] - q[0];
		for (j = 2; j < c; j++) {
			size_t lag = q[j] - q[j - 1];

			lo = lag < lo ? lag : lo;
			hi = lag > hi ? lag : hi;
		}
		if (cd->best[c] == 0 || hi - lo < spread[c]) {
			cd->best[c] = id + 1;
			spread[c] = hi - lo;
		}
	}
	free(spread);
}

static int
cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The median distance, in kernels, between consecutive occurrences. */
static size_t
median_lag(const size_t *q, size_t c)
{
	size_t *lag = xreallocarray(NULL, c - 1, sizeof(*lag)), j, m;

	for (j = 0; j + 1 < c; j++)
		lag[j] = q[j + 1] - q[j];
	qsort(lag, c - 1, sizeof(*lag), cmp_size);
	m = lag[(c - 1) / 2];
	free(lag);
	return m;
}

/* Whether A is within the tolerance of B (kernels per period). */
static int
near_lag(size_t a, size_t b)
{
	size_t diff = a > b ? a - b : b - a;

	return diff * 100 <= b * (size_t)steps_opt.tol || diff <= 1;
}

/* Whether LAG repeats a whole number of times (2 to NEST_MAX) in TOP. */
static int
nested(size_t top, size_t lag)
{
	size_t m;

	for (m = 2; m <= NEST_MAX; m++)
		if (near_lag(top, m * lag))
			return 1;
	return 0;
}

/*
 * The windows from cut positions CUT[0..N) (kernel indexes, increasing;
 * kernels before CUT[0] are outside every window).  A step starts where
 * the device went idle before its first kernel, so that the gap is its prelaunch gap, as with
 * ProfilerStep markers, which open with the data loading; the last one
 * ends with the last kernel's end.
 */
void
steps_cut_windows(struct sdev *d, const size_t *cut, size_t ncut, int tags)
{
	const struct ktup *k = d->kt;
	size_t n = d->nkt, j, i = 0;
	int64_t busy = INT64_MIN;	/* end of the device's work so far */

	d->win = xcalloc(ncut, sizeof(*d->win));
	d->nwin = ncut;
	for (j = 0; j < ncut; j++) {
		struct swin *w = &d->win[j];

		for (; i < cut[j]; i++)
			busy = k[i].end > busy ? k[i].end : busy;
		w->s = (j > 0 || cut[0] > 0) && busy < k[cut[j]].ts ? busy :
		    k[cut[j]].ts;
		w->num = (int64_t)j + 1;
		w->nkern = (int64_t)((j + 1 < ncut ? cut[j + 1] : n) - cut[j]);
		w->tags = tags;
		if (j > 0)
			d->win[j - 1].e = w->s;
	}
	for (i = cut[ncut - 1], busy = k[i].ts; i < n; i++)
		busy = k[i].end > busy ? k[i].end : busy;
	d->win[ncut - 1].e = busy;
}

/*
 * The candidates for count C on the way up: the first accepted is the
 * coarsest period TOP; a later one nested in it, the finest such, is
 * FINE.  With --period only periods of about that many kernels count,
 * and TOP is the one of them that aligns best.
 */
static void
consider(const struct ktup *k, size_t n, const size_t *q, size_t c,
    struct pcand *top, struct pcand *fine, int64_t *bnum, int64_t *bden)
{
	int64_t num, den;
	size_t lag;

	/*
	 * A name that merely recurs a few kernels apart (a pair of
	 * copies) aligns perfectly but explains little: the periods
	 * must span most of the capture.
	 */
	if ((c >= 3 ? q[c - 1] - q[0] : 2 * (q[1] - q[0])) * 100 <
	    n * DETECT_COVER)
		return;
	lag = median_lag(q, c);
	/* A memset and its GEMM three times over is no iteration. */
	if (lag < MIN_LAG || (steps_opt.period > 0 &&
	    !near_lag(lag, (size_t)steps_opt.period)))
		return;
	if (top->c > 0 && steps_opt.period == 0 && !nested(top->lag, lag))
		return;
	if (!score(k, n, q, c, DETECT_PAIRS, &num, &den))
		return;
	if (num * *bden > *bnum * den)
		*bnum = num, *bden = den;
	if (steps_opt.period > 0) {
		/* Forced: the best aligned of that length, accepted or not. */
		if (top->c == 0 || num * top->den > top->num * den)
			*top = (struct pcand){ c, lag, q, num, den };
		return;
	}
	if (num * 100 < den * DETECT_ACCEPT)
		return;
	if (top->c == 0)
		*top = (struct pcand){ c, lag, q, num, den };
	else if (fine->c == 0 || lag < fine->lag)
		*fine = (struct pcand){ c, lag, q, num, den };
}

int
steps_detect(struct sdev *d)
{
	const struct ktup *k = d->kt;
	size_t n = d->nkt, c, tries = 0;
	struct cand cd;
	struct pcand top = { 0 }, fine = { 0 };
	int64_t bnum = 0, bden = 1;

	d->detect_ran = 1;
	d->conf_num = 0;
	d->conf_den = 1;
	if (n < 4)
		return 0;
	index_names(k, n, &cd);
	pick_regular(n, &cd);
	for (c = 2; c <= n / 2; c++) {
		if (cd.best[c] == 0)
			continue;
		/* Forced, every count is tried: the user knows it is there. */
		if (steps_opt.period == 0 && tries++ == DETECT_TRIES)
			break;
		if (top.c > 0 && steps_opt.period == 0 &&
		    c > top.c * NEST_MAX + 1)
			break;
		consider(k, n, cd.pos + cd.first[cd.best[c] - 1], c, &top,
		    &fine, &bnum, &bden);
	}
	if (top.c > 0) {
		/* Chosen: the confidence comes from every stretch. */
		score(k, n, top.q, top.c, SIZE_MAX, &top.num, &top.den);
		if (fine.c > 0)
			score(k, n, fine.q, fine.c, SIZE_MAX, &fine.num,
			    &fine.den);
		steps_level(d, &top, fine.c > 0 ? &fine : NULL);
	} else {
		d->conf_num = bnum;
		d->conf_den = bden;
	}
	free(cd.pos);
	free(cd.first);
	free(cd.best);
	return top.c > 0;
}
