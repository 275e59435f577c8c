/*
 * Ascend in-core pipes: the PMU busy ratios kernel_details writes per
 * kernel, and the lanes of the op simulator.  The AI Core's pipes run
 * concurrently (MTE2 loads from global memory, MTE1 moves L1 to L0, CUBE
 * multiplies, VECTOR computes, FIXPIPE and MTE3 write back), so the
 * busiest pipe is the one that bounds the kernel.
 */
#include <config.h>

#include <string.h>
#include <strings.h>
#include "simd.h"

#include "roofline.h"

static const char *const pipes[P_NPIPE] = {
	"cube", "vector", "mte1", "mte2", "mte3", "fixpipe", "scalar"
};

const char *
rf_pipe_name(int p)
{
	return p >= 0 && p < P_NPIPE ? pipes[p] : "";
}

int
rf_pipe_bound(int p)
{
	switch (p) {
	case P_CUBE:
	case P_VECTOR:
		return B_COMPUTE;
	case P_SCALAR:
	case P_NONE:
		return B_LATENCY;
	default:
		return B_MEMORY;
	}
}

int
rf_word_find(const struct rf_word *t, size_t nt, const char *s, size_t n,
    int fold, int dflt)
{
	size_t i;

	for (i = 0; i < nt; i++)
		if (t[i].len == n && (fold ? strncasecmp(t[i].s, s, n) :
		    memcmp(t[i].s, s, n)) == 0)
			return t[i].v;
	return dflt;
}

int
rf_pipe_of(const char *s, size_t n)
{
	static const struct rf_word lanes[] = {
		RF_WORD("CUBE", P_CUBE), RF_WORD("VECTOR", P_VECTOR),
		RF_WORD("VEC", P_VECTOR), RF_WORD("MTE1", P_MTE1),
		RF_WORD("MTE2", P_MTE2), RF_WORD("MTE3", P_MTE3),
		RF_WORD("FIXPIPE", P_FIXPIPE), RF_WORD("SCALAR", P_SCALAR),
	};

	return rf_word_find(lanes, sizeof(lanes) / sizeof(lanes[0]), s, n, 1,
	    P_NONE);
}

int
rf_is_sync_instr(const char *s, size_t n)
{
	return (n >= 8 && strncmp(s, "SET_FLAG", 8) == 0) ||
	    (n >= 9 && strncmp(s, "WAIT_FLAG", 9) == 0) ||
	    (n >= 7 && strncmp(s, "BARRIER", 7) == 0) ||
	    (n >= 12 && strncmp(s, "PIPE_BARRIER", 12) == 0);
}

/*
 * The pipe of a PMU ratio key: "aic_mac_ratio", "aiv_vec_ratio",
 * "aic_mte2_ratio", the 2024-09 tables' unprefixed "mac_ratio", and the
 * 2023-11 tables' "aic_mac_fp16_ratio".
 */
static int
key_pipe(const char *k, size_t n)
{
	if (n < 6 || memcmp(k + n - 6, "_ratio", 6) != 0)
		return P_NONE;
	n -= 6;
	if (n > 4 && (memcmp(k, "aic_", 4) == 0 || memcmp(k, "aiv_", 4) == 0)) {
		k += 4;
		n -= 4;
	}
	/*
	 * By length, then words of that length compared inline: a walk of
	 * a table of words cost more than the rest of an item.
	 */
#define IS(w)	(memcmp(k, w, sizeof(w) - 1) == 0)
	switch (n) {
	case 3:
		return IS("mac") ? P_CUBE : IS("vec") ? P_VECTOR : P_NONE;
	case 4:
		return IS("mte1") ? P_MTE1 : IS("mte2") ? P_MTE2 :
		    IS("mte3") ? P_MTE3 : IS("cube") ? P_CUBE : P_NONE;
	case 6:
		return IS("scalar") ? P_SCALAR : P_NONE;
	case 7:
		return IS("fixpipe") ? P_FIXPIPE : P_NONE;
	case 8:
		return IS("mac_fp16") || IS("mac_int8") ? P_CUBE :
		    IS("vec_fp32") || IS("vec_fp16") ? P_VECTOR : P_NONE;
	default:
		return P_NONE;
	}
#undef IS
}

/*
 * A decimal "0.815" in parts per million, truncated, up to the next ','
 * or E; -1 when not one.
 */
