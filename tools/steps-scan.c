/*
 * prof-steps, first pass: a fast scan of the raw stream that keeps only
 * what the windows need (markers, per step id kernel spans, step ids of
 * step_trace_time, and for devices with none of these a compact
 * (name, start, end) tuple per kernel), then makes the windows.
 *
 * The scan does not validate: the stage loop reads the same bytes again
 * and reports anything malformed at its line.  The scan only stops
 * looking at the first line it cannot make sense of, so that a broken
 * stream gives the stage library's diagnostic and nothing else.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "simd.h"

#include "devtab.h"
#include "diag.h"
#include "hash.h"
#include "num.h"
#include "steps.h"
#include "tsv.h"
#include "xalloc.h"

#define SCAN_BUF	(1 << 20)
#define TS_LIMIT	((int64_t)1 << 62)	/* 146 years in ns */
#define LAUNCH_KEEP	8	/* host steps whose launches are kept */

/* Columns the scan looks at. */
enum {
	F_KIND, F_TS, F_DUR, F_DEV, F_TRACK, F_NAME, F_CAT, F_STEP, F_CORR, F_N
};

struct scan {
	int		 fd;
	int		 spool;		/* fd of the spool file, or -1 */
	char		*buf;
	size_t		 cap, len, off;
	int		 eof;
	int		 col[F_N];	/* field index of each, or -1 */
	int		 maxcol;
	signed char	*want;		/* [0..maxcol]: the F_ of a field, or -1 */
	int		 header_seen;
	int		 stop;		/* unparseable: leave it to the stage */
	int64_t		 last_ts;
	const char	*f[F_N];	/* current record's fields (escaped) */
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

/* ---- reading ---- */

static void
fill(struct scan *sc)
{
	ssize_t n;

	if (sc->off > 0) {
		memmove(sc->buf, sc->buf + sc->off, sc->len - sc->off);
		sc->len -= sc->off;
		sc->off = 0;
	}
	if (sc->len == sc->cap) {
		sc->cap *= 2;
		sc->buf = xrealloc(sc->buf, sc->cap);
	}
	do
		n = read(sc->fd, sc->buf + sc->len, sc->cap - sc->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		diag_errno(EXIT_BAD, "read error");
	if (n == 0)
		sc->eof = 1;
	if (n > 0 && sc->spool >= 0 &&
	    write(sc->spool, sc->buf + sc->len, (size_t)n) != n)
		diag_errno(EXIT_BAD, "spool file");
	sc->len += (size_t)n;
}

/* The next line (without LF) or NULL at the end. */
static char *
next_line(struct scan *sc, size_t *len)
{
	char *nl;

	for (;;) {
		nl = memchr(sc->buf + sc->off, '\n', sc->len - sc->off);
		if (nl != NULL || sc->eof)
			break;
		fill(sc);
	}
	if (nl == NULL) {
		if (sc->off == sc->len)
			return NULL;
		nl = sc->buf + sc->len;	/* last line without LF */
	}
	{
		char *line = sc->buf + sc->off;

		*len = (size_t)(nl - line);
		sc->off = nl < sc->buf + sc->len ? (size_t)(nl - sc->buf) + 1 :
		    sc->len;
		return line;
	}
}

static void
parse_header(struct scan *sc, char *line, size_t len)
{
	static const char *const want[F_N] = {
		"kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat",
		"step", "corr"
	};
	size_t i, start = 0;
	int k, idx = 0;

	for (k = 0; k < F_N; k++)
		sc->col[k] = -1;
	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != '\t')
			continue;
		for (k = 0; k < F_N; k++)
			if (strlen(want[k]) == i - start &&
			    memcmp(line + start, want[k], i - start) == 0)
				sc->col[k] = idx;
		idx++;
		start = i + 1;
	}
	sc->maxcol = -1;
	for (k = 0; k < F_N; k++)
		if (sc->col[k] > sc->maxcol)
			sc->maxcol = sc->col[k];
	for (k = 0; k < F_NAME + 1; k++)
		if (sc->col[k] != k)
			sc->stop = 1;
	if (sc->maxcol >= 0) {
		sc->want = xmalloc((size_t)sc->maxcol + 1);
		memset(sc->want, -1, (size_t)sc->maxcol + 1);
		for (k = 0; k < F_N; k++)
			if (sc->col[k] >= 0)
				sc->want[sc->col[k]] = (signed char)k;
	}
	sc->header_seen = 1;
}

