/*
 * counters: counter samples per series, coverage first (counters.h).
 */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counters.h"
#include "model/lane.h"
#include "util/hmap.h"
#include "util/nametab.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *const counters_kind_names[COUNTERS_KIND_COUNT] = {
	"gpu", "nic", "host"
};

const char *
counters_kind_name(int kind)
{
	return NAMETAB(counters_kind_names, kind, "host");
}

int
counters_kind_parse(const char *s)
{
	return NAMETAB_FIND(counters_kind_names, s);
}

int
counters_track_kind(const struct model *m, uint32_t t)
{
	const struct track	*tr;

	if (t >= m->ntracks || m->tracks[t].type != TRACK_COUNTER)
		return -1;
	tr = &m->tracks[t];
	if (tr->device < m->ndevices)
		return COUNTERS_GPU;
	if (tr->thread == NONE32)
		return COUNTERS_NIC;
	return COUNTERS_HOST;
}

/* One sample before grouping. */
struct counters_smp {
	uint32_t	 series;
	int64_t		 t;
	double		 v;
};

static int
counters_smp_cmp(const void *a, const void *b, void *unused)
{
	const struct counters_smp	*x = a, *y = b;

	(void)unused;
	return sort_lex2(x->series, y->series, x->t, y->t);
}

/* Percentile p (0..100) of sorted v[0, n), linear between closest ranks. */
static double
counters_pct(const double *v, size_t n, double p)
{
	double	h, f;
	size_t	i;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * p / 100.0;
	i = (size_t)h;
	if (i + 1 >= n)
		return v[n - 1];
	f = h - (double)i;
	return v[i] + (v[i + 1] - v[i]) * f;
}

static int
counters_series_cmp(const void *a, const void *b, void *ctx)
{
	const struct counters_series	*x = a, *y = b;
	const struct model		*m = ctx;
	int				 c;

	if ((c = sort_lex2(x->kind, y->kind, x->track, y->track)) != 0)
		return c;
	return strcmp(model_str(m, x->name), model_str(m, y->name));
}

/* Coverage and values of series s from its samples p[0, n), by time. */
static void
counters_stats(struct counters_series *s, const struct counters_smp *p,
    size_t n, double *vals, int64_t *gaps)
{
	double		sum = 0;
	size_t		i;
	int64_t		med;

	s->samples = n;
	s->first_ns = p[0].t;
	s->last_ns = p[n - 1].t;
	for (i = 0; i < n; i++) {
		vals[i] = p[i].v;
		sum += p[i].v;
		if (i > 0)
			gaps[i - 1] = p[i].t - p[i - 1].t;
	}
	s->mean = sum / (double)n;
	qsort(vals, n, sizeof *vals, sort_cmp_double);
	s->min = vals[0];
	s->max = vals[n - 1];
	s->p50 = counters_pct(vals, n, 50);
	s->p90 = counters_pct(vals, n, 90);
	s->p99 = counters_pct(vals, n, 99);
	if (n < 2)
		return;
	qsort(gaps, n - 1, sizeof *gaps, sort_cmp_i64);
	med = gaps[(n - 2) / 2];
	s->interval_ns = med;
	s->max_gap_ns = gaps[n - 2];
	for (i = 0; i < n - 1; i++)
		if (gaps[i] > med * COUNTERS_GAP_FACTOR)
			s->gaps++;
}

/* The buckets of series s from its samples p[0, n). */
static void
counters_buckets(struct counters_result *r, struct counters_series *s,
    const struct counters_smp *p, size_t n)
{
	size_t	i, b;

	s->bcount = xcalloc(r->nbuckets, sizeof *s->bcount);
	s->bmean = xcalloc(r->nbuckets, sizeof *s->bmean);
	s->bmax = xcalloc(r->nbuckets, sizeof *s->bmax);
	for (b = 0; b < r->nbuckets; b++)
		s->bmean[b] = s->bmax[b] = NAN;
	for (i = 0; i < n; i++) {
		b = (size_t)((p[i].t - r->t0) / r->bucket_ns);
		if (b >= r->nbuckets)
			continue;
		if (s->bcount[b]++ == 0) {
			s->bmean[b] = 0;
			s->bmax[b] = p[i].v;
		} else if (p[i].v > s->bmax[b])
			s->bmax[b] = p[i].v;
		s->bmean[b] += p[i].v;
	}
	for (b = 0; b < r->nbuckets; b++)
		if (s->bcount[b] > 0)
			s->bmean[b] /= (double)s->bcount[b];
}

