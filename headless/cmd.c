/*
 * cmd: the verb table, the help the descriptors print and shared helpers
 * (see cmd.h; the driver is driver.c).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/cmd.h"
#include "sources/multi.h"
#include "headless/opts.h"
#include "headless/out.h"
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
extern const struct cmd_entry	cmd_graphs_entry;
extern const struct cmd_entry	cmd_streams_entry;
extern const struct cmd_entry	cmd_memcpy_entry;
extern const struct cmd_entry	cmd_comm_entry;
extern const struct cmd_entry	cmd_ranks_entry;
extern const struct cmd_entry	cmd_queue_entry;
extern const struct cmd_entry	cmd_flops_entry;
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
extern const struct cmd_entry	cmd_warp_stalls_entry;
extern const struct cmd_entry	cmd_source_metrics_entry;
extern const struct cmd_entry	cmd_sources_entry;
extern const struct cmd_entry	cmd_ranges_entry;
extern const struct cmd_entry	cmd_ncu_command_entry;
extern const struct cmd_entry	cmd_mcp_entry;
extern const struct cmd_entry	cmd_recipes_entry;
extern const struct cmd_entry	cmd_record_entry;
extern const struct cmd_entry	cmd_mpi_entry;
extern const struct cmd_entry	cmd_samples_entry;
extern const struct cmd_entry	cmd_threads_entry;
extern const struct cmd_entry	cmd_counters_entry;
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
	&cmd_graphs_entry,
	&cmd_streams_entry,
	&cmd_memcpy_entry,
	&cmd_comm_entry,
	&cmd_ranks_entry,
	&cmd_mpi_entry,
	&cmd_samples_entry,
	&cmd_threads_entry,
	&cmd_counters_entry,
	&cmd_queue_entry,
	&cmd_flops_entry,
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
	&cmd_warp_stalls_entry,
	&cmd_source_metrics_entry,
	&cmd_sources_entry,
	&cmd_ranges_entry,
	&cmd_ncu_command_entry,
	&cmd_schema_entry,
	&cmd_mcp_entry,
	&cmd_recipes_entry,
	&cmd_record_entry,
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

/* The entry's row for name, or NULL. */
static const struct cmd_option *
cmd_vopt_find(const struct cmd_entry *e, const char *name)
{
	const struct cmd_option	*c;

	for (c = e->vopts; c != NULL && c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

struct cmd_each {
	const struct cmd_entry	*e;
	void			(*fn)(const char *, const char *,
				    const char *, void *);
	void			*arg;
};

static void
cmd_each_shared(const char *name, const char *arg, const char *help,
    void *p)
{
	struct cmd_each		*ce = p;
	const struct cmd_option	*c = cmd_vopt_find(ce->e, name);

	if (c == NULL)
		ce->fn(name, arg, help, ce->arg);
	else if (c->how == CMD_OPT_AS)
		ce->fn(name, c->arg, c->help, ce->arg);
}

void
cmd_each_option(const struct cmd_entry *e, void (*fn)(const char *,
    const char *, const char *, void *), void *arg)
{
	struct cmd_each		 ce;
	const struct cmd_option	*c;

	ce.e = e;
	ce.fn = fn;
	ce.arg = arg;
	opts_each(e->options, cmd_each_shared, &ce);
	for (c = e->vopts; c != NULL && c->name != NULL; c++)
		if (c->how == CMD_OPT_OWN)
			fn(c->name, c->arg, c->help, arg);
}

static void
cmd_help_line(const char *name, const char *arg, const char *help, void *p)
{
	char	left[64];

	(void)p;
	snprintf(left, sizeof left, "%s%s%s", name, arg != NULL ? " " : "",
	    arg != NULL ? arg : "");
	printf("  %-26s %s\n", left, help);
}

void
cmd_print_help(const struct cmd_entry *e)
{
	printf("usage: %s\n\n%s\n", e->usage, e->help);
	if (e->options != 0 || e->vopts != NULL) {
		printf("\noptions:\n");
		cmd_each_option(e, cmd_help_line, NULL);
	}
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

void
cmd_load_opts(const struct cmd_global *g, struct load_opts *lo)
{
	memset(lo, 0, sizeof *lo);
	lo->no_cache = g->no_cache;
	lo->progress = g->progress;
}

int
cmd_load_input(char *path, enum input_kind kind, const struct cmd_global *g,
    struct input *in)
{
	return cmd_load_inputs(&path, 1, kind, g, in);
}

int
cmd_load_inputs(char *const *paths, int n, enum input_kind kind,
    const struct cmd_global *g, struct input *in)
{
	struct load_opts	 lo;
	char			*cause = NULL;

	cmd_load_opts(g, &lo);
	if (input_load(in, kind, paths, n, &lo, &cause) == 0)
		return 0;
	if (kind == INPUT_NONE)
		kind = input_detect(paths[0]);
	sanitize_msg(stderr, "gpulens: %s", cause != NULL ? cause :
	    kind == INPUT_REPORT ? "cannot load the report" :
	    "cannot load trace");
	free(cause);
	return -1;
}
