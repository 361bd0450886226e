/*
 * cmd-export: `gpulens export --to perfetto|csv|svg|html TRACE` writes the selected
 * events (all the shared filters, --type, window; the window end is --until
 * here, since --to names the format) to stdout, streaming: events are
 * written as they are visited, so memory stays bounded by the number of
 * tracks and the nesting depth whatever the number of events.
 *
 * perfetto: the Chrome trace JSON that ui.perfetto.dev opens (FORMATS.md
 * section 6). {"otherData":{...},"traceEvents":[...]} with
 *   - one process per GPU, named "GPU n" (pid = the device id, moved up by
 *     2^24 steps if an OS pid already has it), one thread per stream
 *     ("stream k"; a stream's synchronization waits get "stream k sync");
 *   - CPU work under the OS pid and tid, with process_name/thread_name;
 *   - every event an X event, ts and dur in microseconds with three
 *     decimals (exact nanoseconds), ts relative to the trace origin (kept
 *     in otherData.origin_ns: absolute nanosecond epochs do not survive a
 *     double); args carry the event id ("id", as search prints it), the
 *     correlation id and the kind-specific fields; NVTX marks are thread
 *     instants ("i"), counter samples "C" events;
 *   - a flow from each launching API call to its GPU work: "s" on the API
 *     slice at the call's start, "f" with "bp":"e" on the GPU slice at its
 *     start, id = the GPU event's id; only when both ends are exported.
 * X events on one thread must nest. The API, NVTX, OS runtime and other
 * tracks of a CPU thread are merged in start order (longer first); an event
 * that would overlap the open one partially goes to the first overflow
 * thread where it nests ("<thread> (overlap 1)", tid + k * 2^24), and so do
 * partial overlaps on a GPU stream.
 *
 * svg, html: a picture of the window (default: the whole trace) with the
 * timeline view's rows, labels and colours, one rectangle per selected
 * event (tui/figure.c, reached through cmd_global.figure); html wraps the
 * same SVG in a self-contained page. --width sets the time axis in pixels,
 * --detail adds the per-stream sync and overlap rows, --max-shapes caps
 * the rectangles (beyond it rows are drawn per pixel column, with a
 * warning).
 *
 * csv: a header and one line per selected event with the search columns
 * (evrow.h) plus key, in start order across all tracks (ties by id), CSV
 * quoted as out.c quotes (RFC 4180); grid and block as "[x,y,z]", null as
 * an empty field. --absolute gives absolute times.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "model/correlate.h"
#include "headless/evrow.h"
#include "util/hmap.h"
#include "util/jsonw.h"
#include "model/lane.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "util/sanitize.h"
#include "headless/select.h"
#include "headless/vopt.h"
#include "model/figreq.h"
#include "util/xmalloc.h"

#define EXPORT_OPTS (OPT_OUTPUT | OPT_TO | OPT_WINDOW | OPT_FILTER | OPT_TYPE)
#define EXPORT_LEVELS	16		/* overflow threads per thread */
#define EXPORT_BUMP	0x1000000	/* pid/tid step past a collision */

static cmd_run_t	export_main;

/* The trace goes to stdout whole: --to picks its format. */
static const struct cmd_option export_vopts[] = {
	{ "--json", NULL, "report errors as a JSON envelope", CMD_OPT_AS,
	    NULL },
	{ "--format", "table|json", "json: as --json", CMD_OPT_AS, NULL },
	{ "--fields", NULL, "export writes every column: use --to csv, not "
	    "--format or --fields", CMD_OPT_REFUSE, NULL },
	{ "--width", "PX", "svg, html: pixels of the time axis (default "
	    "1200)", CMD_OPT_OWN, NULL },
	{ "--detail", NULL, "svg, html: the per-stream sync and overlap rows "
	    "too", CMD_OPT_OWN, NULL },
	{ "--max-shapes", "N", "svg, html: above N events, draw rows per "
	    "pixel column (default 200000; 0: no limit)", CMD_OPT_OWN, NULL },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "gpulens export [--to perfetto|csv|svg|html] [OPTIONS] TRACE",
	.help =
	"Writes the selected events to stdout, streaming: --to perfetto (the\n"
	"default) a Chrome trace JSON for ui.perfetto.dev, one process per GPU\n"
	"and a thread per stream, CPU threads under their pids, launch flows\n"
	"from API calls to GPU work; --to csv one line per event with the\n"
	"search columns; --to svg a picture of the window with the terminal\n"
	"UI's rows, labels and colours, one rectangle per event (its name as\n"
	"a tooltip); --to html the same picture in a self-contained page.\n"
	"The window end is --until (--to names the format).",
	.args = { 1, -1, "expected a trace" },
	.input = CMD_IN_TRACES,
	.options = EXPORT_OPTS,
	.vopts = export_vopts,
	.run = export_main
};

