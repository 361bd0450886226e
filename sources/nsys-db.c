/*
 * nsys-db: the schema-probing layer under the Nsight Systems reader: which
 * tables exist, which columns a table has, a SELECT that substitutes NULL
 * for missing columns, StringIds read once and interned lazily, and the
 * ENUM_* tables. See nsys-db.h.
 */
#include "config.h"

#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "sources/nsys-db.h"
#include "sources/source.h"
#include "sources/srcerr.h"
#include "util/xmalloc.h"

#define NSYS_DB_ROWS_STEP	65536	/* rows between progress reports */

void
nsys_db_sqlerr(struct nsys_db *d, int rc, const char *what)
{
	srcerr_sql(&d->err, d->path, d->db, rc, what);
}

/* Steps st: 1 a row, 0 done, -1 error (recorded). */
int
nsys_db_step(struct nsys_db *d, sqlite3_stmt *st, const char *what)
{
	return srcerr_step(&d->err, d->path, d->db, st, what);
}

sqlite3_stmt *
nsys_db_prepare(struct nsys_db *d, const char *sql, const char *what)
{
	return srcerr_prepare(&d->err, d->path, d->db, sql, what);
}

/*
 * Whether the reader reads relation name: the CUPTI_ACTIVITY_KIND_*,
 * ENUM_* and TARGET_INFO_* tables and the named others.
 */
static int
nsys_db_known(const char *name)
{
	static const char *const exact[] = {
		"NVTX_EVENTS", "OSRT_API", "StringIds", "ThreadNames",
		"PROCESSES", "META_DATA_EXPORT", "EXPORT_META_DATA",
	};
	size_t	i;

	if (strncasecmp(name, "CUPTI_ACTIVITY_KIND_", 20) == 0 ||
	    strncasecmp(name, "ENUM_", 5) == 0 ||
	    strncasecmp(name, "TARGET_INFO_", 12) == 0)
		return 1;
	for (i = 0; i < sizeof exact / sizeof *exact; i++)
		if (strcasecmp(name, exact[i]) == 0)
			return 1;
	return 0;
}

