/*
 * gen_test: the demo trace generator (sources/synth/gen.c), checked with plain SQL
 * over the files it writes: the schema against real 2026.x exports, the
 * exact event count, correlation, stream serialisation, NVTX nesting, the
 * NCCL and P2P traffic, the straggler, row order, determinism, the
 * overwrite policy and option checks; and, end to end, that nsys_load()
 * reads back exactly the events the SQL counts.
 *
 * Three traces are written once by the group setup: A and B with the same
 * options (seed 1), C with seed 2. Tests that compare against real exports
 * read $GPULENS_FIXTURES and skip without it.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "sources/synth/gen.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define EVENTS	20000
#define GPUS	4

static char		*path_a, *path_b, *path_c;
static struct gen_stats	 stats_a;
static sqlite3		*db;			/* trace A, read-only */

/* The tables the generator writes that count as events. */
static const char *const event_tables[] = {
	"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
	"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
	"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS",
};

static char	*q_str(sqlite3 *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static sqlite3 *
open_ro(const char *path)
{
	sqlite3	*d;

	assert_int_equal(sqlite3_open_v2(path, &d, SQLITE_OPEN_READONLY,
	    NULL), SQLITE_OK);
	return d;
}

/* The mean duration of the kernels whose short name satisfies name (an SQL
 * condition on it: "= 'k'", "LIKE 'k%'") on the devices whose id is cmp
 * ("=", "<") dev. */
static int64_t
avg_dur(sqlite3 *d, const char *name, const char *cmp, int dev)
{
	return ts_sqlf(d, "SELECT avg(k.end - k.start) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
	    "k.shortName WHERE s.value %s AND k.deviceId %s %d", name, cmp,
	    dev);
}

/* The first column of the first row of sql, as a string (caller frees). */
static char *
q_str(sqlite3 *d, const char *fmt, ...)
{
	sqlite3_stmt	*st;
	va_list		 ap;
	char		*sql, *v;
	const char	*t;

	va_start(ap, fmt);
	sql = xvasprintf(fmt, ap);
	va_end(ap);
	st = ts_sql_prepare(d, sql);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    (t = (const char *)sqlite3_column_text(st, 0)) != NULL)
		v = xstrdup(t);
	else
		v = xstrdup("(null)");
	sqlite3_finalize(st);
	free(sql);
	return v;
}

/* FNV-1a over every row of every table, in name and rowid order. */
static uint64_t
checksum(const char *path)
{
	sqlite3		*d = open_ro(path);
	sqlite3_stmt	*tabs, *st;
	const unsigned char *p;
	uint64_t	 h = 0xcbf29ce484222325ULL;
	char		*sql;
	int		 i, n, j, len;

	tabs = ts_sql_prepare(d, "SELECT name FROM sqlite_master"
	    " WHERE type = 'table' ORDER BY name");
	while (sqlite3_step(tabs) == SQLITE_ROW) {
		sql = xasprintf("SELECT * FROM \"%s\" ORDER BY rowid",
		    sqlite3_column_text(tabs, 0));
		st = ts_sql_prepare(d, sql);
		while (sqlite3_step(st) == SQLITE_ROW) {
			n = sqlite3_column_count(st);
			for (i = 0; i < n; i++) {
				h = (h ^ (uint64_t)sqlite3_column_type(st, i)) *
				    0x100000001b3ULL;
				p = sqlite3_column_text(st, i);
				len = sqlite3_column_bytes(st, i);
				for (j = 0; p != NULL && j < len; j++)
					h = (h ^ p[j]) * 0x100000001b3ULL;
			}
		}
		sqlite3_finalize(st);
		free(sql);
	}
	sqlite3_finalize(tabs);
	sqlite3_close(d);
	return h;
}

static void
generate(const char *path, uint64_t events, int gpus, int procs,
    uint64_t seed, struct gen_stats *st)
{
	struct gen_opts	 o;
	char		*cause = NULL;

	gen_opts_default(&o);
	o.events = events;
	o.gpus = gpus;
	o.processes = procs;
	o.seed = seed;
	if (gen_write_nsys(path, &o, st, &cause) != 0)
		fail_msg("gen_write_nsys %s: %s", path, cause);
	assert_null(cause);
}

static uint64_t
sql_events(sqlite3 *d)
{
	return (uint64_t)ts_sqlf(d,
	    "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL)"
	    " + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY)"
	    " + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET)"
	    " + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME)"
	    " + (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)"
	    " + (SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59)");
}

