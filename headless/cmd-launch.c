/*
 * cmd-launch: `gpulens launch` measures kernel launch overhead, with the
 * definitions of nsys's cuda_kern_exec_sum (FORMATS.md section 2). For
 * every selected kernel with a launching API call (correlate.h):
 *   API time    = api.end - api.start
 *   queue time  = kernel.start - api.end, only when >= 0 (nsys's QCount
 *                 counts these; a kernel that starts before its call
 *                 returns has no queue time)
 *   kernel time = kernel.end - kernel.start
 *   total time  = max(api.end, kernel.end) - api.start
 * and the kernel is "short" when its kernel time is below its API time (it
 * ran for less time than it took to launch). Grouped by --group-by (api,
 * name, short-name, device, stream, pid, tid, or none for one overall row;
 * default api,name; nsys groups by pid,tid,device,api,name), each group
 * gives count, qcount, short_kernels and, for each of the four times, mean,
 * median, p90, p99, min, max and sample standard deviation (stats.h). API
 * names lose their "_vNNNN" suffix as in nsys. Kernels without a launching
 * call are counted in auxiliary.unlinked_kernels only. A graph launch
 * (model/replay.h) is one launch: the first kernel of each replay stands
 * for it (its queue time is the replay's launch latency), and the replay's
 * other kernels, which no call of their own launched, are left out and
 * counted in auxiliary.replayed_kernels.
 *
 * Where this differs: HTA's launch delay clips negative delays to 0 and
 * keeps them; nsys (and this verb) leaves them out of the queue statistics.
 * perf-advisor's "launch overhead" is kernel.start - api.start, which is
 * total time minus kernel time when the kernel starts after the call.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "model/correlate.h"
#include "headless/evrow.h"
#include "analysis/group.h"
#include "model/lane.h"
#include "model/replay.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/stats.h"
#include "analysis/syncwait.h"
#include "util/pool.h"
#include "util/rowkey.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define LAUNCH_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | \
    OPT_GROUP)

const struct cmd_entry cmd_launch_entry = {
	.name = "launch",
	.usage = "gpulens launch [OPTIONS] TRACE",
	.help =
	"Kernel launch overhead, as nsys's cuda_kern_exec_sum defines it: per\n"
	"(API name, kernel name) by default, or per --group-by axes (api, name,\n"
	"short-name, device, stream, pid, tid, none): API call time, queue\n"
	"delay (API end to kernel start, only when not negative), kernel time\n"
	"and total time, each with mean, median, p90, p99, min, max and\n"
	"stddev, and the number of kernels shorter than their launch call.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = LAUNCH_OPTS,
	.model = cmd_launch_run,
	.hints = { { "gpulens launch %s --group-by pid,tid,device,api,name",
	    1 } }
};

enum launch_axis {
	LA_API, LA_NAME, LA_SHORT, LA_DEVICE, LA_STREAM, LA_PID, LA_TID,
	LA_COUNT
};
static const char *launch_axis_names[LA_COUNT] = {
	"api", "name", "short-name", "device", "stream", "pid", "tid"
};
static const char *launch_axis_fields[LA_COUNT] = {
	"api", "name", "short_name", "device", "stream", "pid", "tid"
};

enum launch_time {
	LT_API, LT_QUEUE, LT_KERNEL, LT_TOTAL, LT_COUNT
};
static const char *launch_time_names[LT_COUNT] = {
	"api", "queue", "kernel", "total"
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

struct launch_group {
	struct stats_sample s[LS_COUNT];
	int64_t		 n, nshort, nqueue;	/* n: kept by launch_job() */
	uint32_t	 first;		/* its first kernel's global id */
	struct launch_group *x;		/* its kernels the other walker
					   added (launch_join()), or NULL */
};

#define LAUNCH_MEMO	4096	/* entries of the group cache */

struct launch_memo {
	uint32_t		 as, ks, at, kt;	/* names, tracks */
	uint32_t		 gi;		/* group + 1, 0 empty */
};

/* Working memory of the statistics of a group's times. */
struct launch_scratch {
	struct stats_acc	 sorted;	/* scratch of stats_sample_compute */
	struct stats_acc	 made;		/* a group's total times */
	uint32_t		*q32;		/* a group's narrow queue times */
	size_t			 q32cap;
};

