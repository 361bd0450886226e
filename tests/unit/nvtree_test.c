/*
 * nvtree_test: the aggregated NVTX tree of the NVTX view (tui/nvtree.c)
 * on a model built by hand, with counts, CPU and GPU-projected times
 * worked out on paper; sorting, flattening, labels and instances; and,
 * on random models, every node against a brute-force grouping of the
 * ranges (paths through m->nvtx[].parent, GPU projection by a scan of all
 * calls); and, on the real fixtures (GPULENS_FIXTURES), every node's GPU
 * time checked against the sum of nvtx_project() over its instances, the
 * per-range definition the `nvtx` verb uses, and its place in the tree
 * against the NVTX parents.
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

#include "model/builder.h"
#include "model/nvtxfam.h"
#include "tui/nvtree.h"
#include "model/nvtx.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/pool.h"
#include "util/xmalloc.h"

/* Thread 2 "main" of pid 1: ts_nvtx_steps()'s ranges, calls and work. */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);

	(void)ts_nvtx_steps(b, 1, 2, 1);
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
	struct nvtree		*t = nvtree_open(m);
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
	struct nvtree	*t = nvtree_open(m);
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
	t = nvtree_open(m);
	assert_int_equal(t->nn, 0);
	assert_int_equal(t->nrows, 0);
	nvtree_sort(t, NVTREE_SORT_NAME, 1);
	nvtree_flatten(t);
	nvtree_free(t);
	model_free(m);
}

/* ---- random models against a brute force ----------------------------- */

#define RT_THREADS	2
#define RT_DOMAINS	2
#define RT_MAXR		400	/* ranges per NVTX track, at most */
#define RT_MAXC		300	/* API calls per thread */
#define RT_MAXG		2	/* GPU operations per call, at most */

static uint64_t rt_seed;

static uint32_t
rt_rand(uint32_t n)
{
	rt_seed = rt_seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rt_seed >> 33) % n;
}

struct rt_gpu {
	int		 kind;
	int64_t		 s, e;
};

struct rt_call {
	int64_t		 s, e;
	int		 ng;
	struct rt_gpu	 g[RT_MAXG];
};

/* What the brute force needs of a random model. */
struct rt {
	struct rt_call	 call[RT_THREADS][RT_MAXC];
	int		 ncall[RT_THREADS];
	uint32_t	 nvtrack[RT_THREADS][RT_DOMAINS];
};

static const char *rt_names[] = {
	"Step#1", "Step#2", "Step#17", "fwd", "bwd", "opt", "#3", "a#",
	"x#9y", "Step#",
};

/* Nested ranges in [lo, hi) on track tr, depth levels deep at most. */
static void
rt_nest(struct builder *b, uint32_t tr, int64_t lo, int64_t hi, int depth,
    int *left)
{
	int64_t	s, e;

	for (s = lo + rt_rand(20); s < hi && *left > 0; s = e + rt_rand(30)) {
		e = s + rt_rand((uint32_t)(hi - s) + 1);
		if (rt_rand(8) == 0)
			e = s;			/* zero length */
		ts_add_corr(b, tr, rt_names[rt_rand(10)], rt_rand(12) == 0 ?
		    EV_MARK : EV_NVTX, s, e, 0);
		(*left)--;
		if (depth > 0 && e - s > 4)
			rt_nest(b, tr, s, e, depth - 1, left);
	}
}

