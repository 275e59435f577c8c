/*
 * UTF-8 checked as the Unicode Standard defines it (section 3.9, table
 * 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), and
 * ill-formed text made well-formed by the standard's recommended
 * practice: each maximal subpart of an ill-formed sequence becomes one
 * U+FFFD, so that the count of replacements is the same in every
 * program.  A prof-tsv stream is UTF-8 text (prof-tsv(5)); profilers
 * write names as they get them, and strict JSON and XML parsers reject
 * a report with one bad byte.
 */
#ifndef PROF_UTF8_H
#define PROF_UTF8_H

#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, encoded, and its length. */
#define UTF8_REPLACEMENT	"\xef\xbf\xbd"
#define UTF8_REPLACEMENT_LEN	3

/*
 * The sequence at S, of which N > 0 bytes are there: its length when it
 * is well formed (1 to 4); else 0, and *BAD is the length of its maximal
 * ill-formed subpart (1 to 3), the bytes one U+FFFD stands for.
 */
size_t	 utf8_seq(const char *, size_t, size_t *);
/* Whether the LEN bytes at S are well-formed UTF-8. */
int	 utf8_valid(const char *, size_t);
/*
 * Copy the LEN bytes at S to OUT, which has room for 3 * LEN bytes,
 * with each maximal ill-formed subpart replaced by U+FFFD; the length
 * written.  Adds the number of replacements to *NBAD (may be NULL).
 * OUT may not overlap S.
 */
size_t	 utf8_sanitize(const char *, size_t, char *, size_t *);

#endif
