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
 * This file holds the sink's state and what the readers call while they
 * read: sources, their facts, and storing records.  The runs and the
 * spilling are in ingest-runs.c, the merge in ingest-merge.c, the stream
 * and the inventory in ingest-output.c; ingest-sink.h ties them together.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "ingest-sink.h"
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

struct sink_opts opts;
struct source *srcs;
size_t nsrcs;
unsigned char *arena;		/* the one being filled */
size_t arena_len, arena_cap;
unsigned char *arenas[2];
size_t arena_caps[2];
int cur_arena;
size_t cur_start;	/* arena offset where the open source began */
struct run *runs;
size_t nruns;
FILE *spill;
off_t spill_len;
char **ignored;
size_t nignored;
static char *textbuf;
static size_t textcap;
size_t kindlen[IK_NKINDS];

void
sink_init(const struct sink_opts *o)
{
	int k;

	opts = *o;
	if (opts.mem_limit < (1 << 20))
		opts.mem_limit = 1 << 20;
	/* Two arenas: one filling, one being spilled. */
	arena_cap = arena_caps[0] = arena_caps[1] = opts.mem_limit / 2;
	arenas[0] = arena = xmalloc(arena_cap);
	arenas[1] = xmalloc(arena_cap);
	for (k = 0; k < IK_NKINDS; k++)
		kindlen[k] = strlen(ingest_kindnames[k]);
}

int
sink_begin(const struct ingest_format *fmt, const char *path, const char *run,
    int64_t rank)
{
	struct source *s;

	/* A reader that stopped at bad data keeps what it had emitted. */
	if (nsrcs > 0 && srcs[nsrcs - 1].open)
		sink_end((int)nsrcs - 1);
	if (opts.progress)
		fprintf(stderr, "\r\033[K%s: reading %s", diag_progname(),
		    path);
	/* Doubling: a walk may begin thousands of sources. */
	if ((nsrcs & (nsrcs - 1)) == 0)
		srcs = xreallocarray(srcs, nsrcs > 0 ? 2 * nsrcs : 1,
		    sizeof(*srcs));
	s = &srcs[nsrcs];
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	s->path = xstrdup(path);
	s->run = xstrdup(run != NULL ? run : "");
	s->rank = rank;
	s->lone_dev = -1;
	s->first = s->tmin = INT64_MAX;
	s->last = s->tmax = INT64_MIN;
	s->open = 1;
	cur_start = arena_len;
	return (int)nsrcs++;
}

void
sink_set_base(int src, int64_t base)
{
	srcs[src].base = base;
}

void
sink_set_rank(int src, int64_t rank)
{
	srcs[src].rank = rank;
}

void
sink_set_fmt(int src, const struct ingest_format *fmt)
{
	srcs[src].fmt = fmt;
}

/* Classify an Ascend trace_view process by its name. */
static enum proc_class
process_class(const char *name)
{
	if (strcmp(name, "Ascend Hardware") == 0)
		return PC_DEVICE;
	if (strcmp(name, "HCCL") == 0)
		return PC_HCCL;
	if (strcmp(name, "Overlap Analysis") == 0)
		return PC_DERIVED;	/* the profiler's own derived view */
	return PC_HOST;
}

