/*
 * nsys: the Nsight Systems SQLite export reader.
 *
 * An export (`nsys export --type sqlite`) holds one table per kind of data,
 * created only when there is data for it, and its columns drift between
 * nsys releases (FORMATS.md 1.7). So nothing is assumed: the reader lists
 * the tables from sqlite_master and the columns of each with PRAGMA
 * table_info, selects the columns it wants that exist and NULL in place of
 * those that do not, and skips (with a warning) a table that lacks a column
 * it cannot do without.
 *
 * Names are ids into StringIds. The table is read once into one buffer;
 * a string is interned into the model's pool only when an event refers to
 * it, and the pool id is remembered per StringIds entry. Labels of enumerated
 * values come from the ENUM_* tables when the export has them, else from the
 * numbering of older exports (FORMATS.md 1.3).
 *
 * Identities: a globalTid packs <HW:8><VM:8><PID:24><TID:24>; the process of
 * a row is globalTid & ~0xFFFFFF, which is also the globalPid GPU rows
 * carry. Processes, threads, devices and streams are declared to the builder
 * when an event first refers to them (PROCESSES and ThreadNames of a whole
 * node may list thousands that did nothing), except GPUs, which are all
 * declared from TARGET_INFO_GPU (or TARGET_INFO_CUDA_DEVICE) so the node's
 * hardware is described even where it ran nothing.
 *
 * Events: kernels, memcpys, memsets and graph launches go on the track of
 * their (device, process, stream), synchronization waits on that stream's
 * sync track; runtime/driver API calls, OS runtime calls and NVTX ranges
 * and marks go on per-thread tracks (NVTX: per thread and domain). Every
 * event keeps its SQLite rowid (-1 for WITHOUT ROWID tables). Views are
 * never read (nsys-db.h).
 * OSRT_API rows whose eventClass is not the OS runtime class (27, or its
 * id in ENUM_NSYS_EVENT_CLASS) are kept with EVF_NOTOSRT.
 *
 * Communication flag (EVF_COMM): a kernel whose demangled name contains
 * "nccl" in any case (this covers "ncclKernel_*", "ncclDevKernel_*" and
 * templated NCCL kernels), and an NVTX range or mark whose name contains
 * "nccl" or whose domain's name does (NCCL annotates in a domain "NCCL").
 * Driver flag (EVF_DRIVER): an API name that starts with "cu" but not with
 * "cuda".
 *
 * Times: a row whose start or end is not an integer (text, blob, NULL
 * start) or whose start is after its end is skipped, and counted in one
 * warning per table; a table where most rows are so is refused. A NULL
 * end is an open range (EVF_OPEN).
 *
 * The file is opened through source_sqlite_open(), read-only: loading
 * never writes anything next to the trace.
 */
#include "config.h"

#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "util/hmap.h"
#include "sources/nsys-db.h"
#include "util/progress.h"
#include "sources/source.h"
#include "util/timing.h"
#include "util/xmalloc.h"

#define NSYS_PROC_MASK	0xFFFFFFFFFF000000ULL	/* HW, VM and PID bits */
#define NSYS_TID(g)	((uint32_t)((uint64_t)(g) & 0xFFFFFF))
#define NSYS_PID(g)	((uint32_t)(((uint64_t)(g) >> 24) & 0xFFFFFF))
#define NSYS_ROWS_STEP	65536		/* rows between progress reports */
#define NSYS_NENUM	64		/* enum values kept in lookup tables */
#define NSYS_NEVTYPE	1024		/* NVTX event type ids looked up */
#define NSYS_NO_STREAM	0xFFFFFFFFULL	/* streamId of a wait on no stream */

/* Flags cached per pool string. */
#define SF_KNOWN	0x01
#define SF_NCCL		0x02
#define SF_DRIVER	0x04

/* What an NVTX_EVENTS row is, by its eventType. */
enum nvtx_role {
	NR_NONE = 0,
	NR_PUSHPOP,
	NR_STARTEND,
	NR_MARK,
	NR_DOMAIN,
	NR_CATEGORY,
	NR_THREAD,
	NR_IGNORE,		/* known and deliberately not loaded */
};

struct nsys {
	struct nsys_db	  d;		/* the file, its schema and strings */
	struct builder	 *b;
	struct model	 *m;
	struct progress	 *prog;

	uint8_t		 *sflags;	/* SF_* per pool id */
	size_t		  sflagscap;

	/* PROCESSES names and ThreadNames, declared on first use. */
	struct hmap	  proc_info;	/* globalPid -> index in pnames */
	char		**pnames;
	size_t		  npnames, pnamescap;
	struct hmap	  thread_name;	/* globalTid -> StringIds id */

	/* Streams: priority and NVTX names. */
	struct hmap	  stream_prio;	/* key(globalPid, streamId) */
	struct hmap	  stream_name;	/* key(globalPid, deviceId, streamId) */

	/* Track caches. */
	struct hmap	  gpu_streams;	/* key(dev, globalPid, stream) */
	struct hmap	  ctx_dev;	/* key(globalPid, context) -> dev */
	struct hmap	  ctxstream_dev; /* key(globalPid, context, stream) */
	uint64_t	  nsync_moved;	/* syncs put on their context's GPU */
	struct hmap	  cpu_tracks;	/* key(type, globalTid, domainId) */

	/* Enumerations. */
	uint8_t		  copy_kind[NSYS_NENUM];
	char		 *copy_label[NSYS_NENUM];	/* ENUM label or NULL */
	uint32_t	  copy_name[NSYS_NENUM];	/* "[CUDA memcpy X]", 0:
							   not interned yet */
	uint8_t		  mem_kind[NSYS_NENUM];
	char		 *sync_label[NSYS_NENUM];
	uint32_t	  sync_name[NSYS_NENUM];
	uint8_t		  nvtx_role[NSYS_NEVTYPE];
	int64_t		  osrt_class;	/* eventClass of OS runtime calls */
	uint32_t	  memset_name;
	struct hmap	  graph_name;	/* graphId -> pool id */

	/* NVTX categories: names and ranges waiting for one. */
	struct hmap	  cat_name;	/* key(process, domainId, category) */
	uint64_t	 *pend_key;
	uint32_t	 *pend_idx;
	size_t		  npend, pendcap;
	uint64_t	  nvtx_skipped[NSYS_NEVTYPE + 1];

	uint64_t	  nunknown_copy;
};

/* Column lists: a leading '!' marks a column the table cannot do without. */
enum {
	G_ROWID, G_START, G_END, G_DEV, G_STREAM, G_PID, G_CTX, G_CORR,
	G_NCOMMON
};
#define GPU_COMMON_COLS \
	"!start", "!end", "!deviceId", "!streamId", "globalPid", \
	"contextId", "correlationId"

static const char *const kernel_cols[] = {
	GPU_COMMON_COLS, "demangledName", "shortName", "mangledName",
	"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
	"registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
	"localMemoryPerThread", "launchType", "graphNodeId"
};
enum {
	K_DEMANGLED = G_NCOMMON, K_SHORT, K_MANGLED, K_GX, K_GY, K_GZ, K_BX,
	K_BY, K_BZ, K_REGS, K_SSMEM, K_DSMEM, K_LMEM, K_LAUNCH, K_GNODE
};

static const char *const memcpy_cols[] = {
	GPU_COMMON_COLS, "bytes", "copyKind", "srcKind", "dstKind",
	"srcDeviceId", "dstDeviceId"
};
enum {
	C_BYTES = G_NCOMMON, C_KIND, C_SRCKIND, C_DSTKIND, C_SRCDEV, C_DSTDEV
};

static const char *const memset_cols[] = {
	GPU_COMMON_COLS, "bytes", "value", "memKind"
};
enum { S_BYTES = G_NCOMMON, S_VALUE, S_MEMKIND };

static const char *const sync_cols[] = {
	GPU_COMMON_COLS, "syncType"
};
enum { Y_TYPE = G_NCOMMON };

static const char *const graph_cols[] = {
	GPU_COMMON_COLS, "graphId", "graphExecId"
};
enum { GR_GRAPH = G_NCOMMON, GR_EXEC };

