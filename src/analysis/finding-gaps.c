/*
 * finding-gaps: the classification of GPU idle gaps the rules share
 * (finding.h: enum finding_gap), and the synchronisation ends it needs.
 *
 * A device's gaps come in time order (gaps.h), so what each gap looks up,
 * the synchronisation calls that end inside it and the work that starts
 * at its end, is found by cursors that only move forward
 * (struct finding_cursor): a gallop from where the last gap left them
 * (lbound_i64_from) instead of a binary search over the whole array per
 * gap, and no list of the gaps.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/finding.h"
#include "analysis/gaps.h"
#include "analysis/stats.h"
#include "model/lane.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define FINDING_LAUNCH_CHUNKS	50

/*
 * The ends of the synchronisation calls, per process (the last slot: no
 * known process), in one pass over the API calls: process by process, so
 * that they land in CSR order, then sorted per process; and the calls
 * themselves in that order (for cuda_api_sync).
 */
void
finding_syncs(struct finding_ctx *c)
{
	const struct model	*m = c->m;
	size_t			 np = m->nprocesses + 1, p, t, i, n = 0;
	size_t			 cap = 0, gcap = 0;

	c->sync_off = xcalloc(np + 1, sizeof *c->sync_off);
	c->sync_end = NULL;
	c->sync_gid = NULL;
	for (p = 0; p < np; p++) {
		for (t = 0; t < m->ntracks; t++) {
			const struct track *tr = &m->tracks[t];
			const struct lane *l = &tr->lane;
			if (tr->type != TRACK_API || (tr->process <
			    m->nprocesses ? tr->process : m->nprocesses) != p)
				continue;
			for (i = 0; i < l->n; i++) {
				if (l->kind[i] != EV_API ||
				    finding_api_class(c, l->name[i]) !=
				    FAPI_SYNC)
					continue;
				XGROW(c->sync_end, cap, n + 1);
				XGROW(c->sync_gid, gcap, n + 1);
				c->sync_gid[n] = model_gid(m, (uint32_t)t,
				    (uint32_t)i);
				c->sync_end[n++] = l->end[i];
			}
		}
		c->sync_off[p + 1] = n;
		if (n - c->sync_off[p] > 1)
			qsort(c->sync_end + c->sync_off[p], n - c->sync_off[p],
			    sizeof *c->sync_end, sort_cmp_i64);
	}
	if (c->sync_end == NULL) {
		c->sync_end = xcalloc(1, sizeof *c->sync_end);
		c->sync_gid = xcalloc(1, sizeof *c->sync_gid);
	}
}

/*
 * lbound_i64_from() with its first steps inline: between two gaps a cursor
 * mostly stays or moves by an element or two, so the first few are looked
 * at here and only a longer move gallops. Every element before lo is below
 * key, as lbound_i64_from() needs.
 */
static inline size_t
finding_step(const int64_t *a, size_t n, size_t lo, int64_t key)
{
	size_t	end = lo + 4 < n ? lo + 4 : n;

	for (; lo < end; lo++)
		if (a[lo] >= key)
			return lo;
	return lbound_i64_from(a, n, lo, key);
}

void
finding_cursor_init(struct finding_cursor *k, const struct finding_ctx *c,
    size_t d)
{
	const struct model	*m = c->m;
	uint32_t		 p = c->act.dev[d].process, dev;
	size_t			 t, q;

	memset(k, 0, sizeof *k);
	k->c = c;
	k->sync_next = INT64_MIN;
	k->q0 = p == NONE32 ? 0 : (p < m->nprocesses ? p : m->nprocesses);
	k->q1 = p == NONE32 ? m->nprocesses + 1 : k->q0 + 1;
	/* One block: the tracks' cursors, then the processes'. */
	k->at = xcalloc(m->ntracks + k->q1 - k->q0 + 1, sizeof *k->at);
	k->sync_at = k->at + m->ntracks;
	for (q = k->q0; q < k->q1; q++)
		k->sync_at[q - k->q0] = c->sync_off[q];
	dev = c->act.dev[d].device;
	k->trk = xcalloc(m->ntracks + 1, sizeof *k->trk);
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].type == TRACK_GPU &&
		    m->tracks[t].device == dev)
			k->trk[k->ntrk++] = (uint32_t)t;
}

