/*
 * prof-diff: the reports.  Markdown for people, JSON and a prof-tsv
 * stream for scripts, all three in the same ranking (by absolute time
 * difference) and with the same exact numbers: times in integer ns in
 * JSON and TSV, in ms or us with three decimals in Markdown, ratios
 * with six decimals, all by exact division.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff.h"
#include "num.h"
#include "tsv.h"
#include "utf8.h"
#include "xalloc.h"

/* V ns as ms (three decimals). */
static const char *
ms(char *buf, __int128 v)
{
	buf[num_ratio_i128(buf, v, 1000000, 3)] = '\0';
	return buf;
}

/* The average of G in us (three decimals), or "". */
static const char *
avg_us(char *buf, const struct ops_group *g)
{
	buf[0] = '\0';
	if (g != NULL && g->calls > 0)
		buf[num_ratio_i128(buf, g->total, (__int128)g->calls * 1000,
		    3)] = '\0';
	return buf;
}

static const char *
i128(char *buf, __int128 v)
{
	buf[ops_i128(buf, v)] = '\0';
	return buf;
}

/* S for a Markdown table cell: '|' escaped, line breaks as spaces. */
static void
md_cell(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '|')
			fputs("\\|", stdout);
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			putchar(' ');
		else
			putchar(*s);
}

static void
md_side(const char *label, const struct dside *s)
{
	char b[NUM_BUFSIZE];

	printf("- %s: `%s`%s%s%s, %s, %llu tasks, %s ms in %zu groups\n",
	    label, s->path, s->dev ? " (dev " : "", s->dev ? s->dev : "",
	    s->dev ? ")" : "", s->ref ? "reference table" : "stream",
	    (unsigned long long)s->calls, ms(b, s->total), s->ngroups);
}

static void
md_parts(const struct dopts *o)
{
	int i, first = 1;

	if (o->ko.key != OK_SIG)
		return;
	fputs(" (", stdout);
	for (i = 0; i < OP_NPARTS; i++)
		if (o->ko.parts & (1u << i)) {
			printf("%s%s", first ? "" : ", ", ops_part_names[i]);
			first = 0;
		}
	putchar(')');
}

static void
md_row(const struct drow *r)
{
	char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
	char b4[NUM_BUFSIZE], b5[NUM_BUFSIZE], rat[NUM_BUFSIZE];
	size_t n = diff_ratio(rat, r);

	rat[n] = '\0';
	printf("| %lld | ", (long long)r->rank);
	md_cell(r->key);
	printf(" | %llu | %llu | %s | %s | %s | %s | ",
	    (unsigned long long)(r->a ? r->a->calls : 0),
	    (unsigned long long)(r->b ? r->b->calls : 0),
	    ms(b1, r->a ? r->a->total : 0), ms(b2, r->b ? r->b->total : 0),
	    ms(b3, r->diff), avg_us(b4, r->a));
	printf("%s | %s | %s |\n", avg_us(b5, r->b), n ? rat : "",
	    diff_flag_names[r->flag]);
}

static void
md_one_side(const struct dres *res, const struct dopts *o, int flag,
    const char *title)
{
	size_t i;
	int64_t k = 0;
	char b[NUM_BUFSIZE], c[NUM_BUFSIZE];
	const struct ops_group *g;

	printf("\n## %s\n\n", title);
	if ((flag == DF_ONLY_A ? res->nonly_a : res->nonly_b) == 0) {
		puts("None.");
		return;
	}
	puts("| group | calls | time (ms) | avg (us) |");
	puts("|---|---:|---:|---:|");
	for (i = 0; i < res->nrows && k < o->top; i++) {
		if (res->rows[i].flag != flag)
			continue;
		g = flag == DF_ONLY_A ? res->rows[i].a : res->rows[i].b;
		fputs("| ", stdout);
		md_cell(res->rows[i].key);
		printf(" | %llu | %s | %s |\n", (unsigned long long)g->calls,
		    ms(b, g->total), avg_us(c, g));
		k++;
	}
}

