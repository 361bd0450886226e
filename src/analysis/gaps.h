/*
 * gaps: the idle gaps of a window, from the busy segments of whatever must
 * be idle (a stream, a device, every GPU). One definition for the gaps
 * verb and the findings:
 *
 * Inside one window segment [ws, we), given the busy segments (the union
 * of the work, clamped to the window, in start order), a gap is a maximal
 * stretch with no busy segment:
 *   leading   from ws to the first busy segment
 *   inner     between two busy segments (perf-advisor's total_gpu_idle_s
 *             adds these up: inner idle)
 *   trailing  from the last busy segment to we
 *   whole     the whole segment, when nothing is busy in it
 *
 * struct gap_walk takes the busy segments one at a time (O(1) memory, as
 * the gaps verb streams millions of them); gaps_device() lists the gaps
 * of one device of an activity (analysis/activity.h) in a window as a
 * typed result, and gaps_device_each() hands them to a callback one at a
 * time (no list: a device can have as many gaps as kernels).
 *
 * Ownership: struct gap_list owns its array (gap_list_free).
 */
#ifndef GPULENS_GAPS_H
#define GPULENS_GAPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/activity.h"
#include "util/lbound.h"

enum gap_kind { GAP_LEADING, GAP_INNER, GAP_TRAILING, GAP_WHOLE,
	GAP_NKIND };

struct gap_span {
	int64_t		 start, end;
	int		 kind;		/* enum gap_kind */
};

struct gap_walk {
	int64_t		 ws, we;	/* the window segment */
	int64_t		 prev;		/* end of the last busy segment */
	int64_t		 busy;		/* busy time fed so far */
	int64_t		 inner;		/* inner idle so far */
};

/* "leading", "inner", "trailing", "whole". */
const char	*gap_kind_name(int kind);
void	 gap_walk_init(struct gap_walk *, int64_t ws, int64_t we);
/*
 * Feeds the next busy segment [s, e) (inside the window, in start order,
 * disjoint from the earlier ones). Returns 1 with the gap that ends at s
 * in *g, else 0. Inline: the walks call it once a segment.
 */
static inline int
gap_walk_busy(struct gap_walk *w, int64_t s, int64_t e, struct gap_span *g)
{
	int	found = 0;

	w->busy = sat_add64(w->busy, e - s);
	if (s > w->prev) {
		g->start = w->prev;
		g->end = s;
		g->kind = w->prev == w->ws ? GAP_LEADING : GAP_INNER;
		if (g->kind == GAP_INNER)
			w->inner = sat_add64(w->inner, s - w->prev);
		found = 1;
	}
	w->prev = e;
	return found;
}

/* Finishes: returns 1 with the trailing (or whole) gap in *g, else 0. */
static inline int
gap_walk_end(struct gap_walk *w, struct gap_span *g)
{
	if (w->prev >= w->we)
		return 0;
	g->start = w->prev;
	g->end = w->we;
	g->kind = w->prev == w->ws ? GAP_WHOLE : GAP_TRAILING;
	return 1;
}

/* The gaps of one device in a window, in time order. */
struct gap_list {
	struct gap_span	*v;
	size_t		 n;
	int64_t		 busy;		/* busy time in the window */
	int64_t		 inner;		/* inner idle */
};

/* Receives one gap (the span is only valid during the call). */
typedef void (*gap_fn)(void *arg, const struct gap_span *);

/*
 * gaps_device_each() with the walk's totals in *w, inline: where fn is
 * known at compile time it is inlined into the loop (findings classify
 * every gap of a device, millions of them).
 */
static inline void
gaps_device_visit(const struct activity *a, size_t d, int64_t t0, int64_t t1,
    gap_fn fn, void *arg, struct gap_walk *w)
{
	const struct iset	*cv;
	struct gap_span		 g;
	size_t			 i;
	int64_t			 s, e;

	gap_walk_init(w, t0, t1);
	if (t1 <= t0)
		return;
	if (d < a->ndev) {
		cv = &a->dev[d].cov[ACT_ALL];
		for (i = lbound_i64_above(cv->end, cv->n, t0);
		    i < cv->n && cv->start[i] < t1; i++) {
			s = cv->start[i] > t0 ? cv->start[i] : t0;
			e = cv->end[i] < t1 ? cv->end[i] : t1;
			if (gap_walk_busy(w, s, e, &g))
				fn(arg, &g);
		}
	}
	if (gap_walk_end(w, &g))
		fn(arg, &g);
}

/* The gaps of device slot d of a (its class-all coverage) in [t0, t1). */
void	 gaps_device(const struct activity *, size_t d, int64_t t0,
	    int64_t t1, struct gap_list *);
/* The same gaps, in time order, each passed to fn. */
void	 gaps_device_each(const struct activity *, size_t d, int64_t t0,
	    int64_t t1, gap_fn fn, void *arg);
void	 gap_list_free(struct gap_list *);

#endif
