/*
 * B/E pairing for prof-ingest's Chrome trace reader (ingest-chrome.c).
 * A B event is kept, as its own JSON text, until its E comes; the pair
 * then becomes one record of the B event's fields with the span between
 * them.  Open events are bounded in number and bytes, and what never
 * pairs is counted as skipped.  Apart from the reader because it is the
 * one part of it that holds state across events.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest-chrome.h"
#include "xalloc.h"

#define BE_MAX_OPEN	(1 << 20)	/* B events waiting for their E */
#define BE_MAX_BYTES	((size_t)256 << 20)

/* Append token T's raw text (nothing if absent) to the pairing key. */
static size_t
key_add(struct chrome *c, size_t n, int t, char sep)
{
	size_t len = t >= 0 ? (size_t)(c->tok[t].end - c->tok[t].start) : 0;

	if (c->keycap < n + len + 1) {
		c->keycap = 2 * (n + len + 1);
		c->keybuf = xrealloc(c->keybuf, c->keycap);
	}
	if (len > 0)
		memcpy(c->keybuf + n, c->js + c->tok[t].start, len);
	c->keybuf[n + len] = sep;
	return n + len + 1;
}

/*
 * B and E pair up per (pid, tid), innermost first; when they carry an
 * "id" (the simulator's SET_FLAG/WAIT_FLAG, on different pipes) they pair
 * per (pid, id) instead.  Returns the key's bucket entry.
 */
static struct bkey *
be_find(struct chrome *c, const struct evf *f, int create)
{
	struct bkey **slot, *k;
	uint32_t h = 2166136261u;
	size_t n, i;

	n = key_add(c, 0, f->pid, '\x1f');
	n = f->id >= 0 ? key_add(c, n, f->id, '#') : key_add(c, n, f->tid, '@');
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)c->keybuf[i]) * 16777619u;
	slot = &c->bk[h % BE_NBUCKETS];
	for (k = *slot; k != NULL; k = k->next)
		if (k->klen == n && memcmp(k->key, c->keybuf, n) == 0)
			return k;
	if (!create)
		return NULL;
	k = xcalloc(1, sizeof(*k));
	k->key = xstrndup(c->keybuf, n);
	k->klen = n;
	k->next = *slot;
	*slot = k;
	return k;
}

/* Push an open event (B with its text, or an early E with none). */
static void
be_push(struct chrome *c, struct bkey *k, const struct jsonev_event *e,
    int64_t ts, int keep_text)
{
	struct bopen *o;

	if (c->nopen >= BE_MAX_OPEN ||
	    c->openbytes + e->len > BE_MAX_BYTES) {
		sink_skip(c->sink, c->src,
		    "B/E event beyond the open-event limit");
		return;
	}
	o = xcalloc(1, sizeof(*o));
	if (keep_text) {
		o->text = xmalloc(e->len);
		memcpy(o->text, e->text, e->len);
		o->len = e->len;
		c->openbytes += e->len;
	}
	o->ts = ts;
	event_pos(c);
	o->line = c->line;
	o->col = c->col;
	o->down = k->top;
	k->top = o;
	c->nopen++;
}

static struct bopen *
be_pop(struct chrome *c, struct bkey *k)
{
	struct bopen *o = k->top;

	k->top = o->down;
	c->nopen--;
	c->openbytes -= o->len;
	return o;
}

/* Emit the record of a B/E pair from the B event's fields. */
static int
emit_pair(struct chrome *c, const struct evf *f, int64_t beg, int64_t end)
{
	int64_t dur;

	if (end < beg) {
		sink_skip(c->sink, c->src, "E event earlier than its B event");
		return 0;
	}
	if (__builtin_sub_overflow(end, beg, &dur))
		return bad_event(c, "B/E pair longer than 64-bit nanoseconds",
		    -1, NULL);
	if (build_span(c, f, beg, dur, 0) < 0)
		return -1;
	if (f->id >= 0 && c->rec.len[IC_CORR] == 0 &&
	    set_col(c, IC_CORR, f->id) < 0)
		return -1;
	sink_add(c->sink, c->src, &c->rec);
	return 0;
}

/* Re-read a stored B event and emit its pair, ending at END. */
static int
replay(struct chrome *c, const struct bopen *o, int64_t end)
{
	const char *js = c->js;
	jsmntok_t *tok = c->tok;
	int ntok = c->ntok, r;
	unsigned long line = c->line, col = c->col;
	struct evf f;

	c->ntok = parse_small(o->text, o->len, &c->btok, &c->nbtok);
	c->js = o->text;
	c->tok = c->btok;
	c->line = o->line;
	c->col = o->col;
	find_fields(c, &f);
	r = emit_pair(c, &f, o->ts, end);
	c->js = js;
	c->tok = tok;
	c->ntok = ntok;
	c->line = line;
	c->col = col;
	return r;
}

/* ph B: wait for the E; by id, an E that came first completes it now. */
int
do_begin(struct chrome *c, const struct evf *f, const struct jsonev_event *e)
{
	struct bkey *k;
	struct bopen *o;
	int64_t ts, end;

	if (get_ts(c, f, &ts) < 0)
		return -1;
	k = be_find(c, f, 1);
	if (f->id >= 0 && k->top != NULL && k->top->text == NULL) {
		o = be_pop(c, k);
		end = o->ts;
		free(o);
		return emit_pair(c, f, ts, end);
	}
	be_push(c, k, e, ts, 1);
	return 0;
}

/* ph E: close the newest open B of its key. */
int
do_end(struct chrome *c, const struct evf *f, const struct jsonev_event *e)
{
	struct bkey *k;
	struct bopen *o;
	int64_t ts;
	int r;

	if (get_ts(c, f, &ts) < 0)
		return -1;
	k = be_find(c, f, f->id >= 0);
	if (k == NULL || k->top == NULL || k->top->text == NULL) {
		if (f->id >= 0)
			be_push(c, k, e, ts, 0);
		else
			sink_skip(c->sink, c->src, "unmatched E event");
		return 0;
	}
	o = be_pop(c, k);
	r = replay(c, o, ts);
	free(o->text);
	free(o);
	return r;
}

/* At the end: count what never paired, and free the table. */
void
be_flush(struct chrome *c, int count)
{
	struct bkey *k, *kn;
	struct bopen *o;
	size_t b;

	for (b = 0; b < BE_NBUCKETS; b++) {
		for (k = c->bk[b]; k != NULL; k = kn) {
			kn = k->next;
			while (k->top != NULL) {
				o = be_pop(c, k);
				if (count)
					sink_skip(c->sink, c->src,
					    o->text != NULL ?
					    "B event without E event" :
					    "unmatched E event");
				free(o->text);
				free(o);
			}
			free(k->key);
			free(k);
		}
		c->bk[b] = NULL;
	}
}