static int
nsys_db_schema(struct nsys_db *d)
{
	sqlite3_stmt	*st;
	size_t		 i;
	int		 r;

	st = nsys_db_prepare(d, "SELECT name, type FROM sqlite_master "
	    "WHERE type IN ('table', 'view')", "sqlite_master");
	if (st == NULL)
		return -1;
	while ((r = nsys_db_step(d, st, "sqlite_master")) == 1) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		if (name == NULL)
			continue;
		XGROW(d->tables, d->tablescap, d->ntables + 1);
		d->isview = xreallocarray(d->isview, d->tablescap, 1);
		d->tables[d->ntables] = xstrdup(name);
		d->isview[d->ntables] = type != NULL &&
		    strcmp(type, "view") == 0;
		d->ntables++;
	}
	sqlite3_finalize(st);
	if (r < 0)
		return -1;
	for (i = 0; i < d->ntables; i++) {
		if (d->isview[i] && nsys_db_known(d->tables[i])) {
			nsys_db_error(d, "%s is a view, not a table: gpulens "
			    "reads only the tables of an export (a view's "
			    "query may run without end)", d->tables[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * Index of table name in the schema or -1 (exact, case-sensitive match
 * first, then any case, as SQLite itself resolves names). Views are not
 * tables: a view's query may run without end, so none is ever read.
 */
static ssize_t
nsys_db_table(const struct nsys_db *d, const char *name)
{
	size_t	i;

	for (i = 0; i < d->ntables; i++)
		if (!d->isview[i] && strcmp(d->tables[i], name) == 0)
			return (ssize_t)i;
	for (i = 0; i < d->ntables; i++)
		if (!d->isview[i] && strcasecmp(d->tables[i], name) == 0)
			return (ssize_t)i;
	return -1;
}

int
nsys_db_has(const struct nsys_db *d, const char *name)
{
	return nsys_db_table(d, name) >= 0;
}

/*
 * Prepares "SELECT rowid, c1, ... FROM table [tail]": columns the table
 * lacks are selected as NULL and flagged 0 in have[] (NULL: not wanted).
 * Result column i + 1 is cols[i]. When a column marked '!' is missing, the
 * table is skipped with a warning: NULL is returned and d->err stays NULL.
 */
char *
nsys_db_query(struct nsys_db *d, const char *table, const char *const *cols,
    size_t ncols, int *have, const char *tail, int *hasrowid)
{
	sqlite3_stmt	*st;
	sqlite3_str	*q;
	char		**names = NULL, *sql;
	size_t		  nnames = 0, namescap = 0, i, j;
	ssize_t		  ti;
	int		  r, rowid = 1;

	if ((ti = nsys_db_table(d, table)) < 0)
		return NULL;
	table = d->tables[ti];

	sql = sqlite3_mprintf("PRAGMA table_info(\"%w\")", table);
	st = nsys_db_prepare(d, sql, table);
	sqlite3_free(sql);
	if (st == NULL)
		return NULL;
	while ((r = nsys_db_step(d, st, table)) == 1) {
		const char *c = (const char *)sqlite3_column_text(st, 1);
		XGROW(names, namescap, nnames + 1);
		names[nnames++] = xstrdup(c != NULL ? c : "");
	}
	sqlite3_finalize(st);
	if (r < 0)
		goto fail;

	/* WITHOUT ROWID tables have no usable rowid. */
	sql = sqlite3_mprintf("SELECT rowid FROM \"%w\" LIMIT 0", table);
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) != SQLITE_OK)
		rowid = 0;
	sqlite3_finalize(st);
	sqlite3_free(sql);

	q = sqlite3_str_new(d->db);
	sqlite3_str_appendall(q, rowid ? "SELECT rowid" : "SELECT -1");
	for (i = 0; i < ncols; i++) {
		const char *want = cols[i];
		int required = *want == '!', found = 0;
		if (required)
			want++;
		for (j = 0; j < nnames; j++) {
			if (strcasecmp(names[j], want) == 0) {
				found = 1;
				break;
			}
		}
		if (have != NULL)
			have[i] = found;
		if (!found && required) {
			builder_warn(d->b, "%s: skipped: no column %s", table,
			    want);
			sqlite3_free(sqlite3_str_finish(q));
			goto fail;
		}
		if (found)
			sqlite3_str_appendf(q, ", \"%w\"", want);
		else
			sqlite3_str_appendall(q, ", NULL");
	}
	sqlite3_str_appendf(q, " FROM \"%w\"%s%s", table,
	    tail != NULL ? " " : "", tail != NULL ? tail : "");
	sql = sqlite3_str_finish(q);
	if (sql == NULL) {
		nsys_db_error(d, "out of memory building a query on %s", table);
		goto fail;
	}
	xfree_strv(names, nnames);
	if (hasrowid != NULL)
		*hasrowid = rowid;
	return sql;

fail:
	xfree_strv(names, nnames);
	return NULL;
}

/* A cheap size estimate for progress: max(rowid), 0 if unknown. */
sqlite3_stmt *
nsys_db_select(struct nsys_db *d, const char *table, const char *const *cols,
    size_t ncols, int *have, const char *tail)
{
	sqlite3_stmt	*st;
	char		*sql;

	if ((sql = nsys_db_query(d, table, cols, ncols, have, tail,
	    NULL)) == NULL)
		return NULL;
	st = nsys_db_prepare(d, sql, table);
	sqlite3_free(sql);
	return st;
}

uint64_t
nsys_db_estimate(struct nsys_db *d, const char *table)
{
	int64_t	v;

	if (nsys_db_table(d, table) < 0)
		return 0;
	v = source_sqlite_int(d->db, 0, "SELECT max(rowid) FROM \"%w\"",
	    table);
	return v > 0 ? (uint64_t)v : 0;
}

int
nsys_db_strings(struct nsys_db *d, struct progress *prog)
{
	sqlite3_stmt	*st;
	int64_t		 id, maxid = -1;
	int64_t		*ids = NULL;
	size_t		 i, idscap = 0;
	int		 r, sparse = 0;

	if (!nsys_db_has(d, "StringIds"))
		return 0;
	st = nsys_db_prepare(d, "SELECT id, value FROM StringIds", "StringIds");
	if (st == NULL)
		return -1;
	progress_phase(prog, "strings", nsys_db_estimate(d, "StringIds"));
	while ((r = nsys_db_step(d, st, "StringIds")) == 1) {
		const char *s = (const char *)sqlite3_column_text(st, 1);
		size_t len = (size_t)sqlite3_column_bytes(st, 1);

		id = sqlite3_column_int64(st, 0);
		if (s == NULL)
			s = "", len = 0;
		XGROW(d->sbuf, d->sbufcap, d->sbuflen + len + 1);
		memcpy(d->sbuf + d->sbuflen, s, len);
		d->sbuf[d->sbuflen + len] = '\0';
		if (d->nstr == d->strcap) {
			XGROW(ids, idscap, d->nstr + 1);
			d->strcap = idscap;
			d->soff = xreallocarray(d->soff, d->strcap,
			    sizeof *d->soff);
			d->slen = xreallocarray(d->slen, d->strcap,
			    sizeof *d->slen);
		}
		ids[d->nstr] = id;
		d->soff[d->nstr] = d->sbuflen;
		d->slen[d->nstr] = (uint32_t)len;
		d->nstr++;
		d->sbuflen += len + 1;
		if (id < 0)
			sparse = 1;
		else if (id > maxid)
			maxid = id;
		if ((d->nstr & (NSYS_DB_ROWS_STEP - 1)) == 0)
			progress_rows(prog, d->nstr);
	}
	sqlite3_finalize(st);
	if (r < 0) {
		free(ids);
		return -1;
	}
	if (d->nstr == 0) {
		free(ids);
		return 0;
	}
	d->ssid = xreallocarray(NULL, d->nstr, sizeof *d->ssid);
	for (i = 0; i < d->nstr; i++)
		d->ssid[i] = NONE32;

	/* Dense ids index an array; sparse ones (derived files) a hash. */
	if (!sparse && (uint64_t)maxid < 2 * (uint64_t)d->nstr + 65536) {
		d->nsdense = (size_t)maxid + 1;
		d->sdense = xcalloc(d->nsdense, sizeof *d->sdense);
		for (i = 0; i < d->nstr; i++)
			d->sdense[ids[i]] = (uint32_t)i + 1;
	} else {
		for (i = 0; i < d->nstr; i++)
			hmap_put(&d->ssparse, (uint64_t)ids[i], (uint32_t)i);
	}
	free(ids);
	return 0;
}

/* StringIds entry of id, or -1. */
static ssize_t
nsys_db_str_entry(const struct nsys_db *d, int64_t id)
{
	uint32_t	v;

	if (d->sdense != NULL) {
		if (id < 0 || (uint64_t)id >= d->nsdense || d->sdense[id] == 0)
			return -1;
		return (ssize_t)d->sdense[id] - 1;
	}
	if (hmap_get(&d->ssparse, (uint64_t)id, &v))
		return (ssize_t)v;
	return -1;
}

/* Pool id of StringIds[id], interned on first use; 0 if missing. */
uint32_t
nsys_db_str(struct nsys_db *d, int64_t id)
{
	ssize_t	e;

	if ((e = nsys_db_str_entry(d, id)) < 0) {
		d->nbadstr++;
		return 0;
	}
	if (d->ssid[e] == NONE32)
		d->ssid[e] = builder_intern_n(d->b, d->sbuf + d->soff[e],
		    d->slen[e]);
	return d->ssid[e];
}

/* Text of StringIds[id] (borrowed) or NULL. */
const char *
nsys_db_str_text(const struct nsys_db *d, int64_t id)
{
	ssize_t	e;

	if ((e = nsys_db_str_entry(d, id)) < 0)
		return NULL;
	return d->sbuf + d->soff[e];
}

/* Reads ENUM table t; returns the number of rows (0 if absent), -1 error. */
ssize_t
nsys_db_enum(struct nsys_db *d, const char *t, struct nsys_db_enum_row **out)
{
	static const char *const cols[] = { "!id", "name", "label" };
	sqlite3_stmt	*st;
	size_t		 nrow = 0, cap = 0;
	int		 r;

	*out = NULL;
	if (!nsys_db_has(d, t))
		return 0;
	if ((st = nsys_db_select(d, t, cols, 3, NULL, NULL)) == NULL)
		return d->err != NULL ? -1 : 0;
	while ((r = nsys_db_step(d, st, t)) == 1) {
		const char *nm = (const char *)sqlite3_column_text(st, 2);
		const char *lb = (const char *)sqlite3_column_text(st, 3);
		XGROW(*out, cap, nrow + 1);
		(*out)[nrow].id = sqlite3_column_int64(st, 1);
		(*out)[nrow].name = xstrdup(nm != NULL ? nm : "");
		(*out)[nrow].label = xstrdup(lb != NULL ? lb : "");
		nrow++;
	}
	sqlite3_finalize(st);
	if (r < 0) {
		while (nrow > 0) {
			nrow--;
			free((*out)[nrow].name);
			free((*out)[nrow].label);
		}
		free(*out);
		*out = NULL;
		return -1;
	}
	return (ssize_t)nrow;
}

void
nsys_db_enum_free(struct nsys_db_enum_row *e, ssize_t ne)
{
	XFREE_EACH(e, ne, name);
	XFREE_EACH(e, ne, label);
	free(e);
}

int
nsys_db_open(struct nsys_db *d, const char *path, char **cause)
{
	memset(d, 0, sizeof *d);
	d->path = path;
	hmap_init(&d->ssparse);
	if ((d->db = source_sqlite_open(path, cause)) == NULL)
		return -1;
	if (nsys_db_schema(d) != 0) {
		*cause = d->err;
		d->err = NULL;
		nsys_db_close(d);
		return -1;
	}
	return 0;
}

void
nsys_db_close(struct nsys_db *d)
{
	if (d->db != NULL)
		sqlite3_close(d->db);
	d->db = NULL;
	xfree_strv(d->tables, d->ntables);
	free(d->isview);
	d->tables = NULL;
	d->isview = NULL;
	d->ntables = d->tablescap = 0;
	free(d->sbuf);
	free(d->soff);
	free(d->slen);
	free(d->ssid);
	free(d->sdense);
	d->sbuf = NULL;
	d->soff = NULL;
	d->slen = NULL;
	d->ssid = NULL;
	d->sdense = NULL;
	d->nstr = d->strcap = d->nsdense = 0;
	hmap_free(&d->ssparse);
}
