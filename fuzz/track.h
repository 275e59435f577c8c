/*
 * For the harnesses over code that ends on bad input with exit(), as the
 * prof-tsv reader and the stage loop do (a diagnostic, then exit 1: right
 * for a program, fatal to a fuzzer).  The tracked-*.c files include such
 * a library file with these macros in force: exit() then jumps back to
 * the harness, and every allocation made through xalloc and every stream
 * opened there (and getline's buffer) is recorded, so that the harness can free what the
 * abandoned reader held (track_release) and LeakSanitizer still checks
 * the paths that do not exit.
 */
#ifndef PROF_FUZZ_TRACK_H
#define PROF_FUZZ_TRACK_H
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "xalloc.h"

void	*track_xmalloc(size_t);
void	*track_xcalloc(size_t, size_t);
void	*track_xrealloc(void *, size_t);
void	*track_xreallocarray(void *, size_t, size_t);
char	*track_xstrdup(const char *);
char	*track_xstrndup(const char *, size_t);
void	 track_free(void *);
FILE	*track_fopen(const char *, const char *);
int	 track_fclose(FILE *);
ssize_t	 track_getline(char **, size_t *, FILE *);
void	 track_exit(int) __attribute__((noreturn));

/* Run FN(ARG) so that exit() inside returns here; 1 if it exited. */
int	 track_run(void (*)(void *), void *);
/* Free every allocation and close every stream still recorded. */
void	 track_release(void);

#ifdef TRACK_RENAME
#define xmalloc		track_xmalloc
#define xcalloc		track_xcalloc
#define xrealloc	track_xrealloc
#define xreallocarray	track_xreallocarray
#define xstrdup		track_xstrdup
#define xstrndup	track_xstrndup
#define free		track_free
#define fopen		track_fopen
#define fclose		track_fclose
#define getline		track_getline
#define exit		track_exit
#endif
#endif
