/*
 * amd-db: opening an AMD profile database (plain or compressed), errors as
 * one line, and the schema probes the readers use to tolerate missing
 * tables and columns. See amd-db.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sources/amd-db.h"
#include "model/builder.h"
#include "sources/source.h"
#include "sources/srcerr.h"
#include "sources/sqlz.h"
#include "util/progress.h"
#include "util/timing.h"
#include "util/xmalloc.h"

int
amd_db_open(struct amd_db *d, const char *path, char **cause)
{
	memset(d, 0, sizeof *d);
	d->path = path;
	if ((d->plain = sqlz_plain(path, cause)) == NULL)
		return -1;
	if ((d->db = source_sqlite_open(d->plain, cause)) == NULL) {
		free(d->plain);
		d->plain = NULL;
		return -1;
	}
	return 0;
}

void
amd_db_close(struct amd_db *d)
{
	if (d->db != NULL)
		sqlite3_close(d->db);
	d->db = NULL;
	free(d->plain);
	d->plain = NULL;
}

void
amd_db_cause(struct amd_db *d, char **cause)
{
	if (cause != NULL)
		*cause = d->err;
	else
		free(d->err);
	d->err = NULL;
}

int
amd_db_times(struct amd_db *d, struct builder *b,
    const struct source_times *tt, const char *table)
{
	char	*msg;
	int	 fatal;

	if ((msg = source_times_verdict(tt, table, &fatal)) == NULL)
		return 0;
	if (fatal)
		amd_db_error(d, "%s", msg);
	else
		builder_warn(b, "%s", msg);
	free(msg);
	return fatal ? -1 : 0;
}

sqlite3_stmt *
amd_db_prepare(struct amd_db *d, const char *sql, const char *what)
{
	if (d->err != NULL)
		return NULL;
	return srcerr_prepare(&d->err, d->path, d->db, sql, what);
}

int
amd_db_step(struct amd_db *d, sqlite3_stmt *st, const char *what)
{
	return srcerr_step(&d->err, d->path, d->db, st, what);
}

int
amd_db_kind(struct amd_db *d, const char *name)
{
	sqlite3_stmt	*st = NULL;
	int		 kind = 0;

	/* TEMP views count: rocpd.c makes some over suffixed tables. */
	if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM sqlite_master WHERE "
	    "type = 'table' AND name = ?1 UNION ALL SELECT 1 FROM "
	    "sqlite_temp_master WHERE type = 'view' AND name = ?1 UNION ALL "
	    "SELECT -1 FROM sqlite_master WHERE type = 'view' AND name = ?1",
	    -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		kind = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return kind;
}

int
amd_db_has(struct amd_db *d, const char *name)
{
	return amd_db_kind(d, name) == 1;
}

int
amd_db_no_views(struct amd_db *d, const char *const *names, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (amd_db_kind(d, names[i]) == -1) {
			amd_db_error(d, "%s is a view, not a table: gpulens "
			    "reads only the tables of a profile (a view's "
			    "query may run without end)", names[i]);
			return -1;
		}
	}
	return 0;
}

int
amd_db_col(struct amd_db *d, const char *rel, const char *col)
{
	return source_sqlite_int(d->db, 0, "SELECT 1 FROM "
	    "pragma_table_info(%Q) WHERE name = %Q", rel, col) != 0;
}

uint64_t
amd_db_estimate(struct amd_db *d, const char *rel)
{
	int64_t	n;

	/* max(rowid) would do for nsys, but RPD ids carry a session number
	 * in their upper 32 bits; count(*) reads the smallest b-tree. */
	n = source_sqlite_int(d->db, 0, "SELECT count(*) FROM \"%w\"", rel);
	return n > 0 ? (uint64_t)n : 0;
}

struct model *
amd_db_load(const struct amd_db_reader *rd, void *r, struct amd_db *d,
    const char *path, struct progress *prog, char **cause)
{
	struct builder	*b;
	double		 t0 = timing_now();

	if (amd_db_open(d, path, cause) != 0)
		return NULL;
	rd->init(r, prog);
	if (!rd->probe(d->db)) {
		amd_db_error(d, "%s", rd->not_it);
		goto fail;
	}
	b = builder_new(rd->source);
	if (rd->read(r, b) != 0) {
		builder_abort(b);
		goto fail;
	}
	rd->free(r);
	progress_done(prog);
	timing_report(rd->timing, t0);
	return builder_finish(b, cause);

fail:
	progress_done(prog);
	amd_db_cause(d, cause);
	rd->free(r);
	return NULL;
}

void
amd_db_colx(struct amd_db *d, char **sql, const char *rel, const char *alias,
    const char *col)
{
	if (rel != NULL && amd_db_col(d, rel, col))
		xstrcatf(sql, ", %s.\"%s\"", alias, col);
	else
		xstrcatf(sql, ", NULL");
}