/* A cursor over the selected events of one track, in start order. */
struct exp_cur {
	uint32_t	 t;
	size_t		 i, end;
};

struct exp_stack {
	int64_t		*end;
	size_t		 n, cap;
};

struct exp_group {
	uint32_t	*tracks;
	size_t		 ntracks;
	int64_t		 pid;
	int64_t		 base_tid;
	char		*name;
	int64_t		 tid[EXPORT_LEVELS];	/* -1: not yet used */
	uint32_t	 device;	/* GPU groups: device index */
	uint32_t	 process;	/* CPU groups: process index */
};

struct exp {
	const struct model	*m;
	struct sel		*s;
	FILE			*fp;
	int			 first;
	struct hmap		 used;		/* pids and (pid, tid) pairs */
	int64_t			*gpu_pid;
	uint8_t			*gpu_named;
	int64_t			*proc_pid;
	uint8_t			*proc_named;
	int64_t			 orphan_pid;	/* -1 until needed */
	int			 orphan_named;
	struct exp_stack	 lv[EXPORT_LEVELS];
	int			 absolute;
	int			 tty;		/* csv: sanitise (fp is a tty) */
	uint64_t		 nev, nflow, noverlap;
};

/* Whether event gid is exported (its track and it are selected). */
static int
exp_selected(struct exp *e, uint32_t gid)
{
	struct evref	r = model_ev(e->m, gid);

	return sel_track(e->s, r.track) && sel_event(e->s, r.track, r.idx);
}

static void
exp_cur_init(struct exp *e, struct exp_cur *c, uint32_t t)
{
	const struct lane	*l = &e->m->tracks[t].lane;
	int64_t			 from = e->s->t0;

	/* Nothing that starts more than maxdur before t0 can reach it. */
	if (l->maxdur > 0 && from > INT64_MIN + l->maxdur)
		from -= l->maxdur;
	else if (l->maxdur > 0)
		from = INT64_MIN;
	c->t = t;
	c->i = from == INT64_MIN ? 0 : lane_lower(l, from);
	c->end = lane_lower(l, e->s->t1);
}

/* Moves c to its next selected event (or its end); 1 if there is one. */
static int
exp_cur_skip(struct exp *e, struct exp_cur *c)
{
	while (c->i < c->end && !sel_event(e->s, c->t, (uint32_t)c->i))
		c->i++;
	return c->i < c->end;
}

/* Whether cursor a's event comes before b's: start, longer first, gid. */
static int
exp_cur_before(const struct model *m, const struct exp_cur *a,
    const struct exp_cur *b, int by_gid)
{
	const struct lane	*la = &m->tracks[a->t].lane;
	const struct lane	*lb = &m->tracks[b->t].lane;

	if (la->start[a->i] != lb->start[b->i])
		return la->start[a->i] < lb->start[b->i];
	if (!by_gid && la->end[a->i] != lb->end[b->i])
		return la->end[a->i] > lb->end[b->i];
	return model_gid(m, a->t, (uint32_t)a->i) <
	    model_gid(m, b->t, (uint32_t)b->i);
}

/* ---- perfetto ---------------------------------------------------------- */

static int
exp_used(struct exp *e, int64_t pid, int64_t tid)
{
	uint32_t	v;

	return hmap_get(&e->used, hmap_key2((uint64_t)pid, (uint64_t)tid),
	    &v);
}

static void
exp_use(struct exp *e, int64_t pid, int64_t tid)
{
	hmap_put(&e->used, hmap_key2((uint64_t)pid, (uint64_t)tid), 1);
}

/* A pid not taken yet, from want up in EXPORT_BUMP steps. */
static int64_t
exp_new_pid(struct exp *e, int64_t want)
{
	while (exp_used(e, want, -1))
		want += EXPORT_BUMP;
	exp_use(e, want, -1);
	return want;
}

static void
exp_sep(struct exp *e)
{
	fputs(e->first ? "\n" : ",\n", e->fp);
	e->first = 0;
}

static void
exp_meta(struct exp *e, const char *what, int64_t pid, int64_t tid,
    const char *name)
{
	exp_sep(e);
	fputs("{\"ph\":\"M\",\"name\":", e->fp);
	jsonw_str(e->fp, what);
	fputs(",\"pid\":", e->fp);
	jsonw_int(e->fp, pid);
	fputs(",\"tid\":", e->fp);
	jsonw_int(e->fp, tid);
	fputs(",\"args\":{\"name\":", e->fp);
	jsonw_str(e->fp, name);
	fputs("}}", e->fp);
}

