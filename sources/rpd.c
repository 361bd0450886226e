/*
 * rpd: the rocmProfileData (RPD) reader, the SQLite files rpd_tracer
 * writes (rocpd_* tables, metadata schema_version 2).
 *
 * Tables: rocpd_api (CPU calls: pid, tid, start, end, apiName_id, args_id),
 * rocpd_op (GPU work: gpuId, queueId, start, end, description_id,
 * opType_id), rocpd_api_ops (api_id -> op_id: which call launched which
 * work), rocpd_kernelapi and rocpd_copyapi (launch parameters, keyed by the
 * launching call), rocpd_kernelcodeobject (registers), rocpd_string (every
 * name). pid and tid are OS ids. Ids may carry a session number in their
 * upper 32 bits (4294967297 is session 1, row 1).
 *
 * Mapping:
 *   rocpd_api "UserMarker"      roctx range (EV_NVTX, domain "roctx") or,
 *                               when start == end, an instant (EV_MARK);
 *                               its name is the args string
 *   rocpd_api hsa_*             EV_API with EVF_DRIVER
 *   rocpd_api *::writeRows,     EV_OVERHEAD on the thread's "other" track
 *     rpdflush, hcc_activity_callback (rpd_tracer's own work)
 *   rocpd_api anything else     EV_API (HIP calls)
 *   rocpd_op KernelExecution,   EV_KERNEL named by its description (the
 *     Task (graph kernels)      kernel name), else by the launching call's
 *                               kernelName, else by the op type
 *   rocpd_op Copy*              EV_MEMCPY named by the op type
 *                               ("CopyHostToDevice"); bytes, devices and
 *                               pinned host memory from rocpd_copyapi
 *   rocpd_op FillBuffer, Fill*  EV_MEMSET
 *   rocpd_op *Barrier*, Marker  EV_SYNC on the queue's sync track
 *   rocpd_op anything else      EV_KERNEL, counted in a warning
 * GPU work goes on one track per (gpuId, launching process, queueId).
 * Grids are in work-groups, as HIP launches them (kernel_info.grid).
 * Correlation: every call that launched work and its ops get the same
 * dense correlation id, so correlate_build() links them (a hipGraphLaunch
 * links to all the work of the graph). rocpd_monitor (clock samples) is not
 * loaded; a warning counts its rows.
 *
 * Times: an op or call whose start or end is not an integer (text, blob,
 * NULL) or whose start is after its end is skipped, counted in one warning
 * per table; a table where most rows are so is refused.
 *
 * A gzip- or zstd-compressed RPD file (as the rocmProfileData repository
 * ships its examples) is decompressed into the cache first (sqlz.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "util/progress.h"
#include "sources/source.h"
#include "sources/srcdev.h"
#include "sources/srcmaps.h"
#include "util/xmalloc.h"

#define RPD_ROWS_STEP	16384		/* rows between progress reports */
#define RPD_ROCTX	1		/* domain source id of "roctx" */

/* Cached per rocpd_string id. */
struct rpd_str {
	uint32_t	 sid;		/* pool id */
	uint8_t		 cls;		/* enum amd_class + 1, 0 unknown */
	uint8_t		 comm;		/* amd_is_comm() + 1, 0 unknown */
};

struct rpd {
	struct amd_db	  d;
	struct builder	 *b;
	struct model	 *m;
	struct progress	 *prog;

	struct hmap	  str;		/* rocpd_string id -> index in strs */
	struct rpd_str	 *strs;
	size_t		  nstrs, strscap;

	struct hmap	  corr;		/* api id -> correlation id */
	uint32_t	  ncorr;
	struct hmap	  gpu_tracks;	/* key(gpu, pid, queue) -> track */
	struct hmap	  sync_tracks;
	struct hmap	  cpu_tracks;	/* key(type, pid, tid) -> track */
	uint32_t	  single_pid;	/* the one pid of rocpd_api, or 0 */
	int		  has_pid;

