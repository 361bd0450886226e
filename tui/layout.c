/*
 * layout: groups and rows of the timeline. See layout.h for the order.
 *
 * layout_new() builds, once, the list of every row as if all groups were
 * expanded ("all"), the groups with their member tracks, and the NVTX depth
 * sub-lanes. Collapsing only recomputes the list of visible rows ("vis"),
 * a filter over "all" that hides rows below a collapsed group.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/layout.h"
#include "tui/layrank.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/*
 * Row id i of a lane: a depth sub-lane or a filtered lane keeps there the
 * event's index in its track's lane. src/model/lane.h's compact row ids are read
 * through lane_rowid(); a lane.h without it has one int64_t array.
 */
#ifdef LANE_NOROW
#define LAYOUT_ROWID(l, i)	lane_rowid((l), (i))
#else
#define LAYOUT_ROWID(l, i)	((l)->rowid[(i)])
#endif

static uint32_t
layout_add_group(struct layout *l, int kind, int level, uint32_t parent,
    uint32_t id)
{
	struct layout_group	*g;

	g = XAPPEND(l->groups, l->gcap, l->ngroups);
	g->kind = (uint8_t)kind;
	g->level = (uint8_t)level;
	g->parent = parent;
	g->id = id;
	g->first = l->nmembers;
	return (uint32_t)l->ngroups++;
}

static void
layout_add_member(struct layout *l, uint32_t g, uint32_t track)
{
	XGROW(l->members, l->mcap, l->nmembers + 1);
	l->members[l->nmembers++] = track;
	l->groups[g].n++;
}

static struct layout_row *
layout_add_row(struct layout *l, int kind, int level, uint32_t group)
{
	struct layout_row	*r;

	r = XAPPEND(l->all, l->allcap, l->nall++);
	r->kind = (uint8_t)kind;
	r->level = (uint8_t)level;
	r->group = group;
	r->track = NONE32;
	r->depth = -1;
	return r;
}

static void
layout_header(struct layout *l, uint32_t g)
{
	struct layout_row	*r;

	r = layout_add_row(l, LROW_GROUP, l->groups[g].level, g);
	memcpy(r->label, l->groups[g].label, sizeof r->label);
}

static void
layout_label_process(const struct model *m, uint32_t p, char *buf,
    size_t len)
{
	if (p == NONE32 || p >= m->nprocesses)
		snprintf(buf, len, "unknown process");
	else if (m->processes[p].name != 0)
		snprintf(buf, len, "pid %u %s", m->processes[p].pid,
		    model_str(m, m->processes[p].name));
	else
		snprintf(buf, len, "pid %u", m->processes[p].pid);
}

static const char *
layout_api_name(const struct model *m)
{
	switch (m->source) {
	case SOURCE_ROCPD:
	case SOURCE_RPD:
	case SOURCE_ROCPROF_JSON:
		return "HIP API";
	default:
		return "CUDA API";
	}
}

/* The label of a lane row of track t at depth d (-1: whole track). */
/* GPU-side tracks: a stream's work and its synchronization waits. */
static int
layout_is_gpu(int type)
{
	return type == TRACK_GPU || type == TRACK_SYNC;
}

/* A GPU's counter track (its metrics): a row under the GPU. */
static int
layout_is_gpu_counter(const struct model *m, uint32_t t)
{
	return m->tracks[t].type == TRACK_COUNTER &&
	    m->tracks[t].device < m->ndevices;
}

/* Tracks of the device groups (the rest are the processes'). */
static int
layout_in_device(const struct model *m, uint32_t t)
{
	return layout_is_gpu(m->tracks[t].type) ||
	    layout_is_gpu_counter(m, t);
}

