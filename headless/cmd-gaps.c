/*
 * cmd-gaps: `gpulens gaps` lists GPU idle bubbles: the stretches of the
 * window in which no selected GPU work runs (analysis/work.h: kernels,
 * memcpys, memsets, graph launches; synchronization records are not work).
 *
 * --scope picks what must be idle:
 *   stream   one stream: a gap lies between two consecutive busy intervals
 *            of the stream (overlapping work on the stream merged); stream
 *            ids are unique per device and process, so keys hold the pid
 *   device   every stream of one GPU (the device's union coverage); the
 *            default
 *   all      every GPU of the trace
 * Streams (and devices) that hold no work at all are left out.
 * The window is [--from, --to), the trace span by default (origin to the
 * last end of any event, CPU ones included). Unlike nsys's gpu_gaps rule
 * and perf-advisor's total_gpu_idle_s, the idle time before the first and
 * after the last busy interval is reported too, as kind "leading" and
 * "trailing" ("whole" when nothing ran in the window at all); inner gaps
 * are kind "inner", and auxiliary.*.inner_idle_ns is perf-advisor's sum.
 * With --nvtx the window is the union of the range's instances of the
 * owning process(es), and each instance has its own leading and trailing
 * idle.
 *
 * --min-dur hides gaps shorter than it (it does not filter events here).
 * Rows are sorted by duration, longest first. For gaps of 1 ms or more,
 * cpu_activity tells what the owning process's CPU threads did meanwhile:
 * each instant of the gap goes to the first class active in it among
 *   synchronizing  API calls whose name contains "Synchronize" or
 *                  "StreamWaitEvent", and sync records of its streams
 *   copying        API calls named cudaMemcpy*, cuMemcpy*, hipMemcpy*
 *   launching      any other API call
 *   nothing        no API call on any thread of the process
 * and the dominant class (the largest share; ties in that order) names the
 * gap. The owning processes are the stream's (stream scope; all processes
 * when the stream's is unknown), those of the device's streams (device
 * scope), or all processes (all scope).
 *
 * Size histogram (auxiliary.histogram): every gap of the scope, whatever
 * --min-dur says, in perf-advisor's bins with strict upper bounds (<10us,
 * 10-100us, 100us-1ms, 1-10ms, 10-100ms, >100ms), empty bins included.
 *
 * Cost: one sweep per scope over the busy segments (analysis/busy.h), O(n log
 * streams), plus the device and all-GPU sweeps for the auxiliary totals.
 * Very many gaps (a stream scope over millions of kernels): beyond 2000
 * candidate rows, when the rows are sorted by duration_ns, start_ns or
 * end_ns and --limit is not 0, only the --offset + --limit + 1 first in
 * that order are kept (a bounded heap whose order, ties by key included,
 * is out_emit's, so the rows shown are those of a full sort);
 * data.total_matched and auxiliary.gaps_matched keep the real count
 * (out.total_matched). Sorting by another field keeps
 * every row, and fails beyond 2e6 of them.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gapcpu.h"
#include "analysis/gaps.h"
#include "headless/analysis.h"
#include "headless/cmd.h"
#include "model/event.h"
#include "model/iset.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/select.h"
#include "analysis/busy.h"
#include "headless/worksel.h"
#include "util/nametab.h"
#include "util/pool.h"
#include "util/sort.h"
#include "util/xmalloc.h"
#include "util/rowkey.h"

#define GAPS_CPU_MIN_NS		1000000		/* cpu_activity from 1 ms */
#define GAPS_SPILL		2000		/* gaps kept before pruning */
#define GAPS_MAX_ROWS		2000000		/* unsorted-field row limit */
#define GAPS_NBINS		6

