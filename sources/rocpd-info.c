/*
 * rocpd-info: the rocpd_info_* tables and their keys. Guids, nodes,
 * processes, threads, agents (GPUs as devices), queues, streams and kernel
 * symbols, keyed by (guid, row id); whether GPU work is grouped by stream
 * or by queue.
 */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "sources/source.h"
#include "sources/rocpd-int.h"
#include "util/xmalloc.h"

/* Keys. */

/* The index of a row's guid (column i). */
uint32_t
rocpd_guid(struct rocpd *r, sqlite3_stmt *st, int i)
{
	const char	*g = col_text(st, i);
	size_t		 j;

	if (r->lastguid < r->nguids && strcmp(r->guids[r->lastguid], g) == 0)
		return (uint32_t)r->lastguid;
	for (j = 0; j < r->nguids; j++) {
		if (strcmp(r->guids[j], g) == 0) {
			r->lastguid = j;
			return (uint32_t)j;
		}
	}
	XGROW(r->guids, r->guidscap, r->nguids + 1);
	r->guids[r->nguids] = xstrdup(g);
	r->lastguid = r->nguids;
	return (uint32_t)r->nguids++;
}

uint64_t
rocpd_key(uint32_t guid, sqlite3_stmt *st, int i)
{
	return hmap_key2(guid, (uint64_t)col_i64(st, i));
}

/* Info tables. */

static void
rocpd_node_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	g = rocpd_guid(r, st, 1);

	if (!col_null(st, 2) && *col_text(st, 2) != '\0')
		hmap_put(&r->hosts, rocpd_key(g, st, 0),
		    builder_intern(r->b, col_text(st, 2)));
}

static void
rocpd_process_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	 g = rocpd_guid(r, st, 1), p, v;
	const char	*cmd = col_text(st, 4), *name = col_text(st, 5);
	char		*exe = NULL, *sp, *slash;
	uint64_t	 key = rocpd_key(g, st, 0);

	if (*name == '\0' && *cmd != '\0') {
		/* The executable's file name, as nsys names processes. */
		exe = xstrdup(cmd);
		if ((sp = strchr(exe, ' ')) != NULL)
			*sp = '\0';
		slash = strrchr(exe, '/');
		name = slash != NULL ? slash + 1 : exe;
	}
	p = builder_process(r->b, (uint64_t)g << 32 |
	    ((uint64_t)col_i64(st, 0) & 0xffffffff),
	    (uint32_t)col_i64(st, 3), name);
	if (hmap_get(&r->hosts, hmap_key2(g, (uint64_t)col_i64(st, 2)),
	    &v))
		r->m->processes[p].host = v;
	hmap_put(&r->procs, key, p);
	if (*cmd != '\0')
		builder_meta(r->b, "command", cmd);
	free(exe);
}

/* The process of a row's process row id (declared if not in the info
 * table, with the row id as its pid). */
uint32_t
rocpd_process(struct rocpd *r, uint32_t g, int64_t row)
{
	uint32_t	p;

	if (hmap_get(&r->procs, hmap_key2(g, (uint64_t)row), &p))
		return p;
	p = builder_process(r->b, (uint64_t)g << 32 |
	    ((uint64_t)row & 0xffffffff), (uint32_t)row, NULL);
	hmap_put(&r->procs, hmap_key2(g, (uint64_t)row), p);
	return p;
}

static uint32_t
rocpd_thread_new(struct rocpd *r, uint32_t g, int64_t row, int64_t prow,
    uint32_t tid, const char *name)
{
	uint32_t	t, p;

	p = rocpd_process(r, g, prow);
	t = builder_thread(r->b, (uint64_t)g << 32 |
	    ((uint64_t)row & 0xffffffff), tid, p, name);
	hmap_put(&r->threads, hmap_key2(g, (uint64_t)row), t);
	return t;
}

static void
rocpd_thread_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	g = rocpd_guid(r, st, 1);

	rocpd_thread_new(r, g, col_i64(st, 0), col_i64(st, 2),
	    (uint32_t)col_i64(st, 3), col_null(st, 4) ? NULL :
	    col_text(st, 4));
}

uint32_t
rocpd_thread(struct rocpd *r, uint32_t g, int64_t row, int64_t prow)
{
	uint32_t	t;

	if (hmap_get(&r->threads, hmap_key2(g, (uint64_t)row), &t))
		return t;
	return rocpd_thread_new(r, g, row, prow, (uint32_t)row, NULL);
}

