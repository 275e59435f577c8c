/*
 * Per-device state of a stage, found by the text of the dev column.  A
 * stream mostly holds a few devices whose records come in runs, so the
 * last device found is checked first; behind it a hash index keeps the
 * look-up one probe or two whatever the count, as a job of 100,000
 * ranks must not cost a scan of them all per record.  Each device's
 * item is allocated zeroed, ISIZE bytes, and keeps its address; its
 * name is kept by the table.
 */
#ifndef PROF_DEVTAB_H
#define PROF_DEVTAB_H

#include <stddef.h>
#include <stdint.h>

struct devent {
	char	*name;		/* NUL-terminated copy of the dev text */
	size_t	 len;
	void	*item;
	uint64_t hash;
};

struct devtab {
	struct devent	*v;	/* v[0 .. n - 1], in order of first sight */
	size_t		 n;
	/* private */
	size_t		 cap, last, isize;
	size_t		*index;	/* 1 + an index into v, or 0: empty */
	size_t		 mask;	/* slots of index - 1 */
};

void	 devtab_init(struct devtab *, size_t);
/*
 * The item of device NAME (LEN bytes), made when first seen; then *ISNEW
 * (may be NULL) is 1, and the caller sets the item up.
 */
void	*devtab_get(struct devtab *, const char *, size_t, int *);
/* The item of device NAME, or NULL when it was never seen. */
void	*devtab_find(struct devtab *, const char *, size_t);
/* Put the devices in the order of CMP on their names (for reports). */
void	 devtab_sort(struct devtab *, int (*)(const char *, const char *));
/*
 * The order of devices in reports: names that are integers by value
 * (rank 2 before rank 10), before other names, which sort bytewise.
 */
int	 devtab_cmp(const char *, const char *);
/* Free the names, the items and the table; what items point to first. */
void	 devtab_free(struct devtab *);

#endif
