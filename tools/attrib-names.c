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
#include "strtab.h"
#include "xalloc.h"

#define NAMES_MAX	(1u << 20)
#define NAMES_TEXT	(64u << 20)

/* A name's value: its highest class + 1, 0 when none was given. */
struct ntab {
	struct strtab	 names;		/* of a signed char */
	size_t		 text;		/* bytes of the names */
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

/* The id of S (LEN bytes) in table T, added when new. */
uint32_t
names_intern(int t, const char *s, size_t len)
{
	struct ntab *tab = &tabs[t];
	size_t id;

	if (tab->names.n == 0) {
		strtab_init(&tab->names, sizeof(signed char));
		strtab_intern(&tab->names, "(other)", 7, NULL);
		tab->text = 8;
	}
	if ((id = strtab_find(&tab->names, s, len)) != STRTAB_NONE)
		return (uint32_t)id;
	if (tab->names.n >= NAMES_MAX || tab->text + len + 1 > NAMES_TEXT)
		return 0;
	tab->text += len + 1;
	return (uint32_t)strtab_intern(&tab->names, s, len, NULL);
}

const char *
names_str(int t, uint32_t id, size_t *len)
{
	return strtab_key(&tabs[t].names, id, len);
}

/* The class of host name ID: the highest (lowest number) given to it. */
int
names_class(uint32_t id)
{
	return *(signed char *)strtab_val(&tabs[NT_HOST].names, id) - 1;
}

void
names_set_class(uint32_t id, int cls)
{
	signed char *c = strtab_val(&tabs[NT_HOST].names, id);

	if (cls >= 0 && (*c == 0 || cls + 1 < *c))
		*c = (signed char)(cls + 1);
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
	m->v[j].cov.end = INT64_MIN;
	m->v[j].cov.total = 0;
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
		if (src->v[i].used && src->v[i].cov.total > 0)
			nmap_get(dst, src->v[i].id)->cov.total +=
			    src->v[i].cov.total;
}

/* Whether A ranks before B: larger total, then the name in byte order. */
static int
before(int t, const struct ncov *a, const struct ncov *b)
{
	size_t la, lb;
	const char *sa = names_str(t, a->id, &la), *sb = names_str(t, b->id,
	    &lb);
	int c;

	if (a->cov.total != b->cov.total)
		return a->cov.total > b->cov.total;
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
		if (!m->v[i].used || m->v[i].cov.total <= 0)
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
