/*
 * rocpd-track: the tracks events land on. The roctx domain of a process,
 * CPU tracks per thread, GPU tracks per (agent, process, stream or queue),
 * and the devices behind them.
 */

#include "config.h"
#include <stdio.h>
#include <string.h>
#include <sqlite3.h>
#include "sources/amd-db.h"
#include "sources/amd.h"
#include "model/builder.h"
#include "util/hmap.h"
#include "sources/source.h"
#include "sources/rocpd-int.h"
#include "sources/srcdev.h"

/* Tracks. */

static uint32_t
rocpd_domain(struct rocpd *r, uint32_t proc)
{
	uint32_t	d;

	if (hmap_get(&r->domains, proc, &d))
		return d;
	d = builder_domain(r->b, proc, ROCPD_ROCTX, "roctx");
	hmap_put(&r->domains, proc, d);
	return d;
}

uint32_t
rocpd_cpu_track(struct rocpd *r, enum track_type type, uint32_t g,
    int64_t prow, int64_t trow)
{
	uint32_t	 thr, t, p;
	uint64_t	 key;

	thr = rocpd_thread(r, g, trow, prow);
	key = hmap_key2(type, thr);
	if (hmap_get(&r->cpu_tracks, key, &t))
		return t;
	p = r->m->threads[thr].process;
	t = builder_cpu_track(r->b, type, thr, type == TRACK_NVTX ?
	    rocpd_domain(r, p) : 0);
	r->m->tracks[t].name = builder_intern(r->b, type == TRACK_NVTX ?
	    "roctx" : "HIP API");
	hmap_put(&r->cpu_tracks, key, t);
	return t;
}

/* The device of an agent row (NONE32: a CPU or unknown). */
uint32_t
rocpd_device(struct rocpd *r, uint32_t g, sqlite3_stmt *st, int i)
{
	uint32_t	v;

	if (col_null(st, i) ||
	    !hmap_get(&r->agents, rocpd_key(g, st, i), &v) || v == 0)
		return NONE32;
	return v - 1;
}

/* A device for GPU work on an agent the info table does not describe. */
static uint32_t
rocpd_unknown_device(struct rocpd *r)
{
	return srcdev_get(r->b, UINT32_MAX, "AMD", "unknown agent");
}

/*
 * The GPU track of a row: by stream (column si) or queue (column qi) on
 * device dev for process row prow.
 */
uint32_t
rocpd_gpu_track(struct rocpd *r, uint32_t g, uint32_t dev, int64_t prow,
    sqlite3_stmt *st, int si, int qi)
{
	int		 use_stream = r->by_stream;
	int		 col = use_stream ? si : qi;
	int64_t		 id;
	uint32_t	 p, s, t, v;
	uint64_t	 key;
	char		 buf[64];

	if (dev == NONE32)
		dev = rocpd_unknown_device(r);
	p = rocpd_process(r, g, prow);
	/* Copies may have no queue: they share a track of their own. */
	id = col_null(st, col) ? -1 : col_i64(st, col);
	key = hmap_key2(hmap_key2(dev, p), hmap_key2(g, (uint64_t)id));
	if (hmap_get(&r->gpu_tracks, key, &t))
		return t;
	s = builder_stream(r->b, dev, id < 0 ? UINT32_MAX :
	    ((uint64_t)g << 32 | ((uint64_t)id & 0xffffffff)), p);
	t = builder_gpu_track(r->b, s);
	if (id < 0)
		snprintf(buf, sizeof buf, "Memory copies");
	else if (hmap_get(use_stream ? &r->snames : &r->qnames,
	    hmap_key2(g, (uint64_t)id), &v))
		snprintf(buf, sizeof buf, "%s", strpool_get(r->m->strs, v));
	else
		snprintf(buf, sizeof buf, "%s %lld", use_stream ? "Stream" :
		    "Queue", (long long)id);
	r->m->streams[s].name = builder_intern(r->b, buf);
	r->m->tracks[t].name = r->m->streams[s].name;
	hmap_put(&r->gpu_tracks, key, t);
	return t;
}
