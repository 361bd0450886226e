/*
 * nvgroup: NVTX ranges grouped by (domain, family path, style), with their
 * CPU durations and GPU sums. See nvgroup.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/group.h"
#include "analysis/nvgroup.h"
#include "analysis/nvtree.h"
#include "model/nvtx.h"
#include "util/pool.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/*
 * The ranges of one CPU thread's NVTX tracks (or of the tracks of no
 * thread), grouped alone: its own map and groups, whose index + 1 it
 * writes into of[] for each range it keeps; its paths are nodes of the
 * pathset of the pool thread that grouped it (tid).
 */
struct nvg_job {
	uint32_t		*trk;		/* its tracks, in order */
	size_t			 ntrk;
	int			 done;
	unsigned		 tid;
	struct group_map	 by;
	struct nvgroup		*g;
	uint32_t		*nm;		/* per group: its name's id */
	size_t			 ng, gcap, nmcap;
};

/*
 * What a pool thread keeps across the jobs it takes (so that a job costs
 * what its ranges do, however many CPU threads there are): its pathset,
 * and per path node the group a job last found for it (job + 1, group).
 */
struct nvg_tstate {
	int			 used;
	struct nvtx_pathset	 np;
	uint32_t		(*pg)[2];
	size_t			 npg;
	uint32_t		*idx;
	size_t			 icap;
	POOL_PAD;
};

struct nvg_ctx {
	const struct model		*m;
	const struct nvgroup_sel	*sel;
	size_t				*off;	/* nvtree_proj_offsets() */
	uint32_t			*of;	/* range -> group + 1, 0: none */
	uint32_t			*job_of_thread;
	uint32_t			*job_of_track;
	struct nvg_job			*job;
	size_t				 njob;
	struct nvg_tstate		 ts[POOL_MAX];
	struct nvtx_projector		 pj[POOL_MAX];
};

/* The depth of range gid (track t, index i) whose path is node. */
static int64_t
nvg_depth(const struct nvtx_pathset *np, uint32_t t, uint32_t i,
    uint32_t node)
{
	const struct model	*m = np->m;
	uint32_t		 aux = m->tracks[t].lane.aux[i];

	if (aux == NONE32 || aux >= m->nnvtx || node == NONE32)
		return nvtx_depth(m, model_gid(m, t, i));
	return np->node[node].depth;
}

/* Groups the ranges of job j's tracks, on pool thread tid. */
static void
nvg_group(struct nvg_ctx *c, size_t j, unsigned tid)
{
	const struct model		*m = c->m;
	const struct nvgroup_sel	*sel = c->sel;
	struct nvg_job			*jb = &c->job[j];
	struct nvg_tstate		*ts = &c->ts[tid];
	const struct track		*tr;
	const struct lane		*l;
	struct nvgroup			*ag;
	uint32_t			 gk[3], t, e, pid, *pg;
	size_t				 x, k, i, ai, k0, lo;
	int				 isnew;

	jb->done = 1;
	jb->tid = tid;
	if (!ts->used) {
		nvtx_pathset_init(&ts->np, m, 1);
		ts->used = 1;
	}
	group_map_init(&jb->by, 3);
	for (x = 0; x < jb->ntrk; x++) {
		t = jb->trk[x];
		tr = &m->tracks[t];
		l = &tr->lane;
		k = lane_overlap_range(l, sel->t0, sel->t1, &ts->idx,
		    &ts->icap, &lo);
		nvtx_pathset_track(&ts->np, t);
		for (i = 0; i < k; i++) {
			e = (uint32_t)lane_at(ts->idx, lo, i);
			if (!sel->event(sel->arg, t, e))
				continue;
			pid = nvtx_pathset_id(&ts->np, model_gid(m, t, e));
			gk[0] = tr->domain;
			gk[1] = pid;
			gk[2] = (l->flags[e] & EVF_STARTEND) != 0;
			/* Mostly the group last found for the path. */
			pg = pid < ts->npg ? ts->pg[pid] : NULL;
			if (pg != NULL && pg[0] == j + 1 &&
			    jb->g[pg[1]].domain == gk[0] &&
			    (uint32_t)jb->g[pg[1]].startend == gk[2]) {
				ai = pg[1];
				isnew = 0;
			} else
				ai = group_map_find(&jb->by, gk, &isnew);
			if (pid != NONE32) {
				if (pid >= ts->npg) {
					k0 = ts->npg;
					XGROW(ts->pg, ts->npg, (size_t)pid + 1);
					memset(ts->pg + k0, 0,
					    (ts->npg - k0) * sizeof *ts->pg);
				}
				ts->pg[pid][0] = (uint32_t)j + 1;
				ts->pg[pid][1] = (uint32_t)ai;
			}
			if (isnew) {
				XGROW(jb->g, jb->gcap, jb->ng + 1);
				ag = &jb->g[jb->ng++];
				memset(ag, 0, sizeof *ag);
				ag->domain = gk[0];
				ag->path = pid;
				XGROW(jb->nm, jb->nmcap, jb->ng);
				jb->nm[jb->ng - 1] = nvtx_pathset_name_id(
				    &ts->np, l->name[e]);
				ag->depth = nvg_depth(&ts->np, t, e, pid);
				ag->startend = (int)gk[2];
				ag->first_t = t;
				ag->first_i = e;
				stats_sample_init(&ag->cpu);
			}
			stats_sample_add(&jb->g[ai].cpu,
			    l->end[e] - l->start[e]);
			c->of[c->off[t] + e] = (uint32_t)ai + 1;
		}
	}
}

