/*
 * nsys-int.h: what the files of the Nsight Systems reader (sources/nsys*.c)
 * share: the reader's state (struct nsys), the columns every GPU activity
 * table has, column access, and the functions each file gives the others,
 * named after their file (nsys_enum_* in nsys-enum.c, nsys_entity_* in
 * nsys-entity.c, ...). The reader's interface is nsys_load() and
 * nsys_probe() in sources/source.h; the database access is nsys-db.h.
 */
#ifndef GPULENS_NSYS_INT_H
#define GPULENS_NSYS_INT_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/col.h"
#include "sources/nsys-db.h"
#include "sources/srcname.h"
#include "util/hmap.h"
#include "util/progress.h"

#define NSYS_PROC_MASK	0xFFFFFFFFFF000000ULL	/* HW, VM and PID bits */
#define NSYS_TID(g)	((uint32_t)((uint64_t)(g) & 0xFFFFFF))
#define NSYS_PID(g)	((uint32_t)(((uint64_t)(g) >> 24) & 0xFFFFFF))
#define NSYS_ROWS_STEP	65536		/* rows between progress reports */
#define NSYS_NENUM	64		/* enum values kept in lookup tables */
#define NSYS_NEVTYPE	1024		/* NVTX event type ids looked up */
#define NSYS_NO_STREAM	0xFFFFFFFFULL	/* streamId of a wait on no stream */

/* Flags cached per pool string: SF_* (srcname.h). */

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

	struct nsys_fetch *fetch;	/* the table readers, once needed */
};

/* The columns every GPU activity table is read with, first in its list; a
 * leading '!' marks a column the table cannot do without. */
enum {
	G_ROWID, G_START, G_END, G_DEV, G_STREAM, G_PID, G_CTX, G_CORR,
	G_NCOMMON
};
#define GPU_COMMON_COLS \
	"!start", "!end", "!deviceId", "!streamId", "globalPid", \
	"contextId", "correlationId"

/*
 * A row of an event table as nsys_scan() hands it to its callback: either
 * the live row of a statement (st), or a copy read by another thread
 * (nsys-fetch.c): each column's storage class and its values as SQLite
 * gives them (integer, real, text), so that both read the same.
 */
struct nsys_val {
	int32_t		 type;		/* SQLITE_INTEGER, ... */
	uint32_t	 len;		/* text bytes */
	int64_t		 i;		/* sqlite3_column_int64() */
	double		 d;		/* sqlite3_column_double() */
	size_t		 off;		/* text in the arena, NUL-terminated */
};
struct nsys_row {
	sqlite3_stmt		*st;	/* the live row, or NULL */
	const struct nsys_val	*v;	/* else the copy */
	const char		*arena;
};

static inline int
row_type(const struct nsys_row *r, int i)
{
	return r->st != NULL ? sqlite3_column_type(r->st, i) : r->v[i].type;
}

static inline int
row_null(const struct nsys_row *r, int i)
{
	return row_type(r, i) == SQLITE_NULL;
}

static inline int64_t
row_i64(const struct nsys_row *r, int i)
{
	return r->st != NULL ? sqlite3_column_int64(r->st, i) : r->v[i].i;
}

static inline uint32_t
row_u32(const struct nsys_row *r, int i)
{
	return (uint32_t)row_i64(r, i);
}

static inline double
row_double(const struct nsys_row *r, int i)
{
	return r->st != NULL ? sqlite3_column_double(r->st, i) : r->v[i].d;
}

/* The callback of nsys_scan(): one row whose times are usable. */
typedef void	nsys_row_fn(struct nsys *, const struct nsys_row *);

/* nsys.c: strings and table scans. */
uint8_t		 nsys_sflags(struct nsys *, uint32_t);
uint32_t	 nsys_text(struct nsys *, sqlite3_stmt *, int);
/* nsys_text() of a row of nsys_scan(). */
uint32_t	 nsys_row_intern(struct nsys *, const struct nsys_row *, int);
struct source_times;
/* A table's time verdict (source.h): 0, or -1 when it stops the load. */
int		 nsys_times_verdict(struct nsys *, const struct source_times *,
		    const char *table);
int		 nsys_scan(struct nsys *, const char *, const char *,
		     const char *const *, size_t, nsys_row_fn *);
/* An event table that nsys_scan_tables() reads with nsys_scan(). */
struct nsys_table {
	const char		*table;
	const char		*phase;		/* the progress phase */
	const char *const	*cols;
	size_t			 ncols;
	nsys_row_fn		*row;
};
#define NSYS_TABLE(table, phase, cols, row) \
	{ (table), (phase), (cols), sizeof (cols) / sizeof *(cols), (row) }
/* nsys_scan() of each table in turn: 0, or -1 at the first that fails. */
int		 nsys_scan_tables(struct nsys *, const struct nsys_table *,
		     size_t);
