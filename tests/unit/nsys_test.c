/*
 * nsys_test: the Nsight Systems SQLite reader against plain SQL over every
 * real export in $GPULENS_FIXTURES/nsys, and the failure paths of
 * detection (empty, foreign, truncated, corrupt files, directories, binary
 * reports without nsys).
 *
 * Each fixture is loaded once by the group setup. Every number the tests
 * compare is computed twice: by nsys_load() into the model, and by SQL the
 * test runs itself on the same file (opened read-only), grouped the way
 * `nsys stats` groups it.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#include "model/cache.h"
#include "model/cachedir.h"
#include "sources/synth/gen.h"
#include "model/model.h"
#include "util/progress.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

struct fixture {
	char		*path;
	struct model	*m;
	sqlite3		*db;
};

static struct fixture	*fixtures;
static size_t		 nfixtures, fixturescap;
static char		*fixture_dir;		/* $GPULENS_FIXTURES/nsys */

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends every file under dir whose name ends in suffix to *out. */
static void
find_files(const char *dir, const char *suffix, char ***out, size_t *n,
    size_t *cap)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	char		*p;
	size_t		 len, sl = strlen(suffix);

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (stat(p, &sb) != 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(sb.st_mode)) {
			find_files(p, suffix, out, n, cap);
			free(p);
			continue;
		}
		len = strlen(de->d_name);
		if (!S_ISREG(sb.st_mode) || len < sl ||
		    strcmp(de->d_name + len - sl, suffix) != 0) {
			free(p);
			continue;
		}
		XGROW(*out, *cap, *n + 1);
		(*out)[(*n)++] = p;
	}
	closedir(d);
}

static sqlite3 *
open_ro(const char *path)
{
	sqlite3	*db = NULL;
	char	*uri = xasprintf("file:%s?immutable=1", path);

	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
	    NULL) != SQLITE_OK) {
		sqlite3_close(db);
		db = NULL;
	}
	free(uri);
	return db;
}

static int
group_setup(void **state)
{
	const char	*env = ts_fixtures();
	char		**files = NULL;
	size_t		  n = 0, cap = 0, i;
	struct stat	  sb;

	(void)state;
	if (ts_tmp_init() != 0)
		return -1;
	if (env == NULL)
		return 0;
	fixture_dir = xasprintf("%s/nsys", env);
	if (stat(fixture_dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		free(fixture_dir);
		fixture_dir = NULL;
		return 0;
	}
	find_files(fixture_dir, ".sqlite", &files, &n, &cap);
	if (n > 0)
		qsort(files, n, sizeof *files, str_cmp);
	for (i = 0; i < n; i++) {
		struct fixture	*f;

		XGROW(fixtures, fixturescap, nfixtures + 1);
		f = &fixtures[nfixtures++];
		f->path = files[i];
		f->m = ts_try_load(nsys_load, f->path);
		f->db = open_ro(f->path);
	}
	free(files);
	return 0;
}

static int
group_teardown(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < nfixtures; i++) {
		model_free(fixtures[i].m);
		sqlite3_close(fixtures[i].db);
		free(fixtures[i].path);
	}
	free(fixtures);
	free(fixture_dir);
	return ts_tmp_free();
}

static void
need_fixtures(void)
{
	if (nfixtures == 0)
		ts_skip("GPULENS_FIXTURES unset or without nsys/*.sqlite "
		    "files: skipping the fixture tests");
}

static int
has_column(sqlite3 *db, const char *t, const char *c)
{
	sqlite3_stmt	*st;
	int		 r;

	st = ts_sql_prepare(db, "SELECT 1 FROM "
	    "pragma_table_info(?) WHERE name = ?");
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, c, -1, SQLITE_STATIC);
	r = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return r;
}

/* One integer from sql (0 when there is no row or a NULL). */
static int64_t
q1(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*st;
	int64_t		 v = 0;

	st = ts_sql_prepare(db, sql);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Number of events of kind (and flags & mask == want) in the model. */
static uint64_t
count_events(const struct model *m, int kind, int mask, int want)
{
	uint64_t	n = 0;
	size_t		t, i;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == kind && (l->flags[i] & mask) == want)
				n++;
	}
	return n;
}

/* Per pool-string count and total duration of events of kind. */
static void
per_name(const struct model *m, int kind, uint64_t **cnt, int64_t **sum)
{
	uint32_t	ns = strpool_count(m->strs);
	size_t		t, i;

	*cnt = xcalloc(ns, sizeof **cnt);
	*sum = xcalloc(ns, sizeof **sum);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != kind)
				continue;
			(*cnt)[l->name[i]]++;
			(*sum)[l->name[i]] += l->end[i] - l->start[i];
		}
	}
}

static void
test_all_fixtures_load(void **state)
{
	size_t	i;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		assert_non_null(fixtures[i].db);
		if (fixtures[i].m == NULL)
			fail_msg("%s did not load", fixtures[i].path);
		assert_int_equal(fixtures[i].m->source, SOURCE_NSYS);
	}
}

static void
test_kernels_per_device(void **state)
{
	sqlite3_stmt	*st;
	size_t		 i, t, k;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		uint64_t total = 0, sqltotal = 0;

		if (!ts_sql_has_table(fixtures[i].db,
		    "CUPTI_ACTIVITY_KIND_KERNEL")) {
			assert_int_equal(count_events(m, EV_KERNEL, 0, 0), 0);
			continue;
		}
		st = ts_sql_prepare(fixtures[i].db,
		    "SELECT deviceId, count(*), sum(end - start) FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL GROUP BY deviceId");
		while (sqlite3_step(st) == SQLITE_ROW) {
			uint32_t dev = (uint32_t)sqlite3_column_int64(st, 0);
			uint64_t n = 0;
			int64_t dur = 0;
			for (t = 0; t < m->ntracks; t++) {
				const struct track *tr = &m->tracks[t];
				if (tr->type != TRACK_GPU ||
				    m->devices[tr->device].source_id != dev)
					continue;
				for (k = 0; k < tr->lane.n; k++) {
					if (tr->lane.kind[k] != EV_KERNEL)
						continue;
					n++;
					dur += tr->lane.end[k] -
					    tr->lane.start[k];
				}
			}
			assert_int_equal(n, sqlite3_column_int64(st, 1));
			assert_int_equal(dur, sqlite3_column_int64(st, 2));
			sqltotal += (uint64_t)sqlite3_column_int64(st, 1);
		}
		sqlite3_finalize(st);
		total = count_events(m, EV_KERNEL, 0, 0);
		assert_int_equal(total, sqltotal);
		assert_true(total > 0);
	}
}

static void
test_kernels_per_name(void **state)
{
	sqlite3_stmt	*st;
	uint64_t	*cnt;
	int64_t		*sum;
	size_t		 i;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		uint64_t rows = 0;

		if (!ts_sql_has_table(fixtures[i].db,
		    "CUPTI_ACTIVITY_KIND_KERNEL"))
			continue;
		per_name(m, EV_KERNEL, &cnt, &sum);
		st = ts_sql_prepare(fixtures[i].db,
		    "SELECT s.value, count(*), sum(k.end - k.start) FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s "
		    "ON s.id = k.demangledName GROUP BY s.value");
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name =
			    (const char *)sqlite3_column_text(st, 0);
			uint32_t sid = strpool_find(m->strs, name,
			    (size_t)sqlite3_column_bytes(st, 0));
			if (sid == UINT32_MAX)
				fail_msg("%s: kernel %s missing",
				    fixtures[i].path, name);
			assert_int_equal(cnt[sid], sqlite3_column_int64(st, 1));
			assert_int_equal(sum[sid], sqlite3_column_int64(st, 2));
			rows += cnt[sid];
		}
		sqlite3_finalize(st);
		/* Every kernel's name resolved through StringIds. */
		assert_int_equal(rows, count_events(m, EV_KERNEL, 0, 0));
		free(cnt);
		free(sum);
	}
}

static void
test_nccl_kernels_flagged(void **state)
{
	size_t	i;
	int64_t	seen = 0;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		int64_t want;

		if (!ts_sql_has_table(fixtures[i].db,
		    "CUPTI_ACTIVITY_KIND_KERNEL"))
			continue;
		/* LIKE is case-insensitive for ASCII, as the rule is. */
		want = q1(fixtures[i].db, "SELECT count(*) FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s "
		    "ON s.id = k.demangledName WHERE s.value LIKE '%nccl%'");
		assert_int_equal(count_events(m, EV_KERNEL, EVF_COMM, EVF_COMM),
		    want);
		if (strstr(fixtures[i].path, "mfu_2gpu_before") != NULL)
			assert_int_equal(want, 66);
		seen += want;
	}
	/* The fixture set has NCCL kernels (mfu_2gpu_*). */
	if (nfixtures >= 5)
		assert_true(seen > 0);
}

/* Exports without ENUM_CUDA_MEMCPY_OPER: older nsysstats' labels and what
 * they mean. */
static const char *const copy_labels_old[] = {
	"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA",
	"DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH", "Unified DtoD"
};
static const int copy_kinds_old[] = {
	COPY_UNKNOWN, COPY_HTOD, COPY_DTOH, COPY_HTOA, COPY_ATOH, COPY_ATOA,
	COPY_ATOD, COPY_DTOA, COPY_DTOD, COPY_HTOH, COPY_PTOP, COPY_UM_HTOD,
	COPY_UM_DTOH, COPY_UM_DTOD
};

