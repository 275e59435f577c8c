/*
 * The k-way merge of prof-merge: several streams, each sorted by ts_ns,
 * become one sorted stream on a common time origin.
 *
 * Every input keeps one record in hand; a binary heap of the inputs,
 * keyed by (rebased ts_ns, input index), picks the next one, so records
 * with equal times keep the order of the inputs and timeless records
 * (key INT64_MIN) come first.  Memory is one record per input.
 *
 * Rebasing is exact: the common origin is the smallest #origin_ns and
 * each input's ts_ns grows by its own origin minus that one, with every
 * subtraction and addition checked for int64 overflow.  The src column
 * and the #source lines are renumbered by an offset per input so that
 * sources stay unique.  A record is copied as its raw escaped line when
 * nothing in it changes, and field by field (still escaped) otherwise.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "merge.h"
#include "stage.h"
#include "tsv.h"
#include "xalloc.h"

/* One input stream and the record it holds. */
struct kin {
	struct tsvr	 *r;
	const char	 *path;
	int		  has_origin;
	int64_t		  origin;
	unsigned long	  origin_line;
	int64_t		  delta;	/* origin - common origin */
	int64_t		  src_off;	/* added to src and #source N */
	int64_t		  nsrc;		/* largest #source N + 1 */
	int		  src_col;	/* input column of src, or -1 */
	int		 *map;		/* output column -> input column */
	int		  verbatim;	/* raw line is the output line */
	int64_t		  key;		/* rebased ts, INT64_MIN timeless */
	const char	**fp;		/* raw fields of the current record */
	size_t		 *fl;
};

struct kway {
	struct kin	 *in;
	size_t		  n;
	char		**cols;		/* output columns */
	size_t		  ncols;
	int		  has_origin;
	int64_t		  origin;
	size_t		 *heap;		/* input indices */
	size_t		  nheap;
	struct tsvw	 *out;
	int		  bad;		/* an input was damaged */
};

/* Parse the whole text S as an int64; 0 when it is not one. */
static int
parse_i64(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (*s == '\0' || *s == '+' || *s == ' ')
		return 0;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return 0;
	*v = x;
	return 1;
}

/* Read origin and sources (tsvr_open_stream() checked the rest). */
static void
scan_preamble(struct kin *k)
{
	size_t i, np = tsvr_npreamble(k->r);

	for (i = 0; i < np; i++) {
		const char *p = tsvr_preamble(k->r, i);
		int64_t v;

		if (strncmp(p, "origin_ns ", 10) == 0) {
			if (!parse_i64(p + 10, &k->origin))
				diag_at_fatal(EXIT_BAD, k->path, i + 1,
				    "invalid #origin_ns '%s'", p + 10);
			k->has_origin = 1;
			k->origin_line = i + 1;
		} else if (strncmp(p, "source ", 7) == 0) {
			char *num = xstrndup(p + 7, strcspn(p + 7, " "));

			if (!parse_i64(num, &v) || v < 0 || v == INT64_MAX)
				diag_at_fatal(EXIT_BAD, k->path, i + 1,
				    "invalid #source number '%s'", num);
			free(num);
			if (v + 1 > k->nsrc)
				k->nsrc = v + 1;
		}
	}
}

static int
find_col(char **cols, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(cols[i], name) == 0)
			return (int)i;
	return -1;
}

/* The output columns: the fixed ones, then every other in first-seen order. */
static void
union_columns(struct kway *kw)
{
	size_t i, j;

	kw->cols = xreallocarray(NULL, COL_NFIXED, sizeof(*kw->cols));
	for (i = 0; i < COL_NFIXED; i++)
		kw->cols[kw->ncols++] = xstrdup(tsv_fixed_cols[i]);
	for (i = 0; i < kw->n; i++)
		for (j = COL_NFIXED; j < tsvr_ncols(kw->in[i].r); j++) {
			const char *name = tsvr_colname(kw->in[i].r, j);

			if (find_col(kw->cols, kw->ncols, name) >= 0)
				continue;
			kw->cols = xreallocarray(kw->cols, kw->ncols + 1,
			    sizeof(*kw->cols));
			kw->cols[kw->ncols++] = xstrdup(name);
		}
}

/* The common origin and each input's rebase delta and src offset. */
static void
plan_inputs(struct kway *kw)
{
	struct kin *k;
	int64_t off = 0;
	size_t i;

	for (i = 0; i < kw->n; i++) {
		k = &kw->in[i];
		if (k->has_origin && (!kw->has_origin || k->origin < kw->origin))
			kw->origin = k->origin;
		kw->has_origin |= k->has_origin;
	}
	for (i = 0; i < kw->n; i++) {
		k = &kw->in[i];
		/* An empty input has no times to rebase. */
		if (kw->has_origin && !k->has_origin && tsvr_ncols(k->r) > 0)
			diag_at_fatal(EXIT_BAD, k->path, 0, "no #origin_ns: "
			    "cannot rebase onto the other inputs' origin");
		if (kw->has_origin && __builtin_sub_overflow(k->origin,
		    kw->origin, &k->delta))
			diag_at_fatal(EXIT_BAD, k->path, k->origin_line,
			    "#origin_ns %" PRId64 " is too far from %" PRId64
			    " to rebase", k->origin, kw->origin);
		k->src_off = off;
		if (__builtin_add_overflow(off, k->nsrc, &off))
			diag_at_fatal(EXIT_BAD, k->path, 0,
			    "too many #source lines");
	}
}

