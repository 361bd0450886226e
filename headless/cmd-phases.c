/*
 * cmd-phases: `gpulens phases` segments the timeline into phases
 * (initialisation, steady state, evaluation, teardown, ...) the way
 * perf-advisor does (src/analysis/phase.h has the method and where it differs), and
 * reports each phase with its span and what the GPUs did in it:
 *   busy_ns          GPU-time: each device's union of work, summed over
 *                    the devices that run any work in the trace
 *   util_pct         busy over duration x those devices
 *   idle_ns          duration x devices - busy
 *   compute_ns, comm_ns, copy_ns, exposed_comm_ns   the same sums per
 *                    class (activity.h), exposed = communication with no
 *                    compute beside it
 *   kernels, kernel_ns   kernels overlapping the phase, their time clipped
 *                    to it (so phases add up to the whole)
 *   top_kernels      the 5 kernel names with the most time among the
 *                    kernels overlapping the phase, durations not clipped
 *                    (as perf-advisor does)
 *   edge             what the start boundary came from: window,
 *                    distribution, idle, marker or gpu
 *   js_prev          the Jensen-Shannon divergence of the phase's kernel
 *                    mix from the previous phase's
 * Bins are at least one median iteration wide when the trace has
 * iterations. The auxiliary data holds the cost curve (cost per k,
 * normalised by the
 * window, and each k's marginal gain as a share of the whole range), the
 * elbow's choice and the binning.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "headless/cmd.h"
#include "headless/cmd-analyses.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/phase.h"
#include "headless/select.h"
#include "analysis/steady.h"
#include "headless/verb-ktop.h"
#include "headless/vopt.h"
#include "util/pool.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define PHASES_TOP	5

static cmd_run_t	phases_main;

static const struct cmd_option phases_vopts[] = {
	{ "--max-phases", "N", "at most N phases (default 10; 1 disables)",
	    CMD_OPT_OWN, NULL },
	{ "--phases", "K", "exactly K phases instead of the elbow's choice",
	    CMD_OPT_OWN, NULL },
	CMD_REFUSE_NVTX_ITER,
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_phases_entry = {
	.name = "phases",
	.usage = "gpulens phases [--max-phases N] [--phases K] [OPTIONS] TRACE",
	.help =
	"Segments the timeline into phases (initialisation, steady state,\n"
	"evaluation, teardown, ...) by the kernel mix: Jensen-Shannon\n"
	"divergence between time bins, idle edges and long top-level NVTX\n"
	"ranges as boundary candidates, dynamic-programming segmentation and\n"
	"an elbow rule on the cost curve (perf-advisor's method). Each phase\n"
	"has its span, busy and idle GPU time, communication and top kernels.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = PHASES_OPTS,
	.vopts = phases_vopts,
	.run = phases_main
};

/* Kernels overlapping phase p: count, clipped time, top names. */
static void
phases_kernels(const struct model *m, const struct phase *p, cJSON *row)
{
	struct ktop	 kt;
	size_t		 i;

	ktop_init(&kt);
	for (i = 0; i < p->nkn; i++)
		ktop_add_sum(&kt, p->kn[i].name, p->kn[i].count,
		    p->kn[i].total);
	ktop_sort(&kt);
	out_int(row, "kernels", (int64_t)p->kernels);
	out_int(row, "kernel_ns", p->kernel_ns);
	verb_ktop_emit(&kt, m, row, "top_kernels", PHASES_TOP, 0);
	ktop_free(&kt);
}

/* What phase_detect() reads, built side by side: the activity (job 0),
 * the median iteration (job 1) and the window's kernel sums (job 2) read
 * only the model. */
struct phases_prep {
	const struct model	*m;
	const struct phase_opts	*po;
	struct activity		*a;
	int64_t			 min_bin;
	struct phase_kacc	*win;
};

static int
phases_prep_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct phases_prep	*pp = arg;

	(void)tid;
	(void)cause;
	if (job == 0)
		activity_build(pp->a, pp->m);
	else if (job == 1)
		pp->min_bin = steady_iter_median(pp->m);
	else
		pp->win = phase_kscan_window(pp->m, pp->po);
	return 0;
}

