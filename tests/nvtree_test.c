/*
 * nvtree_test: the aggregated NVTX tree of the NVTX view (tui/nvtree.c)
 * on a model built by hand, with counts, CPU and GPU-projected times
 * worked out on paper; sorting, flattening, labels and instances; and,
 * on the real fixtures (GPULENS_FIXTURES), every node's GPU time checked
 * against the sum of nvtx_project() over its instances, the per-range
 * definition the `nvtx` verb uses.
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

#include "builder.h"
#include "nvtree.h"
#include "nvtx.h"
#include "source.h"
#include "tsupport.h"

static void
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t s, int64_t e, uint32_t corr)
{
	struct lane_event	ev = ts_event(b, name, kind, s, e);

	ev.corr = corr;
	if (kind == EV_NVTX || kind == EV_MARK)
		ev.aux = ts_nvtx(b, track);
	builder_event(b, track, &ev);
}

/*
 * Thread 2 "main" of pid 1:
 *   Step#1 [0,100]: fwd [10,40], bwd [50,90]
 *   Step#2 [100,200]: fwd [110,140], bwd [150,190]
 *   init [-50,-10]; a mark at 20 (left out)
 * Launches (API) and their GPU work:
 *   [15,16] -> kernel [20,30]	(Step#1/fwd)
 *   [55,56] -> kernel [60,100]	(Step#1/bwd)
 *   [112,113] -> memcpy [120,125]	(Step#2/fwd)
 *   [300,301] -> kernel [305,310]	(outside every range)
 */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, t, nv, api, gpu;

	memset(&dev, 0, sizeof dev);
	p = builder_process(b, 1, 1, "train");
	t = builder_thread(b, 2, 2, p, "main");
	gpu = builder_gpu_track(b, builder_stream(b, builder_device(b, &dev),
	    7, p));
	nv = builder_cpu_track(b, TRACK_NVTX, t, 0);
	api = builder_cpu_track(b, TRACK_API, t, 0);
	add(b, nv, "Step#1", EV_NVTX, 0, 100, 0);
	add(b, nv, "fwd", EV_NVTX, 10, 40, 0);
	add(b, nv, "bwd", EV_NVTX, 50, 90, 0);
	add(b, nv, "Step#2", EV_NVTX, 100, 200, 0);
	add(b, nv, "fwd", EV_NVTX, 110, 140, 0);
	add(b, nv, "bwd", EV_NVTX, 150, 190, 0);
	add(b, nv, "init", EV_NVTX, -50, -10, 0);
	add(b, nv, "mark", EV_MARK, 20, 20, 0);
	add(b, api, "cudaLaunchKernel", EV_API, 15, 16, 1);
	add(b, api, "cudaLaunchKernel", EV_API, 55, 56, 2);
	add(b, api, "cudaMemcpyAsync", EV_API, 112, 113, 3);
	add(b, api, "cudaLaunchKernel", EV_API, 300, 301, 4);
	add(b, gpu, "k1", EV_KERNEL, 20, 30, 1);
	add(b, gpu, "k2", EV_KERNEL, 60, 100, 2);
	add(b, gpu, "copy", EV_MEMCPY, 120, 125, 3);
	add(b, gpu, "k3", EV_KERNEL, 305, 310, 4);
	return ts_finish(b);
}

/* The node whose label is name (the first one in index order). */
static size_t
node(const struct nvtree *t, const char *name)
{
	char	buf[128];
	size_t	i;

	for (i = 0; i < t->nn; i++)
		if (strcmp(nvtree_label(t, i, buf, sizeof buf), name) == 0)
			return i;
	fail_msg("no node %s", name);
	return 0;
}

static const char *
rowlabel(const struct nvtree *t, size_t r, char *buf, size_t len)
{
	assert_true(r < t->nrows);
	return nvtree_label(t, t->rows[r], buf, len);
}

static void
test_aggregates(void **state)
{
	struct model		*m = build();
	struct nvtree		*t = nvtree_build(m);
	const struct nvtree_node *root, *step, *fwd, *bwd, *init;

	assert_int_equal(t->nroots, 1);
	root = &t->n[t->roots[0]];
	step = &t->n[node(t, "Step#*")];
	fwd = &t->n[node(t, "fwd")];
	bwd = &t->n[node(t, "bwd")];
	init = &t->n[node(t, "init")];
	assert_int_equal(root->count, 7);		/* the mark is out */
	assert_int_equal(root->cpu, 240);		/* Step#* + init */
	assert_int_equal(root->gpu, 85);
	assert_int_equal(step->count, 2);
	assert_int_equal(step->cpu, 200);
	assert_int_equal(step->gpu, 80 + 5);		/* [20,100], [120,125] */
	assert_int_equal(step->with_gpu, 2);
	assert_int_equal(fwd->count, 2);
	assert_int_equal(fwd->cpu, 60);
	assert_int_equal(fwd->gpu, 10 + 5);
	assert_int_equal(bwd->cpu, 80);
	assert_int_equal(bwd->gpu, 40);
	assert_int_equal(bwd->with_gpu, 1);
	assert_int_equal(init->gpu, 0);
	assert_int_equal(init->with_gpu, 0);
	assert_int_equal(fwd->depth, 2);
	assert_int_equal(&t->n[fwd->parent] - t->n, step - t->n);
	/* Instances in start order. */
	assert_int_equal(fwd->ninst, 2);
	assert_int_equal(model_ev_start(m, t->inst[fwd->inst0]), 10);
	assert_int_equal(model_ev_start(m, t->inst[fwd->inst0 + 1]), 110);
	nvtree_free(t);
	model_free(m);
}

