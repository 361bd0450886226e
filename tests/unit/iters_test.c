/*
 * iters_test: the iteration rules (iters.h) on models built by hand: the
 * marker is the user's top-level step family, not a library domain's
 * range nested in it that repeats more often, nor a PyTorch operator's;
 * kernels, copies and memsets are counted apart; the kernel-period
 * fallback gives every process its iterations, and the selection keeps
 * one process, rank or device. Then the real fixtures when
 * GPULENS_FIXTURES is set.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/iters.h"
#include "model/nvtxfam.h"
#include "analysis/steady.h"
#include "model/builder.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"

#define US	1000LL

static void
nvtx(struct builder *b, uint32_t track, const char *name, int64_t s,
    int64_t e)
{
	struct lane_event	ev = ts_event(b, name, EV_NVTX, s, e);

	ev.aux = ts_nvtx(b, track);
	builder_event(b, track, &ev);
}

static void
gpu(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t s, int64_t e)
{
	struct lane_event	ev = ts_event(b, name, kind, s, e);

	if (kind == EV_KERNEL)
		ev.aux = ts_kernel(b, name);
	else if (kind == EV_MEMCPY)
		ev.aux = ts_copy(b, 1, 1, 2, 4096);
	builder_event(b, track, &ev);
}

/*
 * One process, one thread: "Loop" around five "Step N to N+10" of 200 us
 * (each holding "Compute N" and four CCCL-domain cub::DeviceReduce::Sum
 * ranges, 20 in all), then ten back-to-back "aten::mul, op_id = N". Each
 * step runs two kernels, a copy and a memset on the GPU.
 */
static struct model *
model_steps(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, th, dom, nv0, nv1, s, g;
	int64_t		 t;
	int		 k, j;
	char		 name[64];

	ts_device(b, 0);
	p = builder_process(b, 100, 100, "train");
	th = builder_thread(b, 100 << 24 | 1, 1, p, "main");
	dom = builder_domain(b, p, 7, "CCCL");
	nv0 = builder_cpu_track(b, TRACK_NVTX, th, 0);
	nv1 = builder_cpu_track(b, TRACK_NVTX, th, dom);
	s = builder_stream(b, 0, 7, p);
	g = builder_gpu_track(b, s);
	nvtx(b, nv0, "Loop", 0, 1000 * US);
	for (k = 0; k < 5; k++) {
		t = k * 200 * US;
		snprintf(name, sizeof name, "Step %d to %d", 10 * k,
		    10 * k + 10);
		nvtx(b, nv0, name, t, t + 199 * US);
		snprintf(name, sizeof name, "Compute %d", 10 * k);
		nvtx(b, nv0, name, t + 1 * US, t + 100 * US);
		for (j = 0; j < 4; j++)
			nvtx(b, nv1, "cub::DeviceReduce::Sum",
			    t + (10 + 40 * j) * US, t + (40 + 40 * j) * US);
		gpu(b, g, "gemm", EV_KERNEL, t + 20 * US, t + 60 * US);
		gpu(b, g, "reduce", EV_KERNEL, t + 70 * US, t + 90 * US);
		gpu(b, g, "Memcpy HtoD", EV_MEMCPY, t + 100 * US,
		    t + 110 * US);
		gpu(b, g, "Memset", EV_MEMSET, t + 120 * US, t + 125 * US);
	}
	for (k = 0; k < 10; k++) {
		snprintf(name, sizeof name, "aten::mul, op_id = %d", 300 + k);
		nvtx(b, nv0, name, 1000 * US + k * 10 * US,
		    1000 * US + (k + 1) * 10 * US);
	}
	return ts_finish(b);
}

/* The automatic marker of m is the NVTX family marker, with n iterations. */
static void
find_nvtx(const struct model *m, struct iters *it, const char *marker,
    size_t n)
{
	char	*cause = NULL;

	assert_int_equal(iters_find(m, NULL, it, &cause), 0);
	assert_int_equal(it->method, ITERS_NVTX);
	assert_string_equal(it->marker, marker);
	assert_int_equal(it->n, n);
}

