/*
 * rocpd: the rocprofv3 rocpd database reader (`rocprofv3 --output-format
 * rocpd`, ROCm 7, rocpd_metadata schema_version 3; FORMATS.md section 5).
 *
 * Physical tables carry a per-run uuid suffix (rocpd_region_0197...), and
 * un-suffixed views (rocpd_region) select from them. The reader never
 * runs the file's views (a view's query may run without end): it creates
 * its own TEMP views of the same names over the suffixed tables (UNION ALL
 * when several runs were merged), which a read-only connection allows and
 * which shadow the file's, and reads an un-suffixed table directly. A view
 * of the file with no suffixed table under it is refused. Every join matches guid as
 * well as id, so the rows of merged runs never mix. A database whose
 * schema_version is not 3 is refused with a message naming the version.
 *
 * Ids: pid, tid, agent_id, queue_id, stream_id, kernel_id columns are row
 * ids into rocpd_info_* tables, whose pid/tid columns hold the OS ids.
 * Entities are keyed by (guid, row id) and declared from the info tables:
 * processes (named by their executable, host from rocpd_info_node),
 * threads, GPU agents as devices (source id = type_index, the GPU number;
 * CU count and the rest from the agent's extdata JSON, see amd.h).
 *
 * Two table layouts carry schema_version 3. The released one (ROCm 7.0)
 * puts nid/pid/tid/start/end and agent/queue/stream ids in each event
 * table; a later one moves them to rocpd_track (nid, pid, tid, agent_id,
 * queue_id, stream_id) and rocpd_timestamp (value) referenced by track_id,
 * start_id and end_id. The reader tells them apart by the columns of
 * rocpd_kernel_dispatch (or rocpd_region) and selects accordingly.
 *
 * Mapping (category = rocpd_event.category_id's string, the rocprofiler
 * tracing kind):
 *   rocpd_region, category *MARKER*   EV_NVTX in domain "roctx", named by
 *                                     extdata's "message" (else the
 *                                     operation), as the marker views do
 *   rocpd_region, HSA_*               EV_API with EVF_DRIVER
 *   rocpd_region, RCCL_*              EV_API with EVF_COMM
 *   rocpd_region, anything else       EV_API (HIP and the rest)
 *   rocpd_sample, *MARKER*            EV_MARK (a roctxMark)
 *   rocpd_sample, anything else       a zero-length EV_API named by its
 *                                     track (the writer puts API calls with
 *                                     start == end there)
 *   rocpd_kernel_dispatch             EV_KERNEL named by the symbol's
 *                                     display_name; grid in work-groups,
 *                                     LDS, scratch, registers (amd.h)
 *   rocpd_memory_copy                 EV_MEMCPY named by its operation
 *                                     ("MEMORY_COPY_HOST_TO_DEVICE"), the
 *                                     direction from the agents' types
 * GPU work goes on one track per (agent, process, HIP stream) when any
 * record has a stream other than the default one, else per (agent,
 * process, queue). Correlation: rocprofv3 stores each record's internal
 * correlation id in rocpd_event.stack_id (correlation_id holds the
 * external one), so stack_id links API calls to the GPU work they
 * launched. rocpd_memory_allocate and rocpd_pmc_event rows are counted in
 * a warning, not loaded.
 *
 * Times: a region, sample, dispatch or copy whose start or end is not an
 * integer (text, blob, NULL, or a missing rocpd_timestamp row) or whose
 * start is after its end is skipped, counted in one warning per table; a
 * table where most rows are so is refused.
 *
 * One database holds one process. A job is several databases; each loads
 * on its own with its real processes, and the multi-trace loader merges
 * them. A gzip- or zstd-compressed database is decompressed into the cache
 * first (sqlz.h).
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
#include "util/progress.h"
#include "sources/source.h"
#include "util/timing.h"
#include "util/xmalloc.h"

#define ROCPD_SCHEMA	"3"		/* the schema version read here */
#define ROCPD_ROWS_STEP	16384		/* rows between progress reports */
#define ROCPD_ROCTX	1		/* domain source id of "roctx" */

enum rocpd_layout {
	ROCPD_FLAT = 0,		/* times and ids in each event table */
	ROCPD_TRACKED,		/* through rocpd_track and rocpd_timestamp */
};

/* What a kernel symbol contributes to its dispatches. */
struct rocpd_sym {
	uint32_t	 name, short_name, mangled;
	int64_t		 static_lds, vgprs;
	uint8_t		 comm;
};

struct rocpd {
	struct amd_db	  d;
	struct builder	 *b;
	struct model	 *m;
	struct progress	 *prog;
	enum rocpd_layout layout;
	int		  by_stream;
	int		  has_category;	/* rocpd_info_category exists */

	char		**guids;	/* distinct guids, by index */
	size_t		  nguids, guidscap;
	size_t		  lastguid;

