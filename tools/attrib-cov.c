/*
 * Which host events cover the device's idle time: host_top on every
 * bubble, and the "hostcov" summary records per (dev, step), top 3, and
 * per (dev, step_group), top 5, over every step bubble of the scope.
 *
 * The bubbles of one rank's step close in time order and its steps do
 * not overlap, so a rank keeps one name map for its current step; when
 * a bubble of another step closes, the step's top names are kept and
 * its map is added into its group's.  Memory: three names per step and
 * one map per group, bounded by the distinct names.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "num.h"
#include "stage.h"
#include "xalloc.h"

#define STEP_TOP	3
#define GROUP_TOP	5

struct cstep {
	char		*step;
	size_t		 group;
	int64_t		 idle;
	struct ncov	 top[STEP_TOP];
	size_t		 ntop;
};

struct cgroup {
	char		*name;
	int64_t		 idle;
	struct nmap	 m;
};

struct cdev {
	int64_t		 id;
	struct cstep	*steps;
	size_t		 nsteps;
	struct cgroup	*groups;
	size_t		 ngroups;
	/* the current step */
	char		*cur;
	size_t		 curlen, curgroup;
	int64_t		 curidle;
	struct nmap	 m;
};

static struct cdev *cdevs;
static size_t ncdevs;

/*
 * The host_top text of a bubble of DUR ns: up to K names of M, largest
 * first, as "RATIO NAME" joined by ';' (a ';' in a name becomes ',').
 * Returns its length; *OUT is allocated (NULL when empty).
 */
size_t
cov_top(const struct nmap *m, int64_t dur, size_t k, char **out)
{
	struct ncov top[GROUP_TOP];
	char r[NUM_BUFSIZE], *buf;
	const char *s;
	size_t n, i, j, len, cap = 0, at = 0;

	*out = NULL;
	if (dur <= 0 || k > GROUP_TOP || (n = nmap_top(NT_HOST, m, top,
	    k)) == 0)
		return 0;
	for (i = 0; i < n; i++) {
		names_str(NT_HOST, top[i].id, &len);
		cap += len + NUM_BUFSIZE + 2;
	}
	buf = xmalloc(cap);
	for (i = 0; i < n; i++) {
		s = names_str(NT_HOST, top[i].id, &len);
		if (i > 0)
			buf[at++] = ';';
		j = num_ratio(r, top[i].cov.total, dur, 6);
		memcpy(buf + at, r, j);
		at += j;
		buf[at++] = ' ';
		for (j = 0; j < len; j++)
			buf[at++] = s[j] == ';' ? ',' : s[j];
	}
	*out = buf;
	return at;
}

/* Rank ID's coverage, indexed by the id (bub_dev_id()), as sdev_get(). */
static struct cdev *
cdev_get(int64_t id)
{
	static size_t cap;

	if ((size_t)id >= ncdevs) {
		if ((size_t)id >= cap) {
			cap = (size_t)id < 8 ? 16 : 2 * (size_t)id;
			cdevs = xreallocarray(cdevs, cap, sizeof(*cdevs));
		}
		memset(&cdevs[ncdevs], 0, ((size_t)id + 1 - ncdevs) *
		    sizeof(*cdevs));
		for (; ncdevs <= (size_t)id; ncdevs++)
			cdevs[ncdevs].id = (int64_t)ncdevs;
	}
	return &cdevs[id];
}

static size_t
cgroup_get(struct cdev *d, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < d->ngroups; i++)
		if (strlen(d->groups[i].name) == len &&
		    memcmp(d->groups[i].name, name, len) == 0)
			return i;
	d->groups = xreallocarray(d->groups, d->ngroups + 1,
	    sizeof(*d->groups));
	memset(&d->groups[d->ngroups], 0, sizeof(*d->groups));
	d->groups[d->ngroups].name = xstrndup(name, len);
	return d->ngroups++;
}

