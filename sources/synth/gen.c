/*
 * gen: writes a synthetic, deterministic multi-GPU training trace in the
 * Nsight Systems SQLite export layout (see gen.h for what it looks like).
 *
 * The simulation is a set of ranks, each with a CPU cursor (its main and
 * autograd threads share it: the main thread blocks in backward while the
 * autograd thread runs) and one GPU cursor per stream. An API call occupies
 * the CPU from the cursor on; the GPU work it queues starts after the call
 * returns, after a queue delay, and after the previous work on its stream
 * ends. The CPU usually runs far ahead of the GPU, as eager PyTorch does,
 * until the loss.item() synchronisation at the end of each iteration; the
 * next iteration's data loading leaves the GPU idle for a while.
 *
 * Ranks are coupled only through NCCL collectives. The iteration is cut into
 * segments that end with a collective launch: every rank simulates a segment,
 * then the collective is resolved (it ends a transfer time after the last
 * rank arrives, so early ranks' NCCL kernels wait for the straggler).
 *
 * Rows are not written when they are produced but pushed into one min-heap
 * per table and written in start order once no later row can start before
 * them: after each segment, the smallest CPU cursor over the ranks (and, for
 * NVTX, the start of the oldest open range) is such a bound. The heaps hold
 * about one iteration of rows; nothing else grows with the event count.
 *
 * To hit the requested event count, a first pass runs the same simulation
 * without writing anything and counts: the number of iterations is the most
 * that fit, and the remainder is made up by extra kernel launches (and one
 * extra API call) in the last iteration's optimizer step. The event counts
 * of an iteration depend only on its index, never on random draws.
 *
 * This file checks the options and the target, sets the simulation up and
 * writes the file; the simulation and the tables are in the files it names
 * in gen-int.h (gen-train.c runs it).
 */

#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sources/synth/gen.h"
#include "sources/synth/gen-int.h"
#include "sources/synth/synth.h"
#include "util/xmalloc.h"

