/*
 * nsys-gpu: the GPU activity tables (CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY,
 * _MEMSET, _SYNCHRONIZATION, _GRAPH_TRACE). Kernels, copies, memsets and
 * graph launches go on their stream's track; synchronisation waits on its
 * sync track, moved to the GPU their context's work ran on when the row's
 * deviceId says otherwise. A kernel whose name contains "nccl" in any case
 * is communication (EVF_COMM).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "util/hmap.h"

static const char *const kernel_cols[] = {
	GPU_COMMON_COLS, "demangledName", "shortName", "mangledName",
	"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
	"registersPerThread", "staticSharedMemory", "dynamicSharedMemory",
	"localMemoryPerThread", "launchType", "graphNodeId", "graphId"
};
enum {
	K_DEMANGLED = G_NCOMMON, K_SHORT, K_MANGLED, K_GX, K_GY, K_GZ, K_BX,
	K_BY, K_BZ, K_REGS, K_SSMEM, K_DSMEM, K_LMEM, K_LAUNCH, K_GNODE, K_GRAPH
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

static void
nsys_gpu_event(const struct nsys_row *st, struct lane_event *ev, int kind)
{
	nsys_row_event(st, ev, G_ROWID, G_START, G_END);
	ev->kind = (uint8_t)kind;
	ev->corr = row_u32(st, G_CORR);
	ev->aux = NONE32;
}

/* GPU work (not a wait): ev, on the track of its device and stream. */
static uint32_t
nsys_gpu_work(struct nsys *n, const struct nsys_row *st,
    struct lane_event *ev, int kind)
{
	uint32_t	t = nsys_track_gpu(n, st);

	nsys_gpu_event(st, ev, kind);
	return t;
}

static void
nsys_kernel_row(struct nsys *n, const struct nsys_row *st)
{
	struct kernel_info	k;
	struct lane_event	ev;
	uint32_t		t;
	int			i;

	t = nsys_gpu_work(n, st, &ev, EV_KERNEL);
	memset(&k, 0, sizeof k);
	for (i = 0; i < 3; i++) {	/* x, y, z columns in a row */
		k.grid[i] = row_u32(st, K_GX + i);
		k.block[i] = row_u32(st, K_BX + i);
	}
	k.short_name = row_null(st, K_SHORT) ? 0 :
	    nsys_db_str(&n->d, row_i64(st, K_SHORT));
	k.mangled = row_null(st, K_MANGLED) ? 0 :
	    nsys_db_str(&n->d, row_i64(st, K_MANGLED));
	k.static_smem = row_u32(st, K_SSMEM);
	k.dynamic_smem = row_u32(st, K_DSMEM);
	k.local_mem = row_u32(st, K_LMEM);
	k.regs = (uint16_t)row_i64(st, K_REGS);
	k.launch_type = (uint8_t)row_i64(st, K_LAUNCH);
	k.graph_node = row_u32(st, K_GNODE);
	k.graph_id = row_u32(st, K_GRAPH);
	ev.name = row_null(st, K_DEMANGLED) ? 0 :
	    nsys_db_str(&n->d, row_i64(st, K_DEMANGLED));
	if (ev.name == 0)
		ev.name = k.short_name;
	if (nsys_sflags(n, ev.name) & SF_NCCL)
		ev.flags |= EVF_COMM;
	ev.aux = builder_kernel(n->b, &k);
	builder_event(n->b, t, &ev);
}

/* Fills c from a memcpy row's own columns; returns the event's name. */
static uint32_t
nsys_memcpy_info(struct nsys *n, const struct nsys_row *st,
    struct copy_info *c)
{
	int64_t		kind;
	uint32_t	name;

	c->bytes = (uint64_t)row_i64(st, C_BYTES);
	kind = row_i64(st, C_KIND);
	if (kind < 0 || kind >= NSYS_NENUM) {
		n->nunknown_copy++;
		kind = 0;
	}
	c->kind = n->copy_kind[kind];
	name = nsys_enum_copy_name(n, kind);
	c->src_kind = nsys_enum_memkind(n, st, C_SRCKIND);
	c->dst_kind = nsys_enum_memkind(n, st, C_DSTKIND);
	c->src_dev = row_null(st, C_SRCDEV) ? NONE32 : row_u32(st, C_SRCDEV);
	c->dst_dev = row_null(st, C_DSTDEV) ? NONE32 : row_u32(st, C_DSTDEV);
	return name;
}

