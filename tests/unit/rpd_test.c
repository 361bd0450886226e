/*
 * rpd_test: the rocmProfileData (RPD) reader, on the real files in
 * $GPULENS_FIXTURES/rocpd/rocmProfileData (one of them gzipped, as
 * published) checked against plain SQL over the same files, and on a small
 * RPD database this test writes with the rpd_tracer DDL to reach every
 * mapping rule (op types, markers, HSA and profiler calls, graph
 * launches, several processes, an op linked to two calls).
 *
 * The SQL side never uses the reader's code: counts and kernel time per
 * name come from GROUP BY queries over rocpd_op, rocpd_api, rocpd_string,
 * rocpd_api_ops and rocpd_kernelapi.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
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
#include <zlib.h>

#include "model/correlate.h"
#include "util/hmap.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

struct fixture {
	const char	*name;
	char		*path;		/* as given to the reader */
	char		*plain;		/* an uncompressed copy for SQL */
	struct model	*m;
	sqlite3		*db;
};

static struct fixture	 fx[] = {
	{ "matmul_result.rpd", NULL, NULL, NULL, NULL },
	{ "mytrace.rpd.gz", NULL, NULL, NULL, NULL },
};
#define NFX	(sizeof fx / sizeof *fx)

static int	 have_fixtures;

/* ---- helpers ------------------------------------------------------- */

static void
need_fixtures(void)
{
	if (!have_fixtures)
		ts_skip("GPULENS_FIXTURES unset or without "
		    "rocpd/rocmProfileData: skipping the fixture tests");
}

/* The event with kind and SQLite rowid on a track of type, or NULL. */
struct rowmap {
	struct hmap	 h;		/* rowid -> gid */
};

static void
rowmap_build(struct rowmap *rm, const struct model *m, int track_type)
{
	size_t	t, i;

	hmap_init(&rm->h);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != track_type)
			continue;
		for (i = 0; i < l->n; i++)
			hmap_put(&rm->h, (uint64_t)lane_rowid(l, i),
			    model_gid(m, (uint32_t)t, (uint32_t)i));
	}
}

/* ---- real files ---------------------------------------------------- */

static void
test_fixtures_load(void **state)
{
	size_t	i;

	(void)state;
	need_fixtures();
	for (i = 0; i < NFX; i++) {
		assert_non_null(fx[i].m);
		assert_int_equal(fx[i].m->source, SOURCE_RPD);
		assert_string_equal(model_str(fx[i].m,
		    fx[i].m->schema_version), "2");
		assert_int_equal(fx[i].m->ndevices, 1);
		assert_string_equal(model_str(fx[i].m,
		    fx[i].m->devices[0].vendor), "AMD");
	}
}

