/*
 * model: finalization (ordering, indexing, linking) and accessors.
 *
 * model_finalize() is the single place where a loaded model becomes
 * immutable: it closes open ranges at the trace end, orders the tracks
 * (GPU streams by device and stream id, then CPU tracks by process, thread,
 * type and domain), finalizes every lane, assigns global event ids, and
 * builds the NVTX tree, the CPU-GPU correlation and the per-device busy
 * coverage. It is idempotent.
 *
 * model_adopt() is its counterpart for a model restored from the cache,
 * which stores every index: it numbers the events and adopts each lane's
 * stored index (lane_adopt), so a warm load sorts and rebuilds nothing.
 */
#include "config.h"

#include <sys/mman.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "model/model.h"
#include "model/nvtx.h"
#include "util/lbound.h"
#include "util/nametab.h"
#include "util/pool.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *ev_kind_names[] = {
	"none",
#define X(e, s, h) s,
	EV_KIND_LIST(X)
#undef X
};

static const char *track_type_names[] = {
	"gpu", "api", "nvtx", "osrt", "counter", "other", "sync"
};

static const char *copy_kind_names[] = {
#define X(e, s, l) s,
	COPY_KIND_LIST(X)
#undef X
};
static const char *copy_kind_labels[] = {
#define X(e, s, l) l,
	COPY_KIND_LIST(X)
#undef X
};
static const char *mem_kind_names[] = {
#define X(e, s, l) s,
	MEM_KIND_LIST(X)
#undef X
};
static const char *mem_kind_labels[] = {
#define X(e, s, l) l,
	MEM_KIND_LIST(X)
#undef X
};
static const char *source_kind_names[] = {
	"unknown",
#define X(e, s, h) s,
	SOURCE_KIND_LIST(X)
#undef X
};

const char *
ev_kind_name(int k)
{
	return NAMETAB(ev_kind_names, k, "unknown");
}

int
ev_kind_parse(const char *s)
{
	int	k = NAMETAB_FIND(ev_kind_names, s);

	return k > EV_NONE ? k : -1;	/* "none" is no kind to ask for */
}

const char *
track_type_name(int t)
{
	return NAMETAB(track_type_names, t, "unknown");
}

const char *
copy_kind_name(int k)
{
	return NAMETAB(copy_kind_names, k, "unknown");
}

const char *
copy_kind_label(int k)
{
	return NAMETAB(copy_kind_labels, k, "Unknown");
}

const char *
mem_kind_name(int k)
{
	return NAMETAB(mem_kind_names, k, "unknown");
}

const char *
mem_kind_label(int k)
{
	return NAMETAB(mem_kind_labels, k, "Unknown");
}

const char *
source_kind_name(int k)
{
	return NAMETAB(source_kind_names, k, "unknown");
}

/* Whether p points into the model's mapping. */
#define MODEL_MAPPED(m, p)						\
	((uintptr_t)(p) >= (uintptr_t)(m)->map &&			\
	(uintptr_t)(p) < (uintptr_t)(m)->map + (m)->maplen)
#define MODEL_UNBIND(m, p) do {						\
	if (MODEL_MAPPED(m, p))						\
		(p) = NULL;						\
} while (0)

/*
 * The arrays of a model, besides its lanes' and call-chain samples' (m->cs,
 * see cpusamp_array()): the first MODEL_NMAPPED are those a cache's mapping
 * may hold, which model_unbind() forgets when they point into it;
 * model_free() frees them all.
 */
static const size_t model_arrays[] = {
	offsetof(struct model, kernels),
	offsetof(struct model, copies),
	offsetof(struct model, nvtx),
	offsetof(struct model, counters),
	offsetof(struct model, ops),
	offsetof(struct model, sched_threads),
	offsetof(struct model, sched_runs),
	offsetof(struct model, launch),
	offsetof(struct model, gpu_of_api),
	offsetof(struct model, gpu_of_api_idx),
	offsetof(struct model, devices),
	offsetof(struct model, processes),
	offsetof(struct model, threads),
	offsetof(struct model, streams),
	offsetof(struct model, domains),
	offsetof(struct model, tracks),
	offsetof(struct model, track_off),
	offsetof(struct model, nvtx_off),
	offsetof(struct model, nvtx_trk),
	offsetof(struct model, meta),
};
#define MODEL_NMAPPED	10
#define MODEL_NARRAYS	(sizeof model_arrays / sizeof model_arrays[0])

