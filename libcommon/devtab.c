/*
 * The per-device table of the stages (see devtab.h): the devices in an
 * array in order of first sight, and an open-addressing index of them
 * by the hash of their name (linear probing, at most half full).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "hash.h"
#include "tsv.h"
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

/* Index every device of V again, in a table of SLOTS (a power of 2). */
static void
reindex(struct devtab *t, size_t slots)
{
	size_t i, j;

	free(t->index);
	t->index = xcalloc(slots, sizeof(*t->index));
	t->mask = slots - 1;
	for (i = 0; i < t->n; i++) {
		for (j = t->v[i].hash & t->mask; t->index[j] != 0;
		    j = (j + 1) & t->mask)
			continue;
		t->index[j] = i + 1;
	}
}

/*
 * The slot of device NAME (hash H) in the index: the one that holds it,
 * or the empty one where it would go.
 */
static size_t
slot_of(const struct devtab *t, const char *name, size_t len, uint64_t h)
{
	size_t j, k;

	for (j = h & t->mask; (k = t->index[j]) != 0; j = (j + 1) & t->mask)
		if (t->v[k - 1].hash == h && is_named(&t->v[k - 1], name, len))
			break;
	return j;
}

void *
devtab_find(struct devtab *t, const char *name, size_t len)
{
	size_t k;

	if (t->n > 0 && is_named(&t->v[t->last], name, len))
		return t->v[t->last].item;
	if (t->n == 0)
		return NULL;
	k = t->index[slot_of(t, name, len, hash_bytes(name, len, 0))];
	if (k == 0)
		return NULL;
	return t->v[t->last = k - 1].item;
}

void *
devtab_get(struct devtab *t, const char *name, size_t len, int *isnew)
{
	struct devent *e;
	uint64_t h;
	size_t j;

	if (isnew != NULL)
		*isnew = 0;
	if (t->n > 0 && is_named(&t->v[t->last], name, len))
		return t->v[t->last].item;
	h = hash_bytes(name, len, 0);
	if (t->n > 0) {
		j = slot_of(t, name, len, h);
		if (t->index[j] != 0)
			return t->v[t->last = t->index[j] - 1].item;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->v = xreallocarray(t->v, t->cap, sizeof(*t->v));
	}
	e = &t->v[t->last = t->n++];
	e->name = xstrndup(name, len);
	e->len = len;
	e->hash = h;
	e->item = xcalloc(1, t->isize);
	/* at most half full: probes stay short */
	if (2 * t->n > t->mask + 1)
		reindex(t, t->mask ? 2 * (t->mask + 1) : 16);
	else
		t->index[slot_of(t, name, len, h)] = t->n;
	if (isnew != NULL)
		*isnew = 1;
	return e->item;
}

int
devtab_cmp(const char *a, const char *b)
{
	int64_t x, y;
	int na = tsv_parse_i64(a, strlen(a), &x) == 0;
	int nb = tsv_parse_i64(b, strlen(b), &y) == 0;

	if (na && nb && x != y)
		return x < y ? -1 : 1;
	if (na != nb)
		return na ? -1 : 1;
	return strcmp(a, b);
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
	reindex(t, t->mask + 1);
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
	free(t->index);
	memset(t, 0, sizeof(*t));
}
