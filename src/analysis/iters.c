/*
 * iters: iteration detection (see iters.h for the rules); the marker is
 * chosen in iters-marker.c, the kernel-period fallback is iters-kernel.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/iters.h"
#include "analysis/iters-int.h"
#include "model/iset.h"
#include "model/lane.h"
#include "model/nvtxfam.h"
#include "util/sort.h"
#include "util/xmalloc.h"

void
iters_sel_init(struct iters_sel *s)
{
	memset(s, 0, sizeof *s);
	s->process = NONE32;
	s->rank = -1;
	s->device = NONE32;
}

void
iters_free(struct iters *it)
{
	free(it->marker);
	free(it->v);
	free(it->proc);
	memset(it, 0, sizeof *it);
}

const struct iters_proc *
iters_of(const struct iters *it, uint32_t p)
{
	size_t	i;

	for (i = 0; i < it->nproc; i++)
		if (it->proc[i].process == p)
			return &it->proc[i];
	return NULL;
}

static int
iter_cmp(const void *a, const void *b)
{
	const struct iter	*x = a, *y = b;

	return sort_lex3(x->process, y->process, x->start, y->start, x->end,
	    y->end);
}

void
iters_add(struct iters *it, size_t *cap, uint32_t process, uint32_t range,
    uint32_t name, int64_t start, int64_t end)
{
	struct iter	*v;

	v = XAPPEND(it->v, *cap, it->n++);
	v->process = process;
	v->range = range;
	v->name = name;
	v->start = start;
	v->end = end;
}

/* Every range named spec, or of family spec (--range); whether a name
 * matches is worked out once per string id (memo: 0 not yet, 1 no, 2
 * yes). */
static void
iters_from_range(const struct model *m, struct iters *it, size_t *cap,
    const char *spec)
{
	size_t		 t, i, ns = strpool_count(m->strs);
	uint8_t		*memo = xcalloc(ns + 1, 1), v;
	uint32_t	 id;
	const struct track *tr;

	for (t = 0; (tr = model_track_next(m, TRACK_NVTX, &t)) != NULL; t++) {
		const struct lane *l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_NVTX)
				continue;
			id = l->name[i];
			v = id < ns ? memo[id] : 0;
			if (v == 0) {
				v = nvtx_family_match(model_str(m, id),
				    spec) ? 2 : 1;
				if (id < ns)
					memo[id] = v;
			}
			if (v != 2)
				continue;
			iters_add(it, cap, tr->process, model_gid(m,
			    (uint32_t)t, (uint32_t)i), id, l->start[i],
			    l->end[i]);
		}
	}
	free(memo);
}

int
iters_rank_map(const struct model *m, int32_t *rank)
{
	uint8_t	*gpu;
	size_t	 p, i;
	int	 any = 0, anygpu = 0;
	int32_t	 next = 0;

	for (p = 0; p < m->nprocesses; p++) {
		rank[p] = m->processes[p].rank;
		if (rank[p] >= 0)
			any = 1;
	}
	if (any)
		return 0;
	gpu = xcalloc(m->nprocesses + 1, 1);
	for (i = 0; i < m->nstreams; i++)
		if (m->streams[i].process < m->nprocesses)
			gpu[m->streams[i].process] = anygpu = 1;
	for (p = 0; p < m->nprocesses; p++)
		rank[p] = !anygpu || gpu[p] ? next++ : -1;
	free(gpu);
	return 1;
}

/* Does process p (index or NONE32) pass the selection? */
static int
iters_want(const struct model *m, const struct iters_sel *s, uint32_t p,
    const uint8_t *uses, const int32_t *rank)
{
	if (s->process != NONE32 && p != s->process)
		return 0;
	if (s->rank >= 0 && (p >= m->nprocesses || rank[p] != s->rank))
		return 0;
	if (s->device != NONE32 && !uses[p < m->nprocesses ? p :
	    m->nprocesses])
		return 0;
	return 1;
}

/* Counts the kernels, copies and memsets among n event kinds. */
static void
iters_kinds(struct iter *v, const uint8_t *kind, size_t n)
{
	size_t	j, nk = 0, nc = 0, ns = 0;

	/* Sums of comparisons, not a switch: no branch per event, and a
	 * loop the compiler can vectorise over a run of kinds. */
	for (j = 0; j < n; j++) {
		nk += kind[j] == EV_KERNEL;
		nc += kind[j] == EV_MEMCPY;
		ns += kind[j] == EV_MEMSET;
	}
	v->kernels += nk;
	v->copies += nc;
	v->memsets += ns;
}

/*
 * GPU busy and kernel, copy and memset counts of each iteration over its
 * process's GPUs (or the selected one). The GPU tracks are bucketed by
 * process once (bucket nprocesses holds those of no known process), so
 * an iteration reads only its process's tracks and the devices they use.
 * An iteration of no process (NONE32) reads every GPU track.
 */
