/*
 * gapcpu: what the CPU of a set of processes did during a GPU gap, for the
 * gaps verb's cpu_activity columns.
 *
 * Inside the gap [s, e), the processes' API calls and GPU sync records are
 * clipped to it and sorted into classes, whose unions are measured with
 * one priority so that each instant counts once:
 *   synchronizing  a sync record on the GPU, or a call whose name holds
 *                  Synchronize or StreamWaitEvent
 *   copying        a cudaMemcpy/cuMemcpy/hipMemcpy call, where not
 *                  synchronizing
 *   launching      any other API call, where neither of the above
 *   nothing        the rest of the gap
 * The share of each (percent of the gap) and the class with the most time
 * (the first on ties) are the result.
 *
 * Ownership: struct gapcpu owns its per-string class cache and buffer
 * (gapcpu_free); the model is borrowed.
 */
#ifndef GPULENS_GAPCPU_H
#define GPULENS_GAPCPU_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum gapcpu_class {
	GAPCPU_SYNC, GAPCPU_COPY, GAPCPU_LAUNCH, GAPCPU_NONE, GAPCPU_N
};

struct gapcpu {
	const struct model	*m;
	uint8_t			*api_class;	/* per string id: 1 + class */
	uint32_t		*idx;
	size_t			 icap;
};

void	 gapcpu_init(struct gapcpu *, const struct model *);
void	 gapcpu_free(struct gapcpu *);
/* "synchronizing", "copying", "launching", "nothing". */
const char *gapcpu_name(int);
/*
 * The classes' shares of [s, e) in pct[GAPCPU_N] for the processes procs
 * (np == 0: every process); returns the dominant class.
 */
int	 gapcpu_share(struct gapcpu *, const uint32_t *procs, size_t np,
	    int64_t s, int64_t e, double *pct);

#endif
