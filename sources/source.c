/*
 * source: from a path to a model.
 *
 * source_detect() looks at the content, never the name: the first bytes say
 * SQLite, zstd, gzip, JSON, Nsight Compute ("NVR\0") or an Nsight Systems
 * binary report ("NVIDIA Tegra Profiler Report", the header of both .qdrep
 * and .nsys-rep); an SQLite file is then told apart by its tables.
 * source_read() hands the file to its reader. source_load() goes through
 * the cache first (cache.h) and writes it after a successful read; a cache
 * that cannot be written costs a warning in the model, never the load.
 * With GPULENS_TIMING set it reports the phases "cache-read" (a hit),
 * "cache-miss", "read" (the reader, finalize included) and "cache-write".
 * After a read the heap the reader freed is returned to the system
 * (malloc_trim), so that it neither stays resident under the model nor
 * adds to the peak while the cache is written.
 *
 * A binary .nsys-rep/.qdrep report cannot be read directly: when `nsys` is
 * on PATH it is exported (fork and execvp, no shell) to an SQLite file in
 * the cache directory whose name carries the report's identity (reused
 * while the report keeps it; a temporary file under --no-cache); otherwise
 * the error says which command makes the export.
 *
 * SQLite files are always opened through source_sqlite_open(): read-only,
 * so that no journal, WAL or lock file ever appears next to a trace, inside
 * one read transaction (one consistent state; a writer's lock is reported,
 * not read through), with the rows of a write-ahead log when one is beside
 * it, under a bound on SQLite's work, and after a look at the header so
 * that an empty, foreign or truncated file gets one clear line instead of
 * an SQLite error.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "model/cache.h"
#include "model/builder.h"
#include "model/cachedir.h"
#include "sources/chrome.h"
#include "sources/kineto.h"
#include "model/model.h"
#include "sources/ncu.h"
#include "util/progress.h"
#include "sources/refuse.h"
#include "sources/source.h"
#include "sources/sqlz.h"
#include "util/timing.h"
#include "util/tmpreg.h"
#include "util/shquote.h"
#include "util/xmalloc.h"

#define SQLITE_MAGIC	"SQLite format 3"	/* plus its NUL: 16 bytes */
#define NSYS_REP_MAGIC	"NVIDIA Tegra Profiler Report"

static const char *const detected_what[DETECT_COUNT] = {
	"unknown format",
	"Nsight Systems SQLite export",
	"Nsight Systems report (.nsys-rep/.qdrep)",
	"SQLite database of unknown schema",
	"gzip-compressed file",
	"zstd-compressed file",
	"JSON file",
	"Nsight Compute report (.ncu-rep)",
	"empty file",
	"rocprofv3 rocpd SQLite database",
	"rocmProfileData (RPD) SQLite file",
	"rocprofv3 JSON output",
};

/* Reads up to len bytes from the start of path. Returns the count or -1
 * with *cause. Directories and other non-regular files are refused. */
static ssize_t
source_head(const char *path, unsigned char *buf, size_t len, off_t *size,
    char **cause)
{
	struct stat	 sb;
	ssize_t		 got = 0, r;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) == -1) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) {
		*cause = xasprintf("%s: is a directory, not a trace file",
		    path);
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file", path);
		close(fd);
		return -1;
	}
	while ((size_t)got < len) {
		r = read(fd, buf + got, len - (size_t)got);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			*cause = xasprintf("%s: %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		got += r;
	}
	close(fd);
	if (size != NULL)
		*size = sb.st_size;
	return got;
}

static uint32_t
source_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * "file:PATH?QUERY" with PATH percent-encoded where needed (QUERY:
 * "immutable=1" or "mode=ro").
 */
static char *
source_sqlite_uri(const char *path, const char *query)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char	*p;
	char			*uri, *o;
	size_t			 qlen = strlen(query);

	uri = xmalloc(strlen(path) * 3 + sizeof "file://?" + qlen);
	o = uri;
	memcpy(o, "file:", 5);
	o += 5;
	if (*path == '/') {
		/* An empty authority, so that "//x" stays a path. */
		memcpy(o, "//", 2);
		o += 2;
	}
	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' ||
		    *p >= 0x7f) {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		} else
			*o++ = (char)*p;
	}
	*o++ = '?';
	memcpy(o, query, qlen + 1);
	return uri;
}

