/*
 * Keys and categories of device tasks, for prof-ops and prof-diff.
 *
 * A key is made only from what the record says (name, type, the shape,
 * dtype and format columns, the core), so that two runs of the same
 * program, or a run and a table of reference durations, key the same op
 * the same way.  The category rules match names and op types by
 * case-insensitive substrings; prof-ops(1) lists them.
 */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "kclass.h"
#include "ops.h"
#include "xalloc.h"

const char *const ops_part_names[OP_NPARTS] = {
	"type", "in_shapes", "in_dtypes", "in_formats", "out_shapes",
	"out_dtypes", "out_formats"
};
const char *const ops_cat_names[OC_NCATS] = {
	"compute", "data_movement", "communication", "other"
};
const char *const ops_nc_names[NC_N] = {
	"", "copy", "cast", "transpose", "pad", "layout", "fill"
};

static const char *const key_names[] = {
	"name", "type", "sig", "scope", "category", "pipe", "cycles"
};

int
ops_key_parse(const char *s, enum ops_key *k)
{
	size_t i;

	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (strcmp(s, key_names[i]) == 0) {
			*k = (enum ops_key)i;
			return 0;
		}
	return -1;
}

const char *
ops_key_name(enum ops_key k)
{
	return key_names[k];
}

/* A comma-separated list of part names into a bit set. */
int
ops_parts_parse(const char *s, unsigned *bits)
{
	const char *e;
	size_t n, i;

	*bits = 0;
	for (; *s != '\0'; s = *e == ',' ? e + 1 : e) {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		n = (size_t)(e - s);
		for (i = 0; i < OP_NPARTS; i++)
			if (strlen(ops_part_names[i]) == n &&
			    memcmp(s, ops_part_names[i], n) == 0)
				break;
		if (i == OP_NPARTS)
			return -1;
		*bits |= 1u << i;
	}
	return *bits == 0 ? -1 : 0;
}

/* Whether S (LEN bytes) holds PAT (lower case) in any case. */
static int
has(const char *s, size_t len, const char *pat)
{
	size_t n = strlen(pat), i, j;

	for (i = 0; i + n <= len; i++) {
		for (j = 0; j < n; j++)
			if (tolower((unsigned char)s[i + j]) != pat[j])
				break;
		if (j == n)
			return 1;
	}
	return 0;
}

/*
 * "cast" but not "broadcast" (a BroadcastTo expands, it does not
 * convert), and not "npu_format_cast", which the layout rule takes.
 */
static int
has_cast(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i + 4 <= len; i++)
		if (tolower((unsigned char)s[i]) == 'c' &&
		    has(s + i, 4, "cast") &&
		    !(i >= 5 && has(s + i - 5, 5, "broad")))
			return 1;
	return 0;
}

/*
 * The non-compute class of a name or type: the first rule that
 * matches, layout before cast and copy (TransData, npu_format_cast),
 * transpose before copy (a transpose kernel that copies).
 */
static enum ops_nc
nc_class(const char *s, size_t n)
{
	if (has(s, n, "transdata") || has(s, n, "nchwtonhwc") ||
	    has(s, n, "nhwctonchw") || has(s, n, "format") ||
	    has(s, n, "layout"))
		return NC_LAYOUT;
	if (has(s, n, "transpose") || has(s, n, "permute"))
		return NC_TRANSPOSE;
	if (has(s, n, "pad"))
		return NC_PAD;
	if (has_cast(s, n))
		return NC_CAST;
	if (has(s, n, "memcpy") || has(s, n, "copy") ||
	    has(s, n, "identity") || has(s, n, "tensormove") ||
	    has(s, n, "asstrided") || has(s, n, "contiguous"))
		return NC_COPY;
	if (has(s, n, "memset") || has(s, n, "fill") ||
	    has(s, n, "zeroslike"))
		return NC_FILL;
	return NC_NONE;
}