/* Forgets the arrays that point into the model's mapping (the mapping
 * goes as a whole), so that freeing frees only the others. */
static void
model_unbind(struct model *m)
{
	struct lane	*l;
	struct iset	*dc;
	size_t		 i, k;

	for (i = 0; i < m->ntracks; i++) {
		l = &m->tracks[i].lane;
		for (k = 0; k < LANE_NMAPPED; k++)
			MODEL_UNBIND(m, LANE_ARRAY(l, k));
		MODEL_UNBIND(m, l->cov.start);
		MODEL_UNBIND(m, l->cov.end);
		MODEL_UNBIND(m, l->cov.pre);
	}
	for (i = 0; m->device_cov != NULL && i < m->ndevices; i++) {
		dc = &m->device_cov[i];
		MODEL_UNBIND(m, dc->start);
		MODEL_UNBIND(m, dc->end);
		MODEL_UNBIND(m, dc->pre);
	}
	for (i = 0; i < MODEL_NMAPPED; i++)
		MODEL_UNBIND(m, XARRAY_AT(m, model_arrays[i]));
	for (i = 0; i < CPUSAMP_NARRAYS; i++)
		MODEL_UNBIND(m, *cpusamp_array(&m->cs, i));
}

void
model_free(struct model *m)
{
	size_t	i;

	if (m == NULL)
		return;
	if (m->map != NULL)
		model_unbind(m);
	for (i = 0; i < m->ntracks; i++)
		lane_free(&m->tracks[i].lane);
	if (m->device_cov != NULL) {
		for (i = 0; i < m->ndevices; i++)
			iset_free(&m->device_cov[i]);
		free(m->device_cov);
	}
	xfree_strv(m->warnings, m->nwarnings);
	for (i = 0; i < MODEL_NARRAYS; i++)
		free(XARRAY_AT(m, model_arrays[i]));
	cpusamp_free(&m->cs);
	strpool_free(m->strs);
	if (m->map != NULL)
		munmap(m->map, m->maplen);
	free(m);
}

void
model_vwarn(struct model *m, const char *fmt, va_list ap)
{
	if (m->nwarnings >= 1000)
		return;		/* a broken file must not flood the output */
	m->warnings = xreallocarray(m->warnings, m->nwarnings + 1,
	    sizeof *m->warnings);
	m->warnings[m->nwarnings++] = xvasprintf(fmt, ap);
}

void
model_warn(struct model *m, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	model_vwarn(m, fmt, ap);
	va_end(ap);
}

const char *
model_meta(const struct model *m, const char *key)
{
	size_t	i;

	for (i = 0; i < m->nmeta; i++)
		if (strcmp(strpool_get(m->strs, m->meta[i].key), key) == 0)
			return strpool_get(m->strs, m->meta[i].value);
	return NULL;
}

void
model_set_meta(struct model *m, size_t *cap, const char *key,
    const char *value)
{
	struct meta	 e;
	size_t		 i;

	e.key = strpool_intern0(m->strs, key);
	e.value = strpool_intern0(m->strs, value);
	for (i = 0; i < m->nmeta; i++)
		if (m->meta[i].key == e.key) {
			m->meta[i].value = e.value;
			return;
		}
	XPUSH(m->meta, *cap, m->nmeta, e);
}

const char *
model_host(const struct model *m, uint32_t p)
{
	static const char *const keys[] = { "Hostname", "hostname", "host" };
	const char	*h;
	size_t		 i;

	if (p < m->nprocesses && m->processes[p].host != 0 &&
	    *(h = model_str(m, m->processes[p].host)) != '\0')
		return h;
	if (p >= m->nprocesses || model_meta(m, "ranks") != NULL)
		return NULL;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if ((h = model_meta(m, keys[i])) != NULL && *h != '\0')
			return h;
	return NULL;
}