void
sink_set_process(int src, int64_t pid, const char *name)
{
	struct source *s = &srcs[src];
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
sink_ignored(const char *path, const char *why)
{
	size_t n = strlen(path) + strlen(why) + 2;

	if ((nignored & (nignored - 1)) == 0)
		ignored = xreallocarray(ignored, nignored > 0 ? 2 * nignored :
		    1, sizeof(*ignored));
	ignored[nignored] = xmalloc(n);
	snprintf(ignored[nignored++], n, "%s\t%s", path, why);
}

/*
 * A side file that is not read (operator_details.csv) may still show
 * what the capture recorded: its Call Stack column means with_stack was
 * on.  The run's sources may come before or after it, so the notes wait
 * for the end.
 */
static char **run_notes;	/* "RUN\tNOTE" */
static size_t nrun_notes;

void
sink_run_note(const char *run, const char *note)
{
	size_t n = strlen(run) + strlen(note) + 2;

	run_notes = xreallocarray(run_notes, nrun_notes + 1,
	    sizeof(*run_notes));
	run_notes[nrun_notes] = xmalloc(n);
	snprintf(run_notes[nrun_notes++], n, "%s\t%s", run, note);
}

/* Give every source the notes of its run's side files. */
void
sink_apply_run_notes(void)
{
	size_t i, j, len;

	for (i = 0; i < nrun_notes; i++) {
		len = strcspn(run_notes[i], "\t");
		for (j = 0; j < nsrcs; j++)
			if (strlen(srcs[j].run) == len &&
			    strncmp(srcs[j].run, run_notes[i], len) == 0)
				sink_note((int)j, run_notes[i] + len + 1);
	}
}

void
sink_note(int src, const char *note)
{
	struct source *s = &srcs[src];
	size_t len = strlen(s->notes);

	if (strstr(s->notes, note) != NULL)
		return;
	snprintf(s->notes + len, sizeof(s->notes) - len, "%s%s",
	    len ? "," : "", note);
}

void
sink_skip(int src, const char *why)
{
	struct source *s = &srcs[src];
	size_t i;

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
sink_nsources(void)
{
	return nsrcs;
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

/*
 * Join the text columns of R into OUT, TSV-escaped and TAB-separated.
 * The stream is UTF-8 text: this is the one place where text enters it,
 * so an ill-formed sequence in a name (profilers write names as they get
 * them) is replaced here by U+FFFD, once, and counted in *NBAD, and no
 * later stage or report has to doubt its input.
 */
static size_t
render_text(const struct irec *r, char *out, size_t *nbad)
{
	static char *fixed;
	static size_t fixedcap;
	size_t i, n = 0, fl;

	for (i = IC_FIRST_TEXT; i < IC_SRC; i++) {
		if (i > IC_FIRST_TEXT)
			out[n++] = '\t';
		if (r->len[i] == 0)
			continue;
		if (utf8_valid(r->v[i], r->len[i])) {
			n += tsv_escape(r->v[i], r->len[i], out + n);
			continue;
		}
		if (fixedcap < 3 * r->len[i]) {
			fixedcap = 3 * r->len[i];
			fixed = xrealloc(fixed, fixedcap);
		}
		fl = utf8_sanitize(r->v[i], r->len[i], fixed, nbad);
		n += tsv_escape(fixed, fl, out + n);
	}
	return n;
}

/*
 * Store R in the arena.  Its text is rendered in place when even fully
 * escaped it would fit, and through textbuf otherwise, so that the arena
 * fills and spills by the records' true sizes either way.
 */
void
sink_add(int src, const struct irec *r)
{
	size_t need = text_bound(r), tl, sz, nbad = 0;
	struct srec *sr;

	if (arena_len + SREC_SIZE(need) <= arena_cap) {
		sr = (struct srec *)(void *)(arena + arena_len);
		tl = render_text(r, (char *)(sr + 1), &nbad);
	} else {
		if (need > textcap) {
			textcap = need + need / 2;
			textbuf = xrealloc(textbuf, textcap);
		}
		tl = render_text(r, textbuf, &nbad);
		sr = NULL;
	}
	srcs[src].utf8_fixed += nbad;
	if (tl > UINT32_MAX)
		diag_err(EXIT_BAD, "%s: record too large", srcs[src].path);
	sz = SREC_SIZE(tl);
	if (sr == NULL) {
		sr = (struct srec *)arena_reserve((uint32_t)src, sz);
		memcpy(sr + 1, textbuf, tl);
	}
	memset(sr, 0, sizeof(*sr));
	sr->ts = r->ts;
	sr->dur = r->dur;
	sr->dev = r->dev;
	sr->pid = r->pid;
	sr->src = (uint32_t)src;
	sr->textlen = (uint32_t)tl;
	sr->kind = (uint8_t)r->kind;
	sr->has_dur = (uint8_t)(r->has_dur != 0);
	index_add(arena_len);
	arena_len += sz;
	if (r->ts != IREC_NO_TS) {
		struct source *s = &srcs[src];
		int64_t end;

		if (r->ts < s->tmin)
			s->tmin = r->ts;
		if (__builtin_add_overflow(r->ts, r->has_dur ? r->dur : 0,
		    &end))
			end = INT64_MAX;
		if (end > s->tmax)
			s->tmax = end;
	}
	if (r->kind == IK_KERNEL && r->dev != IREC_DEV_SRC) {
		struct source *s = &srcs[src];

		if (s->lone_dev == -1)
			s->lone_dev = r->dev;
		else if (s->lone_dev != r->dev)
			s->lone_dev = -2;
	}
}

/*
 * A base (Kineto's baseTimeNanoseconds) that takes the source's times
 * past 64-bit nanoseconds leaves none of them a place on the timeline:
 * the source's records are dropped and the diagnostic says why.
 */
static void
check_base(struct source *s)
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

void
sink_end(int src)
{
	struct source *s = &srcs[src];
	size_t i;

	/*
	 * Under --lenient, say on stderr what was passed over and why, one
	 * line per reason: the per-row diagnostics scroll by, and without
	 * -i the count would be nowhere else.
	 */
	for (i = 0; ingest_lenient && i < s->nskip; i++)
		diag_at(s->path, 0, "skipped %" PRIu64 ": %s", s->skipn[i],
		    s->skipwhy[i]);
	/* The records are kept, but their names are not what the file
	 * said: a warning, with the status left alone. */
	if (s->utf8_fixed > 0)
		diag_at(s->path, 0, "%" PRIu64 " ill-formed UTF-8 sequence%s "
		    "in names replaced by U+FFFD", s->utf8_fixed,
		    s->utf8_fixed == 1 ? "" : "s");
	check_base(s);
	close_run((uint32_t)src);
	srcs[src].open = 0;
}
