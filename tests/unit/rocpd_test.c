/*
 * rocpd_test: the rocprofv3 rocpd reader against databases this test
 * writes itself, since no public rocpd database could be found.
 *
 * The generator follows rocprofiler-sdk's DDL for schema version 3
 * (FORMATS.md section 5): physical tables named rocpd_X_<uuid> with a guid
 * column, un-suffixed views over them, rocpd_metadata with schema_version,
 * uuid and guid, names in rocpd_string, and event tables whose pid, tid,
 * agent, queue, stream and kernel columns are row ids into the info
 * tables. Row ids are deliberately different from the OS ids and from
 * dense indices, so a reader that confused them would fail. Options
 * produce the variants the reader must handle: another schema version, no
 * views (suffixed tables only), two runs merged into one file (two
 * uuids/guids reusing the same row ids), the later "tracked" layout
 * (rocpd_track + rocpd_timestamp), no HIP streams, gzip compression.
 *
 * Known content, per iteration i of NITER (times from T0 + i * STEP):
 *   main thread (row 1, tid 4242): roctx range "train_step" holding
 *     hipLaunchKernel -> gemm_kernel on GPU 0 (stream row 7, queue row 5)
 *     hsa_signal_wait_scacquire (HSA)
 *     4 x hipMemcpyAsync -> copies H2D, D2H, D2D (GPU 0), P2P (0 -> 1)
 *   worker thread (row 2, tid 4250):
 *     hipLaunchKernel -> elementwise on GPU 1 (default stream and queue)
 *     ncclAllReduce (RCCL) -> ncclDevKernel_AllReduce on GPU 1
 *   and once: a roctxMarkA "checkpoint" (a sample), one memory allocation
 *   and one PMC value (both reported as not loaded).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <zlib.h>

#include "model/cache.h"
#include "model/cachedir.h"
#include "model/correlate.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define NITER		3
#define T0		1000000000000LL
#define STEP		1000000LL
#define PID		4242
#define TID_MAIN	4242
#define TID_WORKER	4250

struct gen {
	int		 layout_tracked;	/* rocpd_track/rocpd_timestamp */
	int		 no_views;
	int		 two_runs;		/* a second uuid/guid */
	int		 no_streams;		/* every stream id 0 */
	const char	*version;		/* schema_version, NULL: "3" */
};

static char	*plain_path;		/* the default database */
static struct model *plain;		/* ... loaded */

/* ---- the generator ------------------------------------------------- */

struct run {
	sqlite3		*db;
	const char	*uuid, *guid;
	const struct gen *g;
	int64_t		 nevent, ntrack, nts, nregion, nsample, ncopy;
	int64_t		 shift;		/* time offset of this run */
};

/* String ids start at 100 so that they are never confused with indices. */
static const char *const strings[] = {
	"", "HIP_RUNTIME_API", "HSA_CORE_API", "MARKER_CORE_API",
	"MARKER_CORE_RANGE_API", "KERNEL_DISPATCH", "MEMORY_COPY", "RCCL_API",
	"hipLaunchKernel", "hipMemcpyAsync", "hsa_signal_wait_scacquire",
	"roctxRangePushA", "roctxMarkA", "ncclAllReduce",
	"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
	"MEMORY_COPY_DEVICE_TO_DEVICE", "MEMORY_ALLOCATION",
};
enum {
	S_EMPTY = 100, S_HIP, S_HSA, S_MARKER, S_RANGE, S_KD, S_MC, S_RCCL,
	S_LAUNCH, S_MEMCPY, S_WAIT, S_PUSH, S_MARK, S_ALLREDUCE, S_H2D, S_D2H,
	S_D2D, S_MALLOC
};

/* Row ids of the info tables (never 0-based indices, never OS ids). */
#define PROC_ROW	1
#define THR_MAIN	1
#define THR_WORKER	2
#define AG_CPU		10
#define AG_GPU0		11
#define AG_GPU1		12
#define Q_DEFAULT	0
#define Q_ONE		5
#define ST_DEFAULT	0
#define ST_ONE		7
#define SYM_GEMM	3
#define SYM_NCCL	4
#define SYM_ELEM	5

static const char *const tables_flat =
	"CREATE TABLE rocpd_metadata_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" tag TEXT NOT NULL, value TEXT NOT NULL);"
	"CREATE TABLE rocpd_string_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, string TEXT NOT NULL UNIQUE);"
	"CREATE TABLE rocpd_info_node_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, hash BIGINT NOT NULL UNIQUE, machine_id TEXT"
	" NOT NULL UNIQUE, system_name TEXT, hostname TEXT, release TEXT,"
	" version TEXT, hardware_name TEXT, domain_name TEXT);"
	"CREATE TABLE rocpd_info_process_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid"
	" INTEGER, pid INTEGER NOT NULL, init BIGINT, fini BIGINT, start"
	" BIGINT, end BIGINT, command TEXT, environment JSONB DEFAULT '{}'"
	" NOT NULL, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_info_thread_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid"
	" INTEGER, pid INTEGER NOT NULL, tid INTEGER NOT NULL, name TEXT,"
	" start BIGINT, end BIGINT, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_info_agent_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, type TEXT CHECK (type IN ('CPU', 'GPU')), absolute_index"
	" INTEGER, logical_index INTEGER, type_index INTEGER, uuid INTEGER,"
	" name TEXT, model_name TEXT, vendor_name TEXT, product_name TEXT,"
	" user_name TEXT, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_info_queue_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, name TEXT, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_info_stream_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, name TEXT, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_info_code_object_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, agent_id INTEGER, uri TEXT, load_base BIGINT, load_size"
	" BIGINT, load_delta BIGINT, storage_type TEXT, extdata JSONB DEFAULT"
	" '{}' NOT NULL);"
	"CREATE TABLE rocpd_info_kernel_symbol_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, code_object_id INTEGER NOT NULL, kernel_name TEXT,"
	" display_name TEXT, kernel_object INTEGER, kernarg_segment_size"
	" INTEGER, kernarg_segment_alignment INTEGER, group_segment_size"
	" INTEGER, private_segment_size INTEGER, sgpr_count INTEGER,"
	" arch_vgpr_count INTEGER, accum_vgpr_count INTEGER, extdata JSONB"
	" DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_event_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, category_id INTEGER, stack_id INTEGER,"
	" parent_stack_id INTEGER, correlation_id INTEGER, call_stack JSONB"
	" DEFAULT '{}' NOT NULL, line_info JSONB DEFAULT '{}' NOT NULL,"
	" extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_arg_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, event_id INTEGER NOT NULL, position INTEGER NOT"
	" NULL, type TEXT NOT NULL, name TEXT NOT NULL, value TEXT, extdata"
	" JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_pmc_event_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, event_id INTEGER, pmc_id INTEGER"
	" NOT NULL, value REAL DEFAULT 0.0, extdata JSONB DEFAULT '{}');";

