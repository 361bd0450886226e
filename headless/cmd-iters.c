/*
 * cmd-iters: `gpulens iters` lists iterations (iters.h says how they are
 * found) with their duration, GPU busy time, kernel, copy and memset
 * counts, and marks the slowest per process; auxiliary data gives the
 * median and spread. --pid, --rank and --device keep the iterations of
 * those processes (--device measures that GPU alone).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "analysis/iters.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/stats.h"
#include "headless/vopt.h"
#include "util/pool.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define ITERS_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_RANGE)

static cmd_run_t	iters_run;

static const struct cmd_option iters_vopts[] = {
	{ "--pid", "PID", "only the iterations of this process",
	    CMD_OPT_OWN, vopt_check_count },
	{ "--rank", "RANK", "only the iterations of this rank's processes",
	    CMD_OPT_OWN, vopt_check_count },
	{ "--device", "ID", "only processes using this GPU, measured on it "
	    "alone", CMD_OPT_OWN, vopt_check_count },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_iters_entry = {
	.name = "iters",
	.usage = "gpulens iters [OPTIONS] TRACE",
	.help =
	"Lists iterations: instances of a repeating NVTX range (the range\n"
	"given with --range, else ProfilerStep#N or the top-level user range\n"
	"family that repeats most, never a library's or a PyTorch operator's),\n"
	"or, without one, the spans between occurrences of each process's\n"
	"most periodic kernel (see ITERATIONS in gpulens(1)). Per iteration:\n"
	"duration, GPU busy time and share, the kernels, copies and memsets\n"
	"that run in it, the host time its process's threads were blocked on\n"
	"the GPU (synchronisations and synchronous copies) and its share; the\n"
	"slowest of each process is marked.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = ITERS_OPTS,
	.vopts = iters_vopts,
	.run = iters_run
};

/* The selection the options ask for; -1 with *cause if nothing has it. */
static int
iters_options(const struct cmd_ctx *ctx, struct iters_sel *s, char **cause)
{
	const struct model	*m = ctx->in->m;
	const char		*v;
	long long		 n;
	size_t			 i;

	iters_sel_init(s);
	s->range = ctx->o->range;
	if ((v = vopt_get(ctx->v, ctx->nv, "--pid")) != NULL &&
	    sel_index(m, SEL_OF_PROCESS, strtoll(v, NULL, 10),
	    &s->process, cause) != 0)
		return -1;
	if ((v = vopt_get(ctx->v, ctx->nv, "--rank")) != NULL) {
		int32_t *rank = xcalloc(m->nprocesses + 1, sizeof *rank);
		n = strtoll(v, NULL, 10);
		iters_rank_map(m, rank);
		for (i = 0; i < m->nprocesses; i++)
			if (rank[i] == (int32_t)n)
				break;
		free(rank);
		if (i == m->nprocesses) {
			*cause = xasprintf("no rank %lld in this trace", n);
			return -1;
		}
		s->rank = (int32_t)n;
	}
	if ((v = vopt_get(ctx->v, ctx->nv, "--device")) != NULL &&
	    sel_index(m, SEL_OF_DEVICE, strtoll(v, NULL, 10),
	    &s->device, cause) != 0)
		return -1;
	return 0;
}

/* What the rows add to the iterations, in two parts that write apart
 * (their own fields of each iteration): the GPU work (job 0) and the
 * blocking waits (job 1). */
struct iters_fill {
	const struct model	*m;
	struct iters		*it;
	uint32_t		 device;
};

static int
iters_fill_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct iters_fill	*f = arg;

	(void)tid;
	(void)cause;
	if (job == 0)
		iters_measure(f->m, f->it, f->device);
	else
		iters_sync(f->m, f->it);
	return 0;
}

static int
iters_run(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	struct iters		 it;
	struct iters_sel	 sel;
	struct iters_fill	 fill;
	struct stats		 st;
	int64_t			*durs = NULL, *maxd = NULL, base;
	size_t			 i, j;
	char			 key[64];
	cJSON			*row;

	if (iters_options(ctx, &sel, cause) != 0 ||
	    iters_select(m, &sel, &it, cause) != 0) {
		*code = "not_found";
		return -1;
	}
	fill.m = m;
	fill.it = &it;
	fill.device = sel.device;
	(void)pool_run(2, pool_sweep_threads(), iters_fill_job, &fill, NULL);
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
		if (rank >= 0)
			rowkey_buf(key, sizeof key, "iter", "pid=%u|iter=%u|"
			    "rank=%d", m->processes[v->process].pid, v->index,
			    rank);
		else
			rowkey_buf(key, sizeof key, "iter", "pid=%u|iter=%u",
			    v->process != NONE32 ?
			    m->processes[v->process].pid : 0, v->index);
		out_str(row, "key", key);
		if (v->process != NONE32)
			out_int(row, "pid", m->processes[v->process].pid);
		else
			cJSON_AddNullToObject(row, "pid");
		out_int_or_null(row, "rank", rank >= 0, rank);
		out_int(row, "iter", v->index);
		out_str(row, "name", model_str(m, v->name));
		out_int(row, "start_ns", v->start - base);
		out_int(row, "duration_ns", v->end - v->start);
		out_int(row, "gpu_busy_ns", v->gpu_busy);
		/* Of the iteration's GPU capacity: duration x GPUs used. */
		out_num(row, "gpu_busy_pct", v->end > v->start &&
		    v->ndevices > 0 ? 100.0 * (double)v->gpu_busy /
		    ((double)(v->end - v->start) * v->ndevices) : 0.0);
		out_int(row, "gpus", v->ndevices);
		out_int(row, "kernels", (int64_t)v->kernels);
		out_int(row, "copies", (int64_t)v->copies);
		out_int(row, "memsets", (int64_t)v->memsets);
		out_int(row, "sync_blocked_ns", v->sync_blocked);
		out_num(row, "sync_blocked_pct", v->end > v->start ? 100.0 *
		    (double)v->sync_blocked / (double)(v->end - v->start) :
		    0.0);
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
	if (it.n == 0 && (sel.process != NONE32 || sel.rank >= 0 ||
	    sel.device != NONE32))
		out_warn(out, "no_iterations",
		    "the selected processes have no iterations");
	else if (it.n == 0)
		out_warn(out, "no_iterations",
		    "no repeating NVTX range or periodic kernel "
		    "found");
	out->default_sort = "start_ns:asc";
	free(durs);
	free(maxd);
	iters_free(&it);
	return 0;
}
