/*
 * The sink of prof-ingest: it collects the records every reader produces,
 * orders them by time with bounded memory, and writes the prof-tsv stream.
 *
 * Records are packed into an arena as a small binary header plus their
 * already escaped text columns.  Each source's records are sorted when it
 * ends (or when the arena fills) and become a "run"; runs stay in memory
 * while they fit and are spilled to an unlinked temporary file otherwise.
 * The output is a k-way merge of the runs.  Some facts are only known at
 * the end of a source (Kineto's baseTimeNanoseconds, the process names of
 * Ascend trace_view, the rank), so times are stored on the source's own
 * clock and kinds may be deferred; both are resolved during the merge.
 *
 * This file holds what the readers call while they read (sources, their
 * facts, and storing records) and what those facts decide once all have
 * ended.  The runs and the spilling are in ingest-runs.c, the merge in
 * ingest-merge.c, the stream and the inventory in ingest-output.c; the
 * state they share is struct sink, in ingest-sink.h.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ingest-sink.h"
#include "simd.h"
#include "tsv.h"
#include "utf8.h"
#include "xalloc.h"

const char *const ingest_colnames[IC_NCOLS] = {
	"kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat", "type",
	"core", "step", "wait_ns", "pid", "corr", "ext", "group", "in_shapes",
	"in_dtypes", "out_shapes", "out_dtypes", "flops", "bytes", "value",
	"pmu", "frame", "src"
};

const char *const ingest_kindnames[IK_NKINDS] = {
	"kernel", "host", "step", "comm", "flow", "counter", "mark", "pipe",
	"metric", "device"
};

struct sink *
sink_open(const struct sink_opts *o)
{
	struct sink *sk = xcalloc(1, sizeof(*sk));
	int k;

	sk->opts = *o;
	if (sk->opts.mem_limit < (1 << 20))
		sk->opts.mem_limit = 1 << 20;
	/* Two arenas: one filling, one being spilled. */
	sk->arena_cap = sk->arena_caps[0] = sk->arena_caps[1] =
	    sk->opts.mem_limit / 2;
	sk->arenas[0] = sk->arena = xmalloc(sk->arena_cap);
	sk->arenas[1] = xmalloc(sk->arena_cap);
	for (k = 0; k < IK_NKINDS; k++)
		sk->kindlen[k] = strlen(ingest_kindnames[k]);
	return sk;
}

int
sink_begin(struct sink *sk, const struct ingest_format *fmt,
    const char *path, const char *run, int64_t rank)
{
	struct sink_source *s;
	size_t n;

	/* A source read twice gives its records before the next begins. */
	(void)sink_direct_settle(sk, 0);
	n = sk->nsrcs;
	/* A reader that stopped at bad data keeps what it had emitted. */
	if (n > 0 && sk->srcs[n - 1].open)
		sink_end(sk, (int)n - 1);
	if (sk->opts.progress)
		fprintf(stderr, "\r\033[K%s: reading %s", diag_progname(),
		    path);
	/* Doubling: a walk may begin thousands of sources. */
	if ((n & (n - 1)) == 0)
		sk->srcs = xreallocarray(sk->srcs, n > 0 ? 2 * n : 1,
		    sizeof(*sk->srcs));
	s = &sk->srcs[n];
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	s->path = xstrdup(path);
	s->run = xstrdup(run != NULL ? run : "");
	s->rank = rank;
	s->lone_dev = -1;
	s->first = s->tmin = INT64_MAX;
	s->last = s->tmax = INT64_MIN;
	s->open = 1;
	sk->cur_start = sk->arena_len;
	return (int)sk->nsrcs++;
}

void
sink_set_base(struct sink *sk, int src, int64_t base)
{
	sk->srcs[src].base = base;
}

void
sink_set_rank(struct sink *sk, int src, int64_t rank)
{
	sk->srcs[src].rank = rank;
}

void
sink_set_fmt(struct sink *sk, int src, const struct ingest_format *fmt)
{
	sk->srcs[src].fmt = fmt;
}