/* The event tables of the released layout. */
static const char *const events_flat =
	"CREATE TABLE rocpd_track_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER, tid INTEGER,"
	" name_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_region_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER NOT NULL, tid"
	" INTEGER NOT NULL, start BIGINT NOT NULL, end BIGINT NOT NULL,"
	" name_id INTEGER NOT NULL, event_id INTEGER, extdata JSONB DEFAULT"
	" '{}' NOT NULL);"
	"CREATE TABLE rocpd_sample_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, track_id INTEGER NOT NULL, timestamp BIGINT NOT"
	" NULL, event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_kernel_dispatch_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, tid INTEGER, agent_id INTEGER NOT NULL, kernel_id INTEGER"
	" NOT NULL, dispatch_id INTEGER NOT NULL, queue_id INTEGER NOT NULL,"
	" stream_id INTEGER NOT NULL, start BIGINT NOT NULL, end BIGINT NOT"
	" NULL, private_segment_size INTEGER, group_segment_size INTEGER,"
	" workgroup_size_x INTEGER NOT NULL, workgroup_size_y INTEGER NOT"
	" NULL, workgroup_size_z INTEGER NOT NULL, grid_size_x INTEGER NOT"
	" NULL, grid_size_y INTEGER NOT NULL, grid_size_z INTEGER NOT NULL,"
	" region_name_id INTEGER, event_id INTEGER, extdata JSONB DEFAULT"
	" '{}' NOT NULL);"
	"CREATE TABLE rocpd_memory_copy_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, tid INTEGER, start BIGINT NOT NULL, end BIGINT NOT NULL,"
	" name_id INTEGER NOT NULL, dst_agent_id INTEGER, dst_address INTEGER,"
	" src_agent_id INTEGER, src_address INTEGER, size INTEGER NOT NULL,"
	" queue_id INTEGER, stream_id INTEGER, region_name_id INTEGER,"
	" event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_memory_allocate_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, nid INTEGER NOT NULL, pid INTEGER"
	" NOT NULL, tid INTEGER, agent_id INTEGER, type TEXT, level TEXT,"
	" start BIGINT NOT NULL, end BIGINT NOT NULL, address INTEGER, size"
	" INTEGER NOT NULL, queue_id INTEGER, stream_id INTEGER, event_id"
	" INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);";

/* The later layout: tracks and timestamps referenced by id. */
static const char *const events_tracked =
	"CREATE TABLE rocpd_track_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, nid INTEGER NOT NULL, ppid INTEGER, pid INTEGER,"
	" tid INTEGER, agent_id INTEGER, queue_id INTEGER, stream_id INTEGER,"
	" name_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_timestamp_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, value BIGINT NOT NULL, phase"
	" INTEGER, track_id INTEGER);"
	"CREATE TABLE rocpd_region_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, track_id INTEGER NOT NULL, name_id INTEGER NOT"
	" NULL, start_id INTEGER NOT NULL, end_id INTEGER NOT NULL, event_id"
	" INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_sample_%s (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" guid TEXT NOT NULL, track_id INTEGER NOT NULL, name_id INTEGER NOT"
	" NULL, timestamp_id INTEGER NOT NULL, event_id INTEGER, extdata JSONB"
	" DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_kernel_dispatch_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, track_id INTEGER NOT NULL,"
	" kernel_id INTEGER NOT NULL, dispatch_id INTEGER NOT NULL, start_id"
	" INTEGER NOT NULL, end_id INTEGER NOT NULL, private_segment_size"
	" INTEGER, group_segment_size INTEGER, workgroup_size_x INTEGER NOT"
	" NULL, workgroup_size_y INTEGER NOT NULL, workgroup_size_z INTEGER"
	" NOT NULL, grid_size_x INTEGER NOT NULL, grid_size_y INTEGER NOT"
	" NULL, grid_size_z INTEGER NOT NULL, region_name_id INTEGER, event_id"
	" INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_memory_copy_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, track_id INTEGER NOT NULL,"
	" start_id INTEGER NOT NULL, end_id INTEGER NOT NULL, name_id INTEGER"
	" NOT NULL, dst_agent_id INTEGER, dst_address INTEGER, src_agent_id"
	" INTEGER, src_address INTEGER, size INTEGER NOT NULL, region_name_id"
	" INTEGER, event_id INTEGER, extdata JSONB DEFAULT '{}' NOT NULL);"
	"CREATE TABLE rocpd_memory_allocate_%s (id INTEGER PRIMARY KEY"
	" AUTOINCREMENT, guid TEXT NOT NULL, track_id INTEGER NOT NULL, type"
	" TEXT, level TEXT, start_id INTEGER NOT NULL, end_id INTEGER NOT"
	" NULL, name_id INTEGER NOT NULL, address INTEGER, size INTEGER NOT"
	" NULL, region_name_id INTEGER, event_id INTEGER, extdata JSONB"
	" DEFAULT '{}' NOT NULL);";

static const char *const view_names[] = {
	"rocpd_metadata", "rocpd_string", "rocpd_info_node",
	"rocpd_info_process", "rocpd_info_thread", "rocpd_info_agent",
	"rocpd_info_queue", "rocpd_info_stream", "rocpd_info_code_object",
	"rocpd_info_kernel_symbol", "rocpd_event", "rocpd_arg",
	"rocpd_pmc_event", "rocpd_track", "rocpd_region", "rocpd_sample",
	"rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_memory_allocate",
	"rocpd_timestamp",
};

/* Replaces every %s in tmpl by uuid and runs it. */
static void
ddl(sqlite3 *db, const char *tmpl, const char *uuid)
{
	char		*out, *o;
	const char	*p;
	size_t		 n = 0, ul = strlen(uuid);

	for (p = tmpl; *p != '\0'; p++)
		n += p[0] == '%' && p[1] == 's' ? ul : 1;
	out = o = xmalloc(n + 1);
	for (p = tmpl; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 's') {
			memcpy(o, uuid, ul);
			o += ul;
			p++;
		} else
			*o++ = *p;
	}
	*o = '\0';
	ts_sql(db, "%s", out);
	free(out);
}

static int64_t
gen_event(struct run *r, int cat, int64_t stack, const char *extdata)
{
	ts_sql(r->db, "INSERT INTO rocpd_event_%s (id, guid, category_id, "
	    "stack_id, parent_stack_id, correlation_id, extdata) VALUES "
	    "(%lld, %Q, %d, %lld, %lld, 0, %Q)", r->uuid,
	    (long long)++r->nevent, r->guid, cat, (long long)stack,
	    (long long)stack, extdata != NULL ? extdata : "{}");
	return r->nevent;
}

/* The tracked layout: a track row per distinct (tid, agent, queue,
 * stream, name), made on demand. */
