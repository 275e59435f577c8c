/*
 * prof-export: the column types shared by its two writers.
 */
#ifndef PROF_EXPORT_H
#define PROF_EXPORT_H

#include <stddef.h>

/* SQL types, in the order a column falls back: integer, real, text. */
#define EX_INFER	0
#define EX_INTEGER	1
#define EX_REAL		2
#define EX_TEXT		3

struct tsvr;
int	 export_check(struct tsvr *);
int	 export_coltype(const char *);
int	 export_valtype(const char *, size_t);
int	 export_sqlite(const char *, const char *);
int	 export_jsonl(const char *);
struct sqlite3;
void	 export_views(struct sqlite3 *, const char *);

#endif
