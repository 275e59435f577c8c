/*
 * Diagnostics shared by every prof-* program: the program name, warnings,
 * fatal errors, and positioned messages of the form "prog: FILE:LINE: msg".
 */
#ifndef PROF_DIAG_H
#define PROF_DIAG_H

#include <stdarg.h>

/* Exit statuses used by every tool. */
#define EXIT_OK		0
#define EXIT_BAD	1	/* bad data, I/O error, write error */
#define EXIT_USAGE	2	/* the command line was wrong */

void	 diag_setprogname(const char *);
const char *diag_progname(void);

/* "prog: msg" on stderr. */
void	 diag_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
/* "prog: msg: strerror(errno)" on stderr. */
void	 diag_warnerr(const char *, ...) __attribute__((format(printf, 1, 2)));
/* Print like diag_warn, then exit with the given status. */
void	 diag_err(int, const char *, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/* Print like diag_warnerr, then exit with the given status. */
void	 diag_errno(int, const char *, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/*
 * "prog: PATH:LINE: msg".  A line of 0 omits it ("prog: PATH: msg");
 * a NULL or "-" path prints as "<stdin>".
 */
void	 diag_at(const char *, unsigned long, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
void	 diag_vat(const char *, unsigned long, const char *, va_list);
/*
 * Mute diag_at, diag_vat and diag_atcol (ON = 1) or let them speak
 * again (0); diag_quiet_thread the same for the calling thread only.
 */
void	 diag_mute(int);
void	 diag_quiet_thread(int);
/* Like diag_at, with a column: "prog: PATH:LINE:COL: msg". */
void	 diag_atcol(const char *, unsigned long, unsigned long,
	    const char *, ...) __attribute__((format(printf, 4, 5)));
/* diag_at, then exit with the given status. */
void	 diag_at_fatal(int, const char *, unsigned long, const char *, ...)
	    __attribute__((format(printf, 4, 5), noreturn));
/* The name under which a path appears in diagnostics. */
const char *diag_path(const char *);

#endif