/* The callback of nsys_scan_rows(): one usable row, and its argument. */
typedef void	nsys_step_fn(struct nsys *, sqlite3_stmt *, void *);
/*
 * Steps st, prepared on table, to its end and finalizes it: row() for each
 * row whose times are usable (source_times_ok() with times[0] the start
 * column, times[1] the end column or -1, times[2] whether a NULL end is
 * usable), progress under phase. The table's time verdict, or -1.
 */
int		 nsys_scan_rows(struct nsys *, sqlite3_stmt *, const char *,
		     const char *, const int [3], nsys_step_fn *, void *);

/*
 * nsys-fetch.c: the threads that read a scan's rows in chunks of rowids,
 * each on its own connection, handed back in rowid order. A chunk's rows
 * are nrows * ncols values (struct nsys_val) and their text in arena.
 */
struct nsys_fetch;
struct nsys_rows {
	const struct nsys_val	*v;
	const char		*arena;
	size_t			 nrows;
};
/* Threads for the table readers (pool_threads()). */
unsigned	 nsys_fetch_threads(void);
/* Whether a table of rowids lo..hi is worth reading in parallel. */
int		 nsys_fetch_worth(int64_t lo, int64_t hi);
struct nsys_fetch *nsys_fetch_new(const char *path, unsigned threads);
void		 nsys_fetch_free(struct nsys_fetch *);
/* Starts a scan of sql ("... WHERE rowid BETWEEN ?1 AND ?2") over rowids
 * lo..hi, ncols result columns; what names the table in errors. db is the
 * reader's connection, which the scanning thread reads on too. */
void		 nsys_fetch_begin(struct nsys_fetch *, sqlite3 *db,
		    const char *sql, int64_t lo, int64_t hi, int ncols,
		    const char *what);
/* The next chunk in rowid order: 1, 0 at the end, -1 with *cause. The
 * chunk stays valid until the next call or nsys_fetch_end(). */
int		 nsys_fetch_next(struct nsys_fetch *, struct nsys_rows *,
		    char **cause);
/* Ends the scan (stops the threads' reads early when not finished). */
void		 nsys_fetch_end(struct nsys_fetch *);
/* Whether a row's times are usable, as source_times_ok(st, 1, 2, 1). */
int		 nsys_row_times_ok(const struct nsys_row *,
		    struct source_times *);
/* *ev zeroed, with the row's rowid, start and end (those columns); a NULL
 * end is an open range (EVF_OPEN) and end -1 an instant: both end at the
 * start. */
void		 nsys_row_event(const struct nsys_row *, struct lane_event *,
		    int rowid, int start, int end);

/* nsys-meta.c: metadata, version, session start. */
int		 nsys_meta_read(struct nsys *);
/* Sets each process's host (TARGET_INFO_SYSTEM_ENV Hostname). */
int		 nsys_entity_hosts(struct nsys *);

/* nsys-enum.c: the ENUM_* tables and the names made from them. */
int		 nsys_enum_read(struct nsys *);
uint32_t	 nsys_enum_copy_name(struct nsys *, int64_t);
uint32_t	 nsys_enum_sync_name(struct nsys *, int64_t);
uint8_t		 nsys_enum_memkind(const struct nsys *,
		    const struct nsys_row *, int);

/* nsys-entity.c: processes, threads, devices and streams. */
int		 nsys_entity_names(struct nsys *);
int		 nsys_entity_devices(struct nsys *);
int		 nsys_entity_streams(struct nsys *);
uint32_t	 nsys_entity_process(struct nsys *, uint64_t);
uint32_t	 nsys_entity_thread(struct nsys *, uint64_t);
uint32_t	 nsys_entity_device(struct nsys *, uint32_t);

/* nsys-track.c: the tracks rows go on, and their names. */
uint64_t	 nsys_track_ctx_key(const struct nsys_row *);
uint64_t	 nsys_track_ctxstream_key(const struct nsys_row *, uint64_t);
uint32_t	 nsys_track_stream(struct nsys *, const struct nsys_row *,
		     uint64_t, uint64_t, int);
uint32_t	 nsys_track_gpu(struct nsys *, const struct nsys_row *);
uint32_t	 nsys_track_cpu(struct nsys *, enum track_type, uint64_t,
		     uint64_t);
void		 nsys_track_names(struct nsys *);

/* nsys-gpu.c, nsys-api.c, nsys-nvtx.c: the event tables. */
int		 nsys_gpu_read(struct nsys *);
int		 nsys_api_read(struct nsys *);
int		 nsys_nvtx_read(struct nsys *);
/* nsys-sched.c: thread scheduling (SCHED_EVENTS) into the model's side
 * table; after the event tables. */
int		 nsys_sched_read(struct nsys *);

/* nsys-sample.c: CPU samples and call chains (after the entities are
 * sorted). */
int		 nsys_sample_read(struct nsys *);

/* nsys-metrics.c: GPU and NIC metrics; nsys-mpi.c: the MPI tables. */
int		 nsys_metrics_read(struct nsys *);
int		 nsys_mpi_read(struct nsys *);

/* nsys-sort.c: entities in source order. */
void		 nsys_sort_entities(struct nsys *);

#endif
