/*
 * layout_test: the timeline's row list (tui/layout.c): order of devices,
 * per-process subgroups, processes, threads and their NVTX depth rows and
 * API rows; collapsing and expanding; the NVTX depth sub-lanes against a
 * brute-force split of the track's events by depth; the minimum-duration
 * filter against a brute-force count, hidden track types, collapsing
 * everything, revealing a row and finding an event in a row's lane; the
 * compact GPU view (no per-stream sync rows, overlapping streams on one
 * row); rank by rank order when ranks are known (layrank.c).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "model/builder.h"
#include "tui/layout.h"
#include "tui/layrank.h"
#include "tsupport.h"

/*
 * Two devices; device 1 has streams of two processes. Process A (pid 100)
 * has thread 101 with nested NVTX (3 depths) and API calls, and thread 102
 * with API calls; process B (pid 200) has thread 201 with OS runtime calls.
 * Tracks are created out of order on purpose.
 */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 d0, d1, pa, pb, t101, t102, t201, tr;

	pa = builder_process(b, 1, 100, "procA");
	pb = builder_process(b, 2, 200, "procB");
	t201 = builder_thread(b, 201, 201, pb, NULL);
	t102 = builder_thread(b, 102, 102, pa, "worker");
	t101 = builder_thread(b, 101, 101, pa, "main");
	memset(&dev, 0, sizeof dev);
	dev.source_id = 1;
	dev.name = builder_intern(b, "B200");
	d1 = builder_device(b, &dev);
	dev.source_id = 0;
	dev.name = builder_intern(b, "H100");
	d0 = builder_device(b, &dev);

	tr = builder_gpu_track(b, builder_stream(b, d1, 4, pb));
	ts_add(b, tr, "k4", EV_KERNEL, 0, 10);
	tr = builder_gpu_track(b, builder_stream(b, d1, 3, pa));
	ts_add(b, tr, "k3", EV_KERNEL, 0, 10);
	tr = builder_gpu_track(b, builder_stream(b, d0, 9, pa));
	ts_add(b, tr, "k9", EV_KERNEL, 0, 10);
	tr = builder_gpu_track(b, builder_stream(b, d0, 7, pa));
	ts_add(b, tr, "c7", EV_MEMCPY, 0, 10);

	tr = builder_cpu_track(b, TRACK_OSRT, t201, 0);
	ts_add(b, tr, "read", EV_OSRT, 0, 5);
	tr = builder_cpu_track(b, TRACK_API, t102, 0);
	ts_add(b, tr, "cudaMalloc", EV_API, 0, 5);
	tr = builder_cpu_track(b, TRACK_API, t101, 0);
	ts_add(b, tr, "cudaLaunchKernel", EV_API, 1, 2);
	tr = builder_cpu_track(b, TRACK_NVTX, t101, 0);
	ts_add(b, tr, "step0", EV_NVTX, 0, 100);		/* depth 0 */
	ts_add(b, tr, "fwd", EV_NVTX, 10, 50);		/* depth 1 */
	ts_add(b, tr, "layer1", EV_NVTX, 20, 30);	/* depth 2 */
	ts_add(b, tr, "layer2", EV_NVTX, 30, 40);	/* depth 2 */
	ts_add(b, tr, "bwd", EV_NVTX, 55, 90);		/* depth 1 */
	ts_add(b, tr, "step1", EV_NVTX, 100, 200);	/* depth 0 */
	ts_add(b, tr, "fwd", EV_NVTX, 120, 130);		/* depth 1 */
	return ts_finish(b);
}

struct want {
	int		 kind;
	int		 level;
	const char	*label;
};

static void
check_rows(const struct layout *l, const struct want *w, size_t n)
{
	const struct layout_row	*r;
	size_t			 i;

	assert_int_equal(layout_nrows(l), n);
	for (i = 0; i < n; i++) {
		r = layout_row(l, i);
		assert_non_null(r);
		if (r->kind != w[i].kind || r->level != w[i].level ||
		    strcmp(r->label, w[i].label) != 0)
			fail_msg("row %zu: got %d/%d \"%s\", want %d/%d \"%s\"",
			    i, r->kind, r->level, r->label, w[i].kind,
			    w[i].level, w[i].label);
	}
	assert_null(layout_row(l, n));
}

