/*
 * launch_walk_test: the groups of `gpulens launch` (analysis/launch-walk.c)
 * found through the group cache, which also answers whether a call's name
 * launches graphs, and shared out to two walkers, against the plain walk
 * (one walker, every kernel's group and replay looked up anew), group by
 * group: the same keys, first kernels, counts, ranges and values. The
 * trace is built to reach the edges: two threads launching onto three
 * streams of two devices, versioned and plain call names, graph launches
 * whose first kernel counts and whose others are replays, kernels without
 * a launching call, negative delays, and more distinct kernel names than
 * the cache has entries (entries refilled with other keys). And a
 * group's samples filled three at a time (launch_group_add()) against
 * each filled on its own (stats_sample_add()).
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

#include "analysis/launch.h"
#include "analysis/launch-times.h"
#include "analysis/launch-walk.h"
#include "headless/opts.h"
#include "headless/select.h"
#include "headless/worksel.h"
#include "model/builder.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define NCALL	6000		/* launching calls */

static struct model *
build(void)
{
	static const char *const	 apis[] = {
		"cudaLaunchKernel", "cudaLaunchKernel_v7000",
		"cuLaunchKernelEx"
	};
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 d0, d1, p, th[2], api[2], g[3], k, j, n;
	char		 name[32];
	int64_t		 t, ks;

	d0 = ts_device(b, 0);
	d1 = ts_device(b, 1);
	p = builder_process(b, 100, 100, "a");
	th[0] = builder_thread(b, 1, 1, p, "main");
	th[1] = builder_thread(b, 2, 2, p, "side");
	api[0] = builder_cpu_track(b, TRACK_API, th[0], 0);
	api[1] = builder_cpu_track(b, TRACK_API, th[1], 0);
	g[0] = builder_gpu_track(b, builder_stream(b, d0, 7, p));
	g[1] = builder_gpu_track(b, builder_stream(b, d0, 8, p));
	g[2] = builder_gpu_track(b, builder_stream(b, d1, 9, p));
	for (k = 0; k < NCALL; k++) {
		t = (int64_t)k * 100;
		/* Kernel names: a few, and from call 1000 on mostly one of
		 * their own (more keys than the cache's entries). */
		if (k >= 1000 && k % 4 != 0)
			snprintf(name, sizeof name, "k%u", k);
		else
			snprintf(name, sizeof name, "kern%u", k % 5);
		if (k % 50 == 7) {
			/* A graph launch of three kernels on one stream. */
			ts_add_corr(b, api[k % 2], "cudaGraphLaunch_v10000",
			    EV_API, t, t + 4, k + 1);
			for (j = 0; j < 3; j++)
				ts_add_corr(b, g[(k / 3) % 3], name,
				    EV_KERNEL, t + 10 + 25 * j,
				    t + 20 + 25 * j, k + 1);
			continue;
		}
		n = k % 37 == 5 ? k + 1000000 : k + 1;	/* no call */
		if (n == k + 1)
			ts_add_corr(b, api[k % 2], apis[k % 3], EV_API, t,
			    t + 5 + k % 7, n);
		ks = t + (int64_t)(k % 5) * 3 - 4;	/* delay may be < 0 */
		ts_add_corr(b, g[(k / 3) % 3], name, EV_KERNEL, ks,
		    ks + 1 + k % 11, n);
	}
	return ts_finish(b);
}

/* The values of a group's part: (api, kernel, delay) per kernel. */
static size_t
triples(const struct launch_group *g, int64_t *v, size_t k)
{
	size_t	i;
	int	j;

	for (i = 0; i < g->s[LS_DELAY].n; i++, k++)
		for (j = 0; j < LS_COUNT; j++)
			v[k * LS_COUNT + (size_t)j] =
			    stats_sample_at(&g->s[j], i);
	return k;
}

static int
triple_cmp(const void *a, const void *b)
{
	const int64_t	*x = a, *y = b;
	int		 j;

	for (j = 0; j < LS_COUNT; j++)
		if (x[j] != y[j])
			return x[j] < y[j] ? -1 : 1;
	return 0;
}