static int64_t
exp_orphan_pid(struct exp *e)
{
	if (e->orphan_pid < 0)
		e->orphan_pid = exp_new_pid(e, 0);
	return e->orphan_pid;
}

/* Names the group's process once. */
static void
exp_name_process(struct exp *e, struct exp_group *g)
{
	const struct model	*m = e->m;
	char			 buf[64];
	const char		*name;

	if (g->device != NONE32) {
		if (e->gpu_named[g->device])
			return;
		e->gpu_named[g->device] = 1;
		snprintf(buf, sizeof buf, "GPU %u",
		    m->devices[g->device].source_id);
		exp_meta(e, "process_name", g->pid, 0, buf);
	} else if (g->process != NONE32) {
		if (e->proc_named[g->process])
			return;
		e->proc_named[g->process] = 1;
		name = model_str(m, m->processes[g->process].name);
		if (*name == '\0') {
			snprintf(buf, sizeof buf, "pid %u",
			    m->processes[g->process].pid);
			name = buf;
		}
		exp_meta(e, "process_name", g->pid, 0, name);
	} else if (!e->orphan_named) {
		e->orphan_named = 1;
		exp_meta(e, "process_name", g->pid, 0, "unknown process");
	}
}

/* The tid of level lv of group g, named on first use. */
static int64_t
exp_tid(struct exp *e, struct exp_group *g, int lv)
{
	int64_t	 tid;
	char	*name;

	if (g->tid[lv] >= 0)
		return g->tid[lv];
	exp_name_process(e, g);
	tid = g->base_tid + (int64_t)lv * EXPORT_BUMP;
	while (exp_used(e, g->pid, tid))
		tid += EXPORT_BUMP;
	exp_use(e, g->pid, tid);
	g->tid[lv] = tid;
	if (lv == 0)
		exp_meta(e, "thread_name", g->pid, tid, g->name);
	else {
		name = xasprintf("%s (overlap %d)", g->name, lv);
		exp_meta(e, "thread_name", g->pid, tid, name);
		free(name);
	}
	return tid;
}

/* The level where [start, end) nests (stacks of open ends per level). */
static int
exp_level(struct exp *e, int64_t start, int64_t end)
{
	struct exp_stack	*st;
	int			 lv;

	for (lv = 0; lv < EXPORT_LEVELS; lv++) {
		st = &e->lv[lv];
		while (st->n > 0 && st->end[st->n - 1] <= start)
			st->n--;
		if (st->n == 0 || end <= st->end[st->n - 1] ||
		    lv == EXPORT_LEVELS - 1) {
			XGROW(st->end, st->cap, st->n + 1);
			st->end[st->n++] = end;
			if (lv > 0)
				e->noverlap++;
			return lv;
		}
	}
	return EXPORT_LEVELS - 1;
}

static void
exp_dim3(FILE *fp, const char *key, const uint32_t *v)
{
	fprintf(fp, ",\"%s\":[%u,%u,%u]", key, v[0], v[1], v[2]);
}