static struct model *
rt_build(struct rt *r)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, th, gpu[2], api, dom, d, corr = 1;
	int		 i, k, c, left, kinds[3] = { EV_KERNEL, EV_MEMCPY,
			    EV_MEMSET };
	int64_t		 s;

	memset(&dev, 0, sizeof dev);
	memset(r, 0, sizeof *r);
	p = builder_process(b, 1, 1, "train");
	d = builder_device(b, &dev);
	gpu[0] = builder_gpu_track(b, builder_stream(b, d, 7, p));
	gpu[1] = builder_gpu_track(b, builder_stream(b, d, 8, p));
	for (i = 0; i < RT_THREADS; i++) {
		th = builder_thread(b, 10 + (uint64_t)i, 10 + (uint32_t)i, p,
		    "t");
		for (k = 0; k < RT_DOMAINS; k++) {
			dom = k == 0 ? 0 : builder_domain(b, p, (uint64_t)k,
			    "dom");
			r->nvtrack[i][k] = builder_cpu_track(b, TRACK_NVTX, th,
			    dom);
			left = 1 + (int)rt_rand(RT_MAXR);
			/* Mostly nested, plus a few overlapping ranges. */
			rt_nest(b, r->nvtrack[i][k], 0, 10000, 4, &left);
			for (c = 0; c < 5; c++) {
				s = rt_rand(10000);
				ts_add_corr(b, r->nvtrack[i][k], "over",
				    EV_NVTX, s, s + rt_rand(3000), 0);
			}
		}
		api = builder_cpu_track(b, TRACK_API, th, 0);
		r->ncall[i] = (int)rt_rand(RT_MAXC);
		for (c = 0; c < r->ncall[i]; c++) {
			struct rt_call	*cl = &r->call[i][c];

			cl->s = rt_rand(10500);
			cl->e = cl->s + rt_rand(40);
			cl->ng = (int)rt_rand(RT_MAXG + 1);
			ts_add_corr(b, api, "cudaLaunchKernel", EV_API,
			    cl->s, cl->e, corr);
			for (k = 0; k < cl->ng; k++) {
				cl->g[k].kind = kinds[rt_rand(3)];
				cl->g[k].s = cl->e + rt_rand(500);
				cl->g[k].e = cl->g[k].s + rt_rand(300);
				ts_add_corr(b, gpu[rt_rand(2)], "op",
				    cl->g[k].kind, cl->g[k].s, cl->g[k].e,
				    corr);
			}
			corr++;
		}
	}
	return ts_finish(b);
}

/* The family label of a name, as nvtx.h groups iterations. */
static void
rt_family(const char *s, char *buf, size_t len)
{
	nvtx_family(s, buf, len);	/* the one definition, nvtxfam.h */
}

/* The path of families from the root down to range gid. */
static void
rt_path(const struct model *m, uint32_t gid, char *buf, size_t len)
{
	struct evref		 r = model_ev(m, gid);
	const struct lane	*l = &m->tracks[r.track].lane;
	char			 fam[128], up[2048];
	uint32_t		 par = m->nvtx[l->aux[r.idx]].parent;

	rt_family(model_str(m, l->name[r.idx]), fam, sizeof fam);
	if (par == NONE32)
		snprintf(buf, len, "%u:%s", r.track, fam);
	else {
		rt_path(m, par, up, sizeof up);
		snprintf(buf, len, "%s/%s", up, fam);
	}
}

/* The path of node i of the tree. */
static void
rt_nodepath(const struct nvtree *t, size_t i, char *buf, size_t len)
{
	char	lab[128], up[2048];

	nvtree_label(t, i, lab, sizeof lab);
	if (t->n[t->n[i].parent].parent == NONE32)
		snprintf(buf, len, "%u:%s", t->n[i].track, lab);
	else {
		rt_nodepath(t, t->n[i].parent, up, sizeof up);
		snprintf(buf, len, "%s/%s", up, lab);
	}
}

/*
 * Every node of the tree of a random model against the brute force: the
 * ranges grouped by their path (through the NVTX parents of the model),
 * counted, their durations summed, and their GPU projections computed by
 * a scan of every call of the thread.
 */
/*
 * nvtree_proj_each() against the arrays of nvtree_proj_build_busy(): each
 * range with GPU work handed once, with the same span and busy time (-1
 * where those have it), on one pool thread (which takes every CPU thread
 * in turn, on arrays it resets and grows) and on two.
 */
struct each_seen {
	const struct nvtree_proj *pr;
	const char		*rel;
	uint8_t			*seen;
};

