/*
 * srcerr: the readers' one-line errors. See srcerr.h.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "sources/source.h"
#include "sources/srcerr.h"
#include "util/xmalloc.h"

void
srcerr_set(char **err, const char *path, const char *fmt, va_list ap)
{
	char	*s;

	if (*err != NULL)
		return;
	s = xvasprintf(fmt, ap);
	*err = xasprintf("%s: %s", path, s);
	free(s);
}

char *
srcerr_sqlite(struct sqlite3 *db, int rc, const char *what)
{
	int	 primary = rc & 0xff;
	char	*why, *s;

	if ((why = source_sqlite_errmsg(db, rc)) != NULL) {
		s = xasprintf("%s (while reading %s)", why, what);
		free(why);
		return s;
	}
	if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB ||
	    primary == SQLITE_IOERR || primary == SQLITE_FORMAT ||
	    primary == SQLITE_RANGE)
		return xasprintf("corrupt or truncated SQLite database (%s) "
		    "while reading %s", sqlite3_errstr(rc), what);
	return xasprintf("SQLite error while reading %s: %s", what,
	    sqlite3_errmsg(db));
}

void
srcerr_setf(char **err, const char *path, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	srcerr_set(err, path, fmt, ap);
	va_end(ap);
}

void
srcerr_sql(char **err, const char *path, struct sqlite3 *db, int rc,
    const char *what)
{
	char	*s = srcerr_sqlite(db, rc, what);

	srcerr_setf(err, path, "%s", s);
	free(s);
}

sqlite3_stmt *
srcerr_prepare(char **err, const char *path, struct sqlite3 *db,
    const char *sql, const char *what)
{
	sqlite3_stmt	*st = NULL;
	int		 rc;

	if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)) != SQLITE_OK) {
		srcerr_sql(err, path, db, rc, what);
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

int
srcerr_step(char **err, const char *path, struct sqlite3 *db,
    sqlite3_stmt *st, const char *what)
{
	int	rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	srcerr_sql(err, path, db, rc, what);
	return -1;
}
