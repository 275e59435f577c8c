/*
 * A queue of items by the time they have something due: the devices of
 * a stage that have a segment to end, a bubble to close or a window to
 * close before the next record.  Asking every device at every such
 * moment costs the device count per record; a job of 100,000 ranks has
 * such a moment at nearly every record.  A min-heap of (time, item).
 *
 * Each item keeps the earliest time it is queued at, in an int64_t of
 * its own (INT64_MAX when none) that the queue updates: an item is
 * queued again only for an earlier time, so the heap holds few entries
 * per item however often its time is asked for.  An entry may be stale
 * (its item's work was done with another entry); taking it is harmless,
 * as the caller looks at what is due and queues the item's next time.
 */
#ifndef PROF_DUEQ_H
#define PROF_DUEQ_H

#include <stddef.h>
#include <stdint.h>

struct dueent {
	int64_t		 t;
	void		*item;
	int64_t		*queued;
};

struct dueq {
	struct dueent	*v;
	size_t		 n, cap;
};

/* Queue ITEM at T, unless *QUEUED <= T; T of INT64_MAX is nothing. */
void	 dueq_add(struct dueq *, int64_t, void *, int64_t *);
/* The earliest time queued, INT64_MAX when none. */
int64_t	 dueq_first(const struct dueq *);
/* Take the earliest entry off the queue (N > 0); its item. */
void	*dueq_take(struct dueq *);
void	 dueq_free(struct dueq *);

#endif
