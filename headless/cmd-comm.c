/*
 * cmd-comm: `gpulens comm` summarises communication: the events readers
 * flag EVF_COMM (NCCL/RCCL kernels; NVTX ranges named nccl* or in an NCCL
 * domain), grouped by event kind (kernel or nvtx), collective, device,
 * stream and process:
 *   count, total_ns, mean_ns, median_ns, min_ns, max_ns;
 *   for kernels, gpu_busy_share_pct: the group's time inside the --from/
 *     --to window as a share of device_busy_ns, the union of all work on
 *     that device in the window (so it stays meaningful with --stream or
 *     --name, and is not restricted by --nvtx);
 *   message sizes and bandwidth, from the kernels whose kernel_info has
 *     a message size (Kineto's collective args; nsys records none, so
 *     there they stay null), the "sized" kernels:
 *     sized_count   how many there are;
 *     total_bytes   the sum of their message bytes (null when none);
 *     algbw_gbps    total_bytes over their summed duration: bytes per ns
 *                   is GB/s (10^9 bytes);
 *     busbw_gbps    the same with each kernel's bytes times its bus
 *                   factor;
 *     median_algbw_gbps, median_busbw_gbps
 *                   the median of the per-kernel values (bytes / duration,
 *                   kernels of zero duration left out);
 *     group_size, process_group
 *                   the process group's size and name, when every sized
 *                   kernel of the group agrees (else null).
 * The bandwidths follow nccl-tests (doc/PERFORMANCE.md in
 * github.com/NVIDIA/nccl-tests): algbw = S / t, where the size S of an
 * operation is the whole buffer of n ranks where one exists, and busbw =
 * algbw x a factor that makes it comparable with the hardware's link
 * bandwidth. A kernel's collective is its kernel_info's (PyTorch's
 * "Collective name": "allreduce", "_allgather_base", ...) when known, else
 * the one parsed from its name, both matched as below; then:
 *   bytes = output elements x element size for AllGather and Gather,
 *           input elements x element size for everything else
 *           (AllReduce, Broadcast, Reduce, ReduceScatter, AllToAll(v),
 *           Scatter, SendRecv, Send, Recv, Barrier, unknown);
 *   bus factor, for a group of n ranks: 2(n-1)/n for AllReduce (and
 *           Barrier, an all-reduce of one element); (n-1)/n for AllGather,
 *           ReduceScatter, AllToAll(v), Gather and Scatter; 1 for
 *           Broadcast, Reduce, SendRecv, Send and Recv. A kernel with
 *           another collective, or without a group size where the factor
 *           needs one, has none, and then the group's busbw values are
 *           null.
 * A kernel counts in full when it overlaps the window, as for the times.
 * The collective is the event's identity as analysis/comm.h defines it
 * (comm_identify): its name when that names a known collective (AllReduce,
 * AllGather, ReduceScatter, Reduce, Broadcast, SendRecv, Send, Recv,
 * AllToAll(v), Gather, Scatter, Barrier: "ncclDevKernel_AllReduce_Sum_
 * bf16_RING_LL" and "nccl:all_reduce" are both AllReduce), else for a GPU
 * event its collective args, else the NCCL annotation around its launch,
 * else the first word of its name ("ncclDevKernel_Generic" -> Generic,
 * "ncclGroupStart" -> GroupStart).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "headless/evrow.h"
#include "util/hmap.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/busy.h"
#include "analysis/comm.h"
#include "analysis/stats.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define COMM_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER)

static int	comm_main(const struct cmd_ctx *, struct out *,
	    const char **, char **);

const struct cmd_entry cmd_comm_entry = {
	.name = "comm",
	.usage = "gpulens comm [OPTIONS] TRACE",
	.help =
	"Communication (NCCL/RCCL kernels and NCCL NVTX ranges) by collective\n"
	"(parsed from the name: AllReduce, AllGather, ReduceScatter, SendRecv,\n"
	"Broadcast, ...), kind, device, stream and process: count, total,\n"
	"mean, median, min and max time, and for kernels their share of the\n"
	"device's busy time, and, where the trace records message sizes\n"
	"(PyTorch/Kineto), total bytes and algorithm and bus bandwidth.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.options = COMM_OPTS,
	.run = comm_main
};

#define COMM_MIXED	(NONE32 - 1)	/* group_size / pg: kernels disagree */

