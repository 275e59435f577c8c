/*
 * prof-steps, first pass: the records of the whole input, read through
 * libcommon's reader of the contract (tsvr_open_twice(): the stage loop
 * reads them again), of which the scan keeps only what the windows need
 * (markers, per step id kernel spans, step ids of step_trace_time, and
 * for devices with none of these a compact (name, start, end) tuple per
 * kernel), then makes the windows.
 *
 * A damaged record ends the scan as it ends the stage loop, which tells
 * it at its line; the windows are made from the records before.
 */
#include <config.h>

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "diag.h"
#include "hash.h"
#include "num.h"
#include "steps.h"
#include "tsv.h"
#include "xalloc.h"

#define TS_LIMIT	((int64_t)1 << 62)	/* 146 years in ns */
#define LAUNCH_KEEP	8	/* host steps whose launches are kept */

/* Columns the scan looks at. */
enum {
	F_KIND, F_DEV, F_NAME, F_CAT, F_STEP, F_CORR, F_N
};

struct scan {
	struct tsvr	*in;
	int		 col[F_N];	/* input column of each, or -1 */
	const char	*f[F_N];	/* current record's fields */
	size_t		 fl[F_N];
};

static struct sdev **devs;
static size_t ndevs;
/*
 * The second scan, for devices whose windows come from the host's loop
 * (steps-loop.c): their loops by dev key, found after the first.
 */
static struct sdev **loops;
static size_t nloops;
/* The index of devs by dev text: a job of 100,000 ranks must not cost a
 * scan of them all per record (devtab's item is the device's pointer). */
static struct devtab devindex;

/* Whole decimal int64 (as prof-tsv writes it); 0 when it is not one. */
static int
to_i64(const char *s, size_t len, int64_t *v)
{
	return tsv_parse_i64(s, len, v) == 0;
}

static int
field_is(const struct scan *sc, int k, const char *s)
{
	size_t n = strlen(s);

	return sc->fl[k] == n && memcmp(sc->f[k], s, n) == 0;
}

/* ---- devices ---- */

struct sdev *
steps_dev(const char *key, size_t len)
{
	struct sdev **slot;

	if (devindex.isize == 0)
		return NULL;
	slot = devtab_find(&devindex, key, len);
	return slot != NULL ? *slot : NULL;
}

/* The device of a dev field, made on first sight. */
static struct sdev *
dev_get(const char *key, size_t len, int64_t ts)
{
	struct sdev *d, **slot;
	int isnew;
	size_t i;

	if (devindex.isize == 0)
		devtab_init(&devindex, sizeof(struct sdev *));
	slot = devtab_get(&devindex, key, len, &isnew);
	if (!isnew)
		return *slot;
	d = *slot = xcalloc(1, sizeof(*d));
	d->key = xstrndup(key, len);
	d->keylen = len;
	d->first_ts = ts;
	d->last_end = d->kern_end = ts;
	d->all_busy.end = d->out_busy.end = INT64_MIN;	/* empty unions */
	d->first_linked = SIZE_MAX;
	d->no_tuples = !steps_opt.detect && steps_opt.step_kernel == NULL;
	for (i = 0; i < nloops; i++)
		if (loops[i]->keylen == len &&
		    memcmp(loops[i]->key, key, len) == 0) {
			d->loop = loops[i]->loop;
			loops[i]->loop.start = NULL;
		}
	devs = xreallocarray(devs, ndevs + 1, sizeof(*devs));
	devs[ndevs++] = d;
	return d;
}

static void
drop_tuples(struct sdev *d)
{
	free(d->kt);
	d->kt = NULL;
	d->nkt = d->ktcap = 0;
	free(d->optln);
	d->optln = NULL;
	d->noptln = d->optlncap = 0;
	free(d->lnk);
	d->lnk = NULL;
	d->nlnk = d->lnkcap = 0;
	d->no_tuples = 1;
}

/* ---- launches inside host markers ---- */

/* The key of a corr value; 0 marks an empty slot. */
static uint64_t
corr_key(const char *s, size_t len)
{
	uint64_t h = hash_bytes(s, len, 0);

	return h != 0 ? h : 1;
}

