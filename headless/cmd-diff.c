/*
 * cmd-diff: `gpulens diff A B` compares two captures of the same workload
 * (A the baseline, B the one compared with it), in any formats the model
 * holds. Rows are joined by stable keys:
 *   kernel|name=N          kernels by (demangled) name: count and total
 *                          as `stats --type kernel` gives them
 *   memcpy|direction=D     copies by direction (h2d, d2h, d2d, p2p, ...)
 *   memset|name=memset     all memsets
 *   comm|collective=C      communication kernels by collective (as `comm`
 *                          parses it: AllReduce, SendRecv, ...)
 *   nvtx|path=P            NVTX ranges by the path of their families
 *                          (nvtxfam.h), so paths join across captures:
 *                          ProfilerStep#12 -> ProfilerStep#*, PyTorch
 *                          emit_nvtx's ", op_id = N" and ", seq = N" parts
 *                          removed; totals are CPU durations
 *   iteration|marker=M     the iterations (iters.h): count, total and
 *                          median duration
 * Per key and side: count, total_ns (durations, whole trace) and
 * iter_median_ns: the median over the side's iterations of the key's time
 * in each iteration (events attributed to the iteration of their process
 * that contains their start; an iteration without the key counts 0; null
 * without iterations). delta_* are B - A, delta_pct is 100 * delta / A
 * (null when A is 0), status is same, more, less, only_a or only_b. Rows
 * are ranked by |delta_ns|, the absolute change in total time.
 *
 * Auxiliary: per side (a, b) the path, span, GPUs, GPU busy, idle and
 * exposed-communication time (activity.h sums over devices), kernel time,
 * iterations and their median; delta (B - A) and delta_pct of each;
 * kernel_overlap_pct, the Jaccard index of the two sides' 15 top kernel
 * names (perf-advisor's compare gate), and mode: "summary", or
 * "summary_no_kernel" when that overlap is under 20% (the captures may not
 * be the same workload). perf-advisor's phase-aware mode is not done.
 *
 * Windows: each side is compared over [t0, t1) of its own clock, the whole
 * trace by default; --window steady takes each side's steady-state window
 * (steady.h), --from/--to (relative to each side's origin) bound both
 * sides, --a-from/--a-to/--b-from/--b-to one side. An event counts when it
 * starts in its side's window, an iteration likewise, and the side totals
 * (span, busy, idle, ...) are those of the window; auxiliary.window says
 * what each side's window was.
 *
 * The gate (diffgate.h): --fail-on RULE (repeatable) and
 * --exit-on-regression PCT (the iteration median, or the kernel time
 * without iterations on both sides, grows by more than PCT%). A broken rule
 * makes diff exit 1 after printing its answer, with auxiliary.gate listing
 * every rule, whether it held and the keys (or totals) that broke it, and
 * one line per broken rule on standard error.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "analysis/comm.h"
#include "headless/cmd.h"
#include "headless/cmd-analyses.h"
#include "headless/cmd-events.h"
#include "headless/diffgate.h"
#include "headless/ncu-launch.h"
#include "util/hmap.h"
#include "util/lbound.h"
#include "util/nametab.h"
#include "analysis/iters.h"
#include "model/lane.h"
#include "model/nvtx.h"
#include "model/nvtxpath.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/verb-job.h"
#include "headless/vopt.h"
#include "analysis/jobdiff.h"
#include "sources/jobsum.h"
#include "sources/multi.h"
#include "util/sanitize.h"
#include "util/sort.h"
#include "analysis/stats.h"
#include "analysis/steady.h"
#include "util/strpool.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define DIFF_TOPK	15
#define DIFF_OVERLAP_MIN 20.0

static cmd_run_t	diff_main;
static cmd_run_t	diff_job;
static int	diff_check_time(const char *, const char *, char **);
static int	diff_check_window(const char *, const char *, char **);
static int	diff_check_rule(const char *, const char *, char **);

/* Windows (each side's own clock) and the gate (diffgate.h). */
static const struct cmd_option diff_vopts[] = {
	{ "--window", "steady", "compare each side's steady-state window",
	    CMD_OPT_OWN, diff_check_window },
	{ "--from", "T", "start of both sides (relative to each origin)",
	    CMD_OPT_OWN, diff_check_time },
	{ "--to", "T", "end of both sides", CMD_OPT_OWN, diff_check_time },
	{ "--until", "T", "end of both sides (same as --to)", CMD_OPT_OWN,
	    diff_check_time },
	{ "--a-from", "T", "start of side A", CMD_OPT_OWN, diff_check_time },
	{ "--a-to", "T", "end of side A", CMD_OPT_OWN, diff_check_time },
	{ "--b-from", "T", "start of side B", CMD_OPT_OWN, diff_check_time },
	{ "--b-to", "T", "end of side B", CMD_OPT_OWN, diff_check_time },
	{ "--fail-on", "RULE", "exit 1 if a change breaks RULE (repeatable)",
	    CMD_OPT_OWN, diff_check_rule },
	{ "--exit-on-regression", "PCT", "exit 1 if the iteration median "
	    "(else the kernel time) grows more than PCT%", CMD_OPT_OWN,
	    diff_check_rule },
	NCU_LAUNCH_VOPT("Nsight Compute report: a launch to compare (give "
	    "two)"),
	VERB_JOB_VOPTS("compare two jobs from their ranks' summaries (the "
	    "default beyond 64 traces)"),
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

/* Two Nsight Compute reports, or two launches of one (cmd-ncu-diff.c). */
static const struct cmd_form diff_report_form = {
	.command = "report-diff",
	.args = { 1, 2, NULL },
	.run = cmd_ncu_diff_run
};

const struct cmd_entry cmd_diff_entry = {
	.name = "diff",
	.usage =
	"gpulens diff [--window steady] [--from T] [--to T] [--fail-on RULE] "
	"[--exit-on-regression PCT] [OPTIONS] TRACE_A TRACE_B",
	.help =
	"Compares two captures of the same workload, A the baseline: kernels\n"
	"by name, memcpys by direction, memsets, communication by collective,\n"
	"NVTX ranges by normalised path and the iterations, each with counts,\n"
	"totals and per-iteration medians on both sides and the change, keys\n"
	"found on one side only, ranked by the absolute change in time; span,\n"
	"GPU busy, idle and exposed-communication deltas in the auxiliary\n"
	"data. Works for any pair of formats. The gate: --fail-on RULE, e.g.\n"
	"'total_ns>+5%' or 'aux.iter_median_ns>+2%', and --exit-on-regression\n"
	"PCT make diff exit 1 after its answer when a change breaks them.\n"
	"Two jobs (directories) of more than 64 traces are compared from the\n"
	"ranks' summaries: kernels, communication, memcpys, memsets and\n"
	"iterations (no NVTX rows, no per-iteration medians but the\n"
	"iterations'); the window options need --full.",
	.args = { 2, 2, NULL },
	.input = CMD_IN_PAIR,
	.options = DIFF_OPTS,
	.vopts = diff_vopts,
	.run = diff_main,
	.job = diff_job,
	.report = &diff_report_form
};

enum dcls { DC_KERNEL, DC_MEMCPY, DC_MEMSET, DC_COMM, DC_NVTX, DC_ITER,
	DC_N };
static const char *dcls_names[DC_N] = {
	"kernel", "memcpy", "memset", "comm", "nvtx", "iteration"
};
static const char *dcls_axis[DC_N] = {
	"name", "direction", "name", "collective", "path", "marker"
};

struct dgroup {
	uint32_t	 key;		/* id in keys */
	uint32_t	 name;		/* id in keys */
	int		 cls;
	uint64_t	 n[2];
	int64_t		 tot[2];
	double		 med[2];
	int		 has_med[2];
};

struct dcell {
	uint32_t	 group;
	uint32_t	 iter;
	int64_t		 sum;
};

struct dside {
	const struct model	*m;
	int			 s;		/* 0 = A, 1 = B */
	int64_t			 t0, t1;	/* the window, source clock */
	const char		*method;	/* how it was chosen */
	struct iters		 it;
	size_t			*poff;		/* iterations per process */
	struct dcell		*cell;
	size_t			 ncell, cellcap;
	struct hmap		 cell_of;
	struct hmap		 group_of;	/* key(class, sid) -> group */
};

struct dctx {
	struct strpool		*keys;
	struct dgroup		*g;
	size_t			 ng, gcap;
	struct hmap		 by_key;	/* keys id -> group */
};

static uint32_t
diff_group(struct dctx *c, int cls, const char *name)
{
	char		*k;
	size_t		 o, len = 3 * strlen(name) + 128;
	uint32_t	 kid, *slot;
	int		 isnew;
	struct dgroup	*g;

	k = xmalloc(len);
	o = (size_t)snprintf(k, len, "%s", dcls_names[cls]);
	rowkey_name(k, len, &o, dcls_axis[cls], name);
	kid = strpool_intern0(c->keys, k);
	free(k);
	slot = hmap_upsert(&c->by_key, kid, (uint32_t)c->ng, &isnew);
	if (isnew) {
		XGROW(c->g, c->gcap, c->ng + 1);
		g = &c->g[c->ng++];
		memset(g, 0, sizeof *g);
		g->key = kid;
		g->name = strpool_intern0(c->keys, name);
		g->cls = cls;
	}
	return *slot;
}

/* diff_group, cached per (class, string id) of one side. */
static uint32_t
diff_group_sid(struct dctx *c, struct dside *sd, int cls, uint32_t sid,
    const char *name)
{
	uint32_t	gi;

	if (hmap_get(&sd->group_of, hmap_key2((uint64_t)cls, sid), &gi))
		return gi;
	gi = diff_group(c, cls, name);
	hmap_put(&sd->group_of, hmap_key2((uint64_t)cls, sid), gi);
	return gi;
}

/* Index into it.v of process p's iteration containing t, or NONE32. */
struct diff_below {
	const struct dside	*sd;
	int64_t			 t;
};

static int
diff_iter_started(const void *ctx, size_t i)
{
	const struct diff_below	*b = ctx;

	return b->sd->it.v[i].start <= b->t;
}

static uint32_t
diff_iter_of(const struct dside *sd, uint32_t p, int64_t t)
{
	const struct model	*m = sd->m;
	struct diff_below	 b = { sd, t };
	size_t			 q, lo;

	if (sd->it.n == 0)
		return NONE32;
	q = p < m->nprocesses ? p : m->nprocesses;
	lo = sd->poff[q];
	lo = lbound_if(lo, sd->poff[q + 1], diff_iter_started, &b);
	if (lo == sd->poff[q])
		return NONE32;
	lo--;
	return t < sd->it.v[lo].end ? (uint32_t)lo : NONE32;
}

static void
diff_add(struct dctx *c, struct dside *sd, uint32_t gi, uint32_t proc,
    int64_t start, int64_t dur)
{
	struct dgroup	*g = &c->g[gi];
	uint32_t	 it, *slot;
	int		 isnew;

	g->n[sd->s]++;
	g->tot[sd->s] += dur;
	if ((it = diff_iter_of(sd, proc, start)) == NONE32)
		return;
	slot = hmap_upsert(&sd->cell_of, hmap_key2(gi, it),
	    (uint32_t)sd->ncell, &isnew);
	if (isnew) {
		XGROW(sd->cell, sd->cellcap, sd->ncell + 1);
		sd->cell[sd->ncell].group = gi;
		sd->cell[sd->ncell].iter = it;
		sd->cell[sd->ncell].sum = 0;
		sd->ncell++;
	}
	sd->cell[*slot].sum += dur;
}

static void
diff_side_prepare(struct dside *sd)
{
	const struct model	*m = sd->m;
	char			*cause = NULL;
	size_t			 i, q;

	hmap_init(&sd->cell_of);
	hmap_init(&sd->group_of);
	if (iters_find(m, NULL, &sd->it, &cause) != 0) {
		free(cause);
		memset(&sd->it, 0, sizeof sd->it);
	}
	/* Only the iterations that start in the side's window. */
	for (i = q = 0; i < sd->it.n; i++)
		if (sd->it.v[i].start >= sd->t0 && sd->it.v[i].start < sd->t1)
			sd->it.v[q++] = sd->it.v[i];
	sd->it.n = q;
	/* it.v is sorted by process, then start; NONE32 sorts last. */
	sd->poff = xcalloc(m->nprocesses + 2, sizeof *sd->poff);
	for (i = 0; i < sd->it.n; i++) {
		q = sd->it.v[i].process < m->nprocesses ?
		    sd->it.v[i].process : m->nprocesses;
		sd->poff[q + 1]++;
	}
	for (q = 0; q <= m->nprocesses; q++)
		sd->poff[q + 1] += sd->poff[q];
}

static void
diff_side_free(struct dside *sd)
{
	iters_free(&sd->it);
	free(sd->poff);
	free(sd->cell);
	hmap_free(&sd->cell_of);
	hmap_free(&sd->group_of);
}

static void
diff_collect(struct dctx *c, struct dside *sd)
{
	const struct model	*m = sd->m;
	size_t			 t, i;
	char			 coll[128];
	uint32_t		 gi, gid;
	int			 ck;
	struct nvtx_pathset	 ps;

	/* Paths of range families from their parents' (nvtxpath.h,
	 * nvtxfam.h): linear in the ranges at any depth, where a walk to the
	 * root per range was not. */
	nvtx_pathset_init(&ps, m, 1);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (tr->type == TRACK_NVTX)
			nvtx_pathset_track(&ps, (uint32_t)t);
		for (i = 0; i < l->n; i++) {
			int64_t dur = l->end[i] - l->start[i];
			if (l->start[i] < sd->t0 || l->start[i] >= sd->t1)
				continue;
			gi = NONE32;
			switch (l->kind[i]) {
			case EV_KERNEL:
				if (tr->type == TRACK_GPU)
					gi = diff_group_sid(c, sd, DC_KERNEL,
					    l->name[i], model_str(m,
					    l->name[i]));
				break;
			case EV_MEMCPY:
				if (tr->type != TRACK_GPU)
					break;
				ck = l->aux[i] < m->ncopies &&
				    m->copies[l->aux[i]].kind <
				    COPY_KIND_COUNT ?
				    m->copies[l->aux[i]].kind : COPY_UNKNOWN;
				gi = diff_group(c, DC_MEMCPY,
				    copy_kind_name(ck));
				break;
			case EV_MEMSET:
				if (tr->type == TRACK_GPU)
					gi = diff_group(c, DC_MEMSET,
					    "memset");
				break;
			case EV_NVTX:
				if (tr->type != TRACK_NVTX)
					break;
				gid = model_gid(m, (uint32_t)t, (uint32_t)i);
				gi = diff_group(c, DC_NVTX,
				    nvtx_pathset_str(&ps,
				    nvtx_pathset_id(&ps, gid)));
				break;
			}
			if (gi == NONE32)
				continue;
			diff_add(c, sd, gi, tr->process, l->start[i], dur);
			if (l->kind[i] == EV_KERNEL &&
			    (l->flags[i] & EVF_COMM)) {
				comm_collective(model_str(m, l->name[i]),
				    coll, sizeof coll);
				gi = diff_group_sid(c, sd, DC_COMM, l->name[i],
				    coll);
				diff_add(c, sd, gi, tr->process, l->start[i],
				    dur);
			}
		}
	}
	nvtx_pathset_free(&ps);
	if (sd->it.n > 0) {
		gi = diff_group(c, DC_ITER, sd->it.marker != NULL ?
		    sd->it.marker : "");
		for (i = 0; i < sd->it.n; i++)
			if (sd->it.v[i].start >= sd->t0 &&
			    sd->it.v[i].start < sd->t1)
				diff_add(c, sd, gi, sd->it.v[i].process,
				    sd->it.v[i].start, sd->it.v[i].end -
				    sd->it.v[i].start);
	}
}

