/*
 * prof-export: a prof-tsv stream as files that SQL and dataframe tools
 * read without being told the types.
 *
 *   -f sqlite DB   one typed table per record kind (absent fields as
 *                  NULL, ids as TEXT), indexes on time and device, a
 *                  view per report section, the preamble and a column
 *                  catalogue; through libsqlite3
 *   -f jsonl       one JSON object per record, ids as strings
 *
 * The stream's text is untyped: "12" may be a count, a stream id or a
 * step name.  A column's SQL type is therefore fixed by its name where
 * prof-tsv(5) or a stage's manual says what it holds (ids and names are
 * TEXT in every export, so a query written for one capture runs on the
 * next), and found from the values where nothing says: INTEGER when
 * every value of the kind is a 64-bit integer, REAL when every value is
 * a number, TEXT otherwise.  The values are known only at the end, so
 * each kind is first written as text into a staging table and copied
 * into its typed table once the input is read: one pass over the input,
 * memory bounded by the number of kinds and columns, the rest on disk.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "export.h"
#include "tsv.h"

static void
usage(void)
{
	printf("Usage: %s -f sqlite [OPTION]... DB [FILE]\n"
	    "  or:  %s -f jsonl [OPTION]... [FILE]\n", diag_progname(),
	    diag_progname());
	printf("Export a prof-tsv stream for SQL and dataframe tools: a "
	    "SQLite database\nwith one typed table per record kind, or "
	    "JSON Lines.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -f, --format=FMT    sqlite (write the database DB; it is "
	    "replaced as a\n"
	    "                      whole when the export ends), jsonl (one "
	    "JSON object\n"
	    "                      per record on standard output)\n"
	    "  -h, --help          display this help and exit\n"
	    "  -V, --version       output version information and exit\n\n");
	printf("Tables: one per kind (kernel, host, window, bubble, ...), "
	    "named as the\nkind, plus preamble, kinds and columns; views "
	    "report_* per report section.\nSee prof-export(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable or the\noutput could not be written, 2 for usage "
	    "errors.\n");
	exit(EXIT_OK);
}

/*
 * The SQL type of a column by its name, or EX_INFER when only its
 * values can tell.  Ids are TEXT: a flow id exceeds 2^64, a group hash
 * 2^53, a stream or rank id may be text; names and lists are TEXT even
 * where one happens to be all digits (a shape of one dimension).
 * Ratios are REAL.  EX_INFER: the values decide.
 */
int
export_coltype(const char *col)
{
	static const char *const text[] = {
		"dev", "track", "name", "cat", "type", "core", "pid", "corr",
		"ext", "group", "in_shapes", "in_dtypes", "out_shapes",
		"out_dtypes", "pmu", "tags", "labels", "evidence", "text",
		"scope", "step_group", "key", "chip", "dtype", "bound",
		"bound_src", "pipe_bound", "src_op", "host_top", "host_class",
		"prev_name", "prev_core", "prev_track", "next_name",
		"next_core", "next_track", "slow_rank", "fast_rank",
		"last_rank", "second", "confidence", "prio", "followup_text",
		"task_mix", "seq", "layer_type", "phase", "rule", "category",
		"op_cat", "nc_class", "groups", "top_groups", "flag",
		"pipe", "src_kind", NULL
	};
	size_t i, n = strlen(col);

	for (i = 0; text[i] != NULL; i++)
		if (strcmp(col, text[i]) == 0)
			return EX_TEXT;
	if (n > 3 && strcmp(col + n - 3, "_id") == 0)
		return EX_TEXT;
	/* a ratio that happens to be 0 or 1 in every record is still one */
	if ((n > 6 && strcmp(col + n - 6, "_ratio") == 0) ||
	    strcmp(col, "ai") == 0)
		return EX_REAL;
	return EX_INFER;
}

/*
 * What the text S (LEN bytes, not empty) is as a value: EX_INTEGER (a
 * prof-tsv integer within int64), EX_REAL (a JSON number: sign,
 * digits, fraction, exponent), or EX_TEXT.
 */
int
export_valtype(const char *s, size_t len)
{
	int64_t v;
	size_t i = 0, d;

	if (tsv_parse_i64(s, len, &v) == 0)
		return EX_INTEGER;
	if (i < len && s[i] == '-')
		i++;
	for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || (s[d] == '0' && i - d > 1))
		return EX_TEXT;
	if (i < len && s[i] == '.') {
		for (d = ++i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return EX_TEXT;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return EX_TEXT;
	}
	return i == len ? EX_REAL : EX_TEXT;
}

/*
 * Check the current record as prof-tsv(5) has it: its kind a name
 * ([a-z_][a-z0-9_]*: it becomes a table name), its times.  Returns 0,
 * or -1 after the diagnostic; tsvr_next() then ends the input.
 */
int
export_check(struct tsvr *in)
{
	const char *s;
	size_t i, n;
	int64_t ts, dur;

	s = tsvr_field(in, 0, &n);
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_' ||
		    (i > 0 && s[i] >= '0' && s[i] <= '9')))
			break;
	if (n == 0 || i < n) {
		tsvr_damage(in, "invalid kind '%s'", s);
		return -1;
	}
	return tsvr_times(in, &ts, &dur);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "format",	required_argument,	NULL, 'f' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *fmt = NULL, *in;
	int c, rv;

	cli_init("prof-export");
	while ((c = getopt_long(argc, argv, "f:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "sqlite") != 0 &&
			    strcmp(optarg, "jsonl") != 0)
				cli_usage_error("option '--format': invalid "
				    "value '%s'", optarg);
			fmt = optarg;
			break;
		case 'h':
			usage();
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	}
	if (fmt == NULL)
		cli_usage_error("option '--format' is required");
	if (strcmp(fmt, "sqlite") == 0) {
		if (optind == argc)
			cli_usage_error("missing database operand");
		if (argc - optind > 2)
			cli_usage_error("extra operand '%s'", argv[optind + 2]);
		if (*argv[optind] == '\0' || strcmp(argv[optind], "-") == 0)
			cli_usage_error("invalid database '%s'", argv[optind]);
		in = optind + 1 < argc ? argv[optind + 1] : "-";
		rv = export_sqlite(in, argv[optind]);
	} else {
		if (argc - optind > 1)
			cli_usage_error("extra operand '%s'", argv[optind + 1]);
		rv = export_jsonl(optind < argc ? argv[optind] : "-");
	}
	return rv;
}
