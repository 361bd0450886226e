/*
 * rocpd-schema: what the database holds. The probe, TEMP views over the
 * uuid-suffixed tables, rocpd_metadata, the table layout (flat or through
 * rocpd_track and rocpd_timestamp) and the SQL pieces of each layout.
 */

#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "sources/source.h"
#include "sources/rocpd-int.h"
#include "util/xmalloc.h"

/* Every relation the reader may query, without its uuid suffix. */
static const char *const rocpd_rels[] = {
	"rocpd_metadata", "rocpd_string", "rocpd_info_node",
	"rocpd_info_process", "rocpd_info_thread", "rocpd_info_agent",
	"rocpd_info_queue", "rocpd_info_stream", "rocpd_info_kernel_symbol",
	"rocpd_info_category", "rocpd_track", "rocpd_timestamp",
	"rocpd_event", "rocpd_region", "rocpd_sample",
	"rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_memory_allocate",
	"rocpd_pmc_event",
};

int
rocpd_probe(struct sqlite3 *db)
{
	/* rocmProfileData files have rocpd_metadata too, and rocpd_op. */
	return source_sqlite_int(db, 0, "SELECT "
	    "EXISTS (SELECT 1 FROM sqlite_master WHERE type IN ('table', "
	    "'view') AND (name = 'rocpd_metadata' OR "
	    "name GLOB 'rocpd_metadata_*')) AND "
	    "EXISTS (SELECT 1 FROM sqlite_master WHERE type IN ('table', "
	    "'view') AND (name GLOB 'rocpd_kernel_dispatch*' OR "
	    "name GLOB 'rocpd_region*' OR name GLOB 'rocpd_info_agent*')) AND "
	    "NOT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'rocpd_op')")
	    != 0;
}

/* Schema. */

/*
 * Creates TEMP views named like the missing un-suffixed views over the
 * uuid-suffixed tables (several: UNION ALL).
 */
int
rocpd_views(struct rocpd *r)
{
	sqlite3_stmt	*st;
	char		*sql, *glob, *err = NULL;
	size_t		 i;
	int		 k, n;

	for (i = 0; i < sizeof rocpd_rels / sizeof *rocpd_rels; i++) {
		/* A table is read as it is; the file's own view of that name
		 * never (a TEMP view shadows it). */
		if (amd_db_has(&r->d, rocpd_rels[i]))
			continue;
		glob = xasprintf("%s_*", rocpd_rels[i]);
		st = amd_db_prepare(&r->d, "SELECT name FROM sqlite_master "
		    "WHERE type = 'table' AND name GLOB ? ORDER BY name",
		    "sqlite_master");
		if (st == NULL) {
			free(glob);
			return -1;
		}
		sqlite3_bind_text(st, 1, glob, -1, SQLITE_STATIC);
		sql = NULL;
		n = 0;
		while ((k = amd_db_step(&r->d, st, "sqlite_master")) == 1) {
			const char *t = col_text(st, 0);
			char *q = sqlite3_mprintf("%s SELECT * FROM \"%w\"",
			    n++ == 0 ? "" : " UNION ALL", t);
			xstrcatf(&sql, "%s", q);
			sqlite3_free(q);
		}
		sqlite3_finalize(st);
		free(glob);
		if (k < 0) {
			free(sql);
			return -1;
		}
		if (sql == NULL) {
			if (amd_db_no_views(&r->d, &rocpd_rels[i], 1) != 0)
				return -1;
			continue;
		}
		glob = sqlite3_mprintf("CREATE TEMP VIEW \"%w\" AS%s",
		    rocpd_rels[i], sql);
		free(sql);
		if (sqlite3_exec(r->d.db, glob, NULL, NULL, &err) !=
		    SQLITE_OK) {
			amd_db_error(&r->d, "cannot read the uuid-suffixed "
			    "tables of %s: %s", rocpd_rels[i], err != NULL ?
			    err : "unknown error");
			sqlite3_free(err);
			sqlite3_free(glob);
			return -1;
		}
		sqlite3_free(glob);
	}
	return 0;
}

