/*
 * prof-layers: what a structure costs, in the four perspectives of
 * doc/analysis-rules.md (Block, side and the four timing views): its
 * wall time (the record's dur_ns), the
 * busy union of its kernels (busy_ns), their kernel-time sum
 * (kernel_sum_ns) and their total cost, duration plus wait
 * (cost_total_ns); the same four for its block and its side; kernel time
 * by task class; the device idle inside it and in the gap before it.
 *
 * Block and side: the block is the structure's main compute chain, the
 * kernels on its marker's stream that are neither communication nor AI
 * CPU kernels and last 10 us or more; the side is everything else
 * (communication, AI CPU, other streams, small ops), the rule of 3.4
 * with the marker's stream as the main compute stream.
 *
 * Idle: the device is busy when any of its kernels runs, a kernel of an
 * earlier structure still running included (the busy it carries in,
 * from live_carry).  A structure's span ends where the next one's
 * marker starts, so the idle at its end is the gap before the next: it
 * is counted there (gap_ns) and not in its own idle_ns; so for a layer,
 * wall = device busy + idle_ns + the next layer's gap_ns.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ival.h"
#include "layers.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

/* The block's least kernel duration (3.4, rule 4: shorter is side). */
#define SMALL_NS	10000

/*
 * The length of the union of N intervals IV sorted by start, and in
 * *LAST the end of the last busy stretch (INT64_MIN for none): a
 * layer's kernels come in start order, so no sort is needed, and one
 * per layer and role was a large part of the stage's time.
 */
int64_t
busy_sorted(const struct ival *iv, size_t n, int64_t *last)
{
	int64_t tot = 0, cs = 0, ce = INT64_MIN;
	size_t i;

	for (i = 0; i < n; i++) {
		if (iv[i].e <= iv[i].s)
			continue;
		if (ce == INT64_MIN || iv[i].s > ce) {
			if (ce != INT64_MIN)
				tot += ce - cs;
			cs = iv[i].s;
			ce = iv[i].e;
		} else if (iv[i].e > ce)
			ce = iv[i].e;
	}
	if (ce != INT64_MIN)
		tot += ce - cs;
	if (last != NULL)
		*last = ce;
	return tot;
}

/* Scratch intervals, kept between calls: COUNT of them at least. */
struct ival *
cost_scratch(size_t count)
{
	static struct ival *v;
	static size_t cap;

	if (count > cap) {
		cap = count > 2 * cap ? count : 2 * cap;
		v = xreallocarray(v, cap, sizeof(*v));
	}
	return v;
}

/*
 * The costs of the N kernels K of a structure spanning [TS, END), whose
 * marker's stream is D's marker_track and which inherits D's carry.
 * Kernel ends are clipped to END for busy and wall time (not for the
 * sums, which are the kernels' own).
 */
void
cost_layer(struct ldev *d, const struct lkern *k, size_t n, int64_t ts,
    int64_t end, struct lcost *c)
{
	struct ival *dev = cost_scratch(3 * (n + d->ncarry + 1));
	struct ival *pv[NPARTS];
	size_t i, nd = 0, np[NPARTS] = { 0, 0 };
	int64_t last;
	int p;

	memset(c, 0, sizeof(*c));
	/* the carried-in busy time starts at TS: first, so all is sorted */
	for (i = 0; i < d->ncarry; i++) {
		dev[nd].s = d->carry[i].s;
		dev[nd++].e = d->carry[i].e < end ? d->carry[i].e : end;
	}
	for (p = 0; p < NPARTS; p++) {
		pv[p] = dev + (size_t)(p + 1) * (n + d->ncarry + 1);
		c->part[p].first = INT64_MAX;
		c->part[p].last = INT64_MIN;
	}
	for (i = 0; i < n; i++) {
		const struct lname *e = names_get(k[i].name);
		int64_t dur = k[i].e - k[i].s, ce = k[i].e < end ? k[i].e : end;
		struct lpart *pt;

		c->cost += dur + k[i].wait;
		c->cls[e->cls] += dur;
		p = k[i].track == d->marker_track && dur >= SMALL_NS &&
		    !(e->flags & (NF_COMM | NF_AICPU)) ? PART_BLOCK : PART_SIDE;
		pt = &c->part[p];
		pt->n++;
		pt->sum += dur;
		pt->cost += dur + k[i].wait;
		if (k[i].s < pt->first)
			pt->first = k[i].s;
		if (ce > pt->last)
			pt->last = ce;
		pv[p][np[p]].s = dev[nd].s = k[i].s;
		pv[p][np[p]++].e = dev[nd++].e = ce;
	}
	for (p = 0; p < NPARTS; p++)
		c->part[p].busy = busy_sorted(pv[p], np[p], NULL);
	c->devbusy = busy_sorted(dev, nd, &last);
	c->trail = last == INT64_MIN ? end - ts : end - last;
	c->idle = end - ts - c->devbusy - c->trail;
	c->gap = d->layer_gap;
}

