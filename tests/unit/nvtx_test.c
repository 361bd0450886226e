/*
 * nvtx_test: the NVTX tree (parents, children, iterations, depths, paths),
 * the innermost-range query and the GPU projection, on small models built
 * by hand through builder.h with answers worked out on paper; plus a random
 * model checked against a brute-force parent search, and the real fixtures
 * when GPULENS_FIXTURES is set; the reusable projector against the one-off
 * projection.
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
#include <sqlite3.h>

#include "model/builder.h"
#include "model/correlate.h"
#include "model/model.h"
#include "model/nvtx.h"
#include "model/nvtxcur.h"
#include "model/nvtxpath.h"
#include "util/sort.h"
#include "util/xmalloc.h"
#include "sources/source.h"
#include "tsupport.h"

/* Appends one event; NVTX events get an nvtx_info record unless noinfo. */
static void
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr, uint8_t flags, int noinfo)
{
	struct lane_event	e = ts_event_cf(b, name, kind, start, end, corr,
				    flags);

	if ((kind == EV_NVTX || kind == EV_MARK) && !noinfo)
		e.aux = ts_nvtx(b, track);
	builder_event(b, track, &e);
}

static void
nvtx(struct builder *b, uint32_t track, const char *name, int64_t s,
    int64_t e)
{
	add(b, track, name, EV_NVTX, s, e, 0, 0, 0);
}

/* The finalized track of a given type, thread (CPU) and domain. */
static uint32_t
find_track(const struct model *m, int type, uint32_t thread, uint32_t dom)
{
	size_t	t;

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type == type && tr->thread == thread &&
		    (type != TRACK_NVTX || tr->domain == dom))
			return (uint32_t)t;
	}
	fail_msg("no track type %d thread %u domain %u", type, thread, dom);
	return NONE32;
}

/* The gid of the event of track t with this name and start. */
static uint32_t
find_ev(const struct model *m, uint32_t t, const char *name, int64_t start)
{
	const struct lane	*l = &m->tracks[t].lane;
	size_t			 i;

	for (i = 0; i < l->n; i++)
		if (l->start[i] == start &&
		    strcmp(model_str(m, l->name[i]), name) == 0)
			return model_gid(m, t, (uint32_t)i);
	fail_msg("no event %s at %lld", name, (long long)start);
	return NONE32;
}

static const struct nvtx_info *
info(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);
	uint32_t	aux = m->tracks[r.track].lane.aux[r.idx];

	assert_true(aux < m->nnvtx);
	return &m->nvtx[aux];
}

