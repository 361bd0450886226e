/*
 * nvgroup_test: NVTX ranges grouped by (domain, family path, style)
 * (analysis/nvgroup.h). On a model built by hand, two processes whose
 * ranges fall into the same groups, every sum worked out on paper; on the
 * real fixtures (GPULENS_FIXTURES), every group against a brute force
 * over the ranges (paths folded through the NVTX parents, GPU sums from
 * nvtx_project() range by range, groups in order of their first range),
 * with one pool thread, with four, and grouped before the sweep (a
 * selection that must stay on one thread): the same groups each way.
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

#include "analysis/nvgroup.h"
#include "model/builder.h"
#include "model/nvtx.h"
#include "model/nvtxfam.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

/*
 * Process 1, thread 2: ts_nvtx_steps() (Step#1 and Step#2, each with fwd
 * and bwd, init; kernels in Step#1/fwd and Step#1/bwd, a copy in
 * Step#2/fwd). Process 3, thread 4:
 *   Step#7 [0,50]: fwd [5,20]
 *   [6,7] -> kernel [10,14] and kernel [12,18] (Step#7/fwd)
 */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 nv, api, gpu;

	(void)ts_nvtx_steps(b, 1, 2, 1);
	(void)ts_train_nvtx(b, 3, 4, NULL, &gpu, &nv, &api);
	ts_add_corr(b, nv, "Step#7", EV_NVTX, 0, 50, 0);
	ts_add_corr(b, nv, "fwd", EV_NVTX, 5, 20, 0);
	ts_add_corr(b, api, "cudaLaunchKernel", EV_API, 6, 7, 5);
	ts_add_corr(b, gpu, "k4", EV_KERNEL, 10, 14, 5);
	ts_add_corr(b, gpu, "k5", EV_KERNEL, 12, 18, 5);
	return ts_finish(b);
}

/* Every track, and of its events the ranges (not the marks), as `nvtx`
 * selects them; every thread may share the callbacks. */
static int
all_tracks(void *arg, uint32_t t)
{
	(void)arg;
	(void)t;
	return 1;
}

static int
ranges_only(void *arg, uint32_t t, uint32_t i)
{
	const struct model	*m = arg;

	return m->tracks[t].lane.kind[i] == EV_NVTX;
}

static void
sel_all(struct nvgroup_sel *ns, const struct model *m, int shared)
{
	memset(ns, 0, sizeof *ns);
	ns->arg = (void *)(uintptr_t)m;
	ns->t0 = INT64_MIN;
	ns->t1 = INT64_MAX;
	ns->track = all_tracks;
	ns->event = ranges_only;
	ns->shared = shared;
}

static const struct nvgroup *
group(struct nvgroups *r, const char *path)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (strcmp(nvtx_pathset_str(&r->np, r->g[i].path), path) == 0)
			return &r->g[i];
	fail_msg("no group %s", path);
	return NULL;
}

