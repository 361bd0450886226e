/*
 * steady: the steady-state window (see steady.h for the rule).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/iters.h"
#include "analysis/phase.h"
#include "analysis/stats.h"
#include "analysis/steady.h"
#include "util/nametab.h"
#include "util/xmalloc.h"

static const char *steady_method_names[] = {
	"iteration-nvtx", "iteration-kernel", "phase", "whole"
};

const char *
steady_method_name(int m)
{
	return NAMETAB(steady_method_names, m, "unknown");
}

void
steady_free(struct steady *s)
{
	free(s->marker);
	memset(s, 0, sizeof *s);
}

/* Rule 1. Returns 1 when it applies. */
static int
steady_from_iters(const struct model *m, struct steady *s, char **cause)
{
	struct iters	 it;
	size_t		 i, j, best_n = 0, n = 0, first = 0, k, step;
	uint32_t	 best = NONE32, p;
	int64_t		*durs;
	struct stats	 st;
	int		 found = 0, have = 0;
	long long	 cand;

	if (iters_find(m, NULL, &it, cause) != 0)
		return -1;
	/* Iterations come sorted by process, then start. */
	for (i = 0; i < it.n; i = j) {
		p = it.v[i].process;
		for (j = i; j < it.n && it.v[j].process == p; j++)
			;
		if (!have || j - i > best_n || (j - i == best_n &&
		    p != NONE32 && (best == NONE32 ||
		    m->processes[p].pid < m->processes[best].pid))) {
			best = p;
			best_n = j - i;
			first = i;
			have = 1;
		}
	}
	if (!have || best_n < STEADY_MIN_ITERS) {
		iters_free(&it);
		return 0;
	}
	n = best_n;
	durs = xcalloc(n, sizeof *durs);
	for (i = 0; i < n; i++)
		durs[i] = it.v[first + i].end - it.v[first + i].start;
	stats_compute(durs, n, &st);	/* sorts durs */
	k = n / 2;
	for (step = 0; step < 2 * n && !found; step++) {
		/* k, k + 1, k - 1, k + 2, k - 2, ... */
		cand = (long long)k + (step % 2 == 1 ? (long long)(step + 1) /
		    2 : -(long long)(step / 2));
		if (cand < 0 || cand >= (long long)n)
			continue;
		{
			const struct iter *v = &it.v[first + (size_t)cand];
			double d = (double)(v->end - v->start);
			if (fabs(d - st.median) <= STEADY_OUTLIER * st.median) {
				s->start = v->start;
				s->end = v->end;
				s->iter = (int64_t)v->index;
				s->range = v->range;
				found = 1;
			} else
				s->skipped++;
		}
	}
	if (!found) {
		/* Cannot happen (the median iteration is within 20% of
		 * itself), but stay defined. */
		const struct iter *v = &it.v[first + k];
		s->start = v->start;
		s->end = v->end;
		s->iter = (int64_t)v->index;
		s->range = v->range;
	}
	s->method = it.method == ITERS_NVTX ? STEADY_ITER_NVTX :
	    STEADY_ITER_KERNEL;
	s->process = best;
	s->niters = n;
	s->median_ns = st.median;
	s->marker = xstrdup(it.marker != NULL ? it.marker : "");
	free(durs);
	iters_free(&it);
	return 1;
}

int64_t
steady_iter_median(const struct model *m)
{
	struct iters	 it;
	struct stats	 st;
	int64_t		*d;
	char		*cause = NULL;
	size_t		 i;
	int64_t		 med = 0;

	if (iters_find(m, NULL, &it, &cause) != 0) {
		free(cause);
		return 0;
	}
	if (it.n > 0) {
		d = xcalloc(it.n, sizeof *d);
		for (i = 0; i < it.n; i++)
			d[i] = it.v[i].end - it.v[i].start;
		stats_compute(d, it.n, &st);
		med = (int64_t)st.median;
		free(d);
	}
	iters_free(&it);
	return med;
}

/* Rule 2. Returns 1 when it applies. */
static int
steady_from_phases(const struct model *m, const struct activity *a,
    struct steady *s, char **cause)
{
	struct phase_opts	 po;
	struct phases		 ph;
	size_t			 i, best = (size_t)-1;
	int64_t			 len, blen = -1;

	memset(&po, 0, sizeof po);
	po.min_bin_ns = steady_iter_median(m);
	if (phase_detect(m, a, &po, &ph, cause) != 0)
		return -1;
	if (ph.n < 2) {
		phase_free(&ph);
		return 0;
	}
	for (i = 0; i < ph.n; i++) {
		len = ph.v[i].end - ph.v[i].start;
		if ((double)iset_measure(&a->any, ph.v[i].start,
		    ph.v[i].end) < 0.01 * (double)len)
			continue;
		if (len > blen) {
			blen = len;
			best = i;
		}
	}
	if (best == (size_t)-1) {
		phase_free(&ph);
		return 0;
	}
	s->method = STEADY_PHASE;
	s->start = ph.v[best].start;
	s->end = ph.v[best].end;
	s->iter = (int64_t)best;	/* the phase's index */
	s->marker = xstrdup(ph.v[best].label);
	s->nphases = ph.n;
	phase_free(&ph);
	return 1;
}

int
steady_find(const struct model *m, const struct activity *a,
    struct steady *s, char **cause)
{
	struct activity	 own;
	int		 rc;

	memset(s, 0, sizeof *s);
	s->process = NONE32;
	s->range = NONE32;
	s->iter = -1;
	if ((rc = steady_from_iters(m, s, cause)) != 0)
		return rc < 0 ? -1 : 0;
	if (a == NULL) {
		activity_build(&own, m);
		rc = steady_from_phases(m, &own, s, cause);
		activity_free(&own);
	} else
		rc = steady_from_phases(m, a, s, cause);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	s->method = STEADY_WHOLE;
	s->start = m->origin_ns;
	s->end = m->end_ns;
	s->marker = xstrdup("");
	return 0;
}

int
steady_bounds(const struct model *m, int64_t *t0, int64_t *t1, char **cause)
{
	struct steady	s;

	if (steady_find(m, NULL, &s, cause) != 0)
		return -1;
	*t0 = s.start;
	*t1 = s.end;
	steady_free(&s);
	return 0;
}
