/*
 * rocprof-json: the rocprofv3 JSON reader (`rocprofv3 --output-format
 * json`, results.json: one object whose only key is
 * "rocprofiler-sdk-tool", an array with one entry per profiled process).
 *
 * An entry holds:
 *   metadata         pid, init_time, fini_time, command (argv), node
 *                    (hostname, ...)
 *   agents           CPUs and GPUs: id.handle, type (1 CPU, 2 GPU),
 *                    logical_node_type_id (GPU n), cu_count, name, ...
 *   strings          buffer_records[kind] = {kind name, operations[]}:
 *                    the names of every record's kind and operation;
 *                    marker_api = [{key: correlation id, value: message}]
 *   kernel_symbols   by kernel_id: formatted/truncated/mangled names,
 *                    static LDS, registers
 *   buffer_records   kernel_dispatch, memory_copy, hip_api, hsa_api,
 *                    marker_api, rccl_api, rocdecode_api, rocjpeg_api
 *                    (loaded); memory_allocation, scratch_memory,
 *                    pc_sample_* (counted in a warning)
 *   callback_records counter_collection (counted in a warning)
 * Times are nanoseconds on the profiler's clock; thread_id is the OS tid.
 *
 * Mapping: GPU agents become devices (source id = GPU index), each
 * process its own process (OS pid, named by its executable, host from the
 * node). Kernel dispatches and memory copies go on one track per (agent,
 * HIP stream) when the records carry stream ids, else per (agent, queue);
 * copies without a queue share a "Memory copies" track. API records go on
 * their thread's API track (HSA with EVF_DRIVER, RCCL with EVF_COMM),
 * marker records on its roctx track (EV_NVTX, or EV_MARK when start ==
 * end), named by their message. The internal correlation id links API
 * calls and GPU work. Kernel names are the formatted kernel names
 * rocprofv3 prints.
 *
 * The file is read whole (zfile_slurp, plain, gzip or zstd) and parsed
 * with cJSON: a file above ROCPROF_JSON_MAX decompressed bytes is refused
 * with a message that says so. JSON numbers are doubles, so timestamps
 * above 2^53 ns (104 days of uptime) lose their last bits; a warning says
 * when that happened.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "util/progress.h"
#include "sources/source.h"
#include "sources/sqlz.h"
#include "sources/srcdev.h"
#include "sources/srcerr.h"
#include "sources/srcmaps.h"
#include "util/timing.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

#define ROCPROF_JSON_MAX	((size_t)1 << 30)	/* 1 GiB of text */
#define ROCPROF_JSON_SNIFF	4096
#define ROCPROF_JSON_KEY	"rocprofiler-sdk-tool"
#define ROCPROF_ROCTX		1	/* domain source id of "roctx" */
#define ROCPROF_COPY_QUEUE	0xffffffffULL	/* copies without a queue */
#define ROCPROF_EXACT		((int64_t)1 << 53)

/* One buffer-record kind: its name and its operations' names. */
struct rj_kind {
	const char	 *name;		/* "HIP_RUNTIME_API" */
	const char	**ops;		/* operation names, by operation */
	size_t		  nops;
	enum amd_class	  cls;
};

struct rj {
	const char	 *path;
	struct builder	 *b;
	struct model	 *m;
	struct progress	 *prog;
	char		 *err;

	/* The process being read. */
	uint64_t	  pkey;		/* source id base of the process */
	uint32_t	  proc;
	struct rj_kind	 *kinds;
	size_t		  nkinds;
	struct hmap	  agents;	/* handle -> device index + 1, or 0
					   for a CPU */
	struct hmap	  syms;		/* kernel_id -> index in symv */
	const cJSON	**symv;		/* the kernel_symbols entries */
	size_t		  nsyms, symscap;
	struct hmap	  messages;	/* correlation id -> pool id */
	struct hmap	  tracks;	/* key(kind, a, b) -> track */
	uint32_t	  domain;	/* roctx domain of the process */
	int		  by_stream;	/* group GPU work by HIP stream */

	uint64_t	  inexact;	/* timestamps above 2^53 */
	uint64_t	  skipped;	/* records of kinds not loaded */
	char		  skipped_list[256];
	uint64_t	  rows;
};

