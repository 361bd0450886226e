/*
 * rankscan: the ranks of a distributed job as one model holds them, and
 * per rank what `ranks` compares (headless/cmd-ranks.c): its GPUs, span,
 * GPU busy time, kernel and communication-kernel counts and times, and its
 * communication kernels by collective.
 *
 * A rank is the set of processes with that rank (process.rank); in a
 * trace without rank information every process that owns GPU streams (else
 * every process) is a rank, numbered in process order (guessed), unless
 * NVTX text (ranksetup.h) names a distinct rank for each of them
 * (from_nvtx). With RANKSCAN_ONE every process is one rank (a trace of
 * one rank, summarised on its own: ranksum.h); its rank is the first
 * process rank >= 0, else -1.
 *
 * Per rank: process, its first process (the first that owns GPU streams,
 * else the first); gpus, the devices its GPU tracks run on; busy, the sum
 * over those devices of busy_device_total (busy.h); first and last, the
 * span of all its tracks' events; kernels and kernel_ns over EV_KERNEL on
 * its GPU tracks, comm and comm_ns over those flagged EVF_COMM; mpi_ns
 * and mpi_calls, its processes' MPI wait and calls as mpi.h counts them; c, its
 * communication kernels, each with its collective (comm_identify's name,
 * interned in the caller's pool) and times, sorted by collective, start
 * and end; with RANKSCAN_BYTES each has its message bytes: elements x
 * element size of the kernel's collective args, the output elements for
 * a collective sized by its output (AllGather, Gather), else the input.
 *
 * Ownership: rankscan_free frees what rankscan_build allocated, not the
 * pool.
 */
#ifndef GPULENS_RANKSCAN_H
#define GPULENS_RANKSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ranksetup.h"
#include "model/model.h"
#include "util/strpool.h"

#define RANKSCAN_ONE	0x1	/* every process is one rank */
#define RANKSCAN_BYTES	0x2	/* message bytes of each collective */

struct rankscan_coll {
	uint32_t	 coll;		/* collective (pool string id) */
	int64_t		 start, end;
	int64_t		 bytes;		/* RANKSCAN_BYTES: message bytes (the
					   kernel's collective args, as comm
					   sizes them), else -1 */
};

struct rankscan_rank {
	int		 rank;
	uint32_t	 process;	/* first process of the rank */
	uint32_t	 gpus;
	int64_t		 first, last;	/* span; first INT64_MAX if empty */
	int64_t		 busy, kernel_ns, comm_ns;
	uint64_t	 kernels, comm;
	int64_t		 mpi_ns;	/* time in MPI calls other than set-up
					   (mpi.h), its processes summed */
	uint64_t	 mpi_calls;	/* MPI calls of every class */
	struct rankscan_coll *c;
	size_t		 nc, ccap;
};

struct rankscan {
	struct rankscan_rank *r;	/* by rank, then process */
	size_t		 nr;
	uint32_t	*rank_of;	/* process -> index in r, or NONE32 */
	int		 guessed;	/* no rank information */
	int		 from_nvtx;	/* ranks from NVTX text */
	struct rank_setup *setup;	/* per process (ranksetup_build) */
};

void	 rankscan_build(const struct model *, int flags, struct strpool *,
	    struct rankscan *);
void	 rankscan_free(struct rankscan *);
/* Sorts c[0, n) by collective, start and end. */
void	 rankscan_sort(struct rankscan_coll *c, size_t n);

#endif