static struct slaunch *
launch_slot(struct sdev *d, uint64_t key)
{
	size_t j;

	for (j = key & (d->lncap - 1); d->ln[j].key != 0 && d->ln[j].key !=
	    key; j = (j + 1) & (d->lncap - 1))
		;
	return &d->ln[j];
}

/*
 * Rebuild the table without the launches of markers LAUNCH_KEEP or more
 * steps back in class CLS (their kernels have run), growing it when
 * full.  The device may run more than a step behind the host: ROCm
 * captures have been seen two steps behind.
 */
static void
launch_prune(struct sdev *d, int cls, size_t cur)
{
	struct slaunch *old = d->ln;
	size_t oldcap = d->lncap, i;

	d->lncap = d->lncap == 0 ? 1024 : 2 * d->nln + 4 > d->lncap ?
	    2 * d->lncap : d->lncap;
	d->ln = xcalloc(d->lncap, sizeof(*d->ln));
	d->nln = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].key != 0 && !(old[i].cls == (uint32_t)cls &&
		    old[i].idx + LAUNCH_KEEP <= cur)) {
			*launch_slot(d, old[i].key) = old[i];
			d->nln++;
		}
	free(old);
}

/* A host record with a corr inside a host marker: remember its step. */
static void
add_launch(struct scan *sc, struct sdev *d, int64_t ts)
{
	uint32_t mask = d->mkmask & 0x55555555U;	/* host classes */
	uint64_t key = 0;
	int c;

	for (; mask != 0; mask &= mask - 1) {
		struct smark *m;
		struct slaunch *l;

		c = __builtin_ctz(mask);
		m = &d->mk[c][d->nmk[c] - 1];
		if (ts < m->ts || ts >= m->end)
			continue;
		if (key == 0)
			key = corr_key(sc->f[F_CORR], sc->fl[F_CORR]);
		if (2 * (d->nln + 1) > d->lncap)
			launch_prune(d, c, d->nmk[c] - 1);
		l = launch_slot(d, key);
		if (l->key == 0)
			d->nln++;
		l->key = key;
		l->cls = (uint32_t)c;
		l->idx = (uint32_t)(d->nmk[c] - 1);
	}
}

/* A kernel whose launch was seen: count it in the launching step. */
static void
launched_kernel(struct scan *sc, struct sdev *d, int64_t ts, int64_t end)
{
	struct slaunch *l;
	struct smark *m;

	if (d->lncap == 0)
		return;
	l = launch_slot(d, corr_key(sc->f[F_CORR], sc->fl[F_CORR]));
	if (l->key == 0)
		return;
	m = &d->mk[l->cls][l->idx];
	if (m->lkern == 0)
		m->pre_end = d->kern_end;
	if (m->lkern++ == 0 || ts < m->lstart)
		m->lstart = ts;
	if (end > m->lend)
		m->lend = end;
}

/* ---- the optimizer's launches ---- */

/*
 * PyTorch wraps every optimizer.step() in a host annotation named
 * "Optimizer.step#CLASS.step"; the kernels launched inside it (linked by
 * corr) end a training step.  Their keys are kept for detection only.
 */
static int
is_optimizer(const struct scan *sc)
{
	static const char pfx[] = "Optimizer.step#";

	return sc->fl[F_NAME] >= sizeof(pfx) - 1 &&
	    memcmp(sc->f[F_NAME], pfx, sizeof(pfx) - 1) == 0;
}

static uint64_t *
opt_slot(uint64_t *tab, size_t cap, uint64_t key)
{
	size_t j;

	for (j = key & (cap - 1); tab[j] != 0 && tab[j] != key;
	    j = (j + 1) & (cap - 1))
		;
	return &tab[j];
}