static const struct want full[] = {
	{ LROW_GROUP, 0, "GPU 0 H100" },
	{ LROW_LANE, 1, "Stream 7" },
	{ LROW_LANE, 1, "Stream 9" },
	{ LROW_GROUP, 0, "GPU 1 B200" },
	{ LROW_GROUP, 1, "pid 100 procA" },
	{ LROW_LANE, 2, "Stream 3" },
	{ LROW_GROUP, 1, "pid 200 procB" },
	{ LROW_LANE, 2, "Stream 4" },
	{ LROW_GROUP, 0, "pid 100 procA" },
	{ LROW_GROUP, 1, "tid 101 main" },
	{ LROW_LANE, 2, "NVTX" },
	{ LROW_LANE, 2, "NVTX +1" },
	{ LROW_LANE, 2, "NVTX +2" },
	{ LROW_LANE, 2, "CUDA API" },
	{ LROW_GROUP, 1, "tid 102 worker" },
	{ LROW_LANE, 2, "CUDA API" },
	{ LROW_GROUP, 0, "pid 200 procB" },
	{ LROW_GROUP, 1, "tid 201" },
	{ LROW_LANE, 2, "OS runtime" },
};

static void
test_order(void **state)
{
	struct model	*m = build();
	struct layout	*l = layout_new(m);

	check_rows(l, full, sizeof full / sizeof full[0]);
	/* Lane rows point at the right tracks. */
	assert_int_equal(m->tracks[layout_row(l, 1)->track].type, TRACK_GPU);
	assert_int_equal(m->streams[m->tracks[layout_row(l, 1)->track].stream]
	    .source_id, 7);
	assert_int_equal(m->tracks[layout_row(l, 13)->track].type, TRACK_API);
	assert_int_equal(m->tracks[layout_row(l, 18)->track].type,
	    TRACK_OSRT);
	assert_int_equal(layout_row(l, 10)->depth, 0);
	assert_int_equal(layout_row(l, 12)->depth, 2);
	assert_int_equal(layout_row(l, 13)->depth, -1);
	layout_free(l);
	model_free(m);
}

static void
test_members(void **state)
{
	struct model		*m = build();
	struct layout		*l = layout_new(m);
	const uint32_t		*mem;
	size_t			 n, i;

	/* GPU 1's header lists both of its streams, whatever the process. */
	mem = layout_members(l, layout_row(l, 3)->group, &n);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++)
		assert_int_equal(m->devices[m->tracks[mem[i]].device].source_id,
		    1);
	/* Process A's CPU group: its NVTX and two API tracks. */
	mem = layout_members(l, layout_row(l, 8)->group, &n);
	assert_int_equal(n, 3);
	/* Thread 101's group: NVTX and API. */
	mem = layout_members(l, layout_row(l, 9)->group, &n);
	assert_int_equal(n, 2);
	layout_free(l);
	model_free(m);
}

static void
test_collapse(void **state)
{
	struct model	*m = build();
	struct layout	*l = layout_new(m);
	size_t		 n = layout_nrows(l);

	/* Collapsing GPU 0 hides its two streams. */
	assert_int_equal(layout_toggle(l, 0), 1);
	assert_int_equal(layout_nrows(l), n - 2);
	assert_string_equal(layout_row(l, 0)->label, "GPU 0 H100");
	assert_int_equal(l->groups[layout_row(l, 0)->group].collapsed, 1);
	assert_string_equal(layout_row(l, 1)->label, "GPU 1 B200");
	assert_int_equal(layout_row(l, 1)->kind, LROW_GROUP);
	/* A lane row does not toggle. */
	assert_int_equal(layout_toggle(l, 3), 0);
	assert_int_equal(layout_nrows(l), n - 2);
	/* Expanding restores the full list. */
	assert_int_equal(layout_toggle(l, 0), 1);
	check_rows(l, full, sizeof full / sizeof full[0]);
	layout_free(l);
	model_free(m);
}