static void
layout_label_track(const struct model *m, uint32_t t, int d, char *buf,
    size_t len)
{
	const struct track	*tr = &m->tracks[t];
	const struct stream	*s;
	char			 base[LAYOUT_LABEL];

	if (tr->name != 0)
		snprintf(base, sizeof base, "%s", model_str(m, tr->name));
	else {
		switch (tr->type) {
		case TRACK_GPU:
			if (tr->stream >= m->nstreams) {
				snprintf(base, sizeof base, "Stream ?");
				break;
			}
			s = &m->streams[tr->stream];
			if (s->name != 0)
				snprintf(base, sizeof base, "Stream %llu %s",
				    (unsigned long long)s->source_id,
				    model_str(m, s->name));
			else
				snprintf(base, sizeof base, "Stream %llu",
				    (unsigned long long)s->source_id);
			break;
		case TRACK_SYNC:
			if (tr->stream >= m->nstreams) {
				snprintf(base, sizeof base, "Sync ?");
				break;
			}
			snprintf(base, sizeof base, "Stream %llu sync",
			    (unsigned long long)m->streams[tr->stream].source_id);
			break;
		case TRACK_API:
			snprintf(base, sizeof base, "%s", layout_api_name(m));
			break;
		case TRACK_NVTX:
			if (tr->domain != 0 && tr->domain < m->ndomains &&
			    m->domains[tr->domain].name != 0)
				snprintf(base, sizeof base, "NVTX %s",
				    model_str(m, m->domains[tr->domain].name));
			else
				snprintf(base, sizeof base, "NVTX");
			break;
		case TRACK_OSRT:
			snprintf(base, sizeof base, "OS runtime");
			break;
		case TRACK_COUNTER:
			snprintf(base, sizeof base, "counter");
			break;
		default:
			snprintf(base, sizeof base, "other");
			break;
		}
	}
	if (d > 0)
		snprintf(buf, len, "%.60s +%d%s", base, d,
		    d == LAYOUT_MAX_DEPTH - 1 ? ".." : "");
	else
		snprintf(buf, len, "%s", base);
}

/* Whether track t is shown as one row per nesting depth. */
static int
layout_split(const struct model *m, size_t t)
{
	const struct lane	*l = &m->tracks[t].lane;

	return l->max_depth > 1 && l->depth != NULL;
}

/*
 * Builds the depth sub-lanes of a track with several depths and adds one
 * row per depth. subs has been sized beforehand, so pointers into it stay
 * valid.
 */
static void
layout_depth_rows(struct layout *l, uint32_t t, int level, uint32_t group)
{
	const struct model	*m = l->m;
	const struct lane	*src = &m->tracks[t].lane;
	struct layout_row	*r;
	struct lane		*sub;
	struct lane_event	 ev;
	size_t			 i, first = l->nsubs, count[LAYOUT_MAX_DEPTH];
	int			 d, nd = src->max_depth;

	if (nd > LAYOUT_MAX_DEPTH)
		nd = LAYOUT_MAX_DEPTH;
	memset(count, 0, sizeof count);
	for (i = 0; i < src->n; i++) {
		d = src->depth[i] < nd ? src->depth[i] : nd - 1;
		count[d]++;
	}
	for (d = 0; d < nd; d++) {
		sub = &l->subs[l->nsubs++];
		lane_init(sub);
		if (count[d] > 0)
			lane_reserve(sub, count[d]);
	}
	for (i = 0; i < src->n; i++) {
		d = src->depth[i] < nd ? src->depth[i] : nd - 1;
		ev.start = src->start[i];
		ev.end = src->end[i];
		ev.name = src->name[i];
		ev.kind = src->kind[i];
		ev.flags = src->flags[i];
		ev.rowid = (int64_t)i;
		ev.corr = src->corr[i];
		ev.aux = src->aux[i];
		lane_push(&l->subs[first + (size_t)d], &ev);
	}
	for (d = 0; d < nd; d++) {
		sub = &l->subs[first + (size_t)d];
		lane_finalize(sub);
		r = layout_add_row(l, LROW_LANE, level, group);
		r->track = t;
		r->depth = d;
		r->sub = 1;
		r->lane = sub;
		r->base = sub;
		r->base_sub = 1;
		layout_label_track(m, t, d, r->label, sizeof r->label);
	}
}

static void
layout_track_row(struct layout *l, uint32_t t, int level, uint32_t group)
{
	const struct track	*tr = &l->m->tracks[t];
	struct layout_row	*r;
	size_t			 i, first;
	int			 split = layout_split(l->m, t);

	/*
	 * A split GPU stream or NVTX track also gets its whole-track row,
	 * shown instead of the depth rows under LAYOUT_HIDE_OVERLAP.
	 */
	if (!split || tr->type == TRACK_GPU || tr->type == TRACK_NVTX) {
		r = layout_add_row(l, LROW_LANE, level, group);
		r->track = t;
		r->lane = &tr->lane;
		r->base = &tr->lane;
		r->overlap = split ? LOV_WHOLE : LOV_NONE;
		layout_label_track(l->m, t, -1, r->label, sizeof r->label);
	}
	if (split) {
		first = l->nall;
		layout_depth_rows(l, t, level, group);
		if (tr->type == TRACK_GPU || tr->type == TRACK_NVTX)
			for (i = first; i < l->nall; i++)
				l->all[i].overlap = LOV_DEPTH;
	}
}

