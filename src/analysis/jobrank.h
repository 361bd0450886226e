/*
 * jobrank: the ranks of a distributed job compared, what `ranks` prints
 * (headless/cmd-ranks.c) and the TUI's job overview shows (tui/view-job.c):
 * per rank its GPUs, span, GPU busy time, kernel and communication time,
 * MPI wait, iterations (count, median, mean, slowest), collective wait and
 * how often it was last; for the job the straggler, the collectives
 * matched, their skew, and the spreads of the per-rank figures.
 *
 * Filled either from one merged model (jobrank_from_model: rankscan.h and
 * iters.h over the whole model) or from the ranks' summaries (ranksum.h)
 * without any model: jobrank_init, then jobrank_take for each file's
 * summary (a jobsum_take_fn), jobrank_place for each file once its rank
 * and clock shift are known (in rank order, then file), and jobrank_finish.
 * Both give the same figures for the same job.
 *
 * A rank is the set of processes (files) with that rank. Its process (pid,
 * name, host, parallel layout) is its first that owns GPU streams, else
 * its first: from summaries, the first file's, or the first file's with
 * GPUs; its host is the one that process ran on (model_host), so both
 * ways name the same host. Collectives are
 * matched across ranks by name and occurrence: the k-th AllReduce of each
 * rank is one collective, for k below the smallest count any rank has. In
 * each the rank whose kernel started last is the one the others waited
 * for; each rank's wait is the last start minus its own. The straggler is
 * the rank last most often (at least once; ties go to the one that made
 * the others wait longest), in a job of two or more ranks.
 *
 * Spreads are (max - min) / median over the ranks, in percent (0 when
 * undefined); a rank without iterations is left out of the iteration
 * spread (noiter counts them).
 *
 * A rank's top kernel (from summaries) is the kernel name with the most
 * GPU time over all of its files (every name's total, ranksum.h's kall,
 * summed by name; ties by name), not the top kernel of one file.
 *
 * Once finished, a rank keeps only its figures (its iteration times and
 * collectives are freed; nc still counts the collectives): a few hundred
 * bytes per rank.
 *
 * Ownership: jobrank_free frees everything a jobrank holds.
 */
#ifndef GPULENS_JOBRANK_H
#define GPULENS_JOBRANK_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/rankscan.h"
#include "analysis/ranksum.h"
#include "analysis/stats.h"
#include "model/model.h"
#include "util/strpool.h"

/* A kernel name's total time (private: a rank's top kernel). */
struct jobrank_kern {
	uint32_t	 name;		/* in the job's local pool */
	int64_t		 total_ns;
};

struct jobrank_rank {
	int		 rank;
	uint32_t	 pid;
	char		*name;		/* "rank R NAME" from summaries */
	char		*file;		/* its (first) trace; NULL from a
					   merged model */
	char		**files;	/* from summaries: all its traces, in
					   the order placed (files[0] is
					   file) */
	size_t		 nfiles;
	char		*host;		/* the host its process ran on
					   (model_host), or NULL */
	int32_t		 nvtx_rank;	/* -1: none */
	char		*parallel;	/* "pp=R/S dp=R/S", or "" */
	uint32_t	 gpus;
	int64_t		 first, last;	/* span; first > last when empty */
	int64_t		 span;		/* last - first, or 0 */
	int64_t		 busy, kernel_ns, comm_ns;
	uint64_t	 kernels, comm;
	double		 util_pct;	/* busy / (span x gpus) */
	double		 comm_pct;	/* comm_ns / busy */
	int64_t		 mpi_ns;	/* MPI wait */
	uint64_t	 mpi_calls;
	double		 mpi_pct;	/* mpi_ns / span */
	struct stats	 iter;		/* its iteration times */
	int64_t		 wait;		/* collective wait */
	int64_t		 caused;	/* wait it caused others */
	uint64_t	 nlast;		/* collectives it was last at */
	char		*top_kernel;	/* summaries: most time over its
					   files, or NULL */
	int64_t		 top_kernel_ns;
	/* Private. */
	struct jobrank_kern *k;		/* kernel totals by name (summaries) */
	size_t		 nk;
	struct stats_acc iters;
	struct rankscan_coll *c;	/* NULL once finished */
	size_t		 nc, pos;
};

struct jobrank {
	struct jobrank_rank *r;		/* by rank */
	size_t		 nr;
	size_t		 straggler;	/* index in r, or SIZE_MAX */
	double		 straggler_last_pct;
	size_t		 matched;	/* collectives matched */
	struct stats	 skew;		/* last start - first start */
	struct stats	 iter;		/* every rank's iterations */
	char		*marker;	/* iteration marker, or "" */
	double		 iter_spread_pct, comm_spread_pct, busy_spread_pct;
	double		 mpi_wait_spread_pct;
	uint64_t	 mpi_calls;	/* every rank's */
	size_t		 noiter;	/* ranks without iterations */
	int		 guessed;	/* no rank information */
	int		 from_nvtx;	/* ranks from NVTX text */
	/* Private. */
	struct strpool	*local;		/* collective names */
	struct strpool	*kpool;		/* kernel names */
	struct stats_acc all;
	struct jobrank_rank *pre;	/* per file, from summaries */
	uint8_t		*has_pname;
	char		**pmarker;
	size_t		 nfiles;
	int64_t		 most;
};

/* The ranks of merged model m, compared. */
void	 jobrank_from_model(const struct model *, struct jobrank *);

/* From summaries: nfiles files. */
void	 jobrank_init(struct jobrank *, size_t nfiles);
/* Keeps what file index's summary gives (a jobsum_take_fn; arg is the
 * jobrank). */
void	 jobrank_take(void *arg, size_t index, struct ranksum *);
/* Adds file index as rank `rank` on the job's clock (+shift); file is
 * copied. */
void	 jobrank_place(struct jobrank *, size_t index, int rank,
	    int64_t shift, const char *file);
/* Compares the ranks placed. */
void	 jobrank_finish(struct jobrank *);

void	 jobrank_free(struct jobrank *);

#endif