/* Runtime tasks that are neither compute nor data: events, notifies. */
static int
runtime_task(const char *s, size_t n)
{
	return has(s, n, "event_record") || has(s, n, "event_wait") ||
	    has(s, n, "notify") || has(s, n, "profiling_") ||
	    has(s, n, "barrier");
}

/*
 * The category of T: communication by kclass (one home with the other
 * stages), then runtime tasks, then the non-compute classes (type
 * first, the name where the type says nothing), then Kineto's memcpy
 * and memset categories; the rest is compute.
 */
enum ops_cat
ops_category(const struct ops_task *t, enum ops_nc *nc)
{
	*nc = NC_NONE;
	if (kclass_comm_name(t->name, t->namel) ||
	    kclass_comm_core(t->core, t->corel))
		return OC_COMM;
	if (runtime_task(t->name, t->namel) ||
	    runtime_task(t->f[OP_TYPE], t->fl[OP_TYPE]))
		return OC_OTHER;
	if (t->fl[OP_TYPE] > 0)
		*nc = nc_class(t->f[OP_TYPE], t->fl[OP_TYPE]);
	if (*nc == NC_NONE)
		*nc = nc_class(t->name, t->namel);
	if (*nc == NC_NONE && has(t->cat, t->catl, "memcpy"))
		*nc = NC_COPY;
	if (*nc == NC_NONE && has(t->cat, t->catl, "memset"))
		*nc = NC_FILL;
	if (*nc != NC_NONE)
		return OC_DATA;
	if (t->namel == 0)
		return OC_OTHER;
	return OC_COMPUTE;
}

/* Append LEN bytes at S to *BUF at *AT. */
static void
put(char **buf, size_t *cap, size_t *at, const char *s, size_t len)
{
	if (*at + len + 1 > *cap) {
		*cap = 2 * (*at + len + 1) + 64;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *at, s, len);
	*at += len;
	(*buf)[*at] = '\0';
}

/*
 * The scope of a '/' path name: the part before the op's own name.
 * DEPTH 0 keeps the innermost scope only (the leaf part, so that an op
 * counts once, under the scope that holds it directly); DEPTH N the
 * first N parts (outer scopes, each op still under one).
 */
static void
scope_of(const char *s, size_t n, int depth, const char **out, size_t *len)
{
	size_t last = n, i, start = 0;
	int parts = 0;

	while (last > 0 && s[last - 1] != '/')
		last--;
	if (last == 0) {
		*out = NULL;
		return;
	}
	last--;			/* the scope is s[0 .. last) */
	if (depth == 0) {
		for (i = last; i > 0 && s[i - 1] != '/'; i--)
			;
		*out = s + i;
		*len = last - i;
		return;
	}
	for (i = 0; i < last; i++)
		if (s[i] == '/' && ++parts == depth)
			break;
	*out = s + start;
	*len = i;
}

/* The type of T: its type column, else (no type known) its name. */
static void
type_of(const struct ops_task *t, const char **s, size_t *n)
{
	*s = t->fl[OP_TYPE] > 0 ? t->f[OP_TYPE] : t->name;
	*n = t->fl[OP_TYPE] > 0 ? t->fl[OP_TYPE] : t->namel;
}

