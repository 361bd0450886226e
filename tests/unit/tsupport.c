/*
 * tsupport: what the unit tests would otherwise each write again: a
 * scratch directory and files in it, the fixture lookup, SQLite
 * one-liners, models built by hand and looked up, JSON rows and screen
 * rows. See tsupport.h for the contract of each helper.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <zlib.h>

#include "model/builder.h"
#include "tui/cellgrid.h"
#include "tui/glyph.h"
#include "tui/keymap.h"
#include "model/model.h"
#include "model/nvtxfam.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "report/report.h"
#include "sources/ncurep.h"
#include "sources/source.h"
#include "tsupport.h"
#include "tui/view.h"
#include "util/xmalloc.h"

static char	*ts_dir;		/* the scratch directory */

/* ---- the scratch directory --------------------------------------- */

int
ts_tmp_init(void)
{
	const char	*tmp = getenv("TMPDIR");
	char		*dir;

	dir = xasprintf("%s/gpulens-test.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		free(dir);
		return -1;
	}
	ts_dir = dir;
	return 0;
}

int
ts_tmp_init_cache(void)
{
	if (ts_tmp_init() != 0)
		return -1;
	return setenv("XDG_CACHE_HOME", ts_path("xdg"), 1);
}

const char *
ts_tmp(void)
{
	return ts_dir;
}

char *
ts_path(const char *name)
{
	static char	buf[8][1024];
	static int	i;
	int		n;

	i = (i + 1) % 8;
	n = snprintf(buf[i], sizeof buf[i], "%s/%s", ts_dir, name);
	assert_true(n > 0 && (size_t)n < sizeof buf[i]);
	return buf[i];
}

int
ts_tmp_free(void)
{
	struct stat	sb;
	int		gone;

	if (ts_dir == NULL)
		return 0;
	ts_rm_rf(ts_dir);
	gone = lstat(ts_dir, &sb) != 0;
	free(ts_dir);
	ts_dir = NULL;
	return gone ? 0 : -1;
}

int
ts_tmp_setup(void **state)
{
	(void)state;
	return ts_tmp_init();
}

int
ts_tmp_teardown(void **state)
{
	(void)state;
	return ts_tmp_free();
}

int
ts_utf8_setup(void **state)
{
	(void)state;
	setlocale(LC_CTYPE, "C.UTF-8");
	return 0;
}

int
ts_model_teardown(void **state)
{
	model_free(*state);
	return 0;
}

int
ts_rm_rf(const char *path)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	char		*p;

	if (lstat(path, &sb) != 0)
		return 0;
	if (!S_ISDIR(sb.st_mode))
		return unlink(path);
	chmod(path, 0755);		/* tests make read-only directories */
	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			p = xasprintf("%s/%s", path, de->d_name);
			ts_rm_rf(p);
			free(p);
		}
		closedir(d);
	}
	return rmdir(path);
}

/* ---- files ------------------------------------------------------- */