static int
diff_cell_cmp(const void *a, const void *b)
{
	const struct dcell	*x = a, *y = b;

	return sort_lex3(x->group, y->group, x->iter, y->iter, 0, 0);
}

/* Per-iteration medians of every group on one side. */
static void
diff_medians(struct dctx *c, struct dside *sd)
{
	int64_t		*v;
	size_t		 i, j, k, n = sd->it.n, gi;
	struct stats	 st;

	if (n == 0)
		return;
	if (sd->ncell > 1)
		qsort(sd->cell, sd->ncell, sizeof *sd->cell, diff_cell_cmp);
	v = xcalloc(n, sizeof *v);
	for (gi = 0, i = 0; gi < c->ng; gi++) {
		memset(v, 0, n * sizeof *v);
		k = 0;
		for (j = i; j < sd->ncell && sd->cell[j].group == gi; j++)
			v[k++] = sd->cell[j].sum;
		i = j;
		if (c->g[gi].n[sd->s] == 0 && k == 0)
			continue;
		stats_compute(v, c->g[gi].cls == DC_ITER ? k : n, &st);
		c->g[gi].med[sd->s] = st.median;
		c->g[gi].has_med[sd->s] = 1;
	}
	free(v);
}

static void
diff_row(struct dctx *c, struct out *out, const struct dgroup *g)
{
	cJSON		*row = out_row(out);
	int64_t		 d = g->tot[1] - g->tot[0];
	const char	*status;

	if (g->n[0] == 0)
		status = "only_b";
	else if (g->n[1] == 0)
		status = "only_a";
	else if (d > 0)
		status = "more";
	else if (d < 0)
		status = "less";
	else if (g->n[1] > g->n[0])
		status = "more";
	else if (g->n[1] < g->n[0])
		status = "less";
	else
		status = "same";
	out_str(row, "key", strpool_get(c->keys, g->key));
	out_str(row, "class", dcls_names[g->cls]);
	out_str(row, "name", strpool_get(c->keys, g->name));
	out_str(row, "status", status);
	out_int(row, "a_count", (int64_t)g->n[0]);
	out_int(row, "b_count", (int64_t)g->n[1]);
	out_int(row, "delta_count", (int64_t)g->n[1] - (int64_t)g->n[0]);
	out_int(row, "a_total_ns", g->tot[0]);
	out_int(row, "b_total_ns", g->tot[1]);
	out_int(row, "delta_ns", d);
	out_int(row, "abs_delta_ns", d < 0 ? -d : d);
	if (g->tot[0] > 0)
		out_num(row, "delta_pct", 100.0 * (double)d /
		    (double)g->tot[0]);
	else
		cJSON_AddNullToObject(row, "delta_pct");
	if (g->has_med[0])
		out_num(row, "a_iter_median_ns", g->med[0]);
	else
		cJSON_AddNullToObject(row, "a_iter_median_ns");
	if (g->has_med[1])
		out_num(row, "b_iter_median_ns", g->med[1]);
	else
		cJSON_AddNullToObject(row, "b_iter_median_ns");
	if (g->has_med[0] && g->has_med[1])
		out_num(row, "delta_iter_median_ns", g->med[1] - g->med[0]);
	else
		cJSON_AddNullToObject(row, "delta_iter_median_ns");
}

