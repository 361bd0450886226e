/*
 * finding: ranked, evidence-backed findings about a trace, computed
 * locally and deterministically from the model (`gpulens findings` and the
 * TUI's findings panel).
 *
 * A finding has a type (the rule that produced it), a one-line title, a
 * sentence with the numbers behind it, a concrete next step, the time it
 * costs and where on the timeline to look. Its cost is wall-clock time on
 * the worst device or process, inside the analysed window [t0, t1); its
 * share is 100 * cost / (t1 - t0), and the Amdahl bounds on the speed-up
 * of the window are 1 / (1 - share / 200) if half of that cost went away
 * and 1 / (1 - share / 100) if all of it did. Findings can overlap (a gap
 * after a synchronisation is also low utilisation): each bound assumes that
 * only that finding is fixed.
 *
 * Confidence: high when the cost is at least 5% of the window, medium from
 * 1%, low below; a rule lowers it when its evidence is weaker than its
 * cost suggests, and a cost that lies mostly outside the iterations (before
 * the first or after the last, when the trace has iterations) is one-off
 * set-up or tear-down and never more than low. Rank: by confidence (high
 * first), then by share, then type, then time: a problem that is certain
 * comes before a larger opportunity that is not.
 *
 * GPU idle gaps are classified once (finding_gap_class), so that each gap
 * counts for one rule only among cuda_api_sync, launch_bound and
 * idle_bubbles; gpu_gaps and gpu_time_util follow nsys and overlap them.
 *
 * The rules live in finding-nsys.c (the rules of `nsys analyze`, under
 * their names) and finding-perf.c (the others); finding.c prepares what
 * they share and ranks their output, finding-gaps.c classifies the gaps.
 *
 * Ownership: struct findings owns the findings, their strings and evidence
 * (finding_free); the model is borrowed.
 */
#ifndef GPULENS_FINDING_H
#define GPULENS_FINDING_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/activity.h"
#include "analysis/apicall.h"
#include "analysis/fevidence.h"
#include "analysis/ncucmd.h"
#include "analysis/syncwait.h"
#include "model/model.h"

enum finding_conf {
	FINDING_LOW = 0,
	FINDING_MEDIUM,
	FINDING_HIGH,
};

/* Gap classes (see finding_gap_class). */
enum finding_gap {
	FGAP_LARGE = 0,		/* at least the gpu_gaps threshold */
	FGAP_SYNC,		/* a synchronisation call ended inside */
	FGAP_LAUNCH,		/* under 1 ms, next work launched late */
	FGAP_BUBBLE,		/* 1 ms or more, none of the above */
	FGAP_OTHER,		/* short, the work was queued: GPU-side */
	FGAP_N
};

#define FINDING_HIGH_PCT	5.0
#define FINDING_MEDIUM_PCT	1.0
#define FINDING_GAP_MAX_NS	500000000LL	/* nsys gpu_gaps default */
#define FINDING_GAP_SHARE	0.02		/* of the window: gpu_gaps */
#define FINDING_LAUNCH_GAP_NS	1000000LL	/* launch gaps are shorter */
#define FINDING_CALL_SITES	3		/* call sites cited, at most */

struct finding {
	const char	*type;		/* rule name: "cuda_memcpy_sync" */
	char		*title;		/* one line */
	char		*detail;	/* what was measured, with numbers */
	char		*next;		/* the concrete next step */
	char		*command;	/* a command to run, or NULL */
	int64_t		 cost_ns;
	double		 share_pct;	/* 100 * cost / window */
	double		 speedup_half, speedup_all;	/* Amdahl */
	int		 confidence;	/* enum finding_conf */
	int		 one_off;	/* mostly outside the iterations */
	int64_t		 t0, t1;	/* evidence on the timeline */
	uint32_t	 device;	/* device index or NONE32 */
	uint32_t	 process;	/* process index or NONE32 */
	uint32_t	 gid;		/* a representative event or NONE32 */
	struct fevidence ev;		/* the numbers behind it */
	double		 score;		/* the share, for sorting */
	int		 rank;		/* 1-based after finding_run */
};

/* Whether a rule ran and what it found. */
struct finding_status {
	const char	*type;		/* rule name */
	const char	*status;	/* "found", "none" or "skipped" */
	char		*reason;	/* why not, or NULL */
};

struct findings {
	int64_t		 t0, t1;	/* the analysed window */
	int64_t		 zone0, zone1;	/* the iterations' span (zone1 <=
					   zone0: none) */
	int64_t		 gap_threshold;	/* gpu_gaps threshold used */
	struct finding	*v;
	size_t		 n, cap;
	struct finding_status *rules;	/* every rule, in the order run */
	size_t		 nrules, rcap;
};