static void
test_memcpy_per_kind(void **state)
{
	sqlite3_stmt	*st;
	size_t		 i, t, k;
	const char	*sql;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		int enums;
		uint64_t sqltotal = 0;

		if (!ts_sql_has_table(fixtures[i].db,
		    "CUPTI_ACTIVITY_KIND_MEMCPY")) {
			assert_int_equal(count_events(m, EV_MEMCPY, 0, 0), 0);
			continue;
		}
		enums = ts_sql_has_table(fixtures[i].db,
		    "ENUM_CUDA_MEMCPY_OPER");
		if (enums)
			sql = "SELECT c.copyKind, e.label, count(*), "
			    "sum(c.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY AS c "
			    "JOIN ENUM_CUDA_MEMCPY_OPER AS e ON e.id = "
			    "c.copyKind GROUP BY c.copyKind";
		else
			sql = "SELECT copyKind, NULL, count(*), sum(bytes) "
			    "FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY "
			    "copyKind";
		st = ts_sql_prepare(fixtures[i].db, sql);
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t kind = sqlite3_column_int64(st, 0);
			const char *label;
			char name[128];
			uint32_t sid;
			uint64_t n = 0, bytes = 0;

			if (enums)
				label = (const char *)sqlite3_column_text(st,
				    1);
			else {
				assert_true(kind >= 0 && kind < 14);
				label = copy_labels_old[kind];
			}
			snprintf(name, sizeof name, "[CUDA memcpy %s]", label);
			sid = strpool_find(m->strs, name, strlen(name));
			assert_int_not_equal(sid, UINT32_MAX);
			for (t = 0; t < m->ntracks; t++) {
				const struct lane *l = &m->tracks[t].lane;
				for (k = 0; k < l->n; k++) {
					const struct copy_info *c;
					if (l->kind[k] != EV_MEMCPY ||
					    l->name[k] != sid)
						continue;
					c = &m->copies[l->aux[k]];
					n++;
					bytes += c->bytes;
					/* The normalised kind. */
					if (enums)
						assert_string_equal(
						    copy_kind_label(c->kind),
						    label);
					else
						assert_int_equal(c->kind,
						    copy_kinds_old[kind]);
				}
			}
			assert_int_equal(n, sqlite3_column_int64(st, 2));
			assert_int_equal(bytes, sqlite3_column_int64(st, 3));
			sqltotal += (uint64_t)sqlite3_column_int64(st, 2);
		}
		sqlite3_finalize(st);
		assert_int_equal(count_events(m, EV_MEMCPY, 0, 0), sqltotal);
	}
}

static void
test_memset_count_bytes(void **state)
{
	size_t	i, t, k;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		uint64_t n = 0, bytes = 0;

		for (t = 0; t < m->ntracks; t++) {
			const struct lane *l = &m->tracks[t].lane;
			for (k = 0; k < l->n; k++) {
				if (l->kind[k] != EV_MEMSET)
					continue;
				n++;
				bytes += m->copies[l->aux[k]].bytes;
				assert_string_equal(model_str(m, l->name[k]),
				    "[CUDA memset]");
			}
		}
		if (!ts_sql_has_table(fixtures[i].db,
		    "CUPTI_ACTIVITY_KIND_MEMSET")) {
			assert_int_equal(n, 0);
			continue;
		}
		assert_int_equal(n, q1(fixtures[i].db, "SELECT count(*) FROM "
		    "CUPTI_ACTIVITY_KIND_MEMSET"));
		assert_int_equal(bytes, q1(fixtures[i].db, "SELECT sum(bytes) "
		    "FROM CUPTI_ACTIVITY_KIND_MEMSET"));
	}
}

static void
test_api_sync_osrt_counts(void **state)
{
	size_t	i, t, k;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		sqlite3 *db = fixtures[i].db;

		if (ts_sql_has_table(db, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
			assert_int_equal(count_events(m, EV_API, 0, 0), q1(db,
			    "SELECT count(*) FROM "
			    "CUPTI_ACTIVITY_KIND_RUNTIME"));
			/* Driver calls: "cu" but not "cuda". */
			assert_int_equal(count_events(m, EV_API, EVF_DRIVER,
			    EVF_DRIVER), q1(db, "SELECT count(*) FROM "
			    "CUPTI_ACTIVITY_KIND_RUNTIME AS r JOIN StringIds "
			    "AS s ON s.id = r.nameId WHERE substr(s.value, 1, "
			    "2) = 'cu' AND substr(s.value, 1, 4) <> 'cuda'"));
		} else
			assert_int_equal(count_events(m, EV_API, 0, 0), 0);
		if (ts_sql_has_table(db, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
			assert_int_equal(count_events(m, EV_SYNC, 0, 0), q1(db,
			    "SELECT count(*) FROM "
			    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
		else
			assert_int_equal(count_events(m, EV_SYNC, 0, 0), 0);
		/* Waits live on sync tracks only, and nothing else does. */
		for (t = 0; t < m->ntracks; t++) {
			const struct lane *l = &m->tracks[t].lane;
			for (k = 0; k < l->n; k++)
				assert_int_equal(l->kind[k] == EV_SYNC,
				    m->tracks[t].type == TRACK_SYNC);
		}
		if (ts_sql_has_table(db, "OSRT_API")) {
			assert_int_equal(count_events(m, EV_OSRT, 0, 0), q1(db,
			    "SELECT count(*) FROM OSRT_API"));
			assert_int_equal(count_events(m, EV_OSRT, EVF_NOTOSRT,
			    EVF_NOTOSRT), q1(db, "SELECT count(*) FROM "
			    "OSRT_API WHERE eventClass <> 27"));
		} else
			assert_int_equal(count_events(m, EV_OSRT, 0, 0), 0);
	}
}

static void
test_nvtx_counts(void **state)
{
	size_t	i;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		sqlite3 *db = fixtures[i].db;

		if (!ts_sql_has_table(db, "NVTX_EVENTS")) {
			assert_int_equal(count_events(m, EV_NVTX, 0, 0), 0);
			assert_int_equal(count_events(m, EV_MARK, 0, 0), 0);
			continue;
		}
		assert_int_equal(count_events(m, EV_NVTX, EVF_STARTEND, 0),
		    q1(db, "SELECT count(*) FROM NVTX_EVENTS WHERE "
		    "eventType IN (59, 70)"));
		assert_int_equal(count_events(m, EV_NVTX, EVF_STARTEND,
		    EVF_STARTEND), q1(db, "SELECT count(*) FROM NVTX_EVENTS "
		    "WHERE eventType IN (60, 71)"));
		assert_int_equal(count_events(m, EV_MARK, 0, 0), q1(db,
		    "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 34"));
		assert_int_equal(count_events(m, EV_NVTX, EVF_OPEN, EVF_OPEN),
		    q1(db, "SELECT count(*) FROM NVTX_EVENTS WHERE "
		    "eventType IN (59, 60, 70, 71) AND end IS NULL"));
		assert_int_equal(m->nnvtx, count_events(m, EV_NVTX, 0, 0) +
		    count_events(m, EV_MARK, 0, 0));
	}
}

static void
test_nvtx_names_and_domains(void **state)
{
	sqlite3_stmt	*st;
	uint64_t	*cnt;
	int64_t		*sum;
	size_t		 i, d;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		sqlite3 *db = fixtures[i].db;

		if (!ts_sql_has_table(db, "NVTX_EVENTS"))
			continue;
		per_name(m, EV_NVTX, &cnt, &sum);
		st = ts_sql_prepare(db, "SELECT "
		    "coalesce(n.text, s.value), count(*), sum(n.end - n.start) "
		    "FROM NVTX_EVENTS AS n LEFT JOIN StringIds AS s ON s.id = "
		    "n.textId WHERE n.eventType IN (59, 60, 70, 71) "
		    "AND n.end IS NOT NULL GROUP BY 1");
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name =
			    (const char *)sqlite3_column_text(st, 0);
			uint32_t sid = name == NULL ? 0 : strpool_find(m->strs,
			    name, (size_t)sqlite3_column_bytes(st, 0));
			assert_int_not_equal(sid, UINT32_MAX);
			assert_int_equal(cnt[sid], sqlite3_column_int64(st, 1));
			assert_int_equal(sum[sid], sqlite3_column_int64(st, 2));
		}
		sqlite3_finalize(st);
		free(cnt);
		free(sum);

		/* Every NvtxDomainCreate names a domain. */
		st = ts_sql_prepare(db, "SELECT text FROM "
		    "NVTX_EVENTS WHERE eventType = 75 AND text IS NOT NULL");
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name =
			    (const char *)sqlite3_column_text(st, 0);
			int found = 0;
			for (d = 1; d < m->ndomains; d++)
				if (strcmp(model_str(m, m->domains[d].name),
				    name) == 0)
					found = 1;
			if (!found)
				fail_msg("%s: domain %s missing",
				    fixtures[i].path, name);
		}
		sqlite3_finalize(st);
	}
}

