/*
 * finding: the rule engine: what the rules share (activity, iterations,
 * API classes, synchronisation ends, classified GPU gaps), running them,
 * and ranking what they find (see finding.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "analysis/finding.h"
#include "analysis/iters.h"
#include "util/nametab.h"
#include "util/pool.h"
#include "util/units.h"
#include "util/xmalloc.h"

static const char *finding_conf_names[] = { "low", "medium", "high" };

const char *
finding_conf_name(int c)
{
	return NAMETAB(finding_conf_names, c, "low");
}

void
finding_set(char **field, const char *fmt, ...)
{
	va_list	ap;

	free(*field);
	va_start(ap, fmt);
	*field = xvasprintf(fmt, ap);
	va_end(ap);
}

const char *
finding_dur(int64_t ns, char *buf, size_t len)
{
	return units_dur(ns, buf, len);
}

struct finding *
finding_add(struct finding_ctx *c, const char *type, int64_t cost_ns)
{
	struct findings	*fs = c->out;
	struct finding	*f;
	double		 fr;

	f = XAPPEND(fs->v, fs->cap, fs->n++);
	f->type = type;
	f->cost_ns = cost_ns > 0 ? cost_ns : 0;
	f->share_pct = c->span > 0 ? 100.0 * (double)f->cost_ns /
	    (double)c->span : 0.0;
	if (f->share_pct > 100)
		f->share_pct = 100;
	fr = f->share_pct / 100.0;
	f->speedup_half = 1.0 / (1.0 - fr / 2);
	f->speedup_all = fr < 1.0 ? 1.0 / (1.0 - fr) : 0.0;
	f->confidence = finding_conf_of(f->share_pct, 1.0);
	f->t0 = c->t0;
	f->t1 = c->t1;
	f->device = NONE32;
	f->process = NONE32;
	f->gid = NONE32;
	return f;
}

size_t
finding_worst(const struct finding_ctx *c, int cls)
{
	size_t	d, best = 0;

	for (d = 1; d < c->act.ndev; d++)
		if (c->dev[d].gap_sum[cls] > c->dev[best].gap_sum[cls])
			best = d;
	return best;
}

void
finding_device(const struct finding_ctx *c, struct finding *f, size_t d)
{
	f->device = c->act.dev[d].device;
	f->process = c->act.dev[d].process;
	fev_int(&f->ev, "device", c->m->devices[f->device].source_id);
}

void
finding_set_zone(struct finding *f, double zone_frac)
{
	f->confidence = finding_conf_of(f->share_pct, zone_frac);
	f->one_off = zone_frac < 0.5;
}

struct finding *
finding_add_gap(struct finding_ctx *c, const char *type, size_t d, int cls)
{
	const struct finding_dev	*fd = &c->dev[d];
	struct finding			*f;

	f = finding_add(c, type, fd->gap_sum[cls]);
	finding_set_zone(f, (double)fd->gap_zone[cls] /
	    (double)fd->gap_sum[cls]);
	finding_device(c, f, d);
	return f;
}

void
finding_gap_window(struct finding *f, const struct finding_dev *fd, int cls)
{
	f->t0 = fd->gap_long_at[cls];
	f->t1 = f->t0 + fd->gap_long[cls];
}

void
finding_rule(struct finding_ctx *c, const char *type, const char *status,
    const char *reason)
{
	struct findings		*fs = c->out;
	struct finding_status	*r;

	XGROW(fs->rules, fs->rcap, fs->nrules + 1);
	r = &fs->rules[fs->nrules++];
	r->type = type;
	r->status = status;
	r->reason = reason != NULL ? xstrdup(reason) : NULL;
}

int
finding_conf_of(double share_pct, double zone_frac)
{
	int	conf;

	if (share_pct >= FINDING_HIGH_PCT)
		conf = FINDING_HIGH;
	else if (share_pct >= FINDING_MEDIUM_PCT)
		conf = FINDING_MEDIUM;
	else
		conf = FINDING_LOW;
	if (zone_frac < 0.5)
		conf = FINDING_LOW;
	return conf;
}

uint32_t
finding_launch(const struct finding_ctx *c, uint32_t gid)
{
	if (c->m->launch == NULL)
		return NONE32;
	return correlate_launch(c->m, gid);
}

int
finding_api_classify(struct finding_ctx *c, uint32_t sid)
{
	const char	*s;
	int		 cls = FAPI_OTHER;

	s = model_str(c->m, sid);
	cls = apicall_class(s);
	c->api_class[sid] = (uint8_t)(cls + 1);
	return cls;
}

/* The iterations' span: where recurring costs live. */
static void
finding_zone(struct finding_ctx *c)
{
	struct iters	 it;
	char		*cause = NULL;
	size_t		 i;

	c->zone0 = 0;
	c->zone1 = 0;
	if (iters_find(c->m, NULL, &it, &cause) != 0) {
		free(cause);
		return;
	}
	if (it.n >= 2) {
		c->zone0 = INT64_MAX;
		c->zone1 = INT64_MIN;
		for (i = 0; i < it.n; i++) {
			if (it.v[i].start < c->zone0)
				c->zone0 = it.v[i].start;
			if (it.v[i].end > c->zone1)
				c->zone1 = it.v[i].end;
		}
	}
	iters_free(&it);
}

