/*
 * prof-diff: reading one side into a group table.
 *
 * A side is a prof-tsv stream (its kernel records, or pipe records with
 * -k pipe) or a reference table: CSV or TSV with signature columns and
 * a duration column, as the op microbenchmark tables of Ascend teams
 * and the profilers' own op tables are.  Both are grouped with the same
 * key code as prof-ops (ops-key.c), so a group compares like with like.
 */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "csvin.h"
#include "diag.h"
#include "diff.h"
#include "dtime.h"
#include "input.h"
#include "stage.h"
#include "tsv.h"
#include "xalloc.h"

/* Reference table column names, lower case with only letters and digits. */
static const char *const ref_names[OP_NPARTS][4] = {
	{ "optype", "type", NULL },
	{ "inputshapes", "inshapes", NULL },
	{ "inputdatatypes", "inputdtypes", "indtypes", NULL },
	{ "inputformats", "informats", NULL },
	{ "outputshapes", "outshapes", NULL },
	{ "outputdatatypes", "outputdtypes", "outdtypes", NULL },
	{ "outputformats", "outformats", NULL }
};
static const char *const ref_name_cols[] = {
	"name", "opname", "kernelname", NULL
};
/* Duration columns and the power of ten that makes them ns. */
static const struct { const char *n; int scale; } ref_dur[] = {
	{ "durationus", 3 }, { "taskdurationus", 3 }, { "durus", 3 },
	{ "avgtimeus", 3 }, { "avgdurationus", 3 }, { "timeus", 3 },
	{ "durationns", 0 }, { "durns", 0 }, { "avgtimens", 0 },
	{ "durationms", 6 }, { "durms", 6 }, { NULL, 0 }
};

/* A reference table, read whole (such tables are small). */
struct ref {
	char		**cols;		/* header, normalised */
	char		**orig;		/* header as written */
	size_t		 ncols;
	int		 part[OP_NPARTS], name, dur, scale;
};

/* A stream side. */
struct strm {
	struct tsvr	*in;
	int		 part[OP_NPARTS], core, cat, ext, dev, value, corr,
			 frame;
};

static void	 ref_read(struct dside *, const struct ops_keyopts *, int);

/* NAME lower-cased with everything but letters and digits dropped. */
static char *
norm(const char *s)
{
	char *o = xmalloc(strlen(s) + 1), *p = o;

	for (; *s != '\0'; s++)
		if (isalnum((unsigned char)*s))
			*p++ = (char)tolower((unsigned char)*s);
	*p = '\0';
	return o;
}

static int
ref_find(const struct ref *r, const char *const *names)
{
	size_t i, j;

	for (j = 0; names[j] != NULL; j++)
		for (i = 0; i < r->ncols; i++)
			if (strcmp(r->cols[i], names[j]) == 0)
				return (int)i;
	return -1;
}

/* Whether PATH starts like a prof-tsv stream (stdin always is one). */
static int
is_stream(const char *path)
{
	struct input *in;
	const void *p;
	ssize_t n;
	const char *name;
	int yes = 1;

	if (strcmp(path, "-") == 0)
		return 1;
	if ((in = input_open(path)) == NULL)
		exit(EXIT_BAD);
	if (input_next(in, &name) == 1 && (n = input_peek(in, &p, 16)) >= 0)
		yes = (n >= 9 && memcmp(p, "#prof-tsv", 9) == 0) ||
		    (n >= 5 && memcmp(p, "kind\t", 5) == 0);
	input_close(in);
	return yes;
}

