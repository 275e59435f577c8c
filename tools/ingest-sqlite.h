/*
 * Internals of prof-ingest's SQLite readers, shared by the files they are
 * split into: ingest-sqlite.c opens a database safely (read-only and
 * immutable, after checking that it is whole and that nobody writes it),
 * tells the schemas apart, and holds the helpers both readers need
 * (columns by name, the string table, statements, the inventory of
 * tables); ingest-ascend-db.c reads the Ascend databases (torch_npu,
 * msprof, analysis.db); ingest-nsys.c reads Nsight Systems exports.
 */
#ifndef PROF_INGEST_SQLITE_H
#define PROF_INGEST_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "ingest.h"

/* SQLite's page cache for one database: bounded, whatever its size. */
#define SQDB_CACHE_KIB	8192

/* An open database and what its reader has done with it. */
struct sqdb {
	sqlite3		*db;
	const char	*path;		/* the file, for a prefetcher */
	const char	*where;		/* for diagnostics */
	struct sink	*sink;
	int		 src;		/* the sink's source */
	const struct ingest_ctx *ctx;
	/* Its tables, with the rows each reader took from them. */
	char		**tables;
	size_t		 ntables;
	int64_t		*rows;		/* -1: not read */
	const char	**why;		/* for a table read or not */
	/* The string table (STRING_IDS, StringIds), id to text. */
	int64_t		*skeys;
	uint32_t	*soff, *slen;
	size_t		 scap, nstr;
	char		*sbuf;
	size_t		 sbuflen, sbufcap;
	int		 failed;
	int		 direct;	/* a stream may go to the output */
	int		 kept;		/* the reader keeps it: sq_free() */
};

/*
 * A connection to PATH, read-only and immutable, with a bounded page
 * cache: SQLITE_OK, or SQLite's error (*DB may then hold its message).
 */
int	 sq_connect(const char *, sqlite3 **);
/* Close the database and free Q. */
void	 sq_free(struct sqdb *);
/* Whether the database has table T (exact name). */
int	 sq_has_table(const struct sqdb *, const char *);
/* Whether table T has column C. */
int	 sq_has_col(struct sqdb *, const char *, const char *);
/* Whether column C of table T has INTEGER affinity (its declared type). */
int	 sq_col_integer(struct sqdb *, const char *, const char *);
/* The first of the NULL-ended column names that T has, or NULL. */
const char *sq_col_any(struct sqdb *, const char *, const char *const *);
/*
 * Prepare SQL; NULL after a diagnostic naming the table (SQLite's own
 * words: a corrupt page, a missing column).
 */
sqlite3_stmt *sq_prepare(struct sqdb *, const char *, const char *);
/*
 * Step a statement: 1 a row, 0 done, -1 after a diagnostic naming the
 * table (a corrupt page found while reading, an interrupted read).
 */
int	 sq_step(struct sqdb *, sqlite3_stmt *, const char *);
/* Note that table T was read (N rows) or passed over, with why. */
void	 sq_table(struct sqdb *, const char *, int64_t, const char *);
/* Load the string table T(id, value); 0, or -1 after a diagnostic. */
int	 sq_load_strings(struct sqdb *, const char *);
/* The string with id ID, or NULL (and *LEN 0) when there is none. */
const char *sq_str(const struct sqdb *, int64_t, size_t *);
/* Whether column I of the current row is NULL. */
#define SQ_NULL(st, i)	(sqlite3_column_type((st), (i)) == SQLITE_NULL)
/*
 * Column I as an integer in *V: 0 when it is NULL, else 1.  One call to
 * SQLite for every value but 0, where SQ_NULL and the value are two.
 */
static inline int
sq_int(sqlite3_stmt *st, int i, int64_t *v)
{
	*v = sqlite3_column_int64(st, i);
	return *v != 0 || sqlite3_column_type(st, i) != SQLITE_NULL;
}

