/*
 * verb-job: a job verb's choice between its ranks' summaries and the
 * merged models (see verb-job.h).
 */
#include "config.h"

#include "headless/opts.h"
#include "headless/verb-job.h"
#include "headless/vopt.h"
#include "sources/jobsum.h"
#include "sources/multi.h"

int
verb_job_files(const struct cmd_ctx *ctx, char ***files, const char **code,
    char **cause)
{
	int	nf;

	*files = NULL;
	if (vopt_get(ctx->v, ctx->nv, "--full") != NULL)
		return 0;
	if ((nf = multi_expand(ctx->o->args, ctx->o->nargs, files,
	    cause)) < 0) {
		*code = "bad_input";
		return -1;
	}
	if (!jobsum_wanted(nf,
	    vopt_get(ctx->v, ctx->nv, "--summaries") != NULL)) {
		jobsum_files_free(*files, nf);
		*files = NULL;
		return 0;
	}
	return nf;
}