/* Classify an Ascend trace_view process by its name. */
static enum sink_pclass
process_class(const char *name)
{
	if (strcmp(name, "Ascend Hardware") == 0)
		return SINK_PC_DEVICE;
	if (strcmp(name, "HCCL") == 0)
		return SINK_PC_HCCL;
	if (strcmp(name, "Overlap Analysis") == 0)
		return SINK_PC_DERIVED;	/* the profiler's derived view */
	return SINK_PC_HOST;
}

void
sink_set_process(struct sink *sk, int src, int64_t pid, const char *name)
{
	struct sink_source *s = &sk->srcs[src];
	size_t i;

	for (i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			break;
	if (i == s->nprocs) {
		s->procs = xreallocarray(s->procs, s->nprocs + 1,
		    sizeof(*s->procs));
		s->nprocs++;
	}
	s->procs[i].pid = pid;
	s->procs[i].cls = process_class(name);
}

void
sink_ignored(struct sink *sk, const char *path, const char *why)
{
	size_t n = strlen(path) + strlen(why) + 2, k = sk->nignored;

	if ((k & (k - 1)) == 0)
		sk->ignored = xreallocarray(sk->ignored, k > 0 ? 2 * k : 1,
		    sizeof(*sk->ignored));
	sk->ignored[k] = xmalloc(n);
	snprintf(sk->ignored[k], n, "%s\t%s", path, why);
	sk->nignored++;
}

/*
 * A side file that is not read (operator_details.csv) may still show
 * what the capture recorded: its Call Stack column means with_stack was
 * on.  The run's sources may come before or after it, so the notes wait
 * for the end.
 */
void
sink_run_note(struct sink *sk, const char *run, const char *note)
{
	size_t n = strlen(run) + strlen(note) + 2;

	sk->run_notes = xreallocarray(sk->run_notes, sk->nrun_notes + 1,
	    sizeof(*sk->run_notes));
	sk->run_notes[sk->nrun_notes] = xmalloc(n);
	snprintf(sk->run_notes[sk->nrun_notes++], n, "%s\t%s", run, note);
}

void
sink_note(struct sink *sk, int src, const char *note)
{
	struct sink_source *s = &sk->srcs[src];
	size_t len = strlen(s->notes);

	if (sk->replaying || strstr(s->notes, note) != NULL)
		return;
	snprintf(s->notes + len, sizeof(s->notes) - len, "%s%s",
	    len ? "," : "", note);
}

void
sink_skip(struct sink *sk, int src, const char *why)
{
	struct sink_source *s = &sk->srcs[src];
	size_t i;

	if (sk->replaying)
		return;		/* counted the first time */
	for (i = 0; i < s->nskip; i++)
		if (strcmp(s->skipwhy[i], why) == 0)
			break;
	if (i == s->nskip) {
		s->skipwhy = xreallocarray(s->skipwhy, s->nskip + 1,
		    sizeof(*s->skipwhy));
		s->skipn = xreallocarray(s->skipn, s->nskip + 1,
		    sizeof(*s->skipn));
		s->skipwhy[i] = xstrdup(why);
		s->skipn[i] = 0;
		s->nskip++;
	}
	s->skipn[i]++;
}

/* Sources begun so far. */
size_t
sink_nsources(const struct sink *sk)
{
	return sk->nsrcs;
}

/*
 * The most bytes R's text columns can take: every byte escaped (two
 * bytes), or replaced by U+FFFD (three).
 */
static size_t
text_bound(const struct irec *r)
{
	size_t i, need = 0;

	for (i = IC_FIRST_TEXT; i < IC_SRC; i++)
		need += 3 * r->len[i] + 1;
	return need;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

/*
 * The bytes of word X that a column cannot take as they are: above
 * ASCII (perhaps ill-formed UTF-8), control characters (TAB, LF and CR
 * among them) and the backslash.  Exact as to whether there is one: with
 * every byte under 0x80 the two borrows are those of "has a byte less
 * than" and "has a zero byte".
 */
static uint64_t
special8(uint64_t x)
{
	uint64_t y = x ^ ONES * '\\';

	return (x | ((x - ONES * 0x20) & ~x) | ((y - ONES) & ~y)) & HIGHS;
}

/*
 * Copy a column that is plain printable ASCII, which nearly every one
 * is, to OUT in one pass of words: it needs neither the UTF-8 check nor
 * escaping.  0 (OUT may hold some of it) when it is not plain.
 */
static int
plain_copy(const char *s, size_t n, char *out)
{
	uint64_t a, b;
	uint32_t a4, b4;
	size_t j;
#ifdef PROF_SSE2
	/* Signed bytes: above ASCII are negative, so under 0x20 too. */
	const __m128i ctl = _mm_set1_epi8(0x20), bsl = _mm_set1_epi8('\\');
	__m128i v;

	if (n >= 16) {
		for (j = 0; j + 16 < n; j += 16) {
			v = _mm_loadu_si128((const __m128i *)(const void *)(s + j));
			if (_mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, ctl),
			    _mm_cmpeq_epi8(v, bsl))) != 0)
				return 0;
			_mm_storeu_si128((__m128i *)(void *)(out + j), v);
		}
		v = _mm_loadu_si128((const __m128i *)(const void *)
		    (s + n - 16));
		if (_mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, ctl),
		    _mm_cmpeq_epi8(v, bsl))) != 0)
			return 0;
		_mm_storeu_si128((__m128i *)(void *)(out + n - 16), v);
		return 1;
	}
