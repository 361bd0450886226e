/*
 * ktable_test: the kernel table (tui/ktable.c): per-name statistics equal
 * to stats.h's definitions (the `stats` verb's numbers), worked out on
 * paper for a small model; sorting by every key, filtering by full or
 * short name, and the instances of one kernel in start order across
 * streams; on real traces (GPULENS_FIXTURES) every row against a brute
 * force over sorted (name, duration) pairs. That the table and the stats
 * verb agree row by row is kstats_agree_test's.
 */
#include "config.h"

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

#include "model/builder.h"
#include "tui/ktable.h"
#include "util/sort.h"
#include "util/xmalloc.h"
#include "sources/source.h"
#include "tsupport.h"

static void
kernel(struct builder *b, uint32_t track, const char *name,
    const char *shortname, int64_t s, int64_t e)
{
	uint32_t		aux = ts_kernel(b, shortname);
	struct lane_event	ev = ts_event(b, name, EV_KERNEL, s, e);

	ev.aux = aux;
	builder_event(b, track, &ev);
}

/* foo: 10, 20, 60 ns on two streams; bar: 100, 200; one memcpy. */
static struct model *
build(void)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	uint32_t		 s[2];

	ts_gpu_streams(b, s, 2);
	kernel(b, s[0], "void foo<int>(int*)", "foo", 0, 10);
	kernel(b, s[1], "void foo<int>(int*)", "foo", 5, 25);
	kernel(b, s[0], "void foo<int>(int*)", "foo", 40, 100);
	kernel(b, s[1], "bar(float)", "bar", 30, 130);
	kernel(b, s[0], "bar(float)", "bar", 200, 400);
	ts_add(b, s[1], "[CUDA memcpy]", EV_MEMCPY, 500, 900);
	return ts_finish(b);
}

/* The tests of ktable's own model share it: the group's state. */
static int
setup(void **state)
{
	*state = build();
	return 0;
}

static const struct gstats_group *
shown(const struct ktable *kt, size_t i)
{
	assert_true(i < kt->nvis);
	return &kt->gs->g[kt->vis[i]];
}

static const char *
sname(const struct ktable *kt, size_t i)
{
	return model_str(kt->m, shown(kt, i)->short_name);
}

static void
test_stats(void **state)
{
	const struct model	*m = *state;
	struct ktable		*kt = ktable_build(m);
	const struct gstats_group *foo, *bar;

	assert_int_equal(kt->gs->ng, 2);
	assert_int_equal(kt->gs->nevents, 5);
	assert_int_equal(kt->gs->grand, 390);
	/* By total, descending: bar (300), foo (90). */
	bar = shown(kt, 0);
	foo = shown(kt, 1);
	assert_string_equal(model_str(m, bar->name), "bar(float)");
	assert_int_equal(foo->dur.count, 3);
	assert_int_equal(foo->dur.total, 90);
	assert_int_equal(foo->dur.min, 10);
	assert_int_equal(foo->dur.max, 60);
	assert_true(fabs(foo->dur.mean - 30) < 1e-9);
	assert_true(fabs(foo->dur.median - 20) < 1e-9);
	assert_true(fabs(foo->dur.stddev - sqrt(700)) < 1e-9);
	assert_true(fabs(bar->dur.median - 150) < 1e-9);
	assert_true(fabs(bar->dur.stddev - sqrt(5000)) < 1e-9);
	ktable_free(kt);
}