static void
test_processes_and_threads(void **state)
{
	sqlite3_stmt	*st;
	size_t		 i, t, k;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		sqlite3 *db = fixtures[i].db;
		int64_t want;
		uint64_t nwith = 0;

		/* Entities come in source order. */
		for (t = 1; t < m->ndevices; t++)
			assert_true(m->devices[t - 1].source_id <
			    m->devices[t].source_id);
		for (t = 1; t < m->nprocesses; t++)
			assert_true(m->processes[t - 1].pid <=
			    m->processes[t].pid);
		for (t = 1; t < m->nthreads; t++)
			assert_true(m->threads[t - 1].process <
			    m->threads[t].process ||
			    (m->threads[t - 1].process ==
			    m->threads[t].process &&
			    m->threads[t - 1].tid < m->threads[t].tid));
		for (t = 0; t < m->ntracks; t++) {
			const struct track *tr = &m->tracks[t];
			if (tr->type != TRACK_GPU)
				continue;
			assert_int_equal(tr->device,
			    m->streams[tr->stream].device);
			assert_int_equal(tr->process,
			    m->streams[tr->stream].process);
		}
		/* 2021 exports have no PROCESSES: the main thread names it. */
		if (strstr(fixtures[i].path, "mordred/report1.sqlite") !=
		    NULL) {
			assert_int_equal(m->nprocesses, 1);
			assert_string_equal(model_str(m, m->processes[0].name),
			    "testqo");
		}

		/* Identities decode exactly. */
		for (t = 0; t < m->nprocesses; t++) {
			const struct process *p = &m->processes[t];
			assert_int_equal(p->source_id & 0xFFFFFF, 0);
			assert_int_equal(p->pid, (p->source_id >> 24) &
			    0xFFFFFF);
			assert_int_equal(p->vm_id, (p->source_id >> 48) & 0xFF);
			assert_int_equal(p->hw_id, p->source_id >> 56);
		}
		for (t = 0; t < m->nthreads; t++) {
			const struct thread *th = &m->threads[t];
			assert_int_equal(th->tid, th->source_id & 0xFFFFFF);
			assert_true(th->process < m->nprocesses);
			assert_int_equal(m->processes[th->process].source_id,
			    th->source_id & ~(uint64_t)0xFFFFFF);
		}

		/* Thread names: NVTX names (eventType 39) where given, else
		 * the last ThreadNames row of the thread. */
		if (ts_sql_has_table(db,
		    "NVTX_EVENTS") && q1(db, "SELECT count(*) "
		    "FROM NVTX_EVENTS WHERE eventType = 39") > 0) {
			st = ts_sql_prepare(db, "SELECT "
			    "globalTid, text FROM NVTX_EVENTS WHERE eventType "
			    "= 39 AND text IS NOT NULL");
			while (sqlite3_step(st) == SQLITE_ROW) {
				uint64_t g = (uint64_t)
				    sqlite3_column_int64(st, 0);
				for (t = 0; t < m->nthreads; t++)
					if (m->threads[t].source_id == g)
						break;
				assert_true(t < m->nthreads);
				assert_string_equal(model_str(m,
				    m->threads[t].name),
				    (const char *)sqlite3_column_text(st, 1));
			}
			sqlite3_finalize(st);
		} else if (ts_sql_has_table(db, "ThreadNames")) {
			int named = 0;
			st = ts_sql_prepare(db, "SELECT "
			    "s.value FROM ThreadNames AS t JOIN StringIds AS s "
			    "ON s.id = t.nameId WHERE t.globalTid = ? ORDER "
			    "BY t.rowid DESC LIMIT 1");
			for (t = 0; t < m->nthreads; t++) {
				sqlite3_reset(st);
				sqlite3_bind_int64(st, 1,
				    (sqlite3_int64)m->threads[t].source_id);
				if (sqlite3_step(st) != SQLITE_ROW)
					continue;
				assert_string_equal(model_str(m,
				    m->threads[t].name),
				    (const char *)sqlite3_column_text(st, 0));
				named++;
			}
			sqlite3_finalize(st);
			assert_true(named > 0);
		}

		if (!ts_sql_has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL"))
			continue;
		/* Distinct processes with kernels, matched by globalPid. */
		want = q1(db, "SELECT count(DISTINCT globalPid) FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL");
		for (t = 0; t < m->nprocesses; t++) {
			int has = 0;
			for (k = 0; k < m->ntracks && !has; k++) {
				const struct track *tr = &m->tracks[k];
				size_t e;
				if (tr->type != TRACK_GPU || tr->process != t)
					continue;
				for (e = 0; e < tr->lane.n; e++)
					if (tr->lane.kind[e] == EV_KERNEL)
						has = 1;
			}
			if (!has)
				continue;
			nwith++;
			st = ts_sql_prepare(db, "SELECT 1 FROM "
			    "CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid = ? "
			    "LIMIT 1");
			sqlite3_bind_int64(st, 1,
			    (sqlite3_int64)m->processes[t].source_id);
			assert_int_equal(sqlite3_step(st), SQLITE_ROW);
			sqlite3_finalize(st);
		}
		assert_int_equal(nwith, want);
	}
}

static void
test_devices_and_meta(void **state)
{
	size_t		 i;
	sqlite3_stmt	*st;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		sqlite3 *db = fixtures[i].db;
		const char *meta = NULL;

		if (ts_sql_has_table(db, "TARGET_INFO_GPU")) {
			size_t d;
			assert_int_equal(m->ndevices, q1(db, "SELECT "
			    "count(DISTINCT id) FROM TARGET_INFO_GPU"));
			st = ts_sql_prepare(db, "SELECT id, "
			    "name, smCount, totalMemory FROM TARGET_INFO_GPU");
			while (sqlite3_step(st) == SQLITE_ROW) {
				uint32_t id = (uint32_t)
				    sqlite3_column_int64(st, 0);
				for (d = 0; d < m->ndevices; d++)
					if (m->devices[d].source_id == id)
						break;
				assert_true(d < m->ndevices);
				assert_string_equal(model_str(m,
				    m->devices[d].name),
				    (const char *)sqlite3_column_text(st, 1));
				assert_int_equal(m->devices[d].sm_count,
				    sqlite3_column_int64(st, 2));
				assert_int_equal(m->devices[d].total_mem,
				    sqlite3_column_int64(st, 3));
			}
			sqlite3_finalize(st);
		} else
			assert_true(m->ndevices >= (size_t)q1(db, "SELECT "
			    "count(DISTINCT deviceId) FROM "
			    "CUPTI_ACTIVITY_KIND_KERNEL"));

		if (ts_sql_has_table(db, "META_DATA_EXPORT"))
			meta = "META_DATA_EXPORT";
		else if (ts_sql_has_table(db, "EXPORT_META_DATA"))
			meta = "EXPORT_META_DATA";
		if (meta != NULL) {
			char *sql = xasprintf("SELECT value FROM %s WHERE "
			    "name = 'EXPORT_PRODUCT_VERSION'", meta);
			st = ts_sql_prepare(db, sql);
			assert_int_equal(sqlite3_step(st), SQLITE_ROW);
			assert_string_equal(model_str(m, m->source_version),
			    (const char *)sqlite3_column_text(st, 0));
			sqlite3_finalize(st);
			free(sql);
			assert_int_equal(m->nmeta, q1(db, meta[0] == 'M' ?
			    "SELECT count(DISTINCT name) FROM "
			    "META_DATA_EXPORT" :
			    "SELECT count(DISTINCT name) FROM "
			    "EXPORT_META_DATA"));
			assert_true(m->schema_version != 0);
		} else {
			assert_non_null(strstr(model_str(m, m->source_version),
			    "unknown"));
			assert_int_equal(m->schema_version, 0);
		}
		if (ts_sql_has_table(db, "TARGET_INFO_SESSION_START_TIME"))
			assert_int_equal(m->utc_epoch_ns, q1(db, "SELECT "
			    "utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"));
	}
}

/* Every kernel keeps its rowid, and that row has its times. */
static void
test_rowids(void **state)
{
	sqlite3_stmt	*st;
	size_t		 i, t, k;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;

		if (!ts_sql_has_table(fixtures[i].db,
		    "CUPTI_ACTIVITY_KIND_KERNEL"))
			continue;
		st = ts_sql_prepare(fixtures[i].db, "SELECT "
		    "start, end, correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL "
		    "WHERE rowid = ?");
		for (t = 0; t < m->ntracks; t++) {
			const struct lane *l = &m->tracks[t].lane;
			for (k = 0; k < l->n; k++) {
				if (l->kind[k] != EV_KERNEL)
					continue;
				assert_true(lane_rowid(l, k) > 0);
				sqlite3_reset(st);
				sqlite3_bind_int64(st, 1, lane_rowid(l, k));
				assert_int_equal(sqlite3_step(st), SQLITE_ROW);
				assert_int_equal(l->start[k],
				    sqlite3_column_int64(st, 0));
				assert_int_equal(l->end[k],
				    sqlite3_column_int64(st, 1));
				assert_int_equal(l->corr[k],
				    (uint32_t)sqlite3_column_int64(st, 2));
			}
		}
		sqlite3_finalize(st);
	}
}

/* Kernel side tables: grid, block, registers and names of one row. */
static void
test_kernel_info(void **state)
{
	sqlite3_stmt	*st;
	size_t		 i, t, k;
	int		 checked = 0;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		const struct model *m = fixtures[i].m;
		sqlite3 *db = fixtures[i].db;
		int mangled;

		if (!ts_sql_has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL"))
			continue;
		mangled = has_column(db, "CUPTI_ACTIVITY_KIND_KERNEL",
		    "mangledName");
		st = ts_sql_prepare(db, mangled ?
		    "SELECT gridX, gridY, gridZ, blockX, blockY, blockZ, "
		    "registersPerThread, (SELECT value FROM StringIds WHERE "
		    "id = shortName), (SELECT value FROM StringIds WHERE id = "
		    "mangledName), dynamicSharedMemory FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = ?" :
		    "SELECT gridX, gridY, gridZ, blockX, blockY, blockZ, "
		    "registersPerThread, (SELECT value FROM StringIds WHERE "
		    "id = shortName), NULL, dynamicSharedMemory FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid = ?");
		for (t = 0; t < m->ntracks; t++) {
			const struct lane *l = &m->tracks[t].lane;
			for (k = 0; k < l->n; k += 7) {
				const struct kernel_info *ki;
				const char *s;
				if (l->kind[k] != EV_KERNEL)
					continue;
				ki = &m->kernels[l->aux[k]];
				sqlite3_reset(st);
				sqlite3_bind_int64(st, 1, lane_rowid(l, k));
				assert_int_equal(sqlite3_step(st), SQLITE_ROW);
				assert_int_equal(ki->grid[0],
				    sqlite3_column_int64(st, 0));
				assert_int_equal(ki->grid[1],
				    sqlite3_column_int64(st, 1));
				assert_int_equal(ki->grid[2],
				    sqlite3_column_int64(st, 2));
				assert_int_equal(ki->block[0],
				    sqlite3_column_int64(st, 3));
				assert_int_equal(ki->block[1],
				    sqlite3_column_int64(st, 4));
				assert_int_equal(ki->block[2],
				    sqlite3_column_int64(st, 5));
				assert_int_equal(ki->regs,
				    sqlite3_column_int64(st, 6));
				assert_string_equal(model_str(m,
				    ki->short_name),
				    (const char *)sqlite3_column_text(st, 7));
				s = (const char *)sqlite3_column_text(st, 8);
				assert_string_equal(model_str(m, ki->mangled),
				    s != NULL ? s : "");
				assert_int_equal(ki->dynamic_smem,
				    sqlite3_column_int64(st, 9));
				checked++;
			}
		}
		sqlite3_finalize(st);
	}
	assert_true(checked > 0);
}