#endif
	if (n >= 8) {
		for (j = 0; j + 8 < n; j += 8) {
			memcpy(&a, s + j, 8);
			if (special8(a))
				return 0;
			memcpy(out + j, &a, 8);
		}
		memcpy(&b, s + n - 8, 8);
		if (special8(b))
			return 0;
		memcpy(out + n - 8, &b, 8);
		return 1;
	}
	if (n >= 4) {
		memcpy(&a4, s, 4);
		memcpy(&b4, s + n - 4, 4);
		if (special8((uint64_t)a4 << 32 | b4))
			return 0;
		memcpy(out, &a4, 4);
		memcpy(out + n - 4, &b4, 4);
		return 1;
	}
	for (j = 0; j < n; j++) {
		if ((unsigned char)s[j] < 0x20 || (unsigned char)s[j] >= 0x80 ||
		    s[j] == '\\')
			return 0;
		out[j] = s[j];
	}
	return 1;
}

/*
 * Join the text columns of R into OUT, TSV-escaped and TAB-separated.
 * The stream is UTF-8 text: this is the one place where text enters it,
 * so an ill-formed sequence in a name (profilers write names as they get
 * them) is replaced here by U+FFFD, once, and counted in *NBAD, and no
 * later stage or report has to doubt its input.
 */
static size_t
render_cols(struct sink *sk, const struct irec *r, int from, int to,
    char *out, size_t *nbad)
{
	size_t n = 0, fl;
	int i;

	for (i = from; i <= to; i++) {
		if (i > from)
			out[n++] = '\t';
		if (r->len[i] == 0)
			continue;
		if (plain_copy(r->v[i], r->len[i], out + n)) {
			n += r->len[i];
			continue;
		}
		if (utf8_valid(r->v[i], r->len[i])) {
			n += tsv_escape(r->v[i], r->len[i], out + n);
			continue;
		}
		if (sk->fixedcap < 3 * r->len[i]) {
			sk->fixedcap = 3 * r->len[i];
			sk->fixed = xrealloc(sk->fixed, sk->fixedcap);
		}
		fl = utf8_sanitize(r->v[i], r->len[i], sk->fixed, nbad);
		n += tsv_escape(sk->fixed, fl, out + n);
	}
	return n;
}

static size_t
render_text(struct sink *sk, const struct irec *r, char *out, size_t *nbad)
{
	return render_cols(sk, r, IC_FIRST_TEXT, IC_SRC - 1, out, nbad);
}

/*
 * Columns FROM to TO of R as sink_add() stores them, at OUT (room for 3
 * bytes a byte and a TAB a column); -1 when one had to be repaired.
 */
