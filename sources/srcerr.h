/*
 * srcerr: the one-line errors of the readers. A reader keeps its first
 * error only, prefixed with the trace's path; SQLite's return codes become
 * a sentence that says what was being read.
 */
#ifndef GPULENS_SRCERR_H
#define GPULENS_SRCERR_H

#include <stdarg.h>

struct sqlite3;

/*
 * Sets *err to "PATH: MESSAGE" (MESSAGE from fmt and ap) unless *err is
 * already set: the first error is the one reported.
 */
void	 srcerr_set(char **err, const char *path, const char *fmt, va_list ap)
	    __attribute__((format(printf, 3, 0)));
/*
 * The message for SQLite error rc met while reading what (a table or a
 * query's subject): the work bound or a lock (source_sqlite_errmsg()), a
 * corrupt or truncated file, else SQLite's own message. Caller frees.
 */
char	*srcerr_sqlite(struct sqlite3 *, int rc, const char *what);

#endif