static int
setup(void **state)
{
	(void)state;
	if (ts_tmp_init() != 0)
		return -1;
	path_a = xasprintf("%s/a.sqlite", ts_tmp());
	path_b = xasprintf("%s/b.sqlite", ts_tmp());
	path_c = xasprintf("%s/c.sqlite", ts_tmp());
	generate(path_a, EVENTS, GPUS, 0, 1, &stats_a);
	generate(path_b, EVENTS, GPUS, 0, 1, NULL);
	generate(path_c, EVENTS, GPUS, 0, 2, NULL);
	db = open_ro(path_a);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	sqlite3_close(db);
	free(path_a);
	free(path_b);
	free(path_c);
	return ts_tmp_free();
}

/* Column lists (name and declared type) as a 2026.2 export has them. */
static void
test_schema(void **state)
{
	static const struct {
		const char	*table, *cols;
	} want[] = {
		{ "CUPTI_ACTIVITY_KIND_RUNTIME", "start INTEGER,end INTEGER,"
		    "eventClass INTEGER,globalTid INTEGER,"
		    "correlationId INTEGER,nameId INTEGER,"
		    "returnValue INTEGER,callchainId INTEGER" },
		{ "CUPTI_ACTIVITY_KIND_MEMSET", "start INTEGER,end INTEGER,"
		    "deviceId INTEGER,contextId INTEGER,greenContextId INTEGER,"
		    "streamId INTEGER,correlationId INTEGER,globalPid INTEGER,"
		    "value INTEGER,bytes INTEGER,graphNodeId INTEGER,"
		    "memKind INTEGER" },
		{ "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "start INTEGER,"
		    "end INTEGER,deviceId INTEGER,contextId INTEGER,"
		    "greenContextId INTEGER,streamId INTEGER,"
		    "correlationId INTEGER,globalPid INTEGER,"
		    "deprecatedSyncType INTEGER,syncType INTEGER,"
		    "eventId INTEGER,eventSyncId INTEGER" },
		{ "StringIds", "id INTEGER,value TEXT" },
		{ "ThreadNames", "nameId INTEGER,priority INTEGER,"
		    "globalTid INTEGER" },
		{ "PROCESSES", "globalPid INTEGER,pid INTEGER,name TEXT" },
		{ "ENUM_CUDA_MEMCPY_OPER", "id INTEGER,name TEXT,label TEXT" },
		{ "TARGET_INFO_SESSION_START_TIME", "utcEpochNs INTEGER,"
		    "utcTime TEXT,localTime TEXT,systemClockNs INTEGER" },
		{ "ANALYSIS_DETAILS", "globalVid INTEGER,duration INTEGER,"
		    "startTime INTEGER,stopTime INTEGER" },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		s = q_str(db, "SELECT group_concat(name || ' ' || type, ',') "
		    "FROM pragma_table_info('%s')", want[i].table);
		assert_string_equal(s, want[i].cols);
		free(s);
	}
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "pragma_table_info('CUPTI_ACTIVITY_KIND_KERNEL')"), 40);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "pragma_table_info('CUPTI_ACTIVITY_KIND_MEMCPY')"), 21);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "pragma_table_info('NVTX_EVENTS')"), 20);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "pragma_table_info('TARGET_INFO_GPU')"), 41);
	s = q_str(db, "SELECT value FROM META_DATA_EXPORT WHERE name = "
	    "'EXPORT_PRODUCT_VERSION'");
	assert_string_equal(s, GEN_PRODUCT_VERSION);
	free(s);
	s = q_str(db, "SELECT value FROM META_DATA_EXPORT WHERE name = "
	    "'EXPORT_SCHEMA_VERSION'");
	assert_string_equal(s, "3.25.0");
	free(s);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM TARGET_INFO_GPU"),
	    GPUS);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "TARGET_INFO_CUDA_STREAM"), 3 * GPUS);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM ENUM_NSYS_EVENT_TYPE"
	    " WHERE (id, name) IN ((59, 'NvtxPushPopRange'),"
	    " (75, 'NvtxDomainCreate'))"), 2);
}

#define COLS_SQL	"SELECT group_concat(name || ' ' || type || ' ' || " \
	"\"notnull\" || ' ' || pk, ',') FROM pragma_table_info('%s')"
