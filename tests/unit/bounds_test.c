/*
 * bounds_test: the numeric bounds that keep hostile profiles from
 * overflowing anything (model.h): times beyond +-MODEL_TIME_MAX are
 * dropped with a warning, a span past MODEL_SPAN_MAX or durations or copy
 * sizes adding up past their bounds refuse the load, sat_add64()
 * saturates; the cache refuses a file that breaks any of them, or names a
 * string past its pool, even behind valid checksums (a model tampered with
 * after finalize is saved and loaded back); the time parser refuses text
 * it would have had to cut; and a zstd frame whose blocks do not hold the
 * size its header declares is an error whatever the read size.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <zstd.h>

#include "model/builder.h"
#include "model/cache.h"
#include "model/model.h"
#include "tsupport.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

/* A builder with one device, one stream and its GPU track in *track. */
static struct builder *
one_track(uint32_t *track)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, s;

	ts_device(b, 0);
	p = builder_process(b, 1, 1, "p");
	s = builder_stream(b, 0, 7, p);
	*track = builder_gpu_track(b, s);
	return b;
}

static void
kernel(struct builder *b, uint32_t track, int64_t start, int64_t end,
    uint8_t kind, uint32_t aux)
{
	struct lane_event	e = ts_event(b, "k", kind, start, end);

	e.aux = aux;
	builder_event(b, track, &e);
}

static void
test_sat_add(void **state)
{
	(void)state;
	assert_true(sat_add64(INT64_MAX - 1, 5) == INT64_MAX);
	assert_true(sat_add64(INT64_MIN + 1, -5) == INT64_MIN);
	assert_true(sat_add64(40, 2) == 42);
	assert_true(sat_add64(-40, -2) == -42);
	assert_true(sat_add64(INT64_MAX, INT64_MIN) == -1);
}

/* Events past the time bound are dropped, counted in one warning; the
 * rest load and the span is theirs. */
static void
test_drop_out_of_range(void **state)
{
	struct builder	*b;
	struct model	*m;
	uint32_t	 t;

	(void)state;
	b = one_track(&t);
	kernel(b, t, 1000, 2000, EV_KERNEL, NONE32);
	kernel(b, t, INT64_MAX - 10, INT64_MAX, EV_KERNEL, NONE32);
	kernel(b, t, INT64_MIN, INT64_MIN + 5, EV_KERNEL, NONE32);
	kernel(b, t, 3000, MODEL_TIME_MAX + 1, EV_KERNEL, NONE32);
	kernel(b, t, -1000, -999, EV_KERNEL, NONE32);
	m = ts_finish(b);
	assert_int_equal(m->nevents, 2);
	assert_true(m->origin_ns == -1000);
	assert_true(m->end_ns == 2000);
	assert_true(ts_has_warning(m, "3 events dropped"));
	model_free(m);
}

/* Two events, each in range, spanning more than MODEL_SPAN_MAX. */
static void
test_span_refused(void **state)
{
	struct builder	*b;
	struct model	*m;
	char		*cause = NULL;
	uint32_t	 t;

	(void)state;
	b = one_track(&t);
	kernel(b, t, -MODEL_TIME_MAX, -MODEL_TIME_MAX + 1, EV_KERNEL, NONE32);
	kernel(b, t, MODEL_TIME_MAX - 1, MODEL_TIME_MAX, EV_KERNEL, NONE32);
	m = builder_finish(b, &cause);
	assert_null(m);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "span more than 146 years"));
	free(cause);

	/* Exactly the bound loads. */
	b = one_track(&t);
	kernel(b, t, 0, 1, EV_KERNEL, NONE32);
	kernel(b, t, MODEL_SPAN_MAX - 1, MODEL_SPAN_MAX, EV_KERNEL, NONE32);
	m = ts_finish(b);
	assert_true(m->end_ns - m->origin_ns == MODEL_SPAN_MAX);
	model_free(m);
}