/* The work bound of one connection (see source_sqlite_bound()). */
struct source_sqlite_guard {
	uint64_t	 ticks, limit;	/* SOURCE_SQLITE_TICK steps each */
	const struct progress *prog;	/* the load's (stopped: interrupt) */
};

/* The progress of the load running on this thread (source_load), so that
 * its SQLite queries stop when it is given up. */
static _Thread_local const struct progress *source_load_prog;

#define SOURCE_SQLITE_TICK	10000		/* VM steps per handler call */
#define SOURCE_SQLITE_BASE	100000000ULL	/* steps any file may take */
#define SOURCE_SQLITE_PERBYTE	200ULL		/* and per byte of file */

static int
source_sqlite_tick(void *arg)
{
	struct source_sqlite_guard	*g = arg;

	/* nonzero: SQLITE_INTERRUPT */
	return ++g->ticks > g->limit || progress_stopped(g->prog);
}

/* Never called: the function carries the guard, freed with the
 * connection. */
static void
source_sqlite_guard_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	(void)argv;
	sqlite3_result_null(ctx);
}

/*
 * Bounds the work SQLite may do on db: a file of size bytes (its WAL
 * included) may take SOURCE_SQLITE_BASE + SOURCE_SQLITE_PERBYTE * size
 * virtual machine steps in all (reading every table of a profile takes
 * about one step per byte), after which every statement is
 * interrupted (SQLITE_INTERRUPT, see source_sqlite_errmsg()). The readers
 * read only real tables, so this is the second line of defence against a
 * view or trigger that never ends. GPULENS_SQLITE_STEPS sets the bound
 * (in steps) instead.
 */
static void
source_sqlite_bound(sqlite3 *db, uint64_t size)
{
	struct source_sqlite_guard	*g;
	const char			*env;
	uint64_t			 steps;
	char				*end;

	steps = SOURCE_SQLITE_BASE;
	if (size > (UINT64_MAX - steps) / SOURCE_SQLITE_PERBYTE)
		steps = UINT64_MAX;
	else
		steps += SOURCE_SQLITE_PERBYTE * size;
	if ((env = getenv("GPULENS_SQLITE_STEPS")) != NULL && *env != '\0') {
		unsigned long long v = strtoull(env, &end, 10);
		if (*end == '\0')
			steps = v;
	}
	g = xcalloc(1, sizeof *g);
	g->limit = steps / SOURCE_SQLITE_TICK;
	g->prog = source_load_prog;
	if (sqlite3_create_function_v2(db, "gpulens_guard", 0, SQLITE_UTF8, g,
	    source_sqlite_guard_fn, NULL, NULL, free) != SQLITE_OK)
		return;		/* g was freed by SQLite */
	sqlite3_progress_handler(db, SOURCE_SQLITE_TICK, source_sqlite_tick,
	    g);
}