/*
 * A GPU's counter track (NONE32: none) as one row of group g, never split
 * by depth: the timeline draws one counter of it as a sparkline. It is no
 * member of the group: its samples are no GPU work for the header row.
 */
static void
layout_counter_row(struct layout *l, uint32_t t, uint32_t g)
{
	struct layout_row	*r;

	if (t == NONE32)
		return;
	r = layout_add_row(l, LROW_LANE, 1, g);
	r->track = t;
	r->lane = &l->m->tracks[t].lane;
	r->base = r->lane;
	r->overlap = LOV_NONE;
	snprintf(r->label, sizeof r->label, "%s",
	    model_str(l->m, l->m->tracks[t].name));
}

static int
layout_dev_cmp(const void *a, const void *b, void *ctx)
{
	const struct model	*m = ctx;
	const struct device	*x, *y;
	uint32_t		 i = *(const uint32_t *)a;
	uint32_t		 j = *(const uint32_t *)b;

	x = &m->devices[i];
	y = &m->devices[j];
	if (x->source_id != y->source_id)
		return x->source_id < y->source_id ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The rank among the device's processes of track t's process. */
static uint32_t
layout_proc_rank(const struct model *m, const uint32_t *procs, size_t nprocs,
    const uint32_t *rank, uint32_t t)
{
	uint32_t	p = m->tracks[t].process;
	size_t		k;

	if (p < m->nprocesses)
		return rank[p];
	if (p == procs[rank[m->nprocesses]])
		return rank[m->nprocesses];
	for (k = 0; k < nprocs; k++)
		if (procs[k] == p)
			break;
	return (uint32_t)k;
}

/*
 * Device groups. The GPU tracks are bucketed by device once (bucket
 * ndevices: no known device), and a device's processes are numbered with
 * an array indexed by process (rank[] + 1, valid while stamp[] holds the
 * device's turn), so the work is O(tracks + devices + processes), never
 * tracks x devices or tracks x processes.
 */
static void
layout_gpu(struct layout *l)
{
	const struct model	*m = l->m;
	uint32_t		 d, t, g, pg, *procs, *order, *off, *trk, *fill;
	uint32_t		*stamp, *rank, *cnt, *sorted, b, pi, *ctr;
	size_t			 nprocs, i, k, np = m->nprocesses;
	const struct device	*dev;

	procs = xcalloc(m->ntracks + 1, sizeof *procs);
	/* Each GPU's counter track, drawn as a row under it (the last one
	 * wins; a trace has one per GPU). */
	ctr = xcalloc(m->ndevices + 1, sizeof *ctr);
	for (d = 0; d <= m->ndevices; d++)
		ctr[d] = NONE32;
	for (t = 0; t < m->ntracks; t++)
		if (layout_is_gpu_counter(m, t))
			ctr[m->tracks[t].device] = t;
	/* Devices by source id (GPU 0 first), then GPU tracks with no known
	 * device. */
	order = xcalloc(m->ndevices + 1, sizeof *order);
	for (d = 0; d < m->ndevices; d++)
		order[d] = d;
	sort_stable(order, m->ndevices, sizeof *order, layout_dev_cmp,
	    (void *)m);
	order[m->ndevices] = NONE32;
	off = xcalloc(m->ndevices + 2, sizeof *off);
	for (t = 0; t < m->ntracks; t++) {
		if (!layout_is_gpu(m->tracks[t].type))
			continue;
		b = m->tracks[t].device < m->ndevices ? m->tracks[t].device :
		    (uint32_t)m->ndevices;
		off[b + 1]++;
	}
	for (d = 0; d <= m->ndevices; d++)
		off[d + 1] += off[d];
	trk = xcalloc((size_t)off[m->ndevices + 1] + 1, sizeof *trk);
	sorted = xcalloc((size_t)off[m->ndevices + 1] + 1, sizeof *sorted);
	fill = xcalloc(m->ndevices + 2, sizeof *fill);
	for (t = 0; t < m->ntracks; t++) {
		if (!layout_is_gpu(m->tracks[t].type))
			continue;
		b = m->tracks[t].device < m->ndevices ? m->tracks[t].device :
		    (uint32_t)m->ndevices;
		trk[off[b] + fill[b]++] = t;
	}
	free(fill);
	/* Process slot np: NONE32 or unknown. */
	stamp = xcalloc(np + 2, sizeof *stamp);
	rank = xcalloc(np + 2, sizeof *rank);
	cnt = xcalloc(m->ntracks + 2, sizeof *cnt);
	for (d = 0; d <= m->ndevices; d++) {
		uint32_t want = order[d];

		b = want == NONE32 ? (uint32_t)m->ndevices : want;
		nprocs = 0;
		g = NONE32;
		for (i = off[b]; i < off[b + 1]; i++) {
			const struct track *tr;

			t = trk[i];
			tr = &m->tracks[t];
			if (g == NONE32) {
				g = layout_add_group(l, LG_DEVICE, 0, NONE32,
				    want);
				if (want == NONE32)
					snprintf(l->groups[g].label,
					    LAYOUT_LABEL, "GPU ?");
				else {
					dev = &m->devices[want];
					snprintf(l->groups[g].label,
					    LAYOUT_LABEL, "GPU %u%s%s",
					    dev->source_id,
					    dev->name != 0 ? " " : "",
					    model_str(m, dev->name));
				}
			}
			layout_add_member(l, g, t);
			pi = tr->process < np ? tr->process : (uint32_t)np;
			if (stamp[pi] != d + 1 || (pi == np &&
			    procs[rank[pi]] != tr->process)) {
				/* Unknown processes other than NONE32 are
				 * rare: those are found by a scan. */
				for (k = 0; pi == np && k < nprocs; k++)
					if (procs[k] == tr->process)
						break;
				if (pi != np || k == nprocs) {
					stamp[pi] = d + 1;
					rank[pi] = (uint32_t)nprocs;
					procs[nprocs++] = tr->process;
				}
			}
		}
		if (g == NONE32 && ctr[b] != NONE32) {
			g = layout_add_group(l, LG_DEVICE, 0, NONE32, want);
			dev = &m->devices[want];
			snprintf(l->groups[g].label, LAYOUT_LABEL, "GPU %u%s%s",
			    dev->source_id, dev->name != 0 ? " " : "",
			    model_str(m, dev->name));
		}
		if (g == NONE32)
			continue;
		layout_header(l, g);
		if (nprocs <= 1) {
			for (i = 0; i < l->groups[g].n; i++)
				layout_track_row(l,
				    l->members[l->groups[g].first + i], 1, g);
			layout_counter_row(l, ctr[b], g);
			continue;
		}
		/* Several processes share this device: one subgroup each,
		 * its members in track order (a counting sort by process
		 * rank). */
		{
			size_t first = l->groups[g].first, n = l->groups[g].n;

			for (k = 0; k <= nprocs; k++)
				cnt[k] = 0;
			for (i = 0; i < n; i++)
				cnt[layout_proc_rank(m, procs, nprocs, rank,
				    l->members[first + i]) + 1]++;
			for (k = 0; k < nprocs; k++)
				cnt[k + 1] += cnt[k];
			for (i = 0; i < n; i++) {
				t = l->members[first + i];
				sorted[cnt[layout_proc_rank(m, procs, nprocs,
				    rank, t)]++] = t;
			}
			for (k = 0, i = 0; k < nprocs; k++) {
				pg = layout_add_group(l, LG_DEVPROC, 1, g,
				    procs[k]);
				layout_label_process(m, procs[k],
				    l->groups[pg].label, LAYOUT_LABEL);
				for (; i < n && m->tracks[sorted[i]].process ==
				    procs[k]; i++)
					layout_add_member(l, pg, sorted[i]);
				layout_header(l, pg);
				for (t = 0; t < l->groups[pg].n; t++)
					layout_track_row(l, l->members[
					    l->groups[pg].first + t], 2, pg);
			}
		}
		layout_counter_row(l, ctr[b], g);
	}
	free(stamp);
	free(rank);
	free(cnt);
	free(sorted);
	free(off);
	free(trk);
	free(order);
	free(procs);
	free(ctr);
}

/* The CPU sample density row of model thread thr, if it was sampled. */
static void
layout_samples_row(struct layout *l, uint32_t thr, int level, uint32_t group)
{
	struct layout_row	*r;
	uint32_t		 h;

	if ((h = cpusamp_of_thread(&l->m->cs, thr)) == NONE32 ||
	    l->m->cs.th[h].n == 0)
		return;
	r = layout_add_row(l, LROW_SAMPLES, level, group);
	r->sthread = h;
	snprintf(r->label, sizeof r->label, "CPU samples");
}

/* CPU tracks are sorted by process and thread (model_finalize). */
static void
layout_cpu(struct layout *l)
{
	const struct model	*m = l->m;
	const struct track	*tr;
	uint32_t		 t, t2, pg, tg;
	const struct thread	*th;

	t = 0;
	while (t < m->ntracks) {
		tr = &m->tracks[t];
		if (layout_in_device(m, t)) {
			t++;
			continue;
		}
		pg = layout_add_group(l, LG_PROCESS, 0, NONE32, tr->process);
		layout_label_process(m, tr->process, l->groups[pg].label,
		    LAYOUT_LABEL);
		for (t2 = t; t2 < m->ntracks; t2++) {
			if (layout_in_device(m, t2))
				continue;
			if (m->tracks[t2].process != tr->process)
				break;
			layout_add_member(l, pg, t2);
		}
		layout_header(l, pg);
		/* Threads of this process, in track order. */
		while (t < t2) {
			uint32_t thr = m->tracks[t].thread, t3;

			if (layout_in_device(m, t)) {
				t++;
				continue;
			}
			if (thr == NONE32 || thr >= m->nthreads) {
				layout_track_row(l, t, 1, pg);
				t++;
				continue;
			}
			th = &m->threads[thr];
			tg = layout_add_group(l, LG_THREAD, 1, pg, thr);
			if (th->name != 0)
				snprintf(l->groups[tg].label, LAYOUT_LABEL,
				    "tid %u %s", th->tid,
				    model_str(m, th->name));
			else
				snprintf(l->groups[tg].label, LAYOUT_LABEL,
				    "tid %u", th->tid);
			for (t3 = t; t3 < t2 && (m->tracks[t3].thread == thr ||
			    layout_in_device(m, t3)); t3++)
				if (!layout_in_device(m, t3))
					layout_add_member(l, tg, t3);
			layout_header(l, tg);
			for (; t < t3; t++)
				if (!layout_in_device(m, t))
					layout_track_row(l, t, 2, tg);
			layout_samples_row(l, thr, 2, tg);
		}
		t = t2;
	}
}

/* Whether the overlap view hides row r (its other view is shown). */
static int
layout_overlap_hidden(const struct layout *l, const struct layout_row *r)
{
	int	whole = (l->hidden & LAYOUT_HIDE_OVERLAP) != 0;

	return (r->overlap == LOV_DEPTH && whole) ||
	    (r->overlap == LOV_WHOLE && !whole);
}

int
layout_row_hidden(const struct layout *l, const struct layout_row *r)
{
	if (r->kind != LROW_LANE)
		return 0;
	if (l->hidden & (1u << l->m->tracks[r->track].type))
		return 1;
	return layout_overlap_hidden(l, r);
}

/* A group whose every member track is of a hidden type. */
static int
layout_group_hidden(const struct layout *l, uint32_t g)
{
	size_t	i;

	if (l->hidden == 0 || l->groups[g].n == 0)
		return 0;
	for (i = 0; i < l->groups[g].n; i++)
		if (!(l->hidden & (1u << l->m->tracks[l->members[
		    l->groups[g].first + i]].type)))
			return 0;
	return 1;
}

static void
layout_refresh(struct layout *l)
{
	const struct layout_row	*r;
	uint32_t		 g;
	size_t			 i;
	int			 hidden;

	XGROW(l->vis, l->viscap, l->nall + 1);
	l->nvis = 0;
	for (i = 0; i < l->nall; i++) {
		r = &l->all[i];
		/* A header is hidden by its ancestors, a lane by its group. */
		g = r->kind == LROW_GROUP ? l->groups[r->group].parent :
		    r->group;
		hidden = r->kind == LROW_LANE && layout_row_hidden(l, r);
		if (r->kind == LROW_GROUP && layout_group_hidden(l, r->group))
			hidden = 1;
		for (; g != NONE32; g = l->groups[g].parent)
			if (l->groups[g].collapsed)
				hidden = 1;
		if (!hidden)
			l->vis[l->nvis++] = (uint32_t)i;
	}
}

struct layout *
layout_new(const struct model *m)
{
	struct layout	*l;
	size_t		 t, nsubs = 0;

	l = xcalloc(1, sizeof *l);
	l->m = m;
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *ln = &m->tracks[t].lane;

		if (layout_split(m, t))
			nsubs += ln->max_depth < LAYOUT_MAX_DEPTH ?
			    ln->max_depth : LAYOUT_MAX_DEPTH;
	}
	if (nsubs > 0)
		l->subs = xcalloc(nsubs, sizeof *l->subs);
	layout_gpu(l);
	layout_cpu(l);
	layrank_order(l);
	layout_refresh(l);
	return l;
}