/*
 * A side's integer figures: aux.delta gives them in this order, under the
 * names that aux.NAME gate rules use.
 */
enum {
	DF_SPAN, DF_BUSY, DF_IDLE, DF_EXPOSED, DF_COMPUTE, DF_COMM,
	DF_KERNEL_NS, DF_KERNELS, DF_N
};
static const char *const diff_fig_names[DF_N] = {
	"span_ns", "busy_ns", "idle_ns", "exposed_comm_ns", "compute_ns",
	"comm_ns", "kernel_ns", "kernels"
};

/* Side figures for the auxiliary data. */
struct dsum {
	int64_t		 fig[DF_N];
	size_t		 gpus, iters;
	double		 iter_med;
};

static void
diff_summary(const struct dctx *c, const struct dside *sd, struct dsum *s)
{
	const struct model	*m = sd->m;
	struct activity		 a;
	struct act_window	 w;
	size_t			 gi;

	memset(s, 0, sizeof *s);
	activity_build(&a, m);
	s->fig[DF_SPAN] = sd->t1 - sd->t0;
	activity_total(&a, sd->t0, sd->t1, &w);
	s->gpus = a.ndev;
	s->fig[DF_BUSY] = w.busy;
	s->fig[DF_IDLE] = w.idle;
	s->fig[DF_EXPOSED] = w.exposed;
	s->fig[DF_COMPUTE] = w.compute;
	s->fig[DF_COMM] = w.comm;
	for (gi = 0; gi < c->ng; gi++)
		if (c->g[gi].cls == DC_KERNEL) {
			s->fig[DF_KERNELS] += (int64_t)c->g[gi].n[sd->s];
			s->fig[DF_KERNEL_NS] += c->g[gi].tot[sd->s];
		}
	s->iters = sd->it.n;
	for (gi = 0; gi < c->ng; gi++)
		if (c->g[gi].cls == DC_ITER && c->g[gi].n[sd->s] > 0)
			s->iter_med = c->g[gi].med[sd->s];
	activity_free(&a);
}