/* Loading writes nothing: the file and its directory are untouched. */
static char *
dir_listing(const char *dir)
{
	char	**names = NULL, *out, *o;
	size_t	  n = 0, cap = 0, i, len = 1;
	DIR	 *d;
	struct dirent *de;

	assert_non_null(d = opendir(dir));
	while ((de = readdir(d)) != NULL) {
		XGROW(names, cap, n + 1);
		names[n++] = xstrdup(de->d_name);
		len += strlen(de->d_name) + 1;
	}
	closedir(d);
	qsort(names, n, sizeof *names, str_cmp);
	out = o = xmalloc(len);
	for (i = 0; i < n; i++) {
		o += sprintf(o, "%s\n", names[i]);
		free(names[i]);
	}
	*o = '\0';
	free(names);
	return out;
}

static void
test_read_only(void **state)
{
	struct stat	 before, after;
	struct model	*m;
	char		*dir, *l0, *l1, *slash, *cause = NULL;
	const char	*path;

	(void)state;
	need_fixtures();
	path = fixtures[0].path;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(stat(path, &before), 0);
	l0 = dir_listing(dir);
	m = nsys_load(path, NULL, &cause);
	assert_non_null(m);
	model_free(m);
	m = source_read(path, NULL, &cause);
	assert_non_null(m);
	model_free(m);
	assert_int_equal(stat(path, &after), 0);
	l1 = dir_listing(dir);
	assert_string_equal(l0, l1);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	assert_int_equal(before.st_ctim.tv_sec, after.st_ctim.tv_sec);
	assert_int_equal(before.st_ctim.tv_nsec, after.st_ctim.tv_nsec);
	free(l0);
	free(l1);
	free(dir);
}

/* Failure paths: NULL and one line naming the file. */

static char *
tmp_file(const char *name, const void *data, size_t len)
{
	char	*p = xasprintf("%s/%s", ts_tmp(), name);
	int	 fd;

	assert_true((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644)) != -1);
	if (len > 0)
		assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return p;
}

static void
expect_failure(const char *path, const char *words)
{
	struct model	*m;
	char		*cause = NULL;

	m = nsys_load(path, NULL, &cause);
	assert_null(m);
	assert_non_null(cause);
	assert_non_null(strstr(cause, path));
	if (words != NULL && strstr(cause, words) == NULL)
		fail_msg("nsys_load cause \"%s\" lacks \"%s\"", cause, words);
	assert_null(strchr(cause, '\n'));
	free(cause);
	cause = NULL;
	m = source_read(path, NULL, &cause);
	assert_null(m);
	assert_non_null(cause);
	assert_non_null(strstr(cause, path));
	if (words != NULL && strstr(cause, words) == NULL)
		fail_msg("source_read cause \"%s\" lacks \"%s\"", cause, words);
	free(cause);
}

static void
test_not_sqlite(void **state)
{
	const char	*what;
	char		*p, *cause = NULL;

	(void)state;
	p = tmp_file("hello.sqlite", "hello world, not a database\n", 28);
	expect_failure(p, NULL);
	assert_int_equal(source_detect(p, &what, &cause), DETECT_UNKNOWN);
	assert_null(cause);
	free(p);
	p = tmp_file("trace.json", " \n[1, 2, 3]", 11);
	assert_int_equal(source_detect(p, &what, &cause), DETECT_JSON);
	expect_failure(p, NULL);
	assert_null(source_read(p, NULL, &cause));
	assert_non_null(strstr(cause, "JSON file: not a PyTorch profiler"));
	free(cause);
	cause = NULL;
	free(p);
	p = tmp_file("x.gz", "\x1f\x8b\x08\x00", 4);
	assert_int_equal(source_detect(p, &what, &cause), DETECT_GZIP);
	free(p);
	p = tmp_file("x.zst", "\x28\xb5\x2f\xfd\x00", 5);
	assert_int_equal(source_detect(p, &what, &cause), DETECT_ZSTD);
	free(p);
	p = tmp_file("x.ncu-rep", "NVR\0\x02\x00", 6);
	assert_int_equal(source_detect(p, &what, &cause), DETECT_NCU_REP);
	free(p);
}

static void
test_empty_file(void **state)
{
	const char	*what;
	char		*p, *cause = NULL;

	(void)state;
	p = tmp_file("empty.sqlite", NULL, 0);
	expect_failure(p, "empty");
	assert_int_equal(source_detect(p, &what, &cause), DETECT_EMPTY);
	free(p);
}

static void
test_directory(void **state)
{
	const char	*what;
	char		*cause = NULL;

	(void)state;
	expect_failure(ts_tmp(), "directory");
	assert_int_equal(source_detect(ts_tmp(), &what, &cause),
	    DETECT_UNKNOWN);
	assert_non_null(cause);
	free(cause);
	cause = NULL;
	/* A missing file names the file and the reason. */
	{
		char *p = xasprintf("%s/no-such-file.sqlite", ts_tmp());
		expect_failure(p, "No such file");
		free(p);
	}
}