/* Event counts per kind against SQL. */
static void
test_fixture_counts(void **state)
{
	size_t	i;

	(void)state;
	need_fixtures();
	for (i = 0; i < NFX; i++) {
		sqlite3 *db = fx[i].db;
		const struct model *m = fx[i].m;
		int64_t markers;

		assert_int_equal(m->kind_count[EV_KERNEL], ts_sql_int(db,
		    "SELECT count(*) FROM rocpd_op O JOIN rocpd_string S ON "
		    "S.id = O.opType_id WHERE S.string IN ('KernelExecution', "
		    "'Task')"));
		assert_int_equal(m->kind_count[EV_MEMCPY], ts_sql_int(db,
		    "SELECT count(*) FROM rocpd_op O JOIN rocpd_string S ON "
		    "S.id = O.opType_id WHERE S.string LIKE 'Copy%'"));
		assert_int_equal(m->kind_count[EV_MEMSET], ts_sql_int(db,
		    "SELECT count(*) FROM rocpd_op O JOIN rocpd_string S ON "
		    "S.id = O.opType_id WHERE S.string LIKE 'Fill%'"));
		markers = ts_sql_int(db, "SELECT count(*) FROM rocpd_api A "
		    "JOIN rocpd_string S ON S.id = A.apiName_id WHERE S.string "
		    "= 'UserMarker'");
		assert_int_equal(m->kind_count[EV_NVTX] +
		    m->kind_count[EV_MARK], markers);
		assert_int_equal(m->kind_count[EV_API] +
		    m->kind_count[EV_OVERHEAD] + markers, ts_sql_int(db,
		    "SELECT count(*) FROM rocpd_api"));
		assert_int_equal(m->kind_count[EV_OVERHEAD], ts_sql_int(db,
		    "SELECT count(*) FROM rocpd_api A JOIN rocpd_string S ON "
		    "S.id = A.apiName_id WHERE S.string LIKE '%::writeRows' "
		    "OR S.string IN ('rpdflush', 'hcc_activity_callback')"));
		/* Real OS pids and tids. */
		assert_int_equal(m->nprocesses, ts_sql_int(db,
		    "SELECT count(DISTINCT pid) FROM rocpd_api"));
		assert_int_equal(m->processes[0].pid, ts_sql_int(db,
		    "SELECT min(pid) FROM rocpd_api"));
		assert_int_equal(m->nthreads, ts_sql_int(db,
		    "SELECT count(*) FROM (SELECT DISTINCT pid, tid FROM "
		    "rocpd_api)"));
	}
	/* The numbers PROVENANCE.md gives for these files. */
	ts_kind_counts(fx[0].m, "kernel=29 memcpy=55 memset=1");
	assert_int_equal(fx[1].m->kind_count[EV_KERNEL], 1228 + 7720);
	assert_int_equal(fx[1].m->kind_count[EV_MEMCPY], 804 + 350 + 22);
	assert_int_equal(fx[1].m->kind_count[EV_NVTX], 11884);
}

/* Kernel count and time per name against SQL. */
static void
test_fixture_kernel_time(void **state)
{
	sqlite3_stmt	*st;
	size_t		 i, t, j, nrows;
	int64_t		 sum_model, sum_sql;

	(void)state;
	need_fixtures();
	for (i = 0; i < NFX; i++) {
		const struct model *m = fx[i].m;
		st = ts_sql_prepare(fx[i].db,
		    "SELECT coalesce(nullif(D.string, ''), KN.string, "
		    "T.string), count(*), sum(O.end - O.start) FROM rocpd_op O "
		    "JOIN rocpd_string T ON T.id = O.opType_id JOIN "
		    "rocpd_string D ON D.id = O.description_id LEFT JOIN "
		    "rocpd_api_ops X ON X.op_id = O.id LEFT JOIN "
		    "rocpd_kernelapi K ON K.api_ptr_id = X.api_id LEFT JOIN "
		    "rocpd_string KN ON KN.id = K.kernelName_id WHERE "
		    "T.string IN ('KernelExecution', 'Task') GROUP BY 1");
		nrows = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)
			    sqlite3_column_text(st, 0);
			size_t n = 0;
			sum_model = 0;
			sum_sql = sqlite3_column_int64(st, 2);
			for (t = 0; t < m->ntracks; t++) {
				const struct lane *l = &m->tracks[t].lane;
				for (j = 0; j < l->n; j++) {
					if (l->kind[j] != EV_KERNEL ||
					    strcmp(model_str(m, l->name[j]),
					    name) != 0)
						continue;
					n++;
					sum_model += l->end[j] - l->start[j];
				}
			}
			assert_int_equal(n, sqlite3_column_int64(st, 1));
			assert_int_equal(sum_model, sum_sql);
			nrows++;
		}
		sqlite3_finalize(st);
		assert_true(nrows > 10);
	}
}

/* Every op with a launching call links to exactly that call. */
static void
test_fixture_correlation(void **state)
{
	struct rowmap	 ops, apis;
	sqlite3_stmt	*st;
	size_t		 i, n;
	uint32_t	 g, a;

	(void)state;
	need_fixtures();
	for (i = 0; i < NFX; i++) {
		const struct model *m = fx[i].m;
		rowmap_build(&ops, m, TRACK_GPU);
		rowmap_build(&apis, m, TRACK_API);
		st = ts_sql_prepare(fx[i].db,
		    "SELECT op_id, api_id FROM rocpd_api_ops");
		n = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			assert_true(hmap_get(&ops.h, (uint64_t)
			    sqlite3_column_int64(st, 0), &g));
			assert_true(hmap_get(&apis.h, (uint64_t)
			    sqlite3_column_int64(st, 1), &a));
			assert_int_equal(correlate_launch(m, g), a);
			n++;
		}
		sqlite3_finalize(st);
		assert_int_equal(n, ts_sql_int(fx[i].db,
		    "SELECT count(*) FROM rocpd_api_ops"));
		hmap_free(&ops.h);
		hmap_free(&apis.h);
	}
}

