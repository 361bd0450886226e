/*
 * cmd-correlate: `gpulens correlate TRACE ID` follows the CPU-GPU chain of
 * one event, NVTX range -> API call -> GPU work, one row per link:
 *   - GPU work: the innermost NVTX push/pop range around its launching API
 *     call -> that call -> the GPU event;
 *   - an API call: the range around it -> the call -> every GPU operation
 *     it launched (a graph launch has many);
 *   - an NVTX range: every API call inside it on the same thread (start and
 *     end within the range, closed, as nsys's nvtx_gpu_proj_trace joins
 *     them), each followed by the GPU work it launched.
 * A link row names both ends; offset_ns is to.start - from.start, and for
 * API -> GPU links queue_delay_ns is GPU start - API end (negative when the
 * GPU started before the call returned; nsys's cuda_kern_exec_sum leaves
 * such a queue time out, here it is shown as it is). A graph launch's
 * replay (model/replay.h) has one queue delay, its first work's: the links
 * to the replay's other work have none (null). Rows are in chain
 * order (seq); --limit pages them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "model/correlate.h"
#include "headless/evrow.h"
#include "model/lane.h"
#include "model/nvtx.h"
#include "model/replay.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "util/sort.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define CORRELATE_OPTS	(OPT_OUTPUT | OPT_PAGE)
#define CORRELATE_PATH	4096

const struct cmd_entry cmd_correlate_entry = {
	.name = "correlate",
	.usage = "gpulens correlate [OPTIONS] TRACE ID",
	.help =
	"Follows the CPU-GPU chain of one event (an API call, GPU work or an\n"
	"NVTX range): NVTX range -> API call -> GPU work, one row per link,\n"
	"with the offset between the two ends and, from an API call to its\n"
	"GPU work, the queue delay (GPU start - API end). For a range: every\n"
	"API call inside it on its thread and the GPU work of each.",
	.args = { 2, 2, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER,
	.options = CORRELATE_OPTS,
	.model = cmd_correlate_run
};

struct correlate_ctx {
	const struct model	*m;
	struct out		*out;
	int			 absolute;
	int64_t			 seq;
	size_t			 napi, ngpu;
};

static void
correlate_end(cJSON *row, const struct model *m, const char *pre,
    uint32_t gid, int absolute)
{
	struct evref		 r = model_ev(m, gid);
	const struct lane	*l = &m->tracks[r.track].lane;
	char			 key[64];

	snprintf(key, sizeof key, "%s_id", pre);
	out_int(row, key, gid);
	snprintf(key, sizeof key, "%s_kind", pre);
	out_str(row, key, ev_kind_name(l->kind[r.idx]));
	snprintf(key, sizeof key, "%s_name", pre);
	out_str(row, key, model_str(m, l->name[r.idx]));
	snprintf(key, sizeof key, "%s_start_ns", pre);
	out_int(row, key, event_time(m, l->start[r.idx], absolute));
	snprintf(key, sizeof key, "%s_duration_ns", pre);
	out_int(row, key, l->end[r.idx] - l->start[r.idx]);
}

static void
correlate_link(struct correlate_ctx *c, const char *link, uint32_t from,
    uint32_t to)
{
	const struct model	*m = c->m;
	cJSON			*row = out_row(c->out);
	struct evref		 rf = model_ev(m, from), rt = model_ev(m, to);
	const struct track	*tt = &m->tracks[rt.track];
	char			 key[64], path[CORRELATE_PATH];
	uint32_t		 range;

	rowkey_buf(key, sizeof key, "link", "from=%u|to=%u", from, to);
	out_str(row, "key", key);
	out_int(row, "seq", c->seq++);
	out_str(row, "link", link);
	correlate_end(row, m, "from", from, c->absolute);
	correlate_end(row, m, "to", to, c->absolute);
	out_int(row, "offset_ns", tt->lane.start[rt.idx] -
	    m->tracks[rf.track].lane.start[rf.idx]);
	if (event_gpu_side(tt)) {
		/* A graph replay has one queue delay: its first work's. */
		if (replay_inner(m, to))
			cJSON_AddNullToObject(row, "queue_delay_ns");
		else
			out_int(row, "queue_delay_ns", tt->lane.start[rt.idx] -
			    m->tracks[rf.track].lane.end[rf.idx]);
		evrow_device(row, m, tt->device);
		evrow_stream(row, m, tt->stream);
		c->ngpu++;
	} else {
		cJSON_AddNullToObject(row, "queue_delay_ns");
		cJSON_AddNullToObject(row, "device");
		cJSON_AddNullToObject(row, "stream");
		c->napi++;
	}
	/* The CPU side of the link: the API call (from or to). */
	if (event_gpu_side(tt)) {
		evrow_pid(row, m, event_process(m, from));
		evrow_tid(row, m, event_thread(m, from));
	} else {
		evrow_pid(row, m, event_process(m, to));
		evrow_tid(row, m, event_thread(m, to));
	}
	range = event_range(m, to);
	if (range != NONE32) {
		nvtx_path(m, range, path, sizeof path);
		out_str(row, "nvtx_path", path);
	} else
		cJSON_AddNullToObject(row, "nvtx_path");
}