/* The current step of D is complete: keep its top, add it to its group. */
static void
cdev_flush(struct cdev *d)
{
	struct cstep *s;
	struct cgroup *g;

	if (d->cur == NULL)
		return;
	d->steps = xreallocarray(d->steps, d->nsteps + 1, sizeof(*d->steps));
	s = &d->steps[d->nsteps++];
	s->step = d->cur;
	s->group = d->curgroup;
	s->idle = d->curidle;
	s->ntop = nmap_top(NT_HOST, &d->m, s->top, STEP_TOP);
	g = &d->groups[d->curgroup];
	g->idle += d->curidle;
	nmap_addall(&g->m, &d->m);
	nmap_free(&d->m);
	d->cur = NULL;
	d->curidle = 0;
}

/* A closed bubble: step bubbles add their covered time to their step. */
void
cov_bubble(const struct bubble_info *bi, const struct bubble_meas *m)
{
	struct cdev *d;

	if (bi->slen == 0 || (bi->sclen == 6 && memcmp(bi->scope, "global",
	    6) == 0))
		return;
	d = cdev_get(bi->dev);
	if (d->cur != NULL && (d->curlen != bi->slen ||
	    memcmp(d->cur, bi->step, bi->slen) != 0))
		cdev_flush(d);
	if (d->cur == NULL) {
		d->cur = xstrndup(bi->step, bi->slen);
		d->curlen = bi->slen;
		d->curgroup = cgroup_get(d, bi->group, bi->glen);
	}
	d->curidle += m->dur;
	nmap_addall(&d->m, bi->names);
}

static void
set_col(struct srec *r, int col, const char *s)
{
	if (col >= 0)
		srec_set_str(r, col, s);
}

/* One hostcov record: name C covers part of IDLE ns of the scope. */
static void
put(struct stage *st, int64_t end, const struct cdev *d, const char *scope,
    const char *step, const char *group, const struct ncov *c, int64_t idle)
{
	const struct attrib_cols *col = stage_columns(st);
	struct srec *r = stage_new(st, "hostcov", end);
	char buf[NUM_BUFSIZE];
	size_t len;
	const char *name = names_str(NT_HOST, c->id, &len);
	int cls = names_class(c->id);

	srec_set_str(r, COL_DEV, bub_dev_name(d->id));
	srec_set(r, COL_NAME, name, len);
	set_col(r, col->scope, scope);
	if (step != NULL)
		set_col(r, col->step, step);
	set_col(r, col->group, group);
	set_col(r, col->host_class, cls >= 0 ? cls_name(cls) : "");
	srec_set_i64(r, col->covered, c->cov.total);
	num_ratio(buf, c->cov.total, idle, 6);
	set_col(r, col->share, buf);
	stage_put(st, r);
}

static int
cmp_cdev(const void *x, const void *y)
{
	const struct cdev *const *a = x, *const *b = y;

	return bub_dev_cmp((*a)->id, (*b)->id);
}

/*
 * The summary, after the cause records: per rank in rank order, its
 * steps in input order, then its step groups in order of first sight.
 */
void
cov_write(struct stage *st, int64_t end)
{
	struct ncov top[GROUP_TOP];
	struct cdev *d, **order;
	struct cgroup *g;
	size_t i, j, k, n;

	order = xreallocarray(NULL, ncdevs + 1, sizeof(*order));
	for (i = 0; i < ncdevs; i++)
		order[i] = &cdevs[i];
	if (ncdevs > 1)
		qsort(order, ncdevs, sizeof(*order), cmp_cdev);
	for (i = 0; i < ncdevs; i++) {
		d = order[i];
		cdev_flush(d);
		if (!sum_has_device(d->id))
			continue;
		for (j = 0; j < d->nsteps; j++)
			for (k = 0; k < d->steps[j].ntop; k++)
				put(st, end, d, "step", d->steps[j].step,
				    d->groups[d->steps[j].group].name,
				    &d->steps[j].top[k], d->steps[j].idle);
		for (j = 0; j < d->ngroups; j++) {
			g = &d->groups[j];
			n = nmap_top(NT_HOST, &g->m, top, GROUP_TOP);
			for (k = 0; k < n; k++)
				put(st, end, d, "group", NULL, g->name,
				    &top[k], g->idle);
		}
	}
	free(order);
}