/* Per device slot of the activity: its window and classified gaps. */
struct finding_dev {
	struct act_window w;
	int64_t		 gap_sum[FGAP_N];
	int64_t		 gap_zone[FGAP_N];	/* inside the iterations */
	size_t		 gap_n[FGAP_N];
	int64_t		 gap_long[FGAP_N];	/* longest of the class */
	int64_t		 gap_long_at[FGAP_N];	/* its start */
	int64_t		 launch_kern_med;	/* median duration of the work
						   after launch gaps */
	int64_t		 launch_at0, launch_at1;	/* the stretch (1/50 of
						   the window) with the most
						   launch-gap time */
	struct perf_ck	*ck;		/* its communication kernels in start
					   order (finding-perf.c), when it
					   communicates in the window; owned */
	size_t		 nck;
};

/* What the rules share. */
/* What dominant_kernel found over the GPU lanes (finding_perf_kernel_scan),
 * before it reports. */
struct finding_kern {
	uint32_t	 best;		/* compute kernel name with the most
					   time in the window; 0: none */
	double		 share;		/* its share of all compute time */
	uint64_t	 count;		/* its launches */
	int64_t		 total;		/* their durations' sum */
	double		 median;	/* and median */
	int64_t		 bt;		/* its time on device slot bd, the
					   most on one */
	size_t		 bd;
	int64_t		 ls, le;	/* its longest launch */
	uint32_t	 gid, aux, dev;
	/* ncucmd_build() for that launch, made in the pass: its return
	 * (-1 when not made), command, and cause on failure;
	 * finding_perf_kernel() reports and frees them. */
	int		 nc_rc;
	struct ncucmd	 nc;
	char		*ncause;
};

struct finding_ctx {
	const struct model	*m;
	struct activity		 act;
	int64_t			 t0, t1, span;
	int64_t			 zone0, zone1;
	int64_t			 gap_threshold;
	struct finding_dev	*dev;		/* act.ndev entries */
	uint8_t			*api_class;	/* per string id: FAPI_* + 1 */
	/* Synchronisation call ends per process (CSR, sorted). */
	int64_t			*sync_end;
	size_t			*sync_off;	/* nprocesses + 2 */
	uint32_t		*sync_gid;	/* the calls (global ids), per
						   process (sync_off) in track
						   and then index order */
	struct finding_kern	 kern;
	struct cp_group		*cp;		/* the copy rules' tallies
						   (finding_nsys_memcpy_scan),
						   owned until they report */
	struct syncwait		 sw;		/* the host's blocking waits in
						   the window, when sw_built */
	int			 sw_built;
	struct findings		*out;
};

/* API name classes. */
/* API name classes: analysis/apicall.h's. */
enum finding_api {
	FAPI_OTHER = APICALL_OTHER,
	FAPI_SYNC = APICALL_SYNC,		/* *Synchronize* */
	FAPI_MEMCPY_ASYNC = APICALL_MEMCPY_ASYNC,	/* cudaMemcpy*Async */
	FAPI_MEMCPY_SYNC = APICALL_MEMCPY_SYNC,	/* cudaMemcpy, ... */
	FAPI_MEMSET_ASYNC = APICALL_MEMSET_ASYNC,
	FAPI_MEMSET_SYNC = APICALL_MEMSET_SYNC,
};

/*
 * Runs every rule over [t0, t1) (t1 <= t0: the whole trace) and ranks the
 * findings. Returns 0, or -1 with *cause (caller frees).
 */
int	 finding_run(const struct model *, int64_t t0, int64_t t1,
	    struct findings *, char **cause);
void	 finding_free(struct findings *);
const char *finding_conf_name(int);

/* For the rule files. */
struct finding	*finding_add(struct finding_ctx *, const char *type,
		    int64_t cost_ns);
