/*
 * gen-rows: the event tables' insert statements (prepared once, with the
 * columns that never change bound once) and the binding of one row of each
 * kind: kernel, memcpy, memset, runtime API call, synchronisation, NVTX.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sources/synth/gen-int.h"
#include "util/xmalloc.h"

/* The event tables, in enum tbl order, and their column counts. */
static const struct {
	const char	*table;
	int		 ncols;
} tables[T_COUNT] = {
	{ "CUPTI_ACTIVITY_KIND_KERNEL", 40 },
	{ "CUPTI_ACTIVITY_KIND_MEMCPY", 21 },
	{ "CUPTI_ACTIVITY_KIND_MEMSET", 12 },
	{ "CUPTI_ACTIVITY_KIND_RUNTIME", 8 },
	{ "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", 12 },
	{ "NVTX_EVENTS", 20 },
	{ "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", 10 },
};

static sqlite3_stmt *
prepare(struct gen *g, const char *table, int ncols)
{
	sqlite3_stmt	*st;
	char		*sql, *p;
	int		 i;

	sql = xmalloc(strlen(table) + 32 + 3 * (size_t)ncols);
	p = sql + sprintf(sql, "INSERT INTO %s VALUES (", table);
	for (i = 0; i < ncols; i++)
		p += sprintf(p, "%s?", i ? "," : "");
	strcpy(p, ")");
	if (sqlite3_prepare_v2(g->db, sql, -1, &st, NULL) != SQLITE_OK) {
		gen_sql_fail(g, table);
		st = NULL;
	}
	free(sql);
	return (st);
}

/* Binds the columns that never change; bindings survive sqlite3_reset(). */
static void
bind_constants(struct gen *g)
{
	sqlite3_stmt	*st;

	st = g->ins[T_KERNEL];
	BIND(st, 5, 0);				/* greenContextId */
	BIND(st, 12, 1);			/* launchType: regular */
	BIND(st, 13, 1);			/* cacheConfig */
	BIND(st, 23, 0);			/* localMemoryPerThread */
	BIND(st, 36, 1);			/* clusterSchedulingPolicy */
	BINDS(st, 40, "[]");			/* tensorSizeMinusOneElements */
	st = g->ins[T_MEMCPY];
	BIND(st, 5, 0);
	BIND(st, 21, 1);			/* copyCount */
	st = g->ins[T_MEMSET];
	BIND(st, 5, 0);
	BIND(st, 9, 0);				/* value */
	BIND(st, 12, MK_DEVICE);		/* memKind */
	BIND(g->ins[T_RUNTIME], 7, 0);		/* returnValue */
}

static void
bind_gpu_common(struct gen *g, sqlite3_stmt *st, const struct row *rw,
    int stream)
{
	const struct rank	*r = &g->ranks[rw->rank];

	BIND(st, 1, rw->start);
	BIND(st, 2, rw->end);
	BIND(st, 3, rw->rank);			/* deviceId */
	BIND(st, 4, r->ctx);
	BIND(st, 6, r->stream[stream]);
	BIND(st, 7, rw->corr);
	BIND(st, 8, g->procs[r->proc].gpid);
}

static void
write_kernel(struct gen *g, const struct row *rw)
{
	sqlite3_stmt		*st = g->ins[T_KERNEL];
	const struct kdef	*d = &gen_kernel_defs[rw->u.k.k];
	const uint32_t		*sid = g->ksid[rw->u.k.k];

	bind_gpu_common(g, st, rw, rw->u.k.stream);
	BIND(st, 9, sid[1]);
	BIND(st, 10, sid[0]);
	BINDIF(st, 11, sid[2] != UINT32_MAX, sid[2]);
	BIND(st, 14, d->regs);
	BIND(st, 15, d->grid[0]);
	BIND(st, 16, d->grid[1]);
	BIND(st, 17, d->grid[2]);
	BIND(st, 18, d->block[0]);
	BIND(st, 19, d->block[1]);
	BIND(st, 20, d->block[2]);
	BIND(st, 21, d->ssmem);
	BIND(st, 22, d->dsmem);
	BIND(st, 24, d->comm ? 787218432 : 250871808);
	BIND(st, 25, rw->u.k.grid_id);
	BIND(st, 26, d->smem_exec);
	BIND(st, 28, d->dsmem > 49152);		/* sharedMemoryLimitConfig */
	BIND(st, 33, d->cluster);
	BIND(st, 34, d->cluster ? 1 : 0);
	BIND(st, 35, d->cluster ? 1 : 0);
	BIND(st, 37, d->cluster ? 16 : 0);
	BIND(st, 38, d->cluster ? 66 : 0);
	/* graphNodeId, graphId */
	BINDIF(st, 27, rw->u.k.graph != 0, rw->u.k.gnode);
	BINDIF(st, 32, rw->u.k.graph != 0, rw->u.k.graph);
	gen_sql_step(g, st);
}

