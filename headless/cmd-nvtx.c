/*
 * cmd-nvtx: `gpulens nvtx` shows NVTX ranges aggregated by path (default)
 * or, with --tree, every range instance with its depth and path.
 *
 * CPU time is the range's own duration. The GPU projection follows nsys's
 * nvtx_gpu_proj_trace (nvtx.h): the GPU work launched by API calls made
 * inside the range on its thread; projected time = last GPU end - first GPU
 * start, GPU busy = the union of that work's durations. The projection of
 * every range comes from the sweep the NVTX view's tree uses
 * (analysis/nvtree.h), the union too where the sweep can tell it; the
 * other unions are computed per range. The groups and their sums are
 * analysis/nvgroup.h's; this verb makes their rows. With --tree sorted by start,
 * duration or id, only the page's ranges are projected, one by one; by
 * GPU busy time, operations or kernels, only the page's ranges become
 * rows.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/evpage.h"
#include "analysis/nvgroup.h"
#include "analysis/nvtree.h"
#include "model/nvtx.h"
#include "model/nvtxpath.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "headless/worksel.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define NVTX_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER | OPT_TREE)

static cmd_run_t	nvtx_run;

const struct cmd_entry cmd_nvtx_entry = {
	.name = "nvtx",
	.usage = "gpulens nvtx [--tree] [OPTIONS] TRACE",
	.help =
	"NVTX ranges aggregated by domain and path: instances, CPU time (total,\n"
	"mean, median), GPU-projected time and GPU busy time of the work they\n"
	"launched, kernel count. With --tree, one row per range instance with\n"
	"its depth, path, iteration, start, duration and projection.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = NVTX_OPTS,
	.run = nvtx_run
};


/*
 * The projection of range i of NVTX track t: start, end, operations,
 * kernels and mostly the union (busy) of the work from the one sweep
 * (analysis/nvtree.h), the union the sweep could not tell from
 * nvtx_project_with(); without the
 * sweep (pr NULL, for a few ranges), all of it from nvtx_project_with(),
 * which answers the same.
 */
static void
nvtx_range_proj(const struct model *m, const struct nvtree_proj *pr,
    struct nvtx_projector *pj, uint32_t t, uint32_t i, struct nvtx_proj *p)
{
	const struct nvtree_span *sp;
	struct nvtx_proj	 full;

	if (pr == NULL) {
		nvtx_project_with(pj, m, model_gid(m, t, i), p);
		return;
	}
	sp = &pr->span[pr->off[t] + i];
	memset(p, 0, sizeof *p);
	if (sp->nops == 0)
		return;
	p->start = sp->lo;
	p->end = sp->hi;
	p->nops = sp->nops;
	p->nkernels = sp->nkernels;
	if (pr->busy != NULL && pr->busy[pr->off[t] + i] >= 0) {
		p->busy = pr->busy[pr->off[t] + i];
		return;
	}
	nvtx_project_with(pj, m, model_gid(m, t, i), &full);
	p->busy = full.busy;
}

static void
nvtx_tree_row(struct out *out, const struct model *m, uint32_t t,
    uint32_t i, const char *path, int64_t depth, int64_t base,
    struct nvtx_projector *pj, const struct nvtree_proj *pr)
{
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	uint32_t		 gid = model_gid(m, t, i);
	struct nvtx_proj	 p;
	cJSON			*row = out_row(out);
	char			 key[32];