static void
exp_args(struct exp *e, const struct track *tr, uint32_t i, uint32_t gid)
{
	const struct model		*m = e->m;
	const struct lane		*l = &tr->lane;
	const struct kernel_info	*k;
	const struct copy_info		*c;
	const struct nvtx_info		*ni;
	uint32_t			 aux = l->aux[i];
	FILE				*fp = e->fp;

	fputs(",\"args\":{\"id\":", fp);
	jsonw_uint(fp, gid);
	if (l->corr[i] != 0)
		fprintf(fp, ",\"correlation\":%u", l->corr[i]);
	if (event_gpu_side(tr)) {
		if (tr->device < m->ndevices)
			fprintf(fp, ",\"device\":%u",
			    m->devices[tr->device].source_id);
		if (tr->stream < m->nstreams) {
			fputs(",\"stream\":", fp);
			jsonw_uint(fp, m->streams[tr->stream].source_id);
		}
	}
	if ((k = event_kernel(m, gid)) != NULL) {
		exp_dim3(fp, "grid", k->grid);
		exp_dim3(fp, "block", k->block);
		fprintf(fp, ",\"registers per thread\":%u,\"shared memory\":%llu",
		    (unsigned)k->regs, (unsigned long long)k->static_smem +
		    k->dynamic_smem);
	}
	if ((c = event_copy(m, gid)) != NULL) {
		fputs(",\"bytes\":", fp);
		jsonw_uint(fp, c->bytes);
		if (l->kind[i] == EV_MEMCPY)
			fprintf(fp, ",\"copy_kind\":\"%s\",\"src_kind\":\"%s\","
			    "\"dst_kind\":\"%s\"", copy_kind_name(c->kind),
			    mem_kind_name(c->src_kind),
			    mem_kind_name(c->dst_kind));
		else
			fprintf(fp, ",\"value\":%u", c->value);
	}
	if (tr->type == TRACK_NVTX && aux != NONE32 && aux < m->nnvtx) {
		ni = &m->nvtx[aux];
		if (ni->domain < m->ndomains &&
		    *model_str(m, m->domains[ni->domain].name) != '\0') {
			fputs(",\"domain\":", fp);
			jsonw_str(fp, model_str(m, m->domains[ni->domain].name));
		}
		if (ni->category != 0)
			fprintf(fp, ",\"category\":%u", ni->category);
		if (ni->color != 0)
			fprintf(fp, ",\"color\":\"#%08x\"", ni->color);
		if (ni->payload_type == NVTX_PAYLOAD_INT) {
			fputs(",\"payload\":", fp);
			jsonw_int(fp, ni->payload.i);
		} else if (ni->payload_type == NVTX_PAYLOAD_UINT) {
			fputs(",\"payload\":", fp);
			jsonw_uint(fp, ni->payload.u);
		} else if (ni->payload_type == NVTX_PAYLOAD_DOUBLE) {
			fputs(",\"payload\":", fp);
			jsonw_num(fp, ni->payload.d);
		}
	}
	if (l->flags[i] & EVF_OPEN)
		fputs(",\"open\":true", fp);
	fputs("}", fp);
}

static void
exp_head(struct exp *e, const char *ph, const char *cat, const char *name,
    int64_t pid, int64_t tid, int64_t ts)
{
	FILE	*fp = e->fp;

	exp_sep(e);
	fputs("{\"ph\":\"", fp);
	fputs(ph, fp);
	fputs("\",\"cat\":", fp);
	jsonw_str(fp, cat);
	fputs(",\"name\":", fp);
	jsonw_str(fp, name);
	fputs(",\"pid\":", fp);
	jsonw_int(fp, pid);
	if (tid != INT64_MIN) {
		fputs(",\"tid\":", fp);
		jsonw_int(fp, tid);
	}
	fputs(",\"ts\":", fp);
	jsonw_us(fp, ts - e->m->origin_ns);
}

static void
exp_flow(struct exp *e, const char *ph, uint32_t id, int64_t pid,
    int64_t tid, int64_t ts)
{
	exp_head(e, ph, "launch", "launch", pid, tid, ts);
	if (ph[0] == 'f')
		fputs(",\"bp\":\"e\"", e->fp);
	fputs(",\"id\":", e->fp);
	jsonw_uint(e->fp, id);
	fputs("}", e->fp);
	e->nflow += ph[0] == 's';
}

static void
exp_event(struct exp *e, struct exp_group *g, uint32_t t, uint32_t i)
{
	const struct model	*m = e->m;
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	uint32_t		 gid = model_gid(m, t, i), api;
	const uint32_t		*gw;
	size_t			 ng, j;
	int64_t			 tid;
	int			 kind = l->kind[i];

	e->nev++;
	if (kind == EV_MARK) {
		tid = exp_tid(e, g, 0);
		exp_head(e, "i", ev_kind_name(kind), model_str(m, l->name[i]),
		    g->pid, tid, l->start[i]);
		fputs(",\"s\":\"t\"", e->fp);
		exp_args(e, tr, i, gid);
		fputs("}", e->fp);
		return;
	}
	tid = exp_tid(e, g, exp_level(e, l->start[i], l->end[i]));
	exp_head(e, "X", ev_kind_name(kind), model_str(m, l->name[i]), g->pid,
	    tid, l->start[i]);
	fputs(",\"dur\":", e->fp);
	jsonw_us(e->fp, l->end[i] - l->start[i]);
	exp_args(e, tr, i, gid);
	fputs("}", e->fp);
	if (kind == EV_API) {
		ng = correlate_gpu(m, gid, &gw);
		for (j = 0; j < ng; j++)
			if (exp_selected(e, gw[j]))
				exp_flow(e, "s", gw[j], g->pid, tid,
				    l->start[i]);
	} else if (event_gpu_side(tr) &&
	    (api = correlate_launch(m, gid)) != NONE32 &&
	    exp_selected(e, api))
		exp_flow(e, "f", gid, g->pid, tid, l->start[i]);
}

