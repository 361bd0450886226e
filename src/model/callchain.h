/*
 * callchain: CPU samples and the call chains of samples and API calls.
 *
 * A frame is a (function, module) pair of string ids, stored once. A call
 * chain is a run of frame indices, leaf first (the sampled instruction's
 * function, or the function that made the API call, then its callers);
 * equal runs are stored once. chain c is
 *   frame[fr[off[c]]], ..., frame[fr[off[c + 1] - 1]]
 * so off has nchains + 1 entries (none when nchains is 0).
 *
 * Samples are instants on a sampled thread, ordered by thread, then time.
 * A sampled thread need not be a thread of the model (a thread that was
 * sampled but made no traced call is not one, so the entity tables and
 * every count made from them stay as they were): it keeps its own source
 * id, tid, pid and name, and the index of the model thread with the same
 * source id, or NONE32. The samples of sampled thread h are
 * samples[th[h].first .. th[h].first + th[h].n - 1].
 *
 * API and OS runtime calls (EV_API, EV_OSRT) keep the index of their call
 * chain in their lane's aux (NONE32 when the source has none).
 *
 * The arrays live in struct cpusamp inside the model; the cache stores
 * them as tables (cache-int.h). Sizes are bounded by 32-bit indices.
 */
#ifndef GPULENS_CALLCHAIN_H
#define GPULENS_CALLCHAIN_H

#include <stddef.h>
#include <stdint.h>

struct cframe {
	uint32_t	 func;		/* string id: function ("0x7f..." when
					   unresolved) */
	uint32_t	 module;	/* string id: module path */
};

struct csthread {
	uint64_t	 source_id;	/* globalTid (nsys) */
	uint32_t	 tid, pid;	/* OS ids */
	uint32_t	 name;		/* string id, 0 if unnamed */
	uint32_t	 thread;	/* model thread or NONE32 */
	uint32_t	 first, n;	/* its samples */
};

struct csample {
	int64_t		 t;		/* ns, source clock */
	uint32_t	 chain;		/* call chain or NONE32 */
	uint32_t	 sthread;	/* index into th */
};

struct cpusamp {
	struct cframe	*frame;		size_t nframes;
	uint32_t	*off;		size_t nchains;	/* nchains + 1 */
	uint32_t	*fr;		size_t nfr;
	struct csthread	*th;		size_t nth;
	struct csample	*s;		size_t ns;
};

struct model;

/* The CPUSAMP_NARRAYS arrays of c, by index (all of them may lie in a
 * cache's mapping): the address of array i. */
#define CPUSAMP_NARRAYS	5
void		**cpusamp_array(struct cpusamp *c, size_t i);
void		 cpusamp_free(struct cpusamp *);
/* The frames of chain c (leaf first): returns their number and sets
 * *frames to the run of frame indices; 0 when c is NONE32 or out of range. */
size_t		 cpusamp_chain(const struct cpusamp *, uint32_t c,
		    const uint32_t **frames);
/* The call chain of event gid (an API or OS runtime call), or NONE32. */
uint32_t	 cpusamp_event_chain(const struct model *, uint32_t gid);
/* The samples of sampled thread h in [t0, t1): *i0 .. *i1 - 1. */
void		 cpusamp_range(const struct cpusamp *, uint32_t h, int64_t t0,
		    int64_t t1, size_t *i0, size_t *i1);
/* The sampled thread of model thread th, or NONE32. */
uint32_t	 cpusamp_of_thread(const struct cpusamp *, uint32_t th);
/*
 * Checks what queries rely on (a cache load): frames' strings below nstrs,
 * chains within fr, frame indices below nframes, threads' sample runs
 * tiling s in order, samples sorted by time within a thread, chains below
 * nchains, thread indices below nthreads. 0, or -1.
 */
int		 cpusamp_check(const struct cpusamp *, uint32_t nstrs,
		    size_t nthreads);

/*
 * Building (the readers): frames and chains de-duplicated through the
 * maps of struct cpusamp_build; samples appended in any order, then
 * cpusamp_build_finish() orders them and tiles the threads' runs.
 */
#include "util/hmap.h"
struct cpusamp_build {
	struct hmap	 fmap;		/* key(func, module) -> frame */
	struct hmap	 cmap;		/* hash of a run -> chain */
	size_t		 fcap, ocap, frcap, thcap, scap;
};
void		 cpusamp_build_init(struct cpusamp_build *);
void		 cpusamp_build_free(struct cpusamp_build *);
uint32_t	 cpusamp_frame(struct cpusamp *, struct cpusamp_build *,
		    uint32_t func, uint32_t module);
/* The chain of the n frames (leaf first); NONE32 for n == 0. */
uint32_t	 cpusamp_add_chain(struct cpusamp *, struct cpusamp_build *,
		    const uint32_t *frames, size_t n);
uint32_t	 cpusamp_add_thread(struct cpusamp *, struct cpusamp_build *,
		    const struct csthread *);
void		 cpusamp_add(struct cpusamp *, struct cpusamp_build *,
		    int64_t t, uint32_t sthread, uint32_t chain);
void		 cpusamp_build_finish(struct cpusamp *);

#endif