/* Metadata, and the schema version check. */
int
rocpd_meta(struct rocpd *r)
{
	sqlite3_stmt	*st;
	const char	*tag, *val;
	char		*version = NULL;
	int		 k, bad = 0;

	if (!amd_db_has(&r->d, "rocpd_metadata")) {
		amd_db_error(&r->d, "rocpd database without rocpd_metadata "
		    "(no schema version)");
		return -1;
	}
	st = amd_db_prepare(&r->d, "SELECT tag, value FROM rocpd_metadata "
	    "ORDER BY id", "rocpd_metadata");
	if (st == NULL)
		return -1;
	while ((k = amd_db_step(&r->d, st, "rocpd_metadata")) == 1) {
		tag = col_text(st, 0);
		val = col_text(st, 1);
		if (strcmp(tag, "schema_version") == 0) {
			if (version == NULL)
				version = xstrdup(val);
			if (strcmp(val, ROCPD_SCHEMA) != 0 && !bad) {
				free(version);
				version = xstrdup(val);
				bad = 1;
			}
		}
		builder_meta(r->b, tag, val);
	}
	sqlite3_finalize(st);
	if (k < 0) {
		free(version);
		return -1;
	}
	if (version == NULL) {
		amd_db_error(&r->d, "rocpd database without a schema_version "
		    "in rocpd_metadata");
		return -1;
	}
	if (bad) {
		amd_db_error(&r->d, "unsupported rocpd schema version \"%s\" "
		    "(this reader knows schema version %s, written by "
		    "rocprofv3 in ROCm 7)", version, ROCPD_SCHEMA);
		free(version);
		return -1;
	}
	r->m->schema_version = builder_intern(r->b, version);
	r->m->source_version = builder_intern(r->b, "rocprofv3 (rocpd)");
	free(version);
	return 0;
}

void
rocpd_layout(struct rocpd *r)
{
	if (amd_db_col(&r->d, "rocpd_kernel_dispatch", "start_id") ||
	    (!amd_db_col(&r->d, "rocpd_kernel_dispatch", "start") &&
	    amd_db_col(&r->d, "rocpd_region", "start_id")))
		r->layout = ROCPD_TRACKED;
	else
		r->layout = ROCPD_FLAT;
	r->has_category = amd_db_col(&r->d, "rocpd_info_category", "name");
}

int
rocpd_q(struct rocpd *r, const char *rel, struct rocpd_q *q)
{
	if (!amd_db_has(&r->d, rel))
		return -1;
	memset(q, 0, sizeof *q);
	if (r->layout == ROCPD_FLAT) {
		q->pid = "X.pid";
		q->tid = amd_db_col(&r->d, rel, "tid") ? "X.tid" : "NULL";
		q->start = "X.start";
		q->end = "X.end";
		q->agent = amd_db_col(&r->d, rel, "agent_id") ? "X.agent_id" :
		    "NULL";
		q->queue = amd_db_col(&r->d, rel, "queue_id") ? "X.queue_id" :
		    "NULL";
		q->stream = amd_db_col(&r->d, rel, "stream_id") ?
		    "X.stream_id" : "NULL";
		q->joins = xstrdup("");
		return 0;
	}
	q->pid = "TR.pid";
	q->tid = "TR.tid";
	q->start = "TS.value";
	q->end = "TE.value";
	q->agent = amd_db_col(&r->d, "rocpd_track", "agent_id") ?
	    "TR.agent_id" : "NULL";
	q->queue = amd_db_col(&r->d, "rocpd_track", "queue_id") ?
	    "TR.queue_id" : "NULL";
	q->stream = amd_db_col(&r->d, "rocpd_track", "stream_id") ?
	    "TR.stream_id" : "NULL";
	q->joins = xstrdup(" LEFT JOIN rocpd_track TR ON TR.id = X.track_id "
	    "AND TR.guid = X.guid LEFT JOIN rocpd_timestamp TS ON "
	    "TS.id = X.start_id AND TS.guid = X.guid LEFT JOIN rocpd_timestamp "
	    "TE ON TE.id = X.end_id AND TE.guid = X.guid");
	return 0;
}

/* The category expression of event alias E. */
const char *
rocpd_category(struct rocpd *r)
{
	return r->has_category ? "COALESCE((SELECT name FROM "
	    "rocpd_info_category IC WHERE IC.id = E.category_id AND "
	    "IC.guid = E.guid), C.string)" : "C.string";
}