/* Map output columns to input columns and decide the verbatim copy. */
static void
map_columns(struct kway *kw, struct kin *k)
{
	size_t j, nin = tsvr_ncols(k->r);

	k->map = xreallocarray(NULL, kw->ncols, sizeof(*k->map));
	k->verbatim = nin == kw->ncols && k->delta == 0;
	for (j = 0; j < kw->ncols; j++) {
		k->map[j] = tsvr_col(k->r, kw->cols[j]);
		if (k->map[j] != (int)j)
			k->verbatim = 0;
	}
	k->src_col = tsvr_col(k->r, "src");
	if (k->src_col >= 0 && k->src_off != 0)
		k->verbatim = 0;
	k->fp = xcalloc(nin + 1, sizeof(*k->fp));
	k->fl = xcalloc(nin + 1, sizeof(*k->fl));
}

/*
 * Write "#KEY N+off REST" for one input's line P that names a source:
 * "#source" or "#evidence", KEY of length KLEN.
 */
static void
write_source(struct kway *kw, const struct kin *k, const char *p,
    size_t klen)
{
	const char *rest = p + klen + 1 + strcspn(p + klen + 1, " ");
	int64_t v = 0;
	char *num = xstrndup(p + klen + 1, (size_t)(rest - (p + klen + 1)));
	char *line;
	size_t len;

	parse_i64(num, &v);
	len = strlen(rest) + klen + 48;
	line = xmalloc(len);
	snprintf(line, len, "%.*s %" PRId64 "%s", (int)klen, p,
	    v + k->src_off, rest);
	tsvw_preamble(kw->out, line);
	free(line);
	free(num);
}

/* The length of the keyword of P when it names a source, else 0. */
static size_t
source_key(const char *p)
{
	if (strncmp(p, "source ", 7) == 0)
		return 6;
	if (strncmp(p, "evidence ", 9) == 0)
		return 8;
	return 0;
}

static void
write_preamble(struct kway *kw, int argc, char *argv[])
{
	char buf[48];
	size_t i, j;

	tsvw_preamble(kw->out, "prof-tsv 1");
	if (kw->has_origin) {
		snprintf(buf, sizeof(buf), "origin_ns %" PRId64, kw->origin);
		tsvw_preamble(kw->out, buf);
	}
	for (i = 0; i < kw->n; i++)
		for (j = 0; j < tsvr_npreamble(kw->in[i].r); j++) {
			const char *p = tsvr_preamble(kw->in[i].r, j);

			if (source_key(p) > 0)
				write_source(kw, &kw->in[i], p,
				    source_key(p));
		}
	for (i = 0; i < kw->n; i++)
		for (j = 0; j < tsvr_npreamble(kw->in[i].r); j++) {
			const char *p = tsvr_preamble(kw->in[i].r, j);

			if (source_key(p) == 0 && strncmp(p,
			    "origin_ns ", 10) != 0 && strncmp(p, "prof-tsv ",
			    9) != 0)
				tsvw_preamble(kw->out, p);
		}
	if (argc > 0)
		tsvw_stage(kw->out, strrchr(argv[0], '/') != NULL ?
		    strrchr(argv[0], '/') + 1 : argv[0], argc, argv);
	tsvw_header(kw->out, (const char *const *)kw->cols, kw->ncols);
}

/*
 * Read the next record of K, checked by the one reader of the contract
 * (tsvr_record(): its order within the input, which the heap would
 * hide), and compute its key: 1, or 0 at the end.  A damaged record
 * ends that input after the diagnostic: its records before are merged,
 * the other inputs go on, and the merge fails.
 */
static int
advance(struct kway *kw, struct kin *k)
{
	int64_t ts, dur, end, src;
	size_t len;
	int rc = tsvr_record(k->r, &ts, &dur);

	if (rc == 0)
		return 0;
	if (rc < 0)
		goto bad;
	if (ts == TSV_NO_TS)
		k->key = INT64_MIN;
	else if (__builtin_add_overflow(ts, k->delta, &k->key) ||
	    k->key == INT64_MIN || (dur > 0 &&
	    __builtin_add_overflow(k->key, dur, &end))) {
		tsvr_damage(k->r, "ts_ns %" PRId64 " overflows when "
		    "rebased by %" PRId64, ts, k->delta);
		goto bad;
	}
	if (k->src_col >= 0 && k->src_off != 0) {
		const char *s = tsvr_field(k->r, (size_t)k->src_col, &len);

		if (len > 0 && (tsv_parse_i64(s, len, &src) != 0 || src < 0 ||
		    __builtin_add_overflow(src, k->src_off, &src))) {
			tsvr_damage(k->r, "invalid src '%s'", s);
			goto bad;
		}
	}
	return 1;
bad:
	kw->bad = 1;
	return 0;
}