/*
 * The TAB bytes of the 16 bytes at P as a bit mask.  A record of the
 * Ascend stream runs to 700 bytes, of which the scan wants the first
 * hundred or so; a block at a time costs less than a byte loop there.
 */
#ifdef PROF_SSE2
#define TAB_STEP	16
static inline unsigned
tab_mask(const char *p)
{
	const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
	    _mm_set1_epi8('\t')));
}
#endif

/*
 * Point sc->f at the fields the scan wants; 0 if the line is short.
 * Whole blocks of bytes while they lie inside the line (the buffer may
 * end with it), then a plain byte loop for the rest.
 */
static int
split(struct scan *sc, const char *line, size_t len)
{
	const char *p = line, *end = line + len, *start = line;
	const signed char *want = sc->want;
	int idx = 0, k;

	for (k = 0; k < F_N; k++) {
		sc->f[k] = "";
		sc->fl[k] = 0;
	}
	if (sc->maxcol < 0)
		return 1;
#ifdef TAB_STEP
	for (; p + TAB_STEP <= end; p += TAB_STEP) {
		unsigned tabs;

		for (tabs = tab_mask(p); tabs != 0; tabs &= tabs - 1) {
			const char *t = p + __builtin_ctz(tabs);

			if ((k = want[idx]) >= 0) {
				sc->f[k] = start;
				sc->fl[k] = (size_t)(t - start);
			}
			if (++idx > sc->maxcol)
				return 1;
			start = t + 1;
		}
	}
#endif
	for (;; p++) {
		if (p < end && *p != '\t')
			continue;
		if ((k = want[idx]) >= 0) {
			sc->f[k] = start;
			sc->fl[k] = (size_t)(p - start);
		}
		if (++idx > sc->maxcol)
			return 1;
		if (p == end)
			return 0;
		start = p + 1;
	}
}

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

static void	 unescape(const char *, size_t, char *);

/* The device of a dev field (escaped), made on first sight. */
static struct sdev *
dev_get(const char *key, size_t len, int64_t ts)
{
	struct sdev *d, **slot;
	char small[64];
	int isnew;
	size_t i;

	if (memchr(key, '\\', len) != NULL && len < sizeof(small)) {
		unescape(key, len, small);
		key = small;
		len = strlen(small);
	}
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
	d->all_uend = d->out_uend = INT64_MIN;	/* empty unions */
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

/* Decode the escapes of an escaped field into BUF (at least LEN + 1). */
static void
unescape(const char *s, size_t len, char *buf)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 1 < len) {
			i++;
			buf[n++] = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' :
			    s[i] == 'r' ? '\r' : s[i];
		} else
			buf[n++] = s[i];
	}
	buf[n] = '\0';
}

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
	char small[256], *name = sc->fl[F_NAME] < sizeof(small) ? small :
	    xmalloc(sc->fl[F_NAME] + 1);
	int64_t num;
	int pat, cls;
	size_t i;
	struct smark *m;

	unescape(sc->f[F_NAME], sc->fl[F_NAME], name);
	if (steps_opt.step_kernel != NULL ||
	    (pat = match_marker(name, &num)) < 0)
		goto out;
	/* A device-side copy of the marker is on the kernels' clock. */
	cls = 2 * pat + (field_is(sc, F_CAT, "gpu_user_annotation") ||
	    field_is(sc, F_KIND, "mark"));
	for (i = d->nmk[cls]; i > 0 && i + 64 > d->nmk[cls]; i--)
		if (d->mk[cls][i - 1].num == num)
			goto out;	/* repeated: the first one counts */
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
out:
	if (name != small)
		free(name);
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
	char small[256], *name = sc->fl[F_NAME] < sizeof(small) ? small :
	    xmalloc(sc->fl[F_NAME] + 1);
	int m;

	unescape(sc->f[F_NAME], sc->fl[F_NAME], name);
	m = fnmatch(steps_opt.step_kernel, name, 0) == 0;
	if (name != small)
		free(name);
	return m;
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