int
rocprof_json_sniff(const char *path)
{
	char		 buf[ROCPROF_JSON_SNIFF];
	const char	*p, *end;
	size_t		 got;

	got = sqlz_head(path, buf, sizeof buf);
	p = buf;
	end = buf + got;
	if (end - p >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p == end || *p++ != '{')
		return 0;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return (size_t)(end - p) >= sizeof "\"" ROCPROF_JSON_KEY "\"" - 1 &&
	    memcmp(p, "\"" ROCPROF_JSON_KEY "\"",
	    sizeof "\"" ROCPROF_JSON_KEY "\"" - 1) == 0;
}

/* Records the first error: rj_error(r, fmt, ...). */
#define rj_error(r, ...)	srcerr_setf(&(r)->err, (r)->path, __VA_ARGS__)

static const cJSON *
rj_get(const cJSON *o, const char *key)
{
	return o != NULL ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* A timestamp field, counting the ones a double cannot hold exactly. */
static int64_t
rj_time(struct rj *r, const cJSON *o, const char *key)
{
	int64_t	v = amd_json_int(o, key);

	if (v >= ROCPROF_EXACT || v <= -ROCPROF_EXACT)
		r->inexact++;
	return v;
}

/* The internal correlation id of a record, as a 32-bit id (0: none). */
static uint32_t
rj_corr(const cJSON *rec)
{
	return (uint32_t)amd_json_int(rj_get(rec, "correlation_id"),
	    "internal");
}

/* Strings. */

static void
rj_free_kinds(struct rj *r)
{
	XFREE_EACH(r->kinds, r->nkinds, ops);
	free(r->kinds);
	r->kinds = NULL;
	r->nkinds = 0;
}

static void
rj_kinds(struct rj *r, const cJSON *strings)
{
	const cJSON	*arr, *k, *op;
	struct rj_kind	*kd;
	size_t		 i = 0, j;

	rj_free_kinds(r);
	arr = rj_get(strings, "buffer_records");
	if ((r->nkinds = (size_t)cJSON_GetArraySize(arr)) == 0)
		return;
	r->kinds = xcalloc(r->nkinds, sizeof *r->kinds);
	cJSON_ArrayForEach(k, arr) {
		kd = &r->kinds[i++];
		kd->name = amd_json_str(k, "kind");
		kd->cls = amd_category_class(kd->name);
		kd->nops = (size_t)cJSON_GetArraySize(rj_get(k, "operations"));
		if (kd->nops == 0)
			continue;
		kd->ops = xcalloc(kd->nops, sizeof *kd->ops);
		j = 0;
		cJSON_ArrayForEach(op, rj_get(k, "operations")) {
			kd->ops[j++] = cJSON_IsString(op) &&
			    op->valuestring != NULL ? op->valuestring : "";
		}
	}
}

static const struct rj_kind *
rj_kind(const struct rj *r, const cJSON *rec)
{
	int64_t	k = amd_json_int(rec, "kind");

	return k >= 0 && (size_t)k < r->nkinds ? &r->kinds[k] : NULL;
}

/* The operation name of a record ("hipLaunchKernel"). */
static const char *
rj_op_name(const struct rj *r, const cJSON *rec)
{
	const struct rj_kind	*k = rj_kind(r, rec);
	int64_t			 op = amd_json_int(rec, "operation");

	if (k == NULL || op < 0 || (size_t)op >= k->nops)
		return "";
	return k->ops[op];
}

static void
rj_messages(struct rj *r, const cJSON *strings)
{
	const cJSON	*e;

	cJSON_ArrayForEach(e, rj_get(strings, "marker_api")) {
		const char *msg = amd_json_str(e, "value");
		if (*msg != '\0')
			hmap_put(&r->messages, (uint64_t)amd_json_int(e, "key"),
			    builder_intern(r->b, msg));
	}
}

/* Entities. */

static void
rj_process(struct rj *r, const cJSON *proc, size_t index)
{
	const cJSON	*meta = rj_get(proc, "metadata");
	const cJSON	*cmd = rj_get(meta, "command"), *a;
	const char	*argv0 = "", *base, *host;
	char		*line = NULL, *s;
	uint32_t	 pid = (uint32_t)amd_json_int(meta, "pid");

	cJSON_ArrayForEach(a, cmd) {
		if (!cJSON_IsString(a) || a->valuestring == NULL)
			continue;
		if (line == NULL) {
			argv0 = a->valuestring;
			line = xstrdup(a->valuestring);
		} else {
			s = xasprintf("%s %s", line, a->valuestring);
			free(line);
			line = s;
		}
	}
	base = strrchr(argv0, '/') != NULL ? strrchr(argv0, '/') + 1 : argv0;
	r->pkey = (uint64_t)index << 32;
	r->proc = builder_process(r->b, r->pkey | pid, pid, *base != '\0' ?
	    base : NULL);
	host = amd_json_str(rj_get(meta, "node"), "hostname");
	if (*host != '\0') {
		r->m->processes[r->proc].host = builder_intern(r->b, host);
		builder_meta(r->b, "hostname", host);
	}
	if (line != NULL)
		builder_meta(r->b, "command", line);
	free(line);
	r->domain = NONE32;
}

static void
rj_agents(struct rj *r, const cJSON *agents)
{
	const cJSON	*a;
	struct device	 d;
	uint32_t	 i;

	cJSON_ArrayForEach(a, agents) {
		uint64_t handle = (uint64_t)amd_json_int(a, "id");
		if (!amd_agent_is_gpu(a)) {
			hmap_put(&r->agents, handle, 0);
			continue;
		}
		memset(&d, 0, sizeof d);
		d.source_id = (uint32_t)amd_json_int(a, "logical_node_type_id");
		d.process = NONE32;
		if ((i = builder_find_device(r->b, d.source_id)) == NONE32) {
			amd_device_from_agent(r->b, a, &d);
			i = builder_device(r->b, &d);
		}
		hmap_put(&r->agents, handle, i + 1);
	}
}

/* Device index of an agent handle: NONE32 for CPUs and unknown agents. */
static uint32_t
rj_device(struct rj *r, uint64_t handle)
{
	uint32_t	v;

	return hmap_get(&r->agents, handle, &v) && v != 0 ? v - 1 : NONE32;
}

static int
rj_is_gpu(struct rj *r, uint64_t handle)
{
	return rj_device(r, handle) != NONE32;
}

/* Tracks. */

static uint32_t
rj_gpu_track(struct rj *r, uint32_t dev, uint64_t stream, uint64_t queue)
{
	uint64_t	 id, key;
	uint32_t	 t, s;
	char		 buf[64];

	id = r->by_stream ? stream : queue;
	key = hmap_key2(hmap_key2(TRACK_GPU, dev), id);
	if (hmap_get(&r->tracks, key, &t))
		return t;
	if (dev == NONE32)
		dev = srcdev_get(r->b, UINT32_MAX, "AMD", "unknown agent");
	s = builder_stream(r->b, dev, id, r->proc);
	t = builder_gpu_track(r->b, s);
	if (id == ROCPROF_COPY_QUEUE)
		snprintf(buf, sizeof buf, "Memory copies");
	else
		snprintf(buf, sizeof buf, "%s %llu", r->by_stream ? "Stream" :
		    "Queue", (unsigned long long)id);
	r->m->tracks[t].name = builder_intern(r->b, buf);
	hmap_put(&r->tracks, key, t);
	return t;
}

static uint32_t
rj_cpu_track(struct rj *r, enum track_type type, uint32_t tid)
{
	uint64_t	key;
	uint32_t	t, thr;

	key = hmap_key2(hmap_key2(type, r->proc), tid);
	if (hmap_get(&r->tracks, key, &t))
		return t;
	thr = builder_thread(r->b, r->pkey | tid, tid, r->proc, NULL);
	if (type == TRACK_NVTX && r->domain == NONE32)
		r->domain = builder_domain(r->b, r->proc, ROCPROF_ROCTX,
		    "roctx");
	t = builder_cpu_track(r->b, type, thr, type == TRACK_NVTX ?
	    r->domain : 0);
	r->m->tracks[t].name = builder_intern(r->b, type == TRACK_NVTX ?
	    "roctx" : "HIP API");
	hmap_put(&r->tracks, key, t);
	return t;
}

/* Records. */

static void
rj_progress(struct rj *r)
{
	if ((++r->rows & 16383) == 0)
		progress_rows(r->prog, r->rows);
}

static void
rj_dispatch(struct rj *r, const cJSON *rec)
{
	const cJSON		*info = rj_get(rec, "dispatch_info"), *sym;
	const cJSON		*g = rj_get(info, "grid_size");
	const cJSON		*w = rj_get(info, "workgroup_size");
	struct lane_event	 ev;
	struct kernel_info	 k;
	const char		*name;
	int64_t			 grid[3], wg[3];
	uint32_t		 t, v;
	int64_t			 kid;

	t = rj_gpu_track(r, rj_device(r, (uint64_t)amd_json_int(info,
	    "agent_id")), (uint64_t)amd_json_int(rec, "stream_id"),
	    (uint64_t)amd_json_int(info, "queue_id"));
	memset(&ev, 0, sizeof ev);
	ev.kind = EV_KERNEL;
	ev.start = rj_time(r, rec, "start_timestamp");
	ev.end = rj_time(r, rec, "end_timestamp");
	ev.rowid = amd_json_int(info, "dispatch_id");
	ev.corr = rj_corr(rec);

	kid = amd_json_int(info, "kernel_id");
	sym = NULL;
	if (hmap_get(&r->syms, (uint64_t)kid, &v))
		sym = r->symv[v];
	name = amd_json_str(sym, "formatted_kernel_name");
	if (*name == '\0')
		name = amd_json_str(sym, "kernel_name");
	if (*name != '\0')
		ev.name = builder_intern(r->b, name);
	else {
		char buf[48];
		snprintf(buf, sizeof buf, "kernel %lld", (long long)kid);
		ev.name = builder_intern(r->b, buf);
	}
	if (amd_is_comm(strpool_get(r->m->strs, ev.name)))
		ev.flags |= EVF_COMM;

	memset(&k, 0, sizeof k);
	grid[0] = amd_json_int(g, "x");
	grid[1] = amd_json_int(g, "y");
	grid[2] = amd_json_int(g, "z");
	wg[0] = amd_json_int(w, "x");
	wg[1] = amd_json_int(w, "y");
	wg[2] = amd_json_int(w, "z");
	amd_kernel_fill(&k, grid, wg, amd_json_int(info, "group_segment_size"),
	    amd_json_int(info, "private_segment_size"),
	    amd_json_int(sym, "group_segment_size"),
	    amd_json_int(sym, "arch_vgpr_count") +
	    amd_json_int(sym, "accum_vgpr_count"));
	name = amd_json_str(sym, "truncated_kernel_name");
	if (*name != '\0')
		k.short_name = builder_intern(r->b, name);
	name = amd_json_str(sym, "kernel_name");
	if (*name != '\0')
		k.mangled = builder_intern(r->b, name);
	ev.aux = builder_kernel(r->b, &k);
	builder_event(r->b, t, &ev);
}

static void
rj_copy(struct rj *r, const cJSON *rec)
{
	struct lane_event	 ev;
	struct copy_info	 c;
	uint64_t		 src, dst;
	uint32_t		 t, sd, dd;
	const char		*name;

	src = (uint64_t)amd_json_int(rec, "src_agent_id");
	dst = (uint64_t)amd_json_int(rec, "dst_agent_id");
	sd = rj_device(r, src);
	dd = rj_device(r, dst);
	t = rj_gpu_track(r, dd != NONE32 ? dd : sd,
	    (uint64_t)amd_json_int(rec, "stream_id"), ROCPROF_COPY_QUEUE);
	memset(&ev, 0, sizeof ev);
	ev.kind = EV_MEMCPY;
	ev.start = rj_time(r, rec, "start_timestamp");
	ev.end = rj_time(r, rec, "end_timestamp");
	ev.rowid = -1;
	ev.corr = rj_corr(rec);
	name = rj_op_name(r, rec);
	ev.name = builder_intern(r->b, *name != '\0' ? name : "MEMORY_COPY");

	memset(&c, 0, sizeof c);
	c.bytes = (uint64_t)amd_json_int(rec, "bytes");
	c.kind = (uint8_t)amd_copy_kind(rj_is_gpu(r, src), rj_is_gpu(r, dst),
	    src == dst);
	amd_copy_ends(&c, r->m, sd, dd);
	ev.aux = builder_copy(r->b, &c);
	builder_event(r->b, t, &ev);
}

static void
rj_api(struct rj *r, const cJSON *rec)
{
	const struct rj_kind	*k = rj_kind(r, rec);
	struct lane_event	 ev;
	struct nvtx_info	 info;
	enum amd_class		 cls = k != NULL ? k->cls : AMD_API;
	uint32_t		 t, tid, v;
	const char		*name;

	tid = (uint32_t)amd_json_int(rec, "thread_id");
	memset(&ev, 0, sizeof ev);
	ev.start = rj_time(r, rec, "start_timestamp");
	ev.end = rj_time(r, rec, "end_timestamp");
	ev.rowid = -1;
	ev.aux = NONE32;
	name = rj_op_name(r, rec);
	ev.name = builder_intern(r->b, name);
	if (cls == AMD_MARKER) {
		t = rj_cpu_track(r, TRACK_NVTX, tid);
		if (hmap_get(&r->messages, (uint64_t)amd_json_int(
		    rj_get(rec, "correlation_id"), "internal"), &v))
			ev.name = v;
		ev.kind = ev.start == ev.end ? EV_MARK : EV_NVTX;
		if (amd_is_comm(strpool_get(r->m->strs, ev.name)))
			ev.flags |= EVF_COMM;
		memset(&info, 0, sizeof info);
		info.domain = r->domain;
		ev.aux = builder_nvtx(r->b, &info);
	} else {
		t = rj_cpu_track(r, TRACK_API, tid);
		ev.kind = EV_API;
		ev.corr = rj_corr(rec);
		if (cls == AMD_API_DRIVER)
			ev.flags |= EVF_DRIVER;
		else if (cls == AMD_API_COMM)
			ev.flags |= EVF_COMM;
	}
	builder_event(r->b, t, &ev);
}

/* Whether any GPU record carries a HIP stream id. */
static int
rj_has_streams(const cJSON *buf)
{
	static const char *const lists[] = { "kernel_dispatch",
	    "memory_copy" };
	const cJSON	*rec;
	size_t		 i;

	for (i = 0; i < sizeof lists / sizeof *lists; i++)
		cJSON_ArrayForEach(rec, rj_get(buf, lists[i]))
			if (amd_json_int(rec, "stream_id") != 0)
				return 1;
	return 0;
}

static void
rj_skip(struct rj *r, const char *what, int n)
{
	size_t	len = strlen(r->skipped_list);

	if (n <= 0)
		return;
	r->skipped += (uint64_t)n;
	if (len < sizeof r->skipped_list - 64)
		snprintf(r->skipped_list + len, sizeof r->skipped_list - len,
		    "%s%s %d", len > 0 ? ", " : "", what, n);
}

static void
rj_records(struct rj *r, const cJSON *proc)
{
	static const char *const apis[] = { "hip_api", "hsa_api",
	    "marker_api", "rccl_api", "rocdecode_api", "rocjpeg_api" };
	static const char *const skipped[] = { "memory_allocation",
	    "scratch_memory", "pc_sample_host_trap", "pc_sample_stochastic" };
	const cJSON	*buf = rj_get(proc, "buffer_records"), *rec, *it;
	size_t		 i;

	r->by_stream = rj_has_streams(buf);
	cJSON_ArrayForEach(rec, rj_get(buf, "kernel_dispatch")) {
		rj_dispatch(r, rec);
		rj_progress(r);
	}
	cJSON_ArrayForEach(rec, rj_get(buf, "memory_copy")) {
		rj_copy(r, rec);
		rj_progress(r);
	}
	for (i = 0; i < sizeof apis / sizeof *apis; i++) {
		cJSON_ArrayForEach(rec, rj_get(buf, apis[i])) {
			rj_api(r, rec);
			rj_progress(r);
		}
	}
	for (i = 0; i < sizeof skipped / sizeof *skipped; i++)
		rj_skip(r, skipped[i], cJSON_GetArraySize(rj_get(buf,
		    skipped[i])));
	cJSON_ArrayForEach(it, rj_get(proc, "callback_records"))
		if (cJSON_IsArray(it))
			rj_skip(r, it->string != NULL ? it->string :
			    "callback records", cJSON_GetArraySize(it));
}

/* Calls fn (hmap_init or hmap_free) on every map of r. */
static void
rj_maps(struct rj *r, void (*fn)(struct hmap *))
{
	srcmaps(fn, &r->agents, &r->syms, &r->messages, &r->tracks, NULL);
}

static void
rj_reset(struct rj *r)
{
	rj_maps(r, hmap_free);
	rj_maps(r, hmap_init);
}

static int
rj_read(struct rj *r, const cJSON *root)
{
	const cJSON	*procs, *proc, *sym;
	size_t		 index = 0;

	procs = rj_get(root, ROCPROF_JSON_KEY);
	if (cJSON_IsObject(procs)) {
		/* Tolerate a single process written without the array. */
		proc = procs;
		procs = NULL;
	} else if (!cJSON_IsArray(procs)) {
		rj_error(r, "not rocprofv3 JSON output (no \"%s\" array)",
		    ROCPROF_JSON_KEY);
		return -1;
	} else
		proc = procs->child;

	r->m->source_version = builder_intern(r->b, "rocprofv3 (JSON)");
	progress_phase(r->prog, "records", 0);
	for (; proc != NULL; proc = procs != NULL ? proc->next : NULL) {
		if (!cJSON_IsObject(proc))
			continue;
		rj_reset(r);
		rj_process(r, proc, index++);
		rj_kinds(r, rj_get(proc, "strings"));
		rj_messages(r, rj_get(proc, "strings"));
		rj_agents(r, rj_get(proc, "agents"));
		r->nsyms = 0;
		cJSON_ArrayForEach(sym, rj_get(proc, "kernel_symbols")) {
			XGROW(r->symv, r->symscap, r->nsyms + 1);
			r->symv[r->nsyms] = sym;
			hmap_put(&r->syms, (uint64_t)amd_json_int(sym,
			    "kernel_id"), (uint32_t)r->nsyms++);
		}
		rj_records(r, proc);
		if (procs == NULL)
			break;
	}
	progress_rows(r->prog, r->rows);
	if (index == 0) {
		rj_error(r, "rocprofv3 JSON output without any process");
		return -1;
	}
	if (r->inexact != 0)
		builder_warn(r->b, "%llu timestamps above 2^53 ns lost their "
		    "lowest bits in JSON's double-precision numbers",
		    (unsigned long long)r->inexact);
	if (r->skipped != 0)
		builder_warn(r->b, "records not loaded: %s", r->skipped_list);
	return 0;
}

struct model *
rocprof_json_load(const char *path, struct progress *prog, char **cause)
{
	struct rj	 r;
	cJSON		*root;
	char		*text = NULL, *why = NULL;
	const char	*ep;
	size_t		 len;
	double		 t0 = timing_now();
	int		 rc;

	memset(&r, 0, sizeof r);
	r.path = path;
	r.prog = prog;
	xmalloc_doing("reading the rocprofv3 JSON");
	progress_phase(prog, "reading JSON", 0);
	if (zfile_slurp(path, &text, &len, ROCPROF_JSON_MAX, &why) != 0) {
		/* zfile's messages name the file. */
		if (why != NULL && strstr(why, "larger than") != NULL) {
			*cause = xasprintf("%s: rocprofv3 JSON is read whole, "
			    "up to %zu MiB: record the run as a rocpd database "
			    "instead (rocprofv3 --output-format rocpd)", why,
			    ROCPROF_JSON_MAX >> 20);
			free(why);
		} else
			*cause = why != NULL ? why : xasprintf("%s: cannot "
			    "read", path);
		progress_done(prog);
		return NULL;
	}
	root = cJSON_ParseWithLength(text, len);
	if (root == NULL) {
		ep = cJSON_GetErrorPtr();
		if (ep != NULL && ep >= text && ep <= text + len)
			*cause = xasprintf("%s: invalid JSON near byte %zu",
			    path, (size_t)(ep - text));
		else
			*cause = xasprintf("%s: invalid JSON", path);
		free(text);
		progress_done(prog);
		return NULL;
	}
	free(text);
	r.b = builder_new(SOURCE_ROCPROF_JSON);
	r.m = r.b->m;
	rj_maps(&r, hmap_init);
	rc = rj_read(&r, root);
	cJSON_Delete(root);
	rj_maps(&r, hmap_free);
	rj_free_kinds(&r);
	free(r.symv);
	progress_done(prog);
	if (rc != 0) {
		builder_abort(r.b);
		*cause = r.err;
		return NULL;
	}
	timing_report("rocprof-json-read", t0);
	return builder_finish(r.b, cause);
}
