/*
 * prof-steps: the step windows of each device, from the best source it
 * has (doc/analysis-rules.md, Step windows): the kernels named by
 * --step-kernel, else step markers,
 * else the kernels' own step ids, else a repeating iteration detected in
 * the kernel sequence, else one pseudo-step for the whole capture.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "xalloc.h"

static int	 cmp_i64(const void *, const void *);

static struct swin *
new_win(struct sdev *d, int64_t s, int64_t num)
{
	struct swin *w;

	d->win = xreallocarray(d->win, d->nwin + 1, sizeof(*d->win));
	w = &d->win[d->nwin++];
	memset(w, 0, sizeof(*w));
	w->s = w->e = s;
	w->num = num;
	return w;
}

/* The host marker of step NUM, from about AT on, or NULL. */
static const struct smark *
host_twin(const struct sdev *d, size_t p, int64_t num, size_t *at)
{
	const struct smark *hm = d->mk[2 * p];
	size_t nh = d->nmk[2 * p], i, j;

	for (i = 0; i < nh; i++) {
		j = (*at + i) % nh;
		if (hm[j].num == num) {
			*at = j;
			return &hm[j];
		}
	}
	return NULL;
}

/*
 * Whether the device copies of pattern P's markers agree with the host
 * copies: every device marker whose host twin launched kernels (linked
 * by corr) covers at least half of the time from the first of those
 * kernels' start to the last one's end.  Kineto on CUDA writes device
 * copies that span the kernels launched inside the host range; ROCm
 * traces have been seen with copies 18 us long, placed a step later.
 */
static int
device_agrees(const struct sdev *d, size_t p)
{
	const struct smark *dm = d->mk[2 * p + 1], *h;
	size_t i, at = 0;

	for (i = 0; i < d->nmk[2 * p + 1]; i++) {
		int64_t lo, hi;

		if ((h = host_twin(d, p, dm[i].num, &at)) == NULL ||
		    h->lkern == 0)
			continue;
		if (h->lend == h->lstart) {
			if (dm[i].ts > h->lstart || dm[i].end < h->lstart)
				return 0;
			continue;
		}
		lo = dm[i].ts > h->lstart ? dm[i].ts : h->lstart;
		hi = dm[i].end < h->lend ? dm[i].end : h->lend;
		if (hi < lo || (hi - lo) * 2 < h->lend - h->lstart)
			return 0;
	}
	return 1;
}

/*
 * The marker class to use: the first pattern that has markers on this
 * device, and of its markers the device-side copies when there are any,
 * since they are on the kernels' clock, unless they disagree with the
 * kernels their host twins launched: then the host copies, moved to the
 * device through the launches where every one has them.
 */
static int
marker_class(struct sdev *d)
{
	size_t p;

	for (p = 0; p < STEPS_MAXPAT; p++) {
		if (d->nmk[2 * p + 1] > 0) {
			if (d->nmk[2 * p] == 0 || device_agrees(d, p))
				return (int)(2 * p + 1);
			d->win_tags |= WT_DEVMISMATCH;
			return (int)(2 * p);
		}
		if (d->nmk[2 * p] > 0)
			return (int)(2 * p);
	}
	return -1;
}

/*
 * Host markers run ahead of the device.  When every host marker launched
 * kernels (matched by corr), step i starts when the device has finished
 * the work step i - 1 launched, but not before its host marker starts
 * and not after its own first kernel; the last step ends with the last
 * kernel it launched.  A kernel then counts in the step that
 * launched it, and the idle time while the host prepares a step is
 * still that step's prelaunch gap.  The first step likewise starts only
 * when the device has finished what it was running when the step's
 * first kernel came: work launched before the capture belongs to no
 * step here, and is counted as outside.
 */
static int
from_launches(struct sdev *d, int cls)
{
	size_t i, n = d->nmk[cls];
	struct smark *m = d->mk[cls];
	int64_t s = INT64_MIN;

	if (cls % 2 != 0 || steps_opt.host_windows)
		return 0;
	for (i = 0; i < n; i++)
		if (m[i].lkern == 0)
			return 0;
	for (i = 0; i < n; i++) {
		struct swin *w;

		int64_t t = i > 0 && m[i - 1].lend > m[i].ts ? m[i - 1].lend :
		    m[i].ts;

		if (i == 0 && m[0].pre_end > t)
			t = m[0].pre_end;
		t = t < m[i].lstart ? t : m[i].lstart;
		s = t > s ? t : s;
		w = new_win(d, s, m[i].num);
		w->name = m[i].name;
		w->nkern = m[i].lkern;
		w->tags = WT_LAUNCH;
		if (i > 0)
			d->win[d->nwin - 2].e = s;
		w->e = m[i].lend > s ? m[i].lend : s;
	}
	d->src = SRC_MARKER;
	return 1;
}