void
ts_write(const char *path, const void *buf, size_t n)
{
	FILE	*f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

void
ts_write_str(const char *path, const char *s)
{
	ts_write(path, s, strlen(s));
}

void
ts_write_gz(const char *path, const void *buf, size_t n)
{
	gzFile	g = gzopen(path, "wb");

	assert_non_null(g);
	assert_int_equal(gzwrite(g, buf, (unsigned)n), (int)n);
	assert_int_equal(gzclose(g), Z_OK);
}

void *
ts_read(const char *path, size_t *n)
{
	FILE	*f = fopen(path, "rb");
	char	*p;
	long	 len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	p = xmalloc((size_t)len);
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

char *
ts_read_fp(FILE *f)
{
	long	 n;
	char	*buf;

	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = xcalloc(1, (size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* ---- real-profile fixtures --------------------------------------- */

const char *
ts_fixtures(void)
{
	const char	*dir = getenv("GPULENS_FIXTURES");

	if (dir == NULL || *dir == '\0' || access(dir, R_OK) != 0)
		return NULL;
	return dir;
}

const char *
ts_need_fixtures(void)
{
	const char	*dir = ts_fixtures();

	if (dir == NULL)
		ts_skip("GPULENS_FIXTURES unset, empty or not readable: the "
		    "real profiles are not checked");
	return dir;
}

char *
ts_fixture(const char *rel)
{
	const char	*dir = ts_fixtures();
	char		*p;

	if (dir == NULL)
		return NULL;
	p = xasprintf("%s/%s", dir, rel);
	if (access(p, R_OK) != 0) {
		free(p);
		return NULL;
	}
	return p;
}

void
ts_need_fixture(const char *rel)
{
	char	*p;

	if ((p = ts_fixture(rel)) == NULL)
		ts_skip("GPULENS_FIXTURES unset or fixtures missing: "
		    "skipping the real-profile checks");
	free(p);
}

void
ts_skip(const char *fmt, ...)
{
	va_list	ap;

	print_message("# ");
	va_start(ap, fmt);
	vprint_message(fmt, ap);
	va_end(ap);
	print_message("\n");
	skip();
	abort();		/* skip() does not return */
}

/* ---- SQLite ------------------------------------------------------ */

void
ts_sql(struct sqlite3 *db, const char *fmt, ...)
{
	va_list	 ap;
	char	*s, *err = NULL;

	va_start(ap, fmt);
	s = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	if (sqlite3_exec(db, s, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "SQL failed: %s\n%s\n", err, s);
		sqlite3_free(err);
		sqlite3_free(s);
		fail();
	}
	sqlite3_free(s);
}

int64_t
ts_sql_int(struct sqlite3 *db, const char *query)
{
	return ts_sqlf(db, "%s", query);
}

int64_t
ts_sqlf(struct sqlite3 *db, const char *fmt, ...)
{
	sqlite3_stmt	*st;
	va_list		 ap;
	char		*sql;
	int64_t		 v;

	va_start(ap, fmt);
	sql = xvasprintf(fmt, ap);
	va_end(ap);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	free(sql);
	return v;
}

struct sqlite3 *
ts_sql_open_ro(const char *path)
{
	sqlite3	*db = NULL;
	char	*uri = xasprintf("file:%s?immutable=1", path);

	assert_int_equal(sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI, NULL), SQLITE_OK);
	free(uri);
	return db;
}

sqlite3_stmt *
ts_sql_prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt	*st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail_msg("SQL error: %s: %s", sqlite3_errmsg(db), sql);
	return st;
}

int
ts_sql_has_table(struct sqlite3 *db, const char *name)
{
	sqlite3_stmt	*st;
	int		 found;

	assert_int_equal(sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master "
	    "WHERE type IN ('table', 'view') AND name = ?", -1, &st, NULL),
	    SQLITE_OK);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

char *
ts_sql_file(const char *name, const char *sql)
{
	char	*path = xstrdup(ts_path(name));
	sqlite3	*db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	ts_sql(db, "%s", sql);
	sqlite3_close(db);
	return path;
}

/* ---- loading traces ---------------------------------------------- */

struct model *
ts_try_load(ts_loader *load, const char *path)
{
	struct model	*m;
	char		*cause = NULL;

	if ((m = load(path, NULL, &cause)) == NULL)
		fprintf(stderr, "%s: %s\n", path,
		    cause != NULL ? cause : "(no cause)");
	free(cause);
	return m;
}

struct model *
ts_load(ts_loader *load, const char *path)
{
	struct model	*m = ts_try_load(load, path);

	if (m == NULL)
		fail_msg("%s does not load (the cause is on stderr)", path);
	return m;
}

void
ts_refused(ts_loader *load, const char *path, const char *want)
{
	char	*cause = NULL;

	assert_null(load(path, NULL, &cause));
	ts_cause_has(cause, want);
	free(cause);
}

void
ts_cause_has(const char *cause, const char *want)
{
	assert_non_null(cause);
	if (strstr(cause, want) == NULL)
		fail_msg("cause \"%s\" without \"%s\"", cause, want);
}

void
ts_sql_refused(ts_loader *load, const char *sql, const char *want)
{
	char	*p = ts_sql_file("other.db", sql);

	ts_refused(load, p, want);
	free(p);
}

/* ---- building models by hand ------------------------------------- */

struct model *
ts_finish(struct builder *b)
{
	struct model	*m;
	char		*cause = NULL;

	m = builder_finish(b, &cause);
	assert_non_null(m);
	assert_null(cause);
	return m;
}

struct lane_event
ts_event(struct builder *b, const char *name, int kind, int64_t start,
    int64_t end)
{
	struct lane_event	e;

	memset(&e, 0, sizeof e);
	e.start = start;
	e.end = end;
	e.name = builder_intern(b, name);
	e.kind = (uint8_t)kind;
	e.rowid = -1;
	e.aux = NONE32;
	return e;
}

void
ts_add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end)
{
	struct lane_event	e = ts_event(b, name, kind, start, end);

	builder_event(b, track, &e);
}

struct lane_event
ts_event_cf(struct builder *b, const char *name, int kind, int64_t start,
    int64_t end, uint32_t corr, uint8_t flags)
{
	struct lane_event	e = ts_event(b, name, kind, start, end);

	e.corr = corr;
	e.flags = flags;
	return e;
}

void
ts_add_cf(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr, uint8_t flags)
{
	struct lane_event	e = ts_event_cf(b, name, kind, start, end, corr,
				    flags);

	builder_event(b, track, &e);
}

void
ts_add_corr(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr)
{
	struct lane_event	e = ts_event_cf(b, name, kind, start, end, corr,
				    0);

	if (kind == EV_NVTX || kind == EV_MARK)
		e.aux = ts_nvtx(b, track);
	if (kind == EV_KERNEL)
		e.aux = ts_kernel(b, name);
	builder_event(b, track, &e);
}

uint32_t
ts_nsys_thread(struct builder *b, uint32_t pid, uint32_t tid,
    uint32_t *process)
{
	*process = builder_process(b, (uint64_t)pid << 24, pid, "train");
	return builder_thread(b, (uint64_t)pid << 24 | tid, tid, *process,
	    "main");
}

uint32_t
ts_stream(struct builder *b, uint32_t dev, uint32_t id, uint32_t process)
{
	return builder_gpu_track(b, builder_stream(b, dev, id, process));
}

uint32_t
ts_train(struct builder *b, uint32_t pid, uint32_t tid, const char *dev_name,
    uint32_t *gpu)
{
	struct device	dev;
	uint32_t	p, t;

	memset(&dev, 0, sizeof dev);
	if (dev_name != NULL)
		dev.name = builder_intern(b, dev_name);
	p = builder_process(b, pid, pid, "train");
	t = builder_thread(b, tid, tid, p, "main");
	*gpu = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev),
	    7, p));
	return t;
}

