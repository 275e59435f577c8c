/*
 * The summaries of prof-bubbles, written after every other record: per
 * (dev, step_group) the statistics of every per-step metric, the
 * recurring bubble pattern, the dominant idle pattern and the dominant
 * tags; per device the whole-capture gap analysis and its top gaps.
 *
 * The per-step table is the one thing that grows with the input: one
 * row of NMET integers per step, since a median needs every value.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bubbles.h"
#include "devtab.h"
#include "num.h"
#include "stage.h"
#include "strtab.h"
#include "xalloc.h"

const char *const bub_metric_names[NMET] = {
	"service_ns", "busy_union_ns", "underfeed_ns", "underfeed_ratio",
	"prelaunch_gap_ns", "tail_gap_ns", "internal_bubble_total_ns",
	"largest_internal_bubble_ns", "bubble_count", "significant_bubble_count",
	"inter_step_gap_ns"
};

const char *const bub_tag_names[TAG_NBITS] = {
	"DEVICE_IDLE_GAP_HEAVY", "PRELAUNCH_GAP_HEAVY", "TAIL_GAP_HEAVY",
	"INTERNAL_BUBBLE_HEAVY", "PARTIAL_CAPTURE_BOUNDARY"
};

struct srow {
	size_t		 grp;
	int64_t		 m[NMET];	/* M_RATIO scaled by BUB_RATIO_SCALE */
	unsigned	 tags;
};

struct grp {
	char		*dev, *name;
	size_t		 devlen, n;
};

/* A device's step groups: the index in s.grp of each by name. */
struct gdev {
	struct strtab	 grp;		/* of a size_t */
};

struct topgap {
	int64_t		 s, dur;
	char		*id;
};

struct cap {
	char		*dev;
	size_t		 devlen;
	int		 ran;
	int64_t		 first, end, busy, count;
	struct topgap	 big;
	struct topgap	*top;
	size_t		 ntop;
};

static struct {
	struct stage		*st;
	const struct bub_opts	*o;
	const struct bub_cols	*c;
	struct srow		*row;
	size_t			 nrow, caprow;
	struct grp		*grp;
	size_t			 ngrp, capgrp, lastgrp;
	struct devtab		 gdevs;		/* struct gdev */
	struct cap		*cap;
	size_t			 ncap, capcap;
} s;

void
sum_init(struct stage *st, const struct bub_opts *o, const struct bub_cols *c)
{
	s.st = st;
	s.o = o;
	s.c = c;
	devtab_init(&s.gdevs, sizeof(struct gdev));
}

int
ratio_ge(int64_t x, struct ratio r, int64_t y)
{
	return (__int128)x * r.den >= (__int128)r.num * y;
}

/*
 * The group (DEV, NAME): the last one, else by device and name, as there
 * is one per device and step group, and a job has 100,000 devices.
 */
static size_t
find_grp(const char *dev, size_t len, const char *name)
{
	struct grp *g = s.ngrp > 0 ? &s.grp[s.lastgrp] : NULL;
	struct gdev *d;
	size_t nlen = strlen(name), id, *at;
	int isnew;

	if (g != NULL && g->devlen == len && memcmp(g->dev, dev, len) == 0 &&
	    strcmp(g->name, name) == 0)
		return s.lastgrp;
	d = devtab_get(&s.gdevs, dev, len, &isnew);
	if (isnew)
		strtab_init(&d->grp, sizeof(size_t));
	id = strtab_intern(&d->grp, name, nlen, &isnew);
	at = strtab_val(&d->grp, id);
	if (!isnew)
		return s.lastgrp = *at;
	if (s.ngrp == s.capgrp) {
		s.capgrp = s.capgrp ? 2 * s.capgrp : 8;
		s.grp = xreallocarray(s.grp, s.capgrp, sizeof(*s.grp));
	}
	g = &s.grp[s.ngrp];
	g->dev = xstrndup(dev, len);
	g->devlen = len;
	g->name = xstrdup(name);
	g->n = 0;
	return s.lastgrp = *at = s.ngrp++;
}