/* Writes a group's events, merging its tracks in start order. */
static void
exp_group_run(struct exp *e, struct exp_group *g)
{
	struct exp_cur	*c;
	size_t		 n = 0, k, best;
	int		 lv;

	c = xcalloc(g->ntracks, sizeof *c);
	for (k = 0; k < g->ntracks; k++) {
		exp_cur_init(e, &c[n], g->tracks[k]);
		if (exp_cur_skip(e, &c[n]))
			n++;
	}
	for (lv = 0; lv < EXPORT_LEVELS; lv++) {
		e->lv[lv].n = 0;
		g->tid[lv] = -1;
	}
	while (n > 0) {
		best = 0;
		for (k = 1; k < n; k++)
			if (exp_cur_before(e->m, &c[k], &c[best], 0))
				best = k;
		exp_event(e, g, c[best].t, (uint32_t)c[best].i);
		c[best].i++;
		if (!exp_cur_skip(e, &c[best]))
			c[best] = c[--n];
	}
	free(c);
}

static void
exp_counters(struct exp *e, uint32_t t)
{
	const struct model	*m = e->m;
	const struct track	*tr = &m->tracks[t];
	const struct lane	*l = &tr->lane;
	struct exp_cur		 c;
	int64_t			 pid;
	const char		*name;

	if (tr->process != NONE32)
		pid = e->proc_pid[tr->process];
	else if (tr->device != NONE32 && tr->device < m->ndevices)
		pid = e->gpu_pid[tr->device];
	else
		pid = exp_orphan_pid(e);
	exp_cur_init(e, &c, t);
	for (; exp_cur_skip(e, &c); c.i++) {
		name = model_str(m, l->name[c.i]);
		if (*name == '\0')
			name = model_str(m, tr->name);
		exp_head(e, "C", "counter", name, pid, INT64_MIN,
		    l->start[c.i]);
		fputs(",\"args\":{\"value\":", e->fp);
		if (l->aux[c.i] != NONE32 && l->aux[c.i] < m->ncounters)
			jsonw_num(e->fp, m->counters[l->aux[c.i]]);
		else
			fputs("0", e->fp);
		fputs("}}", e->fp);
		e->nev++;
	}
}

static void
exp_group_init(struct exp_group *g)
{
	int	lv;

	memset(g, 0, sizeof *g);
	g->device = NONE32;
	g->process = NONE32;
	for (lv = 0; lv < EXPORT_LEVELS; lv++)
		g->tid[lv] = -1;
}

/* A CPU group's process (index p) and its pid, the orphans' if none. */
static void
exp_group_process(struct exp *e, struct exp_group *g, uint32_t p)
{
	if (p < e->m->nprocesses) {
		g->process = p;
		g->pid = e->proc_pid[p];
	} else
		g->pid = exp_orphan_pid(e);
}

/* A group for one GPU stream track (its work or its sync waits). */
static void
exp_gpu_group(struct exp *e, uint32_t t)
{
	const struct model	*m = e->m;
	const struct track	*tr = &m->tracks[t];
	struct exp_group	 g;
	uint32_t		 one = t;
	const char		*sname = "";
	unsigned long long	 sid = t;

	exp_group_init(&g);
	g.tracks = &one;
	g.ntracks = 1;
	if (tr->device < m->ndevices) {
		g.device = tr->device;
		g.pid = e->gpu_pid[tr->device];
	} else
		g.pid = exp_orphan_pid(e);
	if (tr->stream < m->nstreams) {
		sid = (unsigned long long)m->streams[tr->stream].source_id;
		sname = model_str(m, m->streams[tr->stream].name);
	}
	g.base_tid = (int64_t)(sid % EXPORT_BUMP);
	g.name = xasprintf("stream %llu%s%s%s", sid, *sname ? " " : "", sname,
	    tr->type == TRACK_SYNC ? " sync" : "");
	exp_group_run(e, &g);
	free(g.name);
}