/* Overlapping long events whose durations add up past the bound. */
static void
test_dursum_refused(void **state)
{
	struct builder	*b;
	struct model	*m;
	char		*cause = NULL;
	uint32_t	 t;
	int		 i;

	(void)state;
	b = one_track(&t);
	for (i = 0; i < 3; i++)
		kernel(b, t, 0, MODEL_SPAN_MAX / 2, EV_KERNEL, NONE32);
	m = builder_finish(b, &cause);
	assert_null(m);
	assert_non_null(strstr(cause, "durations add up"));
	free(cause);

	b = one_track(&t);
	for (i = 0; i < 2; i++)
		kernel(b, t, 0, MODEL_SPAN_MAX / 2, EV_KERNEL, NONE32);
	m = builder_finish(b, &cause);
	assert_non_null(m);
	model_free(m);
}

/* Copies whose sizes add up past MODEL_BYTESUM_MAX (one record shared by
 * many events, as the builder de-duplicates them). */
static void
test_bytesum_refused(void **state)
{
	struct builder		*b;
	struct model		*m;
	struct copy_info	 c;
	char			*cause = NULL;
	uint32_t		 t, aux;
	int			 i;

	(void)state;
	b = one_track(&t);
	memset(&c, 0, sizeof c);
	c.bytes = UINT64_C(1) << 61;
	c.src_dev = c.dst_dev = NONE32;
	aux = builder_copy(b, &c);
	for (i = 0; i < 3; i++)
		kernel(b, t, 10 * i, 10 * i + 5, EV_MEMCPY, aux);
	m = builder_finish(b, &cause);
	assert_null(m);
	assert_non_null(strstr(cause, "sizes add up"));
	free(cause);

	b = one_track(&t);
	c.bytes = UINT64_MAX;		/* alone past the bound */
	aux = builder_copy(b, &c);
	kernel(b, t, 0, 5, EV_MEMSET, aux);
	m = builder_finish(b, &cause);
	assert_null(m);
	free(cause);

	b = one_track(&t);
	c.bytes = UINT64_C(1) << 61;
	aux = builder_copy(b, &c);
	for (i = 0; i < 2; i++)
		kernel(b, t, 10 * i, 10 * i + 5, EV_MEMCPY, aux);
	m = builder_finish(b, &cause);
	assert_non_null(m);
	model_free(m);
}

/* Three kernels on one track, 1000 ns apart, 100 ns long. */
static struct model *
three_kernels(void)
{
	struct builder	*b;
	struct model	*m;
	char		*cause = NULL;
	uint32_t	 t;
	int		 i;

	b = one_track(&t);
	for (i = 0; i < 3; i++)
		kernel(b, t, 1000 * i, 1000 * i + 100, EV_KERNEL, NONE32);
	m = builder_finish(b, &cause);
	assert_non_null(m);
	return m;
}

/* n (2 or 3) nested NVTX ranges, outer [0, 1000), inner [100, 200)
 * and innermost [120, 150): each one's parent is the one before. */
static struct model *
nested_ranges(int n)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 e;
	uint32_t		 p, t, nv;
	const int64_t		 iv[3][2] = { { 0, 1000 }, { 100, 200 },
	    { 120, 150 } };
	const char		*name[3] = { "outer", "inner", "innermost" };
	int			 i;

	p = builder_process(b, 1, 1, "train");
	t = builder_thread(b, 2, 2, p, "main");
	nv = builder_cpu_track(b, TRACK_NVTX, t, 0);
	for (i = 0; i < n; i++) {
		e = ts_event(b, name[i], EV_NVTX, iv[i][0], iv[i][1]);
		e.aux = ts_nvtx(b, nv);
		builder_event(b, nv, &e);
	}
	return ts_finish(b);
}

/*
 * Saves m as the cache of a fresh dummy trace and loads it back: 1 if the
 * load hit. The checksums are the writer's own, so only the loader's checks
 * on the contents can refuse.
 */
static int
save_load(struct model *m, char **why)
{
	char		 dir[] = "/tmp/bounds_cache.XXXXXX", *trace, *cause = NULL;
	struct model	*got = NULL;
	FILE		*f;
	int		 rc;

	assert_non_null(mkdtemp(dir));
	trace = xasprintf("%s/t.sqlite", dir);
	assert_non_null(f = fopen(trace, "w"));
	fputs("dummy", f);
	fclose(f);
	if (cache_save(trace, m, &cause) != 0)
		fail_msg("cache_save: %s", cause);
	rc = cache_load(trace, &got, why);
	model_free(got);
	cache_remove(trace);
	unlink(trace);
	rmdir(dir);
	free(trace);
	return rc;
}