/* One finished step of DEV in group GROUP, with metrics M and tags T. */
void
sum_step(const char *dev, size_t len, const char *group, const int64_t *m,
    unsigned t)
{
	struct srow *r;

	if (s.nrow == s.caprow) {
		s.caprow = s.caprow ? 2 * s.caprow : 64;
		s.row = xreallocarray(s.row, s.caprow, sizeof(*s.row));
	}
	r = &s.row[s.nrow++];
	r->grp = find_grp(dev, len, group);
	s.grp[r->grp].n++;
	memcpy(r->m, m, sizeof(r->m));
	r->m[M_RATIO] = 0;
	if (m[M_SERVICE] > 0)	/* rounded half up to 10^-12 */
		r->m[M_RATIO] = (int64_t)(((__int128)m[M_UNDER] *
		    BUB_RATIO_SCALE * 2 + m[M_SERVICE]) /
		    ((__int128)m[M_SERVICE] * 2));
	r->tags = t;
}

/* Device DI of the gap follower is DEV: every device has a place. */
void
sum_dev(size_t di, const char *dev, size_t len)
{
	struct cap *c;

	if (di >= s.capcap) {
		s.capcap = di + 8;
		s.cap = xreallocarray(s.cap, s.capcap, sizeof(*s.cap));
	}
	c = &s.cap[di];
	memset(c, 0, sizeof(*c));
	c->dev = xstrndup(dev, len);
	c->devlen = len;
	c->top = xreallocarray(NULL, (size_t)s.o->top + 1, sizeof(*c->top));
	if (di >= s.ncap)
		s.ncap = di + 1;
}

/*
 * A whole-capture gap of device DI: the total, the largest (the first of equal
 * ones), and the top N, longest first, earlier first among equal ones.
 */
