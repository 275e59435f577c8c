/*
 * The tables of one XPlane: stat names by id, ops (event metadata) by
 * id, and modules by program id.  Names and values point into the mapped
 * file, so a table entry is a few words however long the HLO text; what
 * an op's stats and HLO text say is decoded the first time one of its
 * events is read, so memory is bounded by the distinct ops of one plane.
 */
#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest-xplane.h"
#include "utf8.h"
#include "xalloc.h"

static const char *const statnames[XS_N] = {
	"", "hlo_category", "flops", "model_flops", "bytes_accessed",
	"source", "source_stack", "tf_op", "shape_with_layout", "hlo_op",
	"hlo_module", "program_id", "correlation_id", "step_num", "group_id",
	"device_type_string", "profile_start_time", "memcpy_details", "name",
	"memory_size", "device_vendor", "peak_teraflops_per_second",
	"peak_hbm_bw_gigabytes_per_second", "device_ordinal"
};

/* A wire error inside table data: remembered for the diagnostic. */
static int
bad(struct xplane_tabs *t, const struct pbuf *b, const char *what)
{
	t->err_buf = *b;
	t->err_what = what;
	return -1;
}

/* A field with the wrong wire type for its schema. */
static int
badwt(struct xplane_tabs *t, const struct pbuf *b, const struct pbuf_field *f,
    const char *what)
{
	t->err_buf = *b;
	t->err_buf.err = PBE_OK;
	t->err_buf.errat = f->at;
	t->err_what = what;
	return -1;
}


void
xtab_clear(struct xplane_tabs *t)
{
	size_t i;

	for (i = 0; i < t->nops; i++) {
		free(t->ops[i].in_shapes);
		free(t->ops[i].in_dtypes);
		free(t->ops[i].out_shapes);
		free(t->ops[i].out_dtypes);
		free(t->ops[i].layout);
		free(t->ops[i].in_layout);
		free(t->ops[i].changes);
		free(t->ops[i].opcode);
		free(t->ops[i].ext);
		free(t->ops[i].cname_own);
		free(t->ops[i].ccat_own);
		free(t->ops[i].csrc_own);
		free(t->hot[i].rc_pre);
		free(t->hot[i].rc_post);
		free((char *)(uintptr_t)t->hot[i].ref_pre);
		free((char *)(uintptr_t)t->hot[i].ref_post);
	}
	t->nops = 0;
	if (t->ecap > 0)
		memset(t->eix, 0, t->ecap * sizeof(*t->eix));
	if (t->scap > 0)
		memset(t->sname, 0, t->scap * sizeof(*t->sname));
	if (t->pcap > 0)
		memset(t->pname, 0, t->pcap * sizeof(*t->pname));
	t->sn = t->pn = 0;
}

void
xtab_free(struct xplane_tabs *t)
{
	xtab_clear(t);
	free(t->sid);
	free(t->sname);
	free(t->snamel);
	free(t->scode);
	free(t->ops);
	free(t->hot);
	free(t->eid);
	free(t->eix);
	free(t->pid);
	free(t->pname);
	free(t->pnamel);
	memset(t, 0, sizeof(*t));
}

/* Grow an open-addressing table to keep it at most half full. */
static void
stat_grow(struct xplane_tabs *t)
{
	struct xplane_tabs o = *t;
	size_t i, j;

	t->scap = o.scap ? 2 * o.scap : 64;
	t->sid = xcalloc(t->scap, sizeof(*t->sid));
	t->sname = xcalloc(t->scap, sizeof(*t->sname));
	t->snamel = xcalloc(t->scap, sizeof(*t->snamel));
	t->scode = xcalloc(t->scap, sizeof(*t->scode));
	for (i = 0; i < o.scap; i++) {
		if (o.sname[i] == NULL)
			continue;
		for (j = xtab_slot((uint64_t)o.sid[i], t->scap);
		    t->sname[j] != NULL;
		    j = (j + 1) & (t->scap - 1))
			;
		t->sid[j] = o.sid[i];
		t->sname[j] = o.sname[i];
		t->snamel[j] = o.snamel[i];
		t->scode[j] = o.scode[i];
	}
	free(o.sid);
	free(o.sname);
	free(o.snamel);
	free(o.scode);
}


