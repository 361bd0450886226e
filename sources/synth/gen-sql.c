/*
 * gen-sql: SQLite helpers. The first error is kept in the gen (failed,
 * cause) and every later call does nothing.
 */

#include "config.h"

#include <stdarg.h>

#include <sqlite3.h>

#include "sources/synth/gen-int.h"
#include "util/xmalloc.h"

/* SQLite helpers. */
void
gen_sql_fail(struct gen *g, const char *what)
{
	if (g->failed)
		return;
	g->failed = 1;
	g->cause = xasprintf("%s: %s", what, sqlite3_errmsg(g->db));
}

int
gen_sql_exec(struct gen *g, const char *sql)
{
	if (sqlite3_exec(g->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		gen_sql_fail(g, "sqlite");
		return (-1);
	}
	return (0);
}

void
gen_sql_step(struct gen *g, sqlite3_stmt *st)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		gen_sql_fail(g, "insert");
	sqlite3_reset(st);
}

/* Static tables: prepared once per table, rows bound from a format string
 * ('d' int, 'l' int64_t, 's' string or NULL). */
sqlite3_stmt *
gen_sql_prep(struct gen *g, const char *sql)
{
	sqlite3_stmt	*st;

	if (g->failed)
		return (NULL);
	if (sqlite3_prepare_v2(g->db, sql, -1, &st, NULL) != SQLITE_OK) {
		gen_sql_fail(g, "prepare");
		return (NULL);
	}
	return (st);
}

void
gen_sql_put(struct gen *g, sqlite3_stmt *st, const char *fmt, ...)
{
	va_list		 ap;
	const char	*s;
	int		 i;

	if (st == NULL || g->failed)
		return;
	va_start(ap, fmt);
	for (i = 0; fmt[i] != '\0'; i++) {
		switch (fmt[i]) {
		case 'd':
			BIND(st, i + 1, va_arg(ap, int));
			break;
		case 'l':
			BIND(st, i + 1, va_arg(ap, int64_t));
			break;
		case 's':
			if ((s = va_arg(ap, const char *)) == NULL)
				BINDN(st, i + 1);
			else
				sqlite3_bind_text(st, i + 1, s, -1,
				    SQLITE_TRANSIENT);
			break;
		}
	}
	va_end(ap);
	gen_sql_step(g, st);
}

void
gen_sql_finish(sqlite3_stmt *st)
{
	sqlite3_finalize(st);
}