/* Copy bytes per direction against rocpd_copyapi. */
static void
test_fixture_copies(void **state)
{
	const struct copy_info	*c;
	size_t			 i;
	uint64_t		 h2d, d2h;
	uint32_t		 g;

	(void)state;
	need_fixtures();
	for (i = 0; i < NFX; i++) {
		const struct model *m = fx[i].m;
		h2d = d2h = 0;
		for (g = ts_next(m, EV_MEMCPY, 0); g != NONE32;
		    g = ts_next(m, EV_MEMCPY, g + 1)) {
			c = ts_copy_of(m, g);
			if (c->kind == COPY_HTOD)
				h2d += c->bytes;
			if (c->kind == COPY_DTOH)
				d2h += c->bytes;
		}
		assert_int_equal(h2d, ts_sql_int(fx[i].db, "SELECT "
		    "coalesce(sum(Y.size), 0) FROM rocpd_op O JOIN rocpd_string "
		    "T ON T.id = O.opType_id JOIN rocpd_api_ops X ON "
		    "X.op_id = O.id JOIN rocpd_copyapi Y ON Y.api_ptr_id = "
		    "X.api_id WHERE T.string = 'CopyHostToDevice'"));
		assert_int_equal(d2h, ts_sql_int(fx[i].db, "SELECT "
		    "coalesce(sum(Y.size), 0) FROM rocpd_op O JOIN rocpd_string "
		    "T ON T.id = O.opType_id JOIN rocpd_api_ops X ON "
		    "X.op_id = O.id JOIN rocpd_copyapi Y ON Y.api_ptr_id = "
		    "X.api_id WHERE T.string = 'CopyDeviceToHost'"));
	}
	assert_int_equal(ts_has_warning(fx[1].m, "rocpd_monitor: 81"), 1);
}

static void
test_fixture_detect_gz(void **state)
{
	const char	*what;
	char		*cause = NULL, *cache;
	struct stat	 sb;

	(void)state;
	need_fixtures();
	assert_int_equal(source_detect(fx[1].path, &what, &cause), DETECT_RPD);
	assert_null(cause);
	assert_int_equal(source_detect(fx[0].path, &what, &cause), DETECT_RPD);
	/* The decompressed copy is in the cache, never beside the file. */
	cache = xasprintf("%s/xdg/gpulens", ts_tmp());
	assert_int_equal(stat(cache, &sb), 0);
	free(cache);
	cache = xasprintf("%s.sqlite", fx[1].path);
	assert_int_not_equal(stat(cache, &sb), 0);
	free(cache);
}

/* ---- a written RPD ------------------------------------------------- */