/* The group of c whose first kernel is first (fails if none). */
static size_t
by_first(const struct launch_ctx *c, uint32_t first)
{
	size_t	gi;

	for (gi = 0; gi < c->map.ng; gi++)
		if (c->g[gi].first == first)
			return gi;
	fail_msg("no group of first kernel %u", first);
	return 0;
}

/* A group's sorted values (both parts) into *v; returns their number. */
static size_t
values(const struct launch_group *g, int64_t **v)
{
	size_t	n = g->s[LS_DELAY].n + (g->x != NULL ? g->x->s[LS_DELAY].n :
		    0), k;

	*v = xreallocarray(NULL, n + 1, LS_COUNT * sizeof **v);
	k = triples(g, *v, 0);
	if (g->x != NULL)
		k = triples(g->x, *v, k);
	assert_int_equal(k, n);
	qsort(*v, n, LS_COUNT * sizeof **v, triple_cmp);
	return n;
}

/* Group gi of a and group hi of b: the same key, counts and values. */
static void
same_group(const struct launch_ctx *a, size_t gi, const struct launch_ctx *b,
    size_t hi)
{
	const struct launch_group	*g = &a->g[gi], *h = &b->g[hi];
	const uint32_t			*ka = group_map_key(&a->map, gi);
	const uint32_t			*kb = group_map_key(&b->map, hi);
	int64_t				*va, *vb;
	size_t				 na, nb;
	int				 j;

	for (j = 0; j < a->naxes; j++) {
		if (a->axes[j] <= LA_SHORT)
			assert_string_equal(group_str(&a->names, ka[j]),
			    group_str(&b->names, kb[j]));
		else
			assert_int_equal(ka[j], kb[j]);
	}
	assert_int_equal(g->nshort, h->nshort);
	assert_int_equal(g->nqueue, h->nqueue);
	for (j = 0; j < LT_COUNT; j++) {
		assert_int_equal(g->lo[j], h->lo[j]);
		assert_int_equal(g->hi[j], h->hi[j]);
	}
	na = values(g, &va);
	nb = values(h, &vb);
	assert_int_equal(na, nb);
	assert_memory_equal(va, vb, na * LS_COUNT * sizeof *va);
	free(va);
	free(vb);
}

/*
 * Walks m's kernels grouped by axes: c through the cache (two walkers
 * where the selection allows), against the plain walk; glob: a name filter
 * (the kernels are then selected one by one: one walker).
 */
static void
agree(const struct model *m, const char *axes, const char *glob)
{
	static const char *const	 names[LA_COUNT] = {
		"api", "name", "short-name", "device", "stream", "pid", "tid"
	};
	struct launch_ctx	 c, c2, r, r2;
	struct launch_sel	 ls;
	struct opts		 o;
	struct sel		 s;
	char			*cause = NULL;
	int			 ax[LA_COUNT], nax;
	size_t			 gi;

	memset(&o, 0, sizeof o);
	o.from = o.to = OPT_TIME_UNSET;
	o.iter = -1;
	o.device = o.stream = o.pid = o.tid = -1;
	o.type = EV_KERNEL;
	o.name_glob = glob;
	assert_int_equal(group_parse_axes(axes, "api,name", names, LA_COUNT,
	    GROUP_NONE | GROUP_UNIQUE, ax, &nax, &cause), 0);
	assert_int_equal(sel_init(&s, m, &o, &cause), 0);
	memset(&c2, 0, sizeof c2);
	memset(&r2, 0, sizeof r2);
	worksel_launch(&ls, &s);
	launch_walk_init(&c, m, ax, nax, &ls);
	launch_walk(&c, &c2);
	/* The plain walk: no cache, one walker (r2 left unused). */
	launch_walk_init(&r, m, ax, nax, &ls);
	r.memo_ok = 0;
	o.name_glob = "*";
	sel_free(&s);
	assert_int_equal(sel_init(&s, m, &o, &cause), 0);
	worksel_launch(&ls, &s);
	launch_walk(&r, &r2);
	assert_null(r2.g);
	assert_int_equal(c.nsel, r.nsel);
	assert_int_equal(c.unlinked, r.unlinked);
	assert_int_equal(c.replayed, r.replayed);
	assert_true(r.unlinked > 0);
	assert_true(r.replayed > 0);
	assert_int_equal(c.map.ng, r.map.ng);
	for (gi = 0; gi < r.map.ng; gi++)
		same_group(&c, by_first(&c, r.g[gi].first), &r, gi);
	launch_walk_free(&c);
	launch_walk_free(&c2);
	launch_walk_free(&r);
	launch_walk_free(&r2);
	sel_free(&s);
}

