/*
 * verbs_analysis_test: the gaps, timeline and overlap verbs on small models
 * built by hand through builder.h, with every expected number worked out on
 * paper (the comments give the arithmetic). The computing functions are
 * called directly with options parsed from a fake argv, and the rows are
 * read back from the struct out before any output.
 *
 * Models:
 *   basic     one GPU, two streams: two kernels overlapping on one stream
 *             (PDL), a half-hidden NCCL kernel, a memcpy, a sync record, a
 *             cudaStreamSynchronize over the long gap, a CPU call before
 *             time zero (negative origin)
 *   twodev    two GPUs of two processes, an API call that never returns
 *             (EVF_OPEN), times in the millions so gaps pass 1 ms
 *   nvtx      NVTX ranges around the launches of NCCL kernels
 *   many      5000 kernels with distinct gaps, to exercise the pruning of
 *             very many gaps
 *   cpuonly   no GPU work at all
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "headless/analysis.h"
#include "model/builder.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "tsupport.h"

/* ---- model building ---- */

static void
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr, uint8_t flags)
{
	struct lane_event	e = ts_event_cf(b, name, kind, start, end, corr,
				    flags);

	if (kind == EV_MEMCPY)
		e.aux = ts_copy(b, COPY_HTOD, 0, 0, 1024);
	if (kind == EV_NVTX)
		e.aux = ts_nvtx(b, track);
	builder_event(b, track, &e);
}

/*
 * basic: device 0, process 100, thread 1; streams 7 and 8.
 *   API: cudaLaunchKernel [-1000,-900) (the origin), launches of k1 k2
 *        nccl k3 memcpy, cudaStreamSynchronize [300, 2000500),
 *        cudaFree [2500000, 3500000) (the trace end)
 *   stream 7: k1 [100,300), k2 [250,400) (overlapping: PDL),
 *             k3 [2000400,2000600), sync record [350,2000450)
 *   stream 8: ncclKernel_AllReduce [300,500) (comm),
 *             memcpy [2000500,2000700)
 * Window [-1000, 3500000): 3501000 ns. Relative times are +1000.
 */
static struct model *
build_basic(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, t, a, g7, g8;

	ts_device(b, 0);
	t = ts_nsys_thread(b, 100, 1, &p);
	a = builder_cpu_track(b, TRACK_API, t, 0);
	g7 = ts_stream(b, 0, 7, p);
	g8 = ts_stream(b, 0, 8, p);

	add(b, a, "cudaLaunchKernel", EV_API, -1000, -900, 1, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 0, 10, 2, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 20, 30, 3, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 40, 50, 4, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 60, 70, 5, 0);
	add(b, a, "cudaMemcpyAsync", EV_API, 80, 90, 6, 0);
	add(b, a, "cudaStreamSynchronize", EV_API, 300, 2000500, 0, 0);
	add(b, a, "cudaFree", EV_API, 2500000, 3500000, 0, 0);

	add(b, g7, "k2", EV_KERNEL, 250, 400, 3, 0);
	add(b, g7, "k1", EV_KERNEL, 100, 300, 2, 0);
	add(b, g7, "k3", EV_KERNEL, 2000400, 2000600, 5, 0);
	add(b, g7, "sync", EV_SYNC, 350, 2000450, 0, 0);
	add(b, g8, "ncclKernel_AllReduce", EV_KERNEL, 300, 500, 4, EVF_COMM);
	add(b, g8, "[CUDA memcpy Host-to-Device]", EV_MEMCPY, 2000500,
	    2000700, 6, 0);
	return ts_finish(b);
}

/*
 * twodev: device 0 (process 10: thread with cudaMalloc [-5e6,-4e6) and a
 * cudaDeviceSynchronize from 1.5e6 that never returns), stream 1: ka
 * [0,1e6); device 1 (process 11, no CPU tracks), stream 2: kb [5e5,2e6),
 * kc [3e6,4e6). Window [-5e6, 4e6): 9e6 ns; relative times are +5e6.
 */
static struct model *
build_twodev(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p0, p1, t0, a0, g1, g2;

	ts_device(b, 0);
	ts_device(b, 1);
	p0 = builder_process(b, 10ULL << 24, 10, "rank0");
	p1 = builder_process(b, 11ULL << 24, 11, "rank1");
	t0 = builder_thread(b, 10ULL << 24 | 1, 1, p0, "main");
	a0 = builder_cpu_track(b, TRACK_API, t0, 0);
	g1 = ts_stream(b, 0, 1, p0);
	g2 = ts_stream(b, 1, 2, p1);

	add(b, a0, "cudaMalloc", EV_API, -5000000, -4000000, 0, 0);
	add(b, a0, "cudaDeviceSynchronize", EV_API, 1500000, 1500000, 0,
	    EVF_OPEN);
	add(b, g1, "ka", EV_KERNEL, 0, 1000000, 0, 0);
	add(b, g2, "kb", EV_KERNEL, 500000, 2000000, 0, 0);
	add(b, g2, "kc", EV_KERNEL, 3000000, 4000000, 0, 0);
	return ts_finish(b);
}