/* The columns of a reference table's header, names as written. */
static void
ref_header(struct dside *s, struct ref *r, char **names, size_t n)
{
	size_t i;
	int j;

	r->ncols = n;
	r->orig = names;
	r->cols = xcalloc(n, sizeof(*r->cols));
	for (i = 0; i < n; i++)
		r->cols[i] = norm(names[i]);
	for (j = 0; j < OP_NPARTS; j++)
		if ((r->part[j] = ref_find(r, ref_names[j])) >= 0)
			s->has_parts |= 1u << j;
	r->name = ref_find(r, ref_name_cols);
	r->dur = -1;
	for (j = 0; ref_dur[j].n != NULL && r->dur < 0; j++) {
		const char *one[2] = { ref_dur[j].n, NULL };

		r->dur = ref_find(r, one);
		r->scale = ref_dur[j].scale;
	}
	if (r->dur < 0)
		diag_err(EXIT_BAD, "%s: no duration column (such as "
		    "'Duration(us)' or 'dur_ns')", diag_path(s->path));
}

static void
strm_open(struct dside *s)
{
	struct strm *m = xcalloc(1, sizeof(*m));
	int i;

	if ((m->in = tsvr_open(s->path)) == NULL)
		exit(EXIT_BAD);
	for (i = 0; i < OP_NPARTS; i++)
		if ((m->part[i] = tsvr_col(m->in, ops_part_names[i])) >= 0)
			s->has_parts |= 1u << i;
	m->core = tsvr_col(m->in, "core");
	m->cat = tsvr_col(m->in, "cat");
	m->ext = tsvr_col(m->in, "ext");
	m->corr = tsvr_col(m->in, "corr");
	m->frame = tsvr_col(m->in, "frame");
	m->value = tsvr_col(m->in, "value");
	if (m->ext >= 0)	/* Kineto: the host operator's type and shapes */
		s->has_parts |= 1u << OP_TYPE | 1u << OP_IN_SHAPES |
		    1u << OP_IN_DTYPES;
	s->rd = m;
}

void
diff_open(struct dside *s)
{
	s->ref = !is_stream(s->path);
	if (!s->ref) {
		strm_open(s);
		return;
	}
	s->rd = xcalloc(1, sizeof(struct ref));
	ref_read(s, NULL, 1);
}

static const char *
field(const struct tsvr *in, int col, size_t *len)
{
	if (col < 0) {
		*len = 0;
		return "";
	}
	return tsvr_field(in, (size_t)col, len);
}

/* Group one task of dev-less key into S. */
static void
add_task(struct dside *s, const struct ops_keyopts *ko,
    const struct ops_task *t, int64_t dur, char **buf, size_t *cap)
{
	size_t kl = ops_key_make(ko, t, buf, cap);
	struct ops_group *g;
	int isnew;

	g = ops_tab_get(&s->tab, "", 0, *buf, kl, &isnew);
	if (isnew) {
		g->cat = ops_category(t, &g->nc);
		g->example = xstrndup(t->name, t->namel);
	}
	ops_group_add(&s->tab, g, dur);
	s->total += dur;
	s->calls++;
}