static void
test_agree(void **state)
{
	struct model	*m = build();

	(void)state;
	agree(m, "api,name", NULL);
	agree(m, "api,name", "*");
	agree(m, "pid,tid,device,api,name", NULL);
	agree(m, "stream,api", NULL);
	agree(m, "none", NULL);
	agree(m, "short-name", NULL);
	model_free(m);
}

/* Sample a and b hold the same values the same way (narrow or wide). */
static void
same_sample(const struct stats_sample *a, const struct stats_sample *b)
{
	size_t	i;

	assert_int_equal(a->n, b->n);
	assert_int_equal(a->w == NULL, b->w == NULL);
	if (a->w == NULL)
		assert_int_equal(a->base, b->base);
	for (i = 0; i < a->n; i++)
		assert_int_equal(stats_sample_at(a, i), stats_sample_at(b, i));
}

/*
 * launch_group_add() stores a kernel's three times at once while the
 * samples are narrow and have room: the same samples as stats_sample_add()
 * of each time, through growth, values at the ends of the narrow range
 * and past them, one sample widened while the others stay narrow, and
 * values near the first that come to +-2^62.
 */
static void
test_group_add(void **state)
{
	static const int64_t	 edge[] = {
		0, 1, -1, INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN,
		(int64_t)INT32_MIN - 1, (int64_t)1 << 62,
		((int64_t)1 << 62) - 1, -((int64_t)1 << 62), INT64_MAX,
		INT64_MIN
	};
	struct launch_group	 g;
	struct stats_sample	 s[LS_COUNT];
	int64_t			 v[LS_COUNT];
	size_t			 i, ne = sizeof edge / sizeof *edge;
	int			 j, round;

	(void)state;
	for (round = 0; round < 6; round++) {
		memset(&g, 0, sizeof g);
		launch_group_init(&g);
		for (j = 0; j < LS_COUNT; j++)
			stats_sample_init(&s[j]);
		/* (Rounds 4 and 5 end before a growth, where a sample kept
		 * narrow by mistake would be widened after all.) */
		for (i = 0; i < (round >= 4 ? 4000u : 5000u); i++) {
			for (j = 0; j < LS_COUNT; j++)
				v[j] = (int64_t)((i * 7919 + (size_t)j * 104729) %
				    100000) - 20000;
			/* Rounds 4 and 5: values that stay within 2^31 of
			 * the first but come to 2^62 and -2^62 - 1 (too
			 * far from 0 for an offset). */
			for (j = 0; round >= 4 && j < LS_COUNT; j++)
				v[j] = (round == 4 ? ((int64_t)1 << 62) - 3000 :
				    -((int64_t)1 << 62) + 3000) +
				    (int64_t)i * (round == 4 ? 1 : -1) +
				    (int64_t)j;
			/* An edge value in one time of some kernels: from
			 * kernel 3000 on (round 1: 0 on), or never (3). */
			if (round < 3 && i >= (round == 1 ? 0u : 3000u) &&
			    i % 97 == 0)
				v[(i / 97) % LS_COUNT] = edge[(i / 97 +
				    (size_t)round) % ne];
			/* Round 2: the API time alone goes wide. */
			if (round == 2 && i == 2500)
				v[LS_API] = INT64_MAX / 2;
			launch_group_add(&g, v[LS_API], v[LS_KERNEL],
			    v[LS_DELAY]);
			for (j = 0; j < LS_COUNT; j++)
				stats_sample_add(&s[j], v[j]);
		}
		for (j = 0; j < LS_COUNT; j++) {
			same_sample(&g.s[j], &s[j]);
			stats_sample_free(&g.s[j]);
			stats_sample_free(&s[j]);
		}
	}
}

/*
 * A thread launching NBIG kernels on two streams, two API names, five
 * kernel names: with --group-by none one group larger than any thread's
 * share, whose times launch_build() computes one by one on the pool.
 */