/*
 * nvtx: device 0, process 100, thread 1 with NVTX step [0,1000) holding
 * bwd [100,900); launches at [150,160) (corr 5: ncclKernel_A [200,400) on
 * stream 13), [170,180) (corr 6: gemm [200,300) on stream 7) and
 * [950,960) (corr 7: ncclKernel_B [960,1100)); ncclKernel_C [1200,1300)
 * has no launch. Window [0, 1300).
 */
static struct model *
build_nvtx(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, t, a, nv, g7, g13;

	ts_device(b, 0);
	t = ts_nsys_thread(b, 100, 1, &p);
	nv = builder_cpu_track(b, TRACK_NVTX, t, 0);
	a = builder_cpu_track(b, TRACK_API, t, 0);
	g7 = ts_stream(b, 0, 7, p);
	g13 = ts_stream(b, 0, 13, p);

	add(b, nv, "step", EV_NVTX, 0, 1000, 0, 0);
	add(b, nv, "bwd", EV_NVTX, 100, 900, 0, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 150, 160, 5, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 170, 180, 6, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 950, 960, 7, 0);
	add(b, g13, "ncclKernel_A", EV_KERNEL, 200, 400, 5, EVF_COMM);
	add(b, g13, "ncclKernel_B", EV_KERNEL, 960, 1100, 7, EVF_COMM);
	add(b, g13, "ncclKernel_C", EV_KERNEL, 1200, 1300, 0, EVF_COMM);
	add(b, g7, "gemm", EV_KERNEL, 200, 300, 6, 0);
	return ts_finish(b);
}

/* Gap after kernel i (i < NMANY - 1): 1 + (i * 7919) % NMANY, all distinct
 * (7919 is prime to NMANY); kernels last 5 ns. */
#define NMANY	5000

static int64_t
many_gap(int i)
{
	return 1 + (int64_t)(((long long)i * 7919) % NMANY);
}

static struct model *
build_many(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, g;
	int64_t		 t = 0;
	int		 i;

	ts_device(b, 0);
	p = builder_process(b, 1ULL << 24, 1, "p");
	g = ts_stream(b, 0, 7, p);
	for (i = 0; i < NMANY; i++) {
		add(b, g, "k", EV_KERNEL, t, t + 5, 0, 0);
		t += 5 + many_gap(i);
	}
	return ts_finish(b);
}

static struct model *
build_cpuonly(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, t, a;

	ts_device(b, 0);
	p = builder_process(b, 1ULL << 24, 1, "p");
	t = builder_thread(b, 1ULL << 24 | 1, 1, p, "main");
	a = builder_cpu_track(b, TRACK_API, t, 0);
	add(b, a, "cudaMalloc", EV_API, 0, 100, 0, 0);
	return ts_finish(b);
}

/* ---- running a verb ---- */

struct run {
	struct opts	 o;
	struct out	 out;
	char		 buf[512];
	char		*argv[32];
	char		*cause;
	int		 rc;
};

/* Runs verb ("gaps", "timeline", "overlap") with space-separated args. */
static struct run *
run(const struct model *m, const char *verb, const char *args)
{
	struct run	*r = calloc(1, sizeof *r);
	unsigned	 groups;
	int		 argc = 0;
	char		*p, *save = NULL;

	assert_non_null(r);
	r->argv[argc++] = (char *)verb;
	snprintf(r->buf, sizeof r->buf, "%s", args);
	for (p = strtok_r(r->buf, " ", &save); p != NULL;
	    p = strtok_r(NULL, " ", &save))
		r->argv[argc++] = p;
	r->argv[argc++] = (char *)"TRACE";
	groups = strcmp(verb, "gaps") == 0 ? GAPS_OPTS :
	    strcmp(verb, "timeline") == 0 ? TIMELINE_OPTS : OVERLAP_OPTS;
	ts_opts_out(&r->o, groups, argc, r->argv, &r->out, verb);
	if (strcmp(verb, "gaps") == 0)
		r->rc = cmd_gaps_compute(m, &r->o, &r->out, NULL, &r->cause);
	else if (strcmp(verb, "timeline") == 0)
		r->rc = cmd_timeline_compute(m, &r->o, &r->out, NULL, &r->cause);
	else
		r->rc = cmd_overlap_compute(m, &r->o, &r->out, NULL, &r->cause);
	return r;
}

