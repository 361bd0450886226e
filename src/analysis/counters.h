/*
 * counters: summaries and time series of counter samples (EV_COUNTER):
 * GPU metrics (a GPU's counter track, track.device set), NIC and switch
 * metrics (counter tracks of no device and no thread) and host counters
 * (a thread's counter track: Kineto's "[memory] cuda:0", Chrome "C"
 * events).
 *
 * A series is one counter (event name) on one track. Coverage comes first,
 * so that no number is quoted from samples that miss half the run: the
 * samples in the window, the first and last, the median interval between
 * consecutive samples (the sampling rate is its inverse), the largest
 * interval, and the gaps (intervals longer than COUNTERS_GAP_FACTOR times
 * the median). Then the values: mean, min, max and the 50th, 90th and 99th
 * percentiles (linear interpolation between closest ranks, as stats.h),
 * each sample weighing the same.
 *
 * With a bucket width, the window [t0, t1) is cut into buckets of that
 * width from t0 (the last may be shorter) and each series gets, per
 * bucket, the samples in it, their mean and their max (no samples: count
 * 0, mean and max NaN).
 *
 * Samples count when their time lies in [t0, t1). Ownership: the result
 * owns its arrays (counters_free); names are the model's.
 */
#ifndef GPULENS_COUNTERS_H
#define GPULENS_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define COUNTERS_GAP_FACTOR	3	/* a gap: interval > 3 x median */
#define COUNTERS_MAX_BUCKETS	100000

enum counters_kind {
	COUNTERS_GPU = 0,
	COUNTERS_NIC,
	COUNTERS_HOST,
	COUNTERS_KIND_COUNT
};

struct counters_query {
	int64_t		 t0, t1;	/* window */
	int64_t		 bucket_ns;	/* 0: no time series */
	const char	*glob;		/* counter name pattern, or NULL */
	int		 kind;		/* enum counters_kind, -1 any */
	long long	 device;	/* source device id of a GPU, -1 any */
};

struct counters_series {
	uint32_t	 track;
	uint32_t	 name;		/* string id of the counter */
	int		 kind;		/* enum counters_kind */
	uint64_t	 samples;
	int64_t		 first_ns, last_ns;
	int64_t		 interval_ns;	/* median interval, 0 if < 2 */
	int64_t		 max_gap_ns;	/* largest interval, 0 if < 2 */
	uint64_t	 gaps;		/* intervals > GAP_FACTOR x median */
	double		 mean, min, max, p50, p90, p99;
	/* Time series (bucket_ns > 0): nbuckets entries each. */
	uint64_t	*bcount;
	double		*bmean, *bmax;
};

struct counters_result {
	struct counters_series	*v;	/* by kind, track, then name */
	size_t			 n;
	int64_t			 t0, bucket_ns;
	size_t			 nbuckets;
	uint64_t		 samples;	/* over every series */
};

/* "gpu", "nic", "host"; the kind of track t (-1: not a counter track). */
const char	*counters_kind_name(int kind);
int		 counters_kind_parse(const char *);
int		 counters_track_kind(const struct model *, uint32_t t);
/* Builds the series the query selects. 0, or -1 with *cause (too many
 * buckets). */
int		 counters_build(const struct model *,
		    const struct counters_query *, struct counters_result *,
		    char **cause);
void		 counters_free(struct counters_result *);

#endif
