/*
 * kpath_test: the NVTX path and iteration around events
 * (analysis/kpath.c). On traces written by the generator (several
 * processes, each with several streams, graph launches, kernels without
 * a launch): the paths and the iterations read from the runs worked out
 * on background threads (kpath_runs(), of the paths, the iterations or
 * both; 1, 2 and 3 threads, the caller's included) are those asked event
 * by event, in each track's order, backwards and in steps (the runs then
 * searched), the tracks asked first to last and last to first (the
 * caller then waits for the last jobs first); every event of a run
 * kpath_same() gives has the value of its first, with and without the
 * runs.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/gstats.h"
#include "analysis/kpath.h"
#include "model/builder.h"
#include "sources/source.h"
#include "sources/synth/gen.h"
#include "tsupport.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

static struct model *
generated(const char *name, int gpus, int processes, uint64_t seed)
{
	struct gen_opts	 o;
	struct model	*m;
	char		*cause = NULL, *path;

	path = ts_path(name);
	gen_opts_default(&o);
	o.events = 30000;
	o.gpus = gpus;
	o.processes = processes;
	o.seed = seed;
	if (gen_write_nsys(path, &o, NULL, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	return m;
}

/* Event i of track t in pass p: in order, backwards, in steps of 7. */
/* Whether check_runs() asks the tracks last to first. */
static int	backwards;

static uint32_t
pick(size_t n, size_t k, int p)
{
	return (uint32_t)(p == 0 ? k : p == 1 ? n - 1 - k : (k * 7) % n);
}

/*
 * With domain dom: the paths and iterations with the runs (of the paths
 * where rpath is set, of the iterations where riter is) against those
 * asked event by event, and kpath_same() against the values of the events
 * it covers. Returns the events whose value came with the first of a run
 * longer than one.
 */
static size_t
check_runs(const struct model *m, const char *dom, int rpath, int riter)
{
	struct kpath		*plain, *runs;
	struct strpool		*pp, *pr;
	const struct lane	*l;
	uint8_t			*use;
	uint32_t		*want, *wit, t, x, i, e, j, a, b;
	size_t			 k, covered = 0;
	int			 p;

	plain = kpath_new(m, dom);
	runs = kpath_new(m, dom);
	pp = strpool_new();
	pr = strpool_new();
	use = xcalloc(m->ntracks + 1, 1);
	for (t = 0; t < m->ntracks; t++)
		use[t] = m->tracks[t].type == TRACK_GPU && t % 5 != 3;
	kpath_runs(runs, use, rpath, riter);
	for (x = 0; x < m->ntracks; x++) {
		t = backwards ? m->ntracks - 1 - x : x;
		l = &m->tracks[t].lane;
		if (l->n == 0)
			continue;
		want = xcalloc(l->n, sizeof *want);
		wit = xcalloc(l->n, sizeof *wit);
		for (i = 0; i < l->n; i++) {
			want[i] = kpath_value(plain, pp, GS_NVTX, t, i);
			wit[i] = kpath_value(plain, pp, GS_ITER, t, i);
			assert_int_equal(wit[i],
			    kpath_value(runs, pr, GS_ITER, t, i));
		}
		/* Runs asked in order: every event of one has its value. */
		for (i = 0; i < l->n; i = e) {
			a = kpath_value(plain, pp, GS_NVTX, t, i);
			e = kpath_same(plain, t, i, (uint32_t)l->n);
			assert_true(e > i && e <= l->n);
			for (j = i; j < e; j++)
				assert_int_equal(want[j], a);
			b = kpath_value(runs, pr, GS_NVTX, t, i);
			e = kpath_same(runs, t, i, (uint32_t)l->n);
			assert_true(e > i && e <= l->n);
			for (j = i; j < e; j++)
				assert_string_equal(strpool_get(pp, want[j]),
				    strpool_get(pr, b));
			covered += e - i > 1 ? e - i - 1 : 0;
			b = kpath_value(runs, pr, GS_ITER, t, i);
			e = kpath_same(runs, t, i, (uint32_t)l->n);
			assert_true(e > i && e <= l->n);
			for (j = i; j < e; j++)
				assert_int_equal(wit[j], b);
		}
		for (p = 0; p < 3; p++)
			for (k = 0; k < l->n; k++) {
				i = pick(l->n, k, p);
				b = kpath_value(runs, pr, GS_NVTX, t, i);
				assert_string_equal(strpool_get(pp, want[i]),
				    strpool_get(pr, b));
				assert_int_equal(want[i] == 0, b == 0);
				assert_int_equal(kpath_value(runs, pr, GS_ITER,
				    t, i), wit[i]);
			}
		free(want);
		free(wit);
	}
	free(use);
	strpool_free(pp);
	strpool_free(pr);
	kpath_free(plain);
	kpath_free(runs);
	return covered;
}

