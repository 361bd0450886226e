/*
 * ncu-launch: --launch ID for the report verbs (see ncu-launch.h).
 */
#include "config.h"

#include <string.h>

#include "headless/cmd-report.h"
#include "headless/ncu-launch.h"
#include "headless/vopt.h"
#include "report/report.h"
#include "util/xmalloc.h"

int
ncu_launch_check(const char *name, const char *value, char **cause)
{
	uint32_t	id;

	if (value == NULL) {
		*cause = xasprintf("%s needs a launch id (N or launch:N)",
		    name);
		return -1;
	}
	if (cmd_report_parse_id(value, &id) != 0) {
		*cause = xasprintf("%s: '%s' is not a launch id (N or "
		    "launch:N, as launches prints them)", name, value);
		return -1;
	}
	return 0;
}

int
ncu_launch_ids(const struct cmd_ctx *ctx, const struct report *r,
    uint32_t *ids, size_t max, size_t *n, const char **code, char **cause)
{
	size_t		i;
	uint32_t	id;

	*n = 0;
	for (i = 0; i < ctx->nv; i++) {
		if (strcmp(ctx->v[i].name, "--launch") != 0 ||
		    ctx->v[i].value == NULL)
			continue;
		if (cmd_report_parse_id(ctx->v[i].value, &id) != 0) {
			*code = "usage";
			*cause = xasprintf("--launch: '%s' is not a launch id",
			    ctx->v[i].value);
			return -1;
		}
		if (id >= r->nlaunches) {
			*code = "not_found";
			*cause = xasprintf("--launch %u: the report has %zu "
			    "launches (0 to %zu)", id, r->nlaunches,
			    r->nlaunches > 0 ? r->nlaunches - 1 : 0);
			return -1;
		}
		if (*n == max) {
			*code = "usage";
			*cause = xasprintf("--launch given more than %zu "
			    "times", max);
			return -1;
		}
		ids[(*n)++] = id;
	}
	return 0;
}
