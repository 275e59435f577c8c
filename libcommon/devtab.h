/*
 * Per-device state of a stage, found by the text of the dev column.  A
 * stream holds a few devices (a rank, or a few NPUs each) and its records
 * come in runs of one device, so a check of the last hit and a scan beat
 * a hash table.  Each device's item is allocated zeroed, ISIZE bytes, and
 * keeps its address; its name is kept by the table.
 */
#ifndef PROF_DEVTAB_H
#define PROF_DEVTAB_H

#include <stddef.h>

struct devent {
	char	*name;		/* NUL-terminated copy of the dev text */
	size_t	 len;
	void	*item;
};

struct devtab {
	struct devent	*v;	/* v[0 .. n - 1], in order of first sight */
	size_t		 n;
	/* private */
	size_t		 cap, last, isize;
};

void	 devtab_init(struct devtab *, size_t);
/*
 * The item of device NAME (LEN bytes), made when first seen; then *ISNEW
 * (may be NULL) is 1, and the caller sets the item up.
 */
void	*devtab_get(struct devtab *, const char *, size_t, int *);
/* Put the devices in the order of CMP on their names (for reports). */
void	 devtab_sort(struct devtab *, int (*)(const char *, const char *));
/* Free the names, the items and the table; what items point to first. */
void	 devtab_free(struct devtab *);

#endif