static void
run_free(struct run *r)
{
	free(r->cause);
	opts_free(&r->o);
	out_free(&r->out);
	free(r);
}

static int
nrows(const struct run *r)
{
	return cJSON_GetArraySize(r->out.rows);
}

static cJSON *
row(const struct run *r, const char *key)
{
	return ts_jrow(r->out.rows, key);
}

static int64_t
geti(const cJSON *o, const char *f)
{
	const cJSON	*it = ts_jfield(o, f);

	if (!cJSON_IsRaw(it) || strchr(it->valuestring, '.') != NULL)
		fail_msg("field '%s' is not an integer", f);
	return strtoll(it->valuestring, NULL, 10);
}

static double
getd(const cJSON *o, const char *f)
{
	const cJSON	*it = ts_jfield(o, f);

	if (!cJSON_IsRaw(it))
		fail_msg("field '%s' is not a number", f);
	return strtod(it->valuestring, NULL);
}

static const char *
gets_(const cJSON *o, const char *f)
{
	const cJSON	*it = ts_jfield(o, f);

	if (cJSON_IsNull(it))
		return NULL;
	if (!cJSON_IsString(it))
		fail_msg("field '%s' is not a string", f);
	return it->valuestring;
}

static void
assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-3 * (fabs(want) > 1 ? fabs(want) : 1)) {
		print_error("got %.9g, want %.9g\n", got, want);
		fail();
	}
}

static int
has_warning(const struct run *r, const char *needle)
{
	const cJSON	*w;

	cJSON_ArrayForEach(w, r->out.warnings)
		if (strstr(w->valuestring, needle) != NULL)
			return 1;
	return 0;
}

static void
assert_gap(const cJSON *g, int64_t start, int64_t end, const char *kind)
{
	assert_int_equal(geti(g, "start_ns"), start);
	assert_int_equal(geti(g, "end_ns"), end);
	assert_int_equal(geti(g, "duration_ns"), end - start);
	assert_string_equal(gets_(g, "kind"), kind);
}

/* ---- gaps ---- */

static void
test_gaps_device_basic(void **state)
{
	struct model	*m = build_basic();
	struct run	*r;
	const cJSON	*g, *d, *h;

	(void)state;
	r = run(m, "gaps", "--scope device");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 3);
	/* Busy: [100,500) u [2000400,2000700); the sync record does not
	 * count. Leading [-1000,100). */
	g = row(r, "device|device=0|start=0");
	assert_gap(g, 0, 1100, "leading");
	assert_true(ts_jnull(g, "prev_name"));
	assert_string_equal(gets_(g, "next_name"), "k1");
	assert_true(ts_jnull(g, "cpu_activity"));		/* < 1 ms */
	assert_int_equal(geti(g, "device"), 0);
	assert_true(ts_jnull(g, "stream"));
	assert_int_equal(geti(g, "pid"), 100);
	/* Inner [500,2000400): cudaStreamSynchronize covers it. */
	g = row(r, "device|device=0|start=1500");
	assert_gap(g, 1500, 2001400, "inner");
	assert_string_equal(gets_(g, "cpu_activity"), "synchronizing");
	assert_near(getd(g, "cpu_sync_pct"), 100);
	assert_near(getd(g, "cpu_none_pct"), 0);
	assert_string_equal(gets_(g, "prev_name"), "ncclKernel_AllReduce");
	assert_string_equal(gets_(g, "next_name"), "k3");
	/* Trailing [2000700,3500000): cudaFree covers 1e6 of 1499300. */
	g = row(r, "device|device=0|start=2001700");
	assert_gap(g, 2001700, 3501000, "trailing");
	assert_string_equal(gets_(g, "cpu_activity"), "launching");
	assert_near(getd(g, "cpu_launch_pct"), 100.0 * 1000000 / 1499300);
	assert_near(getd(g, "cpu_none_pct"), 100.0 * 499300 / 1499300);
	assert_near(getd(g, "cpu_sync_pct"), 0);
	assert_string_equal(gets_(g, "prev_name"),
	    "[CUDA memcpy Host-to-Device]");
	assert_true(ts_jnull(g, "next_name"));

	d = cJSON_GetArrayItem(cJSON_GetObjectItem(r->out.aux, "devices"), 0);
	assert_int_equal(geti(d, "device"), 0);
	assert_int_equal(geti(d, "window_ns"), 3501000);
	assert_int_equal(geti(d, "busy_ns"), 700);
	assert_int_equal(geti(d, "total_idle_ns"), 3500300);
	assert_int_equal(geti(d, "inner_idle_ns"), 1999900);
	assert_near(getd(d, "idle_pct"), 100.0 * 3500300 / 3501000);
	assert_int_equal(geti(r->out.aux, "gaps_matched"), 3);
	/* Histogram: 1100 -> <10us; 1999900 and 1499300 -> 1-10ms. */
	h = cJSON_GetObjectItem(r->out.aux, "histogram");
	assert_int_equal(cJSON_GetArraySize(h), 6);
	assert_string_equal(gets_(cJSON_GetArrayItem(h, 0), "label"),
	    "<10us");
	assert_int_equal(geti(cJSON_GetArrayItem(h, 0), "count"), 1);
	assert_int_equal(geti(cJSON_GetArrayItem(h, 0), "total_ns"), 1100);
	assert_int_equal(geti(cJSON_GetArrayItem(h, 2), "count"), 0);
	assert_int_equal(geti(cJSON_GetArrayItem(h, 3), "count"), 2);
	assert_int_equal(geti(cJSON_GetArrayItem(h, 3), "total_ns"),
	    1999900 + 1499300);
	assert_string_equal(r->out.default_sort, "duration_ns:desc");
	run_free(r);

	/* Device is the default scope; --absolute gives source times. */
	r = run(m, "gaps", "--absolute");
	assert_int_equal(r->rc, 0);
	g = row(r, "device|device=0|start=0");
	assert_gap(g, -1000, 100, "leading");
	run_free(r);
	model_free(m);
}

