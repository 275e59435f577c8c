/*
 * Number and text helpers shared by the formats: exact decimal text
 * moved between units, percentages, JSON and Markdown quoting, and
 * kernel names shortened for the human formats.
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
#include "stage.h"
#include "utf8.h"
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
	return stage_tag_has(list, strlen(list), tag);
}

/*
 * Write B (num_ratio's text, which drops trailing zeros) with exactly
 * PLACES decimals, so that a column of numbers has one precision.
 */
static void
put_fixed(FILE *f, const char *b, int places)
{
	const char *dot = strchr(b, '.');
	int have = dot != NULL ? (int)strlen(dot + 1) : 0;

	fputs(b, f);
	if (places > 0 && dot == NULL)
		putc('.', f);
	for (; have < places; have++)
		putc('0', f);
}

/* NS as milliseconds with PLACES decimals (rounded, exact). */
void
put_ms(FILE *f, int64_t ns, int places)
{
	char b[NUM_BUFSIZE];

	num_ratio(b, ns, 1000000, places);
	put_fixed(f, b, places);
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

size_t render_bad_utf8;

/*
 * The UTF-8 character at P in output of JSON or XML: its length when it
 * is well formed, else 0 after counting it, with *SKIP the bytes the
 * caller replaces by one U+FFFD (utf8.h).  Strict parsers reject a file
 * with one ill-formed byte; the names come from profilers as they are.
 */
size_t
render_utf8(const char *p, size_t *skip)
{
	size_t k = utf8_seq(p, strnlen(p, 4), skip);

	if (k == 0)
		render_bad_utf8++;
	return k;
}

/* S as a JSON string, ill-formed UTF-8 replaced by U+FFFD. */
void
put_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k, skip;

	putc('"', f);
	for (; *p != '\0'; p++) {
		/* Runs of plain bytes in one write: the Chrome trace is
		 * mostly names and args. */
		size_t n = 0;
		while (p[n] >= 0x20 && p[n] < 0x80 && p[n] != '"' &&
		    p[n] != '\\')
			n++;
		if (n > 0) {
			fwrite(p, 1, n, f);
			p += n;
			if (*p == '\0')
				break;
		}
		if (*p >= 0x80) {
			if ((k = render_utf8((const char *)p, &skip)) > 0)
				fwrite(p, 1, k, f);
			else {
				fputs("\\ufffd", f);
				k = skip;
			}
			p += k - 1;
		} else if (*p == '"' || *p == '\\') {
			putc('\\', f);
			putc(*p, f);
		} else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p == '\r')
			fputs("\\r", f);
		else
			fprintf(f, "\\u%04x", *p);
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

/*
 * The certainty wording of a cause's confidence (doc/analysis-rules.md,
 * Reports).
 */
const char *
certainty(const char *confidence)
{
	if (strcmp(confidence, "high") == 0)
		return "probable";
	if (strcmp(confidence, "medium") == 0)
		return "possible";
	return "weakly supported";
}

static int
dec_zero(const char *s)
{
	return s[strspn(s, "0.")] == '\0';
}

/* Compare two decimal texts (dec_valid) as numbers: -1, 0 or 1. */
int
dec_cmp(const char *a, const char *b)
{
	int na = *a == '-', nb = *b == '-', c = 0;
	size_t ia, ib;

	a += na;
	b += nb;
	if (dec_zero(a) && dec_zero(b))
		return 0;
	if (na != nb)
		return na ? -1 : 1;
	while (*a == '0' && a[1] >= '0' && a[1] <= '9')
		a++;
	while (*b == '0' && b[1] >= '0' && b[1] <= '9')
		b++;
	ia = strspn(a, "0123456789");
	ib = strspn(b, "0123456789");
	if (ia != ib)
		c = ia < ib ? -1 : 1;
	else
		c = strncmp(a, b, ia);
	a += ia + (a[ia] == '.');
	b += ib + (b[ib] == '.');
	while (c == 0 && (*a != '\0' || *b != '\0')) {
		int x = *a ? *a++ : '0', y = *b ? *b++ : '0';
		c = x - y;
	}
	c = c < 0 ? -1 : c > 0;
	return na ? -c : c;
}

/*
 * The decimal text S divided by 10^SHIFT, rounded half away from zero
 * to exactly PLACES decimals ("-" when S is empty or NULL).  Exact: the
 * digits go through 128-bit integers and num_ratio_i128(), so that the
 * totals and averages past 2^63 that stages write as decimals stay
 * right (the 18th digit of the integer part was once dropped, and the
 * value shown 10 or 100 times too small).  Fraction digits past the
 * 20th are dropped (then DEN * 10^SHIFT * 10^PLACES stays within 128
 * bits); a value of 10^37 or more, which no stage writes, shows as "-"
 * rather than wrong.
 */
void
put_dec(FILE *f, const char *s, int shift, int places)
{
	char b[NUM_BUFSIZE];
	const __int128 lim = (__int128)1000000000000000000 * 10000000000000000000ULL;
	const __int128 flim = (__int128)10000000000 * 10000000000;
	__int128 n = 0, den = 1;
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
		if (n >= lim && !frac) {
			fputs("-", f);
			return;
		}
		if (n >= lim || den >= flim)
			break;
		n = n * 10 + (*s - '0');
		if (frac)
			den *= 10;
	}
	for (; shift > 0; shift--)
		den *= 10;
	num_ratio_i128(b, neg ? -n : n, den, places);
	put_fixed(f, b, places);
}

