/*
 * prof-diff: what changed between two profiles.
 *
 * Both sides (two runs, two ranks of one run, or a run against a table
 * of reference durations) are grouped by the same key (ops-key.c); the
 * groups are matched by key, and each row says the calls and time on
 * both sides, the difference of the totals and the ratio of the
 * per-call averages.  Rows are ranked by the absolute difference, so
 * that the first rows explain most of the change; a ratio outside the
 * band (default 0.8 to 1.2) flags the row, and a group on one side only
 * is listed as such.  The reports (diff-out.c) share this ranking.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "diff.h"
#include "num.h"
#include "xalloc.h"

static void
usage(void)
{
	printf("Usage: %s [OPTION]... A B\n", diag_progname());
	printf("Compare the device time of two profiles, or of a profile "
	    "and a reference\ntable, group by group: time on each side, "
	    "difference, ratio, flags.\n\n");
	printf("A and B are prof-tsv streams (- is standard input) or "
	    "reference tables\n(CSV or TSV with signature columns and a "
	    "duration column).\n\n");
	printf("  -A, --dev-a=DEV     only device DEV of A (default: all)\n"
	    "  -B, --dev-b=DEV     only device DEV of B (default: all)\n"
	    "  -b, --band=LO-HI    ratios within this band are not flagged "
	    "(default 0.8-1.2)\n"
	    "  -f, --format=FMT    md (default), json or tsv\n"
	    "  -k, --key=KEY       name, type, sig, scope, category, source, "
	    "pipe or "
	    "cycles (default:\n"
	    "                      name; sig against a reference table)\n"
	    "  -n, --top=N         rows in the ranking and the explained "
	    "sum (default 20)\n"
	    "  -p, --parts=LIST    signature parts (default: those both "
	    "sides have)\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Exit status: 0 on success, 1 if an input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

const char *const diff_flag_names[] = {
	"", "slower", "faster", "only_a", "only_b"
};

/* avg B / avg A = (total B calls A) / (total A calls B). */
size_t
diff_ratio(char *buf, const struct drow *r)
{
	__int128 num, den;

	if (r->a == NULL || r->b == NULL || r->a->total == 0)
		return 0;
	num = r->b->total * (__int128)r->a->calls;
	den = r->a->total * (__int128)r->b->calls;
	return num_ratio_i128(buf, num, den, 6);
}

/* The flag of a matched row: its ratio against the band, exactly. */
static int
row_flag(const struct drow *r, const struct dopts *o)
{
	__int128 num, den;

	if (r->a == NULL)
		return DF_ONLY_B;
	if (r->b == NULL)
		return DF_ONLY_A;
	num = r->b->total * (__int128)r->a->calls * 1000000;
	den = r->a->total * (__int128)r->b->calls;
	if (den == 0)
		return num > 0 ? DF_SLOWER : DF_IN;
	if (num > den * o->hi)
		return DF_SLOWER;
	if (num < den * o->lo)
		return DF_FASTER;
	return DF_IN;
}

static __int128
abs128(__int128 v)
{
	return v < 0 ? -v : v;
}

static int
row_cmp(const void *x, const void *y)
{
	const struct drow *a = x, *b = y;
	__int128 p = abs128(a->diff), q = abs128(b->diff);

	if (p != q)
		return p > q ? -1 : 1;
	return strcmp(a->key, b->key);
}

/*
 * N * TOTAL / CALLS rounded half up: a reference's time for N calls
 * (its durations are per call, its row count says nothing of a run).
 */
static __int128
scaled(const struct ops_group *ref, uint64_t n)
{
	__int128 num = ref->total * (__int128)n, den = (__int128)ref->calls;

	return (2 * num + den) / (2 * den);
}

