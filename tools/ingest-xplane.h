/*
 * prof-ingest's XPlane reader (ingest-xplane.c: the file, its planes,
 * lines and events; ingest-xop.c: the per-plane tables of stat and
 * event metadata, what an op's stats say, its HLO text read for shapes,
 * and the ext keys).  The field numbers are those of xplane.proto
 * (openxla/xla xla/tsl/profiler/protobuf/xplane.proto).
 */
#ifndef PROF_INGEST_XPLANE_H
#define PROF_INGEST_XPLANE_H

#include <stddef.h>
#include <stdint.h>

#include "pbuf.h"

/* The stats the reader uses, by name (xplane_schema.cc's names). */
enum xstat {
	XS_OTHER, XS_CATEGORY, XS_FLOPS, XS_MODEL_FLOPS, XS_BYTES,
	XS_SOURCE, XS_STACK, XS_TF_OP, XS_SHAPE, XS_HLO_OP, XS_HLO_MODULE,
	XS_PROGRAM_ID, XS_CORR, XS_STEP_NUM, XS_GROUP_ID, XS_DEVICE_TYPE,
	XS_START_TIME, XS_MEMCPY, XS_NAME, XS_MEMORY_SIZE, XS_VENDOR,
	XS_PEAK_TFLOPS, XS_PEAK_HBM, XS_DEVICE_ORDINAL,
	XS_N
};

/* A stat's value as read. */
enum xvkind { XV_NONE, XV_INT, XV_UINT, XV_DBL, XV_STR, XV_BYTES };
struct xval {
	enum xvkind	 k;
	union {
		int64_t	 i;		/* XV_INT */
		uint64_t u;		/* XV_UINT */
		double	 d;		/* XV_DBL */
	}		 x;
	const char	*s;		/* XV_STR (str_value or a ref's name) */
	size_t		 n;
};

/* What the stats of an op and of one of its executions say. */
struct xvals {
	uint32_t	 mask;		/* 1 << code: v[code] is set */
	struct xval	 v[XS_N];
};

/*
 * What every execution of an op reads (the rest of struct xop only its
 * first on a line), apart: a TPU op's struct xop is a kilobyte, and a
 * plane has thousands of ops, read in no order; these are 104 bytes an
 * op, in an array beside the ops (xplane_tabs.hot, the same index).
 */
struct xop_hot {
	/*
	 * The direct output's record of an execution with no stats of its
	 * own, stored, for line RC_STREAM - 1: the columns up to its ext,
	 * and those after it (the ps parts go between).
	 */
	size_t		 rc_stream;
	char		*rc_pre, *rc_post;
	uint32_t	 rc_prel, rc_postl;
	/* The first pass: its executions on line FK_LINE (see
	 * facts_known()) are of this kind and device; so are the direct
	 * output's on line RC_STREAM - 1. */
	uint64_t	 fk_line;
	int64_t		 fk_dev;
	int		 fk_kind;
	int		 rc_ext;	/* its ext is not empty */
	/*
	 * The first such record made (for line REF_STREAM - 1) is kept
	 * unchanged to the end, so that the output's records point to it
	 * (sink_emit_ref()); the one above serves the op's other lines.
	 */
	size_t		 ref_stream;
	const char	*ref_pre, *ref_post;
	uint32_t	 ref_prel, ref_postl;
	int64_t		 ref_dev;
	int		 ref_kind;
	int		 ref_ext;
};

/* One op (XEventMetadata): names, and its stats decoded at first use. */
struct xop {
	int		 decoded;
	int		 rc_bad;	/* a column needed repair: not kept */
	int64_t		 id;
	const unsigned char *msg;	/* the XEventMetadata message */
	size_t		 msglen;
	const char	*name, *disp;	/* name (HLO text on TPU), display */
	size_t		 namel, displ;
	struct xvals	 base;		/* metadata stats */
	/* From the HLO text (with the lengths of what each event takes): */
	char		*in_shapes, *in_dtypes, *out_shapes, *out_dtypes;
	char		*layout, *in_layout, *changes, *opcode;
	size_t		 in_shapesl, in_dtypesl, out_shapesl, out_dtypesl;
	size_t		 opcodel;
	char		*ext;		/* the ext keys of the op's own stats */
	size_t		 extl;
	int		 has_ext;
	const char	*container;	/* "xla_while", ... when it holds ops */
	const char	*cname;		/* the record's name, fit for a stream */
	size_t		 cnamel;
	char		*cname_own;	/* when it had to be repaired */
	/* Its category and source stats made fit for a stream, once. */
	const char	*ccat, *csrc;
	size_t		 ccatl, csrcl;
	char		*ccat_own, *csrc_own;
};

