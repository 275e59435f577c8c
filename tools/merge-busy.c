/*
 * The busy annotator of prof-merge: per device and step window, the
 * union of the device intervals of every stream, written as "busy"
 * records in their place in the stream.
 *
 * One pass, in start order.  Each (dev, window) has at most one open
 * segment: a device interval that starts at or before its end extends
 * it (touching intervals merge), one that starts later closes it.  A
 * segment is opened with stage_new() at its start, which is never
 * earlier than the record being read, so the stage queue keeps the
 * output sorted; it is put as soon as a record starts beyond its end,
 * since no later interval can reach back into it.  Memory is the
 * records between the oldest open segment's start and the input
 * position, which --hold-limit caps by cutting a long segment into
 * touching pieces, plus a few words per device and open window.
 *
 * The parts of intervals outside every window of their device go to
 * one more segment per device, with an empty step; without windows it
 * is the union over the whole capture.
 *
 * Window records (from prof-steps) arrive at the step start, after the
 * device intervals that started before the step.  Those that still run
 * into the window must be clipped into it too (the overlap rule of the
 * reference script: doc/analysis-rules.md, Busy time), and since all of
 * them started before the window
 * their clipped parts form the single interval [window start, largest
 * end), so one "running end" per device is all that has to be kept.
 */
#include <config.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "devtab.h"
#include "diag.h"
#include "dueq.h"
#include "merge.h"
#include "stage.h"
#include "xalloc.h"

/* A step window of one device and its open busy segment. */
struct win {
	int64_t		 s, e;
	char		*step, *group;
	size_t		 steplen, grouplen;
	struct srec	*seg;		/* open segment, or NULL */
	int64_t		 seg_s, seg_e;
	uint64_t	 seg_n;		/* records read when it opened */
};

struct bdev {
	const char	*name;		/* kept by the devtab */
	size_t		 len;
	int64_t		 run_end;	/* largest end of an interval so far */
	int		 ran;		/* run_end is set */
	struct win	 out;		/* outside every window */
	struct win	*w;		/* windows not yet passed */
	size_t		 nw, capw;
	int64_t		 queued;	/* its earliest time in due */
};

struct busy {
	struct stage	*st;
	const struct busy_opts *o;
	int		 c_step, c_group;	/* bound by stage_open() */
	struct devtab	 devs;
	/* nothing needs closing before a record starts after this */
	int64_t		 next_check;
	/* the devices by that moment: only they are visited (dueq.h) */
	struct dueq	 due;
	uint64_t	 nread;		/* timed records read */
	uint64_t	 oldest_n;	/* at most the oldest seg_n open */
};

static struct bdev *
get_dev(struct busy *b, const char *name, size_t len)
{
	int isnew;
	struct bdev *d = devtab_get(&b->devs, name, len, &isnew);

	if (isnew) {
		d->name = b->devs.v[b->devs.n - 1].name;
		d->len = len;
		d->queued = INT64_MAX;
	}
	return d;
}

/* Something of D may need closing before a record after T. */
static void
want_check(struct busy *b, struct bdev *d, int64_t t)
{
	dueq_add(&b->due, t, d, &d->queued);
	if (t < b->next_check)
		b->next_check = t;
}

static struct win *
add_win(struct bdev *d, int64_t s, int64_t e)
{
	struct win *w;

	if (d->nw == d->capw) {
		d->capw = d->capw ? 2 * d->capw : 4;
		d->w = xreallocarray(d->w, d->capw, sizeof(*d->w));
	}
	w = &d->w[d->nw++];
	memset(w, 0, sizeof(*w));
	w->s = s;
	w->e = e;
	return w;
}

/*
 * Write the open segment of W, with the step columns of its window.
 * Nearly every kernel makes one: the lengths are known, not counted.
 */