int64_t
source_sqlite_int(struct sqlite3 *db, int64_t none, const char *fmt, ...)
{
	sqlite3_stmt	*st = NULL;
	va_list		 ap;
	char		*sql;
	int64_t		 v = none;

	va_start(ap, fmt);
	sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	if (sql != NULL && sqlite3_prepare_v2(db, sql, -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return v;
}

char *
source_sqlite_errmsg(struct sqlite3 *db, int rc)
{
	switch (rc & 0xff) {
	case SQLITE_INTERRUPT:
		return xasprintf("SQLite query exceeded the work bound for a "
		    "file of this size (a view, trigger or query that does "
		    "not end?); refusing the file");
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return xasprintf("database is locked by another process (%s; "
		    "try again once the writer is done)", db != NULL ?
		    sqlite3_errmsg(db) : sqlite3_errstr(rc));
	}
	return NULL;
}

int
source_time_value(int type, double v)
{
	switch (type) {
	case SQLITE_INTEGER:
		return 1;
	case SQLITE_FLOAT:
		return v > -9.2e18 && v < 9.2e18 && (double)(int64_t)v == v;
	}
	return 0;
}

/* Whether column i of the current row is a usable time. */
static int
source_time_col(sqlite3_stmt *st, int i)
{
	int	type = sqlite3_column_type(st, i);

	return source_time_value(type, type == SQLITE_FLOAT ?
	    sqlite3_column_double(st, i) : 0);
}

int
source_times_ok(struct sqlite3_stmt *st, int start, int end, int end_null_ok,
    struct source_times *t)
{
	int	endnull;

	t->rows++;
	endnull = end < 0 || sqlite3_column_type(st, end) == SQLITE_NULL;
	if (!source_time_col(st, start) || (end >= 0 && !(endnull ?
	    end_null_ok : source_time_col(st, end)))) {
		t->notint++;
		return 0;
	}
	if (!endnull && sqlite3_column_int64(st, start) >
	    sqlite3_column_int64(st, end)) {
		t->reversed++;
		return 0;
	}
	return 1;
}

char *
source_times_verdict(const struct source_times *t, const char *table,
    int *fatal)
{
	uint64_t	bad = t->notint + t->reversed;

	*fatal = 0;
	if (bad == 0)
		return NULL;
	if (bad > t->rows / 2) {
		*fatal = 1;
		return xasprintf("%s: %llu of its %llu rows have unusable times "
		    "(%llu with start/end not integers, %llu with start after "
		    "end): refusing a table that is mostly damaged", table,
		    (unsigned long long)bad, (unsigned long long)t->rows,
		    (unsigned long long)t->notint,
		    (unsigned long long)t->reversed);
	}
	if (t->reversed == 0)
		return xasprintf("%llu rows of %s skipped: start/end not "
		    "integers", (unsigned long long)bad, table);
	if (t->notint == 0)
		return xasprintf("%llu rows of %s skipped: start after end",
		    (unsigned long long)bad, table);
	return xasprintf("%llu rows of %s skipped: %llu with start/end not "
	    "integers, %llu with start after end", (unsigned long long)bad,
	    table, (unsigned long long)t->notint,
	    (unsigned long long)t->reversed);
}

/* Whether path exists; its size in *size. */
static int
source_exists(const char *path, off_t *size)
{
	struct stat	sb;

	if (stat(path, &sb) != 0)
		return 0;
	*size = sb.st_size;
	return 1;
}

/*
 * How to open path so that SQLite sees all its committed rows and creates
 * nothing next to it: "mode=ro" (read-only, under the writers' locks) or
 * "immutable=1" (no locks, no look at a WAL). NULL with *cause when the
 * file cannot be read that way. *walsize gets the WAL's size (0: none).
 */
static const char *
source_sqlite_mode(const char *path, const unsigned char *hdr,
    off_t *walsize, char **cause)
{
	char	*wal, *shm;
	off_t	 shmsize;
	int	 haswal, hasshm;

	wal = xasprintf("%s-wal", path);
	shm = xasprintf("%s-shm", path);
	*walsize = 0;
	haswal = source_exists(wal, walsize);
	hasshm = source_exists(shm, &shmsize);
	if (!haswal)
		*walsize = 0;
	free(shm);
	if (hdr[18] != 2 && hdr[19] != 2 && !haswal) {
		/* Rollback journal: a reader takes a shared lock, no file. */
		free(wal);
		return "mode=ro";
	}
	/*
	 * WAL mode. A read-only connection reads the log through its index
	 * (-shm); without one, SQLite would create it (or the -wal) next to
	 * the trace. No log, or one without frames (its 32-byte header
	 * only), holds nothing the file lacks: read the file alone.
	 */
	if (!haswal || (*walsize <= 32 && !hasshm)) {
		free(wal);
		return "immutable=1";
	}
	if (hasshm) {
		free(wal);
		return "mode=ro";
	}
	*cause = xasprintf("%s: its write-ahead log %s holds changes that "
	    "cannot be read without creating %s-shm beside it; merge the log "
	    "into the database first (sqlite3 %s 'PRAGMA "
	    "wal_checkpoint(TRUNCATE)') or copy both files elsewhere", path,
	    wal, path, path);
	free(wal);
	return NULL;
}

struct sqlite3 *
source_sqlite_open(const char *path, char **cause)
{
	unsigned char	 hdr[100];
	ssize_t		 got;
	off_t		 size, walsize;
	uint64_t	 psize, npages;
	sqlite3		*db = NULL;
	const char	*mode;
	char		*uri, *why;
	int		 rc;

	if ((got = source_head(path, hdr, sizeof hdr, &size, cause)) < 0)
		return NULL;
	if (got == 0) {
		*cause = xasprintf("%s: empty file", path);
		return NULL;
	}
	if (got < 16 || memcmp(hdr, SQLITE_MAGIC, 16) != 0) {
		*cause = xasprintf("%s: not an SQLite database", path);
		return NULL;
	}
	if (got < (ssize_t)sizeof hdr) {
		*cause = xasprintf("%s: truncated SQLite database (%lld bytes, "
		    "shorter than its header)", path, (long long)size);
		return NULL;
	}
	/* The page count at 28 is valid when 24 and 92 agree (3.7.0+). */
	psize = (uint64_t)hdr[16] << 8 | hdr[17];
	if (psize == 1)
		psize = 65536;
	npages = source_be32(hdr + 28);
	if (psize < 512 || (psize & (psize - 1)) != 0) {
		*cause = xasprintf("%s: corrupt SQLite database (page size "
		    "%llu in its header)", path, (unsigned long long)psize);
		return NULL;
	}
	if (npages != 0 && source_be32(hdr + 24) == source_be32(hdr + 92) &&
	    psize * npages > (uint64_t)size) {
		*cause = xasprintf("%s: truncated SQLite database (%lld bytes, "
		    "its header says %llu)", path, (long long)size,
		    (unsigned long long)(psize * npages));
		return NULL;
	}
	if ((mode = source_sqlite_mode(path, hdr, &walsize, cause)) == NULL)
		return NULL;

	/*
	 * NOMUTEX: a connection belongs to the one thread that opened it,
	 * and without the per-call mutex a scan costs about a sixth less.
	 */
	uri = source_sqlite_uri(path, mode);
	rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		*cause = xasprintf("%s: cannot open as SQLite: %s", path,
		    db != NULL ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return NULL;
	}
	source_sqlite_bound(db, (uint64_t)size + (uint64_t)walsize);

	/*
	 * One read transaction for the life of the connection: every query
	 * sees the same committed state, and a writer's lock is found here
	 * rather than halfway through the tables.
	 */
	sqlite3_busy_timeout(db, 250);
	rc = sqlite3_exec(db, "BEGIN; SELECT count(*) FROM sqlite_master",
	    NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		if ((why = source_sqlite_errmsg(db, rc)) != NULL) {
			*cause = xasprintf("%s: %s", path, why);
			free(why);
		} else if ((rc & 0xff) == SQLITE_NOTADB ||
		    (rc & 0xff) == SQLITE_CORRUPT)
			*cause = xasprintf("%s: corrupt SQLite database (%s)",
			    path, sqlite3_errmsg(db));
		else
			*cause = xasprintf("%s: cannot read as SQLite: %s",
			    path, sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* What an open SQLite database is, by its tables. */
static enum detected
source_sqlite_kind(sqlite3 *db)
{
	if (nsys_probe(db))
		return DETECT_NSYS_SQLITE;
	if (rocpd_probe(db))
		return DETECT_ROCPD;
	if (rpd_probe(db))
		return DETECT_RPD;
	return DETECT_SQLITE_OTHER;
}

/* What a compressed SQLite database is (decompressed into the cache,
 * where its reader finds it again); d if it cannot be told. */
static enum detected
source_zsqlite_kind(const char *path, enum detected d, char **cause)
{
	sqlite3	*db;
	char	*plain;

	if ((plain = sqlz_plain(path, cause)) == NULL)
		return d;
	if ((db = source_sqlite_open(plain, cause)) != NULL) {
		d = source_sqlite_kind(db);
		sqlite3_close(db);
	}
	/* A copy no reader wants is not kept in the cache. */
	if ((db == NULL || d == DETECT_SQLITE_OTHER) && strcmp(plain, path) != 0)
		unlink(plain);
	free(plain);
	return d;
}

enum detected
source_detect(const char *path, const char **what, char **cause)
{
	unsigned char	 buf[64];
	const char	*dummy;
	ssize_t		 got, i;
	sqlite3		*db;
	enum detected	 d = DETECT_UNKNOWN;

	if (what == NULL)
		what = &dummy;
	*what = detected_what[DETECT_UNKNOWN];
	if ((got = source_head(path, buf, sizeof buf, NULL, cause)) < 0)
		return DETECT_UNKNOWN;

	if (got == 0)
		d = DETECT_EMPTY;
	else if (got >= 16 && memcmp(buf, SQLITE_MAGIC, 16) == 0) {
		if ((db = source_sqlite_open(path, cause)) == NULL)
			return DETECT_UNKNOWN;
		d = source_sqlite_kind(db);
		sqlite3_close(db);
	} else if ((size_t)got >= strlen(NSYS_REP_MAGIC) &&
	    memcmp(buf, NSYS_REP_MAGIC, strlen(NSYS_REP_MAGIC)) == 0)
		d = DETECT_NSYS_REP;
	else if (got >= 4 && memcmp(buf, "NVR\0", 4) == 0)
		d = DETECT_NCU_REP;
	else if ((got >= 2 && buf[0] == 0x1f && buf[1] == 0x8b) ||
	    (got >= 4 && buf[0] == 0x28 && buf[1] == 0xb5 &&
	    buf[2] == 0x2f && buf[3] == 0xfd)) {
		d = buf[0] == 0x1f ? DETECT_GZIP : DETECT_ZSTD;
		if (sqlz_is_sqlite(path))
			d = source_zsqlite_kind(path, d, cause);
		else if (rocprof_json_sniff(path))
			d = DETECT_ROCPROF_JSON;
	} else {
		i = 0;
		if (got >= 3 && buf[0] == 0xef && buf[1] == 0xbb &&
		    buf[2] == 0xbf)
			i = 3;		/* UTF-8 byte order mark */
		while (i < got && (buf[i] == ' ' || buf[i] == '\t' ||
		    buf[i] == '\n' || buf[i] == '\r'))
			i++;
		if (i < got && (buf[i] == '{' || buf[i] == '['))
			d = rocprof_json_sniff(path) ? DETECT_ROCPROF_JSON :
			    DETECT_JSON;
	}
	*what = detected_what[d];
	return d;
}

/* The command that exports report path by hand, for messages. */
static char *
source_export_hint(const char *path)
{
	const char	*dot, *slash;
	char		*out, *qo, *qp, *hint;
	size_t		 base;

	dot = strrchr(path, '.');
	slash = strrchr(path, '/');
	if (dot != NULL && (slash == NULL || dot > slash) &&
	    (strcmp(dot, ".nsys-rep") == 0 || strcmp(dot, ".qdrep") == 0))
		base = (size_t)(dot - path);
	else
		base = strlen(path);
	out = xasprintf("%.*s.sqlite", (int)base, path);
	qo = shquote(out);
	qp = shquote(path);
	hint = xasprintf("nsys export --type sqlite --output %s %s", qo, qp);
	free(out);
	free(qo);
	free(qp);
	return hint;
}

/* Full path of an executable named name found on PATH, or NULL. */
static char *
source_which(const char *name)
{
	const char	*path = getenv("PATH"), *p, *colon;
	char		*cand;
	struct stat	 sb;
	size_t		 len;

	if (path == NULL || *path == '\0')
		return NULL;
	for (p = path; ; p = colon + 1) {
		colon = strchr(p, ':');
		len = colon != NULL ? (size_t)(colon - p) : strlen(p);
		if (len == 0)
			cand = xasprintf("./%s", name);
		else
			cand = xasprintf("%.*s/%s", (int)len, p, name);
		if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (colon == NULL)
			return NULL;
	}
}

/* Runs argv (argv[0] a path) with stdio on /dev/null; its exit status, or
 * -1 with errno set if it could not be run. */
static int
source_run(char *const argv[])
{
	pid_t	pid;
	int	status, fd;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* Exports the .nsys-rep/.qdrep report path with nsys and loads the export. */
static struct model *
source_nsys_rep(const char *path, struct progress *prog, char **cause)
{
	struct cachedir_ident	 id;
	struct stat		 out;
	struct model		*m;
	char			*nsys, *hint, *sq, *tmp, *why = NULL;
	char			*argv[10];
	int			 rc;

	hint = source_export_hint(path);
	if ((nsys = source_which("nsys")) == NULL) {
		*cause = xasprintf("%s: Nsight Systems report: gpulens reads "
		    "its SQLite export and nsys is not on PATH to make one; "
		    "run: %s", path, hint);
		free(hint);
		return NULL;
	}
	if (cachedir_ident(path, &id, cause) != 0)
		goto fail;
	/* The export's name carries the report's identity. */
	if ((sq = cachedir_derived(path, &id, ".sqlite", &why)) == NULL) {
		*cause = xasprintf("%s: no place to write its SQLite export "
		    "(%s); run: %s", path, why != NULL ? why : "no cache "
		    "directory", hint);
		free(why);
		goto fail;
	}

	if (!cachedir_usable(sq)) {
		tmp = xasprintf("%s%s%ld.sqlite", sq, TMPREG_TAG,
		    (long)getpid());
		tmpreg_add(tmp);
		argv[0] = nsys;
		argv[1] = (char *)"export";
		argv[2] = (char *)"--type";
		argv[3] = (char *)"sqlite";
		argv[4] = (char *)"--force-overwrite";
		argv[5] = (char *)"true";
		argv[6] = (char *)"--output";
		argv[7] = tmp;
		argv[8] = (char *)path;
		argv[9] = NULL;
		progress_phase(prog, "nsys export", 0);
		rc = source_run(argv);
		if (rc != 0 || lstat(tmp, &out) != 0 || !S_ISREG(out.st_mode)) {
			if (rc == -1)
				*cause = xasprintf("%s: cannot run %s: %s; "
				    "run: %s", path, nsys, strerror(errno),
				    hint);
			else
				*cause = xasprintf("%s: nsys export failed "
				    "(exit status %d); run: %s", path, rc,
				    hint);
			tmpreg_discard(tmp);
			free(tmp);
			free(sq);
			goto fail;
		}
		if (rename(tmp, sq) == -1) {
			*cause = xasprintf("%s: cannot rename %s: %s", path,
			    tmp, strerror(errno));
			tmpreg_discard(tmp);
			free(tmp);
			free(sq);
			goto fail;
		}
		tmpreg_forget(tmp);
		free(tmp);
		cachedir_derived_made(sq);
	}
	m = nsys_load(sq, prog, cause);
	free(sq);
	free(nsys);
	free(hint);
	return m;

fail:
	free(nsys);
	free(hint);
	return NULL;
}

/* An Nsight Systems export, plain or gzip/zstd-compressed (then read from
 * its decompressed copy in the cache directory, as the AMD databases are). */
static struct model *
source_nsys_sqlite(const char *path, struct progress *prog, char **cause)
{
	struct model	*m;
	char		*plain;

	if ((plain = sqlz_plain(path, cause)) == NULL)
		return NULL;
	m = nsys_load(plain, prog, cause);
	free(plain);
	return m;
}

struct model *
source_read(const char *path, struct progress *prog, char **cause)
{
	const char	*what;
	char		*why = NULL;
	enum detected	 d;

	d = source_detect(path, &what, &why);
	if (why != NULL) {
		*cause = why;
		return NULL;
	}
	switch (d) {
	case DETECT_NSYS_SQLITE:
		return source_nsys_sqlite(path, prog, cause);
	case DETECT_NSYS_REP:
		return source_nsys_rep(path, prog, cause);
	case DETECT_ROCPD:
		return rocpd_load(path, prog, cause);
	case DETECT_RPD:
		return rpd_load(path, prog, cause);
	case DETECT_ROCPROF_JSON:
		return rocprof_json_load(path, prog, cause);
	case DETECT_JSON:
	case DETECT_GZIP:
	case DETECT_ZSTD:
		switch (kineto_probe(path, &why)) {
		case 1:
			switch (chrome_probe(path, &why)) {
			case 1:
				return chrome_load(path, prog, cause);
			case -1:
				*cause = why;
				return NULL;
			}
			return kineto_load(path, prog, cause);
		case -1:
			*cause = why;
			return NULL;
		}
		if (ncu_detect(path) != NCU_NONE) {
			*cause = refuse_report(path, ncu_detect(path) ==
			    NCU_CSV);
			return NULL;
		}
		*cause = xasprintf("%s: %s: not a PyTorch profiler (Kineto) "
		    "or Chrome trace (no traceEvents near its start), and no "
		    "other reader for this format yet", path, what);
		return NULL;
	case DETECT_EMPTY:
		*cause = xasprintf("%s: empty file", path);
		return NULL;
	case DETECT_SQLITE_OTHER:
		*cause = refuse_sqlite(path);
		return NULL;
	case DETECT_NCU_REP:
		*cause = refuse_report(path, 0);
		return NULL;
	case DETECT_UNKNOWN:
		if (ncu_detect(path) == NCU_CSV) {
			*cause = refuse_report(path, 1);
			return NULL;
		}
		*cause = xasprintf("%s: unknown file format (not an Nsight "
		    "Systems SQLite export or report)", path);
		return NULL;
	default:
		*cause = xasprintf("%s: %s: no reader for this format yet",
		    path, what);
		return NULL;
	}
}

/*
 * Gives the memory the reader freed (its SQLite page cache, hash maps,
 * sort buffers) back to the system. glibc keeps freed heap pages mapped, so
 * without this they would stay resident under the model for the life of the
 * process and add to the peak while the cache is written.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOURCE_ASAN	1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SOURCE_ASAN	1
#endif

static void
source_trim(void)
{
	/* Not under AddressSanitizer: its allocator replaces glibc's, whose
	 * arenas malloc_trim() would walk uninitialised (a crash when loads
	 * run on several threads). */
#if defined(__GLIBC__) && !defined(SOURCE_ASAN)
	malloc_trim(0);
#endif
}

struct model *
source_load(const char *path, const struct load_opts *opts, char **cause)
{
	struct cachedir_ident	 id, after;
	struct progress		 prog;
	struct model		*m = NULL;
	char			*why = NULL;
	int			 no_cache = opts != NULL && opts->no_cache;
	int			 hit = 0, have_id = 0;
	double			 t0;

	if (cachedir_get_mode() == CACHEDIR_OFF)
		no_cache = 1;
	progress_init(&prog, opts != NULL ? opts->progress : -1);
	if (opts != NULL) {
		progress_watch(&prog, opts->watch, opts->watch_arg);
		progress_stop_fn(&prog, opts->stop);
	}
	/* The identity of the file that is about to be read: what a cache
	 * must match, and what a new cache is stamped with. */
	if (!no_cache && cachedir_ident(path, &id, NULL) == 0)
		have_id = 1;
	if (have_id) {
		t0 = timing_now();
		progress_note(&prog, "reading its cache");
		hit = cache_load_ident(path, &id, &m, &why);
		if (hit == 1 && m != NULL) {
			timing_report("cache-read", t0);
			free(why);
			return m;
		}
		timing_report("cache-miss", t0);
		m = NULL;
	}

	t0 = timing_now();
	progress_note(&prog, "reading the trace");
	source_load_prog = prog.stop != NULL ? &prog : NULL;
	m = source_read(path, &prog, cause);
	source_load_prog = NULL;
	progress_done(&prog);
	timing_report("read", t0);
	if (m == NULL) {
		free(why);
		return NULL;
	}
	source_trim();
	if (hit == -1)
		model_warn(m, "cache not used: %s", why != NULL ? why :
		    "unreadable");
	free(why);
	why = NULL;

	if (have_id) {
		/* A trace replaced or rewritten while it was read: what was
		 * read may be either capture, so nothing is stamped. */
		if (cachedir_ident(path, &after, NULL) != 0 ||
		    !cachedir_ident_eq(&id, &after)) {
			model_warn(m, "cache not written: the trace changed "
			    "while it was read");
			return m;
		}
		t0 = timing_now();
		progress_note(&prog, "writing its cache");
		if (cache_save_ident(path, &id, m, &why) != 0)
			model_warn(m, "cache not written: %s", why != NULL ?
			    why : "unknown error");
		free(why);
		timing_report("cache-write", t0);
	}
	return m;
}

struct model *
source_finish(struct builder *b, struct progress *prog, const char *phase,
    double t0, char **cause)
{
	struct model	*m;

	progress_done(prog);
	timing_report(phase, t0);
	t0 = timing_now();
	m = builder_finish(b, cause);
	timing_report("finalize", t0);
	return m;
}