struct launch_ctx {
	const struct model	*m;
	struct group_names	 names;
	int			 axes[LA_COUNT];
	int			 naxes;
	struct group_map	 map;		/* axis values -> group */
	struct launch_group	*g;
	size_t			 gcap;
	struct launch_scratch	 sc[POOL_MAX];	/* per thread of launch_job() */
	struct stats		*st;		/* per group, LT_COUNT each */
	uint32_t		 atrack;	/* track of the last API call */
	struct replay_names	 graph;		/* which calls launch graphs */
	struct launch_memo	*memo;		/* see launch_group() */
	int			 memo_ok;
	struct sel		*s;
	int64_t			 nsel, unlinked, replayed;
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
		c->g[gi].first = model_gid(m, t, i);
		for (j = 0; j < LS_COUNT; j++)
			stats_sample_init(&c->g[gi].s[j]);
	}
	return gi;
}

/*
 * launch_group_of() through a small direct-mapped cache: every axis but
 * short-name is a function of the call's and the kernel's tracks and
 * names, so these four find the group again.
 */
static size_t
launch_group(struct launch_ctx *c, uint32_t t, uint32_t i, struct evref r)
{
	const struct model	*m = c->m;
	uint32_t		 as = m->tracks[r.track].lane.name[r.idx];
	uint32_t		 ks = m->tracks[t].lane.name[i];
	struct launch_memo	*e;

	if (!c->memo_ok)
		return launch_group_of(c, t, i, r);
	e = &c->memo[(as * 2654435761u ^ ks * 40503u ^ t * 97u ^
	    r.track) & (LAUNCH_MEMO - 1)];
	if (e->gi == 0 || e->as != as || e->ks != ks || e->kt != t ||
	    e->at != r.track) {
		e->as = as;
		e->ks = ks;
		e->kt = t;
		e->at = r.track;
		e->gi = (uint32_t)launch_group_of(c, t, i, r) + 1;
	}
	return e->gi - 1;
}

/* Adds kernel i of track t, launched by the API call at r. */
static void
launch_add(struct launch_ctx *c, uint32_t t, uint32_t i, struct evref r)
{
	const struct model		*m = c->m;
	const struct lane		*l = &m->tracks[t].lane;
	const struct lane		*al = &m->tracks[r.track].lane;
	struct launch_group		*g;
	int64_t				 as, ae, ks, ke, adur, kdur;
	size_t				 gi;

	as = al->start[r.idx];
	ae = al->end[r.idx];
	ks = l->start[i];
	ke = l->end[i];
	gi = launch_group(c, t, i, r);	/* (a new group moves c->g) */
	g = &c->g[gi];
	if (model_gid(m, t, i) < g->first)
		g->first = model_gid(m, t, i);
	adur = ae - as;
	kdur = ke - ks;
	stats_sample_add(&g->s[LS_API], adur);
	stats_sample_add(&g->s[LS_KERNEL], kdur);
	stats_sample_add(&g->s[LS_DELAY], ks - ae);
	g->nqueue += ks - ae >= 0;
	if (kdur < adur)
		g->nshort++;
}

/*
 * Kernel i of track t, if selected (plain: by its kind alone), whose
 * launching call is api (NONE32 none).
 */
