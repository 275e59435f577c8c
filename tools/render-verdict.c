/*
 * What the human formats say of prof-verdict's records: the words of a
 * class, the MFU or the option that would give it, the parts of the time
 * budget, the recommendations of every rank as one list in rank order,
 * and the sentence that reconciles the idle time of the whole capture
 * with the idle time of the steps.
 *
 * Nothing is decided here: the class, its share, the confidence and the
 * order of the advice are prof-verdict's.  The one sum is the
 * reconciliation, which only rearranges prof-bubbles' own figures.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "render.h"
#include "xalloc.h"

/* The budget parts in prof-verdict's order, and what each one is. */
const char *const render_part[RP_N] = {
	"busy_compute", "busy_memory", "busy_latency", "busy_unclassed",
	"comm_hidden", "comm_exposed", "idle_sync", "idle_input",
	"idle_launch", "idle_host", "idle_untraced"
};
const char *const render_part_words[RP_N] = {
	"busy, compute-bound kernels", "busy, memory-bound kernels",
	"busy, short latency-bound kernels", "busy, bound unknown",
	"communication hidden under compute", "communication alone (exposed)",
	"idle, host synchronising", "idle, input pipeline",
	"idle, kernel launch", "idle, other host work",
	"idle, nothing traced"
};

static const struct {
	const char *cls, *words, *about;
} classes[] = {
	{ "compute", "compute-bound", "the device computes most of the "
	    "step" },
	{ "memory", "memory-bound", "memory-bound kernels take the step" },
	{ "launch", "launch-bound", "short kernels and short gaps: the host "
	    "does not launch fast enough" },
	{ "communication", "communication-bound", "communication that no "
	    "compute hides" },
	{ "sync", "sync-bound", "the host waits on the device inside the "
	    "step" },
	{ "input", "input-bound", "the input pipeline keeps the device "
	    "waiting" },
	{ "host", "host-bound", "host work keeps the device idle" },
	{ "untraced", "bound by untraced idle time", "the device idles and "
	    "no traced host event says why" },
	{ "no_device_data", "no device data", "no device kernels on this "
	    "rank: nothing to analyse, and not idle" },
	{ "in_core", "in-core", "an op-simulator trace: the pipe that bounds "
	    "the kernel, not steps and bubbles" },
};

/* "communication-bound" for "communication"; the class itself if new. */
const char *
verdict_words(const char *cls)
{
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strcmp(classes[i].cls, cls) == 0)
			return classes[i].words;
	return cls;
}

/*
 * The class of verdict V in words, and what it means: those of its
 * class, but for memory-bound time that is mostly copies far below the
 * HBM roof (prof-verdict's slow_transfers tag), which fusing kernels
 * does not fix.
 */
static int
slow_transfers(const struct rverdict *v)
{
	return strcmp(v->cls, "memory") == 0 && tag_has(v->tags,
	    "slow_transfers");
}

const char *
verdict_words_of(const struct rverdict *v)
{
	return slow_transfers(v) ? "memory-bound, by copies far below the "
	    "HBM roof" : verdict_words(v->cls);
}

const char *
verdict_about_of(const struct rverdict *v)
{
	return slow_transfers(v) ? "copies far below the HBM roof take the "
	    "step: transfers to or from host memory (a pageable memcpy, a "
	    "host offload) or waits for DMA" : verdict_about(v->cls);
}

/* What the class means, in a few words. */
const char *
verdict_about(const char *cls)
{
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strcmp(classes[i].cls, cls) == 0)
			return classes[i].about;
	return "a class this prof-render does not know";
}

/*
 * The rank has no device data: prof-verdict says so, or, without a
 * verdict, the rank has step windows, communication or host records but
 * not one kernel or busy record.  Such a rank is never called idle.
 */
int
dev_nodata(const struct rdev *d)
{
	if (d->verdict != NULL)
		return strcmp(d->verdict->cls, "no_device_data") == 0;
	return d->nkernel == 0 && d->nbusy == 0 && (d->nsteps > 0 ||
	    d->ncomm > 0 || d->nhost > 0);
}

/* The rank is an op-simulator trace (prof-verdict's in_core). */
int
dev_incore(const struct rdev *d)
{
	return d->verdict != NULL && strcmp(d->verdict->cls, "in_core") == 0;
}