void	 finding_set(char **field, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* The device slot with the most gap time of class cls (enum finding_gap;
 * the first on ties). */
size_t	 finding_worst(const struct finding_ctx *, int cls);
/* Sets f's confidence (finding_conf_of) and one-off flag (under half of
 * the cost in the iterations) from the cost's share zone_frac in them. */
void	 finding_set_zone(struct finding *, double zone_frac);
/* Fills f's device, process and "device" evidence from device slot d. */
void	 finding_device(const struct finding_ctx *, struct finding *,
	    size_t d);
/* A finding of the gap time of class cls on device slot d (its cost, a
 * confidence and one-off flag from the share in the iterations, the
 * device); the slot must have some of that gap time. */
struct finding	*finding_add_gap(struct finding_ctx *, const char *type,
		    size_t d, int cls);
/* Sets f's window to the longest gap of class cls of fd's device. */
void	 finding_gap_window(struct finding *, const struct finding_dev *,
	    int cls);
/* The API class of an API call's name (string id): classified once per
 * name (finding_api_classify), remembered in api_class. */
int	 finding_api_classify(struct finding_ctx *, uint32_t sid);
static inline int
finding_api_class(struct finding_ctx *c, uint32_t sid)
{
	return c->api_class[sid] != 0 ? c->api_class[sid] - 1 :
	    finding_api_classify(c, sid);
}
/* Records that a rule ran: status "found", "none" or "skipped". */
void	 finding_rule(struct finding_ctx *, const char *type,
	    const char *status, const char *reason);
/* Confidence from a share, capped when the cost is one-off. */
int	 finding_conf_of(double share_pct, double zone_frac);
/* Whether t lies inside the iterations' span (always when none); inline:
 * the gap walk asks it once a gap. */
static inline int
finding_in_zone(const struct finding_ctx *c, int64_t t)
{
	if (c->zone1 <= c->zone0)
		return 1;
	return t >= c->zone0 && t < c->zone1;
}
/* The launching API call of GPU event gid, or NONE32. */
uint32_t finding_launch(const struct finding_ctx *, uint32_t gid);
/* A short, human duration into buf. */
const char *finding_dur(int64_t ns, char *buf, size_t len);

/* Fills c's synchronisation ends (sync_end, sync_off). */
void	 finding_syncs(struct finding_ctx *);
/* Classifies every inner gap of device slot d into c->dev[d]. */
void	 finding_gaps(struct finding_ctx *, size_t d);

/*
 * What the gaps of one device slot look up, in time order: cursors that
 * only move forward, so each query's keys must not decrease from one call
 * to the next (a walk over the gaps). They answer as a binary search per
 * query would.
 */
struct finding_cursor {
	const struct finding_ctx *c;
	size_t		 q0, q1;	/* processes whose syncs count */
	size_t		*sync_at;	/* per process: next sync end (in
					   the block of at) */
	int64_t		 sync_next;	/* the least of those ends, >= the
					   last key; INT64_MIN: not known */
	uint32_t	*trk;		/* the device's GPU tracks */
	size_t		*at;		/* per track: first start >= key */
	size_t		 ntrk;
	const struct lane *ev_lane;	/* last finding_cursor_end track */
	uint32_t	 ev_base;	/* its first global id */
	const struct lane *wl;		/* the last event the work look-up */
	size_t		 wj;		/* found: its lane and index */
};

void	 finding_cursor_init(struct finding_cursor *,
	    const struct finding_ctx *, size_t d);
/* Does a synchronisation call of the device's process (all processes
 * when it has none) end in [a, b)? Keys: a. */
int	 finding_cursor_sync(struct finding_cursor *, int64_t a, int64_t b);
/* The first work event (in track order, then index order) of the device
 * starting exactly at t, as a global id with its duration; NONE32 if
 * none. Keys: t. */
uint32_t finding_cursor_work(struct finding_cursor *, int64_t t,
	    int64_t *dur);
/* The end of event gid (any order; fast while gids stay on one track). */
int64_t	 finding_cursor_end(struct finding_cursor *, uint32_t gid);
void	 finding_cursor_free(struct finding_cursor *);

/* The rules. */
void	 finding_nsys_memcpy(struct finding_ctx *);	/* cuda_memcpy_async,
							   cuda_memcpy_sync,
							   cuda_memset_sync */
/* The copy rules' pass over the GPU lanes into c->cp, before they report
 * (after the zone; beside the devices' sweep: the only reader of the API
 * classes there). */
void	 finding_nsys_memcpy_scan(struct finding_ctx *);
void	 finding_nsys_api_sync(struct finding_ctx *);	/* cuda_api_sync */
void	 finding_nsys_gaps(struct finding_ctx *);	/* gpu_gaps */
void	 finding_nsys_util(struct finding_ctx *);	/* gpu_time_util */
void	 finding_perf_launch(struct finding_ctx *);	/* launch_bound */
void	 finding_perf_bubbles(struct finding_ctx *);	/* idle_bubbles */
void	 finding_perf_comm(struct finding_ctx *);	/* exposed_comm,
							   straggler */
void	 finding_perf_imbalance(struct finding_ctx *);	/* imbalance */
void	 finding_perf_kernel(struct finding_ctx *);	/* dominant_kernel,
							   low_occupancy */
/* Device slot d's communication kernels into c->dev[d].ck when it
 * communicates in the window (after its window; beside the other devices). */
void	 finding_perf_comm_scan(struct finding_ctx *, size_t d);
/* dominant_kernel's pass over the lanes into c->kern: reads the model and
 * the activity only, so it may run beside the devices' sweep. */
void	 finding_perf_kernel_scan(struct finding_ctx *);

#endif