/*
 * The cursors' look-ups, inline for the gap walk (finding_gap_class());
 * the finding_cursor_*() functions of finding.h call them.
 *
 * Synchronisation calls are few beside the gaps: the least end at or
 * after the key over the processes (sync_next) stays the answer until a
 * key passes it, so most gaps cost one comparison; only then do the
 * processes' cursors move (fc_sync_move()).
 */
static int64_t
fc_sync_move(struct finding_cursor *k, int64_t a)
{
	const struct finding_ctx	*c = k->c;
	size_t				 q, lo, *at;
	int64_t				 next = INT64_MAX;

	for (q = k->q0; q < k->q1; q++) {
		at = &k->sync_at[q - k->q0];
		lo = c->sync_off[q];
		*at = lo + finding_step(c->sync_end + lo,
		    c->sync_off[q + 1] - lo, *at - lo, a);
		if (*at < c->sync_off[q + 1] && c->sync_end[*at] < next)
			next = c->sync_end[*at];
	}
	k->sync_next = next;
	return next;
}

static inline int
fc_sync(struct finding_cursor *k, int64_t a, int64_t b)
{
	if (k->sync_next >= a && k->sync_next != INT64_MIN)
		return k->sync_next < b;
	return fc_sync_move(k, a) < b;
}

/* finding_cursor_work() but for the duration: the event is left in
 * k->wl, k->wj. */
static inline uint32_t
fc_work(struct finding_cursor *k, int64_t t)
{
	const struct model	*m = k->c->m;
	size_t			 x, j;

	for (x = 0; x < k->ntrk; x++) {
		const struct lane *l = &m->tracks[k->trk[x]].lane;
		k->at[x] = finding_step(l->start, l->n, k->at[x], t);
		for (j = k->at[x]; j < l->n && l->start[j] == t; j++) {
			if (activity_class(l->kind[j], l->flags[j]) < 0)
				continue;
			k->wl = l;
			k->wj = j;
			return model_gid(m, k->trk[x], (uint32_t)j);
		}
	}
	return NONE32;
}

/* finding_launch() (correlate_launch()), inline. */
static inline uint32_t
fc_launch(const struct model *m, uint32_t gid)
{
	return m->launch != NULL && gid < m->nlaunch ? m->launch[gid] :
	    NONE32;
}

static inline int64_t
fc_end(struct finding_cursor *k, uint32_t gid)
{
	const struct model	*m = k->c->m;
	struct evref		 r;

	/* Launches of one device come from few API tracks: keep the last. */
	if (k->ev_lane == NULL || gid - k->ev_base >= k->ev_lane->n) {
		r = model_ev(m, gid);
		k->ev_lane = &m->tracks[r.track].lane;
		k->ev_base = m->track_off[r.track];
	}
	return k->ev_lane->end[gid - k->ev_base];
}

int
finding_cursor_sync(struct finding_cursor *k, int64_t a, int64_t b)
{
	return fc_sync(k, a, b);
}

uint32_t
finding_cursor_work(struct finding_cursor *k, int64_t t, int64_t *dur)
{
	uint32_t	gid = fc_work(k, t);

	if (gid != NONE32)
		*dur = k->wl->end[k->wj] - k->wl->start[k->wj];
	return gid;
}

int64_t
finding_cursor_end(struct finding_cursor *k, uint32_t gid)
{
	return fc_end(k, gid);
}

void
finding_cursor_free(struct finding_cursor *k)
{
	free(k->trk);
	free(k->at);	/* and sync_at */
	memset(k, 0, sizeof *k);
}