const struct cmd_entry cmd_gaps_entry = {
	.name = "gaps",
	.usage = "gpulens gaps [OPTIONS] TRACE",
	.help =
	"Lists GPU idle gaps (no kernel, copy or memset running) per stream,\n"
	"per device or for all GPUs (--scope stream|device|all, default\n"
	"device), leading and trailing idle included, longest first, with a\n"
	"size histogram, idle totals per device and, for gaps of 1 ms or\n"
	"more, what the owning process's CPU was doing (synchronizing,\n"
	"copying, launching or nothing). --min-dur hides shorter gaps.",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = GAPS_OPTS,
	.model = cmd_gaps_compute,
	.hints = { { "gpulens timeline %s", 0 } }
};

enum gaps_scope { SCOPE_STREAM, SCOPE_DEVICE, SCOPE_ALL };
static const char *gaps_scope_names[] = { "stream", "device", "all" };

static const char *gaps_cpu_fields[GAPCPU_N] = {
	"cpu_sync_pct", "cpu_copy_pct", "cpu_launch_pct", "cpu_none_pct"
};

static const int64_t gaps_bin_upper[GAPS_NBINS] = {
	10000, 100000, 1000000, 10000000, 100000000, INT64_MAX
};
static const char *gaps_bin_names[GAPS_NBINS] = {
	"<10us", "10-100us", "100us-1ms", "1-10ms", "10-100ms", ">100ms"
};

/* Row fields the pre-selection can rank by. */
enum gaps_rank { RANK_NONE = -1, RANK_DUR, RANK_START, RANK_END };

struct gap {
	int64_t		 start, end;
	uint32_t	 owner;		/* track, device index or NONE32 */
	uint8_t		 kind;
};

/* The gaps of some sweeps: their histogram and count, and the candidate
 * rows. */
struct gaps_acc {
	int			 heap;		/* g[] is a heap of keep */
	int			 pruned;
	struct gap		*g;
	size_t			 ng, gcap;
	uint64_t		 matched;	/* gaps >= min_dur */
	uint64_t		 bin_n[GAPS_NBINS];
	int64_t			 bin_t[GAPS_NBINS];
};

/* One sweep: a device's, a stream's or all GPUs' busy segments inside
 * its window; rows: its gaps are candidate rows (into acc). */
struct gaps_sweep {
	uint32_t		*tracks;
	size_t			 nt;
	uint32_t		 owner;
	int			 rows;
	struct iset		 win;
	int64_t			 span, busy, inner;
	struct gaps_acc		 acc;
};

struct gaps_ctx {
	const struct model	*m;
	struct work		 w;
	int			 scope;
	int64_t			 min_dur;
	int			 rank, desc;
	size_t			 keep;		/* rows wanted; 0 = all */
	size_t			 spill;
	struct gaps_acc		 acc;		/* every sweep's */
	struct gaps_sweep	*sw;
	size_t			 nsw, swcap;
	struct busy_walk	*wb;		/* one per thread */
	struct gapcpu		 cpu;		/* the CPU during a gap */
	uint32_t		*procs;
	size_t			 pcap;
	uint32_t		*idx;
	size_t			 icap;
};

/* The stable row key: scope and identifying axes, start from the origin. */
static void
gaps_key(const struct gaps_ctx *c, const struct gap *g, char *buf,
    size_t len)
{
	const struct model	*m = c->m;
	const struct track	*tr;
	long long		 st = (long long)(g->start - m->origin_ns);
	uint32_t		 p;

	switch (c->scope) {
	case SCOPE_STREAM:
		/* Stream ids are unique per device and process. */
		tr = &m->tracks[g->owner];
		p = m->streams[tr->stream].process;
		if (p != NONE32)
			rowkey_buf(buf, len, "stream", "device=%u|pid=%u|"
			    "stream=%llu|start=%lld",
			    m->devices[tr->device].source_id,
			    m->processes[p].pid, (unsigned long long)
			    m->streams[tr->stream].source_id, st);
		else
			rowkey_buf(buf, len, "stream", "device=%u|"
			    "stream=%llu|start=%lld",
			    m->devices[tr->device].source_id,
			    (unsigned long long)
			    m->streams[tr->stream].source_id, st);
		break;
	case SCOPE_DEVICE:
		rowkey_buf(buf, len, "device", "device=%u|start=%lld",
		    m->devices[g->owner].source_id, st);
		break;
	default:
		rowkey_buf(buf, len, "all", "start=%lld", st);
		break;
	}
}