/* A stat_metadata map entry: {1: key, 2: XStatMetadata {1 id, 2 name}}. */
int
xtab_stat_entry(struct xplane_tabs *t, const struct pbuf *pb,
    const struct pbuf_field *ef)
{
	struct pbuf e, m;
	struct pbuf_field f, g;
	int64_t key = 0;
	const char *name = "";
	size_t namel = 0, j;
	int r, c;

	pbuf_sub(&e, pb, ef);
	while ((r = pbuf_next(&e, &f)) > 0) {
		if (f.num == 1 && f.wt == PB_VARINT)
			key = pbuf_i64(f.u);
		else if (f.num == 2 && f.wt == PB_LEN) {
			pbuf_sub(&m, &e, &f);
			while ((r = pbuf_next(&m, &g)) > 0)
				if (g.num == 2 && g.wt == PB_LEN) {
					name = (const char *)g.data;
					namel = g.len;
				} else if (g.num == 2)
					return badwt(t, &m, &g,
					    "XStatMetadata.name");
			if (r < 0)
				return bad(t, &m, "XStatMetadata");
		} else if (f.num <= 2)
			return badwt(t, &e, &f, "stat_metadata entry");
	}
	if (r < 0)
		return bad(t, &e, "stat_metadata entry");
	if (2 * (t->sn + 1) > t->scap)
		stat_grow(t);
	if ((j = xtab_stat_find(t, key)) == SIZE_MAX) {
		for (j = xtab_slot((uint64_t)key, t->scap); t->sname[j] != NULL;
		    j = (j + 1) & (t->scap - 1))
			;
		t->sn++;
	}
	t->sid[j] = key;
	t->sname[j] = name;
	t->snamel[j] = namel;
	t->scode[j] = XS_OTHER;
	for (c = 1; c < XS_N; c++)
		if (strlen(statnames[c]) == namel &&
		    memcmp(statnames[c], name, namel) == 0)
			t->scode[j] = (unsigned char)c;
	return 0;
}

/* Index the ops in a table twice their number (ids are sparse). */
static void
op_grow(struct xplane_tabs *t)
{
	size_t i, j;

	free(t->eid);
	free(t->eix);
	t->ecap = t->ecap ? 2 * t->ecap : 256;
	t->eid = xcalloc(t->ecap, sizeof(*t->eid));
	t->eix = xcalloc(t->ecap, sizeof(*t->eix));
	for (i = 0; i < t->nops; i++) {
		for (j = xtab_slot((uint64_t)t->ops[i].id, t->ecap);
		    t->eix[j] != 0; j = (j + 1) & (t->ecap - 1))
			;
		t->eid[j] = t->ops[i].id;
		t->eix[j] = (uint32_t)i + 1;
	}
}

struct xop *
xtab_op(struct xplane_tabs *t, int64_t id)
{
	size_t i = xtab_find(t, id);

	return i > 0 ? &t->ops[i - 1] : NULL;
}