static void
test_hand(void **state)
{
	static const char *const order[] = {
		"init", "Step#*", "Step#*/fwd", "Step#*/bwd"
	};
	struct model		*m = build();
	struct nvgroup_sel	 ns;
	struct nvgroups		 r;
	const struct nvgroup	*g;
	struct stats		 st;
	struct stats_acc	 sc;
	size_t			 i;

	(void)state;
	sel_all(&ns, m, 1);
	setenv("GPULENS_THREADS", "2", 1);
	nvgroups_build(m, &ns, &r);
	unsetenv("GPULENS_THREADS");
	assert_int_equal(r.n, 4);
	/* In the order of their first ranges (a lane is in start order),
	 * across both processes. */
	for (i = 0; i < r.n; i++)
		assert_string_equal(nvtx_pathset_str(&r.np, r.g[i].path),
		    order[i]);
	stats_acc_init(&sc);
	/* Steps: 1 [0,100] over 20..100, busy 10 + 40, 2 kernels;
	 * 2 [100,200] over the copy 120..125; 7 [0,50] over 10..18,
	 * busy 8, 2 kernels. */
	g = group(&r, "Step#*");
	stats_sample_compute((struct stats_sample *)&g->cpu, &st, &sc);
	assert_int_equal(st.count, 3);
	assert_int_equal(st.total, 250);
	assert_int_equal(g->proj_total, 80 + 5 + 8);
	assert_int_equal(g->busy_total, 50 + 5 + 8);
	assert_int_equal(g->kernels, 4);
	assert_int_equal(g->with_gpu, 3);
	assert_int_equal(g->depth, 0);
	assert_string_equal(g->name, "Step#*");
	g = group(&r, "Step#*/fwd");
	stats_sample_compute((struct stats_sample *)&g->cpu, &st, &sc);
	assert_int_equal(st.count, 3);
	assert_int_equal(st.total, 30 + 30 + 15);
	assert_int_equal(g->proj_total, 10 + 5 + 8);
	assert_int_equal(g->busy_total, 10 + 5 + 8);
	assert_int_equal(g->kernels, 1 + 0 + 2);
	assert_int_equal(g->with_gpu, 3);
	assert_int_equal(g->depth, 1);
	assert_string_equal(g->name, "fwd");
	g = group(&r, "Step#*/bwd");
	stats_sample_compute((struct stats_sample *)&g->cpu, &st, &sc);
	assert_int_equal(st.count, 2);
	assert_int_equal(g->proj_total, 40);
	assert_int_equal(g->with_gpu, 1);
	g = group(&r, "init");
	assert_int_equal(g->with_gpu, 0);
	assert_int_equal(g->busy_total, 0);
	stats_acc_free(&sc);
	nvgroups_free(&r);
	model_free(m);
}

/* A brute-force group: the key, the first range and the sums. */
struct bgroup {
	char		 key[4200];
	uint32_t	 first_t, first_i;
	uint64_t	 count, kernels, with_gpu;
	int64_t		 cpu, proj, busy, depth;
};

/* The family path of range gid through the NVTX parents. */
static void
bf_path(const struct model *m, uint32_t gid, char *buf, size_t len)
{
	struct evref		 r = model_ev(m, gid);
	const struct lane	*l = &m->tracks[r.track].lane;
	char			 fam[256], up[4096 - 256];
	uint32_t		 aux = l->aux[r.idx], par = NONE32;

	nvtx_family(model_str(m, l->name[r.idx]), fam, sizeof fam);
	if (aux != NONE32 && aux < m->nnvtx)
		par = m->nvtx[aux].parent;
	if (par == NONE32 || par >= gid)
		up[0] = '\0';
	else {
		bf_path(m, par, up, sizeof up);
		strcat(up, "/");
	}
	if (snprintf(buf, len, "%s%s", up, fam) >= (int)len)
		fail_msg("range %u: path too long", gid);
}

/* The groups of every range of m, one at a time, in track order. */
static struct bgroup *
bf_groups(const struct model *m, size_t *n)
{
	struct bgroup		*g = NULL;
	struct nvtx_proj	 p;
	char			 path[4096], key[4200];
	size_t			 cap = 0, k;
	uint32_t		 t, i, gid;

	*n = 0;
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_NVTX)
			continue;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_NVTX)
				continue;
			gid = model_gid(m, t, i);
			bf_path(m, gid, path, sizeof path);
			if (snprintf(key, sizeof key, "%u|%s|%d",
			    m->tracks[t].domain, path,
			    (l->flags[i] & EVF_STARTEND) != 0) >=
			    (int)sizeof key)
				fail_msg("range %u: key too long", gid);
			for (k = 0; k < *n && strcmp(g[k].key, key) != 0; k++)
				;
			if (k == *n) {
				XGROW(g, cap, *n + 1);
				memset(&g[k], 0, sizeof g[k]);
				memcpy(g[k].key, key, sizeof key);
				g[k].first_t = t;
				g[k].first_i = i;
				g[k].depth = nvtx_depth(m, gid);
				(*n)++;
			}
			g[k].count++;
			g[k].cpu += l->end[i] - l->start[i];
			nvtx_project(m, gid, &p);
			if (p.nops > 0) {
				g[k].with_gpu++;
				g[k].proj += p.end - p.start;
				g[k].kernels += p.nkernels;
				g[k].busy += p.busy;
			}
		}
	}
	return g;
}