/* Whether the rank's windows and bubbles are device time to report. */
int
dev_timeline(const struct rdev *d)
{
	return !dev_nodata(d) && !dev_incore(d);
}

/*
 * The MFU of V: "MFU 41.2% (over 87.0% of the kernel time, chip h100)",
 * or why there is none and the option that would give it.
 */
void
put_mfu(FILE *f, const struct rverdict *v)
{
	if (*v->mfu != '\0') {
		fputs("MFU ", f);
		put_pct(f, v->mfu);
		if (*v->mfu_cov != '\0') {
			fputs(" (over ", f);
			put_pct(f, v->mfu_cov);
			fputs(" of the kernel time", f);
		} else
			fputs(" (coverage unknown", f);
		fprintf(f, "%s%s)", *v->chip ? ", chip " : "", v->chip);
	} else if (tag_has(v->tags, "no_roofline"))
		fputs("MFU unknown: prof-roofline did not run (`prof-roofline "
		    "-c CHIP` gives it)", f);
	else if (*v->chip != '\0')
		fprintf(f, "MFU unknown on chip %s: no kernel with FLOPs",
		    v->chip);
	else
		fputs("MFU unknown: no chip known (`prof-roofline -c CHIP` "
		    "gives it)", f);
}

/* The budget record of PART in SCOPE (and GROUP for a group), or NULL. */
const struct rbudget *
budget_part(const struct rdev *d, const char *scope, const char *group,
    const char *part)
{
	size_t i;

	for (i = 0; i < d->nbudget; i++)
		if (strcmp(d->budget[i].part, part) == 0 &&
		    strcmp(d->budget[i].scope, scope) == 0 &&
		    (group == NULL || strcmp(d->budget[i].group, group) == 0))
			return &d->budget[i];
	return NULL;
}

/* Whether the rank has a budget of the run. */
int
budget_has(const struct rdev *d)
{
	size_t k;

	for (k = 0; k < RP_N; k++)
		if (budget_part(d, "run", NULL, render_part[k]) != NULL)
			return 1;
	return 0;
}

/* Integer ns text as int64, 0 when empty; *OK cleared when not one. */
static int64_t
ns_of(const char *s, int *ok)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0') {
		*ok = 0;
		return 0;
	}
	v = strtoll(s, &end, 10);
	if (*end != '\0')
		*ok = 0;
	return (int64_t)v;
}

/*
 * The idle time of the capture against the idle time of the steps.
 * prof-bubbles' capture_gap_ns is the idle time from the rank's first
 * kernel to its last; the steps' idle time is the sum of their
 * underfeed_ns.  They differ by the window time outside that span (a
 * first step that starts before its first kernel, a last one that ends
 * after its last) and by the idle time inside the span but outside
 * every window: capture = steps - outside + rest.  Returns 0 when a
 * figure is missing.
 */
int
idle_reconcile(const struct rdev *d, struct ridle *r)
{
	int64_t start, end, lo, hi;
	size_t i;
	int ok = 1;

	memset(r, 0, sizeof(*r));
	if (d->nsteps == 0)
		return 0;
	r->capture = ns_of(model_cap(d, "capture_gap_ns"), &ok);
	start = ns_of(model_cap(d, "capture_start_ns"), &ok);
	end = start + ns_of(model_cap(d, "capture_span_ns"), &ok);
	for (i = 0; ok && i < d->nsteps; i++) {
		const struct rstep *s = &d->steps[i];
		r->steps += ns_of(s->m[SM_UNDERFEED], &ok);
		lo = s->ts > start ? s->ts : start;
		hi = s->ts + s->dur < end ? s->ts + s->dur : end;
		r->outside += s->dur - (hi > lo ? hi - lo : 0);
	}
	r->nsteps = d->nsteps;
	r->rest = r->capture - r->steps + r->outside;
	return ok;
}

