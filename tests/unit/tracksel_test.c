/*
 * tracksel_test: the one rule of which tracks a selection keeps.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/tracksel.h"
#include "model/builder.h"
#include "tsupport.h"

/* Two streams of one device, a kernel on each, a copy on the second. */
static void
test_rules(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct lane_event	 e;
	struct model		*m;
	struct tracksel		 s;
	uint32_t		 d, t[2], i, k;

	(void)state;
	memset(&dev, 0, sizeof dev);
	d = builder_device(b, &dev);
	t[0] = builder_gpu_track(b, builder_stream(b, d, 7, NONE32));
	t[1] = builder_gpu_track(b, builder_stream(b, d, 9, NONE32));
	memset(&e, 0, sizeof e);
	e.kind = EV_KERNEL;
	e.end = 10;
	builder_event(b, t[0], &e);
	builder_event(b, t[1], &e);
	e.kind = EV_MEMCPY;
	builder_event(b, t[1], &e);
	m = ts_finish(b);
	/* The model's track order: find the stream-9 track. */
	for (i = 0, k = 0; i < m->ntracks; i++)
		if (m->streams[m->tracks[i].stream].source_id == 9)
			k = i;
	memset(&s, 0, sizeof s);
	s.stream = s.pid = s.tid = -1;
	assert_int_equal(tracksel_match(m, &s, 0), 1);
	assert_int_equal(tracksel_match(m, &s, 1), 1);
	s.stream = 9;
	assert_int_equal(tracksel_match(m, &s, k), 1);
	assert_int_equal(tracksel_match(m, &s, 1 - k), 0);
	s.stream = -1;
	s.kind = EV_MEMCPY;	/* by track type: GPU tracks hold copies */
	assert_int_equal(tracksel_match(m, &s, k), 1);
	s.kind = EV_API;
	assert_int_equal(tracksel_match(m, &s, k), 0);
	s.kind = -1;		/* communication: GPU and NVTX tracks */
	assert_int_equal(tracksel_match(m, &s, k), 1);
	s.kind = 0;
	s.has_device = 1;
	s.device = d + 1;
	assert_int_equal(tracksel_match(m, &s, 0), 0);
	s.device = d;
	assert_int_equal(tracksel_match(m, &s, 0), 1);
	s.pid = 42;	/* no process: kept by nothing */
	assert_int_equal(tracksel_match(m, &s, 0), 0);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_rules))