static void
diff_side_json(cJSON *o, const char *path, const char *kind,
    const struct dsum *s)
{
	int	k;

	out_str(o, "path", path);
	out_str(o, "kind", kind);
	out_int(o, "span_ns", s->fig[DF_SPAN]);
	out_int(o, "gpus", (int64_t)s->gpus);
	for (k = DF_BUSY; k <= DF_COMM; k++)
		out_int(o, diff_fig_names[k], s->fig[k]);
	/* The kernel count first here. */
	out_int(o, "kernels", s->fig[DF_KERNELS]);
	out_int(o, "kernel_ns", s->fig[DF_KERNEL_NS]);
	out_int(o, "iterations", (int64_t)s->iters);
	out_num_or_null(o, "iter_median_ns", s->iters > 0, s->iter_med);
}

static void
diff_delta(cJSON *d, cJSON *p, const char *k, int64_t a, int64_t b)
{
	out_int(d, k, b - a);
	out_num_or_null(p, k, a != 0, 100.0 * (double)(b - a) / (double)a);
}

static int
diff_tot_cmp(const void *x, const void *y, const struct dctx *c, int s)
{
	const uint32_t	*a = x, *b = y;

	return sort_lex3(c->g[*b].tot[s], c->g[*a].tot[s], *a, *b, 0, 0);
}

/* Kernel names of side s in the top DIFF_TOPK by total (insertion). */
static size_t
diff_topk(const struct dctx *c, int s, uint32_t *top)
{
	size_t		gi, n = 0, j;

	for (gi = 0; gi < c->ng; gi++) {
		uint32_t x = (uint32_t)gi;
		if (c->g[gi].cls != DC_KERNEL || c->g[gi].n[s] == 0)
			continue;
		for (j = n; j > 0 && diff_tot_cmp(&top[j - 1], &x, c, s) > 0;
		    j--)
			if (j < DIFF_TOPK)
				top[j] = top[j - 1];
		if (j < DIFF_TOPK) {
			top[j] = x;
			if (n < DIFF_TOPK)
				n++;
		}
	}
	return n;
}