/* Whether track t's series pass the query's kind and device. */
static int
counters_want_track(const struct model *m, const struct counters_query *q,
    uint32_t t, int *kind)
{
	*kind = counters_track_kind(m, t);
	if (*kind < 0 || (q->kind >= 0 && *kind != q->kind))
		return 0;
	if (q->device >= 0 && (*kind != COUNTERS_GPU ||
	    m->devices[m->tracks[t].device].source_id !=
	    (unsigned long long)q->device))
		return 0;
	return 1;
}

int
counters_build(const struct model *m, const struct counters_query *q,
    struct counters_result *r, char **cause)
{
	struct counters_smp	*p = NULL;
	struct hmap		 idx;	/* key(track, name) -> series */
	size_t			 np = 0, pcap = 0, i, j, t, maxn = 0;
	double			*vals;
	int64_t			*gaps, t0 = q->t0, t1 = q->t1;
	uint32_t		 sidx;
	int			 kind;

	memset(r, 0, sizeof *r);
	r->t0 = t0;
	r->bucket_ns = q->bucket_ns;
	if (q->bucket_ns > 0) {
		if (t1 <= t0)
			r->nbuckets = 0;
		else if ((uint64_t)(t1 - t0) / (uint64_t)q->bucket_ns >=
		    COUNTERS_MAX_BUCKETS) {
			*cause = xasprintf("--bucket: more than %d buckets in "
			    "the window; give a wider bucket",
			    COUNTERS_MAX_BUCKETS);
			return -1;
		} else
			r->nbuckets = (size_t)(((uint64_t)(t1 - t0) +
			    (uint64_t)q->bucket_ns - 1) /
			    (uint64_t)q->bucket_ns);
	}
	hmap_init(&idx);
	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;

		if (!counters_want_track(m, q, (uint32_t)t, &kind))
			continue;
		for (i = lane_lower(l, t0); i < l->n && l->start[i] < t1;
		    i++) {
			uint64_t key;

			if (l->kind[i] != EV_COUNTER || l->aux[i] >=
			    m->ncounters)
				continue;
			key = hmap_key2(t, l->name[i]);
			if (!hmap_get(&idx, key, &sidx)) {
				if (q->glob != NULL && fnmatch(q->glob,
				    model_str(m, l->name[i]), 0) != 0) {
					hmap_put(&idx, key, NONE32);
					continue;
				}
				r->v = xreallocarray(r->v, r->n + 1,
				    sizeof *r->v);
				memset(&r->v[r->n], 0, sizeof *r->v);
				r->v[r->n].track = (uint32_t)t;
				r->v[r->n].name = l->name[i];
				r->v[r->n].kind = kind;
				sidx = (uint32_t)r->n++;
				hmap_put(&idx, key, sidx);
			}
			if (sidx == NONE32)
				continue;
			if (np == pcap) {
				pcap = pcap == 0 ? 1024 : pcap * 2;
				p = xreallocarray(p, pcap, sizeof *p);
			}
			p[np].series = sidx;
			p[np].t = l->start[i];
			p[np].v = m->counters[l->aux[i]];
			np++;
		}
	}
	hmap_free(&idx);
	r->samples = np;
	sort_stable(p, np, sizeof *p, counters_smp_cmp, NULL);
	for (i = 0; i < np; i = j) {
		for (j = i; j < np && p[j].series == p[i].series; j++)
			;
		if (j - i > maxn)
			maxn = j - i;
	}
	vals = xcalloc(maxn + 1, sizeof *vals);
	gaps = xcalloc(maxn + 1, sizeof *gaps);
	for (i = 0; i < np; i = j) {
		for (j = i; j < np && p[j].series == p[i].series; j++)
			;
		counters_stats(&r->v[p[i].series], p + i, j - i, vals, gaps);
		if (r->nbuckets > 0)
			counters_buckets(r, &r->v[p[i].series], p + i, j - i);
	}
	free(vals);
	free(gaps);
	free(p);
	/* Series that matched a name but have no sample in the window are
	 * not made: every series has samples. */
	sort_stable(r->v, r->n, sizeof *r->v, counters_series_cmp, (void *)m);
	return 0;
}

void
counters_free(struct counters_result *r)
{
	XFREE_EACH(r->v, r->n, bcount);
	XFREE_EACH(r->v, r->n, bmean);
	XFREE_EACH(r->v, r->n, bmax);
	free(r->v);
	memset(r, 0, sizeof *r);
}