static int
exp_perfetto(struct exp *e)
{
	const struct model	*m = e->m;
	struct exp_group	 g;
	uint32_t		*order = NULL, *first = NULL, t, th;
	size_t			 p, d, k;

	e->gpu_pid = xcalloc(m->ndevices + 1, sizeof *e->gpu_pid);
	e->gpu_named = xcalloc(m->ndevices + 1, 1);
	e->proc_pid = xcalloc(m->nprocesses + 1, sizeof *e->proc_pid);
	e->proc_named = xcalloc(m->nprocesses + 1, 1);
	e->orphan_pid = -1;
	for (p = 0; p < m->nprocesses; p++)
		e->proc_pid[p] = exp_new_pid(e, m->processes[p].pid);
	for (d = 0; d < m->ndevices; d++)
		e->gpu_pid[d] = exp_new_pid(e, m->devices[d].source_id);

	fputs("{\"otherData\":{\"generator\":\"gpulens " PACKAGE_VERSION
	    "\",\"source\":", e->fp);
	jsonw_str(e->fp, source_kind_name(m->source));
	fputs(",\"source_version\":", e->fp);
	jsonw_str(e->fp, model_str(m, m->source_version));
	fputs(",\"origin_ns\":", e->fp);
	jsonw_int(e->fp, m->origin_ns);
	fputs(",\"time_unit\":\"us, relative to origin_ns\"},"
	    "\"traceEvents\":[", e->fp);

	/* GPU streams. */
	for (t = 0; t < m->ntracks; t++)
		if (event_gpu_side(&m->tracks[t]) && sel_track(e->s, t))
			exp_gpu_group(e, t);

	/* CPU threads: their tracks, bucketed by thread (model order). */
	first = xcalloc(m->nthreads + 2, sizeof *first);
	order = xcalloc(m->ntracks + 1, sizeof *order);
	for (t = 0; t < m->ntracks; t++) {
		th = m->tracks[t].thread;
		if (!event_gpu_side(&m->tracks[t]) &&
		    m->tracks[t].type != TRACK_COUNTER && th < m->nthreads)
			first[th + 1]++;
	}
	for (th = 0; th < m->nthreads; th++)
		first[th + 1] += first[th];
	{
		uint32_t *fill = xcalloc(m->nthreads + 1, sizeof *fill);
		for (t = 0; t < m->ntracks; t++) {
			th = m->tracks[t].thread;
			if (!event_gpu_side(&m->tracks[t]) &&
			    m->tracks[t].type != TRACK_COUNTER &&
			    th < m->nthreads)
				order[first[th] + fill[th]++] = t;
		}
		free(fill);
	}
	for (th = 0; th < m->nthreads; th++) {
		const struct thread *tp = &m->threads[th];
		exp_group_init(&g);
		g.tracks = xcalloc(first[th + 1] - first[th] + 1,
		    sizeof *g.tracks);
		for (k = first[th]; k < first[th + 1]; k++)
			if (sel_track(e->s, order[k]))
				g.tracks[g.ntracks++] = order[k];
		if (g.ntracks > 0) {
			exp_group_process(e, &g, tp->process);
			g.base_tid = tp->tid;
			g.name = *model_str(m, tp->name) != '\0' ?
			    xstrdup(model_str(m, tp->name)) :
			    xasprintf("thread %u", tp->tid);
			exp_group_run(e, &g);
			free(g.name);
		}
		free(g.tracks);
	}

	/* CPU tracks of no thread, and counters. */
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (event_gpu_side(tr) || !sel_track(e->s, t))
			continue;
		if (tr->type == TRACK_COUNTER) {
			exp_counters(e, t);
			continue;
		}
		if (tr->thread < m->nthreads)
			continue;
		exp_group_init(&g);
		g.tracks = &t;
		g.ntracks = 1;
		exp_group_process(e, &g, tr->process);
		g.base_tid = (int64_t)t + 1;
		g.name = *model_str(m, tr->name) != '\0' ?
		    xstrdup(model_str(m, tr->name)) :
		    xstrdup(track_type_name(tr->type));
		exp_group_run(e, &g);
		free(g.name);
	}
	fputs("\n]}\n", e->fp);
	free(first);
	free(order);
	return 0;
}

/* ---- csv --------------------------------------------------------------- */

/*
 * Writes one event as a CSV line: evrow_columns, then key, formatted as
 * out.c prints the same row of search (integers plain, null empty, arrays
 * as "[x,y,z]"). Written directly rather than through a cJSON row: the
 * export of ten million events must not allocate per event.
 */
