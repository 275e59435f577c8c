/*
 * prof-steps: the host's training loop, where there is no step marker.
 *
 * A training script's iteration runs the same annotated regions every
 * time (record_function and Kineto's user annotations: "## forward ##",
 * "## zero_grad ##", "Optimizer.step#Adam.step", a data loader's
 * "enumerate(DataLoader)#..."), once each, in the same order.  The host
 * timeline says where an iteration starts even when the device does
 * not: on a job whose device runs 150 ms behind, or whose next step's
 * input kernels overlap the tail of the current one on other streams,
 * no cut of the device timeline separates the steps, while the host's
 * launches do (each kernel goes to the iteration that launched it, by
 * corr, as with ProfilerStep markers).
 *
 * The rule: among the user annotations of a device, the names that
 * occur at least twice; K, the count that most names share (of equal
 * shares, the larger); the names that occur K times and whose i-th
 * occurrence starts at or after iteration i's start and before
 * iteration i + 1's, iteration i starting at the earliest i-th
 * occurrence of those names (names that break the order are dropped and
 * the starts taken again, three rounds at most).  A loop needs
 * LOOP_MIN_NAMES names that keep the order and at least half of those
 * that occur K times; iteration i then runs from its start to the next
 * one's, the last to the latest end of its annotations.  Its confidence
 * is the share of the K-count names that keep the order times K / (K + 1)
 * (more iterations seen, more certain) times 0.95: a loop is still read
 * from names, not told by a marker.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "steps.h"
#include "xalloc.h"

#define LOOP_MIN_NAMES	3	/* annotated regions that keep the order */
#define LOOP_ROUNDS	3

/* Kernel annotations kept per device for the loop, at most. */
#define ANN_MAX		65536

void
steps_loop_see(struct sdev *d, const char *name, size_t len, int64_t ts,
    int64_t end)
{
	struct sann *a;

	if (d->ann_over)
		return;
	if (d->nann == ANN_MAX) {	/* not a loop a script writes */
		free(d->ann);
		d->ann = NULL;
		d->nann = d->anncap = 0;
		d->ann_over = 1;
		return;
	}
	if (d->nann == d->anncap) {
		d->anncap = d->anncap ? 2 * d->anncap : 64;
		d->ann = xreallocarray(d->ann, d->anncap, sizeof(*d->ann));
	}
	a = &d->ann[d->nann++];
	a->name = hash_bytes(name, len, 0);
	a->ts = ts;
	a->end = end;
}

static int
by_name_ts(const void *x, const void *y)
{
	const struct sann *a = x, *b = y;

	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	return (a->ts > b->ts) - (a->ts < b->ts);
}

/* One name's run in the sorted annotations: [first, first + n). */
struct nrun {
	size_t		 first, n;
	int		 keep;
};

/*
 * Whether run R keeps the order of the iteration starts B (K of them):
 * its i-th occurrence in [B[i], B[i + 1]).
 */
static int
keeps_order(const struct sann *a, const struct nrun *r, const int64_t *b,
    size_t k)
{
	size_t i;

	for (i = 0; i < k; i++) {
		int64_t t = a[r->first + i].ts;

		if (t < b[i] || (i + 1 < k && t >= b[i + 1]))
			return 0;
	}
	return 1;
}

int
steps_loop_find(struct sdev *d, struct sloop *lp)
{
	struct sann *a = d->ann;
	struct nrun *run = NULL;
	size_t nrun = 0, i, j, k = 0, best = 0, nk, nkeep = 0;
	size_t *share = NULL, maxc = 0;
	int64_t *b = NULL, end;
	int round, found = 0;

	memset(lp, 0, sizeof(*lp));
	if (d->ann_over || d->nann < 2 * LOOP_MIN_NAMES)
		return 0;
	qsort(a, d->nann, sizeof(*a), by_name_ts);
	for (i = 0; i < d->nann; i = j) {
		for (j = i + 1; j < d->nann && a[j].name == a[i].name; j++)
			;
		if (j - i < 2)
			continue;
		run = xreallocarray(run, nrun + 1, sizeof(*run));
		run[nrun].first = i;
		run[nrun].n = j - i;
		run[nrun].keep = 0;
		nrun++;
		if (j - i > maxc)
			maxc = j - i;
	}
	if (nrun < LOOP_MIN_NAMES)
		goto out;
	/* K: the count most names share; of equal shares the larger */
	share = xcalloc(maxc + 1, sizeof(*share));
	for (i = 0; i < nrun; i++)
		share[run[i].n]++;
	for (i = 2; i <= maxc; i++)
		if (share[i] >= best) {
			best = share[i];
			k = i;
		}
	if (best < LOOP_MIN_NAMES)
		goto out;
	for (i = 0; i < nrun; i++)
		run[i].keep = run[i].n == k;
	nk = best;
	b = xreallocarray(NULL, k, sizeof(*b));
	for (round = 0; round < LOOP_ROUNDS; round++) {
		size_t changed = 0;

		for (j = 0; j < k; j++)
			b[j] = INT64_MAX;
		for (i = 0; i < nrun; i++)
			if (run[i].keep)
				for (j = 0; j < k; j++)
					if (a[run[i].first + j].ts < b[j])
						b[j] = a[run[i].first + j].ts;
		for (i = nkeep = 0; i < nrun; i++) {
			if (!run[i].keep)
				continue;
			if (keeps_order(a, &run[i], b, k))
				nkeep++;
			else {
				run[i].keep = 0;
				changed++;
			}
		}
		if (changed == 0 || nkeep < LOOP_MIN_NAMES)
			break;
	}
	if (nkeep < LOOP_MIN_NAMES || 2 * nkeep < nk)
		goto out;
	for (j = 1; j < k; j++)
		if (b[j] <= b[j - 1])
			goto out;
	end = b[k - 1];
	for (i = 0; i < nrun; i++)
		if (run[i].keep && a[run[i].first + k - 1].end > end)
			end = a[run[i].first + k - 1].end;
	lp->start = b;
	lp->k = k;
	lp->last_end = end;
	lp->names = nkeep;
	/* share kept x K / (K + 1) x 0.95, over 1e6 */
	lp->conf_num = (int64_t)(nkeep * k * 950000 / (nk * (k + 1)));
	lp->conf_den = 1000000;
	b = NULL;
	found = 1;
out:
	free(b);
	free(share);
	free(run);
	free(d->ann);
	d->ann = NULL;
	d->nann = d->anncap = 0;
	return found;
}