static void
test_collapse_nested(void **state)
{
	struct model	*m = build();
	struct layout	*l = layout_new(m);
	size_t		 n = layout_nrows(l);

	/* Thread 101 (row 9) hides 4 rows; process A (row 8) 7 in all. */
	layout_toggle(l, 9);
	assert_int_equal(layout_nrows(l), n - 4);
	assert_string_equal(layout_row(l, 10)->label, "tid 102 worker");
	layout_toggle(l, 8);
	assert_int_equal(layout_nrows(l), n - 7);
	assert_string_equal(layout_row(l, 9)->label, "pid 200 procB");
	/* Re-expanding the process keeps the thread collapsed. */
	layout_toggle(l, 8);
	assert_int_equal(layout_nrows(l), n - 4);
	assert_int_equal(l->groups[layout_row(l, 9)->group].collapsed, 1);
	layout_set_collapsed(l, layout_row(l, 9)->group, 0);
	check_rows(l, full, sizeof full / sizeof full[0]);
	layout_free(l);
	model_free(m);
}

static void
test_depth_sublanes(void **state)
{
	struct model		*m = build();
	struct layout		*l = layout_new(m);
	const struct layout_row	*r;
	const struct lane	*src;
	size_t			 i, d, k, cnt;
	uint32_t		 gid;

	src = &m->tracks[layout_row(l, 10)->track].lane;
	assert_int_equal(src->max_depth, 3);
	for (d = 0; d < 3; d++) {
		r = layout_row(l, 10 + d);
		assert_int_equal(r->sub, 1);
		/* The sub-lane holds exactly the events of depth d. */
		cnt = 0;
		for (i = 0; i < src->n; i++)
			if (src->depth[i] == d)
				cnt++;
		assert_int_equal(r->lane->n, cnt);
		for (k = 0; k < r->lane->n; k++) {
			gid = layout_gid(l, r, k);
			i = model_ev(m, gid).idx;
			assert_int_equal(src->depth[i], d);
			assert_int_equal(model_ev_start(m, gid),
			    r->lane->start[k]);
			assert_int_equal(model_ev_name(m, gid),
			    r->lane->name[k]);
			assert_int_equal(layout_find(l, gid), 10 + d);
		}
	}
	/* Depth-1 row: fwd, bwd, fwd in start order. */
	r = layout_row(l, 11);
	assert_string_equal(model_str(m, r->lane->name[0]), "fwd");
	assert_string_equal(model_str(m, r->lane->name[1]), "bwd");
	assert_int_equal(r->lane->start[2], 120);
	/* A whole-track row maps indices directly. */
	r = layout_row(l, 13);
	gid = layout_gid(l, r, 0);
	assert_string_equal(model_str(m, model_ev_name(m, gid)),
	    "cudaLaunchKernel");
	assert_int_equal(layout_find(l, gid), 13);
	/* Hidden rows are not found. */
	layout_toggle(l, 9);
	assert_int_equal(layout_find(l, gid), (size_t)-1);
	layout_free(l);
	model_free(m);
}