uint8_t *
model_devices_used(const struct model *m)
{
	uint8_t	*used;
	size_t	 i;

	used = xcalloc(m->ndevices + 1, 1);
	for (i = 0; i < m->nstreams; i++)
		if (m->streams[i].device < m->ndevices)
			used[m->streams[i].device] = 1;
	for (i = 0; i < m->ntracks; i++)
		if (m->tracks[i].device < m->ndevices)
			used[m->tracks[i].device] = 1;
	return used;
}

const char *
model_str(const struct model *m, uint32_t sid)
{
	return strpool_get(m->strs, sid);
}

struct evref
model_ev_near(const struct model *m, uint32_t gid, uint32_t *track)
{
	struct evref	r;

	if (*track < m->ntracks && gid >= m->track_off[*track] &&
	    gid < m->track_off[*track + 1]) {
		r.track = *track;
		r.idx = gid - m->track_off[*track];
		return r;
	}
	r = model_ev(m, gid);
	*track = r.track;
	return r;
}

struct evref
model_ev(const struct model *m, uint32_t gid)
{
	struct evref	r;
	size_t		lo;

	/* Last track whose base is <= gid (skipping empty tracks). */
	lo = lbound_u32_above(m->track_off, m->ntracks, gid);
	lo = lo > 0 ? lo - 1 : 0;
	r.track = (uint32_t)lo;
	r.idx = gid - m->track_off[lo];
	return r;
}

int64_t
model_ev_start(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return m->tracks[r.track].lane.start[r.idx];
}

int
model_gid_cmp_start(const void *a, const void *b, void *ctx)
{
	const struct model	*m = ctx;
	uint32_t		 x = *(const uint32_t *)a;
	uint32_t		 y = *(const uint32_t *)b;
	int64_t			 sx = model_ev_start(m, x);
	int64_t			 sy = model_ev_start(m, y);

	return sort_lex2(sx, sy, x, y);
}

int64_t
model_ev_end(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return m->tracks[r.track].lane.end[r.idx];
}

int
model_ev_kind(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return m->tracks[r.track].lane.kind[r.idx];
}

uint32_t
model_ev_name(const struct model *m, uint32_t gid)
{
	struct evref	r = model_ev(m, gid);

	return m->tracks[r.track].lane.name[r.idx];
}

void
model_count_kinds(const struct model *m, uint64_t *counts)
{
	size_t	t, i;

	memset(counts, 0, sizeof *counts * EV_KIND_COUNT);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] < EV_KIND_COUNT)
				counts[l->kind[i]]++;
	}
}

/* Track order: GPU first (device, stream id), then CPU (process, thread,
 * type, domain). Ties keep creation order. */
static int
track_cmp(const void *a, const void *b, void *ctx)
{
	const struct track	*x = a, *y = b;
	const struct model	*m = ctx;
	int			 gx = x->type == TRACK_GPU || x->type == TRACK_SYNC;
	int			 gy = y->type == TRACK_GPU || y->type == TRACK_SYNC;

#define CMP(p, q) do { if ((p) != (q)) return (p) < (q) ? -1 : 1; } while (0)
	CMP(!gx, !gy);
	if (gx) {
		CMP(x->device, y->device);
		CMP(m->streams[x->stream].source_id,
		    m->streams[y->stream].source_id);
		CMP(x->stream, y->stream);
		CMP(x->type, y->type);	/* a stream's sync row after it */
		return 0;
	}
	CMP(x->process, y->process);
	if (x->thread != NONE32 && y->thread != NONE32) {
		CMP(m->threads[x->thread].tid, m->threads[y->thread].tid);
	}
	CMP(x->thread, y->thread);
	/* NVTX above API above OSRT within a thread. */
	{
		static const int order[TRACK_TYPE_COUNT] = { 0, 2, 1, 3, 4, 5,
		    6 };
		CMP(order[x->type], order[y->type]);
	}
	CMP(x->domain, y->domain);
#undef CMP
	return 0;
}

