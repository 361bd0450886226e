/*
 * activity_test: per-device coverages of GPU work by class and the window
 * queries (src/analysis/activity.h), on a hand-built model with every number
 * worked out on paper.
 *
 * Device with source id 5 (index 0): nothing.
 * Device with source id 2 (index 1), process 100:
 *   stream 7: kernel [0, 100), kernel [150, 250), memcpy [300, 350)
 *   stream 8: NCCL kernel [50, 200) (communication)
 *   a sync record [0, 400) on the stream's sync track (not work)
 * Device with source id 9 (index 2): kernel [1000, 1100).
 * C = [0,100) u [150,250) = 200, M = [50,200) = 150, Y = [300,350) = 50,
 * C u M = [0,250) = 250, all = [0,250) u [300,350) = 300, exposed = 50.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/activity.h"
#include "model/builder.h"
#include "model/model.h"
#include "tsupport.h"

static void
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint8_t flags)
{
	struct lane_event	e = ts_event(b, name, kind, start, end);

	e.flags = flags;
	if (kind == EV_MEMCPY)
		e.aux = ts_copy(b, COPY_HTOD, 0, 0, 0);
	builder_event(b, track, &e);
}

static struct model *
build(void)
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
	add(b, builder_gpu_track(b, s7), "k", EV_KERNEL, 0, 100, 0);
	add(b, builder_gpu_track(b, s7), "k", EV_KERNEL, 150, 250, 0);
	add(b, builder_gpu_track(b, s7), "copy", EV_MEMCPY, 300, 350, 0);
	add(b, builder_gpu_track(b, s8), "nccl", EV_KERNEL, 50, 200,
	    EVF_COMM);
	add(b, builder_sync_track(b, s7), "sync", EV_SYNC, 0, 400, 0);
	add(b, builder_gpu_track(b, s9), "k", EV_KERNEL, 1000, 1100, 0);
	return ts_finish(b);
}

static void
test_class(void **state)
{
	(void)state;
	assert_int_equal(activity_class(EV_KERNEL, 0), ACT_COMPUTE);
	assert_int_equal(activity_class(EV_GRAPH, 0), ACT_COMPUTE);
	assert_int_equal(activity_class(EV_KERNEL, EVF_COMM), ACT_COMM);
	assert_int_equal(activity_class(EV_MEMSET, 0), ACT_COPY);
	assert_int_equal(activity_class(EV_SYNC, 0), -1);
	assert_int_equal(activity_class(EV_API, 0), -1);
}

static void
test_devices(void **state)
{
	struct model	*m = build();
	struct activity	 a;

	(void)state;
	activity_build(&a, m);
	/* Devices with work, by source id: 2 then 9; 5 is left out. */
	assert_int_equal(a.ndev, 2);
	assert_int_equal(m->devices[a.dev[0].device].source_id, 2);
	assert_int_equal(m->devices[a.dev[1].device].source_id, 9);
	assert_int_equal(activity_slot(&a, 0), -1);
	assert_int_equal(activity_slot(&a, 1), 0);
	assert_int_equal(a.dev[0].nkernels, 3);
	assert_int_equal(a.dev[0].ncomm, 1);
	assert_int_equal(a.dev[0].first, 0);
	assert_int_equal(a.dev[0].last, 350);
	assert_int_equal(a.dev[0].process, 0);
	assert_int_equal(a.dev[1].process, NONE32);
	assert_int_equal(activity_busy(&a, 0, ACT_COMPUTE, 0, 1000), 200);
	assert_int_equal(activity_busy(&a, 0, ACT_COMM, 0, 1000), 150);
	assert_int_equal(activity_busy(&a, 0, ACT_COPY, 0, 1000), 50);
	assert_int_equal(activity_busy(&a, 0, ACT_CM, 0, 1000), 250);
	assert_int_equal(activity_busy(&a, 0, ACT_ALL, 0, 1000), 300);
	assert_int_equal(activity_busy(&a, 5, ACT_ALL, 0, 1000), 0);
	/* Any GPU: [0,250) u [300,350) u [1000,1100). */
	assert_int_equal(coverage_busy(&a.any, 0, 2000), 400);
	activity_free(&a);
	model_free(m);
}

static void
test_window(void **state)
{
	struct model		*m = build();
	struct activity		 a;
	struct act_window	 w;

	(void)state;
	activity_build(&a, m);
	activity_window(&a, 0, 0, 400, &w);
	assert_int_equal(w.span, 400);
	assert_int_equal(w.busy, 300);
	assert_int_equal(w.exposed, 50);
	assert_int_equal(w.idle, 100);
	assert_int_equal(w.first, 0);
	assert_int_equal(w.last, 350);
	assert_int_equal(w.inner_idle, 50);
	/* [120, 320): busy [120,250) + [300,320), compute [150,250),
	 * comm [120,200), C u M [120,250). */
	activity_window(&a, 0, 120, 320, &w);
	assert_int_equal(w.busy, 150);
	assert_int_equal(w.compute, 100);
	assert_int_equal(w.comm, 80);
	assert_int_equal(w.copy, 20);
	assert_int_equal(w.exposed, 30);
	assert_int_equal(w.first, 120);
	assert_int_equal(w.last, 320);
	assert_int_equal(w.inner_idle, 50);
	/* An idle window. */
	activity_window(&a, 0, 500, 900, &w);
	assert_int_equal(w.busy, 0);
	assert_int_equal(w.idle, 400);
	assert_true(w.first > w.last);
	assert_int_equal(w.inner_idle, 0);
	/* Both devices over [0, 2000). */
	assert_int_equal(activity_total(&a, 0, 2000, &w), 2);
	assert_int_equal(w.busy, 400);
	assert_int_equal(w.idle, 2 * 2000 - 400);
	assert_int_equal(w.first, 0);
	assert_int_equal(w.last, 1100);
	assert_int_equal(activity_total(&a, 500, 900, &w), 0);
	activity_free(&a);
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