static int64_t
gaps_rank_value(const struct gaps_ctx *c, const struct gap *g)
{
	switch (c->rank) {
	case RANK_START:
		return g->start;
	case RANK_END:
		return g->end;
	default:
		return g->end - g->start;
	}
}

/* Does a come before b in the output order (out_emit's sort)? */
static int
gaps_before(const struct gaps_ctx *c, const struct gap *a,
    const struct gap *b)
{
	int64_t	va = gaps_rank_value(c, a), vb = gaps_rank_value(c, b);
	char	ka[128], kb[128];

	if (va != vb)
		return c->desc ? va > vb : va < vb;
	/* Ties: out_emit falls back to the key, ascending. */
	gaps_key(c, a, ka, sizeof ka);
	gaps_key(c, b, kb, sizeof kb);
	return strcmp(ka, kb) < 0;
}

/* Max-heap on output position: the root is the last row kept. */
static void
gaps_sift(const struct gaps_ctx *c, struct gaps_acc *a, size_t i, size_t n)
{
	struct gap	x = a->g[i];
	size_t		k;

	for (; (k = 2 * i + 1) < n; i = k) {
		if (k + 1 < n && gaps_before(c, &a->g[k], &a->g[k + 1]))
			k++;
		if (!gaps_before(c, &x, &a->g[k]))
			break;
		a->g[i] = a->g[k];
	}
	a->g[i] = x;
}

/* Turns the collected gaps into a heap of the c->keep first ones. */
static void
gaps_prune(const struct gaps_ctx *c, struct gaps_acc *a)
{
	size_t	i;

	for (i = a->ng / 2; i-- > 0; )
		gaps_sift(c, a, i, a->ng);
	while (a->ng > c->keep) {
		a->g[0] = a->g[--a->ng];
		gaps_sift(c, a, 0, a->ng);
	}
	a->heap = 1;
	a->pruned = 1;
}

/* Keeps g as a candidate row, if it can be one. */
static void
gaps_keep(const struct gaps_ctx *c, struct gaps_acc *a, const struct gap *g)
{
	if (a->heap) {
		if (gaps_before(c, g, &a->g[0])) {
			a->g[0] = *g;
			gaps_sift(c, a, 0, a->ng);
		}
		return;
	}
	if (a->ng >= GAPS_MAX_ROWS && c->keep == 0)
		return;		/* reported as an error by the caller */
	XGROW(a->g, a->gcap, a->ng + 1);
	a->g[a->ng++] = *g;
	if (c->keep > 0 && a->ng >= c->spill)
		gaps_prune(c, a);
}

static void
gaps_add(const struct gaps_ctx *c, struct gaps_acc *a, int64_t s, int64_t e,
    uint32_t owner, int kind)
{
	struct gap	g;
	int64_t		d = e - s;
	int		b;

	for (b = 0; b < GAPS_NBINS - 1 && d >= gaps_bin_upper[b]; b++)
		;
	a->bin_n[b]++;
	a->bin_t[b] = sat_add64(a->bin_t[b], d);
	if (d < c->min_dur)
		return;
	a->matched++;
	g.start = s;
	g.end = e;
	g.owner = owner;
	g.kind = (uint8_t)kind;
	gaps_keep(c, a, &g);
}

/* Adds what a sweep found to the gaps of all (from is emptied). */
static void
gaps_gather(const struct gaps_ctx *c, struct gaps_acc *to,
    struct gaps_acc *from)
{
	size_t	k;

	for (k = 0; k < GAPS_NBINS; k++) {
		to->bin_n[k] += from->bin_n[k];
		to->bin_t[k] = sat_add64(to->bin_t[k], from->bin_t[k]);
	}
	to->matched += from->matched;
	to->pruned |= from->pruned;
	for (k = 0; k < from->ng; k++)
		gaps_keep(c, to, &from->g[k]);
	free(from->g);
	memset(from, 0, sizeof *from);
}