/* The two nested ranges with parents 0 -> a, 1 -> b (indices of the NVTX
 * track's events) do not survive the cache: a cycle. */
static void
assert_cycle_refused(uint32_t a, uint32_t b)
{
	struct model	*m = nested_ranges(2);
	char		*why = NULL;

	m->nvtx[0].parent = model_gid(m, 0, a);
	m->nvtx[1].parent = model_gid(m, 0, b);
	assert_int_equal(save_load(m, &why), 0);
	assert_non_null(strstr(why, "cycle"));
	free(why);
	model_free(m);
}

/*
 * The three nested ranges with parents 0 -> a, 1 -> b, 2 -> c (indices of
 * the NVTX track's events, 3 for none): 1 if the cache loads, else 0 with
 * *why. The load checks the common shape, every parent before its child,
 * in one pass; any other shape is walked.
 */
static int
load_parents(uint32_t a, uint32_t b, uint32_t c, char **why)
{
	struct model	*m = nested_ranges(3);
	const uint32_t	 to[3] = { a, b, c };
	int		 i, rc;

	for (i = 0; i < 3; i++)
		m->nvtx[i].parent = to[i] == 3 ? NONE32 :
		    model_gid(m, 0, to[i]);
	rc = save_load(m, why);
	model_free(m);
	return rc;
}

static void
test_cache_refuses(void **state)
{
	struct model	*m;
	struct lane	*l;
	char		*why = NULL;
	int		 i;

	(void)state;
	/* The untouched model loads. */
	m = three_kernels();
	assert_int_equal(save_load(m, &why), 1);
	model_free(m);

	/* An event name past the string pool. */
	m = three_kernels();
	m->tracks[0].lane.name[1] = 100000;
	assert_int_equal(save_load(m, &why), 0);
	assert_non_null(why);
	free(why);
	why = NULL;
	model_free(m);

	/* An end before its start. */
	m = three_kernels();
	l = &m->tracks[0].lane;
	l->end[2] = l->start[2] - 1;
	assert_int_equal(save_load(m, &why), 0);
	free(why);
	why = NULL;
	model_free(m);

	/* An event after the trace's end. */
	m = three_kernels();
	m->end_ns = 1500;
	assert_int_equal(save_load(m, &why), 0);
	free(why);
	why = NULL;
	model_free(m);

	/* A span past MODEL_SPAN_MAX (the times stay inside the lanes'). */
	m = three_kernels();
	m->origin_ns = -MODEL_TIME_MAX;
	m->end_ns = MODEL_TIME_MAX;
	assert_int_equal(save_load(m, &why), 0);
	free(why);
	why = NULL;
	model_free(m);

	/* An event of a kind this build does not know. */
	m = three_kernels();
	m->tracks[0].lane.kind[0] = 200;
	assert_int_equal(save_load(m, &why), 0);
	free(why);
	why = NULL;
	model_free(m);

	/* A track name past the pool. */
	m = three_kernels();
	m->tracks[0].name = 100000;
	assert_int_equal(save_load(m, &why), 0);
	free(why);
	why = NULL;
	model_free(m);

	/* NVTX parents: the nested pair loads; a range made its own
	 * parent, two ranges each other's, or a kernel as a parent are
	 * refused (every walk up such a tree would never end). */
	m = nested_ranges(2);
	assert_int_equal(m->nnvtx, 2);
	assert_int_equal(m->nvtx[1].parent != NONE32 ||
	    m->nvtx[0].parent != NONE32, 1);
	assert_int_equal(save_load(m, &why), 1);
	model_free(m);
	assert_cycle_refused(0, 1);
	assert_cycle_refused(1, 0);
	/* Chains whose parents come after their children are forests all
	 * the same (the load walks them); a cycle of three is not. */
	assert_int_equal(load_parents(3, 0, 1, &why), 1);
	assert_int_equal(load_parents(1, 2, 3, &why), 1);
	assert_int_equal(load_parents(2, 0, 3, &why), 1);
	assert_int_equal(load_parents(1, 2, 0, &why), 0);
	assert_non_null(strstr(why, "cycle"));
	free(why);
	why = NULL;

	/* An NVTX record's domain or category name out of range. */
	for (i = 0; i < 2; i++) {
		m = nested_ranges(2);
		if (i == 0)
			m->nvtx[1].domain = (uint32_t)m->ndomains;
		else
			m->nvtx[0].category_name = 100000;
		assert_int_equal(save_load(m, &why), 0);
		assert_non_null(strstr(why, "entity reference"));
		free(why);
		why = NULL;
		model_free(m);
	}
	m = nested_ranges(2);
	m->nvtx[0].domain = NONE32;
	assert_int_equal(save_load(m, &why), 1);
	model_free(m);
}