static const char *const rpd_ddl =
	"CREATE TABLE rocpd_string (id integer NOT NULL PRIMARY KEY"
	" AUTOINCREMENT, string varchar(4096) NOT NULL);"
	"CREATE TABLE rocpd_op (id integer NOT NULL PRIMARY KEY AUTOINCREMENT,"
	" gpuId integer NOT NULL, queueId integer NOT NULL, sequenceId integer"
	" NOT NULL, completionSignal varchar(18) NOT NULL, start integer NOT"
	" NULL, end integer NOT NULL, description_id integer NOT NULL,"
	" opType_id integer NOT NULL);"
	"CREATE TABLE rocpd_api (id integer NOT NULL PRIMARY KEY"
	" AUTOINCREMENT, pid integer NOT NULL, tid integer NOT NULL, start"
	" integer NOT NULL, end integer NOT NULL, apiName_id integer NOT NULL,"
	" args_id integer NOT NULL);"
	"CREATE TABLE rocpd_api_ops (id integer NOT NULL PRIMARY KEY"
	" AUTOINCREMENT, api_id integer NOT NULL, op_id integer NOT NULL);"
	"CREATE TABLE rocpd_kernelcodeobject (id integer NOT NULL PRIMARY KEY"
	" AUTOINCREMENT, vgpr integer NOT NULL, sgpr integer NOT NULL, fbar"
	" integer NOT NULL);"
	"CREATE TABLE rocpd_kernelapi (api_ptr_id integer NOT NULL PRIMARY"
	" KEY, stream varchar(18) NOT NULL, gridX integer NOT NULL, gridY"
	" integer NOT NULL, gridZ integer NOT NULL, workgroupX integer NOT"
	" NULL, workgroupY integer NOT NULL, workgroupZ integer NOT NULL,"
	" groupSegmentSize integer NOT NULL, privateSegmentSize integer NOT"
	" NULL, kernelArgAddress varchar(18) NOT NULL, aquireFence varchar(8)"
	" NOT NULL, releaseFence varchar(8) NOT NULL, codeObject_id integer"
	" NOT NULL, kernelName_id integer NOT NULL);"
	"CREATE TABLE rocpd_copyapi (api_ptr_id integer NOT NULL PRIMARY KEY,"
	" stream varchar(18) NOT NULL, size integer NOT NULL, width integer"
	" NOT NULL, height integer NOT NULL, kind integer NOT NULL, dst"
	" varchar(18) NOT NULL, src varchar(18) NOT NULL, dstDevice integer"
	" NOT NULL, srcDevice integer NOT NULL, sync bool NOT NULL, pinned"
	" bool NOT NULL);"
	"CREATE TABLE rocpd_metadata (id integer NOT NULL PRIMARY KEY"
	" AUTOINCREMENT, tag varchar(4096) NOT NULL, value varchar(4096) NOT"
	" NULL);"
	"INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version',"
	" '2'), ('session_count', '1');";

/* Ids with a session number in the upper bits, as rpd_tracer writes. */
#define SID(n)	(4294967296LL + (n))

static char *
write_rpd(void)
{
	static const char *const strs[] = {
		"", "KernelExecution", "CopyHostToDevice", "FillBuffer",
		"BarrierAnd", "Task", "WeirdOp", "hipLaunchKernel",
		"hipMemcpyAsync", "hsa_signal_wait_scacquire", "UserMarker",
		"rpdflush", "my_kernel", "graph_node_kernel",
		"step", "tick", "hipGraphLaunch", "hipMemsetAsync",
		"rcclAllReduce", "ncclDevKernel_Generic",
	};
	sqlite3	*db;
	char	*p = xasprintf("%s/synthetic.rpd", ts_tmp());
	size_t	 i;

	unlink(p);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "%s", rpd_ddl);
	/* String ids 101.. */
	for (i = 0; i < sizeof strs / sizeof *strs; i++)
		ts_sql(db, "INSERT INTO rocpd_string (id, string) VALUES "
		    "(%d, %Q)", (int)(101 + i), strs[i]);
	ts_sql(db, "INSERT INTO rocpd_kernelcodeobject VALUES (9, 48, 20, 0)");
	/* Process 100 (threads 100, 101) and process 200 (thread 200). */
	ts_sql(db, "INSERT INTO rocpd_api VALUES "
	    /* a launch with an empty op description: kernelapi's name */
	    "(%lld, 100, 100, 1000, 2000, 108, 101), "
	    /* a copy */
	    "(%lld, 100, 100, 3000, 4000, 109, 101), "
	    /* an HSA call, the profiler's flush */
	    "(%lld, 100, 101, 5000, 6000, 110, 101), "
	    "(%lld, 100, 101, 7000, 8000, 112, 101), "
	    /* a roctx range and a mark (start == end) */
	    "(%lld, 100, 100, 500, 90000, 111, 115), "
	    "(%lld, 100, 100, 95000, 95000, 111, 116), "
	    /* a graph launch of two kernels, in process 200 */
	    "(%lld, 200, 200, 10000, 11000, 117, 101), "
	    /* a memset; an RCCL call */
	    "(%lld, 200, 200, 12000, 13000, 118, 101), "
	    "(%lld, 200, 200, 14000, 15000, 119, 101)",
	    SID(1), SID(2), SID(3), SID(4), SID(5), SID(6), SID(7), SID(8),
	    SID(9));
	ts_sql(db, "INSERT INTO rocpd_op VALUES "
	    "(%lld, 0, 0, 0, '', 20000, 30000, 101, 102), "
	    "(%lld, 0, 1, 0, '', 31000, 32000, 101, 103), "
	    "(%lld, 1, 0, 0, '', 40000, 41000, 114, 106), "
	    "(%lld, 1, 0, 0, '', 41000, 43000, 114, 106), "
	    "(%lld, 1, 0, 0, '', 44000, 45000, 101, 104), "
	    "(%lld, 1, 0, 0, '', 46000, 47000, 101, 105), "
	    "(%lld, 1, 2, 0, '', 48000, 49000, 101, 107), "
	    "(%lld, 1, 2, 0, '', 50000, 60000, 120, 102)",
	    SID(1), SID(2), SID(3), SID(4), SID(5), SID(6), SID(7), SID(8));
	ts_sql(db, "INSERT INTO rocpd_api_ops (api_id, op_id) VALUES "
	    "(%lld, %lld), (%lld, %lld), (%lld, %lld), (%lld, %lld), "
	    "(%lld, %lld), (%lld, %lld), (%lld, %lld)",
	    SID(1), SID(1), SID(2), SID(2), SID(7), SID(3), SID(7), SID(4),
	    SID(8), SID(6), SID(9), SID(8),
	    /* op 4 is linked twice; the first link (the graph) wins */
	    SID(9), SID(4));
	ts_sql(db, "INSERT INTO rocpd_kernelapi VALUES (%lld, '0x0', 4, 2, 1, "
	    "256, 1, 1, 512, 8, '0x0', '', '', 9, 113)", SID(1));
	ts_sql(db, "INSERT INTO rocpd_copyapi VALUES (%lld, '0x0', 4096, 0, 0, "
	    "1, '0x1', '0x2', 0, 0, 0, 1)", SID(2));
	sqlite3_close(db);
	return p;
}

