/*
 * launch-walk: the kernels of `gpulens launch`, grouped (launch-walk.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/launch-walk.h"
#include "model/correlate.h"
#include "model/event.h"
#include "model/lane.h"
#include "util/pool.h"
#include "util/xmalloc.h"

#define LAUNCH_MEMO	4096	/* entries of the group cache */

/*
 * An entry of the group cache (launch_memo_of()): a key of the call's and
 * the kernel's names and tracks, whether the call's name launches graphs,
 * and the group, made at the key's first kernel that is no replay.
 */
struct launch_memo {
	uint32_t		 as, ks, at, kt;	/* names, tracks */
	uint32_t		 gi;		/* group + 1, 0 not made yet */
	uint32_t		 graph;		/* 0 empty, 1 no, 2 yes */
};

/*
 * The kernels of a GPU track in the window, as a run [i, hi), walked by
 * launch_merge(): key is the launching call of the head + 1 (0 none), home
 * the track of the run's first launching call.
 */
struct launch_cur {
	uint32_t	 t, key, home;
	int		 plain;
	size_t		 i, hi;
};

#define LAUNCH_MERGE	8	/* most runs merged at once */

/* The group of kernel i of track t, launched by the API call at r. */
static size_t
launch_group_of(struct launch_ctx *c, uint32_t t, uint32_t i,
    struct evref r)
{
	const struct model		*m = c->m;
	const struct track		*tr = &m->tracks[t];
	const struct lane		*l = &tr->lane;
	const struct track		*at = &m->tracks[r.track];
	const struct kernel_info	*k;
	uint32_t			 v[LA_COUNT];
	int				 j, isnew;
	size_t				 gi;

	v[0] = 0;
	for (j = 0; j < c->naxes; j++) {
		switch (c->axes[j]) {
		case LA_API:
			v[j] = group_api(&c->names, at->lane.name[r.idx]);
			break;
		case LA_NAME:
			v[j] = group_local(&c->names, l->name[i]);
			break;
		case LA_SHORT:
			k = event_kernel(m, model_gid(m, t, i));
			v[j] = group_local(&c->names,
			    k != NULL && k->short_name != 0 ? k->short_name :
			    l->name[i]);
			break;
		case LA_DEVICE:
			v[j] = tr->device;
			break;
		case LA_STREAM:
			v[j] = tr->stream;
			break;
		case LA_PID:
			v[j] = tr->process != NONE32 ? tr->process :
			    (at->thread != NONE32 ?
			    m->threads[at->thread].process : NONE32);
			break;
		case LA_TID:
			v[j] = at->thread;
			break;
		}
	}
	gi = group_map_find(&c->map, v, &isnew);
	if (isnew) {
		XGROW(c->g, c->gcap, gi + 1);
		memset(&c->g[gi], 0, sizeof c->g[gi]);
		launch_group_init(&c->g[gi]);
		c->g[gi].first = model_gid(m, t, i);
	}
	return gi;
}

/*
 * The cache entry of kernel i of track t, launched by the API call at r,
 * filled anew on a miss: every axis but short-name is a function of the
 * call's and the kernel's tracks and names, so these four find the group
 * again.
 */
static struct launch_memo *
launch_memo_of(struct launch_ctx *c, uint32_t t, uint32_t i, struct evref r)
{
	const struct model	*m = c->m;
	uint32_t		 as = m->tracks[r.track].lane.name[r.idx];
	uint32_t		 ks = m->tracks[t].lane.name[i];
	struct launch_memo	*e;

	e = &c->memo[(as * 2654435761u ^ ks * 40503u ^ t * 97u ^
	    r.track) & (LAUNCH_MEMO - 1)];
	if (e->graph == 0 || e->as != as || e->ks != ks || e->kt != t ||
	    e->at != r.track) {
		e->as = as;
		e->ks = ks;
		e->kt = t;
		e->at = r.track;
		e->gi = 0;
		e->graph = replay_name_is_launch(model_str(m, as)) ? 2 : 1;
	}
	return e;
}