/* "jit_f(123)": the module of program 123 is jit_f (XLA Modules line). */
static void
note_module(struct xplane_tabs *t, const char *s, size_t n)
{
	size_t d = n, i, j;
	uint64_t id = 0;

	if (n < 4 || s[n - 1] != ')')
		return;
	for (d = n - 1; d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9'; d--)
		;
	if (d == 0 || d == n - 1 || s[d - 1] != '(' || n - 1 - d > 20 ||
	    d < 2)
		return;
	for (i = d; i < n - 1; i++)
		id = id * 10 + (uint64_t)(s[i] - '0');
	if (2 * (t->pn + 1) > t->pcap) {
		struct xplane_tabs o = *t;

		t->pcap = o.pcap ? 2 * o.pcap : 64;
		t->pid = xcalloc(t->pcap, sizeof(*t->pid));
		t->pname = xcalloc(t->pcap, sizeof(*t->pname));
		t->pnamel = xcalloc(t->pcap, sizeof(*t->pnamel));
		t->pn = 0;
		for (i = 0; i < o.pcap; i++)
			if (o.pname[i] != NULL) {
				for (j = xtab_slot(o.pid[i], t->pcap);
				    t->pname[j] != NULL;
				    j = (j + 1) & (t->pcap - 1))
					;
				t->pid[j] = o.pid[i];
				t->pname[j] = o.pname[i];
				t->pnamel[j] = o.pnamel[i];
				t->pn++;
			}
		free(o.pid);
		free(o.pname);
		free(o.pnamel);
	}
	for (j = xtab_slot(id, t->pcap); t->pname[j] != NULL;
	    j = (j + 1) & (t->pcap - 1))
		if (t->pid[j] == id)
			return;
	t->pid[j] = id;
	t->pname[j] = s;
	t->pnamel[j] = d - 1;
	t->pn++;
}

const char *
xtab_module(const struct xplane_tabs *t, uint64_t id, size_t *n)
{
	size_t j;

	if (t->pcap == 0)
		return NULL;
	for (j = xtab_slot(id, t->pcap); t->pname[j] != NULL;
	    j = (j + 1) & (t->pcap - 1))
		if (t->pid[j] == id) {
			*n = t->pnamel[j];
			return t->pname[j];
		}
	return NULL;
}

/* An event_metadata map entry: {1: key, 2: XEventMetadata}. */
int
xtab_event_entry(struct xplane_tabs *t, const struct pbuf *pb,
    const struct pbuf_field *ef)
{
	struct pbuf e, m;
	struct pbuf_field f, g;
	struct xop op;
	int64_t key = 0;
	size_t j;
	int r;

	memset(&op, 0, sizeof(op));
	op.name = op.disp = "";
	pbuf_sub(&e, pb, ef);
	while ((r = pbuf_next(&e, &f)) > 0) {
		if (f.num == 1 && f.wt == PB_VARINT)
			key = pbuf_i64(f.u);
		else if (f.num == 2 && f.wt == PB_LEN) {
			op.msg = f.data;
			op.msglen = f.len;
			pbuf_sub(&m, &e, &f);
			while ((r = pbuf_next(&m, &g)) > 0) {
				if ((g.num == 2 || g.num == 4) &&
				    g.wt != PB_LEN)
					return badwt(t, &m, &g,
					    "XEventMetadata name");
				if (g.num == 2) {
					op.name = (const char *)g.data;
					op.namel = g.len;
				} else if (g.num == 4) {
					op.disp = (const char *)g.data;
					op.displ = g.len;
				}
			}
			if (r < 0)
				return bad(t, &m, "XEventMetadata");
		} else if (f.num <= 2)
			return badwt(t, &e, &f, "event_metadata entry");
	}
	if (r < 0)
		return bad(t, &e, "event_metadata entry");
	if (op.msg == NULL)
		op.msg = (const unsigned char *)"";
	note_module(t, op.name, op.namel);
	if (xtab_op(t, key) != NULL)
		return 0;	/* the first entry of a key wins */
	if (t->nops == UINT32_MAX - 1)
		return 0;	/* never: a plane of 4e9 ops */
	if (t->nops == t->opscap) {
		t->opscap = t->opscap ? 2 * t->opscap : 256;
		t->ops = xreallocarray(t->ops, t->opscap, sizeof(*t->ops));
		t->hot = xreallocarray(t->hot, t->opscap, sizeof(*t->hot));
	}
	op.id = key;
	memset(&t->hot[t->nops], 0, sizeof(*t->hot));
	t->ops[t->nops++] = op;
	if (2 * (t->nops + 1) > t->ecap)
		op_grow(t);
	else {
		for (j = xtab_slot((uint64_t)key, t->ecap); t->eix[j] != 0;
		    j = (j + 1) & (t->ecap - 1))
			;
		t->eid[j] = key;
		t->eix[j] = (uint32_t)t->nops;
	}
	return 0;
}

/*
 * One XStat {1 metadata_id, 2 double, 3 uint64, 4 int64, 5 str, 6 bytes,
 * 7 ref}: its value goes to VALS under its code (*CODE).
 */
int
xtab_stat(struct xplane_tabs *t, struct pbuf *s, struct xvals *vals,
    int *code)
{
	struct pbuf_field f;
	struct xval v;
	int64_t id = 0;
	size_t j;
	int r;

	memset(&v, 0, sizeof(v));
	while ((r = pbuf_next(s, &f)) > 0) {
		static const int want[8] = { -1, PB_VARINT, PB_I64, PB_VARINT,
		    PB_VARINT, PB_LEN, PB_LEN, PB_VARINT };

		if (f.num <= 7 && f.wt != want[f.num])
			return badwt(t, s, &f, "XStat");
		switch (f.num) {
		case 1:
			id = pbuf_i64(f.u);
			break;
		case 2:
			v.k = XV_DBL;
			v.x.d = pbuf_double(f.u);
			break;
		case 3:
			v.k = XV_UINT;
			v.x.u = f.u;
			break;
		case 4:
			v.k = XV_INT;
			v.x.i = pbuf_i64(f.u);
			break;
		case 5:
		case 6:
			v.k = f.num == 5 ? XV_STR : XV_BYTES;
			v.s = (const char *)f.data;
			v.n = f.len;
			break;
		case 7:
			v.k = XV_STR;
			j = xtab_stat_find(t, pbuf_i64(f.u));
			v.s = j == SIZE_MAX ? "" : t->sname[j];
			v.n = j == SIZE_MAX ? 0 : t->snamel[j];
			break;
		}
	}
	if (r < 0)
		return bad(t, s, "XStat");
	j = xtab_stat_find(t, id);
	*code = j == SIZE_MAX ? XS_OTHER : t->scode[j];
	if (*code != XS_OTHER && v.k != XV_NONE) {
		vals->v[*code] = v;
		vals->mask |= 1U << *code;
	}
	return 0;
}

/* ---- HLO text ---- */

/* The end of the bracketed group that starts at S[I]; N when open. */
static size_t
close_of(const char *s, size_t i, size_t n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (s[i] == '(' || s[i] == '[' || s[i] == '{')
			depth++;
		else if ((s[i] == ')' || s[i] == ']' || s[i] == '}') &&
		    --depth == 0)
			return i;
	}
	return n;
}