	uint64_t	  nunknown_op;
	uint32_t	  unknown_op_name;
};

/* Every relation the reader may query: tables, never views. */
static const char *const rpd_rels[] = {
	"rocpd_op", "rocpd_api", "rocpd_string", "rocpd_api_ops",
	"rocpd_kernelapi", "rocpd_copyapi", "rocpd_kernelcodeobject",
	"rocpd_metadata", "rocpd_monitor",
};

int
rpd_probe(struct sqlite3 *db)
{
	return source_sqlite_int(db, 0, "SELECT count(*) FROM sqlite_master "
	    "WHERE type IN ('table', 'view') AND name IN ('rocpd_op', "
	    "'rocpd_api', 'rocpd_string')") == 3;
}

/* Strings. */

/*
 * The cache entry of the string id in column idcol (its text from column
 * textcol when new). The pointer is valid until the next call.
 */
static struct rpd_str *
rpd_str(struct rpd *r, sqlite3_stmt *st, int idcol, int textcol)
{
	struct rpd_str	*s;
	uint32_t	 v;
	int64_t		 id;

	if (col_null(st, idcol))
		id = -1;
	else
		id = col_i64(st, idcol);
	if (hmap_get(&r->str, (uint64_t)id, &v))
		return &r->strs[v];
	XGROW(r->strs, r->strscap, r->nstrs + 1);
	s = &r->strs[r->nstrs];
	memset(s, 0, sizeof *s);
	s->sid = col_null(st, textcol) ? 0 : builder_intern_n(r->b,
	    col_text(st, textcol), (size_t)sqlite3_column_bytes(st,
	    textcol));
	hmap_put(&r->str, (uint64_t)id, (uint32_t)r->nstrs);
	return &r->strs[r->nstrs++];
}

static int
rpd_str_comm(struct rpd *r, struct rpd_str *s)
{
	if (s->comm == 0)
		s->comm = (uint8_t)(1 + amd_is_comm(strpool_get(r->m->strs,
		    s->sid)));
	return s->comm - 1;
}

static enum amd_class
rpd_str_class(struct rpd *r, struct rpd_str *s)
{
	if (s->cls == 0)
		s->cls = (uint8_t)(1 + amd_api_class(strpool_get(r->m->strs,
		    s->sid)));
	return (enum amd_class)(s->cls - 1);
}

/* The dense correlation id of rocpd_api id (assigned on first use). */
static uint32_t
rpd_corr(struct rpd *r, int64_t api_id)
{
	uint32_t	*slot;
	int		 isnew;

	slot = hmap_upsert(&r->corr, (uint64_t)api_id, r->ncorr + 1, &isnew);
	if (isnew)
		r->ncorr++;
	return *slot;
}

/* Entities and tracks. */

static uint32_t
rpd_process(struct rpd *r, uint32_t pid)
{
	return builder_process(r->b, pid, pid, NULL);
}

static uint32_t
rpd_cpu_track(struct rpd *r, enum track_type type, uint32_t pid,
    uint32_t tid)
{
	uint64_t	 key;
	uint32_t	 t, p, thr, dom = 0;
	const char	*label;

	key = hmap_key2(hmap_key2(type, pid), tid);
	if (hmap_get(&r->cpu_tracks, key, &t))
		return t;
	p = rpd_process(r, pid);
	thr = builder_thread(r->b, (uint64_t)pid << 32 | tid, tid, p, NULL);
	if (type == TRACK_NVTX)
		dom = builder_domain(r->b, p, RPD_ROCTX, "roctx");
	t = builder_cpu_track(r->b, type, thr, dom);
	switch (type) {
	case TRACK_API:
		label = "HIP API";
		break;
	case TRACK_NVTX:
		label = "roctx";
		break;
	default:
		label = "rpd_tracer";
		break;
	}
	r->m->tracks[t].name = builder_intern(r->b, label);
	hmap_put(&r->cpu_tracks, key, t);
	return t;
}