static void
launch_kernel(struct launch_ctx *c, uint32_t t, uint32_t i, int plain,
    uint32_t api)
{
	const struct model	*m = c->m;
	struct evref		 r;

	if (plain ? !sel_kind(c->s, &m->tracks[t].lane, i) :
	    !sel_event(c->s, t, i))
		return;
	c->nsel++;
	if (api == NONE32) {
		c->unlinked++;
		return;
	}
	r = model_ev_near(m, api, &c->atrack);
	/* Only a graph launch's kernels can be replays. */
	if (replay_names_launch(&c->graph, r) &&
	    replay_inner(m, model_gid(m, t, i))) {
		c->replayed++;
		return;
	}
	launch_add(c, t, i, r);
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
	size_t	j, b;

	for (j = 0; j < k; j++)
		u[j].key = launch_key(c->m, &u[j]);
	while (k > 0) {
		for (b = 0, j = 1; j < k; j++)
			if (u[j].key < u[b].key)
				b = j;
		launch_kernel(c, u[b].t, (uint32_t)u[b].i, u[b].plain,
		    u[b].key - 1);
		if (++u[b].i < u[b].hi)
			u[b].key = launch_key(c->m, &u[b]);
		else
			u[b] = u[--k];
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

/* Orders group indices by their first kernel. */
static int
launch_first_cmp(const void *a, const void *b, void *ctx)
{
	const struct launch_group	*g = ctx;
	uint32_t			 x = g[*(const size_t *)a].first;
	uint32_t			 y = g[*(const size_t *)b].first;

	return x < y ? -1 : x > y;
}

/* A second walker's context, as c but with groups of its own. */
static void
launch_part_init(struct launch_ctx *p, const struct launch_ctx *c)
{
	memset(p, 0, sizeof *p);
	p->m = c->m;
	memcpy(p->axes, c->axes, sizeof p->axes);
	p->naxes = c->naxes;
	p->memo_ok = c->memo_ok;
	p->s = c->s;
	p->atrack = NONE32;
	group_names_init(&p->names, p->m);
	group_map_init(&p->map, p->naxes > 0 ? (size_t)p->naxes : 1);
	replay_names_init(&p->graph, p->m);
	p->memo = xcalloc(LAUNCH_MEMO, sizeof *p->memo);
}

/* Frees a context's groups and walking state (not its scratch). */
static void
launch_part_free(struct launch_ctx *p)
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

/*
 * Joins the groups of the second walker p to c's: each finds (or makes)
 * c's group of its first kernel and hangs on it as x.
 */
static void
launch_join(struct launch_ctx *c, struct launch_ctx *p)
{
	const struct model	*m = c->m;
	struct launch_group	*g, *h;
	struct evref		 k, r;
	size_t			 gi, hi;

	for (hi = 0; hi < p->map.ng; hi++) {
		h = &p->g[hi];
		k = model_ev(m, h->first);
		r = model_ev(m, correlate_launch(m, h->first));
		gi = launch_group_of(c, k.track, k.idx, r);
		g = &c->g[gi];
		g->x = h;
		if (h->first < g->first)
			g->first = h->first;
		g->nqueue += h->nqueue;
		g->nshort += h->nshort;
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
 * Every selected kernel: a lane whose events overlap as its list, the
 * runs of the others merged, those launched from one thread together.
 * Where the selection looks at kinds only, the sets of runs are shared out
 * to two walkers, c and c2 (launch_join() then joins their groups).
 */
static void
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
		if (!sel_track(c->s, t) || m->tracks[t].type != TRACK_GPU)
			continue;
		plain = sel_lane_plain(c->s, t);
		n = lane_overlap_range(&m->tracks[t].lane, c->s->t0,
		    c->s->t1, &idx, &icap, &lo);
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
		launch_part_init(c2, c);
		(void)pool_run(nset, 2, launch_walk_job, &w, NULL);
		launch_join(c, c2);
	} else
		for (i = 0; i < nset; i++)
			launch_merge(c, u + w.lo[i], w.lo[i + 1] - w.lo[i]);
	free(w.lo);
	free(u);
	free(idx);
}

/* Appends the values of time j of g's kernels to v at k; returns k. */
static size_t
launch_made(const struct launch_group *g, int j, int64_t *v, size_t k)
{
	const struct stats_sample	*d = &g->s[LS_DELAY];
	int64_t				 x, y;
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
			y = x + stats_sample_at(&g->s[LS_KERNEL], i);
			v[k++] = stats_sample_at(&g->s[LS_API], i) +
			    (y > 0 ? y : 0);
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
 * The statistics of a group's time j: the API and kernel times straight
 * from their samples, the queue times filtered from the delays (as offsets
 * while those are narrow), the total times made from the three samples.
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

/* The statistics of group job's times, on thread tid (pool.h). */
static int
launch_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct launch_ctx	*c = arg;
	struct launch_group	*g = &c->g[job];
	int			 j;

	(void)cause;
	/* The made times first: computing a wide sample sorts it. */
	for (j = LT_COUNT; j-- > 0; )
		launch_time(&c->sc[tid], &c->g[job], j,
		    &c->st[job * LT_COUNT + j]);
	/* The samples are done with: freed here, on every thread. */
	g->n = (int64_t)g->s[LS_KERNEL].n;
	for (j = 0; j < LS_COUNT; j++)
		stats_sample_free(&g->s[j]);
	if (g->x != NULL) {
		g->n += (int64_t)g->x->s[LS_KERNEL].n;
		for (j = 0; j < LS_COUNT; j++)
			stats_sample_free(&g->x->s[j]);
	}
	return 0;
}

static void
launch_stats(cJSON *row, const char *pre, const struct stats *s)
{
	static const char	*sfx[] = { "mean", "median", "p90", "p99",
				    "min", "max", "stddev" };
	double			 val[7];
	char			 key[64];
	size_t			 j;

	if (s->count > 0) {
		val[0] = s->mean;
		val[1] = s->median;
		val[2] = s->p90;
		val[3] = s->p99;
		val[6] = s->stddev;
	}
	for (j = 0; j < sizeof sfx / sizeof sfx[0]; j++) {
		snprintf(key, sizeof key, "%s_%s_ns", pre, sfx[j]);
		if (s->count == 0)
			cJSON_AddNullToObject(row, key);
		else if (j == 4 || j == 5)
			out_int(row, key, j == 4 ? s->min : s->max);
		else
			out_num(row, key, val[j]);
	}
}

static void
launch_row(struct launch_ctx *c, struct out *out, size_t gi)
{
	const struct model	*m = c->m;
	struct launch_group	*g = &c->g[gi];
	const uint32_t		*gv = group_map_key(&c->map, gi);
	cJSON			*row = out_row(out);
	char			 key[8192], num[32];
	struct stats		*st = &c->st[gi * LT_COUNT];
	size_t			 o = 0;
	int			 j, ax;
	uint32_t		 v;
	uint64_t		 n;
	enum evrow_ident	 id;
	int64_t			 count = g->n;

	/* The key: "launch" and the group's axes (rowkey.h). */
	o = (size_t)snprintf(key, sizeof key, "launch");
	for (j = 0; j < c->naxes; j++) {
		ax = c->axes[j];
		v = gv[j];
		switch (ax) {
		case LA_API: case LA_NAME: case LA_SHORT:
			rowkey_name(key, sizeof key, &o,
			    launch_axis_fields[ax], group_str(&c->names, v));
			out_str(row, launch_axis_fields[ax],
			    group_str(&c->names, v));
			break;
		default:
			/* LA_DEVICE, LA_STREAM, LA_PID, LA_TID, in order. */
			id = (enum evrow_ident)(ax - LA_DEVICE);
			if (evrow_ident_id(m, id, v, &n))
				snprintf(num, sizeof num, "%llu",
				    (unsigned long long)n);
			else
				snprintf(num, sizeof num, "none");
			group_key_part(key, sizeof key, &o,
			    evrow_ident_field(id), num);
			evrow_ident(row, m, id, v);
			break;
		}
	}
	out_str(row, "key", key);
	out_int(row, "count", count);
	out_int(row, "qcount", g->nqueue);
	out_int(row, "short_kernels", g->nshort);
	out_num(row, "short_kernels_pct", count > 0 ? 100.0 *
	    (double)g->nshort / (double)count : 0.0);
	for (j = 0; j < LT_COUNT; j++)
		launch_stats(row, launch_time_names[j], &st[j]);
}

/*
 * The host time blocked on the GPU in the window (syncwait.h), in total
 * and per thread of the selected processes and threads: what the host lost
 * waiting for the work it launched.
 */
static void
launch_sync(const struct model *m, const struct sel *s, struct out *out)
{
	const struct syncwait_thread	*th;
	struct syncwait			 w;
	cJSON				*arr, *o;
	int64_t				 win = s->t1 - s->t0, pid, tid;
	size_t				 i;

	syncwait_build(&w, m, s->t0, s->t1);
	out_int(out->aux, "sync_calls", (int64_t)w.calls);
	out_int(out->aux, "sync_blocked_ns", w.blocked);
	out_num(out->aux, "sync_blocked_pct", win > 0 ? 100.0 *
	    (double)w.blocked / (double)win : 0.0);
	arr = cJSON_AddArrayToObject(out->aux, "sync_threads");
	for (i = 0; i < w.n; i++) {
		th = &w.th[i];
		pid = th->process < m->nprocesses ?
		    (int64_t)m->processes[th->process].pid : -1;
		tid = th->thread < m->nthreads ?
		    (int64_t)m->threads[th->thread].tid : -1;
		if ((s->pid >= 0 && pid != s->pid) ||
		    (s->tid >= 0 && tid != s->tid))
			continue;
		o = cJSON_CreateObject();
		out_int_or_null(o, "pid", pid >= 0, pid);
		out_int_or_null(o, "tid", tid >= 0, tid);
		out_int(o, "calls", (int64_t)th->calls);
		out_int(o, "sync_calls", (int64_t)th->sync_calls);
		out_int(o, "blocked_ns", th->blocked);
		out_int(o, "sync_ns", th->sync);
		out_num(o, "blocked_pct", win > 0 ? 100.0 *
		    (double)th->blocked / (double)win : 0.0);
		cJSON_AddItemToArray(arr, o);
	}
	syncwait_free(&w);
}

int
cmd_launch_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct launch_ctx	 c, c2;
	struct opts		 ko = *o;
	struct sel		 s;
	size_t			*order = NULL, k, gi;
	int64_t			 nsel, unlinked;
	int			 rc = 0;

	memset(&c, 0, sizeof c);
	memset(&c2, 0, sizeof c2);
	c.m = m;
	c.atrack = NONE32;
	group_names_init(&c.names, m);
	ko.type = EV_KERNEL;
	if (group_parse_axes(o->group_by, "api,name", launch_axis_names,
	    LA_COUNT, GROUP_NONE | GROUP_UNIQUE, c.axes, &c.naxes,
	    cause) != 0 ||
	    sel_init(&s, m, &ko, cause) != 0) {
		*code = "usage";
		rc = -1;
		goto done;
	}
	/* The key: one value per axis (one 0 for none). */
	group_map_init(&c.map, c.naxes > 0 ? (size_t)c.naxes : 1);
	if (sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	replay_names_init(&c.graph, m);
	c.memo = xcalloc(LAUNCH_MEMO, sizeof *c.memo);
	c.memo_ok = 1;
	for (k = 0; k < (size_t)c.naxes; k++)
		if (c.axes[k] == LA_SHORT)
			c.memo_ok = 0;
	c.s = &s;
	launch_walk(&c, &c2);
	sel_free(&s);
	nsel = c.nsel;
	unlinked = c.unlinked;
	/* The rows in the order of the groups' first kernels. */
	order = xreallocarray(NULL, c.map.ng + 1, sizeof *order);
	for (gi = 0; gi < c.map.ng; gi++)
		order[gi] = gi;
	sort_stable(order, c.map.ng, sizeof *order, launch_first_cmp, c.g);
	/* The groups' statistics are independent: on every thread. */
	c.st = xreallocarray(NULL, c.map.ng + 1, LT_COUNT * sizeof *c.st);
	(void)pool_run(c.map.ng, pool_sweep_threads(), launch_job, &c, NULL);
	for (gi = 0; gi < c.map.ng; gi++)
		launch_row(&c, out, order[gi]);
	out->default_sort = "total_mean_ns:desc";
	out_int(out->aux, "kernels", nsel);
	out_int(out->aux, "linked_kernels", nsel - unlinked);
	out_int(out->aux, "unlinked_kernels", unlinked);
	out_int(out->aux, "replayed_kernels", c.replayed);
	launch_sync(m, &s, out);	/* its window and filters: scalars,
					   still set after sel_free */
	if (nsel == 0)
		out_warn(out, "no_match",
		    "no kernels match");
	else if (c.map.ng == 0)
		out_warn(out, "no_launch_call",
		    "none of the %lld selected kernels has a "
		    "launching API call", (long long)nsel);
	else if (unlinked > 0)
		out_warn(out, "no_launch_call",
		    "%lld of %lld kernels have no launching API call "
		    "and are left out", (long long)unlinked, (long long)nsel);
done:
	launch_part_free(&c);
	launch_part_free(&c2);
	for (k = 0; k < POOL_MAX; k++) {
		stats_acc_free(&c.sc[k].sorted);
		stats_acc_free(&c.sc[k].made);
		free(c.sc[k].q32);
	}
	free(c.st);
	free(order);
	return rc;
}

