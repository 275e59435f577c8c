/*
 * Names for prof-attrib's host_top and hostcov: host event names
 * normalised so that numbered variants group together, interned once
 * (a name is an integer from then on), and small maps from a name to
 * the time it covers.
 *
 * Interning happens when the marker cache first meets a (cat, name), so
 * the per-record cost stays one cache lookup.  The table only grows, so
 * it is capped: past NAMES_MAX names or NAMES_TEXT bytes every new name
 * is "(other)", id 0.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "hash.h"
#include "xalloc.h"

#define NAMES_MAX	(1u << 20)
#define NAMES_TEXT	(64u << 20)

struct ntab {
	char		**str;		/* by id */
	uint32_t	 *len;
	signed char	 *cls;		/* highest class seen, or -1 */
	uint32_t	  n, cap;
	uint32_t	 *slot;		/* open addressing: id + 1, 0 empty */
	size_t		  nslot, text;
};

static struct ntab tabs[2];	/* NT_HOST, NT_KERNEL */

static int
is_letter(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * The normalised form of NAME (LEN bytes) in OUT (at least LEN bytes):
 * every maximal run of ASCII digits becomes one 'N' when the byte before
 * it is not an ASCII letter (it starts the name or follows '#', '_', '.',
 * ' ', '(' ...) or when it is three digits or longer.  So ProfilerStep#12
 * is ProfilerStep#N, hcom_allReduce__12_0_1 is hcom_allReduce__N_N_N,
 * "model.py(123): forward" is "model.py(N): forward", and aten::conv2d,
 * fp16 or log10 keep their digits.
 */
size_t
names_norm(const char *name, size_t len, char *out)
{
	size_t i = 0, j, n = 0;

	while (i < len) {
		if (name[i] < '0' || name[i] > '9') {
			out[n++] = name[i++];
			continue;
		}
		for (j = i; j < len && name[j] >= '0' && name[j] <= '9'; j++)
			continue;
		if (i == 0 || !is_letter((unsigned char)name[i - 1]) ||
		    j - i >= 3)
			out[n++] = 'N';
		else {
			memcpy(out + n, name + i, j - i);
			n += j - i;
		}
		i = j;
	}
	return n;
}

static void
tab_grow(struct ntab *t)
{
	size_t i, j, cap = t->nslot ? t->nslot * 2 : 1024;
	uint32_t *slot = xcalloc(cap, sizeof(*slot));

	for (i = 0; i < t->n; i++) {
		j = hash_bytes(t->str[i], t->len[i], 0) & (cap - 1);
		while (slot[j] != 0)
			j = (j + 1) & (cap - 1);
		slot[j] = (uint32_t)i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = cap;
}

static uint32_t
tab_add(struct ntab *t, const char *s, size_t len)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->str = xreallocarray(t->str, t->cap, sizeof(*t->str));
		t->len = xreallocarray(t->len, t->cap, sizeof(*t->len));
		t->cls = xreallocarray(t->cls, t->cap, sizeof(*t->cls));
	}
	t->str[t->n] = xstrndup(s, len);
	t->len[t->n] = (uint32_t)len;
	t->cls[t->n] = -1;
	t->text += len + 1;
	return t->n++;
}

/* The id of S (LEN bytes) in table T, added when new. */
uint32_t
names_intern(int t, const char *s, size_t len)
{
	struct ntab *tab = &tabs[t];
	size_t j;
	uint32_t id;

	if (tab->n == 0)
		tab_add(tab, "(other)", 7);
	if (2 * (tab->n + 1) > tab->nslot)
		tab_grow(tab);
	j = hash_bytes(s, len, 0) & (tab->nslot - 1);
	for (; (id = tab->slot[j]) != 0; j = (j + 1) & (tab->nslot - 1))
		if (tab->len[id - 1] == len &&
		    memcmp(tab->str[id - 1], s, len) == 0)
			return id - 1;
	if (tab->n >= NAMES_MAX || tab->text + len + 1 > NAMES_TEXT)
		return 0;
	id = tab_add(tab, s, len);
	tab->slot[j] = id + 1;
	return id;
}

const char *
names_str(int t, uint32_t id, size_t *len)
{
	if (len != NULL)
		*len = tabs[t].len[id];
	return tabs[t].str[id];
}

/* The class of host name ID: the highest (lowest number) given to it. */
int
names_class(uint32_t id)
{
	return tabs[NT_HOST].cls[id];
}

void
names_set_class(uint32_t id, int cls)
{
	signed char *c = &tabs[NT_HOST].cls[id];

	if (cls >= 0 && (*c < 0 || cls < *c))
		*c = (signed char)cls;
}

/* The entry of ID in M, made (end INT64_MIN, total 0) when absent. */
struct ncov *
nmap_get(struct nmap *m, uint32_t id)
{
	struct ncov *old = m->v;
	size_t oldcap = m->cap, i, j;

	if (2 * (m->n + 1) > m->cap) {
		m->cap = oldcap ? oldcap * 2 : 16;
		m->v = xcalloc(m->cap, sizeof(*m->v));
		for (i = 0; i < oldcap; i++) {
			if (old[i].used == 0)
				continue;
			j = (old[i].id * 0x9e3779b1u) & (m->cap - 1);
			while (m->v[j].used)
				j = (j + 1) & (m->cap - 1);
			m->v[j] = old[i];
		}
		free(old);
	}
	j = (id * 0x9e3779b1u) & (m->cap - 1);
	for (; m->v[j].used; j = (j + 1) & (m->cap - 1))
		if (m->v[j].id == id)
			return &m->v[j];
	m->n++;
	m->v[j].used = 1;
	m->v[j].id = id;
	m->v[j].end = INT64_MIN;
	m->v[j].total = 0;
	return &m->v[j];
}

void
nmap_free(struct nmap *m)
{
	free(m->v);
	m->v = NULL;
	m->cap = m->n = 0;
}

/* Add every total of SRC to DST. */
void
nmap_addall(struct nmap *dst, const struct nmap *src)
{
	size_t i;

	for (i = 0; i < src->cap; i++)
		if (src->v[i].used && src->v[i].total > 0)
			nmap_get(dst, src->v[i].id)->total += src->v[i].total;
}

/* Whether A ranks before B: larger total, then the name in byte order. */
static int
before(int t, const struct ncov *a, const struct ncov *b)
{
	size_t la, lb;
	const char *sa = names_str(t, a->id, &la), *sb = names_str(t, b->id,
	    &lb);
	int c;

	if (a->total != b->total)
		return a->total > b->total;
	c = memcmp(sa, sb, la < lb ? la : lb);
	return c != 0 ? c < 0 : la < lb;
}

/*
 * The K largest totals of M (names of table T) into TOP, largest first;
 * returns how many (entries with a total of 0 are left out).
 */
size_t
nmap_top(int t, const struct nmap *m, struct ncov *top, size_t k)
{
	size_t i, n = 0, j;

	for (i = 0; i < m->cap; i++) {
		if (!m->v[i].used || m->v[i].total <= 0)
			continue;
		if (n == k && !before(t, &m->v[i], &top[k - 1]))
			continue;
		j = n < k ? n++ : k - 1;
		for (; j > 0 && before(t, &m->v[i], &top[j - 1]); j--)
			top[j] = top[j - 1];
		top[j] = m->v[i];
	}
	return n;
}