static void
test_gaps_stream_basic(void **state)
{
	struct model	*m = build_basic();
	struct run	*r;
	const cJSON	*g;

	(void)state;
	r = run(m, "gaps", "--scope stream");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 6);
	/* Stream 7: busy [100,400) (k1 and k2 overlap) u [2000400,2000600). */
	g = row(r, "stream|device=0|pid=100|stream=7|start=0");
	assert_gap(g, 0, 1100, "leading");
	g = row(r, "stream|device=0|pid=100|stream=7|start=1400");
	assert_gap(g, 1400, 2001400, "inner");
	/* k2 ends last, though k1 started first. */
	assert_string_equal(gets_(g, "prev_name"), "k2");
	assert_string_equal(gets_(g, "next_name"), "k3");
	assert_string_equal(gets_(g, "cpu_activity"), "synchronizing");
	assert_int_equal(geti(g, "stream"), 7);
	g = row(r, "stream|device=0|pid=100|stream=7|start=2001600");
	assert_gap(g, 2001600, 3501000, "trailing");
	/* Stream 8: busy [300,500) u [2000500,2000700). */
	g = row(r, "stream|device=0|pid=100|stream=8|start=0");
	assert_gap(g, 0, 1300, "leading");
	assert_string_equal(gets_(g, "next_name"), "ncclKernel_AllReduce");
	g = row(r, "stream|device=0|pid=100|stream=8|start=1500");
	assert_gap(g, 1500, 2001500, "inner");
	assert_string_equal(gets_(g, "next_name"),
	    "[CUDA memcpy Host-to-Device]");
	g = row(r, "stream|device=0|pid=100|stream=8|start=2001700");
	assert_gap(g, 2001700, 3501000, "trailing");
	run_free(r);

	/* --min-dur hides the two leading gaps, not the histogram's. */
	r = run(m, "gaps", "--scope stream --min-dur 1.5us");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 4);
	assert_int_equal(geti(r->out.aux, "gaps_matched"), 4);
	assert_int_equal(geti(cJSON_GetArrayItem(cJSON_GetObjectItem(
	    r->out.aux, "histogram"), 0), "count"), 2);
	run_free(r);

	/* --stream keeps one stream. */
	r = run(m, "gaps", "--scope stream --stream 8");
	assert_int_equal(nrows(r), 3);
	row(r, "stream|device=0|pid=100|stream=8|start=1500");
	run_free(r);
	model_free(m);
}