	nvtx_range_proj(m, pr, pj, t, i, &p);
	rowkey_buf(key, sizeof key, "ev", "id=%u", gid);
	out_str(row, "key", key);
	out_int(row, "id", gid);
	out_str(row, "name", model_str(m, l->name[i]));
	out_str(row, "path", path);
	out_str(row, "domain", model_str(m, m->domains[tr->domain].name));
	out_int(row, "depth", depth);
	if (l->aux[i] != NONE32)
		out_int(row, "iter", m->nvtx[l->aux[i]].iter);
	out_int(row, "start_ns", l->start[i] - base);
	out_int(row, "duration_ns", l->end[i] - l->start[i]);
	out_bool(row, "open", (l->flags[i] & EVF_OPEN) != 0);
	if (p.nops > 0) {
		out_int(row, "gpu_start_ns", p.start - base);
		out_int(row, "gpu_proj_ns", p.end - p.start);
	} else {
		cJSON_AddNullToObject(row, "gpu_start_ns");
		cJSON_AddNullToObject(row, "gpu_proj_ns");
	}
	out_int(row, "gpu_busy_ns", p.busy);
	out_int(row, "gpu_ops", p.nops);
	out_int(row, "kernels", p.nkernels);
	if (tr->thread != NONE32)
		out_int(row, "tid", m->threads[tr->thread].tid);
	if (tr->process != NONE32)
		out_int(row, "pid", m->processes[tr->process].pid);
}

/*
 * The depth of range gid, whose path is node: the node's depth (the
 * length of its parent chain, as nvtx_depth() counts it, without walking
 * the chain again), or for a range with no NVTX record nvtx_depth()'s
 * answer (its lane depth, O(1)).
 */
static int64_t
nvtx_range_depth(const struct nvtx_pathset *np, uint32_t gid, uint32_t node)
{
	const struct model	*m = np->m;
	struct evref		 r = model_ev(m, gid);
	uint32_t		 aux = m->tracks[r.track].lane.aux[r.idx];

	if (aux == NONE32 || aux >= m->nnvtx || node == NONE32)
		return nvtx_depth(m, gid);
	return np->node[node].depth;
}

/*
 * The --tree sort fields nvtx_page() reads for every range: those the
 * lanes hold, then those of the projection sweep (every row has them).
 */
static const char *const nvtx_page_fields[] = {
	"start_ns", "duration_ns", "id", "gpu_busy_ns", "gpu_ops", "kernels",
	NULL
};
#define NVTX_PAGE_PROJ	3	/* the first field of the sweep's */

/*
 * Whether --fields names a field that only some --tree rows have (out.c
 * refuses a field that no row has, so that test needs every row).
 */
static int
nvtx_fields_sparse(const char *fields)
{
	static const char *const sparse[] = { "iter", "tid", "pid", NULL };
	const char	*f = fields, *e;
	size_t		 n, k;

	for (; f != NULL && *f != '\0'; f = *e != '\0' ? e + 1 : e) {
		e = f + strcspn(f, ",");
		n = (size_t)(e - f);
		for (k = 0; sparse[k] != NULL; k++)
			if (strlen(sparse[k]) == n &&
			    strncmp(f, sparse[k], n) == 0)
				return 1;
	}
	return 0;
}

/*
 * --tree sorted by start, duration or id (the default is by start) with a
 * --limit: only the page's ranges become rows (headless/evpage.h), each
 * with its path and projection found alone (nvtx_pathset_id(),
 * nvtx_project_with()), so neither the projection sweep nor a row per
 * range is made. Sorted by GPU busy time, operations or kernels, the
 * sweep gives every range's value (nvtx_range_proj(), as the rows have
 * it), and still only the page's ranges become rows. Returns 0 when the
 * options want every row (the caller makes them), else 1 with the rows
 * added and out->total_matched set.
 */
static int
nvtx_page(const struct model *m, const struct opts *o, struct sel *s,
    struct nvtx_pathset *np, struct nvtx_projector *pj, struct out *out)
{
	struct evpage		 pg;
	struct evref		 r;
	const struct lane	*l;
	struct nvtree_proj	 pr;
	struct nvtx_proj	 p;
	uint32_t		*idx = NULL, t, e, node;
	size_t			 icap = 0, k, i, n = 0;
	int			 f, desc;
	int64_t			 v;