uint32_t
ts_train_nvtx(struct builder *b, uint32_t pid, uint32_t tid,
    const char *dev_name, uint32_t *gpu, uint32_t *nv, uint32_t *api)
{
	uint32_t	t;

	t = ts_train(b, pid, tid, dev_name, gpu);
	*nv = builder_cpu_track(b, TRACK_NVTX, t, 0);
	*api = builder_cpu_track(b, TRACK_API, t, 0);
	return t;
}

uint32_t
ts_nvtx_steps(struct builder *b, uint32_t pid, uint32_t tid, uint32_t corr)
{
	/* The API call at [at, at + 1] and the GPU work it launched. */
	static const struct {
		const char	*api, *name;
		int		 kind;
		int64_t		 at, start, end;
	} launch[] = {
		{ "cudaLaunchKernel", "k1", EV_KERNEL, 15, 20, 30 },
		{ "cudaLaunchKernel", "k2", EV_KERNEL, 55, 60, 100 },
		{ "cudaMemcpyAsync", "copy", EV_MEMCPY, 112, 120, 125 },
		{ "cudaLaunchKernel", "k3", EV_KERNEL, 300, 305, 310 },
	};
	uint32_t	t, nv, api, gpu, i;
	int64_t		s;

	t = ts_train_nvtx(b, pid, tid, NULL, &gpu, &nv, &api);
	for (i = 0; i < 2; i++) {
		s = 100 * (int64_t)i;
		ts_add_corr(b, nv, i == 0 ? "Step#1" : "Step#2", EV_NVTX, s,
		    s + 100, 0);
		ts_add_corr(b, nv, "fwd", EV_NVTX, s + 10, s + 40, 0);
		ts_add_corr(b, nv, "bwd", EV_NVTX, s + 50, s + 90, 0);
	}
	ts_add_corr(b, nv, "init", EV_NVTX, -50, -10, 0);
	ts_add_corr(b, nv, "mark", EV_MARK, 20, 20, 0);
	for (i = 0; i < 4; i++)
		ts_add_corr(b, api, launch[i].api, EV_API, launch[i].at,
		    launch[i].at + 1, corr + i);
	for (i = 0; i < 4; i++)
		ts_add_corr(b, gpu, launch[i].name, launch[i].kind,
		    launch[i].start, launch[i].end, corr + i);
	return t;
}