/* An API call's links to all its GPU work. */
static void
correlate_api_gpu(struct correlate_ctx *c, uint32_t api)
{
	const uint32_t	*g;
	size_t		 n, j;

	n = correlate_gpu(c->m, api, &g);
	for (j = 0; j < n; j++)
		correlate_link(c, "api-gpu", api, g[j]);
}

/* Every API call inside range gid on its thread, with its GPU work. */
static void
correlate_range(struct correlate_ctx *c, uint32_t gid)
{
	const struct model	*m = c->m;
	struct evref		 r = model_ev(m, gid);
	const struct track	*tr = &m->tracks[r.track], *u;
	int64_t			 rs = tr->lane.start[r.idx];
	int64_t			 re = tr->lane.end[r.idx];
	uint32_t		*apis = NULL;
	size_t			 cap = 0, n = 0, t, i;

	if (tr->thread == NONE32)
		return;
	for (t = 0; t < m->ntracks; t++) {
		u = &m->tracks[t];
		if (u->type != TRACK_API || u->thread != tr->thread)
			continue;
		for (i = lane_lower(&u->lane, rs); i < u->lane.n &&
		    u->lane.start[i] <= re; i++) {
			if (u->lane.end[i] > re)
				continue;
			XGROW(apis, cap, n + 1);
			apis[n++] = model_gid(m, (uint32_t)t, (uint32_t)i);
		}
	}
	sort_stable(apis, n, sizeof *apis, model_gid_cmp_start, (void *)m);
	for (i = 0; i < n; i++) {
		correlate_link(c, "range-api", gid, apis[i]);
		correlate_api_gpu(c, apis[i]);
	}
	free(apis);
}

int
cmd_correlate_run(const struct model *m, const struct opts *o,
    struct out *out, const char **code, char **cause)
{
	struct correlate_ctx	 c;
	struct evref		 r;
	const struct track	*tr;
	struct nvtx_proj	 p;
	uint32_t		 gid, api, range;
	cJSON			*root;
	int			 kind;

	if (o->nargs != 2) {
		*code = "usage";
		*cause = xasprintf("expected a trace and one id (usage: %s)",
		    cmd_correlate_entry.usage);
		return -1;
	}
	if (evrow_parse_id(o->args[1], &gid) != 0) {
		*code = "usage";
		*cause = xasprintf("'%s' is not an event id (ev:N or N, as "
		    "search prints them)", o->args[1]);
		return -1;
	}
	if ((uint64_t)gid >= m->nevents) {
		*code = "not_found";
		*cause = xasprintf("no event %s in this trace", o->args[1]);
		return -1;
	}
	memset(&c, 0, sizeof c);
	c.m = m;
	c.out = out;
	c.absolute = o->absolute;
	out->default_sort = "seq:asc";
	r = model_ev(m, gid);
	tr = &m->tracks[r.track];
	kind = tr->lane.kind[r.idx];
	root = cJSON_AddObjectToObject(out->aux, "root");
	evrow_fill(root, m, gid, o->absolute);
	if (event_gpu_side(tr)) {
		if ((api = correlate_launch(m, gid)) == NONE32) {
			out_warn(out, "no_launch_call",
			    "%s has no launching API call",
			    o->args[1]);
		} else {
			if ((range = event_range(m, api)) != NONE32)
				correlate_link(&c, "range-api", range, api);
			correlate_link(&c, "api-gpu", api, gid);
		}
	} else if (kind == EV_API) {
		if ((range = event_range(m, gid)) != NONE32)
			correlate_link(&c, "range-api", range, gid);
		correlate_api_gpu(&c, gid);
		if (c.ngpu == 0)
			out_warn(out, "no_gpu_work",
			    "%s launched no GPU work", o->args[1]);
	} else if (tr->type == TRACK_NVTX && kind == EV_NVTX) {
		correlate_range(&c, gid);
		nvtx_project(m, gid, &p);
		out_int(out->aux, "gpu_ops", p.nops);
		out_int(out->aux, "gpu_busy_ns", p.busy);
		if (p.nops > 0) {
			out_int(out->aux, "gpu_start_ns", event_time(m,
			    p.start, o->absolute));
			out_int(out->aux, "gpu_end_ns", event_time(m, p.end,
			    o->absolute));
		}
		if (c.napi == 0)
			out_warn(out, "no_api_call",
			    "no API call lies inside %s on its "
			    "thread", o->args[1]);
	} else {
		out_warn(out, "wrong_event_kind",
		    "%s is a %s event: only API calls, GPU work and "
		    "NVTX ranges have a CPU-GPU chain", o->args[1],
		    ev_kind_name(kind));
	}
	out_int(out->aux, "api_calls", (int64_t)c.napi);
	out_int(out->aux, "gpu_links", (int64_t)c.ngpu);
	return 0;
}