static int
heap_lt(const struct kway *kw, size_t a, size_t b)
{
	return kw->in[a].key < kw->in[b].key ||
	    (kw->in[a].key == kw->in[b].key && a < b);
}

/* Move the heap's top down to its place after its key grew. */
static void
sift_down(struct kway *kw)
{
	size_t i = 0, c, top = kw->heap[0];

	while ((c = 2 * i + 1) < kw->nheap) {
		if (c + 1 < kw->nheap && heap_lt(kw, kw->heap[c + 1],
		    kw->heap[c]))
			c++;
		if (!heap_lt(kw, kw->heap[c], top))
			break;
		kw->heap[i] = kw->heap[c];
		i = c;
	}
	kw->heap[i] = top;
}

/*
 * Split K's raw line at TABs (escapes never hold a raw TAB).  One byte
 * loop: most fields are short or empty, where a memchr() call per field
 * costs more than the scan.
 */
static void
split_raw(struct kin *k)
{
	size_t len, i = 0, n = tsvr_ncols(k->r);
	const char *line = tsvr_line(k->r, &len), *p, *end = line + len;

	k->fp[0] = line;
	for (p = line; p < end && i + 1 < n; p++)
		if (*p == '\t') {
			k->fl[i] = (size_t)(p - k->fp[i]);
			k->fp[++i] = p + 1;
		}
	k->fl[i] = (size_t)(end - k->fp[i]);
}

/* Write K's current record in the output columns. */
static void
write_record(struct kway *kw, struct kin *k)
{
	size_t j, len;
	int64_t v;
	int absent;

	if (k->verbatim) {
		const char *line = tsvr_line(k->r, &len);

		tsvw_raw(kw->out, line, len);
		tsvw_end(kw->out);
		return;
	}
	split_raw(k);
	for (j = 0; j < kw->ncols; j++) {
		int m = k->map[j];

		if (m < 0)
			tsvw_empty(kw->out);
		else if (j == COL_TS && k->key != INT64_MIN)
			tsvw_i64(kw->out, k->key);
		else if (m == k->src_col && k->fl[m] > 0 && k->src_off != 0) {
			/* advance() checked it */
			v = tsvr_i64(k->r, (size_t)m, &absent) + k->src_off;
			tsvw_i64(kw->out, v);
		} else
			tsvw_raw(kw->out, k->fp[m], k->fl[m]);
	}
	tsvw_end(kw->out);
}

static void
open_inputs(struct kway *kw, char *const *paths, size_t n)
{
	size_t i;

	kw->in = xcalloc(n, sizeof(*kw->in));
	kw->n = n;
	for (i = 0; i < n; i++) {
		struct kin *k = &kw->in[i];

		if ((k->r = tsvr_open_stream(paths[i])) == NULL)
			exit(EXIT_BAD);
		k->path = paths[i];
		scan_preamble(k);
	}
}

/* Read the first record of each input and order the inputs in the heap. */
static void
heap_build(struct kway *kw)
{
	size_t i, c, p, t;

	kw->heap = xcalloc(kw->n, sizeof(*kw->heap));
	for (i = 0; i < kw->n; i++) {
		map_columns(kw, &kw->in[i]);
		if (tsvr_ncols(kw->in[i].r) == 0 || !advance(kw, &kw->in[i]))
			continue;
		kw->heap[kw->nheap++] = i;
		for (c = kw->nheap - 1; c > 0; c = p) {
			p = (c - 1) / 2;
			if (!heap_lt(kw, kw->heap[c], kw->heap[p]))
				break;
			t = kw->heap[c];
			kw->heap[c] = kw->heap[p];
			kw->heap[p] = t;
		}
	}
}

static void
kway_free(struct kway *kw)
{
	size_t i;

	for (i = 0; i < kw->n; i++) {
		tsvr_close(kw->in[i].r);
		free(kw->in[i].map);
		free(kw->in[i].fp);
		free(kw->in[i].fl);
	}
	for (i = 0; i < kw->ncols; i++)
		free(kw->cols[i]);
	free(kw->cols);
	free(kw->heap);
	free(kw->in);
}

int
merge_run(char *const *paths, size_t n, int fd, int argc, char *argv[])
{
	struct kway kw;
	int bad;

	memset(&kw, 0, sizeof(kw));
	open_inputs(&kw, paths, n);
	union_columns(&kw);
	plan_inputs(&kw);
	kw.out = tsvw_open(fd, fd == 1 ? "standard output" : "pipe");
	write_preamble(&kw, argc, argv);
	heap_build(&kw);
	while (kw.nheap > 0) {
		struct kin *k = &kw.in[kw.heap[0]];

		write_record(&kw, k);
		if (!advance(&kw, k))
			kw.heap[0] = kw.heap[--kw.nheap];
		if (kw.nheap > 0)
			sift_down(&kw);
	}
	tsvw_close(kw.out);
	bad = kw.bad;
	kway_free(&kw);
	return bad ? EXIT_BAD : EXIT_OK;
}