static void
each_range(void *arg, unsigned tid, uint32_t t, uint32_t i,
    const struct nvtree_span *sp, int64_t busy)
{
	struct each_seen	*c = arg;
	size_t			 a = c->pr->off[t] + i;
	const struct nvtree_span *want = &c->pr->span[a];

	assert_true(tid < POOL_MAX);
	if (c->seen[a]++ != 0 || sp->nops == 0 || sp->nops != want->nops ||
	    sp->nkernels != want->nkernels || sp->lo != want->lo ||
	    sp->hi != want->hi || busy != c->pr->busy[a])
		fail_msg("%s: range %u/%u handed: ops %u/%u busy %lld/%lld",
		    c->rel, t, i, sp->nops, want->nops, (long long)busy,
		    (long long)c->pr->busy[a]);
}

static void
check_each(const struct model *m, const struct nvtree_proj *pr,
    const char *rel)
{
	static const char *const threads[] = { "1", "2" };
	struct each_seen	 c;
	size_t			 a, k, n = pr->off[m->ntracks];

	c.pr = pr;
	c.rel = rel;
	c.seen = xcalloc(n + 1, 1);
	for (k = 0; k < 2; k++) {
		setenv("GPULENS_THREADS", threads[k], 1);
		memset(c.seen, 0, n + 1);
		nvtree_proj_each(m, NULL, each_range, &c);
		for (a = 0; a < n; a++)
			if (c.seen[a] != (pr->span[a].nops > 0))
				fail_msg("%s: range %zu handed %u times", rel,
				    a, c.seen[a]);
	}
	unsetenv("GPULENS_THREADS");
	free(c.seen);
}

/*
 * Every range's projection from the sweep (nvtree_proj_build_busy()) as
 * nvtx_project() gives it, and its busy time where the sweep tells it;
 * *nwork counts the ranges with GPU work, *nbusy those whose busy time
 * the sweep told. nvtree_proj_each() agrees (check_each()).
 */
static void
check_proj(const struct model *m, const char *rel, size_t *nwork,
    size_t *nbusy)
{
	struct nvtree_proj	 pr;
	struct nvtx_proj	 p;
	const struct lane	*l;
	size_t			 i, k;

	*nwork = *nbusy = 0;
	nvtree_proj_build_busy(m, &pr);
	for (k = 0; k < m->ntracks; k++) {
		if (m->tracks[k].type != TRACK_NVTX)
			continue;
		l = &m->tracks[k].lane;
		for (i = 0; i < l->n; i++) {
			const struct nvtree_span *sp = &pr.span[pr.off[k] + i];
			if (l->kind[i] != EV_NVTX)
				continue;
			nvtx_project(m, model_gid(m, (uint32_t)k, (uint32_t)i),
			    &p);
			if (p.nops != sp->nops || p.nkernels != sp->nkernels ||
			    (p.nops > 0 && (p.start != sp->lo ||
			    p.end != sp->hi)))
				fail_msg("%s: range %zu/%zu: ops %u/%u kernels "
				    "%u/%u", rel, k, i, sp->nops, p.nops,
				    sp->nkernels, p.nkernels);
			if (p.nops == 0)
				continue;
			(*nwork)++;
			if (pr.busy[pr.off[k] + i] < 0)
				continue;
			(*nbusy)++;
			if (pr.busy[pr.off[k] + i] != p.busy)
				fail_msg("%s: range %zu/%zu: busy %lld/%lld",
				    rel, k, i,
				    (long long)pr.busy[pr.off[k] + i],
				    (long long)p.busy);
		}
	}
	check_each(m, &pr, rel);
	nvtree_proj_free(&pr);
}

/*
 * Busy times in the sweep. Thread 2: outer [0,100] holds inner [10,50];
 * [12,14] -> kernel [60,70], [20,22] -> kernel [30,40] (its start goes
 * back, into the union's kept segments: inner's and outer's),
 * [60,62] -> kernels [65,90] and [95,99] (outer only). In order: thread
 * 3's [0,100] with [10,12] -> [110,120] and [20,22] -> [115,140] (one
 * segment, 30); thread 4's [0,50] with [5,6] -> [10,20] twice and [7,8]
 * -> [25,30] (two segments, 15).
 */