/* The GPU (or sync) track of queue on gpu, for work launched by pid
 * (0: unknown). */
static uint32_t
rpd_gpu_track(struct rpd *r, uint32_t gpu, int has_pid, uint32_t pid,
    uint32_t queue, int sync)
{
	struct hmap	*h = sync ? &r->sync_tracks : &r->gpu_tracks;
	uint64_t	 key;
	uint32_t	 t, d, p, s;
	char		 buf[64];

	if (!has_pid && r->has_pid) {
		has_pid = 1;
		pid = r->single_pid;
	}
	key = hmap_key2(hmap_key2(gpu, has_pid ? pid : ~0ULL), queue);
	if (hmap_get(h, key, &t))
		return t;
	d = srcdev_get(r->b, gpu, "AMD", NULL);
	p = has_pid ? rpd_process(r, pid) : NONE32;
	s = builder_stream(r->b, d, queue, p);
	if (r->m->streams[s].name == 0) {
		snprintf(buf, sizeof buf, "Queue %u", queue);
		r->m->streams[s].name = builder_intern(r->b, buf);
	}
	t = sync ? builder_sync_track(r->b, s) : builder_gpu_track(r->b, s);
	snprintf(buf, sizeof buf, "Queue %u%s", queue, sync ? " sync" : "");
	r->m->tracks[t].name = builder_intern(r->b, buf);
	hmap_put(h, key, t);
	return t;
}

/* Appends ", <column or NULL>" for each column name to *sql. */
static void
rpd_cols(struct rpd *r, char **sql, const char *rel, const char *alias,
    const char *const *cols, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		amd_db_colx(&r->d, sql, rel, alias, cols[i]);
}

/* Metadata. */

static int
rpd_meta(struct rpd *r)
{
	sqlite3_stmt	*st;
	const char	*v;
	int		 k;

	r->m->source_version = builder_intern(r->b, "rocmProfileData");
	if (!amd_db_has(&r->d, "rocpd_metadata"))
		return 0;
	st = amd_db_prepare(&r->d, "SELECT tag, value FROM rocpd_metadata "
	    "ORDER BY id", "rocpd_metadata");
	if (st == NULL)
		return -1;
	while ((k = amd_db_step(&r->d, st, "rocpd_metadata")) == 1)
		builder_meta(r->b, col_text(st, 0), col_text(st, 1));
	sqlite3_finalize(st);
	if (k < 0)
		return -1;
	if ((v = model_meta(r->m, "schema_version")) != NULL && *v != '\0') {
		r->m->schema_version = builder_intern(r->b, v);
		if (strtol(v, NULL, 10) > 2)
			builder_warn(r->b, "RPD schema version %s is newer than "
			    "this reader knows (2): some data may be missing",
			    v);
	}
	return 0;
}

/* The single pid of rocpd_api, if there is exactly one. */
static int
rpd_pids(struct rpd *r)
{
	sqlite3_stmt	*st;
	int		 k;

	st = amd_db_prepare(&r->d, "SELECT count(DISTINCT pid), min(pid) "
	    "FROM rocpd_api", "rocpd_api");
	if (st == NULL)
		return -1;
	if ((k = amd_db_step(&r->d, st, "rocpd_api")) == 1 &&
	    sqlite3_column_int64(st, 0) == 1) {
		r->has_pid = 1;
		r->single_pid = (uint32_t)col_i64(st, 1);
	}
	sqlite3_finalize(st);
	return k < 0 ? -1 : 0;
}

/* GPU work. */

enum {
	O_ID, O_GPU, O_QUEUE, O_START, O_END, O_DESC_ID, O_DESC, O_TYPE_ID,
	O_TYPE, O_API, O_PID,
	O_GX, O_GY, O_GZ, O_WX, O_WY, O_WZ, O_GSEG, O_PSEG, O_KNAME_ID,
	O_KNAME, O_VGPR,
	O_SIZE, O_SRCDEV, O_DSTDEV, O_PINNED
};