/* Resolves side s's window from the request: 0, or -1 with *cause. */
static int
diff_window(const struct diff_req *rq, int s, struct dside *sd, char **cause)
{
	const struct model	*m = sd->m;
	const struct diff_bound	*b;
	int64_t			 t0 = m->origin_ns, t1 = m->end_ns;
	int			 k;

	sd->method = "whole";
	if (rq != NULL && rq->steady) {
		if (steady_bounds(m, &t0, &t1, cause) != 0)
			return -1;
		sd->method = "steady";
	}
	for (k = 0; rq != NULL && k < 2; k++) {
		/* Both sides' bounds, then this side's own. */
		b = k == 0 ? &rq->both : &rq->side[s];
		if (b->has_from) {
			t0 = b->from_abs ? b->from : m->origin_ns + b->from;
			sd->method = "from-to";
		}
		if (b->has_to) {
			t1 = b->to_abs ? b->to : m->origin_ns + b->to;
			sd->method = "from-to";
		}
	}
	/* An empty capture compares as empty; bounds that leave nothing
	 * are a mistake. */
	if (t1 < t0 || (t1 == t0 && strcmp(sd->method, "whole") != 0)) {
		*cause = xasprintf("the window of %s is empty", s == 0 ? "A" :
		    "B");
		return -1;
	}
	sd->t0 = t0;
	sd->t1 = t1;
	return 0;
}

/* One side's figure for an aux.NAME gate rule. */
static double
diff_sum_field(const struct dsum *s, const char *f, int *ok)
{
	int	k;

	*ok = 1;
	if ((k = NAMETAB_FIND(diff_fig_names, f)) >= 0)
		return (double)s->fig[k];
	*ok = s->iters > 0;
	return s->iter_med;
}

/*
 * Checks every rule: auxiliary.gate, one line on stderr per broken rule.
 * Returns the number of broken rules.
 */
static size_t
diff_gate(const struct dctx *c, const struct dsum *sum,
    const struct diff_req *rq, struct out *out)
{
	const struct diffgate_rule	*r;
	const struct dgroup		*g;
	cJSON				*gate, *rules, *jr, *keys;
	double				 a, b;
	size_t				 i, gi, nbad = 0, nkeys;
	int				 oka, okb, broke;

	gate = cJSON_AddObjectToObject(out->aux, "gate");
	rules = cJSON_AddArrayToObject(gate, "rules");
	for (i = 0; i < rq->gate.n; i++) {
		r = &rq->gate.rules[i];
		jr = cJSON_CreateObject();
		cJSON_AddItemToArray(rules, jr);
		out_str(jr, "rule", r->spec);
		if (r->aux) {
			a = diff_sum_field(&sum[0], r->field, &oka);
			b = diff_sum_field(&sum[1], r->field, &okb);
			if ((!oka || !okb) && r->fallback != NULL) {
				a = diff_sum_field(&sum[0], r->fallback, &oka);
				b = diff_sum_field(&sum[1], r->fallback, &okb);
				out_str(jr, "measured", r->fallback);
			}
			broke = oka && okb && diffgate_breaks(r, a, b);
			if (oka && okb) {
				out_num(jr, "a", a);
				out_num(jr, "b", b);
			}
			cJSON_AddBoolToObject(jr, "passed", !broke);
			if (broke) {
				nbad++;
				fprintf(stderr, "gpulens diff: gate: %s broken: "
				    "%.17g -> %.17g\n", r->spec, a, b);
			}
			continue;
		}
		keys = cJSON_CreateArray();
		nkeys = 0;
		for (gi = 0; gi < c->ng; gi++) {
			g = &c->g[gi];
			if (strcmp(r->field, "total_ns") == 0) {
				a = (double)g->tot[0];
				b = (double)g->tot[1];
			} else if (strcmp(r->field, "count") == 0) {
				a = (double)g->n[0];
				b = (double)g->n[1];
			} else if (g->has_med[0] && g->has_med[1]) {
				a = g->med[0];
				b = g->med[1];
			} else
				continue;
			if (!diffgate_breaks(r, a, b))
				continue;
			cJSON_AddItemToArray(keys, cJSON_CreateString(
			    strpool_get(c->keys, g->key)));
			nkeys++;
		}
		cJSON_AddBoolToObject(jr, "passed", nkeys == 0);
		cJSON_AddItemToObject(jr, "offending", keys);
		if (nkeys > 0) {
			nbad++;
			fprintf(stderr, "gpulens diff: gate: %s broken by %zu "
			    "row%s:", r->spec, nkeys, nkeys == 1 ? "" : "s");
			for (gi = 0; gi < (size_t)cJSON_GetArraySize(keys) &&
			    gi < 5; gi++)
				fprintf(stderr, " %s", sanitize_tmp(
				    cJSON_GetArrayItem(keys, (int)gi)->
				    valuestring));
			fprintf(stderr, "%s\n", nkeys > 5 ? " ..." : "");
		}
	}
	cJSON_AddBoolToObject(gate, "passed", nbad == 0);
	return nbad;
}

/*
 * The rows and auxiliary data of the groups of c, with each side's
 * figures, kind and window (method, start and end from its origin),
 * from models or from the ranks' summaries.
 */