static void
test_synthetic(void **state)
{
	struct model	*m;
	char		*p;
	uint32_t	 g, a;
	const uint32_t	*launched;
	struct evref	 r;
	const struct kernel_info *k;
	const struct copy_info *c;

	(void)state;
	p = write_rpd();
	m = ts_load(rpd_load, p);

	assert_int_equal(m->nprocesses, 2);
	assert_int_equal(m->nthreads, 3);
	/* Kernels: the launch (named by kernelapi), two graph nodes, the
	 * RCCL kernel and the unknown op type. */
	assert_int_equal(m->kind_count[EV_KERNEL], 5);
	assert_int_equal(ts_count(m, EV_KERNEL, "my_kernel"), 1);
	assert_int_equal(ts_count(m, EV_KERNEL, "graph_node_kernel"), 2);
	assert_int_equal(ts_count(m, EV_KERNEL, "WeirdOp"), 1);
	assert_true(ts_has_warning(m, "1 ops of unknown types (such as "
	    "\"WeirdOp\")"));
	ts_kind_counts(m, "memcpy=1 memset=1 sync=1 nvtx=1 mark=1 overhead=1 "
	    "api=6");
	assert_int_not_equal(ts_find(m, EV_NVTX, "step"), NONE32);
	assert_int_not_equal(ts_find(m, EV_MARK, "tick"), NONE32);

	g = ts_find(m, EV_KERNEL, "my_kernel");
	k = ts_kernel_of(m, g);
	assert_int_equal(k->grid[0], 4);
	assert_int_equal(k->grid[1], 2);
	assert_int_equal(k->block[0], 256);
	assert_int_equal(k->regs, 48);
	assert_int_equal(k->local_mem, 8);
	a = correlate_launch(m, g);
	assert_string_equal(model_str(m, model_ev_name(m, a)),
	    "hipLaunchKernel");

	/* The graph launch links to both of its kernels. */
	a = ts_find(m, EV_API, "hipGraphLaunch");
	assert_int_equal(correlate_gpu(m, a, &launched), 2);

	g = ts_find(m, EV_MEMCPY, "CopyHostToDevice");
	r = model_ev(m, g);
	c = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(c->kind, COPY_HTOD);
	assert_int_equal(c->bytes, 4096);
	assert_int_equal(c->src_kind, MEM_PINNED);

	g = ts_find(m, EV_API, "hsa_signal_wait_scacquire");
	r = model_ev(m, g);
	assert_true(m->tracks[r.track].lane.flags[r.idx] & EVF_DRIVER);
	g = ts_find(m, EV_KERNEL, "ncclDevKernel_Generic");
	r = model_ev(m, g);
	assert_true(m->tracks[r.track].lane.flags[r.idx] & EVF_COMM);
	assert_int_equal(m->processes[m->tracks[r.track].process].pid, 200);
	g = ts_find(m, EV_API, "rcclAllReduce");
	r = model_ev(m, g);
	assert_true(m->tracks[r.track].lane.flags[r.idx] & EVF_COMM);
	/* The barrier waits on its queue's sync track. */
	g = ts_find(m, EV_SYNC, "BarrierAnd");
	assert_int_equal(m->tracks[model_ev(m, g).track].type, TRACK_SYNC);
	model_free(m);
	free(p);
}

