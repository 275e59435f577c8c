/*
 * The per-device table of the stages (see devtab.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "xalloc.h"

void
devtab_init(struct devtab *t, size_t isize)
{
	memset(t, 0, sizeof(*t));
	t->isize = isize;
}

/* Whether E is device NAME: a byte loop, as names are a few bytes. */
static int
is_named(const struct devent *e, const char *name, size_t len)
{
	size_t i;

	if (e->len != len)
		return 0;
	for (i = 0; i < len; i++)
		if (e->name[i] != name[i])
			return 0;
	return 1;
}

void *
devtab_get(struct devtab *t, const char *name, size_t len, int *isnew)
{
	struct devent *e;
	size_t i;

	if (isnew != NULL)
		*isnew = 0;
	if (t->n > 0 && is_named(&t->v[t->last], name, len))
		return t->v[t->last].item;
	for (i = 0; i < t->n; i++)
		if (is_named(&t->v[i], name, len))
			return t->v[t->last = i].item;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->v = xreallocarray(t->v, t->cap, sizeof(*t->v));
	}
	e = &t->v[t->last = t->n++];
	e->name = xstrndup(name, len);
	e->len = len;
	e->item = xcalloc(1, t->isize);
	if (isnew != NULL)
		*isnew = 1;
	return e->item;
}

static int (*sort_cmp)(const char *, const char *);

static int
entry_cmp(const void *a, const void *b)
{
	return sort_cmp(((const struct devent *)a)->name,
	    ((const struct devent *)b)->name);
}

void
devtab_sort(struct devtab *t, int (*cmp)(const char *, const char *))
{
	if (t->n < 2)
		return;
	sort_cmp = cmp;
	qsort(t->v, t->n, sizeof(*t->v), entry_cmp);
	t->last = 0;
}

void
devtab_free(struct devtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].item);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}