void
diff_write_md(const struct dres *res, const struct dopts *o)
{
	char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
	__int128 d = res->change;
	size_t i;

	lo[num_ratio(lo, o->lo, 1000000, 6)] = '\0';
	hi[num_ratio(hi, o->hi, 1000000, 6)] = '\0';
	puts("# prof-diff\n");
	md_side("A", res->a);
	md_side("B", res->b);
	printf("- key: %s", ops_key_name(o->ko.key));
	md_parts(o);
	printf("; ratio = average per call of B over A, flagged outside "
	    "%s-%s\n", lo, hi);
	if (res->a->ref || res->b->ref)
		puts("- against a reference table, B - A is the run's time "
		    "over the reference's\n  for the run's calls; groups "
		    "without a reference have none");
	puts("\n## Summary\n");
	printf("- device time: A %s ms, B %s ms, ", ms(b1, res->a->total),
	    ms(b2, res->b->total));
	printf("B - A %s ms%s\n", ms(b1, d), res->a->ref || res->b->ref ?
	    " (groups with a reference)" : "");
	printf("- the top %lld groups by difference explain %s ms",
	    (long long)o->top, ms(b1, res->explained));
	if (d != 0) {
		b2[num_ratio_i128(b2, res->explained * 100, d, 1)] = '\0';
		printf(" (%s%% of the change)", b2);
	}
	printf("\n- %zu groups on both sides, %zu flagged\n", res->nmatched,
	    res->nflag);
	printf("- only in A: %zu groups, %s ms; ", res->nonly_a,
	    ms(b1, res->only_a_ns));
	printf("only in B: %zu groups, %s ms\n", res->nonly_b,
	    ms(b2, res->only_b_ns));
	puts("\n## Ranked by time difference\n");
	puts("| # | group | calls A | calls B | A (ms) | B (ms) | B - A (ms) "
	    "| avg A (us) | avg B (us) | ratio | flag |");
	puts("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
	for (i = 0; i < res->nrows && (int64_t)i < o->top; i++)
		md_row(&res->rows[i]);
	if (res->nrows > (size_t)o->top)
		printf("\n%zu more groups (-n shows more, -f json lists "
		    "all).\n",
		    res->nrows - (size_t)o->top);
	md_one_side(res, o, DF_ONLY_A, "Only in A");
	md_one_side(res, o, DF_ONLY_B, "Only in B");
}

/* S as a JSON string: ill-formed UTF-8 as U+FFFD, controls escaped. */
static void
json_str(const char *s)
{
	size_t n = strlen(s), m;
	char *t = xmalloc(3 * n + 1);
	const unsigned char *p;

	m = utf8_sanitize(s, n, t, NULL);
	t[m] = '\0';
	putchar('"');
	for (p = (const unsigned char *)t; *p != '\0'; p++)
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	putchar('"');
	free(t);
}

static void
json_side(const char *label, const struct dside *s)
{
	char b[NUM_BUFSIZE];

	printf("  \"%s\": {\"path\": ", label);
	json_str(s->path);
	fputs(", \"dev\": ", stdout);
	if (s->dev != NULL)
		json_str(s->dev);
	else
		fputs("null", stdout);
	printf(", \"input\": \"%s\", \"calls\": %llu, \"total_ns\": %s, "
	    "\"groups\": %zu},\n", s->ref ? "reference" : "stream",
	    (unsigned long long)s->calls, i128(b, s->total), s->ngroups);
}

static void
json_group(const struct ops_group *g)
{
	char b[NUM_BUFSIZE], c[NUM_BUFSIZE];

	if (g == NULL) {
		fputs("null", stdout);
		return;
	}
	c[num_ratio_i128(c, g->total, (__int128)g->calls, 3)] = '\0';
	printf("{\"calls\": %llu, \"total_ns\": %s, \"avg_ns\": %s}",
	    (unsigned long long)g->calls, i128(b, g->total), c);
}

static void
json_row(const struct drow *r, int last)
{
	char b[NUM_BUFSIZE], rat[NUM_BUFSIZE];
	size_t n = diff_ratio(rat, r);

	rat[n] = '\0';
	printf("    {\"rank\": %lld, \"key\": ", (long long)r->rank);
	json_str(r->key);
	fputs(", \"a\": ", stdout);
	json_group(r->a);
	fputs(", \"b\": ", stdout);
	json_group(r->b);
	printf(", \"diff_ns\": %s, \"ratio\": %s, \"flag\": ", i128(b,
	    r->diff), n ? rat : "null");
	if (r->flag == DF_IN)
		fputs("null", stdout);
	else
		printf("\"%s\"", diff_flag_names[r->flag]);
	printf("}%s\n", last ? "" : ",");
}

void
diff_write_json(const struct dres *res, const struct dopts *o)
{
	char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE];
	__int128 d = res->change;
	size_t i;
	int j, first = 1;

	puts("{");
	json_side("a", res->a);
	json_side("b", res->b);
	printf("  \"key\": \"%s\", \"parts\": [", ops_key_name(o->ko.key));
	for (j = 0; o->ko.key == OK_SIG && j < OP_NPARTS; j++)
		if (o->ko.parts & (1u << j)) {
			printf("%s\"%s\"", first ? "" : ", ", ops_part_names[j]);
			first = 0;
		}
	b1[num_ratio(b1, o->lo, 1000000, 6)] = '\0';
	b2[num_ratio(b2, o->hi, 1000000, 6)] = '\0';
	printf("],\n  \"band\": {\"lo\": %s, \"hi\": %s},\n", b1, b2);
	printf("  \"summary\": {\"diff_ns\": %s, \"top\": %lld, ", i128(b1, d),
	    (long long)o->top);
	printf("\"explained_ns\": %s, \"explained_ratio\": ", i128(b1,
	    res->explained));
	if (d != 0) {
		b2[num_ratio_i128(b2, res->explained, d, 6)] = '\0';
		fputs(b2, stdout);
	} else
		fputs("null", stdout);
	printf(", \"matched\": %zu, \"flagged\": %zu, ", res->nmatched,
	    res->nflag);
	printf("\"only_a\": {\"groups\": %zu, \"total_ns\": %s}, ",
	    res->nonly_a, i128(b1, res->only_a_ns));
	printf("\"only_b\": {\"groups\": %zu, \"total_ns\": %s}},\n",
	    res->nonly_b, i128(b1, res->only_b_ns));
	puts("  \"rows\": [");
	for (i = 0; i < res->nrows; i++)
		json_row(&res->rows[i], i + 1 == res->nrows);
	puts("  ]\n}");
}