ssize_t
sink_render_cols(struct sink *sk, const struct irec *r, int from, int to,
    char *out)
{
	size_t nbad = 0, n = render_cols(sk, r, from, to, out, &nbad);

	return nbad > 0 ? -1 : (ssize_t)n;
}

/* The header of R's record, and in *EXTRA the numbers after it. */
static void
make_header(const struct irec *r, uint32_t src, struct sink_rec *h,
    int64_t *extra, size_t *nextra)
{
	size_t n = 0;

	memset(h, 0, sizeof(*h));
	h->ts = r->ts;
	h->src = src;
	h->kind = (uint8_t)r->kind;
	if (r->has_dur) {
		h->flags |= SR_DUR;
		if (r->dur >= 0 && r->dur <= UINT32_MAX)
			h->dur = (uint32_t)r->dur;
		else {
			h->flags |= SR_DUR64;
			extra[n++] = r->dur;
		}
	}
	if (r->dev != IREC_DEV_SRC) {
		h->flags |= SR_DEV;
		if (r->dev >= 0 && r->dev <= UINT16_MAX)
			h->dev = (uint16_t)r->dev;
		else {
			h->flags |= SR_DEV64;
			extra[n++] = r->dev;
		}
	}
	/* The pid decides a deferred kind (a trace_view process). */
	if (r->kind == IK_DEFER) {
		h->flags |= SR_PID;
		extra[n++] = r->pid;
	}
	*nextra = n;
}

/* A timed record's facts: a span and a lone device (-1 none yet, -2
 * several), of a source or gathered apart (struct sink_facts). */
static void
note_facts(int64_t *tmin, int64_t *tmax, int64_t *lone_dev,
    const struct irec *r)
{
	if (r->ts != IREC_NO_TS) {
		int64_t end;

		if (r->ts < *tmin)
			*tmin = r->ts;
		if (__builtin_add_overflow(r->ts, r->has_dur ? r->dur : 0,
		    &end))
			end = INT64_MAX;
		if (end > *tmax)
			*tmax = end;
	}
	if (r->kind == IK_KERNEL && r->dev != IREC_DEV_SRC) {
		if (*lone_dev == -1)
			*lone_dev = r->dev;
		else if (*lone_dev != r->dev)
			*lone_dev = -2;
	}
}

static void
note_times(struct sink_source *s, const struct irec *r)
{
	note_facts(&s->tmin, &s->tmax, &s->lone_dev, r);
}

void
sink_fact(struct sink *sk, int src, const struct irec *r)
{
	note_times(&sk->srcs[src], r);
}

void
sink_facts_init(struct sink_facts *f)
{
	f->tmin = INT64_MAX;
	f->tmax = INT64_MIN;
	f->lone_dev = -1;
}

void
sink_facts_add(struct sink_facts *f, const struct irec *r)
{
	note_facts(&f->tmin, &f->tmax, &f->lone_dev, r);
}

/* What note_times() would have noted of every record F was given. */
void
sink_facts_give(struct sink *sk, int src, const struct sink_facts *f)
{
	struct sink_source *s = &sk->srcs[src];

	if (f->tmin < s->tmin)
		s->tmin = f->tmin;
	if (f->tmax > s->tmax)
		s->tmax = f->tmax;
	if (f->lone_dev == -1)
		return;
	if (s->lone_dev == -1)
		s->lone_dev = f->lone_dev;
	else if (s->lone_dev != f->lone_dev)
		s->lone_dev = -2;
}

/*
 * Store R in the arena.  Its text is rendered in place when even fully
 * escaped it would fit, and through textbuf otherwise, so that the arena
 * fills and spills by the records' true sizes either way.
 */
