/*
 * jobdiff: what `diff` compares of a job, added up from its ranks'
 * summaries (ranksum.h) one at a time, so that two jobs of thousands of
 * ranks are compared in the memory of their aggregates.
 *
 * Per job: every GPU kernel name's count and total time; the
 * communication kernels by collective (comm_collective of their name,
 * as diff groups them); memcpys by kind and memsets; the iterations'
 * durations and marker (the first rank's with iterations); and the side
 * figures: devices in use, busy, compute, communication and exposed
 * communication time summed over them. The names are in the order first
 * seen.
 *
 * Ownership: jobdiff_free frees everything.
 */
#ifndef GPULENS_JOBDIFF_H
#define GPULENS_JOBDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ranksum.h"
#include "model/model.h"
#include "util/hmap.h"

struct jobdiff_agg {
	uint32_t	 name;		/* id in names */
	uint64_t	 count;
	int64_t		 total_ns;
};

struct jobdiff {
	struct strpool		*names;
	struct jobdiff_agg	*kern;		/* kernels by name */
	size_t			 nkern, kcap;
	struct hmap		 kern_at;	/* name id -> index */
	struct jobdiff_agg	*comm;		/* by collective */
	size_t			 ncomm, ccap;
	struct hmap		 comm_at;
	uint64_t		 copy_n[COPY_KIND_COUNT];
	int64_t			 copy_ns[COPY_KIND_COUNT];
	uint64_t		 memset_n;
	int64_t			 memset_ns;
	char			*marker;	/* NULL: no iterations yet */
	int64_t			*iter;		/* durations */
	size_t			 niter, icap;
	size_t			 gpus;
	int64_t			 busy, compute, comm_ns, exposed;
};

void	 jobdiff_init(struct jobdiff *);
/* Adds one rank's summary. */
void	 jobdiff_add(struct jobdiff *, const struct ranksum *);
const char *jobdiff_name(const struct jobdiff *, uint32_t);
void	 jobdiff_free(struct jobdiff *);

#endif