static void
seg_put(struct busy *b, const struct bdev *d, struct win *w)
{
	struct srec *r = w->seg;

	srec_set_i64(r, COL_DUR, w->seg_e - w->seg_s);
	srec_set(r, COL_DEV, d->name, d->len);
	srec_set(r, COL_NAME, "busy", 4);
	if (w->step != NULL)
		srec_set(r, b->c_step, w->step, w->steplen);
	if (w->group != NULL)
		srec_set(r, b->c_group, w->group, w->grouplen);
	stage_put(b->st, r);
	w->seg = NULL;
}

/* Add the part [S, E) of a device interval to the segment of W. */
static void
seg_add(struct busy *b, struct bdev *d, struct win *w, int64_t s, int64_t e)
{
	if (e <= s)
		return;
	if (w->seg != NULL && s <= w->seg_e) {
		if (e > w->seg_e)
			w->seg_e = e;
		return;
	}
	if (w->seg != NULL)
		seg_put(b, d, w);
	w->seg = stage_new(b->st, "busy", s);
	w->seg_s = s;
	w->seg_e = e;
	w->seg_n = b->nread;
	if (b->nread < b->oldest_n)
		b->oldest_n = b->nread;
	want_check(b, d, e);
}

static void
win_free(struct win *w)
{
	free(w->step);
	free(w->group);
}

/*
 * Before a record at TS: put every segment of D that ends before TS and
 * drop the windows that end at or before it (nothing at TS can overlap
 * them); then queue D at its next such moment.
 */
static void
close_dev(struct busy *b, struct bdev *d, int64_t ts)
{
	int64_t next = INT64_MAX;
	size_t j;

	if (d->out.seg != NULL && d->out.seg_e < ts)
		seg_put(b, d, &d->out);
	if (d->out.seg != NULL && d->out.seg_e < next)
		next = d->out.seg_e;
	for (j = 0; j < d->nw; j++) {
		struct win *w = &d->w[j];

		if (w->seg != NULL && (w->seg_e < ts || w->e <= ts))
			seg_put(b, d, w);
		if (w->e <= ts) {
			win_free(w);
			d->w[j--] = d->w[--d->nw];
			continue;
		}
		if (w->seg != NULL && w->seg_e < next)
			next = w->seg_e;
		if (w->e - 1 < next)
			next = w->e - 1;
	}
	dueq_add(&b->due, next, d, &d->queued);
}

/*
 * Before a record at TS: close what ends before it, on the devices that
 * have something due then (put order does not matter: the stage keeps
 * each record's place).  Only done when TS passes next_check, the
 * earliest such moment.
 */
static void
close_before(struct busy *b, int64_t ts)
{
	if (ts <= b->next_check)
		return;
	while (dueq_first(&b->due) < ts)
		close_dev(b, dueq_take(&b->due), ts);
	b->next_check = dueq_first(&b->due);
}

/* A copy of field COL of the current record and, in *LEN, its length. */
static char *
field_dup(struct busy *b, int col, size_t *len)
{
	const char *s = stage_get(b->st, col, len);

	return *len > 0 ? xstrndup(s, *len) : NULL;
}

/* The end of the latest window of D, INT64_MIN when none is open. */
static int64_t
windows_end(const struct bdev *d)
{
	int64_t m = INT64_MIN;
	size_t j;

	for (j = 0; j < d->nw; j++)
		if (d->w[j].e > m)
			m = d->w[j].e;
	return m;
}

/*
 * A window record: open its window, with what already runs into it.
 * The intervals read so far all started at or before the window start
 * S, so the outside segment is cut at S; the part of them past S is
 * [S, run_end), which goes into the window and, beyond the end of every
 * open window, back outside.
 */