struct sbuf {
	char	*b;
	size_t	 n, cap;
};

static void
sb_put(struct sbuf *b, const char *s, size_t n)
{
	if (n > SIZE_MAX / 4)
		return;		/* never: HLO text is in memory */
	if (b->n + n + 1 > b->cap) {
		b->cap = 2 * (b->n + n + 1) + 32;
		b->b = xrealloc(b->b, b->cap);
	}
	memcpy(b->b + b->n, s, n);
	b->n += n;
	b->b[b->n] = '\0';
}

/* The length of the first ';'-separated entry. */
static size_t
first_len(const struct sbuf *b)
{
	return b->b != NULL ? strcspn(b->b, ";") : 0;
}

/* Keep the first ';'-separated entry only. */
static void
first_only(struct sbuf *b)
{
	size_t n = first_len(b);

	if (b->b != NULL && n < b->n) {
		b->n = n;
		b->b[n] = '\0';
	}
}

static int
ends_with(const char *s, const char *w)
{
	size_t n = strlen(s), m = strlen(w);

	return n >= m && strcmp(s + n - m, w) == 0;
}

static char *
sb_take(struct sbuf *b)
{
	char *r = b->n > 0 ? b->b : NULL;

	if (r == NULL)
		free(b->b);
	memset(b, 0, sizeof(*b));
	return r;
}

/*
 * One array type "f32[5,1024]{1,0:T(8,128)}" (or a tuple of them) at
 * S[0..N): its dtypes, dims and layouts appended, ';' between entries.
 * Returns the bytes the type took.
 */
static size_t
hlo_type(const char *s, size_t n, struct sbuf *dt, struct sbuf *dims,
    struct sbuf *lay)
{
	size_t i = 0, e, k;

	if (n > 0 && s[0] == '(') {
		e = close_of(s, 0, n);
		for (i = 1; i < e; ) {
			while (i < e && (s[i] == ' ' || s[i] == ','))
				i++;
			if (i < e)
				i += hlo_type(s + i, e - i, dt, dims, lay);
			if (i < e && s[i] != ',' && s[i] != ' ')
				i++;	/* not a type: step over it */
		}
		return e < n ? e + 1 : n;
	}
	for (k = 0; k < n && ((s[k] >= 'a' && s[k] <= 'z') ||
	    (s[k] >= '0' && s[k] <= '9')); k++)
		;
	if (k == 0 || k == n || s[k] != '[')
		return k > 0 ? k : 1;
	if (dt->n > 0 || dims->n > 0 || lay->n > 0) {
		sb_put(dt, ";", 1);
		sb_put(dims, ";", 1);
		sb_put(lay, ";", 1);
	}
	sb_put(dt, s, k);
	e = close_of(s, k, n);
	sb_put(dims, s + k + 1, e > k + 1 ? e - k - 1 : 0);
	i = e < n ? e + 1 : n;
	if (i < n && s[i] == '{') {
		e = close_of(s, i, n);
		sb_put(lay, s + i + 1, e > i + 1 ? e - i - 1 : 0);
		i = e < n ? e + 1 : n;
	}
	return i;
}