uint32_t
ts_device(struct builder *b, uint32_t source_id)
{
	struct device	dev;

	memset(&dev, 0, sizeof dev);
	dev.source_id = source_id;
	dev.process = NONE32;
	return builder_device(b, &dev);
}

uint32_t
ts_gpu_streams(struct builder *b, uint32_t *tracks, size_t n)
{
	struct device	dev;
	uint32_t	d;
	size_t		i;

	memset(&dev, 0, sizeof dev);
	d = builder_device(b, &dev);
	for (i = 0; i < n; i++)
		tracks[i] = builder_gpu_track(b,
		    builder_stream(b, d, (uint32_t)i + 1, NONE32));
	return d;
}

uint32_t
ts_copy(struct builder *b, int kind, int src_kind, int dst_kind,
    uint64_t bytes)
{
	struct copy_info	ci;

	memset(&ci, 0, sizeof ci);
	ci.bytes = bytes;
	ci.kind = (uint8_t)kind;
	ci.src_kind = (uint8_t)src_kind;
	ci.dst_kind = (uint8_t)dst_kind;
	ci.src_dev = ci.dst_dev = NONE32;
	return builder_copy(b, &ci);
}

uint32_t
ts_kernel(struct builder *b, const char *short_name)
{
	struct kernel_info	ki;

	memset(&ki, 0, sizeof ki);
	ki.short_name = builder_intern(b, short_name);
	return builder_kernel(b, &ki);
}

uint32_t
ts_nvtx(struct builder *b, uint32_t track)
{
	struct nvtx_info	ni;

	memset(&ni, 0, sizeof ni);
	ni.domain = b->m->tracks[track].domain;
	return builder_nvtx(b, &ni);
}

/* An event of ts_model_activity(). */
static void
activity_add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint8_t flags)
{
	struct lane_event	e = ts_event(b, name, kind, start, end);

	e.flags = flags;
	if (kind == EV_MEMCPY)
		e.aux = ts_copy(b, COPY_HTOD, 0, 0, 0);
	builder_event(b, track, &e);
}