static const char *const api_cols[] = {
	"!start", "!end", "globalTid", "correlationId", "nameId", "eventClass"
};
enum { A_ROWID, A_START, A_END, A_TID, A_CORR, A_NAME, A_CLASS };

static const char *const nvtx_cols[] = {
	"!start", "end", "!eventType", "category", "color", "text",
	"globalTid", "endGlobalTid", "textId", "domainId", "int64Value",
	"uint64Value", "doubleValue", "int32Value", "uint32Value",
	"floatValue"
};
enum {
	N_ROWID, N_START, N_END, N_TYPE, N_CAT, N_COLOR, N_TEXT, N_TID,
	N_ENDTID, N_TEXTID, N_DOMAIN, N_I64, N_U64, N_DBL, N_I32, N_U32, N_FLT
};

static const char *const gpu_cols[] = {
	"!id", "name", "uuid", "busLocation", "chipName", "smCount",
	"totalMemory", "memoryBandwidth", "clockRate", "l2CacheSize",
	"computeMajor", "computeMinor", "maxThreadsPerBlock",
	"maxRegistersPerSm", "maxShmemPerSm", "maxWarpsPerSm", "threadsPerWarp"
};
enum {
	D_ROWID, D_ID, D_NAME, D_UUID, D_BUS, D_CHIP, D_SM, D_MEM, D_BW,
	D_CLOCK, D_L2, D_CCMAJ, D_CCMIN, D_MAXTPB, D_REGS, D_SMEM, D_WARPS,
	D_TPW
};

/* Hard-coded numbering of exports without ENUM tables (FORMATS.md 1.3). */
static const uint8_t nsys_old_copy_kind[] = {
	COPY_UNKNOWN, COPY_HTOD, COPY_DTOH, COPY_HTOA, COPY_ATOH, COPY_ATOA,
	COPY_ATOD, COPY_DTOA, COPY_DTOD, COPY_HTOH, COPY_PTOP, COPY_UM_HTOD,
	COPY_UM_DTOH, COPY_UM_DTOD
};
/* Their labels, as older nsysstats printed them ("[CUDA memcpy HtoD]"). */
static const char *const nsys_old_copy_label[] = {
	"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA",
	"DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH", "Unified DtoD"
};
static const uint8_t nsys_old_mem_kind[] = {
	MEM_PAGEABLE, MEM_PINNED, MEM_DEVICE, MEM_ARRAY, MEM_MANAGED,
	MEM_DEVICE_STATIC, MEM_MANAGED_STATIC, MEM_UNKNOWN
};
static const char *const nsys_old_sync_label[] = {
	"Unknown", "Event sync", "Stream wait sync", "Stream sync",
	"Context sync"
};

/* ENUM_CUDA_MEMCPY_OPER symbol suffixes, in enum copy_kind order. */
static const char *const nsys_copy_sym[COPY_KIND_COUNT] = {
	"UNKNOWN", "HTOD", "DTOH", "DTOD", "HTOH", "PTOP", "HTOA", "ATOH",
	"ATOA", "ATOD", "DTOA", "UVM_HTOD", "UVM_DTOH", "UVM_DTOD"
};
/* ENUM_CUDA_MEM_KIND symbol suffixes, in enum mem_kind order. */
static const char *const nsys_mem_sym[MEM_KIND_COUNT] = {
	"UNKNOWN", "PAGEABLE", "PINNED", "DEVICE", "ARRAY", "MANAGED",
	"DEVICE_STATIC", "MANAGED_STATIC"
};

/* NVTX event types: ENUM_NSYS_EVENT_TYPE names and the old numbers. */
static const struct {
	const char	*name;
	int		 id;
	uint8_t		 role;
} nsys_nvtx_types[] = {
	{ "NvtxCategory",	33, NR_CATEGORY },
	{ "NvtxMark",		34, NR_MARK },
	{ "NvtxThread",		39, NR_THREAD },
	{ "NvtxPushPopRange",	59, NR_PUSHPOP },
	{ "NvtxStartEndRange",	60, NR_STARTEND },
	{ "NvtxtPushPopRange",	70, NR_PUSHPOP },
	{ "NvtxtStartEndRange",	71, NR_STARTEND },
	{ "NvtxDomainCreate",	75, NR_DOMAIN },
	{ "NvtxDomainDestroy",	76, NR_IGNORE },
};

/* Column access. */

static int
col_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

static int64_t
col_i64(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

static uint32_t
col_u32(sqlite3_stmt *st, int i)
{
	return (uint32_t)sqlite3_column_int64(st, i);
}

/* Case-insensitive "does s contain the lowercase needle". */
static int
nsys_contains_ci(const char *s, const char *needle)
{
	size_t	i, nl = strlen(needle);

	for (; *s != '\0'; s++) {
		for (i = 0; i < nl; i++) {
			char c = s[i];
			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != needle[i])
				break;
		}
		if (i == nl)
			return 1;
	}
	return 0;
}

/* Schema. */