/* Add KEY to the set TAB (N keys, CAP slots, a power of 2; 0 is empty). */
static void
key_add(uint64_t **tab, size_t *n, size_t *cap, uint64_t key)
{
	uint64_t *s;
	size_t i;

	if (2 * (*n + 1) > *cap) {
		uint64_t *old = *tab;
		size_t oldcap = *cap;

		*cap = oldcap ? 2 * oldcap : 256;
		*tab = xcalloc(*cap, sizeof(**tab));
		for (i = 0; i < oldcap; i++)
			if (old[i] != 0)
				*opt_slot(*tab, *cap, old[i]) = old[i];
		free(old);
	}
	s = opt_slot(*tab, *cap, key);
	if (*s == 0)
		(*n)++;
	*s = key;
}

static int
key_has(uint64_t *tab, size_t n, size_t cap, uint64_t key)
{
	return n > 0 && *opt_slot(tab, cap, key) == key;
}

/*
 * The flags of the current kernel (with a corr): launched by the
 * optimizer.  And, until one is found, whether the trace holds its
 * launch: the kernels before the first that it does were launched before
 * the capture (the device runs behind the host), and belong to no step
 * the capture shows.
 */
static uint32_t
kernel_flags(const struct scan *sc, struct sdev *d)
{
	uint64_t key = corr_key(sc->f[F_CORR], sc->fl[F_CORR]);

	if (d->first_linked == SIZE_MAX &&
	    key_has(d->lnk, d->nlnk, d->lnkcap, key)) {
		d->first_linked = d->nkt;
		free(d->lnk);
		d->lnk = NULL;
		d->nlnk = d->lnkcap = 0;
	}
	return key_has(d->optln, d->noptln, d->optlncap, key) ? KT_OPT : 0;
}

/* A host record of a device that may need detection. */
static void
scan_host(struct scan *sc, struct sdev *d, int64_t ts, int64_t end)
{
	uint64_t key;

	if (is_optimizer(sc)) {
		d->opt_ts = ts;
		d->opt_end = end;
	}
	if (sc->fl[F_CORR] == 0)
		return;
	key = corr_key(sc->f[F_CORR], sc->fl[F_CORR]);
	if (d->first_linked == SIZE_MAX)
		key_add(&d->lnk, &d->nlnk, &d->lnkcap, key);
	if (ts >= d->opt_ts && ts < d->opt_end)
		key_add(&d->optln, &d->noptln, &d->optlncap, key);
}

/* ---- markers ---- */

/* The pattern NAME matches (-1: none) and its trailing step number. */
static int
match_marker(const char *name, int64_t *num)
{
	size_t n = strlen(name), d = n, i;

	while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
		d--;
	if (d == n || !to_i64(name + d, n - d, num))
		return -1;
	for (i = 0; i < steps_opt.npat; i++)
		if (fnmatch(steps_opt.pat[i], name, 0) == 0)
			return (int)i;
	return -1;
}

static void
add_marker(struct scan *sc, struct sdev *d, int64_t ts, int64_t dur)
{
	const char *name = tsvr_field(sc->in, (size_t)sc->col[F_NAME], NULL);
	int64_t num;
	int pat, cls;
	size_t i;
	struct smark *m;

	if (steps_opt.step_kernel != NULL ||
	    (pat = match_marker(name, &num)) < 0)
		return;
	/* A device-side copy of the marker is on the kernels' clock. */
	cls = 2 * pat + (field_is(sc, F_CAT, "gpu_user_annotation") ||
	    field_is(sc, F_KIND, "mark"));
	for (i = d->nmk[cls]; i > 0 && i + 64 > d->nmk[cls]; i--)
		if (d->mk[cls][i - 1].num == num)
			return;		/* repeated: the first one counts */
	if (d->nmk[cls] == d->mkcap[cls]) {
		d->mkcap[cls] = d->mkcap[cls] ? 2 * d->mkcap[cls] : 16;
		d->mk[cls] = xreallocarray(d->mk[cls], d->mkcap[cls],
		    sizeof(*m));
	}
	m = &d->mk[cls][d->nmk[cls]++];
	d->mkmask |= 1U << cls;
	m->ts = ts;
	m->end = ts + (dur > 0 ? dur : 0);
	m->num = num;
	m->nkern = 0;
	m->kend = ts;
	m->name = xstrdup(name);
	m->lstart = m->lend = m->lkern = 0;
	if (cls % 2 == 0 && d->lncap > 0)
		launch_prune(d, cls, d->nmk[cls] - 1);
	if (!d->no_tuples)
		drop_tuples(d);
}

