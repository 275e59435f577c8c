/*
 * The many-small-gaps finding of prof-attrib: a step whose idle time is
 * spread over many gaps too short to be significant, while the host is
 * launching kernels or running other work, is launch-bound even though
 * no single bubble stands out.  Per rank and per step group this keeps
 * the non-significant step bubbles' count, time and partition, their
 * lengths (for the median: four bytes per gap, never anything per
 * event), the host names that cover them and the kernels that end
 * them.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "medq.h"
#include "num.h"
#include "xalloc.h"

struct small {
	int64_t		 n, ns;
	int64_t		 idle[CLS_N + 1];
	struct medq	 len;		/* the gaps' lengths, for the median */
	struct nmap	 host;		/* covered ns per host name */
	struct nmap	 next;		/* gaps per kernel after them */
};

/*
 * Gap lengths kept exactly for the median: past this many (a step over a
 * whole capture can hold millions of small gaps) the median is read
 * from libcommon's histogram, within 1/128, and said to be approximate.
 */
#define SMALL_EXACT	(1 << 18)

struct small *
small_new(void)
{
	return xcalloc(1, sizeof(struct small));
}

/* A step bubble below the significance threshold. */
void
small_add(struct small *sm, struct bubble_info *bi,
    const struct bubble_meas *m)
{
	int k;

	if (m->dur <= 0)
		return;
	medq_add(&sm->len, m->dur, SMALL_EXACT);
	sm->n++;
	sm->ns += m->dur;
	for (k = 0; k <= CLS_N; k++)
		sm->idle[k] += m->idle[k];
	nmap_addall(&sm->host, bi->names);
	if (bi->nlen == 0)
		return;
	if (bi->next_id < 0)	/* one lookup for the rank and the group */
		bi->next_id = names_intern(NT_KERNEL, bi->next, bi->nlen);
	nmap_get(&sm->next, (uint32_t)bi->next_id)->cov.total++;
}

/* Append printf-style text to BUF (of size CAP) at *N. */
void
attrib_app(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n >= cap)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = *n + (size_t)k < cap ? *n + (size_t)k : cap - 1;
}

/*
 * Where a kernel's parameter list starts: the first '(' outside template
 * arguments and parentheses that does not open "(anonymous namespace)";
 * LEN when none.  Inside parentheses '<' and '>' compare, not nest.
 */
static size_t
sig_start(const char *s, size_t len)
{
	static const char anon[] = "(anonymous namespace)";
	size_t i, angle = 0, paren = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '(' && len - i >= sizeof(anon) - 1 &&
		    memcmp(s + i, anon, sizeof(anon) - 1) == 0)
			i += sizeof(anon) - 2;
		else if (s[i] == '(' && angle == 0 && paren == 0 && i > 0)
			return i;
		else if (s[i] == '(')
			paren++;
		else if (s[i] == ')' && paren > 0)
			paren--;
		else if (s[i] == '<' && paren == 0)
			angle++;
		else if (s[i] == '>' && paren == 0 && angle > 0)
			angle--;
	}
	return len;
}

/*
 * A name shortened for evidence text: at most 96 bytes, a ';' turned
 * into ','; with KERNEL, its parameter list dropped.
 */
static void
app_name(char *buf, size_t cap, size_t *n, const char *s, size_t len,
    int kernel)
{
	size_t i;

	if (kernel)
		len = sig_start(s, len);
	while (len > 0 && s[len - 1] == ' ')
		len--;
	for (i = 0; i < len && i < 96 && *n + 1 < cap; i++)
		buf[(*n)++] = s[i] == ';' ? ',' : s[i];
	if (i < len)
		attrib_app(buf, cap, n, "...");
	buf[*n < cap ? *n : cap - 1] = '\0';
}

/*
 * Whether the small gaps of a scope with NSTEPS steps, SERVICE ns of
 * window time and STEP_NS ns of step bubbles are a finding: at least
 * --small-count gaps per step, holding at least --small-share of the
 * window time, and launch plus other host work covering at least
 * --small-host of their time.  Then *NUM / *DEN is the record's value
 * (their share of the scope's step bubble time), *CONF its confidence
 * (2 high at a launch+host share of 0.8, else 1 medium), and EVIDENCE
 * says why.
 */
int
small_judge(const struct small *sm, int64_t nsteps, int64_t service,
    int64_t step_ns, int64_t *num, int64_t *den, int *conf, char *evidence,
    size_t cap)
{
	struct ncov top[3];
	char r[6][NUM_BUFSIZE];
	int64_t lh;
	__int128 med;
	int approx;
	size_t n = 0, i, k, len;
	const char *s;

	if (sm == NULL || sm->n == 0 || service <= 0 || step_ns <= 0)
		return 0;
	lh = sm->idle[CLS_LAUNCH] + sm->idle[CLS_HOST];
	if (sm->n < aopt.small_count * (nsteps > 0 ? nsteps : 1) ||
	    !sum_ge(sm->ns, service, aopt.small_share) ||
	    !sum_ge(lh, sm->ns, aopt.small_host))
		return 0;
	*num = sm->ns;
	*den = step_ns;
	*conf = sum_ge(lh, sm->ns, 800000) ? 2 : 1;
	medq_median2(&sm->len, &med, &approx);
	num_ratio(r[0], sm->ns, service, 6);
	num_ratio_i128(r[1], med, 2, 1);
	num_ratio(r[2], sm->n, nsteps > 0 ? nsteps : 1, 6);
	attrib_app(evidence, cap, &n,
	    "%" PRId64 " gaps below the significance "
	    "threshold, %" PRId64 " ns in all (%s of the window time), "
	    "median gap %s%s ns, %s per step", sm->n, sm->ns, r[0],
	    approx ? "about " : "", r[1], r[2]);
	for (k = 0; k <= CLS_N; k++)
		num_ratio(r[k], sm->idle[k], sm->ns, 6);
	attrib_app(evidence, cap, &n,
	    "; idle sync %s input %s launch %s host %s "
	    "untraced %s", r[CLS_SYNC], r[CLS_INPUT], r[CLS_LAUNCH],
	    r[CLS_HOST], r[CLS_N]);
	k = nmap_top(NT_KERNEL, &sm->next, top, 3);
	for (i = 0; i < k; i++) {
		attrib_app(evidence, cap, &n,
		    i ? ", " : "; kernels after them: ");
		s = names_str(NT_KERNEL, top[i].id, &len);
		app_name(evidence, cap, &n, s, len, 1);
		attrib_app(evidence, cap, &n, " (%" PRId64 ")",
		    top[i].cov.total);
	}
	k = nmap_top(NT_HOST, &sm->host, top, 3);
	for (i = 0; i < k; i++) {
		attrib_app(evidence, cap, &n,
		    i ? ", " : "; host events over them: ");
		num_ratio(r[0], top[i].cov.total, sm->ns, 6);
		s = names_str(NT_HOST, top[i].id, &len);
		attrib_app(evidence, cap, &n, "%s ", r[0]);
		app_name(evidence, cap, &n, s, len, 0);
	}
	return 1;
}

/* A host name, shortened, for other evidence text. */
void
small_app_name(char *buf, size_t cap, size_t *n, const char *s, size_t len)
{
	app_name(buf, cap, n, s, len, 0);
}