static void
test_overlapping_stream(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct model		*m;
	struct layout		*l;
	const struct layout_row	*r;
	uint32_t		 tr;

	/* A sync that waits for a running kernel overlaps it. */
	memset(&dev, 0, sizeof dev);
	tr = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev),
	    7, NONE32));
	ts_add(b, tr, "gemm", EV_KERNEL, 0, 100);
	ts_add(b, tr, "sync", EV_SYNC, 50, 120);
	ts_add(b, tr, "relu", EV_KERNEL, 130, 140);
	m = ts_finish(b);
	l = layout_new(m);
	assert_int_equal(layout_nrows(l), 3);
	r = layout_row(l, 1);
	assert_string_equal(r->label, "Stream 7");
	assert_int_equal(r->lane->n, 2);
	assert_string_equal(model_str(m, r->lane->name[0]), "gemm");
	assert_string_equal(model_str(m, r->lane->name[1]), "relu");
	r = layout_row(l, 2);
	assert_string_equal(r->label, "Stream 7 +1");
	assert_int_equal(r->lane->n, 1);
	assert_string_equal(model_str(m, r->lane->name[0]), "sync");
	assert_int_equal(layout_find(l, layout_gid(l, r, 0)), 2);
	/* The compact view: one row for the stream, holding all three. */
	layout_set_hidden(l, LAYOUT_HIDE_OVERLAP);
	assert_int_equal(layout_nrows(l), 2);
	r = layout_row(l, 1);
	assert_string_equal(r->label, "Stream 7");
	assert_int_equal(r->overlap, LOV_WHOLE);
	assert_int_equal(r->depth, -1);
	assert_int_equal(r->lane->n, 3);
	assert_false(layout_row_hidden(l, r));
	assert_int_equal(layout_find(l, model_gid(m, tr, 1)), 1);
	assert_int_equal(layout_find(l, model_gid(m, tr, 2)), 1);
	/* Back to the depth rows; the whole row is hidden again. */
	layout_set_hidden(l, 0);
	assert_int_equal(layout_nrows(l), 3);
	assert_true(layout_row_hidden(l, r));
	assert_int_equal(layout_row(l, 2)->overlap, LOV_DEPTH);
	layout_free(l);
	model_free(m);
}

/*
 * Per-stream sync tracks: one row each, unless hidden with the compact
 * view (LAYOUT_HIDE_DETAIL), which leaves the stream rows and the GPU's
 * header (its members still include the sync tracks).
 */
static void
test_sync_rows(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct model		*m;
	struct layout		*l;
	uint32_t		 d, s7, s9, tr, sy;
	size_t			 n;

	memset(&dev, 0, sizeof dev);
	d = builder_device(b, &dev);
	s7 = builder_stream(b, d, 7, NONE32);
	s9 = builder_stream(b, d, 9, NONE32);
	tr = builder_gpu_track(b, s7);
	ts_add(b, tr, "gemm", EV_KERNEL, 0, 100);
	sy = builder_sync_track(b, s7);
	ts_add(b, sy, "sync", EV_SYNC, 50, 120);
	sy = builder_sync_track(b, s9);
	ts_add(b, sy, "sync", EV_SYNC, 150, 160);
	m = ts_finish(b);
	l = layout_new(m);
	assert_int_equal(layout_nrows(l), 4);
	assert_string_equal(layout_row(l, 2)->label, "Stream 7 sync");
	assert_string_equal(layout_row(l, 3)->label, "Stream 9 sync");
	layout_set_hidden(l, LAYOUT_HIDE_DETAIL);
	assert_int_equal(layout_nrows(l), 2);
	assert_int_equal(layout_row(l, 0)->kind, LROW_GROUP);
	assert_string_equal(layout_row(l, 1)->label, "Stream 7");
	layout_members(l, layout_row(l, 0)->group, &n);
	assert_int_equal(n, 3);
	/* A sync event has no visible row; revealing it does not unhide. */
	assert_int_equal(layout_find(l, model_gid(m, sy, 0)), (size_t)-1);
	assert_int_equal(layout_reveal(l,
	    layout_find_all(l, model_gid(m, sy, 0))), (size_t)-1);
	layout_set_hidden(l, 0);
	assert_int_equal(layout_find(l, model_gid(m, sy, 0)), 3);
	layout_free(l);
	model_free(m);
}

/*
 * Ranks known (Kineto jobs): rank by rank, each rank's GPUs (labelled with
 * the rank) then its processes; without ranks, all GPUs come first.
 */