static void
test_busy(void **state)
{
	/* Per event: its thread (0, 1, 2), track (0 NVTX, 1 API, 2 the
	 * GPU), kind, times and correlation id. */
	static const struct {
		int		 th, tr, kind;
		const char	*name;
		int64_t		 s, e;
		uint32_t	 corr;
	} ev[] = {
		{ 0, 0, EV_NVTX, "outer", 0, 100, 0 },
		{ 0, 0, EV_NVTX, "inner", 10, 50, 0 },
		{ 0, 1, EV_API, "cudaLaunchKernel", 12, 14, 1 },
		{ 0, 1, EV_API, "cudaLaunchKernel", 20, 22, 2 },
		{ 0, 1, EV_API, "cudaGraphLaunch", 60, 62, 3 },
		{ 0, 2, EV_KERNEL, "k1", 60, 70, 1 },
		{ 0, 2, EV_KERNEL, "k2", 30, 40, 2 },
		{ 0, 2, EV_KERNEL, "k3", 65, 90, 3 },
		{ 0, 2, EV_KERNEL, "k4", 95, 99, 3 },
		{ 1, 0, EV_NVTX, "two", 0, 100, 0 },
		{ 1, 1, EV_API, "cudaLaunchKernel", 10, 12, 4 },
		{ 1, 1, EV_API, "cudaLaunchKernel", 20, 22, 5 },
		{ 1, 2, EV_KERNEL, "k5", 110, 120, 4 },
		{ 1, 2, EV_KERNEL, "k6", 115, 140, 5 },
		{ 2, 0, EV_NVTX, "one", 0, 50, 0 },
		{ 2, 1, EV_API, "cudaGraphLaunch", 5, 6, 6 },
		{ 2, 1, EV_API, "cudaLaunchKernel", 7, 8, 7 },
		{ 2, 2, EV_KERNEL, "k7", 10, 20, 6 },
		{ 2, 2, EV_KERNEL, "k8", 10, 20, 6 },
		{ 2, 2, EV_KERNEL, "k9", 25, 30, 7 },
	};
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	uint32_t	 th[3], trk[3][3];
	size_t		 i, nwork, nbusy;

	(void)state;
	th[0] = ts_train(b, 1, 2, NULL, &trk[0][2]);
	th[1] = builder_thread(b, 3, 3, 0, "t3");
	th[2] = builder_thread(b, 4, 4, 0, "t4");
	for (i = 0; i < 3; i++) {
		trk[i][0] = builder_cpu_track(b, TRACK_NVTX, th[i], 0);
		trk[i][1] = builder_cpu_track(b, TRACK_API, th[i], 0);
		trk[i][2] = trk[0][2];
	}
	for (i = 0; i < sizeof ev / sizeof ev[0]; i++)
		ts_add_corr(b, trk[ev[i].th][ev[i].tr], ev[i].name,
		    ev[i].kind, ev[i].s, ev[i].e, ev[i].corr);
	m = ts_finish(b);
	check_proj(m, "test_busy", &nwork, &nbusy);
	assert_int_equal(nwork, 4);
	assert_int_equal(nbusy, 4);
	model_free(m);
}

/*
 * The union's window of kept segments (nvtree-proj.c): range "win" gets
 * 20 disjoint kernels (past the window: the older ones are folded), then
 * work that goes back into the kept ones: across three of them, touching
 * the end of one, into a gap, joining two, inside one. Range "lost" gets
 * 20, then one that starts before the folded ones end: its busy time is
 * left to nvtx_project_with(). Each call launches one kernel.
 */
/*
 * The union's cases one by one (nvtree-un.h, whose common ones are
 * inline), each call launching one kernel, on range "edge": [100,200];
 * [200,250] touches its end (one segment); [251,260] starts just after
 * (a new one); [251,255] starts at the last one's start; [240,300] in the
 * one before the last (merged among the kept ones, joining them); then 16
 * disjoint ones, the window's last (a fold, the 17th); [5001,5001] of no
 * length; [4900,5000] at the end of the folded ones (kept: 100 more);
 * all of it against nvtx_project(). Ranges "after" and "two", on two
 * more threads (with one pool thread, on the arrays "edge" left), get
 * [10,20] and [15,30], [40,50] and [45,60].
 */