static void
assert_path(const struct model *m, uint32_t gid, const char *want)
{
	char	buf[256];
	size_t	n;

	n = nvtx_path(m, gid, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

/*
 * Thread T (process P), domain 0:
 *   init [-50,-10]
 *   ProfilerStep#k [100(k-1), 100k], k = 1..3, each with
 *     forward [+10,+40] and backward [+50,+90];
 *   forward of step 1 holds gemm [15,20] and gemm [25,30];
 *   mark "sync" at 120 in forward of step 2;
 *   start/end "se" [305,330]; y [320,340];
 *   tail [350, open) with late [360,370], noinfo [400,450] (no nvtx_info)
 *     and kid [410,420] inside noinfo;
 * domain 1 ("NCCL") on T: allreduce [160,170], x [320,340].
 * API calls on T correlate to kernels, copies and a sync on two streams.
 * Thread T2 has an API call inside forward's window (must not count).
 */
struct fix {
	struct model	*m;
	uint32_t	 thr, thr2, dom1;
	uint32_t	 nv0, nv1, api;
};

static void
build_main(struct fix *f)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, t2, s1, s2, nv0, nv1, api, api2, g1, g2;
	int		 k;

	memset(&dev, 0, sizeof dev);
	dev.source_id = 0;
	dev.process = NONE32;
	builder_device(b, &dev);
	p = builder_process(b, 100, 100, "train");
	f->thr = builder_thread(b, 100 << 24 | 1, 1, p, "main");
	f->thr2 = t2 = builder_thread(b, 100 << 24 | 2, 2, p, "worker");
	f->dom1 = builder_domain(b, p, 7, "NCCL");
	/* Domain 1 first: the tie rule must not depend on creation order. */
	nv1 = builder_cpu_track(b, TRACK_NVTX, f->thr, f->dom1);
	nv0 = builder_cpu_track(b, TRACK_NVTX, f->thr, 0);
	api = builder_cpu_track(b, TRACK_API, f->thr, 0);
	api2 = builder_cpu_track(b, TRACK_API, t2, 0);
	s1 = builder_stream(b, 0, 7, p);
	s2 = builder_stream(b, 0, 13, p);
	g1 = builder_gpu_track(b, s1);
	g2 = builder_gpu_track(b, s2);

	/* Pushed out of order on purpose: the lane sorts. */
	for (k = 3; k >= 1; k--) {
		char name[32];
		int64_t o = 100 * (k - 1);
		snprintf(name, sizeof name, "ProfilerStep#%d", k);
		nvtx(b, nv0, "backward", o + 50, o + 90);
		nvtx(b, nv0, name, o, o + 100);
		nvtx(b, nv0, "forward", o + 10, o + 40);
	}
	nvtx(b, nv0, "init", -50, -10);
	nvtx(b, nv0, "gemm", 25, 30);
	nvtx(b, nv0, "gemm", 15, 20);
	add(b, nv0, "sync", EV_MARK, 120, 120, 0, 0, 0);
	add(b, nv0, "se", EV_NVTX, 305, 330, 0, EVF_STARTEND, 0);
	nvtx(b, nv0, "y", 320, 340);
	add(b, nv0, "tail", EV_NVTX, 350, 0, 0, EVF_OPEN, 0);
	nvtx(b, nv0, "late", 360, 370);
	add(b, nv0, "noinfo", EV_NVTX, 400, 450, 0, 0, 1);
	nvtx(b, nv0, "kid", 410, 420);
	nvtx(b, nv1, "allreduce", 160, 170);
	nvtx(b, nv1, "x", 320, 340);

	/* API calls on T and their GPU work. */
	add(b, api, "cudaLaunchKernel", EV_API, 12, 14, 1, 0, 0);
	add(b, g1, "k1", EV_KERNEL, 20, 30, 1, 0, 0);
	add(b, api, "cudaLaunchKernel", EV_API, 16, 18, 2, 0, 0);
	add(b, g2, "k2", EV_KERNEL, 25, 40, 2, 0, 0);
	add(b, api, "cudaMemcpyAsync", EV_API, 26, 28, 3, 0, 0);
	add(b, g1, "memcpy", EV_MEMCPY, 50, 55, 3, 0, 0);
	add(b, api, "cudaStreamSynchronize", EV_API, 36, 38, 4, 0, 0);
	add(b, g1, "sync", EV_SYNC, 60, 61, 4, 0, 0);
	add(b, api, "cudaLaunchKernel", EV_API, 5, 12, 5, 0, 0);
	add(b, g1, "k5", EV_KERNEL, 13, 14, 5, 0, 0);
	add(b, api, "cudaLaunchKernel", EV_API, 39, 45, 6, 0, 0);
	add(b, g1, "k6", EV_KERNEL, 70, 80, 6, 0, 0);
	add(b, api, "cudaGraphLaunch", EV_API, 52, 54, 7, 0, 0);
	add(b, g1, "gk1", EV_KERNEL, 100, 110, 7, 0, 0);
	add(b, g1, "gk2", EV_KERNEL, 110, 120, 7, 0, 0);
	add(b, g2, "gk3", EV_KERNEL, 105, 115, 7, 0, 0);
	add(b, api, "cudaMemsetAsync", EV_API, 210, 212, 9, 0, 0);
	add(b, g2, "memset", EV_MEMSET, 215, 216, 9, 0, 0);
	/* Calls at the very edges of ProfilerStep#3 [200,300]: inside. */
	add(b, api, "cudaMemcpyAsync", EV_API, 200, 205, 12, 0, 0);
	add(b, g2, "memcpy", EV_MEMCPY, 230, 231, 12, 0, 0);
	add(b, api, "cudaLaunchKernel", EV_API, 290, 300, 11, 0, 0);
	add(b, g1, "k11", EV_KERNEL, 310, 320, 11, 0, 0);
	/* Starts at its end and ends after: outside. */
	add(b, api, "cudaLaunchKernel", EV_API, 300, 301, 13, 0, 0);
	add(b, g1, "k13", EV_KERNEL, 330, 331, 13, 0, 0);
	/* Ends after everything: the open range "tail" closes at 500. */
	add(b, api, "cudaDeviceSynchronize", EV_API, 460, 500, 0, 0, 0);
	/* Another thread of the same process, inside forward's window. */
	add(b, api2, "cudaLaunchKernel", EV_API, 20, 22, 8, 0, 0);
	add(b, g2, "other", EV_KERNEL, 200, 210, 8, 0, 0);

	f->m = ts_finish(b);
	f->nv0 = find_track(f->m, TRACK_NVTX, f->thr, 0);
	f->nv1 = find_track(f->m, TRACK_NVTX, f->thr, f->dom1);
	f->api = find_track(f->m, TRACK_API, f->thr, 0);
}

static int
setup_main(void **state)
{
	struct fix	*f = calloc(1, sizeof *f);

	build_main(f);
	*state = f;
	return 0;
}

static int
teardown_main(void **state)
{
	struct fix	*f = *state;

	model_free(f->m);
	free(f);
	return 0;
}

static void
test_parents_and_iterations(void **state)
{
	struct fix		*f = *state;
	const struct model	*m = f->m;
	uint32_t		 step[4], fw[4], bw[4], g0, g1, init;
	char			 name[32];
	int			 k;

	for (k = 1; k <= 3; k++) {
		snprintf(name, sizeof name, "ProfilerStep#%d", k);
		step[k] = find_ev(m, f->nv0, name, 100 * (k - 1));
		fw[k] = find_ev(m, f->nv0, "forward", 100 * (k - 1) + 10);
		bw[k] = find_ev(m, f->nv0, "backward", 100 * (k - 1) + 50);
		assert_int_equal(info(m, step[k])->parent, NONE32);
		assert_int_equal(info(m, step[k])->iter, k - 1);
		assert_int_equal(info(m, fw[k])->parent, step[k]);
		assert_int_equal(info(m, bw[k])->parent, step[k]);
		/* One forward per step: iteration 0 under each parent. */
		assert_int_equal(info(m, fw[k])->iter, 0);
		assert_int_equal(info(m, bw[k])->iter, 0);
		assert_int_equal(info(m, step[k])->nchildren, 2);
		assert_int_equal(nvtx_depth(m, step[k]), 0);
		assert_int_equal(nvtx_depth(m, bw[k]), 1);
	}
	g0 = find_ev(m, f->nv0, "gemm", 15);
	g1 = find_ev(m, f->nv0, "gemm", 25);
	assert_int_equal(info(m, g0)->parent, fw[1]);
	assert_int_equal(info(m, g1)->parent, fw[1]);
	assert_int_equal(info(m, g0)->iter, 0);
	assert_int_equal(info(m, g1)->iter, 1);
	assert_int_equal(info(m, fw[1])->nchildren, 2);
	assert_int_equal(info(m, fw[3])->nchildren, 0);
	assert_int_equal(info(m, g1)->nchildren, 0);
	assert_int_equal(nvtx_depth(m, g1), 2);
	/* The mark in forward of step 2. */
	g0 = find_ev(m, f->nv0, "sync", 120);
	assert_int_equal(info(m, g0)->parent, fw[2]);
	assert_int_equal(info(m, fw[2])->nchildren, 1);
	assert_int_equal(nvtx_depth(m, g0), 2);
	/* Before time zero. */
	init = find_ev(m, f->nv0, "init", -50);
	assert_int_equal(info(m, init)->parent, NONE32);
	assert_int_equal(info(m, init)->iter, 0);
	assert_int_equal(nvtx_depth(m, init), 0);
	assert_int_equal(m->origin_ns, -50);
	/* Another domain is another tree. */
	g0 = find_ev(m, f->nv1, "allreduce", 160);
	assert_int_equal(info(m, g0)->parent, NONE32);
	assert_int_equal(nvtx_depth(m, g0), 0);
}

static void
test_open_startend_and_noinfo(void **state)
{
	struct fix		*f = *state;
	const struct model	*m = f->m;
	uint32_t		 tail, late, se, y, noinfo, kid;
	struct evref		 r;

	tail = find_ev(m, f->nv0, "tail", 350);
	late = find_ev(m, f->nv0, "late", 360);
	/* Closed at the trace end. */
	assert_int_equal(model_ev_end(m, tail), 500);
	r = model_ev(m, tail);
	assert_true(m->tracks[r.track].lane.flags[r.idx] & EVF_OPEN);
	assert_int_equal(info(m, late)->parent, tail);
	assert_int_equal(info(m, tail)->parent, NONE32);
	/* noinfo has no record, but it still parents kid. */
	noinfo = find_ev(m, f->nv0, "noinfo", 400);
	kid = find_ev(m, f->nv0, "kid", 410);
	assert_int_equal(info(m, kid)->parent, noinfo);
	assert_int_equal(info(m, tail)->nchildren, 2);
	/* Without a record, depth falls back to the lane's depth... */
	assert_int_equal(nvtx_depth(m, noinfo), 1);
	/* ...and paths stop at it (its parent is not stored). */
	assert_path(m, kid, "noinfo/kid");
	assert_int_equal(nvtx_depth(m, kid), 1);
	/* se [305,330] and y [320,340] overlap partially: siblings. */
	se = find_ev(m, f->nv0, "se", 305);
	y = find_ev(m, f->nv0, "y", 320);
	assert_int_equal(info(m, se)->parent, NONE32);
	assert_int_equal(info(m, y)->parent, NONE32);
	assert_int_equal(info(m, se)->nchildren, 0);
	/* Non-NVTX events have no depth. */
	assert_int_equal(nvtx_depth(m, model_gid(m, f->api, 0)), -1);
	assert_int_equal(nvtx_depth(m, (uint32_t)m->nevents), -1);
}

static void
test_paths(void **state)
{
	struct fix		*f = *state;
	const struct model	*m = f->m;
	uint32_t		 g;
	char			 buf[64];

	g = find_ev(m, f->nv0, "gemm", 25);
	assert_path(m, g, "ProfilerStep#1/forward/gemm");
	assert_path(m, find_ev(m, f->nv0, "ProfilerStep#3", 200),
	    "ProfilerStep#3");
	assert_path(m, find_ev(m, f->nv0, "sync", 120),
	    "ProfilerStep#2/forward/sync");
	assert_path(m, find_ev(m, f->nv0, "late", 360), "tail/late");
	/* Truncation: NUL-terminated, untruncated length returned. */
	memset(buf, 'Z', sizeof buf);
	assert_int_equal(nvtx_path(m, g, buf, 10), 27);
	assert_string_equal(buf, "ProfilerS");
	assert_int_equal(buf[10], 'Z');
	assert_int_equal(nvtx_path(m, g, buf, 28), 27);
	assert_string_equal(buf, "ProfilerStep#1/forward/gemm");
	assert_int_equal(nvtx_path(m, g, buf, 27), 27);
	assert_string_equal(buf, "ProfilerStep#1/forward/gem");
	assert_int_equal(nvtx_path(m, g, buf, 16), 27);
	assert_string_equal(buf, "ProfilerStep#1/");
	assert_int_equal(nvtx_path(m, g, NULL, 0), 27);
	assert_int_equal(nvtx_path(m, (uint32_t)m->nevents, buf, 64), 0);
	assert_string_equal(buf, "");
}

static void
test_enclosing(void **state)
{
	struct fix		*f = *state;
	const struct model	*m = f->m;

	assert_int_equal(nvtx_enclosing(m, f->thr, 16),
	    find_ev(m, f->nv0, "gemm", 15));
	assert_int_equal(nvtx_enclosing(m, f->thr, 20),
	    find_ev(m, f->nv0, "forward", 10));	/* gemm is [15,20) */
	assert_int_equal(nvtx_enclosing(m, f->thr, 95),
	    find_ev(m, f->nv0, "ProfilerStep#1", 0));
	assert_int_equal(nvtx_enclosing(m, f->thr, 100),
	    find_ev(m, f->nv0, "ProfilerStep#2", 100));
	/* Domain 1's allreduce [160, 170] lies inside backward [150, 190]:
	 * innermost across domains, whatever its depth in its own. */
	assert_int_equal(nvtx_enclosing(m, f->thr, 165),
	    find_ev(m, f->nv1, "allreduce", 160));
	/* Restricted to one domain. */
	assert_int_equal(nvtx_enclosing_in(m, f->thr, 165, ""),
	    find_ev(m, f->nv0, "backward", 150));
	assert_int_equal(nvtx_enclosing_in(m, f->thr, 165, "NCCL"),
	    find_ev(m, f->nv1, "allreduce", 160));
	assert_int_equal(nvtx_enclosing_in(m, f->thr, 155, "NCCL"), NONE32);
	assert_int_equal(nvtx_enclosing_in(m, f->thr, 165, "CCCL"), NONE32);
	/* Equal depth in both domains: the lower domain index. */
	assert_int_equal(nvtx_enclosing(m, f->thr, 325),
	    find_ev(m, f->nv0, "y", 320));
	/* Only a start/end range there: not a push/pop range. */
	assert_int_equal(nvtx_enclosing(m, f->thr, 310), NONE32);
	assert_int_equal(nvtx_enclosing(m, f->thr, -20),
	    find_ev(m, f->nv0, "init", -50));
	assert_int_equal(nvtx_enclosing(m, f->thr, 415),
	    find_ev(m, f->nv0, "kid", 410));
	assert_int_equal(nvtx_enclosing(m, f->thr, 1000), NONE32);
	assert_int_equal(nvtx_enclosing(m, f->thr, -1000), NONE32);
	assert_int_equal(nvtx_enclosing(m, f->thr2, 50), NONE32);
	assert_int_equal(nvtx_enclosing(m, NONE32, 50), NONE32);
}

static void
test_projection(void **state)
{
	struct fix		*f = *state;
	const struct model	*m = f->m;
	struct nvtx_proj	 p;

	/* The ranges that launched GPU work. */
	static const struct {
		const char	*name;
		int64_t		 at;
		uint32_t	 nops, nkernels;
		int64_t		 start, end, busy;
	} want[] = {
		/* forward [10,40]: calls 1,2,3,4 inside; 5 starts before, 6
		 * ends after; thread T2's call does not count; the sync is no
		 * op. Busy [20,40] u [50,55]. */
		{ "forward", 10, 3, 2, 20, 55, 20 + 5 },
		/* ProfilerStep#1 [0,100]: also k5 [13,14], k6 [70,80] and the
		 * graph launch's three kernels (two overlap on two streams). */
		{ "ProfilerStep#1", 0, 8, 7, 13, 120, 1 + 20 + 5 + 10 + 20 },
		/* gemm [15,20]: only call 2 (k2 [25,40]). */
		{ "gemm", 15, 1, 1, 25, 40, 15 },
		/* backward [50,90]: the graph launch [52,54]. */
		{ "backward", 50, 3, 3, 100, 120, 20 },
		/* ProfilerStep#3 [200,300]: a memset, and the calls that start
		 * at its start [200,205] and end at its end [290,300]. */
		{ "ProfilerStep#3", 200, 3, 1, 215, 320, 1 + 1 + 10 },
	};
	size_t			 i;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		nvtx_project(m, find_ev(m, f->nv0, want[i].name, want[i].at),
		    &p);
		assert_int_equal(p.nops, want[i].nops);
		assert_int_equal(p.nkernels, want[i].nkernels);
		assert_int_equal(p.start, want[i].start);
		assert_int_equal(p.end, want[i].end);
		assert_int_equal(p.busy, want[i].busy);
	}
	/* Nothing launched; marks and non-NVTX events project to zero. */
	memset(&p, 0x55, sizeof p);
	nvtx_project(m, find_ev(m, f->nv0, "ProfilerStep#2", 100), &p);
	assert_int_equal(p.nops, 0);
	assert_int_equal(p.start, 0);
	assert_int_equal(p.end, 0);
	assert_int_equal(p.busy, 0);
	nvtx_project(m, find_ev(m, f->nv0, "sync", 120), &p);
	assert_int_equal(p.nops, 0);
	nvtx_project(m, model_gid(m, f->api, 0), &p);
	assert_int_equal(p.nops, 0);
	/* tail [350,500]: the closing call has no correlation id. */
	nvtx_project(m, find_ev(m, f->nv0, "tail", 350), &p);
	assert_int_equal(p.nops, 0);
}