struct model *
ts_model_activity(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 d5, d2, d9, p, s7, s8, s9;

	d5 = ts_device(b, 5);
	d2 = ts_device(b, 2);
	d9 = ts_device(b, 9);
	(void)d5;
	p = builder_process(b, 100ULL << 24, 100, "train");
	s7 = builder_stream(b, d2, 7, p);
	s8 = builder_stream(b, d2, 8, p);
	s9 = builder_stream(b, d9, 1, NONE32);
	activity_add(b, builder_gpu_track(b, s7), "k", EV_KERNEL, 0, 100, 0);
	activity_add(b, builder_gpu_track(b, s7), "k", EV_KERNEL, 150, 250, 0);
	activity_add(b, builder_gpu_track(b, s7), "copy", EV_MEMCPY, 300, 350,
	    0);
	activity_add(b, builder_gpu_track(b, s8), "nccl", EV_KERNEL, 50, 200,
	    EVF_COMM);
	activity_add(b, builder_sync_track(b, s7), "sync", EV_SYNC, 0, 400, 0);
	activity_add(b, builder_gpu_track(b, s9), "k", EV_KERNEL, 1000, 1100,
	    0);
	return ts_finish(b);
}

/* An event of ts_model_sync_copy(); copies get their copy record. */
static void
sync_copy_add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr)
{
	struct lane_event	e = ts_event_cf(b, name, kind, start, end, corr,
				    0);

	if (kind == EV_MEMCPY)
		e.aux = ts_copy(b, COPY_HTOD, MEM_PAGEABLE, MEM_DEVICE,
		    1 << 20);
	builder_event(b, track, &e);
}

struct model *
ts_model_sync_copy(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, t, a, g;
	const int64_t	 us = 1000;

	ts_device(b, 0);
	t = ts_nsys_thread(b, 100, 1, &p);
	a = builder_cpu_track(b, TRACK_API, t, 0);
	g = builder_gpu_track(b, builder_stream(b, 0, 7, p));
	sync_copy_add(b, a, "cudaLaunchKernel", EV_API, -10 * us, -5 * us, 1);
	sync_copy_add(b, a, "cudaMemcpy_v3020", EV_API, 200 * us, 410 * us, 2);
	sync_copy_add(b, a, "cudaLaunchKernel", EV_API, 405 * us, 406 * us, 3);
	sync_copy_add(b, a, "cudaStreamSynchronize", EV_API, 500 * us,
	    600 * us, 0);
	sync_copy_add(b, a, "cudaLaunchKernel", EV_API, 990 * us, 999 * us, 4);
	sync_copy_add(b, a, "cudaLaunchKernel", EV_API, 1100200, 1100400, 5);
	sync_copy_add(b, a, "cudaFree", EV_API, 1200 * us, 1990 * us, 0);
	sync_copy_add(b, g, "k", EV_KERNEL, 0, 100 * us, 1);
	sync_copy_add(b, g, "[CUDA memcpy Host-to-Device]", EV_MEMCPY,
	    300 * us, 400 * us, 2);
	sync_copy_add(b, g, "k", EV_KERNEL, 400 * us, 500 * us, 3);
	sync_copy_add(b, g, "k", EV_KERNEL, 1000 * us, 1100 * us, 4);
	sync_copy_add(b, g, "k", EV_KERNEL, 1100500, 1200 * us, 5);
	return ts_finish(b);
}

struct report *
ts_ncurep(const char *path)
{
	struct report	*r;
	char		*cause = NULL;

	if ((r = ncurep_load(path, &cause)) == NULL)
		fail_msg("%s: %s", path, cause);
	return r;
}

struct report *
ts_ncu_fixture(const char *rel)
{
	char		*sub = xasprintf("ncu/%s", rel), *p = ts_fixture(sub);
	struct report	*r;

	free(sub);
	if (p == NULL)
		ts_skip("GPULENS_FIXTURES unset or without ncu/%s: skipping",
		    rel);
	r = ts_ncurep(p);
	free(p);
	return r;
}

void
ts_metric(struct report *r, uint32_t launch, const char *name, double v)
{
	struct report_metric	*m;

	m = report_add_metric(r, launch, report_intern0(r, name));
	m->value.type = RV_DOUBLE;
	m->value.v.d = v;
}

/* ---- looking things up in a model -------------------------------- */

