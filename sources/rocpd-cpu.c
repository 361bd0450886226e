/*
 * rocpd-cpu: regions and samples, the CPU side. API calls and roctx
 * markers, their names through the cached rocpd_string ids, and their
 * correlation ids.
 */

#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "util/xmalloc.h"
#include "util/progress.h"
#include "sources/source.h"
#include "sources/rocpd-int.h"

/* The correlation id of a row: stack_id (internal), else correlation_id. */
uint32_t
rocpd_corr(sqlite3_stmt *st, int stack, int corr)
{
	if (!col_null(st, stack) && col_i64(st, stack) != 0)
		return (uint32_t)col_i64(st, stack);
	return col_null(st, corr) ? 0 : (uint32_t)col_i64(st, corr);
}

/* A marker's name: extdata's "message", else the fallback. */
static uint32_t
rocpd_marker_name(struct rocpd *r, sqlite3_stmt *st, int ext,
    uint32_t fallback)
{
	cJSON		*j;
	const char	*msg;
	uint32_t	 sid = fallback;

	if (col_null(st, ext) || strstr(col_text(st, ext), "message") ==
	    NULL)
		return fallback;
	if ((j = cJSON_Parse(col_text(st, ext))) != NULL) {
		msg = amd_json_str(j, "message");
		if (*msg != '\0')
			sid = builder_intern(r->b, msg);
		cJSON_Delete(j);
	}
	return sid;
}

/* Regions and samples: CPU calls and markers. */

enum {
	R_ID, R_GUID, R_PID, R_TID, R_START, R_END, R_NAME, R_CAT, R_STACK,
	R_CORR, R_EXT, R_NAMEID, R_CATID
};

/*
 * The pool id of the string in column text whose rocpd_string id is in
 * column id, cached per (guid, id) so that a name is hashed once, not once
 * per row. cls (when not NULL) gets the string's category class.
 */
uint32_t
rocpd_str(struct rocpd *r, uint32_t g, sqlite3_stmt *st, int id, int text,
    enum amd_class *cls)
{
	uint64_t	key;
	uint32_t	v;

	if (col_null(st, id)) {
		if (cls != NULL)
			*cls = amd_category_class(col_text(st, text));
		return col_null(st, text) ? 0 : builder_intern(r->b,
		    col_text(st, text));
	}
	key = hmap_key2(g, (uint64_t)col_i64(st, id));
	if (!hmap_get(&r->strs, key, &v)) {
		v = col_null(st, text) ? 0 : builder_intern_n(r->b,
		    col_text(st, text), (size_t)sqlite3_column_bytes(st,
		    text));
		hmap_put(&r->strs, key, v);
	}
	if (cls != NULL) {
		uint32_t c;
		if (!hmap_get(&r->classes, v, &c)) {
			c = (uint32_t)amd_category_class(strpool_get(
			    r->m->strs, v));
			hmap_put(&r->classes, v, c);
		}
		*cls = (enum amd_class)c;
	}
	return v;
}

static void
rocpd_cpu_event(struct rocpd *r, sqlite3_stmt *st, int instant)
{
	struct lane_event	 ev;
	struct nvtx_info	 info;
	uint32_t		 g = rocpd_guid(r, st, R_GUID), t;
	enum amd_class		 cls;

	(void)rocpd_str(r, g, st, R_CATID, R_CAT, &cls);
	memset(&ev, 0, sizeof ev);
	ev.rowid = col_i64(st, R_ID);
	ev.start = col_i64(st, R_START);
	ev.end = instant ? ev.start : col_i64(st, R_END);
	ev.aux = NONE32;
	ev.name = rocpd_str(r, g, st, R_NAMEID, R_NAME, NULL);
	if (cls == AMD_MARKER) {
		t = rocpd_cpu_track(r, TRACK_NVTX, g, col_i64(st, R_PID),
		    col_i64(st, R_TID));
		ev.name = rocpd_marker_name(r, st, R_EXT, ev.name);
		ev.kind = instant ? EV_MARK : EV_NVTX;
		if (amd_is_comm(strpool_get(r->m->strs, ev.name)))
			ev.flags |= EVF_COMM;
		memset(&info, 0, sizeof info);
		info.domain = r->m->tracks[t].domain;
		ev.aux = builder_nvtx(r->b, &info);
	} else {
		t = rocpd_cpu_track(r, TRACK_API, g, col_i64(st, R_PID),
		    col_i64(st, R_TID));
		ev.kind = EV_API;
		ev.corr = rocpd_corr(st, R_STACK, R_CORR);
		if (cls == AMD_API_DRIVER)
			ev.flags |= EVF_DRIVER;
		else if (cls == AMD_API_COMM)
			ev.flags |= EVF_COMM;
	}
	builder_event(r->b, t, &ev);
	if ((++r->rows & (ROCPD_ROWS_STEP - 1)) == 0)
		progress_rows(r->prog, r->rows);
}

