/*
 * cmd: the verb table, shared option helpers and trace loading for verbs.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "sources/multi.h"
#include "sources/ncu.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "report/report.h"
#include "util/sanitize.h"
#include "sources/source.h"
#include "util/xmalloc.h"

extern const struct cmd_entry	cmd_demo_entry;
extern const struct cmd_entry	cmd_info_entry;
extern const struct cmd_entry	cmd_prep_entry;
extern const struct cmd_entry	cmd_clean_entry;
extern const struct cmd_entry	cmd_stats_entry;
extern const struct cmd_entry	cmd_gaps_entry;
extern const struct cmd_entry	cmd_timeline_entry;
extern const struct cmd_entry	cmd_overlap_entry;
extern const struct cmd_entry	cmd_summary_entry;
extern const struct cmd_entry	cmd_nvtx_entry;
extern const struct cmd_entry	cmd_iters_entry;
extern const struct cmd_entry	cmd_schema_entry;
extern const struct cmd_entry	cmd_search_entry;
extern const struct cmd_entry	cmd_inspect_entry;
extern const struct cmd_entry	cmd_correlate_entry;
extern const struct cmd_entry	cmd_launch_entry;
extern const struct cmd_entry	cmd_memcpy_entry;
extern const struct cmd_entry	cmd_comm_entry;
extern const struct cmd_entry	cmd_ranks_entry;
extern const struct cmd_entry	cmd_hardware_entry;
extern const struct cmd_entry	cmd_export_entry;
extern const struct cmd_entry	cmd_diff_entry;
extern const struct cmd_entry	cmd_phases_entry;
extern const struct cmd_entry	cmd_window_entry;
extern const struct cmd_entry	cmd_findings_entry;
extern const struct cmd_entry	cmd_launches_entry;
extern const struct cmd_entry	cmd_metrics_entry;
extern const struct cmd_entry	cmd_rules_entry;
extern const struct cmd_entry	cmd_roofline_entry;
extern const struct cmd_entry	cmd_ncu_command_entry;
extern const struct cmd_entry	cmd_mcp_entry;
extern const struct cmd_entry	cmd_recipes_entry;
extern const struct cmd_entry	cmd_complete_entry;

const struct cmd_entry *cmd_table[] = {
	&cmd_demo_entry,
	&cmd_info_entry,
	&cmd_prep_entry,
	&cmd_clean_entry,
	&cmd_summary_entry,
	&cmd_stats_entry,
	&cmd_gaps_entry,
	&cmd_timeline_entry,
	&cmd_overlap_entry,
	&cmd_nvtx_entry,
	&cmd_iters_entry,
	&cmd_search_entry,
	&cmd_inspect_entry,
	&cmd_correlate_entry,
	&cmd_launch_entry,
	&cmd_memcpy_entry,
	&cmd_comm_entry,
	&cmd_ranks_entry,
	&cmd_hardware_entry,
	&cmd_export_entry,
	&cmd_diff_entry,
	&cmd_phases_entry,
	&cmd_window_entry,
	&cmd_findings_entry,
	&cmd_launches_entry,
	&cmd_metrics_entry,
	&cmd_rules_entry,
	&cmd_roofline_entry,
	&cmd_ncu_command_entry,
	&cmd_schema_entry,
	&cmd_mcp_entry,
	&cmd_recipes_entry,
	&cmd_complete_entry,
	NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	size_t	i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

void
cmd_print_help(const struct cmd_entry *e)
{
	printf("usage: %s\n\n%s\n", e->usage, e->help);
	if (e->options != 0)
		printf("\noptions:\n%s", opts_help(e->options));
}

int
cmd_usage_error(const struct cmd_entry *e, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	sanitize_msg(stderr, "gpulens %s: %s", e->name, msg);
	fprintf(stderr, "usage: %s\n", e->usage);
	free(msg);
	return EXIT_USAGE;
}

int
cmd_is_help(const char *s)
{
	return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

long long
cmd_parse_count(const char *s)
{
	char		*end;
	double		 d;
	long long	 mul = 1;
	size_t		 len = strlen(s);

	if (len == 0)
		return -1;
	switch (s[len - 1]) {
	case 'k': case 'K': mul = 1000; break;
	case 'm': case 'M': mul = 1000000; break;
	case 'g': case 'G': mul = 1000000000; break;
	}
	errno = 0;
	d = strtod(s, &end);
	if (errno != 0 || end == s || d != d || d < 0 || d > 9e15 ||
	    d * (double)mul > 9e15 || strpbrk(s, "xX") != NULL)
		return -1;
	if (*end != '\0' && !(mul != 1 && end == s + len - 1))
		return -1;
	return (long long)(d * (double)mul + 0.5);
}

struct model *
cmd_load(const char *path, const struct cmd_global *g)
{
	struct load_opts	 o;
	struct model		*m;
	char			*cause = NULL;

	memset(&o, 0, sizeof o);
	o.no_cache = g->no_cache;
	o.progress = g->progress;
	m = multi_load((char *const *)&path, 1, &o, &cause);
	if (m == NULL) {
		sanitize_msg(stderr, "gpulens: %s", cause != NULL ? cause :
		    "cannot load trace");
		free(cause);
	}
	return m;
}

/* An export with no events is an answer (empty rows), not an error: every
 * verb says so once in meta.warnings. */
