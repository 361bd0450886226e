/*
 * ranksum: the compact summary of one rank's trace, what a job of
 * thousands of ranks is compared from without loading every rank's model
 * (`gpulens prep` writes it, `ranks` reads it; gpulens(1), RANK
 * SUMMARIES).
 *
 * Built from the model of one trace by the analyses that answer for a
 * whole model: rankscan.h with RANKSCAN_ONE (every process of the trace
 * is the rank: its first process, GPUs, span, busy time, kernel and
 * communication-kernel counts and times, its communication kernels by
 * collective with their start, end and message bytes), iters.h (its
 * iterations and marker), ranksetup.h (the rank and parallel layout NVTX
 * text states), the host its first process ran on (model_host: Kineto's
 * host_name, nsys's Hostname), busy.h (per device: busy, and idle = the
 * rank's span minus busy) and the top RANKSUM_TOPK kernels by total time (name,
 * count, total; ties by name). For `comm` and `diff` of a job
 * (ranksum-agg.c): the devices the merge keeps, the communication groups
 * of commgrp.h, and every GPU kernel name's count and total (those of the
 * communication kernels apart), memcpys by kind and memsets. What the merge of a job needs to place the
 * trace (multi.h) comes with it: its kind, clock range and UTC epoch, the
 * rank its metadata (else its NVTX text) states and whether it holds
 * several ranks.
 *
 * The file (ranksum-io.c) lives in the cache directory beside the trace's
 * model cache, "NAME-H.ranksum" (cachedir.h), and is valid while the
 * trace has the identity it was summarised from and the version is
 * RANKSUM_VERSION; it is written to a temporary file renamed into place.
 *
 * Ownership: ranksum_free frees a summary's arrays and strings.
 */
#ifndef GPULENS_RANKSUM_H
#define GPULENS_RANKSUM_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/commgrp.h"
#include "analysis/ranksetup.h"
#include "model/cachedir.h"
#include "model/model.h"

#define RANKSUM_VERSION	4
#define RANKSUM_SUFFIX	".ranksum"
#define RANKSUM_TOPK	15

struct ranksum_coll {
	uint32_t	 coll;		/* index into names */
	int64_t		 start, end;
	int64_t		 bytes;		/* message bytes, -1 unknown */
};

struct ranksum_dev {
	uint32_t	 id;		/* device id in the source */
	int64_t		 busy, idle;
};

struct ranksum_kern {
	uint32_t	 name;		/* index into names */
	uint64_t	 count;
	int64_t		 total_ns;
};

struct ranksum_copy {
	uint32_t	 kind;		/* enum copy_kind, RANKSUM_MEMSET */
	uint64_t	 count;
	int64_t		 total_ns;
};
#define RANKSUM_MEMSET	UINT32_MAX

struct ranksum {
	/* The trace. */
	uint8_t		 source;	/* enum source_kind */
	int64_t		 origin_ns, end_ns, utc_epoch_ns;
	uint64_t	 nevents;
	int32_t		 stated_rank;	/* metadata's, else NVTX's, or -1 */
	int		 several;	/* holds processes of several ranks */
	/* The rank: none (nprocs 0) when the trace has no process. */
	uint32_t	 nprocs;
	uint32_t	 pid;		/* its first process's */
	char		*pname;		/* "" when it has none */
	int		 has_pname;
	char		*host;		/* the host it ran on (model_host),
					   "" when unknown */
	int32_t		 nvtx_rank;	/* ranksetup of that process, -1 */
	char		*parallel;	/* "pp=1/4 dp=0/2", or "" */
	uint32_t	 gpus;
	int64_t		 first, last;	/* first INT64_MAX when empty */
	int64_t		 busy, kernel_ns, comm_ns;
	uint64_t	 kernels, comm;
	int64_t		 mpi_ns;	/* MPI wait (rankscan.h) */
	uint64_t	 mpi_calls;
	char		*marker;	/* iteration marker, or "" */
	int64_t		*iter;		/* start, end pairs: 2 * niter */
	size_t		 niter;
	struct ranksum_coll *c;		/* by collective, start, end */
	size_t		 nc;
	struct ranksum_dev *dev;
	size_t		 ndev;
	struct ranksum_kern *top;	/* by total, descending */
	size_t		 ntop;
	/* What `comm` and `diff` of a job need (ranksum-agg.c). */
	uint32_t	*gpu;		/* source ids of the devices its
					   streams or tracks use (the merge
					   keeps them), in device order */
	size_t		 ngpu;
	struct commgrp_set cg;		/* commgrp.h over the whole trace */
	struct ranksum_kern *kall;	/* every GPU kernel, by name */
	size_t		 nkall;
	struct ranksum_kern *kcomm;	/* its communication kernels */
	size_t		 nkcomm;
	struct ranksum_copy *copy;	/* memcpys by kind, memsets */
	size_t		 ncopy;
	/* activity.h over the whole trace, summed over its devices. */
	uint32_t	 act_ndev;
	int64_t		 act_busy, act_compute, act_comm, act_exposed;
	char		**names;	/* collectives and kernel names */
	size_t		 nnames;
};

/* Summarises model m (one rank's trace). */
void	 ranksum_build(const struct model *, struct ranksum *);
/* The aggregates of m that `comm` and `diff` need (ranksum-agg.c),
 * kernel names interned into pool. */
struct strpool;
void	 ranksum_agg(const struct model *, struct strpool *,
	    struct ranksum *);
void	 ranksum_free(struct ranksum *);

/* "<cache dir>/NAME-H.ranksum" of trace (malloc'd), or NULL. */
char	*ranksum_path(const char *trace, int create);
/*
 * Writes s, the summary of trace as identity id gave it, to its file.
 * Returns 0, or -1 with *cause.
 */
int	 ranksum_write(const char *trace, const struct cachedir_ident *id,
	    const struct ranksum *s, char **cause);
/*
 * Reads the summary of trace: 1 with *s filled (ranksum_free it) when a
 * valid one is there, 0 when there is none or it is stale, of another
 * version or damaged.
 */
int	 ranksum_read(const char *trace, struct ranksum *s);

#endif