void
ts_kind_counts(const struct model *m, const char *want)
{
	char			 name[32];
	unsigned long long	 n;
	int			 k, used;

	while (sscanf(want, " %31[a-z]=%llu%n", name, &n, &used) == 2) {
		if ((k = ev_kind_parse(name)) < 0)
			fail_msg("ts_kind_counts: no kind %s", name);
		if (m->kind_count[k] != n)
			fail_msg("%s events: %llu, expected %llu", name,
			    (unsigned long long)m->kind_count[k], n);
		want += used;
	}
	if (want[strspn(want, " ")] != '\0')
		fail_msg("ts_kind_counts: cannot read \"%s\"", want);
}

uint32_t
ts_next(const struct model *m, int kind, uint32_t from)
{
	struct evref	r;
	size_t		t, i;

	if (from >= m->nevents)
		return NONE32;
	r = model_ev(m, from);
	for (t = r.track, i = r.idx; t < m->ntracks; t++, i = 0) {
		const struct lane *l = &m->tracks[t].lane;
		for (; i < l->n; i++)
			if (l->kind[i] == kind)
				return model_gid(m, (uint32_t)t, (uint32_t)i);
	}
	return NONE32;
}

const char *
ts_name_of(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return model_str(m, m->tracks[r.track].lane.name[r.idx]);
}

size_t
ts_count(const struct model *m, int kind, const char *name)
{
	uint32_t	g;
	size_t		n = 0;

	for (g = ts_next(m, kind, 0); g != NONE32; g = ts_next(m, kind, g + 1))
		if (name == NULL || strcmp(ts_name_of(m, g), name) == 0)
			n++;
	return n;
}

uint32_t
ts_find(const struct model *m, int kind, const char *name)
{
	uint32_t	g;

	for (g = ts_next(m, kind, 0); g != NONE32; g = ts_next(m, kind, g + 1))
		if (strcmp(ts_name_of(m, g), name) == 0)
			return g;
	return NONE32;
}

uint32_t
ts_find_ev(const struct model *m, const char *name, int64_t start)
{
	size_t	t, i;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->start[i] == start &&
			    strcmp(model_str(m, l->name[i]), name) == 0)
				return model_gid(m, (uint32_t)t, (uint32_t)i);
	}
	fail_msg("no event %s at %lld", name, (long long)start);
	return NONE32;
}

void
ts_process_is(const struct model *m, size_t i, uint32_t pid,
    const char *name, const char *host)
{
	assert_true(i < m->nprocesses);
	assert_int_equal(m->processes[i].pid, pid);
	assert_string_equal(model_str(m, m->processes[i].name), name);
	if (host != NULL)
		assert_string_equal(model_str(m, m->processes[i].host), host);
}

const struct track *
ts_track_of(const struct model *m, uint32_t gid)
{
	return &m->tracks[model_ev(m, gid).track];
}

uint8_t
ts_flags_of(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return m->tracks[r.track].lane.flags[r.idx];
}

const struct kernel_info *
ts_kernel_of(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return &m->kernels[m->tracks[r.track].lane.aux[r.idx]];
}

const struct copy_info *
ts_copy_of(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return &m->copies[m->tracks[r.track].lane.aux[r.idx]];
}

void
ts_kernel_dims(const struct kernel_info *k, uint32_t grid0, uint32_t grid1,
    uint32_t block0, uint32_t static_smem, uint32_t dynamic_smem,
    uint32_t local_mem, uint32_t regs)
{
	assert_int_equal(k->grid[0], grid0);
	assert_int_equal(k->grid[1], grid1);
	assert_int_equal(k->block[0], block0);
	assert_int_equal(k->static_smem, static_smem);
	assert_int_equal(k->dynamic_smem, dynamic_smem);
	assert_int_equal(k->local_mem, local_mem);
	assert_int_equal(k->regs, regs);
}