/* Add the costs of layer L to those of its pass P (FIRST: its first). */
void
cost_add(struct lcost *p, const struct lcost *l, int first)
{
	int i;

	if (first) {
		memset(p, 0, sizeof(*p));
		for (i = 0; i < NPARTS; i++) {
			p->part[i].first = INT64_MAX;
			p->part[i].last = INT64_MIN;
		}
		p->gap = l->gap;
	} else
		p->between += l->gap;
	p->cost += l->cost;
	for (i = 0; i < NCLASS; i++)
		p->cls[i] += l->cls[i];
	for (i = 0; i < NPARTS; i++) {
		const struct lpart *f = &l->part[i];
		struct lpart *t = &p->part[i];

		t->n += f->n;
		t->busy += f->busy;
		t->sum += f->sum;
		t->cost += f->cost;
		if (f->first < t->first)
			t->first = f->first;
		if (f->last > t->last)
			t->last = f->last;
	}
	p->devbusy += l->devbusy;
	p->idle += l->idle;
	p->trail = l->trail;
}

/*
 * The task classes of C as "RATIO CLASS" entries joined by ';', largest
 * share of the kernel time first (ties in class order).
 */
static void
put_mix(struct srec *r, const struct lcost *c)
{
	const struct layers_cols *cols = stage_columns(lst);
	char buf[NCLASS * 48], rb[NUM_BUFSIZE];
	int64_t total = 0;
	int used[NCLASS] = { 0 }, i, best, n = names_nclass();
	size_t len = 0;

	for (i = 0; i < n; i++)
		total += c->cls[i];
	if (total <= 0)
		return;
	for (;;) {
		best = -1;
		for (i = 0; i < n; i++)
			if (!used[i] && c->cls[i] > 0 && (best < 0 ||
			    c->cls[i] > c->cls[best]))
				best = i;
		if (best < 0)
			break;
		used[best] = 1;
		(void)num_ratio(rb, c->cls[best], total, 6);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s %s",
		    len > 0 ? ";" : "", rb, names_class(best));
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
	}
	srec_set(r, cols->mix, buf, len);
}

/* The cost columns of a layer or pass record R from C. */
void
cost_put(struct srec *r, const struct lcost *c)
{
	const struct layers_cols *cols = stage_columns(lst);
	int p;

	srec_set_i64(r, cols->cost, c->cost);
	put_mix(r, c);
	for (p = 0; p < NPARTS; p++) {
		const struct lpart *t = &c->part[p];

		if (t->n == 0)
			continue;
		srec_set_i64(r, cols->pcol[p][0], t->last - t->first);
		srec_set_i64(r, cols->pcol[p][1], t->busy);
		srec_set_i64(r, cols->pcol[p][2], t->sum);
		srec_set_i64(r, cols->pcol[p][3], t->cost);
	}
	srec_set_i64(r, cols->idle, c->idle);
	if (c->gap >= 0)	/* -1: nothing ran on the device before */
		srec_set_i64(r, cols->gap, c->gap);
}

/*
 * The share of its step of a structure of wall time WALL in D's pass,
 * when prof-steps' window of that step came before it.
 */
void
cost_share(const struct ldev *d, struct srec *r, int64_t wall)
{
	const struct layers_cols *cols = stage_columns(lst);

	if (d->win->name == NULL || d->win->dur <= 0 ||
	    strcmp(d->win->name, d->pass_step) != 0)
		return;
	srec_set_ratio(r, cols->share_step, wall, d->win->dur);
}
