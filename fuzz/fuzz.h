/*
 * Shared by the libFuzzer harnesses.  The readers take a path (input.c
 * opens it through libarchive, as the tools do), so each input is written
 * to one scratch file per process, in $TMPDIR (tmpfs where it is), and
 * read back from there: the harness then drives exactly the code a tool
 * runs, detection of compression and archives included.
 */
#ifndef PROF_FUZZ_H
#define PROF_FUZZ_H
#include <stddef.h>
#include <stdint.h>

/* Write DATA to the scratch file and return its path. */
const char	*fuzz_file(const uint8_t *, size_t);
/* Read LEN bytes at S, so that AddressSanitizer checks them. */
void		 fuzz_touch(const char *, size_t);
/* Called by the stub sink with each source's path, when set. */
extern void	(*sink_stub_begin_hook)(const char *);
/* Silence the tools' diagnostics unless FUZZ_VERBOSE is set. */
void		 fuzz_quiet(void);
#endif