void
sink_add(struct sink *sk, int src, const struct irec *r)
{
	struct sink_source *s = &sk->srcs[src];
	struct sink_rec h, *sr;
	int64_t extra[3];
	size_t need = text_bound(r), tl, sz, nbad = 0, nextra, hl;
	char *text;

	make_header(r, (uint32_t)src, &h, extra, &nextra);
	hl = sizeof(h) + 8 * nextra;
	if (sk->arena_len + ((hl + need + 7) & ~(size_t)7) <= sk->arena_cap) {
		text = (char *)sk->arena + sk->arena_len + hl;
		tl = render_text(sk, r, text, &nbad);
	} else {
		if (need > sk->textcap) {
			sk->textcap = need + need / 2;
			sk->textbuf = xrealloc(sk->textbuf, sk->textcap);
		}
		tl = render_text(sk, r, sk->textbuf, &nbad);
		text = NULL;
	}
	s->utf8_fixed += nbad;
	if (tl > UINT32_MAX)
		diag_err(EXIT_BAD, "%s: record too large", s->path);
	h.textlen = (uint32_t)tl;
	sz = sink_rec_size(&h);
	if (text == NULL) {
		text = (char *)sink_arena_reserve(sk, (uint32_t)src, sz) + hl;
		memcpy(text, sk->textbuf, tl);
	}
	sr = (struct sink_rec *)(void *)(sk->arena + sk->arena_len);
	memcpy(sr, &h, sizeof(h));
	memcpy(sr + 1, extra, 8 * nextra);
	sink_run_add(sk, (uint32_t)src, r->ts);
	sk->arena_len += sz;
	note_times(s, r);
}

size_t
sink_rec_bound(const struct irec *r)
{
	return sizeof(struct sink_rec) + 3 * 8 + text_bound(r) + 8;
}

/* R's header and the text T (L bytes) as sink_add() stores them. */
size_t
sink_render_text(struct sink *sk, int src, const struct irec *r,
    unsigned char *dst, const char *t1, size_t l1, const char *t2,
    size_t l2, const char *t3, size_t l3)
{
	struct sink_rec h;
	int64_t extra[3];
	size_t nextra, hl;

	make_header(r, (uint32_t)src, &h, extra, &nextra);
	hl = sizeof(h) + 8 * nextra;
	h.textlen = (uint32_t)(l1 + l2 + l3);
	memcpy(dst, &h, sizeof(h));
	memcpy(dst + sizeof(h), extra, 8 * nextra);
	memcpy(dst + hl, t1, l1);
	memcpy(dst + hl + l1, t2, l2);
	memcpy(dst + hl + l1 + l2, t3, l3);
	(void)sk;
	return sink_rec_size(&h);
}

/* The same, T1 and T3 by reference (SR_REF). */
size_t
sink_render_ref(struct sink *sk, int src, const struct irec *r,
    unsigned char *dst, const char *t1, size_t l1, const char *t2,
    size_t l2, const char *t3, size_t l3)
{
	struct sink_rec h;
	struct sink_ref ref;
	int64_t extra[3];
	size_t nextra, hl;

	make_header(r, (uint32_t)src, &h, extra, &nextra);
	h.flags |= SR_REF;
	hl = sizeof(h) + 8 * nextra;
	h.textlen = (uint32_t)l2;
	ref.pre = t1;
	ref.post = t3;
	ref.prel = (uint32_t)l1;
	ref.postl = (uint32_t)l3;
	memcpy(dst, &h, sizeof(h));
	memcpy(dst + sizeof(h), extra, 8 * nextra);
	memcpy(dst + hl, &ref, sizeof(ref));
	memcpy(dst + hl + sizeof(ref), t2, l2);
	(void)sk;
	return sink_rec_size(&h);
}

/* R as sink_add() stores it, at DST (sink_rec_bound() bytes). */
size_t
sink_render(struct sink *sk, int src, const struct irec *r,
    unsigned char *dst)
{
	struct sink_source *s = &sk->srcs[src];
	struct sink_rec h;
	int64_t extra[3];
	size_t nextra, hl, tl, nbad = 0;

	make_header(r, (uint32_t)src, &h, extra, &nextra);
	hl = sizeof(h) + 8 * nextra;
	tl = render_text(sk, r, (char *)dst + hl, &nbad);
	s->utf8_fixed += nbad;
	if (tl > UINT32_MAX)
		diag_err(EXIT_BAD, "%s: record too large", s->path);
	h.textlen = (uint32_t)tl;
	memcpy(dst, &h, sizeof(h));
	memcpy(dst + sizeof(h), extra, 8 * nextra);
	return sink_rec_size(&h);
}