static void
test_truncated_gz(void **state)
{
	char		*p, *gz, *cut, *cause = NULL, buf[65536];
	gzFile		 out;
	FILE		*in, *f;
	size_t		 n;
	struct stat	 sb;

	(void)state;
	p = write_rpd();
	gz = xasprintf("%s/whole.rpd.gz", ts_tmp());
	assert_non_null(in = fopen(p, "rb"));
	assert_non_null(out = gzopen(gz, "wb"));
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		gzwrite(out, buf, (unsigned)n);
	fclose(in);
	gzclose(out);
	/* The whole file loads; half of it is a clear error. */
	assert_non_null(in = fopen(gz, "rb"));
	assert_int_equal(stat(gz, &sb), 0);
	n = fread(buf, 1, sizeof buf, in);
	fclose(in);
	cut = xasprintf("%s/cut.rpd.gz", ts_tmp());
	assert_non_null(f = fopen(cut, "wb"));
	fwrite(buf, 1, n / 2, f);
	fclose(f);
	assert_null(rpd_load(cut, NULL, &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, cut));
	assert_non_null(strstr(cause, "truncated"));
	free(cause);
	cause = NULL;
	/* Compressed text is not a database. */
	assert_non_null(out = gzopen(cut, "wb"));
	gzputs(out, "hello, world\n");
	gzclose(out);
	ts_refused(rpd_load, cut, "gzip-compressed, but not an SQLite "
	    "database");
	free(p);
	free(gz);
	free(cut);
}

static void
test_not_rpd(void **state)
{
	(void)state;
	ts_sql_refused(rpd_load, "CREATE TABLE rocpd_string (id, string)",
	    "not a rocmProfileData");
}

/*
 * A view named like a table the reader reads is refused, naming it, before
 * its query runs: a recursive view never ends.
 */
static void
test_view_refused(void **state)
{
	sqlite3	*db;
	char	*p, *cause = NULL;

	(void)state;
	p = write_rpd();
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "ALTER TABLE rocpd_op RENAME TO op_data");
	ts_sql(db, "CREATE VIEW rocpd_op AS WITH RECURSIVE c(x) AS (SELECT 1 "
	    "UNION ALL SELECT x + 1 FROM c) SELECT x AS id, 0 AS gpuId, "
	    "0 AS queueId, x AS start, x + 1 AS end, 101 AS description_id, "
	    "102 AS opType_id FROM c");
	sqlite3_close(db);
	ts_refused(rpd_load, p, "rocpd_op is a view, not a table");
	cause = NULL;
	assert_null(source_read(p, NULL, &cause));
	assert_non_null(strstr(cause, "rocpd_op is a view"));
	free(cause);
	free(p);
}

/*
 * Ops and calls whose start or end is text or a blob, or whose start is
 * after their end, used to load as times of 0: they are skipped, counted
 * in one warning per table; a table where most rows are so is refused.
 */