#define ROWS_SQL	"SELECT group_concat(id || name || label, '|') FROM " \
	"(SELECT * FROM %s ORDER BY id)"

/* Every table (of only, if not NULL) also in a real export has the same
 * columns, types and NOT NULL flags, and the enums the same rows. Returns
 * how many tables it compared. */
static int
compare_with(sqlite3 *real, int enums, const char *const *only)
{
	sqlite3_stmt	*st;
	const char	*t;
	char		*a, *b;
	int		 compared = 0, i;

	st = ts_sql_prepare(db, "SELECT name FROM "
	    "sqlite_master WHERE type = 'table' ORDER BY name");
	while (sqlite3_step(st) == SQLITE_ROW) {
		t = (const char *)sqlite3_column_text(st, 0);
		for (i = 0; only != NULL && only[i] != NULL; i++) {
			if (strcmp(only[i], t) == 0)
				break;
		}
		if (only != NULL && only[i] == NULL)
			continue;
		if (ts_sqlf(real, "SELECT count(*) FROM sqlite_master WHERE "
		    "name = '%s'", t) == 0)
			continue;
		a = q_str(db, COLS_SQL, t);
		b = q_str(real, COLS_SQL, t);
		if (strcmp(a, b) != 0)
			fail_msg("%s differs:\n gen  %s\n real %s", t, a, b);
		free(a);
		free(b);
		if (enums && strncmp(t, "ENUM_", 5) == 0) {
			a = q_str(db, ROWS_SQL, t);
			b = q_str(real, ROWS_SQL, t);
			assert_string_equal(a, b);
			free(a);
			free(b);
		}
		compared++;
	}
	sqlite3_finalize(st);
	return compared;
}

static void
test_schema_real(void **state)
{
	static const char *const older[] = { "TARGET_INFO_GPU",
	    "TARGET_INFO_CUDA_DEVICE", "TARGET_INFO_CUDA_CONTEXT_INFO", NULL };
	char		*p2026, *pmock;
	sqlite3		*real;

	(void)state;
	p2026 = ts_fixture("nsys/nsys-ai/mfu_2gpu_before.sqlite");
	pmock = ts_fixture("nsys/nsys-ai/mock.sqlite");
	if (p2026 == NULL || pmock == NULL) {
		free(p2026);
		free(pmock);
		ts_skip("GPULENS_FIXTURES unset, or its nsys-ai exports "
		    "missing: schema not compared with real ones");
	}
	real = open_ro(p2026);			/* 2026.2.1, schema 3.25.0 */
	/* Every table we write but the three TARGET_INFO_ ones that this
	 * windowed export lacks. */
	assert_int_equal(compare_with(real, 1, NULL), 23);
	sqlite3_close(real);
	real = open_ro(pmock);			/* 2026.1.1: TARGET_INFO_GPU */
	assert_int_equal(ts_sqlf(real, "SELECT count(*) FROM sqlite_master "
	    "WHERE name = 'TARGET_INFO_GPU'"), 1);
	assert_int_equal(compare_with(real, 0, older), 3);
	sqlite3_close(real);
	free(p2026);
	free(pmock);
}

static void
test_event_count(void **state)
{
	uint64_t	n = sql_events(db);
	/* Each count of the statistics and the rows it counts. */
	const struct {
		uint64_t	 got;
		const char	*rows;
	} counts[] = {
		{ stats_a.kernels, "CUPTI_ACTIVITY_KIND_KERNEL" },
		{ stats_a.memcpys, "CUPTI_ACTIVITY_KIND_MEMCPY" },
		{ stats_a.memsets, "CUPTI_ACTIVITY_KIND_MEMSET" },
		{ stats_a.runtime, "CUPTI_ACTIVITY_KIND_RUNTIME" },
		{ stats_a.syncs, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" },
		{ stats_a.nvtx, "NVTX_EVENTS WHERE eventType = 59" },
	};
	size_t		i;

	(void)state;
	assert_int_equal(n, EVENTS);
	assert_int_equal(stats_a.events, EVENTS);
	for (i = 0; i < sizeof counts / sizeof counts[0]; i++)
		assert_int_equal(counts[i].got, ts_sqlf(db,
		    "SELECT count(*) FROM %s", counts[i].rows));
	assert_true(stats_a.iterations >= 5);
	assert_int_equal(stats_a.span_ns, ts_sqlf(db,
	    "SELECT max(e) - min(s) FROM ("
	    " SELECT start s, end e FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL"
	    " SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL"
	    " SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET UNION ALL"
	    " SELECT start, end FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL"
	    " SELECT start, end FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
	    " UNION ALL SELECT start, end FROM NVTX_EVENTS"
	    " WHERE eventType = 59)"));
	/* One NCCL domain per process, not counted. */
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM NVTX_EVENTS WHERE "
	    "eventType = 75 AND text = 'NCCL' AND end IS NULL"), GPUS);
}