/*
 * The host's loop, where a device has no marker: its iterations become
 * host markers (class 0) as the second scan reaches them, so that the
 * launches inside each are linked to it as ProfilerStep's are.
 */
static int
loop_wanted(void)
{
	return steps_opt.detect && steps_opt.step_kernel == NULL &&
	    steps_opt.period == 0 && !steps_opt.host_windows;
}

static void
open_iteration(struct sdev *d)
{
	size_t i = d->loop_next++;
	struct smark *m;

	if (d->nmk[0] == d->mkcap[0]) {
		d->mkcap[0] = d->mkcap[0] ? 2 * d->mkcap[0] : 16;
		d->mk[0] = xreallocarray(d->mk[0], d->mkcap[0], sizeof(*m));
	}
	m = &d->mk[0][d->nmk[0]++];
	d->mkmask |= 1U;
	memset(m, 0, sizeof(*m));
	m->ts = m->kend = d->loop.start[i];
	m->end = i + 1 < d->loop.k ? d->loop.start[i + 1] : d->loop.last_end;
	m->num = (int64_t)i + 1;
	m->name = xasprintf("iteration %zu", i + 1);
	if (d->lncap > 0)
		launch_prune(d, 0, d->nmk[0] - 1);
	if (!d->no_tuples)
		drop_tuples(d);
}

/* ---- kernels ---- */

static void
add_step_id(struct sdev *d, int64_t id, int64_t ts, int64_t end)
{
	struct sid *s = NULL;
	size_t i;

	for (i = d->nids; i > 0; i--)
		if (d->ids[i - 1].id == id) {
			s = &d->ids[i - 1];
			break;
		}
	if (s == NULL) {
		if (d->nids == d->idcap) {
			d->idcap = d->idcap ? 2 * d->idcap : 16;
			d->ids = xreallocarray(d->ids, d->idcap, sizeof(*s));
		}
		s = &d->ids[d->nids++];
		s->id = id;
		s->first = ts;
		s->kend = end;
		s->nkern = 0;
	}
	s->nkern++;
	if (end > s->kend)
		s->kend = end;
}

/* Whether the current kernel's name matches --step-kernel. */
static int
kernel_named(const struct scan *sc)
{
	return fnmatch(steps_opt.step_kernel, tsvr_field(sc->in,
	    (size_t)sc->col[F_NAME], NULL), 0) == 0;
}

static void
add_kernel(struct scan *sc, struct sdev *d, int64_t ts, int64_t end)
{
	int64_t id;
	uint32_t mask;

	d->nkern++;
	if (sc->fl[F_CORR] > 0)
		launched_kernel(sc, d, ts, end);
	if (end > d->kern_end)
		d->kern_end = end;
	for (mask = d->mkmask; mask != 0; mask &= mask - 1) {
		int c = __builtin_ctz(mask);
		struct smark *m = &d->mk[c][d->nmk[c] - 1];

		m->nkern++;
		if (end > m->kend)
			m->kend = end;
	}
	if (sc->fl[F_STEP] > 0 && steps_opt.step_kernel == NULL &&
	    to_i64(sc->f[F_STEP], sc->fl[F_STEP], &id)) {
		add_step_id(d, id, ts, end);
		if (!d->no_tuples)
			drop_tuples(d);
	}
	if (d->no_tuples)
		return;
	if (d->nkt == d->ktcap) {
		d->ktcap = d->ktcap ? 2 * d->ktcap : 1024;
		d->kt = xreallocarray(d->kt, d->ktcap, sizeof(*d->kt));
	}
	d->kt[d->nkt].name = steps_intern(sc->f[F_NAME], sc->fl[F_NAME]);
	/* A kernel without a corr says nothing: no kernel before it can. */
	if (sc->fl[F_CORR] == 0 && d->first_linked == SIZE_MAX)
		d->first_linked = 0;
	d->kt[d->nkt].flags = (sc->fl[F_CORR] > 0 ? kernel_flags(sc, d) : 0) |
	    (steps_opt.step_kernel != NULL && kernel_named(sc) ? KT_FORCE : 0);
	d->kt[d->nkt].ts = ts;
	d->kt[d->nkt].end = end;
	d->nkt++;
}

