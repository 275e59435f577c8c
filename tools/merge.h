/*
 * prof-merge: the k-way merge of several sorted streams onto one origin
 * (merge-kway.c) and the busy-segment annotator (merge-busy.c).
 */
#ifndef PROF_MERGE_H
#define PROF_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct busy_opts {
	char		**kinds;	/* record kinds that count as busy */
	size_t		  nkinds;
	int		  capture;	/* ignore windows: whole capture */
	uint64_t	  hold;		/* records a segment may keep waiting */
};

/*
 * Merge the NPATHS streams into one written to file descriptor FD.
 * With ARGC > 0 the preamble ends with prof-merge's own "#stage" line
 * made from ARGV; the busy stage adds it otherwise.  Exits 1 after a
 * diagnostic on a bad preamble or header; a damaged record ends its
 * input (the records before it are merged) and makes the result
 * EXIT_BAD instead of EXIT_OK.
 */
int	 merge_run(char *const *, size_t, int, int, char *[]);

/* Annotate the stream PATH with busy records, written to stdout. */
void	 busy_run(const char *, const struct busy_opts *, int, char *[]);

#endif