int
ts_has_warning(const struct model *m, const char *needle)
{
	size_t	i;

	for (i = 0; i < m->nwarnings; i++)
		if (strstr(m->warnings[i], needle) != NULL)
			return 1;
	return 0;
}

void
ts_family(const char *name, const char *want)
{
	char	buf[256];

	nvtx_family(name, buf, sizeof buf);
	assert_string_equal(buf, want);
}

/* ---- JSON rows --------------------------------------------------- */

const cJSON *
ts_jfield(const cJSON *o, const char *f)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(o, f);

	if (it == NULL)
		fail_msg("no field %s", f);
	return it;
}

double
ts_jdouble(const cJSON *o, const char *f)
{
	const cJSON	*it = ts_jfield(o, f);

	if (!cJSON_IsNumber(it))
		fail_msg("field %s is not a number", f);
	return it->valuedouble;
}

const char *
ts_jstr(const cJSON *o, const char *f)
{
	const cJSON	*it = ts_jfield(o, f);

	if (!cJSON_IsString(it))
		fail_msg("field %s is not a string", f);
	return it->valuestring;
}

int
ts_jnull(const cJSON *o, const char *f)
{
	return cJSON_IsNull(ts_jfield(o, f));
}

void
ts_jrow_is(const cJSON *r, const char *want)
{
	char	 name[64], val[64], *end;
	int	 used;
	double	 v, got;

	while (sscanf(want, " %63[a-z_0-9]=%63s%n", name, val, &used) == 2) {
		if (strcmp(val, "null") == 0) {
			if (!ts_jnull(r, name))
				fail_msg("field %s is not null", name);
		} else {
			v = strtod(val, &end);
			if (*end != '\0')
				fail_msg("bad value %s for %s", val, name);
			got = ts_jdouble(r, name);
			if (fabs(got - v) > 1e-9)
				fail_msg("field %s: %.17g, want %s", name, got,
				    val);
		}
		want += used;
	}
	if (want[strspn(want, " ")] != '\0')
		fail_msg("bad field list: %s", want);
}

double
ts_jnum(const cJSON *r, const char *f)
{
	const cJSON	*it = ts_jfield(r, f);

	if (cJSON_IsRaw(it))
		return strtod(it->valuestring, NULL);
	if (!cJSON_IsNumber(it))
		fail_msg("field %s is not a number", f);
	return it->valuedouble;
}

cJSON *
ts_jrow(const cJSON *rows, const char *key)
{
	cJSON	*it, *k;

	cJSON_ArrayForEach(it, rows) {
		k = cJSON_GetObjectItemCaseSensitive(it, "key");
		if (cJSON_IsString(k) && strcmp(k->valuestring, key) == 0)
			return it;
	}
	fail_msg("no row with key '%s'", key);
	return NULL;
}

