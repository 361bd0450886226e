/*
 * cmd-iters: `gpulens iters` lists iterations (iters.h says how they are
 * found) with their duration, GPU busy time, kernel count, and marks the
 * slowest per process; auxiliary data gives the median and spread.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "analysis/iters.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"

#define ITERS_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_RANGE)

static int	iters_run(const struct cmd_ctx *, struct out *,
	    const char **, char **);

const struct cmd_entry cmd_iters_entry = {
	.name = "iters",
	.usage = "gpulens iters [OPTIONS] TRACE",
	.help =
	"Lists iterations: instances of a repeating NVTX range (ProfilerStep#N,\n"
	"or the range given with --range; by default the most frequent\n"
	"top-level range family), or, without NVTX, the spans between\n"
	"occurrences of the most periodic kernel. Per iteration: duration,\n"
	"GPU busy time and share, kernel count; the slowest is marked.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.options = ITERS_OPTS,
	.run = iters_run
};

static const char *iters_columns[] = {
	"pid", "rank", "iter", "start_ns", "duration_ns", "gpu_busy_ns",
	"gpu_busy_pct", "kernels", "slowest", "name", NULL
};

static int
iters_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	struct iters		 it;
	struct stats		 st;
	int64_t			*durs = NULL, *maxd = NULL, base;
	size_t			 i, j;
	char			 key[64];
	cJSON			*row;

	if (iters_find(m, o->range, &it, cause) != 0) {
		*code = "not_found";
		return -1;
	}
	base = o->absolute ? 0 : m->origin_ns;
	durs = xcalloc(it.n + 1, sizeof *durs);
	maxd = xcalloc(m->nprocesses + 1, sizeof *maxd);
	for (i = 0; i < it.n; i++) {
		j = it.v[i].process == NONE32 ? m->nprocesses : it.v[i].process;
		if (it.v[i].end - it.v[i].start > maxd[j])
			maxd[j] = it.v[i].end - it.v[i].start;
	}
	for (i = 0; i < it.n; i++) {
		const struct iter *v = &it.v[i];
		int slowest, rank;
		/* Slowest within its process (ties: all of them). */
		j = v->process == NONE32 ? m->nprocesses : v->process;
		slowest = v->end - v->start == maxd[j];
		row = out_row(out);
		rank = v->process != NONE32 ? m->processes[v->process].rank :
		    -1;
		snprintf(key, sizeof key, "pid=%u|iter=%u", v->process !=
		    NONE32 ? m->processes[v->process].pid : 0, v->index);
		if (rank >= 0)
			snprintf(key + strlen(key), sizeof key - strlen(key),
			    "|rank=%d", rank);
		out_str(row, "key", key);
		if (v->process != NONE32)
			out_int(row, "pid", m->processes[v->process].pid);
		else
			cJSON_AddNullToObject(row, "pid");
		if (rank >= 0)
			out_int(row, "rank", rank);
		else
			cJSON_AddNullToObject(row, "rank");
		out_int(row, "iter", v->index);
		out_str(row, "name", v->range != NONE32 ?
		    model_str(m, model_ev_name(m, v->range)) : it.marker);
		out_int(row, "start_ns", v->start - base);
		out_int(row, "duration_ns", v->end - v->start);
		out_int(row, "gpu_busy_ns", v->gpu_busy);
		/* Of the iteration's GPU capacity: duration x GPUs used. */
		out_num(row, "gpu_busy_pct", v->end > v->start &&
		    v->ndevices > 0 ? 100.0 * (double)v->gpu_busy /
		    ((double)(v->end - v->start) * v->ndevices) : 0.0);
		out_int(row, "gpus", v->ndevices);
		out_int(row, "kernels", (int64_t)v->kernels);
		out_bool(row, "slowest", slowest);
		durs[i] = v->end - v->start;
	}
	stats_compute(durs, it.n, &st);
	out_str(out->aux, "method", it.method == ITERS_NVTX ? "nvtx" :
	    it.method == ITERS_KERNEL ? "kernel" : "none");
	if (it.marker != NULL)
		out_str(out->aux, "marker", it.marker);
	else
		cJSON_AddNullToObject(out->aux, "marker");
	out_int(out->aux, "iterations", (int64_t)it.n);
	out_num(out->aux, "median_ns", st.median);
	out_num(out->aux, "mean_ns", st.mean);
	out_int(out->aux, "min_ns", st.min);
	out_int(out->aux, "max_ns", st.max);
	out_num(out->aux, "stddev_ns", st.stddev);
	out_num(out->aux, "spread_pct", st.median > 0 ? 100.0 *
	    (double)(st.max - st.min) / st.median : 0.0);
	if (it.n == 0)
		out_warn(out, "no repeating NVTX range or periodic kernel "
		    "found");
	out->default_sort = "start_ns:asc";
	out->columns = iters_columns;
	free(durs);
	free(maxd);
	iters_free(&it);
	return 0;
}