void
sum_gap(size_t di, int64_t start, int64_t dur, const char *id)
{
	struct cap *c = &s.cap[di];
	size_t lo = 0, hi = c->ntop, n = (size_t)s.o->top;

	c->count++;
	if (dur > c->big.dur) {
		free(c->big.id);
		c->big.s = start;
		c->big.dur = dur;
		c->big.id = xstrdup(id);
	}
	if (c->ntop == n && (n == 0 || dur <= c->top[n - 1].dur))
		return;
	while (lo < hi) {		/* first entry shorter than dur */
		size_t mid = (lo + hi) / 2;

		if (c->top[mid].dur >= dur)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (c->ntop == n)
		free(c->top[--c->ntop].id);
	memmove(&c->top[lo + 1], &c->top[lo], (c->ntop - lo) *
	    sizeof(*c->top));
	c->top[lo].s = start;
	c->top[lo].dur = dur;
	c->top[lo].id = xstrdup(id);
	c->ntop++;
}

/* The extent and busy union of the kernels of device DI. */
void
sum_capture(size_t di, int64_t first, int64_t end, int64_t busy)
{
	struct cap *c = &s.cap[di];

	c->ran = 1;
	c->first = first;
	c->end = end;
	c->busy = busy;
}

/* A summary record at the end of the capture. */
static struct srec *
summary(const char *kind, const char *dev, size_t devlen, const char *name)
{
	struct srec *r = stage_new(s.st, kind, stage_end_ts(s.st));

	srec_set(r, COL_DEV, dev, devlen);
	srec_set_str(r, COL_NAME, name);
	return r;
}

/*
 * A summary metric NAME[SUFFIX] = NUM / DEN (6 decimals), in 128 bits:
 * a sum of the steps' durations and a percentile of them times 100 do
 * not fit 64 for durations that prof-tsv(5) allows.
 */
static void
put_ratio(const struct grp *g, const char *name, const char *suffix,
    __int128 num, __int128 den)
{
	char full[64], buf[NUM_BUFSIZE];
	struct srec *r;

	snprintf(full, sizeof(full), "%s%s", name, suffix);
	r = summary("metric", g->dev, g->devlen, full);
	num_ratio_i128(buf, num, den, 6);
	srec_set_str(r, s.c->value, buf);
	if (g->name[0] != '\0')
		srec_set_str(r, s.c->group, g->name);
	stage_put(s.st, r);
}

/* avg, median, p90, p95 of metric K over the N values V of group G. */
static void
put_stats(const struct grp *g, int k, int64_t *v, size_t n)
{
	__int128 sum = 0, num, scale = k == M_RATIO ? BUB_RATIO_SCALE : 1;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	num_sort(v, n);
	put_ratio(g, bub_metric_names[k], "_avg", sum, (__int128)n * scale);
	num_median128(v, n, &num);
	put_ratio(g, bub_metric_names[k], "_median", num, 2 * scale);
	num_percentile(v, n, 90, &num);
	put_ratio(g, bub_metric_names[k], "_p90", num, 100 * scale);
	num_percentile(v, n, 95, &num);
	put_ratio(g, bub_metric_names[k], "_p95", num, 100 * scale);
}

/*
 * The dominant idle pattern from the sums (equivalently the averages)
 * of the prelaunch, tail, internal and inter-step gaps of a group.
 */
static const char *
idle_pattern(const __int128 *sum)
{
	static const char *const names[] = {
		"prelaunch", "tail", "internal_bubble"
	};
	/* the windows of a dev never overlap, so each sum lies within the
	 * capture span, below 2^63; their total is past it */
	__int128 p[3] = { sum[M_PRE], sum[M_TAIL], sum[M_INTERNAL] };
	__int128 x = sum[M_INTER], second = -1;
	int top = 0, i;

	if (p[0] == 0 && p[1] == 0 && p[2] == 0 && x == 0)
		return "none";
	if (x > p[0] + p[1] + p[2])
		return "inter_step";
	for (i = 1; i < 3; i++)		/* ties: the first wins */
		if (p[i] > p[top])
			top = i;
	for (i = 0; i < 3; i++)
		if (i != top && p[i] > second)
			second = p[i];
	/* (p[top] - second) / p[top] >= mixed, times the ratio's terms of
	 * 30 bits at most (parse_ratio) */
	if ((p[top] - second) * s.o->mixed.den < s.o->mixed.num * p[top])
		return "mixed";
	return names[top];
}

/* The tags that a share of the group's steps carry, and recurrence. */
static void
group_tags(const size_t *count, size_t with_bubbles, size_t n, char *buf,
    size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < TAG_NBITS; i++)
		if (count[i] > 0 && ratio_ge((int64_t)count[i], s.o->share,
		    (int64_t)n))
			len += (size_t)snprintf(buf + len, size - len, "%s%s",
			    len > 0 ? "," : "", bub_tag_names[i]);
	if (with_bubbles > 0 && ratio_ge((int64_t)with_bubbles,
	    s.o->recurring, (int64_t)n))
		snprintf(buf + len, size - len, "%sRECURRING_BUBBLE_PATTERN",
		    len > 0 ? "," : "");
}

/* Every summary record of group GI, whose rows are ROWS[0..n-1]. */
static void
write_group(size_t gi, const size_t *rows, int64_t *v)
{
	const struct grp *g = &s.grp[gi];
	size_t count[TAG_NBITS] = { 0 }, with = 0, i, n = g->n;
	__int128 sum[NMET] = { 0 };
	char tags[256];
	struct srec *r;
	int k, b;

	for (k = 0; k < NMET; k++) {
		for (i = 0; i < n; i++)
			sum[k] += v[i] = s.row[rows[i]].m[k];
		put_stats(g, k, v, n);
	}
	for (i = 0; i < n; i++) {
		with += s.row[rows[i]].m[M_COUNT] > 0;
		for (b = 0; b < TAG_NBITS; b++)
			count[b] += (s.row[rows[i]].tags >> b) & 1;
	}
	put_ratio(g, "recurring_step_ratio", "", (int64_t)with, (int64_t)n);
	group_tags(count, with, n, tags, sizeof(tags));
	r = summary("bubble_group", g->dev, g->devlen, idle_pattern(sum));
	srec_set_i64(r, s.c->value, (int64_t)n);
	if (g->name[0] != '\0')
		srec_set_str(r, s.c->group, g->name);
	if (tags[0] != '\0')
		srec_set_str(r, s.c->tags, tags);
	stage_put(s.st, r);
}

