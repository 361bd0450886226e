/*
 * cmd-inspect: `gpulens inspect TRACE ID...` shows everything the model
 * knows about the given events (row ids as search prints them, "ev|id=123",
 * or "ev:123" or "123"), one row per id in the order given:
 *   - the search columns (evrow.h), the track, thread, process, device and
 *     stream names, the correlation id, the lane depth and the flags;
 *   - kernels: short and mangled names, grid, block, threads, registers,
 *     shared and local memory, launch type, graph node and graph id;
 *   - copies and memsets: bytes, direction, memory kinds, devices, value,
 *     achieved bandwidth;
 *   - NVTX ranges and marks: domain, category, color, payload, style,
 *     depth, parent, children, iteration, full path, GPU projection;
 *   - API calls: the GPU work they launched;
 *   - GPU work: the launching API call and the launch latency (GPU start -
 *     API end, correlate_latency; negative when the GPU started first;
 *     for work a graph launch replayed, only the replay's first has one),
 *     and for replayed work its index in the replay and the replay's
 *     operations (replay_index, replay_ops);
 *   - the innermost NVTX range around the event (for GPU work, around the
 *     launching call): its id, name, path and the outermost range's
 *     iteration;
 *   - API and OS runtime calls the source recorded a backtrace of: their
 *     call chain (callchain: function and module per frame, the caller of
 *     the call first, its callers after).
 * A CPU sample is named "sample:N" or "sample|id=N" (N its index, in the
 * order of thread, then time): its time, thread and call chain (the
 * sampled function first).
 * An id that names no event gives a row with only its key, its id and
 * "status":"not_found"; when no id names an event the answer is the
 * not_found error. An id that is not one (not ev:N or N) is a usage
 * error. Every row is printed unless --limit is given.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/cmd-report.h"
#include "model/correlate.h"
#include "model/replay.h"
#include "headless/evrow.h"
#include "model/nvtx.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/samples.h"
#include "model/callchain.h"
#include "model/event.h"
#include "util/rowkey.h"
#include "util/xmalloc.h"

#define INSPECT_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_NVTXDOM)
#define INSPECT_PATH	4096

static cmd_finish_t	inspect_finish;

/* Every row unless --limit is given. */
static const struct cmd_option inspect_vopts[] = {
	{ "--limit", "N", "at most N rows (default: all)", CMD_OPT_AS, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

/* On an Nsight Compute report: the launches' metrics and rules. */
static const struct cmd_form inspect_report = {
	"report-inspect", { 2, -1, NULL }, cmd_report_inspect_run
};

const struct cmd_entry cmd_inspect_entry = {
	.name = "inspect",
	.usage = "gpulens inspect [OPTIONS] TRACE ID...",
	.help =
	"Shows every field of the events with the given row ids (\"ev|id=123\"\n"
	"as search prints them, \"ev:123\" or \"123\"): kernel launch\n"
	"parameters, copy directions and memory kinds, NVTX payload, color,\n"
	"category and domain, the enclosing NVTX range (path and iteration),\n"
	"and for GPU work the launching API call and the launch latency; the\n"
	"call chain of an API or OS runtime call where the trace has it.\n"
	"\"sample:N\" names CPU sample N: its time, thread and call chain. An\n"
	"id that names\n"
	"no event gives a row with \"status\":\"not_found\"; if none names\n"
	"one, the answer is the not_found error. Every row is printed unless\n"
	"--limit is given (on an Nsight Compute report, each launch is\n"
	"hundreds of metric rows).",
	.args = { 2, -1, NULL },
	.input = CMD_IN_TRACE,
	.flags = CMD_ANSWER | CMD_ALL_ROWS,
	.options = INSPECT_OPTS,
	.vopts = inspect_vopts,
	.model = cmd_inspect_run,
	.finish = inspect_finish,
	.report = &inspect_report
};

static void
inspect_strn(cJSON *row, const char *key, const struct model *m,
    uint32_t sid)
{
	if (sid == 0)
		cJSON_AddNullToObject(row, key);
	else
		out_str(row, key, model_str(m, sid));
}

static void
inspect_u64(cJSON *row, const char *key, uint64_t v)
{
	char	buf[32];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	cJSON_AddItemToObject(row, key, cJSON_CreateRaw(buf));
}

/* A communication kernel's message as the source records it (comm_* in
 * struct kernel_info), each field null when unknown, and where it comes
 * from. */
static void
inspect_comm(cJSON *row, const struct model *m, const struct kernel_info *k)
{
	inspect_strn(row, "comm_collective", m, k->comm_coll);
	inspect_strn(row, "comm_dtype", m, k->comm_dtype);
	out_int_or_null(row, "comm_element_bytes", k->comm_elem_size != 0,
	    k->comm_elem_size);
	if (k->comm_flags & KCOMM_IN)
		inspect_u64(row, "comm_in_elements", k->comm_in_nelems);
	else
		cJSON_AddNullToObject(row, "comm_in_elements");
	if (k->comm_flags & KCOMM_OUT)
		inspect_u64(row, "comm_out_elements", k->comm_out_nelems);
	else
		cJSON_AddNullToObject(row, "comm_out_elements");
	out_int_or_null(row, "comm_group_size", k->comm_group_size != 0,
	    k->comm_group_size);
	inspect_strn(row, "comm_process_group", m, k->comm_pg_name);
	inspect_strn(row, "comm_process_group_desc", m, k->comm_pg_desc);
	inspect_strn(row, "comm_process_group_ranks", m, k->comm_pg_ranks);
	if (k->comm_flags & KCOMM_ANN)
		out_str(row, "comm_source", "annotation");
	else if (k->comm_flags != 0 || k->comm_coll != 0 ||
	    k->comm_dtype != 0)
		out_str(row, "comm_source", "args");
	else
		cJSON_AddNullToObject(row, "comm_source");
}

static void
inspect_kernel(cJSON *row, const struct model *m,
    const struct kernel_info *k)
{
	int64_t	threads = 1;
	int	i;

	for (i = 0; i < 3; i++)
		threads *= (int64_t)k->grid[i] * (int64_t)k->block[i];
	inspect_strn(row, "short_name", m, k->short_name);
	inspect_strn(row, "mangled_name", m, k->mangled);
	out_int(row, "threads", threads);
	out_int(row, "registers_per_thread", k->regs);
	out_int(row, "static_smem_bytes", k->static_smem);
	out_int(row, "dynamic_smem_bytes", k->dynamic_smem);
	out_int(row, "local_mem_per_thread_bytes", k->local_mem);
	out_int(row, "launch_type", k->launch_type);
	out_int_or_null(row, "graph_node", k->graph_node != 0, k->graph_node);
	out_int_or_null(row, "graph_id", k->graph_id != 0, k->graph_id);
	inspect_comm(row, m, k);
}

static void
inspect_copy(cJSON *row, const struct model *m, const struct copy_info *c,
    int kind, int64_t dur)
{
	if (kind == EV_MEMCPY) {
		out_str(row, "copy_kind_label", copy_kind_label(c->kind));
		out_str(row, "src_kind", mem_kind_name(c->src_kind));
		out_str(row, "dst_kind", mem_kind_name(c->dst_kind));
		out_int_or_null(row, "src_device", c->src_dev != NONE32,
		    c->src_dev);
		out_int_or_null(row, "dst_device", c->dst_dev != NONE32,
		    c->dst_dev);
	} else {
		out_str(row, "mem_kind", mem_kind_name(c->src_kind));
		out_int(row, "value", c->value);
	}
	out_num_or_null(row, "bytes_per_s", dur > 0,
	    (double)c->bytes * 1e9 / (double)dur);
}

static void
inspect_nvtx(cJSON *row, const struct model *m, uint32_t gid,
    const struct nvtx_info *ni, int kind, uint8_t flags, int absolute)
{
	struct nvtx_proj	 p;
	char			 buf[INSPECT_PATH];

	if (ni->domain < m->ndomains)
		out_str(row, "domain", model_str(m,
		    m->domains[ni->domain].name));
	else
		cJSON_AddNullToObject(row, "domain");
	out_int(row, "category", ni->category);
	inspect_strn(row, "category_name", m, ni->category_name);
	if (ni->color != 0) {
		snprintf(buf, sizeof buf, "#%08x", ni->color);
		out_str(row, "color", buf);
	} else
		cJSON_AddNullToObject(row, "color");
	switch (ni->payload_type) {
	case NVTX_PAYLOAD_INT:
		out_str(row, "payload_type", "int");
		out_int(row, "payload", ni->payload.i);
		break;
	case NVTX_PAYLOAD_UINT:
		out_str(row, "payload_type", "uint");
		inspect_u64(row, "payload", ni->payload.u);
		break;
	case NVTX_PAYLOAD_DOUBLE:
		out_str(row, "payload_type", "double");
		out_num(row, "payload", ni->payload.d);
		break;
	default:
		cJSON_AddNullToObject(row, "payload_type");
		cJSON_AddNullToObject(row, "payload");
		break;
	}
	out_str(row, "style", flags & EVF_STARTEND ? "StartEnd" : "PushPop");
	out_int(row, "nvtx_depth", nvtx_depth(m, gid));
	out_int_or_null(row, "parent_id", ni->parent != NONE32, ni->parent);
	out_int(row, "children", ni->nchildren);
	out_int(row, "iter", ni->iter);
	nvtx_path(m, gid, buf, sizeof buf);
	out_str(row, "path", buf);
	if (kind != EV_NVTX)
		return;
	nvtx_project(m, gid, &p);
	out_int(row, "gpu_ops", p.nops);
	out_int(row, "gpu_kernels", p.nkernels);
	out_int(row, "gpu_busy_ns", p.busy);
	if (p.nops > 0) {
		out_int(row, "gpu_start_ns", event_time(m, p.start, absolute));
		out_int(row, "gpu_end_ns", event_time(m, p.end, absolute));
	} else {
		cJSON_AddNullToObject(row, "gpu_start_ns");
		cJSON_AddNullToObject(row, "gpu_end_ns");
	}
}

/* GPU work a graph launch replayed: its place in the replay. */
static void
inspect_replay(cJSON *row, const struct model *m, uint32_t gid)
{
	uint32_t	*buf = NULL;
	size_t		 cap = 0, n, i;

	n = replay_work(m, gid, &buf, &cap);
	for (i = 0; i < n && buf[i] != gid; i++)
		;
	if (n > 0 && i < n) {
		out_int(row, "replay_index", (int64_t)i);
		out_int(row, "replay_ops", (int64_t)n);
	} else {
		cJSON_AddNullToObject(row, "replay_index");
		cJSON_AddNullToObject(row, "replay_ops");
	}
	free(buf);
}

/* The launching API call of GPU work. */
static void
inspect_launch(cJSON *row, const struct model *m, uint32_t gid,
    int absolute)
{
	uint32_t	 api = correlate_launch(m, gid);
	int64_t		 lat;
	struct evref	 r;
	char		 key[24];

	if (api == NONE32) {
		cJSON_AddNullToObject(row, "launch_api_id");
		cJSON_AddNullToObject(row, "launch_api");
		cJSON_AddNullToObject(row, "launch_api_start_ns");
		cJSON_AddNullToObject(row, "launch_api_duration_ns");
		cJSON_AddNullToObject(row, "launch_latency_ns");
		cJSON_AddNullToObject(row, "replay_index");
		cJSON_AddNullToObject(row, "replay_ops");
		return;
	}
	r = model_ev(m, api);
	evrow_key(key, sizeof key, api);
	out_int(row, "launch_api_id", api);
	out_str(row, "launch_api_key", key);
	out_str(row, "launch_api", model_str(m,
	    m->tracks[r.track].lane.name[r.idx]));
	out_int(row, "launch_api_start_ns", event_time(m,
	    m->tracks[r.track].lane.start[r.idx], absolute));
	out_int(row, "launch_api_duration_ns",
	    m->tracks[r.track].lane.end[r.idx] -
	    m->tracks[r.track].lane.start[r.idx]);
	if (correlate_latency(m, gid, &lat) == 0)
		out_int(row, "launch_latency_ns", lat);
	else
		cJSON_AddNullToObject(row, "launch_latency_ns");
	inspect_replay(row, m, gid);
}

static void
inspect_range(cJSON *row, const struct model *m, uint32_t gid,
    const char *domain)
{
	uint32_t	range = event_range_in(m, gid, domain), iter;
	char		buf[INSPECT_PATH];

	if (range == NONE32) {
		cJSON_AddNullToObject(row, "nvtx_range_id");
		cJSON_AddNullToObject(row, "nvtx_range");
		cJSON_AddNullToObject(row, "nvtx_path");
		cJSON_AddNullToObject(row, "nvtx_iter");
		return;
	}
	out_int(row, "nvtx_range_id", range);
	out_str(row, "nvtx_range", model_str(m, model_ev_name(m, range)));
	nvtx_path(m, range, buf, sizeof buf);
	out_str(row, "nvtx_path", buf);
	if ((iter = event_iter(m, range)) != NONE32)
		out_int(row, "nvtx_iter", iter);
	else
		cJSON_AddNullToObject(row, "nvtx_iter");
}

/*
 * A call chain as an array of frames, leaf first. A table shows the
 * number of frames in the row and the frames below it, one line each.
 */
static void
inspect_chain(struct out *out, cJSON *row, const struct model *m,
    uint32_t chain)
{
	const uint32_t	*fr;
	size_t		 n, k;
	cJSON		*a, *f, *key;
	char		*s;

	n = cpusamp_chain(&m->cs, chain, &fr);
	a = cJSON_CreateArray();
	for (k = 0; k < n; k++) {
		f = cJSON_CreateObject();
		out_int(f, "depth", (int64_t)k);
		out_str(f, "function", model_str(m, m->cs.frame[fr[k]].func));
		out_str(f, "module", model_str(m, m->cs.frame[fr[k]].module));
		cJSON_AddItemToArray(a, f);
	}
	if (out->format != OUT_TABLE) {
		cJSON_AddItemToObject(row, "callchain", a);
		return;
	}
	s = xasprintf("%zu frame%s", n, n == 1 ? "" : "s");
	out_str(row, "callchain", s);
	free(s);
	key = cJSON_GetObjectItemCaseSensitive(row, "key");
	s = xasprintf("callchain of %s", cJSON_IsString(key) ?
	    key->valuestring : "?");
	cJSON_AddItemToObject(out->aux, s, a);
	free(s);
}

/* A CPU sample: its time, thread and call chain. */
static void
inspect_sample(struct out *out, const struct model *m, uint32_t id,
    int absolute)
{
	const struct csample	*s = &m->cs.s[id];
	const struct csthread	*h = &m->cs.th[s->sthread];
	cJSON			*row = out_row(out);
	uint32_t		 p;

	out_key(row, "sample", "id=%u", id);
	out_int(row, "id", id);
	out_str(row, "kind", "sample");
	out_int(row, "start_ns", event_time(m, s->t, absolute));
	out_int(row, "pid", h->pid);
	out_int(row, "tid", h->tid);
	inspect_strn(row, "thread_name", m, h->name);
	p = samples_process(m, s->sthread);
	inspect_strn(row, "process_name", m, p != NONE32 ?
	    m->processes[p].name : 0);
	inspect_chain(out, row, m, s->chain);
}

/* "sample:N" or "sample|id=N" (a row key of kind sample, the kind not
 * optional): 0 and *id, else -1. */
static int
inspect_parse_sample(const char *s, uint32_t *id)
{
	if (strncmp(s, "sample", 6) != 0)
		return -1;
	return rowkey_parse_id(s, "sample", id);
}

static void
inspect_row(struct out *out, const struct model *m, uint32_t gid,
    int absolute, const char *domain)
{
	struct evref		 r = model_ev(m, gid);
	const struct track	*tr = &m->tracks[r.track];
	const struct lane	*l = &tr->lane;
	uint32_t		 i = r.idx, aux = l->aux[i], th, pr;
	const struct kernel_info *k;
	const struct copy_info	*c;
	const uint32_t		*g;
	size_t			 ng, j;
	cJSON			*row = out_row(out), *a;
	char			*name;
	int			 kind = l->kind[i];

	evrow_fill(row, m, gid, absolute);
	out_str(row, "track", track_type_name(tr->type));
	out_str(row, "track_name", model_str(m, tr->name));
	th = event_thread(m, gid);
	pr = event_process(m, gid);
	inspect_strn(row, "thread_name", m, th != NONE32 && th < m->nthreads ?
	    m->threads[th].name : 0);
	inspect_strn(row, "process_name", m, pr != NONE32 &&
	    pr < m->nprocesses ? m->processes[pr].name : 0);
	if (event_gpu_side(tr)) {
		inspect_strn(row, "device_name", m, tr->device < m->ndevices ?
		    m->devices[tr->device].name : 0);
		inspect_strn(row, "stream_name", m, tr->stream < m->nstreams ?
		    m->streams[tr->stream].name : 0);
		if (tr->stream < m->nstreams &&
		    m->streams[tr->stream].context != 0)
			out_int(row, "context", m->streams[tr->stream].context);
		else
			cJSON_AddNullToObject(row, "context");
	}
	out_int_or_null(row, "correlation_id", l->corr[i] != 0, l->corr[i]);
	out_int(row, "depth", l->depth != NULL ? l->depth[i] : 0);
	out_bool(row, "open", (l->flags[i] & EVF_OPEN) != 0);
	out_bool(row, "comm", (l->flags[i] & EVF_COMM) != 0);
	out_bool(row, "end_clamped", (l->flags[i] & EVF_ENDCLAMP) != 0);
	if (kind == EV_API)
		out_bool(row, "driver", (l->flags[i] & EVF_DRIVER) != 0);
	if (kind == EV_NVTX)
		out_bool(row, "cross_thread",
		    (l->flags[i] & EVF_CROSSTHREAD) != 0);
	if (kind == EV_API) {
		name = xstrndup(model_str(m, l->name[i]),
		    event_api_len(model_str(m, l->name[i])));
		out_str(row, "base_name", name);
		free(name);
	}
	if ((k = event_kernel(m, gid)) != NULL)
		inspect_kernel(row, m, k);
	if ((c = event_copy(m, gid)) != NULL)
		inspect_copy(row, m, c, kind, l->end[i] - l->start[i]);
	if (tr->type == TRACK_NVTX && (kind == EV_NVTX || kind == EV_MARK) &&
	    aux != NONE32 && aux < m->nnvtx)
		inspect_nvtx(row, m, gid, &m->nvtx[aux], kind, l->flags[i],
		    absolute);
	if (kind == EV_COUNTER && aux != NONE32 && aux < m->ncounters)
		out_num(row, "value", m->counters[aux]);
	if (event_gpu_side(tr))
		inspect_launch(row, m, gid, absolute);
	if (kind == EV_API) {
		ng = correlate_gpu(m, gid, &g);
		out_int(row, "gpu_ops", (int64_t)ng);
		a = cJSON_AddArrayToObject(row, "gpu_ids");
		for (j = 0; j < ng; j++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(g[j]));
	}
	inspect_range(row, m, gid, domain);
	if (cpusamp_event_chain(m, gid) != NONE32)
		inspect_chain(out, row, m, cpusamp_event_chain(m, gid));
}

/* The row of an id that names no event: its key and id, and
 * "status":"not_found". */
static void
inspect_missing(struct out *out, uint32_t gid, int sample)
{
	cJSON	*row = out_row(out);
	char	 key[24];

	if (sample)
		rowkey_buf(key, sizeof key, "sample", "id=%u", gid);
	else
		evrow_key(key, sizeof key, gid);
	out_str(row, "key", key);
	out_int(row, "id", gid);
	out_str(row, "status", "not_found");
}

int
cmd_inspect_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	uint32_t	*ids, gid;
	uint8_t		*smp, issample;
	size_t		 n = 0, nfound = 0, i, j;
	int		 a;
	char		*list;

	if (o->nargs < 2) {
		*code = "usage";
		*cause = xasprintf("expected a trace and at least one id "
		    "(usage: %s)", cmd_inspect_entry.usage);
		return -1;
	}
	ids = xcalloc((size_t)o->nargs, sizeof *ids);
	smp = xcalloc((size_t)o->nargs, sizeof *smp);
	for (a = 1; a < o->nargs; a++) {
		issample = inspect_parse_sample(o->args[a], &gid) == 0;
		if (!issample && evrow_parse_id(o->args[a], &gid) != 0) {
			*code = "usage";
			*cause = xasprintf("'%s' is not an event id (ev:N or "
			    "N, as search prints them, or sample:N)",
			    o->args[a]);
			free(ids);
			free(smp);
			return -1;
		}
		for (j = 0; j < n; j++)
			if (ids[j] == gid && smp[j] == issample)
				break;
		if (j == n) {
			smp[n] = issample;
			ids[n++] = gid;
			if ((uint64_t)gid < (issample ? m->cs.ns : m->nevents))
				nfound++;
		}
	}
	if (nfound == 0) {
		/* Not one event: the not_found error, naming them all. */
		list = opts_args_list(o, 1);
		*code = "not_found";
		*cause = xasprintf("no event %s in this trace (ids run from 0 "
		    "to %llu)", list, (unsigned long long)(m->nevents == 0 ?
		    0 : m->nevents - 1));
		free(list);
		free(ids);
		free(smp);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (smp[i] && (uint64_t)ids[i] < m->cs.ns)
			inspect_sample(out, m, ids[i], o->absolute);
		else if (!smp[i] && (uint64_t)ids[i] < m->nevents)
			inspect_row(out, m, ids[i], o->absolute,
			    o->nvtx_domain);
		else
			inspect_missing(out, ids[i], smp[i]);
	}
	free(ids);
	free(smp);
	return 0;
}

/* The next step the answer suggests: for one id, its chain. */
static void
inspect_finish(const struct model *m, const struct opts *o, struct out *out)
{
	if (o->nargs == 2)
		out_next(out, "gpulens correlate %s %s", o->args[0],
		    o->args[1]);
}