static void
test_gaps_two_devices(void **state)
{
	struct model	*m = build_twodev();
	struct run	*r;
	const cJSON	*g, *a;

	(void)state;
	r = run(m, "gaps", "--scope device");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 4);
	/* Device 0: leading [-5e6,0): cudaMalloc covers 1e6 of 5e6. */
	g = row(r, "device|device=0|start=0");
	assert_gap(g, 0, 5000000, "leading");
	assert_string_equal(gets_(g, "cpu_activity"), "nothing");
	assert_near(getd(g, "cpu_launch_pct"), 20);
	assert_near(getd(g, "cpu_none_pct"), 80);
	assert_string_equal(gets_(g, "next_name"), "ka");
	/* Trailing [1e6,4e6): the open cudaDeviceSynchronize from 1.5e6. */
	g = row(r, "device|device=0|start=6000000");
	assert_gap(g, 6000000, 9000000, "trailing");
	assert_string_equal(gets_(g, "cpu_activity"), "synchronizing");
	assert_near(getd(g, "cpu_sync_pct"), 100.0 * 2500000 / 3000000);
	/* Device 1 (process 11 has no CPU tracks). */
	g = row(r, "device|device=1|start=0");
	assert_gap(g, 0, 5500000, "leading");
	assert_string_equal(gets_(g, "cpu_activity"), "nothing");
	assert_near(getd(g, "cpu_none_pct"), 100);
	assert_int_equal(geti(g, "pid"), 11);
	g = row(r, "device|device=1|start=7000000");
	assert_gap(g, 7000000, 8000000, "inner");	/* exactly 1 ms */
	assert_string_equal(gets_(g, "cpu_activity"), "nothing");
	assert_string_equal(gets_(g, "prev_name"), "kb");
	assert_string_equal(gets_(g, "next_name"), "kc");
	run_free(r);

	/* All GPUs: busy [0,2e6) u [3e6,4e6); all processes' CPU. */
	r = run(m, "gaps", "--scope all");
	assert_int_equal(nrows(r), 2);
	g = row(r, "all|start=0");
	assert_gap(g, 0, 5000000, "leading");
	assert_true(ts_jnull(g, "device"));
	assert_true(ts_jnull(g, "pid"));
	g = row(r, "all|start=7000000");
	assert_gap(g, 7000000, 8000000, "inner");
	assert_string_equal(gets_(g, "cpu_activity"), "synchronizing");
	assert_near(getd(g, "cpu_sync_pct"), 100);
	a = cJSON_GetObjectItem(r->out.aux, "all");
	assert_int_equal(geti(a, "window_ns"), 9000000);
	assert_int_equal(geti(a, "busy_ns"), 3000000);
	assert_int_equal(geti(a, "total_idle_ns"), 6000000);
	assert_int_equal(geti(a, "inner_idle_ns"), 1000000);
	assert_near(getd(a, "idle_pct"), 100.0 * 6 / 9);
	run_free(r);

	/* A window [1e6, 3e6) that starts inside kb: only a trailing gap. */
	r = run(m, "gaps", "--scope all --from 6ms --to 8ms");
	assert_int_equal(nrows(r), 1);
	assert_gap(row(r, "all|start=7000000"), 7000000, 8000000,
	    "trailing");
	run_free(r);

	/* --device 1: its rows only. */
	r = run(m, "gaps", "--device 1");
	assert_int_equal(nrows(r), 2);
	row(r, "device|device=1|start=7000000");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r->out.aux,
	    "devices")), 1);
	run_free(r);

	/* An empty window: whole-window gaps. */
	r = run(m, "gaps", "--from 6.1ms --to 6.2ms --scope device");
	assert_int_equal(nrows(r), 1);
	assert_gap(row(r, "device|device=0|start=6100000"), 6100000, 6200000,
	    "whole");
	run_free(r);

	r = run(m, "gaps", "--device 9");
	assert_int_equal(r->rc, -1);
	assert_non_null(r->cause);
	run_free(r);
	model_free(m);
}

static void
test_gaps_nvtx_window(void **state)
{
	struct model	*m = build_nvtx();
	struct run	*r;

	(void)state;
	/* Window [0,1000): busy [200,400) u [960,1000). */
	r = run(m, "gaps", "--nvtx step");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 2);
	assert_gap(row(r, "device|device=0|start=0"), 0, 200, "leading");
	assert_gap(row(r, "device|device=0|start=400"), 400, 960, "inner");
	assert_int_equal(geti(cJSON_GetArrayItem(cJSON_GetObjectItem(
	    r->out.aux, "devices"), 0), "window_ns"), 1000);
	run_free(r);
	model_free(m);
}

