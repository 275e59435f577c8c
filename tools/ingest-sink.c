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
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "diag.h"
#include "ingest.h"
#include "tsv.h"
#include "xalloc.h"

const char *const ingest_colnames[IC_NCOLS] = {
	"kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat", "type",
	"core", "step", "wait_ns", "pid", "corr", "ext", "group", "in_shapes",
	"in_dtypes", "out_shapes", "out_dtypes", "flops", "bytes", "value",
	"pmu", "src"
};

const char *const ingest_kindnames[IK_NKINDS] = {
	"kernel", "host", "step", "comm", "flow", "counter", "mark", "pipe",
	"metric", "device"
};

const char *const ingest_fmtnames[ISF_NFMTS] = {
	"kernel_details", "op_summary", "step_trace_time", "communication",
	"trace_view", "kineto", "simulator", "chrome"
};

/* A stored record: this header, then TEXTLEN bytes, padded to 8. */
struct srec {
	int64_t		 ts;
	int64_t		 dur;
	int64_t		 dev;
	int64_t		 pid;
	uint32_t	 src;
	uint32_t	 textlen;
	uint8_t		 kind;
	uint8_t		 has_dur;
	uint8_t		 pad[6];
};

#define SREC_SIZE(textlen) \
	((sizeof(struct srec) + (textlen) + 7) & ~(size_t)7)

/* What an Ascend trace_view process holds, from its name. */
enum proc_class {
	PC_HOST, PC_DEVICE, PC_HCCL, PC_DERIVED
};

struct process {
	int64_t		 pid;
	enum proc_class	 cls;
};

struct source {
	enum isrc_fmt	 fmt;
	char		*path;
	char		*run;
	int64_t		 rank;		/* -1 when unknown */
	int64_t		 base;
	int		 skip_device;
	struct process	*procs;
	size_t		 nprocs;
	int64_t		 lone_dev;	/* -1 none yet, -2 several */
	char		 notes[128];
	/* Inventory, counted at output after resolution. */
	uint64_t	 nkind[IK_NKINDS];
	uint64_t	 ndropped;
	int64_t		 first, last;	/* absolute ns */
	char		**skipwhy;
	uint64_t	*skipn;
	size_t		 nskip;
	int		 open;
};

/* A sorted run: in the arena (index array) or in the spill file. */
struct run {
	uint32_t	 src;
	size_t		 count;
	size_t		*index;		/* arena offsets, when in memory */
	off_t		 foff;		/* file offset, when spilled */
	off_t		 flen;
	/* Merge cursor. */
	size_t		 pos;
	unsigned char	*buf;
	size_t		 bufcap, buflen, bufpos;
	off_t		 fread_off;
	const struct srec *cur;
	int64_t		 key;		/* abs_ts(cur), cached for the heap */
};

static int	 resolve_kind(const struct srec *);