/* The reconciliation as one sentence, without the final period. */
void
put_idle_sentence(FILE *f, const struct ridle *r)
{
	fputs("capture idle ", f);
	put_ms(f, r->capture, 3);
	fputs(" ms (from the first kernel to the last) = the steps' idle ",
	    f);
	put_ms(f, r->steps, 3);
	fprintf(f, " ms (summed over %zu step%s) - ", r->nsteps,
	    r->nsteps == 1 ? "" : "s");
	put_ms(f, r->outside, 3);
	fputs(" ms of step windows before the first kernel or after the "
	    "last ", f);
	if (r->rest >= 0) {
		fputs("+ ", f);
		put_ms(f, r->rest, 3);
		fputs(" ms idle inside the capture but outside every step",
		    f);
	} else {
		fputs("- ", f);
		put_ms(f, -r->rest, 3);
		fputs(" ms of busy records that are not kernels (prof-merge "
		    "counted them)", f);
	}
}

static void
rec_add_dev(struct rrec *r, const struct rdev *d, const struct radvice *a)
{
	size_t n = strlen(r->devs) + strlen(d->id) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s%s", r->devs, *r->devs ? "," : "", d->id);
	free(r->devs);
	r->devs = s;
	r->all = xreallocarray(r->all, r->n + 1, sizeof(*r->all));
	r->alldev = xreallocarray(r->alldev, r->n + 1, sizeof(*r->alldev));
	r->all[r->n] = a;
	r->alldev[r->n++] = d;
	if (a->rank < r->rank)
		r->rank = a->rank;
}

static int
same_advice(const struct radvice *a, const struct radvice *b)
{
	return strcmp(a->name, b->name) == 0 &&
	    strcmp(a->prio, b->prio) == 0 &&
	    strcmp(a->scope, b->scope) == 0 &&
	    strcmp(a->target, b->target) == 0 &&
	    strcmp(a->text, b->text) == 0;
}

static int
by_rank(const void *x, const void *y)
{
	const struct rrec *a = x, *b = y;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * The advice records of every rank as one list: equal ones (same
 * action, priority, scope, target and sentence) merged with their
 * ranks, in rank order (the best rank of a merged one), the first rank
 * in the stream first among equals.
 */
size_t
recs_build(const struct rmodel *m, struct rrec **out)
{
	struct rrec *r = NULL;
	size_t i, j, k, n = 0;

	for (i = 0; i < m->ndevs; i++)
		for (j = 0; j < m->devs[i]->nadvice; j++) {
			const struct radvice *a = &m->devs[i]->advice[j];
			for (k = 0; k < n; k++)
				if (same_advice(r[k].a, a))
					break;
			if (k == n) {
				r = xreallocarray(r, n + 1, sizeof(*r));
				memset(&r[n], 0, sizeof(*r));
				r[n].a = a;
				r[n].rank = a->rank;
				r[n].first = i;
				r[n].seq = n;
				r[n].devs = xstrdup("");
				n++;
			}
			rec_add_dev(&r[k], m->devs[i], a);
		}
	if (n > 0)
		qsort(r, n, sizeof(*r), by_rank);
	*out = r;
	return n;
}

void
recs_free(struct rrec *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(r[i].devs);
		free(r[i].all);
		free(r[i].alldev);
	}
	free(r);
}

/* V as a report shows it (a percentage, or ns as ms), into BUF. */
static void
shown(const char *v, int pct, char *buf, size_t cap)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (f == NULL) {
		snprintf(buf, cap, "?");
		return;
	}
	if (pct)
		put_pct(f, v);
	else
		put_dec(f, v, 6, 3);
	fclose(f);
	snprintf(buf, cap, "%s", s);
	free(s);
}

/*
 * The smallest and largest stake (or share) over the ranks of R:
 * "96.359–101.963" when they differ, one value when not.
 */
static void
range(FILE *f, const struct rrec *r, int pct)
{
	const char *lo = NULL, *hi = NULL, *v;
	char a[64], b[64];
	size_t i;

	for (i = 0; i < r->n; i++) {
		v = pct ? r->all[i]->share : r->all[i]->stake;
		if (*v == '\0')
			continue;
		if (lo == NULL || dec_cmp(v, lo) < 0)
			lo = v;
		if (hi == NULL || dec_cmp(v, hi) > 0)
			hi = v;
	}
	if (lo == NULL) {
		fputs("-", f);
		return;
	}
	shown(lo, pct, a, sizeof(a));
	shown(hi, pct, b, sizeof(b));
	fputs(a, f);
	/* One value when both ends read the same. */
	if (strcmp(a, b) != 0)
		fprintf(f, "–%s", b);
}

