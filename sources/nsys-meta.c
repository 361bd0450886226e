/*
 * nsys-meta: the export's metadata (META_DATA_EXPORT, or EXPORT_META_DATA
 * of older exports), the nsys and schema versions, and the session's start
 * time.
 */
#include "config.h"

#include <stdlib.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"

int
nsys_meta_read(struct nsys *n)
{
	const char	*table = NULL;
	sqlite3_stmt	*st;
	const char	*v;
	char		*sql;
	int		 r;

	if (nsys_db_has(&n->d, "META_DATA_EXPORT"))
		table = "META_DATA_EXPORT";
	else if (nsys_db_has(&n->d, "EXPORT_META_DATA"))
		table = "EXPORT_META_DATA";
	if (table != NULL) {
		sql = sqlite3_mprintf("SELECT name, value FROM \"%w\"", table);
		st = nsys_db_prepare(&n->d, sql, table);
		sqlite3_free(sql);
		if (st == NULL)
			return -1;
		while ((r = nsys_db_step(&n->d, st, table)) == 1) {
			const char *k, *val;

			k = (const char *)sqlite3_column_text(st, 0);
			val = (const char *)sqlite3_column_text(st, 1);
			if (k != NULL)
				builder_meta(n->b, k, val != NULL ? val : "");
		}
		sqlite3_finalize(st);
		if (r < 0)
			return -1;
	}

	if ((v = model_meta(n->m, "EXPORT_PRODUCT_VERSION")) != NULL && *v)
		n->m->source_version = builder_intern(n->b, v);
	else if (table == NULL)
		n->m->source_version = builder_intern(n->b, "unknown (export "
		    "without a metadata table: an older nsys, 2021 or before)");
	else
		n->m->source_version = builder_intern(n->b, "unknown");
	if ((v = model_meta(n->m, "EXPORT_SCHEMA_VERSION")) != NULL && *v) {
		long major = strtol(v, NULL, 10);
		n->m->schema_version = builder_intern(n->b, v);
		if (major != 2 && major != 3) {
			nsys_db_error(&n->d, "unsupported Nsight Systems "
			    "export schema version %s (this reader knows "
			    "major versions 2 and 3)", v);
			return -1;
		}
	}

	if (nsys_db_has(&n->d, "TARGET_INFO_SESSION_START_TIME")) {
		static const char *const cols[] = { "utcEpochNs" };
		int have[1];

		st = nsys_db_select(&n->d, "TARGET_INFO_SESSION_START_TIME",
		    cols, 1, have, NULL);
		if (st == NULL)
			return n->d.err != NULL ? -1 : 0;
		r = nsys_db_step(&n->d, st, "TARGET_INFO_SESSION_START_TIME");
		if (r == 1 && !col_null(st, 1))
			n->m->utc_epoch_ns = col_i64(st, 1);
		sqlite3_finalize(st);
		if (r < 0)
			return -1;
	}
	return 0;
}
