/*
 * cmd-info: `gpulens info TRACE` describes what a trace holds: source and
 * version, span, event counts per kind, devices, processes with their
 * threads and streams, NVTX domains and load warnings.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "model.h"
#include "units.h"

static int	cmd_info_exec(int, char **, const struct cmd_global *);

const struct cmd_entry cmd_info_entry = {
	"info",
	"gpulens info TRACE",
	"Describes TRACE: source format and version, time span, event counts\n"
	"per kind, devices and their properties, processes, threads, GPU\n"
	"streams, NVTX domains, and any warnings raised while loading.",
	cmd_info_exec
};

static void
info_print(const char *path, const struct model *m)
{
	uint64_t	 counts[EV_KIND_COUNT];
	char		 b1[64], b2[64];
	size_t		 i, t;
	int		 k;

	printf("trace      %s\n", path);
	printf("source     %s %s", source_kind_name(m->source),
	    model_str(m, m->source_version));
	if (m->schema_version != 0)
		printf(" (schema %s)", model_str(m, m->schema_version));
	printf("\n");
	printf("span       %s (origin %lld ns)\n",
	    units_dur(m->end_ns - m->origin_ns, b1, sizeof b1),
	    (long long)m->origin_ns);
	model_count_kinds(m, counts);
	printf("events     %s:", units_count(m->nevents, b1, sizeof b1));
	for (k = 1; k < EV_KIND_COUNT; k++)
		if (counts[k] != 0)
			printf(" %s %s", ev_kind_name(k),
			    units_count(counts[k], b2, sizeof b2));
	printf("\n");

	printf("devices    %zu\n", m->ndevices);
	for (i = 0; i < m->ndevices; i++) {
		const struct device *d = &m->devices[i];
		printf("  [%u] %s", d->source_id, *model_str(m, d->name) ?
		    model_str(m, d->name) : "(unnamed GPU)");
		if (d->sm_count > 0)
			printf(", %d SMs", d->sm_count);
		if (d->cc_major > 0)
			printf(", cc %d.%d", d->cc_major, d->cc_minor);
		if (d->total_mem > 0)
			printf(", %s", units_bytes((uint64_t)d->total_mem,
			    b1, sizeof b1));
		printf("\n");
	}
	printf("processes  %zu\n", m->nprocesses);
	for (i = 0; i < m->nprocesses; i++) {
		const struct process *p = &m->processes[i];
		size_t nthr = 0, nstr = 0;
		for (t = 0; t < m->nthreads; t++)
			nthr += m->threads[t].process == i;
		for (t = 0; t < m->nstreams; t++)
			nstr += m->streams[t].process == i;
		if (nthr == 0 && nstr == 0)
			continue;
		printf("  pid %u %s: %zu thread%s, %zu GPU stream%s\n", p->pid,
		    model_str(m, p->name), nthr, nthr == 1 ? "" : "s", nstr,
		    nstr == 1 ? "" : "s");
	}
	printf("tracks     %zu\n", m->ntracks);
	if (m->ndomains > 1) {
		printf("nvtx       %zu domain%s:", m->ndomains - 1,
		    m->ndomains == 2 ? "" : "s");
		for (i = 1; i < m->ndomains; i++)
			printf(" %s", *model_str(m, m->domains[i].name) ?
			    model_str(m, m->domains[i].name) : "(unnamed)");
		printf("\n");
	}
	for (i = 0; i < m->nwarnings; i++)
		printf("warning    %s\n", m->warnings[i]);
}

static int
cmd_info_exec(int argc, char **argv, const struct cmd_global *g)
{
	struct model	*m;

	if (argc != 2)
		return cmd_usage_error(&cmd_info_entry, "expected one trace");
	if (argv[1][0] == '-')
		return cmd_usage_error(&cmd_info_entry, "unknown option: %s",
		    argv[1]);
	if ((m = cmd_load(argv[1], g)) == NULL)
		return EXIT_USAGE;
	info_print(argv[1], m);
	model_free(m);
	return 0;
}
