/*
 * jobsum: a distributed job read from its ranks' summaries (ranksum.h)
 * instead of merging every rank's model (multi.h), so that a job of
 * thousands of ranks is compared in the memory of a few models.
 *
 * The files are those multi_expand gives (a directory's traces in name
 * order). Each file's summary is read from the cache directory when it is
 * valid; else the file is loaded (source_load, through its cache),
 * summarised and, unless opts->no_cache, its summary written, at most
 * MULTI_THREADS files at a time, each model freed once summarised.
 *
 * The ranks and clocks are those multi_load would give the merged model:
 * a file's rank is the one its metadata, else its NVTX text, else its name
 * states, else the lowest rank no other file has; the files must be of one
 * kind on one clock (multi_check, from each summary's kind, clock range
 * and UTC epoch), and shift[i] puts file i on the first file's clock.
 * Ranks are in rank order, then file name. A job with a file that holds
 * several ranks cannot be answered from summaries (jobsum_load returns 1).
 */
#ifndef GPULENS_JOBSUM_H
#define GPULENS_JOBSUM_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/ranksum.h"
#include "sources/source.h"

/* A job of more ranks than this is compared from summaries by default. */
#define JOBSUM_THRESHOLD	64
/* Summaries read at a time. */
#define JOBSUM_BATCH		64

struct jobsum_rank {
	char		*file;
	size_t		 index;		/* in name order (jobsum_take_fn) */
	int		 rank;
	int64_t		 shift_ns;	/* onto the first file's clock */
	/* What placing it needs, from its summary. */
	uint8_t		 source;
	int64_t		 origin_ns, end_ns, utc_epoch_ns;
	uint64_t	 nevents;
	int32_t		 stated_rank;
	int		 several;
};

struct jobsum {
	struct jobsum_rank *r;		/* by rank, then file */
	size_t		 n;
	size_t		 built;		/* summaries made now, not read */
	char		*dup;		/* ranks stated twice ("3 (f), ..."),
					   or NULL */
};

/*
 * Takes what the caller keeps of the summary of file index (name order),
 * in this thread, in name order; the summary is freed after (take what is
 * kept by setting its pointers to NULL).
 */
typedef void	(*jobsum_take_fn)(void *arg, size_t index, struct ranksum *);

/*
 * Whether a job of nf files is answered from its ranks' summaries: of two
 * files or more, when asked (--summaries) or when it has more than
 * JOBSUM_THRESHOLD files. The one rule of `ranks`, `comm`, `diff` and the
 * TUI's job overview (--full is each caller's, before it expands).
 */
int	 jobsum_wanted(int nf, int asked);
/* Frees files[0, nf) and the array, as multi_expand gave them. */
void	 jobsum_files_free(char **files, int nf);

/*
 * Loads the summaries of files[0, n) (taken over: freed by jobsum_free,
 * also on failure), JOBSUM_BATCH at a time, handing each to take: memory
 * holds one batch of summaries and what take keeps. Returns 0; 1 with
 * *cause when a file holds several ranks (merge the models instead); -1
 * with *cause naming the file that failed or the odd one out.
 */
int	 jobsum_load(char **files, size_t n, const struct load_opts *,
	    jobsum_take_fn take, void *arg, struct jobsum *, char **cause);
void	 jobsum_free(struct jobsum *);
/*
 * Summarises one trace: its valid summary, else its model loaded (through
 * its cache) and summarised, the summary written unless opts->no_cache.
 * Returns 1 when read, 0 when built, -1 with *cause.
 */
int	 jobsum_one(const char *file, const struct load_opts *,
	    struct ranksum *, char **cause);

#endif