static void
add_stt(struct sdev *d, int64_t id)
{
	size_t i;

	for (i = 0; i < d->nstt; i++)
		if (d->stt[i] == id)
			return;
	if (d->nstt == d->sttcap) {
		d->sttcap = d->sttcap ? 2 * d->sttcap : 16;
		d->stt = xreallocarray(d->stt, d->sttcap, sizeof(*d->stt));
	}
	d->stt[d->nstt++] = id;
}

/* A timeless record: only step_trace_time metrics matter. */
static void
scan_timeless(struct scan *sc)
{
	int64_t id;

	if (field_is(sc, F_KIND, "metric") &&
	    field_is(sc, F_CAT, "step_trace_time") &&
	    to_i64(sc->f[F_STEP], sc->fl[F_STEP], &id))
		add_stt(dev_get(sc->f[F_DEV], sc->fl[F_DEV], 0), id);
}

/*
 * One record of the input.  Returns 0 to stop the scan at a time far
 * beyond any real capture (the windows' arithmetic stays clear of
 * overflow): the windows are made from the records before, and the
 * stage loop reads on.
 */
static int
scan_record(struct scan *sc, int64_t ts, int64_t dur)
{
	int64_t end;
	struct sdev *d;
	int k;

	/* compared and parsed, not copied; a marker's name is (fnmatch) */
	for (k = 0; k < F_N; k++)
		if (sc->col[k] >= 0)
			sc->f[k] = tsvr_text(sc->in, (size_t)sc->col[k],
			    &sc->fl[k]);
		else {
			sc->f[k] = "";
			sc->fl[k] = 0;
		}
	if (ts == TSV_NO_TS) {
		scan_timeless(sc);
		return 1;
	}
	if (dur < 0)
		dur = 0;
	if (ts < -TS_LIMIT || ts > TS_LIMIT || dur > TS_LIMIT)
		return 0;
	end = ts + dur;
	d = dev_get(sc->f[F_DEV], sc->fl[F_DEV], ts);
	if (!d->timed) {
		d->timed = 1;
		d->first_ts = d->last_end = d->kern_end = ts;
	}
	if (end > d->last_end)
		d->last_end = end;
	while (d->loop_next < d->loop.k && ts >= d->loop.start[d->loop_next])
		open_iteration(d);
	if (field_is(sc, F_KIND, "kernel")) {
		add_kernel(sc, d, ts, end);
		return 1;
	}
	if (field_is(sc, F_KIND, "host")) {
		if (sc->fl[F_CORR] > 0 && !steps_opt.host_windows)
			add_launch(sc, d, ts);
		if (nloops == 0 && loop_wanted() &&
		    field_is(sc, F_CAT, "user_annotation"))
			steps_loop_see(d, sc->f[F_NAME], sc->fl[F_NAME], ts,
			    end);
		if (!d->no_tuples)
			scan_host(sc, d, ts, end);
	}
	if (field_is(sc, F_KIND, "step") || (steps_opt.custom_pat &&
	    (field_is(sc, F_KIND, "host") || field_is(sc, F_KIND, "mark"))))
		add_marker(sc, d, ts, dur);
	return 1;
}

/* One scan of IN's records. */
static void
scan_all(struct tsvr *in)
{
	static const char *const want[F_N] = {
		"kind", "dev", "name", "cat", "step", "corr"
	};
	struct scan sc;
	int64_t ts, dur;
	size_t i;

	memset(&sc, 0, sizeof(sc));
	sc.in = in;
	for (i = 0; i < F_N; i++)
		sc.col[i] = tsvr_col(in, want[i]);
	while (tsvr_record(in, &ts, &dur) > 0 && scan_record(&sc, ts, dur))
		;
}