static void
test_gaps_many_pruned(void **state)
{
	struct model	*m = build_many();
	struct run	*r;
	const cJSON	*it;
	int64_t		 d, seen[4] = { 0, 0, 0, 0 };
	int		 k;

	(void)state;
	r = run(m, "gaps", "--scope stream --limit 3");
	assert_int_equal(r->rc, 0);
	/* NMANY - 1 inner gaps of 1..NMANY ns (one value missing). */
	assert_int_equal(geti(r->out.aux, "gaps_matched"), NMANY - 1);
	/* Kept: offset + limit + 1 longest. */
	assert_int_equal(nrows(r), 4);
	cJSON_ArrayForEach(it, r->out.rows) {
		d = geti(it, "duration_ns");
		for (k = 0; k < 4; k++)
			if (seen[k] == 0) {
				seen[k] = d;
				break;
			}
	}
	/* They are the four longest, by a brute force. */
	{
		int64_t	best[4] = { 0, 0, 0, 0 }, g;
		int	i, j;

		for (i = 0; i < NMANY - 1; i++) {
			g = many_gap(i);
			for (j = 0; j < 4; j++)
				if (g > best[j]) {
					memmove(&best[j + 1], &best[j],
					    (size_t)(3 - j) * sizeof *best);
					best[j] = g;
					break;
				}
		}
		for (j = 0; j < 4; j++) {
			for (k = 0; k < 4; k++)
				if (seen[k] == best[j])
					break;
			assert_true(k < 4);
		}
	}
	run_free(r);

	/* By start, ascending: the first gaps. */
	r = run(m, "gaps", "--scope stream --sort start_ns:asc --limit 2");
	assert_int_equal(nrows(r), 3);
	/* Kernel 0 [0,5), gap 0 of 1 ns, kernel 1 [6,11), gap 1... */
	assert_gap(row(r, "stream|device=0|pid=1|stream=7|start=5"), 5, 6,
	    "inner");
	assert_gap(row(r, "stream|device=0|pid=1|stream=7|start=11"), 11,
	    11 + many_gap(1), "inner");
	run_free(r);

	/* --limit 0: every gap becomes a row. */
	r = run(m, "gaps", "--scope stream --limit 0");
	assert_int_equal(nrows(r), NMANY - 1);
	run_free(r);
	model_free(m);
}

static void
test_gaps_no_gpu(void **state)
{
	struct model	*m = build_cpuonly();
	struct run	*r;

	(void)state;
	r = run(m, "gaps", "");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 0);
	assert_true(has_warning(r, "no GPU work"));
	run_free(r);
	r = run(m, "timeline", "");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 0);
	assert_true(has_warning(r, "no GPU work"));
	run_free(r);
	r = run(m, "overlap", "");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 0);
	assert_true(has_warning(r, "no GPU work"));
	run_free(r);
	model_free(m);
}

/* ---- timeline ---- */

