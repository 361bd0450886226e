/*
 * multi: a distributed job as one model: a directory of traces, or several
 * trace files, one per rank (any format source_load reads; in practice one
 * PyTorch profiler trace per rank).
 *
 * A directory contributes its regular files whose names end in ".json",
 * ".json.gz", ".json.zst" or ".sqlite" (hidden files, such as gpulens's
 * own caches, are skipped), in name order. The files are loaded in
 * parallel (at most MULTI_THREADS at a time), each through source_load()
 * and so through its own cache, then merged (merge.h).
 *
 * Rank of each file: the rank its trace states (Kineto distributedInfo),
 * else the one its NVTX text states ("rank=N; pp=R/S ...",
 * analysis/ranksetup.h: the first process's that has one), else the one
 * its name states (kineto_rank_from_name), else the lowest
 * rank no other file has; a file that holds several ranks (a merged job,
 * kineto-ranks.c) keeps its own. Two files stating the same rank are kept both,
 * with a warning. The merged model's processes are in rank order.
 *
 * The files must make one job (multi_check): traces of different kinds,
 * or whose clocks are more than MULTI_CLOCK_GAP_NS apart, are refused,
 * naming the odd one. Nsight Systems exports, which count from their own
 * session's start, are put on the first export's clock through the UTC
 * time each states for its time 0.
 */
#ifndef GPULENS_MULTI_H
#define GPULENS_MULTI_H

#include "model/model.h"
#include "sources/source.h"

#define MULTI_THREADS	4
/* Traces further apart than this on the common clock are not one job. */
#define MULTI_CLOCK_GAP_NS	(INT64_C(3600) * 1000000000)

/*
 * Loads paths[0, n): a single regular file is simply source_load()ed;
 * a directory, or several paths, make a merged model. Returns the model
 * (free with model_free) or NULL with *cause (caller frees) naming the
 * file that failed.
 */
struct model	*multi_load(char *const *paths, int n, const struct load_opts *,
		    char **cause);
/*
 * What multi_load does once it has loaded the files[0, n) (n >= 2) as
 * models[0, n): checks they make one job, gives each its rank and merges
 * them. Consumes (frees) every model, also on failure; files are
 * borrowed. Returns the model or NULL with *cause.
 */
struct model	*multi_merge(char *const *files, struct model **models,
		    size_t n, char **cause);
/*
 * Whether the loaded traces m[0, n) (of files[0, n), in the order given)
 * can be one job (multi-check.c): all of one kind, and clocks that overlap
 * or lie within MULTI_CLOCK_GAP_NS of each other once aligned. Sets
 * shift[i], the nanoseconds to add to m[i]'s times to put them on m[0]'s
 * clock (Nsight Systems exports: the difference of their UTC epochs; else
 * 0). Returns 0, or -1 with *cause naming the odd trace and why.
 */
int		 multi_check(char *const *files, struct model *const *m,
		    size_t n, int64_t *shift, char **cause);
/*
 * The trace files paths[0, n) stand for (directories expanded as above):
 * returns their number and sets *files (free each and the array), or -1
 * with *cause.
 */
int		 multi_expand(char *const *paths, int n, char ***files,
		    char **cause);
/*
 * Rank placement, shared with jobsum.c. The n elements of size bytes at
 * base each hold an int rank at byte off: every rank -1 becomes, in turn,
 * the lowest rank no element holds; skip[i] set (skip may be NULL) leaves
 * element i at -1.
 */
void		 multi_free_ranks(void *base, size_t n, size_t size,
		    size_t off, const char *skip);
/* The order of traces: by rank, then by name (for qsort comparators). */
int		 multi_rank_cmp(int, const char *, int, const char *);
/* dup (NULL: empty) with "RANK (NAME)" added while it is short: the ranks
 * stated by more than one trace. Consumes dup; returns the list. */
char		*multi_rank_dup(char *dup, int rank, const char *name);

#endif