static void
sdev_free(struct sdev *d)
{
	size_t c, i;

	for (c = 0; c < 2 * STEPS_MAXPAT; c++) {
		for (i = 0; i < d->nmk[c]; i++)
			free(d->mk[c][i].name);
		free(d->mk[c]);
	}
	free(d->key);
	free(d->ids);
	free(d->stt);
	free(d->ln);
	free(d->kt);
	free(d->lnk);
	free(d->optln);
	free(d->win);
	free(d->ann);
	free(d->loop.start);
	free(d);
}

/*
 * The devices that have neither markers nor step ids but whose host
 * runs an annotated loop: moved to LOOPS (each keeps its key and loop
 * only), and the others freed, for the second scan.  Returns how many.
 */
static size_t
take_loops(void)
{
	size_t i, n = 0;

	for (i = 0; i < ndevs; i++) {
		struct sdev *d = devs[i];

		if (d->mkmask == 0 && d->nids == 0 && d->nkern > 0 &&
		    d->nann > 0 && steps_loop_find(d, &d->loop))
			n++;
	}
	if (n == 0)
		return 0;
	loops = xreallocarray(NULL, n, sizeof(*loops));
	for (i = 0; i < ndevs; i++) {
		struct sdev *d = devs[i];

		if (d->loop.k > 0) {
			loops[nloops++] = xcalloc(1, sizeof(**loops));
			loops[nloops - 1]->key = d->key;
			loops[nloops - 1]->keylen = d->keylen;
			loops[nloops - 1]->loop = d->loop;
			d->key = NULL;
			d->loop.start = NULL;
		}
		sdev_free(d);
	}
	free(devs);
	devs = NULL;
	ndevs = 0;
	devtab_free(&devindex);
	memset(&devindex, 0, sizeof(devindex));
	return n;
}

/*
 * A device's steps from its host loop: written as a step period with
 * the loop's confidence (tag host_loop), its median kernels and length
 * those of its windows.
 */
static void
loop_period(struct sdev *d)
{
	int64_t *kv = xreallocarray(NULL, d->nwin + 1, sizeof(*kv));
	int64_t *dv = xreallocarray(NULL, d->nwin + 1, sizeof(*dv));
	size_t i;

	for (i = 0; i < d->nwin; i++) {
		kv[i] = d->win[i].nkern;
		dv[i] = d->win[i].e - d->win[i].s;
	}
	num_sort(kv, d->nwin);
	num_sort(dv, d->nwin);
	if (d->src == SRC_MARKER)	/* the iterations' windows */
		d->src = SRC_HOSTLOOP;
	d->detect_ran = 1;
	d->conf_num = d->loop.conf_num;
	d->conf_den = d->loop.conf_den;
	d->per[PL_STEP] = (struct speriod){ (int64_t)d->loop.k,
	    d->nwin > 0 ? kv[(d->nwin - 1) / 2] : 0,
	    d->nwin > 0 ? dv[(d->nwin - 1) / 2] : 0, d->loop.conf_num,
	    d->loop.conf_den, PE_HOSTLOOP };
	free(kv);
	free(dv);
}

struct sdev **
steps_scan(struct tsvr *in, size_t *n)
{
	size_t i;

	scan_all(in);
	if (loop_wanted() && take_loops() > 0) {
		/* a second pass: its damage is told by the stage loop's */
		tsvr_rewind(in);
		tsvr_set_quiet(in, 1);
		scan_all(in);
		for (i = 0; i < nloops; i++) {
			free(loops[i]->key);
			free(loops[i]->loop.start);
			free(loops[i]);
		}
		free(loops);
		loops = NULL;
		nloops = 0;
	}
	for (i = 0; i < ndevs; i++) {
		free(devs[i]->ann);
		devs[i]->ann = NULL;
		if (devs[i]->loop.k > 0)
			devs[i]->win_tags |= WT_HOSTLOOP;
		steps_windows(devs[i]);
		if (devs[i]->loop.k > 0)
			loop_period(devs[i]);
	}
	*n = ndevs;
	return devs;
}