static void
test_busy_edges(void **state)
{
	static const int64_t edge[][2] = {
		{ 100, 200 }, { 200, 250 }, { 251, 260 }, { 251, 255 },
		{ 240, 300 },
	};
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	uint32_t	 th[3], gpu, nv[3], api[3], corr = 0;
	size_t		 i, nwork, nbusy;
	int64_t		 t = 10, s;

	(void)state;
	th[0] = ts_train(b, 1, 2, NULL, &gpu);
	th[1] = builder_thread(b, 3, 3, 0, "t3");
	th[2] = builder_thread(b, 4, 4, 0, "t4");
	for (i = 0; i < 3; i++) {
		nv[i] = builder_cpu_track(b, TRACK_NVTX, th[i], 0);
		api[i] = builder_cpu_track(b, TRACK_API, th[i], 0);
	}
	ts_add_corr(b, nv[0], "edge", EV_NVTX, 0, 100000, 0);
	for (i = 0; i < 5 + 16 + 2; i++, t += 10) {
		ts_add_corr(b, api[0], "cudaLaunchKernel", EV_API, t, t + 2,
		    ++corr);
		s = 1000 + 200 * (int64_t)(i - 5);
		if (i < 5)
			ts_add_corr(b, gpu, "k", EV_KERNEL, edge[i][0],
			    edge[i][1], corr);
		else if (i < 5 + 16)
			ts_add_corr(b, gpu, "k", EV_KERNEL, s, s + 100, corr);
		else
			ts_add_corr(b, gpu, "k", EV_KERNEL, i == 21 ? 5001 :
			    4900, i == 21 ? 5001 : 5000, corr);
	}
	for (i = 1; i < 3; i++) {
		ts_add_corr(b, nv[i], i == 1 ? "after" : "two", EV_NVTX, 0,
		    100, 0);
		ts_add_corr(b, api[i], "cudaLaunchKernel", EV_API, 10, 12,
		    ++corr);
		ts_add_corr(b, gpu, "k", EV_KERNEL, i == 1 ? 10 : 40,
		    i == 1 ? 20 : 50, corr);
		ts_add_corr(b, api[i], "cudaLaunchKernel", EV_API, 20, 22,
		    ++corr);
		ts_add_corr(b, gpu, "k", EV_KERNEL, i == 1 ? 15 : 45,
		    i == 1 ? 30 : 60, corr);
	}
	m = ts_finish(b);
	check_proj(m, "test_busy_edges", &nwork, &nbusy);
	assert_int_equal(nwork, 3);
	assert_int_equal(nbusy, 3);
	model_free(m);
}

static void
test_busy_window(void **state)
{
	static const int64_t back[][2] = {
		{ 17050, 19050 }, { 15100, 15100 }, { 14500, 14600 },
		{ 13100, 14000 }, { 9000, 9050 },
	};
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	uint32_t	 gpu, nv, api, corr = 0;
	size_t		 i, r, nwork, nbusy;
	int64_t		 t, base, s, e;

	(void)state;
	(void)ts_train_nvtx(b, 1, 2, NULL, &gpu, &nv, &api);
	ts_add_corr(b, nv, "win", EV_NVTX, 0, 100000, 0);
	ts_add_corr(b, nv, "lost", EV_NVTX, 200000, 300000, 0);
	for (r = 0; r < 2; r++) {
		base = r == 0 ? 0 : 200000;
		for (i = 0; i < 25; i++) {
			t = base + 10 + 10 * (int64_t)i;
			if (i < 20) {
				s = base + 1000 * (int64_t)i + 1000;
				e = s + 100;
			} else if (r == 0) {
				s = back[i - 20][0];
				e = back[i - 20][1];
			} else {
				s = e = base + 1500;
			}
			ts_add_corr(b, api, "cudaLaunchKernel", EV_API, t,
			    t + 2, ++corr);
			ts_add_corr(b, gpu, "k", EV_KERNEL, s, e, corr);
		}
	}
	m = ts_finish(b);
	check_proj(m, "test_busy_window", &nwork, &nbusy);
	assert_int_equal(nwork, 2);
	assert_int_equal(nbusy, 1);	/* "win" */
	model_free(m);
}

