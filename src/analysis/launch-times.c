/*
 * launch-times: the statistics of a launch group's four times
 * (launch-times.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats-hist.h"
#include "analysis/launch-times.h"
#include "util/xmalloc.h"

#define LAUNCH_FUSE_MIN	64	/* fewer values: the plain way */

/* Appends the values of time j of g's kernels to v at k; returns k. */
static size_t
launch_made(const struct launch_group *g, int j, int64_t *v, size_t k)
{
	const struct stats_sample	*d = &g->s[LS_DELAY];
	int64_t				 x;
	size_t				 i;

	for (i = 0; i < d->n; i++) {
		x = stats_sample_at(d, i);
		switch (j) {
		case LT_API:
			v[k++] = stats_sample_at(&g->s[LS_API], i);
			break;
		case LT_KERNEL:
			v[k++] = stats_sample_at(&g->s[LS_KERNEL], i);
			break;
		case LT_QUEUE:
			if (x >= 0)
				v[k++] = x;
			break;
		default:
			v[k++] = launch_total(stats_sample_at(&g->s[LS_API],
			    i), stats_sample_at(&g->s[LS_KERNEL], i), x);
			break;
		}
	}
	return k;
}

/* launch_time() of a group whose kernels both walkers added. */
static void
launch_time_parts(struct launch_scratch *c, struct launch_group *g, int j,
    struct stats *st)
{
	size_t	k;

	XGROW(c->made.v, c->made.cap, g->s[LS_DELAY].n +
	    g->x->s[LS_DELAY].n);
	k = launch_made(g, j, c->made.v, 0);
	k = launch_made(g->x, j, c->made.v, k);
	stats_compute_any(c->made.v, k, st, &c->sorted);
}

/*
 * The statistics of a group's time j the plain way: the API and kernel
 * times straight from their samples, the queue times filtered from the
 * delays (as offsets while those are narrow), the total times made from
 * the three samples. A wide sample is sorted in place.
 */
static void
launch_time(struct launch_scratch *c, struct launch_group *g, int j,
    struct stats *st)
{
	struct stats_sample	*d = &g->s[LS_DELAY];
	size_t			 i, n = d->n, k = 0;

	if (g->x != NULL) {
		launch_time_parts(c, g, j, st);
		return;
	}
	if (j == LT_API || j == LT_KERNEL) {
		stats_sample_compute(&g->s[j == LT_API ? LS_API : LS_KERNEL],
		    st, &c->sorted);
		return;
	}
	if (j == LT_QUEUE && d->w == NULL) {
		XGROW(c->q32, c->q32cap, (size_t)g->nqueue);
		for (i = 0; i < n; i++)
			if (d->base + (int32_t)d->d[i] >= 0)
				c->q32[k++] = d->d[i];
		stats_compute_narrow(c->q32, k, d->base, st, &c->sorted);
		return;
	}
	XGROW(c->made.v, c->made.cap, n);
	k = launch_made(g, j, c->made.v, 0);
	stats_compute_any(c->made.v, k, st, &c->sorted);
}

void
launch_times_plain(struct launch_scratch *c, struct launch_group *g,
    struct stats st[LT_COUNT])
{
	int	j;

	/* The made times first: computing a wide sample sorts it. */
	for (j = LT_COUNT; j-- > 0; )
		launch_time(c, g, j, &st[j]);
}

#ifdef __SIZEOF_INT128__

/* Whether every sample of g and g->x is narrow. */
static int
launch_times_narrow(const struct launch_group *g)
{
	const struct launch_group	*p;
	int				 j;

	for (p = g; p != NULL; p = p->x)
		for (j = 0; j < LS_COUNT; j++)
			if (p->s[j].w != NULL)
				return 0;
	return 1;
}

/* The narrow samples of a part of a group (g or g->x). */
struct launch_part {
	const uint32_t	*d[LS_COUNT];
	int64_t		 base[LS_COUNT];
	size_t		 n;
};

static void
launch_part(const struct launch_group *p, struct launch_part *pt)
{
	int	j;

	for (j = 0; j < LS_COUNT; j++) {
		pt->d[j] = p->s[j].d;
		pt->base[j] = p->s[j].base;
	}
	pt->n = p->s[LS_DELAY].n;
}

/*
 * The four times of kernel i of a part: t[LT_QUEUE] is its delay, a queue
 * time only when not negative.
 */
static inline void
launch_part_at(const struct launch_part *pt, size_t i, int64_t t[LT_COUNT])
{
	t[LT_API] = pt->base[LS_API] + (int32_t)pt->d[LS_API][i];
	t[LT_KERNEL] = pt->base[LS_KERNEL] + (int32_t)pt->d[LS_KERNEL][i];
	t[LT_QUEUE] = pt->base[LS_DELAY] + (int32_t)pt->d[LS_DELAY][i];
	t[LT_TOTAL] = launch_total(t[LT_API], t[LT_KERNEL], t[LT_QUEUE]);
}

