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
 *
 * Threads: a big event table (every nsys_scan()) is read by nsys-fetch.c,
 * one read-only connection per thread, in chunks of rowids; this thread
 * replays the rows into the builder in rowid order, so the model is the
 * same with any number of threads (GPULENS_THREADS, pool_threads()).
 *
 * This file scans the tables and drives the load; the metadata, the
 * enumerations, the entities, the tracks, each kind of event table and the
 * final ordering are in the nsys-*.c files that nsys-int.h lists.
 */
#include "config.h"

#include <sys/types.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-db.h"
#include "sources/nsys-int.h"
#include "sources/source.h"
#include "sources/srcmaps.h"
#include "sources/srcname.h"
#include "util/hmap.h"
#include "util/progress.h"
#include "util/timing.h"
#include "util/xmalloc.h"

/* Schema. */

int
nsys_probe(struct sqlite3 *db)
{
	return source_sqlite_int(db, 0, "SELECT 1 FROM sqlite_master WHERE "
	    "type IN ('table', 'view') AND ("
	    "substr(name, 1, 20) = 'CUPTI_ACTIVITY_KIND_' OR "
	    "name IN ('NVTX_EVENTS', 'OSRT_API') OR "
	    "(name = 'StringIds' AND EXISTS (SELECT 1 FROM sqlite_master "
	    "WHERE name IN ('META_DATA_EXPORT', 'EXPORT_META_DATA', "
	    "'TARGET_INFO_GPU', 'ThreadNames')))) LIMIT 1") != 0;
}

/* Strings. */

/* SF_* flags of pool string sid, computed once. */
uint8_t
nsys_sflags(struct nsys *n, uint32_t sid)
{
	uint8_t		*f = srcname_slot(&n->sflags, &n->sflagscap, sid);
	const char	*s;

	if ((*f & SF_KNOWN) == 0) {
		s = strpool_get(n->m->strs, sid);
		*f = srcname_flags(s, strlen(s), 0);
	}
	return *f;
}

uint32_t
nsys_text(struct nsys *n, sqlite3_stmt *st, int i)
{
	const char	*s = (const char *)sqlite3_column_text(st, i);

	if (s == NULL || *s == '\0')
		return 0;
	return builder_intern_n(n->b, s, (size_t)sqlite3_column_bytes(st, i));
}

/* nsys_scan_rows() once its progress phase is set. */
static int
nsys_scan_steps(struct nsys *n, sqlite3_stmt *st, const char *table,
    const int times[3], nsys_step_fn *row, void *arg)
{
	struct source_times	 tt;
	uint64_t		 rows = 0;
	int			 r;

	memset(&tt, 0, sizeof tt);
	while ((r = nsys_db_step(&n->d, st, table)) == 1) {
		if (source_times_ok(st, times[0], times[1], times[2], &tt))
			row(n, st, arg);
		if ((++rows & (NSYS_ROWS_STEP - 1)) == 0)
			progress_rows(n->prog, rows);
	}
	progress_rows(n->prog, rows);
	sqlite3_finalize(st);
	if (r < 0)
		return -1;
	return nsys_times_verdict(n, &tt, table);
}

int
nsys_scan_rows(struct nsys *n, sqlite3_stmt *st, const char *table,
    const char *phase, const int times[3], nsys_step_fn *row, void *arg)
{
	progress_phase(n->prog, phase, nsys_db_estimate(&n->d, table));
	return nsys_scan_steps(n, st, table, times, row, arg);
}

/* An nsys_scan() callback, for a row stepped on st. */
struct nsys_scan_arg {
	nsys_row_fn	*row;
};

static void
nsys_scan_step(struct nsys *n, sqlite3_stmt *st, void *arg)
{
	const struct nsys_scan_arg	*a = arg;
	struct nsys_row			 rw;

	memset(&rw, 0, sizeof rw);
	rw.st = st;
	a->row(n, &rw);
}

