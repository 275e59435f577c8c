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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
	"", "copy", "cast", "transpose", "pad", "layout", "fill", "broadcast"
};

static const char *const key_names[] = {
	"name", "type", "sig", "scope", "category", "source", "pipe",
	"cycles"
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
 * convert) nor "nocast" (PyTorch's gpu_kernel_impl_nocast), and not
 * "npu_format_cast", which the layout rule takes.
 */
static int
has_cast(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i + 4 <= len; i++)
		if (tolower((unsigned char)s[i]) == 'c' &&
		    has(s + i, 4, "cast") &&
		    !(i >= 5 && has(s + i - 5, 5, "broad")) &&
		    !(i >= 2 && has(s + i - 2, 2, "no")))
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

/* Whether the LEN bytes at S are the text W. */
static int
is_word(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

/*
 * The next dtype entry of a list at *S (E its end): Kineto writes a JSON
 * array ('["float", "c10::Half", "Scalar"]'), torch_npu and the Ascend
 * tables ';' separated text.  Returns 0 at the end.
 */
static int
next_dtype(const char **s, const char *e, const char **w, size_t *n)
{
	const char *p = *s, *q;

	while (p < e && strchr(" \"[],;\r\n\t", *p) != NULL)
		p++;
	if (p == e)
		return 0;
	for (q = p; q < e && strchr("\",;\r\n]", *q) == NULL; q++)
		;
	*w = p;
	*n = (size_t)(q - p);
	while (*n > 0 && p[*n - 1] == ' ')
		(*n)--;
	*s = q;
	return 1;
}

/* Whether a dtype entry names a tensor's type, not another argument. */
static int
tensor_dtype(const char *w, size_t n)
{
	return n > 0 && !is_word(w, n, "Scalar") && !is_word(w, n, "None") &&
	    !is_word(w, n, "ScalarList") && !is_word(w, n, "TensorList") &&
	    !is_word(w, n, "GenericList") && !is_word(w, n, "Device") &&
	    !is_word(w, n, "String") && !is_word(w, n, "Layout") &&
	    !is_word(w, n, "MemoryFormat");
}

/*
 * Whether T's tensors hold two dtypes (1), one (0), or the trace does
 * not say (-1: fewer than two tensor dtypes): a copy that converts
 * (PyTorch's direct_copy_kernel_cuda for an aten::copy_ from float into
 * bf16, whose inputs are the destination and the source) is a cast.
 * The input dtypes and the output's are compared; other arguments are
 * not types.
 */
static int
converts(const struct ops_task *t)
{
	const char *first = NULL, *w, *s, *e;
	size_t fn = 0, n;
	int i, seen = 0;

	for (i = OP_IN_DTYPES; i <= OP_OUT_DTYPES; i += OP_OUT_DTYPES -
	    OP_IN_DTYPES) {
		s = t->f[i];
		e = s + t->fl[i];
		while (s != NULL && next_dtype(&s, e, &w, &n)) {
			if (!tensor_dtype(w, n))
				continue;
			seen++;
			if (first == NULL) {
				first = w;
				fn = n;
			} else if (fn != n || strncasecmp(first, w, n) != 0)
				return 1;
		}
	}
	return seen >= 2 ? 0 : -1;
}

static int	has_item(const char *, size_t, const char *);

/*
 * An XLA op (its HLO text read by prof-ingest): a convert, or an op
 * whose output has another dtype than its one operand, is a cast; a
 * copy that changes the layout (not only the memory space) a layout
 * change; a broadcast expands, it computes nothing.  The non-compute
 * categories of the TPU breakdown tools (data formatting, copy,
 * convert, pad, broadcast, transpose).  Returns 1 when *NC is set.
 */
static int
xla_class(const struct ops_task *t, enum ops_nc *nc)
{
	char ch[512];
	/* the category (TPU) or opcode (GPU), else the name */
	const char *k = t->fl[OP_TYPE] > 0 ? t->f[OP_TYPE] : t->name;
	size_t kl = t->fl[OP_TYPE] > 0 ? t->fl[OP_TYPE] : t->namel;

	if (has_item(t->changes, t->changesl, "dtype") &&
	    (*nc == NC_COPY || *nc == NC_LAYOUT || *nc == NC_CAST ||
	    has(k, kl, "convert"))) {
		*nc = NC_CAST;
		return 1;
	}
	/* a fusion (GPU: loop_convert_fusion) computes what it fuses */
	if (*nc == NC_NONE && has(k, kl, "fusion"))
		return 0;
	if (*nc == NC_NONE && has(k, kl, "convert")) {
		*nc = NC_CAST;
		return 1;
	}
	if (*nc == NC_NONE && has(k, kl, "broadcast")) {
		*nc = NC_BROADCAST;
		return 1;
	}
	if (*nc == NC_COPY && ops_change(t, ch, sizeof(ch)) > 0 &&
	    strstr(ch, "layout ") != NULL) {
		*nc = NC_LAYOUT;
		return 1;
	}
	return *nc != NC_NONE;
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
	int d;

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
	if (t->xla && xla_class(t, nc))
		return OC_DATA;
	/*
	 * A kernel that copies into another dtype is a cast, one that
	 * copies within a dtype a copy, whatever its name says
	 * (direct_copy_kernel_cuda's LoadWithCast, gpu_kernel_impl_nocast),
	 * when the dtypes tell; a memcpy never converts.
	 */
	if ((*nc == NC_COPY || (*nc == NC_CAST && has(t->name, t->namel,
	    "direct_copy"))) && !has(t->name, t->namel, "memcpy") &&
	    !has(t->cat, t->catl, "memcpy") && (d = converts(t)) >= 0)
		*nc = d ? NC_CAST : NC_COPY;
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
	case OK_SOURCE:
		/*
		 * As the TPU breakdown tools group ops: by the hash of
		 * the source stack (an XLA op's), else by source line,
		 * else by the op's scope path (an XLA op's tf_op), else
		 * by its category, so that what has no source line is
		 * still told apart (copies from the model's ops).
		 */
		if (t->stackl > 0) {
			/* one line, two call paths: two groups */
			if (t->framel > 0)
				put(buf, cap, &at, t->frame, t->framel);
			else
				put(buf, cap, &at, "(no source line)", 16);
			put(buf, cap, &at, OPS_STACK_SFX,
			    strlen(OPS_STACK_SFX));
			put(buf, cap, &at, t->stack, t->stackl);
			put(buf, cap, &at, "]", 1);
		} else if (t->framel > 0)
			put(buf, cap, &at, t->frame, t->framel);
		else if (t->scopel > 0) {
			put(buf, cap, &at, "(no source) scope ", 18);
			put(buf, cap, &at, t->scope, t->scopel);
		} else {
			c = ops_category(t, &nc);
			put(buf, cap, &at, "(no source) ", 12);
			s = ops_cat_names[c];
			put(buf, cap, &at, s, strlen(s));
			if (nc != NC_NONE) {
				put(buf, cap, &at, "/", 1);
				s = ops_nc_names[nc];
				put(buf, cap, &at, s, strlen(s));
			}
		}
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

size_t
ops_key_label(const struct ops_keyopts *o, const struct ops_task *t,
    size_t kl)
{
	size_t sfx = strlen(OPS_STACK_SFX) + t->stackl + 1;

	return o->key == OK_SOURCE && t->stackl > 0 && kl > sfx ? kl - sfx :
	    kl;
}

void
ops_ext_xla(const char *e, size_t el, struct ops_task *t)
{
	/*
	 * One pass over the ';' separated fields, each key's first field
	 * kept: an XLA op's ext runs to a few hundred bytes, read for
	 * every execution.
	 */
	static const char *const keys[] = {
		"scope=", "stack=", "module=", "changes=", "in_layout=",
		"layout="
	};
	const char *val[6] = { NULL };
	size_t len[6] = { 0 }, i, k, end;

	if (e == NULL || el == 0)
		return;
	for (i = 0; i < el; i = end + 1) {
		const char *f = e + i, *semi = memchr(f, ';', el - i);

		end = semi != NULL ? (size_t)(semi - e) : el;
		for (k = 0; k < 6; k++) {
			size_t kn = strlen(keys[k]);

			if (val[k] == NULL && end - i >= kn &&
			    memcmp(f, keys[k], kn) == 0) {
				val[k] = f + kn;
				len[k] = end - i - kn;
				break;
			}
		}
	}
	if (val[0] != NULL) {
		t->scope = val[0];
		t->scopel = len[0];
	}
	if (val[1] != NULL) {
		t->stack = val[1];
		t->stackl = len[1];
	}
	t->xla = val[2] != NULL;
	t->changes = val[3];
	t->changesl = len[3];
	t->in_layout = val[4];
	t->in_layoutl = len[4];
	t->layout = val[5];
	t->layoutl = len[5];
}

/* Whether the ','-separated list S (N bytes) has the word W. */
static int
has_item(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w), i = 0, k;

	while (s != NULL && i < n) {
		for (k = i; k < n && s[k] != ','; k++)
			;
		if (k - i == wl && memcmp(s + i, w, wl) == 0)
			return 1;
		i = k + 1;
	}
	return 0;
}

/*
 * A TPU layout "3,2,1,0:T(8,128)S(5)": the part before its memory space
 * ("S(n)", the last part; n 0, HBM, when none) and the space.
 */
static void
split_layout(const char *s, size_t n, size_t *body, const char **sp,
    size_t *spl)
{
	size_t i;

	*body = n;
	*sp = "S(0)";
	*spl = 4;
	for (i = 0; s != NULL && i + 1 < n; i++)
		if (s[i] == 'S' && s[i + 1] == '(' && (i == 0 || s[i - 1] ==
		    ')' || s[i - 1] == ':')) {
			*body = i;
			*sp = s + i;
			*spl = n - i;
			return;
		}
}

/* Append "WHAT A->B" to BUF at *AT (',' before all but the first). */
static void
put_change(char *buf, size_t cap, size_t *at, const char *what,
    const char *a, size_t al, const char *b, size_t bl)
{
	int n = snprintf(buf + *at, cap - *at, "%s%s %.*s->%.*s", *at ? "," :
	    "", what, (int)al, a, (int)bl, b);

	if (n > 0 && (size_t)n < cap - *at)
		*at += (size_t)n;
	else
		buf[*at] = '\0';	/* too long: left out */
}

size_t
ops_change(const struct ops_task *t, char *buf, size_t cap)
{
	const char *d0 = t->f[OP_IN_DTYPES], *isp, *osp;
	size_t at = 0, d0l = 0, ib, ob, ispl, ospl;

	if (cap == 0)
		return 0;
	buf[0] = '\0';
	if (t->changesl == 0)
		return 0;
	if (has_item(t->changes, t->changesl, "dtype") && d0 != NULL) {
		while (d0l < t->fl[OP_IN_DTYPES] && d0[d0l] != ';')
			d0l++;
		put_change(buf, cap, &at, "dtype", d0, d0l, t->f[OP_OUT_DTYPES],
		    t->fl[OP_OUT_DTYPES]);
	}
	if (!has_item(t->changes, t->changesl, "layout"))
		return at;
	split_layout(t->in_layout, t->in_layoutl, &ib, &isp, &ispl);
	split_layout(t->layout, t->layoutl, &ob, &osp, &ospl);
	if (ib != ob || (ib > 0 && memcmp(t->in_layout, t->layout, ib) != 0))
		put_change(buf, cap, &at, "layout", t->in_layout, ib,
		    t->layout, ob);
	if (ispl != ospl || memcmp(isp, osp, ispl) != 0)
		put_change(buf, cap, &at, "space", isp, ispl, osp, ospl);
	return at;
}

/* ---- the host operators of Kineto kernels ---- */

#define EXT_SLOTS	(2 * OPS_EXT_KEEP)

/* The fields kept of an operator, in the order of struct ext_slot. */
enum { X_KEY, X_NAME, X_SHAPES, X_DTYPES, X_FRAME, X_N };

struct ext_slot {
	char		*f[X_N];
	size_t		 l[X_N];
};

struct ops_ext {
	struct ext_slot	*s;
	char		*kb;		/* "#CORR" keys */
	size_t		 kcap;
};

struct ops_ext *
ops_ext_new(void)
{
	struct ops_ext *x = xcalloc(1, sizeof(*x));

	x->s = xcalloc(EXT_SLOTS, sizeof(*x->s));
	return x;
}

static void
keep(char **d, size_t *dl, const char *s, size_t n)
{
	free(*d);
	*d = xstrndup(s != NULL ? s : "", s != NULL ? n : 0);
	*dl = s != NULL ? n : 0;
}

static struct ext_slot *
slot_of(struct ops_ext *x, const char *k, size_t kl)
{
	return &x->s[hash_bytes(k, kl, 0) % EXT_SLOTS];
}

/* The slot that holds key K, or NULL. */
static struct ext_slot *
find(struct ops_ext *x, const char *k, size_t kl)
{
	struct ext_slot *e = slot_of(x, k, kl);

	if (kl == 0 || e->f[X_KEY] == NULL || e->l[X_KEY] != kl ||
	    memcmp(e->f[X_KEY], k, kl) != 0)
		return NULL;
	return e;
}

/* "#CORR": runtime calls keyed apart from External ids. */
static size_t
corr_key(struct ops_ext *x, const char *c, size_t cl)
{
	if (x->kcap < cl + 2) {
		x->kcap = 2 * (cl + 2);
		x->kb = xrealloc(x->kb, x->kcap);
	}
	x->kb[0] = '#';
	memcpy(x->kb + 1, c, cl);
	return cl + 1;
}

/*
 * Remember the host operator of EXT.  The table is direct-mapped: a
 * newer operator takes the slot of an older one, which bounds memory;
 * with twice as many slots as OPS_EXT_KEEP, the operator a kernel
 * needs, launched shortly before it, is almost always still there.
 */
void
ops_ext_add(struct ops_ext *x, const char *ext, size_t el,
    const struct ops_task *t)
{
	struct ext_slot *e = slot_of(x, ext, el);

	keep(&e->f[X_KEY], &e->l[X_KEY], ext, el);
	keep(&e->f[X_NAME], &e->l[X_NAME], t->name, t->namel);
	keep(&e->f[X_SHAPES], &e->l[X_SHAPES], t->f[OP_IN_SHAPES],
	    t->fl[OP_IN_SHAPES]);
	keep(&e->f[X_DTYPES], &e->l[X_DTYPES], t->f[OP_IN_DTYPES],
	    t->fl[OP_IN_DTYPES]);
	keep(&e->f[X_FRAME], &e->l[X_FRAME], t->frame, t->framel);
}

/*
 * Older Kineto traces give a kernel the correlation id of its runtime
 * call as External id; the call has the operator's.  Its operator is
 * copied under "#CORR"; a call with no operator's id (the oldest
 * traces) keeps T, the frame it was made in.
 */
void
ops_ext_link(struct ops_ext *x, const char *corr, size_t cl,
    const char *ext, size_t el, const struct ops_task *t)
{
	struct ext_slot *op = find(x, ext, el), *e;
	size_t kl, i;

	if (op == NULL && cl > 0 && t != NULL && t->framel > 0) {
		/* no operator: the frame the call was made in */
		kl = corr_key(x, corr, cl);
		ops_ext_add(x, x->kb, kl, t);
		return;
	}
	if (op == NULL || cl == 0)
		return;
	kl = corr_key(x, corr, cl);
	if ((e = slot_of(x, x->kb, kl)) == op)
		return;
	keep(&e->f[X_KEY], &e->l[X_KEY], x->kb, kl);
	for (i = X_NAME; i < X_N; i++)
		keep(&e->f[i], &e->l[i], op->f[i], op->l[i]);
}

static void
fill(const char **f, size_t *fl, const struct ext_slot *e, int i)
{
	if (*fl == 0) {
		*f = e->f[i];
		*fl = e->l[i];
	}
}

void
ops_ext_fill(struct ops_ext *x, const char *ext, size_t el, const char *corr,
    size_t cl, struct ops_task *t)
{
	struct ext_slot *e = NULL;
	/* an External id equal to the correlation id is the old link */
	int old = el == cl && memcmp(ext, corr, el) == 0;

	if (!old)
		e = find(x, ext, el);
	if (e == NULL && cl > 0)
		e = find(x, x->kb, corr_key(x, corr, cl));
	if (e == NULL && old)
		e = find(x, ext, el);
	if (e == NULL)
		return;
	fill(&t->f[OP_TYPE], &t->fl[OP_TYPE], e, X_NAME);
	fill(&t->f[OP_IN_SHAPES], &t->fl[OP_IN_SHAPES], e, X_SHAPES);
	fill(&t->f[OP_IN_DTYPES], &t->fl[OP_IN_DTYPES], e, X_DTYPES);
	fill(&t->frame, &t->framel, e, X_FRAME);
}

void
ops_ext_free(struct ops_ext *x)
{
	size_t i, k;

	if (x == NULL)
		return;
	for (i = 0; i < EXT_SLOTS; i++)
		for (k = 0; k < X_N; k++)
			free(x->s[i].f[k]);
	free(x->s);
	free(x->kb);
	free(x);
}
