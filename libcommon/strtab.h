/*
 * A string-keyed hash table that numbers its keys: the names of ops,
 * kernels and threads that a stage sees again and again.  Each key is
 * given an id, 0 for the first key added, 1 for the next, and so on;
 * the caller keeps its own arrays by id, or lets the table keep a value
 * of a fixed size with each key.  The keys are copied (NUL-terminated),
 * so a key may be a field of the current record.
 *
 * The index is open addressing by hash_bytes() of the key with seed 0,
 * linear probing, at most half full; the hash of each key is kept, so
 * that a probe compares bytes only when the hashes agree and growing
 * does not hash again.
 */
#ifndef PROF_STRTAB_H
#define PROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

/* strtab_find() of a key that is not in the table. */
#define STRTAB_NONE	SIZE_MAX

struct strkey {
	char		*s;	/* NUL-terminated copy of the key */
	size_t		 len;
	uint64_t	 hash;
};

struct strtab {
	struct strkey	*key;	/* key[0 .. n - 1], by id */
	size_t		 n;
	/* private */
	unsigned char	*val;	/* n values of vsize bytes, by id */
	size_t		 cap, vsize;
	uint32_t	*slot;	/* 1 + an id, or 0: empty */
	size_t		 mask;	/* slots - 1 */
};

/*
 * An empty table whose keys each have a zeroed value of VSIZE bytes.  A
 * table of zero bytes (a static one) is an empty table without values.
 */
void		 strtab_init(struct strtab *, size_t);
/* The id of KEY (LEN bytes), or STRTAB_NONE. */
size_t		 strtab_find(const struct strtab *, const char *, size_t);
/*
 * The id of KEY (LEN bytes), added when new: then *ISNEW (may be NULL)
 * is 1, and the key's value is zeroed.
 */
size_t		 strtab_intern(struct strtab *, const char *, size_t, int *);
/* Key ID (its length in *LEN, which may be NULL). */
static inline const char *
strtab_key(const struct strtab *t, size_t id, size_t *len)
{
	if (len != NULL)
		*len = t->key[id].len;
	return t->key[id].s;
}
/*
 * The value of key ID: valid until the next key is added, which may
 * move the values.
 */
static inline void *
strtab_val(const struct strtab *t, size_t id)
{
	return t->val + id * t->vsize;
}
/* Free the keys, the values and the index. */
void		 strtab_free(struct strtab *);

#endif