int
nsys_probe(struct sqlite3 *db)
{
	sqlite3_stmt	*st = NULL;
	int		 found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE "
	    "type IN ('table', 'view') AND ("
	    "substr(name, 1, 20) = 'CUPTI_ACTIVITY_KIND_' OR "
	    "name IN ('NVTX_EVENTS', 'OSRT_API') OR "
	    "(name = 'StringIds' AND EXISTS (SELECT 1 FROM sqlite_master "
	    "WHERE name IN ('META_DATA_EXPORT', 'EXPORT_META_DATA', "
	    "'TARGET_INFO_GPU', 'ThreadNames')))) LIMIT 1", -1, &st,
	    NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* Strings. */

/* SF_* flags of pool string sid, computed once. */
static uint8_t
nsys_sflags(struct nsys *n, uint32_t sid)
{
	const char	*s;
	uint8_t		 f;
	size_t		 old = n->sflagscap;

	if (sid >= n->sflagscap) {
		XGROW(n->sflags, n->sflagscap, (size_t)sid + 1);
		memset(n->sflags + old, 0, n->sflagscap - old);
	}
	if ((f = n->sflags[sid]) & SF_KNOWN)
		return f;
	s = strpool_get(n->m->strs, sid);
	f = SF_KNOWN;
	if (nsys_contains_ci(s, "nccl"))
		f |= SF_NCCL;
	if (s[0] == 'c' && s[1] == 'u' && strncmp(s, "cuda", 4) != 0)
		f |= SF_DRIVER;
	n->sflags[sid] = f;
	return f;
}

/* Metadata, version, session start. */

static int
nsys_meta(struct nsys *n)
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

/* Enumerations. */

/*
 * The enum copy_kind of an ENUM_CUDA_MEMCPY_OPER row: by its symbol
 * ("CUDA_MEMCPY_KIND_HTOD"), else by its label ("Host-to-Device", or the
 * short "HtoD" of older exports).
 */
static int
nsys_copy_kind_of(const char *name, const char *label)
{
	static const char *const shortl[COPY_KIND_COUNT] = {
		"Unknown", "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "HtoA",
		"AtoH", "AtoA", "AtoD", "DtoA", "Unified HtoD", "Unified DtoH",
		"Unified DtoD"
	};
	const char	*p;
	int		 j;

	if ((p = strstr(name, "MEMCPY_KIND_")) != NULL) {
		p += strlen("MEMCPY_KIND_");
		for (j = 0; j < COPY_KIND_COUNT; j++)
			if (strcmp(p, nsys_copy_sym[j]) == 0)
				return j;
	}
	for (j = 0; j < COPY_KIND_COUNT; j++)
		if (strcasecmp(label, copy_kind_label(j)) == 0 ||
		    strcasecmp(label, shortl[j]) == 0)
			return j;
	return COPY_UNKNOWN;
}

/* The enum mem_kind of an ENUM_CUDA_MEM_KIND row. */
static int
nsys_mem_kind_of(const char *name, const char *label)
{
	const char	*p;
	int		 j;

	if ((p = strstr(name, "MEMORY_KIND_")) != NULL) {
		p += strlen("MEMORY_KIND_");
		for (j = 0; j < MEM_KIND_COUNT; j++)
			if (strcmp(p, nsys_mem_sym[j]) == 0)
				return j;
	}
	for (j = 0; j < MEM_KIND_COUNT; j++)
		if (strcasecmp(label, mem_kind_label(j)) == 0)
			return j;
	return MEM_UNKNOWN;
}

static int
nsys_enums(struct nsys *n)
{
	struct nsys_db_enum_row	*e;
	ssize_t			 ne, i;
	size_t			 k;

	/* Copy kinds: default to the old numbering, then apply the table. */
	for (k = 0; k < NSYS_NENUM; k++)
		n->copy_kind[k] = k < sizeof nsys_old_copy_kind ?
		    nsys_old_copy_kind[k] : COPY_UNKNOWN;
	if ((ne = nsys_db_enum(&n->d, "ENUM_CUDA_MEMCPY_OPER", &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++) {
		if (e[i].id < 0 || e[i].id >= NSYS_NENUM)
			continue;
		n->copy_kind[e[i].id] = (uint8_t)nsys_copy_kind_of(e[i].name,
		    e[i].label);
		if (*e[i].label != '\0') {
			free(n->copy_label[e[i].id]);
			n->copy_label[e[i].id] = xstrdup(e[i].label);
		}
	}
	nsys_db_enum_free(e, ne);

	/* Memory kinds. */
	for (k = 0; k < NSYS_NENUM; k++)
		n->mem_kind[k] = k < sizeof nsys_old_mem_kind ?
		    nsys_old_mem_kind[k] : MEM_UNKNOWN;
	if ((ne = nsys_db_enum(&n->d, "ENUM_CUDA_MEM_KIND", &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++) {
		if (e[i].id < 0 || e[i].id >= NSYS_NENUM)
			continue;
		n->mem_kind[e[i].id] = (uint8_t)nsys_mem_kind_of(e[i].name,
		    e[i].label);
	}
	nsys_db_enum_free(e, ne);

	/* Synchronization types: labels only. */
	if ((ne = nsys_db_enum(&n->d, "ENUM_CUPTI_SYNC_TYPE", &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++) {
		if (e[i].id < 0 || e[i].id >= NSYS_NENUM || *e[i].label == '\0')
			continue;
		free(n->sync_label[e[i].id]);
		n->sync_label[e[i].id] = xstrdup(e[i].label);
	}
	nsys_db_enum_free(e, ne);

	/* The OS runtime event class (what osrt_sum keeps). */
	n->osrt_class = 27;
	if ((ne = nsys_db_enum(&n->d, "ENUM_NSYS_EVENT_CLASS", &e)) < 0)
		return -1;
	for (i = 0; i < ne; i++)
		if (strcmp(e[i].name, "TRACE_PROCESS_EVENT_OS_RUNTIME") == 0)
			n->osrt_class = e[i].id;
	nsys_db_enum_free(e, ne);

	/* NVTX event types: the ENUM's ids when present, else the numbers. */
	memset(n->nvtx_role, 0, sizeof n->nvtx_role);
	if ((ne = nsys_db_enum(&n->d, "ENUM_NSYS_EVENT_TYPE", &e)) < 0)
		return -1;
	for (k = 0; k < sizeof nsys_nvtx_types / sizeof *nsys_nvtx_types;
	    k++) {
		int64_t id = ne > 0 ? -1 : nsys_nvtx_types[k].id;
		for (i = 0; i < ne; i++) {
			if (strcmp(e[i].name, nsys_nvtx_types[k].name) == 0) {
				id = e[i].id;
				break;
			}
		}
		if (id >= 0 && id < NSYS_NEVTYPE)
			n->nvtx_role[id] = nsys_nvtx_types[k].role;
	}
	nsys_db_enum_free(e, ne);

	return 0;
}

/* Entities. */

static int
nsys_process_info(struct nsys *n)
{
	static const char *const pcols[] = { "!globalPid", "name" };
	static const char *const tcols[] = { "!globalTid", "!nameId" };
	sqlite3_stmt	*st;
	int		 r = 0;

	st = nsys_db_select(&n->d, "PROCESSES", pcols, 2, NULL, NULL);
	while (st != NULL && (r = nsys_db_step(&n->d, st, "PROCESSES")) == 1) {
		const char *nm = (const char *)sqlite3_column_text(st, 2);
		uint64_t gpid = (uint64_t)col_i64(st, 1) & NSYS_PROC_MASK;
		if (nm == NULL || *nm == '\0')
			continue;
		XGROW(n->pnames, n->pnamescap, n->npnames + 1);
		n->pnames[n->npnames] = xstrdup(nm);
		hmap_put(&n->proc_info, gpid, (uint32_t)n->npnames);
		n->npnames++;
	}
	sqlite3_finalize(st);
	if (r < 0 || n->d.err != NULL)
		return -1;

	/* Several rows for one thread: the last (latest) name wins. */
	st = nsys_db_select(&n->d, "ThreadNames", tcols, 2, NULL, NULL);
	while (st != NULL &&
	    (r = nsys_db_step(&n->d, st, "ThreadNames")) == 1) {
		if (col_null(st, 1) || col_null(st, 2))
			continue;
		hmap_put(&n->thread_name, (uint64_t)col_i64(st, 1),
		    col_u32(st, 2));
	}
	sqlite3_finalize(st);
	return r < 0 || n->d.err != NULL ? -1 : 0;
}

static uint32_t
nsys_process(struct nsys *n, uint64_t gpid)
{
	uint32_t	p, v;
	const char	*name = NULL;

	gpid &= NSYS_PROC_MASK;
	if ((p = builder_find_process(n->b, gpid)) != NONE32)
		return p;
	if (hmap_get(&n->proc_info, gpid, &v))
		name = n->pnames[v];
	else if (hmap_get(&n->thread_name, gpid | NSYS_PID(gpid), &v)) {
		/* No PROCESSES row (2021 exports have no such table): the
		 * main thread's name is the executable's. */
		name = nsys_db_str_text(&n->d, v);
	}
	return builder_process(n->b, gpid, NSYS_PID(gpid), name);
}

static uint32_t
nsys_thread(struct nsys *n, uint64_t gtid)
{
	uint32_t	t, v, p;
	const char	*name = NULL;

	if ((t = builder_find_thread(n->b, gtid)) != NONE32)
		return t;
	p = nsys_process(n, gtid);
	if (hmap_get(&n->thread_name, gtid, &v))
		name = nsys_db_str_text(&n->d, v);
	return builder_thread(n->b, gtid, NSYS_TID(gtid), p, name);
}

static uint32_t
nsys_text(struct nsys *n, sqlite3_stmt *st, int i)
{
	const char	*s = (const char *)sqlite3_column_text(st, i);

	if (s == NULL || *s == '\0')
		return 0;
	return builder_intern_n(n->b, s, (size_t)sqlite3_column_bytes(st, i));
}

static int
nsys_devices(struct nsys *n)
{
	sqlite3_stmt	*st;
	struct device	 d;
	int		 r;

	if (nsys_db_has(&n->d, "TARGET_INFO_GPU")) {
		st = nsys_db_select(&n->d, "TARGET_INFO_GPU", gpu_cols,
		    sizeof gpu_cols / sizeof *gpu_cols, NULL, "ORDER BY id");
		if (st == NULL)
			return n->d.err != NULL ? -1 : 0;
		while ((r = nsys_db_step(&n->d, st, "TARGET_INFO_GPU")) == 1) {
			memset(&d, 0, sizeof d);
			d.source_id = col_u32(st, D_ID);
			d.name = nsys_text(n, st, D_NAME);
			d.uuid = nsys_text(n, st, D_UUID);
			d.bus = nsys_text(n, st, D_BUS);
			d.chip = nsys_text(n, st, D_CHIP);
			d.vendor = builder_intern(n->b, "NVIDIA");
			d.process = NONE32;
			d.sm_count = (int32_t)col_i64(st, D_SM);
			d.cc_major = (int32_t)col_i64(st, D_CCMAJ);
			d.cc_minor = (int32_t)col_i64(st, D_CCMIN);
			d.total_mem = col_i64(st, D_MEM);
			d.mem_bw = col_i64(st, D_BW);
			d.clock_hz = col_i64(st, D_CLOCK);
			d.l2_bytes = col_i64(st, D_L2);
			d.max_threads_per_block =
			    (int32_t)col_i64(st, D_MAXTPB);
			d.regs_per_sm = (int32_t)col_i64(st, D_REGS);
			d.smem_per_sm = col_i64(st, D_SMEM);
			d.max_warps_per_sm = (int32_t)col_i64(st, D_WARPS);
			d.threads_per_warp = (int32_t)col_i64(st, D_TPW);
			builder_device(n->b, &d);
		}
		sqlite3_finalize(st);
		return r < 0 ? -1 : 0;
	}

	if (nsys_db_has(&n->d, "TARGET_INFO_CUDA_DEVICE")) {
		static const char *const cols[] = {
			"!gpuId", "uuid", "numMultiprocessors"
		};
		st = nsys_db_select(&n->d, "TARGET_INFO_CUDA_DEVICE", cols, 3,
		    NULL, "ORDER BY gpuId");
		if (st == NULL)
			return n->d.err != NULL ? -1 : 0;
		while ((r = nsys_db_step(&n->d, st,
		    "TARGET_INFO_CUDA_DEVICE")) == 1) {
			memset(&d, 0, sizeof d);
			d.source_id = col_u32(st, 1);
			d.uuid = nsys_text(n, st, 2);
			d.sm_count = (int32_t)col_i64(st, 3);
			d.vendor = builder_intern(n->b, "NVIDIA");
			d.process = NONE32;
			builder_device(n->b, &d);
		}
		sqlite3_finalize(st);
		return r < 0 ? -1 : 0;
	}
	return 0;
}

/* Device index of deviceId, declared (unnamed) if unknown. */
static uint32_t
nsys_device(struct nsys *n, uint32_t id)
{
	struct device	d;
	uint32_t	i;

	if ((i = builder_find_device(n->b, id)) != NONE32)
		return i;
	memset(&d, 0, sizeof d);
	d.source_id = id;
	d.vendor = builder_intern(n->b, "NVIDIA");
	d.process = NONE32;
	return builder_device(n->b, &d);
}

static uint64_t
nsys_gpid(uint64_t hw, uint64_t vm, uint64_t pid)
{
	return (hw & 0xFF) << 56 | (vm & 0xFF) << 48 | (pid & 0xFFFFFF) << 24;
}

static int
nsys_stream_info(struct nsys *n)
{
	sqlite3_stmt	*st;
	int		 r;

	if (nsys_db_has(&n->d, "TARGET_INFO_CUDA_STREAM")) {
		static const char *const cols[] = {
			"!streamId", "hwId", "vmId", "!processId", "!priority"
		};
		st = nsys_db_select(&n->d, "TARGET_INFO_CUDA_STREAM", cols, 5,
		    NULL, NULL);
		if (st == NULL && n->d.err != NULL)
			return -1;
		while (st != NULL &&
		    (r = nsys_db_step(&n->d, st,
		    "TARGET_INFO_CUDA_STREAM")) != 0) {
			uint64_t gpid;
			if (r < 0) {
				sqlite3_finalize(st);
				return -1;
			}
			gpid = nsys_gpid((uint64_t)col_i64(st, 2),
			    (uint64_t)col_i64(st, 3), (uint64_t)col_i64(st, 4));
			hmap_put(&n->stream_prio, hmap_key2(gpid,
			    (uint64_t)col_i64(st, 1)), col_u32(st, 5));
		}
		sqlite3_finalize(st);
	}
	if (nsys_db_has(&n->d, "TARGET_INFO_NVTX_CUDA_STREAM")) {
		static const char *const cols[] = {
			"!name", "hwId", "vmId", "!processId", "!deviceId",
			"!streamId"
		};
		st = nsys_db_select(&n->d, "TARGET_INFO_NVTX_CUDA_STREAM", cols,
		    6, NULL, NULL);
		if (st == NULL && n->d.err != NULL)
			return -1;
		while (st != NULL &&
		    (r = nsys_db_step(&n->d, st,
		    "TARGET_INFO_NVTX_CUDA_STREAM")) != 0) {
			uint64_t gpid, key;
			uint32_t sid;
			if (r < 0) {
				sqlite3_finalize(st);
				return -1;
			}
			if ((sid = nsys_text(n, st, 1)) == 0)
				continue;
			gpid = nsys_gpid((uint64_t)col_i64(st, 2),
			    (uint64_t)col_i64(st, 3), (uint64_t)col_i64(st, 4));
			key = hmap_key2(gpid, (uint64_t)col_i64(st, 5));
			key = hmap_key2(key, (uint64_t)col_i64(st, 6));
			hmap_put(&n->stream_name, key, sid);
		}
		sqlite3_finalize(st);
	}
	return 0;
}

/* Track caches. */

/* Keys of a row's context and stream, for ctx_dev and ctxstream_dev. */
static uint64_t
nsys_ctx_key(sqlite3_stmt *st)
{
	uint64_t	gpid = col_null(st, G_PID) ? ~0ULL :
			    (uint64_t)col_i64(st, G_PID) & NSYS_PROC_MASK;

	return hmap_key2(gpid, (uint64_t)col_i64(st, G_CTX));
}

static uint64_t
nsys_ctxstream_key(sqlite3_stmt *st, uint64_t stream)
{
	return hmap_key2(nsys_ctx_key(st), stream);
}

/*
 * The stream of a GPU activity row: (dev, globalPid, stream). Work rows
 * (kernels, copies, memsets, graphs) also record which device their
 * context and stream are on, for the synchronization rows.
 */
static uint32_t
nsys_stream_at(struct nsys *n, sqlite3_stmt *st, uint64_t dev,
    uint64_t stream, int work)
{
	int		 nopid = col_null(st, G_PID);
	uint64_t	 gpid = (uint64_t)col_i64(st, G_PID) & NSYS_PROC_MASK;
	uint64_t	 key;
	uint32_t	 d, p, s, v;
	size_t		 before;

	if (work) {
		if (!hmap_get(&n->ctx_dev, nsys_ctx_key(st), &v))
			hmap_put(&n->ctx_dev, nsys_ctx_key(st), (uint32_t)dev);
		if (!hmap_get(&n->ctxstream_dev, nsys_ctxstream_key(st,
		    stream), &v))
			hmap_put(&n->ctxstream_dev, nsys_ctxstream_key(st,
			    stream), (uint32_t)dev);
	}
	key = hmap_key2(hmap_key2(dev, nopid ? ~0ULL : gpid), stream);
	if (hmap_get(&n->gpu_streams, key, &s))
		return s;
	d = nsys_device(n, (uint32_t)dev);
	p = nopid ? NONE32 : nsys_process(n, gpid);
	before = n->m->nstreams;
	s = builder_stream(n->b, d, stream, p);
	if (n->m->nstreams > before) {
		struct stream *sp = &n->m->streams[s];
		sp->context = col_u32(st, G_CTX);
		if (hmap_get(&n->stream_prio, hmap_key2(gpid, stream), &v))
			sp->priority = (int32_t)v;
		if (hmap_get(&n->stream_name, hmap_key2(hmap_key2(gpid, dev),
		    stream), &v))
			sp->name = v;
	}
	hmap_put(&n->gpu_streams, key, s);
	return s;
}

/* The GPU work track of a row's stream. */
static uint32_t
nsys_gpu_track(struct nsys *n, sqlite3_stmt *st)
{
	return builder_gpu_track(n->b, nsys_stream_at(n, st,
	    (uint64_t)col_i64(st, G_DEV), (uint64_t)col_i64(st, G_STREAM), 1));
}

static uint32_t
nsys_cpu_track(struct nsys *n, enum track_type type, uint64_t gtid,
    uint64_t domain_id)
{
	uint64_t	key;
	uint32_t	t, thr, dom = 0;

	key = hmap_key2(hmap_key2(type, gtid), domain_id);
	if (hmap_get(&n->cpu_tracks, key, &t))
		return t;
	thr = nsys_thread(n, gtid);
	if (type == TRACK_NVTX)
		dom = builder_domain(n->b, nsys_process(n, gtid), domain_id,
		    NULL);
	t = builder_cpu_track(n->b, type, thr, dom);
	hmap_put(&n->cpu_tracks, key, t);
	return t;
}

/* GPU activity tables. */

static void
nsys_gpu_event(sqlite3_stmt *st, struct lane_event *ev, int kind)
{
	memset(ev, 0, sizeof *ev);
	ev->rowid = col_i64(st, G_ROWID);
	ev->start = col_i64(st, G_START);
	ev->end = col_i64(st, G_END);
	ev->kind = (uint8_t)kind;
	ev->corr = col_u32(st, G_CORR);
	ev->aux = NONE32;
	if (col_null(st, G_END)) {
		ev->end = ev->start;
		ev->flags |= EVF_OPEN;
	}
}

/* Runs a scan: prepares, reports progress, calls row() for each row. */
static int
nsys_scan(struct nsys *n, const char *table, const char *phase,
    const char *const *cols, size_t ncols, int *have,
    void (*row)(struct nsys *, sqlite3_stmt *, const int *))
{
	struct source_times	 tt;
	sqlite3_stmt		*st;
	uint64_t		 rows = 0;
	char			*msg;
	int			 r, fatal;

	if (!nsys_db_has(&n->d, table))
		return 0;
	st = nsys_db_select(&n->d, table, cols, ncols, have, NULL);
	if (st == NULL)
		return n->d.err != NULL ? -1 : 0;
	progress_phase(n->prog, phase, nsys_db_estimate(&n->d, table));
	memset(&tt, 0, sizeof tt);
	while ((r = nsys_db_step(&n->d, st, table)) == 1) {
		/* Every table scanned has start and end in columns 1 and 2;
		 * a NULL end is an open range. */
		if (source_times_ok(st, 1, 2, 1, &tt))
			row(n, st, have);
		if ((++rows & (NSYS_ROWS_STEP - 1)) == 0)
			progress_rows(n->prog, rows);
	}
	progress_rows(n->prog, rows);
	sqlite3_finalize(st);
	if (r < 0)
		return -1;
	if ((msg = source_times_verdict(&tt, table, &fatal)) != NULL) {
		if (fatal)
			nsys_db_error(&n->d, "%s", msg);
		else
			builder_warn(n->b, "%s", msg);
		free(msg);
		if (fatal)
			return -1;
	}
	return 0;
}

static void
nsys_kernel_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	struct kernel_info	k;
	struct lane_event	ev;
	uint32_t		t;

	t = nsys_gpu_track(n, st);
	nsys_gpu_event(st, &ev, EV_KERNEL);
	memset(&k, 0, sizeof k);
	k.grid[0] = col_u32(st, K_GX);
	k.grid[1] = col_u32(st, K_GY);
	k.grid[2] = col_u32(st, K_GZ);
	k.block[0] = col_u32(st, K_BX);
	k.block[1] = col_u32(st, K_BY);
	k.block[2] = col_u32(st, K_BZ);
	k.short_name = col_null(st, K_SHORT) ? 0 :
	    nsys_db_str(&n->d, col_i64(st, K_SHORT));
	k.mangled = col_null(st, K_MANGLED) ? 0 :
	    nsys_db_str(&n->d, col_i64(st, K_MANGLED));
	k.static_smem = col_u32(st, K_SSMEM);
	k.dynamic_smem = col_u32(st, K_DSMEM);
	k.local_mem = col_u32(st, K_LMEM);
	k.regs = (uint16_t)col_i64(st, K_REGS);
	k.launch_type = (uint8_t)col_i64(st, K_LAUNCH);
	k.graph_node = col_u32(st, K_GNODE);
	ev.name = col_null(st, K_DEMANGLED) ? 0 :
	    nsys_db_str(&n->d, col_i64(st, K_DEMANGLED));
	if (ev.name == 0)
		ev.name = k.short_name;
	if (nsys_sflags(n, ev.name) & SF_NCCL)
		ev.flags |= EVF_COMM;
	ev.aux = builder_kernel(n->b, &k);
	builder_event(n->b, t, &ev);
	(void)have;
}

/*
 * "[CUDA memcpy <label>]" for copyKind k (0 <= k < NSYS_NENUM), with the
 * ENUM table's label, else the one older nsysstats hard-coded for exports
 * without the table ("HtoD"), so that names match what `nsys stats` prints
 * for the same file.
 */
static uint32_t
nsys_copy_name(struct nsys *n, int64_t k)
{
	char	*s;

	if (n->copy_name[k] == 0) {
		if (n->copy_label[k] != NULL)
			s = xasprintf("[CUDA memcpy %s]", n->copy_label[k]);
		else if ((size_t)k < sizeof nsys_old_copy_label /
		    sizeof *nsys_old_copy_label)
			s = xasprintf("[CUDA memcpy %s]",
			    nsys_old_copy_label[k]);
		else
			s = xasprintf("[CUDA memcpy %s]",
			    copy_kind_label(n->copy_kind[k]));
		n->copy_name[k] = builder_intern(n->b, s);
		free(s);
	}
	return n->copy_name[k];
}

/* The label of syncType t, as the ENUM table or old exports name it. */
static uint32_t
nsys_sync_name(struct nsys *n, int64_t t)
{
	char	buf[64];

	if (t >= 0 && t < NSYS_NENUM && n->sync_name[t] != 0)
		return n->sync_name[t];
	if (t >= 0 && t < NSYS_NENUM && n->sync_label[t] != NULL)
		snprintf(buf, sizeof buf, "%s", n->sync_label[t]);
	else if (t >= 0 && (size_t)t < sizeof nsys_old_sync_label /
	    sizeof *nsys_old_sync_label)
		snprintf(buf, sizeof buf, "%s", nsys_old_sync_label[t]);
	else
		snprintf(buf, sizeof buf, "Sync type %lld", (long long)t);
	if (t >= 0 && t < NSYS_NENUM)
		return n->sync_name[t] = builder_intern(n->b, buf);
	return builder_intern(n->b, buf);
}

static uint8_t
nsys_memkind(const struct nsys *n, sqlite3_stmt *st, int i)
{
	int64_t	v;

	if (col_null(st, i))
		return MEM_UNKNOWN;
	v = col_i64(st, i);
	return v >= 0 && v < NSYS_NENUM ? n->mem_kind[v] : MEM_UNKNOWN;
}

static void
nsys_memcpy_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	struct copy_info	c;
	struct lane_event	ev;
	uint32_t		t;
	int64_t			kind;

	t = nsys_gpu_track(n, st);
	nsys_gpu_event(st, &ev, EV_MEMCPY);
	memset(&c, 0, sizeof c);
	c.bytes = (uint64_t)col_i64(st, C_BYTES);
	kind = col_i64(st, C_KIND);
	if (kind < 0 || kind >= NSYS_NENUM) {
		n->nunknown_copy++;
		kind = 0;
	}
	c.kind = n->copy_kind[kind];
	ev.name = nsys_copy_name(n, kind);
	c.src_kind = nsys_memkind(n, st, C_SRCKIND);
	c.dst_kind = nsys_memkind(n, st, C_DSTKIND);
	c.src_dev = col_null(st, C_SRCDEV) ? NONE32 : col_u32(st, C_SRCDEV);
	c.dst_dev = col_null(st, C_DSTDEV) ? NONE32 : col_u32(st, C_DSTDEV);
	ev.aux = builder_copy(n->b, &c);
	builder_event(n->b, t, &ev);
	(void)have;
}

static void
nsys_memset_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	struct copy_info	c;
	struct lane_event	ev;
	uint32_t		t;

	t = nsys_gpu_track(n, st);
	nsys_gpu_event(st, &ev, EV_MEMSET);
	memset(&c, 0, sizeof c);
	c.bytes = (uint64_t)col_i64(st, S_BYTES);
	c.kind = COPY_UNKNOWN;
	c.src_kind = c.dst_kind = nsys_memkind(n, st, S_MEMKIND);
	c.src_dev = NONE32;
	c.dst_dev = col_u32(st, G_DEV);
	c.value = col_u32(st, S_VALUE);
	if (n->memset_name == 0)
		n->memset_name = builder_intern(n->b, "[CUDA memset]");
	ev.name = n->memset_name;
	ev.aux = builder_copy(n->b, &c);
	builder_event(n->b, t, &ev);
	(void)have;
}

static void
nsys_sync_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	struct lane_event	ev;
	uint32_t		t, v;
	int64_t			type;
	uint64_t		dev = (uint64_t)col_i64(st, G_DEV);
	uint64_t		stream = (uint64_t)col_i64(st, G_STREAM);
	int			found;

	/*
	 * Waits are not GPU work: they go on the stream's sync track. Some
	 * exports write deviceId 0 on every synchronization row: the device
	 * is the one the work of the same context and stream ran on (of the
	 * context alone for a wait on no stream), the row's own only when
	 * no work says. A wait on no stream (streamId NULL, -1 or
	 * 0xFFFFFFFF: event and context synchronisations) goes on one
	 * per-context track.
	 */
	if (col_null(st, G_STREAM) || stream == ~0ULL ||
	    stream == NSYS_NO_STREAM)
		stream = NSYS_NO_STREAM;
	found = stream != NSYS_NO_STREAM && hmap_get(&n->ctxstream_dev,
	    nsys_ctxstream_key(st, stream), &v);
	if (!found)
		found = hmap_get(&n->ctx_dev, nsys_ctx_key(st), &v);
	if (found && v != (uint32_t)dev) {
		dev = v;
		n->nsync_moved++;
	}
	t = builder_sync_track(n->b, nsys_stream_at(n, st, dev, stream, 0));
	nsys_gpu_event(st, &ev, EV_SYNC);
	type = col_i64(st, Y_TYPE);
	ev.name = nsys_sync_name(n, type);
	ev.aux = (uint32_t)type;
	builder_event(n->b, t, &ev);
	(void)have;
}

static void
nsys_graph_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	struct lane_event	ev;
	uint32_t		t, sid;
	uint64_t		graph = (uint64_t)col_i64(st, GR_GRAPH);
	char			buf[64];

	t = nsys_gpu_track(n, st);
	nsys_gpu_event(st, &ev, EV_GRAPH);
	if (!hmap_get(&n->graph_name, graph, &sid)) {
		snprintf(buf, sizeof buf, "CUDA graph %llu",
		    (unsigned long long)graph);
		sid = builder_intern(n->b, buf);
		hmap_put(&n->graph_name, graph, sid);
	}
	ev.name = sid;
	builder_event(n->b, t, &ev);
	(void)have;
}

/* CPU tables. */

static void
nsys_cpu_row(struct nsys *n, sqlite3_stmt *st, int kind,
    enum track_type type)
{
	struct lane_event	ev;
	uint32_t		t;

	t = nsys_cpu_track(n, type, (uint64_t)col_i64(st, A_TID), 0);
	memset(&ev, 0, sizeof ev);
	ev.rowid = col_i64(st, A_ROWID);
	ev.start = col_i64(st, A_START);
	ev.end = col_i64(st, A_END);
	if (col_null(st, A_END)) {
		ev.end = ev.start;
		ev.flags |= EVF_OPEN;
	}
	ev.kind = (uint8_t)kind;
	ev.aux = NONE32;
	if (!col_null(st, A_NAME))
		ev.name = nsys_db_str(&n->d, col_i64(st, A_NAME));
	if (kind == EV_API) {
		ev.corr = col_u32(st, A_CORR);
		if (nsys_sflags(n, ev.name) & SF_DRIVER)
			ev.flags |= EVF_DRIVER;
	} else if (!col_null(st, A_CLASS) &&
	    col_i64(st, A_CLASS) != n->osrt_class)
		ev.flags |= EVF_NOTOSRT;	/* e.g. OSRT start/finish */
	builder_event(n->b, t, &ev);
}

static void
nsys_api_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	nsys_cpu_row(n, st, EV_API, TRACK_API);
	(void)have;
}

static void
nsys_osrt_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	nsys_cpu_row(n, st, EV_OSRT, TRACK_OSRT);
	(void)have;
}

