/*
 * Number and text helpers shared by the formats, and the mapping from
 * the stages' findings to the recommendations of section 5.5 of the
 * analysis rules.
 *
 * Numbers are copied as the stages wrote them: a value in ns becomes ms
 * or us by moving the decimal point of its text (dec_scale), never
 * through a double, so that the JSON carries the stage's exact digits.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "render.h"
#include "xalloc.h"

/* Whether S is a decimal number: -?digits(.digits)? */
int
dec_valid(const char *s)
{
	size_t n;

	if (*s == '-')
		s++;
	n = strspn(s, "0123456789");
	if (n == 0)
		return 0;
	s += n;
	if (*s == '.') {
		n = strspn(++s, "0123456789");
		if (n == 0)
			return 0;
		s += n;
	}
	return *s == '\0';
}

/*
 * Write S / 10^K into OUT (CAP bytes) in the shortest exact form: no
 * leading zeros but one, no trailing fraction zeros, no "-0".  S must be
 * dec_valid.  Returns the length (truncated to CAP - 1).
 */
size_t
dec_scale(const char *s, int k, char *out, size_t cap)
{
	char dig[128], buf[160];
	size_t ni = 0, nd = 0, o = 0, i, end;
	long p, lo;
	int neg = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s != '\0' && *s != '.' && nd < 100; s++, ni++)
		dig[nd++] = *s;
	if (*s == '.')
		for (s++; *s != '\0' && nd < 100; s++)
			dig[nd++] = *s;
	p = (long)ni - k;
	/* Integer part. */
	if (p <= 0)
		buf[o++] = '0';
	else {
		for (i = 0; i + 1 < (size_t)p && i < nd && dig[i] == '0'; i++)
			;
		for (; i < (size_t)p; i++)
			buf[o++] = i < nd ? dig[i] : '0';
	}
	/* Fraction, without its trailing zeros. */
	lo = p > 0 ? p : 0;
	for (end = nd; (long)end > lo && dig[end - 1] == '0'; end--)
		;
	if ((long)end > lo) {
		buf[o++] = '.';
		for (i = 0; p < 0 && i < (size_t)-p; i++)
			buf[o++] = '0';
		for (i = p > 0 ? (size_t)p : 0; i < end; i++)
			buf[o++] = dig[i];
	}
	buf[o] = '\0';
	if (neg && strcmp(buf, "0") != 0) {
		memmove(buf + 1, buf, o + 1);
		buf[0] = '-';
		o++;
	}
	if (o >= cap)
		o = cap - 1;
	memcpy(out, buf, o);
	out[o] = '\0';
	return o;
}

/* Whether the comma-separated list LIST holds TAG. */
int
tag_has(const char *list, const char *tag)
{
	size_t n = strlen(tag);
	const char *p = list;

	while ((p = strstr(p, tag)) != NULL) {
		if ((p == list || p[-1] == ',') &&
		    (p[n] == '\0' || p[n] == ','))
			return 1;
		p += n;
	}
	return 0;
}

/* NS as milliseconds with PLACES decimals (rounded, exact). */
void
put_ms(FILE *f, int64_t ns, int places)
{
	char b[NUM_BUFSIZE];

	num_ratio(b, ns, 1000000, places);
	fputs(b, f);
}

/* NS as microseconds, exact (3 decimals at most). */
void
put_us(FILE *f, int64_t ns)
{
	char b[NUM_BUFSIZE];

	num_ratio(b, ns, 1000, 3);
	fputs(b, f);
}

/* The decimal text S divided by 10^K. */
void
put_scaled(FILE *f, const char *s, int k)
{
	char b[160];

	dec_scale(s, k, b, sizeof(b));
	fputs(b, f);
}

/* S as a JSON string. */
void
put_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', f);
	for (; *p != '\0'; p++) {
		/* Runs of plain bytes in one write: the Chrome trace is
		 * mostly names and args. */
		size_t n = 0;
		while (p[n] >= 0x20 && p[n] != '"' && p[n] != '\\')
			n++;
		if (n > 0) {
			fwrite(p, 1, n, f);
			p += n;
			if (*p == '\0')
				break;
		}
		if (*p == '"' || *p == '\\') {
			putc('\\', f);
			putc(*p, f);
		} else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			putc(*p, f);
	}
	putc('"', f);
}

/* The decimal text S / 10^K as a JSON number, null when S is empty. */
void
put_json_num(FILE *f, const char *s, int k)
{
	if (s == NULL || *s == '\0')
		fputs("null", f);
	else
		put_scaled(f, s, k);
}

/*
 * S as a Markdown code span that a table cell can hold: '|' escaped,
 * backquotes and newlines replaced.
 */
void
put_md(FILE *f, const char *s)
{
	if (*s == '\0') {
		fputs("-", f);
		return;
	}
	putc('`', f);
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '`')
			putc('\'', f);
		else if (*s == '\n' || *s == '\t' || *s == '\r')
			putc(' ', f);
		else
			putc(*s, f);
	}
	putc('`', f);
}

/* The certainty wording of a cause's confidence (section 7). */
const char *
certainty(const char *confidence)
{
	if (strcmp(confidence, "high") == 0)
		return "probable";
	if (strcmp(confidence, "medium") == 0)
		return "possible";
	return "weakly supported";
}

/* What to do about a soft label: the next thing to look at. */
const char *
label_advice(const char *label)
{
	static const struct {
		const char *label, *advice;
	} t[] = {
		{ "possible_sync_or_h2d", "look for host-device copies and "
		    "synchronizations inside the step (.item(), .cpu(), "
		    "blocking .to()); make copies non_blocking from pinned "
		    "memory, move syncs out of the step" },
		{ "possible_comm_wait", "check whether the collectives "
		    "overlap compute; look at the slowest rank and the "
		    "communication and sync paths" },
		{ "possible_host_launch_lag", "reduce host launch overhead: "
		    "fuse small ops, capture graphs (CUDA/ACL graph), take "
		    "Python work off the step's critical path" },
		{ "possible_python_serialization_or_lock", "sample the "
		    "Python threads (py-spy, thread view) for a lock or GIL "
		    "holder during the bubbles" },
		{ "possible_untraced_host_blocking", "the host did something "
		    "the trace does not show: take host-side sampling (perf, "
		    "py-spy) or a thread view over the same steps" },
		{ "insufficient_evidence", "name no cause yet: capture more "
		    "steps with host events, stacks and shapes, then rerun "
		    "the pipeline" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].label, label) == 0)
			return t[i].advice;
	return "inspect the bubbles that carry this label";
}

/*
 * The decimal text S divided by 10^SHIFT, rounded half away from zero
 * to PLACES decimals ("-" when S is empty or NULL).  Exact: the digits
 * go through integers and num_ratio(), digits past the 17th dropped.
 */
void
put_dec(FILE *f, const char *s, int shift, int places)
{
	char b[NUM_BUFSIZE];
	int64_t n = 0, den = 1;
	int neg = 0, frac = 0;

	if (s == NULL || *s == '\0') {
		fputs("-", f);
		return;
	}
	if (*s == '-') {
		neg = 1;
		s++;
	}
	for (; *s != '\0'; s++) {
		if (*s == '.') {
			frac = 1;
			continue;
		}
		if (n >= INT64_C(100000000000000000))
			break;
		n = n * 10 + (*s - '0');
		if (frac)
			shift++;
	}
	for (; shift > 0; shift--)
		den *= 10;
	num_ratio(b, neg ? -n : n, den, places);
	fputs(b, f);
}