	f = evpage_field(o->sort != NULL ? o->sort : "start_ns:asc",
	    nvtx_page_fields, &desc);
	if (f < 0 || nvtx_fields_sparse(out->fields) ||
	    !evpage_init(&pg, out->offset, out->limit, desc))
		return 0;
	memset(&pr, 0, sizeof pr);
	if (f >= NVTX_PAGE_PROJ)
		nvtree_proj_build_busy(m, &pr);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_NVTX || !sel_track(s, t))
			continue;
		l = &m->tracks[t].lane;
		k = lane_overlap(l, s->t0, s->t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			e = idx[i];
			if (!sel_event(s, t, e))
				continue;
			n++;
			if (f >= NVTX_PAGE_PROJ) {
				nvtx_range_proj(m, &pr, pj, t, e, &p);
				v = f == NVTX_PAGE_PROJ ? p.busy : f ==
				    NVTX_PAGE_PROJ + 1 ? (int64_t)p.nops :
				    (int64_t)p.nkernels;
			} else
				v = f == 0 ? l->start[e] : f == 1 ?
				    l->end[e] - l->start[e] :
				    model_gid(m, t, e);
			evpage_add(&pg, v, model_gid(m, t, e));
		}
	}
	evpage_sort(&pg);
	for (i = 0; i < pg.n; i++) {
		r = model_ev(m, pg.h[i].gid);
		node = nvtx_pathset_id(np, pg.h[i].gid);
		nvtx_tree_row(out, m, r.track, r.idx,
		    nvtx_pathset_str(np, node),
		    nvtx_range_depth(np, pg.h[i].gid, node),
		    o->absolute ? 0 : m->origin_ns, pj,
		    pr.off != NULL ? &pr : NULL);
	}
	out->total_matched = (long long)n;
	nvtree_proj_free(&pr);
	evpage_free(&pg);
	free(idx);
	return 1;
}

/* The process a named domain belongs to, per domain (see nvtx_run()). */
static uint32_t *
nvtx_domain_procs(const struct model *m)
{
	uint32_t	*dproc = xcalloc(m->ndomains + 1, sizeof *dproc);
	size_t		 k, t;

	/*
	 * The reader's, else that of all its tracks (a Kineto "pytorch"
	 * domain per rank), else none.
	 */
	for (k = 0; k < m->ndomains; k++)
		dproc[k] = m->domains[k].process != NONE32 ?
		    m->domains[k].process : NONE32 - 1;
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_NVTX || tr->domain >= m->ndomains ||
		    m->domains[tr->domain].process != NONE32 ||
		    *model_str(m, m->domains[tr->domain].name) == '\0')
			continue;
		if (dproc[tr->domain] == NONE32 - 1)
			dproc[tr->domain] = tr->process;
		else if (dproc[tr->domain] != tr->process)
			dproc[tr->domain] = NONE32;
	}
	return dproc;
}

