/*
 * phase: segmentation of a profile's timeline into phases (initialisation,
 * steady state, evaluation, teardown, ...), as perf-advisor's phases.py
 * does it (../shared/docs/ANALYSES.md, A.3), deterministic and in C:
 *
 *   1. Bounds: the window [t0, t1), by default the trace span.
 *   2. Vocabulary: the 20 kernel names with the most GPU time in it.
 *   3. Bins: width clamp(span / 500, 50 ms, 500 ms), raised to min_bin_ns
 *      when the caller knows the iteration length (the verbs pass the
 *      median iteration), so that the forward/backward alternation inside
 *      one iteration never looks like a change of phase (perf-advisor has
 *      no such floor). Each kernel, graph
 *      launch, memcpy and memset adds its time to the bins it overlaps,
 *      clipped to each (perf-advisor adds the whole duration to the bin of
 *      its midpoint, which leaves empty bins behind kernels longer than a
 *      bin), keyed by kernel name, "__memcpy__" for copies and memsets, or
 *      "__other__" outside the vocabulary.
 *   4. A bin in which the GPUs are busy less than 1% of its width is idle:
 *      its distribution is empty. Otherwise it is normalised to shares.
 *   5. Jensen-Shannon divergence in bits (log2), in [0, 1]; two empty
 *      distributions are 0 apart, an empty and a non-empty one 1.
 *   6. Boundary candidates, with priorities:
 *        the 5 * max_phases largest divergences between adjacent bins, at
 *        the edge between them (2); every active/idle bin transition (2);
 *        the start and end of long top-level NVTX ranges (at least 2% of
 *        the span and min(100 ms, 5% of the span); of the 200 longest, those
 *        inside no other; a name seen more than max_phases times is an
 *        iteration marker and contributes nothing) (3); the first GPU work
 *        start and the last GPU work end (4). perf-advisor also uses MPI
 *        barrier ends, which the model does not hold.
 *   7. Candidates within tolerance max(min(5 ms, bin), 0.5% of the span) of
 *      the window's edges are dropped; in time order, a candidate within
 *      tolerance of the last kept one replaces it only if its priority is
 *      strictly higher (boundaries stay real timestamps).
 *   8. Each segment's fingerprint is the time of each key's work clipped
 *      to the segment, plus the GPUs' idle time in it under "__idle__" (so
 *      utilisation is part of the distribution). perf-advisor sums the
 *      bins whose centres lie in the segment, which mixes both sides of a
 *      boundary that falls inside a bin and can leave a segment empty.
 *   9. Pre-pass: a segment shorter than one bin that has a bin-edge
 *      boundary (a divergence peak or an idle edge, exact only to a bin)
 *      holds a slice of an iteration at most, so its mix is not
 *      representative: it joins the neighbour across its weaker boundary
 *      (by priority), keeping the stronger one; between two bin edges,
 *      the more similar neighbour. A short segment between two exact
 *      boundaries (markers, GPU edges, the window) stays. Then the most
 *      similar adjacent pair of segments is merged while their divergence
 *      is below 0.10 (and while there are more than 150 segments, whatever
 *      the divergence); a merge mixes the distributions weighted by
 *      duration.
 *  10. Dynamic programming: the cost of a group of segments a..b is
 *      sum_i dur_i * JS(dist_i, mix(a..b)); dp[k][i] is the least cost of
 *      cutting segments 0..i into k groups, for k up to
 *      K = min(max_phases, segments). O(n^3 K) with n <= 150.
 *  11. Elbow: with cost[k] the best k-group cost and range = cost[1] -
 *      cost[K], the chosen k is the largest whose marginal gain
 *      (cost[k-1] - cost[k]) / range is at least 0.05 (1 when range is 0),
 *      unless forced_k asks for another.
 *  12. Labels: the top-level NVTX name family (nvtxfam.h: "ProfilerStep#*"
 *      for ProfilerStep#1, #2, ...) that covers the most of the phase, if
 *      that is at least 30% of it; else "idle" if the GPUs are busy less than 1%
 *      of it; else the short name of the kernel with the most time in it;
 *      else "unknown". Repeated labels get " (2)", " (3)", ... suffixes.
 *
 * Costs are reported divided by the window's length, so the curve starts
 * at most at 1 and falls to 0 as k grows.
 *
 * Ownership: struct phases owns its arrays and labels (phase_free).
 */