/* NVTX. */

static uint64_t
nsys_cat_key(uint32_t process, uint64_t domain_id, uint64_t category)
{
	return hmap_key2(hmap_key2(process, domain_id), category);
}

static void
nsys_nvtx_row(struct nsys *n, sqlite3_stmt *st, const int *have)
{
	struct nvtx_info	 info;
	struct lane_event	 ev;
	int64_t			 type = col_i64(st, N_TYPE);
	uint64_t		 gtid = (uint64_t)col_i64(st, N_TID);
	uint64_t		 domid = (uint64_t)col_i64(st, N_DOMAIN);
	uint32_t		 name, t, proc, v;
	int			 role;
	const struct domain	*dom;

	role = type >= 0 && type < NSYS_NEVTYPE ? n->nvtx_role[type] : NR_NONE;
	if (role == NR_NONE || role == NR_IGNORE) {
		n->nvtx_skipped[type >= 0 && type < NSYS_NEVTYPE ? type :
		    NSYS_NEVTYPE]++;
		return;
	}
	if (!col_null(st, N_TEXT))
		name = nsys_text(n, st, N_TEXT);
	else if (!col_null(st, N_TEXTID))
		name = nsys_db_str(&n->d, col_i64(st, N_TEXTID));
	else
		name = 0;

	switch (role) {
	case NR_DOMAIN:
		proc = nsys_process(n, gtid);
		builder_domain(n->b, proc, domid, strpool_get(n->m->strs,
		    name));
		return;
	case NR_CATEGORY:
		proc = nsys_process(n, gtid);
		hmap_put(&n->cat_name, nsys_cat_key(proc, domid,
		    (uint64_t)col_i64(st, N_CAT)), name);
		return;
	case NR_THREAD:
		/* Declaring the thread may move the array: index it after. */
		if (name != 0) {
			t = nsys_thread(n, gtid);
			n->m->threads[t].name = name;
		}
		return;
	}

	t = nsys_cpu_track(n, TRACK_NVTX, gtid, domid);
	memset(&ev, 0, sizeof ev);
	ev.rowid = col_i64(st, N_ROWID);
	ev.start = col_i64(st, N_START);
	ev.name = name;
	if (role == NR_MARK) {
		ev.kind = EV_MARK;
		ev.end = ev.start;
	} else {
		ev.kind = EV_NVTX;
		if (col_null(st, N_END)) {
			ev.end = ev.start;
			ev.flags |= EVF_OPEN;
		} else
			ev.end = col_i64(st, N_END);
		if (role == NR_STARTEND) {
			ev.flags |= EVF_STARTEND;
			if (!col_null(st, N_ENDTID) &&
			    (uint64_t)col_i64(st, N_ENDTID) != gtid)
				ev.flags |= EVF_CROSSTHREAD;
		}
	}

	memset(&info, 0, sizeof info);
	info.domain = n->m->tracks[t].domain;
	dom = &n->m->domains[info.domain];
	if (nsys_sflags(n, name) & SF_NCCL ||
	    (dom->name != 0 && nsys_sflags(n, dom->name) & SF_NCCL))
		ev.flags |= EVF_COMM;
	info.category = col_u32(st, N_CAT);
	info.color = col_u32(st, N_COLOR);
	if (!col_null(st, N_I64)) {
		info.payload_type = NVTX_PAYLOAD_INT;
		info.payload.i = col_i64(st, N_I64);
	} else if (!col_null(st, N_U64)) {
		info.payload_type = NVTX_PAYLOAD_UINT;
		info.payload.u = (uint64_t)col_i64(st, N_U64);
	} else if (!col_null(st, N_DBL)) {
		info.payload_type = NVTX_PAYLOAD_DOUBLE;
		info.payload.d = sqlite3_column_double(st, N_DBL);
	} else if (!col_null(st, N_I32)) {
		info.payload_type = NVTX_PAYLOAD_INT;
		info.payload.i = col_i64(st, N_I32);
	} else if (!col_null(st, N_U32)) {
		info.payload_type = NVTX_PAYLOAD_UINT;
		info.payload.u = (uint64_t)col_i64(st, N_U32);
	} else if (!col_null(st, N_FLT)) {
		info.payload_type = NVTX_PAYLOAD_DOUBLE;
		info.payload.d = sqlite3_column_double(st, N_FLT);
	}
	ev.aux = builder_nvtx(n->b, &info);
	if (info.category != 0) {
		uint64_t key;
		proc = n->m->threads[n->m->tracks[t].thread].process;
		key = nsys_cat_key(proc, domid, info.category);
		if (hmap_get(&n->cat_name, key, &v))
			n->m->nvtx[ev.aux].category_name = v;
		else {
			/* Named later in the table, perhaps. */
			if (n->npend == n->pendcap) {
				XGROW(n->pend_key, n->pendcap, n->npend + 1);
				n->pend_idx = xreallocarray(n->pend_idx,
				    n->pendcap, sizeof *n->pend_idx);
			}
			n->pend_key[n->npend] = key;
			n->pend_idx[n->npend++] = ev.aux;
		}
	}
	builder_event(n->b, t, &ev);
	(void)have;
}