/* The same for a memset row. */
static uint32_t
nsys_memset_info(struct nsys *n, const struct nsys_row *st,
    struct copy_info *c)
{
	c->bytes = (uint64_t)row_i64(st, S_BYTES);
	c->kind = COPY_UNKNOWN;
	c->src_kind = c->dst_kind = nsys_enum_memkind(n, st, S_MEMKIND);
	c->src_dev = NONE32;
	c->dst_dev = row_u32(st, G_DEV);
	c->value = row_u32(st, S_VALUE);
	if (n->memset_name == 0)
		n->memset_name = builder_intern(n->b, "[CUDA memset]");
	return n->memset_name;
}

/* A memcpy or memset row (kind EV_MEMCPY or EV_MEMSET): GPU work with
 * its copy details. */
static void
nsys_copy_row(struct nsys *n, const struct nsys_row *st, int kind)
{
	struct copy_info	c;
	struct lane_event	ev;
	uint32_t		t;

	t = nsys_gpu_work(n, st, &ev, kind);
	memset(&c, 0, sizeof c);
	ev.name = kind == EV_MEMSET ? nsys_memset_info(n, st, &c) :
	    nsys_memcpy_info(n, st, &c);
	ev.aux = builder_copy(n->b, &c);
	builder_event(n->b, t, &ev);
}

static void
nsys_memcpy_row(struct nsys *n, const struct nsys_row *st)
{
	nsys_copy_row(n, st, EV_MEMCPY);
}

static void
nsys_memset_row(struct nsys *n, const struct nsys_row *st)
{
	nsys_copy_row(n, st, EV_MEMSET);
}

static void
nsys_sync_row(struct nsys *n, const struct nsys_row *st)
{
	struct lane_event	ev;
	uint32_t		t, v;
	int64_t			type;
	uint64_t		dev = (uint64_t)row_i64(st, G_DEV);
	uint64_t		stream = (uint64_t)row_i64(st, G_STREAM);
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
	if (row_null(st, G_STREAM) || stream == ~0ULL ||
	    stream == NSYS_NO_STREAM)
		stream = NSYS_NO_STREAM;
	found = stream != NSYS_NO_STREAM && hmap_get(&n->ctxstream_dev,
	    nsys_track_ctxstream_key(st, stream), &v);
	if (!found)
		found = hmap_get(&n->ctx_dev, nsys_track_ctx_key(st), &v);
	if (found && v != (uint32_t)dev) {
		dev = v;
		n->nsync_moved++;
	}
	t = builder_sync_track(n->b, nsys_track_stream(n, st, dev, stream, 0));
	nsys_gpu_event(st, &ev, EV_SYNC);
	type = row_i64(st, Y_TYPE);
	ev.name = nsys_enum_sync_name(n, type);
	ev.aux = (uint32_t)type;
	builder_event(n->b, t, &ev);
}

static void
nsys_graph_row(struct nsys *n, const struct nsys_row *st)
{
	struct lane_event	ev;
	uint32_t		t, sid;
	uint64_t		graph = (uint64_t)row_i64(st, GR_GRAPH);
	char			buf[64];

	t = nsys_gpu_work(n, st, &ev, EV_GRAPH);
	if (!hmap_get(&n->graph_name, graph, &sid)) {
		snprintf(buf, sizeof buf, "CUDA graph %llu",
		    (unsigned long long)graph);
		sid = builder_intern(n->b, buf);
		hmap_put(&n->graph_name, graph, sid);
	}
	ev.name = sid;
	builder_event(n->b, t, &ev);
}

/* The GPU activity tables: kernels, copies, memsets, waits, graphs. */
int
nsys_gpu_read(struct nsys *n)
{
	static const struct nsys_table	tables[] = {
		NSYS_TABLE("CUPTI_ACTIVITY_KIND_KERNEL", "kernels", kernel_cols,
		    nsys_kernel_row),
		NSYS_TABLE("CUPTI_ACTIVITY_KIND_MEMCPY", "memcpy", memcpy_cols,
		    nsys_memcpy_row),
		NSYS_TABLE("CUPTI_ACTIVITY_KIND_MEMSET", "memset", memset_cols,
		    nsys_memset_row),
		NSYS_TABLE("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "sync",
		    sync_cols, nsys_sync_row),
		NSYS_TABLE("CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "graphs",
		    graph_cols, nsys_graph_row),
	};

	return nsys_scan_tables(n, tables, sizeof tables / sizeof *tables);
}
