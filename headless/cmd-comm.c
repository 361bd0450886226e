/*
 * cmd-comm: `gpulens comm` summarises communication: the events readers
 * flag EVF_COMM (NCCL/RCCL kernels; NVTX ranges named nccl* or in an NCCL
 * domain), grouped by event kind (kernel or nvtx), collective, device,
 * stream and process:
 *   count, total_ns, mean_ns, median_ns, min_ns, max_ns;
 *   total_bytes: null, because neither nsys nor the model records the
 *     message size of an NCCL kernel;
 *   for kernels, gpu_busy_share_pct: the group's time inside the --from/
 *     --to window as a share of device_busy_ns, the union of all work on
 *     that device in the window (so it stays meaningful with --stream or
 *     --name, and is not restricted by --nvtx).
 * The collective comes from the name (cmd_comm_collective): the text after
 * "nccl"/"rccl" and a "Kernel_"/"DevKernel_" part, matched against the
 * known collectives (AllReduce, AllGather, ReduceScatter, Reduce,
 * Broadcast, SendRecv, Send, Recv, AllToAll(v), Gather, Scatter, Barrier)
 * ignoring case and underscores, longest match first, so
 * "ncclDevKernel_AllReduce_Sum_bf16_RING_LL" and "nccl:all_reduce" are both
 * AllReduce; anything else keeps its first word ("ncclDevKernel_Generic"
 * -> Generic, "ncclGroupStart" -> GroupStart).
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "cmd-events.h"
#include "evrow.h"
#include "hmap.h"
#include "lane.h"
#include "opts.h"
#include "out.h"
#include "select.h"
#include "stats.h"
#include "xmalloc.h"

#define COMM_OPTS (OPT_OUTPUT | OPT_PAGE | OPT_WINDOW | OPT_FILTER)
#define COMM_NORM	256

static int	cmd_comm_exec(int, char **, const struct cmd_global *);

const struct cmd_entry cmd_comm_entry = {
	"comm",
	"gpulens comm [OPTIONS] TRACE",
	"Communication (NCCL/RCCL kernels and NCCL NVTX ranges) by collective\n"
	"(parsed from the name: AllReduce, AllGather, ReduceScatter, SendRecv,\n"
	"Broadcast, ...), kind, device, stream and process: count, total,\n"
	"mean, median, min and max time, and for kernels their share of the\n"
	"device's busy time. Message sizes are not recorded (null).",
	cmd_comm_exec,
	COMM_OPTS
};

static const struct {
	const char	*lower, *name;
} comm_known[] = {
	{ "allreduce", "AllReduce" },
	{ "allgather", "AllGather" },
	{ "reducescatter", "ReduceScatter" },
	{ "reduce", "Reduce" },
	{ "broadcast", "Broadcast" },
	{ "bcast", "Broadcast" },
	{ "sendrecv", "SendRecv" },
	{ "send", "Send" },
	{ "recv", "Recv" },
	{ "alltoallv", "AllToAllv" },
	{ "alltoall", "AllToAll" },
	{ "gather", "Gather" },
	{ "scatter", "Scatter" },
	{ "barrier", "Barrier" },
};
#define COMM_NKNOWN (sizeof comm_known / sizeof comm_known[0])

struct comm_group {
	int		 kind;
	uint32_t	 coll;		/* local string id */
	uint32_t	 device, stream, process;
	struct stats_acc dur;
	int64_t		 clipped;	/* time inside the window */
};

struct comm_ctx {
	const struct model	*m;
	struct strpool		*local;
	struct hmap		 coll_of;	/* model sid -> local sid */
	struct comm_group	*g;
	size_t			 ng, gcap;
	struct hmap		 by_key;
};

static const char *comm_columns[] = {
	"kind", "collective", "device", "stream", "pid", "rank", "count",
	"total_ns",
	"mean_ns", "median_ns", "min_ns", "max_ns", "gpu_busy_share_pct",
	"device_busy_ns", "total_bytes", NULL
};

/* Position just after "nccl" or "rccl" (any case) in s, or s. */
static const char *
comm_skip_lib(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++)
		if ((strncasecmp(p, "nccl", 4) == 0 ||
		    strncasecmp(p, "rccl", 4) == 0))
			return p + 4;
	return s;
}

/* The longest known collective that starts norm, or -1. */
static int
comm_match(const char *norm)
{
	size_t	k, len, best = 0;
	int	which = -1;

	for (k = 0; k < COMM_NKNOWN; k++) {
		len = strlen(comm_known[k].lower);
		if (len > best && strncmp(norm, comm_known[k].lower, len) == 0) {
			best = len;
			which = (int)k;
		}
	}
	return which;
}