static void
rt_check(uint64_t seed)
{
	struct rt		*r = xcalloc(1, sizeof *r);
	struct model		*m;
	struct nvtree		*t;
	const struct nvtree_node *nd;
	const struct lane	*l;
	char			 path[4096], ipath[4096], **rpath;
	size_t			 i, k, n = 0, ninst = 0, nwork, nbusy;
	uint32_t		*rgid;
	int			 th, dm, c, q;
	int64_t			 s, e, lo, hi, cpu, gpu, first, *rgpu;
	uint64_t		 count, with;

	rt_seed = seed;
	m = rt_build(r);
	t = nvtree_open(m);
	/* The brute force, per range: its path and GPU projection. */
	rpath = xcalloc(m->nevents + 1, sizeof *rpath);
	rgid = xcalloc(m->nevents + 1, sizeof *rgid);
	rgpu = xcalloc(m->nevents + 1, sizeof *rgpu);
	for (th = 0; th < RT_THREADS; th++)
	for (dm = 0; dm < RT_DOMAINS; dm++) {
		l = &m->tracks[r->nvtrack[th][dm]].lane;
		for (k = 0; k < l->n; k++) {
			if (l->kind[k] != EV_NVTX)
				continue;
			rgid[n] = model_gid(m, r->nvtrack[th][dm], (uint32_t)k);
			rt_path(m, rgid[n], path, sizeof path);
			rpath[n] = xstrdup(path);
			s = l->start[k];
			e = l->end[k];
			lo = INT64_MAX;
			hi = INT64_MIN;
			for (c = 0; c < r->ncall[th]; c++) {
				const struct rt_call *cl = &r->call[th][c];

				if (cl->s < s || cl->e > e)
					continue;
				for (q = 0; q < cl->ng; q++) {
					if (cl->g[q].s < lo)
						lo = cl->g[q].s;
					if (cl->g[q].e > hi)
						hi = cl->g[q].e;
				}
			}
			rgpu[n++] = lo <= hi ? hi - lo : -1;
		}
	}
	for (i = 0; i < t->nn; i++) {
		nd = &t->n[i];
		if (nd->parent == NONE32)
			continue;
		rt_nodepath(t, i, path, sizeof path);
		count = with = 0;
		cpu = gpu = 0;
		first = INT64_MAX;
		for (k = 0; k < n; k++) {
			if (strcmp(path, rpath[k]) != 0)
				continue;
			s = model_ev_start(m, rgid[k]);
			count++;
			cpu += model_ev_end(m, rgid[k]) - s;
			if (s < first)
				first = s;
			if (rgpu[k] >= 0) {
				gpu += rgpu[k];
				with++;
			}
		}
		if (count != nd->count || cpu != nd->cpu || gpu != nd->gpu ||
		    with != nd->with_gpu || first != nd->first)
			fail_msg("seed %llu node %zu %s: count %llu/%llu cpu "
			    "%lld/%lld gpu %lld/%lld with %llu/%llu first "
			    "%lld/%lld", (unsigned long long)seed, i, path,
			    (unsigned long long)nd->count,
			    (unsigned long long)count, (long long)nd->cpu,
			    (long long)cpu, (long long)nd->gpu, (long long)gpu,
			    (unsigned long long)nd->with_gpu,
			    (unsigned long long)with, (long long)nd->first,
			    (long long)first);
		/* Instances: the node's ranges, in start order. */
		assert_int_equal(nd->ninst, count);
		for (k = 0; k < nd->ninst; k++) {
			rt_path(m, t->inst[nd->inst0 + k], ipath,
			    sizeof ipath);
			assert_string_equal(ipath, path);
			if (k > 0)
				assert_true(model_ev_start(m, t->inst[nd->inst0 +
				    k - 1]) <= model_ev_start(m,
				    t->inst[nd->inst0 + k]));
		}
		ninst += nd->ninst;
	}
	/* Every range is in exactly one node. */
	assert_int_equal(ninst, n);
	for (i = 0; i < t->nroots; i++) {
		nd = &t->n[t->roots[i]];
		for (k = 0, cpu = gpu = 0, with = 0; k < nd->nkids; k++) {
			cpu += t->n[t->kids[nd->kid0 + k]].cpu;
			gpu += t->n[t->kids[nd->kid0 + k]].gpu;
			with += t->n[t->kids[nd->kid0 + k]].with_gpu;
		}
		assert_int_equal(nd->cpu, cpu);
		assert_int_equal(nd->gpu, gpu);
		assert_int_equal(nd->with_gpu, with);
	}
	for (k = 0; k < n; k++)
		free(rpath[k]);
	free(rpath);
	free(rgid);
	free(rgpu);
	nvtree_free(t);
	check_proj(m, "random", &nwork, &nbusy);
	model_free(m);
	free(r);
}

