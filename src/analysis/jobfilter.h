/*
 * jobfilter: which ranks of a job (jobrank.h) a filter typed on the TUI's
 * job overview keeps.
 *
 * A filter is terms separated by commas or blanks; a rank matches when any
 * term does. A term of digits ("12") matches that rank number, a range of
 * them ("0-7") the ranks in it; any other term matches when it is part of
 * the rank's process name ("rank 3 python3"), of the host it ran on
 * ("node07") or of one of its traces' paths, ignoring case. An
 * empty filter (or one of blanks only) matches every rank.
 */
#ifndef GPULENS_JOBFILTER_H
#define GPULENS_JOBFILTER_H

#include "analysis/jobrank.h"

/* Whether rank r matches filter f. */
int	 jobfilter_match(const char *f, const struct jobrank_rank *r);

#endif