static void
on_window(struct busy *b)
{
	int64_t s = stage_ts(b->st), dur = stage_dur(b->st), e, m;
	size_t len;
	const char *dev = stage_get(b->st, COL_DEV, &len);
	struct bdev *d;
	struct win *w;

	if (dur < 0)
		diag_at_fatal(EXIT_BAD, stage_path(b->st),
		    stage_lineno(b->st), "window record without dur_ns");
	e = s + dur;		/* the stage library checked that it fits */
	if (dur == 0)
		return;
	d = get_dev(b, dev, len);
	if (d->out.seg != NULL && d->out.seg_e > s) {
		d->out.seg_e = s;
		if (d->out.seg_e <= d->out.seg_s) {
			stage_drop(b->st, d->out.seg);
			d->out.seg = NULL;
		} else
			seg_put(b, d, &d->out);
	}
	w = add_win(d, s, e);
	w->step = field_dup(b, b->c_step, &w->steplen);
	w->group = field_dup(b, b->c_group, &w->grouplen);
	want_check(b, d, e - 1);
	if (!d->ran)
		return;
	seg_add(b, d, w, s, d->run_end < e ? d->run_end : e);
	m = windows_end(d);
	seg_add(b, d, &d->out, m, d->run_end);
}

/*
 * A device interval [S, E): clip it into every window of its device.
 * Every open window started at or before S and ends after it, so the
 * part outside all of them is [latest window end, E).
 */
static void
on_interval(struct busy *b)
{
	int64_t s = stage_ts(b->st), dur = stage_dur(b->st), e, m;
	size_t len, j;
	const char *dev = stage_get(b->st, COL_DEV, &len);
	struct bdev *d;

	if (dur <= 0)
		return;			/* instants and absent durations */
	e = s + dur;		/* the stage library checked that it fits */
	d = get_dev(b, dev, len);
	if (!d->ran || e > d->run_end)
		d->run_end = e;
	d->ran = 1;
	for (j = 0; j < d->nw; j++) {
		struct win *w = &d->w[j];

		if (w->s < e && s < w->e)
			seg_add(b, d, w, s > w->s ? s : w->s,
			    e < w->e ? e : w->e);
	}
	m = windows_end(d);
	seg_add(b, d, &d->out, m > s ? m : s, e);
}

/*
 * Cut segment W at TS if it has kept more than the hold limit of records
 * waiting: the part before TS is written, the rest goes on from TS.
 */
static void
cut_segment(struct busy *b, struct bdev *d, struct win *w, int64_t ts)
{
	int64_t e = w->seg_e;

	if (w->seg == NULL || b->nread - w->seg_n <= b->o->hold ||
	    w->seg_s >= ts)
		return;
	w->seg_e = ts;
	seg_put(b, d, w);
	if (e > ts) {
		w->seg = stage_new(b->st, "busy", ts);
		w->seg_s = ts;
		w->seg_e = e;
		w->seg_n = b->nread;
	}
}

/*
 * Bound memory when a device never falls idle: every record after an
 * open segment's start waits in the output queue until the segment ends.
 */
static void
cut_long(struct busy *b, int64_t ts)
{
	uint64_t oldest = UINT64_MAX;
	size_t i, j;

	for (i = 0; i < b->devs.n; i++) {
		struct bdev *d = b->devs.v[i].item;

		cut_segment(b, d, &d->out, ts);
		if (d->out.seg != NULL && d->out.seg_n < oldest)
			oldest = d->out.seg_n;
		for (j = 0; j < d->nw; j++) {
			cut_segment(b, d, &d->w[j], ts);
			if (d->w[j].seg != NULL && d->w[j].seg_n < oldest)
				oldest = d->w[j].seg_n;
		}
	}
	b->oldest_n = oldest;
}

static int
is_busy_kind(const struct busy *b)
{
	size_t i;

	for (i = 0; i < b->o->nkinds; i++)
		if (stage_is(b->st, b->o->kinds[i]))
			return 1;
	return 0;
}