/* One row per group (analysis/nvgroup.h). */
static void
nvtx_group_rows(const struct model *m, struct sel *s, struct out *out)
{
	struct nvgroup_sel	 ns;
	struct nvgroups		 r;
	struct nvgroup		*g;
	struct stats		 st;
	struct stats_acc	 sorted;	/* stats_sample_compute's */
	uint32_t		*dproc = nvtx_domain_procs(m), proc;
	const char		*path, *dom;
	char			 key[8300];
	size_t			 i;

	memset(&ns, 0, sizeof ns);
	ns.t0 = s->t0;
	ns.t1 = s->t1;
	ns.track = worksel_track;
	ns.event = worksel_event;
	ns.arg = s;
	ns.shared = s->name_cache == NULL;	/* sel_event() memoises names */
	nvgroups_build(m, &ns, &r);
	stats_acc_init(&sorted);
	for (i = 0; i < r.n; i++) {
		cJSON *row = out_row(out);
		g = &r.g[i];
		dom = model_str(m, m->domains[g->domain].name);
		stats_sample_compute(&g->cpu, &st, &sorted);
		path = nvtx_pathset_str(&r.np, g->path);
		/* A named domain belongs to one process, and its rows are
		 * that process's: the key says which. */
		proc = dproc[g->domain];
		if (proc != NONE32 && proc < m->nprocesses)
			rowkey_buf(key, sizeof key, "range", "domain=%s|"
			    "path=%s|style=%s|pid=%lld", dom, path,
			    g->startend ? "StartEnd" : "PushPop",
			    (long long)m->processes[proc].pid);
		else
			rowkey_buf(key, sizeof key, "range", "domain=%s|"
			    "path=%s|style=%s", dom, path,
			    g->startend ? "StartEnd" : "PushPop");
		out_str(row, "key", key);
		out_str(row, "domain", dom);
		if (proc != NONE32 && proc < m->nprocesses)
			out_int(row, "pid", m->processes[proc].pid);
		out_str(row, "path", path);
		out_str(row, "name", g->name);
		out_str(row, "style", g->startend ? "StartEnd" : "PushPop");
		out_int(row, "depth", g->depth);
		out_int(row, "count", (int64_t)st.count);
		out_int(row, "cpu_total_ns", st.total);
		out_num(row, "cpu_mean_ns", st.mean);
		out_num(row, "cpu_median_ns", st.median);
		out_int(row, "cpu_min_ns", st.min);
		out_int(row, "cpu_max_ns", st.max);
		out_int(row, "gpu_proj_total_ns", g->proj_total);
		out_int(row, "gpu_busy_ns", g->busy_total);
		out_int(row, "kernels", (int64_t)g->kernels);
		out_int(row, "with_gpu_work", (int64_t)g->with_gpu);
	}
	stats_acc_free(&sorted);
	nvgroups_free(&r);
	free(dproc);
}

/* One row per range (--tree). */
static void
nvtx_tree_rows(const struct model *m, const struct opts *o, struct sel *s,
    struct out *out)
{
	struct nvtx_pathset	 np;
	struct nvtx_projector	 pj;
	struct nvtree_proj	 pr;
	uint32_t		*idx = NULL, t, e, gid, pid;
	size_t			 icap = 0, k, i;
	int64_t			 base = o->absolute ? 0 : m->origin_ns;

	memset(&pj, 0, sizeof pj);
	memset(&pr, 0, sizeof pr);
	nvtx_pathset_init(&np, m, 0);
	if (!nvtx_page(m, o, s, &np, &pj, out))
		nvtree_proj_build_busy(m, &pr);
	for (t = 0; pr.off != NULL && t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		if (m->tracks[t].type != TRACK_NVTX || !sel_track(s, t))
			continue;
		k = lane_overlap(l, s->t0, s->t1, &idx, &icap);
		nvtx_pathset_track(&np, t);
		for (i = 0; i < k; i++) {
			e = idx[i];
			if (!sel_event(s, t, e))
				continue;
			gid = model_gid(m, t, e);
			pid = nvtx_pathset_id(&np, gid);
			nvtx_tree_row(out, m, t, e, nvtx_pathset_str(&np, pid),
			    nvtx_range_depth(&np, gid, pid), base, &pj, &pr);
		}
	}
	free(idx);
	nvtx_pathset_free(&np);
	nvtx_projector_free(&pj);
	nvtree_proj_free(&pr);
}

static int
nvtx_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	struct opts		 o = *ctx->o;
	struct sel		 s;

	(void)code;
	o.type = EV_NVTX;
	if (sel_init(&s, m, &o, cause) != 0)
		return -1;
	if (o.tree)
		nvtx_tree_rows(m, &o, &s, out);
	else
		nvtx_group_rows(m, &s, out);
	if (cJSON_GetArraySize(out->rows) == 0)
		out_warn(out, "no_match",
		    "no NVTX ranges match");
	out->default_sort = o.tree ? "start_ns:asc" : "cpu_total_ns:desc";
	out->shape = o.tree ? 2 : 1;	/* see cols/nvtx.c */
	sel_free(&s);
	return 0;
}
