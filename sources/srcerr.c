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