static void
diff_emit(struct dctx *c, const struct dsum *sum, const char *const *kind,
    const char *const *method, int64_t win[2][2], const struct opts *o,
    const struct diff_req *rq, struct out *out)
{
	uint32_t	 top[2][DIFF_TOPK];
	size_t		 ntop[2], gi, i, j, inter = 0, uni, nonly[2] = { 0, 0 };
	size_t		 nsame = 0;
	cJSON		*a, *b, *d, *p, *w;
	double		 ov;
	int		 s, k;

	for (gi = 0; gi < c->ng; gi++) {
		diff_row(c, out, &c->g[gi]);
		if (c->g[gi].n[0] == 0)
			nonly[1]++;
		else if (c->g[gi].n[1] == 0)
			nonly[0]++;
		else if (c->g[gi].tot[0] == c->g[gi].tot[1] &&
		    c->g[gi].n[0] == c->g[gi].n[1])
			nsame++;
	}
	for (s = 0; s < 2; s++)
		ntop[s] = diff_topk(c, s, top[s]);
	for (i = 0; i < ntop[0]; i++)
		for (j = 0; j < ntop[1]; j++)
			if (top[0][i] == top[1][j])
				inter++;
	uni = ntop[0] + ntop[1] - inter;
	ov = uni > 0 ? 100.0 * (double)inter / (double)uni : 0.0;

	a = cJSON_AddObjectToObject(out->aux, "a");
	diff_side_json(a, o->args[0], kind[0], &sum[0]);
	b = cJSON_AddObjectToObject(out->aux, "b");
	diff_side_json(b, o->args[1], kind[1], &sum[1]);
	d = cJSON_AddObjectToObject(out->aux, "delta");
	p = cJSON_AddObjectToObject(out->aux, "delta_pct");
	for (k = 0; k < DF_N; k++)
		diff_delta(d, p, diff_fig_names[k], sum[0].fig[k],
		    sum[1].fig[k]);
	if (sum[0].iters > 0 && sum[1].iters > 0)
		out_num(d, "iter_median_ns", sum[1].iter_med -
		    sum[0].iter_med);
	else
		cJSON_AddNullToObject(d, "iter_median_ns");
	out_num(out->aux, "kernel_overlap_pct", ov);
	out_str(out->aux, "mode", ov >= DIFF_OVERLAP_MIN ? "summary" :
	    "summary_no_kernel");
	out_int(out->aux, "keys", (int64_t)c->ng);
	out_int(out->aux, "only_a", (int64_t)nonly[0]);
	out_int(out->aux, "only_b", (int64_t)nonly[1]);
	out_int(out->aux, "unchanged", (int64_t)nsame);
	w = cJSON_AddObjectToObject(out->aux, "window");
	for (s = 0; s < 2; s++) {
		p = cJSON_AddObjectToObject(w, s == 0 ? "a" : "b");
		out_str(p, "method", method[s]);
		out_int(p, "start_ns", win[s][0]);
		out_int(p, "end_ns", win[s][1]);
	}
	if (rq != NULL && rq->gate.n > 0 &&
	    diff_gate(c, sum, rq, out) > 0)
		rq->failed[0] = 1;
	if (ov < DIFF_OVERLAP_MIN)
		out_warn(out, "captures_differ",
		    "the two captures share %.0f%% of their top "
		    "kernels: they may not be the same workload", ov);
	out->default_sort = "abs_delta_ns:desc";
}

int
cmd_diff_compute(const struct model *ma, const struct model *mb,
    const struct opts *o, const struct diff_req *rq, struct out *out,
    const char **code, char **cause)
{
	struct dctx	 c;
	struct dside	 sd[2];
	struct dsum	 sum[2];
	const char	*kind[2], *method[2];
	int64_t		 win[2][2];
	int		 s;

	memset(sd, 0, sizeof sd);
	for (s = 0; s < 2; s++) {
		sd[s].m = s == 0 ? ma : mb;
		sd[s].s = s;
		if (diff_window(rq, s, &sd[s], cause) != 0) {
			*code = "usage";
			return -1;
		}
	}
	memset(&c, 0, sizeof c);
	c.keys = strpool_new();
	hmap_init(&c.by_key);
	for (s = 0; s < 2; s++) {
		diff_side_prepare(&sd[s]);
		diff_collect(&c, &sd[s]);
	}
	for (s = 0; s < 2; s++) {
		diff_medians(&c, &sd[s]);
		diff_summary(&c, &sd[s], &sum[s]);
		kind[s] = source_kind_name(sd[s].m->source);
		method[s] = sd[s].method;
		win[s][0] = sd[s].t0 - sd[s].m->origin_ns;
		win[s][1] = sd[s].t1 - sd[s].m->origin_ns;
	}
	diff_emit(&c, sum, kind, method, win, o, rq, out);
	out_next(out, "gpulens stats %s --type kernel",
	    out_q(out, o->args[0]));
	out_next(out, "gpulens stats %s --type kernel",
	    out_q(out, o->args[1]));
	for (s = 0; s < 2; s++)
		diff_side_free(&sd[s]);
	free(c.g);
	hmap_free(&c.by_key);
	strpool_free(c.keys);
	return 0;
}

/* Parses a time option's value into b's from or to: 0, or -1 with *cause. */
static int
diff_time_arg(const char *opt, const char *v, struct diff_bound *b, int to,
    char **cause)
{
	int64_t	ns;
	int	abs_;

	if (v == NULL || units_parse_time(v, &ns, &abs_) != 0) {
		*cause = xasprintf("%s needs a time (ns, or 12.5ms, 3s; @ for "
		    "absolute)", opt);
		return -1;
	}
	if (to) {
		b->has_to = 1;
		b->to = ns;
		b->to_abs = abs_;
	} else {
		b->has_from = 1;
		b->from = ns;
		b->from_abs = abs_;
	}
	return 0;
}

static int
diff_check_time(const char *opt, const char *v, char **cause)
{
	struct diff_bound	b;

	return diff_time_arg(opt, v, &b, 0, cause);
}