static void
exp_csv_line(struct exp *e, uint32_t gid)
{
	const struct model		*m = e->m;
	struct evref			 r = model_ev(m, gid);
	const struct track		*tr = &m->tracks[r.track];
	const struct lane		*l = &tr->lane;
	const struct kernel_info	*k = event_kernel(m, gid);
	const struct copy_info		*c = event_copy(m, gid);
	uint32_t			 i = r.idx, th, pr;
	FILE				*fp = e->fp;
	int				 gpu = event_gpu_side(tr);

	th = event_thread(m, gid);
	pr = event_process(m, gid);
	fprintf(fp, "%u,%s,%lld,%lld,%lld,", gid, ev_kind_name(l->kind[i]),
	    (long long)event_time(m, l->start[i], e->absolute),
	    (long long)(l->end[i] - l->start[i]),
	    (long long)event_time(m, l->end[i], e->absolute));
	if (gpu && tr->device < m->ndevices)
		fprintf(fp, "%u", m->devices[tr->device].source_id);
	fputc(',', fp);
	if (gpu && tr->stream < m->nstreams)
		fprintf(fp, "%llu",
		    (unsigned long long)m->streams[tr->stream].source_id);
	fputc(',', fp);
	if (pr < m->nprocesses)
		fprintf(fp, "%u", m->processes[pr].pid);
	fputc(',', fp);
	if (th < m->nthreads)
		fprintf(fp, "%u", m->threads[th].tid);
	fputc(',', fp);
	if (k != NULL)
		fprintf(fp, "\"[%u,%u,%u]\",\"[%u,%u,%u]\"", k->grid[0],
		    k->grid[1], k->grid[2], k->block[0], k->block[1],
		    k->block[2]);
	else
		fputc(',', fp);
	fputc(',', fp);
	if (c != NULL)
		fprintf(fp, "%llu", (unsigned long long)c->bytes);
	fputc(',', fp);
	if (c != NULL && l->kind[i] == EV_MEMCPY)
		fputs(copy_kind_name(c->kind), fp);
	fputc(',', fp);
	if (lane_rowid(l, i) >= 0)
		fprintf(fp, "%lld", (long long)lane_rowid(l, i));
	fputc(',', fp);
	out_csv_field(fp, model_str(m, l->name[i]), e->tty);
	fprintf(fp, ",ev|id=%u\n", gid);	/* the key: rowkey "ev" */
	e->nev++;
}

/* Heap of track cursors by (start, gid): every track in start order. */
static void
exp_heap_down(const struct model *m, struct exp_cur *h, size_t n, size_t i)
{
	struct exp_cur	tmp;
	size_t		c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && exp_cur_before(m, &h[c + 1], &h[c], 1))
			c++;
		if (!exp_cur_before(m, &h[c], &h[i], 1))
			return;
		tmp = h[i];
		h[i] = h[c];
		h[c] = tmp;
		i = c;
	}
}

static int
exp_csv(struct exp *e)
{
	const struct model	*m = e->m;
	struct exp_cur		*h;
	size_t			 n = 0, k;
	uint32_t		 t;

	e->tty = isatty(fileno(e->fp));
	for (k = 0;; k++) {
		if (k != 0)
			fputc(',', e->fp);
		if (evrow_columns[k] == NULL)
			break;
		fputs(evrow_columns[k], e->fp);
	}
	fputs("key\n", e->fp);
	h = xcalloc(m->ntracks + 1, sizeof *h);
	for (t = 0; t < m->ntracks; t++) {
		if (!sel_track(e->s, t))
			continue;
		exp_cur_init(e, &h[n], t);
		if (exp_cur_skip(e, &h[n]))
			n++;
	}
	for (k = n; k > 0; k--)
		exp_heap_down(m, h, n, k - 1);
	while (n > 0) {
		exp_csv_line(e, model_gid(m, h[0].t, (uint32_t)h[0].i));
		h[0].i++;
		if (!exp_cur_skip(e, &h[0]))
			h[0] = h[--n];
		exp_heap_down(m, h, n, 0);
	}
	free(h);
	return 0;
}

int
cmd_export_run(const struct model *m, const struct opts *o, FILE *fp,
    struct out *out, const char **code, char **cause)
{
	struct exp	 e;
	struct sel	 s;
	int		 csv, lv, rc;