void
iters_measure(const struct model *m, struct iters *it, uint32_t only_dev)
{
	size_t		 i, t, k, k0, k1, np = m->nprocesses, ndev, n, j,
			 icap = 0;
	uint32_t	*off, *trk, *fill, *stamp, *dev, p, *idx = NULL;

	off = xcalloc(np + 3, sizeof *off);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device >= m->ndevices)
			continue;
		off[(tr->process < np ? tr->process : np) + 1]++;
	}
	for (k = 0; k <= np; k++)
		off[k + 1] += off[k];
	trk = xcalloc((size_t)off[np + 1] + 1, sizeof *trk);
	fill = xcalloc(np + 2, sizeof *fill);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device >= m->ndevices)
			continue;
		p = tr->process < np ? tr->process : (uint32_t)np;
		trk[off[p] + fill[p]++] = (uint32_t)t;
	}
	free(fill);
	/* stamp[d]: 1 + the last iteration that used device d. */
	stamp = xcalloc(m->ndevices + 1, sizeof *stamp);
	dev = xcalloc(m->ndevices + 1, sizeof *dev);
	for (i = 0; i < it->n; i++) {
		struct iter *v = &it->v[i];
		if (v->process == NONE32) {
			k0 = 0;
			k1 = off[np + 1];
		} else {
			p = v->process < np ? v->process : (uint32_t)np;
			k0 = off[p];
			k1 = off[p + 1];
		}
		ndev = 0;
		for (k = k0; k < k1; k++) {
			const struct track *tr = &m->tracks[trk[k]];
			const struct lane *l = &tr->lane;
			if (v->process != NONE32 && tr->process != v->process)
				continue;
			if (only_dev != NONE32 && tr->device != only_dev)
				continue;
			if (stamp[tr->device] != (uint32_t)i + 1) {
				stamp[tr->device] = (uint32_t)i + 1;
				dev[ndev++] = tr->device;
				v->ndevices++;
			}
			if (!l->overlaps) {
				/* Serial: the events overlapping are a run. */
				n = lane_run(l, v->start, v->end, &j);
				iters_kinds(v, l->kind + j, n);
				continue;
			}
			n = lane_overlap(l, v->start, v->end, &idx, &icap);
			for (j = 0; j < n; j++)
				iters_kinds(v, &l->kind[idx[j]], 1);
		}
		if (m->device_cov == NULL)
			continue;
		/* In device order, as the sums always were. */
		if (ndev > 1)
			qsort(dev, ndev, sizeof *dev, sort_cmp_u32);
		for (k = 0; k < ndev; k++)
			v->gpu_busy = sat_add64(v->gpu_busy,
			    iset_measure(&m->device_cov[dev[k]], v->start,
			    v->end));
	}
	free(idx);
	free(stamp);
	free(dev);
	free(off);
	free(trk);
}

/* Per process: its iterations, index and marker; the trace's marker is
 * that of the process with the most (ties: the first). */
static void
iters_index(const struct model *m, struct iters *it)
{
	size_t	i, j, cap = 0, bestn = 0;
	uint32_t bestname = 0;

	for (i = 0; i < it->n; i = j) {
		struct iters_proc *pp;
		for (j = i; j < it->n && it->v[j].process == it->v[i].process;
		    j++)
			it->v[j].index = (uint32_t)(j - i);
		XGROW(it->proc, cap, it->nproc + 1);
		pp = &it->proc[it->nproc++];
		pp->process = it->v[i].process;
		pp->first = i;
		pp->n = j - i;
		pp->marker = it->v[i].name;
		if (j - i > bestn) {
			bestn = j - i;
			bestname = it->v[i].name;
		}
	}
	if (it->marker == NULL && it->n > 0)
		it->marker = xstrdup(model_str(m, bestname));
}

int
iters_select(const struct model *m, const struct iters_sel *s,
    struct iters *it, char **cause)
{
	size_t		 cap = 0, i, q, t, np = m->nprocesses;
	uint8_t		*want, *uses;
	int32_t		*rank;

	memset(it, 0, sizeof *it);
	rank = xcalloc(np + 1, sizeof *rank);
	iters_rank_map(m, rank);
	uses = xcalloc(np + 1, 1);
	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type == TRACK_GPU && tr->device == s->device)
			uses[tr->process < np ? tr->process : np] = 1;
	}
	if (s->range != NULL) {
		iters_from_range(m, it, &cap, s->range);
		if (it->n == 0) {
			*cause = xasprintf("no NVTX range named '%s'",
			    s->range);
			free(uses);
			free(rank);
			return -1;
		}
		it->marker = xstrdup(s->range);
		it->method = ITERS_NVTX;
	} else if ((it->marker = iters_marker_pick(m, it, &cap)) != NULL) {
		it->method = ITERS_NVTX;
	} else {
		want = xcalloc(np + 1, 1);
		for (i = 0; i <= np; i++)
			want[i] = (uint8_t)iters_want(m, s, i < np ?
			    (uint32_t)i : NONE32, uses, rank);
		iters_from_kernels(m, want, it, &cap);
		free(want);
		it->method = it->n > 0 ? ITERS_KERNEL : ITERS_NONE;
	}
	/* The selection. */
	for (i = q = 0; i < it->n; i++)
		if (iters_want(m, s, it->v[i].process, uses, rank))
			it->v[q++] = it->v[i];
	it->n = q;
	free(uses);
	free(rank);
	if (it->n > 1)
		qsort(it->v, it->n, sizeof *it->v, iter_cmp);
	iters_index(m, it);
	return 0;
}

int
iters_find(const struct model *m, const char *range, struct iters *it,
    char **cause)
{
	struct iters_sel	s;

	iters_sel_init(&s);
	s.range = range;
	return iters_select(m, &s, it, cause);
}