static void
nsys_nvtx_finish(struct nsys *n)
{
	size_t		i;
	uint32_t	v;
	uint64_t	skipped = 0;
	char		list[256];
	size_t		len = 0;

	for (i = 0; i < n->npend; i++)
		if (hmap_get(&n->cat_name, n->pend_key[i], &v))
			n->m->nvtx[n->pend_idx[i]].category_name = v;
	list[0] = '\0';
	for (i = 0; i <= NSYS_NEVTYPE; i++) {
		if (n->nvtx_skipped[i] == 0)
			continue;
		skipped += n->nvtx_skipped[i];
		if (len < sizeof list - 32) {
			int w = snprintf(list + len, sizeof list - len,
			    "%s%s%zu: %llu", len > 0 ? ", " : "",
			    i == NSYS_NEVTYPE ? ">=" : "",
			    i == NSYS_NEVTYPE ? (size_t)NSYS_NEVTYPE : i,
			    (unsigned long long)n->nvtx_skipped[i]);
			if (w > 0)
				len += (size_t)w;
		}
	}
	if (skipped != 0)
		builder_warn(n->b, "NVTX_EVENTS: %llu rows of event types not "
		    "loaded (type: rows %s)", (unsigned long long)skipped,
		    list);
}

/*
 * Entities are declared in the order rows first mention them, which follows
 * whatever order the export has. Put devices, processes, threads and
 * streams in source order instead (device 0 first, processes by pid,
 * threads by tid) and renumber every index that refers to them. The
 * builder's lookup maps are stale afterwards, so this runs only once
 * nothing more is declared.
 */