enum {
	AG_ID, AG_GUID, AG_TYPE, AG_TYPEIDX, AG_NAME, AG_PRODUCT, AG_VENDOR,
	AG_MODEL, AG_UUID, AG_EXT
};

static void
rocpd_agent_row(struct rocpd *r, sqlite3_stmt *st)
{
	struct device	 d;
	cJSON		*ext;
	uint32_t	 g = rocpd_guid(r, st, AG_GUID), i;
	char		 buf[32];

	if (strcmp(col_text(st, AG_TYPE), "GPU") != 0) {
		hmap_put(&r->agents, rocpd_key(g, st, AG_ID), 0);
		return;
	}
	memset(&d, 0, sizeof d);
	d.source_id = (uint32_t)col_i64(st, AG_TYPEIDX);
	d.process = NONE32;
	if ((i = builder_find_device(r->b, d.source_id)) == NONE32) {
		if (*col_text(st, AG_PRODUCT) != '\0')
			d.name = builder_intern(r->b, col_text(st,
			    AG_PRODUCT));
		if (*col_text(st, AG_NAME) != '\0') {
			d.chip = builder_intern(r->b, col_text(st,
			    AG_NAME));
			if (d.name == 0)
				d.name = d.chip;
		}
		if (*col_text(st, AG_VENDOR) != '\0' &&
		    strcmp(col_text(st, AG_VENDOR), "CPU") != 0)
			d.vendor = builder_intern(r->b, col_text(st,
			    AG_VENDOR));
		if (!col_null(st, AG_UUID) && col_i64(st, AG_UUID) != 0) {
			snprintf(buf, sizeof buf, "%016llx",
			    (unsigned long long)col_i64(st, AG_UUID));
			d.uuid = builder_intern(r->b, buf);
		}
		ext = col_null(st, AG_EXT) ? NULL :
		    cJSON_Parse(col_text(st, AG_EXT));
		amd_device_from_agent(r->b, ext, &d);
		cJSON_Delete(ext);
		if (d.vendor == 0)
			d.vendor = builder_intern(r->b, "AMD");
		i = builder_device(r->b, &d);
	}
	hmap_put(&r->agents, rocpd_key(g, st, AG_ID), i + 1);
}

/* A queue's or stream's name (id, guid, name) into names. */
static void
rocpd_name_row(struct rocpd *r, sqlite3_stmt *st, struct hmap *names)
{
	uint32_t	g = rocpd_guid(r, st, 1);

	if (*col_text(st, 2) != '\0')
		hmap_put(names, rocpd_key(g, st, 0), builder_intern(r->b,
		    col_text(st, 2)));
}

static void
rocpd_queue_row(struct rocpd *r, sqlite3_stmt *st)
{
	rocpd_name_row(r, st, &r->qnames);
}

static void
rocpd_stream_row(struct rocpd *r, sqlite3_stmt *st)
{
	rocpd_name_row(r, st, &r->snames);
}

enum { KS_ID, KS_GUID, KS_DISPLAY, KS_NAME, KS_LDS, KS_VGPR, KS_AGPR,
    KS_EXT };

static void
rocpd_symbol_row(struct rocpd *r, sqlite3_stmt *st)
{
	struct rocpd_sym	*s;
	cJSON			*ext;
	const char		*n;
	uint32_t		 g = rocpd_guid(r, st, KS_GUID);

	XGROW(r->syms, r->symscap, r->nsyms + 1);
	s = &r->syms[r->nsyms];
	memset(s, 0, sizeof *s);
	n = col_text(st, KS_DISPLAY);
	if (*n == '\0')
		n = col_text(st, KS_NAME);
	if (*n != '\0')
		s->name = builder_intern(r->b, n);
	if (*col_text(st, KS_NAME) != '\0')
		s->mangled = builder_intern(r->b, col_text(st, KS_NAME));
	s->static_lds = col_i64(st, KS_LDS);
	s->vgprs = col_i64(st, KS_VGPR) + col_i64(st, KS_AGPR);
	s->comm = (uint8_t)amd_is_comm(n);
	if (!col_null(st, KS_EXT) &&
	    (ext = cJSON_Parse(col_text(st, KS_EXT))) != NULL) {
		n = amd_json_str(ext, "truncated_kernel_name");
		if (*n != '\0')
			s->short_name = builder_intern(r->b, n);
		cJSON_Delete(ext);
	}
	hmap_put(&r->symidx, rocpd_key(g, st, KS_ID), (uint32_t)r->nsyms++);
}