/* Every group, its rows brought together by a counting sort. */
static void
write_groups(void)
{
	int64_t *v = xreallocarray(NULL, s.nrow + 1, sizeof(*v));
	size_t *rows = xreallocarray(NULL, s.nrow + 1, sizeof(*rows));
	size_t *at = xreallocarray(NULL, s.ngrp + 1, sizeof(*at));
	size_t i;

	for (at[0] = 0, i = 0; i < s.ngrp; i++)
		at[i + 1] = at[i] + s.grp[i].n;
	for (i = 0; i < s.nrow; i++)
		rows[at[s.row[i].grp]++] = i;
	for (i = 0; i < s.ngrp; i++)	/* at[i] is now the end of group i */
		write_group(i, rows + at[i] - s.grp[i].n, v);
	free(at);
	free(rows);
	free(v);
}

static void
put_cap(const struct cap *c, const char *name, int64_t v, const char *id)
{
	struct srec *r = summary("metric", c->dev, c->devlen, name);

	srec_set_i64(r, s.c->value, v);
	if (id != NULL)
		srec_set_str(r, s.c->id, id);
	stage_put(s.st, r);
}

/* The whole-capture gap analysis of one device. */
static void
write_cap(const struct cap *c)
{
	int64_t span = c->end - c->first, gap = span - c->busy;
	char buf[NUM_BUFSIZE];
	struct srec *r;
	size_t i;

	put_cap(c, "capture_start_ns", c->first, NULL);
	put_cap(c, "capture_span_ns", span, NULL);
	put_cap(c, "capture_busy_union_ns", c->busy, NULL);
	put_cap(c, "capture_gap_ns", gap, NULL);
	r = summary("metric", c->dev, c->devlen, "capture_gap_ratio");
	if (span > 0)
		num_ratio(buf, gap, span, 6);
	srec_set_str(r, s.c->value, span > 0 ? buf : "0");
	stage_put(s.st, r);
	put_cap(c, "capture_gap_count", c->count, NULL);
	r = summary("metric", c->dev, c->devlen, "largest_gap_ns");
	srec_set_i64(r, s.c->value, c->big.dur);
	if (c->big.id != NULL)
		srec_set_str(r, s.c->id, c->big.id);
	if (c->big.dur > 0 && (c->big.s - c->first <= s.o->near ||
	    c->end - (c->big.s + c->big.dur) <= s.o->near))
		srec_set_str(r, s.c->tags, bub_tag_names[4]);
	stage_put(s.st, r);
	for (i = 0; i < c->ntop; i++) {
		put_cap(c, "top_gap_start_ns", c->top[i].s, c->top[i].id);
		put_cap(c, "top_gap_ns", c->top[i].dur, c->top[i].id);
	}
}

/* Write every summary record: the groups, then the devices. */
void
sum_write(void)
{
	size_t i, j;

	write_groups();
	for (i = 0; i < s.ncap; i++) {
		if (s.cap[i].ran)
			write_cap(&s.cap[i]);
		for (j = 0; j < s.cap[i].ntop; j++)
			free(s.cap[i].top[j].id);
		free(s.cap[i].top);
		free(s.cap[i].big.id);
		free(s.cap[i].dev);
	}
	for (i = 0; i < s.ngrp; i++) {
		free(s.grp[i].dev);
		free(s.grp[i].name);
	}
	free(s.grp);
	for (i = 0; i < s.gdevs.n; i++)
		strtab_free(&((struct gdev *)s.gdevs.v[i].item)->grp);
	devtab_free(&s.gdevs);
	free(s.row);
	free(s.cap);
}