/* Window i ends where window i + 1 starts; the last at its last kernel. */
static void
from_markers(struct sdev *d, int cls)
{
	size_t i, n = d->nmk[cls];
	struct smark *m = d->mk[cls];

	if (from_launches(d, cls))
		return;
	for (i = 0; i < n; i++) {
		struct swin *w = new_win(d, m[i].ts, m[i].num);

		w->name = m[i].name;
		w->nkern = m[i].nkern;
		w->e = i + 1 < n ? m[i + 1].ts :
		    m[i].nkern > 0 ? m[i].kend : m[i].end;
	}
	d->src = SRC_MARKER;
}

static int
cmp_sid(const void *a, const void *b)
{
	const struct sid *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first ? 1 :
	    x->id < y->id ? -1 : x->id > y->id;
}

static void
from_step_ids(struct sdev *d)
{
	size_t i;

	qsort(d->ids, d->nids, sizeof(*d->ids), cmp_sid);
	for (i = 0; i < d->nids; i++) {
		struct swin *w = new_win(d, d->ids[i].first, d->ids[i].id);

		w->nkern = d->ids[i].nkern;
		w->e = i + 1 < d->nids ? d->ids[i + 1].first : d->ids[i].kend;
	}
	d->src = SRC_STEP_ID;
}

/* One pseudo-step: the dev's capture up to its last kernel. */
static void
from_capture(struct sdev *d)
{
	struct swin *w = new_win(d, d->first_ts, d->nstt == 1 ? d->stt[0] :
	    0);

	w->e = d->nkern > 0 ? d->kern_end : d->last_end;
	w->nkern = d->nkern;
	w->tags = WT_CUT_START | WT_CUT_END;
	d->src = SRC_CAPTURE;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The capture boundary cuts the first or the last step when it holds
 * visibly fewer kernels than the steps between them: fewer than the
 * median of the device's steps less the tolerance.  It takes three steps
 * to have a median that the boundary steps do not decide.
 */
static void
flag_cuts(struct sdev *d)
{
	int64_t *k, med;
	size_t i, n = d->nwin;

	if (n < 3)
		return;
	k = xreallocarray(NULL, n, sizeof(*k));
	for (i = 0; i < n; i++)
		k[i] = d->win[i].nkern;
	qsort(k, n, sizeof(*k), cmp_i64);
	med = k[n / 2];
	free(k);
	if (d->win[0].nkern * 100 < med * (100 - steps_opt.tol))
		d->win[0].tags |= WT_CUT_START;
	if (d->win[n - 1].nkern * 100 < med * (100 - steps_opt.tol))
		d->win[n - 1].tags |= WT_CUT_END;
}

/* step_trace_time has no times; it can only confirm step numbers. */
static void
confirm(struct sdev *d)
{
	size_t i, j;

	for (i = 0; i < d->nwin; i++)
		for (j = 0; j < d->nstt; j++)
			if (d->win[i].num == d->stt[j])
				d->win[i].tags |= WT_CONFIRMED;
}

/*
 * --step-kernel: a step starts at each kernel so named; the kernels
 * before the first one make a leading step.
 */
static int
from_kernels(struct sdev *d)
{
	size_t i, ncut = 1, *cut;
	int64_t *kv, *dv;

	for (i = 0; i < d->nkt && !(d->kt[i].flags & KT_FORCE); i++)
		;
	if (i == d->nkt)
		return 0;
	cut = xreallocarray(NULL, d->nkt, sizeof(*cut));
	cut[0] = 0;
	for (i = 1; i < d->nkt; i++)
		if (d->kt[i].flags & KT_FORCE)
			cut[ncut++] = i;
	steps_cut_windows(d, cut, ncut, WT_FORCED);
	kv = xreallocarray(NULL, ncut, sizeof(*kv));
	dv = xreallocarray(NULL, ncut, sizeof(*dv));
	for (i = 0; i < ncut; i++) {
		kv[i] = d->win[i].nkern;
		dv[i] = d->win[i].e - d->win[i].s;
	}
	qsort(kv, ncut, sizeof(*kv), cmp_i64);
	qsort(dv, ncut, sizeof(*dv), cmp_i64);
	d->per[PL_STEP] = (struct speriod){ (int64_t)ncut,
	    kv[(ncut - 1) / 2], dv[(ncut - 1) / 2], 1, 1, PE_FORCED };
	free(kv);
	free(dv);
	free(cut);
	d->src = SRC_MARKER;
	return 1;
}

void
steps_windows(struct sdev *d)
{
	int cls = marker_class(d);
	size_t i;

	if (!d->timed)
		return;
	if (steps_opt.step_kernel != NULL && from_kernels(d))
		;
	else if (cls >= 0)
		from_markers(d, cls);
	else if (d->nids > 0)
		from_step_ids(d);
	else if (!(d->nkt > 0 && steps_detect(d)))
		from_capture(d);
	if (d->src != SRC_CAPTURE)
		flag_cuts(d);
	confirm(d);
	for (i = 0; i < d->nwin; i++)
		d->win[i].tags |= d->win_tags;
	free(d->kt);
	d->kt = NULL;
	free(d->optln);
	d->optln = NULL;
	free(d->lnk);
	d->lnk = NULL;
}