static const char *const rpd_kernel_cols[] = {
	"gridX", "gridY", "gridZ", "workgroupX", "workgroupY", "workgroupZ",
	"groupSegmentSize", "privateSegmentSize", "kernelName_id"
};
static const char *const rpd_copy_cols[] = {
	"size", "srcDevice", "dstDevice", "pinned"
};

static char *
rpd_op_sql(struct rpd *r)
{
	int	 haskapi, hascapi, hasco, haslink, haskname;
	char	*sql = NULL;
	size_t	 i;
	/* The tables joined where they are there, in this order. */
	const struct {
		const int	*on;
		const char	*sql;
	} joins[] = {
		{ &haslink, "rocpd_api_ops X ON X.op_id = O.id LEFT JOIN "
		    "rocpd_api A ON A.id = X.api_id" },
		{ &haskapi, "rocpd_kernelapi K ON K.api_ptr_id = X.api_id" },
		{ &haskname, "rocpd_string KN ON KN.id = K.kernelName_id" },
		{ &hasco, "rocpd_kernelcodeobject C ON "
		    "C.id = K.codeObject_id" },
		{ &hascapi, "rocpd_copyapi Y ON Y.api_ptr_id = X.api_id" },
	};

	haslink = amd_db_has(&r->d, "rocpd_api_ops");
	haskapi = haslink && amd_db_has(&r->d, "rocpd_kernelapi");
	hascapi = haslink && amd_db_has(&r->d, "rocpd_copyapi");
	hasco = haskapi && amd_db_has(&r->d, "rocpd_kernelcodeobject") &&
	    amd_db_col(&r->d, "rocpd_kernelapi", "codeObject_id");
	haskname = haskapi && amd_db_col(&r->d, "rocpd_kernelapi",
	    "kernelName_id");

	xstrcatf(&sql, "SELECT O.id, O.gpuId, O.queueId, O.start, O.end, "
	    "O.description_id, D.string, O.opType_id, T.string, %s, %s",
	    haslink ? "X.api_id" : "NULL", haslink ? "A.pid" : "NULL");
	rpd_cols(r, &sql, haskapi ? "rocpd_kernelapi" : NULL, "K",
	    rpd_kernel_cols, sizeof rpd_kernel_cols / sizeof *rpd_kernel_cols);
	xstrcatf(&sql, ", %s", haskname ? "KN.string" : "NULL");
	amd_db_colx(&r->d, &sql, hasco ? "rocpd_kernelcodeobject" : NULL, "C",
	    "vgpr");
	rpd_cols(r, &sql, hascapi ? "rocpd_copyapi" : NULL, "Y",
	    rpd_copy_cols, sizeof rpd_copy_cols / sizeof *rpd_copy_cols);
	xstrcatf(&sql, " FROM rocpd_op O "
	    "LEFT JOIN rocpd_string D ON D.id = O.description_id "
	    "LEFT JOIN rocpd_string T ON T.id = O.opType_id");
	for (i = 0; i < sizeof joins / sizeof *joins; i++)
		if (*joins[i].on)
			xstrcatf(&sql, " LEFT JOIN %s", joins[i].sql);
	/* An op linked to several calls: the first link comes first. */
	xstrcatf(&sql, " ORDER BY O.id%s", haslink ? ", X.id" : "");
	return sql;
}