static struct sink_opts opts;
static struct source *srcs;
static size_t nsrcs;
static unsigned char *arena;		/* the one being filled */
static size_t arena_len, arena_cap;
static unsigned char *arenas[2];
static size_t arena_caps[2];
static int cur_arena;
static size_t cur_start;	/* arena offset where the open source began */
static size_t *cur_index;	/* offsets of its records there, */
static size_t cur_count, cur_cap;	/* kept as they are added */
static size_t last_count;	/* the last run's size: the next one's guess */
static struct run *runs;
static size_t nruns;
static FILE *spill;
static off_t spill_len;
static char **ignored;
static size_t nignored;
static char *textbuf;
static size_t textcap;
static size_t kindlen[IK_NKINDS];

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
sink_begin(enum isrc_fmt fmt, const char *path, const char *run,
    int64_t rank)
{
	struct source *s;

	/* A reader that stopped at bad data keeps what it had emitted. */
	if (nsrcs > 0 && srcs[nsrcs - 1].open)
		sink_end((int)nsrcs - 1);
	if (opts.progress)
		fprintf(stderr, "\r\033[K%s: reading %s", diag_progname(),
		    path);
	srcs = xreallocarray(srcs, nsrcs + 1, sizeof(*srcs));
	s = &srcs[nsrcs];
	memset(s, 0, sizeof(*s));
	s->fmt = fmt;
	s->path = xstrdup(path);
	s->run = xstrdup(run != NULL ? run : "");
	s->rank = rank;
	s->lone_dev = -1;
	s->first = INT64_MAX;
	s->last = INT64_MIN;
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
sink_set_fmt(int src, enum isrc_fmt fmt)
{
	srcs[src].fmt = fmt;
}

void
sink_set_skip_device(int src)
{
	srcs[src].skip_device = 1;
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

	ignored = xreallocarray(ignored, nignored + 1, sizeof(*ignored));
	ignored[nignored] = xmalloc(n);
	snprintf(ignored[nignored++], n, "%s\t%s", path, why);
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

/* ---- runs ---- */

/* A record's sort key: its time made unsigned relative to the run's. */
struct skey {
	uint64_t	 k;
	size_t		 off;
};

#define RADIX_BITS	11
#define RADIX_SIZE	(1 << RADIX_BITS)

/*
 * Stable LSD radix sort on the low BITS bits of the keys: linear in the
 * number of records, and stable, so records with equal times keep their
 * input order without a tie-break on the offset.
 */
static void
radix_sort(struct skey *a, size_t n, int bits)
{
	struct skey *tmp = xreallocarray(NULL, n, sizeof(*tmp)), *from = a,
	    *to = tmp, *t;
	size_t count[RADIX_SIZE + 1];
	size_t i;
	int shift;

	for (shift = 0; shift < bits; shift += RADIX_BITS) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[((from[i].k >> shift) & (RADIX_SIZE - 1)) + 1]++;
		for (i = 1; i <= RADIX_SIZE; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
			to[count[(from[i].k >> shift) & (RADIX_SIZE - 1)]++] =
			    from[i];
		t = from, from = to, to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof(*a));
	free(tmp);
}

/* Sort the run's records by time unless they already came in order. */
static void
sort_run(const unsigned char *base, size_t *index, size_t count)
{
	struct skey *key = xreallocarray(NULL, count, sizeof(*key));
	uint64_t min = UINT64_MAX, max = 0, range;
	int sorted = 1, bits = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		/* Flip the sign bit: int64 order becomes uint64 order. */
		key[i].k = (uint64_t)((const struct srec *)(base +
		    index[i]))->ts ^ ((uint64_t)1 << 63);
		key[i].off = index[i];
		if (i > 0 && key[i].k < key[i - 1].k)
			sorted = 0;
		if (key[i].k < min)
			min = key[i].k;
		if (key[i].k > max)
			max = key[i].k;
	}
	if (!sorted) {
		for (range = max - min; range != 0; range >>= 1)
			bits++;
		for (i = 0; i < count; i++)
			key[i].k -= min;
		radix_sort(key, count, bits);
		for (i = 0; i < count; i++)
			index[i] = key[i].off;
	}
	free(key);
}

/*
 * Note where the next record goes.  The index is built as records come:
 * walking the arena afterwards chases one record length after another
 * through memory that has left the cache.
 */
static void
index_add(size_t off)
{
	if (cur_count == cur_cap) {
		cur_cap = cur_cap > 0 ? 2 * cur_cap : last_count +
		    last_count / 8 + 4096;
		cur_index = xreallocarray(cur_index, cur_cap,
		    sizeof(*cur_index));
	}
	cur_index[cur_count++] = off;
}

/* Turn the open source's records in the arena into a sorted run. */
static void
close_run(uint32_t src)
{
	struct run *r;

	if (arena_len == cur_start)
		return;
	runs = xreallocarray(runs, nruns + 1, sizeof(*runs));
	r = &runs[nruns++];
	memset(r, 0, sizeof(*r));
	r->src = src;
	r->index = cur_index;
	r->count = last_count = cur_count;
	cur_index = NULL;
	cur_count = cur_cap = 0;
	/* Sorted later: by the spill thread, or before the merge. */
	cur_start = arena_len;
}

static void
spill_open(void)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/prof-ingest.XXXXXX",
	    opts.tmpdir != NULL ? opts.tmpdir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		diag_errno(EXIT_BAD, "%s", path);
	unlink(path);
	if ((spill = fdopen(fd, "w+")) == NULL)
		diag_errno(EXIT_BAD, "%s", path);
	/* Gigabytes go through here: few large writes, not 4 KiB ones. */
	setvbuf(spill, NULL, _IOFBF, 1 << 20);
}

