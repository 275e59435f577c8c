/*
 * Command-line helpers: --version, the "Try --help" line, strict number
 * parsing of option arguments, and the check that stdout was written.
 */
#ifndef PROF_CLI_H
#define PROF_CLI_H

#include <stdint.h>

/* Print "prog (proftools) VERSION" and the licence line; exit 0. */
void	 cli_version(void) __attribute__((noreturn));
/* Print "Try 'prog --help' for more information." and exit 2. */
void	 cli_try_help(void) __attribute__((noreturn));
/* Print "prog: msg", then the try-help line, and exit 2. */
void	 cli_usage_error(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
/*
 * Parse a whole decimal integer option argument within [min, max]; on
 * failure report "option 'NAME' ..." as a usage error.
 */
int64_t	 cli_parse_i64(const char *, const char *, int64_t, int64_t);
/*
 * Parse a decimal option argument (such as "1.5") scaled by 10^SCALE,
 * exactly, within [min, max] (scaled values).
 */
int64_t	 cli_parse_fixed(const char *, const char *, int, int64_t, int64_t);
/* Parse a size with an optional K, M or G suffix (powers of 1024). */
uint64_t cli_parse_size(const char *, const char *);
/*
 * Flush and close stdout; on failure print "prog: write error: ..." and
 * exit 1.  Registered with atexit() by cli_init().
 */
void	 cli_close_stdout(void);
/* Set the program name and register cli_close_stdout. */
void	 cli_init(const char *);

#endif