static void
test_rebuild_is_idempotent(void **state)
{
	struct fix		*f = *state;
	struct nvtx_info	*copy;
	size_t			 n = f->m->nnvtx;

	copy = malloc(n * sizeof *copy);
	memcpy(copy, f->m->nvtx, n * sizeof *copy);
	nvtx_build(f->m);
	assert_memory_equal(copy, f->m->nvtx, n * sizeof *copy);
	free(copy);
}

/* Name families and partially overlapping start/end ranges. */
static void
test_families_and_partial(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	uint32_t	 p, t1, t2, tr1, tr2, a, c;

	(void)state;
	p = builder_process(b, 1, 1, "p");
	t1 = builder_thread(b, 1 << 24 | 1, 1, p, "t1");
	t2 = builder_thread(b, 1 << 24 | 2, 2, p, "t2");
	tr1 = builder_cpu_track(b, TRACK_NVTX, t1, 0);
	tr2 = builder_cpu_track(b, TRACK_NVTX, t2, 0);
	nvtx(b, tr1, "a#1", 0, 1);
	nvtx(b, tr1, "a#", 2, 3);
	nvtx(b, tr1, "a#22", 4, 5);
	nvtx(b, tr1, "b#1", 6, 7);
	nvtx(b, tr1, "a#1", 8, 9);
	nvtx(b, tr1, "#7", 10, 11);
	nvtx(b, tr1, "#8", 12, 13);
	nvtx(b, tr1, "a#x1", 14, 15);
	nvtx(b, tr1, "a#x2", 16, 17);
	/* A push/pop [0,100] with start/end ranges B [10,50], C [40,80],
	 * D [42,44] and a mark at 60. C only partially overlaps B. */
	nvtx(b, tr2, "A", 0, 100);
	add(b, tr2, "B", EV_NVTX, 10, 50, 0, EVF_STARTEND, 0);
	add(b, tr2, "C", EV_NVTX, 40, 80, 0, EVF_STARTEND, 0);
	add(b, tr2, "D", EV_NVTX, 42, 44, 0, EVF_STARTEND, 0);
	add(b, tr2, "M", EV_MARK, 60, 60, 0, 0, 0);
	m = ts_finish(b);
	tr1 = find_track(m, TRACK_NVTX, t1, 0);
	tr2 = find_track(m, TRACK_NVTX, t2, 0);
	assert_int_equal(info(m, find_ev(m, tr1, "a#1", 0))->iter, 0);
	assert_int_equal(info(m, find_ev(m, tr1, "a#", 2))->iter, 0);
	assert_int_equal(info(m, find_ev(m, tr1, "a#22", 4))->iter, 1);
	assert_int_equal(info(m, find_ev(m, tr1, "b#1", 6))->iter, 0);
	assert_int_equal(info(m, find_ev(m, tr1, "a#1", 8))->iter, 2);
	assert_int_equal(info(m, find_ev(m, tr1, "#7", 10))->iter, 0);
	assert_int_equal(info(m, find_ev(m, tr1, "#8", 12))->iter, 1);
	assert_int_equal(info(m, find_ev(m, tr1, "a#x1", 14))->iter, 0);
	assert_int_equal(info(m, find_ev(m, tr1, "a#x2", 16))->iter, 0);

	a = find_ev(m, tr2, "A", 0);
	c = find_ev(m, tr2, "C", 40);
	assert_int_equal(info(m, find_ev(m, tr2, "B", 10))->parent, a);
	/* B does not contain C. */
	assert_int_equal(info(m, c)->parent, a);
	assert_int_equal(info(m, find_ev(m, tr2, "D", 42))->parent, c);
	assert_int_equal(info(m, find_ev(m, tr2, "M", 60))->parent, c);
	assert_int_equal(info(m, a)->nchildren, 2);
	assert_int_equal(info(m, c)->nchildren, 2);
	assert_int_equal(nvtx_depth(m, find_ev(m, tr2, "D", 42)), 2);
	assert_path(m, find_ev(m, tr2, "M", 60), "A/C/M");
	/* Only A is push/pop. */
	assert_int_equal(nvtx_enclosing(m, t2, 43), a);
	model_free(m);
}