static inline int64_t
ppm(const char *s, const char *e)
{
	/* 10^(6 - n): the scale of a fraction of n digits */
	static const int64_t place[7] = {
		1000000, 100000, 10000, 1000, 100, 10, 1
	};
	const char *p = s, *f;
	int64_t v = 0, x = 0;
	unsigned c;

	/* "0.0": the pipes of the other core type, half of the ratios */
	if (e - s >= 3 && memcmp(s, "0.0", 3) == 0 && (e - s == 3 ||
	    s[3] == ','))
		return 0;
	/* isdigit() is '0' to '9' in every locale: a range, not a call */
	if (e - s >= 2 && (c = (unsigned)(*s - '0')) < 10 && s[1] == '.') {
		v = c;			/* "0.815", as ratios mostly are */
		p++;
	} else
		for (; p < e && (c = (unsigned)(*p - '0')) < 10; p++) {
			if (v > 1000)
				return -1;
			v = v * 10 + c;
		}
	v *= 1000000;
	if (p < e && *p == '.') {
		/* six fraction digits as one number, then scaled: no division */
		for (f = ++p; p < e && p < f + 6 && (c = (unsigned)(*p - '0')) <
		    10; p++)
			x = x * 10 + c;
		v += x * place[p - f];
		while (p < e && (unsigned)(*p - '0') < 10)
			p++;
		if (p - s == 1)
			return -1;		/* "." alone */
	} else if (p == s)
		return -1;
	return p == e || *p == ',' ? v : -1;
}

#ifdef PROF_SSE2
/*
 * The ratio keys of the last PMU list, by their place in it.  The lists
 * of a capture share one set of keys (the columns of its kernel_details
 * table), so that a key whose bytes from the comma before it to its '='
 * are those of the last list's key at that place names the same pipe,
 * without a search for its start and a lookup: 32 bytes compared at
 * once with SSE2 cost less than either.
 */
#define PMU_SEEN	64
static struct {
	__m128i		 w[2];		/* the 32 bytes before its '=' */
	uint32_t	 mask;		/* those of ",KEY"; 0: none */
	int		 pipe;
} seen[PMU_SEEN];
#endif

/*
 * The pipe of the key that ends at EQ, a '=' of the list that starts at
 * S; P_NONE when it names none or EQ is not the first '=' of its item.
 * R counts the keys looked at in this list.
 */
static inline int
eq_pipe(const char *s, const char *eq, unsigned *r)
{
	const char *k = eq;
	int p;
#ifdef PROF_SSE2
	__m128i lo, hi;
	unsigned i = (*r)++;

	if (i < PMU_SEEN && eq - s >= 32) {
		lo = _mm_loadu_si128((const __m128i *)(const void *)(eq - 32));
		hi = _mm_loadu_si128((const __m128i *)(const void *)(eq - 16));
		if (seen[i].mask != 0 && (((uint32_t)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(lo, seen[i].w[0])) | (uint32_t)
		    _mm_movemask_epi8(_mm_cmpeq_epi8(hi, seen[i].w[1])) << 16) &
		    seen[i].mask) == seen[i].mask)
			return seen[i].pipe;
	} else
		i = PMU_SEEN;		/* not kept */
#else
	(void)r;
#endif
	while (k > s && k[-1] != ',' && k[-1] != '=')
		k--;
	if (k > s && k[-1] == '=')
		return P_NONE;		/* not the item's first '=' */
	p = key_pipe(k, (size_t)(eq - k));
#ifdef PROF_SSE2
	if (i < PMU_SEEN) {
		seen[i].w[0] = lo;
		seen[i].w[1] = hi;
		seen[i].mask = k > s && eq - k < 32 ?
		    0xffffffffu << (31 - (eq - k)) : 0;
		seen[i].pipe = p;
	}
#endif
	return p;
}

/*
 * An item of a PMU list whose first '=' may be EQ, S the start of the
 * list, E its end.  Only the "..._ratio" keys name a pipe: the others
 * (times, cycles, rates) are passed over on their last letter, before
 * the key's start is looked for.
 */
static inline void
pmu_item(const char *s, const char *eq, const char *e, int *bp,
    int64_t *best, unsigned *r)
{
	int p;
	int64_t v;

	if (eq - s < 6 || eq[-1] != 'o')
		return;
	if ((p = eq_pipe(s, eq, r)) != P_NONE &&
	    (v = ppm(eq + 1, e)) > *best) {
		*best = v;
		*bp = p;
	}
}

/*
 * The busiest pipe of a PMU list.  The list runs to 700 bytes of some
 * thirty items: the equal signs of sixteen bytes at a time are found
 * with SSE2 (a memchr() call an item costs more), and each "..._ratio"
 * key is known by its place in the last list or read back from its '='.
 */
int
rf_pmu_pipe(const char *s, size_t n, int64_t *best)
{
	const char *e = s + n, *p = s;
	int bp = P_NONE;
	unsigned r = 0;

	*best = -1;
#ifdef PROF_SSE2
	for (; p + 16 <= e; p += 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
		    _mm_set1_epi8('=')));

		for (; m != 0; m &= m - 1)
			pmu_item(s, p + __builtin_ctz(m), e, &bp, best, &r);
	}
#endif
	for (; p < e; p++)
		if (*p == '=')
			pmu_item(s, p, e, &bp, best, &r);
	return bp;
}
