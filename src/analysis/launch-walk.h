/*
 * launch-walk: the kernels a launch selection keeps (struct launch_sel),
 * grouped by the axes asked for, each group with its samples of times
 * (launch.h puts it to work).
 *
 * The walk reads the kernels of each GPU track in the window, those of
 * the streams one thread launched merged in the order of their launching
 * calls (its calls then read once, in order). Where the selection looks at
 * kinds only, the sets of runs are shared out to two walkers, c and c2,
 * each with groups of its own; a group of c2 then hangs on c's group of
 * the same key (launch_group.x), which launch_walk() makes where c had
 * none. The order of a group's values is not the kernels' order (no
 * statistic depends on it); first, the least global id of a group's
 * kernels, gives the groups their order.
 */
#ifndef GPULENS_LAUNCH_WALK_H
#define GPULENS_LAUNCH_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/group.h"
#include "analysis/stats.h"
#include "model/lane.h"
#include "model/model.h"
#include "model/replay.h"
#include "util/pool.h"

enum launch_axis {
	LA_API, LA_NAME, LA_SHORT, LA_DEVICE, LA_STREAM, LA_PID, LA_TID,
	LA_COUNT
};

/*
 * A group's times, one value per kernel in the same order in each sample:
 * API time, kernel time and the signed delay kernel.start - api.end. The
 * queue times are the delays that are not negative, and the total time is
 * api + max(0, delay + kernel) (= max(api.end, kernel.end) - api.start),
 * both made when the group's statistics are: a sample less to hold.
 */
enum launch_sample {
	LS_API, LS_KERNEL, LS_DELAY, LS_COUNT
};

/* The four times of a kernel (launch.h). */
enum launch_time {
	LT_API, LT_QUEUE, LT_KERNEL, LT_TOTAL, LT_COUNT
};

/*
 * A kernel's total time from its three samples: api + max(0, delay +
 * kernel). The model's times lie within +-MODEL_TIME_MAX (model.h), so
 * for a kernel of a model the sums are exact; they are made in unsigned
 * arithmetic so that values no model holds (the tests' edge values) wrap
 * instead of overflowing.
 */
static inline int64_t
launch_total(int64_t api, int64_t kernel, int64_t delay)
{
	int64_t	y = (int64_t)((uint64_t)delay + (uint64_t)kernel);

	return (int64_t)((uint64_t)api + (uint64_t)(y > 0 ? y : 0));
}

struct launch_group {
	struct stats_sample s[LS_COUNT];
	int64_t		 n, nshort, nqueue;	/* n: the caller's
					   (launch_build(): the kernels) */
	int64_t		 lo[LT_COUNT], hi[LT_COUNT];	/* each time's
					   smallest and largest (a time
					   with none: lo > hi) */
	size_t		 room;		/* while every sample is narrow,
					   the least of their capacities
					   (else 0): launch_group_add() */
	uint32_t	 first;		/* its first kernel's global id */
	struct launch_group *x;		/* its kernels the other walker
					   added (launch_walk()), or NULL */
};

struct launch_memo;

/*
 * Which kernels: those of the GPU tracks track() keeps that overlap the
 * window [t0, t1) (lane_overlap()) and event() keeps. On a track plain()
 * passes, every kernel in the window is kept without asking event(): the
 * caller's filters look at nothing but the kind there.
 */
struct launch_sel {
	int64_t		 t0, t1;
	int		(*track)(void *arg, uint32_t t);
	int		(*plain)(void *arg, uint32_t t);
	int		(*event)(void *arg, uint32_t t, uint32_t i);
	void		*arg;
};

/*
 * What one walker builds: the groups (by the axes' values) and their
 * samples, and the counts of the kernels selected, left out for want of a
 * launching call, and left out as replays.
 */