static void
strm_read(struct dside *s, const struct ops_keyopts *ko)
{
	struct strm *m = s->rd;
	struct ops_ext *x = m->ext >= 0 ? ops_ext_new() : NULL;
	const char *task = ko->key == OK_PIPE ? "pipe" : ko->key ==
	    OK_CYCLES ? "-" : "kernel", *k;
	char *buf = NULL;
	size_t cap = 0, kl, dl, el;
	struct ops_task t;
	int64_t ts, dur;
	int r, i;

	while ((r = tsvr_next(m->in)) == 1) {
		if (tsvr_times(m->in, &ts, &dur) < 0)
			break;
		k = tsvr_field(m->in, COL_KIND, &kl);
		if (s->dev != NULL && strcmp(tsvr_field(m->in, COL_DEV, &dl),
		    s->dev) != 0)
			continue;
		memset(&t, 0, sizeof(t));
		for (i = 0; i < OP_NPARTS; i++)
			t.f[i] = field(m->in, m->part[i], &t.fl[i]);
		t.name = tsvr_field(m->in, ko->key >= OK_PIPE ? COL_TRACK :
		    COL_NAME, &t.namel);
		if (x != NULL && strcmp(k, "host") == 0 && (strcmp(field(m->in,
		    m->cat, &dl), "cpu_op") == 0 || strcmp(field(m->in, m->cat,
		    &dl), "Operator") == 0)) {
			const char *e = field(m->in, m->ext, &el);

			t.frame = field(m->in, m->frame, &t.framel);
			if (el > 0)
				ops_ext_add(x, e, el, &t);
			continue;
		}
		if (x != NULL && strcmp(k, "host") == 0) {
			const char *e = field(m->in, m->ext, &el), *c;

			c = field(m->in, m->corr, &dl);
			ops_ext_link(x, c, dl, e, el, NULL);
			continue;
		}
		if (ko->key == OK_CYCLES && strcmp(k, "metric") == 0 &&
		    strcmp(tsvr_field(m->in, COL_NAME, &dl), "pipe_cycles")
		    == 0) {
			/* the simulator's cycles per pipe (instr_exe) */
			const char *v = field(m->in, m->value, &dl);

			t.name = tsvr_field(m->in, COL_TRACK, &t.namel);
			if (dtime_parse(v, dl, 0, &dur) != DTIME_OK)
				continue;
			ts = 0;
		} else if (strcmp(k, task) != 0 || ts == TSV_NO_TS || dur < 0)
			continue;
		t.core = field(m->in, m->core, &t.corel);
		t.cat = field(m->in, m->cat, &t.catl);
		t.frame = field(m->in, m->frame, &t.framel);
		if (ko->key == OK_SOURCE && m->ext >= 0) {
			const char *e = field(m->in, m->ext, &el);

			ops_ext_xla(e, el, &t);	/* as prof-ops keys */
		}
		if (x != NULL) {
			const char *e = field(m->in, m->ext, &el), *c;

			c = field(m->in, m->corr, &dl);
			ops_ext_fill(x, e, el, c, dl, &t);
		}
		add_task(s, ko, &t, dur, &buf, &cap);
	}
	s->failed = r < 0 || tsvr_failed(m->in);
	tsvr_close(m->in);
	ops_ext_free(x);
	free(buf);
	free(m);
}

/* One row of a reference table: FIELDS (N of them) at line LINE. */
static void
ref_row(struct dside *s, const struct ops_keyopts *ko, struct ref *r,
    char **f, size_t n, unsigned long line, char **buf, size_t *cap)
{
	struct ops_task t;
	int64_t dur;
	enum dtime_err e;
	int i;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < OP_NPARTS; i++)
		if (r->part[i] >= 0 && (size_t)r->part[i] < n) {
			t.f[i] = f[r->part[i]];
			t.fl[i] = strlen(t.f[i]);
		}
	if (r->name >= 0 && (size_t)r->name < n) {
		t.name = f[r->name];
		t.namel = strlen(t.name);
	} else {
		t.name = t.f[OP_TYPE] != NULL ? t.f[OP_TYPE] : "";
		t.namel = strlen(t.name);
	}
	for (i = 0; i < OP_NPARTS; i++)
		if (t.f[i] == NULL)
			t.f[i] = "";
	t.core = t.cat = "";
	if ((size_t)r->dur >= n || (e = dtime_parse(f[r->dur],
	    strlen(f[r->dur]), r->scale, &dur)) != DTIME_OK || dur < 0)
		diag_at_fatal(EXIT_BAD, diag_path(s->path), line,
		    "column '%s': invalid duration '%s'", r->orig[r->dur],
		    (size_t)r->dur < n ? f[r->dur] : "");
	add_task(s, ko, &t, dur, buf, cap);
}

/* Split LINE at TABs into *F (grown); the count. */
static size_t
split_tab(char *line, char ***f, size_t *cap)
{
	size_t n = 0;
	char *p = line, *t;

	for (;;) {
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 16;
			*f = xreallocarray(*f, *cap, sizeof(**f));
		}
		(*f)[n++] = p;
		if ((t = strchr(p, '\t')) == NULL)
			break;
		*t = '\0';
		p = t + 1;
	}
	return n;
}