static void
test_timeline_buckets(void **state)
{
	struct model	*m = build_basic();
	struct run	*r;
	const cJSON	*b, *it;
	int64_t		 busy = 0, kern = 0;

	(void)state;
	/* Window [0,1000) absolute (origin -1000), 4 buckets of 250. */
	r = run(m, "timeline", "--from 1000 --to 2000 --buckets 4");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 4);
	b = row(r, "bucket|device=0|bucket=0");
	assert_int_equal(geti(b, "start_ns"), 1000);
	assert_int_equal(geti(b, "end_ns"), 1250);
	assert_int_equal(geti(b, "busy_ns"), 150);	/* [100,250) */
	assert_int_equal(geti(b, "compute_ns"), 150);
	assert_int_equal(geti(b, "comm_ns"), 0);
	assert_int_equal(geti(b, "copy_ns"), 0);
	assert_int_equal(geti(b, "kernels"), 1);	/* k1 */
	assert_near(getd(b, "busy_pct"), 60);
	b = row(r, "bucket|device=0|bucket=1");		/* [250,500) */
	assert_int_equal(geti(b, "busy_ns"), 250);
	assert_int_equal(geti(b, "compute_ns"), 150);	/* k1 u k2 */
	assert_int_equal(geti(b, "comm_ns"), 200);
	assert_int_equal(geti(b, "kernels"), 2);	/* k2, nccl */
	assert_near(getd(b, "busy_pct"), 100);
	b = row(r, "bucket|device=0|bucket=2");
	assert_int_equal(geti(b, "busy_ns"), 0);
	assert_int_equal(geti(b, "kernels"), 0);
	assert_int_equal(r->out.limit, 0);		/* all rows */
	run_free(r);

	/* --bucket 300: [0,300) [300,600) [600,900) [900,1000). */
	r = run(m, "timeline", "--from 1000 --to 2000 --bucket 300");
	assert_int_equal(nrows(r), 4);
	b = row(r, "bucket|device=0|bucket=0");
	assert_int_equal(geti(b, "busy_ns"), 200);
	assert_int_equal(geti(b, "kernels"), 2);
	b = row(r, "bucket|device=0|bucket=1");
	assert_int_equal(geti(b, "busy_ns"), 200);
	assert_int_equal(geti(b, "compute_ns"), 100);
	assert_int_equal(geti(b, "comm_ns"), 200);
	b = row(r, "bucket|device=0|bucket=3");
	assert_int_equal(geti(b, "start_ns"), 1900);
	assert_int_equal(geti(b, "end_ns"), 2000);
	run_free(r);

	/* --by stream. */
	r = run(m, "timeline", "--from 1000 --to 2000 --buckets 4 --by stream");
	assert_int_equal(nrows(r), 8);
	b = row(r, "bucket|device=0|pid=100|stream=7|bucket=1");
	assert_int_equal(geti(b, "busy_ns"), 150);	/* [250,400) */
	assert_int_equal(geti(b, "kernels"), 1);
	assert_int_equal(geti(b, "stream"), 7);
	b = row(r, "bucket|device=0|pid=100|stream=8|bucket=1");
	assert_int_equal(geti(b, "comm_ns"), 200);
	run_free(r);

	/* The whole trace in 7 uneven buckets: they partition the window,
	 * so their busy times add up to the device's 700 ns. */
	r = run(m, "timeline", "--buckets 7");
	assert_int_equal(nrows(r), 7);
	cJSON_ArrayForEach(it, r->out.rows) {
		busy += geti(it, "busy_ns");
		kern += geti(it, "kernels");
	}
	assert_int_equal(busy, 700);
	assert_int_equal(kern, 4);
	b = row(r, "bucket|device=0|bucket=6");
	assert_int_equal(geti(b, "end_ns"), 3501000);
	/* Edges: floor(i * 3501000 / 7) = 500142 i + floor(6 i / 7). */
	b = row(r, "bucket|device=0|bucket=3");
	assert_int_equal(geti(b, "start_ns"), 500142 * 3 + 2);
	run_free(r);

	r = run(m, "timeline", "--by pid");
	assert_int_equal(r->rc, -1);
	run_free(r);
	r = run(m, "timeline", "--buckets 3 --bucket 1ms");
	assert_int_equal(r->rc, -1);
	run_free(r);
	r = run(m, "timeline", "--bucket 1");
	assert_int_equal(r->rc, -1);			/* 3.5e6 buckets */
	run_free(r);
	model_free(m);
}

static void
test_timeline_negative(void **state)
{
	struct model	*m = build_twodev();
	struct run	*r;
	const cJSON	*b;

	(void)state;
	/* [-5e6, 4e6) in 9 buckets of 1e6. */
	r = run(m, "timeline", "--buckets 9 --absolute");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 18);
	b = row(r, "bucket|device=0|bucket=0");
	assert_int_equal(geti(b, "start_ns"), -5000000);
	assert_int_equal(geti(b, "busy_ns"), 0);
	b = row(r, "bucket|device=1|bucket=5");		/* [0,1e6) */
	assert_int_equal(geti(b, "start_ns"), 0);
	assert_int_equal(geti(b, "busy_ns"), 500000);
	assert_near(getd(b, "busy_pct"), 50);
	assert_int_equal(geti(b, "kernels"), 1);
	b = row(r, "bucket|device=1|bucket=6");
	assert_int_equal(geti(b, "busy_ns"), 1000000);
	assert_int_equal(geti(b, "kernels"), 0);
	b = row(r, "bucket|device=1|bucket=8");
	assert_int_equal(geti(b, "busy_ns"), 1000000);
	assert_int_equal(geti(b, "end_ns"), 4000000);
	b = row(r, "bucket|device=0|bucket=5");
	assert_int_equal(geti(b, "compute_ns"), 1000000);
	run_free(r);

	/* --nvtx: the stretch of the instances. */
	model_free(m);
	m = build_nvtx();
	r = run(m, "timeline", "--nvtx step --buckets 2");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 2);
	b = row(r, "bucket|device=0|bucket=0");		/* [0,500) */
	assert_int_equal(geti(b, "busy_ns"), 200);
	assert_int_equal(geti(b, "compute_ns"), 100);
	assert_int_equal(geti(b, "comm_ns"), 200);
	assert_int_equal(geti(b, "kernels"), 2);
	b = row(r, "bucket|device=0|bucket=1");		/* [500,1000) */
	assert_int_equal(geti(b, "busy_ns"), 40);	/* B cut at 1000 */
	assert_int_equal(geti(b, "kernels"), 1);
	run_free(r);
	model_free(m);
}

/* ---- overlap ---- */