/*
 * Whether kernel i of track t, launched by the call at r, is a replay's
 * that is not its first (left out); graph: whether the call's name
 * launches graphs, where known (-1 not).
 */
static int
launch_replayed(struct launch_ctx *c, uint32_t t, uint32_t i,
    struct evref r, int graph)
{
	const struct model	*m = c->m;

	/* Only a graph launch's kernels can be replays. */
	if (graph < 0 ? !replay_names_launch(&c->graph, r) : graph == 0 ||
	    m->tracks[r.track].lane.kind[r.idx] != EV_API)
		return 0;
	return replay_inner(m, model_gid(m, t, i));
}

void
launch_group_init(struct launch_group *g)
{
	int	j;

	for (j = 0; j < LS_COUNT; j++)
		stats_sample_init(&g->s[j]);
	for (j = 0; j < LT_COUNT; j++) {
		g->lo[j] = INT64_MAX;
		g->hi[j] = INT64_MIN;
	}
}

void
launch_group_add_slow(struct launch_group *g, int64_t api, int64_t kernel,
    int64_t delay)
{
	size_t	room = SIZE_MAX;
	int	j;

	stats_sample_add(&g->s[LS_API], api);
	stats_sample_add(&g->s[LS_KERNEL], kernel);
	stats_sample_add(&g->s[LS_DELAY], delay);
	for (j = 0; j < LS_COUNT; j++) {
		if (g->s[j].d == NULL)
			room = 0;
		else if (g->s[j].cap < room)
			room = g->s[j].cap;
	}
	g->room = room;
}

/* Adds kernel i of track t, launched by the API call at r, to group gi. */
static inline void
launch_add(struct launch_ctx *c, uint32_t t, uint32_t i, struct evref r,
    size_t gi)
{
	const struct model		*m = c->m;
	const struct lane		*l = &m->tracks[t].lane;
	const struct lane		*al = &m->tracks[r.track].lane;
	struct launch_group		*g = &c->g[gi];
	int64_t				 as, ae, ks, ke;

	as = al->start[r.idx];
	ae = al->end[r.idx];
	ks = l->start[i];
	ke = l->end[i];
	if (model_gid(m, t, i) < g->first)
		g->first = model_gid(m, t, i);
	launch_group_add(g, ae - as, ke - ks, ks - ae);
}

/*
 * The API call api as an event: the track of the last call is tried
 * first (a thread's calls come in runs), then model_ev().
 */
static inline struct evref
launch_call(struct launch_ctx *c, uint32_t api)
{
	struct evref	r;

	if (api - c->aoff < c->alen) {
		r.track = c->atrack;
		r.idx = api - c->aoff;
		return r;
	}
	r = model_ev(c->m, api);
	c->atrack = r.track;
	c->aoff = c->m->track_off[r.track];
	c->alen = c->m->track_off[r.track + 1] - c->aoff;
	return r;
}

/*
 * Kernel i of track t, if kept (plain: by its kind alone), whose
 * launching call is api (NONE32 none). With the group cache, the cache
 * entry answers both whether the call's name launches graphs and the
 * group; without it, the group is looked up kernel by kernel.
 */
static inline void
launch_kernel(struct launch_ctx *c, uint32_t t, uint32_t i, int plain,
    uint32_t api)
{
	const struct model	*m = c->m;
	struct launch_memo	*e;
	struct evref		 r;

	if (plain ? m->tracks[t].lane.kind[i] != EV_KERNEL :
	    !c->sel->event(c->sel->arg, t, i))
		return;
	c->nsel++;
	if (api == NONE32) {
		c->unlinked++;
		return;
	}
	r = launch_call(c, api);
	if (!c->memo_ok) {
		if (launch_replayed(c, t, i, r, -1))
			c->replayed++;
		else
			launch_add(c, t, i, r, launch_group_of(c, t, i, r));
		return;
	}
	e = launch_memo_of(c, t, i, r);
	if (launch_replayed(c, t, i, r, e->graph == 2)) {
		c->replayed++;
		return;
	}
	if (e->gi == 0)		/* (a new group moves c->g) */
		e->gi = (uint32_t)launch_group_of(c, t, i, r) + 1;
	launch_add(c, t, i, r, e->gi - 1);
}