static void
test_random(void **state)
{
	uint64_t	seed;

	(void)state;
	for (seed = 1; seed <= 40; seed++)
		rt_check(seed);
}

/* Whether gid is an instance of node n. */
static int
fixture_has(const struct nvtree *t, uint32_t n, uint32_t gid)
{
	size_t	k;

	for (k = 0; k < t->n[n].ninst; k++)
		if (t->inst[t->n[n].inst0 + k] == gid)
			return 1;
	return 0;
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
	size_t			 i, k, nranges = 0, nwork, nbusy;
	int64_t			 gpu, cpu;
	uint64_t		 with;
	struct evref		 r;
	const struct lane	*l;
	uint32_t		 par;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s: %s", rel, cause);
	t = nvtree_open(m);
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
			/* Below the node of its NVTX parent, or the root. */
			r = model_ev(m, t->inst[nd->inst0 + k]);
			l = &m->tracks[r.track].lane;
			par = l->aux[r.idx] < m->nnvtx ?
			    m->nvtx[l->aux[r.idx]].parent : NONE32;
			if (par == NONE32)
				assert_int_equal(t->n[nd->parent].parent,
				    NONE32);
			else
				assert_true(fixture_has(t, nd->parent, par));
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
	/* Every range's projection, and most busy times. */
	check_proj(m, rel, &nwork, &nbusy);
	assert_true(nbusy * 2 > nwork);
	model_free(m);
}

static void
test_fixtures(void **state)
{
	const char	*dir = ts_need_fixtures();

	(void)state;
	check_fixture(dir, "nsys/nsys-ai/h100_2gpu_1s.sqlite");
	check_fixture(dir, "nsys/nsightful/power_iteration__baseline.sqlite");
	check_fixture(dir, "nsys/nsys-ai/mfu_2gpu_before.sqlite");
}

/*
 * Families in the tree (nvtxfam.h): on mfu_2gpu_before, PyTorch's
 * "aten::..., seq = N, op_id = N" ranges made 9,219 nodes of one range
 * each (of 19,118 ranges) when only "#<digits>" folded; now 553 nodes,
 * 103 of one range.
 */
static void
test_fixture_families(void **state)
{
	const char		*dir = ts_need_fixtures();
	char			 path[4096], *cause = NULL;
	struct model		*m;
	struct nvtree		*t;
	size_t			 i, ones = 0, nodes = 0;
	uint64_t		 ranges = 0;

	(void)state;
	snprintf(path, sizeof path, "%s/nsys/nsys-ai/mfu_2gpu_before.sqlite",
	    dir);
	if ((m = source_read(path, NULL, &cause)) == NULL)
		fail_msg("%s", cause);
	t = nvtree_open(m);
	for (i = 0; i < t->nn; i++) {
		if (t->n[i].parent == NONE32)
			continue;
		nodes++;
		ranges += t->n[i].count;
		if (t->n[i].count == 1)
			ones++;
	}
	if (ranges != 19118 || nodes != 553 || ones != 103)
		fail_msg("ranges %llu nodes %zu one-count %zu",
		    (unsigned long long)ranges, nodes, ones);
	nvtree_free(t);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_aggregates),
	cmocka_unit_test(test_sort_and_flatten),
	cmocka_unit_test(test_empty),
	cmocka_unit_test(test_random),
	cmocka_unit_test(test_busy),
	cmocka_unit_test(test_busy_window),
	cmocka_unit_test(test_busy_edges),
	cmocka_unit_test(test_fixtures),
	cmocka_unit_test(test_fixture_families))