void
layout_free(struct layout *l)
{
	size_t	i;

	if (l == NULL)
		return;
	for (i = 0; i < l->nsubs; i++)
		lane_free(&l->subs[i]);
	free(l->subs);
	if (l->filt != NULL) {
		for (i = 0; i < l->nall; i++)
			lane_free(&l->filt[i]);
		free(l->filt);
	}
	free(l->groups);
	free(l->members);
	free(l->all);
	free(l->vis);
	free(l);
}

size_t
layout_nrows(const struct layout *l)
{
	return l->nvis;
}

const struct layout_row *
layout_row(const struct layout *l, size_t i)
{
	return layout_all(l, layout_all_index(l, i));
}

int
layout_toggle(struct layout *l, size_t i)
{
	const struct layout_row	*r = layout_row(l, i);

	if (r == NULL || r->kind != LROW_GROUP)
		return 0;
	layout_set_collapsed(l, r->group, !l->groups[r->group].collapsed);
	return 1;
}

void
layout_set_collapsed(struct layout *l, uint32_t g, int c)
{
	if (g >= l->ngroups)
		return;
	l->groups[g].collapsed = c ? 1 : 0;
	layout_refresh(l);
}

const uint32_t *
layout_members(const struct layout *l, uint32_t g, size_t *n)
{
	if (g >= l->ngroups) {
		*n = 0;
		return NULL;
	}
	*n = l->groups[g].n;
	return l->members + l->groups[g].first;
}