	struct hmap	  hosts;	/* key(guid, node) -> pool id */
	struct hmap	  procs;	/* key(guid, process row) -> index */
	struct hmap	  threads;	/* key(guid, thread row) -> index */
	struct hmap	  agents;	/* key(guid, agent row) -> device + 1,
					   0 for a CPU */
	struct hmap	  qnames;	/* key(guid, queue row) -> pool id */
	struct hmap	  snames;	/* key(guid, stream row) -> pool id */
	struct hmap	  symidx;	/* key(guid, symbol row) -> index */
	struct rocpd_sym *syms;
	size_t		  nsyms, symscap;
	struct hmap	  gpu_tracks;	/* key(device, process, id) -> track */
	struct hmap	  cpu_tracks;	/* key(type, thread) -> track */
	struct hmap	  domains;	/* process -> roctx domain */
	struct hmap	  strs;		/* key(guid, string id) -> pool id */
	struct hmap	  classes;	/* pool id -> enum amd_class */

	uint64_t	  rows;
	uint32_t	  unknown_kernel;

	/* The time columns rocpd_scan() checks (timed set), and the tally. */
	int		  timed, tstart, tend;
	struct source_times tt;
};

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
	sqlite3_stmt	*st = NULL;
	int		 found = 0;

	/* rocmProfileData files have rocpd_metadata too, and rocpd_op. */
	if (sqlite3_prepare_v2(db, "SELECT "
	    "EXISTS (SELECT 1 FROM sqlite_master WHERE type IN ('table', "
	    "'view') AND (name = 'rocpd_metadata' OR "
	    "name GLOB 'rocpd_metadata_*')) AND "
	    "EXISTS (SELECT 1 FROM sqlite_master WHERE type IN ('table', "
	    "'view') AND (name GLOB 'rocpd_kernel_dispatch*' OR "
	    "name GLOB 'rocpd_region*' OR name GLOB 'rocpd_info_agent*')) AND "
	    "NOT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'rocpd_op')",
	    -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		found = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return found;
}

/* Schema. */

/*
 * Creates TEMP views named like the missing un-suffixed views over the
 * uuid-suffixed tables (several: UNION ALL).
 */
static int
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
			const char *t = amd_db_text(st, 0);
			char *q = sqlite3_mprintf("%s SELECT * FROM \"%w\"",
			    n++ == 0 ? "" : " UNION ALL", t);
			amd_db_cat(&sql, "%s", q);
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
static int
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
		tag = amd_db_text(st, 0);
		val = amd_db_text(st, 1);
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

static void
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

/* Keys. */

/* The index of a row's guid (column i). */
static uint32_t
rocpd_guid(struct rocpd *r, sqlite3_stmt *st, int i)
{
	const char	*g = amd_db_text(st, i);
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

static uint64_t
rocpd_key(uint32_t guid, sqlite3_stmt *st, int i)
{
	return hmap_key2(guid, (uint64_t)amd_db_i64(st, i));
}

/* Runs sql, calling row() on each row. */
static int
rocpd_scan(struct rocpd *r, const char *sql, const char *what,
    const char *rel, void (*row)(struct rocpd *, sqlite3_stmt *))
{
	sqlite3_stmt	*st;
	uint64_t	 rows = 0;
	int		 k;

	if ((st = amd_db_prepare(&r->d, sql, what)) == NULL)
		return -1;
	if (rel != NULL)
		progress_phase(r->prog, what, amd_db_estimate(&r->d, rel));
	while ((k = amd_db_step(&r->d, st, what)) == 1) {
		if (!r->timed || source_times_ok(st, r->tstart, r->tend, 0,
		    &r->tt))
			row(r, st);
		if ((++rows & (ROCPD_ROWS_STEP - 1)) == 0 && rel != NULL)
			progress_rows(r->prog, rows);
	}
	if (rel != NULL)
		progress_rows(r->prog, rows);
	sqlite3_finalize(st);
	return k < 0 ? -1 : 0;
}

/*
 * rocpd_scan() of an event table whose start and end (-1: none) are in
 * columns ts and te: rows with unusable times are skipped and counted in
 * one warning for table, or the table is refused when most are.
 */
static int
rocpd_scan_timed(struct rocpd *r, const char *sql, const char *what,
    const char *rel, void (*row)(struct rocpd *, sqlite3_stmt *),
    const char *table, int ts, int te)
{
	char	*msg;
	int	 rc, fatal;

	memset(&r->tt, 0, sizeof r->tt);
	r->timed = 1;
	r->tstart = ts;
	r->tend = te;
	rc = rocpd_scan(r, sql, what, rel, row);
	r->timed = 0;
	if (rc != 0)
		return rc;
	if ((msg = source_times_verdict(&r->tt, table, &fatal)) == NULL)
		return 0;
	if (fatal)
		amd_db_error(&r->d, "%s", msg);
	else
		builder_warn(r->b, "%s", msg);
	free(msg);
	return fatal ? -1 : 0;
}

/* Info tables. */

static void
rocpd_node_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	g = rocpd_guid(r, st, 1);

	if (!amd_db_null(st, 2) && *amd_db_text(st, 2) != '\0')
		hmap_put(&r->hosts, rocpd_key(g, st, 0),
		    builder_intern(r->b, amd_db_text(st, 2)));
}

static void
rocpd_process_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	 g = rocpd_guid(r, st, 1), p, v;
	const char	*cmd = amd_db_text(st, 4), *name = amd_db_text(st, 5);
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
	    ((uint64_t)amd_db_i64(st, 0) & 0xffffffff),
	    (uint32_t)amd_db_i64(st, 3), name);
	if (hmap_get(&r->hosts, hmap_key2(g, (uint64_t)amd_db_i64(st, 2)),
	    &v))
		r->m->processes[p].host = v;
	hmap_put(&r->procs, key, p);
	if (*cmd != '\0')
		builder_meta(r->b, "command", cmd);
	free(exe);
}