/* Sizes, GPU and process counts: the count is exact above the minimum. */
static void
test_event_count_sizes(void **state)
{
	static const struct {
		uint64_t	events;
		int		gpus, procs;
	} c[] = {
		{ 1000, 4, 0 }, { 1001, 2, 0 }, { 3333, 1, 0 },
		{ 7777, 3, 1 }, { 45679, 8, 2 }, { 60000, 4, 0 },
	};
	struct gen_stats	 st;
	sqlite3			*d;
	char			*p;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		p = xasprintf("%s/size%zu.sqlite", ts_tmp(), i);
		generate(p, c[i].events, c[i].gpus, c[i].procs, 7 + i, &st);
		d = open_ro(p);
		assert_int_equal(sql_events(d), c[i].events);
		assert_int_equal(st.events, c[i].events);
		assert_int_equal(ts_sqlf(d, "SELECT count(*) FROM "
		    "TARGET_INFO_GPU"), c[i].gpus);
		assert_int_equal(ts_sqlf(d, "SELECT count(DISTINCT globalPid) "
		    "FROM CUPTI_ACTIVITY_KIND_KERNEL"),
		    c[i].procs ? c[i].procs : c[i].gpus);
		assert_int_equal(ts_sqlf(d, "SELECT count(DISTINCT deviceId) "
		    "FROM CUPTI_ACTIVITY_KIND_KERNEL"), c[i].gpus);
		sqlite3_close(d);
		unlink(p);
		free(p);
	}
	/* Below the smallest trace, the smallest trace. */
	p = xasprintf("%s/tiny.sqlite", ts_tmp());
	generate(p, 10, 2, 0, 1, &st);
	d = open_ro(p);
	assert_true(st.events > 10);
	assert_int_equal(sql_events(d), st.events);
	assert_int_equal(st.iterations, 1);
	sqlite3_close(d);
	unlink(p);
	free(p);
}

/* Every kernel, copy and memset has exactly one runtime call with its
 * correlation id in its process; kernels start after the call returns. */
static void
test_correlation(void **state)
{
	static const char *const gpu[] = { "CUPTI_ACTIVITY_KIND_KERNEL",
	    "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
	    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" };
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof gpu / sizeof gpu[0]; i++) {
		assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM (SELECT "
		    "g.rowid, count(r.rowid) c FROM %s g LEFT JOIN "
		    "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
		    "g.correlationId AND (r.globalTid & ~16777215) = "
		    "g.globalPid GROUP BY g.rowid) WHERE c <> 1", gpu[i]), 0);
		assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM %s g JOIN "
		    "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
		    "g.correlationId AND (r.globalTid & ~16777215) = "
		    "g.globalPid WHERE r.start > g.start", gpu[i]), 0);
	}
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON"
	    " r.correlationId = k.correlationId AND (r.globalTid & ~16777215) ="
	    " k.globalPid WHERE r.end > k.start"), 0);
	/* Syncs lie inside their API call. */
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y JOIN "
	    "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = y.correlationId"
	    " AND (r.globalTid & ~16777215) = y.globalPid WHERE y.start < "
	    "r.start OR y.end > r.end OR y.end < y.start"), 0);
	/* Correlation ids are unique per process. */
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM (SELECT 1 FROM "
	    "CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY globalTid >> 24, "
	    "correlationId HAVING count(*) > 1)"), 0);
	/* Kernel names resolve, driver launches carry eventClass 1. */
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = "
	    "k.demangledName LEFT JOIN StringIds t ON t.id = k.shortName "
	    "WHERE s.value IS NULL OR t.value IS NULL"), 0);
	assert_true(ts_sqlf(db,
	    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"
	    " r JOIN StringIds s ON s.id = r.nameId WHERE s.value = "
	    "'cuLaunchKernelEx' AND r.eventClass = 1") > 0);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
	    "WHERE s.value LIKE 'cuda%%' AND r.eventClass <> 0"), 0);
}