/* Random push/pop forests: parents against a quadratic brute force. */
static uint64_t rng_state = 88172645463325252ULL;

/* Emits properly nested ranges under [s, e) to depth d. */
static void
gen_nested(struct builder *b, uint32_t tr, int64_t s, int64_t e, int d,
    int *count)
{
	static const char *names[] = { "ProfilerStep#1", "ProfilerStep#2",
	    "fwd", "bwd", "opt", "x" };
	int64_t	 cur = s, a, z;

	while (cur < e && *count < 3000) {
		a = cur + (int64_t)ts_rand(&rng_state, 4);
		z = a + 1 + (int64_t)ts_rand(&rng_state,
		    (uint64_t)(e - cur + 1));
		if (z > e)
			z = e;
		if (a >= z)
			break;
		(*count)++;
		if (ts_rand(&rng_state, 8) == 0)
			add(b, tr, names[ts_rand(&rng_state, 6)], EV_MARK, a,
			    a, 0, 0, 0);
		else {
			nvtx(b, tr, names[ts_rand(&rng_state, 6)], a, z);
			if (d < 6 && z - a > 2)
				gen_nested(b, tr, a, z, d + 1, count);
		}
		cur = z;
	}
}

/* A model of one thread whose NVTX track is gen_nested()'s; *tr: it. */
static struct model *
nested_model(uint32_t *tr)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	uint32_t	 p, th, t;
	int		 count = 0;

	p = builder_process(b, 1, 1, "p");
	th = builder_thread(b, 1 << 24 | 1, 1, p, "t");
	t = builder_cpu_track(b, TRACK_NVTX, th, 0);
	gen_nested(b, t, 0, 100000, 0, &count);
	m = ts_finish(b);
	*tr = find_track(m, TRACK_NVTX, th, 0);
	return m;
}