/* A ratio (0.660026) as a percentage with one decimal and its sign. */
void
put_pct(FILE *f, const char *ratio)
{
	char b[160];

	if (ratio == NULL || *ratio == '\0' || !dec_valid(ratio)) {
		fputs("-", f);
		return;
	}
	dec_scale(ratio, -2, b, sizeof(b));
	put_dec(f, b, 0, 1);
	putc('%', f);
}

/* Display width of UTF-8 text: the bytes that start a character. */
size_t
text_width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

#define ANON	"(anonymous namespace)::"
#define ELLIPSIS "\xe2\x80\xa6"		/* U+2026, one column */

/*
 * Where the bracket at S (one of "<(") closes, or the end of S.  Inside
 * parentheses '<' and '>' are not brackets: "(at::Array<char*, 1>)" and
 * a template's "(a > b)" compare or nest.
 */
static const char *
closing(const char *s)
{
	int angle = 0, paren = 0, outer = *s;

	for (; *s != '\0'; s++) {
		if (*s == '(')
			paren++;
		else if (*s == ')' && paren > 0) {
			if (--paren == 0 && outer == '(')
				return s;
		} else if (paren > 0)
			continue;
		else if (*s == '<')
			angle++;
		else if (*s == '>' && angle > 0 && --angle == 0)
			return s;
	}
	return s;
}

/*
 * The start of the name proper: after a return type ("void ",
 * "at::Tensor "), the last space at bracket depth 0 before the first
 * '(' at depth 0.
 */
static const char *
name_start(const char *s)
{
	const char *p, *start = s;

	for (p = s; *p != '\0' && *p != '('; p++) {
		if (*p == '<') {
			p = closing(p);
			if (*p == '\0')
				break;
		} else if (*p == ' ')
			start = p + 1;
	}
	return *start != '\0' ? start : s;
}

/*
 * The first N bytes of BUF less a multibyte character that the buffer's
 * end cut (its lead byte announces more bytes than follow it), so that
 * no report carries half a character.
 */
static size_t
whole_chars(const char *buf, size_t n)
{
	size_t j = n, want;
	unsigned char lead;

	while (j > 0 && ((unsigned char)buf[j - 1] & 0xC0) == 0x80)
		j--;
	if (j == 0)
		return n;
	lead = (unsigned char)buf[j - 1];
	want = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
	return n - (j - 1) < want ? j - 1 : n;
}

/*
 * A source line (a file path with its line: "a/b/train.py:29",
 * "/x/resnet.py(124): forward"): its last MAX columns, where the file
 * and line are, or NULL when S is no path.  A path has a '/' before any
 * '<' or '(' (a kernel's template or signature, an XLA scope's
 * "jit(f)/...") and no space before its last '/'.
 */
static const char *
path_tail(const char *s, size_t max)
{
	const char *slash = strrchr(s, '/'), *p;
	size_t w;

	if (slash == NULL || s + strcspn(s, "<(") < slash ||
	    s + strcspn(s, " ") < slash)
		return NULL;
	/* back from the end, MAX characters */
	for (p = s + strlen(s), w = 0; p > s && w < max; ) {
		p--;
		if (((unsigned char)*p & 0xC0) != 0x80)
			w++;
	}
	return p;
}

