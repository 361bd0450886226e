/*
 * diff_test: `gpulens diff` (headless/cmd-diff.c) on two hand-built
 * captures with every number worked out on paper, and a capture against
 * itself.
 *
 * A (device 0, process 100, ProfilerStep#0..2 over [0,1000), [1000,2000),
 * [2000,3000), each with a child range "fwd, op_id = N"):
 *   k1 at 100, 1100, 2100 (100 ns each)     k2 at 500 (50 ns)
 *   ncclDevKernel_AllReduce_Sum_bf16_RING_LL at 600 (30 ns, comm)
 *   a Host-to-Device memcpy at 700 (20 ns)
 * B (same layout):
 *   k1 at 100, 1100 (200 ns each)           k3 at 2500 (70 ns)
 *   the same all-reduce and memcpy
 * Per-iteration time of k1: A 100, 100, 100 (median 100); B 200, 200, 0
 * (median 200). k2: A 50, 0, 0 (median 0).
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

#include "model/builder.h"
#include "headless/cmd-analyses.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "tsupport.h"

struct ctx {
	struct builder	*b;
	uint32_t	 gpu, nvtx;
};

static void
ev(struct ctx *c, uint32_t track, const char *name, int kind, int64_t s,
    int64_t e, uint8_t flags)
{
	struct lane_event	le = ts_event(c->b, name, kind, s, e);

	le.flags = flags;
	if (kind == EV_MEMCPY)
		le.aux = ts_copy(c->b, COPY_HTOD, 0, 0, 64);
	if (kind == EV_NVTX)
		le.aux = ts_nvtx(c->b, track);
	builder_event(c->b, track, &le);
}

static struct model *
build(int which)
{
	struct ctx	 c;
	uint32_t	 p, t, s;
	char		 name[64];
	int		 i;

	c.b = builder_new(SOURCE_NSYS);
	ts_device(c.b, 0);
	p = builder_process(c.b, 100ULL << 24, 100, "train");
	t = builder_thread(c.b, 100ULL << 24 | 1, 1, p, "main");
	c.nvtx = builder_cpu_track(c.b, TRACK_NVTX, t, 0);
	s = builder_stream(c.b, 0, 7, p);
	c.gpu = builder_gpu_track(c.b, s);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof name, "ProfilerStep#%d", i);
		ev(&c, c.nvtx, name, EV_NVTX, 1000 * i, 1000 * i + 1000, 0);
		snprintf(name, sizeof name, "fwd, op_id = %d", 40 + i + which);
		ev(&c, c.nvtx, name, EV_NVTX, 1000 * i + 10, 1000 * i + 900,
		    0);
	}
	if (which == 0) {
		for (i = 0; i < 3; i++)
			ev(&c, c.gpu, "k1", EV_KERNEL, 1000 * i + 100,
			    1000 * i + 200, 0);
		ev(&c, c.gpu, "k2", EV_KERNEL, 500, 550, 0);
	} else {
		for (i = 0; i < 2; i++)
			ev(&c, c.gpu, "k1", EV_KERNEL, 1000 * i + 100,
			    1000 * i + 300, 0);
		ev(&c, c.gpu, "k3", EV_KERNEL, 2500, 2570, 0);
	}
	ev(&c, c.gpu, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", EV_KERNEL,
	    600, 630, EVF_COMM);
	ev(&c, c.gpu, "[CUDA memcpy Host-to-Device]", EV_MEMCPY, 700, 720, 0);
	return ts_finish(c.b);
}

static cJSON *
row(struct out *out, const char *key)
{
	return ts_jrow(out->rows, key);
}

static void
run(struct model *a, struct model *b, struct out *out)
{
	const char	*av[] = { "diff", "a.sqlite", "b.sqlite" };
	struct opts	 o;
	char		*cause = NULL;
	const char	*code = NULL;

	ts_opts(&o, DIFF_OPTS, 3, (char **)av);
	out_init(out, "diff");
	assert_int_equal(cmd_diff_compute(a, b, &o, NULL, out, &code, &cause), 0);
	opts_free(&o);
}

static void
test_rows(void **state)
{
	struct model	*a = build(0), *b = build(1);
	struct out	 out;
	cJSON		*r, *d;

	(void)state;
	run(a, b, &out);
	r = row(&out, "kernel|name=k1");
	assert_string_equal(ts_jstr(r, "class"), "kernel");
	assert_string_equal(ts_jstr(r, "status"), "more");
	assert_int_equal(ts_jnum(r, "a_count"), 3);
	assert_int_equal(ts_jnum(r, "b_count"), 2);
	assert_true(ts_jnum(r, "delta_count") == -1);
	assert_int_equal(ts_jnum(r, "a_total_ns"), 300);
	assert_int_equal(ts_jnum(r, "b_total_ns"), 400);
	assert_int_equal(ts_jnum(r, "delta_ns"), 100);
	assert_true(ts_jnum(r, "delta_pct") > 33.33 &&
	    ts_jnum(r, "delta_pct") < 33.34);
	assert_true(ts_jnum(r, "a_iter_median_ns") == 100);
	assert_true(ts_jnum(r, "b_iter_median_ns") == 200);
	assert_true(ts_jnum(r, "delta_iter_median_ns") == 100);

	r = row(&out, "kernel|name=k2");
	assert_string_equal(ts_jstr(r, "status"), "only_a");
	assert_true(ts_jnum(r, "delta_ns") == -50);
	assert_true(ts_jnum(r, "a_iter_median_ns") == 0);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "b_iter_median_ns")));
	r = row(&out, "kernel|name=k3");
	assert_string_equal(ts_jstr(r, "status"), "only_b");
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(r, "delta_pct")));

	r = row(&out, "comm|collective=AllReduce");
	assert_string_equal(ts_jstr(r, "status"), "same");
	assert_int_equal(ts_jnum(r, "a_total_ns"), 30);
	r = row(&out, "memcpy|direction=h2d");
	assert_string_equal(ts_jstr(r, "status"), "same");
	assert_int_equal(ts_jnum(r, "b_count"), 1);
	/* NVTX paths joined though op_ids and step numbers differ. */
	r = row(&out, "nvtx|path=ProfilerStep#*/fwd");
	assert_int_equal(ts_jnum(r, "a_count"), 3);
	assert_int_equal(ts_jnum(r, "b_count"), 3);
	assert_int_equal(ts_jnum(r, "a_total_ns"), 3 * 890);
	r = row(&out, "nvtx|path=ProfilerStep#*");
	assert_true(ts_jnum(r, "a_iter_median_ns") == 1000);
	r = row(&out, "iteration|marker=ProfilerStep#*");
	assert_int_equal(ts_jnum(r, "a_count"), 3);
	assert_int_equal(ts_jnum(r, "a_total_ns"), 3000);
	assert_true(ts_jnum(r, "a_iter_median_ns") == 1000);

	/* Ranked by |delta_ns|: k1 (100), k3 (70), k2 (50). */
	assert_string_equal(out.default_sort, "abs_delta_ns:desc");
	d = cJSON_GetObjectItem(out.aux, "delta");
	/* Busy: A 300 + 50 + 30 + 20, B 400 + 70 + 30 + 20. */
	assert_int_equal(ts_jnum(d, "busy_ns"), 120);
	assert_int_equal(ts_jnum(d, "kernel_ns"), 120);
	assert_true(ts_jnum(d, "kernels") == -1);
	assert_int_equal(ts_jnum(cJSON_GetObjectItem(out.aux, "a"), "busy_ns"),
	    400);
	assert_int_equal(ts_jnum(out.aux, "only_a"), 1);
	assert_int_equal(ts_jnum(out.aux, "only_b"), 1);
	/* Top kernels {k1, k2, nccl} vs {k1, k3, nccl}: 2 of 4. */
	assert_true(ts_jnum(out.aux, "kernel_overlap_pct") == 50);
	assert_string_equal(ts_jstr(out.aux, "mode"), "summary");
	out_free(&out);
	model_free(a);
	model_free(b);
}

static void
test_self(void **state)
{
	struct model	*a = build(0);
	struct out	 out;
	cJSON		*r, *d;

	(void)state;
	run(a, a, &out);
	cJSON_ArrayForEach(r, out.rows) {
		assert_string_equal(ts_jstr(r, "status"), "same");
		assert_int_equal(ts_jnum(r, "delta_ns"), 0);
		assert_int_equal(ts_jnum(r, "delta_count"), 0);
	}
	d = cJSON_GetObjectItem(out.aux, "delta");
	cJSON_ArrayForEach(r, d)
		assert_true(ts_jnum(d, r->string) == 0);
	assert_int_equal(ts_jnum(out.aux, "unchanged"),
	    ts_jnum(out.aux, "keys"));
	assert_true(ts_jnum(out.aux, "kernel_overlap_pct") == 100);
	out_free(&out);
	model_free(a);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_rows),
	cmocka_unit_test(test_self))
