/*
 * verb-job: a job verb's choice between its ranks' summaries and the
 * merged models (see verb-job.h).
 */
#include "config.h"

#include <stdlib.h>

#include "headless/opts.h"
#include "headless/out.h"
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

int
verb_job_failed(int rc, const char **code, char **cause)
{
	if (rc > 0) {
		free(*cause);
		*cause = NULL;
		return CMD_LOAD;
	}
	*code = "bad_input";
	return -1;
}

void
verb_job_dup(struct out *out, const char *dup)
{
	if (dup != NULL)
		out_warn(out, "duplicate_rank", "ranks stated by more than "
		    "one trace: %s", dup);
}

void
verb_job_made(struct out *out, size_t built, size_t n)
{
	if (built > 0)
		out_warn(out, "summaries_made", "%zu of %zu rank summaries "
		    "were made now ('gpulens prep' makes them ahead)", built,
		    n);
}