/*
 * A base (Kineto's baseTimeNanoseconds) that takes the source's times
 * past 64-bit nanoseconds leaves none of them a place on the timeline:
 * the source's records are dropped and the diagnostic says why.
 */
static void
check_base(struct sink_source *s)
{
	int64_t t;

	if (s->base == 0 || s->tmin > s->tmax)
		return;
	if (!__builtin_add_overflow(s->tmin, s->base, &t) &&
	    !__builtin_add_overflow(s->tmax, s->base, &t))
		return;
	diag_at(s->path, 0, "'baseTimeNanoseconds' %" PRId64 " takes the "
	    "event times past what 64-bit nanoseconds hold (the years "
	    "1678 to 2262): the file's records are dropped", s->base);
	s->bad = 1;
}

/* The records are kept, but their names are not what the file said: a
 * warning, with the status left alone. */
void
sink_utf8_note(const struct sink_source *s)
{
	if (s->utf8_fixed > 0)
		diag_at(s->path, 0, "%" PRIu64 " ill-formed UTF-8 sequence%s "
		    "in names replaced by U+FFFD", s->utf8_fixed,
		    s->utf8_fixed == 1 ? "" : "s");
}

void
sink_end(struct sink *sk, int src)
{
	struct sink_source *s = &sk->srcs[src];
	size_t i;

	/*
	 * Under --lenient, say on stderr what was passed over and why, one
	 * line per reason: the per-row diagnostics scroll by, and without
	 * -i the count would be nowhere else.
	 */
	for (i = 0; ingest_lenient && i < s->nskip; i++)
		diag_at(s->path, 0, "skipped %" PRIu64 ": %s", s->skipn[i],
		    s->skipwhy[i]);
	/* A source read twice says it once all of it is read. */
	if (!sk->has_replay || sk->replay_src != src)
		sink_utf8_note(s);
	check_base(s);
	sink_close_run(sk, (uint32_t)src);
	s->open = 0;
}

/* Give every source the notes of its run's side files. */
static void
apply_run_notes(struct sink *sk)
{
	size_t i, j, len;

	for (i = 0; i < sk->nrun_notes; i++) {
		len = strcspn(sk->run_notes[i], "\t");
		for (j = 0; j < sk->nsrcs; j++)
			if (strlen(sk->srcs[j].run) == len && strncmp(
			    sk->srcs[j].run, sk->run_notes[i], len) == 0)
				sink_note(sk, (int)j,
				    sk->run_notes[i] + len + 1);
	}
}

/*
 * A source whose run holds a better copy of its device tasks, or of all
 * its records, gives them way, so each task appears once (a rank's
 * kernel_details.csv beside its trace_view.json, a run exported both as
 * text and as databases).  Which format gives way to which is the format
 * table's to say (ingest-formats.c); the sink only applies it.
 */
static void
mark_yielding(struct sink *sk)
{
	struct sink_source *s, *o;
	size_t i, j;

	for (i = 0; i < sk->nsrcs; i++) {
		s = &sk->srcs[i];
		/* Most formats yield to none: a walk of thousands is quick. */
		if (s->fmt->yields_to == NULL &&
		    s->fmt->device_yields_to == NULL)
			continue;
		for (j = 0; j < sk->nsrcs; j++) {
			o = &sk->srcs[j];
			if (ingest_yields_all(s->fmt, o->fmt) &&
			    strcmp(o->run, s->run) == 0)
				s->skip_all = 1;
			if (ingest_yields_device(s->fmt, o->fmt) &&
			    strcmp(o->run, s->run) == 0)
				s->skip_device = 1;
		}
	}
}

/* Once every source has ended: the facts that depend on the others. */
void
sink_resolve_sources(struct sink *sk)
{
	mark_yielding(sk);
	apply_run_notes(sk);
}