/*
 * Sweeps the busy segments of a sweep's tracks in every segment of its
 * window: adds up its busy time and inner idle time and, when it gives
 * rows, its gaps (a pool job, with walk tid).
 */
static int
gaps_run(void *arg, size_t job, unsigned tid, char **cause)
{
	struct gaps_ctx		*c = arg;
	/* The all-GPU sweep, the longest, first. */
	struct gaps_sweep	*sw = &c->sw[job == 0 ? c->nsw - 1 : job - 1];
	struct gap_walk		 gw;
	struct gap_span		 g;
	size_t			 k;
	int64_t			 s, e;

	for (k = 0; k < sw->win.n; k++) {
		gap_walk_init(&gw, sw->win.start[k], sw->win.end[k]);
		busy_walk_start(&c->wb[tid], &c->w, sw->tracks, sw->nt, gw.ws,
		    gw.we);
		while (busy_walk_next(&c->wb[tid], &s, &e))
			if (gap_walk_busy(&gw, s, e, &g) && sw->rows)
				gaps_add(c, &sw->acc, g.start, g.end,
				    sw->owner, g.kind);
		if (gap_walk_end(&gw, &g) && sw->rows)
			gaps_add(c, &sw->acc, g.start, g.end, sw->owner,
			    g.kind);
		sw->busy = sat_add64(sw->busy, gw.busy);
		sw->inner = sat_add64(sw->inner, gw.inner);
	}
	return 0;
}

/* Adds a sweep of tracks[0, nt) (copied) over the window of procs. */
static struct gaps_sweep *
gaps_sweep_add(struct gaps_ctx *c, const uint32_t *tracks, size_t nt,
    uint32_t owner, int rows, const uint32_t *procs, size_t np)
{
	struct gaps_sweep	*sw;

	XGROW(c->sw, c->swcap, c->nsw + 1);
	sw = &c->sw[c->nsw++];
	memset(sw, 0, sizeof *sw);
	sw->tracks = xreallocarray(NULL, nt + 1, sizeof *sw->tracks);
	if (nt > 0)
		memcpy(sw->tracks, tracks, nt * sizeof *tracks);
	sw->nt = nt;
	sw->owner = owner;
	sw->rows = rows;
	iset_init(&sw->win);
	worksel_windows(&c->w, procs, np, &sw->win);
	return sw;
}

/*
 * Runs the sweeps, on the pool without an event-level filter (each with
 * gaps of its own, gathered in order after), and frees their storage but
 * their totals.
 */
static void
gaps_sweeps(struct gaps_ctx *c)
{
	unsigned	nth = work_threads(&c->w, c->nsw), i;
	size_t		k, t;

	/* The walks ask which tracks hold only work: before the threads. */
	if (nth > 1)
		for (t = 0; t < c->m->ntracks; t++)
			if (c->w.selected[t])
				(void)work_pure(&c->w, (uint32_t)t);
	c->wb = xcalloc(nth, sizeof *c->wb);
	(void)pool_run(c->nsw, nth, gaps_run, c, NULL);
	for (i = 0; i < nth; i++)
		busy_walk_free(&c->wb[i]);
	free(c->wb);
	c->wb = NULL;
	for (k = 0; k < c->nsw; k++) {
		gaps_gather(c, &c->acc, &c->sw[k].acc);
		free(c->sw[k].tracks);
		c->sw[k].tracks = NULL;
		iset_free(&c->sw[k].win);
	}
	/* A sweep that kept only its first rows makes the whole keep only
	 * the first (as one sweep would have). */
	if (c->acc.pruned && !c->acc.heap)
		gaps_prune(c, &c->acc);
}