static void
test_bad_times(void **state)
{
	struct model	*m;
	sqlite3		*db;
	char		*p;

	(void)state;
	p = write_rpd();
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	/* The launch's kernel (op 1), the graph's kernel op 4, the fill. */
	ts_sql(db, "UPDATE rocpd_op SET start = 'early' WHERE id = %lld",
	    SID(1));
	ts_sql(db, "UPDATE rocpd_op SET end = x'00' WHERE id = %lld", SID(4));
	ts_sql(db, "UPDATE rocpd_op SET start = end + 5 WHERE id = %lld",
	    SID(5));
	/* The HSA call. */
	ts_sql(db, "UPDATE rocpd_api SET end = 'never' WHERE id = %lld",
	    SID(3));
	sqlite3_close(db);
	m = ts_load(rpd_load, p);
	assert_int_equal(m->kind_count[EV_KERNEL], 3);
	assert_int_equal(ts_count(m, EV_KERNEL, "my_kernel"), 0);
	assert_int_equal(ts_count(m, EV_KERNEL, "graph_node_kernel"), 1);
	assert_int_equal(m->kind_count[EV_MEMSET], 0);	/* op 5 */
	assert_int_equal(m->kind_count[EV_SYNC], 1);
	assert_int_equal(m->kind_count[EV_API], 5);
	assert_true(ts_has_warning(m, "3 rows of rocpd_op skipped: 2 with "
	    "start/end not integers, 1 with start after end"));
	assert_true(ts_has_warning(m, "1 rows of rocpd_api skipped: "
	    "start/end not integers"));
	/* The smallest start of what is left. */
	assert_int_equal(m->origin_ns, 500);
	model_free(m);

	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "UPDATE rocpd_op SET start = 'x'");
	sqlite3_close(db);
	ts_refused(rpd_load, p,
	    "rocpd_op: 8 of its 8 rows have unusable times");
	free(p);
}

/* ---- setup --------------------------------------------------------- */

/* A plain copy of path (decompressed with zlib) for the SQL side. */
static char *
plain_copy(const char *path, const char *name)
{
	char	*out = xasprintf("%s/sql-%s.sqlite", ts_tmp(), name);
	char	 buf[65536];
	gzFile	 in;
	FILE	*f;
	int	 n;

	if ((in = gzopen(path, "rb")) == NULL) {
		free(out);
		return NULL;
	}
	f = fopen(out, "wb");
	while (f != NULL && (n = gzread(in, buf, sizeof buf)) > 0)
		fwrite(buf, 1, (size_t)n, f);
	gzclose(in);
	if (f != NULL)
		fclose(f);
	return out;
}

static int
group_setup(void **state)
{
	const char	*env = ts_fixtures();
	struct stat	 sb;
	size_t		 i;

	(void)state;
	if (ts_tmp_init_cache() != 0)
		return -1;
	if (env == NULL)
		return 0;
	have_fixtures = 1;
	for (i = 0; i < NFX; i++) {
		fx[i].path = xasprintf("%s/rocpd/rocmProfileData/%s", env,
		    fx[i].name);
		if (stat(fx[i].path, &sb) != 0) {
			have_fixtures = 0;
			continue;
		}
		fx[i].m = ts_try_load(rpd_load, fx[i].path);
		/* gzopen reads plain files as they are. */
		fx[i].plain = plain_copy(fx[i].path, fx[i].name);
		if (fx[i].plain == NULL || sqlite3_open_v2(fx[i].plain,
		    &fx[i].db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
			have_fixtures = 0;
	}
	return 0;
}

static int
group_teardown(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < NFX; i++) {
		model_free(fx[i].m);
		sqlite3_close(fx[i].db);
		free(fx[i].path);
		free(fx[i].plain);
	}
	return ts_tmp_free();
}

TS_MAIN(group_setup, group_teardown,
	cmocka_unit_test(test_fixtures_load),
	cmocka_unit_test(test_fixture_counts),
	cmocka_unit_test(test_fixture_kernel_time),
	cmocka_unit_test(test_fixture_correlation),
	cmocka_unit_test(test_fixture_copies),
	cmocka_unit_test(test_fixture_detect_gz),
	cmocka_unit_test(test_synthetic),
	cmocka_unit_test(test_truncated_gz),
	cmocka_unit_test(test_not_rpd),
	cmocka_unit_test(test_view_refused),
	cmocka_unit_test(test_bad_times))
