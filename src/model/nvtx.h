/*
 * nvtx: the NVTX range hierarchy and its GPU projection.
 *
 * NVTX ranges live on TRACK_NVTX tracks, one per (thread, domain); push/pop
 * ranges nest, start/end ranges may not (their depth is the lane's greedy
 * level). nvtx_build() runs at finalize and fills, for every range, its
 * parent (the tightest enclosing range on the same track), its number of
 * children, and its iteration index: the 0-based position among the
 * parent's children (or the track's roots) that carry the same name, in
 * start order, names counted by family (nvtxfam.h): "ProfilerStep#3" and
 * "ProfilerStep#4" are one family.
 *
 * GPU projection (as nsys's nvtx_gpu_proj_trace defines it): the GPU work of
 * a range is every kernel, memcpy and memset whose launching API call (see
 * correlate.h) lies inside the range on the same thread. Its projected
 * start/end are the min start / max end of that work, busy is the union of
 * its durations, nops the number of GPU operations.
 */
#ifndef GPULENS_NVTX_H
#define GPULENS_NVTX_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct nvtx_proj {
	int64_t		 start, end;	/* projected; 0,0 when nops == 0 */
	int64_t		 busy;		/* union of GPU op durations */
	uint32_t	 nops;		/* GPU operations launched inside */
	uint32_t	 nkernels;
};

/* Fills m->nvtx[].parent/iter/nchildren. Called by model_finalize(). */
void	 nvtx_build(struct model *);
/*
 * Writes the full path "outer/inner/leaf" of range gid into buf (always
 * NUL-terminated, truncated to len). Returns the untruncated length.
 */
size_t	 nvtx_path(const struct model *, uint32_t gid, char *buf, size_t len);
/*
 * nvtx_path() of the range's family (nvtxfam.h): the path of every
 * component folded, so "Step#12/aten::mm, seq = 3" gives
 * "Step#* / aten::mm" (without the spaces). For verbs that group by path.
 */
size_t	 nvtx_family_path(const struct model *, uint32_t gid, char *buf,
	    size_t len);
/* Depth of range gid (0 = root); -1 if gid is not an NVTX range. */
int	 nvtx_depth(const struct model *, uint32_t gid);
/*
 * Innermost NVTX push/pop range on thread `thread` containing time t, or
 * NONE32: innermost across all the thread's domains (the range that starts
 * last, then ends first), so CUB's cub::DeviceReduce::Sum (domain CCCL)
 * inside a user range is the innermost range of its kernels.
 * nvtx_enclosing_in() only looks at ranges of the domain named domain
 * (NULL: all).
 */
uint32_t nvtx_enclosing(const struct model *, uint32_t thread, int64_t t);
/*
 * The choice between the tracks of a thread: each offers its innermost
 * push/pop range around the time (range idx of track, depth the number of
 * its push/pop ranges around it less one), and the innermost of them is
 * the one that starts last, then ends first, then is deeper in its
 * domain, then of the lower domain id. Start from gid = NONE32.
 */
struct nvtx_inner {
	uint32_t	 gid;		/* the best so far, NONE32 none */
	uint32_t	 dom;
	long		 depth;
	int64_t		 start, end;
};
void	 nvtx_inner_offer(struct nvtx_inner *, const struct model *,
	    uint32_t track, uint32_t idx, long depth);
uint32_t nvtx_enclosing_in(const struct model *, uint32_t thread, int64_t t,
	    const char *domain);
/* GPU projection of range gid (see above). */
void	 nvtx_project(const struct model *, uint32_t gid,
	    struct nvtx_proj *out);
/*
 * What nvtx_project() can keep between calls, for callers that project
 * many ranges of one model (caller-owned: zero it before the first call,
 * release it with nvtx_projector_free()): its span buffer, the API tracks
 * of the last thread seen, and per API track the last search, which
 * ranges visited in start order (a track's lane order) turn into short
 * forward searches.
 */
struct nvtx_projector {
	void		*sp;		/* span buffer */
	size_t		 spcap;
	uint32_t	 thread1;	/* thread of api[] + 1, 0 none */
	uint32_t	*api;		/* that thread's API tracks */
	int64_t		*last_t;	/* per API track: last range start */
	size_t		*last_j;	/* and the first call at or after it */
	size_t		 napi, apicap;
	uint32_t	*thr_off;	/* API tracks of thread h: thr_trk[ */
	uint32_t	*thr_trk;	/* thr_off[h] .. thr_off[h + 1] - 1] */
};
/* nvtx_project() with reusable state; the same answers. */
void	 nvtx_project_with(struct nvtx_projector *, const struct model *,
	    uint32_t gid, struct nvtx_proj *out);
void	 nvtx_projector_free(struct nvtx_projector *);

#endif