/* The owning processes of a gap's owner (0 = all processes). */
static size_t
gaps_procs(struct gaps_ctx *c, uint32_t owner)
{
	const struct model	*m = c->m;
	uint32_t		 p;

	switch (c->scope) {
	case SCOPE_STREAM:
		p = m->streams[m->tracks[owner].stream].process;
		if (p == NONE32)
			return 0;
		XGROW(c->procs, c->pcap, 1);
		c->procs[0] = p;
		return 1;
	case SCOPE_DEVICE:
		return work_device_procs(m, owner, &c->procs, &c->pcap);
	default:
		return 0;
	}
}

/* Is track t a candidate for the neighbours of a gap of owner? */
static int
gaps_track_of(const struct gaps_ctx *c, uint32_t t, uint32_t owner)
{
	if (!c->w.selected[t])
		return 0;
	switch (c->scope) {
	case SCOPE_STREAM:
		return t == owner;
	case SCOPE_DEVICE:
		return c->m->tracks[t].device == owner;
	default:
		return 1;
	}
}

/* The name of the selected work event ending at t (prev) or starting at
 * t (next) among the owner's tracks, NULL if none. */
static const char *
gaps_neighbour(struct gaps_ctx *c, uint32_t owner, int64_t t, int next)
{
	const struct model	*m = c->m;
	size_t			 tr, k, i;

	for (tr = 0; tr < m->ntracks; tr++) {
		const struct lane *l = &m->tracks[tr].lane;
		if (!gaps_track_of(c, (uint32_t)tr, owner))
			continue;
		if (next) {
			for (i = lane_lower(l, t); i < l->n &&
			    l->start[i] == t; i++)
				if (work_event(&c->w, (uint32_t)tr,
				    (uint32_t)i) >= 0)
					return model_str(m, l->name[i]);
			continue;
		}
		k = lane_stab(l, t - 1, &c->idx, &c->icap);
		for (i = 0; i < k; i++)
			if (l->end[c->idx[i]] == t && work_event(&c->w,
			    (uint32_t)tr, c->idx[i]) >= 0)
				return model_str(m, l->name[c->idx[i]]);
	}
	return NULL;
}

static void
gaps_row(struct gaps_ctx *c, const struct opts *o, struct out *out,
    const struct gap *g)
{
	const struct model	*m = c->m;
	cJSON			*row = out_row(out);
	const char		*name;
	char			 key[128];
	double			 pct[GAPCPU_N];
	size_t			 np, k;
	int			 dom;
	uint32_t		 pid = NONE32;

	gaps_key(c, g, key, sizeof key);
	cJSON_AddItemToObject(row, "key", cJSON_CreateString(key));
	out_str(row, "scope", gaps_scope_names[c->scope]);
	np = gaps_procs(c, g->owner);
	switch (c->scope) {
	case SCOPE_STREAM: {
		const struct track *tr = &m->tracks[g->owner];
		out_int(row, "device", m->devices[tr->device].source_id);
		out_int(row, "stream",
		    (int64_t)m->streams[tr->stream].source_id);
		break;
	}
	case SCOPE_DEVICE:
		out_int(row, "device", m->devices[g->owner].source_id);
		cJSON_AddNullToObject(row, "stream");
		break;
	default:
		cJSON_AddNullToObject(row, "device");
		cJSON_AddNullToObject(row, "stream");
		break;
	}
	if (np == 1)
		pid = m->processes[c->procs[0]].pid;
	if (pid == NONE32)
		cJSON_AddNullToObject(row, "pid");
	else
		out_int(row, "pid", pid);
	out_int(row, "start_ns", event_time(m, g->start, o->absolute));
	out_int(row, "end_ns", event_time(m, g->end, o->absolute));
	out_int(row, "duration_ns", g->end - g->start);
	out_str(row, "kind", gap_kind_name(g->kind));
	if (g->end - g->start >= GAPS_CPU_MIN_NS) {
		dom = gapcpu_share(&c->cpu, c->procs, np, g->start, g->end,
		    pct);
		out_str(row, "cpu_activity", gapcpu_name(dom));
		for (k = 0; k < GAPCPU_N; k++)
			out_num(row, gaps_cpu_fields[k], pct[k]);
	} else {
		cJSON_AddNullToObject(row, "cpu_activity");
		for (k = 0; k < GAPCPU_N; k++)
			cJSON_AddNullToObject(row, gaps_cpu_fields[k]);
	}
	name = NULL;
	if (g->kind == GAP_INNER || g->kind == GAP_TRAILING)
		name = gaps_neighbour(c, g->owner, g->start, 0);
	out_str_or_null(row, "prev_name", name);
	name = NULL;
	if (g->kind == GAP_INNER || g->kind == GAP_LEADING)
		name = gaps_neighbour(c, g->owner, g->end, 1);
	out_str_or_null(row, "next_name", name);
}

