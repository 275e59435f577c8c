/*
 * Recommendations (section 5.5 of the analysis rules) from what the
 * stages found: every cause record gives one about its label and one per
 * follow-up it names, and every op a rule tagged gives one.  Nothing is
 * measured here; the renderer only decides the wording and the priority.
 *
 * Priority (the rules leave the mapping open; prof-render(1) states it):
 *   P0  a labelled cause of medium or high confidence on a rank whose
 *       dominant step group is DEVICE_IDLE_GAP_HEAVY;
 *   P1  a low-confidence cause or a follow-up on such a rank, and AI CPU
 *       ops that run with the AI Core idle (AICPU_EXPOSED_*);
 *   P2  causes and follow-ups on ranks without heavy idle time, wait
 *       anchor false hotspots, wait pollution, partly exposed AI CPU ops;
 *   P3  insufficient evidence on a rank without heavy idle time, masked
 *       AI CPU ops, missing wait times.
 * Equal recommendations of several ranks are merged into one.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "xalloc.h"

static struct rrec *recs;
static size_t nrecs;

static char *
fmt(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
	char *s = xmalloc(n);

	snprintf(s, n, "%s%s%s", a, b, c);
	return s;
}

static void
add(int prio, const char *scope, const char *target, char *action,
    const char *gap, int followup, const char *dev, char *why)
{
	struct rrec *r;
	char *d;
	size_t i;

	for (i = 0; i < nrecs; i++) {
		r = &recs[i];
		if (r->prio == prio && strcmp(r->scope, scope) == 0 &&
		    strcmp(r->target, target) == 0 &&
		    strcmp(r->action, action) == 0) {
			if (!tag_has(r->devs, dev)) {
				d = fmt(r->devs, ",", dev);
				free(r->devs);
				r->devs = d;
			}
			free(action);
			free(why);
			return;
		}
	}
	recs = xreallocarray(recs, nrecs + 1, sizeof(*recs));
	r = &recs[nrecs++];
	r->prio = prio;
	r->scope = scope;
	r->target = xstrdup(target);
	r->action = action;
	r->gap = xstrdup(gap);
	r->followup = followup;
	r->devs = xstrdup(dev);
	r->why = why;
}

/* The follow-ups prof-attrib names, as actions and evidence gaps. */
static const struct {
	const char *flag, *action, *gap;
} fups[] = {
	{ "with_stack=true", "re-profile with with_stack=true",
	    "no Python call stacks (with_stack=false): labels stay coarse" },
	{ "record_shapes=true", "re-profile with record_shapes=true",
	    "no input shapes (record_shapes=false): shape variation "
	    "unchecked" },
	{ "host_sampling", "take host-side sampling or a thread view over "
	    "the same steps", "the host's activity during the bubbles is "
	    "not in the trace" },
	{ "inspect_comm_sync", "inspect the communication and sync paths "
	    "around the bubbles", "communication overlaps the bubbles; "
	    "which rank waits for which is not resolved" },
};

static const char *
rec_scope(const char *cause_scope)
{
	return strcmp(cause_scope, "global") == 0 || *cause_scope == '\0' ?
	    "global" : "step_group";
}

/* Whether the rank's global scope has LABEL (a group repeating it adds
 * nothing to the recommendation). */
static int
global_has(const struct rdev *d, const char *label)
{
	size_t i;

	for (i = 0; i < d->ncauses; i++)
		if (strcmp(d->causes[i].scope, "global") == 0 &&
		    strcmp(d->causes[i].label, label) == 0)
			return 1;
	return 0;
}

static void
from_cause(const struct rdev *d, const struct rcause *c, int heavy)
{
	const char *scope = rec_scope(c->scope), *p;
	char *why;
	size_t i, n;
	int prio, ie = strcmp(c->label, "insufficient_evidence") == 0;

	if (ie)
		prio = heavy ? 1 : 3;
	else if (heavy)
		prio = strcmp(c->confidence, "low") == 0 ? 1 : 0;
	else
		prio = 2;
	if (strcmp(scope, "global") != 0 && global_has(d, c->label))
		return;
	why = fmt(c->label, *c->evidence ? ": " : "", c->evidence);
	add(prio, scope, c->target, fmt(ie ? "" : c->label, ie ? "" : ": ",
	    label_advice(c->label)), ie ? "no host evidence explains the "
	    "idle time" : "", *c->followup != '\0', d->id, why);
	for (p = c->followup; *p != '\0'; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		for (i = 0; i < sizeof(fups) / sizeof(fups[0]); i++)
			if (strlen(fups[i].flag) == n &&
			    strncmp(p, fups[i].flag, n) == 0)
				/* Re-profiling is for the whole run. */
				add(heavy ? 1 : 2, "global", "",
				    xstrdup(fups[i].action), fups[i].gap, 1,
				    d->id, fmt("follow-up of ", c->label,
				    ""));
	}
}