/* The process of a row's process row id (declared if not in the info
 * table, with the row id as its pid). */
static uint32_t
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

	rocpd_thread_new(r, g, amd_db_i64(st, 0), amd_db_i64(st, 2),
	    (uint32_t)amd_db_i64(st, 3), amd_db_null(st, 4) ? NULL :
	    amd_db_text(st, 4));
}

static uint32_t
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

	if (strcmp(amd_db_text(st, AG_TYPE), "GPU") != 0) {
		hmap_put(&r->agents, rocpd_key(g, st, AG_ID), 0);
		return;
	}
	memset(&d, 0, sizeof d);
	d.source_id = (uint32_t)amd_db_i64(st, AG_TYPEIDX);
	d.process = NONE32;
	if ((i = builder_find_device(r->b, d.source_id)) == NONE32) {
		if (*amd_db_text(st, AG_PRODUCT) != '\0')
			d.name = builder_intern(r->b, amd_db_text(st,
			    AG_PRODUCT));
		if (*amd_db_text(st, AG_NAME) != '\0') {
			d.chip = builder_intern(r->b, amd_db_text(st,
			    AG_NAME));
			if (d.name == 0)
				d.name = d.chip;
		}
		if (*amd_db_text(st, AG_VENDOR) != '\0' &&
		    strcmp(amd_db_text(st, AG_VENDOR), "CPU") != 0)
			d.vendor = builder_intern(r->b, amd_db_text(st,
			    AG_VENDOR));
		if (!amd_db_null(st, AG_UUID) && amd_db_i64(st, AG_UUID) != 0) {
			snprintf(buf, sizeof buf, "%016llx",
			    (unsigned long long)amd_db_i64(st, AG_UUID));
			d.uuid = builder_intern(r->b, buf);
		}
		ext = amd_db_null(st, AG_EXT) ? NULL :
		    cJSON_Parse(amd_db_text(st, AG_EXT));
		amd_device_from_agent(r->b, ext, &d);
		cJSON_Delete(ext);
		if (d.vendor == 0)
			d.vendor = builder_intern(r->b, "AMD");
		i = builder_device(r->b, &d);
	}
	hmap_put(&r->agents, rocpd_key(g, st, AG_ID), i + 1);
}

static void
rocpd_queue_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	g = rocpd_guid(r, st, 1);

	if (*amd_db_text(st, 2) != '\0')
		hmap_put(&r->qnames, rocpd_key(g, st, 0),
		    builder_intern(r->b, amd_db_text(st, 2)));
}

static void
rocpd_stream_row(struct rocpd *r, sqlite3_stmt *st)
{
	uint32_t	g = rocpd_guid(r, st, 1);

	if (*amd_db_text(st, 2) != '\0')
		hmap_put(&r->snames, rocpd_key(g, st, 0),
		    builder_intern(r->b, amd_db_text(st, 2)));
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
	n = amd_db_text(st, KS_DISPLAY);
	if (*n == '\0')
		n = amd_db_text(st, KS_NAME);
	if (*n != '\0')
		s->name = builder_intern(r->b, n);
	if (*amd_db_text(st, KS_NAME) != '\0')
		s->mangled = builder_intern(r->b, amd_db_text(st, KS_NAME));
	s->static_lds = amd_db_i64(st, KS_LDS);
	s->vgprs = amd_db_i64(st, KS_VGPR) + amd_db_i64(st, KS_AGPR);
	s->comm = (uint8_t)amd_is_comm(n);
	if (!amd_db_null(st, KS_EXT) &&
	    (ext = cJSON_Parse(amd_db_text(st, KS_EXT))) != NULL) {
		n = amd_json_str(ext, "truncated_kernel_name");
		if (*n != '\0')
			s->short_name = builder_intern(r->b, n);
		cJSON_Delete(ext);
	}
	hmap_put(&r->symidx, rocpd_key(g, st, KS_ID), (uint32_t)r->nsyms++);
}