/* Fills one auxiliary idle summary (a device, or all GPUs). */
static cJSON *
gaps_summary(cJSON *o, int64_t span, int64_t b, int64_t inner)
{
	out_int(o, "window_ns", span);
	out_int(o, "busy_ns", b);
	out_int(o, "total_idle_ns", span - b);
	out_int(o, "inner_idle_ns", inner);
	out_num(o, "idle_pct", span > 0 ? 100.0 * (double)(span - b) /
	    (double)span : 0.0);
	return o;
}

/* Sets up the pre-selection from --sort, --limit and --offset. */
static void
gaps_ranking(struct gaps_ctx *c, const struct opts *o)
{
	const char	*spec = o->sort != NULL ? o->sort : "duration_ns:desc";
	const char	*colon = strchr(spec, ':');
	size_t		 flen = colon != NULL ? (size_t)(colon - spec) :
			    strlen(spec);

	c->rank = RANK_NONE;
	c->desc = colon == NULL || strcmp(colon + 1, "asc") != 0;
	if (flen == 11 && strncmp(spec, "duration_ns", 11) == 0)
		c->rank = RANK_DUR;
	else if (flen == 8 && strncmp(spec, "start_ns", 8) == 0)
		c->rank = RANK_START;
	else if (flen == 6 && strncmp(spec, "end_ns", 6) == 0)
		c->rank = RANK_END;
	c->keep = 0;
	if (c->rank != RANK_NONE && o->limit > 0)
		c->keep = (size_t)(o->offset + o->limit + 1);
	c->spill = c->keep * 4 > GAPS_SPILL ? c->keep * 4 : GAPS_SPILL;
}

static int
gaps_cmp_start(const void *x, const void *y)
{
	const struct gap	*a = x, *b = y;

	return sort_lex3(a->start, b->start, a->owner, b->owner, 0, 0);
}