static void
test_marker(void **state)
{
	struct model	*m = model_steps();
	struct iters	 it;
	struct steady	 st;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	find_nvtx(m, &it, "Step * to *", 5);
	assert_int_equal(it.nproc, 1);
	assert_int_equal(it.v[0].kernels, 0);
	iters_measure(m, &it, NONE32);
	for (i = 0; i < it.n; i++) {
		assert_int_equal(it.v[i].index, i);
		assert_int_equal(it.v[i].start, (int64_t)i * 200 * US);
		/* Kernels only; copies and memsets apart. */
		assert_int_equal(it.v[i].kernels, 2);
		assert_int_equal(it.v[i].copies, 1);
		assert_int_equal(it.v[i].memsets, 1);
		assert_int_equal(it.v[i].gpu_busy, 75 * US);
	}
	iters_free(&it);
	/* The family is accepted back by --range, and a name alone. */
	assert_int_equal(iters_find(m, "Step * to *", &it, &cause), 0);
	assert_int_equal(it.n, 5);
	iters_free(&it);
	assert_int_equal(iters_find(m, "Step 10 to 20", &it, &cause), 0);
	assert_int_equal(it.n, 1);
	iters_free(&it);
	/* The library's range still works when asked for by name. */
	assert_int_equal(iters_find(m, "cub::DeviceReduce::Sum", &it,
	    &cause), 0);
	assert_int_equal(it.n, 20);
	iters_free(&it);
	assert_int_equal(iters_find(m, "nope", &it, &cause), -1);
	free(cause);
	/* The steady window is the middle step. */
	assert_int_equal(steady_find(m, NULL, &st, &cause), 0);
	assert_int_equal(st.method, STEADY_ITER_NVTX);
	assert_int_equal(st.start, 400 * US);
	assert_int_equal(st.end, 599 * US);
	steady_free(&st);
	model_free(m);
}

static void
test_family(void **state)
{
	(void)state;
	ts_family("ProfilerStep#12", "ProfilerStep#*");
	ts_family("Step 190 to 200", "Step * to *");
	ts_family("layers.3", "layers.3");
	ts_family("conv2d 64", "conv2d *");
	ts_family("aten::mm, seq = 4, op_id = 99", "aten::mm");
	assert_true(iters_library_domain("CCCL"));
	assert_true(iters_library_domain("nccl"));
	assert_true(iters_library_domain("cuBLAS"));
	assert_false(iters_library_domain(""));
	assert_false(iters_library_domain("MyApp"));
}

/*
 * A range's family is worked out once per name, but two of its own flags
 * still rule it out: a name's first range is communication (EVF_COMM) and
 * the next four are not; another's first range is eligible and the next
 * five are Kineto operators (category cpu_op). The first is the marker,
 * with four iterations; the second would win with six if its first range
 * spoke for the rest.
 */
static struct model *
model_flags(void)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct nvtx_info	 ni;
	struct lane_event	 ev;
	uint32_t		 p, th, nv;
	int			 k;

	p = builder_process(b, 300, 300, "train");
	th = builder_thread(b, 30 << 24 | 1, 1, p, "main");
	nv = builder_cpu_track(b, TRACK_NVTX, th, 0);
	for (k = 0; k < 5; k++) {
		ev = ts_event(b, "Iter", EV_NVTX, k * 100 * US,
		    (k + 1) * 100 * US);
		ev.aux = ts_nvtx(b, nv);
		if (k == 0)
			ev.flags = EVF_COMM;
		builder_event(b, nv, &ev);
	}
	for (k = 0; k < 6; k++) {
		ev = ts_event(b, "Op", EV_NVTX, (500 + k * 100) * US,
		    (600 + k * 100) * US);
		memset(&ni, 0, sizeof ni);
		if (k > 0)
			ni.category_name = builder_intern(b, "cpu_op");
		ev.aux = builder_nvtx(b, &ni);
		builder_event(b, nv, &ev);
	}
	return ts_finish(b);
}

static void
test_flags(void **state)
{
	struct model	*m = model_flags();
	struct iters	 it;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	find_nvtx(m, &it, "Iter", 4);
	for (i = 0; i < it.n; i++)
		assert_int_equal(it.v[i].start, (int64_t)(i + 1) * 100 * US);
	iters_free(&it);
	/* By name, every range counts. */
	assert_int_equal(iters_find(m, "Op", &it, &cause), 0);
	assert_int_equal(it.n, 6);
	iters_free(&it);
	assert_int_equal(iters_find(m, "Iter", &it, &cause), 0);
	assert_int_equal(it.n, 5);
	iters_free(&it);
	model_free(m);
}

/*
 * The counts on a serial GPU lane (a run of indices) and on one whose
 * events overlap (the interval tree) agree with a plain scan of every
 * event against each iteration: events straddling a boundary, ending on
 * one, zero-length at one.
 */