/* The first and last rowid of table (lo > hi when it is empty). */
static int
nsys_rowids(struct nsys *n, const char *table, int64_t *lo, int64_t *hi)
{
	sqlite3_stmt	*st;
	char		*sql;
	int		 r;

	*lo = 1;
	*hi = 0;
	sql = sqlite3_mprintf("SELECT min(rowid), max(rowid) FROM \"%w\"",
	    table);
	st = nsys_db_prepare(&n->d, sql, table);
	sqlite3_free(sql);
	if (st == NULL)
		return -1;
	if ((r = nsys_db_step(&n->d, st, table)) == 1 &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL &&
	    sqlite3_column_type(st, 1) != SQLITE_NULL) {
		*lo = sqlite3_column_int64(st, 0);
		*hi = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return r < 0 ? -1 : 0;
}

/*
 * Replays the rows of a big table read in parallel (nsys-fetch.c), in
 * rowid order: the same rows, in the same order, as stepping sql.
 */
static int
nsys_scan_fetch(struct nsys *n, const char *table, const char *sql,
    int64_t lo, int64_t hi, size_t ncols, nsys_row_fn *row,
    struct source_times *tt)
{
	struct nsys_rows	 rows;
	struct nsys_row		 rw;
	uint64_t		 nrows = 0;
	size_t			 j, w = ncols + 1;
	char			*ranged, *cause = NULL;
	int			 r;

	if (n->fetch == NULL)
		n->fetch = nsys_fetch_new(n->d.path, nsys_fetch_threads());
	ranged = xasprintf("%s WHERE rowid BETWEEN ?1 AND ?2", sql);
	nsys_fetch_begin(n->fetch, n->d.db, ranged, lo, hi, (int)w, table);
	free(ranged);
	memset(&rw, 0, sizeof rw);
	while ((r = nsys_fetch_next(n->fetch, &rows, &cause)) == 1) {
		rw.arena = rows.arena;
		for (j = 0; j < rows.nrows; j++) {
			rw.v = rows.v + j * w;
			if (nsys_row_times_ok(&rw, tt))
				row(n, &rw);
			if ((++nrows & (NSYS_ROWS_STEP - 1)) == 0)
				progress_rows(n->prog, nrows);
		}
	}
	nsys_fetch_end(n->fetch);
	progress_rows(n->prog, nrows);
	if (r < 0) {
		if (n->d.err == NULL)
			n->d.err = cause;
		else
			free(cause);
		return -1;
	}
	return 0;
}

/*
 * Runs a scan: builds the query, reports progress, calls row() for each
 * row with usable times (every table scanned has start and end in columns
 * 1 and 2; a NULL end is an open range). A big table is read in parallel
 * when more than one thread is allowed (nsys-fetch.c); else, and for
 * WITHOUT ROWID tables, the rows are stepped here.
 */
int
nsys_scan(struct nsys *n, const char *table, const char *phase,
    const char *const *cols, size_t ncols, nsys_row_fn *row)
{
	static const int	 times[3] = { 1, 2, 1 };
	struct nsys_scan_arg	 a = { row };
	struct source_times	 tt;
	sqlite3_stmt		*st;
	int64_t			 lo = 1, hi = 0;
	char			*sql;
	int			 r, rowid;

	if (!nsys_db_has(&n->d, table))
		return 0;
	sql = nsys_db_query(&n->d, table, cols, ncols, NULL, NULL, &rowid);
	if (sql == NULL)
		return n->d.err != NULL ? -1 : 0;
	/* The query is checked here, on the reader's connection. */
	st = nsys_db_prepare(&n->d, sql, table);
	if (st == NULL || (rowid && nsys_fetch_threads() > 1 &&
	    nsys_rowids(n, table, &lo, &hi) != 0)) {
		sqlite3_finalize(st);
		sqlite3_free(sql);
		return -1;
	}
	progress_phase(n->prog, phase, rowid && hi > 0 ? (uint64_t)hi :
	    nsys_db_estimate(&n->d, table));
	memset(&tt, 0, sizeof tt);
	if (rowid && nsys_fetch_worth(lo, hi) && nsys_fetch_threads() > 1) {
		sqlite3_finalize(st);
		r = nsys_scan_fetch(n, table, sql, lo, hi, ncols, row, &tt);
		sqlite3_free(sql);
		if (r != 0)
			return -1;
		return nsys_times_verdict(n, &tt, table);
	}
	sqlite3_free(sql);
	/* Start, end, a NULL end usable: as nsys_row_times_ok(). */
	return nsys_scan_steps(n, st, table, times, nsys_scan_step, &a);
}

int
nsys_scan_tables(struct nsys *n, const struct nsys_table *t, size_t nt)
{
	size_t	i;

	for (i = 0; i < nt; i++)
		if (nsys_scan(n, t[i].table, t[i].phase, t[i].cols,
		    t[i].ncols, t[i].row) != 0)
			return -1;
	return 0;
}

/*
 * What a table's times say (source.h): a warning, or an error that stops
 * the load (-1). Returns 0 otherwise.
 */
int
nsys_times_verdict(struct nsys *n, const struct source_times *tt,
    const char *table)
{
	char	*msg;
	int	 fatal;

	if ((msg = source_times_verdict(tt, table, &fatal)) == NULL)
		return 0;
	if (fatal)
		nsys_db_error(&n->d, "%s", msg);
	else
		builder_warn(n->b, "%s", msg);
	free(msg);
	return fatal ? -1 : 0;
}

/* Names of the tracks, and warnings about what was not loaded. */
static void
nsys_finish(struct nsys *n)
{
	size_t		 i, len = 0;
	char		 list[512];
	static const char *const known[] = {
		"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
		"CUPTI_ACTIVITY_KIND_MEMSET",
		"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
		"CUPTI_ACTIVITY_KIND_GRAPH_TRACE",
		"CUPTI_ACTIVITY_KIND_RUNTIME", "OSRT_API", "NVTX_EVENTS",
		"StringIds", "ThreadNames", "PROCESSES", "ProcessStreams",
		"META_DATA_EXPORT", "EXPORT_META_DATA", "META_DATA_CAPTURE",
		"ANALYSIS_DETAILS", "ANALYSIS_FILE", "UnwindMethodType",
		"COMPOSITE_EVENTS",
		"SCHED_EVENTS",
		"GPU_METRICS", "NET_NIC_METRIC", "NET_IB_SWITCH_METRIC",
		"NIC_METRICS", "IB_SWITCH_METRICS", "NIC_ID_MAP",
		"MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS",
		"MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS", "MPI_RANKS",
	};

	nsys_track_names(n);

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

/* Calls fn (hmap_init or hmap_free) on every map of n. */
static void
nsys_maps(struct nsys *n, void (*fn)(struct hmap *))
{
	srcmaps(fn, &n->proc_info, &n->thread_name, &n->stream_prio,
	    &n->stream_name, &n->gpu_streams, &n->ctx_dev, &n->ctxstream_dev,
	    &n->cpu_tracks, &n->graph_name, &n->cat_name, NULL);
}

static void
nsys_free(struct nsys *n)
{
	size_t	i;

	nsys_fetch_free(n->fetch);
	n->fetch = NULL;
	nsys_db_close(&n->d);
	free(n->sflags);
	xfree_strv(n->pnames, n->npnames);
	nsys_maps(n, hmap_free);
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
	if (nsys_meta_read(n) != 0 || nsys_db_strings(&n->d, n->prog) != 0 ||
	    nsys_enum_read(n) != 0 || nsys_entity_names(n) != 0 ||
	    nsys_entity_devices(n) != 0 ||
	    nsys_entity_streams(n) != 0)
		return -1;
	if (nsys_gpu_read(n) != 0 || nsys_api_read(n) != 0 ||
	    nsys_nvtx_read(n) != 0 || nsys_sched_read(n) != 0)
		return -1;
	if (nsys_metrics_read(n) != 0 || nsys_mpi_read(n) != 0)
		return -1;
	nsys_finish(n);
	nsys_sort_entities(n);
	if (nsys_sample_read(n) != 0)
		return -1;
	return nsys_entity_hosts(n);
}

struct model *
nsys_load(const char *path, struct progress *prog, char **cause)
{
	struct nsys	 n;
	double		 t0 = timing_now();
	char		*err;

	memset(&n, 0, sizeof n);
	if (nsys_db_open(&n.d, path, cause) != 0)
		return NULL;
	n.prog = prog;
	nsys_maps(&n, hmap_init);

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
	return source_finish(n.b, prog, "nsys-read", t0, cause);

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