static int
diff_check_window(const char *opt, const char *v, char **cause)
{
	(void)opt;
	if (v == NULL || strcmp(v, "steady") != 0) {
		*cause = xstrdup("--window takes 'steady'");
		return -1;
	}
	return 0;
}

/* The gate rule of --fail-on RULE or --exit-on-regression PCT: 0, or -1
 * with *cause. */
static int
diff_rule(const char *opt, const char *v, struct diffgate_rule *r,
    char **cause)
{
	if (v == NULL) {
		*cause = xasprintf("%s needs a value", opt);
		return -1;
	}
	if (opt[2] == 'f')
		return diffgate_parse(v, r, cause);
	if (verb_gate_regression("aux.iter_median_ns", v, r, cause) != 0)
		return -1;
	/* Without iterations on both sides the regression is measured on
	 * the kernel time. */
	r->fallback = "kernel_ns";
	return 0;
}

static int
diff_check_rule(const char *opt, const char *v, char **cause)
{
	struct diffgate_rule	r;
	const char		*op;

	if (diff_rule(opt, v, &r, cause) != 0) {
		/* A metric of an Nsight Compute report ("sm__x.avg>+5%"):
		 * the report form checks it once the input is known. */
		if (v != NULL && opt[2] == 'f' &&
		    (op = strpbrk(v, "<>")) != NULL && op - v > 2 &&
		    memmem(v, (size_t)(op - v), "__", 2) != NULL) {
			free(*cause);
			*cause = NULL;
			return 0;
		}
		return -1;
	}
	diffgate_free(&r);
	return 0;
}

/* diff's own options (vetted by the driver) as a request: 0, or -1 with
 * *cause. */
static int
diff_req_build(const struct vopt *v, size_t nv, struct diff_req *rq,
    char **cause)
{
	static const char *const sides[2][2] = {
		{ "--a-from", "--a-to" }, { "--b-from", "--b-to" }
	};
	struct diffgate_rule	 r;
	const char		*a;
	size_t			 i;
	int			 j, k, to, side;

	for (i = 0; i < nv; i++) {
		a = v[i].name;
		/* How the inputs are read (diff_job), not the request. */
		if (strcmp(a, "--summaries") == 0 || strcmp(a, "--full") == 0)
			continue;
		if (strcmp(a, "--window") == 0) {
			rq->steady = 1;
			continue;
		}
		if (strcmp(a, "--from") == 0 || strcmp(a, "--to") == 0 ||
		    strcmp(a, "--until") == 0) {
			if (diff_time_arg(a, v[i].value, &rq->both,
			    a[2] != 'f', cause) != 0)
				return -1;
			continue;
		}
		for (j = 0, to = -1, side = 0; j < 2; j++)
			for (k = 0; k < 2; k++)
				if (strcmp(a, sides[j][k]) == 0) {
					to = k;
					side = j;
				}
		if (to >= 0) {
			if (diff_time_arg(a, v[i].value, &rq->side[side], to,
			    cause) != 0)
				return -1;
			continue;
		}
		if (diff_rule(a, v[i].value, &r, cause) != 0)
			return -1;
		verb_gate_add(&rq->gate, &r);
	}
	return 0;
}

static int
diff_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	struct diff_req	 rq;
	int		 rc, failed = 0;

	if (vopt_get(ctx->v, ctx->nv, "--launch") != NULL) {
		*code = "usage";
		*cause = xstrdup("--launch compares launches of Nsight Compute "
		    "reports; these are timelines");
		return -1;
	}
	memset(&rq, 0, sizeof rq);
	rq.failed = &failed;
	rc = diff_req_build(ctx->v, ctx->nv, &rq, cause);
	if (rc == 0)
		rc = cmd_diff_compute(ctx->in->m, ctx->in2->m, ctx->o, &rq,
		    out, code, cause);
	verb_gate_free(&rq.gate);
	if (rc != 0)
		return -1;
	return failed ? CMD_EMIT_FAIL : CMD_EMIT;
}

/* Adds a rank's summary to its job's aggregates (jobsum_take_fn). */
static void
diff_take(void *arg, size_t i, struct ranksum *s)
{
	(void)i;
	jobdiff_add(arg, s);
}

/* Adds n events of total ns to side s of the group of (cls, name). */
static void
diff_put(struct dctx *c, int s, int cls, const char *name, uint64_t n,
    int64_t ns)
{
	uint32_t	 gi = diff_group(c, cls, name);
	struct dgroup	*g = &c->g[gi];

	g->n[s] += n;
	g->tot[s] += ns;
}