static struct model *
model_edges(int overlap)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, th, nv, g;
	int		 k;

	ts_device(b, 0);
	p = builder_process(b, 400, 400, "train");
	th = builder_thread(b, 40 << 24 | 1, 1, p, "main");
	nv = builder_cpu_track(b, TRACK_NVTX, th, 0);
	g = builder_gpu_track(b, builder_stream(b, 0, 7, p));
	for (k = 0; k < 4; k++)
		nvtx(b, nv, "Iter", k * 100 * US, (k + 1) * 100 * US);
	gpu(b, g, "a", EV_KERNEL, 80 * US, 95 * US);
	gpu(b, g, "z", EV_MEMSET, 100 * US, 100 * US);
	gpu(b, g, "s", EV_KERNEL, 150 * US, 250 * US);
	gpu(b, g, "c", EV_MEMCPY, 290 * US, 300 * US);
	gpu(b, g, "d", EV_KERNEL, 300 * US, 400 * US);
	if (overlap)
		gpu(b, g, "e", EV_KERNEL, 160 * US, 310 * US);
	return ts_finish(b);
}

static void
test_measure_edges(void **state)
{
	struct model	*m;
	struct iters	 it;
	char		*cause = NULL;
	size_t		 i, t, j;
	uint64_t	 n[3];
	int		 overlap;

	(void)state;
	for (overlap = 0; overlap < 2; overlap++) {
		m = model_edges(overlap);
		assert_int_equal(iters_find(m, NULL, &it, &cause), 0);
		assert_int_equal(it.n, 4);
		iters_measure(m, &it, NONE32);
		for (i = 0; i < it.n; i++) {
			const struct iter *v = &it.v[i];
			memset(n, 0, sizeof n);
			for (t = 0; t < m->ntracks; t++) {
				const struct lane *l = &m->tracks[t].lane;
				if (m->tracks[t].type != TRACK_GPU)
					continue;
				assert_int_equal(l->overlaps, overlap);
				for (j = 0; j < l->n; j++) {
					if (!(l->start[j] < v->end &&
					    (l->end[j] > v->start ||
					    (l->start[j] == l->end[j] &&
					    l->start[j] >= v->start))))
						continue;
					n[0] += l->kind[j] == EV_KERNEL;
					n[1] += l->kind[j] == EV_MEMCPY;
					n[2] += l->kind[j] == EV_MEMSET;
				}
			}
			assert_int_equal(v->kernels, n[0]);
			assert_int_equal(v->copies, n[1]);
			assert_int_equal(v->memsets, n[2]);
		}
		/* The straddling kernel counts in both its iterations, the
		 * zero-length memset in the one it starts. */
		assert_int_equal(it.v[1].kernels, 1 + overlap);
		assert_int_equal(it.v[2].kernels, 1 + overlap);
		assert_int_equal(it.v[0].memsets, 0);
		assert_int_equal(it.v[1].memsets, 1);
		assert_int_equal(it.v[2].copies, 1);
		assert_int_equal(it.v[3].copies, 0);
		iters_free(&it);
		model_free(m);
	}
}

/*
 * Two processes (ranks 0 and 1, GPUs 0 and 1) without NVTX: a kernel "step"
 * every 100 us (rank 0) or 110 us (rank 1), with "noise" kernels between.
 */
static struct model *
model_two_ranks(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, s, g;
	int		 r, k;
	int64_t		 per, t;

	for (r = 0; r < 2; r++) {
		ts_device(b, (uint32_t)r);
		p = builder_process(b, 200 + (uint64_t)r, 200 + (uint32_t)r,
		    "python3");
		s = builder_stream(b, (uint32_t)r, 7, p);
		g = builder_gpu_track(b, s);
		per = (100 + 10 * r) * US;
		for (k = 0; k < 8; k++) {
			t = k * per;
			gpu(b, g, "step", EV_KERNEL, t, t + 10 * US);
			gpu(b, g, "noise", EV_KERNEL, t + 20 * US + k * k * US,
			    t + 30 * US + k * k * US);
		}
	}
	return ts_finish(b);
}

static void
test_per_process(void **state)
{
	struct model		*m = model_two_ranks();
	struct iters		 it;
	struct iters_sel	 sel;
	const struct iters_proc	*pp;
	char			*cause = NULL;

	(void)state;
	m->processes[0].rank = 0;
	m->processes[1].rank = 1;
	assert_int_equal(iters_find(m, NULL, &it, &cause), 0);
	assert_int_equal(it.method, ITERS_KERNEL);
	assert_string_equal(it.marker, "step");
	assert_int_equal(it.n, 14);
	assert_int_equal(it.nproc, 2);
	pp = iters_of(&it, 1);
	assert_non_null(pp);
	assert_int_equal(pp->n, 7);
	assert_int_equal(it.v[pp->first].end - it.v[pp->first].start,
	    110 * US);
	iters_measure(m, &it, NONE32);
	assert_int_equal(it.v[pp->first].kernels, 2);
	iters_free(&it);

	iters_sel_init(&sel);
	sel.rank = 1;
	assert_int_equal(iters_select(m, &sel, &it, &cause), 0);
	assert_int_equal(it.n, 7);
	assert_int_equal(it.v[0].process, 1);
	iters_free(&it);
	iters_sel_init(&sel);
	sel.device = 0;
	assert_int_equal(iters_select(m, &sel, &it, &cause), 0);
	assert_int_equal(it.n, 7);
	assert_int_equal(it.v[0].process, 0);
	iters_measure(m, &it, sel.device);
	assert_int_equal(it.v[0].ndevices, 1);
	iters_free(&it);
	model_free(m);
}