static void
test_sort_and_flatten(void **state)
{
	struct model	*m = build();
	struct nvtree	*t = nvtree_build(m);
	char		 buf[128];

	/* Roots open, the rest closed; children by CPU time. */
	assert_int_equal(t->nrows, 3);
	assert_string_equal(rowlabel(t, 0, buf, sizeof buf), "tid 2 main");
	assert_string_equal(rowlabel(t, 1, buf, sizeof buf), "Step#*");
	assert_string_equal(rowlabel(t, 2, buf, sizeof buf), "init");
	t->n[node(t, "Step#*")].expanded = 1;
	nvtree_flatten(t);
	assert_int_equal(t->nrows, 5);
	assert_string_equal(rowlabel(t, 2, buf, sizeof buf), "bwd");
	assert_string_equal(rowlabel(t, 3, buf, sizeof buf), "fwd");
	nvtree_sort(t, NVTREE_SORT_NAME, 0);
	nvtree_flatten(t);
	assert_string_equal(rowlabel(t, 2, buf, sizeof buf), "bwd");
	assert_string_equal(rowlabel(t, 3, buf, sizeof buf), "fwd");
	nvtree_sort(t, NVTREE_SORT_START, 0);
	nvtree_flatten(t);
	assert_string_equal(rowlabel(t, 1, buf, sizeof buf), "init");
	assert_string_equal(rowlabel(t, 2, buf, sizeof buf), "Step#*");
	assert_string_equal(rowlabel(t, 3, buf, sizeof buf), "fwd");
	nvtree_sort(t, NVTREE_SORT_GPU, 1);
	nvtree_flatten(t);
	assert_string_equal(rowlabel(t, 1, buf, sizeof buf), "Step#*");
	assert_string_equal(rowlabel(t, 2, buf, sizeof buf), "bwd");
	nvtree_expand_all(t, 0);
	assert_int_equal(t->nrows, 3);
	nvtree_expand_all(t, 1);
	assert_int_equal(t->nrows, 5);
	assert_string_equal(nvtree_sort_name(NVTREE_SORT_COUNT), "count");
	nvtree_free(t);
	model_free(m);
}

static void
test_empty(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct nvtree	*t;

	m = ts_finish(b);
	t = nvtree_build(m);
	assert_int_equal(t->nn, 0);
	assert_int_equal(t->nrows, 0);
	nvtree_sort(t, NVTREE_SORT_NAME, 1);
	nvtree_flatten(t);
	nvtree_free(t);
	model_free(m);
}

/* Every node's numbers against the per-range definitions. */
static void
check_fixture(const char *dir, const char *rel)
{
	struct model		*m;
	struct nvtree		*t;
	struct nvtx_proj	 p;
	const struct nvtree_node *nd;
	char			 path[4096], *cause = NULL;
	size_t			 i, k, nranges = 0;
	int64_t			 gpu, cpu;
	uint64_t		 with;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s: %s", rel, cause);
	t = nvtree_build(m);
	for (i = 0; i < t->nn; i++) {
		nd = &t->n[i];
		if (nd->parent == NONE32)
			continue;
		gpu = cpu = 0;
		with = 0;
		assert_int_equal(nd->ninst, nd->count);
		for (k = 0; k < nd->ninst; k++) {
			nvtx_project(m, t->inst[nd->inst0 + k], &p);
			if (p.nops > 0) {
				gpu += p.end - p.start;
				with++;
			}
			cpu += model_ev_end(m, t->inst[nd->inst0 + k]) -
			    model_ev_start(m, t->inst[nd->inst0 + k]);
		}
		if (gpu != nd->gpu || with != nd->with_gpu || cpu != nd->cpu)
			fail_msg("%s: node %zu: gpu %lld/%lld with %llu/%llu "
			    "cpu %lld/%lld", rel, i, (long long)nd->gpu,
			    (long long)gpu, (unsigned long long)nd->with_gpu,
			    (unsigned long long)with, (long long)nd->cpu,
			    (long long)cpu);
		nranges += nd->count;
	}
	assert_true(nranges > 500);
	nvtree_free(t);
	model_free(m);
}

static void
test_fixtures(void **state)
{
	const char	*dir = ts_need_fixtures();

	(void)state;
	check_fixture(dir, "nsys/nsys-ai/h100_2gpu_1s.sqlite");
	check_fixture(dir, "nsys/nsightful/power_iteration__baseline.sqlite");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aggregates),
		cmocka_unit_test(test_sort_and_flatten),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_fixtures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