static void
test_sort_filter(void **state)
{
	struct ktable	*kt = ktable_build(*state);

	ktable_view(kt, NULL, KT_SORT_COUNT, 1);
	assert_string_equal(sname(kt, 0), "foo");
	ktable_view(kt, NULL, KT_SORT_COUNT, 0);
	assert_string_equal(sname(kt, 0), "bar");
	ktable_view(kt, NULL, KT_SORT_NAME, 0);
	assert_string_equal(sname(kt, 0), "bar");
	ktable_view(kt, NULL, KT_SORT_MIN, 1);
	assert_string_equal(sname(kt, 0), "bar");
	ktable_view(kt, NULL, KT_SORT_STDDEV, 0);
	assert_string_equal(sname(kt, 0), "foo");
	ktable_view(kt, "FOO", KT_SORT_TOTAL, 1);	/* short name */
	assert_int_equal(kt->nvis, 1);
	assert_string_equal(sname(kt, 0), "foo");
	ktable_view(kt, "float", KT_SORT_TOTAL, 1);	/* full name */
	assert_int_equal(kt->nvis, 1);
	assert_string_equal(sname(kt, 0), "bar");
	ktable_view(kt, "nothing", KT_SORT_TOTAL, 1);
	assert_int_equal(kt->nvis, 0);
	ktable_view(kt, "", KT_SORT_TOTAL, 1);
	assert_int_equal(kt->nvis, 2);
	assert_string_equal(ktable_sort_name(KT_SORT_MEDIAN), "median");
	ktable_free(kt);
}

static void
test_instances(void **state)
{
	const struct model	*m = *state;
	uint32_t		*buf = NULL, foo;
	size_t			 cap = 0, n;

	foo = strpool_find(m->strs, "void foo<int>(int*)",
	    strlen("void foo<int>(int*)"));
	n = ktable_instances(m, foo, &buf, &cap);
	assert_int_equal(n, 3);
	assert_int_equal(model_ev_start(m, buf[0]), 0);
	assert_int_equal(model_ev_start(m, buf[1]), 5);	/* other stream */
	assert_int_equal(model_ev_start(m, buf[2]), 40);
	free(buf);
}

/*
 * Checks every group of the kernel table of a real trace against the
 * durations of the kernels of its name, gathered here from the lanes; the
 * groups must hold every kernel once.
 */
static void
check_fixture(const char *dir, const char *rel)
{
	struct model		*m;
	struct ktable		*kt;
	const struct gstats_group *r;
	const struct lane	*l;
	int64_t			*d = NULL, total;
	char			 path[4096], *cause = NULL;
	size_t			 n, cap = 0, t, i, k, all = 0, sum = 0;
	double			 med;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s: %s", rel, cause);
	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			all += l->kind[i] == EV_KERNEL;
	}
	kt = ktable_build(m);
	assert_int_equal(kt->gs->nevents, all);
	for (k = 0; k < kt->gs->ng; k++) {
		r = &kt->gs->g[k];
		n = 0;
		total = 0;
		for (t = 0; t < m->ntracks; t++) {
			l = &m->tracks[t].lane;
			for (i = 0; i < l->n; i++) {
				if (l->kind[i] != EV_KERNEL ||
				    l->name[i] != r->name)
					continue;
				XGROW(d, cap, n + 1);
				d[n] = l->end[i] - l->start[i];
				total += d[n++];
			}
		}
		assert_true(n > 0);
		qsort(d, n, sizeof *d, sort_cmp_i64);
		assert_int_equal(r->dur.count, n);
		assert_int_equal(r->dur.total, total);
		assert_int_equal(r->dur.min, d[0]);
		assert_int_equal(r->dur.max, d[n - 1]);
		med = n % 2 ? (double)d[n / 2] :
		    ((double)d[n / 2 - 1] + (double)d[n / 2]) / 2;
		assert_true(fabs(r->dur.median - med) < 1e-6);
		sum += n;
	}
	assert_int_equal(sum, all);
	free(d);
	ktable_free(kt);
	model_free(m);
}

static void
test_fixtures(void **state)
{
	const char	*dir = ts_need_fixtures();

	(void)state;
	check_fixture(dir, "nsys/nsys-ai/mfu_2gpu_before.sqlite");
	check_fixture(dir, "nsys/nsightful/power_iteration__baseline.sqlite");
}

TS_MAIN(setup, ts_model_teardown,
	cmocka_unit_test(test_stats),
	cmocka_unit_test(test_sort_filter),
	cmocka_unit_test(test_instances),
	cmocka_unit_test(test_fixtures))