/*
 * "%name = TYPE opcode(TYPE %a, TYPE %b), attrs": output and operand
 * types, and whether the op changes the dtype, the layout or the shape
 * of its first operand (what a copy, convert or transpose is for).
 */
static void
hlo_parse(struct xop *op)
{
	const char *s = op->name, *eq;
	size_t n = op->namel, i, e, k;
	struct sbuf odt = { 0 }, odim = { 0 }, olay = { 0 };
	struct sbuf idt = { 0 }, idim = { 0 }, ilay = { 0 }, ch = { 0 };

	if (n < 4 || s[0] != '%' || (eq = memchr(s, '=', n)) == NULL ||
	    eq + 2 >= s + n)
		return;
	i = (size_t)(eq - s) + 2;
	i += hlo_type(s + i, n - i, &odt, &odim, &olay);
	while (i < n && s[i] == ' ')
		i++;
	for (k = i; k < n && s[k] != '(' && s[k] != ' '; k++)
		;
	if (k > i) {
		struct sbuf oc = { 0 };

		sb_put(&oc, s + i, k - i);
		op->opcode = sb_take(&oc);
	}
	if (k < n && s[k] == '(') {
		e = close_of(s, k, n);
		for (i = k + 1; i < e; ) {
			while (i < e && (s[i] == ' ' || s[i] == ','))
				i++;
			if (i >= e)
				break;
			if (s[i] == '%' || (s[i] >= '0' && s[i] <= '9') ||
			    s[i] == '-') {
				/* an operand without a type, or a constant */
				while (i < e && s[i] != ',')
					i++;
				continue;
			}
			i += hlo_type(s + i, e - i, &idt, &idim, &ilay);
			while (i < e && s[i] != ',')
				i++;	/* the operand's %name */
		}
	}
	/*
	 * An async pair passes a tuple (destination, source, context) from
	 * its -start to its -done: the destination is what it makes.
	 */
	if (op->opcode != NULL && (ends_with(op->opcode, "-start") ||
	    ends_with(op->opcode, "-done"))) {
		first_only(&odt);
		first_only(&odim);
		first_only(&olay);
		first_only(&idt);
		first_only(&idim);
		first_only(&ilay);
	}
	/* Only an op of one operand changes it (not a fusion of many). */
	if (idt.n > 0 && strchr(idt.b, ';') == NULL && odt.n > 0) {
		size_t d0 = first_len(&idt), l0 = first_len(&ilay),
		    m0 = first_len(&idim);

		if (odt.n > 0 && strchr(odt.b, ';') == NULL &&
		    (odt.n != d0 || memcmp(odt.b, idt.b, d0) != 0))
			sb_put(&ch, "dtype", 5);
		if (olay.n > 0 && strchr(olay.b, ';') == NULL &&
		    (olay.n != l0 || (l0 > 0 && memcmp(olay.b, ilay.b, l0) !=
		    0))) {
			if (ch.n > 0)
				sb_put(&ch, ",", 1);
			sb_put(&ch, "layout", 6);
		}
		if (odim.b != NULL && strchr(odim.b, ';') == NULL &&
		    (odim.n != m0 || (m0 > 0 && memcmp(odim.b, idim.b, m0) !=
		    0))) {
			if (ch.n > 0)
				sb_put(&ch, ",", 1);
			sb_put(&ch, "shape", 5);
		}
		if (l0 > 0) {
			struct sbuf l = { 0 };

			sb_put(&l, ilay.b, l0);
			op->in_layout = sb_take(&l);
		}
	}
	op->out_dtypes = sb_take(&odt);
	op->out_shapes = sb_take(&odim);
	op->layout = sb_take(&olay);
	op->in_dtypes = sb_take(&idt);
	op->in_shapes = sb_take(&idim);
	free(ilay.b);
	op->changes = sb_take(&ch);
}