#ifndef GPULENS_PHASE_H
#define GPULENS_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/activity.h"
#include "model/model.h"

struct phase_kacc;

#define PHASE_MAX_PHASES_DEFAULT	10	/* perf-advisor's CLI default */
#define PHASE_MAX_PHASES		64

/* Where a phase's start boundary comes from. */
enum phase_edge {
	PHASE_EDGE_WINDOW = 0,	/* the window's start */
	PHASE_EDGE_DIST,	/* a jump in the kernel mix */
	PHASE_EDGE_IDLE,	/* an active/idle transition */
	PHASE_EDGE_MARKER,	/* an NVTX range's start or end */
	PHASE_EDGE_GPU,		/* the first or last GPU work */
};
const char	*phase_edge_name(int);

struct phase_opts {
	int		 max_phases;	/* 1 disables; 0: the default */
	int		 forced_k;	/* 0: the elbow decides */
	int64_t		 t0, t1;	/* t1 <= t0: the trace span */
	int64_t		 min_bin_ns;	/* bins at least this wide (0: none) */
	int		 plain;		/* every segment's mix from its events,
					   not from the bins (the reference
					   the tests hold the bins to) */
	struct phase_kacc *win;		/* NULL, or the window's kernel sums
					   made ahead (phase_kscan_window()),
					   taken when they are of the
					   window */
};

/* A kernel name among a phase's kernels. */
struct phase_kname {
	uint32_t	 name;		/* string id */
	uint64_t	 count;		/* its kernels overlapping the phase */
	int64_t		 total;		/* their durations, not clipped, ns */
};

struct phase {
	int64_t		 start, end;
	char		*label;
	int		 edge;		/* enum phase_edge of start */
	uint32_t	 dominant;	/* name (string id) of the kernel with
					   the most time inside, 0 if none */
	double		 js_prev;	/* divergence from the previous phase's
					   distribution (0 for the first) */
	uint64_t	 kernels;	/* kernels (and graphs) overlapping it */
	int64_t		 kernel_ns;	/* their time clipped to it */
	struct phase_kname *kn;		/* per name among them, by name id */
	size_t		 nkn;
};

struct phases {
	int64_t		 t0, t1;
	int64_t		 bin_ns;
	size_t		 nbins;
	size_t		 ncandidates;	/* boundaries kept after merging */
	size_t		 nsegments;	/* after the pre-pass */
	int		 max_phases;
	int		 best_k;	/* the elbow's choice */
	int		 forced;	/* forced_k was applied */
	double		*cost;		/* cost[k - 1], k = 1..ncost */
	size_t		 ncost;
	struct phase	*v;
	size_t		 n;
};

/*
 * Segments the window. a must be built on m. Returns 0 (one phase
 * "profile" when detection is disabled, the window is empty or holds no
 * GPU work), or -1 with *cause for bad options (caller frees).
 */
int	 phase_detect(const struct model *, const struct activity *,
	    const struct phase_opts *, struct phases *, char **cause);
void	 phase_free(struct phases *);
/*
 * The kernel sums of po's window that phase_detect() starts from (its
 * vocabulary), made ahead from the model alone, so that a caller can make
 * them beside the activity; phase_detect() takes them through po->win.
 * phase_kacc_release() frees what it did not take, and the struct.
 */
struct phase_kacc *phase_kscan_window(const struct model *,
		    const struct phase_opts *);
void	 phase_kacc_release(struct phase_kacc *);
/* Jensen-Shannon divergence (bits) of two distributions of n shares each
 * (each summing to 1, or all zero for an empty one). */
double	 phase_js(const double *p, const double *q, size_t n);

#endif
