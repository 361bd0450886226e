/*
 * mpi: the time processes spend in MPI calls, per rank and per operation.
 *
 * An MPI call is an NVTX range named MPI_<Name> (or PMPI_<Name>) in the
 * NVTX domain "MPI", which is how Nsight Systems' MPI trace records them
 * (`--trace=mpi`; ranges pushed by its MPI interposer), or a range of that
 * name in any domain. Marks are not calls. Operations fall in classes:
 *   p2p        Send, Recv, Isend, Irecv, Sendrecv, Probe, ... (point to
 *              point, blocking or not)
 *   wait       Wait*, Test* (completion of non-blocking calls)
 *   collective Barrier, Bcast, Reduce, Allreduce, Allgather, Alltoall,
 *              Gather, Scatter, Scan, ... and their I- forms
 *   onesided   Put, Get, Accumulate, Win_*
 *   setup      Init, Init_thread, Finalize, Comm_*, Type_*, Group_*, ...
 *              (not counted in a rank's MPI time)
 *   other      the rest
 * A rank's mpi_ns is the time in calls other than setup (calls on one
 * thread nest rarely; nested calls count once, the outermost); its share
 * is of the rank's span (first to last event of its process). This is the
 * per-rank MPI time perf-advisor reports; ranks uses it beside GPU busy.
 * A process's rank is process.rank where the source gives it, else its
 * order among the processes that make MPI calls.
 *
 * Calls also come from the MPI_* tables of newer Nsight Systems exports,
 * which the reader loads as ranges of a domain "MPI" whose source id is
 * DOMAIN_MPI_TABLES (model.h); their payload is the bytes the call moved
 * where the table records them (bytes, nbytes below).
 *
 * Calls count when they start inside [t0, t1).
 *
 * Ownership: struct mpi_result owns its arrays (mpi_free).
 */
#ifndef GPULENS_MPI_H
#define GPULENS_MPI_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum mpi_class {
	MPI_CL_P2P,
	MPI_CL_WAIT,
	MPI_CL_COLLECTIVE,
	MPI_CL_ONESIDED,
	MPI_CL_SETUP,
	MPI_CL_OTHER,
	MPI_CL_COUNT
};

/* One operation on one process. */
struct mpi_op {
	uint32_t	 process;	/* index into the model's processes */
	int32_t		 rank;
	const char	*name;		/* "MPI_Send" (the model's string) */
	int		 cls;		/* enum mpi_class */
	uint64_t	 count;
	int64_t		 total_ns, min_ns, max_ns;
	double		 median_ns;
	uint64_t	 bytes;		/* summed over the calls that record
					   them */
	uint64_t	 nbytes;	/* calls that record bytes */
};

/* One process (rank) that makes MPI calls. */
struct mpi_rank {
	uint32_t	 process;
	int32_t		 rank;
	uint64_t	 calls;		/* every class */
	int64_t		 mpi_ns;	/* calls other than setup, nested
					   once */
	int64_t		 setup_ns;
	int64_t		 class_ns[MPI_CL_COUNT];
	int64_t		 span_ns;	/* the process's span */
	uint64_t	 bytes;		/* recorded bytes, every class */
};

struct mpi_result {
	struct mpi_op	*ops;		/* by rank, then total (largest
					   first), then name */
	size_t		 nops;
	struct mpi_rank	*ranks;		/* by rank */
	size_t		 nranks;
	uint64_t	 calls;
	uint64_t	 nbytes;	/* calls that record bytes */
	uint64_t	 ntables;	/* calls from the MPI_* tables */
};

/* "p2p", "wait", "collective", "onesided", "setup", "other". */
const char	*mpi_class_name(int cls);
/* The class of an operation name (MPI_Send, PMPI_Allreduce, ...); -1 when
 * the name is not an MPI call. */
int		 mpi_classify(const char *name);
/* The MPI calls starting in [t0, t1). */
void		 mpi_build(const struct model *, int64_t t0, int64_t t1,
		    struct mpi_result *);
void		 mpi_free(struct mpi_result *);

#endif