uint64_t
model_copy_bytes(const struct model *m)
{
	const struct lane	*l;
	uint64_t		 b = 0, x;
	size_t			 t, i;

	for (t = 0; t < m->ntracks; t++) {
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if ((l->kind[i] != EV_MEMCPY &&
			    l->kind[i] != EV_MEMSET) || l->aux[i] >= m->ncopies)
				continue;
			x = m->copies[l->aux[i]].bytes;
			if (x > (uint64_t)MODEL_BYTESUM_MAX - b)
				return UINT64_MAX;
			b += x;
		}
	}
	return b;
}

/* Closes open ranges at the trace end and clamps end < start; returns the
 * sum of all durations, saturated at INT64_MAX. */
static int64_t
model_close_open_ranges(struct model *m)
{
	size_t	t, i;
	int64_t	sum = 0;

	for (t = 0; t < m->ntracks; t++) {
		struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if ((l->flags[i] & EVF_OPEN) && l->end[i] < m->end_ns)
				l->end[i] = m->end_ns;
			if (l->end[i] < l->start[i]) {
				l->end[i] = l->start[i];
				l->flags[i] |= EVF_ENDCLAMP;
			}
			sum = sat_add64(sum, l->end[i] - l->start[i]);
		}
	}
	return sum;
}

static void
model_span(struct model *m)
{
	size_t	t, i;
	int	any = 0;

	for (t = 0; t < m->ntracks; t++) {
		struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			int64_t s = l->start[i];
			int64_t e = (l->flags[i] & EVF_OPEN) ? s : l->end[i];
			if (e < s)
				e = s;
			if (!any || s < m->origin_ns)
				m->origin_ns = s;
			if (!any || e > m->end_ns)
				m->end_ns = e;
			any = 1;
		}
	}
	if (!any)
		m->origin_ns = m->end_ns = 0;
}

int
model_track_holds(const struct track *tr, int kind)
{
	switch (kind) {
	case EV_KERNEL: case EV_MEMCPY: case EV_MEMSET: case EV_GRAPH:
		return tr->type == TRACK_GPU;
	case EV_SYNC:
		return tr->type == TRACK_SYNC;
	case EV_API:
		return tr->type == TRACK_API;
	case EV_OSRT:
		return tr->type == TRACK_OSRT;
	case EV_NVTX: case EV_MARK:
		return tr->type == TRACK_NVTX;
	default:
		return 1;
	}
}

const struct track *
model_track_next(const struct model *m, int type, size_t *t)
{
	for (; *t < m->ntracks; (*t)++)
		if ((int)m->tracks[*t].type == type)
			return &m->tracks[*t];
	return NULL;
}

/* The key of track t in model_tracks_by(), or nkeys to leave it out. */
static size_t
model_track_key(const struct model *m, size_t t, int type, int flags,
    size_t nkeys)
{
	const struct track	*tr = &m->tracks[t];
	size_t			 key;

	key = (flags & MODEL_BY_THREAD) ? tr->thread : tr->device;
	if ((int)tr->type != type || key >= nkeys ||
	    ((flags & MODEL_BY_EVENTS) && tr->lane.n == 0))
		return nkeys;
	return key;
}

void
model_tracks_by(const struct model *m, int type, int flags,
    uint32_t **offp, uint32_t **idxp)
{
	uint32_t	*off, *idx, *fill;
	size_t		 t, k, key;
	size_t		 nkeys = (flags & MODEL_BY_THREAD) ? m->nthreads :
			    m->ndevices;

	off = xcalloc(nkeys + 2, sizeof *off);
	for (t = 0; t < m->ntracks; t++)
		if ((key = model_track_key(m, t, type, flags, nkeys)) < nkeys)
			off[key + 1]++;
	for (k = 0; k < nkeys; k++)
		off[k + 1] += off[k];
	idx = xcalloc((size_t)off[nkeys] + 1, sizeof *idx);
	fill = xcalloc(nkeys + 1, sizeof *fill);
	for (t = 0; t < m->ntracks; t++)
		if ((key = model_track_key(m, t, type, flags, nkeys)) < nkeys)
			idx[off[key] + fill[key]++] = (uint32_t)t;
	free(fill);
	*offp = off;
	*idxp = idx;
}