/*
 * Spilling runs on the second core: while one arena's runs are sorted and
 * written by the spill thread, the readers fill the other arena.  A job
 * owns copies of what it needs; its results are copied back into the
 * runs (whose array may move meanwhile) when it is joined.
 */
struct spill_job {
	unsigned char	*base;
	size_t		 n;
	size_t		*run;		/* indices into runs[] */
	size_t		**index;
	size_t		*count;
	off_t		*foff, *flen;
};

static pthread_t spill_thread;
static struct spill_job *pending;

static void *
spill_work(void *arg)
{
	struct spill_job *j = arg;
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		sort_run(j->base, j->index[i], j->count[i]);
		j->foff[i] = spill_len;
		for (k = 0; k < j->count[i]; k++) {
			const struct srec *sr = (const void *)(j->base +
			    j->index[i][k]);
			size_t sz = SREC_SIZE(sr->textlen);

			if (fwrite(sr, 1, sz, spill) != sz)
				diag_errno(EXIT_BAD, "temporary file");
			spill_len += (off_t)sz;
		}
		j->flen[i] = spill_len - j->foff[i];
	}
	if (fflush(spill) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	return NULL;
}

/* Wait for the spill in flight and record where its runs went. */
static void
spill_join(void)
{
	struct spill_job *j = pending;
	size_t i;

	if (j == NULL)
		return;
	if ((errno = pthread_join(spill_thread, NULL)) != 0)
		diag_errno(EXIT_BAD, "spill thread");
	for (i = 0; i < j->n; i++) {
		struct run *r = &runs[j->run[i]];

		r->foff = j->foff[i];
		r->flen = j->flen[i];
		free(r->index);
		r->index = NULL;
	}
	free(j->run);
	free(j->index);
	free(j->count);
	free(j->foff);
	free(j->flen);
	free(j);
	pending = NULL;
}

/* Hand every in-memory run to the spill thread; switch arenas. */
static void
spill_all(void)
{
	struct spill_job *j;
	size_t i;

	spill_join();
	if (spill == NULL)
		spill_open();
	j = xcalloc(1, sizeof(*j));
	j->base = arena;
	for (i = 0; i < nruns; i++)
		if (runs[i].index != NULL)
			j->n++;
	j->run = xreallocarray(NULL, j->n, sizeof(*j->run));
	j->index = xreallocarray(NULL, j->n, sizeof(*j->index));
	j->count = xreallocarray(NULL, j->n, sizeof(*j->count));
	j->foff = xreallocarray(NULL, j->n, sizeof(*j->foff));
	j->flen = xreallocarray(NULL, j->n, sizeof(*j->flen));
	j->n = 0;
	for (i = 0; i < nruns; i++) {
		if (runs[i].index == NULL)
			continue;
		j->run[j->n] = i;
		j->index[j->n] = runs[i].index;
		j->count[j->n++] = runs[i].count;
	}
	pending = j;
	if ((errno = pthread_create(&spill_thread, NULL, spill_work, j)) != 0)
		diag_errno(EXIT_BAD, "spill thread");
	cur_arena ^= 1;
	arena = arenas[cur_arena];
	arena_cap = arena_caps[cur_arena];
	arena_len = cur_start = 0;
}