int
cmd_phases_compute(const struct model *m, const struct opts *o,
    const struct vopt *v, size_t nv, struct out *out, const char **code,
    char **cause)
{
	struct activity		 a;
	struct phase_opts	 po;
	struct phases		 ph;
	struct phases_prep	 pp;
	struct act_window	 w;
	long long		 maxp, k;
	int64_t			 rel = o->absolute ? 0 : m->origin_ns, dur;
	size_t			 i, ndev;
	int			 rc;
	cJSON			*row, *arr, *it, *win;
	char			 key[32];

	(void)code;
	memset(&po, 0, sizeof po);
	maxp = vopt_int(v, nv, "--max-phases", PHASE_MAX_PHASES_DEFAULT);
	k = vopt_int(v, nv, "--phases", 0);
	if (maxp < 1 || maxp > PHASE_MAX_PHASES) {
		*cause = xasprintf("--max-phases needs a number from 1 to %d",
		    PHASE_MAX_PHASES);
		return -1;
	}
	if (k < 0 || k > PHASE_MAX_PHASES ||
	    (vopt_get(v, nv, "--phases") != NULL && k < 1)) {
		*cause = xasprintf("--phases needs a number from 1 to %d",
		    PHASE_MAX_PHASES);
		return -1;
	}
	po.max_phases = (int)maxp;
	po.forced_k = (int)k;
	if ((rc = sel_span(m, o, out, &po.t0, &po.t1, cause)) <= 0)
		return rc;
	pp.m = m;
	pp.po = &po;
	pp.a = &a;
	(void)pool_run(3, pool_sweep_threads(), phases_prep_job, &pp, NULL);
	po.min_bin_ns = pp.min_bin;
	po.win = pp.win;
	if (phase_detect(m, &a, &po, &ph, cause) != 0) {
		phase_kacc_release(pp.win);
		activity_free(&a);
		return -1;
	}
	phase_kacc_release(pp.win);
	ndev = a.ndev;
	for (i = 0; i < ph.n; i++) {
		const struct phase *p = &ph.v[i];
		dur = p->end - p->start;
		activity_total(&a, p->start, p->end, &w);
		row = out_row(out);
		rowkey_buf(key, sizeof key, "phase", "phase=%zu", i);
		out_str(row, "key", key);
		out_int(row, "phase", (int64_t)i);
		out_str(row, "label", p->label);
		out_int(row, "start_ns", p->start - rel);
		out_int(row, "end_ns", p->end - rel);
		out_int(row, "duration_ns", dur);
		out_int(row, "busy_ns", w.busy);
		out_num(row, "util_pct", dur > 0 && ndev > 0 ? 100.0 *
		    (double)w.busy / ((double)dur * (double)ndev) : 0.0);
		out_int(row, "idle_ns", w.idle);	/* dur * ndev - busy */
		out_int(row, "compute_ns", w.compute);
		out_int(row, "comm_ns", w.comm);
		out_int(row, "copy_ns", w.copy);
		out_int(row, "exposed_comm_ns", w.exposed);
		phases_kernels(m, p, row);
		out_str(row, "edge", phase_edge_name(p->edge));
		out_str(row, "dominant", p->dominant != 0 ?
		    model_str(m, p->dominant) : "");
		out_num(row, "js_prev", p->js_prev);
	}
	win = cJSON_AddObjectToObject(out->aux, "window");
	out_int(win, "start_ns", ph.t0 - rel);
	out_int(win, "end_ns", ph.t1 - rel);
	out_int(out->aux, "gpus", (int64_t)ndev);
	out_int(out->aux, "bin_ns", ph.bin_ns);
	out_int(out->aux, "bins", (int64_t)ph.nbins);
	out_int(out->aux, "candidates", (int64_t)ph.ncandidates);
	out_int(out->aux, "segments", (int64_t)ph.nsegments);
	out_int(out->aux, "max_phases", ph.max_phases);
	out_int(out->aux, "elbow_k", ph.best_k);
	out_int(out->aux, "phases", (int64_t)ph.n);
	out_bool(out->aux, "forced", ph.forced);
	arr = cJSON_AddArrayToObject(out->aux, "cost_curve");
	for (i = 0; i < ph.ncost; i++) {
		double range = ph.cost[0] - ph.cost[ph.ncost - 1];
		it = cJSON_CreateObject();
		out_int(it, "k", (int64_t)i + 1);
		out_num(it, "cost", ph.cost[i]);
		if (i == 0 || range <= 0)
			cJSON_AddNullToObject(it, "gain_pct");
		else
			out_num(it, "gain_pct", 100.0 * (ph.cost[i - 1] -
			    ph.cost[i]) / range);
		cJSON_AddItemToArray(arr, it);
	}
	if (ph.n == 1 && a.ndev == 0)
		out_warn(out, "no_gpu_work",
		    "no GPU work: one phase");
	out_next(out, "gpulens window %s", out_q(out, o->args[0]));
	out_next(out, "gpulens findings %s", out_q(out, o->args[0]));
	out->default_sort = "phase:asc";
	if (!o->limit_set)
		out->limit = 0;
	phase_free(&ph);
	activity_free(&a);
	return 0;
}

static int
phases_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	return cmd_phases_compute(ctx->in->m, ctx->o, ctx->v, ctx->nv, out,
	    code, cause);
}