const char *
cmd_comm_collective(const char *name, char *buf, size_t len)
{
	const char	*p = comm_skip_lib(name), *q;
	char		 norm[COMM_NORM];
	size_t		 n = 0, i;
	int		 which;

	/* Separators, then "DevKernel" / "Kernel" and their separators. */
	while (*p == '_' || *p == ':' || *p == '.')
		p++;
	if (strncasecmp(p, "DevKernel", 9) == 0)
		p += 9;
	else if (strncasecmp(p, "Kernel", 6) == 0)
		p += 6;
	while (*p == '_' || *p == ':' || *p == '.')
		p++;
	for (q = p; *q != '\0' && *q != '(' && *q != '<' && *q != ' ' &&
	    n + 1 < sizeof norm; q++)
		if (isalnum((unsigned char)*q))
			norm[n++] = (char)tolower((unsigned char)*q);
	norm[n] = '\0';
	if ((which = comm_match(norm)) >= 0) {
		snprintf(buf, len, "%s", comm_known[which].name);
		return buf;
	}
	/* A known collective anywhere in the whole name ("c10d::allreduce_"). */
	n = 0;
	for (q = name; *q != '\0' && *q != '(' && n + 1 < sizeof norm; q++)
		if (isalnum((unsigned char)*q))
			norm[n++] = (char)tolower((unsigned char)*q);
	norm[n] = '\0';
	for (i = 0; i < n; i++)
		if ((which = comm_match(norm + i)) >= 0) {
			snprintf(buf, len, "%s", comm_known[which].name);
			return buf;
		}
	/* Else the first word after the library prefix. */
	for (n = 0; isalnum((unsigned char)p[n]); n++)
		;
	if (n == 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

static uint32_t
comm_coll_sid(struct comm_ctx *c, uint32_t sid)
{
	char		buf[COMM_NORM];
	uint32_t	v;

	if (hmap_get(&c->coll_of, sid, &v))
		return v;
	v = strpool_intern0(c->local, cmd_comm_collective(model_str(c->m, sid),
	    buf, sizeof buf));
	hmap_put(&c->coll_of, sid, v);
	return v;
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
			return g;
		}
		g = &c->g[*slot];
		if (g->kind == kind && g->coll == coll && g->device == device &&
		    g->stream == stream && g->process == process)
			return g;
		key++;		/* a hash collision: probe the next key */
	}
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
	snprintf(key, sizeof key, "kind=%s|collective=%s|device=%s|stream=%s|"
	    "pid=%s", ev_kind_name(g->kind), strpool_get(c->local, g->coll),
	    dev, str, pid);
	if (rank >= 0)
		snprintf(key + strlen(key), sizeof key - strlen(key),
		    "|rank=%d", rank);
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
	cJSON_AddNullToObject(row, "total_bytes");
	if (g->device < m->ndevices && m->device_cov != NULL) {
		busy = coverage_busy(&m->device_cov[g->device], t0, t1);
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
}

int
cmd_comm_run(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct comm_ctx		 c;
	struct opts		 ko = *o;
	struct sel		 s;
	struct comm_group	*g;
	uint32_t		*idx = NULL, t;
	size_t			 icap = 0, k, i, gi;
	int64_t			 a, b, total = 0;
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
	hmap_init(&c.by_key);
	if (sel_window_empty(&s))
		out_warn(out, "the window lies outside the trace");
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
			g = comm_group(&c, kind, comm_coll_sid(&c,
			    l->name[idx[i]]),
			    tr->type == TRACK_GPU ? tr->device : NONE32,
			    tr->type == TRACK_GPU ? tr->stream : NONE32,
			    evrow_process(m, model_gid(m, t, idx[i])));
			stats_acc_add(&g->dur, l->end[idx[i]] -
			    l->start[idx[i]]);
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
	out->columns = comm_columns;
	out_int(out->aux, "total_ns", total);
	if (c.ng == 0)
		out_warn(out, "no communication (NCCL/RCCL kernels or NCCL "
		    "ranges) matches");
	for (gi = 0; gi < c.ng; gi++)
		stats_acc_free(&c.g[gi].dur);
	free(c.g);
	strpool_free(c.local);
	hmap_free(&c.coll_of);
	hmap_free(&c.by_key);
	free(idx);
	return 0;
}

/* The run function with what the command line adds to it. */
static int
comm_main(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	if (cmd_comm_run(m, o, out, code, cause) != 0)
		return -1;
	if (cJSON_GetArraySize(out->rows) > 0)
		out_next(out, "gpulens search %s --type comm --sort "
		    "duration_ns:desc", o->args[0]);
	return 0;
}

static int
cmd_comm_exec(int argc, char **argv, const struct cmd_global *gl)
{
	return cmd_verb_main(&cmd_comm_entry, argc, argv, gl, 1, 1, comm_main);
}