static void
test_random_against_brute_force(void **state)
{
	struct model		*m;
	const struct lane	*l;
	uint32_t		 tr, want, gid, c;
	size_t			 i, j, nch;
	int			 iter;

	(void)state;
	m = nested_model(&tr);
	l = &m->tracks[tr].lane;
	assert_true(l->n > 500);
	for (i = 0; i < l->n; i++) {
		gid = model_gid(m, tr, (uint32_t)i);
		/* Parent: the containing range (not mark) with the latest
		 * start, ties to the shorter one, before i in lane order;
		 * marks at a range's end are outside it. */
		want = NONE32;
		for (j = 0; j < i; j++) {
			if (l->kind[j] != EV_NVTX ||
			    l->start[j] > l->start[i] || l->end[j] < l->end[i])
				continue;
			if (l->start[i] == l->end[i] &&
			    l->end[j] == l->start[i])
				continue;	/* a mark at j's end */
			want = model_gid(m, tr, (uint32_t)j);
		}
		assert_int_equal(info(m, gid)->parent, want);
		/* Iteration: earlier siblings with the same name family. */
		iter = 0;
		nch = 0;
		for (j = 0; j < l->n; j++) {
			c = model_gid(m, tr, (uint32_t)j);
			if (j < i && info(m, c)->parent == want &&
			    (l->name[j] == l->name[i] ||
			    (strncmp(model_str(m, l->name[j]), "ProfilerStep#",
			    13) == 0 && strncmp(model_str(m, l->name[i]),
			    "ProfilerStep#", 13) == 0)))
				iter++;
			if (info(m, c)->parent == gid)
				nch++;
		}
		assert_int_equal(info(m, gid)->iter, iter);
		assert_int_equal(info(m, gid)->nchildren, nch);
		/* Properly nested: depth is the lane's depth. */
		assert_int_equal(nvtx_depth(m, gid), l->depth[i]);
	}
	model_free(m);
}

/*
 * Starts ps on track tr of m in one of two modes: no track (ranges found
 * by hash), memoised per track.
 */
static void
pathset_mode(struct nvtx_pathset *ps, const struct model *m, uint32_t tr,
    int mode)
{
	nvtx_pathset_init(ps, m, 0);
	if (mode == 1)
		nvtx_pathset_track(ps, tr);
}

/*
 * Path nodes (model/nvtxpath.h) agree with nvtx_path() on a random nested
 * track, whatever the order the ranges are asked in: in reverse lane order
 * each one walks up a chain of unknown parents, by hash (no track); in
 * lane order, memoised per track.
 */
static void
test_pathset_walks(void **state)
{
	struct model		*m;
	struct nvtx_pathset	 ps;
	uint32_t		 tr, gid, node;
	char			 buf[512];
	size_t			 i, n;
	int			 mode;

	(void)state;
	m = nested_model(&tr);
	n = m->tracks[tr].lane.n;
	assert_true(n > 500);
	for (mode = 0; mode < 2; mode++) {
		pathset_mode(&ps, m, tr, mode);
		for (i = 0; i < n; i++) {
			gid = model_gid(m, tr, (uint32_t)(mode == 1 ? i :
			    n - 1 - i));
			if (m->tracks[tr].lane.kind[gid - m->track_off[tr]] !=
			    EV_NVTX)
				continue;
			node = nvtx_pathset_id(&ps, gid);
			assert_int_not_equal(node, NONE32);
			nvtx_path(m, gid, buf, sizeof buf);
			assert_string_equal(nvtx_pathset_str(&ps, node), buf);
			/* Asked again: the same node. */
			assert_int_equal(nvtx_pathset_id(&ps, gid), node);
		}
		nvtx_pathset_free(&ps);
	}
	model_free(m);
}

/* Strings by strcmp (qsort). */
static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Path nodes are found again whether their parent keeps its children on
 * a list or, past NVTX_PATH_KIDS of them, by hash: root "r" has 2 x
 * NVTX_PATH_REP ranges named from NVTX_PATH_REP names (more than the
 * memo of recent children holds: the second half is looked up on the
 * hash), each with a child of one of 3 names; root "s" fewer names than a
 * list holds. In every order of test_pathset_walks(), each range's node
 * prints its path, and there are exactly as many nodes as paths.
 */
