/*
 * verb-job: whether a job verb (comm, ranks) answers from its ranks'
 * summaries (sources/jobsum.h) or has the driver merge the models.
 */
#ifndef GPULENS_VERB_JOB_H
#define GPULENS_VERB_JOB_H

#include "headless/cmd.h"

/*
 * The trace files of the verb's arguments when the ranks' summaries answer
 * (not --full, and jobsum_wanted with --summaries): returns their number
 * with *files (free with jobsum_files_free); 0 when the models are to be
 * merged (the verb's job returns CMD_LOAD); -1 with *code and *cause when
 * the arguments name no trace.
 */
int	 verb_job_files(const struct cmd_ctx *, char ***files,
	    const char **code, char **cause);

#endif
