/*
 * The group table of prof-ops and prof-diff: one entry per (dev, key),
 * found through a hash index, with integer sums and the durations kept
 * for the median.  Everything written is computed from these exactly:
 * totals and sums in 128 bits, the standard deviation as an integer
 * square root of an exact variance.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "dtime.h"
#include "num.h"
#include "ops.h"
#include "strtab.h"
#include "xalloc.h"

void
ops_tab_init(struct ops_tab *t, size_t vcap_max)
{
	memset(t, 0, sizeof(*t));
	devtab_init(&t->devs, sizeof(struct strtab));
	t->vcap_max = vcap_max;
}

/* The group of (DEV, KEY), made when new (*ISNEW 1). */
struct ops_group *
ops_tab_get(struct ops_tab *t, const char *dev, size_t dl, const char *key,
    size_t kl, int *isnew)
{
	struct strtab *keys = devtab_get(&t->devs, dev, dl, isnew);
	struct ops_group *g, **at;

	if (*isnew)
		strtab_init(keys, sizeof(struct ops_group *));
	at = strtab_val(keys, strtab_intern(keys, key, kl, isnew));
	if (!*isnew)
		return *at;
	g = *at = xcalloc(1, sizeof(*g));
	g->dev = xstrndup(dev, dl);
	g->devlen = dl;
	g->key = xstrndup(key, kl);
	g->keylen = kl;
	g->min = INT64_MAX;
	g->max = INT64_MIN;
	if (t->nv == t->vcap) {
		t->vcap = t->vcap ? 2 * t->vcap : 64;
		t->v = xreallocarray(t->v, t->vcap, sizeof(*t->v));
	}
	t->v[t->nv++] = g;
	return g;
}

void
ops_group_add(struct ops_tab *t, struct ops_group *g, int64_t d)
{
	g->calls++;
	g->total += d;
	if (!g->sq_over && __builtin_add_overflow(g->sumsq,
	    (unsigned __int128)d * (unsigned __int128)d, &g->sumsq))
		g->sq_over = 1;
	if (d < g->min)
		g->min = d;
	if (d > g->max)
		g->max = d;
	if (t->vcap_max > 0)		/* none wanted by prof-diff */
		medq_add(&g->med, d, t->vcap_max);
}

/* Add a decimal text (flops, bytes) to a 128-bit sum; bad text is skipped. */
void
ops_group_num(__int128 *sum, uint64_t *n, const char *s, size_t len)
{
	int64_t v;

	if (len == 0 || dtime_parse(s, len, 0, &v) != DTIME_OK)
		return;
	*sum += v;
	(*n)++;
}

/*
 * Add the "..._ratio" items of a pmu column (key=value,...): the
 * per-pipe utilisations whose average says what the group's kernels
 * spend their time on.  Values are kept scaled by 10^6.
 */
void
ops_group_pmu(struct ops_group *g, const char *s, size_t n)
{
	const char *e = s + n, *c, *eq;
	int64_t v;
	size_t kl;
	int i;

	for (; s < e; s = c + 1) {
		c = memchr(s, ',', (size_t)(e - s));
		if (c == NULL)
			c = e;
		eq = memchr(s, '=', (size_t)(c - s));
		if (eq == NULL || eq - s < 6 || memcmp(eq - 6, "_ratio", 6) ||
		    dtime_parse(eq + 1, (size_t)(c - eq - 1), 6, &v) !=
		    DTIME_OK)
			continue;
		kl = (size_t)(eq - s);
		for (i = 0; i < OPS_NPMU && g->pmuk[i] != NULL; i++)
			if (strlen(g->pmuk[i]) == kl &&
			    memcmp(g->pmuk[i], s, kl) == 0)
				break;
		if (i == OPS_NPMU)
			continue;
		if (g->pmuk[i] == NULL)
			g->pmuk[i] = xstrndup(s, kl);
		g->pmus[i] += v;
		g->pmun[i]++;
	}
}

void
ops_group_median(const struct ops_group *g, __int128 *num, int *approx)
{
	medq_median2(&g->med, num, approx);
}

/* Integer square root of X (floor). */
static unsigned __int128
isqrt(unsigned __int128 x)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit != 0) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else
			r >>= 1;
		bit >>= 2;
	}
	return r;
}

/*
 * The sample standard deviation (n - 1, as pandas), rounded to the
 * nearest ns: the variance is (n sumsq - sum^2) / (n (n - 1)), exact
 * while n sumsq fits 128 bits; else -1 (never a wrong value).
 */
int64_t
ops_group_std(const struct ops_group *g)
{
	unsigned __int128 n = g->calls, a, s2, num, den, k, q;

	if (g->calls < 2 || g->sq_over || g->total < 0)
		return g->calls == 1 ? 0 : -1;
	if (__builtin_mul_overflow(n, g->sumsq, &a) ||
	    __builtin_mul_overflow((unsigned __int128)g->total,
	    (unsigned __int128)g->total, &s2) || a < s2)
		return -1;
	num = a - s2;
	den = n * (n - 1);
	q = num / den;
	k = isqrt(q);
	/* round: sqrt(num/den) >= k + 1/2 when num > (k^2 + k) den */
	if (num > (k * k + k) * den)
		k++;
	return k > INT64_MAX ? -1 : (int64_t)k;
}

int
ops_group_cmp(const void *a, const void *b)
{
	const struct ops_group *x = *(struct ops_group *const *)a;
	const struct ops_group *y = *(struct ops_group *const *)b;
	int c;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if ((c = strcmp(x->dev, y->dev)) != 0)
		return c;
	return strcmp(x->key, y->key);
}

/* Decimal text of a signed 128-bit integer. */
size_t
ops_i128(char *buf, __int128 v)
{
	return num_ratio_i128(buf, v, 1, 0);
}

void
ops_tab_free(struct ops_tab *t)
{
	size_t i;
	int j;

	for (i = 0; i < t->nv; i++) {
		struct ops_group *g = t->v[i];

		free(g->dev);
		free(g->key);
		medq_free(&g->med);
		free(g->opcat);
		free(g->example);
		free(g->change);
		for (j = 0; j < OPS_NPMU; j++)
			free(g->pmuk[j]);
		free(g);
	}
	free(t->v);
	for (i = 0; i < t->devs.n; i++)
		strtab_free(t->devs.v[i].item);
	devtab_free(&t->devs);
	memset(t, 0, sizeof(*t));
}