/* v as SQL text in buf: NULL when negative. */
static const char *
num(char *buf, size_t len, int64_t v)
{
	if (v < 0)
		return "NULL";
	snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

static int64_t
gen_track(struct run *r, int64_t tid, int64_t agent, int64_t queue,
    int64_t stream, int name)
{
	sqlite3_stmt	*st;
	char		*q, b[4][32];
	int64_t		 id = 0;

	q = sqlite3_mprintf("SELECT id FROM rocpd_track_%s WHERE "
	    "tid IS %lld AND agent_id IS %lld AND queue_id IS %lld AND "
	    "stream_id IS %lld AND name_id IS %d", r->uuid, (long long)tid,
	    (long long)agent, (long long)queue, (long long)stream, name);
	st = ts_sql_prepare(r->db, q);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(q);
	if (id != 0)
		return id;
	ts_sql(r->db, "INSERT INTO rocpd_track_%s (id, guid, nid, pid, tid, "
	    "agent_id, queue_id, stream_id, name_id) VALUES (%lld, %Q, 77, "
	    "%d, %s, %s, %s, %s, %d)", r->uuid, (long long)++r->ntrack,
	    r->guid, PROC_ROW, num(b[0], sizeof b[0], tid),
	    num(b[1], sizeof b[1], agent), num(b[2], sizeof b[2], queue),
	    num(b[3], sizeof b[3], stream), name);
	return r->ntrack;
}

static int64_t
gen_ts(struct run *r, int64_t v, int phase)
{
	ts_sql(r->db, "INSERT INTO rocpd_timestamp_%s (id, guid, value, phase) "
	    "VALUES (%lld, %Q, %lld, %d)", r->uuid, (long long)++r->nts,
	    r->guid, (long long)(v + r->shift), phase);
	return r->nts;
}

/* A CPU call or range on a thread row. */
static void
gen_region(struct run *r, int thr, int64_t start, int64_t end, int name,
    int cat, int64_t stack, const char *extdata)
{
	int64_t	ev = gen_event(r, cat, stack, extdata);

	if (r->g->layout_tracked) {
		int64_t tr = gen_track(r, thr, -1, -1, -1, cat);
		int64_t s = gen_ts(r, start, 1), e = gen_ts(r, end, 2);
		ts_sql(r->db, "INSERT INTO rocpd_region_%s (id, guid, "
		    "track_id, name_id, start_id, end_id, event_id) VALUES "
		    "(%lld, %Q, %lld, %d, %lld, %lld, %lld)", r->uuid,
		    (long long)stack, r->guid, (long long)tr, name,
		    (long long)s, (long long)e, (long long)ev);
		return;
	}
	ts_sql(r->db, "INSERT INTO rocpd_region_%s (id, guid, nid, pid, tid, "
	    "start, end, name_id, event_id) VALUES (%lld, %Q, 77, %d, %d, "
	    "%lld, %lld, %d, %lld)", r->uuid, (long long)stack, r->guid,
	    PROC_ROW, thr, (long long)(start + r->shift),
	    (long long)(end + r->shift), name, (long long)ev);
}

static void
gen_kernel(struct run *r, int thr, int agent, int queue, int stream,
    int sym, int64_t start, int64_t end, int64_t stack, int gx, int wx)
{
	int64_t	ev = gen_event(r, S_KD, stack, NULL);
	int64_t	id = ++r->nregion;

	if (r->g->no_streams)
		stream = ST_DEFAULT;
	if (r->g->layout_tracked) {
		int64_t tr = gen_track(r, thr, agent, queue, stream, S_KD);
		int64_t s = gen_ts(r, start, 1), e = gen_ts(r, end, 2);
		ts_sql(r->db, "INSERT INTO rocpd_kernel_dispatch_%s (id, guid, "
		    "track_id, kernel_id, dispatch_id, start_id, end_id, "
		    "private_segment_size, group_segment_size, "
		    "workgroup_size_x, workgroup_size_y, workgroup_size_z, "
		    "grid_size_x, grid_size_y, grid_size_z, region_name_id, "
		    "event_id) VALUES (%lld, %Q, %lld, %d, %lld, %lld, %lld, "
		    "16, 3072, %d, 1, 1, %d, 1, 1, %d, %lld)", r->uuid,
		    (long long)id, r->guid, (long long)tr, sym, (long long)id,
		    (long long)s, (long long)e, wx, gx, S_EMPTY,
		    (long long)ev);
		return;
	}
	ts_sql(r->db, "INSERT INTO rocpd_kernel_dispatch_%s (id, guid, nid, "
	    "pid, tid, agent_id, kernel_id, dispatch_id, queue_id, stream_id, "
	    "start, end, private_segment_size, group_segment_size, "
	    "workgroup_size_x, workgroup_size_y, workgroup_size_z, "
	    "grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id) "
	    "VALUES (%lld, %Q, 77, %d, %d, %d, %d, %lld, %d, %d, %lld, %lld, "
	    "16, 3072, %d, 1, 1, %d, 1, 1, %d, %lld)", r->uuid, (long long)id,
	    r->guid, PROC_ROW, thr, agent, sym, (long long)id, queue, stream,
	    (long long)(start + r->shift), (long long)(end + r->shift), wx, gx,
	    S_EMPTY, (long long)ev);
}

static void
gen_copy(struct run *r, int thr, int src, int dst, int name, int stream,
    int64_t start, int64_t end, int64_t stack, int64_t size)
{
	int64_t	ev = gen_event(r, S_MC, stack, NULL);
	int64_t	id = ++r->ncopy;

	if (r->g->no_streams)
		stream = ST_DEFAULT;
	if (r->g->layout_tracked) {
		int64_t tr = gen_track(r, thr, dst, -1, stream, S_MC);
		int64_t s = gen_ts(r, start, 1), e = gen_ts(r, end, 2);
		ts_sql(r->db, "INSERT INTO rocpd_memory_copy_%s (id, guid, "
		    "track_id, start_id, end_id, name_id, dst_agent_id, "
		    "src_agent_id, size, event_id) VALUES (%lld, %Q, %lld, "
		    "%lld, %lld, %d, %d, %d, %lld, %lld)", r->uuid,
		    (long long)id, r->guid, (long long)tr, (long long)s,
		    (long long)e, name, dst, src, (long long)size,
		    (long long)ev);
		return;
	}
	ts_sql(r->db, "INSERT INTO rocpd_memory_copy_%s (id, guid, nid, pid, "
	    "tid, start, end, name_id, dst_agent_id, src_agent_id, size, "
	    "stream_id, event_id) VALUES (%lld, %Q, 77, %d, %d, %lld, %lld, "
	    "%d, %d, %d, %lld, %d, %lld)", r->uuid, (long long)id, r->guid,
	    PROC_ROW, thr, (long long)(start + r->shift),
	    (long long)(end + r->shift), name, dst, src, (long long)size,
	    stream, (long long)ev);
}

static void
gen_run(sqlite3 *db, const struct gen *g, const char *uuid, const char *guid,
    int64_t shift)
{
	struct run	 r;
	size_t		 i;
	int64_t		 c = 1000, t;
	int		 it;

	memset(&r, 0, sizeof r);
	r.db = db;
	r.uuid = uuid;
	r.guid = guid;
	r.g = g;
	r.shift = shift;
	ddl(db, tables_flat, uuid);
	ddl(db, g->layout_tracked ? events_tracked : events_flat, uuid);

	ts_sql(db, "INSERT INTO rocpd_metadata_%s (tag, value) VALUES "
	    "('schema_version', %Q), ('uuid', %Q), ('guid', %Q)", uuid,
	    g->version != NULL ? g->version : "3", uuid, guid);
	for (i = 0; i < sizeof strings / sizeof *strings; i++)
		ts_sql(db, "INSERT INTO rocpd_string_%s (id, guid, string) "
		    "VALUES (%d, %Q, %Q)", uuid, (int)(100 + i), guid,
		    strings[i]);
	ts_sql(db, "INSERT INTO rocpd_info_node_%s (id, guid, hash, "
	    "machine_id, hostname) VALUES (77, %Q, 77, 'machine-77', "
	    "'mi300-node')", uuid, guid);
	ts_sql(db, "INSERT INTO rocpd_info_process_%s (id, guid, nid, ppid, "
	    "pid, command) VALUES (%d, %Q, 77, 1, %d, "
	    "'/usr/bin/python3 train.py --epochs 1')", uuid, PROC_ROW, guid,
	    PID);
	ts_sql(db, "INSERT INTO rocpd_info_thread_%s (id, guid, nid, pid, tid, "
	    "name) VALUES (%d, %Q, 77, %d, %d, NULL), (%d, %Q, 77, %d, %d, "
	    "'worker')", uuid, THR_MAIN, guid, PROC_ROW, TID_MAIN, THR_WORKER,
	    guid, PROC_ROW, TID_WORKER);
	ts_sql(db, "INSERT INTO rocpd_info_agent_%s (id, guid, nid, pid, type, "
	    "absolute_index, logical_index, type_index, uuid, name, "
	    "model_name, vendor_name, product_name, extdata) VALUES "
	    "(%d, %Q, 77, %d, 'CPU', 0, 0, 0, 0, 'AMD EPYC 9654', '', 'CPU', "
	    "'AMD EPYC 9654', '{\"cu_count\": 96, \"type\": 1}'), "
	    "(%d, %Q, 77, %d, 'GPU', 2, 1, 0, 3405691582, 'gfx942', "
	    "'ip discovery', 'AMD', 'AMD Instinct MI300X', "
	    "'{\"type\": 2, \"cu_count\": 304, \"wave_front_size\": 64, "
	    "\"max_waves_per_cu\": 32, \"lds_size_in_kb\": 64, "
	    "\"max_engine_clk_fcompute\": 2100, \"gfx_target_version\": 90402,"
	    " \"location_id\": 29952, \"domain\": 0, \"workgroup_max_size\": "
	    "1024, \"mem_banks\": [{\"size_in_bytes\": 206158430208}]}'), "
	    "(%d, %Q, 77, %d, 'GPU', 3, 2, 1, 0, 'gfx942', 'ip discovery', "
	    "'AMD', 'AMD Instinct MI300X', '{\"cu_count\": 304}')", uuid,
	    AG_CPU, guid, PROC_ROW, AG_GPU0, guid, PROC_ROW, AG_GPU1, guid,
	    PROC_ROW);
	ts_sql(db, "INSERT INTO rocpd_info_queue_%s (id, guid, nid, pid, name) "
	    "VALUES (%d, %Q, 77, %d, 'Default Queue'), (%d, %Q, 77, %d, "
	    "'Queue 1')", uuid, Q_DEFAULT, guid, PROC_ROW, Q_ONE, guid,
	    PROC_ROW);
	ts_sql(db, "INSERT INTO rocpd_info_stream_%s (id, guid, nid, pid, "
	    "name) VALUES (%d, %Q, 77, %d, 'Default Stream'), (%d, %Q, 77, %d, "
	    "'Stream 1')", uuid, ST_DEFAULT, guid, PROC_ROW, ST_ONE, guid,
	    PROC_ROW);
	ts_sql(db, "INSERT INTO rocpd_info_code_object_%s (id, guid, nid, pid, "
	    "agent_id, uri) VALUES (1, %Q, 77, %d, %d, 'file:///x.hsaco')",
	    uuid, guid, PROC_ROW, AG_GPU0);
	ts_sql(db, "INSERT INTO rocpd_info_kernel_symbol_%s (id, guid, nid, "
	    "pid, code_object_id, kernel_name, display_name, "
	    "group_segment_size, private_segment_size, sgpr_count, "
	    "arch_vgpr_count, accum_vgpr_count, extdata) VALUES "
	    "(%d, %Q, 77, %d, 1, '_Z11gemm_kernelPfS_.kd', "
	    "'gemm_kernel(float*, float*)', 1024, 16, 40, 64, 32, "
	    "'{\"truncated_kernel_name\": \"gemm_kernel\"}'), "
	    "(%d, %Q, 77, %d, 1, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL.kd', "
	    "'ncclDevKernel_AllReduce_Sum_f32_RING_LL', 0, 0, 20, 128, 0, "
	    "'{}'), (%d, %Q, 77, %d, 1, '_Z11elementwisePf.kd', "
	    "'elementwise(float*)', 0, 0, 10, 16, 0, '{}')", uuid, SYM_GEMM,
	    guid, PROC_ROW, SYM_NCCL, guid, PROC_ROW, SYM_ELEM, guid,
	    PROC_ROW);

	for (it = 0; it < NITER; it++) {
		t = T0 + it * STEP;
		/* main thread */
		gen_region(&r, THR_MAIN, t, t + 900000, S_PUSH, S_RANGE, c++,
		    "{\"message\": \"train_step\"}");
		gen_region(&r, THR_MAIN, t + 1000, t + 6000, S_LAUNCH, S_HIP,
		    c, NULL);
		gen_kernel(&r, THR_MAIN, AG_GPU0, Q_ONE, ST_ONE, SYM_GEMM,
		    t + 10000, t + 10000 + 100000 + it * 1000, c++, 65536, 256);
		gen_region(&r, THR_MAIN, t + 7000, t + 9000, S_WAIT, S_HSA,
		    c++, NULL);
		gen_region(&r, THR_MAIN, t + 200000, t + 201000, S_MEMCPY,
		    S_HIP, c, NULL);
		gen_copy(&r, THR_MAIN, AG_CPU, AG_GPU0, S_H2D, ST_ONE,
		    t + 202000, t + 203000, c++, 1 << 20);
		gen_region(&r, THR_MAIN, t + 210000, t + 211000, S_MEMCPY,
		    S_HIP, c, NULL);
		gen_copy(&r, THR_MAIN, AG_GPU0, AG_CPU, S_D2H, ST_ONE,
		    t + 212000, t + 214000, c++, 4096);
		gen_region(&r, THR_MAIN, t + 220000, t + 221000, S_MEMCPY,
		    S_HIP, c, NULL);
		gen_copy(&r, THR_MAIN, AG_GPU0, AG_GPU0, S_D2D, ST_ONE,
		    t + 222000, t + 223000, c++, 8192);
		gen_region(&r, THR_MAIN, t + 230000, t + 231000, S_MEMCPY,
		    S_HIP, c, NULL);
		gen_copy(&r, THR_MAIN, AG_GPU0, AG_GPU1, S_D2D, ST_ONE,
		    t + 232000, t + 236000, c++, 65536);
		/* worker thread */
		gen_region(&r, THR_WORKER, t + 2000, t + 4000, S_LAUNCH, S_HIP,
		    c, NULL);
		gen_kernel(&r, THR_WORKER, AG_GPU1, Q_DEFAULT, ST_DEFAULT,
		    SYM_ELEM, t + 20000, t + 25000, c++, 1000, 256);
		gen_region(&r, THR_WORKER, t + 300000, t + 302000,
		    S_ALLREDUCE, S_RCCL, c, NULL);
		gen_kernel(&r, THR_WORKER, AG_GPU1, Q_DEFAULT, ST_DEFAULT,
		    SYM_NCCL, t + 303000, t + 403000, c++, 256, 256);
	}
	/* A roctxMarkA: a sample on the thread's marker track. */
	{
		int64_t ev = gen_event(&r, S_MARKER, c++,
		    "{\"message\": \"checkpoint\"}");
		if (g->layout_tracked) {
			int64_t tr = gen_track(&r, THR_MAIN, -1, -1, -1,
			    S_MARKER);
			int64_t ts = gen_ts(&r, T0 + 950000, 0);
			ts_sql(db, "INSERT INTO rocpd_sample_%s (guid, "
			    "track_id, name_id, timestamp_id, event_id) VALUES "
			    "(%Q, %lld, %d, %lld, %lld)", uuid, guid,
			    (long long)tr, S_MARK, (long long)ts,
			    (long long)ev);
		} else {
			ts_sql(db, "INSERT INTO rocpd_track_%s (id, guid, nid, "
			    "pid, tid, name_id) VALUES (1, %Q, 77, %d, %d, %d)",
			    uuid, guid, PROC_ROW, THR_MAIN, S_MARKER);
			ts_sql(db, "INSERT INTO rocpd_sample_%s (guid, "
			    "track_id, timestamp, event_id) VALUES (%Q, 1, "
			    "%lld, %lld)", uuid, guid,
			    (long long)(T0 + 950000 + shift), (long long)ev);
		}
	}
	/* Not loaded: one allocation, one counter value. */
	if (g->layout_tracked)
		ts_sql(db, "INSERT INTO rocpd_memory_allocate_%s (guid, "
		    "track_id, type, level, start_id, end_id, name_id, size) "
		    "VALUES (%Q, 1, 'ALLOC', 'REAL', 1, 1, %d, 64)", uuid,
		    guid, S_MALLOC);
	else
		ts_sql(db, "INSERT INTO rocpd_memory_allocate_%s (guid, nid, "
		    "pid, tid, agent_id, type, level, start, end, size) VALUES "
		    "(%Q, 77, %d, %d, %d, 'ALLOC', 'REAL', %lld, %lld, 64)",
		    uuid, guid, PROC_ROW, THR_MAIN, AG_GPU0, (long long)T0,
		    (long long)T0 + 10);
	ts_sql(db, "INSERT INTO rocpd_pmc_event_%s (guid, event_id, pmc_id, "
	    "value) VALUES (%Q, 1, 1, 42.0)", uuid, guid);
}

static const char *const uuid1 = "0198a1b2_c3d4_7e5f_8a9b_0c1d2e3f4a5b";
static const char *const guid1 = "0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
static const char *const uuid2 = "0198ffff_0000_7111_8222_333344445555";
static const char *const guid2 = "0198ffff-0000-7111-8222-333344445555";

/* Writes a database with options g to a new file in ts_tmp(). */
static char *
gen(const char *name, const struct gen *g)
{
	sqlite3	*db;
	char	*path = xasprintf("%s/%s", ts_tmp(), name);
	size_t	 i;

	unlink(path);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	ts_sql(db, "BEGIN");
	gen_run(db, g, uuid1, guid1, 0);
	if (g->two_runs)
		gen_run(db, g, uuid2, guid2, 5 * STEP);
	if (!g->no_views) {
		for (i = 0; i < sizeof view_names / sizeof *view_names; i++) {
			if (!g->layout_tracked &&
			    strcmp(view_names[i], "rocpd_timestamp") == 0)
				continue;
			ts_sql(db, "CREATE VIEW %s AS SELECT * FROM %s_%s",
			    view_names[i], view_names[i], uuid1);
		}
	}
	ts_sql(db, "COMMIT");
	sqlite3_close(db);
	return path;
}

/* ---- helpers ------------------------------------------------------- */

static struct model *
load(const char *path)
{
	return ts_load(rocpd_load, path);
}

/* Total duration of the events of kind and name. */
static int64_t
total(const struct model *m, int kind, const char *name)
{
	size_t	t, i;
	int64_t	sum = 0;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == kind &&
			    strcmp(model_str(m, l->name[i]), name) == 0)
				sum += l->end[i] - l->start[i];
	}
	return sum;
}