int
cmd_gaps_compute(const struct model *m, const struct opts *o, struct out *out,
    const char **code, char **cause)
{
	struct gaps_ctx		 c;
	struct gaps_sweep	*sw;
	struct opts		 eo = *o;
	struct sel		 s;
	cJSON			*devs, *hist, *h;
	int64_t			 t0, t1, aspan, abusy, ainner;
	uint32_t		*tracks = NULL, *order = NULL, one;
	size_t			 tcap = 0, ocap = 0, nt, nd, ndev, t, d, k, np;
	int			 rc = -1, any = 0, scope;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.scope = SCOPE_DEVICE;
	if ((scope = NAMETAB_FIND(gaps_scope_names, o->scope)) >= 0)
		c.scope = scope;
	c.min_dur = o->min_dur;
	eo.min_dur = 0;		/* --min-dur is about gaps, not events */
	if (sel_init(&s, m, &eo, cause) != 0)
		return -1;
	t0 = s.t0;
	t1 = o->to == OPT_TIME_UNSET ? m->end_ns : s.t1;
	worksel_init(&c.w, m, &s, t0, t1);
	gaps_ranking(&c, o);
	gapcpu_init(&c.cpu, m);
	out->default_sort = "duration_ns:desc";

	if (t1 <= t0 || sel_window_empty(&s))
		out_warn(out, "window_outside",
		    "the window lies outside the trace");

	/* Per device: the device-level idle (auxiliary, and device rows);
	 * per stream (stream rows); all GPUs, within every window. */
	nd = work_devices(m, &order, &ocap);
	for (k = 0; k < nd; k++) {
		d = order[k];
		if ((nt = work_tracks(&c.w, (uint32_t)d, &tracks, &tcap)) == 0)
			continue;
		any = 1;
		np = work_device_procs(m, (uint32_t)d, &c.procs, &c.pcap);
		(void)gaps_sweep_add(&c, tracks, nt, (uint32_t)d,
		    c.scope == SCOPE_DEVICE, c.procs, np);
	}
	ndev = c.nsw;
	if (c.scope == SCOPE_STREAM) {
		for (t = 0; t < m->ntracks; t++) {
			if (!c.w.selected[t])
				continue;
			np = gaps_procs(&c, (uint32_t)t);
			one = (uint32_t)t;
			(void)gaps_sweep_add(&c, &one, 1, one, 1, c.procs, np);
		}
	}
	nt = work_tracks(&c.w, NONE32, &tracks, &tcap);
	sw = gaps_sweep_add(&c, tracks, nt, NONE32, c.scope == SCOPE_ALL &&
	    any, NULL, 0);
	aspan = iset_len(&sw->win);
	for (k = 0; k < ndev; k++)
		c.sw[k].span = iset_len(&c.sw[k].win);
	gaps_sweeps(&c);
	devs = cJSON_CreateArray();
	for (k = 0; k < ndev; k++) {
		h = cJSON_CreateObject();
		out_int(h, "device", m->devices[c.sw[k].owner].source_id);
		cJSON_AddItemToArray(devs, gaps_summary(h, c.sw[k].span,
		    c.sw[k].busy, c.sw[k].inner));
	}
	abusy = c.sw[c.nsw - 1].busy;
	ainner = c.sw[c.nsw - 1].inner;

	if (c.keep == 0 && c.acc.matched > GAPS_MAX_ROWS) {
		*cause = xasprintf("%llu gaps match: too many to sort by that "
		    "field; raise --min-dur or sort by duration_ns, start_ns "
		    "or end_ns", (unsigned long long)c.acc.matched);
		cJSON_Delete(devs);
		goto done;
	}
	/* Rows in start order (out_emit sorts them anyway). */
	if (c.acc.ng > 1)
		qsort(c.acc.g, c.acc.ng, sizeof *c.acc.g, gaps_cmp_start);
	for (k = 0; k < c.acc.ng; k++)
		gaps_row(&c, o, out, &c.acc.g[k]);

	out_str(out->aux, "scope", gaps_scope_names[c.scope]);
	sel_window_aux(out, m, o, t0, t1);
	out_int(out->aux, "min_dur_ns", c.min_dur);
	out_int(out->aux, "gaps_matched", (int64_t)c.acc.matched);
	cJSON_AddItemToObject(out->aux, "devices", devs);
	cJSON_AddItemToObject(out->aux, "all", gaps_summary(
	    cJSON_CreateObject(), aspan, abusy, ainner));
	hist = cJSON_AddArrayToObject(out->aux, "histogram");
	for (k = 0; k < GAPS_NBINS; k++) {
		h = cJSON_CreateObject();
		out_str(h, "label", gaps_bin_names[k]);
		out_int(h, "count", (int64_t)c.acc.bin_n[k]);
		out_int(h, "total_ns", c.acc.bin_t[k]);
		cJSON_AddItemToArray(hist, h);
	}
	if (!any)
		out_warn(out, "no_gpu_work",
		    "no GPU work in the selection");
	else if (c.acc.matched == 0)
		out_warn(out, "no_gaps",
		    "no %s gaps%s", gaps_scope_names[c.scope],
		    c.min_dur > 0 ? " at least --min-dur long" : "");
	if (c.acc.pruned)
		out->total_matched = (long long)c.acc.matched;
	rc = 0;
done:
	free(tracks);
	free(order);
	free(c.acc.g);
	free(c.sw);
	gapcpu_free(&c.cpu);
	free(c.procs);
	free(c.idx);
	work_free(&c.w);
	sel_free(&s);
	return rc;
}