int
xop_decode(struct xplane_tabs *t, struct xop *op, struct pbuf *parent)
{
	struct pbuf m, s;
	struct pbuf_field f;
	int r, code;

	op->decoded = 1;
	pbuf_init(&m, op->msg, op->msglen, parent->base);
	while ((r = pbuf_next(&m, &f)) > 0) {
		if (f.num != 5)
			continue;
		if (f.wt != PB_LEN)
			return badwt(t, &m, &f, "XEventMetadata.stats");
		pbuf_sub(&s, &m, &f);
		if (xtab_stat(t, &s, &op->base, &code) < 0)
			return -1;
	}
	if (r < 0)
		return bad(t, &m, "XEventMetadata");
	hlo_parse(op);
	op->in_shapesl = op->in_shapes != NULL ? strlen(op->in_shapes) : 0;
	op->in_dtypesl = op->in_dtypes != NULL ? strlen(op->in_dtypes) : 0;
	op->out_shapesl = op->out_shapes != NULL ? strlen(op->out_shapes) : 0;
	op->out_dtypesl = op->out_dtypes != NULL ? strlen(op->out_dtypes) : 0;
	op->opcodel = op->opcode != NULL ? strlen(op->opcode) : 0;
	/* The name, its display name (the HLO op) when it has one. */
	op->cname = op->displ > 0 ? op->disp : op->name;
	op->cnamel = op->displ > 0 ? op->displ : op->namel;
	{
		char *buf = NULL;
		size_t cap = 0;

		if (xclean(op->cname, &op->cnamel, &buf, &cap) == buf)
			op->cname = op->cname_own = buf;
		else
			free(buf);
	}
	/* A loop, branch or call holds the ops that run inside it. */
	if (op->opcode != NULL && strcmp(op->opcode, "while") == 0)
		op->container = "xla_while";
	else if (op->opcode != NULL && strcmp(op->opcode, "conditional") == 0)
		op->container = "xla_conditional";
	else if (op->opcode != NULL && strcmp(op->opcode, "call") == 0)
		op->container = "xla_call";
	else if ((op->base.mask & 1U << XS_CATEGORY) &&
	    op->base.v[XS_CATEGORY].k == XV_STR &&
	    op->base.v[XS_CATEGORY].n == 5 &&
	    memcmp(op->base.v[XS_CATEGORY].s, "while", 5) == 0)
		op->container = "xla_while";
	return 0;
}

/* ---- ext ---- */

void
xext_add(struct xext *x, const char *key, const char *v, size_t n)
{
	size_t k = strlen(key), i;

	if (x->n + k + 3 * n + 3 > x->cap) {
		x->cap = 2 * (x->n + k + 3 * n + 3) + 64;
		x->b = xrealloc(x->b, x->cap);
	}
	if (x->n > 0)
		x->b[x->n++] = ';';
	memcpy(x->b + x->n, key, k);
	x->n += k;
	x->b[x->n++] = '=';
	for (i = 0; i < n; i++) {
		if (v[i] == ';' || v[i] == '%') {
			x->n += (size_t)snprintf(x->b + x->n, 4, "%%%02X",
			    (unsigned char)v[i]);
		} else
			x->b[x->n++] = v[i];
	}
}

void
xext_raw(struct xext *x, const char *s, size_t n)
{
	if (x->n + n + 2 > x->cap) {
		x->cap = 2 * (x->n + n + 2) + 64;
		x->b = xrealloc(x->b, x->cap);
	}
	if (x->n > 0)
		x->b[x->n++] = ';';
	memcpy(x->b + x->n, s, n);
	x->n += n;
}

void
xext_addi(struct xext *x, const char *key, int64_t v)
{
	char buf[24];

	xext_add(x, key, buf, (size_t)snprintf(buf, sizeof(buf), "%" PRId64,
	    v));
}

const char *
xclean(const char *s, size_t *n, char **buf, size_t *cap)
{
	size_t i, o;

	if (memchr(s, '\0', *n) == NULL && utf8_valid(s, *n))
		return s;
	if (3 * *n + 1 > *cap) {
		*cap = 3 * *n + 1;
		*buf = xrealloc(*buf, *cap);
	}
	o = utf8_sanitize(s, *n, *buf, NULL);
	for (i = 0; i < o; i++)
		if ((*buf)[i] == '\0')
			(*buf)[i] = '?';
	*n = o;
	return *buf;
}