static void
check_against(const struct model *m, struct nvgroups *r,
    const struct bgroup *b, size_t nb, const char *what)
{
	struct stats		 st;
	struct stats_acc	 sc;
	char			 key[4200];
	size_t			 i;

	if (r->n != nb)
		fail_msg("%s: %zu groups, brute force %zu", what, r->n, nb);
	stats_acc_init(&sc);
	for (i = 0; i < nb; i++) {
		const struct nvgroup *g = &r->g[i];
		if (snprintf(key, sizeof key, "%u|%s|%d", g->domain,
		    nvtx_pathset_str(&r->np, g->path), g->startend) >=
		    (int)sizeof key)
			fail_msg("%s: group %zu: key too long", what, i);
		stats_sample_compute((struct stats_sample *)&g->cpu, &st, &sc);
		if (strcmp(key, b[i].key) != 0 || st.count != b[i].count ||
		    st.total != b[i].cpu || g->proj_total != b[i].proj ||
		    g->busy_total != b[i].busy || g->kernels != b[i].kernels ||
		    g->with_gpu != b[i].with_gpu || g->depth != b[i].depth ||
		    g->first_t != b[i].first_t || g->first_i != b[i].first_i)
			fail_msg("%s: group %zu %s (count %llu busy %lld), "
			    "brute force %s (count %llu busy %lld)", what, i,
			    key, (unsigned long long)st.count,
			    (long long)g->busy_total, b[i].key,
			    (unsigned long long)b[i].count,
			    (long long)b[i].busy);
	}
	stats_acc_free(&sc);
}

static void
check_model(const struct model *m, const char *what, size_t *ngroups)
{
	static const char *const threads[] = { "1", "4" };
	struct nvgroup_sel	 ns;
	struct nvgroups		 r;
	struct bgroup		*b;
	size_t			 nb, k;
	char			 name[600];

	b = bf_groups(m, &nb);
	for (k = 0; k < 3; k++) {
		setenv("GPULENS_THREADS", threads[k % 2], 1);
		sel_all(&ns, m, k < 2);
		nvgroups_build(m, &ns, &r);
		snprintf(name, sizeof name, "%s, %s thread(s)%s", what,
		    threads[k % 2], k < 2 ? "" : ", grouped first");
		check_against(m, &r, b, nb, name);
		nvgroups_free(&r);
	}
	unsetenv("GPULENS_THREADS");
	*ngroups = nb;
	free(b);
}

static void
test_hand_brute(void **state)
{
	struct model	*m = build();
	size_t		 n;

	(void)state;
	check_model(m, "hand", &n);
	assert_int_equal(n, 4);
	model_free(m);
}

static void
check_fixture(const char *dir, const char *rel, size_t want)
{
	char		 path[4096], *cause = NULL;
	struct model	*m;
	size_t		 n;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	if ((m = source_read(path, NULL, &cause)) == NULL)
		fail_msg("%s: %s", rel, cause);
	check_model(m, rel, &n);
	if (n != want)
		fail_msg("%s: %zu groups, want %zu", rel, n, want);
	model_free(m);
}

static void
test_fixtures(void **state)
{
	const char	*dir = ts_need_fixtures();

	(void)state;
	check_fixture(dir, "nsys/nsys-ai/mfu_2gpu_before.sqlite", 282);
	check_fixture(dir, "nsys/nsightful/power_iteration__baseline.sqlite",
	    8);
	check_fixture(dir, "kineto/hta/nccl_parser_config__nccl_data.json.gz",
	    137);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_hand),
	cmocka_unit_test(test_hand_brute),
	cmocka_unit_test(test_fixtures))