/* Side s's groups and figures from job d (j: its ranks, for the span). */
static void
diff_from_job(struct dctx *c, int s, const struct jobdiff *d,
    const struct jobsum *j, struct dsum *sum, int64_t *span)
{
	struct dgroup	*g;
	struct stats	 st;
	int64_t		 lo = INT64_MAX, hi = INT64_MIN, tot = 0;
	size_t		 i;
	uint32_t	 gi;
	int		 k;

	for (i = 0; i < j->n; i++) {
		if (j->r[i].origin_ns + j->r[i].shift_ns < lo)
			lo = j->r[i].origin_ns + j->r[i].shift_ns;
		if (j->r[i].end_ns + j->r[i].shift_ns > hi)
			hi = j->r[i].end_ns + j->r[i].shift_ns;
	}
	*span = hi > lo ? hi - lo : 0;
	for (i = 0; i < d->nkern; i++)
		diff_put(c, s, DC_KERNEL, jobdiff_name(d, d->kern[i].name),
		    d->kern[i].count, d->kern[i].total_ns);
	for (i = 0; i < d->ncomm; i++)
		diff_put(c, s, DC_COMM, jobdiff_name(d, d->comm[i].name),
		    d->comm[i].count, d->comm[i].total_ns);
	for (k = 0; k < COPY_KIND_COUNT; k++)
		if (d->copy_n[k] > 0)
			diff_put(c, s, DC_MEMCPY, copy_kind_name(k),
			    d->copy_n[k], d->copy_ns[k]);
	if (d->memset_n > 0)
		diff_put(c, s, DC_MEMSET, "memset", d->memset_n, d->memset_ns);
	memset(sum, 0, sizeof *sum);
	if (d->niter > 0) {
		for (i = 0; i < d->niter; i++)
			tot += d->iter[i];
		gi = diff_group(c, DC_ITER, d->marker);
		g = &c->g[gi];
		g->n[s] += d->niter;
		g->tot[s] += tot;
		stats_compute(d->iter, d->niter, &st);
		g->med[s] = st.median;
		g->has_med[s] = 1;
		sum->iters = d->niter;
		sum->iter_med = st.median;
	}
	sum->fig[DF_SPAN] = *span;
	sum->gpus = d->gpus;
	sum->fig[DF_BUSY] = d->busy;
	sum->fig[DF_IDLE] = (int64_t)d->gpus * *span - d->busy;
	sum->fig[DF_EXPOSED] = d->exposed;
	sum->fig[DF_COMPUTE] = d->compute;
	sum->fig[DF_COMM] = d->comm_ns;
	for (i = 0; i < d->nkern; i++) {
		sum->fig[DF_KERNELS] += (int64_t)d->kern[i].count;
		sum->fig[DF_KERNEL_NS] += d->kern[i].total_ns;
	}
}

/*
 * Two large jobs, or --summaries: the rows that the ranks' summaries give
 * (jobdiff.h); CMD_LOAD to load the models instead.
 */
static int
diff_job(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct opts	*o = ctx->o;
	struct jobdiff		 d[2];
	struct jobsum		 j[2];
	struct load_opts	 lo;
	struct dctx		 c;
	struct dsum		 sum[2];
	struct diff_req		 rq;
	const char		*kind[2], *method[2] = { "whole", "whole" };
	char			**files[2] = { NULL, NULL };
	int64_t			 win[2][2], span;
	size_t			 i, built = 0;
	int			 nf[2] = { 0, 0 }, s, rc = CMD_LOAD, large, asked;
	int			 failed = 0;

	memset(&rq, 0, sizeof rq);
	if (vopt_get(ctx->v, ctx->nv, "--full") != NULL ||
	    vopt_get(ctx->v, ctx->nv, "--launch") != NULL || o->nargs != 2)
		return CMD_LOAD;
	for (s = 0; s < 2; s++)
		if ((nf[s] = multi_expand(&o->args[s], 1, &files[s],
		    cause)) < 0) {
			nf[s] = 0;
			*code = "bad_input";
			rc = -1;
			goto out;
		}
	asked = vopt_get(ctx->v, ctx->nv, "--summaries") != NULL;
	large = nf[0] >= 2 && nf[1] >= 2 &&
	    (jobsum_wanted(nf[0], asked) || jobsum_wanted(nf[1], asked));
	if (!large)
		goto out;
	memset(&rq, 0, sizeof rq);
	rq.failed = &failed;
	if (diff_req_build(ctx->v, ctx->nv, &rq, cause) != 0) {
		*code = "usage";
		rc = -1;
		goto out;
	}
	for (i = 0; i < ctx->nv; i++)
		if (strcmp(ctx->v[i].name, "--summaries") != 0 &&
		    strcmp(ctx->v[i].name, "--fail-on") != 0 &&
		    strcmp(ctx->v[i].name, "--exit-on-regression") != 0) {
			*code = "usage";
			*cause = xasprintf("%s: the ranks' summaries keep no "
			    "events; add --full to merge the models",
			    ctx->v[i].name);
			rc = -1;
			goto out;
		}
	cmd_load_opts(ctx->g, &lo);
	for (s = 0; s < 2; s++) {
		jobdiff_init(&d[s]);
		/* jobsum_load takes the file list over. */
		rc = jobsum_load(files[s], (size_t)nf[s], &lo, diff_take,
		    &d[s], &j[s], cause);
		files[s] = NULL;
		nf[s] = 0;
		if (rc != 0) {
			jobdiff_free(&d[s]);
			if (s == 1) {
				jobdiff_free(&d[0]);
				jobsum_free(&j[0]);
			}
			rc = verb_job_failed(rc, code, cause);
			goto out;
		}
	}
	memset(&c, 0, sizeof c);
	c.keys = strpool_new();
	hmap_init(&c.by_key);
	for (s = 0; s < 2; s++) {
		diff_from_job(&c, s, &d[s], &j[s], &sum[s], &span);
		kind[s] = j[s].n > 0 ? source_kind_name(j[s].r[0].source) :
		    "unknown";
		win[s][0] = 0;
		win[s][1] = span;
		built += j[s].built;
	}
	out_warn(out, "from_summaries", "compared from the summaries of "
	    "%zu and %zu ranks ('--full' merges the models)", j[0].n, j[1].n);
	verb_job_made(out, built, j[0].n + j[1].n);
	diff_emit(&c, sum, kind, method, win, o, &rq, out);
	/* The kinds are static strings; the jobs can go. */
	for (s = 0; s < 2; s++) {
		jobdiff_free(&d[s]);
		jobsum_free(&j[s]);
	}
	free(c.g);
	hmap_free(&c.by_key);
	strpool_free(c.keys);
	rc = failed ? CMD_EMIT_FAIL : CMD_EMIT;
out:
	verb_gate_free(&rq.gate);
	for (s = 0; s < 2; s++)
		jobsum_files_free(files[s], nf[s]);
	return rc;
}