void
model_device_tracks(const struct model *m, uint32_t **offp, uint32_t **idxp)
{
	model_tracks_by(m, TRACK_GPU, 0, offp, idxp);
}

/* The NVTX tracks of every thread (m->nvtx_off, m->nvtx_trk). */
static void
model_thread_nvtx(struct model *m)
{
	free(m->nvtx_off);
	free(m->nvtx_trk);
	model_tracks_by(m, TRACK_NVTX, MODEL_BY_THREAD, &m->nvtx_off,
	    &m->nvtx_trk);
}

size_t
model_thread_nvtx_begin(const struct model *m, uint32_t thread)
{
	return m->nvtx_off != NULL && thread < m->nthreads ?
	    m->nvtx_off[thread] : 0;
}

uint32_t
model_thread_nvtx_next(const struct model *m, uint32_t thread, size_t *k)
{
	int		 indexed = m->nvtx_off != NULL && thread < m->nthreads;
	size_t		 end = indexed ? m->nvtx_off[thread + 1] : m->ntracks;
	const struct track *tr;
	uint32_t	 u;

	while (*k < end) {
		u = indexed ? m->nvtx_trk[*k] : (uint32_t)*k;
		(*k)++;
		tr = &m->tracks[u];
		if (tr->type == TRACK_NVTX && tr->thread == thread &&
		    tr->lane.n > 0)
			return u;
	}
	return NONE32;
}

/* Which devices ran GPU work on some stream (struct device.used). */
static void
model_device_used(struct model *m)
{
	const struct track	*tr;
	size_t			 d, t, i;

	for (d = 0; d < m->ndevices; d++)
		m->devices[d].used = 0;
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device >= m->ndevices ||
		    m->devices[tr->device].used)
			continue;
		for (i = 0; i < tr->lane.n; i++)
			if (ev_kind_work(tr->lane.kind[i])) {
				m->devices[tr->device].used = 1;
				break;
			}
	}
}

/* Per device, the union of its GPU tracks' coverage: O(tracks + devices)
 * plus the unions. */
static void
model_device_coverage(struct model *m)
{
	const struct iset	**in;
	uint32_t		 *off, *idx;
	size_t			  d, k, n;

	if (m->device_cov != NULL) {
		for (d = 0; d < m->ndevices; d++)
			iset_free(&m->device_cov[d]);
		free(m->device_cov);
		m->device_cov = NULL;
	}
	if (m->ndevices == 0)
		return;
	m->device_cov = xcalloc(m->ndevices, sizeof *m->device_cov);
	model_device_tracks(m, &off, &idx);
	in = xcalloc(m->ntracks + 1, sizeof *in);
	for (d = 0; d < m->ndevices; d++) {
		n = 0;
		for (k = off[d]; k < off[d + 1]; k++)
			in[n++] = &m->tracks[idx[k]].lane.cov;
		iset_union_many(&m->device_cov[d], in, n);
		/* Sums every 64 segments, as a lane's own coverage: the
		 * union is about as long as the device's busiest stream. */
		m->device_cov[d].shift = ISET_SHIFT;
		iset_index(&m->device_cov[d]);
	}
	free(in);
	free(off);
	free(idx);
}

/* Global id bases from the lane lengths (lane_n[t] instead when not
 * NULL); -1 with *cause past 32 bits. */
static int
model_number(struct model *m, const uint64_t *lane_n, char **cause)
{
	size_t		t;
	uint64_t	total = 0;

	free(m->track_off);
	m->track_off = xcalloc(m->ntracks + 1, sizeof *m->track_off);
	for (t = 0; t < m->ntracks; t++) {
		m->track_off[t] = (uint32_t)total;
		total += lane_n != NULL ? lane_n[t] : m->tracks[t].lane.n;
		if (total >= NONE32) {
			if (cause != NULL)
				*cause = xasprintf("too many events (%llu): "
				    "at most %u are supported",
				    (unsigned long long)total, NONE32 - 1);
			return -1;
		}
	}
	m->track_off[m->ntracks] = (uint32_t)total;
	m->nevents = total;
	return 0;
}