#define NVTX_PATH_REP	1500
static void
test_pathset_kids(void **state)
{
	struct builder		*b;
	struct model		*m;
	struct nvtx_pathset	 ps;
	uint32_t		 p, th, t, tr, node;
	char			 name[32], buf[64], **path;
	size_t			 i, n, k, np;
	int64_t			 s;
	int			 mode;

	(void)state;
	b = builder_new(SOURCE_NSYS);
	p = builder_process(b, 1, 1, "p");
	th = builder_thread(b, 1 << 24 | 1, 1, p, "t");
	t = builder_cpu_track(b, TRACK_NVTX, th, 0);
	nvtx(b, t, "r", 0, 100000);
	for (i = 0; i < 2 * NVTX_PATH_REP; i++) {
		s = 10 * (int64_t)i;
		snprintf(name, sizeof name, "c%zu", i % NVTX_PATH_REP);
		nvtx(b, t, name, s + 1, s + 5);
		snprintf(name, sizeof name, "g%zu", i % 3);
		nvtx(b, t, name, s + 2, s + 4);
	}
	nvtx(b, t, "s", 200000, 300000);
	for (i = 0; i < 2 * NVTX_PATH_KIDS; i++) {
		snprintf(name, sizeof name, "d%zu", i % (NVTX_PATH_KIDS - 3));
		nvtx(b, t, name, 200001 + 10 * (int64_t)i,
		    200005 + 10 * (int64_t)i);
	}
	m = ts_finish(b);
	tr = find_track(m, TRACK_NVTX, th, 0);
	n = m->tracks[tr].lane.n;
	path = xcalloc(n, sizeof *path);
	for (mode = 0; mode < 2; mode++) {
		/* (In lane order, as the modes read them.) */
		for (i = 0; i < n; i++) {
			nvtx_path(m, model_gid(m, tr, (uint32_t)i), buf,
			    sizeof buf);
			path[i] = xstrdup(buf);
		}
		pathset_mode(&ps, m, tr, mode);
		for (k = 0; k < n; k++) {
			i = mode == 1 ? k : n - 1 - k;
			node = nvtx_pathset_id(&ps, model_gid(m, tr,
			    (uint32_t)i));
			assert_string_equal(nvtx_pathset_str(&ps, node),
			    path[i]);
		}
		qsort(path, n, sizeof *path, str_cmp);
		for (i = 0, np = 0; i < n; i++)
			np += i == 0 || strcmp(path[i - 1], path[i]) != 0;
		assert_int_equal(ps.nn, np);
		nvtx_pathset_free(&ps);
		for (i = 0; i < n; i++)
			free(path[i]);
	}
	free(path);
	model_free(m);
}

/* Spans by start, then end (the test's own order, for the reference). */
static int
span_cmp(const void *a, const void *b)
{
	const int64_t	*x = a, *y = b;

	return sort_lex2(x[0], y[0], x[1], y[1]);
}

/*
 * One range around n calls whose kernels, on three streams, start in no
 * order (often at the same time): the projection sorts them, in runs and
 * merges of every shape for these n, and its busy time (the union), start
 * and end agree with a plain sort and sweep.
 */
static void
test_projection_unsorted_work(void **state)
{
	static const size_t	 sizes[] = { 2, 31, 32, 33, 64, 65, 97, 300 };
	struct builder		*b;
	struct model		*m;
	struct device		 dev;
	struct nvtx_proj	 p;
	uint32_t		 pr, th, nv, api, g[3];
	int64_t			*se, busy, cs, ce, lo, hi;
	size_t			 z, n, j;

	(void)state;
	for (z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		n = sizes[z];
		b = builder_new(SOURCE_NSYS);
		memset(&dev, 0, sizeof dev);
		dev.process = NONE32;
		builder_device(b, &dev);
		pr = builder_process(b, 1, 1, "p");
		th = builder_thread(b, 1 << 24 | 1, 1, pr, "t");
		nv = builder_cpu_track(b, TRACK_NVTX, th, 0);
		api = builder_cpu_track(b, TRACK_API, th, 0);
		for (j = 0; j < 3; j++)
			g[j] = builder_gpu_track(b,
			    builder_stream(b, 0, (uint32_t)j + 1, pr));
		nvtx(b, nv, "step", 0, 1000000);
		se = xcalloc(2 * n, sizeof *se);
		for (j = 0; j < n; j++) {
			se[2 * j] = 50 * (int64_t)ts_rand(&rng_state, n);
			se[2 * j + 1] = se[2 * j] + 1 +
			    (int64_t)ts_rand(&rng_state, 200);
			add(b, api, "cudaLaunchKernel", EV_API,
			    10 + 10 * (int64_t)j, 15 + 10 * (int64_t)j,
			    (uint32_t)j + 1, 0, 0);
			add(b, g[j % 3], "k", EV_KERNEL, se[2 * j],
			    se[2 * j + 1], (uint32_t)j + 1, 0, 0);
		}
		m = ts_finish(b);
		qsort(se, n, 2 * sizeof *se, span_cmp);
		busy = 0;
		cs = lo = se[0];
		ce = hi = se[1];
		for (j = 1; j < n; j++) {
			if (se[2 * j + 1] > hi)
				hi = se[2 * j + 1];
			if (se[2 * j] > ce) {
				busy += ce - cs;
				cs = se[2 * j];
				ce = se[2 * j + 1];
			} else if (se[2 * j + 1] > ce)
				ce = se[2 * j + 1];
		}
		busy += ce - cs;
		nvtx_project(m, find_ev(m, find_track(m, TRACK_NVTX, th, 0),
		    "step", 0), &p);
		assert_int_equal(p.nops, n);
		assert_int_equal(p.nkernels, n);
		assert_int_equal(p.start, lo);
		assert_int_equal(p.end, hi);
		assert_int_equal(p.busy, busy);
		free(se);
		model_free(m);
	}
}

static void
test_empty_model(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct nvtx_proj p;
	char		 buf[8];

	(void)state;
	m = ts_finish(b);
	nvtx_build(m);
	assert_int_equal(nvtx_enclosing(m, 0, 0), NONE32);
	assert_int_equal(nvtx_depth(m, 0), -1);
	assert_int_equal(nvtx_path(m, 0, buf, sizeof buf), 0);
	nvtx_project(m, 0, &p);
	assert_int_equal(p.nops, 0);
	model_free(m);
}

/*
 * Real nsys exports: the projection of every closed push/pop range against
 * nvtx_gpu_proj_trace's join, done here in SQL (ops = kernels, memcpys and
 * memsets whose runtime call lies inside the range on the same thread).
 * Compared as totals: ranges with ops, ops, kernels, sum of projected
 * starts and ends.
 */
struct proj_totals {
	long long	 nranges, nops, nkernels, starts, ends;
};

