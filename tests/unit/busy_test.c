/*
 * busy_test: the busy-time analyses (analysis/busy.h) over the selected
 * work of a small model: the busy walk from the precomputed sets and from
 * the merged events, the per-bucket class unions, the overlap unions with
 * their exposed communication by tag, and a device's busy time.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/busy.h"
#include "model/model.h"
#include "tsupport.h"

/* An event filter for the busy walks: everything but communication. */
static int
no_comm(void *arg, uint32_t t, uint32_t i)
{
	const struct model	*m = arg;

	return (m->tracks[t].lane.flags[i] & EVF_COMM) == 0;
}

/* The busy analyses over the selected work of device 2 (index 1). */
/* Walks bw to its end: the segments' starts and ends into got (at most max
 * values). Returns how many values. */
static size_t
walk(struct busy_walk *bw, int64_t *got, size_t max)
{
	int64_t	s, e;
	size_t	n;

	for (n = 0; busy_walk_next(bw, &s, &e); n += 2) {
		assert_true(n < max);
		got[n] = s;
		got[n + 1] = e;
	}
	return n;
}

static void
test_busy(void **state)
{
	struct model		*m = ts_model_activity();
	struct work		 w, wf;
	struct work_sel		 all = { NULL, NULL, NULL };
	struct work_sel		 nc = { NULL, no_comm, NULL };
	struct busy_walk	 bw;
	struct busy_buckets	 bb;
	struct busy_overlap	 bo;
	struct busy_tag		*tags = NULL;
	struct iset		 win;
	uint32_t		*tr = NULL;
	size_t			 cap = 0, nt, tcap = 0;
	int64_t			 s, e, edge[] = { 0, 100, 200, 400 };
	int64_t			 got[8];
	/* The union of the two streams over [0, 1000): [0,250) [300,350). */
	static const int64_t	 two_segments[] = { 0, 250, 300, 350 };
	size_t			 n;

	(void)state;
	nc.arg = m;
	work_init(&w, m, &all, 0, 2000);
	work_init(&wf, m, &nc, 0, 2000);
	/* Two work streams. */
	nt = work_tracks(&w, 1, &tr, &cap);
	assert_int_equal(nt, 2);

	memset(&bw, 0, sizeof bw);
	busy_walk_start(&bw, &w, tr, nt, 0, 1000);
	n = walk(&bw, got, 8);
	assert_int_equal(n, 4);
	assert_memory_equal(got, two_segments, sizeof two_segments);
	/* Clamped to a window that cuts both segments. */
	busy_walk_start(&bw, &w, tr, nt, 120, 320);
	assert_true(busy_walk_next(&bw, &s, &e));
	assert_int_equal(s, 120);
	assert_int_equal(e, 250);
	assert_true(busy_walk_next(&bw, &s, &e));
	assert_int_equal(s, 300);
	assert_int_equal(e, 320);
	assert_false(busy_walk_next(&bw, &s, &e));
	/* An empty window, then the event filter (the heap merge). */
	busy_walk_start(&bw, &w, tr, nt, 500, 500);
	assert_false(busy_walk_next(&bw, &s, &e));
	busy_walk_start(&bw, &wf, tr, nt, 0, 1000);
	n = walk(&bw, got, 8);
	assert_int_equal(n, 6);
	assert_int_equal(got[1], 100);
	assert_int_equal(got[2], 150);
	assert_int_equal(got[3], 250);
	assert_int_equal(got[5], 350);
	busy_walk_free(&bw);

	/* Buckets [0,100) [100,200) [200,400): all, compute, comm, copy. */
	iset_init(&win);
	iset_add(&win, 0, 2000);
	busy_buckets_init(&bb, edge, 3);
	busy_buckets_sweep(&bb, &w, &win, tr, nt);
	assert_int_equal(bb.busy[0 * BUSY_NCOL + 0], 100);
	assert_int_equal(bb.busy[1 * BUSY_NCOL + 0], 100);
	assert_int_equal(bb.busy[2 * BUSY_NCOL + 0], 100);
	assert_int_equal(bb.busy[0 * BUSY_NCOL + 1 + WORK_COMPUTE], 100);
	assert_int_equal(bb.busy[1 * BUSY_NCOL + 1 + WORK_COMPUTE], 50);
	assert_int_equal(bb.busy[2 * BUSY_NCOL + 1 + WORK_COMPUTE], 50);
	assert_int_equal(bb.busy[0 * BUSY_NCOL + 1 + WORK_COMM], 50);
	assert_int_equal(bb.busy[1 * BUSY_NCOL + 1 + WORK_COMM], 100);
	assert_int_equal(bb.busy[2 * BUSY_NCOL + 1 + WORK_COPY], 50);
	assert_int_equal(bb.kern[0], 2);
	assert_int_equal(bb.kern[1], 1);
	assert_int_equal(bb.kern[2], 0);
	assert_int_equal(busy_bucket(&bb, 399), 2);
	busy_buckets_free(&bb);
	iset_free(&win);

	/* Class unions, sum, peak; exposed communication by tag. */
	busy_overlap_init(&bo, 1);
	busy_overlap_reset(&bo);
	busy_overlap_sweep(&bo, &w, tr, nt, 0, 1000);
	assert_int_equal(bo.len[BUSY_C], 200);
	assert_int_equal(bo.len[BUSY_M], 150);
	assert_int_equal(bo.len[BUSY_Y], 50);
	assert_int_equal(bo.len[BUSY_CM], 250);
	assert_int_equal(bo.len[BUSY_CY], 250);
	assert_int_equal(bo.len[BUSY_ALL], 300);
	assert_int_equal(bo.sum, 400);
	assert_int_equal(bo.peak, 2);
	assert_int_equal(bo.ncomm, 1);
	n = busy_overlap_tags(&bo, &tags, &tcap);
	assert_int_equal(n, 1);
	assert_int_equal(tags[0].count, 1);
	assert_int_equal(tags[0].comm, 150);
	assert_int_equal(tags[0].exposed, 50);	/* [100, 150) */
	free(tags);
	busy_overlap_free(&bo);

	/* The device's busy set: every event of its GPU tracks (the sync
	 * record sits on a track of its own). */
	assert_int_equal(busy_device(m, 1, 0, 1000), 300);
	assert_int_equal(busy_device(m, 1, 120, 320), 150);
	assert_int_equal(busy_device_total(m, 1), 300);
	assert_int_equal(busy_device(m, 7, 0, 1000), 0);
	free(tr);
	work_free(&w);
	work_free(&wf);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_busy))