/* An info table read whole: id, guid and the columns that it has of cols
 * (without cols: id, guid, name). */
struct rocpd_info_table {
	const char	*table, *alias;
	const char	*const *cols;	/* NULL-terminated */
	int		 ordered;	/* ORDER BY id */
	const char	*what;		/* for messages (NULL: the table) */
	void		(*row)(struct rocpd *, sqlite3_stmt *);
};

static const char *const node_cols[] = { "hostname", NULL };
static const char *const process_cols[] = { "nid", "pid", "command", "name",
    NULL };
static const char *const thread_cols[] = { "pid", "tid", "name", NULL };
static const char *const agent_cols[] = { "type", "type_index", "name",
    "product_name", "vendor_name", "model_name", "uuid", "extdata", NULL };
static const char *const symbol_cols[] = { "display_name", "kernel_name",
    "group_segment_size", "arch_vgpr_count", "accum_vgpr_count", "extdata",
    NULL };

/* In this order: agents, queues and streams before the kernel symbols. */
static const struct rocpd_info_table rocpd_info_tables[] = {
	{ "rocpd_info_node", "N", node_cols, 0, NULL, rocpd_node_row },
	{ "rocpd_info_process", "P", process_cols, 1, NULL, rocpd_process_row },
	{ "rocpd_info_thread", "T", thread_cols, 1, NULL, rocpd_thread_row },
	{ "rocpd_info_agent", "A", agent_cols, 1, NULL, rocpd_agent_row },
	{ "rocpd_info_queue", NULL, NULL, 0, NULL, rocpd_queue_row },
	{ "rocpd_info_stream", NULL, NULL, 0, NULL, rocpd_stream_row },
	{ "rocpd_info_kernel_symbol", "S", symbol_cols, 0, "kernel symbols",
	    rocpd_symbol_row },
};

/* Reads t's rows if the table is there: 0 (also if it is not), or -1. */
static int
rocpd_info_read(struct rocpd *r, const struct rocpd_info_table *t)
{
	char		*sql = NULL;
	const char	*const *c;
	int		 rc;

	if (!amd_db_has(&r->d, t->table))
		return 0;
	if (t->cols == NULL)
		xstrcatf(&sql, "SELECT id, guid, name FROM %s", t->table);
	else {
		xstrcatf(&sql, "SELECT id, guid");
		for (c = t->cols; *c != NULL; c++)
			amd_db_colx(&r->d, &sql, t->table, t->alias, *c);
		xstrcatf(&sql, " FROM %s %s%s", t->table, t->alias,
		    t->ordered ? " ORDER BY id" : "");
	}
	rc = rocpd_scan(r, sql, t->what != NULL ? t->what : t->table, NULL,
	    t->row);
	free(sql);
	return rc != 0 ? -1 : 0;
}

int
rocpd_info(struct rocpd *r)
{
	size_t	i;

	for (i = 0; i < sizeof rocpd_info_tables / sizeof *rocpd_info_tables;
	    i++)
		if (rocpd_info_read(r, &rocpd_info_tables[i]) != 0)
			return -1;
	return 0;
}

/* Whether GPU work is grouped by HIP stream (some record has a stream
 * other than the default one, id 0). */
void
rocpd_grouping(struct rocpd *r)
{
	sqlite3_stmt	*st = NULL;
	const char	*sql;

	if (r->layout == ROCPD_TRACKED)
		sql = amd_db_col(&r->d, "rocpd_track", "stream_id") ?
		    "SELECT 1 FROM rocpd_track WHERE stream_id != 0 LIMIT 1" :
		    NULL;
	else if (amd_db_col(&r->d, "rocpd_kernel_dispatch", "stream_id")) {
		if (amd_db_col(&r->d, "rocpd_memory_copy", "stream_id"))
			sql = "SELECT 1 WHERE EXISTS (SELECT 1 FROM "
			    "rocpd_kernel_dispatch WHERE stream_id != 0) OR "
			    "EXISTS (SELECT 1 FROM rocpd_memory_copy WHERE "
			    "stream_id != 0)";
		else
			sql = "SELECT 1 FROM rocpd_kernel_dispatch WHERE "
			    "stream_id != 0 LIMIT 1";
	} else
		sql = NULL;
	r->by_stream = 0;
	if (sql != NULL && sqlite3_prepare_v2(r->d.db, sql, -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		r->by_stream = 1;
	sqlite3_finalize(st);
}