/*
 * S shortened for a human report into BUF (CAP bytes): a source line
 * keeps its end (the file and line), a name longer
 * than MAX columns (C++ kernels run to 2,000 bytes) loses its return
 * type and anonymous namespaces, its template arguments and its
 * signature become "<…>" and "(…)", and what is still too long is cut
 * with "…".  Shorter names are kept whole.
 */
const char *
name_short(const char *s, char *buf, size_t cap, size_t max)
{
	const char *p, *e;
	size_t o = 0, w = 0, n;

	if (text_width(s) <= max || cap < 16) {
		snprintf(buf, cap, "%s", s);
		return buf;
	}
	if ((p = path_tail(s, max - 1)) != NULL) {
		snprintf(buf, cap, ELLIPSIS "%s", p);
		return buf;
	}
	for (p = name_start(s); *p != '\0' && o + 8 < cap; ) {
		if (strncmp(p, ANON, strlen(ANON)) == 0) {
			p += strlen(ANON);
			continue;
		}
		if (*p == '<' || (*p == '(' && p > s && p[-1] != ' ')) {
			e = closing(p);
			buf[o++] = *p;
			memcpy(buf + o, ELLIPSIS, 3);
			o += 3;
			buf[o++] = *p == '<' ? '>' : ')';
			w += 3;
			if (*e == '\0')
				break;
			p = e + 1;
			/* Nothing after a signature names the kernel. */
			if (*e == ')' && p[strcspn(p, "<(")] == '\0' &&
			    strncmp(p, "::", 2) != 0)
				break;
			continue;
		}
		buf[o++] = *p++;
		w += ((unsigned char)p[-1] & 0xC0) != 0x80;
	}
	o = whole_chars(buf, o);
	buf[o] = '\0';
	if (text_width(buf) > max) {
		/* Cut at a character boundary, MAX - 1 columns kept. */
		for (o = 0, n = 0; buf[o] != '\0'; o++)
			if (((unsigned char)buf[o] & 0xC0) != 0x80 &&
			    ++n == max)
				break;
		memcpy(buf + o, ELLIPSIS, 4);
	}
	return buf;
}

/* A kernel or op name as a human format shows it (NAME_MAX columns). */
void
put_name(FILE *f, const char *s)
{
	char b[512];

	fputs(name_short(s, b, sizeof(b), NAME_MAX_COLS), f);
}

/* The same as a Markdown code span. */
void
put_md_name(FILE *f, const char *s)
{
	char b[512];

	put_md(f, name_short(s, b, sizeof(b), NAME_MAX_COLS));
}

/*
 * Free text that may quote kernel names (a verdict's evidence, an
 * advice's sentence), for a human format: every template argument list
 * and every signature attached to a name ("f(int, float*)") longer than
 * 16 bytes becomes "<…>" or "(…)", and a word (up to a space or comma)
 * still wider than NAME_MAX_COLS is cut with "…" (its closing marks
 * kept: "(…):").  "name (1.2 ms/step)"
 * keeps its parenthesis, which follows a space.
 */
char *
text_short(const char *s)
{
	/* A cut word writes 3 bytes for 2 or more: room for that. */
	size_t cap = 2 * strlen(s) + 4, o = 0, w = 0;
	char *b = xmalloc(cap);
	const char *e;

	while (*s != '\0') {
		if ((*s == '<' || (*s == '(' && o > 0 && b[o - 1] != ' ')) &&
		    *(e = closing(s)) != '\0' && e - s > 17) {
			b[o++] = *s;
			memcpy(b + o, ELLIPSIS, 3);
			o += 3;
			b[o++] = *e;
			s = e + 1;
			w += 3;
			continue;
		}
		w = *s == ' ' || *s == ',' ? 0 : w + (((unsigned char)*s &
		    0xC0) != 0x80);
		if (w == NAME_MAX_COLS && s[1] != '\0' && s[1] != ' ' &&
		    s[1] != ',' && ((unsigned char)*s & 0xC0) != 0x80) {
			/* Cut the rest of the word, not its closing marks. */
			const char *end = s + strcspn(s, " ,"), *keep = end;

			while (keep > s + 1 && strchr("):;.]", keep[-1]) != NULL)
				keep--;
			memcpy(b + o, ELLIPSIS, 3);
			o += 3;
			memcpy(b + o, keep, (size_t)(end - keep));
			o += (size_t)(end - keep);
			s = end;
			w = 0;
			continue;
		}
		b[o++] = *s++;
	}
	b[o] = '\0';
	return b;
}