static void
test_sqlite_without_nsys_tables(void **state)
{
	char		*p, *cause = NULL;
	const char	*what;

	(void)state;
	p = ts_sql_file("other.db", "PRAGMA synchronous = OFF; "
	    "CREATE TABLE rocpd_op(id INTEGER); "
	    "INSERT INTO rocpd_op VALUES (1);");
	expect_failure(p, "not an Nsight Systems export");
	assert_int_equal(source_detect(p, &what, &cause),
	    DETECT_SQLITE_OTHER);
	free(p);
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE		*f;
	unsigned char	*buf;
	long		 n;

	assert_non_null(f = fopen(path, "rb"));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The smallest fixture with kernels (quick to copy and damage). */
static const char *
small_fixture(void)
{
	const char	*best = NULL;
	off_t		 bestsz = 0;
	struct stat	 sb;
	size_t		 i;

	for (i = 0; i < nfixtures; i++) {
		if (fixtures[i].m == NULL ||
		    count_events(fixtures[i].m, EV_KERNEL, 0, 0) == 0 ||
		    stat(fixtures[i].path, &sb) != 0)
			continue;
		if (best == NULL || sb.st_size < bestsz) {
			best = fixtures[i].path;
			bestsz = sb.st_size;
		}
	}
	return best;
}

static void
test_truncated_copy(void **state)
{
	unsigned char	*buf;
	size_t		 len, psize, npages;
	char		*p;

	(void)state;
	need_fixtures();
	buf = slurp(small_fixture(), &len);
	/* Plain truncation: the header's page count gives it away. */
	p = tmp_file("truncated.sqlite", buf, len / 2);
	expect_failure(p, "truncated");
	free(p);
	/* Truncated with a header patched to agree: SQLite finds pages
	 * missing while reading, mid-scan. */
	psize = (size_t)buf[16] << 8 | buf[17];
	npages = (len / 2) / psize;
	buf[28] = (unsigned char)(npages >> 24);
	buf[29] = (unsigned char)(npages >> 16);
	buf[30] = (unsigned char)(npages >> 8);
	buf[31] = (unsigned char)npages;
	p = tmp_file("patched.sqlite", buf, npages * psize);
	expect_failure(p, "SQLite");
	free(p);
	/* Only the first page: the schema itself is gone. */
	buf[28] = buf[29] = buf[30] = 0;
	buf[31] = 1;
	p = tmp_file("onepage.sqlite", buf, psize);
	expect_failure(p, NULL);
	free(p);
	free(buf);
}

static void
test_corrupt_pages(void **state)
{
	unsigned char	*buf;
	size_t		 len, psize, i;
	struct model	*m;
	char		*p, *cause = NULL;

	(void)state;
	need_fixtures();
	buf = slurp(small_fixture(), &len);
	psize = (size_t)buf[16] << 8 | buf[17];
	/* Garbage over every page after the first: whatever SQLite meets
	 * first is broken. No crash, and NULL with the file named. */
	for (i = psize; i < len; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	p = tmp_file("corrupt.sqlite", buf, len);
	m = nsys_load(p, NULL, &cause);
	assert_null(m);
	assert_non_null(cause);
	assert_non_null(strstr(cause, p));
	free(cause);
	free(p);
	free(buf);
}

/* Garbage over the kernel table's root page only: the schema reads fine
 * and SQLite reports corruption in the middle of the scan. */
static void
test_corrupt_mid_scan(void **state)
{
	unsigned char	*buf;
	const char	*src;
	size_t		 len, psize, i, off;
	int64_t		 root;
	sqlite3		*db;
	char		*p, *cause = NULL;

	(void)state;
	need_fixtures();
	src = small_fixture();
	assert_non_null(db = open_ro(src));
	root = q1(db, "SELECT rootpage FROM sqlite_master WHERE name = "
	    "'CUPTI_ACTIVITY_KIND_KERNEL'");
	sqlite3_close(db);
	assert_true(root > 1);
	buf = slurp(src, &len);
	psize = (size_t)buf[16] << 8 | buf[17];
	off = (size_t)(root - 1) * psize;
	assert_true(off + psize <= len);
	for (i = off; i < off + psize; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	p = tmp_file("kernel-corrupt.sqlite", buf, len);
	free(buf);
	assert_null(nsys_load(p, NULL, &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, p));
	assert_non_null(strstr(cause, "corrupt"));
	assert_non_null(strstr(cause, "while reading "
	    "CUPTI_ACTIVITY_KIND_KERNEL"));
	assert_null(strchr(cause, '\n'));
	free(cause);
	free(p);
}

/* source_load: no cache with no_cache; else written once, then used. */
static void
test_source_load_cache(void **state)
{
	struct load_opts	 o;
	struct model		*m, *m2;
	unsigned char		*buf;
	size_t			 len, i;
	char			*dir, *p, *l0, *l1, *cp, *cause = NULL;
	struct stat		 sb;

	(void)state;
	need_fixtures();
	dir = xasprintf("%s/load", ts_tmp());
	assert_int_equal(mkdir(dir, 0755), 0);
	buf = slurp(small_fixture(), &len);
	p = xasprintf("%s/trace.sqlite", dir);
	{
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		assert_true(fd != -1);
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
		close(fd);
	}
	free(buf);

	memset(&o, 0, sizeof o);
	o.no_cache = 1;
	o.progress = 0;
	l0 = dir_listing(dir);
	m = source_load(p, &o, &cause);
	assert_non_null(m);
	l1 = dir_listing(dir);
	assert_string_equal(l0, l1);	/* --no-cache writes nothing */
	free(l0);
	free(l1);

	o.no_cache = 0;
	m2 = source_load(p, &o, &cause);
	assert_non_null(m2);
	for (i = 0; i < m2->nwarnings; i++)
		assert_null(strstr(m2->warnings[i], "cache not written"));
	assert_int_equal(m2->nevents, m->nevents);
	model_free(m2);
	cp = cache_path(p, 0, &cause);
	assert_non_null(cp);
	assert_int_equal(stat(cp, &sb), 0);	/* the cache exists */
	m2 = source_load(p, &o, &cause);	/* and is used */
	assert_non_null(m2);
	assert_int_equal(m2->nevents, m->nevents);
	assert_int_equal(m2->ntracks, m->ntracks);
	assert_string_equal(model_str(m2, m2->source_version),
	    model_str(m, m->source_version));
	model_free(m2);
	model_free(m);
	free(cp);
	free(p);
	free(dir);
}

/* A synthetic export exercising what the fixtures lack. */

#define GTID	"((1 << 56) | (2 << 48) | (1234 << 24) | 1240)"
#define GTID2	"((1 << 56) | (2 << 48) | (1234 << 24) | 1241)"
#define GPID	"((1 << 56) | (2 << 48) | (1234 << 24))"

static const char synthetic_sql[] =
    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO StringIds VALUES (1, 'ncclDevKernel_AllReduce_Sum_f32'),"
    " (2, 'void gemm<float>(int)'), (3, 'gemm'), (5, 'cudaLaunchKernel_v7000'),"
    " (6, 'cuLaunchKernel'), (7, 'range-from-id'), (8, 'main thread'),"
    " (9, '_Z4gemmi');"
    "CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
    "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', "
    " '2099.1.0'), ('EXPORT_SCHEMA_VERSION', '3.99.0');"
    "CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, "
    " globalTid INTEGER);"
    "INSERT INTO ThreadNames VALUES (8, 0, " GTID2 ");"
    "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
    "INSERT INTO PROCESSES VALUES (" GPID ", 1234, 'python'),"
    " (" GPID " + (7 << 24), 1241, 'idle');"
    "CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER, hwId INTEGER,"
    " vmId INTEGER, processId INTEGER, contextId INTEGER, priority INTEGER,"
    " flag INTEGER);"
    "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (7, 1, 2, 1234, 1, -3, 0);"
    "CREATE TABLE TARGET_INFO_NVTX_CUDA_STREAM (name TEXT, hwId INTEGER,"
    " vmId INTEGER, processId INTEGER, deviceId INTEGER, contextId INTEGER,"
    " streamId INTEGER);"
    "INSERT INTO TARGET_INFO_NVTX_CUDA_STREAM VALUES ('comm stream', 1, 2,"
    " 1234, 3, 1, 7);"
    /* Only some kernel columns: the others read as NULL. */
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER,"
    " deviceId INTEGER, streamId INTEGER, globalPid INTEGER,"
    " correlationId INTEGER, demangledName INTEGER, shortName INTEGER,"
    " mangledName INTEGER, gridX INTEGER, blockX INTEGER,"
    " registersPerThread INTEGER);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
    " (-500, -100, 3, 7, " GPID ", 11, 1, 1, NULL, 8, 256, 40),"
    " (1000, 1500, 3, 7, " GPID ", 12, 2, 3, 9, 4, 128, 32),"
    " (2000, 2100, 3, 8, " GPID ", 13, 2, 3, 9, 4, 128, 32);"
    /* No ENUM tables: the old numbering applies. */
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER,"
    " deviceId INTEGER, streamId INTEGER, globalPid INTEGER,"
    " correlationId INTEGER, bytes INTEGER, copyKind INTEGER,"
    " srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER,"
    " dstDeviceId INTEGER);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES"
    " (10, 20, 3, 7, " GPID ", 21, 100, 1, 0, 2, NULL, 3),"
    " (30, 40, 3, 7, " GPID ", 22, 200, 10, 2, 2, 3, 4),"
    " (50, 60, 3, 7, " GPID ", 23, 300, 11, 4, 4, 3, 3);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER,"
    " deviceId INTEGER, streamId INTEGER, globalPid INTEGER,"
    " correlationId INTEGER, value INTEGER, bytes INTEGER, memKind INTEGER);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES"
    " (70, 80, 3, 7, " GPID ", 24, 255, 4096, 2);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER,"
    " end INTEGER, deviceId INTEGER, streamId INTEGER, globalPid INTEGER,"
    " correlationId INTEGER, syncType INTEGER);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES"
    " (90, 95, 3, 7, " GPID ", 25, 3), (96, 97, 3, 7, " GPID ", 26, 9);"
    /* A view the reader never reads (its name is no table's). */
    "CREATE VIEW sync_view AS SELECT * FROM"
    " CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER,"
    " eventClass INTEGER, globalTid INTEGER, correlationId INTEGER,"
    " nameId INTEGER, returnValue INTEGER);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
    " (-600, -550, 1, " GTID ", 11, 5, 0), (900, 950, 1, " GTID ", 12, 6, 0),"
    " (960, 970, 1, " GTID ", 13, 4, 0);"
    /* WITHOUT ROWID: rowid -1. */
    "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER,"
    " globalTid INTEGER, nameId INTEGER, PRIMARY KEY (start, globalTid))"
    " WITHOUT ROWID;"
    "INSERT INTO OSRT_API VALUES (5, 6, 27, " GTID2 ", 3),"
    " (7, 7, 31, " GTID2 ", 1);"
    "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER,"
    " eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER,"
    " color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,"
    " textId INTEGER, domainId INTEGER, uint64Value INTEGER,"
    " int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,"
    " int32Value INTEGER, floatValue REAL, jsonTextId INTEGER,"
    " jsonText TEXT);"
    "INSERT INTO NVTX_EVENTS (start, end, eventType, category, color, text,"
    " globalTid, endGlobalTid, textId, domainId, int64Value, doubleValue,"
    " uint32Value) VALUES"
    " (1, NULL, 75, NULL, NULL, 'NCCL', " GTID ", NULL, NULL, 5, NULL,"
    " NULL, NULL),"
    " (200, 700, 59, 3, 4278190335, 'outer', " GTID ", NULL, NULL, 5, -42,"
    " NULL, NULL),"
    " (2, NULL, 33, 3, NULL, 'cat-three', " GTID ", NULL, NULL, 5, NULL,"
    " NULL, NULL),"
    " (300, NULL, 59, NULL, NULL, NULL, " GTID ", NULL, 7, 0, NULL, NULL,"
    " NULL),"
    " (400, 800, 60, NULL, NULL, 'async', " GTID ", " GTID2 ", NULL, 0,"
    " NULL, NULL, 17),"
    " (410, 420, 60, NULL, NULL, 'same-thread', " GTID ", " GTID ", NULL,"
    " 0, NULL, NULL, NULL),"
    " (450, NULL, 34, NULL, NULL, 'mark', " GTID ", NULL, NULL, 0, NULL,"
    " 2.5, NULL),"
    " (3, NULL, 39, NULL, NULL, 'renamed', " GTID ", NULL, NULL, 0, NULL,"
    " NULL, NULL),"
    " (900, NULL, 76, NULL, NULL, NULL, " GTID ", NULL, NULL, 5, NULL,"
    " NULL, NULL);";

static char *
make_db(const char *name, const char *sql)
{
	sqlite3	*db;
	char	*p = xasprintf("%s/%s", ts_tmp(), name), *err = NULL;

	unlink(p);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	/* No fsync: the file is thrown away. */
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = OFF; "
	    "PRAGMA synchronous = OFF", NULL, NULL, NULL), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("synthetic SQL: %s", err);
	sqlite3_close(db);
	return p;
}

/* The one event of kind named name (fails unless exactly one). */
static struct evref
find_one(const struct model *m, int kind, const char *name)
{
	struct evref	r = { NONE32, NONE32 };
	size_t		t, i;
	int		n = 0;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != kind ||
			    strcmp(model_str(m, l->name[i]), name) != 0)
				continue;
			r.track = (uint32_t)t;
			r.idx = (uint32_t)i;
			n++;
		}
	}
	if (n != 1)
		fail_msg("%d events of kind %d named %s", n, kind, name);
	return r;
}