/*
 * A pass over n values base + (int32_t)d[i] of at least floor, keys from
 * lo: into the histogram hs (its sums in locals, so that they stay in
 * registers), or where take, the keys at its ranks gathered.
 */
static void
launch_feed(const uint32_t *d, size_t n, int64_t base, int64_t floor,
    int64_t lo, struct stats_hist *hs, int take)
{
	struct stats_hist_sum	s = hs->sum;
	int64_t			v;
	size_t			i;

	if (take) {
		for (i = 0; i < n; i++)
			if ((v = base + (int32_t)d[i]) >= floor)
				stats_hist_take(hs, (uint64_t)(v - lo));
		return;
	}
	for (i = 0; i < n; i++)
		if ((v = base + (int32_t)d[i]) >= floor)
			stats_hist_add(&s, (uint64_t)(v - lo));
	hs->sum = s;
}

/* launch_feed() of the total times of a part. */
static void
launch_feed_total(const struct launch_part *pt, int64_t lo,
    struct stats_hist *hs, int take)
{
	struct stats_hist_sum	s = hs->sum;
	int64_t			t[LT_COUNT];
	size_t			i;

	if (take) {
		for (i = 0; i < pt->n; i++) {
			launch_part_at(pt, i, t);
			stats_hist_take(hs, (uint64_t)(t[LT_TOTAL] - lo));
		}
		return;
	}
	for (i = 0; i < pt->n; i++) {
		launch_part_at(pt, i, t);
		stats_hist_add(&s, (uint64_t)(t[LT_TOTAL] - lo));
	}
	hs->sum = s;
}

/*
 * The second pass of time j (from its smallest, lo) over g and g->x into
 * its histogram, or where take the third.
 */
static void
launch_times_feed(const struct launch_group *g, int j, int64_t lo,
    struct stats_hist *hs, int take)
{
	static const int		 src[LT_COUNT] = {
		LS_API, LS_DELAY, LS_KERNEL, LS_COUNT
	};
	const struct launch_group	*p;
	struct launch_part		 pt;
	int				 k = src[j];

	for (p = g; p != NULL; p = p->x) {
		launch_part(p, &pt);
		if (j == LT_TOTAL)
			launch_feed_total(&pt, lo, hs, take);
		else
			launch_feed(pt.d[k], pt.n, pt.base[k],
			    j == LT_QUEUE ? 0 : INT64_MIN, lo, hs, take);
	}
}

int
launch_times_split(const struct launch_group *g)
{
	return launch_times_narrow(g);
}

void
launch_time_one(struct launch_scratch *c, struct launch_group *g, int j,
    struct stats *st)
{
	struct stats_hist	hs;
	size_t			n;

	n = g->s[LS_DELAY].n + (g->x != NULL ? g->x->s[LS_DELAY].n : 0);
	if (j == LT_QUEUE)
		n = (size_t)g->nqueue;
	if (n < LAUNCH_FUSE_MIN || !stats_hist_begin(&hs, n, g->lo[j],
	    g->hi[j], &c->hist)) {
		launch_time(c, g, j, st);
		return;
	}
	launch_times_feed(g, j, g->lo[j], &hs, 0);
	if (stats_hist_ranks(&hs))
		launch_times_feed(g, j, g->lo[j], &hs, 1);
	memset(st, 0, sizeof *st);
	stats_hist_end(&hs, st);
}

void
launch_times(struct launch_scratch *c, struct launch_group *g,
    struct stats st[LT_COUNT])
{
	size_t	n;
	int	j;

	n = g->s[LS_DELAY].n + (g->x != NULL ? g->x->s[LS_DELAY].n : 0);
	if (!launch_times_narrow(g) || n < LAUNCH_FUSE_MIN) {
		launch_times_plain(c, g, st);
		return;
	}
	for (j = 0; j < LT_COUNT; j++)
		launch_time_one(c, g, j, &st[j]);
}

#else

int
launch_times_split(const struct launch_group *g)
{
	(void)g;
	return 0;
}

void
launch_time_one(struct launch_scratch *c, struct launch_group *g, int j,
    struct stats *st)
{
	launch_time(c, g, j, st);
}

void
launch_times(struct launch_scratch *c, struct launch_group *g,
    struct stats st[LT_COUNT])
{
	launch_times_plain(c, g, st);
}

#endif

void
launch_times_free(struct launch_scratch *c)
{
	stats_acc_free(&c->sorted);
	stats_acc_free(&c->made);
	free(c->q32);
	stats_acc_free(&c->hist);
	memset(c, 0, sizeof *c);
}
