/*
 * prof-steps: place a detected period in the hierarchy step > pass >
 * layer, then make the device's windows.
 *
 * The coarsest period the kernel sequence repeats is not always the
 * step.  A capture of one forward pass repeats its layers and nothing
 * else: taking the layer for the step gives "36 steps of 14 ms".  The
 * difference shows at the ends: a capture of several steps is whole
 * steps plus the pieces the capture boundary cut, made of the same
 * kernels; a pass is its layers bracketed by kernels no layer runs (the
 * embedding before them, the norm, head and sampling after, the next
 * pass's input between two passes).  So the kernels that run in fewer
 * than half of the periods are counted before the first period, after
 * the last and inside each one; a group of them between two runs that
 * is not noise (at least BRACKET_MIN kernels and BRACKET_PCT percent of
 * a period), or as many on both sides of a single run (one at least on
 * each side), make the period a layer, and the runs of layers between
 * such groups are passes (if they hold LAYER_RUN periods on average: a
 * model has more layers than that, and two periods between foreign
 * kernels are more likely two passes).  An optimizer step in most
 * periods (host annotations Optimizer.step#..., linked to kernels by
 * corr) makes the period a step whatever its ends look like; in some
 * periods only, the periods are the micro-batches of steps that end
 * after the optimizer.  The idle time between periods places the cut;
 * it does not decide the level: on the corpus, the longest idle offset
 * stands out of a layer's as much as of some steps'.
 *
 * Confidence is never 1 for what detection guesses: it is the product
 * of the alignment of consecutive periods, r / (r + 1) for r
 * repetitions seen, and a weight for the evidence of the level (1 for
 * an optimizer step once per period or a period the user named, 0.9
 * for the kernel sequence alone, 0.8 more where a pass is taken for the
 * step because nothing above it repeats).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "xalloc.h"

#define BRACKET_MIN	3	/* foreign kernels that bracket a run */
#define BRACKET_PCT	1	/* ... and that percent of a period */
#define LAYER_RUN	4	/* periods per run, at least, of a layer */
#define PPM		1000000
/*
 * ns: the device idle time, on average, that is the next step's data
 * loading and not the launch overhead of the host's Python (gaps of
 * 0.13 to 0.15 ms between zero_grad and the forward pass of HTA's
 * step-based trace; 0.36 to 0.61 ms of data loading in its trace_diff).
 */
#define IDLE_FLOOR	200000

/* Where the foreign kernels of a period are (stretch C - 1 runs on). */
struct foreign {
	int64_t		 head;		/* before the first occurrence */
	int64_t		*in;		/* per stretch */
	size_t		*first, *last;	/* their first and last index */
	int		*opt;		/* per stretch: an optimizer kernel */
	int64_t		 nopt;		/* full stretches with one */
	int		 any_opt;	/* any optimizer kernel at all */
	unsigned char	*member;	/* per name: belongs to the period */
};

/* X * NUM / DEN, for a confidence in millionths. */
static int64_t
scale(int64_t x, int64_t num, int64_t den)
{
	return den > 0 ? x * num / den : 0;
}

/* The alignment times r / (r + 1), in millionths. */
static int64_t
base_conf(const struct pcand *p)
{
	int64_t x = p->den > 0 ? p->num * PPM / p->den : 0;

	return scale(x > PPM ? PPM : x, (int64_t)p->c, (int64_t)p->c + 1);
}