static void
write_thread_name(struct gen *g)
{
	sqlite3_stmt	*st;
	uint64_t	 gtid = g->procs[0].gpid | (g->procs[0].pid + 7);

	gen_sql_exec(g, "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF;"
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;");
	gen_sql_exec(g, "BEGIN;");
	gen_sql_exec(g, gen_schema_thread_name);
	gen_enums_write(g);
	gen_meta_export(g);
	st = gen_sql_prep(g, "INSERT INTO TARGET_INFO_SESSION_START_TIME "
	    "VALUES (?, ?, ?, ?)");
	gen_sql_put(g, st, "lssl", (int64_t)UTC_EPOCH,
	    "2026-01-01T00:00:00", "2026-01-01T00:00:00",
	    (int64_t)SESSION_START);
	gen_sql_finish(st);
	st = gen_sql_prep(g, "INSERT INTO NVTX_EVENTS (start, end, eventType, "
	    "text, globalTid, domainId) VALUES (?, NULL, 39, ?, ?, 0)");
	gen_sql_put(g, st, "lsl", (int64_t)SESSION_START + 1000 * US, "worker",
	    (int64_t)gtid);
	gen_sql_finish(st);
	g->first = g->last = SESSION_START + 1000 * US;
}

/* Pragmas, schema, the static tables, the insert statements; leaves a
 * transaction open. */
static int
db_setup(struct gen *g)
{
	gen_sql_exec(g, "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF;"
	    "PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
	    "PRAGMA cache_size = -16384; PRAGMA temp_store = MEMORY;");
	gen_sql_exec(g, "BEGIN;");
	gen_sql_exec(g, gen_schema_training);
	if (gen_plant_on(g, GEN_PLANT_GRAPH_WHOLE))
		gen_sql_exec(g, gen_schema_graph);
	gen_enums_write(g);
	gen_meta_export(g);
	gen_meta_targets(g);
	gen_meta_processes(g);
	gen_strings_write(g);		/* last: write_processes interns */
	gen_rows_prepare(g);
	return (g->failed ? -1 : 0);
}

/* Ranks, processes, ids; resolves automatic options. */
static void
setup(struct gen *g)
{
	struct rank	*r;
	struct proc	*p;
	int		 i, per;

	g->nranks = g->o.gpus;
	g->nprocs = g->o.processes > 0 ? g->o.processes : g->nranks;
	g->ranks = xcalloc((size_t)g->nranks, sizeof *g->ranks);
	g->procs = xcalloc((size_t)g->nprocs, sizeof *g->procs);
	for (i = 0; i < g->nprocs; i++) {
		p = &g->procs[i];
		p->pid = 3140 + 1000 * (uint32_t)i;
		p->gpid = VM_BITS | ((uint64_t)p->pid << 24);
	}
	for (i = 0; i < g->nranks; i++) {
		r = &g->ranks[i];
		r->proc = (int)((int64_t)i * g->nprocs / g->nranks);
		r->local = i - (int)(((int64_t)r->proc * g->nranks +
		    g->nprocs - 1) / g->nprocs);
		p = &g->procs[r->proc];
		r->tid[TH_MAIN] = r->local == 0 ? p->pid :
		    p->pid + TID_MAIN + (uint32_t)r->local;
		r->tid[TH_AUTOGRAD] = p->pid + TID_AUTOGRAD +
		    (uint32_t)r->local;
		r->gtid[TH_MAIN] = p->gpid | r->tid[TH_MAIN];
		r->gtid[TH_AUTOGRAD] = p->gpid | r->tid[TH_AUTOGRAD];
		r->ctx = (uint32_t)i + 1;
		r->stream[S_COMPUTE] = 7 + 8 * (uint32_t)i;
		r->stream[S_NCCL] = 20 + 8 * (uint32_t)i;
		r->stream[S_COPY] = 21 + 8 * (uint32_t)i;
	}

	if (g->o.layers > 0)
		g->layers = g->o.layers;
	else {
		per = (int)(g->o.events / ((uint64_t)g->nranks * 62 * 25));
		g->layers = per < 1 ? 1 : per > 32 ? 32 : per;
	}
	g->nbuckets = (g->layers + 4) / 4;	/* layers + embedding */
	if (g->nbuckets < 2)
		g->nbuckets = 2;
	if (g->nbuckets > 8)
		g->nbuckets = 8;
	if (g->o.straggler == GEN_STRAGGLER_AUTO)
		g->straggler = g->nranks > 1 && !g->o.clean ?
		    g->nranks - 1 : -1;
	else
		g->straggler = g->o.straggler;
	gen_strings_intern_all(g);
}

static void
cleanup(struct gen *g)
{
	int	t;

	for (t = 0; t < T_COUNT; t++) {
		sqlite3_finalize(g->ins[t]);
		free(g->heap[t].v);
	}
	if (g->db != NULL)
		sqlite3_close(g->db);
	xfree_strv(g->strs, g->nstrs);
	free(g->ranks);
	free(g->procs);
	free(g->cause);
}

static int
check_opts(const struct gen_opts *o, char **cause)
{
	if (o->events < 1 || o->events > GEN_MAX_EVENTS) {
		*cause = xasprintf("events must be 1 to %llu",
		    (unsigned long long)GEN_MAX_EVENTS);
		return (-1);
	}
	if (o->gpus < 1 || o->gpus > GEN_MAX_GPUS) {
		*cause = xasprintf("gpus must be 1 to %d", GEN_MAX_GPUS);
		return (-1);
	}
	if (o->processes < 0 || o->processes > o->gpus) {
		*cause = xasprintf("processes must be 0 to %d (the GPUs)",
		    o->gpus);
		return (-1);
	}
	if (o->straggler < GEN_STRAGGLER_AUTO || o->straggler >= o->gpus) {
		*cause = xasprintf("straggler must be a rank below %d",
		    o->gpus);
		return (-1);
	}
	if (!(o->slowdown >= 1.0 && o->slowdown <= 10.0)) {
		*cause = xasprintf("slowdown must be 1 to 10");
		return (-1);
	}
	if ((o->plant & ~(unsigned)GEN_PLANT_ALL) != 0) {
		*cause = xasprintf("unknown plant bits 0x%x",
		    o->plant & ~(unsigned)GEN_PLANT_ALL);
		return (-1);
	}
	if (o->shape != GEN_SHAPE_TRAINING && o->shape != GEN_SHAPE_THREAD_NAME) {
		*cause = xasprintf("unknown shape %d", o->shape);
		return (-1);
	}
	if ((o->quirks & ~(unsigned)GEN_QUIRK_ALL) != 0) {
		*cause = xasprintf("unknown quirk bits 0x%x",
		    o->quirks & ~(unsigned)GEN_QUIRK_ALL);
		return (-1);
	}
	if (o->layers < 0 || o->layers > GEN_MAX_LAYERS) {
		*cause = xasprintf("layers must be 0 to %d", GEN_MAX_LAYERS);
		return (-1);
	}
	return (0);
}

/* Whether path holds a trace this generator wrote. */
static int
is_demo(const char *path)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	const char	*v;
	int		 yes = 0;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(db, "SELECT value FROM "
	    "META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'", -1, &st,
	    NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    (v = (const char *)sqlite3_column_text(st, 0)) != NULL)
			yes = strcmp(v, GEN_PRODUCT_VERSION) == 0;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return (yes);
}