static void
cmd_warn_empty(const struct model *m, const char *path, int n,
    struct out *o)
{
	if (m->nevents != 0)
		return;
	if (n == 1)
		out_warn(o, "%s holds no events (an empty capture)", path);
	else
		out_warn(o, "the traces hold no events (an empty capture)");
}

/* The envelope lists every trace file read (directories expanded), also
 * on a load error. */
static void
cmd_add_inputs(struct out *o, char *const *paths, int n)
{
	char	*cause = NULL, **files = NULL;
	int	 nf, i;

	if ((nf = multi_expand(paths, n, &files, &cause)) < 0) {
		free(cause);
		out_inputs(o, paths, (size_t)n);
		return;
	}
	out_inputs(o, files, (size_t)nf);
	for (i = 0; i < nf; i++)
		free(files[i]);
	free(files);
}

struct model *
cmd_load_traces_out(char *const *paths, int n, const struct cmd_global *g,
    struct out *o)
{
	struct load_opts	 lo;
	struct model		*m;
	char			*cause = NULL;

	cmd_add_inputs(o, paths, n);
	memset(&lo, 0, sizeof lo);
	lo.no_cache = g->no_cache;
	lo.progress = g->progress;
	m = multi_load(paths, n, &lo, &cause);
	if (m == NULL) {
		out_error(o, NULL, paths[0], "bad_input", "%s", cause != NULL ?
		    cause : "cannot load trace");
		free(cause);
	} else
		cmd_warn_empty(m, paths[0], n, o);
	return m;
}

struct model *
cmd_load_out(const char *path, const struct cmd_global *g, struct out *o)
{
	struct load_opts	 lo;
	struct model		*m;
	char			*cause = NULL;

	cmd_add_inputs(o, (char *const *)&path, 1);
	memset(&lo, 0, sizeof lo);
	lo.no_cache = g->no_cache;
	lo.progress = g->progress;
	m = multi_load((char *const *)&path, 1, &lo, &cause);
	if (m == NULL) {
		out_error(o, NULL, path, "bad_input", "%s", cause != NULL ?
		    cause : "cannot load trace");
		free(cause);
	} else
		cmd_warn_empty(m, path, 1, o);
	return m;
}

int
cmd_verb_main(const struct cmd_entry *e, int argc, char **argv,
    const struct cmd_global *g, int minargs, int maxargs, cmd_run_fn run)
{
	struct opts	 o;
	struct out	 out;
	struct model	*m = NULL;
	char		*cause = NULL;
	const char	*code = NULL;
	int		 rc;

	out_init(&out, e->name);
	if (opts_parse(&o, e->options, argc, argv, &cause) != 0) {
		opts_apply_out(&o, &out);
		rc = out_error(&out, NULL, NULL, "usage", "%s", cause);
		goto done;
	}
	opts_apply_out(&o, &out);
	/* A verb taking one trace takes several: one per rank, merged. */
	if (o.nargs < minargs || (maxargs >= 0 && maxargs != 1 &&
	    o.nargs > maxargs)) {
		rc = out_error(&out, NULL, NULL, "usage", "%s (usage: %s)",
		    o.nargs < minargs ? "missing arguments" :
		    "too many arguments", e->usage);
		goto done;
	}
	if ((m = cmd_load_traces_out(o.args, maxargs == 1 ? o.nargs : 1, g,
	    &out)) == NULL) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (run(m, &o, &out, &code, &cause) != 0) {
		rc = out_error(&out, m, o.args[0], code != NULL ? code :
		    "usage", "%s", cause != NULL ? cause : "failed");
		goto done;
	}
	rc = out_emit(&out, m, o.args[0]);
done:
	free(cause);
	opts_free(&o);
	out_free(&out);
	model_free(m);
	return rc;
}