/* Whether a rank of R has a time at stake above 0. */
int
rec_has_stake(const struct rrec *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (*r->all[i]->stake != '\0' &&
		    dec_cmp(r->all[i]->stake, "0") != 0)
			return 1;
	return 0;
}

/* The time R puts at stake: ms per step (or a range over its ranks). */
void
put_rec_stake(FILE *f, const struct rrec *r)
{
	range(f, r, 0);
}

/* The share of the step R puts at stake, as a percentage or a range. */
void
put_rec_share(FILE *f, const struct rrec *r)
{
	range(f, r, 1);
}

/*
 * The evidence of R, each text written by PUT: once when every rank has
 * the same, else each rank's, "rank 0: ...; rank 1: ...".
 */
void
put_rec_evidence(FILE *f, const struct rrec *r,
    void (*put)(FILE *, const char *))
{
	size_t i;
	int same = 1;

	for (i = 1; i < r->n; i++)
		same &= strcmp(r->all[i]->evidence, r->all[0]->evidence) == 0;
	for (i = 0; i < (same ? 1 : r->n); i++) {
		if (!same)
			fprintf(f, "%srank %s: ", i ? "; " : "",
			    r->alldev[i]->id);
		put(f, *r->all[i]->evidence ? r->all[i]->evidence : "-");
	}
}

/*
 * prof-attrib's host_top ("0.993 NAME;0.004 NAME"): "99.3% NAME, 0.4%
 * NAME", each name written by PUT.
 */
void
put_host_top(FILE *f, const char *s, void (*put)(FILE *, const char *))
{
	char name[1024], r[64];
	size_t n, k;
	int first = 1;

	for (; *s != '\0'; s += n + (s[n] == ';')) {
		n = strcspn(s, ";");
		k = strcspn(s, " ");
		if (k >= n || k >= sizeof(r))
			continue;
		snprintf(r, sizeof(r), "%.*s", (int)k, s);
		snprintf(name, sizeof(name), "%.*s", (int)(n - k - 1),
		    s + k + 1);
		fputs(first ? "" : ", ", f);
		first = 0;
		put_pct(f, r);
		putc(' ', f);
		put(f, name);
	}
	if (first)
		fputs("-", f);
}

/* A bubble's idle time by host class, the classes with time: "input
 * 48.100 ms, untraced 0.300 ms"; "-" without prof-attrib's columns. */
void
put_idle_split(FILE *f, const struct rbubble *b)
{
	size_t k;
	int n = 0;

	for (k = 0; k < HC_N; k++) {
		if (*b->idle[k] == '\0' || dec_cmp(b->idle[k], "0") == 0)
			continue;
		fprintf(f, "%s%s ", n++ ? ", " : "", render_host_class[k]);
		put_dec(f, b->idle[k], 6, 3);
		fputs(" ms", f);
	}
	if (n == 0)
		fputs("-", f);
}

/*
 * The verdict of D in one line for a summary: "communication-bound,
 * 51.9% of the step, 420.174 ms per step at stake, confidence high", or
 * "no device data", "in-core, bounded by the mte3 pipe (...)", "none".
 * A fresh string.
 */
char *
verdict_line(const struct rdev *d)
{
	const struct rverdict *v = d->verdict;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return xstrdup("?");
	if (v == NULL)
		fputs("none (no verdict record)", f);
	else if (strcmp(v->cls, "no_device_data") == 0)
		fputs("no device data (no device kernels; not idle)", f);
	else if (strcmp(v->cls, "in_core") == 0) {
		fprintf(f, "in-core, bounded by the %s pipe (", *v->pipe ?
		    v->pipe : "unknown");
		put_pct(f, v->share);
		fprintf(f, " of the span), confidence %s", v->confidence);
	} else {
		fprintf(f, "%s, ", verdict_words_of(v));
		put_pct(f, v->share);
		fputs(" of the step, ", f);
		put_dec(f, v->stake, 6, 3);
		fprintf(f, " ms per step at stake, confidence %s",
		    *v->confidence ? v->confidence : "-");
	}
	fclose(f);
	return buf;
}