/* Checks everything the default database holds, for any variant that
 * holds the same content once (nproc = 1) or twice (two runs). */
static void
check_content(const struct model *m, size_t runs)
{
	assert_int_equal(m->source, SOURCE_ROCPD);
	assert_int_equal(m->kind_count[EV_KERNEL], runs * NITER * 3);
	assert_int_equal(m->kind_count[EV_MEMCPY], runs * NITER * 4);
	assert_int_equal(m->kind_count[EV_API], runs * NITER * 8);
	assert_int_equal(m->kind_count[EV_NVTX], runs * NITER);
	assert_int_equal(m->kind_count[EV_MARK], runs);
	assert_int_equal(ts_count(m, EV_KERNEL, "gemm_kernel(float*, float*)"),
	    runs * NITER);
	assert_int_equal(ts_count(m, EV_KERNEL, "elementwise(float*)"),
	    runs * NITER);
	assert_int_equal(ts_count(m, EV_KERNEL,
	    "ncclDevKernel_AllReduce_Sum_f32_RING_LL"), runs * NITER);
	/* 100000 + 1000 i ns per gemm. */
	assert_int_equal(total(m, EV_KERNEL, "gemm_kernel(float*, float*)"),
	    (int64_t)runs * (NITER * 100000 + 1000 * (NITER - 1) * NITER / 2));
	assert_int_equal(total(m, EV_KERNEL, "elementwise(float*)"),
	    (int64_t)runs * NITER * 5000);
	assert_int_equal(ts_count(m, EV_API, "hipLaunchKernel"),
	    runs * NITER * 2);
	assert_int_equal(ts_count(m, EV_API, "hipMemcpyAsync"),
	    runs * NITER * 4);
	assert_int_equal(ts_count(m, EV_NVTX, "train_step"), runs * NITER);
	assert_int_equal(ts_count(m, EV_MARK, "checkpoint"), runs);
	assert_int_equal(total(m, EV_NVTX, "train_step"),
	    (int64_t)runs * NITER * 900000);
	assert_int_equal(ts_count(m, EV_MEMCPY, "MEMORY_COPY_HOST_TO_DEVICE"),
	    runs * NITER);
	assert_int_equal(ts_count(m, EV_MEMCPY, "MEMORY_COPY_DEVICE_TO_DEVICE"),
	    runs * NITER * 2);
	assert_int_equal(m->origin_ns, T0 + 1000 * 0);
}