/* ---- prof-tsv ---- */

static const char *const tsv_cols[] = {
	"kind", "ts_ns", "dur_ns", "dev", "track", "name", "key", "rank",
	"flag", "calls_a", "calls_b", "total_a_ns", "total_b_ns",
	"avg_a_ns", "avg_b_ns", "diff_ns", "ratio", "value"
};
#define NTSV	(sizeof(tsv_cols) / sizeof(tsv_cols[0]))

static void
tsv_group(struct tsvw *w, const struct ops_group *g, int avg)
{
	char b[NUM_BUFSIZE];

	if (g == NULL)
		tsvw_empty(w);
	else if (avg)
		tsvw_field(w, b, num_ratio_i128(b, g->total,
		    (__int128)g->calls, 3));
	else
		tsvw_i64(w, (int64_t)g->calls);
}

static void
tsv_row(struct tsvw *w, const struct drow *r, const struct dopts *o)
{
	char b[NUM_BUFSIZE];
	int i;

	tsvw_str(w, "opdiff");
	for (i = 0; i < 3; i++)
		tsvw_empty(w);
	tsvw_empty(w);
	tsvw_str(w, r->key);
	tsvw_str(w, ops_key_name(o->ko.key));
	tsvw_i64(w, r->rank);
	tsvw_str(w, diff_flag_names[r->flag]);
	tsv_group(w, r->a, 0);
	tsv_group(w, r->b, 0);
	if (r->a != NULL)
		tsvw_field(w, b, ops_i128(b, r->a->total));
	else
		tsvw_empty(w);
	if (r->b != NULL)
		tsvw_field(w, b, ops_i128(b, r->b->total));
	else
		tsvw_empty(w);
	tsv_group(w, r->a, 1);
	tsv_group(w, r->b, 1);
	tsvw_field(w, b, ops_i128(b, r->diff));
	tsvw_field(w, b, diff_ratio(b, r));
	tsvw_empty(w);
	tsvw_end(w);
}

static void
tsv_metric(struct tsvw *w, const char *name, const char *v, size_t n)
{
	size_t i;

	tsvw_str(w, "metric");
	for (i = 1; i < NTSV - 1; i++)
		if (i == 5)
			tsvw_str(w, name);
		else
			tsvw_empty(w);
	tsvw_field(w, v, n);
	tsvw_end(w);
}

void
diff_write_tsv(const struct dres *res, const struct dopts *o, int argc,
    char **argv)
{
	struct tsvw *w = tsvw_open(STDOUT_FILENO, "<stdout>");
	char b[NUM_BUFSIZE];
	__int128 d = res->change;
	size_t i;

	tsvw_preamble(w, "prof-tsv 1");
	tsvw_stage(w, "prof-diff", argc, argv);
	tsvw_header(w, tsv_cols, NTSV);
	tsv_metric(w, "diff_a_total_ns", b, ops_i128(b, res->a->total));
	tsv_metric(w, "diff_b_total_ns", b, ops_i128(b, res->b->total));
	tsv_metric(w, "diff_ns", b, ops_i128(b, d));
	tsv_metric(w, "diff_explained_ns", b, ops_i128(b, res->explained));
	if (d != 0)
		tsv_metric(w, "diff_explained_ratio", b, num_ratio_i128(b,
		    res->explained, d, 6));
	tsv_metric(w, "diff_flagged", b, ops_i128(b, (__int128)res->nflag));
	tsv_metric(w, "diff_only_a", b, ops_i128(b, (__int128)res->nonly_a));
	tsv_metric(w, "diff_only_b", b, ops_i128(b, (__int128)res->nonly_b));
	for (i = 0; i < res->nrows; i++)
		tsv_row(w, &res->rows[i], o);
	tsvw_close(w);
}