static void
sql_projection(const char *path, struct proj_totals *want)
{
	static const char *tables[] = { "CUPTI_ACTIVITY_KIND_KERNEL",
	    "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" };
	sqlite3		*db = NULL;
	sqlite3_stmt	*st;
	char		*q, *u, union_sql[1024] = "";
	size_t		 i;

	db = ts_sql_open_ro(path);
	for (i = 0; i < 3; i++) {
		st = ts_sql_prepare(db, "SELECT 1 FROM "
		    "sqlite_master WHERE type = 'table' AND name = ?");
		sqlite3_bind_text(st, 1, tables[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			assert_true(asprintf(&u, "%s%sSELECT start, end, "
			    "correlationId AS corr, globalPid AS pid, "
			    "%d AS isk FROM %s", union_sql,
			    *union_sql ? " UNION ALL " : "", i == 0,
			    tables[i]) > 0);
			assert_true(strlen(u) < sizeof union_sql);
			strcpy(union_sql, u);
			free(u);
		}
		sqlite3_finalize(st);
	}
	assert_true(asprintf(&q, "CREATE TEMP TABLE ops AS %s; "
	    "CREATE INDEX temp.ops_i ON ops(corr, pid); "
	    "CREATE TEMP TABLE rt AS SELECT start, end, globalTid, "
	    "correlationId AS corr FROM CUPTI_ACTIVITY_KIND_RUNTIME; "
	    "CREATE INDEX temp.rt_i ON rt(globalTid, start)", union_sql) > 0);
	assert_int_equal(sqlite3_exec(db, q, NULL, NULL, NULL), SQLITE_OK);
	free(q);
	st = ts_sql_prepare(db,
	    "SELECT count(*), total(nops), total(nk), total(ps), total(pe) "
	    "FROM (SELECT n.rowid, count(*) AS nops, total(o.isk) AS nk, "
	    "min(o.start) AS ps, max(o.end) AS pe FROM NVTX_EVENTS n "
	    "JOIN temp.rt r ON r.globalTid = n.globalTid AND "
	    "r.start >= n.start AND r.start <= n.end AND r.end <= n.end "
	    "JOIN temp.ops o ON o.corr = r.corr AND "
	    "o.pid = (r.globalTid & 0xFFFFFFFFFF000000) "
	    "WHERE n.eventType = 59 AND n.end IS NOT NULL GROUP BY n.rowid)");
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	want->nranges = sqlite3_column_int64(st, 0);
	want->nops = (long long)sqlite3_column_double(st, 1);
	want->nkernels = (long long)sqlite3_column_double(st, 2);
	/* total() is a double: exact below 2^53, fine for these sums. */
	want->starts = (long long)sqlite3_column_double(st, 3);
	want->ends = (long long)sqlite3_column_double(st, 4);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void
check_fixture(const char *rel)
{
	struct model		*m;
	const struct lane	*l;
	struct proj_totals	 got, want;
	struct nvtx_proj	 p;
	char			*path;
	size_t			 t, i;
	uint32_t		 gid, par;
	struct evref		 r;

	if ((path = ts_fixture(rel)) == NULL) {
		print_message("# skipping %s: missing\n", rel);
		return;
	}
	m = ts_load(nsys_load, path);
	memset(&got, 0, sizeof got);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_NVTX)
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			gid = model_gid(m, (uint32_t)t, (uint32_t)i);
			if (l->kind[i] != EV_NVTX ||
			    (l->flags[i] & (EVF_STARTEND | EVF_OPEN)))
				continue;
			/* The parent is on the same track and contains it;
			 * push/pop depth is the lane's depth. */
			if (l->aux[i] != NONE32) {
				par = m->nvtx[l->aux[i]].parent;
				if (par != NONE32) {
					r = model_ev(m, par);
					assert_int_equal(r.track, t);
					assert_true(l->start[r.idx] <=
					    l->start[i] && l->end[i] <=
					    l->end[r.idx]);
				}
				assert_int_equal(nvtx_depth(m, gid),
				    l->depth[i]);
			}
			nvtx_project(m, gid, &p);
			if (p.nops == 0)
				continue;
			assert_true(p.busy > 0 || p.end == p.start);
			assert_true(p.busy <= p.end - p.start);
			got.nranges++;
			got.nops += p.nops;
			got.nkernels += p.nkernels;
			got.starts += p.start;
			got.ends += p.end;
		}
	}
	sql_projection(path, &want);
	assert_true(want.nranges > 0);
	/* Every total (five long longs, no padding) agrees. */
	assert_memory_equal(&got, &want, sizeof got);
	model_free(m);
	free(path);
}

static void
test_fixtures(void **state)
{
	(void)state;
	ts_need_fixture("nsys/fuser/report1_2025.1.1_h200.sqlite");
	/* 13.5k ranges, 18 deep. */
	check_fixture("nsys/fuser/report1_2025.1.1_h200.sqlite");
	/* Two processes, 19k ranges. */
	check_fixture("nsys/nsys-ai/mfu_2gpu_before.sqlite");
	check_fixture("nsys/nsightful/power_iteration__baseline.sqlite");
}

/* The fixture nsys-ai/mfu_2gpu_before (two processes, 19k ranges), or
 * NULL without the fixtures. */
static struct model *
load_mfu(void)
{
	struct model	*m;
	char		*p;

	if ((p = ts_fixture("nsys/nsys-ai/mfu_2gpu_before.sqlite")) == NULL)
		return NULL;
	m = ts_load(nsys_load, p);
	free(p);
	return m;
}

/*
 * nvtx_project_with() answers as nvtx_project() for every event of every
 * NVTX track, with one projector reused over all of them in lane order
 * (the forward searches) and then in reverse order (the fallback to a
 * full search); returns the number of events with GPU work.
 */
static size_t
check_projector(const struct model *m)
{
	struct nvtx_projector	 pj;
	struct nvtx_proj	 got, want;
	const struct lane	*l;
	size_t			 t, i, k, with = 0;
	uint32_t		 gid;
	int			 pass;

	memset(&pj, 0, sizeof pj);
	for (pass = 0; pass < 2; pass++) {
		for (t = 0; t < m->ntracks; t++) {
			if (m->tracks[t].type != TRACK_NVTX)
				continue;
			l = &m->tracks[t].lane;
			for (k = 0; k < l->n; k++) {
				i = pass == 0 ? k : l->n - 1 - k;
				gid = model_gid(m, (uint32_t)t, (uint32_t)i);
				nvtx_project(m, gid, &want);
				memset(&got, 0x55, sizeof got);
				nvtx_project_with(&pj, m, gid, &got);
				assert_int_equal(got.nops, want.nops);
				assert_int_equal(got.nkernels, want.nkernels);
				assert_int_equal(got.start, want.start);
				assert_int_equal(got.end, want.end);
				assert_int_equal(got.busy, want.busy);
				with += pass == 0 && want.nops > 0;
			}
		}
	}
	nvtx_projector_free(&pj);
	assert_null(pj.sp);
	return with;
}

static void
test_projector(void **state)
{
	struct fix	*f = *state;
	struct model	*m;

	/* The hand-made model: 5 ranges with work (test_projection). */
	assert_true(check_projector(f->m) >= 5);
	if ((m = load_mfu()) == NULL)
		return;
	assert_true(check_projector(m) > 1000);
	model_free(m);
}

