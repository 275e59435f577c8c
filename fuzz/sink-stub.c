/*
 * A stand-in for tools/ingest-sink.c under the harnesses: the readers of
 * prof-ingest run unchanged, and every record they hand over has each of
 * its text fields read in full, so AddressSanitizer sees a field that
 * points at freed or too little memory.  Nothing is kept, so memory stays
 * flat over millions of inputs.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ingest.h"

int ingest_lenient;
void (*sink_stub_begin_hook)(const char *);
static size_t nsources;

/* The readers only pass the sink on: none is needed. */
struct sink *
sink_open(const struct sink_opts *o)
{
	(void)o;
	return NULL;
}

/* Whether F is a row of the format table. */
static int
is_format(const struct ingest_format *f)
{
	const struct ingest_format *g;

	for (g = ingest_formats; g->name != NULL; g++)
		if (g == f)
			return 1;
	return 0;
}

int
sink_begin(struct sink *sk, const struct ingest_format *fmt, const char *path,
    const char *run, int64_t rank)
{
	(void)sk;
	if (!is_format(fmt) || path == NULL)
		abort();
	(void)run;
	(void)rank;
	if (sink_stub_begin_hook != NULL)
		sink_stub_begin_hook(path);
	nsources++;
	return 0;
}

size_t	sink_nsources(const struct sink *sk) { (void)sk; return nsources; }

int
sink_finish(struct sink *sk, int argc, char **argv)
{
	(void)sk;
	(void)argc;
	(void)argv;
	return 0;
}

void
sink_run_note(struct sink *sk, const char *run, const char *what)
{
	(void)sk;
	fuzz_touch(run, strlen(run) + 1);
	fuzz_touch(what, strlen(what) + 1);
}

void
sink_set_base(struct sink *sk, int src, int64_t base)
{
	(void)sk;
	(void)src;
	(void)base;
}

void
sink_set_rank(struct sink *sk, int src, int64_t rank)
{
	(void)sk;
	(void)src;
	(void)rank;
}

void
sink_end(struct sink *sk, int src)
{
	(void)sk;
	(void)src;
}

void
sink_set_process(struct sink *sk, int src, int64_t pid, const char *name)
{
	(void)sk;
	(void)src;
	(void)pid;
	fuzz_touch(name, strlen(name) + 1);
}

void
sink_set_fmt(struct sink *sk, int src, const struct ingest_format *fmt)
{
	(void)sk;
	(void)src;
	if (!is_format(fmt))
		abort();
}

void
sink_ignored(struct sink *sk, const char *path, const char *why)
{
	(void)sk;
	fuzz_touch(path, strlen(path) + 1);
	fuzz_touch(why, strlen(why) + 1);
}

void
sink_note(struct sink *sk, int src, const char *what)
{
	(void)sk;
	(void)src;
	fuzz_touch(what, strlen(what) + 1);
}

void
sink_skip(struct sink *sk, int src, const char *why)
{
	(void)sk;
	(void)src;
	fuzz_touch(why, strlen(why) + 1);
}

void
sink_add(struct sink *sk, int src, const struct irec *r)
{
	size_t i;

	(void)sk;
	(void)src;
	if ((r->kind < 0 || r->kind >= IK_NKINDS) && r->kind != IK_DEFER)
		abort();
	/* The sink reads LEN bytes of each text field (no NUL needed). */
	for (i = IC_FIRST_TEXT; i < IC_NCOLS; i++)
		if (r->len[i] > 0)
			fuzz_touch(r->v[i], r->len[i]);
}

/* The harnesses read every input once: no direct output. */
int	sink_can_direct(const struct sink *sk) { (void)sk; return 0; }

void
sink_fact(struct sink *sk, int src, const struct irec *r)
{
	(void)sk;
	(void)src;
	(void)r;
}

void
sink_facts_init(struct sink_facts *f)
{
	memset(f, 0, sizeof(*f));
}

void
sink_facts_add(struct sink_facts *f, const struct irec *r)
{
	(void)f;
	(void)r;
}

void
sink_facts_give(struct sink *sk, int src, const struct sink_facts *f)
{
	(void)sk;
	(void)src;
	(void)f;
}

void
sink_direct(struct sink *sk, int src, const struct sink_replay *rp,
    int ordered)
{
	(void)sk;
	(void)src;
	(void)rp;
	(void)ordered;
}

int
sink_emit(struct sink *sk, int src, const struct irec *r)
{
	(void)sk;
	(void)src;
	(void)r;
	return 0;
}

void
sink_hold(struct sink *sk, int src, const struct irec *r)
{
	sink_add(sk, src, r);
}

void
sink_hold_drop(struct sink *sk, int src)
{
	(void)sk;
	(void)src;
}

int
sink_emit_ref(struct sink *sk, int src, const struct irec *r,
    const char *t1, size_t l1, const char *t2, size_t l2, const char *t3,
    size_t l3)
{
	return sink_emit_text(sk, src, r, t1, l1, t2, l2, t3, l3);
}

int
sink_emit_text(struct sink *sk, int src, const struct irec *r,
    const char *t1, size_t l1, const char *t2, size_t l2, const char *t3,
    size_t l3)
{
	(void)sk;
	(void)src;
	(void)r;
	fuzz_touch(t1, l1);
	fuzz_touch(t2, l2);
	fuzz_touch(t3, l3);
	return 0;
}

ssize_t
sink_render_cols(struct sink *sk, const struct irec *r, int from, int to,
    char *out)
{
	(void)sk;
	(void)r;
	(void)from;
	(void)to;
	(void)out;
	return -1;
}
