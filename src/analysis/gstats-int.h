/*
 * gstats-int: what gstats.c (the selection and the first pass) and
 * gstats-fill.c (the second pass and the statistics) share: the state of
 * one gstats_compute().
 *
 * The second pass may run in parts, contiguous ranges of tracks in model
 * order, one thread each (gstats_fill_parts()). Each part works on its own
 * copy of struct gs_ctx: its own cursors into the groups' slices, its own
 * places in the first pass's records and its own sums; what the copies
 * share (the map, the names, the value arrays) they only read, or write in
 * slots no other part writes.
 *
 * Ownership: struct gs_ctx lives on gstats_compute()'s stack and owns the
 * arrays it points to (the part copies own none but their sid arrays).
 */
#ifndef GPULENS_GSTATS_INT_H
#define GPULENS_GSTATS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/group.h"
#include "analysis/gstats.h"
#include "util/pool.h"

/* A run of gs_runs(): its events of the kind from the one it was met at
 * to end (exclusive) are group gi's. */
struct gs_run {
	uint32_t	gi, end;
};

struct gs_ctx {
	struct gstats		*gs;
	const struct gstats_sel	*sel;
	struct group_map	 map;
	size_t			 gcap;
	size_t			 bcap;		/* of gs->bytes (GS_SUMS) */
	int			 pass;		/* 1 or 2 (GS_SUMS: 1) */
	int			 replay;	/* pass 2 reads seen */
	uint32_t		*seen;		/* per candidate event: group */
	size_t			 nseen, seencap, next;
	/* Per group: pass 1 counts its values and bytes; pass 2 holds the
	 * next slot of its slices; after it, their ends. */
	size_t			*dn, *bn;
	size_t			 ncap;
	int64_t			*dv, *bv;	/* the values, by group */
	uint32_t		*dv32;		/* narrow: durations, by group */
	int			 wide;		/* a duration did not fit */
	size_t			 hint;		/* pass 2: group_map_get()'s */
	/* One pass (gs_append_ok()): each group's durations appended to
	 * its own array as its events come, counted by dn. */
	int			 append;
	uint32_t		**gv;
	size_t			*gvcap, gvn;
	/* Per name string id, its group where stamped: where the key is
	 * the name and the track's axes (sid_keyed, gs_sid_keyed()), on the
	 * track; where gs_runs() groups a run's events by name (run_named),
	 * in the run. */
	uint32_t		*sid_gi, *sid_stamp;
	uint32_t		 nsid, stamp;
	int			 sid_keyed;
	int			 per_track;	/* the key has track axes */
	int			 run_named;
	/* Two passes of gs_runs() (runrec): the first records each run's
	 * group and end, the second replays them. */
	int			 runrec;
	struct gs_run		*runs;
	size_t			 nruns, runcap, rnext;
	/*
	 * The second pass's parts: part p is tracks part_t[p] ..
	 * part_t[p + 1]. Where part p (from 1) began, pass 1 kept the
	 * counts so far (snap_dn, snap_bn: snap_ng groups) and its places
	 * in seen and runs.
	 */
	unsigned		 nparts;
	uint32_t		 part_t[POOL_MAX + 1];
	size_t			*snap_dn[POOL_MAX], *snap_bn[POOL_MAX];
	size_t			 snap_ng[POOL_MAX];
	size_t			 seen_at[POOL_MAX], runs_at[POOL_MAX];
	/*
	 * GS_LAZY over runs (gstats-defer.c): the first pass adds up each
	 * group's durations into its sums (defer), and the second waits for
	 * gstats_complete(), which writes the values of the groups asked
	 * only (keep; NULL: every group's).
	 */
	int			 defer;
	const uint8_t		*keep;
};

/*
 * Where the groups' values are: in one array of slices (dn and bn each
 * group's end; dv32 narrow durations, else dv; bv byte counts), or in an
 * array of their own per group (gv, counted by dn). With GS_LAZY the
 * result keeps them (struct gstats.vals) until gstats_complete(), done
 * marking the groups whose statistics it computed.
 */
struct gstats_vals {
	uint32_t	**gv;
	size_t		*dn, *bn;	/* (bn NULL: no bytes) */
	uint32_t	*dv32;
	int64_t		*dv, *bv;
	uint8_t		*done;
	/* Deferred (gstats-defer.c): the first pass's state, its own copy
	 * of the selection and of the tracks it skipped; no values yet. */
	struct gs_ctx	*ctx;
	struct gstats_sel sel;
	uint8_t		*skip;
};

/* gstats-fill.c: frees the values a GS_LAZY result keeps. */
void	gstats_vals_free(struct gstats *);

/* gstats.c: adds the selected events of track t (pass 1 or 2). */
void	gstats_track(struct gs_ctx *, uint32_t t, uint32_t **idx,
	    size_t *icap);
/* gstats.c: whether every event of l (not empty) starts in s's window,
 * so that gstats_track() walks the whole track. */
int	gstats_inside(const struct gstats_sel *, const struct lane *);
/* gstats.c: whether every selected track's longest event fits 32 bits. */
int	gstats_narrow(const struct model *, const uint8_t *skip);

/* The selected events from which the second pass is split (tests lower
 * it). */
extern size_t	gstats_fill_part_min;

/*
 * Chooses the second pass's parts (c->nparts, c->part_t) before the first
 * pass: one where it would not gain (few events, GS_SUMS, one append pass,
 * or a second pass that asks the caller's functions again).
 */
void	gstats_fill_parts(struct gs_ctx *, const uint8_t *skip);
/* Called by the first pass before track t: keeps what part p starting
 * there will need. */
void	gstats_fill_mark(struct gs_ctx *, uint32_t t);
/*
 * The second pass: with the first's counts in dn and bn, writes every
 * duration (and byte count) into its group's slice of one array; dn and
 * bn then hold each group's end.
 */
void	gstats_fill_values(struct gs_ctx *, const uint8_t *skip);
/* The statistics of every group, from the values stored. */
void	gstats_fill_stats(struct gs_ctx *);
/* Frees what the parts' marks kept. */
void	gstats_fill_free(struct gs_ctx *);
/*
 * The statistics of the groups keep marks (all without it) from their
 * values in v, only their sums with sums set, on the pool.
 */
void	gstats_fill_groups(struct gstats *, const struct gstats_vals *v,
	    const uint8_t *keep, int sums);

/* gstats-defer.c: whether the first pass may defer the second (GS_LAZY,
 * runrec, every selected track's events inside the window). */
int	gstats_defer_ok(const struct gs_ctx *, const uint8_t *skip);
/*
 * After a deferred first pass: each group's mean from its sums, and the
 * state the second pass needs moved from c into the result (gs->vals),
 * skip with it.
 */
void	gstats_defer(struct gs_ctx *c, uint8_t *skip);
/*
 * gstats_complete() of a deferred result: the statistics of the groups
 * todo marks, from their values written now (todo NULL: every group's
 * values written into the result, which then holds them as a result that
 * was not deferred does).
 */
void	gstats_defer_fill(struct gstats *, const uint8_t *todo);
/* Frees a deferred result's state. */
void	gstats_defer_free(struct gstats_vals *);

#endif
