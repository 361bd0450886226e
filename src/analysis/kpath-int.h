/*
 * kpath-int: the state of a struct kpath, shared by kpath.c (the values,
 * asked by the caller) and kpath-runs.c (the runs of whole GPU tracks,
 * worked out on background threads). See kpath.h.
 */
#ifndef GPULENS_KPATH_INT_H
#define GPULENS_KPATH_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/kpath.h"
#include "util/pool.h"

/*
 * A walker holds what asking in order needs: a cursor set, the family
 * paths of the ranges met (kpfam.h; ids of the walker's own pool of family
 * paths, + 1 here: 0 is none) and the last range asked. Walker 0 serves
 * kpath_value() and the caller's thread's jobs; background thread k runs
 * its jobs with walker k. A walker's path ids become the caller's pool's
 * ids through a map per walker (struct kp_ids), made as they are first
 * asked; those of a background thread's walker are read from the copies
 * it publishes at the end of each job (pub), as the walker's own pool may
 * grow meanwhile. The maps are the caller's thread's, kept apart from the
 * walkers: a map read beside a walker's fields that its thread writes
 * shares their cache line, and the first pass of `stats --group-by
 * nvtx-path,iter` at 1e8 spent a tenth of its time on that line.
 */
struct kp_walker {
	const struct model	*m;
	struct nvtx_cur		*cur;
	struct kpfam		*fam;		/* made when first asked */
	struct strpool		*strs;		/* the family paths */
	uint32_t		 last_range, last_id;
	uint32_t		 api_t;		/* track of the last launch */
	/* The last range was asked of thread at time at (NONE32: of
	 * none); launched: for a GPU event, from a call on track api_t. */
	uint32_t		 thread;
	int64_t			 at;
	int			 launched;
	uint32_t		 it_parent, it_val;	/* kp_iter_of()'s
					   last parent (NONE32: none yet)
					   and its iteration */
	POOL_PAD;
};

/* Walker k's ids in the caller's pool, and the strings of its paths. */
struct kp_ids {
	uint32_t		*map;		/* path id -> caller's id + 1 */
	size_t			 mapcap;
	char			**pub;		/* strs' strings, copied at the
						   ends of jobs (kpath.mu) */
	size_t			 npub, pubcap;
};

/* A GPU track's runs (kpath_runs()): events [end[k - 1], end[k]) have
 * path val[k] of walker w (with the path runs) and iteration iter[k]
 * (with the iteration runs). */
struct kp_track {
	uint32_t		*end, *val, *iter;
	size_t			 n, cap, vcap, icap;
	unsigned		 w;
	size_t			 k;		/* run of the last event asked */
};

struct kpath {
	const struct model	*m;
	const char		*domain;
	struct kp_walker	 w[POOL_MAX];
	struct kp_ids		 ids[POOL_MAX];
	unsigned		 nw;
	struct kp_track		*tr;		/* per track, or NULL */
	int			 rpath, riter;	/* which values the runs have */
	struct strpool		*pool;		/* the caller's, of the maps */
	/* The event walker 0 answered last, and its range; the track and
	 * event whose value the runs gave last. */
	uint32_t		 last_t, last_i, range;
	uint32_t		 run_t, run_i;
	/* kpath_runs()' jobs: the tracks of job j are trk[jlo[j] ..
	 * jlo[j + 1]); job_of[t] is track t's (NONE32: none). */
	uint32_t		*trk;
	size_t			*jlo;
	size_t			 nj;
	uint32_t		*job_of;
	/* Which tracks' jobs the caller saw done (its thread's only). */
	uint8_t			*ready;
	/* The background threads (nth, walkers 1 .. nth) and what they
	 * share with the caller's thread under mu: the next job none took,
	 * the jobs done (cv signalled as each is). */
	pthread_t		 th[POOL_MAX];
	unsigned		 nth;
	int			 mu_on;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	size_t			 next;
	uint8_t			*done;
};

/* kpath.c */
void		kp_walker_init(struct kp_walker *, const struct model *,
		    const char *domain);
uint32_t	kp_range(struct kp_walker *, uint32_t t, uint32_t i);
uint32_t	kp_path(struct kp_walker *, uint32_t range);
uint32_t	kp_iter_of(struct kp_walker *, uint32_t range);
uint32_t	kp_walker_same(const struct kp_walker *, uint32_t t,
		    uint32_t i, uint32_t hi);

/* kpath-runs.c: waits until track t's runs are worked out (working out
 * jobs none took meanwhile, with walker 0); 1 where t has runs. */
int		kp_runs_ready(struct kpath *, uint32_t t);
/* The string of path id (+ 1) of walker k, to intern in the caller's
 * pool. */
const char	*kp_walker_str(struct kpath *, unsigned k, uint32_t id);
/* Stops and joins the background threads, frees the runs. */
void		kp_runs_free(struct kpath *);

#endif