uint32_t
layout_gid(const struct layout *l, const struct layout_row *r, size_t idx)
{
	if (r->kind != LROW_LANE || idx >= r->lane->n)
		return NONE32;
	if (r->sub)
		idx = (size_t)LAYOUT_ROWID(r->lane, idx);
	return model_gid(l->m, r->track, (uint32_t)idx);
}

size_t
layout_find(const struct layout *l, uint32_t gid)
{
	size_t	a = layout_find_all(l, gid);

	return a == (size_t)-1 ? a : layout_visible(l, a);
}

void
layout_collapse_all(struct layout *l, int c)
{
	size_t	g;

	for (g = 0; g < l->ngroups; g++)
		l->groups[g].collapsed = c ? 1 : 0;
	layout_refresh(l);
}

/* Fills f with the events of base at least ns long. */
static void
layout_filter_lane(struct lane *f, const struct lane *base, int base_sub,
    int64_t ns)
{
	struct lane_event	ev;
	size_t			i, n = 0;

	lane_init(f);
	for (i = 0; i < base->n; i++)
		if (base->end[i] - base->start[i] >= ns)
			n++;
	if (n == 0) {
		lane_finalize(f);
		return;
	}
	lane_reserve(f, n);
	for (i = 0; i < base->n; i++) {
		if (base->end[i] - base->start[i] < ns)
			continue;
		ev.start = base->start[i];
		ev.end = base->end[i];
		ev.name = base->name[i];
		ev.kind = base->kind[i];
		ev.flags = base->flags[i];
		ev.rowid = base_sub ? LAYOUT_ROWID(base, i) : (int64_t)i;
		ev.corr = base->corr[i];
		ev.aux = base->aux[i];
		lane_push(f, &ev);
	}
	lane_finalize(f);
}