static int
check_target(const char *path, int force, char **cause)
{
	struct stat	sb;

	if (stat(path, &sb) == -1) {
		if (errno == ENOENT)
			return (0);
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (!S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		return (-1);
	}
	if (force || sb.st_size == 0 || is_demo(path))
		return (0);
	*cause = xasprintf("%s: exists and is not a gpulens demo trace; "
	    "refusing to overwrite it", path);
	return (-1);
}

void
gen_opts_default(struct gen_opts *o)
{
	memset(o, 0, sizeof *o);
	o->events = 200000;
	o->gpus = 4;
	o->processes = 0;
	o->seed = 1;
	o->straggler = GEN_STRAGGLER_AUTO;
	o->slowdown = 1.3;
	o->layers = 0;
	o->force = 0;
	o->progress = NULL;
}

int
gen_write_nsys(const char *path, const struct gen_opts *o,
    struct gen_stats *stats, char **cause)
{
	struct gen	 g;
	char		*tmp = NULL;
	int		 fd, rv = -1, t;

	if (check_opts(o, cause) == -1 ||
	    check_target(path, o->force, cause) == -1)
		return (-1);
	memset(&g, 0, sizeof g);
	g.o = *o;
	setup(&g);
	if (o->shape == GEN_SHAPE_TRAINING)
		gen_train_plan(&g);

	if ((fd = synth_tmpfile(path, &tmp)) == -1) {
		g.cause = xasprintf("%s: cannot create a file next to it: %s",
		    path, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	close(fd);
	if (sqlite3_open_v2(tmp, &g.db,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		gen_sql_fail(&g, tmp);
		goto out;
	}
	if (o->shape == GEN_SHAPE_THREAD_NAME)
		write_thread_name(&g);
	else {
		if (db_setup(&g) == -1)
			goto out;
		gen_train_run(&g);
		if (gen_plant_on(&g, GEN_PLANT_SCHED))
			gen_sched_write(&g);
		gen_metrics_write(&g);
		gen_mpi_write(&g);
		gen_meta_analysis(&g);
		if (gen_plant_on(&g, GEN_PLANT_SAMPLES))
			gen_samples_write(&g);
	}
	gen_sql_exec(&g, "COMMIT;");
	if (g.failed)
		goto out;
	for (t = 0; t < T_COUNT; t++) {
		sqlite3_finalize(g.ins[t]);
		g.ins[t] = NULL;
	}
	if (sqlite3_close(g.db) != SQLITE_OK) {
		gen_sql_fail(&g, "close");
		goto out;
	}
	g.db = NULL;
	if (rename(tmp, path) == -1) {
		g.cause = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	if (stats != NULL) {
		memset(stats, 0, sizeof *stats);
		stats->events = g.count;
		stats->kernels = g.rows[T_KERNEL];
		stats->memcpys = g.rows[T_MEMCPY];
		stats->memsets = g.rows[T_MEMSET];
		stats->runtime = g.rows[T_RUNTIME];
		stats->syncs = g.rows[T_SYNC];
		stats->nvtx = g.rows[T_NVTX];
		stats->graphs = g.rows[T_GRAPH];
		stats->replays = g.replays;
		stats->replayed = g.replayed;
		stats->iterations = g.niters;
		stats->layers = g.layers;
		stats->span_ns = g.last - g.first;
		stats->first_ns = g.first;
		stats->train_start = g.train0;
		stats->train_end = g.train1;
	}
	rv = 0;
out:
	if (rv == -1) {
		if (tmp != NULL)
			unlink(tmp);
		*cause = g.cause != NULL ? g.cause :
		    xstrdup("generation failed");
		g.cause = NULL;
	}
	free(tmp);
	cleanup(&g);
	return (rv);
}