struct launch_ctx {
	const struct model	*m;
	struct group_names	 names;
	int			 axes[LA_COUNT];
	int			 naxes;
	struct group_map	 map;		/* axis values -> group */
	struct launch_group	*g;
	size_t			 gcap;
	uint32_t		 atrack;	/* track of the last API call, */
	uint32_t		 aoff, alen;	/* its first id and events */
	struct replay_names	 graph;		/* which calls launch graphs */
	struct launch_memo	*memo;		/* see launch_memo_of() */
	int			 memo_ok;
	const struct launch_sel	*sel;
	int64_t			 nsel, unlinked, replayed;
	POOL_PAD;
};

/*
 * Readies c to walk model m's kernels that sel keeps (sel lives as long as
 * the walk), grouped by the naxes axes (LA_*) in axes.
 */
void	 launch_walk_init(struct launch_ctx *c, const struct model *m,
	    const int *axes, int naxes, const struct launch_sel *sel);
/*
 * Walks every selected kernel into c's groups; c2, zeroed, may serve as
 * the second walker (launch_walk_free() it after).
 */
void	 launch_walk(struct launch_ctx *c, struct launch_ctx *c2);
/* Readies a group (zeroed by the caller) for launch_group_add(). */
void	 launch_group_init(struct launch_group *g);
/* Widens time j's [lo, hi] of g to v. */
static inline void
launch_group_range(struct launch_group *g, int j, int64_t v)
{
	if (v < g->lo[j])
		g->lo[j] = v;
	if (v > g->hi[j])
		g->hi[j] = v;
}
/* launch_group_add()'s slow path: each sample added to on its own. */
void	 launch_group_add_slow(struct launch_group *g, int64_t api,
	    int64_t kernel, int64_t delay);
/*
 * Adds a kernel's times to g: its API time, its kernel time and its delay
 * kernel.start - api.end (inline: it runs once per kernel). The three
 * samples grow together: where all three are narrow, have room and take
 * their values as offsets (stats_sample_narrow(), the tests OR-ed), the
 * values are stored at once.
 */
static inline void
launch_group_add(struct launch_group *g, int64_t api, int64_t kernel,
    int64_t delay)
{
	struct stats_sample	*a = &g->s[LS_API], *k = &g->s[LS_KERNEL];
	struct stats_sample	*d = &g->s[LS_DELAY];
	uint64_t		 off, big;
	size_t			 n = d->n;

	off = ((uint64_t)api - (uint64_t)a->base + 0x80000000ULL) |
	    ((uint64_t)kernel - (uint64_t)k->base + 0x80000000ULL) |
	    ((uint64_t)delay - (uint64_t)d->base + 0x80000000ULL);
	big = ((uint64_t)api + ((uint64_t)1 << 62)) |
	    ((uint64_t)kernel + ((uint64_t)1 << 62)) |
	    ((uint64_t)delay + ((uint64_t)1 << 62));
	if (n < g->room && (off >> 32) == 0 && (big >> 63) == 0) {
		a->d[n] = (uint32_t)((uint64_t)api - (uint64_t)a->base);
		k->d[n] = (uint32_t)((uint64_t)kernel - (uint64_t)k->base);
		d->d[n] = (uint32_t)((uint64_t)delay - (uint64_t)d->base);
		a->n = k->n = d->n = n + 1;
	} else
		launch_group_add_slow(g, api, kernel, delay);
	launch_group_range(g, LT_API, api);
	launch_group_range(g, LT_KERNEL, kernel);
	launch_group_range(g, LT_TOTAL, launch_total(api, kernel, delay));
	if (delay >= 0) {
		launch_group_range(g, LT_QUEUE, delay);
		g->nqueue++;
	}
	if (kernel < api)
		g->nshort++;
}
/* Hangs h, the other walker's group of g's key, on g (launch_group.x),
 * and counts its kernels into g's counts and ranges. */
void	 launch_group_join(struct launch_group *g, struct launch_group *h);
/* Frees c's groups and state; a zeroed context is freed too. */
void	 launch_walk_free(struct launch_ctx *c);

#endif
