/*
 * launch_times_test: the statistics of a `gpulens launch` group's four
 * times (analysis/launch-times.c), where its samples are narrow found from
 * histograms over the samples with the queue and total times made on the
 * fly, against the plain way (the values made into an array and computed
 * there), to the bit. The groups are built to reach every edge: one or
 * two parts (the two walkers'), negative delays, too few values for the
 * histograms, too few queue times, a spread just below 2^32 and one past
 * it, a wide sample, equal values (buckets of one value, no gathering
 * pass), values in order, and the parts' values far from one another.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/launch-times.h"
#include "analysis/launch-walk.h"
#include "tsupport.h"

/* How a part's times are drawn: value = lo + a draw below span (span 0:
 * lo itself; step: lo + i * step instead, in order; mid: the first value
 * lo + span / 2, so that a span of 2^32 - 2 stays narrow). */
struct draw {
	int64_t		 lo, span, step;
	int		 mid;
};

struct part {
	size_t		 n;
	struct draw	 api, kernel, delay;
	int64_t		 wide;		/* != 0: the last API time */
};

static uint64_t	rng = 0x9E3779B97F4A7C15ULL;

static int64_t
draw(const struct draw *d, size_t i)
{
	if (d->step != 0)
		return d->lo + (int64_t)i * d->step;
	if (d->span == 0)
		return d->lo;
	if (d->mid && i == 0)
		return d->lo + d->span / 2;
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return d->lo + (int64_t)(rng % (uint64_t)d->span);
}

static void
fill(struct launch_group *g, const struct part *p)
{
	size_t	i;

	memset(g, 0, sizeof *g);
	launch_group_init(g);
	for (i = 0; i < p->n; i++)
		launch_group_add(g, p->wide != 0 && i + 1 == p->n ? p->wide :
		    draw(&p->api, i), draw(&p->kernel, i),
		    draw(&p->delay, i));
}

static void
group_free(struct launch_group *g)
{
	int	j;

	for (j = 0; j < LS_COUNT; j++)
		stats_sample_free(&g->s[j]);
}

/* Group a (and b, as the second walker's part, where b->n > 0) both
 * ways, and where its times may be computed one by one, that way too, in
 * the reverse order: the same statistics. */
static void
check(const struct part *a, const struct part *b)
{
	static const char	*name[LT_COUNT] = {
		"api", "queue", "kernel", "total"
	};
	struct launch_scratch	 sc;
	struct launch_group	 g[3], h[3];
	struct stats		 st[3][LT_COUNT];
	uint64_t		 seed = rng;
	int			 k, j, split = 0;

	memset(&sc, 0, sizeof sc);
	for (k = 0; k < 3; k++) {
		rng = seed;		/* the same values every time */
		fill(&g[k], a);
		if (b != NULL) {
			fill(&h[k], b);
			launch_group_join(&g[k], &h[k]);
		}
		if (k == 0)
			launch_times(&sc, &g[k], st[k]);
		else if (k == 1)
			launch_times_plain(&sc, &g[k], st[k]);
		else if ((split = launch_times_split(&g[k])) != 0)
			for (j = LT_COUNT; j-- > 0; )
				launch_time_one(&sc, &g[k], j, &st[k][j]);
		group_free(&g[k]);
		if (b != NULL)
			group_free(&h[k]);
	}
	/* Split only where every sample is narrow. */
	assert_int_equal(split, a->wide == 0 && (b == NULL || b->wide == 0));
	if (split)
		for (j = 0; j < LT_COUNT; j++)
			assert_memory_equal(&st[2][j], &st[1][j],
			    sizeof st[2][j]);
	for (j = 0; j < LT_COUNT; j++) {
		print_message("%s: count %llu\n", name[j],
		    (unsigned long long)st[1][j].count);
		assert_int_equal(st[0][j].count, st[1][j].count);
		assert_int_equal(st[0][j].total, st[1][j].total);
		assert_int_equal(st[0][j].min, st[1][j].min);
		assert_int_equal(st[0][j].max, st[1][j].max);
		assert_true(st[0][j].mean == st[1][j].mean);
		assert_true(st[0][j].median == st[1][j].median);
		assert_true(st[0][j].stddev == st[1][j].stddev);
		assert_true(st[0][j].p90 == st[1][j].p90);
		assert_true(st[0][j].p99 == st[1][j].p99);
		assert_memory_equal(&st[0][j], &st[1][j], sizeof st[0][j]);
	}
	launch_times_free(&sc);
}

/* Times like a trace's: microseconds of API, delays of both signs. */
static const struct part typical = {
	5000, { 3500, 40000, 0, 0 }, { 1000, 2000000, 0, 0 },
	{ -20000, 300000000, 0, 0 }, 0
};

static void
test_one_part(void **state)
{
	struct part	p = typical;

	(void)state;
	check(&p, NULL);
	p.n = 70000;		/* past the histogram's 2^16 buckets */
	check(&p, NULL);
}

static void
test_two_parts(void **state)
{
	struct part	a = typical, b = typical;

	(void)state;
	/* The other walker's part far from the first's bases. */
	b.n = 3000;
	b.api.lo = 900000;
	b.kernel.lo = 5;
	b.delay.lo = 1500000000;
	check(&a, &b);
	/* Too few in either alone, enough together. */
	a.n = 40;
	b.n = 40;
	check(&a, &b);
}

static void
test_few(void **state)
{
	struct part	p = typical;

	(void)state;
	p.n = 63;		/* too few for the histograms */
	check(&p, NULL);
	p.n = 64;
	check(&p, NULL);
	/* Enough values, too few queue times. */
	p.n = 1000;
	p.delay.lo = -1000000;
	p.delay.span = 1010000;
	check(&p, NULL);
	/* No queue time at all. */
	p.delay.span = 999999;
	check(&p, NULL);
}

static void
test_spread(void **state)
{
	struct part	p = typical;

	(void)state;
	/*
	 * Narrow samples: API times that spread just below 2^32 (keys of
	 * 32 bits), total times that spread past it (the plain way).
	 */
	p.api.lo = INT32_MIN + 1;
	p.api.span = (int64_t)UINT32_MAX - 2;
	p.api.mid = 1;
	p.delay.lo = 0;
	p.delay.span = INT32_MAX;
	p.delay.mid = 1;
	p.kernel.lo = 0;
	p.kernel.span = 1000;
	check(&p, NULL);
	/* A wide API sample: every time the plain way. */
	p = typical;
	p.wide = (int64_t)1 << 40;
	check(&p, NULL);
}

static void
test_shapes(void **state)
{
	struct part	p = typical;

	(void)state;
	/* Every value the same: one value a bucket. */
	p.api.span = 0;
	p.kernel.span = 0;
	p.delay.span = 0;
	p.delay.lo = 7;
	check(&p, NULL);
	/* In order, and the delays negative then not. */
	p = typical;
	p.api.step = 3;
	p.kernel.step = 1000;
	p.delay.lo = -2500;
	p.delay.step = 1;
	check(&p, NULL);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_one_part),
	cmocka_unit_test(test_two_parts),
	cmocka_unit_test(test_few),
	cmocka_unit_test(test_spread),
	cmocka_unit_test(test_shapes))