struct comm_group {
	int		 kind;
	uint32_t	 coll;		/* local string id */
	uint32_t	 device, stream, process;
	struct stats_acc dur;
	int64_t		 clipped;	/* time inside the window */
	/* The sized kernels (message size known): */
	size_t		 nsized;
	int64_t		 bytes;		/* their message bytes, summed */
	int64_t		 sized_ns;	/* their durations, summed */
	double		 busbytes;	/* bytes x bus factor, summed */
	int		 nofactor;	/* one of them has no bus factor */
	uint32_t	 group_size;	/* 0 none yet, COMM_MIXED */
	uint32_t	 pg;		/* model sid, NONE32 none yet,
					   COMM_MIXED */
	double		*algbw, *busbw;	/* per kernel, GB/s (dur > 0) */
	size_t		 nbw, bwcap;
};

struct comm_ctx {
	const struct model	*m;
	struct strpool		*local;
	struct hmap		 coll_of;	/* model sid -> local sid */
	struct hmap		 known_of;	/* model sid of a kernel_info
						   comm_coll -> comm_known
						   index + 1, or 0 */
	struct comm_group	*g;
	size_t			 ng, gcap;
	struct hmap		 by_key;
};

/* The collective of a kernel for its size and bus factor: its
 * kernel_info's when known, else the group's (parsed from the name). */
static int
comm_kernel_known(struct comm_ctx *c, const struct kernel_info *ki,
    const struct comm_group *g)
{
	uint32_t	v;
	int		which;

	if (ki->comm_coll != 0) {
		if (!hmap_get(&c->known_of, ki->comm_coll, &v)) {
			which = comm_known_of(model_str(c->m, ki->comm_coll));
			v = (uint32_t)(which + 1);
			hmap_put(&c->known_of, ki->comm_coll, v);
		}
		if (v != 0)
			return (int)v - 1;
	}
	return comm_known_of(strpool_get(c->local, g->coll));
}

/* Adds a kernel of duration dur with a known message size to g; a
 * kernel without one is left out. */
static void
comm_add_sized(struct comm_ctx *c, struct comm_group *g,
    const struct kernel_info *ki, int64_t dur)
{
	uint64_t	n;
	int64_t		bytes;
	double		factor;
	int		which;

	if (ki->comm_elem_size == 0)
		return;
	which = comm_kernel_known(c, ki, g);
	if (which >= 0 && comm_known_size(which) == COMM_SIZE_OUT) {
		if (!(ki->comm_flags & KCOMM_OUT))
			return;
		n = ki->comm_out_nelems;
	} else {
		if (!(ki->comm_flags & KCOMM_IN))
			return;
		n = ki->comm_in_nelems;
	}
	bytes = n > (uint64_t)INT64_MAX / ki->comm_elem_size ? INT64_MAX :
	    (int64_t)(n * ki->comm_elem_size);
	factor = comm_bus_factor(which, ki->comm_group_size);
	if (g->nsized++ == 0) {
		g->group_size = ki->comm_group_size;
		g->pg = ki->comm_pg_name;
	} else {
		if (g->group_size != ki->comm_group_size)
			g->group_size = COMM_MIXED;
		if (g->pg != ki->comm_pg_name)
			g->pg = COMM_MIXED;
	}
	g->bytes = sat_add64(g->bytes, bytes);
	g->sized_ns = sat_add64(g->sized_ns, dur);
	if (factor < 0)
		g->nofactor = 1;
	else
		g->busbytes += (double)bytes * factor;
	if (dur <= 0)
		return;
	if (g->nbw == g->bwcap) {
		g->bwcap = g->bwcap == 0 ? 16 : g->bwcap * 2;
		g->algbw = xreallocarray(g->algbw, g->bwcap, sizeof *g->algbw);
		g->busbw = xreallocarray(g->busbw, g->bwcap, sizeof *g->busbw);
	}
	g->algbw[g->nbw] = (double)bytes / (double)dur;
	g->busbw[g->nbw] = factor < 0 ? 0 : (double)bytes * factor /
	    (double)dur;
	g->nbw++;
}

static int
comm_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0, n), n > 0 (sorts v): the middle value, or the mean
 * of the two middle ones, as stats.h defines it. */
static double
comm_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, comm_cmp_double);
	return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The local string id of the collective of event (t, i) with name sid: the
 * one its name gives, cached per name; a GPU event whose name names none
 * is identified on its own (comm_identify: its args, the annotation around
 * its launch).
 */
static uint32_t
comm_coll_sid(struct comm_ctx *c, uint32_t t, uint32_t i, uint32_t sid)
{
	struct comm_id	id;
	char		buf[COMM_NAME_MAX];
	uint32_t	v;

	if (!hmap_get(&c->coll_of, sid, &v)) {
		v = strpool_intern0(c->local, comm_collective(model_str(c->m,
		    sid), buf, sizeof buf)) << 1;
		if (comm_known_of(buf) < 0)
			v |= 1;		/* the name names no collective */
		hmap_put(&c->coll_of, sid, v);
	}
	if ((v & 1) == 0 || c->m->tracks[t].type != TRACK_GPU)
		return v >> 1;
	comm_identify(c->m, model_gid(c->m, t, i), &id);
	return strpool_intern0(c->local, id.name);
}