cJSON *
ts_emit_json(struct out *out, const struct model *m, const char *path)
{
	FILE	*tmp = tmpfile();
	int	 saved, rc;
	char	*buf;
	cJSON	*env;

	assert_non_null(tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
	out->format = OUT_JSON;
	rc = out_emit(out, m, path);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(rc, 0);
	buf = ts_read_fp(tmp);
	env = cJSON_Parse(buf);
	if (env == NULL)
		fail_msg("bad JSON: %s", buf);
	free(buf);
	return env;
}

/* ---- verbs' options ---------------------------------------------- */

void
ts_opts(struct opts *o, unsigned accepted, int argc, char **argv)
{
	char	*cause = NULL;

	if (opts_parse(o, accepted, argc, argv, &cause) != 0)
		fail_msg("opts_parse: %s", cause);
}

void
ts_opts_out(struct opts *o, unsigned accepted, int argc, char **argv,
    struct out *out, const char *verb)
{
	ts_opts(o, accepted, argc, argv);
	out_init(out, verb);
	opts_apply_out(o, out);
}

void
ts_vrun_init(struct ts_vrun *r, ts_vcompute *compute, const char *verb,
    unsigned accepted)
{
	const char	*av[] = { verb, "t.sqlite" };

	memset(r, 0, sizeof *r);
	r->compute = compute;
	r->verb = verb;
	ts_opts(&r->o, accepted, 2, (char **)av);
}

int
ts_vrun(struct ts_vrun *r, const struct model *m, const struct vopt *v,
    size_t nv)
{
	out_free(&r->out);
	free(r->cause);
	r->cause = NULL;
	out_init(&r->out, r->verb);
	return r->compute(m, &r->o, v, nv, &r->out, &r->code, &r->cause);
}

void
ts_vrun_free(struct ts_vrun *r)
{
	out_free(&r->out);
	free(r->cause);
	opts_free(&r->o);
}

/* ---- screens ----------------------------------------------------- */

const char *
ts_row(const struct cellgrid *g, int y)
{
	static char	line[4096];

	cellgrid_row_text(g, y, line, sizeof line);
	return line;
}

void
ts_row_has(const struct cellgrid *g, int y, const char *s)
{
	const char	*row = ts_row(g, y);

	if (strstr(row, s) == NULL)
		fail_msg("row %d \"%s\" does not contain \"%s\"", y, row, s);
}

void
ts_row_lacks(const struct cellgrid *g, int y, const char *s)
{
	const char	*row = ts_row(g, y);

	if (strstr(row, s) != NULL)
		fail_msg("row %d \"%s\" contains \"%s\"", y, row, s);
}

int
ts_screen_find(const struct cellgrid *g, const char *s)
{
	int	y;

	for (y = 0; y < g->h; y++)
		if (strstr(ts_row(g, y), s) != NULL)
			return y;
	return -1;
}

void
ts_view_env(struct view_env *env, struct view_shared *sh, const char *title,
    const void *arg)
{
	memset(env, 0, sizeof *env);
	env->gl = glyph_get(0);
	env->title = title;
	env->sh = sh;
	env->arg = arg;
}

void *
ts_view_open(const struct view_ops *ops, const struct model *m,
    const struct view_env *env, struct cellgrid *g, int w, int h)
{
	void	*v;

	v = ops->init(m, env);
	assert_non_null(v);
	cellgrid_init(g);
	cellgrid_resize(g, w, h);
	ops->resize(v, w, h);
	ops->draw(v, g, REDRAW_ALL);
	return v;
}

int
ts_key_action(const char *table, int key)
{
	static struct keymap	*km;	/* reachable until the end */
	char			*cause = NULL;

	if (km == NULL && (km = keymap_default(&cause)) == NULL)
		fail_msg("default keymap: %s", cause);
	return keytable_action(keymap_table(km, table), key);
}

struct tui_key
ts_tkey(int k)
{
	struct tui_key	tk;

	memset(&tk, 0, sizeof tk);
	tk.key = k;
	return tk;
}

int
ts_view_key(const struct view_ops *ops, void *v, struct cellgrid *g, int k)
{
	struct tui_key	tk = ts_tkey(k);
	int		r;

	r = ops->key(v, &tk, ts_key_action(ops->name, k));
	ops->draw(v, g, r & REDRAW_ALL);
	return r;
}

void
ts_str_ints(int (*fn)(const char *), const struct ts_str_int *c, size_t n)
{
	size_t	i;
	int	got;

	for (i = 0; i < n; i++)
		if ((got = fn(c[i].s)) != c[i].want)
			fail_msg("\"%s\": %d, not %d", c[i].s != NULL ? c[i].s :
			    "(null)", got, c[i].want);
}

int
ts_every_event(void *arg, uint32_t t, uint32_t i)
{
	(void)arg;
	(void)t;
	(void)i;
	return 1;
}

/* ---- pseudo-random numbers --------------------------------------- */

uint64_t
ts_xorshift(uint64_t *state)
{
	uint64_t	x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

uint64_t
ts_rand(uint64_t *state, uint64_t n)
{
	return ts_xorshift(state) % n;
}