/*
 * The kernel-period candidates are per (stream, name): "step" runs every
 * 100 us on one stream and at odd times on another; "tick" is nearly
 * regular. "step" of the first stream wins (no variation at all); taken
 * over both streams it would lose to "tick".
 */
static void
test_period_per_stream(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct iters	 it;
	char		*cause = NULL;
	uint32_t	 p, g0, g1;
	int		 k;
	size_t		 i;

	(void)state;
	ts_device(b, 0);
	p = builder_process(b, 500, 500, "python3");
	g0 = builder_gpu_track(b, builder_stream(b, 0, 7, p));
	g1 = builder_gpu_track(b, builder_stream(b, 0, 8, p));
	for (k = 0; k < 8; k++) {
		gpu(b, g0, "step", EV_KERNEL, k * 100 * US,
		    k * 100 * US + 5 * US);
		gpu(b, g1, "step", EV_KERNEL, (k * 37 % 11) * 70 * US + 3 * US,
		    (k * 37 % 11) * 70 * US + 4 * US);
		gpu(b, g1, "tick", EV_KERNEL, k * 90 * US + (k % 2) * US + 50 * US,
		    k * 90 * US + (k % 2) * US + 52 * US);
	}
	m = ts_finish(b);
	assert_int_equal(iters_find(m, NULL, &it, &cause), 0);
	assert_int_equal(it.method, ITERS_KERNEL);
	assert_string_equal(it.marker, "step");
	assert_int_equal(it.n, 7);
	for (i = 0; i < it.n; i++)
		assert_int_equal(it.v[i].end - it.v[i].start, 100 * US);
	iters_free(&it);
	model_free(m);
}

/* The real profiles the issue names. */
static void
test_fixtures(void **state)
{
	struct iters		 it;
	struct iters_sel	 sel;
	struct model		*m;
	char			*path, *cause = NULL;
	size_t			 i, k, sum;

	(void)state;
	ts_need_fixtures();
	path = ts_fixture("nsys/nsightful/power_iteration__baseline.sqlite");
	if (path == NULL)
		ts_skip("power_iteration__baseline.sqlite is absent");
	if ((m = source_read(path, NULL, &cause)) == NULL)
		fail_msg("%s: %s", path, cause);
	free(path);
	assert_int_equal(iters_find(m, NULL, &it, &cause), 0);
	assert_int_equal(it.method, ITERS_NVTX);
	assert_string_equal(it.marker, "Step * to *");
	assert_int_equal(it.n, 44);
	iters_free(&it);
	model_free(m);

	path = ts_fixture("nsys/nsys-ai/mfu_2gpu_before.sqlite");
	if (path == NULL)
		ts_skip("mfu_2gpu_before.sqlite is absent");
	if ((m = source_read(path, NULL, &cause)) == NULL)
		fail_msg("%s: %s", path, cause);
	free(path);
	assert_int_equal(iters_find(m, NULL, &it, &cause), 0);
	assert_int_equal(it.method, ITERS_KERNEL);
	assert_int_equal(it.nproc, 2);
	for (i = 0; i < it.nproc; i++)
		assert_true(it.proc[i].n >= 10);
	iters_free(&it);
	model_free(m);

	path = ts_fixture("kineto/hta/trace_diff__control__control.json.gz");
	if (path == NULL)
		ts_skip("trace_diff__control__control.json.gz is absent");
	if ((m = source_read(path, NULL, &cause)) == NULL)
		fail_msg("%s: %s", path, cause);
	free(path);
	iters_sel_init(&sel);
	assert_int_equal(iters_select(m, &sel, &it, &cause), 0);
	assert_int_equal(it.n, 6);
	iters_measure(m, &it, sel.device);
	sum = 0;
	for (i = 0; i < it.n; i++)
		sum += it.v[i].kernels;
	k = ts_count(m, EV_KERNEL, NULL);
	assert_true(sum <= k);
	iters_free(&it);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_marker),
	cmocka_unit_test(test_family),
	cmocka_unit_test(test_flags),
	cmocka_unit_test(test_measure_edges),
	cmocka_unit_test(test_per_process),
	cmocka_unit_test(test_period_per_stream),
	cmocka_unit_test(test_fixtures))
