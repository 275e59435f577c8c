/*
 * The one translation unit that compiles jsmn's function definitions.
 * jsmn is header-only; every other file includes it through json.h with
 * JSMN_HEADER defined, which gives declarations only.  JSMN_PARENT_LINKS
 * comes from AM_CPPFLAGS, so the token layout is the same everywhere.
 */
#include <config.h>

#include <jsmn.h>
