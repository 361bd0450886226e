/*
 * jobload: a distributed job's ranks compared (analysis/jobrank.h) from
 * their summaries (jobsum.h), without loading any rank's model beyond
 * those whose summaries are missing: what `ranks` answers a large job
 * from and the TUI's job overview shows.
 */
#ifndef GPULENS_JOBLOAD_H
#define GPULENS_JOBLOAD_H

#include <stddef.h>

#include "analysis/jobrank.h"
#include "sources/jobsum.h"

/*
 * Reads the summaries of files[0, n) (taken over, as jobsum_load) and
 * fills *jr (jobrank_free it) and *js (jobsum_free it). Returns 0; 1 with
 * *cause when a file holds several ranks (merge the models instead); -1
 * with *cause. On failure nothing is left to free.
 */
int	 jobload_ranks(char **files, size_t n, const struct load_opts *,
	    struct jobrank *jr, struct jobsum *js, char **cause);

#endif