static void
test_rank_order(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct model		*m;
	struct layout		*l;
	uint32_t		 d0, d1, pa, pb, ta, tb, tr;
	static const struct want plain[] = {
		{ LROW_GROUP, 0, "GPU 0 H100" },
		{ LROW_LANE, 1, "Stream 7" },
		{ LROW_GROUP, 0, "GPU 1 H100" },
		{ LROW_LANE, 1, "Stream 3" },
		{ LROW_GROUP, 0, "pid 100 procA" },
		{ LROW_GROUP, 1, "tid 101" },
		{ LROW_LANE, 2, "CUDA API" },
		{ LROW_GROUP, 0, "pid 200 procB" },
		{ LROW_GROUP, 1, "tid 201" },
		{ LROW_LANE, 2, "CUDA API" },
	};
	static const struct want ranked[] = {
		{ LROW_GROUP, 0, "GPU 1 rank 0 H100" },
		{ LROW_LANE, 1, "Stream 3" },
		{ LROW_GROUP, 0, "pid 100 procA" },
		{ LROW_GROUP, 1, "tid 101" },
		{ LROW_LANE, 2, "CUDA API" },
		{ LROW_GROUP, 0, "GPU 0 rank 1 H100" },
		{ LROW_LANE, 1, "Stream 7" },
		{ LROW_GROUP, 0, "pid 200 procB" },
		{ LROW_GROUP, 1, "tid 201" },
		{ LROW_LANE, 2, "CUDA API" },
	};

	pa = builder_process(b, 1, 100, "procA");
	pb = builder_process(b, 2, 200, "procB");
	ta = builder_thread(b, 101, 101, pa, NULL);
	tb = builder_thread(b, 201, 201, pb, NULL);
	memset(&dev, 0, sizeof dev);
	dev.name = builder_intern(b, "H100");
	d0 = builder_device(b, &dev);
	dev.source_id = 1;
	d1 = builder_device(b, &dev);
	tr = builder_gpu_track(b, builder_stream(b, d0, 7, pb));
	ts_add(b, tr, "k7", EV_KERNEL, 0, 10);
	tr = builder_gpu_track(b, builder_stream(b, d1, 3, pa));
	ts_add(b, tr, "k3", EV_KERNEL, 0, 10);
	tr = builder_cpu_track(b, TRACK_API, ta, 0);
	ts_add(b, tr, "cudaLaunchKernel", EV_API, 0, 5);
	tr = builder_cpu_track(b, TRACK_API, tb, 0);
	ts_add(b, tr, "cudaLaunchKernel", EV_API, 0, 5);
	m = ts_finish(b);
	l = layout_new(m);
	check_rows(l, plain, sizeof plain / sizeof plain[0]);
	layout_free(l);
	/* Rank 0 is procA (GPU 1), rank 1 procB (GPU 0). */
	m->processes[pa].rank = 0;
	m->processes[pb].rank = 1;
	l = layout_new(m);
	check_rows(l, ranked, sizeof ranked / sizeof ranked[0]);
	assert_int_equal(layrank_group(l, layout_row(l, 0)->group), 0);
	assert_int_equal(layrank_group(l, layout_row(l, 5)->group), 1);
	/* Rows still find their events. */
	assert_int_equal(layout_find(l, model_gid(m, tr, 0)), 9);
	layout_collapse_all(l, 1);
	assert_int_equal(layout_nrows(l), 4);
	layout_free(l);
	model_free(m);
}

static void
test_empty_model(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct layout	*l;

	m = ts_finish(b);
	l = layout_new(m);
	assert_int_equal(layout_nrows(l), 0);
	assert_null(layout_row(l, 0));
	assert_int_equal(layout_toggle(l, 0), 0);
	layout_free(l);
	model_free(m);
}