/* Work on one stream is serial: kernels, copies and memsets. */
static void
test_streams_serial(void **state)
{
	sqlite3_stmt	*st;
	int64_t		 dev = -1, str = -1, prev_end = 0, s, e;
	int		 rows = 0, streams = 0, bad = 0;

	(void)state;
	st = ts_sql_prepare(db, "SELECT deviceId, streamId, "
	    "start, end FROM (SELECT deviceId, streamId, start, end FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT deviceId, streamId, "
	    "start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT "
	    "deviceId, streamId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET) "
	    "ORDER BY 1, 2, 3");
	while (sqlite3_step(st) == SQLITE_ROW) {
		s = sqlite3_column_int64(st, 2);
		e = sqlite3_column_int64(st, 3);
		if (sqlite3_column_int64(st, 0) != dev ||
		    sqlite3_column_int64(st, 1) != str) {
			dev = sqlite3_column_int64(st, 0);
			str = sqlite3_column_int64(st, 1);
			streams++;
		} else if (s < prev_end)
			bad++;
		if (e < s)
			bad++;
		prev_end = e;
		rows++;
	}
	sqlite3_finalize(st);
	assert_int_equal(bad, 0);
	assert_int_equal(streams, 3 * GPUS);	/* compute, NCCL, copy */
	assert_true(rows > EVENTS / 3);
}

/* Push/pop ranges nest on every thread (all domains together). */
static void
test_nvtx_nesting(void **state)
{
	sqlite3_stmt	*st;
	int64_t		 stk[64], tid = -1, s, e;
	int		 depth = 0, maxdepth = 0, bad = 0;

	(void)state;
	st = ts_sql_prepare(db, "SELECT globalTid, start, end"
	    " FROM NVTX_EVENTS WHERE eventType = 59 ORDER BY globalTid, start,"
	    " end DESC");
	while (sqlite3_step(st) == SQLITE_ROW) {
		s = sqlite3_column_int64(st, 1);
		e = sqlite3_column_int64(st, 2);
		if (sqlite3_column_int64(st, 0) != tid) {
			tid = sqlite3_column_int64(st, 0);
			depth = 0;
		}
		while (depth > 0 && stk[depth - 1] <= s)
			depth--;
		if (e < s || (depth > 0 && e > stk[depth - 1]))
			bad++;
		assert_true(depth < 64);
		stk[depth++] = e;
		if (depth > maxdepth)
			maxdepth = depth;
	}
	sqlite3_finalize(st);
	assert_int_equal(bad, 0);
	assert_int_equal(maxdepth, 4);	/* step > forward > layer > attn */
	assert_int_equal(ts_sqlf(db, "SELECT count(DISTINCT text) FROM "
	    "NVTX_EVENTS WHERE text LIKE 'ProfilerStep#%%'"),
	    stats_a.iterations);
	/* NCCL ranges: registered strings in the NCCL domain. */
	assert_true(ts_sqlf(db, "SELECT count(*) FROM NVTX_EVENTS n JOIN "
	    "StringIds s ON s.id = n.textId WHERE n.eventType = 59 AND "
	    "s.value = 'ncclAllReduce' AND n.domainId = (SELECT domainId FROM"
	    " NVTX_EVENTS WHERE eventType = 75 AND text = 'NCCL' LIMIT 1)") >=
	    GPUS * stats_a.iterations);
	/* Backward runs on another thread than forward. */
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM (SELECT DISTINCT "
	    "a.globalTid FROM NVTX_EVENTS a WHERE a.text LIKE "
	    "'layers.%%.backward' AND a.globalTid IN (SELECT globalTid FROM "
	    "NVTX_EVENTS WHERE text = 'forward'))"), 0);
}