/* The sweep is about to take thread th: its ranges are grouped first. */
static void
nvg_begin(void *arg, unsigned tid, uint32_t th)
{
	struct nvg_ctx	*c = arg;
	uint32_t	 j = c->job_of_thread[th];

	if (j != NONE32 && !c->job[j].done)
		nvg_group(c, j, tid);
}

/* Adds the GPU sums of range i of track t to its group. */
static void
nvg_range(void *arg, unsigned tid, uint32_t t, uint32_t i,
    const struct nvtree_span *sp, int64_t busy)
{
	struct nvg_ctx		*c = arg;
	uint32_t		 j = c->job_of_track[t], g;
	struct nvgroup		*a;
	struct nvtx_proj	 full;

	if (j == NONE32 || (g = c->of[c->off[t] + i]) == 0)
		return;
	a = &c->job[j].g[g - 1];
	a->proj_total += sp->hi - sp->lo;
	a->with_gpu++;
	a->kernels += sp->nkernels;
	if (busy < 0) {
		nvtx_project_with(&c->pj[tid], c->m, model_gid(c->m, t, i),
		    &full);
		busy = full.busy;
	}
	a->busy_total += busy;
}

/* The jobs: the NVTX tracks sel keeps, by CPU thread. */
static void
nvg_jobs(struct nvg_ctx *c)
{
	const struct model	*m = c->m;
	uint32_t		 t, th, j, none = NONE32;
	struct nvg_job		*jb;

	c->job_of_thread = xcalloc(m->nthreads + 1, sizeof *c->job_of_thread);
	c->job_of_track = xcalloc(m->ntracks + 1, sizeof *c->job_of_track);
	for (th = 0; th < m->nthreads; th++)
		c->job_of_thread[th] = NONE32;
	c->job = xcalloc(m->ntracks + 1, sizeof *c->job);
	for (t = 0; t < m->ntracks; t++) {
		c->job_of_track[t] = NONE32;
		if (m->tracks[t].type != TRACK_NVTX ||
		    !c->sel->track(c->sel->arg, t))
			continue;
		th = m->tracks[t].thread;
		j = th < m->nthreads ? c->job_of_thread[th] : none;
		if (j == NONE32) {
			j = (uint32_t)c->njob++;
			if (th < m->nthreads)
				c->job_of_thread[th] = j;
			else
				none = j;
		}
		jb = &c->job[j];
		jb->trk = xreallocarray(jb->trk, jb->ntrk + 1, sizeof *jb->trk);
		jb->trk[jb->ntrk++] = t;
		c->job_of_track[t] = j;
	}
}

static int
nvg_first_cmp(const void *a, const void *b)
{
	const struct nvgroup	*x = a, *y = b;

	return sort_lex2(x->first_t, y->first_t, x->first_i, y->first_i);
}