static int
rocpd_info(struct rocpd *r)
{
	char	*sql = NULL;
	int	 rc = 0;

	if (amd_db_has(&r->d, "rocpd_info_node")) {
		sql = NULL;
		amd_db_cat(&sql, "SELECT id, guid");
		amd_db_colx(&r->d, &sql, "rocpd_info_node", "N", "hostname");
		amd_db_cat(&sql, " FROM rocpd_info_node N");
		rc = rocpd_scan(r, sql, "rocpd_info_node", NULL,
		    rocpd_node_row);
		free(sql);
		if (rc != 0)
			return -1;
	}
	if (amd_db_has(&r->d, "rocpd_info_process")) {
		sql = NULL;
		amd_db_cat(&sql, "SELECT id, guid");
		amd_db_colx(&r->d, &sql, "rocpd_info_process", "P", "nid");
		amd_db_colx(&r->d, &sql, "rocpd_info_process", "P", "pid");
		amd_db_colx(&r->d, &sql, "rocpd_info_process", "P", "command");
		amd_db_colx(&r->d, &sql, "rocpd_info_process", "P", "name");
		amd_db_cat(&sql, " FROM rocpd_info_process P ORDER BY id");
		rc = rocpd_scan(r, sql, "rocpd_info_process", NULL,
		    rocpd_process_row);
		free(sql);
		if (rc != 0)
			return -1;
	}
	if (amd_db_has(&r->d, "rocpd_info_thread")) {
		sql = NULL;
		amd_db_cat(&sql, "SELECT id, guid");
		amd_db_colx(&r->d, &sql, "rocpd_info_thread", "T", "pid");
		amd_db_colx(&r->d, &sql, "rocpd_info_thread", "T", "tid");
		amd_db_colx(&r->d, &sql, "rocpd_info_thread", "T", "name");
		amd_db_cat(&sql, " FROM rocpd_info_thread T ORDER BY id");
		rc = rocpd_scan(r, sql, "rocpd_info_thread", NULL,
		    rocpd_thread_row);
		free(sql);
		if (rc != 0)
			return -1;
	}
	if (amd_db_has(&r->d, "rocpd_info_agent")) {
		static const char *const cols[] = { "type", "type_index",
		    "name", "product_name", "vendor_name", "model_name", "uuid",
		    "extdata" };
		size_t i;
		sql = NULL;
		amd_db_cat(&sql, "SELECT id, guid");
		for (i = 0; i < sizeof cols / sizeof *cols; i++)
			amd_db_colx(&r->d, &sql, "rocpd_info_agent", "A",
			    cols[i]);
		amd_db_cat(&sql, " FROM rocpd_info_agent A ORDER BY id");
		rc = rocpd_scan(r, sql, "rocpd_info_agent", NULL,
		    rocpd_agent_row);
		free(sql);
		if (rc != 0)
			return -1;
	}
	if (amd_db_has(&r->d, "rocpd_info_queue") && rocpd_scan(r,
	    "SELECT id, guid, name FROM rocpd_info_queue", "rocpd_info_queue",
	    NULL, rocpd_queue_row) != 0)
		return -1;
	if (amd_db_has(&r->d, "rocpd_info_stream") && rocpd_scan(r,
	    "SELECT id, guid, name FROM rocpd_info_stream",
	    "rocpd_info_stream", NULL, rocpd_stream_row) != 0)
		return -1;
	if (amd_db_has(&r->d, "rocpd_info_kernel_symbol")) {
		static const char *const cols[] = { "display_name",
		    "kernel_name", "group_segment_size", "arch_vgpr_count",
		    "accum_vgpr_count", "extdata" };
		size_t i;
		sql = NULL;
		amd_db_cat(&sql, "SELECT id, guid");
		for (i = 0; i < sizeof cols / sizeof *cols; i++)
			amd_db_colx(&r->d, &sql, "rocpd_info_kernel_symbol",
			    "S", cols[i]);
		amd_db_cat(&sql, " FROM rocpd_info_kernel_symbol S");
		rc = rocpd_scan(r, sql, "kernel symbols", NULL,
		    rocpd_symbol_row);
		free(sql);
	}
	return rc;
}

/* Whether GPU work is grouped by HIP stream (some record has a stream
 * other than the default one, id 0). */
static void
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

/* Tracks. */

static uint32_t
rocpd_domain(struct rocpd *r, uint32_t proc)
{
	uint32_t	d;

	if (hmap_get(&r->domains, proc, &d))
		return d;
	d = builder_domain(r->b, proc, ROCPD_ROCTX, "roctx");
	hmap_put(&r->domains, proc, d);
	return d;
}