static void
test_comm_and_copies(void **state)
{
	(void)state;
	/* NCCL kernels on their own stream, overlapping compute. */
	assert_int_equal(ts_sqlf(db, "SELECT count(DISTINCT k.deviceId) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
	    "k.shortName WHERE s.value = "
	    "'ncclDevKernel_AllReduce_Sum_bf16_RING_LL'"), GPUS);
	assert_int_equal(ts_sqlf(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
	    "k.shortName WHERE s.value LIKE 'nccl%%' AND k.streamId IN "
	    "(SELECT streamId FROM CUPTI_ACTIVITY_KIND_KERNEL k2 JOIN "
	    "StringIds s2 ON s2.id = k2.shortName WHERE s2.value NOT LIKE "
	    "'nccl%%')"), 0);
	assert_true(ts_sqlf(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL n JOIN StringIds s ON s.id = "
	    "n.shortName AND s.value LIKE 'nccl%%' JOIN "
	    "CUPTI_ACTIVITY_KIND_KERNEL c ON c.deviceId = n.deviceId AND "
	    "c.streamId <> n.streamId AND c.start < n.end AND n.start < "
	    "c.end") > 0);
	/* P2P between distinct GPUs, H2D, D2H. */
	assert_true(ts_sqlf(db,
	    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"
	    " WHERE copyKind = 10 AND srcDeviceId <> dstDeviceId AND "
	    "srcDeviceId = deviceId") >= GPUS * stats_a.iterations);
	assert_true(ts_sqlf(db,
	    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"
	    " WHERE copyKind = 1") > 0);
	assert_true(ts_sqlf(db,
	    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"
	    " WHERE copyKind = 2") > 0);
	/* Stream-wait, stream and context synchronisation. */
	assert_int_equal(ts_sqlf(db, "SELECT count(DISTINCT syncType) FROM "
	    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 3);
	/* Idle bubbles: each compute stream idles at least 1 ms per step. */
	assert_true(ts_sqlf(db,
	    "SELECT min(c) FROM (SELECT deviceId, count(*) c"
	    " FROM (SELECT deviceId, start - lag(end) OVER (PARTITION BY "
	    "deviceId, streamId ORDER BY start) gap FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL WHERE streamId %% 8 = 7) WHERE gap > "
	    "1000000 GROUP BY deviceId)") >= stats_a.iterations - 1);
}

/* The last rank is slower; the others' all-reduces wait for it. */
static void
test_straggler(void **state)
{
	int64_t	slow, fast, wait_slow, wait_fast;

	(void)state;
	slow = avg_dur(db, "= 'flash_fwd_kernel'", "=", GPUS - 1);
	fast = avg_dur(db, "= 'flash_fwd_kernel'", "<", GPUS - 1);
	assert_true(slow > fast * 115 / 100);
	assert_true(slow < fast * 145 / 100);
	wait_slow = avg_dur(db, "LIKE 'ncclDevKernel_AllReduce%'", "=",
	    GPUS - 1);
	wait_fast = avg_dur(db, "LIKE 'ncclDevKernel_AllReduce%'", "<",
	    GPUS - 1);
	assert_true(wait_fast > wait_slow * 3 / 2);
	/* A collective ends at about the same time on every rank. */
	assert_true(ts_sqlf(db,
	    "SELECT max(d) FROM (SELECT max(end) - min(end) d"
	    " FROM (SELECT end, row_number() OVER (PARTITION BY deviceId ORDER"
	    " BY start) n FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
	    "ON s.id = k.shortName WHERE s.value LIKE 'nccl%%') GROUP BY n)") <
	    100000);
}

/* Rows are in start order in every table, as real exports are. */
static void
test_sorted(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof event_tables / sizeof event_tables[0]; i++) {
		assert_int_equal(ts_sqlf(db,
		    "SELECT count(*) FROM (SELECT start "
		    "- lag(start) OVER (ORDER BY rowid) d FROM %s) WHERE d < 0",
		    event_tables[i]), 0);
	}
}

