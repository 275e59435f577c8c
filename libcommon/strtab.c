/*
 * The string-keyed table (see strtab.h): keys and values in arrays by
 * id, and an open-addressing index of ids by the hash of their key.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "hash.h"
#include "strtab.h"
#include "xalloc.h"

void
strtab_init(struct strtab *t, size_t vsize)
{
	memset(t, 0, sizeof(*t));
	t->vsize = vsize;
}

/* Index every key again, in SLOTS slots (a power of 2). */
static void
reindex(struct strtab *t, size_t slots)
{
	size_t i, j;

	free(t->slot);
	t->slot = xcalloc(slots, sizeof(*t->slot));
	t->mask = slots - 1;
	for (i = 0; i < t->n; i++) {
		for (j = t->key[i].hash & t->mask; t->slot[j] != 0;
		    j = (j + 1) & t->mask)
			continue;
		t->slot[j] = (uint32_t)i + 1;
	}
}

/* The slot that holds KEY (hash H), or the empty one where it would go. */
static size_t
slot_of(const struct strtab *t, const char *s, size_t len, uint64_t h)
{
	const struct strkey *k;
	size_t j;
	uint32_t id;

	for (j = h & t->mask; (id = t->slot[j]) != 0; j = (j + 1) & t->mask) {
		k = &t->key[id - 1];
		if (k->hash == h && k->len == len &&
		    memcmp(k->s, s, len) == 0)
			break;
	}
	return j;
}

size_t
strtab_find(const struct strtab *t, const char *s, size_t len)
{
	uint32_t id;

	if (t->n == 0)
		return STRTAB_NONE;
	id = t->slot[slot_of(t, s, len, hash_bytes(s, len, 0))];
	return id != 0 ? id - 1 : STRTAB_NONE;
}

size_t
strtab_intern(struct strtab *t, const char *s, size_t len, int *isnew)
{
	uint64_t h = hash_bytes(s, len, 0);
	struct strkey *k;
	size_t j;

	if (isnew != NULL)
		*isnew = 0;
	/* at most half full once this key is in: probes stay short */
	if (2 * (t->n + 1) > t->mask + 1)
		reindex(t, t->mask ? 2 * (t->mask + 1) : 16);
	j = slot_of(t, s, len, h);
	if (t->slot[j] != 0)
		return t->slot[j] - 1;
	if (t->n == UINT32_MAX - 1)
		diag_err(EXIT_BAD, "internal error: more than %u keys in a "
		    "table", UINT32_MAX - 1);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->key = xreallocarray(t->key, t->cap, sizeof(*t->key));
		if (t->vsize > 0)
			t->val = xreallocarray(t->val, t->cap, t->vsize);
	}
	k = &t->key[t->n];
	k->s = xstrndup(s, len);
	k->len = len;
	k->hash = h;
	if (t->vsize > 0)
		memset(strtab_val(t, t->n), 0, t->vsize);
	t->slot[j] = (uint32_t)++t->n;
	if (isnew != NULL)
		*isnew = 1;
	return t->n - 1;
}

void
strtab_free(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->key[i].s);
	free(t->key);
	free(t->val);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