static void
test_overlap_basic(void **state)
{
	struct model	*m = build_basic();
	struct run	*r;
	const cJSON	*d;

	(void)state;
	r = run(m, "overlap", "");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 1);
	d = row(r, "device|device=0");
	/* C = [100,400) u [2000400,2000600); M = [300,500);
	 * Y = [2000500,2000700). */
	assert_int_equal(geti(d, "compute_ns"), 500);
	assert_int_equal(geti(d, "comm_ns"), 200);
	assert_int_equal(geti(d, "copy_ns"), 200);
	assert_int_equal(geti(d, "busy_ns"), 700);
	assert_int_equal(geti(d, "sum_ns"), 200 + 150 + 200 + 200 + 200);
	assert_int_equal(geti(d, "exposed_comm_ns"), 100);	/* [400,500) */
	assert_near(getd(d, "hidden_comm_pct"), 50);
	assert_int_equal(geti(d, "copy_overlap_ns"), 100);
	/* k1 ends at 300 where the NCCL kernel starts: 2, not 3. */
	assert_int_equal(geti(d, "peak_concurrency"), 2);
	assert_int_equal(geti(d, "span_ns"), 3501000);
	assert_near(getd(d, "busy_pct"), 100.0 * 700 / 3501000);
	run_free(r);

	/* A window [250,450): k1 [250,300), k2 [250,400), M [300,450). */
	r = run(m, "overlap", "--from 1250 --to 1450");
	d = row(r, "device|device=0");
	assert_int_equal(geti(d, "compute_ns"), 150);
	assert_int_equal(geti(d, "comm_ns"), 150);
	assert_int_equal(geti(d, "exposed_comm_ns"), 50);
	assert_int_equal(geti(d, "sum_ns"), 50 + 150 + 150);
	assert_int_equal(geti(d, "peak_concurrency"), 2);
	assert_int_equal(geti(d, "span_ns"), 200);
	run_free(r);

	r = run(m, "overlap", "--by stream");
	assert_int_equal(r->rc, -1);
	run_free(r);
	model_free(m);
}

static void
test_overlap_nvtx_path(void **state)
{
	struct model	*m = build_nvtx();
	struct run	*r;
	const cJSON	*d;

	(void)state;
	r = run(m, "overlap", "");
	d = row(r, "device|device=0");
	assert_int_equal(geti(d, "compute_ns"), 100);
	assert_int_equal(geti(d, "comm_ns"), 200 + 140 + 100);
	assert_int_equal(geti(d, "exposed_comm_ns"), 100 + 140 + 100);
	assert_near(getd(d, "hidden_comm_pct"), 100.0 * 100 / 440);
	assert_int_equal(geti(d, "peak_concurrency"), 2);
	run_free(r);

	r = run(m, "overlap", "--by nvtx-path");
	assert_int_equal(r->rc, 0);
	assert_int_equal(nrows(r), 3);
	d = row(r, "nvtx|device=0|path=step/bwd");
	assert_string_equal(gets_(d, "nvtx_path"), "step/bwd");
	assert_int_equal(geti(d, "count"), 1);
	assert_int_equal(geti(d, "comm_ns"), 200);
	assert_int_equal(geti(d, "exposed_comm_ns"), 100);
	assert_near(getd(d, "hidden_comm_pct"), 50);
	d = row(r, "nvtx|device=0|path=step");
	assert_int_equal(geti(d, "comm_ns"), 140);
	assert_int_equal(geti(d, "exposed_comm_ns"), 140);
	assert_near(getd(d, "hidden_comm_pct"), 0);
	d = row(r, "nvtx|device=0|path=");
	assert_int_equal(geti(d, "comm_ns"), 100);
	assert_string_equal(r->out.default_sort, "exposed_comm_ns:desc");
	run_free(r);

	/* Inside the step range only: B is cut at 1000, C is out. */
	r = run(m, "overlap", "--nvtx step");
	d = row(r, "device|device=0");
	assert_int_equal(geti(d, "comm_ns"), 200 + 40);
	assert_int_equal(geti(d, "span_ns"), 1000);
	run_free(r);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_gaps_device_basic),
	cmocka_unit_test(test_gaps_stream_basic),
	cmocka_unit_test(test_gaps_two_devices),
	cmocka_unit_test(test_gaps_nvtx_window),
	cmocka_unit_test(test_gaps_many_pruned),
	cmocka_unit_test(test_gaps_no_gpu),
	cmocka_unit_test(test_timeline_buckets),
	cmocka_unit_test(test_timeline_negative),
	cmocka_unit_test(test_overlap_basic),
	cmocka_unit_test(test_overlap_nvtx_path))