static void
add_row(struct dres *res, size_t *cap, const char *key,
    const struct ops_group *a, const struct ops_group *b)
{
	struct drow *r;

	if (res->nrows == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		res->rows = xreallocarray(res->rows, *cap, sizeof(*res->rows));
	}
	r = &res->rows[res->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = key;
	r->a = a;
	r->b = b;
	r->diff = (b != NULL ? b->total : 0) - (a != NULL ? a->total : 0);
	/*
	 * Against a reference table the difference is the time the run
	 * lost or gained over the reference speed for its own calls; a
	 * group without a reference, or not run, has none.
	 */
	if (res->a->ref || res->b->ref) {
		if (a == NULL || b == NULL)
			r->diff = 0;
		else if (res->a->ref)
			r->diff = b->total - scaled(a, b->calls);
		else
			r->diff = scaled(b, a->calls) - a->total;
	}
}

/* Match the groups of A and B by key, rank them, count the flags. */
static void
compare(struct dres *res, const struct dopts *o)
{
	struct ops_tab *ta = &res->a->tab, *tb = &res->b->tab;
	struct ops_group *g, *h;
	size_t i, cap = 0;
	int isnew;

	for (i = 0; i < ta->nv; i++) {
		g = ta->v[i];
		h = ops_tab_get(tb, "", 0, g->key, g->keylen, &isnew);
		add_row(res, &cap, g->key, g, isnew ? NULL : h);
	}
	for (i = 0; i < tb->nv; i++)
		if (tb->v[i]->calls > 0 && ops_tab_get(ta, "", 0,
		    tb->v[i]->key, tb->v[i]->keylen, &isnew) != NULL && isnew)
			add_row(res, &cap, tb->v[i]->key, NULL, tb->v[i]);
	qsort(res->rows, res->nrows, sizeof(*res->rows), row_cmp);
	for (i = 0; i < res->nrows; i++) {
		struct drow *r = &res->rows[i];

		r->rank = (int64_t)i + 1;
		r->flag = row_flag(r, o);
		res->change += r->diff;
		if ((int64_t)i < o->top)
			res->explained += r->diff;
		if (r->flag == DF_ONLY_A) {
			res->nonly_a++;
			res->only_a_ns += r->a->total;
		} else if (r->flag == DF_ONLY_B) {
			res->nonly_b++;
			res->only_b_ns += r->b->total;
		} else {
			res->nmatched++;
			if (r->flag != DF_IN)
				res->nflag++;
		}
	}
}

/*
 * The signature parts: those asked for, or by default those both sides
 * have (a reference table without formats matches a stream on the
 * rest).  A part asked for that one side lacks would match nothing.
 */
static void
choose_parts(struct dopts *o, const struct dside *a, const struct dside *b,
    int asked)
{
	unsigned both = a->has_parts & b->has_parts, miss;
	int i;

	if (!asked) {
		o->ko.parts = both != 0 ? both : 1u << OP_TYPE;
		o->ko.parts |= 1u << OP_TYPE;
		return;
	}
	if ((miss = o->ko.parts & ~both & ~(1u << OP_TYPE)) == 0)
		return;
	for (i = 0; i < OP_NPARTS; i++)
		if (miss & (1u << i))
			diag_warn("signature part '%s' is missing on %s: "
			    "left out", ops_part_names[i],
			    a->has_parts & (1u << i) ? "B" : "A");
	o->ko.parts &= ~miss;
}

/* Parse "LO-HI" (decimals) into ratios scaled by 10^6. */
static void
parse_band(const char *s, struct dopts *o)
{
	const char *dash = strchr(s, '-');
	char *lo;

	if (dash == NULL)
		cli_usage_error("option '--band': invalid value '%s' (want "
		    "LO-HI, as 0.8-1.2)", s);
	lo = xstrndup(s, (size_t)(dash - s));
	o->lo = cli_parse_fixed(lo, "--band", 6, 0, INT64_MAX / 1000);
	o->hi = cli_parse_fixed(dash + 1, "--band", 6, 0, INT64_MAX / 1000);
	free(lo);
	if (o->lo > o->hi)
		cli_usage_error("option '--band': '%s' is empty", s);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "band",	required_argument,	NULL, 'b' },
		{ "dev-a",	required_argument,	NULL, 'A' },
		{ "dev-b",	required_argument,	NULL, 'B' },
		{ "format",	required_argument,	NULL, 'f' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "key",	required_argument,	NULL, 'k' },
		{ "parts",	required_argument,	NULL, 'p' },
		{ "top",	required_argument,	NULL, 'n' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	struct dopts o = { { OK_NAME, 0, 0 }, 800000, 1200000, 20, "md" };
	struct dside a, b;
	struct dres res;
	const char *key = NULL, *parts = NULL, *top = NULL;
	int c;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	cli_init("prof-diff");
	while ((c = getopt_long(argc, argv, "A:B:b:f:hk:n:p:V", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'A':
			a.dev = optarg;
			break;
		case 'B':
			b.dev = optarg;
			break;
		case 'b':
			parse_band(optarg, &o);
			break;
		case 'f':
			o.format = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'k':
			key = optarg;
			break;
		case 'n':
			top = optarg;
			break;
		case 'p':
			parts = optarg;
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	if (key != NULL && ops_key_parse(key, &o.ko.key) < 0)
		cli_usage_error("option '--key': invalid value '%s' (want "
		    "name, type, sig, scope, category, source, pipe or "
		    "cycles)", key);
	if (parts != NULL && ops_parts_parse(parts, &o.ko.parts) < 0)
		cli_usage_error("option '--parts': invalid list '%s'", parts);
	if (top != NULL)
		o.top = cli_parse_i64(top, "--top", 0, INT64_MAX);
	if (strcmp(o.format, "md") != 0 && strcmp(o.format, "json") != 0 &&
	    strcmp(o.format, "tsv") != 0)
		cli_usage_error("option '--format': invalid value '%s' (want "
		    "md, json or tsv)", o.format);
	if (argc - optind != 2)
		cli_usage_error(argc - optind < 2 ? "missing operand: want A "
		    "and B" : "extra operand '%s'", argv[optind + 2]);
	a.path = argv[optind];
	b.path = argv[optind + 1];
	if (strcmp(a.path, "-") == 0 && strcmp(b.path, "-") == 0)
		cli_usage_error("A and B cannot both be standard input");
	diff_open(&a);
	diff_open(&b);
	if (key == NULL && (a.ref || b.ref))
		o.ko.key = OK_SIG;
	choose_parts(&o, &a, &b, parts != NULL);
	ops_tab_init(&a.tab, 0);
	ops_tab_init(&b.tab, 0);
	diff_read(&a, &o.ko);
	diff_read(&b, &o.ko);
	a.ngroups = a.tab.nv;
	b.ngroups = b.tab.nv;
	memset(&res, 0, sizeof(res));
	res.a = &a;
	res.b = &b;
	compare(&res, &o);
	if (strcmp(o.format, "md") == 0)
		diff_write_md(&res, &o);
	else if (strcmp(o.format, "json") == 0)
		diff_write_json(&res, &o);
	else
		diff_write_tsv(&res, &o, argc, argv);
	free(res.rows);
	ops_tab_free(&a.tab);
	ops_tab_free(&b.tab);
	return a.failed || b.failed ? EXIT_BAD : EXIT_OK;
}
