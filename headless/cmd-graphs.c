/*
 * cmd-graphs: `gpulens graphs TRACE` lists CUDA and HIP graph replays
 * (analysis/graphs.h): one row per replay (the GPU work of one graph
 * launch call on one device context, keyed by device, context and
 * correlation id), in start order, with
 *   graph, graph_source  the graph (the trace's id, or "signature": the
 *                        replays that ran the same operations are one
 *                        graph, numbered in order of first replay)
 *   start_ns, end_ns, span_ns, busy_ns, busy_pct   the replay's extent and
 *                        the union of its work inside it
 *   gaps, gap_ns, max_gap_ns   the idle stretches between its work
 *   ops, kernels         its GPU operations and kernels (whole: one
 *                        whole-graph record, nsys --cuda-graph-trace=graph,
 *                        whose kernels are not traced)
 *   launch_api, launch_api_id, launch_latency_ns   the launch call and the
 *                        time from its end to the replay's first work
 *   nvtx_range           the innermost NVTX range around the call: every
 *                        kernel of the replay belongs to it
 * --group-by graph gives one row per graph and device instead: replays,
 * operations, the spans' total, mean, minimum and maximum, busy and gap
 * time, and the mean launch latency. The window options keep the replays
 * that overlap the window.
 *
 * An Nsight Compute report has no graph replays to list here: the verb
 * refuses one with a clear message.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/graphs.h"
#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evrow.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "model/event.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

#define GRAPHS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_GROUP)

/* --group-by: per replay, or per graph. */
static const struct cmd_option graphs_vopts[] = {
	{ "--group-by", "replay|graph", "one row per replay (default), or "
	    "per graph and device", CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_graphs_entry = {
	.name = "graphs",
	.usage = "gpulens graphs [--group-by graph] [OPTIONS] TRACE|REPORT",
	.help =
	"Lists CUDA and HIP graph replays: per graph launch (the work of one\n"
	"cudaGraphLaunch, cuGraphLaunch or hipGraphLaunch call on one device\n"
	"context), its graph, replayed operations and kernels, span, GPU busy\n"
	"time, the gaps inside the replay, the launch call, its launch latency\n"
	"and the NVTX range around it. --group-by graph: one row per graph and\n"
	"device. On an Nsight Compute report, the workloads profiled as whole\n"
	"graphs (graph profiling), a row each.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = GRAPHS_OPTS,
	.vopts = graphs_vopts,
	.model = cmd_graphs_run,
	.report = &ncu_graphs_form
};

static const char *
graphs_src_name(int src)
{
	return src == GRAPH_SRC_TRACE ? "trace" : "signature";
}

static double
graphs_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void
graphs_replay_row(struct out *out, const struct model *m,
    const struct graph_replay *r, int absolute)
{
	const struct track	*tr = &m->tracks[r->track];
	const struct device	*d = &m->devices[r->device];
	cJSON			*row = out_row(out);
	char			 key[160], id[24];
	uint32_t		 p;

	rowkey_buf(key, sizeof key, "replay",
	    "device=%u|context=%u|corr=%u|start=%lld",
	    d->source_id, r->context, r->corr,
	    (long long)(r->start - m->origin_ns));
	out_str(row, "key", key);
	out_int(row, "graph", (int64_t)r->graph);
	out_str(row, "graph_source", graphs_src_name(r->src));
	out_int(row, "device", d->source_id);
	out_int(row, "context", r->context);
	out_int(row, "stream", (int64_t)m->streams[tr->stream].source_id);
	p = m->streams[tr->stream].process;
	if (p != NONE32 && p < m->nprocesses)
		out_int(row, "pid", m->processes[p].pid);
	else
		cJSON_AddNullToObject(row, "pid");
	out_int(row, "corr", r->corr);
	out_int(row, "start_ns", event_time(m, r->start, absolute));
	out_int(row, "end_ns", event_time(m, r->end, absolute));
	out_int(row, "span_ns", r->end - r->start);
	out_int(row, "busy_ns", r->busy);
	out_num(row, "busy_pct", graphs_pct(r->busy, r->end - r->start));
	out_int(row, "gaps", (int64_t)r->gaps);
	out_int(row, "gap_ns", r->end - r->start - r->busy);
	out_int(row, "max_gap_ns", r->max_gap);
	out_int(row, "ops", (int64_t)r->ops);
	out_int(row, "kernels", (int64_t)r->kernels);
	out_bool(row, "whole", r->whole);
	evrow_key(id, sizeof id, r->first);
	out_str(row, "first_op_id", id);
	out_str(row, "first_op", model_str(m, model_ev_name(m, r->first)));
	if (r->call != NONE32) {
		evrow_key(id, sizeof id, r->call);
		out_str(row, "launch_api_id", id);
		out_str(row, "launch_api", model_str(m,
		    model_ev_name(m, r->call)));
		out_int(row, "launch_latency_ns", r->latency);
	} else {
		cJSON_AddNullToObject(row, "launch_api_id");
		cJSON_AddNullToObject(row, "launch_api");
		cJSON_AddNullToObject(row, "launch_latency_ns");
	}
	if (r->range != NONE32)
		out_str(row, "nvtx_range", model_str(m,
		    model_ev_name(m, r->range)));
	else
		cJSON_AddNullToObject(row, "nvtx_range");
}

static void
graphs_group_row(struct out *out, const struct model *m,
    const struct graphs *gs, const struct graph_group *g, int absolute)
{
	const struct graph_replay	*r = &gs->r[g->first];
	cJSON				*row = out_row(out);
	char				 key[96];

	rowkey_buf(key, sizeof key, "graph", "graph=%llu|source=%s|device=%u",
	    (unsigned long long)g->graph, graphs_src_name(g->src),
	    m->devices[g->device].source_id);
	out_str(row, "key", key);
	out_int(row, "graph", (int64_t)g->graph);
	out_str(row, "graph_source", graphs_src_name(g->src));
	out_int(row, "device", m->devices[g->device].source_id);
	out_int(row, "replays", (int64_t)g->replays);
	out_int(row, "launched", (int64_t)g->launched);
	out_int(row, "ops", (int64_t)g->ops);
	out_int(row, "kernels", (int64_t)g->kernels);
	out_int(row, "span_ns", g->span);
	out_num(row, "span_mean_ns", (double)g->span / (double)g->replays);
	out_int(row, "span_min_ns", g->span_min);
	out_int(row, "span_max_ns", g->span_max);
	out_int(row, "busy_ns", g->busy);
	out_num(row, "busy_pct", graphs_pct(g->busy, g->span));
	out_int(row, "gaps", (int64_t)g->gaps);
	out_int(row, "gap_ns", g->span - g->busy);
	out_int(row, "max_gap_ns", g->max_gap);
	out_num_or_null(row, "latency_mean_ns", g->launched > 0,
	    (double)g->latency / (double)g->launched);
	out_int(row, "first_start_ns", event_time(m, r->start, absolute));
	out_str(row, "name", model_str(m, model_ev_name(m, r->first)));
}

int
cmd_graphs_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct graphs	 gs;
	struct sel	 s;
	struct opts	 so;
	size_t		 i;
	int		 group = 0;
	char		 id[24];

	if (o->group_by != NULL) {
		if (strcmp(o->group_by, "graph") == 0)
			group = 1;
		else if (strcmp(o->group_by, "replay") != 0) {
			*code = "usage";
			*cause = xasprintf("--group-by takes graph or replay, "
			    "not '%s'", o->group_by);
			return -1;
		}
	}
	so = *o;
	so.group_by = NULL;
	if (sel_open(&s, m, &so, out, code, cause) != 0)
		return -1;
	graphs_build(&gs, m, s.t0, s.t1);
	sel_free(&s);
	if (group) {
		for (i = 0; i < gs.ng; i++)
			graphs_group_row(out, m, &gs, &gs.g[i], o->absolute);
		out->shape = 2;	/* see cols/graphs.c */
		out->default_sort = "span_ns:desc";
	} else {
		for (i = 0; i < gs.n; i++)
			graphs_replay_row(out, m, &gs.r[i], o->absolute);
		out->shape = 1;
		out->default_sort = "start_ns:asc";
	}
	out_int(out->aux, "replays", (int64_t)gs.n);
	out_int(out->aux, "graphs", (int64_t)gs.ng);
	out_int(out->aux, "replayed_ops", (int64_t)gs.ops);
	out_int(out->aux, "launched_replays", (int64_t)gs.calls);
	if (gs.n == 0)
		out_warn(out, "no_graphs",
		    "no graph replays: no GPU work was launched by a graph "
		    "launch call or traced as a graph");
	else if (!group) {
		out_next(out, "gpulens graphs %s --group-by graph",
		    out_q(out, o->args[0]));
		if (gs.r[0].call != NONE32) {
			evrow_key(id, sizeof id, gs.r[0].call);
			out_next(out, "gpulens correlate %s %s",
			    out_q(out, o->args[0]), id);
		}
	} else
		out_next(out, "gpulens graphs %s", out_q(out, o->args[0]));
	graphs_free(&gs);
	return 0;
}

/* An Nsight Compute report: nothing to list yet. */