/* What finding_gaps() gathers over one device's gaps. */
struct finding_gapacc {
	struct finding_ctx	*c;
	struct finding_dev	*fd;
	struct finding_cursor	 k;
	struct stats_acc	 kd;	/* durations of the work after launch
					   gaps */
	int64_t			 chunk;
	int64_t			 lchunk[FINDING_LAUNCH_CHUNKS];
};

/* The class of inner gap [g0, g1) (enum finding_gap). */
static int
finding_gap_class(struct finding_gapacc *ga, int64_t g0, int64_t g1)
{
	struct finding_ctx	*c = ga->c;
	struct finding_cursor	*k = &ga->k;
	int64_t			 len = g1 - g0;
	uint32_t		 gid, api;

	if (len >= c->gap_threshold)
		return FGAP_LARGE;
	if (fc_sync(k, g0, g1))
		return FGAP_SYNC;
	if (len >= FINDING_LAUNCH_GAP_NS)
		return FGAP_BUBBLE;
	gid = fc_work(k, g1);
	if (gid == NONE32 || (api = fc_launch(c->m, gid)) == NONE32 ||
	    fc_end(k, api) < g0)
		return FGAP_OTHER;
	stats_acc_add(&ga->kd, k->wl->end[k->wj] - k->wl->start[k->wj]);
	return FGAP_LAUNCH;
}

static void
finding_gap_one(void *arg, const struct gap_span *g)
{
	struct finding_gapacc	*ga = arg;
	struct finding_ctx	*c = ga->c;
	struct finding_dev	*fd = ga->fd;
	int64_t			 len = g->end - g->start;
	size_t			 k;
	int			 cls;

	/* Inner gaps only: work on both sides inside the window. */
	if (g->kind != GAP_INNER || len <= 0)
		return;
	cls = finding_gap_class(ga, g->start, g->end);
	fd->gap_sum[cls] += len;
	fd->gap_n[cls]++;
	if (finding_in_zone(c, g->start + len / 2))
		fd->gap_zone[cls] += len;
	if (len > fd->gap_long[cls]) {
		fd->gap_long[cls] = len;
		fd->gap_long_at[cls] = g->start;
	}
	if (cls == FGAP_LAUNCH) {
		k = (size_t)((g->start - c->t0) / ga->chunk);
		if (k >= FINDING_LAUNCH_CHUNKS)
			k = FINDING_LAUNCH_CHUNKS - 1;
		ga->lchunk[k] += len;
	}
}

void
finding_gaps(struct finding_ctx *c, size_t d)
{
	struct finding_dev	*fd = &c->dev[d];
	struct finding_gapacc	 ga;
	struct gap_walk		 gw;
	struct stats		 st;
	size_t			 k, best;

	memset(&ga, 0, sizeof ga);
	ga.c = c;
	ga.fd = fd;
	stats_acc_init(&ga.kd);
	finding_cursor_init(&ga.k, c, d);
	ga.chunk = c->span / FINDING_LAUNCH_CHUNKS;
	if (ga.chunk < 1)
		ga.chunk = 1;
	gaps_device_visit(&c->act, d, c->t0, c->t1, finding_gap_one, &ga,
	    &gw);
	best = 0;
	for (k = 1; k < FINDING_LAUNCH_CHUNKS; k++)
		if (ga.lchunk[k] > ga.lchunk[best])
			best = k;
	fd->launch_at0 = c->t0 + (int64_t)best * ga.chunk;
	fd->launch_at1 = fd->launch_at0 + ga.chunk;
	if (fd->launch_at1 > c->t1)
		fd->launch_at1 = c->t1;
	if (ga.kd.n > 0) {
		stats_acc_compute(&ga.kd, &st);
		fd->launch_kern_med = (int64_t)st.median;
	}
	stats_acc_free(&ga.kd);
	finding_cursor_free(&ga.k);
}