static void
busy_loop(struct busy *b)
{
	while (stage_next(b->st)) {
		int64_t ts = stage_ts(b->st);

		if (ts == STAGE_NO_TS) {
			stage_pass(b->st);
			continue;
		}
		close_before(b, ts);
		b->nread++;
		if (b->oldest_n != UINT64_MAX &&
		    b->nread - b->oldest_n > b->o->hold)
			cut_long(b, ts);
		stage_pass(b->st);
		if (!b->o->capture && stage_is(b->st, "window"))
			on_window(b);
		else if (is_busy_kind(b))
			on_interval(b);
	}
}

/* At the end of the input: put every segment still open, free the rest. */
static void
close_all(struct busy *b)
{
	size_t i, j;

	for (i = 0; i < b->devs.n; i++) {
		struct bdev *d = b->devs.v[i].item;

		if (d->out.seg != NULL)
			seg_put(b, d, &d->out);
		for (j = 0; j < d->nw; j++) {
			if (d->w[j].seg != NULL)
				seg_put(b, d, &d->w[j]);
			win_free(&d->w[j]);
		}
		free(d->w);
	}
	devtab_free(&b->devs);
	dueq_free(&b->due);
}

/*
 * Whether the arguments of a "#stage prof-merge VERSION ARG..." line
 * ask for a merge only (-m, --merge-only), which adds no busy record.
 */
static int
merge_only_args(const char *a)
{
	const char *e;
	size_t n;
	int skip = 1;		/* the version */

	for (; *a != '\0'; a = e + strspn(e, " ")) {
		a += strspn(a, " ");
		e = a + strcspn(a, " ");
		n = (size_t)(e - a);
		if (n == 0)
			break;
		if (skip) {
			skip = 0;
			continue;
		}
		if (n == 12 && strncmp(a, "--merge-only", 12) == 0)
			return 1;
		if (n == 2 && strncmp(a, "--", 2) == 0)
			break;
		if ((n == 7 && strncmp(a, "--kinds", 7) == 0) ||
		    (n == 12 && strncmp(a, "--hold-limit", 12) == 0)) {
			skip = 1;
			continue;
		}
		if (n >= 2 && a[0] == '-' && a[1] != '-')
			for (a++; a < e; a++) {
				if (*a == 'm')
					return 1;
				if (*a == 'k' || *a == 'l') {
					/* the option's value: here or next */
					skip = a + 1 == e;
					break;
				}
			}
	}
	return 0;
}

/*
 * The preamble line (from 1) of a prof-merge that added busy records,
 * or 0: run again, it would add every one of them a second time.
 */
static unsigned long
busy_seen(const struct stage *st)
{
	const char *l;
	size_t i;

	for (i = 0; (l = stage_preamble(st, i)) != NULL; i++)
		if (strncmp(l, "stage prof-merge ", 17) == 0 &&
		    !merge_only_args(l + 17))
			return (unsigned long)i + 1;
	return 0;
}

void
busy_run(const char *path, const struct busy_opts *o, int argc,
    char *argv[])
{
	/* busy records carry their window's step: read and added */
	static const struct stage_column columns[] = {
		STAGE_COLUMN(struct busy, c_step, "step",
		    STAGE_READ | STAGE_ADD),
		STAGE_COLUMN(struct busy, c_group, "step_group",
		    STAGE_READ | STAGE_ADD),
	};
	unsigned long seen;
	struct busy b;

	memset(&b, 0, sizeof(b));
	devtab_init(&b.devs, sizeof(struct bdev));
	b.o = o;
	b.next_check = INT64_MAX;
	b.oldest_n = UINT64_MAX;
	b.st = stage_open(path, argc, argv, columns,
	    sizeof(columns) / sizeof(columns[0]), &b);
	if ((seen = busy_seen(b.st)) != 0)
		diag_at_fatal(EXIT_BAD, stage_path(b.st), seen, "input already "
		    "annotated by prof-merge: its busy records would be added "
		    "again (read them as they are, or merge streams with -m)");
	busy_loop(&b);
	close_all(&b);
	stage_close(b.st);
}