/* The launching call of a run's head kernel + 1 (0 none). */
static uint32_t
launch_key(const struct model *m, const struct launch_cur *u)
{
	return correlate_launch(m, model_gid(m, u->t, (uint32_t)u->i)) + 1;
}

/*
 * The kernels of k runs (k <= LAUNCH_MERGE) in the order of their
 * launching calls: the runs of one thread's streams then read its calls
 * once, in order, instead of once per stream. The order of the kernels
 * changes no statistic (each is one of the sorted values); the groups keep
 * the order of their first kernels (launch_group.first).
 */
static void
launch_merge(struct launch_ctx *c, struct launch_cur *u, size_t k)
{
	size_t		j, b;
	uint32_t	next;

	for (j = 0; j < k; j++)
		u[j].key = launch_key(c->m, &u[j]);
	while (k > 0) {
		/* The run of the least key (the first of equals), and the
		 * least key of the others: b's kernels below it go first,
		 * without looking at the others again. */
		for (b = 0, next = UINT32_MAX, j = 1; j < k; j++)
			if (u[j].key < u[b].key) {
				next = u[b].key;
				b = j;
			} else if (u[j].key < next)
				next = u[j].key;
		do {
			launch_kernel(c, u[b].t, (uint32_t)u[b].i,
			    u[b].plain, u[b].key - 1);
			if (++u[b].i == u[b].hi) {
				u[b] = u[--k];
				break;
			}
			u[b].key = launch_key(c->m, &u[b]);
		} while (u[b].key < next);
	}
}

/* Orders runs by home track, then track. */
static int
launch_cur_cmp(const void *a, const void *b)
{
	const struct launch_cur	*x = a, *y = b;

	if (x->home != y->home)
		return x->home < y->home ? -1 : 1;
	return x->t < y->t ? -1 : x->t > y->t;
}

void
launch_walk_init(struct launch_ctx *p, const struct model *m,
    const int *axes, int naxes, const struct launch_sel *sel)
{
	int	j;

	memset(p, 0, sizeof *p);
	p->m = m;
	memcpy(p->axes, axes, (size_t)naxes * sizeof *axes);
	p->naxes = naxes;
	/* short-name is not a function of the memo's key. */
	p->memo_ok = 1;
	for (j = 0; j < naxes; j++)
		if (axes[j] == LA_SHORT)
			p->memo_ok = 0;
	p->sel = sel;
	p->atrack = NONE32;	/* (alen 0: no track yet) */
	group_names_init(&p->names, p->m);
	group_map_init(&p->map, p->naxes > 0 ? (size_t)p->naxes : 1);
	replay_names_init(&p->graph, p->m);
	p->memo = xcalloc(LAUNCH_MEMO, sizeof *p->memo);
}

void
launch_walk_free(struct launch_ctx *p)
{
	size_t	gi, k;

	for (gi = 0; gi < p->map.ng; gi++)
		for (k = 0; k < LS_COUNT; k++)
			stats_sample_free(&p->g[gi].s[k]);
	free(p->g);
	p->g = NULL;
	replay_names_free(&p->graph);
	free(p->memo);
	p->memo = NULL;
	group_names_free(&p->names);
	group_map_free(&p->map);
}

void
launch_group_join(struct launch_group *g, struct launch_group *h)
{
	int	j;

	g->x = h;
	if (h->first < g->first)
		g->first = h->first;
	g->nqueue += h->nqueue;
	g->nshort += h->nshort;
	for (j = 0; j < LT_COUNT; j++) {
		if (h->lo[j] < g->lo[j])
			g->lo[j] = h->lo[j];
		if (h->hi[j] > g->hi[j])
			g->hi[j] = h->hi[j];
	}
}

