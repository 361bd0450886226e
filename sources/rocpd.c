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
 *
 * Files: this one drives the load and scans rows; rocpd-schema.c reads the
 * schema (views, metadata, layout); rocpd-info.c the rocpd_info_* tables;
 * rocpd-track.c finds tracks and devices; rocpd-cpu.c reads regions and
 * samples; rocpd-gpu.c kernel dispatches and memory copies; rocpd-int.h
 * holds the state they share.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "util/progress.h"
#include "util/xmalloc.h"
#include "sources/source.h"
#include "sources/rocpd-int.h"
#include "sources/srcmaps.h"

/* Runs sql, calling row() on each row. */
int
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
int
rocpd_scan_timed(struct rocpd *r, const char *sql, const char *what,
    const char *rel, void (*row)(struct rocpd *, sqlite3_stmt *),
    const char *table, int ts, int te)
{
	int	rc;

	memset(&r->tt, 0, sizeof r->tt);
	r->timed = 1;
	r->tstart = ts;
	r->tend = te;
	rc = rocpd_scan(r, sql, what, rel, row);
	r->timed = 0;
	if (rc != 0)
		return rc;
	return amd_db_times(&r->d, r->b, &r->tt, table);
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

/* Calls fn (hmap_init or hmap_free) on every map of r. */
static void
rocpd_maps(struct rocpd *r, void (*fn)(struct hmap *))
{
	srcmaps(fn, &r->hosts, &r->procs, &r->threads, &r->agents,
	    &r->qnames, &r->snames, &r->symidx, &r->gpu_tracks, &r->cpu_tracks,
	    &r->domains, &r->strs, &r->classes, NULL);
}

static void
rocpd_free(void *p)
{
	struct rocpd	*r = p;

	amd_db_close(&r->d);
	xfree_strv(r->guids, r->nguids);
	rocpd_maps(r, hmap_free);
	free(r->syms);
}

static void
rocpd_init(void *p, struct progress *prog)
{
	struct rocpd	*r = p;

	r->prog = prog;
	rocpd_maps(r, hmap_init);
}

static int
rocpd_read(void *p, struct builder *b)
{
	struct rocpd	*r = p;

	sqlite3_exec(r->d.db, "PRAGMA cache_size = -16384", NULL, NULL, NULL);
	r->b = b;
	r->m = b->m;
	if (rocpd_views(r) != 0 || rocpd_meta(r) != 0)
		return -1;
	rocpd_layout(r);
	rocpd_grouping(r);
	if (rocpd_info(r) != 0 || rocpd_regions(r) != 0 ||
	    rocpd_samples(r) != 0 || rocpd_kernels(r) != 0 ||
	    rocpd_copies(r) != 0)
		return -1;
	rocpd_finish(r);
	return 0;
}

static const struct amd_db_reader rocpd_reader = {
	.source = SOURCE_ROCPD,
	.timing = "rocpd-read",
	.probe = rocpd_probe,
	.not_it = "not a rocprofv3 rocpd database (SQLite database without "
	    "rocpd_metadata and rocpd_* event tables)",
	.init = rocpd_init,
	.read = rocpd_read,
	.free = rocpd_free,
};

struct model *
rocpd_load(const char *path, struct progress *prog, char **cause)
{
	struct rocpd	 r;

	memset(&r, 0, sizeof r);
	return amd_db_load(&rocpd_reader, &r, &r.d, path, prog, cause);
}