static void
test_synthetic_export(void **state)
{
	struct model		*m;
	char			*p, *cause = NULL;
	struct evref		 r;
	const struct lane	*l;
	const struct track	*tr;
	const struct nvtx_info	*ni;
	const struct copy_info	*ci;
	const struct kernel_info *ki;
	size_t			 i;
	uint64_t		 gtid = (1ULL << 56) | (2ULL << 48) |
				    (1234ULL << 24) | 1240;

	(void)state;
	/* A name that needs escaping in a URI. */
	p = make_db("we?ird #name %41.sqlite", synthetic_sql);
	m = ts_load(nsys_load, p);
	assert_string_equal(model_str(m, m->source_version), "2099.1.0");
	assert_string_equal(model_str(m, m->schema_version), "3.99.0");

	/* Kernels: NCCL flag, names, side table, negative times. */
	r = find_one(m, EV_KERNEL, "ncclDevKernel_AllReduce_Sum_f32");
	tr = &m->tracks[r.track];
	l = &tr->lane;
	assert_true(l->flags[r.idx] & EVF_COMM);
	assert_int_equal(l->start[r.idx], -500);
	assert_int_equal(l->end[r.idx], -100);
	assert_int_equal(l->corr[r.idx], 11);
	assert_int_equal(lane_rowid(l, r.idx), 1);
	ki = &m->kernels[l->aux[r.idx]];
	assert_int_equal(ki->grid[0], 8);
	assert_int_equal(ki->grid[1], 0);	/* column absent */
	assert_int_equal(ki->block[0], 256);
	assert_int_equal(ki->regs, 40);
	assert_int_equal(ki->mangled, 0);
	assert_int_equal(tr->type, TRACK_GPU);
	assert_int_equal(m->devices[tr->device].source_id, 3);
	assert_int_equal(m->devices[tr->device].name, 0);
	assert_int_equal(m->streams[tr->stream].source_id, 7);
	assert_int_equal(m->streams[tr->stream].priority, -3);
	assert_string_equal(model_str(m, m->streams[tr->stream].name),
	    "comm stream");
	assert_int_equal(m->processes[tr->process].pid, 1234);
	assert_int_equal(m->processes[tr->process].hw_id, 1);
	assert_int_equal(m->processes[tr->process].vm_id, 2);
	assert_string_equal(model_str(m, m->processes[tr->process].name),
	    "python");
	assert_int_equal(count_events(m, EV_KERNEL, EVF_COMM, EVF_COMM), 1);
	assert_int_equal(count_events(m, EV_KERNEL, 0, 0), 3);
	/* Stream 8 is a second track; stream 7 has no NVTX name there. */
	assert_int_equal(m->nstreams, 2);
	for (i = 0; i < m->nprocesses; i++)
		assert_int_not_equal(m->processes[i].pid, 1241);

	/* Memcpy without ENUM tables: FORMATS.md numbering, the labels
	 * older nsysstats printed. */
	r = find_one(m, EV_MEMCPY, "[CUDA memcpy HtoD]");
	ci = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(ci->kind, COPY_HTOD);
	assert_int_equal(ci->bytes, 100);
	assert_int_equal(ci->src_kind, MEM_PAGEABLE);
	assert_int_equal(ci->dst_kind, MEM_DEVICE);
	assert_int_equal(ci->src_dev, NONE32);
	assert_int_equal(ci->dst_dev, 3);
	r = find_one(m, EV_MEMCPY, "[CUDA memcpy PtoP]");
	ci = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(ci->kind, COPY_PTOP);
	assert_int_equal(ci->dst_dev, 4);
	r = find_one(m, EV_MEMCPY, "[CUDA memcpy Unified HtoD]");
	ci = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(ci->kind, COPY_UM_HTOD);
	assert_int_equal(ci->src_kind, MEM_MANAGED);
	r = find_one(m, EV_MEMSET, "[CUDA memset]");
	ci = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(ci->bytes, 4096);
	assert_int_equal(ci->value, 255);
	assert_int_equal(ci->dst_kind, MEM_DEVICE);

	/* Sync: labels, aux = syncType, rowid, and the stream's sync
	 * track. */
	r = find_one(m, EV_SYNC, "Stream sync");
	assert_int_equal(m->tracks[r.track].type, TRACK_SYNC);
	assert_int_equal(m->streams[m->tracks[r.track].stream].source_id, 7);
	assert_int_equal(m->tracks[r.track].lane.aux[r.idx], 3);
	assert_int_equal(lane_rowid(&m->tracks[r.track].lane, r.idx), 1);
	r = find_one(m, EV_SYNC, "Sync type 9");

	/* API: verbatim names, driver flag, thread and process. */
	r = find_one(m, EV_API, "cudaLaunchKernel_v7000");
	assert_false(m->tracks[r.track].lane.flags[r.idx] & EVF_DRIVER);
	assert_int_equal(m->tracks[r.track].type, TRACK_API);
	assert_int_equal(m->threads[m->tracks[r.track].thread].source_id,
	    gtid);
	assert_int_equal(m->threads[m->tracks[r.track].thread].tid, 1240);
	r = find_one(m, EV_API, "cuLaunchKernel");
	assert_true(m->tracks[r.track].lane.flags[r.idx] & EVF_DRIVER);
	assert_int_equal(m->tracks[r.track].lane.corr[r.idx], 12);
	/* nameId 4 is not in StringIds: empty name and a warning. */
	assert_int_equal(count_events(m, EV_API, 0, 0), 3);

	/* OSRT from a WITHOUT ROWID table; the thread's ThreadNames name. */
	r = find_one(m, EV_OSRT, "gemm");
	assert_int_equal(m->tracks[r.track].type, TRACK_OSRT);
	assert_int_equal(lane_rowid(&m->tracks[r.track].lane, r.idx), -1);
	assert_false(m->tracks[r.track].lane.flags[r.idx] & EVF_NOTOSRT);
	r = find_one(m, EV_OSRT, "ncclDevKernel_AllReduce_Sum_f32");
	assert_true(m->tracks[r.track].lane.flags[r.idx] & EVF_NOTOSRT);
	assert_string_equal(model_str(m,
	    m->threads[m->tracks[r.track].thread].name), "main thread");

	/* NVTX. */
	r = find_one(m, EV_NVTX, "outer");
	tr = &m->tracks[r.track];
	ni = &m->nvtx[tr->lane.aux[r.idx]];
	assert_int_equal(tr->type, TRACK_NVTX);
	assert_string_equal(model_str(m, m->domains[tr->domain].name), "NCCL");
	assert_int_equal(m->domains[tr->domain].source_id, 5);
	assert_int_equal(ni->domain, tr->domain);
	assert_true(tr->lane.flags[r.idx] & EVF_COMM);	/* NCCL domain */
	assert_false(tr->lane.flags[r.idx] & EVF_STARTEND);
	assert_int_equal(ni->category, 3);
	assert_string_equal(model_str(m, ni->category_name), "cat-three");
	assert_int_equal(ni->color, 0xFF0000FFu);
	assert_int_equal(ni->payload_type, NVTX_PAYLOAD_INT);
	assert_int_equal(ni->payload.i, -42);
	assert_string_equal(model_str(m, m->threads[tr->thread].name),
	    "renamed");

	r = find_one(m, EV_NVTX, "range-from-id");	/* textId, open */
	l = &m->tracks[r.track].lane;
	assert_true(l->flags[r.idx] & EVF_OPEN);
	assert_int_equal(l->end[r.idx], m->end_ns);
	assert_int_equal(m->tracks[r.track].domain, 0);
	assert_false(l->flags[r.idx] & EVF_COMM);

	r = find_one(m, EV_NVTX, "async");
	l = &m->tracks[r.track].lane;
	assert_true(l->flags[r.idx] & EVF_STARTEND);
	assert_true(l->flags[r.idx] & EVF_CROSSTHREAD);
	assert_int_equal(l->end[r.idx], 800);
	assert_int_equal(m->threads[m->tracks[r.track].thread].source_id,
	    gtid);
	ni = &m->nvtx[l->aux[r.idx]];
	assert_int_equal(ni->payload_type, NVTX_PAYLOAD_UINT);
	assert_int_equal(ni->payload.u, 17);
	r = find_one(m, EV_NVTX, "same-thread");
	l = &m->tracks[r.track].lane;
	assert_true(l->flags[r.idx] & EVF_STARTEND);
	assert_false(l->flags[r.idx] & EVF_CROSSTHREAD);

	r = find_one(m, EV_MARK, "mark");
	l = &m->tracks[r.track].lane;
	assert_int_equal(l->start[r.idx], 450);
	assert_int_equal(l->end[r.idx], 450);
	ni = &m->nvtx[l->aux[r.idx]];
	assert_int_equal(ni->payload_type, NVTX_PAYLOAD_DOUBLE);
	assert_true(ni->payload.d == 2.5);
	assert_int_equal(m->nnvtx, 5);

	/* Warnings: the missing string and the skipped DomainDestroy. */
	assert_true(ts_has_warning(m, "StringIds"));
	assert_true(ts_has_warning(m, "76: 1"));
	assert_int_equal(m->origin_ns, -600);
	model_free(m);

	/* The same through source_read (detection, URI escaping). */
	m = source_read(p, NULL, &cause);
	assert_non_null(m);
	model_free(m);
	free(p);
}