/*
 * Joins the groups of the second walker p to c's: each finds (or makes)
 * c's group of its first kernel and hangs on it as x.
 */
static void
launch_join(struct launch_ctx *c, struct launch_ctx *p)
{
	const struct model	*m = c->m;
	struct launch_group	*h;
	struct evref		 k, r;
	size_t			 gi, hi;

	for (hi = 0; hi < p->map.ng; hi++) {
		h = &p->g[hi];
		k = model_ev(m, h->first);
		r = model_ev(m, correlate_launch(m, h->first));
		gi = launch_group_of(c, k.track, k.idx, r);
		launch_group_join(&c->g[gi], h);
	}
	c->nsel += p->nsel;
	c->unlinked += p->unlinked;
	c->replayed += p->replayed;
}

/* The runs the walkers share out (launch_walk_job()). */
struct launch_walker {
	struct launch_ctx	*part[2];
	struct launch_cur	*u;
	size_t			*lo;	/* set k: u[lo[k] .. lo[k + 1]) */
};

static int
launch_walk_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct launch_walker	*w = arg;

	(void)cause;
	launch_merge(w->part[tid], w->u + w->lo[job],
	    w->lo[job + 1] - w->lo[job]);
	return 0;
}

/*
 * A lane whose events overlap is walked as its list, the runs of the
 * others merged, those launched from one thread together.
 */
void
launch_walk(struct launch_ctx *c, struct launch_ctx *c2)
{
	struct launch_walker	 w;
	size_t			 nset = 0, two;
	const struct model	*m = c->m;
	struct launch_cur	*u = NULL;
	uint32_t		*idx = NULL, t, api;
	size_t			 icap = 0, ucap = 0, nu = 0, n, lo, i, e;
	struct evref		 r;
	int			 plain;

	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU ||
		    !c->sel->track(c->sel->arg, t))
			continue;
		plain = c->sel->plain(c->sel->arg, t);
		n = lane_overlap_range(&m->tracks[t].lane, c->sel->t0,
		    c->sel->t1, &idx, &icap, &lo);
		if (n == 0)
			continue;
		if (lo == LANE_LIST) {
			for (i = 0; i < n; i++)
				launch_kernel(c, t, idx[i], plain,
				    correlate_launch(m, model_gid(m, t,
				    idx[i])));
			continue;
		}
		XGROW(u, ucap, nu + 1);
		u[nu].t = t;
		u[nu].plain = plain;
		u[nu].i = lo;
		u[nu].hi = lo + n;
		u[nu].home = NONE32;
		for (i = lo; i < lo + n; i++) {
			api = correlate_launch(m, model_gid(m, t,
			    (uint32_t)i));
			if (api != NONE32) {
				r = model_ev(m, api);
				u[nu].home = r.track;
				break;
			}
		}
		nu++;
	}
	if (nu > 1)
		qsort(u, nu, sizeof *u, launch_cur_cmp);
	w.lo = xreallocarray(NULL, nu + 1, sizeof *w.lo);
	two = pool_sweep_threads() > 1;
	for (i = 0; i < nu; i = e) {
		w.lo[nset++] = i;
		two = two && u[i].plain;
		for (e = i + 1; e < nu && e - i < LAUNCH_MERGE &&
		    u[e].home == u[i].home; e++)
			two = two && u[e].plain;
	}
	w.lo[nset] = nu;
	w.u = u;
	w.part[0] = c;
	w.part[1] = c2;
	if (two && nset > 1) {
		launch_walk_init(c2, c->m, c->axes, c->naxes, c->sel);
		(void)pool_run(nset, 2, launch_walk_job, &w, NULL);
		launch_join(c, c2);
	} else
		for (i = 0; i < nset; i++)
			launch_merge(c, u + w.lo[i], w.lo[i + 1] - w.lo[i]);
	free(w.lo);
	free(u);
	free(idx);
}
