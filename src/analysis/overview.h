/*
 * overview: what the one-screen overview (`gpulens summary`) reports of a
 * trace, over its whole span [origin, end): per device the busy,
 * communication and copy time (the activity analysis, activity.h: unions
 * of each class's work on the device), the kernels' count and time and the
 * bytes its copies moved; over the trace the copies per direction, the
 * kernels per name (ktop.h, sorted), the iterations (iters.h) with their
 * median length and median time blocked on the GPU, and the host time
 * blocked on the GPU (syncwait.h).
 *
 * The parts write apart and are built side by side on the pool: the
 * activity, the iterations, the synchronisation waits and the devices'
 * kernels and copies, each device one job (the devices of a thread summed
 * into its own list of names and directions, added up after: the sums are
 * integer, so the answer does not depend on the threads).
 *
 * Kernel and copy times are the sums of their events' durations (not
 * unions); copies without a copy record count in neither.
 *
 * Ownership: overview_build() fills a struct whose arrays, activity,
 * iterations and waits are freed with overview_free(). It borrows the
 * model, which must outlive it.
 */
#ifndef GPULENS_OVERVIEW_H
#define GPULENS_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/activity.h"
#include "analysis/iters.h"
#include "analysis/ktop.h"
#include "analysis/syncwait.h"
#include "model/model.h"

/* One device (index into m->devices) over the span. */
struct overview_dev {
	int		 used;		/* activity_slot() >= 0 */
	int64_t		 busy;		/* union of its work */
	int64_t		 comm, copy;	/* unions of those classes' work */
	uint64_t	 kernels;
	int64_t		 kernel_ns;	/* sum of their durations */
	uint64_t	 memcpy_bytes;
};

/* The copies of one direction (enum copy_kind). */
struct overview_copy {
	uint64_t	 count;
	uint64_t	 bytes;
	int64_t		 ns;		/* sum of their durations */
};

struct overview {
	const struct model	*m;
	int64_t			 span;		/* end - origin */
	struct overview_dev	*dev;		/* per device (m->ndevices) */
	size_t			 ndev;
	int64_t			 busy, comm;	/* sums over the devices */
	struct act_share	 share;		/* devices in use, idle share */
	struct overview_copy	 copy[COPY_KIND_COUNT];
	struct ktop		 ktop;		/* every kernel, sorted */
	struct activity		 act;		/* activity_build_devices() */
	struct iters		 it;		/* valid when it_ok */
	int			 it_ok;
	double			 it_median;	/* median length (ns) */
	double			 it_sync_median; /* median blocked (ns) */
	struct syncwait		 sw;		/* over the span */
};

void	 overview_build(const struct model *, struct overview *);
void	 overview_free(struct overview *);

#endif