/*
 * One row of a query: SQLite's current row of a statement, or a copy of
 * one that a prefetcher made (below).  The readers take their values
 * through sqr_*(), so that either can feed them.
 */
struct sqcell {
	int64_t		 i;		/* what sqlite3_column_int64() gives */
	double		 d;		/* a REAL's value */
	const char	*s;		/* a TEXT's or BLOB's bytes */
	size_t		 n;
	int		 type;		/* SQLITE_INTEGER ... SQLITE_NULL */
};
struct sqrow {
	sqlite3_stmt	*st;		/* a live row, or NULL */
	const struct sqcell *c;		/* a copied one */
};

static inline int
sqr_null(const struct sqrow *r, int i)
{
	return r->st != NULL ? SQ_NULL(r->st, i) : r->c[i].type == SQLITE_NULL;
}

/* Column I as an integer in *V: 0 when it is NULL, else 1. */
static inline int
sqr_int(const struct sqrow *r, int i, int64_t *v)
{
	if (r->st != NULL)
		return sq_int(r->st, i, v);
	*v = r->c[i].i;
	return r->c[i].type != SQLITE_NULL;
}

/* The current row of statement ST, as a row. */
#define SQ_LIVE(st)	(&(const struct sqrow){ (st), NULL })

/* Column I as text (sqlite3_column_text()'s), or NULL when it is NULL. */
const char *sqr_text(const struct sqrow *, int, size_t *);

/*
 * A query read ahead: its rows are stepped by a thread of its own, on a
 * connection of its own, while the reader makes records of the rows
 * before; SETUP (SQL that makes the temporary tables the query needs,
 * or NULL) runs there first.  Where threads cannot be had, the query
 * runs on the reader's connection as it asks for rows.  sqpf_open()
 * returns NULL after a diagnostic (SETUP failing names SETUP_TABLE; the
 * query, TABLE); sqpf_next() gives 1 and a row, 0 at the end, or -1
 * after a diagnostic naming TABLE.
 */
struct sqpf;
struct sqpf *sqpf_open(struct sqdb *, const char *, const char *,
	    const char *, const char *);
int	 sqpf_next(struct sqpf *, struct sqrow *);
void	 sqpf_close(struct sqpf *);

/* Column I of a row as a string id looked up in the string table. */
const char *sq_col_str(const struct sqdb *, const struct sqrow *, int,
	    size_t *);

/* SQL text under construction, grown as needed. */
struct sqlbuf {
	char		*s;
	size_t		 len, cap;
};
void	 sq_sql(struct sqlbuf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* ", ALIAS.COL" (", COL" without ALIAS) when T has COL, else ", NULL". */
void	 sq_sql_col(struct sqdb *, struct sqlbuf *, const char *,
	    const char *, const char *);
/* Column IC of the record := the decimal text of V, in BUF (24 bytes). */
void	 sq_set_i64(struct irec *, int, char *, int64_t);
/*
 * The record's start and duration from columns I (start) and I + 1
 * (end; a NULL end is an instant when OPEN_END).  A row without them,
 * or ending before it starts, is counted as skipped: -1.
 */
int	 sq_times(struct sqdb *, const struct sqrow *, int, const char *,
	    int, struct irec *);
/* A step marker name (ProfilerStep#N and the like): kind step, its N. */
void	 sq_check_step(struct irec *);

/* The readers, given an open database whose tables say what it is. */
int	 ingest_ascend_db(struct sqdb *);
int	 ingest_analysis_db(struct sqdb *);
int	 ingest_nsys_db(struct sqdb *);
int	 ingest_cluster_db(struct sqdb *);
/* Whether the tables are those of each kind. */
int	 sq_is_ascend(const struct sqdb *);
int	 sq_is_analysis(const struct sqdb *);
int	 sq_is_nsys(const struct sqdb *);
int	 sq_is_cluster(const struct sqdb *);

#endif
