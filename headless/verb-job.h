/*
 * verb-job: whether a job verb (comm, ranks) answers from its ranks'
 * summaries (sources/jobsum.h) or has the driver merge the models.
 */
#ifndef GPULENS_VERB_JOB_H
#define GPULENS_VERB_JOB_H

#include "headless/cmd.h"

/*
 * The rows of a job verb's own options (cmd_entry.vopts) that choose how
 * its traces are read: --summaries (with the verb's help) and --full.
 */
#define VERB_JOB_VOPTS(summaries_help)					\
	{ "--summaries", NULL, summaries_help, CMD_OPT_OWN, NULL },	\
	{ "--full", NULL, "merge every rank's model, however many",	\
	    CMD_OPT_OWN, NULL }

/*
 * The trace files of the verb's arguments when the ranks' summaries answer
 * (not --full, and jobsum_wanted with --summaries): returns their number
 * with *files (free with jobsum_files_free); 0 when the models are to be
 * merged (the verb's job returns CMD_LOAD); -1 with *code and *cause when
 * the arguments name no trace.
 */
int	 verb_job_files(const struct cmd_ctx *, char ***files,
	    const char **code, char **cause);
/*
 * What a job verb returns when its summaries did not load (rc, as
 * jobsum_load returns it): CMD_LOAD when a file holds several ranks (the
 * models are merged instead; *cause is dropped), else -1 with *code.
 */
int	 verb_job_failed(int rc, const char **code, char **cause);
/* The warnings of an answer from summaries: the ranks more than one trace
 * stated (dup, or NULL), the summaries of n made now (built). */
void	 verb_job_dup(struct out *, const char *dup);
void	 verb_job_made(struct out *, size_t built, size_t n);

#endif
