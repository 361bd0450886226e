/*
 * view-job: the job overview, the first view of a large distributed job
 * (more than JOBSUM_THRESHOLD rank traces, or `gpulens --summaries DIR`):
 * one row per rank from the ranks' summaries (analysis/jobrank.h, what
 * `ranks` prints), without any rank's model loaded: rank, host (where
 * some trace names its host), GPUs, iterations, median iteration time,
 * GPU busy share, communication time, MPI wait, collective wait and the
 * trace file ("+N" when the rank has N more), sortable by column, the
 * straggler marked; above the rows the job's straggler and spreads; the
 * footer names the selected rank's traces, host and top kernel. / filters
 * the rows (analysis/jobfilter.h: numbers, ranges, names, hosts, paths;
 * the title counts the ranks that match, the spreads stay the whole
 * job's), Esc clears the filter. Enter opens the selected rank's traces,
 * all of them as one model, in the usual views (app.c, rankload.h: the
 * progress on screen while they load, Esc or Ctrl-C cancels), q there
 * comes back, Q quits.
 *
 * The view's data is view_env.arg, a struct jobrank (borrowed); its model
 * is NULL.
 */
#ifndef GPULENS_VIEW_JOB_H
#define GPULENS_VIEW_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/jobrank.h"
#include "tui/view.h"

/* Sort keys, in the order sort-next cycles them. */
enum view_job_sort {
	VJ_SORT_RANK,
	VJ_SORT_MEDIAN,
	VJ_SORT_BUSY,
	VJ_SORT_COMM,
	VJ_SORT_MPI,
	VJ_SORT_WAIT,
	VJ_SORT_ITERS,
	VJ_SORT_GPUS,
	VJ_SORT_FILE,
	VJ_SORT_HOST,		/* last: off in a job without hosts */
	VJ_SORT_COUNT_
};

extern const struct view_ops	view_job_ops;
extern const struct view_action	view_job_actions[];
extern const size_t		view_job_nactions;

/* The sort key's name ("rank", "median iteration", ...). */
const char	*view_job_sort_name(int key);
/*
 * The rows of j in the order of sort key `key` (descending with desc),
 * ties by rank: idx[0, j->nr) gets indices into j->r.
 */
void		 view_job_order(const struct jobrank *, int key, int desc,
		    uint32_t *idx);
/* The same order, only the ranks filter matches (jobfilter.h): returns
 * how many, idx[0, that) their indices. */
size_t		 view_job_rows(const struct jobrank *, const char *filter,
		    int key, int desc, uint32_t *idx);

#endif