/* The tables of one plane. */
struct xplane_tabs {
	/* stat_metadata: id -> name, and what the reader calls it */
	int64_t		*sid;
	const char	**sname;
	size_t		*snamel;
	unsigned char	*scode;
	size_t		 scap, sn;
	/* event_metadata: the ops, and id -> 1 + their index */
	struct xop	*ops;
	struct xop_hot	*hot;		/* beside ops */
	size_t		 nops, opscap;
	int64_t		*eid;
	uint32_t	*eix;
	size_t		 ecap;
	/* program_id -> module name, from "jit_f(ID)" op names */
	uint64_t	*pid;
	const char	**pname;
	size_t		*pnamel;
	size_t		 pcap, pn;
	/* Where the last wire error in the tables was, for the diagnostic. */
	struct pbuf	 err_buf;
	const char	*err_what;
};

void	 xtab_clear(struct xplane_tabs *);
void	 xtab_free(struct xplane_tabs *);
/* Add stat/event metadata map entries (XPlane fields 5 and 4). */
int	 xtab_stat_entry(struct xplane_tabs *, const struct pbuf *,
	    const struct pbuf_field *);
int	 xtab_event_entry(struct xplane_tabs *, const struct pbuf *,
	    const struct pbuf_field *);
struct xop *xtab_op(struct xplane_tabs *, int64_t);
/* A key's first slot in a table of CAP (a power of 2). */
static inline size_t
xtab_slot(uint64_t key, size_t cap)
{
	/* Looked up per event: a multiply, not a hash of bytes. */
	key *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(key ^ key >> 32) & (cap - 1);
}

/* The slot of stat metadata ID, or SIZE_MAX. */
static inline size_t
xtab_stat_find(const struct xplane_tabs *t, int64_t id)
{
	size_t j;

	if (t->scap == 0)
		return SIZE_MAX;
	for (j = xtab_slot((uint64_t)id, t->scap); t->sname[j] != NULL;
	    j = (j + 1) & (t->scap - 1))
		if (t->sid[j] == id)
			return j;
	return SIZE_MAX;
}

/*
 * Whether the XStat of the N bytes at P is plainly one the reader does
 * not use: its metadata id, then an integer (a TPU op execution's
 * device_offset_ps and device_duration_ps), of a stat with no code.
 * When not, xtab_stat() reads it (and says what is wrong with it).
 */
static inline int
xtab_stat_unused(const struct xplane_tabs *t, const unsigned char *p,
    size_t n)
{
	const unsigned char *e = p + n;
	uint64_t id = 0;
	size_t j;
	int sh;

	if (n < 4 || p[0] != 0x08)
		return 0;
	for (p++, sh = 0; p < e && *p >= 0x80 && sh < 56; p++, sh += 7)
		id |= (uint64_t)(*p & 0x7f) << sh;
	if (p >= e || *p >= 0x80)
		return 0;
	id |= (uint64_t)*p++ << sh;
	if (p >= e || (*p != 0x18 && *p != 0x20))
		return 0;
	for (p++, sh = 0; p < e && *p >= 0x80 && sh < 9; p++, sh++)
		;
	if (p + 1 != e || *p >= 0x80)
		return 0;
	j = xtab_stat_find(t, (int64_t)id);
	return j == SIZE_MAX || t->scode[j] == XS_OTHER;
}

/* The index of op ID in ops and hot, plus one; 0 when none (inline:
 * once an event). */
static inline size_t
xtab_find(const struct xplane_tabs *t, int64_t id)
{
	size_t j;

	if (t->ecap == 0)
		return 0;
	for (j = xtab_slot((uint64_t)id, t->ecap); t->eix[j] != 0;
	    j = (j + 1) & (t->ecap - 1))
		if (t->eid[j] == id)
			return t->eix[j];
	return 0;
}
/* Decode one XStat into VALS (by its code); -1 on bad wire data. */
int	 xtab_stat(struct xplane_tabs *, struct pbuf *,
	    struct xvals *, int *);
/* Decode an op's metadata stats and HLO text, once. */
int	 xop_decode(struct xplane_tabs *, struct xop *, struct pbuf *);
const char *xtab_module(const struct xplane_tabs *, uint64_t, size_t *);

/* ext text: "key=value" entries joined by ';' ('%' and ';' escaped). */
struct xext {
	char		*b;
	size_t		 n, cap;
};
void	 xext_add(struct xext *, const char *, const char *, size_t);
void	 xext_addi(struct xext *, const char *, int64_t);
/* Append entries already made (joined with ';'). */
void	 xext_raw(struct xext *, const char *, size_t);

/* Whether a text is fit for a stream (UTF-8, no NUL): else a copy. */
const char *xclean(const char *, size_t *, char **, size_t *);

#endif