/* ENUM tables win over the built-in numbering, whatever their ids. */
static void
test_enum_tables(void **state)
{
	struct model		*m;
	struct evref		 r;
	const struct copy_info	*ci;
	char			*p;

	(void)state;
	p = make_db("enums.sqlite",
	    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
	    "CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER PRIMARY KEY,"
	    " name TEXT, label TEXT);"
	    "INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES"
	    " (159, 'NvtxPushPopRange', 'NvtxPushPopRange'),"
	    " (134, 'NvtxMark', 'NvtxMark'), (59, 'Other', 'Other');"
	    "CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER PRIMARY KEY,"
	    " name TEXT, label TEXT);"
	    "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES"
	    " (1, 'CUDA_MEMCPY_KIND_HTOD', 'HtoD'),"
	    " (2, 'CUDA_MEMCPY_KIND_UVM_DTOH', 'Unified Device-to-Host');"
	    "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY,"
	    " name TEXT, label TEXT);"
	    "INSERT INTO ENUM_CUDA_MEM_KIND VALUES"
	    " (0, 'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN', 'Unknown'),"
	    " (1, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC', 'Device Static'),"
	    " (2, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned');"
	    "CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER PRIMARY KEY,"
	    " name TEXT, label TEXT);"
	    "INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES (3, 'X', 'Custom sync');"
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER,"
	    " end INTEGER, deviceId INTEGER, streamId INTEGER,"
	    " globalPid INTEGER, bytes INTEGER, copyKind INTEGER,"
	    " srcKind INTEGER, dstKind INTEGER);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES"
	    " (1, 2, 0, 7, 1 << 24, 10, 1, 2, 1), (3, 4, 0, 7, 1 << 24, 20,"
	    " 2, 0, NULL), (5, 6, 0, 7, 1 << 24, 30, 99, 0, 0);"
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER,"
	    " end INTEGER, deviceId INTEGER, streamId INTEGER,"
	    " globalPid INTEGER, syncType INTEGER);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES"
	    " (7, 8, 0, 7, 1 << 24, 3), (9, 10, 0, 7, 1 << 24, 1);"
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE (start INTEGER,"
	    " end INTEGER, deviceId INTEGER, streamId INTEGER,"
	    " globalPid INTEGER, correlationId INTEGER, graphId INTEGER,"
	    " graphExecId INTEGER);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES"
	    " (11, 20, 0, 7, 1 << 24, 5, 42, 1);"
	    "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER,"
	    " eventType INTEGER, text TEXT, globalTid INTEGER);"
	    "INSERT INTO NVTX_EVENTS VALUES (1, 5, 159, 'pushed', 1 << 24),"
	    " (2, NULL, 134, 'marked', 1 << 24),"
	    " (3, 4, 59, 'not a range here', 1 << 24);");
	m = ts_load(nsys_load, p);

	r = find_one(m, EV_MEMCPY, "[CUDA memcpy HtoD]");	/* the label */
	ci = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(ci->kind, COPY_HTOD);
	assert_int_equal(ci->src_kind, MEM_PINNED);
	assert_int_equal(ci->dst_kind, MEM_DEVICE_STATIC);
	r = find_one(m, EV_MEMCPY, "[CUDA memcpy Unified Device-to-Host]");
	ci = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(ci->kind, COPY_UM_DTOH);
	assert_int_equal(ci->src_kind, MEM_UNKNOWN);
	assert_int_equal(ci->dst_kind, MEM_UNKNOWN);	/* NULL */
	r = find_one(m, EV_MEMCPY, "[CUDA memcpy Unknown]");	/* id 99 */

	find_one(m, EV_SYNC, "Custom sync");
	find_one(m, EV_SYNC, "Event sync");	/* not in the table */

	r = find_one(m, EV_GRAPH, "CUDA graph 42");
	assert_int_equal(m->tracks[r.track].lane.corr[r.idx], 5);
	assert_int_equal(m->tracks[r.track].lane.end[r.idx], 20);

	find_one(m, EV_NVTX, "pushed");
	find_one(m, EV_MARK, "marked");
	assert_int_equal(count_events(m, EV_NVTX, 0, 0), 1);
	assert_int_equal(m->nnvtx, 2);
	model_free(m);
	free(p);
}

static void
test_unknown_schema_major(void **state)
{
	char	*p, *cause = NULL;

	(void)state;
	p = make_db("future.sqlite",
	    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER,"
	    " end INTEGER, deviceId INTEGER, streamId INTEGER);"
	    "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);"
	    "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION',"
	    " '4.0.1');");
	assert_null(nsys_load(p, NULL, &cause));
	assert_non_null(cause);
	assert_non_null(strstr(cause, p));
	assert_non_null(strstr(cause, "schema version 4.0.1"));
	free(cause);
	free(p);

	/* A required column missing: the table is skipped, with a warning. */
	p = make_db("nocol.sqlite",
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER,"
	    " deviceId INTEGER, streamId INTEGER);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 0, 7);");
	{
		struct model *m = nsys_load(p, NULL, &cause);

		assert_non_null(m);
		assert_int_equal(m->nevents, 0);
		assert_true(ts_has_warning(m, "no column end"));
		assert_non_null(strstr(model_str(m, m->source_version),
		    "unknown"));
		model_free(m);
	}
	free(p);
}

/* Binary reports. */

static char *
find_report(const char *suffix)
{
	char	**files = NULL, *r = NULL;
	size_t	  n = 0, cap = 0, i;

	if (fixture_dir == NULL)
		return NULL;
	find_files(fixture_dir, suffix, &files, &n, &cap);
	if (n > 0) {
		qsort(files, n, sizeof *files, str_cmp);
		r = files[0];
	}
	for (i = 1; i < n; i++)
		free(files[i]);
	free(files);
	return r;
}

static void
test_report_without_nsys(void **state)
{
	char		*rep, *qd, *old, *empty, *cause = NULL;
	const char	*what;
	struct model	*m;

	(void)state;
	need_fixtures();
	rep = find_report(".nsys-rep");
	qd = find_report(".qdrep");
	if (rep == NULL || qd == NULL) {
		free(rep);
		free(qd);
		skip();
	}
	assert_int_equal(source_detect(rep, &what, &cause), DETECT_NSYS_REP);
	assert_int_equal(source_detect(qd, &what, &cause), DETECT_NSYS_REP);
	assert_null(cause);

	empty = xasprintf("%s/emptybin", ts_tmp());
	assert_int_equal(mkdir(empty, 0755), 0);
	old = xstrdup(getenv("PATH") != NULL ? getenv("PATH") : "");
	setenv("PATH", empty, 1);
	m = source_read(rep, NULL, &cause);
	setenv("PATH", old, 1);
	assert_null(m);
	assert_non_null(cause);
	assert_non_null(strstr(cause, rep));
	assert_non_null(strstr(cause, "nsys export --type sqlite --output "));
	assert_non_null(strstr(cause, "not on PATH"));
	free(cause);
	/* nsys_load itself refuses it as not SQLite. */
	cause = NULL;
	ts_refused(nsys_load, qd, "not an SQLite database");
	free(old);
	free(empty);
	free(rep);
	free(qd);
}

/* With an `nsys` on PATH (a stand-in script that copies a fixture to its
 * --output), the report is exported once and loaded. */
static void
test_report_with_fake_nsys(void **state)
{
	char		*rep, *src, *bin, *script, *copy, *old, *count;
	char		*cause = NULL;
	unsigned char	*buf;
	size_t		 len;
	struct model	*m;
	FILE		*f;
	size_t		 i, calls;
	const struct model *want = NULL;

	(void)state;
	need_fixtures();
	if ((rep = find_report(".nsys-rep")) == NULL)
		skip();
	/* Its SQLite sibling, as the fake export. */
	src = xasprintf("%.*s.sqlite", (int)(strlen(rep) - 9), rep);
	for (i = 0; i < nfixtures; i++)
		if (strcmp(fixtures[i].path, src) == 0)
			want = fixtures[i].m;
	if (want == NULL) {
		free(rep);
		free(src);
		skip();
	}
	bin = xasprintf("%s/bin", ts_tmp());
	assert_int_equal(mkdir(bin, 0755), 0);
	count = xasprintf("%s/calls", ts_tmp());
	script = xasprintf("%s/nsys", bin);
	assert_non_null(f = fopen(script, "w"));
	fprintf(f, "#!/bin/sh\n"
	    "PATH=/usr/bin:/bin\n"
	    "echo \"$@\" >> '%s'\n"
	    "while [ $# -gt 0 ]; do\n"
	    "  if [ \"$1\" = --output ]; then out=$2; fi\n"
	    "  shift\n"
	    "done\n"
	    "cp '%s' \"$out\"\n", count, src);
	fclose(f);
	assert_int_equal(chmod(script, 0755), 0);

	/* A copy of the report, so any cache lands in the temp dir. */
	buf = slurp(rep, &len);
	copy = tmp_file("copy.nsys-rep", buf, len);
	free(buf);

	old = xstrdup(getenv("PATH") != NULL ? getenv("PATH") : "");
	setenv("PATH", bin, 1);
	m = source_read(copy, NULL, &cause);
	if (m == NULL)
		fail_msg("source_read: %s", cause);
	assert_int_equal(count_events(m, EV_KERNEL, 0, 0),
	    count_events(want, EV_KERNEL, 0, 0));
	assert_int_equal(m->nevents, want->nevents);
	model_free(m);
	/* The export is reused while the report keeps its identity. */
	m = source_read(copy, NULL, &cause);
	assert_non_null(m);
	model_free(m);
	buf = slurp(count, &len);
	buf[len] = '\0';
	assert_non_null(strstr((char *)buf, "export --type sqlite"));
	for (i = 0, calls = 0; i < len; i++)
		calls += buf[i] == '\n';
	assert_int_equal(calls, 1);	/* exported once, then reused */
	free(buf);
	/* A symlink planted where the export goes is not followed: the
	 * report is exported again, and a regular file replaces it. */
	{
		struct cachedir_ident	 id;
		struct stat		 st;
		char			*sq;

		assert_int_equal(cachedir_ident(copy, &id, &cause), 0);
		assert_non_null(sq = cachedir_derived(copy, &id, ".sqlite",
		    &cause));
		assert_int_equal(unlink(sq), 0);
		assert_int_equal(symlink(rep, sq), 0);
		m = source_read(copy, NULL, &cause);
		if (m == NULL)
			fail_msg("source_read: %s", cause);
		model_free(m);
		assert_int_equal(lstat(sq, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		free(sq);
	}
	setenv("PATH", old, 1);
	buf = slurp(count, &len);
	for (i = 0, calls = 0; i < len; i++)
		calls += buf[i] == '\n';
	assert_int_equal(calls, 2);	/* exported again past the symlink */
	free(buf);
	free(old);
	free(copy);
	free(script);
	free(count);
	free(bin);
	free(src);
	free(rep);
}

/*
 * Checks the sync tracks of m: every wait of process pid is on the GPU
 * whose source id is dev (dev < 0: not checked), no track is named after
 * the 0xFFFFFFFF "stream" of a wait on no stream, and waits on no stream
 * are on a track named "Context N sync". Returns the waits of pid.
 */
static uint64_t
check_sync_tracks(const struct model *m, uint32_t pid, int64_t dev)
{
	uint64_t	n = 0;
	size_t		t;
	char		want[64];

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const char *name = strpool_get(m->strs, tr->name);
		const struct stream *sp;

		if (strstr(name, "4294967295") != NULL)
			fail_msg("track %zu is named \"%s\"", t, name);
		if (tr->type != TRACK_SYNC)
			continue;
		sp = &m->streams[tr->stream];
		if (sp->source_id == 0xFFFFFFFFu) {
			snprintf(want, sizeof want, "Context %u sync",
			    sp->context);
			assert_string_equal(name, want);
		}
		if (sp->process == NONE32 ||
		    m->processes[sp->process].pid != pid)
			continue;
		if (dev >= 0)
			assert_int_equal(m->devices[tr->device].source_id,
			    dev);
		n += tr->lane.n;
	}
	return n;
}

/*
 * mfu_2gpu_before: every SYNCHRONIZATION row says deviceId 0, but context
 * 2 is pid 145's, whose kernels all run on device 1: its waits belong
 * under GPU 1, and its event syncs (streamId 0xFFFFFFFF) on a track
 * "Context 2 sync".
 */
static void
test_sync_device_of_context(void **state)
{
	const struct model	*m = NULL;
	sqlite3			*db = NULL;
	size_t			 i;
	int64_t			 rows;

	(void)state;
	need_fixtures();
	for (i = 0; i < nfixtures; i++) {
		if (fixtures[i].m != NULL)
			(void)check_sync_tracks(fixtures[i].m, 0, -1);
		if (strstr(fixtures[i].path, "nsys-ai/mfu_2gpu_before") !=
		    NULL) {
			m = fixtures[i].m;
			db = fixtures[i].db;
		}
	}
	if (m == NULL)
		ts_skip("nsys-ai/mfu_2gpu_before.sqlite absent");
	assert_int_equal(ts_sql_int(db, "SELECT count(DISTINCT deviceId) "
	    "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 1);
	assert_int_equal(ts_sql_int(db, "SELECT count(DISTINCT deviceId) "
	    "FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid >> 24 & 16777215 "
	    "= 145"), 1);
	assert_int_equal(ts_sql_int(db, "SELECT deviceId FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid >> 24 & 16777215 "
	    "= 145 LIMIT 1"), 1);
	rows = ts_sql_int(db, "SELECT count(*) FROM "
	    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE globalPid >> 24 & "
	    "16777215 = 145");
	assert_true(rows > 0);
	assert_int_equal(check_sync_tracks(m, 145, 1), rows);
	assert_int_equal(check_sync_tracks(m, 144, 0), ts_sql_int(db,
	    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION WHERE "
	    "globalPid >> 24 & 16777215 = 144"));
}

/* The same on a generated trace with both quirks: each rank's waits on
 * its own GPU, its context syncs on "Context N sync". */
static void
test_sync_device_generated(void **state)
{
	struct gen_opts	 o;
	struct gen_stats gs;
	struct model	*m;
	char		*p, *cause = NULL;
	uint64_t	 n = 0;
	size_t		 i, t, ctxtracks = 0;

	(void)state;
	p = xasprintf("%s/syncq.sqlite", ts_tmp());
	gen_opts_default(&o);
	o.events = 6000;
	o.gpus = 3;
	o.quirks = GEN_QUIRK_SYNC_DEVICE0 | GEN_QUIRK_SYNC_NOSTREAM;
	if (gen_write_nsys(p, &o, &gs, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	m = ts_load(nsys_load, p);
	/* One process per GPU, rank i on device i, pids in rank order. */
	assert_int_equal(m->nprocesses, 3);
	for (i = 0; i < m->nprocesses; i++)
		n += check_sync_tracks(m, m->processes[i].pid, (int64_t)i);
	assert_int_equal(n, gs.syncs);
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].type == TRACK_SYNC &&
		    strncmp(strpool_get(m->strs, m->tracks[t].name),
		    "Context ", 8) == 0)
			ctxtracks++;
	assert_int_equal(ctxtracks, 3);
	assert_true(ts_has_warning(m, "rows shown on the GPU their context's "
	    "work ran on"));
	model_free(m);
	unlink(p);
	free(p);
}

/*
 * A view with the name of a table the reader reads is refused, naming it,
 * before any query on it runs: a recursive view never ends (it once hung
 * in the size estimate's max(rowid)). A view of another name is ignored.
 */
static void
test_view_refused(void **state)
{
	struct model	*m;
	char		*p;

	(void)state;
	p = make_db("view.sqlite", "CREATE TABLE StringIds (id INTEGER,"
	    " value TEXT);"
	    "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER,"
	    " eventType INTEGER, text TEXT, globalTid INTEGER);"
	    "INSERT INTO NVTX_EVENTS VALUES (10, 20, 59, 'r', 5);"
	    "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE"
	    " c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
	    " SELECT x AS start, x + 1 AS end, 0 AS deviceId, 7 AS streamId"
	    " FROM c;");
	expect_failure(p, "CUPTI_ACTIVITY_KIND_KERNEL is a view, not a table");
	unlink(p);
	free(p);

	p = make_db("otherview.sqlite", "CREATE TABLE StringIds (id INTEGER,"
	    " value TEXT);"
	    "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER,"
	    " eventType INTEGER, text TEXT, globalTid INTEGER);"
	    "INSERT INTO NVTX_EVENTS VALUES (10, 20, 59, 'r', 5);"
	    "CREATE VIEW endless AS WITH RECURSIVE"
	    " c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
	    " SELECT x FROM c ORDER BY x DESC;");
	m = ts_load(nsys_load, p);
	assert_int_equal(count_events(m, EV_NVTX, 0, 0), 1);
	model_free(m);
	unlink(p);
	free(p);
}

/* Sum of the durations of the kernels of m. */
static int64_t
kernel_total(const struct model *m)
{
	int64_t	sum = 0;
	size_t	t, i;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == EV_KERNEL)
				sum += l->end[i] - l->start[i];
	}
	return sum;
}

/*
 * Kernel rows whose start or end is text, a blob or NULL, or whose start
 * is after their end, used to load as times of 0 (origin 0, a span of the
 * whole clock) or as 0 ns kernels: they are skipped and counted in one
 * warning, and the totals are those of the good rows. A table where most
 * rows are so is refused.
 */
static void
test_bad_times(void **state)
{
	struct gen_opts	 o;
	struct model	*m;
	sqlite3		*db;
	char		*p, *cause = NULL;
	int64_t		 good, total, origin, nk;

	(void)state;
	p = xasprintf("%s/badtimes.sqlite", ts_tmp());
	gen_opts_default(&o);
	o.events = 6000;
	o.gpus = 2;
	if (gen_write_nsys(p, &o, NULL, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	/* Without NOT NULL, so that a start can be NULL. */
	ts_sql(db, "CREATE TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL "
	    "ORDER BY rowid");
	ts_sql(db, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL");
	ts_sql(db, "ALTER TABLE k RENAME TO CUPTI_ACTIVITY_KIND_KERNEL");
	nk = ts_sql_int(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL");
	ts_sql(db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' "
	    "WHERE rowid IN (2, 3, 4)");
	ts_sql(db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = x'0102' "
	    "WHERE rowid IN (5, 6)");
	ts_sql(db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL "
	    "WHERE rowid = 7");
	ts_sql(db, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = end + 1000 "
	    "WHERE rowid IN (8, 9)");
	good = ts_sql_int(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
	    "WHERE typeof(start) = 'integer' AND typeof(end) = 'integer' AND "
	    "start <= end");
	assert_int_equal(good, nk - 8);
	total = ts_sql_int(db, "SELECT sum(end - start) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL WHERE typeof(start) = 'integer' AND "
	    "typeof(end) = 'integer' AND start <= end");
	origin = ts_sql_int(db, "SELECT min(s) FROM (SELECT min(start) s FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL WHERE typeof(start) = 'integer' AND "
	    "typeof(end) = 'integer' AND start <= end UNION ALL SELECT "
	    "min(start) FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT "
	    "min(start) FROM CUPTI_ACTIVITY_KIND_MEMSET UNION ALL SELECT "
	    "min(start) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION UNION ALL "
	    "SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION ALL "
	    "SELECT min(start) FROM NVTX_EVENTS)");
	sqlite3_close(db);

	m = ts_load(nsys_load, p);
	assert_int_equal(count_events(m, EV_KERNEL, 0, 0), good);
	assert_int_equal(kernel_total(m), total);
	assert_int_equal(m->origin_ns, origin);
	if (!ts_has_warning(m, "8 rows of CUPTI_ACTIVITY_KIND_KERNEL skipped: "
	    "6 with start/end not integers, 2 with start after end"))
		fail_msg("no warning for the skipped rows");
	model_free(m);

	/* Every memset row unusable: the table is refused. */
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	ts_sql(db, "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET end = 'later'");
	sqlite3_close(db);
	expect_failure(p, "CUPTI_ACTIVITY_KIND_MEMSET: ");
	expect_failure(p, "rows have unusable times");
	unlink(p);
	free(p);
}

TS_MAIN(group_setup, group_teardown,
	cmocka_unit_test(test_all_fixtures_load),
	cmocka_unit_test(test_sync_device_of_context),
	cmocka_unit_test(test_sync_device_generated),
	cmocka_unit_test(test_view_refused),
	cmocka_unit_test(test_bad_times),
	cmocka_unit_test(test_kernels_per_device),
	cmocka_unit_test(test_kernels_per_name),
	cmocka_unit_test(test_nccl_kernels_flagged),
	cmocka_unit_test(test_memcpy_per_kind),
	cmocka_unit_test(test_memset_count_bytes),
	cmocka_unit_test(test_api_sync_osrt_counts),
	cmocka_unit_test(test_nvtx_counts),
	cmocka_unit_test(test_nvtx_names_and_domains),
	cmocka_unit_test(test_processes_and_threads),
	cmocka_unit_test(test_devices_and_meta),
	cmocka_unit_test(test_rowids),
	cmocka_unit_test(test_kernel_info),
	cmocka_unit_test(test_read_only),
	cmocka_unit_test(test_not_sqlite),
	cmocka_unit_test(test_empty_file),
	cmocka_unit_test(test_directory),
	cmocka_unit_test(test_sqlite_without_nsys_tables),
	cmocka_unit_test(test_truncated_copy),
	cmocka_unit_test(test_corrupt_pages),
	cmocka_unit_test(test_corrupt_mid_scan),
	cmocka_unit_test(test_source_load_cache),
	cmocka_unit_test(test_synthetic_export),
	cmocka_unit_test(test_enum_tables),
	cmocka_unit_test(test_unknown_schema_major),
	cmocka_unit_test(test_report_without_nsys),
	cmocka_unit_test(test_report_with_fake_nsys))