/* The database with options g written to name in ts_tmp(), loaded and
 * checked with check_content() (two runs with g->two_runs, else one). */
static struct model *
gen_checked(const char *name, const struct gen *g)
{
	char		*p = gen(name, g);
	struct model	*m = load(p);

	check_content(m, g->two_runs ? 2 : 1);
	free(p);
	return m;
}

/* ---- tests --------------------------------------------------------- */

static void
test_content(void **state)
{
	(void)state;
	check_content(plain, 1);
	assert_string_equal(model_str(plain, plain->schema_version), "3");
	assert_string_equal(model_meta(plain, "guid"), guid1);
	assert_string_equal(model_meta(plain, "uuid"), uuid1);
}

static void
test_processes_threads(void **state)
{
	const struct model	*m = plain;
	size_t			 i;
	int			 seen_main = 0, seen_worker = 0;

	(void)state;
	/* OS ids from the info tables, not the row ids of event tables. */
	assert_int_equal(m->nprocesses, 1);
	ts_process_is(m, 0, PID, "python3", "mi300-node");
	assert_int_equal(m->nthreads, 2);
	for (i = 0; i < m->nthreads; i++) {
		assert_int_equal(m->threads[i].process, 0);
		if (m->threads[i].tid == TID_MAIN)
			seen_main = 1;
		if (m->threads[i].tid == TID_WORKER) {
			seen_worker = 1;
			assert_string_equal(model_str(m, m->threads[i].name),
			    "worker");
		}
	}
	assert_true(seen_main && seen_worker);
	assert_string_equal(model_meta(m, "command"),
	    "/usr/bin/python3 train.py --epochs 1");
}