/* One group of the result: the jobs' groups of one key, in one. */
static void
nvg_merge(struct nvgroups *r, struct group_map *by,
    const struct nvtx_pathset *src, struct nvgroup *lg, size_t *cap,
    uint32_t *memo)
{
	struct nvgroup	*g;
	uint32_t	 gk[3];
	size_t		 gi, i;
	int		 isnew;

	gk[0] = lg->domain;
	gk[1] = nvtx_pathset_import(&r->np, src, lg->path, memo);
	gk[2] = (uint32_t)lg->startend;
	gi = group_map_find(by, gk, &isnew);
	if (isnew) {
		XGROW(r->g, *cap, r->n + 1);
		r->g[r->n] = *lg;
		r->g[r->n++].path = gk[1];
		memset(&lg->cpu, 0, sizeof lg->cpu);	/* moved */
		return;
	}
	g = &r->g[gi];
	for (i = 0; i < lg->cpu.n; i++)
		stats_sample_add(&g->cpu, stats_sample_at(&lg->cpu, i));
	g->proj_total += lg->proj_total;
	g->busy_total += lg->busy_total;
	g->kernels += lg->kernels;
	g->with_gpu += lg->with_gpu;
	if (nvg_first_cmp(lg, g) < 0) {
		g->first_t = lg->first_t;
		g->first_i = lg->first_i;
		g->name = lg->name;
		g->depth = lg->depth;
	}
}

void
nvgroups_build(const struct model *m, const struct nvgroup_sel *sel,
    struct nvgroups *r)
{
	struct nvg_ctx		*c = xcalloc(1, sizeof *c);
	struct group_map	 by;
	uint32_t		*memo[POOL_MAX];
	size_t			 j, i, total, cap = 0;

	memset(r, 0, sizeof *r);
	c->m = m;
	c->sel = sel;
	c->off = nvtree_proj_offsets(m, &total);
	c->of = xcalloc(total + 1, sizeof *c->of);
	nvg_jobs(c);
	/* Selections that may not run on several threads are grouped
	 * first; the others each on the thread that sweeps its calls. */
	for (j = 0; !sel->shared && j < c->njob; j++)
		nvg_group(c, j, 0);
	nvtree_proj_each(m, nvg_begin, nvg_range, c);
	for (j = 0; j < c->njob; j++)
		if (!c->job[j].done)
			nvg_group(c, j, 0);
	nvtx_pathset_init(&r->np, m, 1);
	group_map_init(&by, 3);
	/* Per pool thread, its path nodes imported: r's node + 1, 0 not
	 * yet. */
	for (j = 0; j < POOL_MAX; j++)
		memo[j] = c->ts[j].used ? xcalloc(c->ts[j].np.nn + 1,
		    sizeof *memo[j]) : NULL;
	for (j = 0; j < c->njob; j++) {
		struct nvg_job *jb = &c->job[j];
		struct nvg_tstate *ts = &c->ts[jb->tid];
		/* (The pools' strings stay where they are from now on.) */
		for (i = 0; i < jb->ng; i++) {
			jb->g[i].name = strpool_get(ts->np.local, jb->nm[i]);
			nvg_merge(r, &by, &ts->np, &jb->g[i], &cap,
			    memo[jb->tid]);
		}
	}
	if (r->n > 1)
		qsort(r->g, r->n, sizeof *r->g, nvg_first_cmp);
	group_map_free(&by);
	for (j = 0; j < c->njob; j++) {
		struct nvg_job *jb = &c->job[j];
		for (i = 0; i < jb->ng; i++)
			stats_sample_free(&jb->g[i].cpu);
		free(jb->g);
		free(jb->nm);
		free(jb->trk);
		group_map_free(&jb->by);
	}
	free(c->job);
	c->job = NULL;
	for (j = 0; j < POOL_MAX; j++) {
		free(memo[j]);
		free(c->ts[j].pg);
		free(c->ts[j].idx);
		c->ts[j].pg = NULL;
		c->ts[j].idx = NULL;
		nvtx_projector_free(&c->pj[j]);
	}
	free(c->off);
	free(c->of);
	free(c->job_of_thread);
	free(c->job_of_track);
	/* The names point into the pool threads' pathsets: kept with the
	 * result. */
	r->priv = c;
}

void
nvgroups_free(struct nvgroups *r)
{
	struct nvg_ctx	*c = r->priv;
	size_t		 i;

	for (i = 0; i < r->n; i++)
		stats_sample_free(&r->g[i].cpu);
	free(r->g);
	nvtx_pathset_free(&r->np);
	if (c != NULL) {
		for (i = 0; i < POOL_MAX; i++)
			if (c->ts[i].used)
				nvtx_pathset_free(&c->ts[i].np);
		free(c);
	}
	memset(r, 0, sizeof *r);
}
