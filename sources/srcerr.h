/*
 * srcerr: the one-line errors of the readers. A reader keeps its first
 * error only, prefixed with the trace's path; SQLite's return codes become
 * a sentence that says what was being read.
 */
#ifndef GPULENS_SRCERR_H
#define GPULENS_SRCERR_H

#include <stdarg.h>

struct sqlite3;
struct sqlite3_stmt;

/*
 * Sets *err to "PATH: MESSAGE" (MESSAGE from fmt and ap) unless *err is
 * already set: the first error is the one reported.
 */
void	 srcerr_set(char **err, const char *path, const char *fmt, va_list ap)
	    __attribute__((format(printf, 3, 0)));
/* srcerr_set() with the message's arguments. */
void	 srcerr_setf(char **err, const char *path, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/*
 * The message for SQLite error rc met while reading what (a table or a
 * query's subject): the work bound or a lock (source_sqlite_errmsg()), a
 * corrupt or truncated file, else SQLite's own message. Caller frees.
 */
char	*srcerr_sqlite(struct sqlite3 *, int rc, const char *what);
/* Sets *err (as srcerr_set() does) to the srcerr_sqlite() message. */
void	 srcerr_sql(char **err, const char *path, struct sqlite3 *, int rc,
	    const char *what);
/* Prepares sql on db: NULL with the error set (srcerr_sql()) on failure. */
struct sqlite3_stmt *srcerr_prepare(char **err, const char *path,
	    struct sqlite3 *, const char *sql, const char *what);
/* Steps st: 1 a row, 0 done, -1 with the error set (srcerr_sql()). */
int	 srcerr_step(char **err, const char *path, struct sqlite3 *,
	    struct sqlite3_stmt *, const char *what);

#endif