static struct comm_group *
comm_group(struct comm_ctx *c, int kind, uint32_t coll, uint32_t device,
    uint32_t stream, uint32_t process)
{
	uint64_t		 key;
	uint32_t		*slot;
	int			 isnew;
	struct comm_group	*g;

	key = hmap_key2(hmap_key2(hmap_key2((uint64_t)kind, coll), device),
	    hmap_key2(stream, process));
	for (;;) {
		slot = hmap_upsert(&c->by_key, key, (uint32_t)c->ng, &isnew);
		if (isnew) {
			XGROW(c->g, c->gcap, c->ng + 1);
			g = &c->g[c->ng++];
			memset(g, 0, sizeof *g);
			g->kind = kind;
			g->coll = coll;
			g->device = device;
			g->stream = stream;
			g->process = process;
			stats_acc_init(&g->dur);
			g->pg = NONE32;
			return g;
		}
		g = &c->g[*slot];
		if (g->kind == kind && g->coll == coll && g->device == device &&
		    g->stream == stream && g->process == process)
			return g;
		key++;		/* a hash collision: probe the next key */
	}
}

/* The message size and bandwidth keys of a row (the top comment). */
static void
comm_row_bw(cJSON *row, const struct model *m, struct comm_group *g)
{
	int	sized = g->nsized > 0, timed = sized && g->sized_ns > 0;

	if (sized && g->group_size != 0 && g->group_size != COMM_MIXED)
		out_int(row, "group_size", g->group_size);
	else
		cJSON_AddNullToObject(row, "group_size");
	out_int(row, "sized_count", (int64_t)g->nsized);
	if (timed)
		out_num(row, "algbw_gbps", (double)g->bytes /
		    (double)g->sized_ns);
	else
		cJSON_AddNullToObject(row, "algbw_gbps");
	if (timed && !g->nofactor)
		out_num(row, "busbw_gbps", g->busbytes / (double)g->sized_ns);
	else
		cJSON_AddNullToObject(row, "busbw_gbps");
	if (g->nbw > 0)
		out_num(row, "median_algbw_gbps", comm_median(g->algbw,
		    g->nbw));
	else
		cJSON_AddNullToObject(row, "median_algbw_gbps");
	if (g->nbw > 0 && !g->nofactor)
		out_num(row, "median_busbw_gbps", comm_median(g->busbw,
		    g->nbw));
	else
		cJSON_AddNullToObject(row, "median_busbw_gbps");
	if (sized && g->pg != 0 && g->pg != COMM_MIXED)
		out_str(row, "process_group", model_str(m, g->pg));
	else
		cJSON_AddNullToObject(row, "process_group");
}

static void
comm_row(struct comm_ctx *c, struct out *out, struct comm_group *g,
    int64_t t0, int64_t t1)
{
	const struct model	*m = c->m;
	cJSON			*row = out_row(out);
	struct stats		 s;
	char			 key[1024], dev[16], str[24], pid[16];
	int64_t			 busy;
	int			 rank;

	stats_acc_compute(&g->dur, &s);
	if (g->device < m->ndevices)
		snprintf(dev, sizeof dev, "%u", m->devices[g->device].source_id);
	else
		snprintf(dev, sizeof dev, "none");
	if (g->stream < m->nstreams)
		snprintf(str, sizeof str, "%llu",
		    (unsigned long long)m->streams[g->stream].source_id);
	else
		snprintf(str, sizeof str, "none");
	if (g->process < m->nprocesses)
		snprintf(pid, sizeof pid, "%u", m->processes[g->process].pid);
	else
		snprintf(pid, sizeof pid, "none");
	rank = g->process < m->nprocesses ? m->processes[g->process].rank :
	    -1;
	if (rank >= 0)
		rowkey_buf(key, sizeof key, "comm", "kind=%s|collective=%s|"
		    "device=%s|stream=%s|pid=%s|rank=%d", ev_kind_name(g->kind),
		    strpool_get(c->local, g->coll), dev, str, pid, rank);
	else
		rowkey_buf(key, sizeof key, "comm", "kind=%s|collective=%s|"
		    "device=%s|stream=%s|pid=%s", ev_kind_name(g->kind),
		    strpool_get(c->local, g->coll), dev, str, pid);
	out_str(row, "key", key);
	out_str(row, "kind", ev_kind_name(g->kind));
	out_str(row, "collective", strpool_get(c->local, g->coll));
	evrow_device(row, m, g->device);
	evrow_stream(row, m, g->stream);
	evrow_pid(row, m, g->process);
	if (rank >= 0)
		out_int(row, "rank", rank);
	else
		cJSON_AddNullToObject(row, "rank");
	out_int(row, "count", (int64_t)s.count);
	out_int(row, "total_ns", s.total);
	out_num(row, "mean_ns", s.mean);
	out_num(row, "median_ns", s.median);
	out_int(row, "min_ns", s.min);
	out_int(row, "max_ns", s.max);
	if (g->nsized > 0)
		out_int(row, "total_bytes", g->bytes);
	else
		cJSON_AddNullToObject(row, "total_bytes");
	if (g->device < m->ndevices && m->device_cov != NULL) {
		busy = busy_device(m, g->device, t0, t1);
		out_int(row, "device_busy_ns", busy);
		if (busy > 0)
			out_num(row, "gpu_busy_share_pct", 100.0 *
			    (double)g->clipped / (double)busy);
		else
			cJSON_AddNullToObject(row, "gpu_busy_share_pct");
	} else {
		cJSON_AddNullToObject(row, "device_busy_ns");
		cJSON_AddNullToObject(row, "gpu_busy_share_pct");
	}
	comm_row_bw(row, m, g);
}

