/*
 * nsys-entity: processes and threads (declared on first use, named from
 * PROCESSES and ThreadNames; their host from TARGET_INFO_SYSTEM_ENV), GPUs
 * (all declared from TARGET_INFO_GPU or TARGET_INFO_CUDA_DEVICE) and the
 * streams' priorities and NVTX names.
 */
#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "sources/srcdev.h"
#include "util/hmap.h"
#include "util/xmalloc.h"

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

int
nsys_entity_names(struct nsys *n)
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

uint32_t
nsys_entity_process(struct nsys *n, uint64_t gpid)
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

/*
 * Each process's host: the "Hostname" TARGET_INFO_SYSTEM_ENV gives its VM
 * (globalVid holds the hardware and VM ids of globalPid's top 16 bits).
 */
int
nsys_entity_hosts(struct nsys *n)
{
	static const char *const cols[] = { "!globalVid", "!name", "value" };
	struct model	*m = n->m;
	sqlite3_stmt	*st;
	const char	*nm, *v;
	uint64_t	 vid;
	size_t		 p;
	int		 r;

	if (!nsys_db_has(&n->d, "TARGET_INFO_SYSTEM_ENV"))
		return 0;
	st = nsys_db_select(&n->d, "TARGET_INFO_SYSTEM_ENV", cols, 3, NULL,
	    NULL);
	while (st != NULL &&
	    (r = nsys_db_step(&n->d, st, "TARGET_INFO_SYSTEM_ENV")) == 1) {
		nm = (const char *)sqlite3_column_text(st, 2);
		v = (const char *)sqlite3_column_text(st, 3);
		if (nm == NULL || strcmp(nm, "Hostname") != 0 || v == NULL ||
		    *v == '\0')
			continue;
		vid = (uint64_t)col_i64(st, 1) >> 48;
		for (p = 0; p < m->nprocesses; p++)
			if (m->processes[p].host == 0 &&
			    (m->processes[p].source_id >> 48) == vid)
				m->processes[p].host = builder_intern(n->b, v);
	}
	sqlite3_finalize(st);
	return n->d.err != NULL ? -1 : 0;
}

uint32_t
nsys_entity_thread(struct nsys *n, uint64_t gtid)
{
	uint32_t	t, v, p;
	const char	*name = NULL;

	if ((t = builder_find_thread(n->b, gtid)) != NONE32)
		return t;
	p = nsys_entity_process(n, gtid);
	if (hmap_get(&n->thread_name, gtid, &v))
		name = nsys_db_str_text(&n->d, v);
	return builder_thread(n->b, gtid, NSYS_TID(gtid), p, name);
}

int
nsys_entity_devices(struct nsys *n)
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
uint32_t
nsys_entity_device(struct nsys *n, uint32_t id)
{
	return srcdev_get(n->b, id, "NVIDIA", NULL);
}

static uint64_t
nsys_gpid(uint64_t hw, uint64_t vm, uint64_t pid)
{
	return (hw & 0xFF) << 56 | (vm & 0xFF) << 48 | (pid & 0xFFFFFF) << 24;
}

int
nsys_entity_streams(struct nsys *n)
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
