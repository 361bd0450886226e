/*
 * nsys-track: the track a row goes on. GPU rows go on their (device,
 * process, stream) track, synchronisation waits on that stream's sync
 * track; CPU rows on per-thread tracks (NVTX: per thread and domain). Each
 * is looked up once per key.
 */
#include "config.h"

#include <stdio.h>

#include <sqlite3.h>

#include "model/builder.h"
#include "sources/nsys-int.h"
#include "util/hmap.h"

/* Keys of a row's context and stream, for ctx_dev and ctxstream_dev. */
uint64_t
nsys_track_ctx_key(const struct nsys_row *st)
{
	uint64_t	gpid = row_null(st, G_PID) ? ~0ULL :
			    (uint64_t)row_i64(st, G_PID) & NSYS_PROC_MASK;

	return hmap_key2(gpid, (uint64_t)row_i64(st, G_CTX));
}

uint64_t
nsys_track_ctxstream_key(const struct nsys_row *st, uint64_t stream)
{
	return hmap_key2(nsys_track_ctx_key(st), stream);
}

/*
 * The stream of a GPU activity row: (dev, globalPid, stream). Work rows
 * (kernels, copies, memsets, graphs) also record which device their
 * context and stream are on, for the synchronization rows.
 */
uint32_t
nsys_track_stream(struct nsys *n, const struct nsys_row *st, uint64_t dev,
    uint64_t stream, int work)
{
	int		 nopid = row_null(st, G_PID);
	uint64_t	 gpid = (uint64_t)row_i64(st, G_PID) & NSYS_PROC_MASK;
	uint64_t	 key;
	uint32_t	 d, p, s, v;
	size_t		 before;

	if (work) {
		if (!hmap_get(&n->ctx_dev, nsys_track_ctx_key(st), &v))
			hmap_put(&n->ctx_dev, nsys_track_ctx_key(st),
			    (uint32_t)dev);
		if (!hmap_get(&n->ctxstream_dev, nsys_track_ctxstream_key(st,
		    stream), &v))
			hmap_put(&n->ctxstream_dev, nsys_track_ctxstream_key(st,
			    stream), (uint32_t)dev);
	}
	key = hmap_key2(hmap_key2(dev, nopid ? ~0ULL : gpid), stream);
	if (hmap_get(&n->gpu_streams, key, &s))
		return s;
	d = nsys_entity_device(n, (uint32_t)dev);
	p = nopid ? NONE32 : nsys_entity_process(n, gpid);
	before = n->m->nstreams;
	s = builder_stream(n->b, d, stream, p);
	if (n->m->nstreams > before) {
		struct stream *sp = &n->m->streams[s];
		sp->context = row_u32(st, G_CTX);
		if (hmap_get(&n->stream_prio, hmap_key2(gpid, stream), &v))
			sp->priority = (int32_t)v;
		if (hmap_get(&n->stream_name, hmap_key2(hmap_key2(gpid, dev),
		    stream), &v))
			sp->name = v;
	}
	hmap_put(&n->gpu_streams, key, s);
	return s;
}

/* The GPU work track of a row's stream. */
uint32_t
nsys_track_gpu(struct nsys *n, const struct nsys_row *st)
{
	return builder_gpu_track(n->b, nsys_track_stream(n, st,
	    (uint64_t)row_i64(st, G_DEV), (uint64_t)row_i64(st, G_STREAM), 1));
}

uint32_t
nsys_track_cpu(struct nsys *n, enum track_type type, uint64_t gtid,
    uint64_t domain_id)
{
	uint64_t	key;
	uint32_t	t, thr, dom = 0;

	key = hmap_key2(hmap_key2(type, gtid), domain_id);
	if (hmap_get(&n->cpu_tracks, key, &t))
		return t;
	thr = nsys_entity_thread(n, gtid);
	if (type == TRACK_NVTX)
		dom = builder_domain(n->b, nsys_entity_process(n, gtid),
		    domain_id, NULL);
	t = builder_cpu_track(n->b, type, thr, dom);
	hmap_put(&n->cpu_tracks, key, t);
	return t;
}

/* Names the tracks that have none: streams, sync, API, NVTX domains. */
void
nsys_track_names(struct nsys *n)
{
	struct model		*m = n->m;
	const struct stream	*s;
	size_t			 i;
	int			 sync;
	char			 buf[128];

	for (i = 0; i < m->ntracks; i++) {
		struct track *t = &m->tracks[i];
		if (t->name != 0)
			continue;
		switch (t->type) {
		case TRACK_GPU:
		case TRACK_SYNC:
			/* The stream's name, else "Stream N"; " sync" after
			 * it for its sync track. */
			s = &m->streams[t->stream];
			sync = t->type == TRACK_SYNC;
			if (!sync && s->name != 0) {
				t->name = s->name;
				break;
			}
			if (sync && s->source_id == NSYS_NO_STREAM)
				snprintf(buf, sizeof buf, "Context %u sync",
				    s->context);
			else if (s->name != 0)
				snprintf(buf, sizeof buf, "%s%s", strpool_get(
				    m->strs, s->name), sync ? " sync" : "");
			else
				snprintf(buf, sizeof buf, "Stream %llu%s",
				    (unsigned long long)s->source_id, sync ?
				    " sync" : "");
			t->name = builder_intern(n->b, buf);
			break;
		case TRACK_API:
			t->name = builder_intern(n->b, "CUDA API");
			break;
		case TRACK_OSRT:
			t->name = builder_intern(n->b, "OS runtime libraries");
			break;
		case TRACK_NVTX:
			if (t->domain != NONE32 && t->domain < m->ndomains &&
			    m->domains[t->domain].name != 0) {
				snprintf(buf, sizeof buf, "NVTX (%s)",
				    strpool_get(m->strs,
				    m->domains[t->domain].name));
				t->name = builder_intern(n->b, buf);
			} else
				t->name = builder_intern(n->b, "NVTX");
			break;
		default:
			break;
		}
	}
}