static void
test_devices(void **state)
{
	const struct model	*m = plain;
	const struct device	*d;

	(void)state;
	/* The two GPU agents; the CPU agent is not a device. */
	assert_int_equal(m->ndevices, 2);
	d = &m->devices[0];
	assert_int_equal(d->source_id, 0);
	assert_string_equal(model_str(m, d->name), "AMD Instinct MI300X");
	assert_string_equal(model_str(m, d->chip), "gfx942");
	assert_string_equal(model_str(m, d->vendor), "AMD");
	assert_string_equal(model_str(m, d->bus), "0000:75:00.0");
	assert_string_equal(model_str(m, d->uuid), "00000000cafebabe");
	assert_int_equal(d->sm_count, 304);
	assert_int_equal(d->threads_per_warp, 64);
	assert_int_equal(d->max_warps_per_sm, 32);
	assert_int_equal(d->smem_per_sm, 65536);
	assert_int_equal(d->clock_hz, 2100000000LL);
	assert_int_equal(d->cc_major, 9);
	assert_int_equal(d->cc_minor, 4);
	assert_int_equal(d->total_mem, 206158430208LL);
	assert_int_equal(d->max_threads_per_block, 1024);
	assert_int_equal(m->devices[1].source_id, 1);
	assert_int_equal(m->devices[1].sm_count, 304);
}

static void
test_kernel_info(void **state)
{
	const struct model		*m = plain;
	const struct kernel_info	*k;
	uint32_t			 g;

	(void)state;
	g = ts_find(m, EV_KERNEL, "gemm_kernel(float*, float*)");
	assert_int_not_equal(g, NONE32);
	k = ts_kernel_of(m, g);
	/* 65536 work-items in work-groups of 256: 256 work-groups. */
	ts_kernel_dims(k, 256, 1, 256, 1024, 2048, 16, 96);
	assert_string_equal(model_str(m, k->short_name), "gemm_kernel");
	assert_string_equal(model_str(m, k->mangled),
	    "_Z11gemm_kernelPfS_.kd");
	/* 1000 work-items in groups of 256: 4 (rounded up). */
	g = ts_find(m, EV_KERNEL, "elementwise(float*)");
	k = ts_kernel_of(m, g);
	assert_int_equal(k->grid[0], 4);
	assert_int_equal(k->regs, 16);
	assert_int_equal(k->static_smem, 0);
	assert_int_equal(k->dynamic_smem, 3072);
}

static void
test_flags(void **state)
{
	const struct model	*m = plain;
	uint32_t		 g;

	(void)state;
	g = ts_find(m, EV_KERNEL, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
	assert_true(ts_flags_of(m, g) & EVF_COMM);
	g = ts_find(m, EV_KERNEL, "gemm_kernel(float*, float*)");
	assert_false(ts_flags_of(m, g) & EVF_COMM);
	g = ts_find(m, EV_API, "ncclAllReduce");
	assert_true(ts_flags_of(m, g) & EVF_COMM);
	g = ts_find(m, EV_API, "hsa_signal_wait_scacquire");
	assert_true(ts_flags_of(m, g) & EVF_DRIVER);
	g = ts_find(m, EV_API, "hipLaunchKernel");
	assert_false(ts_flags_of(m, g) & EVF_DRIVER);
}

static void
test_correlation(void **state)
{
	const struct model	*m = plain;
	size_t			 t, i, linked = 0;

	(void)state;
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		for (i = 0; i < l->n; i++) {
			uint32_t g = model_gid(m, (uint32_t)t, (uint32_t)i);
			uint32_t a = correlate_launch(m, g);
			const char *gn = model_str(m, l->name[i]);
			const char *an;
			assert_int_not_equal(a, NONE32);
			an = model_str(m, model_ev_name(m, a));
			if (l->kind[i] == EV_MEMCPY)
				assert_string_equal(an, "hipMemcpyAsync");
			else if (strncmp(gn, "nccl", 4) == 0)
				assert_string_equal(an, "ncclAllReduce");
			else
				assert_string_equal(an, "hipLaunchKernel");
			/* The call ends before its work starts. */
			assert_true(model_ev_end(m, a) <= l->start[i]);
			linked++;
		}
	}
	assert_int_equal(linked, NITER * 7);
}

static void
test_copies(void **state)
{
	const struct model	*m = plain;
	const struct copy_info	*c;
	size_t			 nk[COPY_KIND_COUNT];
	uint64_t		 bytes = 0;
	uint32_t		 g;

	(void)state;
	memset(nk, 0, sizeof nk);
	for (g = ts_next(m, EV_MEMCPY, 0); g != NONE32;
	    g = ts_next(m, EV_MEMCPY, g + 1)) {
		c = ts_copy_of(m, g);
		nk[c->kind]++;
		bytes += c->bytes;
		if (c->kind == COPY_PTOP) {
			assert_int_equal(c->src_dev, 0);
			assert_int_equal(c->dst_dev, 1);
		}
		if (c->kind == COPY_HTOD) {
			assert_int_equal(c->src_dev, NONE32);
			assert_int_equal(c->dst_dev, 0);
			assert_int_equal(c->dst_kind, MEM_DEVICE);
		}
	}
	assert_int_equal(nk[COPY_HTOD], NITER);
	assert_int_equal(nk[COPY_DTOH], NITER);
	assert_int_equal(nk[COPY_DTOD], NITER);
	assert_int_equal(nk[COPY_PTOP], NITER);
	assert_int_equal(bytes, (uint64_t)NITER * ((1 << 20) + 4096 + 8192 +
	    65536));
}

static void
test_markers(void **state)
{
	const struct model	*m = plain;
	uint32_t		 g;
	const struct track	*tr;

	(void)state;
	g = ts_find(m, EV_NVTX, "train_step");
	tr = ts_track_of(m, g);
	assert_int_equal(tr->type, TRACK_NVTX);
	assert_string_equal(model_str(m, m->domains[tr->domain].name),
	    "roctx");
	assert_int_equal(m->threads[tr->thread].tid, TID_MAIN);
	g = ts_find(m, EV_MARK, "checkpoint");
	assert_int_not_equal(g, NONE32);
	assert_int_equal(model_ev_start(m, g), T0 + 950000);
	assert_int_equal(model_ev_end(m, g), T0 + 950000);
	/* The range holds the launch call: the NVTX tree links them. */
	assert_int_equal(model_ev_start(m, ts_find(m, EV_NVTX, "train_step")),
	    T0);
}