static int
finding_cmp(const void *a, const void *b)
{
	const struct finding	*x = a, *y = b;
	int			 r;

	if (x->confidence != y->confidence)
		return x->confidence > y->confidence ? -1 : 1;
	if (x->share_pct != y->share_pct)
		return x->share_pct > y->share_pct ? -1 : 1;
	if ((r = strcmp(x->type, y->type)) != 0)
		return r;
	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

void
finding_free(struct findings *fs)
{
	size_t	i;

	for (i = 0; i < fs->n; i++) {
		free(fs->v[i].title);
		free(fs->v[i].detail);
		free(fs->v[i].next);
		free(fs->v[i].command);
		fev_free(&fs->v[i].ev);
	}
	free(fs->v);
	for (i = 0; i < fs->nrules; i++)
		free(fs->rules[i].reason);
	free(fs->rules);
	memset(fs, 0, sizeof *fs);
}

/*
 * What the rules share before the devices' sweep, in two parts that read
 * only the model and write apart: the iterations' zone (job 0), and the
 * devices' coverages with the synchronisation ends (job 1).
 */
static int
finding_prep_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct finding_ctx	*c = arg;

	(void)tid;
	(void)cause;
	if (job == 0)
		finding_zone(c);
	else {
		activity_build_devices(&c->act, c->m);
		finding_syncs(c);
	}
	return 0;
}

/*
 * Job 0: dominant_kernel's pass over the lanes; job d + 1: device d's
 * window, gaps and communication kernels; then the copy rules' pass and,
 * when there are synchronisation calls, the host's blocking waits
 * (cuda_api_sync's evidence). They share nothing they write.
 */
static int
finding_dev_job(void *arg, size_t job, unsigned tid, char **cause)
{
	struct finding_ctx	*c = arg;
	size_t			 d = job - 1;

	(void)tid;
	(void)cause;
	if (job == 0)
		finding_perf_kernel_scan(c);
	else if (d < c->act.ndev) {
		activity_window(&c->act, d, c->t0, c->t1, &c->dev[d].w);
		finding_gaps(c, d);
		finding_perf_comm_scan(c, d);
	} else if (d == c->act.ndev)
		finding_nsys_memcpy_scan(c);
	else if (c->sync_off[c->m->nprocesses + 1] > 0) {
		syncwait_build(&c->sw, c->m, c->t0, c->t1);
		c->sw_built = 1;
	}
	return 0;
}

int
finding_run(const struct model *m, int64_t t0, int64_t t1,
    struct findings *fs, char **cause)
{
	struct finding_ctx	 c;
	size_t			 i;
	int64_t			 thr;

	memset(fs, 0, sizeof *fs);
	memset(&c, 0, sizeof c);
	if (t1 <= t0) {
		t0 = m->origin_ns;
		t1 = m->end_ns;
	}
	if (t1 <= t0)
		t1 = t0 + 1;
	c.m = m;
	c.out = fs;
	c.t0 = fs->t0 = t0;
	c.t1 = fs->t1 = t1;
	c.span = t1 - t0;
	thr = (int64_t)(FINDING_GAP_SHARE * (double)c.span);
	if (thr < FINDING_LAUNCH_GAP_NS)
		thr = FINDING_LAUNCH_GAP_NS;
	if (thr > FINDING_GAP_MAX_NS)
		thr = FINDING_GAP_MAX_NS;
	c.gap_threshold = fs->gap_threshold = thr;
	c.api_class = xcalloc(strpool_count(m->strs) + 1, 1);
	(void)pool_run(2, pool_sweep_threads(), finding_prep_job, &c, NULL);
	fs->zone0 = c.zone0;
	fs->zone1 = c.zone1;
	c.dev = xcalloc(c.act.ndev + 1, sizeof *c.dev);
	/* The devices in parallel, beside the kernels' and copies' passes. */
	(void)pool_run(c.act.ndev + 3, pool_sweep_threads(), finding_dev_job,
	    &c, NULL);

	finding_nsys_memcpy(&c);
	finding_nsys_api_sync(&c);
	finding_nsys_gaps(&c);
	finding_nsys_util(&c);
	finding_perf_launch(&c);
	finding_perf_bubbles(&c);
	finding_perf_comm(&c);
	finding_perf_imbalance(&c);
	finding_perf_kernel(&c);

	for (i = 0; i < fs->n; i++)
		fs->v[i].score = fs->v[i].share_pct;
	if (fs->n > 1)
		qsort(fs->v, fs->n, sizeof *fs->v, finding_cmp);
	for (i = 0; i < fs->n; i++)
		fs->v[i].rank = (int)i + 1;

	for (i = 0; i < c.act.ndev; i++)
		free(c.dev[i].ck);
	free(c.dev);
	free(c.api_class);
	free(c.sync_end);
	free(c.sync_gid);
	free(c.sync_off);
	if (c.sw_built)
		syncwait_free(&c.sw);
	activity_free(&c.act);
	(void)cause;
	return 0;
}