#define NBIG	70000

static struct model *
build_big(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 d, p, th, api, g[2], k;
	char		 name[32];
	int64_t		 t, ks;

	d = ts_device(b, 0);
	p = builder_process(b, 100, 100, "a");
	th = builder_thread(b, 1, 1, p, "main");
	api = builder_cpu_track(b, TRACK_API, th, 0);
	g[0] = builder_gpu_track(b, builder_stream(b, d, 7, p));
	g[1] = builder_gpu_track(b, builder_stream(b, d, 8, p));
	for (k = 0; k < NBIG; k++) {
		t = (int64_t)k * 1000;
		snprintf(name, sizeof name, "kern%u", k % 5);
		ts_add_corr(b, api, k % 3 ? "cudaLaunchKernel" :
		    "cuLaunchKernel", EV_API, t, t + 5 + (k * 7919) % 97,
		    k + 1);
		ks = t + (int64_t)((k * 104729) % 600) - 100;
		ts_add_corr(b, g[k % 2], name, EV_KERNEL, ks,
		    ks + 1 + (k * 31) % 211, k + 1);
	}
	return ts_finish(b);
}

/*
 * launch_build() on threads threads against each group's statistics
 * computed the plain way (launch_times_plain()) from a walk of its own.
 */
static void
built(const struct model *m, const char *axes, const char *threads)
{
	static const char *const	 names[LA_COUNT] = {
		"api", "name", "short-name", "device", "stream", "pid", "tid"
	};
	struct launch_result	 r;
	struct launch_ctx	 c, c2;
	struct launch_scratch	 sc;
	struct launch_sel	 ls;
	struct stats		 st[LT_COUNT];
	struct opts		 o;
	struct sel		 s;
	char			*cause = NULL;
	int			 ax[LA_COUNT], nax, j;
	size_t			 k, gi, big = 0;

	memset(&o, 0, sizeof o);
	o.from = o.to = OPT_TIME_UNSET;
	o.iter = -1;
	o.device = o.stream = o.pid = o.tid = -1;
	o.type = EV_KERNEL;
	assert_int_equal(group_parse_axes(axes, "api,name", names, LA_COUNT,
	    GROUP_NONE | GROUP_UNIQUE, ax, &nax, &cause), 0);
	assert_int_equal(sel_init(&s, m, &o, &cause), 0);
	worksel_launch(&ls, &s);
	assert_int_equal(setenv("GPULENS_THREADS", threads, 1), 0);
	launch_build(m, ax, nax, &ls, &r);
	assert_int_equal(unsetenv("GPULENS_THREADS"), 0);
	memset(&c2, 0, sizeof c2);
	memset(&sc, 0, sizeof sc);
	launch_walk_init(&c, m, ax, nax, &ls);
	launch_walk(&c, &c2);
	assert_int_equal(r.ng, c.map.ng);
	assert_int_equal(r.nsel, c.nsel);
	for (k = 0; k < r.ng; k++) {
		/* In the order of the groups' first kernels. */
		gi = r.order[k];
		if (k > 0)
			assert_true(r.c.g[r.order[k - 1]].first <
			    r.c.g[gi].first);
		launch_times_plain(&sc, &c.g[by_first(&c, r.c.g[gi].first)],
		    st);
		assert_int_equal(r.c.g[gi].n, (int64_t)st[LT_KERNEL].count);
		if (r.c.g[gi].n > NBIG / 2)
			big++;
		for (j = 0; j < LT_COUNT; j++)
			assert_memory_equal(&r.st[gi * LT_COUNT + (size_t)j],
			    &st[j], sizeof st[j]);
	}
	/* "none": one group of every kernel. */
	assert_true(nax > 0 || (r.ng == 1 && big == 1));
	launch_times_free(&sc);
	launch_walk_free(&c);
	launch_walk_free(&c2);
	launch_free(&r);
	sel_free(&s);
}

static void
test_build(void **state)
{
	struct model	*m = build_big();

	(void)state;
	built(m, "none", "2");
	built(m, "none", "1");
	built(m, "api", "2");
	built(m, "api,name", "2");
	model_free(m);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_agree),
		cmocka_unit_test(test_group_add),
		cmocka_unit_test(test_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