	if (o->to_format == NULL || strcmp(o->to_format, "perfetto") == 0)
		csv = 0;
	else if (strcmp(o->to_format, "csv") == 0)
		csv = 1;
	else {
		*code = "usage";
		*cause = xasprintf("unknown export format '%s' (perfetto, "
		    "csv, svg or html)", o->to_format);
		return -1;
	}
	if (o->fields != NULL || o->format == OUT_CSV) {
		*code = "usage";
		*cause = xasprintf("export writes every column: use --to csv, "
		    "not --format or --fields");
		return -1;
	}
	if (sel_open(&s, m, o, out, code, cause) != 0)
		return -1;
	memset(&e, 0, sizeof e);
	e.m = m;
	e.s = &s;
	e.fp = fp;
	e.first = 1;
	e.absolute = o->absolute;
	hmap_init(&e.used);
	rc = csv ? exp_csv(&e) : exp_perfetto(&e);
	if (e.nev == 0)
		out_warn(out, "no_match",
		    "no events match");
	if (e.noverlap > 0)
		out_warn(out, "events_overlap",
		    "%llu events overlap others on their thread or "
		    "stream without nesting; they went to overflow threads",
		    (unsigned long long)e.noverlap);
	if (fflush(fp) != 0 || ferror(fp)) {
		*code = "internal";
		*cause = xasprintf("write error: %s", strerror(errno));
		rc = -1;
	}
	sel_free(&s);
	hmap_free(&e.used);
	for (lv = 0; lv < EXPORT_LEVELS; lv++)
		free(e.lv[lv].end);
	free(e.gpu_pid);
	free(e.gpu_named);
	free(e.proc_pid);
	free(e.proc_named);
	return rc;
}

/* Whether event gid passes the verb's filters (figure callback). */
static int
export_keep(void *arg, uint32_t gid)
{
	struct sel	*s = arg;
	struct evref	 r = model_ev(s->m, gid);

	return sel_track(s, r.track) && sel_event(s, r.track, r.idx);
}

/* --to svg|html: the figure writer draws the window. */
static int
export_figure(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct model	*m = ctx->in->m;
	struct figreq		 rq;
	struct sel		 s;
	long long		 w, mx;
	int			 rc;

	w = vopt_int(ctx->v, ctx->nv, "--width", 1200);
	mx = vopt_int(ctx->v, ctx->nv, "--max-shapes", 200000);
	if (w < 16 || w > 100000) {
		*code = "usage";
		*cause = xasprintf("--width takes 16 to 100000 pixels");
		return -1;
	}
	if (mx < 0) {
		*code = "usage";
		*cause = xasprintf("--max-shapes takes a count (0: no limit)");
		return -1;
	}
	if (ctx->g == NULL || ctx->g->figure == NULL) {
		*code = "internal";
		*cause = xasprintf("this build has no figure writer");
		return -1;
	}
	if (sel_init(&s, m, ctx->o, cause) != 0) {
		*code = "usage";
		return -1;
	}
	memset(&rq, 0, sizeof rq);
	rq.t0 = s.t0 > m->origin_ns ? s.t0 : m->origin_ns;
	rq.t1 = s.t1 < m->end_ns ? s.t1 : m->end_ns;
	if (rq.t1 <= rq.t0) {
		if (sel_window_empty(&s))
			out_warn(out, "window_outside",
			    "the window lies outside the trace");
		rq.t1 = rq.t0 + 1;
	}
	rq.origin = m->origin_ns;
	rq.width = (int)w;
	rq.html = strcmp(ctx->o->to_format, "html") == 0;
	rq.detail = vopt_get(ctx->v, ctx->nv, "--detail") != NULL;
	rq.title = ctx->in->path;
	rq.keep = export_keep;
	rq.arg = &s;
	rq.max_shapes = (uint64_t)mx;
	rc = ctx->g->figure(m, &rq, stdout, cause);
	sel_free(&s);
	if (rc != 0) {
		*code = "usage";
		return -1;
	}
	if (rq.nbinned > 0)
		out_warn(out, "figure_binned",
		    "the window holds more than %llu events: %llu rows are "
		    "drawn per pixel column (narrow the window or raise "
		    "--max-shapes)", (unsigned long long)rq.max_shapes,
		    (unsigned long long)rq.nbinned);
	else if (rq.nshapes == 0)
		out_warn(out, "no_match", "no events match");
	if (fflush(stdout) != 0 || ferror(stdout)) {
		*code = "internal";
		*cause = xasprintf("write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int
export_main(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const cJSON	*w;
	const char	*to = ctx->o->to_format;
	int		 rc;

	if (to != NULL && (strcmp(to, "svg") == 0 || strcmp(to, "html") == 0))
		rc = export_figure(ctx, out, code, cause);
	else
		rc = cmd_export_run(ctx->in->m, ctx->o, stdout, out, code,
		    cause);
	if (rc != 0)
		return -1;
	/* The trace went to stdout; warnings go to stderr. */
	cJSON_ArrayForEach(w, out->warnings) {
		char *c = sanitize_dup(w->valuestring, 0);
		fprintf(stderr, "gpulens export: warning: %s\n", c);
		free(c);
	}
	return CMD_PRINTED;
}