struct nsys_sortkey {
	uint64_t	 k[3];
	uint32_t	 i;
};

static int
nsys_sortkey_cmp(const void *a, const void *b)
{
	const struct nsys_sortkey	*x = a, *y = b;
	int				 j;

	for (j = 0; j < 3; j++)
		if (x->k[j] != y->k[j])
			return x->k[j] < y->k[j] ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Reorders the n elements (of size sz) at base by keys; returns the
 * old -> new index map (caller frees), NULL when n == 0. */
static uint32_t *
nsys_permute(void *base, size_t n, size_t sz, struct nsys_sortkey *keys)
{
	uint32_t	*map;
	char		*copy;
	size_t		 i;

	if (n == 0)
		return NULL;
	qsort(keys, n, sizeof *keys, nsys_sortkey_cmp);
	map = xreallocarray(NULL, n, sizeof *map);
	copy = xreallocarray(NULL, n, sz);
	memcpy(copy, base, n * sz);
	for (i = 0; i < n; i++) {
		memcpy((char *)base + i * sz, copy + (size_t)keys[i].i * sz,
		    sz);
		map[keys[i].i] = (uint32_t)i;
	}
	free(copy);
	return map;
}

static uint32_t
nsys_remap(const uint32_t *map, uint32_t i)
{
	return map != NULL && i != NONE32 ? map[i] : i;
}

static void
nsys_sort_entities(struct nsys *n)
{
	struct model		*m = n->m;
	struct nsys_sortkey	*keys;
	uint32_t		*dmap, *pmap, *tmap, *smap;
	size_t			 i, most;

	most = m->ndevices;
	if (m->nprocesses > most)
		most = m->nprocesses;
	if (m->nthreads > most)
		most = m->nthreads;
	if (m->nstreams > most)
		most = m->nstreams;
	if (most == 0)
		return;
	keys = xcalloc(most, sizeof *keys);

	for (i = 0; i < m->ndevices; i++) {
		keys[i].k[0] = m->devices[i].source_id;
		keys[i].k[1] = keys[i].k[2] = 0;
		keys[i].i = (uint32_t)i;
	}
	dmap = nsys_permute(m->devices, m->ndevices, sizeof *m->devices,
	    keys);
	for (i = 0; i < m->nprocesses; i++) {
		keys[i].k[0] = m->processes[i].pid;
		keys[i].k[1] = m->processes[i].source_id;
		keys[i].k[2] = 0;
		keys[i].i = (uint32_t)i;
	}
	pmap = nsys_permute(m->processes, m->nprocesses,
	    sizeof *m->processes, keys);
	for (i = 0; i < m->nthreads; i++) {
		m->threads[i].process = nsys_remap(pmap, m->threads[i].process);
		keys[i].k[0] = m->threads[i].process;
		keys[i].k[1] = m->threads[i].tid;
		keys[i].k[2] = m->threads[i].source_id;
		keys[i].i = (uint32_t)i;
	}
	tmap = nsys_permute(m->threads, m->nthreads, sizeof *m->threads,
	    keys);
	for (i = 0; i < m->nstreams; i++) {
		struct stream *st = &m->streams[i];
		st->device = nsys_remap(dmap, st->device);
		st->process = nsys_remap(pmap, st->process);
		keys[i].k[0] = st->device;
		keys[i].k[1] = st->process;
		keys[i].k[2] = st->source_id;
		keys[i].i = (uint32_t)i;
	}
	smap = nsys_permute(m->streams, m->nstreams, sizeof *m->streams,
	    keys);
	for (i = 0; i < m->ndomains; i++)
		m->domains[i].process = nsys_remap(pmap,
		    m->domains[i].process);
	for (i = 0; i < m->ntracks; i++) {
		struct track *t = &m->tracks[i];
		t->device = nsys_remap(dmap, t->device);
		t->process = nsys_remap(pmap, t->process);
		t->thread = nsys_remap(tmap, t->thread);
		t->stream = nsys_remap(smap, t->stream);
	}
	free(keys);
	free(dmap);
	free(pmap);
	free(tmap);
	free(smap);
}

/* Names of the tracks, and warnings about what was not loaded. */
static void
nsys_finish(struct nsys *n)
{
	struct model	*m = n->m;
	size_t		 i, len = 0;
	char		 buf[128], list[512];
	static const char *const known[] = {
		"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
		"CUPTI_ACTIVITY_KIND_MEMSET",
		"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
		"CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
		"CUPTI_ACTIVITY_KIND_RUNTIME", "OSRT_API", "NVTX_EVENTS",
		"StringIds", "ThreadNames", "PROCESSES", "ProcessStreams",
		"META_DATA_EXPORT", "EXPORT_META_DATA", "META_DATA_CAPTURE",
		"ANALYSIS_DETAILS", "ANALYSIS_FILE", "UnwindMethodType",
	};

	for (i = 0; i < m->ntracks; i++) {
		struct track *t = &m->tracks[i];
		if (t->name != 0)
			continue;
		switch (t->type) {
		case TRACK_GPU:
			if (m->streams[t->stream].name != 0)
				t->name = m->streams[t->stream].name;
			else {
				snprintf(buf, sizeof buf, "Stream %llu",
				    (unsigned long long)
				    m->streams[t->stream].source_id);
				t->name = builder_intern(n->b, buf);
			}
			break;
		case TRACK_SYNC:
			if (m->streams[t->stream].source_id == NSYS_NO_STREAM)
				snprintf(buf, sizeof buf, "Context %u sync",
				    m->streams[t->stream].context);
			else if (m->streams[t->stream].name != 0)
				snprintf(buf, sizeof buf, "%s sync",
				    strpool_get(m->strs,
				    m->streams[t->stream].name));
			else
				snprintf(buf, sizeof buf, "Stream %llu sync",
				    (unsigned long long)
				    m->streams[t->stream].source_id);
			t->name = builder_intern(n->b, buf);
			break;
		case TRACK_API:
			t->name = builder_intern(n->b, "CUDA API");
			break;
		case TRACK_OSRT:
			t->name = builder_intern(n->b, "OS runtime libraries");
			break;
		case TRACK_NVTX:
			if (t->domain != NONE32 && t->domain < m->ndomains &&
			    m->domains[t->domain].name != 0) {
				snprintf(buf, sizeof buf, "NVTX (%s)",
				    strpool_get(m->strs,
				    m->domains[t->domain].name));
				t->name = builder_intern(n->b, buf);
			} else
				t->name = builder_intern(n->b, "NVTX");
			break;
		default:
			break;
		}
	}

	if (n->d.nbadstr != 0)
		builder_warn(n->b, "%llu references to string ids missing from "
		    "StringIds (shown as empty names)",
		    (unsigned long long)n->d.nbadstr);
	if (n->nsync_moved != 0)
		builder_warn(n->b, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: %llu "
		    "rows shown on the GPU their context's work ran on, not "
		    "on their deviceId", (unsigned long long)n->nsync_moved);
	if (n->nunknown_copy != 0)
		builder_warn(n->b, "%llu memcpy rows with an unknown copyKind",
		    (unsigned long long)n->nunknown_copy);

	/* Non-empty event tables this reader does not load. */
	list[0] = '\0';
	for (i = 0; i < n->d.ntables; i++) {
		const char *t = n->d.tables[i];
		sqlite3_stmt *st = NULL;
		char *sql;
		size_t k;
		int skip = 0, w;

		if (n->d.isview[i])
			continue;	/* never run a view's query */
		for (k = 0; k < sizeof known / sizeof *known; k++)
			if (strcasecmp(t, known[k]) == 0)
				skip = 1;
		if (skip || strncmp(t, "ENUM_", 5) == 0 ||
		    strncmp(t, "TARGET_INFO_", 12) == 0 ||
		    strncmp(t, "sqlite_", 7) == 0 ||
		    strstr(t, "CALLCHAINS") != NULL)
			continue;
		sql = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 1", t);
		if (sqlite3_prepare_v2(n->d.db, sql, -1, &st, NULL) ==
		    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
		    len < sizeof list - 64) {
			w = snprintf(list + len, sizeof list - len, "%s%s",
			    len > 0 ? ", " : "", t);
			if (w > 0)
				len += (size_t)w;
			if (len >= sizeof list)
				len = sizeof list - 1;
		}
		sqlite3_finalize(st);
		sqlite3_free(sql);
	}
	if (len > 0)
		builder_warn(n->b, "tables not loaded: %s", list);
}

static void
nsys_free(struct nsys *n)
{
	size_t	i;

	nsys_db_close(&n->d);
	free(n->sflags);
	for (i = 0; i < n->npnames; i++)
		free(n->pnames[i]);
	free(n->pnames);
	hmap_free(&n->proc_info);
	hmap_free(&n->thread_name);
	hmap_free(&n->stream_prio);
	hmap_free(&n->stream_name);
	hmap_free(&n->gpu_streams);
	hmap_free(&n->ctx_dev);
	hmap_free(&n->ctxstream_dev);
	hmap_free(&n->cpu_tracks);
	hmap_free(&n->graph_name);
	hmap_free(&n->cat_name);
	free(n->pend_key);
	free(n->pend_idx);
	for (i = 0; i < NSYS_NENUM; i++) {
		free(n->copy_label[i]);
		free(n->sync_label[i]);
	}
}

static int
nsys_read(struct nsys *n)
{
	int	have[32];

	if (nsys_meta(n) != 0 || nsys_db_strings(&n->d, n->prog) != 0 ||
	    nsys_enums(n) != 0 || nsys_process_info(n) != 0 ||
	    nsys_devices(n) != 0 ||
	    nsys_stream_info(n) != 0)
		return -1;
	if (nsys_scan(n, "CUPTI_ACTIVITY_KIND_KERNEL", "kernels", kernel_cols,
	    sizeof kernel_cols / sizeof *kernel_cols, have,
	    nsys_kernel_row) != 0)
		return -1;
	if (nsys_scan(n, "CUPTI_ACTIVITY_KIND_MEMCPY", "memcpy", memcpy_cols,
	    sizeof memcpy_cols / sizeof *memcpy_cols, have,
	    nsys_memcpy_row) != 0)
		return -1;
	if (nsys_scan(n, "CUPTI_ACTIVITY_KIND_MEMSET", "memset", memset_cols,
	    sizeof memset_cols / sizeof *memset_cols, have,
	    nsys_memset_row) != 0)
		return -1;
	if (nsys_scan(n, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "sync",
	    sync_cols, sizeof sync_cols / sizeof *sync_cols, have,
	    nsys_sync_row) != 0)
		return -1;
	if (nsys_scan(n, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "graphs",
	    graph_cols, sizeof graph_cols / sizeof *graph_cols, have,
	    nsys_graph_row) != 0)
		return -1;
	if (nsys_scan(n, "CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA API", api_cols,
	    sizeof api_cols / sizeof *api_cols, have, nsys_api_row) != 0)
		return -1;
	if (nsys_scan(n, "OSRT_API", "OS runtime", api_cols,
	    sizeof api_cols / sizeof *api_cols, have, nsys_osrt_row) != 0)
		return -1;
	if (nsys_scan(n, "NVTX_EVENTS", "NVTX", nvtx_cols,
	    sizeof nvtx_cols / sizeof *nvtx_cols, have, nsys_nvtx_row) != 0)
		return -1;
	nsys_nvtx_finish(n);
	nsys_finish(n);
	nsys_sort_entities(n);
	return 0;
}

struct model *
nsys_load(const char *path, struct progress *prog, char **cause)
{
	struct nsys	 n;
	struct model	*m = NULL;
	double		 t0 = timing_now();
	char		*err;

	memset(&n, 0, sizeof n);
	if (nsys_db_open(&n.d, path, cause) != 0)
		return NULL;
	n.prog = prog;
	hmap_init(&n.proc_info);
	hmap_init(&n.thread_name);
	hmap_init(&n.stream_prio);
	hmap_init(&n.stream_name);
	hmap_init(&n.gpu_streams);
	hmap_init(&n.ctx_dev);
	hmap_init(&n.ctxstream_dev);
	hmap_init(&n.cpu_tracks);
	hmap_init(&n.graph_name);
	hmap_init(&n.cat_name);

	if (!nsys_probe(n.d.db)) {
		nsys_db_error(&n.d, "not an Nsight Systems export (SQLite "
		    "database without CUPTI_ACTIVITY_KIND_*/NVTX_EVENTS "
		    "tables)");
		goto fail;
	}
	/* A bigger page cache helps the scans a little; nothing is written. */
	sqlite3_exec(n.d.db, "PRAGMA cache_size = -16384", NULL, NULL, NULL);

	n.b = n.d.b = builder_new(SOURCE_NSYS);
	n.m = n.b->m;
	if (nsys_read(&n) != 0) {
		builder_abort(n.b);
		goto fail;
	}
	nsys_free(&n);
	progress_done(prog);
	timing_report("nsys-read", t0);
	t0 = timing_now();
	m = builder_finish(n.b, cause);
	timing_report("finalize", t0);
	return m;

fail:
	progress_done(prog);
	err = n.d.err;
	nsys_free(&n);
	if (cause != NULL)
		*cause = err;
	else
		free(err);
	return NULL;
}