static void
model_default_domain(struct model *m)
{
	if (m->ndomains == 0) {
		m->domains = xcalloc(1, sizeof *m->domains);
		m->domains[0].process = NONE32;
		m->ndomains = 1;
	}
}

/* Below this many events, the lanes are finalized in the calling thread. */
#define MODEL_FINALIZE_SERIAL	65536

static int
model_finalize_lane(void *arg, size_t job, unsigned tid, char **cause)
{
	struct model	*m = arg;

	(void)tid;
	(void)cause;
	lane_finalize(&m->tracks[job].lane);
	return 0;
}

/*
 * Sorts and indexes every lane: each on its own, so on pool_threads()
 * threads for a big model (GPULENS_THREADS); the result does not depend
 * on the threads.
 */
static void
model_finalize_lanes(struct model *m)
{
	size_t	t, n = 0;

	for (t = 0; t < m->ntracks; t++)
		n += m->tracks[t].lane.n;
	if (n < MODEL_FINALIZE_SERIAL || m->ntracks < 2) {
		for (t = 0; t < m->ntracks; t++)
			lane_finalize(&m->tracks[t].lane);
		return;
	}
	(void)pool_run(m->ntracks, pool_threads(), model_finalize_lane, m,
	    NULL);
}

int
model_finalize(struct model *m, char **cause)
{
	model_default_domain(m);
	model_span(m);
	if (!model_span_ok(m->origin_ns, m->end_ns)) {
		if (cause != NULL)
			*cause = xstrdup("the events span more than "
			    MODEL_TIME_MAX_TEXT ": the trace's times are "
			    "corrupt");
		return -1;
	}
	if (model_close_open_ranges(m) > MODEL_DURSUM_MAX) {
		if (cause != NULL)
			*cause = xstrdup("the events' durations add up to more "
			    "than " MODEL_TIME_MAX_TEXT ": the trace's times "
			    "are corrupt");
		return -1;
	}
	if (model_copy_bytes(m) > (uint64_t)MODEL_BYTESUM_MAX) {
		if (cause != NULL)
			*cause = xstrdup("the copies' sizes add up to more than "
			    "4 EiB: the trace's sizes are corrupt");
		return -1;
	}

	sort_stable(m->tracks, m->ntracks, sizeof *m->tracks, track_cmp, m);

	model_finalize_lanes(m);
	if (model_number(m, NULL, cause) != 0)
		return -1;
	model_count_kinds(m, m->kind_count);

	nvtx_build(m);
	correlate_build(m);
	model_device_coverage(m);
	model_device_used(m);
	model_thread_nvtx(m);
	return 0;
}

int
model_adopt(struct model *m, char **cause)
{
	size_t	t;

	model_default_domain(m);
	if (model_number(m, NULL, cause) != 0)
		return -1;
	/* launch covers the GPU and sync tracks, which must come first. */
	for (t = 0; t < m->ntracks && (m->tracks[t].type == TRACK_GPU ||
	    m->tracks[t].type == TRACK_SYNC); t++)
		;
	if (m->launch != NULL && m->nlaunch != m->track_off[t]) {
		if (cause != NULL)
			*cause = xstrdup("correlation does not cover the GPU "
			    "tracks");
		return -1;
	}
	for (; t < m->ntracks; t++) {
		if (m->tracks[t].type == TRACK_GPU) {
			if (cause != NULL)
				*cause = xasprintf("track %zu: GPU track "
				    "after CPU tracks", t);
			return -1;
		}
	}
	for (t = 0; t < m->ntracks; t++) {
		if (lane_adopt(&m->tracks[t].lane) != 0) {
			if (cause != NULL)
				*cause = xasprintf("track %zu: stored index "
				    "inconsistent", t);
			return -1;
		}
	}
	model_thread_nvtx(m);
	return 0;
}

int
model_summary(struct model *m, const uint64_t *lane_n, char **cause)
{
	model_default_domain(m);
	if (model_number(m, lane_n, cause) != 0)
		return -1;
	m->summary = 1;
	return 0;
}
