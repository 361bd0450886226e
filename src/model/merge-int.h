/*
 * merge-int: the state of a merge (merge.c), shared with the merge of the
 * host tables (merge-host.c).
 */
#ifndef GPULENS_MERGE_INT_H
#define GPULENS_MERGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "model/callchain.h"
#include "model/model.h"
#include "util/hmap.h"

struct merge {
	struct model	*out;
	size_t		 devcap, proccap, thrcap, strcap, domcap, trackcap;
	size_t		 kcap, ccap, ncap, countcap, metacap, opcap;
	size_t		 cthcap, scap, schcap, runcap;
	struct hmap	 gtid_taken;	/* thread source ids of the merged
					   model */
	struct cpusamp_build csb;	/* frames and chains, stored once */

	/* Per input. */
	const struct model *in;
	uint32_t	*smap;		/* string id -> merged id */
	uint32_t	 nstr;
	uint32_t	*dmap, *pmap, *tmap, *stmap, *dommap;
	int64_t		 shift;		/* added to every time */
	struct hmap	 gtid_salt;	/* thread source id -> what is added
					   to it (merge_gtid) */
	uint32_t	*chmap;		/* chain -> merged chain */
};

/* The merged string id of the input's sid. */
uint32_t	merge_sid(struct merge *, uint32_t sid);
/*
 * The merged source id of a thread of the input (globalTid): itself,
 * unless an earlier input has a thread of that id: then id + k << 56 for
 * the least k >= 1 that no thread has, the same for every table of the
 * input (threads, scheduling, samples), so each stays unique and they
 * still name one another.
 */
uint64_t	merge_gtid(struct merge *, uint64_t id);
/* Appends the input's call chains (g->chmap: their merged indices), CPU
 * samples and scheduling. */
void		merge_host(struct merge *);
/* Once every input is in: the scheduling threads ordered by source id. */
void		merge_host_finish(struct merge *);

#endif