uint64_t
layout_set_min_dur(struct layout *l, int64_t ns)
{
	struct layout_row	*r;
	uint64_t		 left = 0;
	size_t			 i;

	if (ns < 0)
		ns = 0;
	if (l->filt != NULL) {
		for (i = 0; i < l->nall; i++)
			lane_free(&l->filt[i]);
		free(l->filt);
		l->filt = NULL;
	}
	l->min_dur = ns;
	if (ns > 0 && l->nall > 0)
		l->filt = xcalloc(l->nall, sizeof *l->filt);
	for (i = 0; i < l->nall; i++) {
		r = &l->all[i];
		if (r->kind != LROW_LANE)
			continue;
		if (ns == 0) {
			r->lane = r->base;
			r->sub = r->base_sub;
		} else {
			layout_filter_lane(&l->filt[i], r->base, r->base_sub,
			    ns);
			r->lane = &l->filt[i];
			r->sub = 1;
		}
		/* A split track's events once: its depth rows hold them
		 * all, as does its whole row. */
		if (r->overlap != LOV_WHOLE)
			left += r->lane->n;
	}
	return left;
}

void
layout_set_hidden(struct layout *l, unsigned mask)
{
	l->hidden = mask;
	layout_refresh(l);
}

size_t
layout_nall(const struct layout *l)
{
	return l->nall;
}

