/*
 * activity: what each GPU does over time, by class of work, as union
 * coverages built once per model, so that the busy, idle and exposed
 * communication times of any window are O(log n) queries. The analyses
 * (phases, the steady-state window, findings, diff) all measure through
 * here, so they agree with each other and with the gaps and overlap verbs.
 *
 * Work, as headless/work.h defines it: kernels and whole-graph launches
 * without EVF_COMM are compute (C), those with EVF_COMM are communication
 * (M), memcpys and memsets are copies (Y). Synchronization records, API
 * calls and everything else are not work and never make a GPU busy.
 *
 * Per device that runs any work, activity_build() keeps five coverages
 * (lane.h: disjoint sorted segments with prefix busy sums): C, M, Y,
 * M \ C (in cov[ACT_CM]: |C u M| is |C| + |M \ C|) and C u M u Y ("all").
 * Where one track runs all of a device's compute, its events never
 * overlap, most of them are compute and the device's tracks hold nothing
 * but work, no set of C's size is built: ctrack points at that track's
 * coverage (the model's), cov[ACT_COMPUTE] holds the track's other events
 * (C = ctrack less them) and cov[ACT_CM] holds Y \ (C u M) (|C u M| is
 * |all| - |Y \ (C u M)|); both are about as small as Y. Read C and C u M
 * through activity_busy(), never from cov[] directly.
 * activity_busy(ACT_CM) answers |C u M|. Then, for a window [t0, t1):
 *   busy      |all| within the window
 *   exposed   |M \ C| = |C u M| - |C|: communication with no compute beside
 *             it (overlap's exposed_comm_ns)
 *   idle      (t1 - t0) - busy
 *   inner     the idle time between the first and the last busy instant
 *             inside the window (perf-advisor's total_gpu_idle_s: leading
 *             and trailing idle left out)
 *
 * Devices are listed in the order of their source ids (as `info` prints
 * them); a device without work is left out. Multi-GPU totals (act_total)
 * add the devices up: busy is then GPU-time, at most ndev times the window.
 *
 * Ownership: struct activity owns its coverages (activity_free), except
 * ctrack and the segments of views of the model's sets; the model is
 * borrowed and must outlive it.
 */
#ifndef GPULENS_ACTIVITY_H
#define GPULENS_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/work.h"
#include "model/lane.h"
#include "model/model.h"

enum act_class {
	ACT_COMPUTE = 0,	/* C */
	ACT_COMM,		/* M */
	ACT_COPY,		/* Y */
	ACT_CM,			/* C u M */
	ACT_ALL,		/* C u M u Y */
	ACT_NCLASS
};

struct act_device {
	uint32_t	 device;	/* index into m->devices */
	uint32_t	 process;	/* the owning process of its streams if
					   they all share one, else NONE32 */
	struct iset	 cov[ACT_NCLASS];
	const struct iset *ctrack;	/* NULL, or the coverage of the one
					   track that runs the device's
					   compute (see above) */
	uint64_t	 nkernels;	/* kernels and graph launches */
	uint64_t	 ncomm;		/* of them communication */
	int64_t		 first, last;	/* first work start, last work end */
};

struct activity {
	const struct model	*m;
	struct act_device	*dev;	/* devices with work */
	size_t			 ndev;
	int32_t			*slot;	/* model device -> index in dev,
					   -1 without work (m->ndevices) */
	struct iset		 any;	/* union over all devices (empty
					   after activity_build_devices()) */
};

/* What one device (or all) did in a window. */
struct act_window {
	int64_t		 span;		/* t1 - t0 */
	int64_t		 busy;		/* |all| */
	int64_t		 compute, comm, copy;
	int64_t		 exposed;	/* |M \ C| */
	int64_t		 idle;		/* span - busy */
	int64_t		 inner_idle;	/* idle between first and last busy */
	int64_t		 first, last;	/* first and last busy instant inside
					   the window; first > last if none */
};

/* The class of an event kind with flags, -1 if it is not work (inline,
 * as work_class()). */
static inline int
activity_class(int kind, unsigned flags)
{
	return work_class(kind, flags);
}
/*
 * Devices in use: device index dev is used when some GPU track (stream)
 * of it holds work (activity_class() >= 0). Only used devices count in
 * utilisation and idle shares; the others are listed as unused (summary,
 * hardware, info). activity_build() keeps exactly the used devices.
 * The model records it (struct device.used, kept in the cache head, so
 * info answers from the head alone).
 */
int	 activity_device_used(const struct model *, uint32_t dev);

/*
 * The idle share of a window over the devices in use, in GPU-time:
 * window = ndev * (t1 - t0), busy = the sum of the used devices' busy
 * times, idle_pct = 100 * (window - busy) / window (0 when no device is
 * used). It is gaps' device-scope idle summed over its devices, which is
 * its all-GPU idle when one device is used.
 */
struct act_share {
	size_t		 ndev;		/* devices in use */
	size_t		 ntotal;	/* devices of the trace */
	int64_t		 window;	/* ndev * (t1 - t0) */
	int64_t		 busy;
	int64_t		 idle;		/* window - busy */
	double		 idle_pct;
};

void	 activity_share(const struct activity *, int64_t t0, int64_t t1,
	    struct act_share *);
/* Builds the coverages of every device, and any. */
void	 activity_build(struct activity *, const struct model *);
/* The same but for any, left empty: for the analyses that never measure
 * the union over the devices (only phases and the steady window do). */
void	 activity_build_devices(struct activity *, const struct model *);
void	 activity_free(struct activity *);
/* Busy time of class cls on device slot d (0..ndev) inside [t0, t1). */
int64_t	 activity_busy(const struct activity *, size_t d, int cls,
	    int64_t t0, int64_t t1);
/* activity_busy(ACT_COMPUTE) for windows whose ends mostly do not decrease
 * (events in start order): at[] (zeroed to begin with) keeps the
 * positions of iset_measure_at(). */
int64_t	 activity_compute_at(const struct activity *, size_t d, int64_t t0,
	    int64_t t1, size_t at[4]);
/* The window figures of device slot d. */
void	 activity_window(const struct activity *, size_t d, int64_t t0,
	    int64_t t1, struct act_window *);
/*
 * The same figures added up over all devices (busy and the classes are
 * GPU-time; first and last over all devices). Returns the number of
 * devices that were busy at all inside the window.
 */
size_t	 activity_total(const struct activity *, int64_t t0, int64_t t1,
	    struct act_window *);
/* The slot of device index dev, or -1. */
int	 activity_slot(const struct activity *, uint32_t dev);

#endif