static void
set_period(struct sdev *d, int lv, int64_t count, int64_t kernels,
    int64_t dur, int64_t conf, int ev)
{
	struct speriod *p = &d->per[lv];

	p->count = count;
	p->kernels = kernels;
	p->dur = dur;
	p->conf_num = conf;
	p->conf_den = PPM;
	p->ev = ev;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of V[0..N), which it sorts. */
static int64_t
median(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	return n > 0 ? v[(n - 1) / 2] : 0;
}

/* The median time from one occurrence of P's name to the next. */
static int64_t
period_dur(const struct ktup *k, const struct pcand *p)
{
	int64_t *v = xreallocarray(NULL, p->c, sizeof(*v)), m;
	size_t j;

	for (j = 0; j + 1 < p->c; j++)
		v[j] = k[p->q[j + 1]].ts - k[p->q[j]].ts;
	m = median(v, p->c - 1);
	free(v);
	return m;
}

/*
 * The names that belong to the period: those in at least half of its
 * full stretches.  Then where the others lie.
 */
static void
find_foreign(const struct sdev *d, const struct pcand *p, struct foreign *f)
{
	const struct ktup *k = d->kt;
	uint32_t nn = steps_nnames(), *cnt, *seen;
	size_t n = d->nkt, c = p->c, i, j = 0, full = c - 1;

	cnt = xcalloc(nn, sizeof(*cnt));
	seen = xcalloc(nn, sizeof(*seen));
	for (i = p->q[0]; i < p->q[c - 1]; i++) {
		while (i >= p->q[j + 1])
			j++;
		if (seen[k[i].name] != j + 1) {
			seen[k[i].name] = (uint32_t)(j + 1);
			cnt[k[i].name]++;
		}
	}
	memset(f, 0, sizeof(*f));
	f->in = xcalloc(c, sizeof(*f->in));
	f->first = xcalloc(c, sizeof(*f->first));
	f->last = xcalloc(c, sizeof(*f->last));
	f->opt = xcalloc(c, sizeof(*f->opt));
	for (i = 0, j = 0; i < n; i++) {
		int inside = i >= p->q[0];

		while (inside && j + 1 < c && i >= p->q[j + 1])
			j++;
		if (k[i].flags & KT_OPT) {
			f->any_opt = 1;
			if (inside)
				f->opt[j] = 1;
		}
		if ((size_t)cnt[k[i].name] * 2 >= full)
			continue;
		if (!inside) {
			f->head++;
			continue;
		}
		if (f->in[j]++ == 0)
			f->first[j] = i;
		f->last[j] = i;
	}
	for (j = 0; j < full; j++)
		f->nopt += f->opt[j];
	f->member = xcalloc(nn > 0 ? nn : 1, 1);
	for (i = 0; i < nn; i++)
		f->member[i] = (size_t)cnt[i] * 2 >= full;
	free(cnt);
	free(seen);
}

static void
foreign_free(struct foreign *f)
{
	free(f->in);
	free(f->first);
	free(f->last);
	free(f->opt);
	free(f->member);
}

/* Foreign kernels that are more than noise in a period of LAG kernels. */
static int
brackets(int64_t nforeign, size_t lag)
{
	return nforeign >= BRACKET_MIN &&
	    nforeign * 100 >= (int64_t)lag * BRACKET_PCT;
}

/* The device's idle time just before kernel I (0 for the first). */
static int64_t
idle_before(const struct ktup *k, const int64_t *runmax, size_t i)
{
	int64_t gap;

	if (i == 0)
		return 0;
	gap = k[i].ts - runmax[i - 1];
	return gap > 0 ? gap : 0;
}

/* runmax[i]: the latest end among kernels 0..i. */
static int64_t *
run_max(const struct ktup *k, size_t n)
{
	int64_t *r = xreallocarray(NULL, n, sizeof(*r));
	size_t i;

	for (i = 0; i < n; i++)
		r[i] = i == 0 || k[i].end > r[i - 1] ? k[i].end : r[i - 1];
	return r;
}

/*
 * The offset within the period where steps start.  Iterations are
 * separated by host work (data loading, optimizer, logging), so the cut
 * goes where the device idles longest, summed over the periods.  When
 * the optimizer's kernels are known, a step ends after them: the cut is
 * the first offset after the optimizer where the device idles at least
 * half as long as at the longest and IDLE_FLOOR on average (the data
 * loading of the next step after the metrics the step still computes,
 * not a wait for a collective in the middle of the next step), or,
 * where the device never idles so, right after the optimizer.
 */
static size_t
step_phase(const struct sdev *d, const struct pcand *p, size_t opt_off)
{
	const struct ktup *k = d->kt;
	size_t n = d->nkt, i, j, minlag = n, phase = 0;
	int64_t *runmax = run_max(k, n), *idle, best = -1;

	for (j = 1; j < p->c; j++)
		if (p->q[j] - p->q[j - 1] < minlag)
			minlag = p->q[j] - p->q[j - 1];
	idle = xcalloc(minlag, sizeof(*idle));
	for (i = 0; i < minlag; i++) {
		for (j = 0; j < p->c; j++)
			if (p->q[j] + i < n)
				idle[i] += idle_before(k, runmax, p->q[j] + i);
		if (idle[i] > best) {
			best = idle[i];
			phase = i;
		}
	}
	if (opt_off < minlag) {
		phase = (opt_off + 1) % minlag;
		for (i = 1; i <= minlag; i++) {
			size_t at = (opt_off + i) % minlag;

			if (idle[at] * 2 >= best &&
			    idle[at] >= IDLE_FLOOR * (int64_t)p->c) {
				phase = at;
				break;
			}
		}
	}
	free(idle);
	free(runmax);
	return phase;
}

/* The offset of the optimizer's last kernel in the first full period. */
static size_t
opt_offset(const struct sdev *d, const struct pcand *p,
    const struct foreign *f)
{
	size_t i, j;

	for (j = 0; j + 1 < p->c; j++) {
		if (!f->opt[j])
			continue;
		for (i = p->q[j + 1]; i > p->q[j]; i--)
			if (d->kt[i - 1].flags & KT_OPT)
				return i - 1 - p->q[j];
	}
	return SIZE_MAX;
}

/*
 * Whether the kernels before the first cut, [0, END), are mostly foreign
 * to the period: work before the first step (loading the weights, making
 * the input of a benchmark), which is then outside every step, not a
 * step cut by the capture.
 */
static int
foreign_head(const struct sdev *d, const struct foreign *f, size_t end)
{
	size_t i, nf = 0;

	for (i = 0; i < end && i < d->nkt; i++)
		nf += !f->member[d->kt[i].name];
	return nf >= BRACKET_MIN && nf * 2 >= end;
}

/*
 * The kernels that ran before the first one whose launch the trace holds
 * were launched before the capture: like the work before the first
 * marker, they belong to no step it shows.  Drop the cuts before that
 * kernel and make it one (CUT has room for one more); returns the
 * number of cuts.
 */
static size_t
launch_clip(const struct sdev *d, size_t *cut, size_t ncut)
{
	size_t l = d->first_linked, i, j;

	if (l == SIZE_MAX || l == 0 || l >= d->nkt)
		return ncut;
	for (i = 0; i < ncut && cut[i] < l; i++)
		;
	if (i < ncut && cut[i] == l) {
		memmove(cut, cut + i, (ncut - i) * sizeof(*cut));
		return ncut - i;
	}
	if (i > 0) {
		cut[i - 1] = l;
		i--;
		j = ncut - i;
		memmove(cut, cut + i, j * sizeof(*cut));
		return j;
	}
	memmove(cut + 1, cut, ncut * sizeof(*cut));
	cut[0] = l;
	return ncut + 1;
}

/* The period is the step: cut every period at the same offset. */
static void
as_steps(struct sdev *d, const struct pcand *p, const struct foreign *f,
    int opt)
{
	size_t n = d->nkt, *cut = xreallocarray(NULL, p->c + 3, sizeof(*cut));
	size_t ncut = 0, j, phase;
	int forced = steps_opt.period > 0;
	int64_t conf = base_conf(p);

	phase = step_phase(d, p, opt ? opt_offset(d, p, f) : SIZE_MAX);
	if (p->q[0] + phase > 0 && !foreign_head(d, f, p->q[0] + phase))
		cut[ncut++] = 0;
	for (j = 0; j < p->c; j++)
		if (p->q[j] + phase < n)
			cut[ncut++] = p->q[j] + phase;
	ncut = launch_clip(d, cut, ncut);
	steps_cut_windows(d, cut, ncut, WT_DETECTED |
	    (forced ? WT_FORCED : 0));
	free(cut);
	if (!opt && !forced)
		conf = scale(conf, 9, 10);
	set_period(d, PL_STEP, (int64_t)d->nwin, (int64_t)p->lag,
	    period_dur(d->kt, p), conf, PE_KERNELS |
	    (opt ? PE_OPTIMIZER : 0) | (forced ? PE_FORCED : 0));
}

/* Between two runs of layers: the kernel after the longest idle gap. */
static size_t
pass_cut(const struct sdev *d, const int64_t *runmax, size_t from,
    size_t to)
{
	size_t i, at = from;
	int64_t best = -1;

	for (i = from; i <= to && i < d->nkt; i++)
		if (idle_before(d->kt, runmax, i) > best) {
			best = idle_before(d->kt, runmax, i);
			at = i;
		}
	return at;
}

/* Median kernels and time of the pieces between cuts. */
static void
piece_medians(const struct sdev *d, const size_t *cut, size_t ncut,
    int64_t *kern, int64_t *dur)
{
	int64_t *kv = xreallocarray(NULL, ncut, sizeof(*kv));
	int64_t *dv = xreallocarray(NULL, ncut, sizeof(*dv));
	size_t j, n = d->nkt;

	for (j = 0; j < ncut; j++) {
		size_t e = j + 1 < ncut ? cut[j + 1] : n;

		kv[j] = (int64_t)(e - cut[j]);
		dv[j] = (e < n ? d->kt[e].ts : d->kern_end) - d->kt[cut[j]].ts;
	}
	*kern = median(kv, ncut);
	*dur = median(dv, ncut);
	free(kv);
	free(dv);
}

/*
 * Where a step ends in [FROM, TO), which holds optimizer kernels: after
 * the last of them, before the first later kernel where the device idles
 * at least half as long as before any of them and IDLE_FLOOR (the next
 * step's data), or right after the optimizer.
 */
static size_t
opt_cut(const struct sdev *d, const int64_t *runmax, size_t from, size_t to)
{
	size_t i, last = from;
	int64_t best = 0;

	for (i = from; i < to; i++)
		if (d->kt[i].flags & KT_OPT)
			last = i;
	for (i = last + 1; i <= to && i < d->nkt; i++)
		if (idle_before(d->kt, runmax, i) > best)
			best = idle_before(d->kt, runmax, i);
	for (i = last + 1; i <= to && i < d->nkt; i++)
		if (idle_before(d->kt, runmax, i) * 2 >= best &&
		    idle_before(d->kt, runmax, i) >= IDLE_FLOOR)
			return i;
	return last + 1;
}

/*
 * The period is below the step.  Its runs are split where foreign
 * kernels gather between two of them, and where an optimizer step ran.
 * With LAYER_RUN periods or more per run on average it is a layer
 * (LAYER: the finest period nested in it, or itself) and the runs are
 * passes, cut where the device idles longest among the foreign kernels
 * between them; with fewer, the period itself is the pass (micro-batches
 * of a step).  Each run is a step unless optimizer steps were seen: then
 * a step ends only after one, and holds the passes before it.
 */
static void
as_sub(struct sdev *d, const struct pcand *p, const struct pcand *fine,
    const struct foreign *f)
{
	size_t *cut = xreallocarray(NULL, p->c + 1, sizeof(*cut));
	size_t *scut = xreallocarray(NULL, p->c + 2, sizeof(*scut));
	size_t ncut = 1, nscut = 1, j;
	int64_t *runmax = run_max(d->kt, d->nkt), kern, dur, pconf;
	int ob;

	cut[0] = scut[0] = 0;
	for (j = 0; j + 1 < p->c; j++) {
		ob = f->any_opt && f->opt[j];
		if (!ob && !brackets(f->in[j], p->lag))
			continue;
		cut[ncut] = ob ? opt_cut(d, runmax, p->q[j], p->q[j + 1]) :
		    pass_cut(d, runmax, f->first[j], f->last[j] + 1);
		if (cut[ncut] <= cut[ncut - 1])
			continue;
		if (!f->any_opt || ob)
			scut[nscut++] = cut[ncut];
		ncut++;
	}
	free(runmax);
	pconf = scale(base_conf(p), 9, 10);
	if (p->c >= LAYER_RUN * ncut) {
		const struct pcand *l = fine != NULL ? fine : p;

		set_period(d, PL_LAYER, (int64_t)l->c, (int64_t)l->lag,
		    period_dur(d->kt, l), scale(base_conf(l), 9, 10),
		    PE_KERNELS | PE_BRACKETED);
		piece_medians(d, cut, ncut, &kern, &dur);
		set_period(d, PL_PASS, (int64_t)ncut, kern, dur, pconf,
		    PE_KERNELS | PE_BRACKETED);
	} else {
		set_period(d, PL_PASS, (int64_t)p->c, (int64_t)p->lag,
		    period_dur(d->kt, p), pconf, PE_KERNELS);
		if (fine != NULL)
			set_period(d, PL_LAYER, (int64_t)fine->c,
			    (int64_t)fine->lag, period_dur(d->kt, fine),
			    scale(base_conf(fine), 9, 10), PE_KERNELS);
	}
	nscut = launch_clip(d, scut, nscut);
	steps_cut_windows(d, scut, nscut, WT_DETECTED |
	    (f->any_opt ? 0 : WT_PASS));
	piece_medians(d, scut, nscut, &kern, &dur);
	pconf = scale(pconf, (int64_t)nscut, (int64_t)nscut + 1);
	if (!f->any_opt)
		pconf = scale(pconf, 8, 10);
	set_period(d, PL_STEP, (int64_t)nscut, kern, dur, pconf,
	    f->any_opt ? PE_OPTIMIZER : PE_PASSES);
	free(cut);
	free(scut);
}

/*
 * A shorter period nested in the step: LAYER_RUN or more per step are
 * layers; two or three are passes (micro-batches, or a forward pass and
 * its recomputation) that the step holds.
 */
static void
inner(struct sdev *d, const struct pcand *top, const struct pcand *fine)
{
	int lv = fine->c >= LAYER_RUN * top->c ? PL_LAYER : PL_PASS;

	set_period(d, lv, (int64_t)fine->c, (int64_t)fine->lag,
	    period_dur(d->kt, fine), scale(base_conf(fine), 9, 10),
	    PE_KERNELS);
}

void
steps_level(struct sdev *d, const struct pcand *top, const struct pcand *fine)
{
	struct foreign f;
	int opt, bracketed;
	size_t j, runs = 1;

	find_foreign(d, top, &f);
	/*
	 * An optimizer step in most periods: they are steps.  In some of
	 * them only: the step holds several periods (micro-batches).
	 */
	opt = f.nopt > 0 && f.nopt * 2 >= (int64_t)(top->c - 1);
	for (j = 0; j + 1 < top->c; j++)
		runs += brackets(f.in[j], top->lag);
	/*
	 * Bracketed: foreign kernels between two runs, or on both sides of
	 * the one run (a group that is not noise in all, one kernel at
	 * least on each side: bert's pooler is one GEMM).  A capture of
	 * steps that opens with a warm-up, or ends with a checkpoint, has
	 * foreign kernels on one side only.
	 */
	bracketed = runs > 1 || (f.head > 0 && f.in[top->c - 1] > 0 &&
	    brackets(f.head + f.in[top->c - 1], top->lag));
	/*
	 * A layer repeats in its pass: two or three periods in a run
	 * between foreign kernels are whole passes (a warm-up forward and
	 * a measured one), not layers.
	 */
	if (top->c < LAYER_RUN * runs)
		bracketed = 0;
	if (steps_opt.period > 0 || opt || (f.nopt == 0 && !bracketed)) {
		as_steps(d, top, &f, opt);
		if (fine != NULL)
			inner(d, top, fine);
	} else
		as_sub(d, top, fine, &f);
	d->conf_num = d->per[PL_STEP].conf_num;
	d->conf_den = d->per[PL_STEP].conf_den;
	d->src = SRC_DETECTED;
	foreign_free(&f);
}