/* A time longer than the parser's buffer is refused, not cut short. */
static void
test_long_time_refused(void **state)
{
	char	buf[200];
	int64_t	v = -1;
	int	abs_ = -1;

	(void)state;
	memset(buf, '0', sizeof buf);
	buf[0] = '@';
	buf[150] = '1';
	buf[151] = '\0';
	/* As a duration the same digits are fine... */
	assert_int_equal(units_parse_dur(buf + 1, &v), 0);
	assert_true(v == 1);
	/* ... as a time they are refused rather than cut at 127 bytes
	 * (which would read "@000...0", zero). */
	assert_int_equal(units_parse_time(buf, &v, &abs_), -1);
	assert_int_equal(units_parse_time("  @1500ms  ", &v, &abs_), 0);
	assert_true(v == 1500000000 && abs_ == 1);
}

/* A zstd frame whose header declares 200 bytes and whose blocks hold 100:
 * an error through zfile_read() at any read size and through
 * zfile_slurp(). */
static void
test_zstd_declared_size(void **state)
{
	char		 dir[] = "/tmp/bounds_test.XXXXXX", *path, *buf = NULL;
	char		*cause = NULL;
	unsigned char	 src[100], dst[256], chunk[7];
	struct zfile	*f;
	size_t		 n, len;
	ssize_t		 r;
	FILE		*fp;
	int		 step;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/x.zst", dir);
	for (n = 0; n < sizeof src; n++)
		src[n] = (unsigned char)(n * 7);
	n = ZSTD_compress(dst, sizeof dst, src, sizeof src, 1);
	assert_false(ZSTD_isError(n));
	/* Single-segment frame, 1-byte content size right after the
	 * descriptor, no checksum (ZSTD_compress's defaults). */
	assert_int_equal(dst[4] & 0xe4, 0x20);
	assert_int_equal(dst[5], 100);
	dst[5] = 200;
	assert_true(ZSTD_getFrameContentSize(dst, n) == 200);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(dst, 1, n, fp), n);
	fclose(fp);

	for (step = 1; step <= (int)sizeof chunk; step += 3) {
		f = zfile_open(path, &cause);
		assert_non_null(f);
		while ((r = zfile_read(f, chunk, (size_t)step, &cause)) > 0)
			;
		assert_true(r < 0);
		if (strstr(cause, "its header says 200") == NULL &&
		    strstr(cause, "corrupt zstd data") == NULL)
			fail_msg("read %d: %s", step, cause);
		free(cause);
		cause = NULL;
		zfile_close(f);
	}
	assert_int_equal(zfile_slurp(path, &buf, &len, 0, &cause), -1);
	assert_non_null(cause);
	free(cause);
	unlink(path);
	rmdir(dir);
	free(path);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_sat_add),
	cmocka_unit_test(test_drop_out_of_range),
	cmocka_unit_test(test_span_refused),
	cmocka_unit_test(test_dursum_refused),
	cmocka_unit_test(test_bytesum_refused),
	cmocka_unit_test(test_cache_refuses),
	cmocka_unit_test(test_long_time_refused),
	cmocka_unit_test(test_zstd_declared_size))