static void
from_op(const struct rdev *d, const struct rop *o)
{
	char *why = fmt("tags ", o->tags, "");

	if (tag_has(o->tags, "WAIT_ANCHOR_FALSE_HOTSPOT"))
		add(2, "op", o->name, xstrdup("do not optimise this op: its "
		    "cost is waiting; look at the idle time before it"), "",
		    0, d->id, xstrdup(why));
	if (tag_has(o->tags, "WAIT_POLLUTION_RISK"))
		add(2, "op", o->name, xstrdup("inspect the communication "
		    "and sync paths: this op's wait overlaps communication"),
		    "its wait time is not a reliable cause "
		    "(wait_not_reliable_for_rootcause)", 1, d->id,
		    xstrdup(why));
	if (tag_has(o->tags, "AICPU_EXPOSED_NOT_ALLOWED"))
		add(1, "op", o->name, xstrdup("move this op off the AI CPU "
		    "(an AI Core implementation, another dtype or shape): "
		    "it runs while the AI Core idles"), "", 0, d->id,
		    xstrdup(why));
	else if (tag_has(o->tags, "AICPU_EXPOSED_RISK"))
		add(1, "op", o->name, xstrdup("move this op off the AI CPU "
		    "(an AI Core implementation, another dtype or shape): "
		    "part of it runs while the AI Core idles, and a call "
		    "overlaps a device bubble"), "", 0, d->id, xstrdup(why));
	else if (tag_has(o->tags, "AICPU_PARTIALLY_EXPOSED"))
		add(2, "op", o->name, xstrdup("move this op off the AI CPU: "
		    "part of it runs while the AI Core idles"), "", 0, d->id,
		    xstrdup(why));
	else if (tag_has(o->tags, "AICPU_MASKED_BUT_UNDESIRABLE"))
		add(3, "op", o->name, xstrdup("AI CPU op hidden behind AI "
		    "Core work for now; replace it when convenient"), "", 0,
		    d->id, xstrdup(why));
	free(why);
}

/* Whether the rank's dominant group (or any step) is heavily idle. */
static int
heavy_rank(const struct rdev *d)
{
	const struct rgroup *g = model_dominant(d);
	size_t i;

	if (g != NULL && g->pattern_tags != NULL)
		return tag_has(g->pattern_tags, "DEVICE_IDLE_GAP_HEAVY");
	for (i = 0; i < d->nsteps; i++)
		if (tag_has(d->steps[i].tags, "DEVICE_IDLE_GAP_HEAVY"))
			return 1;
	return 0;
}

size_t
recs_build(const struct rmodel *m, struct rrec **out)
{
	const struct rdev *d;
	size_t i, j;
	int heavy;

	recs = NULL;
	nrecs = 0;
	for (i = 0; i < m->ndevs; i++) {
		d = m->devs[i];
		heavy = heavy_rank(d);
		for (j = 0; j < d->ncauses; j++)
			from_cause(d, &d->causes[j], heavy);
		for (j = 0; j < d->nops; j++)
			from_op(d, &d->ops[j]);
		for (j = 0; j < d->nflags; j++)
			if (strcmp(d->flags[j].name, "wait_recorded") == 0 &&
			    d->flags[j].value[0] == '0')
				add(3, "global", "", xstrdup("re-profile with "
				    "wait times recorded (kernel_details Wait "
				    "Time) to run the wait-anchor check"),
				    "no wait_ns: wait anchors unchecked", 1,
				    d->id, xstrdup(d->flags[j].value));
	}
	/* Insertion sort by priority: stable, and the lists are short. */
	for (i = 1; i < nrecs; i++)
		for (j = i; j > 0 && recs[j - 1].prio > recs[j].prio; j--) {
			struct rrec t = recs[j];
			recs[j] = recs[j - 1];
			recs[j - 1] = t;
		}
	*out = recs;
	return nrecs;
}

void
recs_free(struct rrec *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(r[i].target);
		free(r[i].action);
		free(r[i].gap);
		free(r[i].devs);
		free(r[i].why);
	}
	free(r);
}