static void
test_filter(void **state)
{
	struct model		*m = build();
	struct layout		*l = layout_new(m);
	const struct layout_row	*r;
	size_t			 a, k, want, got;
	uint64_t		 left;
	uint32_t		 gid;
	int64_t			 ns;

	for (ns = 0; ns <= 110; ns += 5) {
		left = layout_set_min_dur(l, ns);
		got = 0;
		for (a = 0; a < layout_nall(l); a++) {
			r = layout_all(l, a);
			/* (A split track's other view is not shown.) */
			if (r->kind != LROW_LANE || layout_row_hidden(l, r))
				continue;
			/* Brute force over the unfiltered lane. */
			want = 0;
			for (k = 0; k < r->base->n; k++)
				if (r->base->end[k] - r->base->start[k] >= ns)
					want++;
			assert_int_equal(r->lane->n, want);
			for (k = 0; k < r->lane->n; k++) {
				gid = layout_gid(l, r, k);
				assert_true(model_ev_end(m, gid) -
				    model_ev_start(m, gid) >= ns);
				assert_int_equal(model_ev_start(m, gid),
				    r->lane->start[k]);
				assert_int_equal(layout_lane_index(l, r, gid),
				    (int64_t)k);
				assert_int_equal(layout_find_all(l, gid), a);
			}
			got += r->lane->n;
		}
		assert_int_equal(left, got);
	}
	/* 100 ns or more: only step0 and step1 are left. */
	assert_int_equal(layout_set_min_dur(l, 100), 2);
	r = layout_row(l, 10);
	gid = model_gid(m, r->track, 1);		/* fwd: filtered out */
	assert_int_equal(layout_lane_index(l, r, gid), -1);
	layout_set_min_dur(l, 0);
	r = layout_row(l, 13);
	assert_int_equal(r->lane, r->base);
	layout_free(l);
	model_free(m);
}

static void
test_hidden_and_reveal(void **state)
{
	struct model		*m = build();
	struct layout		*l = layout_new(m);
	size_t			 a, i, want;

	layout_set_hidden(l, 1u << TRACK_API);
	/* Both CUDA API rows and thread 102 (API only) are gone. */
	assert_int_equal(layout_nrows(l), 19 - 3);
	for (i = 0; i < layout_nrows(l); i++) {
		assert_string_not_equal(layout_row(l, i)->label, "CUDA API");
		assert_string_not_equal(layout_row(l, i)->label,
		    "tid 102 worker");
	}
	a = layout_all_index(l, 12);
	assert_int_equal(layout_visible(l, a), 12);
	layout_set_hidden(l, 0);
	assert_int_equal(layout_nrows(l), 19);
	want = layout_all_index(l, 12);
	assert_string_equal(layout_all(l, want)->label, "NVTX +2");
	/* Collapse all: only the top-level groups remain. */
	layout_collapse_all(l, 1);
	assert_int_equal(layout_nrows(l), 4);
	/* Revealing the NVTX +2 row opens its ancestors only. */
	a = layout_find_all(l, model_gid(m, layout_all(l, want)->track, 2));
	assert_int_equal(a, want);
	assert_int_equal(layout_visible(l, a), (size_t)-1);
	i = layout_reveal(l, a);
	assert_string_equal(layout_row(l, i)->label, "NVTX +2");
	assert_true(layout_nrows(l) < 19);
	layout_set_hidden(l, 1u << TRACK_NVTX);
	assert_int_equal(layout_reveal(l, a), (size_t)-1);
	layout_collapse_all(l, 0);
	layout_set_hidden(l, 0);
	assert_int_equal(layout_nrows(l), 19);
	layout_free(l);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_order),
	cmocka_unit_test(test_members),
	cmocka_unit_test(test_collapse),
	cmocka_unit_test(test_collapse_nested),
	cmocka_unit_test(test_depth_sublanes),
	cmocka_unit_test(test_overlapping_stream),
	cmocka_unit_test(test_sync_rows),
	cmocka_unit_test(test_rank_order),
	cmocka_unit_test(test_empty_model),
	cmocka_unit_test(test_filter),
	cmocka_unit_test(test_hidden_and_reveal))