const struct layout_row *
layout_all(const struct layout *l, size_t a)
{
	if (a >= l->nall)
		return NULL;
	return &l->all[a];
}

size_t
layout_visible(const struct layout *l, size_t a)
{
	size_t	lo;

	/* vis is ascending. */
	if (a > UINT32_MAX)
		return (size_t)-1;
	lo = lbound_u32(l->vis, l->nvis, (uint32_t)a);
	return lo < l->nvis && l->vis[lo] == a ? lo : (size_t)-1;
}

size_t
layout_all_index(const struct layout *l, size_t i)
{
	return i < l->nvis ? l->vis[i] : (size_t)-1;
}

size_t
layout_find_all(const struct layout *l, uint32_t gid)
{
	const struct layout_row	*r;
	struct evref		 ev;
	size_t			 i;
	int			 d = -1;

	if (gid == NONE32 || gid >= l->m->nevents)
		return (size_t)-1;
	ev = model_ev(l->m, gid);
	for (i = 0; i < l->nall; i++) {
		r = &l->all[i];
		if (r->kind != LROW_LANE || r->track != ev.track ||
		    layout_overlap_hidden(l, r))
			continue;
		if (!r->base_sub)
			return i;
		if (d < 0) {
			d = l->m->tracks[ev.track].lane.depth[ev.idx];
			if (d >= LAYOUT_MAX_DEPTH)
				d = LAYOUT_MAX_DEPTH - 1;
		}
		if (r->depth == d)
			return i;
	}
	return (size_t)-1;
}

size_t
layout_reveal(struct layout *l, size_t a)
{
	const struct layout_row	*r;
	uint32_t		 g;
	int			 changed = 0;

	if (a >= l->nall)
		return (size_t)-1;
	r = &l->all[a];
	if (r->kind == LROW_LANE && layout_row_hidden(l, r))
		return (size_t)-1;
	g = r->kind == LROW_GROUP ? l->groups[r->group].parent : r->group;
	for (; g != NONE32; g = l->groups[g].parent)
		if (l->groups[g].collapsed) {
			l->groups[g].collapsed = 0;
			changed = 1;
		}
	if (changed)
		layout_refresh(l);
	return layout_visible(l, a);
}

int64_t
layout_lane_index(const struct layout *l, const struct layout_row *r,
    uint32_t gid)
{
	const struct lane	*ln = r->lane;
	struct evref		 ev;
	size_t			 i;
	int64_t			 s;

	if (r->kind != LROW_LANE || gid >= l->m->nevents)
		return -1;
	ev = model_ev(l->m, gid);
	if (ev.track != r->track)
		return -1;
	if (!r->sub)
		return ev.idx < ln->n ? (int64_t)ev.idx : -1;
	/* Sub-lanes keep the track's order: find the start, then the id. */
	s = l->m->tracks[ev.track].lane.start[ev.idx];
	for (i = lane_lower(ln, s); i < ln->n && ln->start[i] == s; i++)
		if (LAYOUT_ROWID(ln, i) == (int64_t)ev.idx)
			return (int64_t)i;
	return -1;
}