int
cmd_comm_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct comm_ctx		 c;
	struct opts		 ko = *o;
	struct sel		 s;
	struct comm_group	*g;
	uint32_t		*idx = NULL, t, aux;
	size_t			 icap = 0, k, i, gi;
	int64_t			 a, b, dur, total = 0;
	int			 kind;

	ko.type = -1;		/* communication */
	if (sel_init(&s, m, &ko, cause) != 0) {
		*code = "usage";
		return -1;
	}
	memset(&c, 0, sizeof c);
	c.m = m;
	c.local = strpool_new();
	hmap_init(&c.coll_of);
	hmap_init(&c.known_of);
	hmap_init(&c.by_key);
	if (sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		const struct lane *l = &tr->lane;
		if (!sel_track(&s, t))
			continue;
		k = lane_overlap(l, s.t0, s.t1, &idx, &icap);
		for (i = 0; i < k; i++) {
			kind = l->kind[idx[i]];
			if (tr->type == TRACK_NVTX ? kind != EV_NVTX :
			    tr->type != TRACK_GPU)
				continue;
			if (!sel_event(&s, t, idx[i]))
				continue;
			g = comm_group(&c, kind, comm_coll_sid(&c, t, idx[i],
			    l->name[idx[i]]),
			    tr->type == TRACK_GPU ? tr->device : NONE32,
			    tr->type == TRACK_GPU ? tr->stream : NONE32,
			    event_process(m, model_gid(m, t, idx[i])));
			dur = l->end[idx[i]] - l->start[idx[i]];
			stats_acc_add(&g->dur, dur);
			aux = l->aux[idx[i]];
			if (kind == EV_KERNEL && aux < m->nkernels &&
			    m->kernels[aux].comm_flags != 0)
				comm_add_sized(&c, g, &m->kernels[aux], dur);
			a = l->start[idx[i]] > s.t0 ? l->start[idx[i]] : s.t0;
			b = l->end[idx[i]] < s.t1 ? l->end[idx[i]] : s.t1;
			if (b > a)
				g->clipped += b - a;
		}
	}
	for (gi = 0; gi < c.ng; gi++) {
		for (i = 0; i < c.g[gi].dur.n; i++)
			total += c.g[gi].dur.v[i];
		comm_row(&c, out, &c.g[gi], s.t0, s.t1);
	}
	sel_free(&s);
	out->default_sort = "total_ns:desc";
	out_int(out->aux, "total_ns", total);
	if (c.ng == 0)
		out_warn(out, "no_communication",
		    "no communication (NCCL/RCCL kernels or NCCL "
		    "ranges) matches");
	for (gi = 0; gi < c.ng; gi++) {
		stats_acc_free(&c.g[gi].dur);
		free(c.g[gi].algbw);
		free(c.g[gi].busbw);
	}
	free(c.g);
	strpool_free(c.local);
	hmap_free(&c.coll_of);
	hmap_free(&c.known_of);
	hmap_free(&c.by_key);
	free(idx);
	return 0;
}

/* The run function with what the command line adds to it. */
static int
comm_main(const struct cmd_ctx *ctx, struct out *out,
    const char **code, char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;

	if (cmd_comm_run(m, o, out, code, cause) != 0)
		return -1;
	if (cJSON_GetArraySize(out->rows) > 0)
		out_next(out, "gpulens search %s --type comm --sort "
		    "duration_ns:desc", out_q(out, o->args[0]));
	return 0;
}
