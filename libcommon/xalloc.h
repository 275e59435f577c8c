/*
 * Allocation wrappers that end the program with a diagnostic when memory
 * runs out; callers never check for NULL.
 */
#ifndef PROF_XALLOC_H
#define PROF_XALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/*
 * printf into a string of its own size (free it): text with names in it
 * is never cut, as a fixed buffer would cut it, half a character and all.
 */
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));

#endif