/* Make room for SZ bytes in the arena, spilling when it is full. */
static unsigned char *
arena_reserve(uint32_t src, size_t sz)
{
	if (arena_len + sz > arena_cap) {
		close_run(src);
		spill_all();
		if (sz > arena_cap) {
			/* One record larger than the whole budget. */
			arena_cap = arena_caps[cur_arena] = sz;
			arena = arenas[cur_arena] = xrealloc(arena, arena_cap);
		}
	}
	return arena + arena_len;
}

/* The most bytes R's text columns can take: every byte escaped. */
static size_t
text_bound(const struct irec *r)
{
	size_t i, need = 0;

	for (i = IC_FIRST_TEXT; i < IC_SRC; i++)
		need += 2 * r->len[i] + 1;
	return need;
}

/* Join the text columns of R into OUT, TSV-escaped and TAB-separated. */
static size_t
render_text(const struct irec *r, char *out)
{
	size_t i, n = 0;

	for (i = IC_FIRST_TEXT; i < IC_SRC; i++) {
		if (i > IC_FIRST_TEXT)
			out[n++] = '\t';
		if (r->len[i] > 0)
			n += tsv_escape(r->v[i], r->len[i], out + n);
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
	size_t need = text_bound(r), tl, sz;
	struct srec *sr;

	if (arena_len + SREC_SIZE(need) <= arena_cap) {
		sr = (struct srec *)(void *)(arena + arena_len);
		tl = render_text(r, (char *)(sr + 1));
	} else {
		if (need > textcap) {
			textcap = need + need / 2;
			textbuf = xrealloc(textbuf, textcap);
		}
		tl = render_text(r, textbuf);
		sr = NULL;
	}
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
	if (r->kind == IK_KERNEL && r->dev != IREC_DEV_SRC) {
		struct source *s = &srcs[src];

		if (s->lone_dev == -1)
			s->lone_dev = r->dev;
		else if (s->lone_dev != r->dev)
			s->lone_dev = -2;
	}
}

void
sink_end(int src)
{
	const struct source *s = &srcs[src];
	size_t i;

	/*
	 * Under --lenient, say on stderr what was passed over and why, one
	 * line per reason: the per-row diagnostics scroll by, and without
	 * -i the count would be nowhere else.
	 */
	for (i = 0; ingest_lenient && i < s->nskip; i++)
		diag_at(s->path, 0, "skipped %" PRIu64 ": %s", s->skipn[i],
		    s->skipwhy[i]);
	close_run((uint32_t)src);
	srcs[src].open = 0;
}

/* ---- merge ---- */

/* Absolute time of a record, timeless ones first. */
static int64_t
abs_ts(const struct srec *sr)
{
	if (sr->ts == IREC_NO_TS)
		return INT64_MIN;
	return sr->ts + srcs[sr->src].base;
}

/* Make sure a whole record is buffered at bufpos of a file run. */
static int
run_fill(struct run *r)
{
	size_t have = r->buflen - r->bufpos, need = sizeof(struct srec);
	off_t end = r->foff + r->flen;

	for (;;) {
		if (have >= sizeof(struct srec)) {
			const struct srec *sr = (const void *)(r->buf +
			    r->bufpos);

			need = SREC_SIZE(sr->textlen);
			if (have >= need) {
				r->cur = sr;
				return 1;
			}
		}
		if (r->fread_off >= end)
			return (r->cur = NULL, 0);
		memmove(r->buf, r->buf + r->bufpos, have);
		r->bufpos = 0;
		r->buflen = have;
		if (need > r->bufcap) {
			r->bufcap = need;
			r->buf = xrealloc(r->buf, r->bufcap);
		}
		{
			size_t want = r->bufcap - have;
			ssize_t got;

			if ((off_t)want > end - r->fread_off)
				want = (size_t)(end - r->fread_off);
			got = pread(fileno(spill), r->buf + have, want,
			    r->fread_off);
			if (got <= 0)
				diag_errno(EXIT_BAD, "temporary file");
			r->fread_off += got;
			r->buflen += (size_t)got;
			have += (size_t)got;
		}
	}
}

/*
 * The merge reads every spilled run through its own buffer; their sizes
 * share one budget, and reduce_runs() keeps the number of runs merged at
 * once under MERGE_FAN, so memory stays bounded whatever the input size.
 */
#define MERGE_BUDGET	(8 << 20)
#define MERGE_FAN	512

static size_t
merge_bufsize(void)
{
	size_t n = nruns > 0 ? nruns : 1, sz = MERGE_BUDGET / n;

	if (sz < (16 << 10))
		sz = 16 << 10;
	return sz > (256 << 10) ? 256 << 10 : sz;
}

/* Move a run's cursor to its next record; returns 0 at its end. */
static int
run_next_raw(struct run *r)
{
	if (r->index != NULL) {
		if (r->pos >= r->count)
			return (r->cur = NULL, 0);
		r->cur = (const void *)(arena + r->index[r->pos++]);
		return 1;
	}
	if (r->cur != NULL) {
		r->bufpos += SREC_SIZE(r->cur->textlen);
		r->cur = NULL;
	}
	return run_fill(r);
}

/* Advance a run and cache its current record's merge key. */
static int
run_next(struct run *r)
{
	int more = run_next_raw(r);

	if (more)
		r->key = abs_ts(r->cur);
	return more;
}

static void
run_start(struct run *r)
{
	r->pos = 0;
	r->cur = NULL;
	if (r->index == NULL) {
		r->bufcap = merge_bufsize();
		r->buf = xmalloc(r->bufcap);
		r->buflen = r->bufpos = 0;
		r->fread_off = r->foff;
	}
	run_next(r);
}

/* Heap of run indices ordered by their current record's time. */
static size_t *heap;
static size_t nheap;

static int
heap_less(size_t a, size_t b)
{
	int64_t ta = runs[a].key, tb = runs[b].key;

	if (ta != tb)
		return ta < tb;
	return a < b;
}

static void
heap_down(size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < nheap && heap_less(heap[l], heap[m]))
			m = l;
		if (l + 1 < nheap && heap_less(heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = heap[i], heap[i] = heap[m], heap[m] = t;
		i = m;
	}
}

/* Start merging the runs FIRST .. FIRST+N-1 (those with records). */
static void
heap_build_range(size_t first, size_t n)
{
	size_t i;

	free(heap);
	heap = xreallocarray(NULL, n + 1, sizeof(*heap));
	nheap = 0;
	for (i = first; i < first + n; i++) {
		run_start(&runs[i]);
		if (runs[i].cur != NULL)
			heap[nheap++] = i;
	}
	for (i = nheap / 2; i-- > 0;)
		heap_down(i);
}

static void
heap_build(void)
{
	heap_build_range(0, nruns);
}

/* Pop the earliest record; NULL when all runs are done. */
static const struct srec *
heap_pop(size_t *which)
{
	if (nheap == 0)
		return NULL;
	*which = heap[0];
	return runs[heap[0]].cur;
}

static void
heap_advance(void)
{
	if (run_next(&runs[heap[0]]) == 0)
		heap[0] = heap[--nheap];
	heap_down(0);
}

static void
run_release(struct run *r)
{
	free(r->buf);
	r->buf = NULL;
	free(r->index);
	r->index = NULL;
}

/*
 * Merge the spilled runs FIRST .. FIRST+N-1 into one new run at the end
 * of the spill file.  Their records are already on the output clock
 * (every source has ended), so runs of different sources mix freely.
 */
static void
merge_group(size_t first, size_t n)
{
	const struct srec *sr;
	struct run merged;
	size_t which, i;

	memset(&merged, 0, sizeof(merged));
	if (fseeko(spill, 0, SEEK_END) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	merged.foff = spill_len;
	heap_build_range(first, n);
	while ((sr = heap_pop(&which)) != NULL) {
		size_t sz = SREC_SIZE(sr->textlen);

		if (fwrite(sr, 1, sz, spill) != sz)
			diag_errno(EXIT_BAD, "temporary file");
		spill_len += (off_t)sz;
		merged.count++;
		heap_advance();
	}
	if (fflush(spill) != 0)
		diag_errno(EXIT_BAD, "temporary file");
	merged.flen = spill_len - merged.foff;
	merged.src = runs[first].src;
	for (i = first; i < first + n; i++)
		run_release(&runs[i]);
	runs[first] = merged;
	memmove(&runs[first + 1], &runs[first + n],
	    (nruns - first - n) * sizeof(*runs));
	nruns -= n - 1;
}

/*
 * Merge spilled runs in groups until few enough remain for one pass.
 * PROF_INGEST_MERGE_FAN lowers the fan-in so tests can exercise this.
 */
static void
reduce_runs(void)
{
	const char *env = getenv("PROF_INGEST_MERGE_FAN");
	size_t fan = MERGE_FAN;

	if (env != NULL && atoi(env) >= 2 && atoi(env) < MERGE_FAN)
		fan = (size_t)atoi(env);
	while (nruns > fan) {
		size_t first = 0;

		/* In-memory runs cost no buffer: merge spilled ones only. */
		while (first < nruns && runs[first].index != NULL)
			first++;
		if (nruns - first < 2)
			break;
		merge_group(first, nruns - first < fan ? nruns - first : fan);
	}
}

/* The runs that never left memory are sorted only now. */
static void
sort_memory_runs(void)
{
	size_t i;

	for (i = 0; i < nruns; i++)
		if (runs[i].index != NULL)
			sort_run(arena, runs[i].index, runs[i].count);
}

/* ---- output ---- */

/* The kind a record finally gets, or -1 when it is dropped. */
static int
resolve_kind(const struct srec *sr)
{
	const struct source *s = &srcs[sr->src];
	size_t i;

	if (sr->kind != IK_DEFER)
		return sr->kind;
	for (i = 0; i < s->nprocs; i++) {
		if (s->procs[i].pid != sr->pid)
			continue;
		switch (s->procs[i].cls) {
		case PC_DEVICE:
			return s->skip_device ? -1 : IK_KERNEL;
		case PC_HCCL:
			return IK_COMM;
		case PC_DERIVED:
			return -1;
		case PC_HOST:
			break;
		}
		break;
	}
	return IK_HOST;		/* a process with no name: host side */
}

static int64_t
resolve_dev(const struct srec *sr)
{
	const struct source *s = &srcs[sr->src];

	if (s->rank >= 0)
		return s->rank;
	if (sr->dev != IREC_DEV_SRC)
		return sr->dev;
	return s->lone_dev >= 0 ? s->lone_dev : 0;
}

/* The origin: the earliest absolute time of any timed record. */
static int64_t
find_origin(void)
{
	int64_t origin = INT64_MAX;
	size_t i;

	for (i = 0; i < nruns; i++) {
		struct run *r = &runs[i];
		const struct srec *sr;

		/* Runs are sorted: the first timed record is the minimum. */
		run_start(r);
		while ((sr = r->cur) != NULL && (sr->ts == IREC_NO_TS ||
		    resolve_kind(sr) < 0))
			run_next(r);
		if (sr != NULL && abs_ts(sr) < origin)
			origin = abs_ts(sr);
		free(r->buf);
		r->buf = NULL;
	}
	return origin == INT64_MAX ? 0 : origin;
}

/*
 * Append S to the preamble line at DST (CAP bytes left) with TSV escapes,
 * so that a path holding a TAB or newline cannot break the line.
 */
static size_t
append_escaped(char *dst, size_t cap, const char *s)
{
	size_t len = strlen(s), n;

	if (cap < 2 * len + 1) {
		dst[0] = '\0';
		return 0;
	}
	n = tsv_escape(s, len, dst);
	dst[n] = '\0';
	return n;
}

static void
write_preamble(struct tsvw *w, int64_t origin, int argc, char **argv)
{
	char line[8192];
	size_t i, n;
	int k;

	snprintf(line, sizeof(line), "prof-tsv %d", TSV_VERSION);
	tsvw_preamble(w, line);
	snprintf(line, sizeof(line), "origin_ns %" PRId64, origin);
	tsvw_preamble(w, line);
	for (i = 0; i < nsrcs; i++) {
		char rank[24] = "-";

		if (srcs[i].rank >= 0)
			snprintf(rank, sizeof(rank), "%" PRId64, srcs[i].rank);
		n = (size_t)snprintf(line, sizeof(line), "source %zu %s %s ",
		    i, ingest_fmtnames[srcs[i].fmt], rank);
		if (n < sizeof(line))
			append_escaped(line + n, sizeof(line) - n,
			    srcs[i].path);
		tsvw_preamble(w, line);
	}
	n = (size_t)snprintf(line, sizeof(line), "stage prof-ingest %s",
	    PACKAGE_VERSION);
	for (k = 1; k < argc && n < sizeof(line); k++) {
		line[n++] = ' ';
		n += append_escaped(line + n, sizeof(line) - n, argv[k]);
	}
	line[n < sizeof(line) ? n : sizeof(line) - 1] = '\0';
	tsvw_preamble(w, line);
	tsvw_header(w, ingest_colnames, IC_NCOLS);
}

static void
write_record(struct tsvw *w, const struct srec *sr, int kind, int64_t origin)
{
	/* Kind names are plain words: no escaping, length known. */
	tsvw_raw(w, ingest_kindnames[kind], kindlen[kind]);
	if (sr->ts == IREC_NO_TS)
		tsvw_empty(w);
	else
		tsvw_i64(w, abs_ts(sr) - origin);
	if (sr->has_dur)
		tsvw_i64(w, sr->dur);
	else
		tsvw_empty(w);
	tsvw_i64(w, resolve_dev(sr));
	tsvw_raw(w, (const char *)(sr + 1), sr->textlen);
	tsvw_i64(w, sr->src);
	tsvw_end(w);
}

/* Count a record into its source's inventory. */
static void
tally(const struct srec *sr, int kind)
{
	struct source *s = &srcs[sr->src];
	int64_t t;

	if (kind < 0) {
		s->ndropped++;
		return;
	}
	s->nkind[kind]++;
	if (sr->ts == IREC_NO_TS)
		return;
	t = abs_ts(sr);
	if (t < s->first)
		s->first = t;
	t += sr->has_dur ? sr->dur : 0;
	if (t > s->last)
		s->last = t;
}

static const char *const inventory_cols[] = {
	"path", "format", "rank", "records", "kernel", "host", "step",
	"comm", "flow", "counter", "mark", "pipe", "metric", "device", "dropped",
	"start_ns", "span_ns", "has", "skipped"
};

/* The "has" column: which kinds of evidence a source holds. */
static void
inventory_has(const struct source *s, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	if (s->nkind[IK_STEP] > 0 || strstr(s->notes, "step_ids") != NULL)
		n += (size_t)snprintf(buf + n, cap - n, "steps,");
	if (s->nkind[IK_COMM] > 0)
		n += (size_t)snprintf(buf + n, cap - n, "comm,");
	/* Notes as the readers gave them, but step ids count as "steps". */
	for (const char *p = s->notes; *p != '\0';) {
		size_t len = strcspn(p, ",");

		if (!(len == 8 && strncmp(p, "step_ids", 8) == 0) &&
		    n + len + 1 < cap) {
			memcpy(buf + n, p, len);
			n += len;
			buf[n++] = ',';
			buf[n] = '\0';
		}
		p += len + (p[len] == ',');
	}
	if (n > 0)
		buf[n - 1] = '\0';
}

static void
inventory_row(struct tsvw *w, const struct source *s, int64_t origin)
{
	char has[256], skipped[1024];
	uint64_t total = 0;
	size_t i, n = 0;
	int k;

	for (k = 0; k < IK_NKINDS; k++)
		total += s->nkind[k];
	tsvw_str(w, s->path);
	tsvw_str(w, ingest_fmtnames[s->fmt]);
	if (s->rank >= 0)
		tsvw_i64(w, s->rank);
	else
		tsvw_empty(w);
	tsvw_i64(w, (int64_t)total);
	for (k = 0; k < IK_NKINDS; k++)
		tsvw_i64(w, (int64_t)s->nkind[k]);
	tsvw_i64(w, (int64_t)s->ndropped);
	if (s->first <= s->last) {
		tsvw_i64(w, s->first - origin);
		tsvw_i64(w, s->last - s->first);
	} else {
		tsvw_empty(w);
		tsvw_empty(w);
	}
	inventory_has(s, has, sizeof(has));
	tsvw_str(w, has);
	skipped[0] = '\0';
	for (i = 0; i < s->nskip && n < sizeof(skipped); i++)
		n += (size_t)snprintf(skipped + n, sizeof(skipped) - n,
		    "%s%" PRIu64 " %s", i ? "; " : "", s->skipn[i],
		    s->skipwhy[i]);
	tsvw_str(w, skipped);
	tsvw_end(w);
}

/*
 * The inventory: one row per source, then one per file that was found
 * but not ingested, so a user sees at once what the profile holds.
 */
static void
write_inventory(struct tsvw *w, int64_t origin)
{
	size_t i, k, ncols = sizeof(inventory_cols) / sizeof(*inventory_cols);

	tsvw_header(w, inventory_cols, ncols);
	for (i = 0; i < nsrcs; i++)
		inventory_row(w, &srcs[i], origin);
	for (i = 0; i < nignored; i++) {
		char *tab = strchr(ignored[i], '\t');

		tsvw_field(w, ignored[i], (size_t)(tab - ignored[i]));
		tsvw_str(w, "-");
		for (k = 2; k < ncols - 2; k++)
			tsvw_empty(w);
		tsvw_str(w, "");
		tsvw_str(w, tab + 1);
		tsvw_end(w);
	}
}

/*
 * A rank's kernel_details.csv holds the same device tasks as its
 * trace_view.json, with shapes, wait time and PMU data: when both were
 * read, the trace_view copies are dropped so each task appears once.
 */
static void
mark_duplicate_device_tasks(void)
{
	size_t i, j;

	for (i = 0; i < nsrcs; i++) {
		if (srcs[i].fmt != ISF_TRACE_VIEW)
			continue;
		for (j = 0; j < nsrcs; j++)
			if ((srcs[j].fmt == ISF_KERNEL_DETAILS ||
			    srcs[j].fmt == ISF_OP_SUMMARY) &&
			    strcmp(srcs[j].run, srcs[i].run) == 0)
				srcs[i].skip_device = 1;
	}
}

void
sink_finish(int argc, char **argv)
{
	struct tsvw *w = tsvw_open(STDOUT_FILENO, "<stdout>");
	int64_t origin;
	const struct srec *sr;
	size_t which;

	if (nsrcs > 0 && srcs[nsrcs - 1].open)
		sink_end((int)nsrcs - 1);
	if (opts.progress)
		fprintf(stderr, "\r\033[K%s: merging %zu sorted runs%s\n",
		    diag_progname(), nruns, spill != NULL ?
		    " (spilled to disk)" : "");
	spill_join();
	sort_memory_runs();
	mark_duplicate_device_tasks();
	reduce_runs();
	origin = find_origin();

	if (!opts.inventory)
		write_preamble(w, origin, argc, argv);
	heap_build();
	while ((sr = heap_pop(&which)) != NULL) {
		int kind = resolve_kind(sr);

		tally(sr, kind);
		if (kind >= 0 && !opts.inventory)
			write_record(w, sr, kind, origin);
		heap_advance();
	}
	if (opts.inventory)
		write_inventory(w, origin);
	tsvw_close(w);
}