/*
 * check_runs() with the runs of the iterations, of both, and of the
 * paths, whose count it returns (runs of the iterations alone are longer:
 * they count other events).
 */
static size_t
check_model(const struct model *m, const char *dom)
{
	check_runs(m, dom, 0, 1);
	check_runs(m, dom, 1, 1);
	return check_runs(m, dom, 1, 0);
}

/*
 * One thread's ranges step#1 [0,1000) > a [0,100), b [100,200), a
 * [200,300), c [300,600) > d [400,500); launches at both sides of every
 * start and end, on two streams (every third on the second), a copy
 * among the kernels and a kernel without a launch: the runs end at the
 * very launch where the innermost range changes.
 */
static struct model *
build(void)
{
	static const int64_t	 at[] = {
		0, 50, 99, 100, 150, 199, 200, 250, 299, 300, 350, 399, 400,
		450, 499, 500, 599, 600, 700, 999, 1000, 1100
	};
	static const struct {
		const char	*name;
		int64_t		 s, e;
	} rg[] = {
		{ "step#1", 0, 1000 }, { "a", 0, 100 }, { "b", 100, 200 },
		{ "a", 200, 300 }, { "c", 300, 600 }, { "d", 400, 500 }
	};
	struct builder		*b = builder_new(SOURCE_NSYS);
	uint32_t		 d, p, th, g[2], api, nv, k, n;

	d = ts_device(b, 0);
	p = builder_process(b, 100, 100, "a");
	th = builder_thread(b, 1, 1, p, "main");
	g[0] = builder_gpu_track(b, builder_stream(b, d, 7, p));
	g[1] = builder_gpu_track(b, builder_stream(b, d, 8, p));
	api = builder_cpu_track(b, TRACK_API, th, 0);
	nv = builder_cpu_track(b, TRACK_NVTX, th,
	    builder_domain(b, p, 0, "default"));
	for (k = 0; k < sizeof rg / sizeof *rg; k++)
		ts_add_corr(b, nv, rg[k].name, EV_NVTX, rg[k].s, rg[k].e, 0);
	n = sizeof at / sizeof *at;
	for (k = 0; k < n; k++) {
		ts_add_corr(b, api, "cudaLaunchKernel", EV_API, at[k],
		    at[k] + 1, k + 1);
		ts_add_corr(b, g[k % 3 == 2], k == 7 ? "[CUDA memcpy]" : "k",
		    k == 7 ? EV_MEMCPY : EV_KERNEL, 2000 + 10 * k,
		    2005 + 10 * k, k + 1);
	}
	ts_add_corr(b, g[0], "k", EV_KERNEL, 2000 + 10 * n, 2005 + 10 * n,
	    n + 100);
	return ts_finish(b);
}

static void
test_edges(void **state)
{
	struct model	*m = build();

	(void)state;
	setenv("GPULENS_THREADS", "2", 1);
	assert_true(check_model(m, NULL) > 0);
	unsetenv("GPULENS_THREADS");
	model_free(m);
}

static void
test_generated(void **state)
{
	struct model	*m;

	static const char *const threads[] = { "1", "2", "3" };
	size_t			 k;

	(void)state;
	m = generated("a.sqlite", 3, 2, 7);
	/* (Walkers as asked whatever the CPUs.) */
	for (k = 0; k < 2 * sizeof threads / sizeof *threads; k++) {
		setenv("GPULENS_THREADS", threads[k / 2], 1);
		backwards = k % 2;
		assert_true(check_model(m, NULL) > 100);
	}
	backwards = 0;
	setenv("GPULENS_THREADS", "2", 1);
	check_model(m, "NCCL");
	check_model(m, "none such");
	model_free(m);
	m = generated("b.sqlite", 4, 0, 11);
	assert_true(check_model(m, NULL) > 100);
	model_free(m);
	unsetenv("GPULENS_THREADS");
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_edges),
	cmocka_unit_test(test_generated))