static void
test_tracks_by_stream(void **state)
{
	const struct model	*m = plain;
	size_t			 t, ngpu = 0;
	const struct track	*tr;

	(void)state;
	/* GPU 0: "Stream 1" (kernels and copies); GPU 1: default stream
	 * (kernels) and "Stream 1" (the P2P copy lands on GPU 1). */
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].type == TRACK_GPU)
			ngpu++;
	assert_int_equal(ngpu, 3);
	tr = ts_track_of(m, ts_find(m, EV_KERNEL,
	    "gemm_kernel(float*, float*)"));
	assert_string_equal(model_str(m, tr->name), "Stream 1");
	assert_int_equal(m->devices[tr->device].source_id, 0);
	assert_int_equal(tr->process, 0);
	tr = ts_track_of(m, ts_find(m, EV_KERNEL, "elementwise(float*)"));
	assert_string_equal(model_str(m, tr->name), "Default Stream");
	assert_int_equal(m->devices[tr->device].source_id, 1);
}

static void
test_tracks_by_queue(void **state)
{
	struct gen		 g = { .no_streams = 1 };
	struct model		*m;
	const struct track	*tr;

	(void)state;
	m = gen_checked("noStreams.db", &g);
	/* Every stream is the default one: tracks follow the queues. */
	tr = ts_track_of(m, ts_find(m, EV_KERNEL,
	    "gemm_kernel(float*, float*)"));
	assert_string_equal(model_str(m, tr->name), "Queue 1");
	tr = ts_track_of(m, ts_find(m, EV_KERNEL, "elementwise(float*)"));
	assert_string_equal(model_str(m, tr->name), "Default Queue");
	/* Copies carry no queue: a track of their own. */
	tr = ts_track_of(m, ts_find(m, EV_MEMCPY,
	    "MEMORY_COPY_HOST_TO_DEVICE"));
	assert_string_equal(model_str(m, tr->name), "Memory copies");
	model_free(m);
}

static void
test_warnings(void **state)
{
	(void)state;
	assert_true(ts_has_warning(plain, "rocpd_memory_allocate: 1 rows not "
	    "loaded"));
	assert_true(ts_has_warning(plain,
	    "rocpd_pmc_event: 1 rows not loaded"));
}

static void
test_unknown_version(void **state)
{
	struct gen	 g = { .version = "4" };
	char		*p, *cause = NULL;

	(void)state;
	p = gen("v4.db", &g);
	assert_null(rocpd_load(p, NULL, &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, "unsupported rocpd schema version "
	    "\"4\""));
	assert_non_null(strstr(cause, p));
	free(cause);
	free(p);
}

static void
test_missing_version(void **state)
{
	struct gen	 g = { 0 };
	sqlite3		*db;
	char		*p;

	(void)state;
	p = gen("noversion.db", &g);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "DELETE FROM rocpd_metadata_%s WHERE tag = 'schema_version'",
	    uuid1);
	sqlite3_close(db);
	ts_refused(rocpd_load, p, "without a schema_version");
	free(p);
}

static void
test_without_views(void **state)
{
	struct gen	 g = { .no_views = 1 };

	(void)state;
	model_free(gen_checked("noviews.db", &g));
}

/*
 * The file's un-suffixed views are never run: with suffixed tables under
 * them, the reader's own views shadow them (here the file's never end);
 * without, the view is refused, naming it.
 */
static void
test_views_not_run(void **state)
{
	struct gen	 g = { 0 };
	struct model	*m;
	sqlite3		*db;
	char		*p;

	(void)state;
	p = gen("endless-views.db", &g);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "DROP VIEW rocpd_kernel_dispatch");
	ts_sql(db, "CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE "
	    "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT "
	    "K.* FROM rocpd_kernel_dispatch_%s K, c", uuid1);
	sqlite3_close(db);
	m = load(p);
	check_content(m, 1);
	model_free(m);

	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "DROP VIEW rocpd_kernel_dispatch");
	ts_sql(db, "ALTER TABLE rocpd_kernel_dispatch_%s RENAME TO kd", uuid1);
	ts_sql(db, "CREATE VIEW rocpd_kernel_dispatch AS WITH RECURSIVE "
	    "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT "
	    "K.* FROM kd K, c");
	sqlite3_close(db);
	ts_refused(rocpd_load, p,
	    "rocpd_kernel_dispatch is a view, not a table");
	free(p);
}

/*
 * A dispatch whose start is text and a region whose end is a blob are
 * skipped and counted, one warning per table; kernel dispatches that are
 * all unusable refuse the file.
 */
static void
test_bad_times(void **state)
{
	struct gen	 g = { .no_views = 1 };
	struct model	*m;
	sqlite3		*db;
	char		*p, *cause = NULL;

	(void)state;
	p = gen("badtimes.db", &g);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "UPDATE rocpd_kernel_dispatch_%s SET start = 'soon' WHERE "
	    "id = (SELECT min(id) FROM rocpd_kernel_dispatch_%s)", uuid1,
	    uuid1);
	ts_sql(db, "UPDATE rocpd_region_%s SET end = x'00' WHERE id = "
	    "(SELECT max(id) FROM rocpd_region_%s)", uuid1, uuid1);
	sqlite3_close(db);
	m = load(p);
	assert_int_equal(m->kind_count[EV_KERNEL], NITER * 3 - 1);
	assert_int_equal(m->kind_count[EV_API] + m->kind_count[EV_NVTX],
	    NITER * 8 + NITER - 1);
	assert_true(ts_has_warning(m, "1 rows of rocpd_kernel_dispatch "
	    "skipped: start/end not integers"));
	assert_true(ts_has_warning(m, "1 rows of rocpd_region skipped: "
	    "start/end not integers"));
	model_free(m);

	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "UPDATE rocpd_kernel_dispatch_%s SET start = end + 1",
	    uuid1);
	sqlite3_close(db);
	assert_null(rocpd_load(p, NULL, &cause));
	assert_non_null(cause);
	if (strstr(cause, "rocpd_kernel_dispatch: ") == NULL ||
	    strstr(cause, "rows have unusable times") == NULL)
		fail_msg("%s", cause);
	free(cause);
	free(p);
}

static void
test_two_runs(void **state)
{
	struct gen	 g = { .no_views = 1, .two_runs = 1 };
	struct model	*m;
	size_t		 t, i;

	(void)state;
	/* Two runs reusing every row id: guid keeps them apart. */
	m = gen_checked("merged.db", &g);
	assert_int_equal(m->nprocesses, 2);
	assert_int_equal(m->nthreads, 4);
	assert_int_equal(m->ndevices, 2);
	/* Each GPU event links to a call of its own run's process. */
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		for (i = 0; i < l->n; i++) {
			uint32_t a = correlate_launch(m,
			    model_gid(m, (uint32_t)t, (uint32_t)i));
			assert_int_not_equal(a, NONE32);
			assert_int_equal(ts_track_of(m, a)->process,
			    m->tracks[t].process);
		}
	}
	model_free(m);
}

static void
test_tracked_layout(void **state)
{
	struct gen	 g = { .layout_tracked = 1 };
	struct model	*m;

	(void)state;
	m = gen_checked("tracked.db", &g);
	assert_int_equal(m->processes[0].pid, PID);
	assert_string_equal(model_str(m, ts_track_of(m, ts_find(m, EV_KERNEL,
	    "gemm_kernel(float*, float*)"))->name), "Stream 1");
	assert_int_not_equal(correlate_launch(m, ts_find(m, EV_KERNEL,
	    "gemm_kernel(float*, float*)")), NONE32);
	model_free(m);
}