static void
scan_record(struct scan *sc, const char *line, size_t len)
{
	int64_t ts, dur = 0, end;
	struct sdev *d;

	if (!split(sc, line, len)) {
		sc->stop = 1;
		return;
	}
	if (sc->fl[F_TS] == 0) {
		if (sc->last_ts != INT64_MIN)
			sc->stop = 1;
		else
			scan_timeless(sc);
		return;
	}
	if (!to_i64(sc->f[F_TS], sc->fl[F_TS], &ts) || ts < sc->last_ts ||
	    (sc->fl[F_DUR] > 0 && !to_i64(sc->f[F_DUR], sc->fl[F_DUR], &dur))) {
		sc->stop = 1;
		return;
	}
	/* Far beyond any real capture: keep the arithmetic from overflow. */
	if (ts < -TS_LIMIT || ts > TS_LIMIT || dur > TS_LIMIT) {
		sc->stop = 1;
		return;
	}
	sc->last_ts = ts;
	end = ts + (dur > 0 ? dur : 0);
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
		return;
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
}

/* Spool standard input (or a pipe) so that it can be read again. */
static int
make_spool(void)
{
	size_t n = strlen(steps_opt.tmpdir) + 32;
	char *path = xmalloc(n);
	int fd, err;

	snprintf(path, n, "%s/prof-steps.XXXXXX", steps_opt.tmpdir);
	fd = mkstemp(path);
	err = errno;
	if (fd >= 0)
		unlink(path);
	free(path);
	if (fd < 0) {
		errno = err;
		diag_errno(EXIT_BAD, "%s: temporary file", steps_opt.tmpdir);
	}
	return fd;
}

/*
 * Open the input for the scan: a regular file is read again by name
 * (or from its start when it is standard input); anything else is
 * copied to a spool file as it is scanned.
 */
static void
scan_open(struct scan *sc, const char *path)
{
	struct stat stb;

	sc->spool = -1;
	if (strcmp(path, "-") == 0)
		sc->fd = STDIN_FILENO;
	else if ((sc->fd = open(path, O_RDONLY)) < 0)
		sc->fd = -1;	/* the stage names the error */
	if (sc->fd >= 0 && (fstat(sc->fd, &stb) != 0 || !S_ISREG(stb.st_mode) ||
	    (sc->fd == STDIN_FILENO && lseek(sc->fd, 0, SEEK_CUR) != 0)))
		sc->spool = make_spool();
	sc->cap = SCAN_BUF;
	sc->buf = xmalloc(sc->cap);
	sc->last_ts = INT64_MIN;
}

/* Make the spool standard input again for the stage loop. */
static void
scan_close(struct scan *sc, const char *path)
{
	if (sc->spool >= 0) {
		while (!sc->eof) {	/* copy what the scan skipped */
			sc->off = sc->len;
			fill(sc);
		}
		if (dup2(sc->spool, STDIN_FILENO) < 0 ||
		    lseek(STDIN_FILENO, 0, SEEK_SET) != 0)
			diag_errno(EXIT_BAD, "spool file");
		close(sc->spool);
	} else if (sc->fd == STDIN_FILENO)
		lseek(STDIN_FILENO, 0, SEEK_SET);
	if (sc->fd > STDIN_FILENO && strcmp(path, "-") != 0)
		close(sc->fd);
	free(sc->buf);
	free(sc->want);
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

/* One scan of PATH; whether it was spooled to standard input. */
static int
scan_all(const char *path)
{
	struct scan sc;
	char *line;
	size_t len;
	int spooled;

	memset(&sc, 0, sizeof(sc));
	scan_open(&sc, path);
	spooled = sc.spool >= 0;
	if (sc.fd >= 0)
		while (!sc.stop && (line = next_line(&sc, &len)) != NULL) {
			if (!sc.header_seen && len > 0 && line[0] == '#')
				continue;
			if (!sc.header_seen)
				parse_header(&sc, line, len);
			else
				scan_record(&sc, line, len);
		}
	scan_close(&sc, path);
	return spooled;
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

int steps_spooled;

struct sdev **
steps_scan(const char *path, size_t *n)
{
	size_t i;
	int spooled = steps_spooled = scan_all(path);

	if (loop_wanted() && take_loops() > 0) {
		/* the input is standard input again, rewound, if spooled */
		(void)scan_all(spooled ? "-" : path);
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