static void
test_deterministic(void **state)
{
	char	*a, *b;
	size_t	 la, lb;

	(void)state;
	assert_true(checksum(path_a) == checksum(path_b));
	assert_true(checksum(path_a) != checksum(path_c));
	a = ts_read(path_a, &la);
	b = ts_read(path_b, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

static int
leftovers(void)
{
	char	*cmd;
	int	 rc;

	cmd = xasprintf("ls '%s' | grep -q tmp", ts_tmp());
	rc = system(cmd);
	free(cmd);
	return rc == 0;
}

static void
test_overwrite(void **state)
{
	struct gen_opts	 o;
	char		*p, *cause = NULL;
	FILE		*f;
	size_t		 len;
	char		*buf;

	(void)state;
	gen_opts_default(&o);
	o.events = 2000;
	o.gpus = 2;
	p = xasprintf("%s/precious.txt", ts_tmp());
	ts_write_str(p, "a real profile\n");
	assert_int_equal(gen_write_nsys(p, &o, NULL, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "refusing"));
	free(cause);
	cause = NULL;
	buf = ts_read(p, &len);
	assert_int_equal(len, 15);
	assert_memory_equal(buf, "a real profile\n", 15);
	free(buf);
	o.force = 1;
	assert_int_equal(gen_write_nsys(p, &o, NULL, &cause), 0);
	assert_null(cause);
	o.force = 0;
	assert_int_equal(gen_write_nsys(p, &o, NULL, &cause), 0); /* a demo */
	unlink(p);
	assert_non_null(f = fopen(p, "w"));		/* empty */
	fclose(f);
	assert_int_equal(gen_write_nsys(p, &o, NULL, &cause), 0);
	unlink(p);
	free(p);

	/* A directory, and a missing directory. */
	assert_int_equal(gen_write_nsys(ts_tmp(), &o, NULL, &cause), -1);
	assert_non_null(strstr(cause, "regular"));
	free(cause);
	cause = NULL;
	p = xasprintf("%s/no/such/dir.sqlite", ts_tmp());
	assert_int_equal(gen_write_nsys(p, &o, NULL, &cause), -1);
	assert_non_null(cause);
	free(cause);
	free(p);
	assert_false(leftovers());
}

static void
test_bad_options(void **state)
{
	struct gen_opts	 o;
	char		*p, *cause;
	int		 i;

	(void)state;
	p = xasprintf("%s/bad.sqlite", ts_tmp());
	for (i = 0; i < 8; i++) {
		gen_opts_default(&o);
		switch (i) {
		case 0: o.events = 0; break;
		case 1: o.gpus = 0; break;
		case 2: o.gpus = GEN_MAX_GPUS + 1; break;
		case 3: o.processes = o.gpus + 1; break;
		case 4: o.straggler = o.gpus; break;
		case 5: o.slowdown = 0.5; break;
		case 6: o.layers = GEN_MAX_LAYERS + 1; break;
		case 7: o.straggler = -3; break;
		}
		cause = NULL;
		assert_int_equal(gen_write_nsys(p, &o, NULL, &cause), -1);
		assert_non_null(cause);
		free(cause);
		assert_int_equal(access(p, F_OK), -1);
	}
	free(p);
}

/* Options change what they say they change. */
static void
test_options(void **state)
{
	struct gen_opts	 o;
	struct gen_stats st;
	sqlite3		*d;
	char		*p, *cause = NULL;

	(void)state;
	p = xasprintf("%s/opts.sqlite", ts_tmp());
	gen_opts_default(&o);
	o.events = 30000;
	o.gpus = 2;
	o.layers = 5;
	o.straggler = GEN_STRAGGLER_NONE;
	assert_int_equal(gen_write_nsys(p, &o, &st, &cause), 0);
	assert_int_equal(st.layers, 5);
	d = open_ro(p);
	assert_int_equal(ts_sqlf(d,
	    "SELECT count(DISTINCT text) FROM NVTX_EVENTS"
	    " WHERE text LIKE 'layers.%%.backward'"), 5);
	assert_int_equal(sql_events(d), 30000);
	/* No straggler: flash kernels within a few percent across ranks. */
	assert_true(ts_sqlf(d, "SELECT max(a) * 100 / min(a) FROM (SELECT "
	    "avg(k.end - k.start) a FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
	    "StringIds s ON s.id = k.shortName WHERE s.value = "
	    "'flash_fwd_kernel' GROUP BY deviceId)") < 110);
	sqlite3_close(d);
	unlink(p);

	/* One GPU: no NCCL at all. */
	o.gpus = 1;
	o.layers = 0;
	assert_int_equal(gen_write_nsys(p, &o, &st, &cause), 0);
	d = open_ro(p);
	assert_int_equal(ts_sqlf(d, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
	    "k.shortName WHERE s.value LIKE 'nccl%%'"), 0);
	assert_int_equal(ts_sqlf(d, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 10"), 0);
	assert_int_equal(sql_events(d), 30000);
	sqlite3_close(d);
	unlink(p);
	free(p);
}

/* The reader loads exactly what SQL counts. */
static void
test_nsys_load(void **state)
{
	struct model	*m;
	uint64_t	 k[EV_KIND_COUNT];

	(void)state;
	m = ts_load(nsys_load, path_a);
	assert_int_equal(m->nevents, EVENTS);
	model_count_kinds(m, k);
	assert_int_equal(k[EV_KERNEL], stats_a.kernels);
	assert_int_equal(k[EV_MEMCPY], stats_a.memcpys);
	assert_int_equal(k[EV_MEMSET], stats_a.memsets);
	assert_int_equal(k[EV_API], stats_a.runtime);
	assert_int_equal(k[EV_SYNC], stats_a.syncs);
	assert_int_equal(k[EV_NVTX], stats_a.nvtx);
	assert_int_equal(m->ndevices, GPUS);
	assert_true(m->nprocesses >= GPUS);
	assert_int_equal(m->nstreams, 3 * GPUS);
	assert_non_null(model_meta(m, "EXPORT_PRODUCT_VERSION"));
	assert_string_equal(model_meta(m, "EXPORT_PRODUCT_VERSION"),
	    GEN_PRODUCT_VERSION);
	model_free(m);
}

/*
 * GEN_SHAPE_THREAD_NAME: no CUDA tables, one NvtxThread row naming a thread
 * seen nowhere else. Declaring that thread moved the thread array under
 * the assignment of its name (a crash, exit 139, in every verb); now the
 * thread is loaded with its name and every verb succeeds.
 */
static void
test_thread_name_shape(void **state)
{
	static const char *const verbs[] = {
		"info", "summary", "stats", "gaps", "timeline", "overlap",
		"nvtx", "nvtx --tree", "iters", "search", "launch", "memcpy",
		"comm", "ranks", "hardware", "export --to csv", "phases",
		"window", "findings",
	};
	struct gen_opts	 o;
	struct gen_stats st;
	struct model	*m;
	sqlite3		*d;
	const char	*bin = getenv("GPULENS");
	char		*p, *cmd, *cause = NULL;
	size_t		 i;
	int		 rc;

	(void)state;
	p = xasprintf("%s/thread-name.sqlite", ts_tmp());
	gen_opts_default(&o);
	o.shape = GEN_SHAPE_THREAD_NAME;
	if (gen_write_nsys(p, &o, &st, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	d = open_ro(p);
	assert_int_equal(ts_sqlf(d, "SELECT count(*) FROM sqlite_master WHERE "
	    "name LIKE 'CUPTI%%'"), 0);
	assert_int_equal(ts_sqlf(d, "SELECT count(*) FROM NVTX_EVENTS"), 1);
	assert_int_equal(ts_sqlf(d, "SELECT eventType FROM NVTX_EVENTS"), 39);
	sqlite3_close(d);

	m = ts_load(nsys_load, p);
	assert_int_equal(m->nthreads, 1);
	assert_string_equal(strpool_get(m->strs, m->threads[0].name),
	    "worker");
	assert_int_equal(m->nevents, 0);
	model_free(m);

	if (bin == NULL || access(bin, X_OK) != 0)
		bin = "./gpulens";
	for (i = 0; i < sizeof verbs / sizeof *verbs; i++) {
		cmd = xasprintf("'%s' --no-cache %s '%s' >/dev/null 2>&1", bin,
		    verbs[i], p);
		rc = system(cmd);
		if (rc != 0)
			fail_msg("%s: status %d", cmd, rc);
		free(cmd);
	}
	cmd = xasprintf("'%s' --no-cache diff '%s' '%s' >/dev/null 2>&1", bin,
	    p, p);
	if ((rc = system(cmd)) != 0)
		fail_msg("%s: status %d", cmd, rc);
	free(cmd);
	unlink(p);
	free(p);
}

TS_MAIN(setup, teardown,
	cmocka_unit_test(test_schema),
	cmocka_unit_test(test_schema_real),
	cmocka_unit_test(test_event_count),
	cmocka_unit_test(test_event_count_sizes),
	cmocka_unit_test(test_correlation),
	cmocka_unit_test(test_streams_serial),
	cmocka_unit_test(test_nvtx_nesting),
	cmocka_unit_test(test_comm_and_copies),
	cmocka_unit_test(test_straggler),
	cmocka_unit_test(test_sorted),
	cmocka_unit_test(test_deterministic),
	cmocka_unit_test(test_overwrite),
	cmocka_unit_test(test_bad_options),
	cmocka_unit_test(test_options),
	cmocka_unit_test(test_nsys_load),
	cmocka_unit_test(test_thread_name_shape))