/* gzip-compresses src into dst. */
static void
gzip_file(const char *src, const char *dst)
{
	FILE	*in;
	gzFile	 out;
	char	 buf[8192];
	size_t	 n;

	assert_non_null(in = fopen(src, "rb"));
	assert_non_null(out = gzopen(dst, "wb"));
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(gzwrite(out, buf, (unsigned)n), (int)n);
	fclose(in);
	assert_int_equal(gzclose(out), Z_OK);
}

static void
test_compressed(void **state)
{
	struct model	*m;
	char		*gz, *copy, *cpath, *cause = NULL;
	const char	*what;
	struct stat	 sb1, sb2;
	struct cachedir_ident id;

	(void)state;
	gz = xasprintf("%s/results.db.gz", ts_tmp());
	gzip_file(plain_path, gz);
	assert_int_equal(source_detect(gz, &what, &cause), DETECT_ROCPD);
	assert_null(cause);
	m = load(gz);
	check_content(m, 1);
	model_free(m);
	/* The decompressed copy is made once, in the cache directory, and
	 * reused. */
	assert_int_equal(cachedir_ident(gz, &id, &cause), 0);
	assert_non_null(copy = cachedir_derived(gz, &id, ".sqlite", &cause));
	cpath = cachedir_root(0, &cause);
	assert_non_null(cpath);
	assert_memory_equal(copy, cpath, strlen(cpath));
	free(cpath);
	assert_int_equal(stat(copy, &sb1), 0);
	m = load(gz);
	model_free(m);
	assert_int_equal(stat(copy, &sb2), 0);
	assert_int_equal(sb1.st_ino, sb2.st_ino);
	assert_int_equal(sb1.st_mtim.tv_nsec, sb2.st_mtim.tv_nsec);
	free(copy);
	/* Through the front door too. */
	assert_non_null(m = source_read(gz, NULL, &cause));
	assert_int_equal(m->source, SOURCE_ROCPD);
	model_free(m);
	free(gz);
}

/* Files in the cache directory whose names contain what. */
static int
count_in_cache(const char *what)
{
	DIR		*d;
	struct dirent	*e;
	char		*root = cachedir_root(0, NULL);
	int		 n = 0;

	if (root == NULL)
		return 0;
	if ((d = opendir(root)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strstr(e->d_name, what) != NULL)
				n++;
		closedir(d);
	}
	free(root);
	return n;
}

/*
 * A compressed database replaced by another capture whose mtime is older
 * than the copy (cp -p, rsync -a, tar x): the new capture is read, not the
 * old copy; the old copy is gone. --no-cache writes nothing into the cache
 * directory. clean removes the copies.
 */
static void
test_compressed_replaced(void **state)
{
	struct gen	 g2 = { .no_views = 1, .two_runs = 1 };
	struct model	*m;
	struct timespec	 ts[2];
	char		*gz, *gz2, *p2;

	(void)state;
	gz = xasprintf("%s/swap.db.gz", ts_tmp());
	gzip_file(plain_path, gz);
	m = load(gz);
	check_content(m, 1);
	model_free(m);
	assert_int_equal(count_in_cache("swap.db.gz-"), 1);

	p2 = gen("swap2.db", &g2);
	gz2 = xasprintf("%s/swap2.db.gz", ts_tmp());
	gzip_file(p2, gz2);
	ts[0].tv_sec = ts[1].tv_sec = 1000000000;	/* 2001 */
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	assert_int_equal(utimensat(AT_FDCWD, gz2, ts, 0), 0);
	assert_int_equal(rename(gz2, gz), 0);
	m = load(gz);
	check_content(m, 2);
	model_free(m);
	/* One copy: the new capture's. */
	assert_int_equal(count_in_cache("swap.db.gz-"), 1);

	/* --no-cache: a temporary copy, nothing new in the cache. */
	assert_int_equal(cache_remove(gz), 1);
	assert_int_equal(count_in_cache("swap.db.gz-"), 0);
	cachedir_set_mode(CACHEDIR_OFF);
	m = load(gz);
	cachedir_set_mode(CACHEDIR_ON);
	check_content(m, 2);
	model_free(m);
	assert_int_equal(count_in_cache("swap.db.gz-"), 0);
	free(p2);
	free(gz2);
	free(gz);
}

static void
test_detect(void **state)
{
	const char	*what;
	char		*cause = NULL;
	sqlite3		*db;

	(void)state;
	assert_int_equal(source_detect(plain_path, &what, &cause),
	    DETECT_ROCPD);
	assert_null(cause);
	assert_int_equal(sqlite3_open_v2(plain_path, &db, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	assert_true(rocpd_probe(db));
	assert_false(rpd_probe(db));
	assert_false(nsys_probe(db));
	sqlite3_close(db);
}

static void
test_not_rocpd(void **state)
{
	(void)state;
	ts_sql_refused(rocpd_load, "CREATE TABLE t (x)",
	    "not a rocprofv3 rocpd database");
}

static void
test_read_only(void **state)
{
	struct stat	 before, after;
	struct model	*m;
	DIR		*d;
	struct dirent	*de;
	int		 stray = 0;

	(void)state;
	/* Loading writes nothing: no journal or WAL beside the file. */
	assert_int_equal(stat(plain_path, &before), 0);
	m = load(plain_path);
	model_free(m);
	assert_int_equal(stat(plain_path, &after), 0);
	assert_int_equal(before.st_mtime, after.st_mtime);
	assert_non_null(d = opendir(ts_tmp()));
	while ((de = readdir(d)) != NULL)
		if (strstr(de->d_name, "-journal") != NULL ||
		    strstr(de->d_name, "-wal") != NULL)
			stray++;
	closedir(d);
	assert_int_equal(stray, 0);
}

/* ---- setup --------------------------------------------------------- */

static int
group_setup(void **state)
{
	struct gen	 g = { 0 };

	(void)state;
	/* The decompressed copies go to a cache inside ts_tmp(). */
	if (ts_tmp_init_cache() != 0)
		return -1;
	plain_path = gen("results.db", &g);
	plain = load(plain_path);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	model_free(plain);
	free(plain_path);
	return ts_tmp_free();
}

TS_MAIN(group_setup, group_teardown,
	cmocka_unit_test(test_content),
	cmocka_unit_test(test_processes_threads),
	cmocka_unit_test(test_devices),
	cmocka_unit_test(test_kernel_info),
	cmocka_unit_test(test_flags),
	cmocka_unit_test(test_correlation),
	cmocka_unit_test(test_copies),
	cmocka_unit_test(test_markers),
	cmocka_unit_test(test_tracks_by_stream),
	cmocka_unit_test(test_tracks_by_queue),
	cmocka_unit_test(test_warnings),
	cmocka_unit_test(test_unknown_version),
	cmocka_unit_test(test_missing_version),
	cmocka_unit_test(test_without_views),
	cmocka_unit_test(test_views_not_run),
	cmocka_unit_test(test_bad_times),
	cmocka_unit_test(test_two_runs),
	cmocka_unit_test(test_tracked_layout),
	cmocka_unit_test(test_compressed),
	cmocka_unit_test(test_compressed_replaced),
	cmocka_unit_test(test_detect),
	cmocka_unit_test(test_not_rocpd),
	cmocka_unit_test(test_read_only))