/* Column i as a uint32_t, clamped. */
static uint32_t
rpd_u32(sqlite3_stmt *st, int i)
{
	int64_t	v = col_i64(st, i);

	return v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* *ev zeroed, with the row's id, start and end (those columns), no aux. */
static void
rpd_event(struct lane_event *ev, sqlite3_stmt *st, int id, int start,
    int end)
{
	memset(ev, 0, sizeof *ev);
	ev->rowid = col_i64(st, id);
	ev->start = col_i64(st, start);
	ev->end = col_i64(st, end);
	ev->aux = NONE32;
}

static void
rpd_op_row(struct rpd *r, sqlite3_stmt *st)
{
	struct lane_event	 ev;
	struct kernel_info	 k;
	struct copy_info	 c;
	struct rpd_str		*type, *desc, type_copy;
	const char		*ts;
	uint32_t		 t, gpu, queue, pid;
	int			 has_pid, kind, sync = 0, i;

	/* Copies: a second rpd_str() may move the first's entry. */
	type_copy = *rpd_str(r, st, O_TYPE_ID, O_TYPE);
	type = &type_copy;
	desc = rpd_str(r, st, O_DESC_ID, O_DESC);
	ts = strpool_get(r->m->strs, type->sid);

	rpd_event(&ev, st, O_ID, O_START, O_END);
	if (!col_null(st, O_API))
		ev.corr = rpd_corr(r, col_i64(st, O_API));

	if (strncmp(ts, "Copy", 4) == 0)
		kind = EV_MEMCPY;
	else if (strncmp(ts, "Fill", 4) == 0)
		kind = EV_MEMSET;
	else if (strstr(ts, "Barrier") != NULL || strcmp(ts, "Marker") == 0) {
		kind = EV_SYNC;
		sync = 1;
	} else {
		kind = EV_KERNEL;
		if (strcmp(ts, "KernelExecution") != 0 &&
		    strcmp(ts, "Task") != 0) {
			r->nunknown_op++;
			r->unknown_op_name = type->sid;
		}
	}
	ev.kind = (uint8_t)kind;

	gpu = rpd_u32(st, O_GPU);
	queue = rpd_u32(st, O_QUEUE);
	has_pid = !col_null(st, O_PID);
	pid = has_pid ? rpd_u32(st, O_PID) : 0;
	t = rpd_gpu_track(r, gpu, has_pid, pid, queue, sync);

	switch (kind) {
	case EV_KERNEL:
		if ((ev.name = desc->sid) != 0) {
			if (rpd_str_comm(r, desc))
				ev.flags |= EVF_COMM;
		} else if (!col_null(st, O_KNAME) &&
		    *col_text(st, O_KNAME) != '\0') {
			ev.name = builder_intern(r->b, col_text(st,
			    O_KNAME));
			if (amd_is_comm(strpool_get(r->m->strs, ev.name)))
				ev.flags |= EVF_COMM;
		} else
			ev.name = type->sid;
		memset(&k, 0, sizeof k);
		for (i = 0; i < 3; i++) {	/* x, y, z columns in a row */
			k.grid[i] = rpd_u32(st, O_GX + i);
			k.block[i] = rpd_u32(st, O_WX + i);
		}
		k.dynamic_smem = rpd_u32(st, O_GSEG);
		k.local_mem = rpd_u32(st, O_PSEG);
		k.regs = (uint16_t)(rpd_u32(st, O_VGPR) > UINT16_MAX ?
		    UINT16_MAX : rpd_u32(st, O_VGPR));
		ev.aux = builder_kernel(r->b, &k);
		break;
	case EV_MEMCPY:
	case EV_MEMSET:
		ev.name = type->sid;
		memset(&c, 0, sizeof c);
		c.bytes = col_null(st, O_SIZE) ? 0 :
		    (uint64_t)col_i64(st, O_SIZE);
		c.src_dev = c.dst_dev = NONE32;
		if (kind == EV_MEMCPY) {
			int host = col_i64(st, O_PINNED) != 0 ?
			    MEM_PINNED : MEM_PAGEABLE;
			c.kind = (uint8_t)amd_copy_kind_of_name(ts);
			switch (c.kind) {
			case COPY_HTOD:
				c.src_kind = (uint8_t)host;
				c.dst_kind = MEM_DEVICE;
				break;
			case COPY_DTOH:
				c.src_kind = MEM_DEVICE;
				c.dst_kind = (uint8_t)host;
				break;
			case COPY_DTOD:
			case COPY_PTOP:
				c.src_kind = c.dst_kind = MEM_DEVICE;
				break;
			case COPY_HTOH:
				c.src_kind = c.dst_kind = (uint8_t)host;
				break;
			}
			if (!col_null(st, O_SRCDEV))
				c.src_dev = rpd_u32(st, O_SRCDEV);
			if (!col_null(st, O_DSTDEV))
				c.dst_dev = rpd_u32(st, O_DSTDEV);
		} else {
			c.src_kind = c.dst_kind = MEM_DEVICE;
			c.dst_dev = gpu;
		}
		ev.aux = builder_copy(r->b, &c);
		break;
	default:
		ev.name = desc->sid != 0 ? desc->sid : type->sid;
		break;
	}
	builder_event(r->b, t, &ev);
}

/*
 * Reads the rows of st (from table; phase names them in progress) whose
 * start and end columns are usable times into row, and finalizes st; with
 * once, of the rows with the same id (column 0) in a row the first only.
 */
static int
rpd_scan(struct rpd *r, sqlite3_stmt *st, const char *table,
    const char *phase, int start, int end, int once,
    void (*row)(struct rpd *, sqlite3_stmt *))
{
	struct source_times	 tt;
	int64_t			 last = 0;
	uint64_t		 rows = 0;
	int			 k, first = 1;

	memset(&tt, 0, sizeof tt);
	progress_phase(r->prog, phase, amd_db_estimate(&r->d, table));
	while ((k = amd_db_step(&r->d, st, table)) == 1) {
		if (once && !first && col_i64(st, 0) == last)
			continue;
		first = 0;
		last = col_i64(st, 0);
		if (source_times_ok(st, start, end, 0, &tt))
			row(r, st);
		if ((++rows & (RPD_ROWS_STEP - 1)) == 0)
			progress_rows(r->prog, rows);
	}
	progress_rows(r->prog, rows);
	sqlite3_finalize(st);
	if (k < 0)
		return -1;
	return amd_db_times(&r->d, r->b, &tt, table);
}

static int
rpd_ops(struct rpd *r)
{
	sqlite3_stmt	*st;
	char		*sql;

	sql = rpd_op_sql(r);
	st = amd_db_prepare(&r->d, sql, "rocpd_op");
	free(sql);
	if (st == NULL)
		return -1;
	/* An op linked to two calls appears twice: keep the first. */
	return rpd_scan(r, st, "rocpd_op", "GPU ops", O_START, O_END, 1,
	    rpd_op_row);
}

/* CPU calls. */

enum { A_ID, A_PID, A_TID, A_START, A_END, A_NAME_ID, A_NAME, A_ARGS };

static void
rpd_api_row(struct rpd *r, sqlite3_stmt *st)
{
	struct lane_event	 ev;
	struct nvtx_info	 info;
	struct rpd_str		*name;
	uint32_t		 t, pid, tid, v;
	enum amd_class		 cls;

	name = rpd_str(r, st, A_NAME_ID, A_NAME);
	cls = rpd_str_class(r, name);
	pid = rpd_u32(st, A_PID);
	tid = rpd_u32(st, A_TID);

	rpd_event(&ev, st, A_ID, A_START, A_END);
	ev.name = name->sid;
	switch (cls) {
	case AMD_MARKER:
		t = rpd_cpu_track(r, TRACK_NVTX, pid, tid);
		if (!col_null(st, A_ARGS) && *col_text(st, A_ARGS))
			ev.name = builder_intern_n(r->b, col_text(st,
			    A_ARGS), (size_t)sqlite3_column_bytes(st, A_ARGS));
		ev.kind = ev.end == ev.start ? EV_MARK : EV_NVTX;
		if (amd_is_comm(strpool_get(r->m->strs, ev.name)))
			ev.flags |= EVF_COMM;
		memset(&info, 0, sizeof info);
		info.domain = r->m->tracks[t].domain;
		ev.aux = builder_nvtx(r->b, &info);
		break;
	case AMD_OVERHEAD:
		t = rpd_cpu_track(r, TRACK_OTHER, pid, tid);
		ev.kind = EV_OVERHEAD;
		break;
	default:
		t = rpd_cpu_track(r, TRACK_API, pid, tid);
		ev.kind = EV_API;
		if (cls == AMD_API_DRIVER)
			ev.flags |= EVF_DRIVER;
		if (cls == AMD_API_COMM)
			ev.flags |= EVF_COMM;
		if (hmap_get(&r->corr, (uint64_t)ev.rowid, &v))
			ev.corr = v;
		break;
	}
	builder_event(r->b, t, &ev);
}

static int
rpd_apis(struct rpd *r)
{
	sqlite3_stmt	*st;

	/* The args string is only a name for markers: fetch it for them. */
	st = amd_db_prepare(&r->d, "SELECT A.id, A.pid, A.tid, A.start, "
	    "A.end, A.apiName_id, N.string, CASE WHEN N.string = 'UserMarker' "
	    "OR N.string LIKE 'roctx%' THEN (SELECT string FROM rocpd_string "
	    "WHERE id = A.args_id) END FROM rocpd_api A LEFT JOIN rocpd_string "
	    "N ON N.id = A.apiName_id", "rocpd_api");
	if (st == NULL)
		return -1;
	return rpd_scan(r, st, "rocpd_api", "API calls", A_START, A_END, 0,
	    rpd_api_row);
}

static void
rpd_finish(struct rpd *r)
{
	sqlite3_stmt	*st = NULL;

	if (r->nunknown_op != 0)
		builder_warn(r->b, "rocpd_op: %llu ops of unknown types (such "
		    "as \"%s\") loaded as kernels",
		    (unsigned long long)r->nunknown_op,
		    strpool_get(r->m->strs, r->unknown_op_name));
	if (amd_db_has(&r->d, "rocpd_monitor") && sqlite3_prepare_v2(r->d.db,
	    "SELECT count(*) FROM rocpd_monitor", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0)
		builder_warn(r->b, "rocpd_monitor: %lld device monitor samples "
		    "(clocks, power) not loaded",
		    (long long)sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
}

/* Calls fn (hmap_init or hmap_free) on every map of r. */
static void
rpd_maps(struct rpd *r, void (*fn)(struct hmap *))
{
	srcmaps(fn, &r->str, &r->corr, &r->gpu_tracks, &r->sync_tracks,
	    &r->cpu_tracks, NULL);
}

static void
rpd_free(void *p)
{
	struct rpd	*r = p;

	amd_db_close(&r->d);
	rpd_maps(r, hmap_free);
	free(r->strs);
}

static void
rpd_init(void *p, struct progress *prog)
{
	struct rpd	*r = p;

	r->prog = prog;
	rpd_maps(r, hmap_init);
}

static int
rpd_read(void *p, struct builder *b)
{
	struct rpd	*r = p;

	if (amd_db_no_views(&r->d, rpd_rels, sizeof rpd_rels /
	    sizeof *rpd_rels) != 0)
		return -1;
	r->b = b;
	r->m = b->m;
	/* Ops before calls: they assign the correlation ids. */
	if (rpd_meta(r) != 0 || rpd_pids(r) != 0 || rpd_ops(r) != 0 ||
	    rpd_apis(r) != 0)
		return -1;
	rpd_finish(r);
	return 0;
}

static const struct amd_db_reader rpd_reader = {
	.source = SOURCE_RPD,
	.timing = "rpd-read",
	.probe = rpd_probe,
	.not_it = "not a rocmProfileData (RPD) file (SQLite database without "
	    "rocpd_op, rocpd_api and rocpd_string)",
	.init = rpd_init,
	.read = rpd_read,
	.free = rpd_free,
};

struct model *
rpd_load(const char *path, struct progress *prog, char **cause)
{
	struct rpd	 r;

	memset(&r, 0, sizeof r);
	return amd_db_load(&rpd_reader, &r, &r.d, path, prog, cause);
}