size_t
ops_key_make(const struct ops_keyopts *o, const struct ops_task *t,
    char **buf, size_t *cap)
{
	size_t at = 0, n;
	const char *s;
	enum ops_nc nc;
	enum ops_cat c;
	int i, first = 1;

	put(buf, cap, &at, "", 0);
	switch (o->key) {
	case OK_NAME:
	case OK_PIPE:
	case OK_CYCLES:
		put(buf, cap, &at, t->name, t->namel);
		break;
	case OK_TYPE:
		type_of(t, &s, &n);
		put(buf, cap, &at, s, n);
		break;
	case OK_SIG:
		for (i = 0; i < OP_NPARTS; i++) {
			if (!(o->parts & (1u << i)))
				continue;
			if (!first)
				put(buf, cap, &at, "|", 1);
			first = 0;
			if (i == OP_TYPE)
				type_of(t, &s, &n);
			else {
				s = t->f[i];
				n = t->fl[i];
			}
			put(buf, cap, &at, n > 0 ? s : "-", n > 0 ? n : 1);
		}
		break;
	case OK_SCOPE:
		scope_of(t->name, t->namel, o->depth, &s, &n);
		if (s == NULL)
			put(buf, cap, &at, "(no scope)", 10);
		else
			put(buf, cap, &at, s, n);
		break;
	case OK_CATEGORY:
		c = ops_category(t, &nc);
		s = ops_cat_names[c];
		put(buf, cap, &at, s, strlen(s));
		if (t->corel > 0 || t->catl > 0) {
			put(buf, cap, &at, "/", 1);
			put(buf, cap, &at, t->corel > 0 ? t->core : t->cat,
			    t->corel > 0 ? t->corel : t->catl);
		}
		break;
	}
	return at;
}

/* ---- the host operators of Kineto kernels ---- */

#define EXT_SLOTS	(2 * OPS_EXT_KEEP)

struct ext_slot {
	char		*ext, *name, *shapes, *dtypes;
	size_t		 extl, namel, shapesl, dtypesl;
};

struct ops_ext {
	struct ext_slot	*s;
};

struct ops_ext *
ops_ext_new(void)
{
	struct ops_ext *x = xmalloc(sizeof(*x));

	x->s = xcalloc(EXT_SLOTS, sizeof(*x->s));
	return x;
}

static void
keep(char **d, size_t *dl, const char *s, size_t n)
{
	free(*d);
	*d = xstrndup(s, n);
	*dl = n;
}

/*
 * Remember the host operator of EXT.  The table is direct-mapped: a
 * newer operator takes the slot of an older one, which bounds memory;
 * with twice as many slots as OPS_EXT_KEEP, the operator a kernel
 * needs, launched shortly before it, is almost always still there.
 */
void
ops_ext_add(struct ops_ext *x, const char *ext, size_t el, const char *name,
    size_t nl, const char *sh, size_t shl, const char *dt, size_t dtl)
{
	struct ext_slot *e = &x->s[hash_bytes(ext, el, 0) % EXT_SLOTS];

	keep(&e->ext, &e->extl, ext, el);
	keep(&e->name, &e->namel, name, nl);
	keep(&e->shapes, &e->shapesl, sh, shl);
	keep(&e->dtypes, &e->dtypesl, dt, dtl);
}

void
ops_ext_fill(struct ops_ext *x, const char *ext, size_t el,
    struct ops_task *t)
{
	struct ext_slot *e = &x->s[hash_bytes(ext, el, 0) % EXT_SLOTS];

	if (el == 0 || e->ext == NULL || e->extl != el ||
	    memcmp(e->ext, ext, el) != 0)
		return;
	if (t->fl[OP_TYPE] == 0) {
		t->f[OP_TYPE] = e->name;
		t->fl[OP_TYPE] = e->namel;
	}
	if (t->fl[OP_IN_SHAPES] == 0) {
		t->f[OP_IN_SHAPES] = e->shapes;
		t->fl[OP_IN_SHAPES] = e->shapesl;
	}
	if (t->fl[OP_IN_DTYPES] == 0) {
		t->f[OP_IN_DTYPES] = e->dtypes;
		t->fl[OP_IN_DTYPES] = e->dtypesl;
	}
}

void
ops_ext_free(struct ops_ext *x)
{
	size_t i;

	if (x == NULL)
		return;
	for (i = 0; i < EXT_SLOTS; i++) {
		free(x->s[i].ext);
		free(x->s[i].name);
		free(x->s[i].shapes);
		free(x->s[i].dtypes);
	}
	free(x->s);
	free(x);
}
