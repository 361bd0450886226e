/*
 * ncucmd: the profiling command for one kernel launch (see ncucmd.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "model/event.h"
#include "model/model.h"
#include "analysis/ncucmd.h"
#include "util/shquote.h"
#include "util/xmalloc.h"

/* Counters any AMD GPU rocprofv3 supports collect together. */
#define NCUCMD_AMD_PMC	"SQ_WAVES GRBM_GUI_ACTIVE"

/* When the profiler sees a launch: its API call's start, else its own. */
struct ncucmd_when {
	int64_t		 t;
	uint32_t	 corr;
	uint32_t	 gid;
};

static void
ncucmd_when(const struct model *m, uint32_t gid, struct ncucmd_when *w)
{
	struct evref	 r = model_ev(m, gid), a;
	uint32_t	 api = correlate_launch(m, gid);

	w->gid = gid;
	w->corr = m->tracks[r.track].lane.corr[r.idx];
	if (api != NONE32) {
		a = model_ev(m, api);
		w->t = m->tracks[a.track].lane.start[a.idx];
	} else
		w->t = m->tracks[r.track].lane.start[r.idx];
}

static int
ncucmd_before(const struct ncucmd_when *a, const struct ncucmd_when *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->corr != b->corr)
		return a->corr < b->corr;
	return a->gid < b->gid;
}

/* prefix + s with regex metacharacters escaped + suffix, shell-quoted. */
static char *
ncucmd_regex(const char *prefix, const char *s, const char *suffix)
{
	char	*q, *o, *quoted;

	q = o = xmalloc(strlen(prefix) + strlen(s) * 2 + strlen(suffix) + 1);
	o = stpcpy(o, prefix);
	for (; *s != '\0'; s++) {
		if (strchr(".^$*+?()[]{}|\\", *s) != NULL)
			*o++ = '\\';
		*o++ = *s;
	}
	strcpy(o, suffix);
	quoted = shquote(q);
	free(q);
	return quoted;
}

/* An AMD launch: its device says so, or the format is AMD's own. */
static int
ncucmd_amd(const struct model *m, uint32_t gid)
{
	struct evref	 r = model_ev(m, gid);
	uint32_t	 dev = m->tracks[r.track].device;

	if (dev < m->ndevices && m->devices[dev].vendor != 0)
		return strcmp(model_str(m, m->devices[dev].vendor), "AMD") ==
		    0;
	return m->source == SOURCE_ROCPD || m->source == SOURCE_RPD ||
	    m->source == SOURCE_ROCPROF_JSON;
}

/* The base name of kernel i of lane l: its short name, else its name. */
static uint32_t
ncucmd_sname(const struct model *m, const struct lane *l, uint32_t i)
{
	uint32_t	aux = l->aux[i];

	if (l->kind[i] == EV_KERNEL && aux != NONE32 && aux < m->nkernels &&
	    m->kernels[aux].short_name != 0)
		return m->kernels[aux].short_name;
	return l->name[i];
}

int
ncucmd_build(const struct model *m, uint32_t gid, struct ncucmd *c,
    const char **code, char **cause)
{
	struct ncucmd_when	 target, w;
	struct evref		 r;
	uint32_t		 t, i, g, sname, fname, s;
	char			*q, *re;

	memset(c, 0, sizeof *c);
	if ((uint64_t)gid >= m->nevents) {
		*code = "not_found";
		*cause = xasprintf("no event ev:%u in this trace", gid);
		return -1;
	}
	r = model_ev(m, gid);
	if (m->tracks[r.track].lane.kind[r.idx] != EV_KERNEL) {
		*code = "bad_input";
		*cause = xasprintf("event ev:%u is a %s, not a kernel launch",
		    gid, ev_kind_name(m->tracks[r.track].lane.kind[r.idx]));
		return -1;
	}
	c->gid = gid;
	c->proc = event_process(m, gid);
	c->amd = ncucmd_amd(m, gid);
	fname = m->tracks[r.track].lane.name[r.idx];
	sname = ncucmd_sname(m, &m->tracks[r.track].lane, r.idx);
	c->kernel = model_str(m, fname);
	c->short_name = model_str(m, sname);
	ncucmd_when(m, gid, &target);

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		/* A stream of another process holds none of them. */
		if (tr->type != TRACK_GPU || (tr->process != NONE32 &&
		    tr->process != c->proc))
			continue;
		for (i = 0; i < tr->lane.n; i++) {
			if (tr->lane.kind[i] != EV_KERNEL)
				continue;
			/* The names first: they rule out most launches
			 * without a look-up by global id. */
			s = ncucmd_sname(m, &tr->lane, i);
			if (s != sname && tr->lane.name[i] != fname)
				continue;
			g = model_gid(m, t, i);
			if (g == gid || (tr->process != NONE32 ? tr->process :
			    event_process(m, g)) != c->proc)
				continue;
			ncucmd_when(m, g, &w);
			if (!ncucmd_before(&w, &target))
				continue;
			if (s == sname)
				c->skip++;
			if (tr->lane.name[i] == fname)
				c->dskip++;
		}
	}

	if (!c->amd) {
		q = shquote(c->short_name);
		re = ncucmd_regex("regex:^", c->kernel, "$");
		c->tool[0] = "ncu";
		c->command[0] = xasprintf("ncu --kernel-name %s --launch-skip "
		    "%lld --launch-count 1 --export ev%u <application> "
		    "[arguments]", q, (long long)c->skip, gid);
		c->demangled[0] = xasprintf("ncu --kernel-name-base demangled "
		    "--kernel-name %s --launch-skip %lld --launch-count 1 "
		    "--export ev%u <application> [arguments]", re,
		    (long long)c->dskip, gid);
		c->n = 1;
	} else {
		re = ncucmd_regex("^", c->kernel, "$");
		c->tool[0] = "rocprofv3";
		c->command[0] = xasprintf("rocprofv3 --kernel-include-regex %s "
		    "--kernel-iteration-range %lld --pmc " NCUCMD_AMD_PMC " -d "
		    "ev%u -- <application> [arguments]", re,
		    (long long)c->dskip + 1, gid);
		c->demangled[0] = xstrdup(c->command[0]);
		free(re);
		re = ncucmd_regex("", c->kernel, "");
		c->tool[1] = "rocprof-compute";
		c->command[1] = xasprintf("rocprof-compute profile -n ev%u -k "
		    "%s -- <application> [arguments]", gid, re);
		c->demangled[1] = xstrdup(c->command[1]);
		c->n = 2;
		q = NULL;
	}
	free(q);
	free(re);
	return 0;
}

void
ncucmd_free(struct ncucmd *c)
{
	size_t	i;

	for (i = 0; i < NCUCMD_MAX; i++) {
		free(c->command[i]);
		free(c->demangled[i]);
	}
	memset(c, 0, sizeof *c);
}
