/*
 * cmd-window: `gpulens window` prints the steady-state analysis window
 * (steady.h: the middle iteration of the process with the most, skipping
 * outliers; else the longest busy phase; else the whole trace) and what the
 * GPUs did in it, so that two captures can be compared over comparable
 * windows. One row:
 *   method           iteration-nvtx, iteration-kernel, phase or whole
 *   start_ns, end_ns, duration_ns
 *   pid, iter        the reference process and the iteration's index in it
 *                    (for method phase: the phase's index; else null)
 *   iterations       that process's iterations; median_iter_ns their
 *                    median duration; skipped the outliers passed over
 *   marker           the iteration marker or the phase label
 *   busy_ns, util_pct, exposed_comm_ns, kernels   as `phases` defines them
 * meta.next suggests verbs scoped to the window with --from and --to.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/activity.h"
#include "headless/cmd.h"
#include "headless/cmd-analyses.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/steady.h"
#include "headless/vopt.h"
#include "util/xmalloc.h"

static cmd_run_t	window_main;

const struct cmd_entry cmd_window_entry = {
	.name = "window",
	.usage = "gpulens window [--json] TRACE",
	.help =
	"Prints the steady-state analysis window: the middle iteration\n"
	"(NVTX or ProfilerStep ranges, else the periodic kernel sequence) of\n"
	"the process with the most iterations, passing over outliers more\n"
	"than 20% from the median; without iterations the longest busy\n"
	"phase; else the whole trace. The same rule on every run, so\n"
	"before/after captures are compared over comparable windows.",
	.args = { 1, 1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = WINDOW_OPTS,
	.run = window_main
};

int
cmd_window_compute(const struct model *m, const struct opts *o,
    const struct vopt *v, size_t nv, struct out *out, const char **code,
    char **cause)
{
	struct activity		 a;
	struct steady		 s;
	struct act_window	 w;
	int64_t			 rel = o->absolute ? 0 : m->origin_ns, dur;
	uint64_t		 nk = 0;
	size_t			 t;
	cJSON			*row;

	(void)v;
	(void)nv;
	(void)code;
	if (m->nevents == 0)
		return 0;	/* an empty capture: no window (warned) */
	activity_build(&a, m);
	if (steady_find(m, &a, &s, cause) != 0) {
		activity_free(&a);
		return -1;
	}
	activity_total(&a, s.start, s.end, &w);
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].type == TRACK_GPU) {
			const struct lane *l = &m->tracks[t].lane;
			uint32_t *idx = NULL;
			size_t icap = 0, n, k;
			n = lane_overlap(l, s.start, s.end, &idx, &icap);
			for (k = 0; k < n; k++)
				if (l->kind[idx[k]] == EV_KERNEL ||
				    l->kind[idx[k]] == EV_GRAPH)
					nk++;
			free(idx);
		}
	dur = s.end - s.start;
	row = out_row(out);
	out_key(row, "window", "window=steady");
	out_str(row, "method", steady_method_name(s.method));
	out_int(row, "start_ns", s.start - rel);
	out_int(row, "end_ns", s.end - rel);
	out_int(row, "duration_ns", dur);
	if (s.process != NONE32 && s.process < m->nprocesses)
		out_int(row, "pid", m->processes[s.process].pid);
	else
		cJSON_AddNullToObject(row, "pid");
	out_int_or_null(row, "iter", s.iter >= 0, s.iter);
	out_int(row, "iterations", (int64_t)s.niters);
	out_num_or_null(row, "median_iter_ns", s.niters > 0, s.median_ns);
	out_int(row, "skipped", s.skipped);
	out_str(row, "marker", s.marker != NULL ? s.marker : "");
	out_int(row, "busy_ns", w.busy);
	out_num(row, "util_pct", dur > 0 && a.ndev > 0 ? 100.0 *
	    (double)w.busy / ((double)dur * (double)a.ndev) : 0.0);
	out_int(row, "exposed_comm_ns", w.exposed);
	out_int(row, "kernels", (int64_t)nk);
	out_int(out->aux, "gpus", (int64_t)a.ndev);
	if (s.method == STEADY_PHASE)
		out_int(out->aux, "phases", (int64_t)s.nphases);
	if (s.method == STEADY_WHOLE)
		out_warn(out, "no_iterations",
		    "no iterations and no distinct phases: the "
		    "window is the whole trace");
	out_next(out, "gpulens stats %s --from %lldns --to %lldns",
	    out_q(out, o->args[0]), (long long)(s.start - m->origin_ns),
	    (long long)(s.end - m->origin_ns));
	out_next(out, "gpulens findings %s --from %lldns --to %lldns",
	    out_q(out, o->args[0]), (long long)(s.start - m->origin_ns),
	    (long long)(s.end - m->origin_ns));
	steady_free(&s);
	activity_free(&a);
	return 0;
}

static int
window_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	return cmd_window_compute(ctx->in->m, ctx->o, NULL, 0, out, code,
	    cause);
}