/*
 * nvtx_cur_at() answers as nvtx_enclosing_in() for every thread and
 * domain (every one, "", "NCCL") at the starts and ends of its NVTX
 * events and one either side: in ascending order (each thread's kept
 * answer is asked at the very times a range opens or ends, and one
 * before), in steps of 97 of
 * them (the cursor restarts past its skip), descending (a restart every
 * time) and in a shuffled order; the answer holds to the time before
 * nvtx_cur_until() and half way there. Returns the number of times
 * inside some range.
 */
/* The answer at each of the nt times ts (ascending) holds in
 * [t, nvtx_cur_until()): at the time before its end and half way. */
static void
check_until(const struct model *m, struct nvtx_cur *c, uint32_t th,
    const int64_t *ts, size_t nt, const char *dom)
{
	size_t		i;
	uint32_t	want;
	int64_t		until, x[2];
	int		k;

	for (i = 0; i < nt; i++) {
		want = nvtx_cur_at(c, th, ts[i]);
		until = nvtx_cur_until(c, th, ts[i]);
		assert_true(until >= ts[i]);
		if (until == ts[i])
			continue;
		if (until == INT64_MAX)
			until = ts[nt - 1] + 2;
		x[0] = until - 1;
		x[1] = ts[i] + (until - ts[i]) / 2;
		for (k = 0; k < 2; k++)
			if (nvtx_enclosing_in(m, th, x[k], dom) != want)
				fail_msg("thread %u: the answer at %lld "
				    "does not hold at %lld (until %lld)", th,
				    (long long)ts[i], (long long)x[k],
				    (long long)until);
	}
}

static size_t
check_cursor(const struct model *m)
{
	static const char	*doms[] = { NULL, "", "NCCL" };
	struct nvtx_cur		*c;
	const struct lane	*l;
	int64_t			*ts = NULL, t;
	size_t			 nt, cap = 0, i, k, u, pass, d, inside = 0;
	uint32_t		 th, want, got;

	for (th = 0; th < m->nthreads; th++) {
		nt = 0;
		for (u = 0; u < m->ntracks; u++) {
			if (m->tracks[u].type != TRACK_NVTX ||
			    m->tracks[u].thread != th)
				continue;
			l = &m->tracks[u].lane;
			for (i = 0; i < l->n; i++)
				for (k = 0; k < 6; k++) {
					XGROW(ts, cap, nt + 1);
					t = k < 3 ? l->start[i] : l->end[i];
					ts[nt++] = t + (int64_t)(k % 3) - 1;
				}
		}
		qsort(ts, nt, sizeof *ts, sort_cmp_i64);
		for (d = 0; d < 3; d++) {
			c = nvtx_cur_new(m, doms[d]);
			check_until(m, c, th, ts, nt, doms[d]);
			for (pass = 0; pass < 4; pass++) {
				if (pass == 3)
					for (i = nt; i > 1; i--) {
						k = ts_rand(&rng_state, i);
						t = ts[i - 1];
						ts[i - 1] = ts[k];
						ts[k] = t;
					}
				for (k = 0; k < nt; k++) {
					i = pass == 1 ? (k * 97) % nt :
					    pass == 2 ? nt - 1 - k : k;
					want = nvtx_enclosing_in(m, th, ts[i],
					    doms[d]);
					got = nvtx_cur_at(c, th, ts[i]);
					if (got != want)
						fail_msg("thread %u domain %s "
						    "pass %zu at %lld: %u, "
						    "not %u", th, doms[d] ?
						    doms[d] : "(all)", pass,
						    (long long)ts[i], got,
						    want);
					inside += want != NONE32;
				}
				if (pass == 3)
					qsort(ts, nt, sizeof *ts,
					    sort_cmp_i64);
			}
			nvtx_cur_free(c);
		}
	}
	free(ts);
	return inside;
}

/*
 * Ranges that overlap without nesting on two domains of a thread, with
 * start/end ranges, marks, zero-length ranges and equal starts: the
 * cursor against the stab.
 */
static void
test_cursor(void **state)
{
	struct fix	*f = *state;
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	uint32_t	 p, th, dom, tr[2];
	int64_t		 a, z;
	int		 i, k;

	assert_true(check_cursor(f->m) > 50);
	p = builder_process(b, 1, 1, "p");
	th = builder_thread(b, 1 << 24 | 1, 1, p, "t");
	dom = builder_domain(b, p, 7, "NCCL");
	tr[0] = builder_cpu_track(b, TRACK_NVTX, th, 0);
	tr[1] = builder_cpu_track(b, TRACK_NVTX, th, dom);
	for (i = 0; i < 2000; i++) {
		k = (int)ts_rand(&rng_state, 2);
		a = (int64_t)ts_rand(&rng_state, 20000) / 4 * 4;
		z = a + (int64_t)ts_rand(&rng_state, 8) *
		    (int64_t)ts_rand(&rng_state, 300);
		switch (ts_rand(&rng_state, 10)) {
		case 0:
			add(b, tr[k], "se", EV_NVTX, a, z, 0, EVF_STARTEND, 0);
			break;
		case 1:
			add(b, tr[k], "m", EV_MARK, a, a, 0, 0, 0);
			break;
		default:
			nvtx(b, tr[k], k ? "n" : "r", a, z);
		}
	}
	m = ts_finish(b);
	assert_true(check_cursor(m) > 1000);
	model_free(m);
	if ((m = load_mfu()) == NULL)
		return;
	assert_true(check_cursor(m) > 1000);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test_setup_teardown(test_parents_and_iterations,
	    setup_main, teardown_main),
	cmocka_unit_test_setup_teardown(test_open_startend_and_noinfo,
	    setup_main, teardown_main),
	cmocka_unit_test_setup_teardown(test_paths, setup_main, teardown_main),
	cmocka_unit_test_setup_teardown(test_enclosing, setup_main,
	    teardown_main),
	cmocka_unit_test_setup_teardown(test_projection, setup_main,
	    teardown_main),
	cmocka_unit_test_setup_teardown(test_rebuild_is_idempotent,
	    setup_main, teardown_main),
	cmocka_unit_test(test_families_and_partial),
	cmocka_unit_test(test_random_against_brute_force),
	cmocka_unit_test(test_pathset_walks),
	cmocka_unit_test(test_pathset_kids),
	cmocka_unit_test(test_projection_unsorted_work),
	cmocka_unit_test(test_empty_model),
	cmocka_unit_test(test_fixtures),
	cmocka_unit_test_setup_teardown(test_projector, setup_main,
	    teardown_main),
	cmocka_unit_test_setup_teardown(test_cursor, setup_main,
	    teardown_main))
