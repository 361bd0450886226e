/*
 * source: format detection and the entry point that turns a path into a
 * model, through the cache when it is valid.
 *
 * Detection is by content, never by extension: SQLite header plus the
 * tables present (nsys: CUPTI_ACTIVITY_KIND_* / NVTX_EVENTS / StringIds),
 * "NVR\0" magic (.ncu-rep), zstd or gzip magic, JSON text, the binary
 * .nsys-rep/.qdrep container.
 *
 * Errors: every failure returns NULL with one line in *cause (caller frees)
 * saying what the file is and what is wrong; the verb layer exits 2.
 */
#ifndef GPULENS_SOURCE_H
#define GPULENS_SOURCE_H

#include <stdint.h>

#include "model/model.h"
#include "util/progress.h"

enum detected {
	DETECT_UNKNOWN = 0,
	DETECT_NSYS_SQLITE,	/* Nsight Systems SQLite export */
	DETECT_NSYS_REP,	/* .nsys-rep / .qdrep binary report */
	DETECT_SQLITE_OTHER,	/* SQLite but not a known schema */
	DETECT_GZIP,
	DETECT_ZSTD,
	DETECT_JSON,
	DETECT_NCU_REP,
	DETECT_EMPTY,
	DETECT_ROCPD,		/* rocprofv3 rocpd SQLite (maybe compressed) */
	DETECT_RPD,		/* rocmProfileData SQLite (maybe compressed) */
	DETECT_ROCPROF_JSON,	/* rocprofv3 JSON (maybe compressed) */
	DETECT_COUNT
};

struct load_opts {
	int		 no_cache;	/* --no-cache: neither read nor write */
	int		 progress;	/* -1 auto (tty), 0 off, 1 on */
	/* Told of the load's phases and rows (progress_watch), from the
	 * thread that loads, or NULL. */
	void		(*watch)(void *, const struct progress *);
	void		*watch_arg;
	/* Nonzero (watch_arg) when the load is given up: the Kineto and
	 * Chrome readers stop where they report progress, SQLite queries
	 * opened on the loading thread are interrupted; or NULL. */
	int		(*stop)(void *);
};

/* Identifies path's format; *what gets a short description (static). */
enum detected	 source_detect(const char *path, const char **what,
		    char **cause);
/* Loads path (through the cache unless opts->no_cache). */
struct model	*source_load(const char *path, const struct load_opts *,
		    char **cause);
/* Loads path bypassing the cache entirely (used by prep and tests). */
struct model	*source_read(const char *path, struct progress *,
		    char **cause);
struct builder;
/*
 * A reader's end: prog done, the read since t0 timed as phase, then the
 * model finished (builder_finish()) and that timed as "finalize".
 */
struct model	*source_finish(struct builder *, struct progress *prog,
		    const char *phase, double t0, char **cause);

/*
 * Opens an SQLite file for reading only, so that no journal, WAL, shm or
 * lock file is ever created next to it: "file:PATH?mode=ro" (PATH
 * percent-encoded) when the file uses a rollback journal or has a
 * write-ahead log with its index (-shm) beside it, whose rows are then
 * read; "immutable=1" for a WAL-mode file without a log (or with an empty
 * one). A log with rows but no index is refused (reading it would create
 * the index). Checks the header magic and that the file is not shorter
 * than its header says first. The connection holds one read transaction
 * from the start (a lock held by a writer is refused here, "database is
 * locked by another process") and a bound on SQLite's work proportional to
 * the file's size (see source_sqlite_errmsg()). Returns the connection
 * (close with sqlite3_close) or NULL with *cause. The connection is opened
 * without SQLite's mutex: use it from one thread only.
 */
struct sqlite3	*source_sqlite_open(const char *path, char **cause);
/*
 * The message for an SQLite error a reader cannot do much about: the work
 * bound tripped (SQLITE_INTERRUPT) or a lock (SQLITE_BUSY); NULL for any
 * other code. The caller frees it.
 */
char		*source_sqlite_errmsg(struct sqlite3 *, int rc);
/* The integer in the first column of the first row of the query fmt (with
 * sqlite3_mprintf()'s conversions, %Q and %w among them): a probe, a count;
 * none if the query fails or gives no row. */
int64_t		 source_sqlite_int(struct sqlite3 *, int64_t none,
		    const char *fmt, ...);

/*
 * The start and end columns of the rows of one table, checked: a row whose
 * start or end is not an integer (text, blob, NULL; a real only when its
 * value is integral), or whose start is after its end, is skipped and
 * counted, and the table gets one warning, or is refused when most of its
 * rows are unusable.
 */
struct source_times {
	uint64_t	 rows;		/* rows checked */
	uint64_t	 notint;	/* start or end not an integer */
	uint64_t	 reversed;	/* start after end */
};
struct sqlite3_stmt;
/* Whether a value of SQLite type type (its value v when a real) is a
 * usable time: an integer, or a real with an integral value in range. */
int		 source_time_value(int type, double v);
/* Checks the current row of st (start and end are column indices; end -1:
 * none; end_null_ok: a NULL end is an open range, usable). 1 usable, 0 to
 * skip (counted in *t). */
int		 source_times_ok(struct sqlite3_stmt *, int start, int end,
		    int end_null_ok, struct source_times *);
/* NULL when every row was usable; else the warning ("N rows of TABLE
 * skipped: start/end not integers"), or with *fatal set the error for a
 * table where more than half the rows are unusable. Caller frees. */
char		*source_times_verdict(const struct source_times *,
		    const char *table, int *fatal);

/* Readers. */
struct model	*nsys_load(const char *path, struct progress *, char **cause);
/* 1 if the open database has Nsight Systems export tables, else 0. */
int		 nsys_probe(struct sqlite3 *);
/* AMD: rocprofv3 rocpd databases (schema 3), rocmProfileData (RPD)
 * files, rocprofv3 JSON. The SQLite readers also take gzip- or
 * zstd-compressed databases (decompressed into the cache). */
struct model	*rocpd_load(const char *path, struct progress *, char **cause);
int		 rocpd_probe(struct sqlite3 *);
struct model	*rpd_load(const char *path, struct progress *, char **cause);
int		 rpd_probe(struct sqlite3 *);
struct model	*rocprof_json_load(const char *path, struct progress *,
		    char **cause);
/* 1 if path (plain, gzip or zstd) is JSON whose first key is
 * "rocprofiler-sdk-tool", else 0. */
int		 rocprof_json_sniff(const char *path);

#endif