static uint32_t
rocpd_cpu_track(struct rocpd *r, enum track_type type, uint32_t g,
    int64_t prow, int64_t trow)
{
	uint32_t	 thr, t, p;
	uint64_t	 key;

	thr = rocpd_thread(r, g, trow, prow);
	key = hmap_key2(type, thr);
	if (hmap_get(&r->cpu_tracks, key, &t))
		return t;
	p = r->m->threads[thr].process;
	t = builder_cpu_track(r->b, type, thr, type == TRACK_NVTX ?
	    rocpd_domain(r, p) : 0);
	r->m->tracks[t].name = builder_intern(r->b, type == TRACK_NVTX ?
	    "roctx" : "HIP API");
	hmap_put(&r->cpu_tracks, key, t);
	return t;
}

/* The device of an agent row (NONE32: a CPU or unknown). */
static uint32_t
rocpd_device(struct rocpd *r, uint32_t g, sqlite3_stmt *st, int i)
{
	uint32_t	v;

	if (amd_db_null(st, i) ||
	    !hmap_get(&r->agents, rocpd_key(g, st, i), &v) || v == 0)
		return NONE32;
	return v - 1;
}

/* A device for GPU work on an agent the info table does not describe. */
static uint32_t
rocpd_unknown_device(struct rocpd *r)
{
	struct device	d;
	uint32_t	i;

	if ((i = builder_find_device(r->b, UINT32_MAX)) != NONE32)
		return i;
	memset(&d, 0, sizeof d);
	d.source_id = UINT32_MAX;
	d.process = NONE32;
	d.vendor = builder_intern(r->b, "AMD");
	d.name = builder_intern(r->b, "unknown agent");
	return builder_device(r->b, &d);
}

/*
 * The GPU track of a row: by stream (column si) or queue (column qi) on
 * device dev for process row prow.
 */
static uint32_t
rocpd_gpu_track(struct rocpd *r, uint32_t g, uint32_t dev, int64_t prow,
    sqlite3_stmt *st, int si, int qi)
{
	int		 use_stream = r->by_stream;
	int		 col = use_stream ? si : qi;
	int64_t		 id;
	uint32_t	 p, s, t, v;
	uint64_t	 key;
	char		 buf[64];

	if (dev == NONE32)
		dev = rocpd_unknown_device(r);
	p = rocpd_process(r, g, prow);
	/* Copies may have no queue: they share a track of their own. */
	id = amd_db_null(st, col) ? -1 : amd_db_i64(st, col);
	key = hmap_key2(hmap_key2(dev, p), hmap_key2(g, (uint64_t)id));
	if (hmap_get(&r->gpu_tracks, key, &t))
		return t;
	s = builder_stream(r->b, dev, id < 0 ? UINT32_MAX :
	    ((uint64_t)g << 32 | ((uint64_t)id & 0xffffffff)), p);
	t = builder_gpu_track(r->b, s);
	if (id < 0)
		snprintf(buf, sizeof buf, "Memory copies");
	else if (hmap_get(use_stream ? &r->snames : &r->qnames,
	    hmap_key2(g, (uint64_t)id), &v))
		snprintf(buf, sizeof buf, "%s", strpool_get(r->m->strs, v));
	else
		snprintf(buf, sizeof buf, "%s %lld", use_stream ? "Stream" :
		    "Queue", (long long)id);
	r->m->streams[s].name = builder_intern(r->b, buf);
	r->m->tracks[t].name = r->m->streams[s].name;
	hmap_put(&r->gpu_tracks, key, t);
	return t;
}

/* SQL pieces per layout, for event table alias X. */
struct rocpd_q {
	const char	*pid, *tid, *start, *end;
	const char	*agent, *queue, *stream;
	char		*joins;
};

static void
rocpd_q(struct rocpd *r, const char *rel, struct rocpd_q *q)
{
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
		return;
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
}

/* The category expression of event alias E. */
static const char *
rocpd_category(struct rocpd *r)
{
	return r->has_category ? "COALESCE((SELECT name FROM "
	    "rocpd_info_category IC WHERE IC.id = E.category_id AND "
	    "IC.guid = E.guid), C.string)" : "C.string";
}

/* The correlation id of a row: stack_id (internal), else correlation_id. */
static uint32_t
rocpd_corr(sqlite3_stmt *st, int stack, int corr)
{
	if (!amd_db_null(st, stack) && amd_db_i64(st, stack) != 0)
		return (uint32_t)amd_db_i64(st, stack);
	return amd_db_null(st, corr) ? 0 : (uint32_t)amd_db_i64(st, corr);
}