static void
write_memcpy(struct gen *g, const struct row *rw)
{
	sqlite3_stmt		*st = g->ins[T_MEMCPY];
	const struct rank	*r = &g->ranks[rw->rank];
	int			 peer = rw->u.c.peer >= 0;

	bind_gpu_common(g, st, rw, rw->u.c.stream);
	BIND(st, 9, rw->u.c.bytes);
	BIND(st, 10, rw->u.c.kind);
	BIND(st, 12, rw->u.c.src);
	BIND(st, 13, rw->u.c.dst);
	BINDIF(st, 14, peer, rw->rank);
	BINDIF(st, 15, peer, r->ctx);
	BINDIF(st, 16, peer, rw->u.c.peer);
	BINDIF(st, 17, peer, g->ranks[rw->u.c.peer].ctx);
	gen_sql_step(g, st);
}

static void
write_memset(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_MEMSET];

	bind_gpu_common(g, st, rw, rw->u.s.stream);
	BIND(st, 10, rw->u.s.bytes);
	gen_sql_step(g, st);
}

static void
write_runtime(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_RUNTIME];

	BIND(st, 1, rw->start);
	BIND(st, 2, rw->end);
	BIND(st, 3, gen_api_defs[rw->u.a.api].class);
	BIND(st, 4, g->ranks[rw->rank].gtid[rw->u.a.th]);
	BIND(st, 5, rw->corr);
	BIND(st, 6, g->asid[rw->u.a.api]);
	gen_sql_step(g, st);
}

static void
write_sync(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_SYNC];

	bind_gpu_common(g, st, rw, rw->u.y.stream);
	if (g->o.quirks & GEN_QUIRK_SYNC_DEVICE0)
		BIND(st, 3, 0);
	if ((g->o.quirks & GEN_QUIRK_SYNC_NOSTREAM) &&
	    rw->u.y.type == SY_CONTEXT)
		BIND(st, 6, NO_STREAM);
	BIND(st, 10, rw->u.y.type);
	if (rw->u.y.type == SY_STREAM_WAIT) {
		BIND(st, 11, rw->u.y.event);
		BIND(st, 12, rw->u.y.sync);
	} else {
		BIND(st, 11, NO_EVENT);
		BIND(st, 12, 0);
	}
	gen_sql_step(g, st);
}

static void
write_nvtx(struct gen *g, const struct row *rw)
{
	sqlite3_stmt	*st = g->ins[T_NVTX];
	int		 name = rw->u.n.name;

	BIND(st, 1, rw->start);
	BIND(st, 8, g->ranks[rw->rank].gtid[rw->u.n.th]);
	if (name == NV_DOMAIN_CREATE) {
		BINDN(st, 2);
		BIND(st, 3, 75);		/* NvtxDomainCreate */
		BINDS(st, 7, gen_nvtx_names[name]);
		BINDN(st, 10);
		BIND(st, 11, DOM_NCCL);
	} else if (name >= NV_FIRST_NCCL) {
		BIND(st, 2, rw->end);
		BIND(st, 3, 59);		/* NvtxPushPopRange */
		BINDN(st, 7);
		BIND(st, 10, g->nsid[name]);
		BIND(st, 11, DOM_NCCL);
	} else {
		BIND(st, 2, rw->end);
		BIND(st, 3, 59);
		if (rw->u.n.arg >= 0) {
			snprintf(g->text, sizeof g->text, "%s%d%s",
			    gen_nvtx_names[name], (int)rw->u.n.arg,
			    gen_nvtx_suffix[name] ? gen_nvtx_suffix[name] : "");
			BINDS(st, 7, g->text);
		} else
			BINDS(st, 7, gen_nvtx_names[name]);
		BINDN(st, 10);
		BIND(st, 11, DOM_DEFAULT);
	}
	gen_sql_step(g, st);
}

static void
write_graph(struct gen *g, const struct row *rw)
{
	bind_gpu_common(g, g->ins[T_GRAPH], rw, S_COMPUTE);
	BIND(g->ins[T_GRAPH], 5, 0);
	BIND(g->ins[T_GRAPH], 9, rw->u.k.graph);	/* graphId */
	BIND(g->ins[T_GRAPH], 10, rw->u.k.graph);	/* graphExecId */
	gen_sql_step(g, g->ins[T_GRAPH]);
}

/* The writer of each table's rows. */
static void (*const write_row[T_COUNT])(struct gen *, const struct row *) = {
	[T_KERNEL] = write_kernel,
	[T_MEMCPY] = write_memcpy,
	[T_MEMSET] = write_memset,
	[T_RUNTIME] = write_runtime,
	[T_SYNC] = write_sync,
	[T_NVTX] = write_nvtx,
	[T_GRAPH] = write_graph,
};

void
gen_rows_write(struct gen *g, int t, const struct row *rw)
{
	if (t >= 0 && t < T_COUNT)
		write_row[t](g, rw);
}

/* The insert statements, their constant columns bound. */
void
gen_rows_prepare(struct gen *g)
{
	int	t;

	for (t = 0; t < T_COUNT && !g->failed; t++) {
		if (t == T_GRAPH && !gen_plant_on(g, GEN_PLANT_GRAPH_WHOLE))
			continue;
		g->ins[t] = prepare(g, tables[t].table, tables[t].ncols);
	}
	if (!g->failed)
		bind_constants(g);
}