static void
rocpd_region_row(struct rocpd *r, sqlite3_stmt *st)
{
	rocpd_cpu_event(r, st, 0);
}

static void
rocpd_sample_row(struct rocpd *r, sqlite3_stmt *st)
{
	rocpd_cpu_event(r, st, 1);
}

int
rocpd_regions(struct rocpd *r)
{
	struct rocpd_q	 q;
	char		*sql = NULL;
	int		 rc;

	if (rocpd_q(r, "rocpd_region", &q) != 0)
		return 0;
	xstrcatf(&sql, "SELECT X.id, X.guid, %s, %s, %s, %s, N.string, %s, "
	    "E.stack_id, E.correlation_id, E.extdata, N.id, %s "
	    "FROM rocpd_region X%s "
	    "LEFT JOIN rocpd_event E ON E.id = X.event_id AND E.guid = X.guid "
	    "LEFT JOIN rocpd_string N ON N.id = X.name_id AND N.guid = X.guid "
	    "LEFT JOIN rocpd_string C ON C.id = E.category_id AND "
	    "C.guid = E.guid", q.pid, q.tid, q.start, q.end,
	    rocpd_category(r), r->has_category ? "NULL" : "C.id", q.joins);
	r->rows = 0;
	progress_phase(r->prog, "regions", amd_db_estimate(&r->d,
	    "rocpd_region"));
	rc = rocpd_scan_timed(r, sql, "rocpd_region", NULL, rocpd_region_row,
	    "rocpd_region", R_START, R_END);
	progress_rows(r->prog, r->rows);
	free(sql);
	free(q.joins);
	return rc;
}

int
rocpd_samples(struct rocpd *r)
{
	char	*sql = NULL;
	int	 rc;

	if (!amd_db_has(&r->d, "rocpd_sample") ||
	    !amd_db_has(&r->d, "rocpd_track"))
		return 0;
	/* A sample's name is its own name_id (later layout) or its track's
	 * (the released one: the category). */
	xstrcatf(&sql, "SELECT X.id, X.guid, TR.pid, TR.tid, %s, NULL, "
	    "N.string, %s, E.stack_id, E.correlation_id, E.extdata, N.id, %s "
	    "FROM rocpd_sample X "
	    "LEFT JOIN rocpd_track TR ON TR.id = X.track_id AND "
	    "TR.guid = X.guid%s "
	    "LEFT JOIN rocpd_event E ON E.id = X.event_id AND E.guid = X.guid "
	    "LEFT JOIN rocpd_string N ON N.id = %s AND N.guid = X.guid "
	    "LEFT JOIN rocpd_string C ON C.id = E.category_id AND "
	    "C.guid = E.guid",
	    amd_db_col(&r->d, "rocpd_sample", "timestamp_id") ? "TS.value" :
	    "X.timestamp", rocpd_category(r), r->has_category ? "NULL" :
	    "C.id", amd_db_col(&r->d, "rocpd_sample", "timestamp_id") ?
	    " LEFT JOIN rocpd_timestamp TS ON TS.id = X.timestamp_id AND "
	    "TS.guid = X.guid" : "",
	    amd_db_col(&r->d, "rocpd_sample", "name_id") ? "X.name_id" :
	    "TR.name_id");
	r->rows = 0;
	progress_phase(r->prog, "samples", amd_db_estimate(&r->d,
	    "rocpd_sample"));
	rc = rocpd_scan_timed(r, sql, "rocpd_sample", NULL, rocpd_sample_row,
	    "rocpd_sample", R_START, -1);
	progress_rows(r->prog, r->rows);
	free(sql);
	return rc;
}