/* A TSV reference table: plain lines, no quoting. */
static void
ref_tsv(struct dside *s, const struct ops_keyopts *ko, struct input *in,
    int header_only)
{
	struct ref *r = s->rd;
	char *data = NULL, *line, *nl, **f = NULL, *buf = NULL;
	size_t len = 0, cap = 0, fcap = 0, n, kcap = 0;
	unsigned long ln = 0;
	ssize_t got;

	for (;;) {
		if (len + 65536 + 1 > cap)
			data = xrealloc(data, cap = 2 * cap + 65536 + 1);
		if ((got = input_read(in, data + len, 65536)) <= 0)
			break;
		len += (size_t)got;
	}
	if (got < 0)
		exit(EXIT_BAD);
	data[len] = '\0';
	for (line = data; *line != '\0'; line = nl) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		else
			nl = line + strlen(line);
		ln++;
		if (nl - line > 1 && nl[-2] == '\r')
			nl[-2] = '\0';
		if (*line == '\0')
			continue;
		n = split_tab(line, &f, &fcap);
		if (r->cols == NULL) {
			char **h = xcalloc(n, sizeof(*h));
			size_t i;

			for (i = 0; i < n; i++)
				h[i] = xstrdup(f[i]);
			ref_header(s, r, h, n);
			if (header_only)
				break;
			continue;
		}
		ref_row(s, ko, r, f, n, ln, &buf, &kcap);
	}
	free(data);
	free(f);
	free(buf);
}

/* A CSV reference table through csvin (quotes, BOM, CRLF). */
static void
ref_csv(struct dside *s, const struct ops_keyopts *ko, struct input *in,
    int header_only)
{
	struct ref *r = s->rd;
	struct csvin *c = csvin_open(in, diag_path(s->path), 0);
	char **h, **f, *buf = NULL;
	size_t i, n, kcap = 0;
	int got = 0;

	if (c == NULL)
		exit(EXIT_BAD);
	n = csvin_ncols(c);
	h = xcalloc(n, sizeof(*h));
	for (i = 0; i < n; i++)
		h[i] = xstrdup(csvin_colname(c, i));
	ref_header(s, r, h, n);
	f = xcalloc(n, sizeof(*f));
	while (!header_only && (got = csvin_next(c)) == 1) {
		for (i = 0; i < n; i++)
			f[i] = (char *)csvin_field(c, (int)i, NULL);
		ref_row(s, ko, r, f, n, csvin_line(c), &buf, &kcap);
	}
	if (got < 0)
		exit(EXIT_BAD);
	csvin_close(c);
	free(f);
	free(buf);
}

/* Forget a header read before (the table is read twice). */
static void
ref_reset(struct ref *r)
{
	size_t i;

	for (i = 0; i < r->ncols; i++) {
		free(r->cols[i]);
		free(r->orig[i]);
	}
	free(r->cols);
	free(r->orig);
	r->cols = r->orig = NULL;
	r->ncols = 0;
}

/*
 * Read a reference table: its header only (HEADER_ONLY: the parts it
 * has decide the key of both sides), or all of it.
 */
static void
ref_read(struct dside *s, const struct ops_keyopts *ko, int header_only)
{
	struct input *in;
	const char *name;
	const void *p;
	ssize_t n;
	int tab;

	if ((in = input_open(s->path)) == NULL || input_next(in, &name) != 1)
		exit(EXIT_BAD);
	n = input_peek(in, &p, 4096);
	tab = n > 0 && memchr(p, '\t', (size_t)n) != NULL &&
	    (memchr(p, '\n', (size_t)n) == NULL || memchr(p, '\t', (size_t)
	    ((const char *)memchr(p, '\n', (size_t)n) - (const char *)p)));
	ref_reset(s->rd);
	if (tab)
		ref_tsv(s, ko, in, header_only);
	else
		ref_csv(s, ko, in, header_only);
	input_close(in);
}

void
diff_read(struct dside *s, const struct ops_keyopts *ko)
{
	if (s->ref) {
		ref_read(s, ko, 0);
		ref_reset(s->rd);
		free(s->rd);
	} else
		strm_read(s, ko);
}