/* A marker's name: extdata's "message", else the fallback. */
static uint32_t
rocpd_marker_name(struct rocpd *r, sqlite3_stmt *st, int ext,
    uint32_t fallback)
{
	cJSON		*j;
	const char	*msg;
	uint32_t	 sid = fallback;

	if (amd_db_null(st, ext) || strstr(amd_db_text(st, ext), "message") ==
	    NULL)
		return fallback;
	if ((j = cJSON_Parse(amd_db_text(st, ext))) != NULL) {
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
static uint32_t
rocpd_str(struct rocpd *r, uint32_t g, sqlite3_stmt *st, int id, int text,
    enum amd_class *cls)
{
	uint64_t	key;
	uint32_t	v;

	if (amd_db_null(st, id)) {
		if (cls != NULL)
			*cls = amd_category_class(amd_db_text(st, text));
		return amd_db_null(st, text) ? 0 : builder_intern(r->b,
		    amd_db_text(st, text));
	}
	key = hmap_key2(g, (uint64_t)amd_db_i64(st, id));
	if (!hmap_get(&r->strs, key, &v)) {
		v = amd_db_null(st, text) ? 0 : builder_intern_n(r->b,
		    amd_db_text(st, text), (size_t)sqlite3_column_bytes(st,
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
	ev.rowid = amd_db_i64(st, R_ID);
	ev.start = amd_db_i64(st, R_START);
	ev.end = instant ? ev.start : amd_db_i64(st, R_END);
	ev.aux = NONE32;
	ev.name = rocpd_str(r, g, st, R_NAMEID, R_NAME, NULL);
	if (cls == AMD_MARKER) {
		t = rocpd_cpu_track(r, TRACK_NVTX, g, amd_db_i64(st, R_PID),
		    amd_db_i64(st, R_TID));
		ev.name = rocpd_marker_name(r, st, R_EXT, ev.name);
		ev.kind = instant ? EV_MARK : EV_NVTX;
		if (amd_is_comm(strpool_get(r->m->strs, ev.name)))
			ev.flags |= EVF_COMM;
		memset(&info, 0, sizeof info);
		info.domain = r->m->tracks[t].domain;
		ev.aux = builder_nvtx(r->b, &info);
	} else {
		t = rocpd_cpu_track(r, TRACK_API, g, amd_db_i64(st, R_PID),
		    amd_db_i64(st, R_TID));
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

static int
rocpd_regions(struct rocpd *r)
{
	struct rocpd_q	 q;
	char		*sql = NULL;
	int		 rc;

	if (!amd_db_has(&r->d, "rocpd_region"))
		return 0;
	rocpd_q(r, "rocpd_region", &q);
	amd_db_cat(&sql, "SELECT X.id, X.guid, %s, %s, %s, %s, N.string, %s, "
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

static int
rocpd_samples(struct rocpd *r)
{
	char	*sql = NULL;
	int	 rc;

	if (!amd_db_has(&r->d, "rocpd_sample") ||
	    !amd_db_has(&r->d, "rocpd_track"))
		return 0;
	/* A sample's name is its own name_id (later layout) or its track's
	 * (the released one: the category). */
	amd_db_cat(&sql, "SELECT X.id, X.guid, TR.pid, TR.tid, %s, NULL, "
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

/* Kernel dispatches. */

enum {
	K_ID, K_GUID, K_PID, K_AGENT, K_QUEUE, K_STREAM, K_START, K_END,
	K_KERNEL, K_SCRATCH, K_LDS, K_WX, K_WY, K_WZ, K_GX, K_GY, K_GZ,
	K_STACK, K_CORR
};

static void
rocpd_kernel_row(struct rocpd *r, sqlite3_stmt *st)
{
	struct lane_event	 ev;
	struct kernel_info	 k;
	struct rocpd_sym	*s = NULL;
	uint32_t		 g = rocpd_guid(r, st, K_GUID), t, v;
	int64_t			 grid[3], wg[3];
	char			 buf[48];
	int			 i;

	t = rocpd_gpu_track(r, g, rocpd_device(r, g, st, K_AGENT),
	    amd_db_i64(st, K_PID), st, K_STREAM, K_QUEUE);
	if (hmap_get(&r->symidx, rocpd_key(g, st, K_KERNEL), &v))
		s = &r->syms[v];
	memset(&ev, 0, sizeof ev);
	ev.kind = EV_KERNEL;
	ev.rowid = amd_db_i64(st, K_ID);
	ev.start = amd_db_i64(st, K_START);
	ev.end = amd_db_i64(st, K_END);
	ev.corr = rocpd_corr(st, K_STACK, K_CORR);
	if (s != NULL && s->name != 0) {
		ev.name = s->name;
		if (s->comm)
			ev.flags |= EVF_COMM;
	} else {
		snprintf(buf, sizeof buf, "kernel %lld",
		    (long long)amd_db_i64(st, K_KERNEL));
		ev.name = builder_intern(r->b, buf);
		r->unknown_kernel++;
	}
	memset(&k, 0, sizeof k);
	for (i = 0; i < 3; i++) {
		grid[i] = amd_db_i64(st, K_GX + i);
		wg[i] = amd_db_i64(st, K_WX + i);
	}
	amd_kernel_fill(&k, grid, wg, amd_db_i64(st, K_LDS),
	    amd_db_i64(st, K_SCRATCH), s != NULL ? s->static_lds : 0,
	    s != NULL ? s->vgprs : 0);
	if (s != NULL) {
		k.short_name = s->short_name;
		k.mangled = s->mangled;
	}
	ev.aux = builder_kernel(r->b, &k);
	builder_event(r->b, t, &ev);
}

static int
rocpd_kernels(struct rocpd *r)
{
	static const char *const cols[] = { "kernel_id",
	    "private_segment_size", "group_segment_size", "workgroup_size_x",
	    "workgroup_size_y", "workgroup_size_z", "grid_size_x",
	    "grid_size_y", "grid_size_z" };
	struct rocpd_q	 q;
	char		*sql = NULL;
	size_t		 i;
	int		 rc;

	if (!amd_db_has(&r->d, "rocpd_kernel_dispatch"))
		return 0;
	rocpd_q(r, "rocpd_kernel_dispatch", &q);
	amd_db_cat(&sql, "SELECT X.id, X.guid, %s, %s, %s, %s, %s, %s",
	    q.pid, q.agent, q.queue, q.stream, q.start, q.end);
	for (i = 0; i < sizeof cols / sizeof *cols; i++)
		amd_db_colx(&r->d, &sql, "rocpd_kernel_dispatch", "X",
		    cols[i]);
	amd_db_cat(&sql, ", E.stack_id, E.correlation_id FROM "
	    "rocpd_kernel_dispatch X%s LEFT JOIN rocpd_event E ON "
	    "E.id = X.event_id AND E.guid = X.guid", q.joins);
	rc = rocpd_scan_timed(r, sql, "kernel dispatches",
	    "rocpd_kernel_dispatch", rocpd_kernel_row, "rocpd_kernel_dispatch",
	    K_START, K_END);
	free(sql);
	free(q.joins);
	return rc;
}

/* Memory copies. */

enum {
	M_ID, M_GUID, M_PID, M_QUEUE, M_STREAM, M_START, M_END, M_NAME, M_SRC,
	M_DST, M_SIZE, M_STACK, M_CORR, M_NAMEID
};

static void
rocpd_copy_row(struct rocpd *r, sqlite3_stmt *st)
{
	struct lane_event	 ev;
	struct copy_info	 c;
	uint32_t		 g = rocpd_guid(r, st, M_GUID), t, sd, dd;
	int			 kind;

	sd = rocpd_device(r, g, st, M_SRC);
	dd = rocpd_device(r, g, st, M_DST);
	t = rocpd_gpu_track(r, g, dd != NONE32 ? dd : sd, amd_db_i64(st,
	    M_PID), st, M_STREAM, M_QUEUE);
	memset(&ev, 0, sizeof ev);
	ev.kind = EV_MEMCPY;
	ev.rowid = amd_db_i64(st, M_ID);
	ev.start = amd_db_i64(st, M_START);
	ev.end = amd_db_i64(st, M_END);
	ev.corr = rocpd_corr(st, M_STACK, M_CORR);
	if ((ev.name = rocpd_str(r, g, st, M_NAMEID, M_NAME, NULL)) == 0)
		ev.name = builder_intern(r->b, "MEMORY_COPY");

	memset(&c, 0, sizeof c);
	c.bytes = (uint64_t)amd_db_i64(st, M_SIZE);
	if (!amd_db_null(st, M_SRC) && !amd_db_null(st, M_DST))
		kind = amd_copy_kind(sd != NONE32, dd != NONE32,
		    amd_db_i64(st, M_SRC) == amd_db_i64(st, M_DST));
	else
		kind = amd_copy_kind_of_name(amd_db_text(st, M_NAME));
	c.kind = (uint8_t)kind;
	c.src_kind = sd != NONE32 ? MEM_DEVICE : MEM_UNKNOWN;
	c.dst_kind = dd != NONE32 ? MEM_DEVICE : MEM_UNKNOWN;
	c.src_dev = sd != NONE32 ? r->m->devices[sd].source_id : NONE32;
	c.dst_dev = dd != NONE32 ? r->m->devices[dd].source_id : NONE32;
	ev.aux = builder_copy(r->b, &c);
	builder_event(r->b, t, &ev);
}

static int
rocpd_copies(struct rocpd *r)
{
	struct rocpd_q	 q;
	char		*sql = NULL;
	int		 rc;

	if (!amd_db_has(&r->d, "rocpd_memory_copy"))
		return 0;
	rocpd_q(r, "rocpd_memory_copy", &q);
	amd_db_cat(&sql, "SELECT X.id, X.guid, %s, %s, %s, %s, %s, N.string",
	    q.pid, q.queue, q.stream, q.start, q.end);
	amd_db_colx(&r->d, &sql, "rocpd_memory_copy", "X", "src_agent_id");
	amd_db_colx(&r->d, &sql, "rocpd_memory_copy", "X", "dst_agent_id");
	amd_db_colx(&r->d, &sql, "rocpd_memory_copy", "X", "size");
	amd_db_cat(&sql, ", E.stack_id, E.correlation_id, N.id FROM "
	    "rocpd_memory_copy X%s LEFT JOIN rocpd_event E ON "
	    "E.id = X.event_id AND E.guid = X.guid LEFT JOIN rocpd_string N "
	    "ON N.id = X.name_id AND N.guid = X.guid", q.joins);
	rc = rocpd_scan_timed(r, sql, "memory copies", "rocpd_memory_copy",
	    rocpd_copy_row, "rocpd_memory_copy", M_START, M_END);
	free(sql);
	free(q.joins);
	return rc;
}

/* Warnings about what is not loaded. */
static void
rocpd_finish(struct rocpd *r)
{
	static const char *const skipped[] = { "rocpd_memory_allocate",
	    "rocpd_pmc_event" };
	sqlite3_stmt	*st = NULL;
	char		*sql;
	size_t		 i;

	for (i = 0; i < sizeof skipped / sizeof *skipped; i++) {
		if (!amd_db_has(&r->d, skipped[i]))
			continue;
		sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\"",
		    skipped[i]);
		if (sqlite3_prepare_v2(r->d.db, sql, -1, &st, NULL) ==
		    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int64(st, 0) > 0)
			builder_warn(r->b, "%s: %lld rows not loaded",
			    skipped[i], (long long)sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
		st = NULL;
		sqlite3_free(sql);
	}
	if (r->unknown_kernel != 0)
		builder_warn(r->b, "%u kernel dispatches of kernel symbols "
		    "missing from rocpd_info_kernel_symbol", r->unknown_kernel);
}

static void
rocpd_free(struct rocpd *r)
{
	size_t	i;

	amd_db_close(&r->d);
	for (i = 0; i < r->nguids; i++)
		free(r->guids[i]);
	free(r->guids);
	hmap_free(&r->hosts);
	hmap_free(&r->procs);
	hmap_free(&r->threads);
	hmap_free(&r->agents);
	hmap_free(&r->qnames);
	hmap_free(&r->snames);
	hmap_free(&r->symidx);
	hmap_free(&r->gpu_tracks);
	hmap_free(&r->cpu_tracks);
	hmap_free(&r->domains);
	hmap_free(&r->strs);
	hmap_free(&r->classes);
	free(r->syms);
}

struct model *
rocpd_load(const char *path, struct progress *prog, char **cause)
{
	struct rocpd	 r;
	double		 t0 = timing_now();
	char		*err;

	memset(&r, 0, sizeof r);
	if (amd_db_open(&r.d, path, cause) != 0)
		return NULL;
	r.prog = prog;
	hmap_init(&r.hosts);
	hmap_init(&r.procs);
	hmap_init(&r.threads);
	hmap_init(&r.agents);
	hmap_init(&r.qnames);
	hmap_init(&r.snames);
	hmap_init(&r.symidx);
	hmap_init(&r.gpu_tracks);
	hmap_init(&r.cpu_tracks);
	hmap_init(&r.domains);
	hmap_init(&r.strs);
	hmap_init(&r.classes);
	if (!rocpd_probe(r.d.db)) {
		amd_db_error(&r.d, "not a rocprofv3 rocpd database (SQLite "
		    "database without rocpd_metadata and rocpd_* event "
		    "tables)");
		goto fail;
	}
	sqlite3_exec(r.d.db, "PRAGMA cache_size = -16384", NULL, NULL, NULL);
	r.b = builder_new(SOURCE_ROCPD);
	r.m = r.b->m;
	if (rocpd_views(&r) != 0 || rocpd_meta(&r) != 0) {
		builder_abort(r.b);
		goto fail;
	}
	rocpd_layout(&r);
	rocpd_grouping(&r);
	if (rocpd_info(&r) != 0 || rocpd_regions(&r) != 0 ||
	    rocpd_samples(&r) != 0 || rocpd_kernels(&r) != 0 ||
	    rocpd_copies(&r) != 0) {
		builder_abort(r.b);
		goto fail;
	}
	rocpd_finish(&r);
	rocpd_free(&r);
	progress_done(prog);
	timing_report("rocpd-read", t0);
	return builder_finish(r.b, cause);

fail:
	progress_done(prog);
	err = r.d.err;
	r.d.err = NULL;
	rocpd_free(&r);
	if (cause != NULL)
		*cause = err;
	else
		free(err);
	return NULL;
}
