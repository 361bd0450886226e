/*
 * ktable: the kernel table's rows, filtered and sorted. See ktable.h.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/ktable.h"
#include "tui/search.h"
#include "util/sort.h"
#include "util/xmalloc.h"

static const char *ktable_sort_names[KT_SORT_COUNT_] = {
	"total", "count", "mean", "median", "min", "max", "stddev", "name"
};

const char *
ktable_sort_name(int k)
{
	return k >= 0 && k < KT_SORT_COUNT_ ? ktable_sort_names[k] : "?";
}

struct ktable *
ktable_build(const struct model *m)
{
	struct ktable		*kt;
	struct gstats_sel	 sel;
	int			 axis = GS_NAME;

	kt = xcalloc(1, sizeof *kt);
	kt->m = m;
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	kt->gs = gstats_compute(m, &sel, &axis, 1, 0);
	ktable_view(kt, NULL, KT_SORT_TOTAL, 1);
	return kt;
}

void
ktable_free(struct ktable *kt)
{
	if (kt == NULL)
		return;
	gstats_free(kt->gs);
	free(kt->vis);
	free(kt);
}

/* The duration statistic a numeric sort orders by (0 for the others). */
static double
ktable_key(const struct gstats_group *g, int sort)
{
	switch (sort) {
	case KT_SORT_MEAN:
		return g->dur.mean;
	case KT_SORT_MEDIAN:
		return g->dur.median;
	case KT_SORT_STDDEV:
		return g->dur.stddev;
	case KT_SORT_TOTAL:
		return (double)g->dur.total;
	case KT_SORT_COUNT:
		return (double)g->dur.count;
	case KT_SORT_MIN:
		return (double)g->dur.min;
	case KT_SORT_MAX:
		return (double)g->dur.max;
	}
	return 0;
}

static int
ktable_cmp(const void *a, const void *b, void *ctx)
{
	const struct ktable	*kt = ctx;
	const struct gstats_group *x = &kt->gs->g[*(const uint32_t *)a];
	const struct gstats_group *y = &kt->gs->g[*(const uint32_t *)b];
	double			 dx, dy;
	int			 c;

	dx = ktable_key(x, kt->sort);
	dy = ktable_key(y, kt->sort);
	if (kt->sort == KT_SORT_NAME)
		c = strcmp(model_str(kt->m, x->short_name != 0 ?
		    x->short_name : x->name), model_str(kt->m, y->short_name !=
		    0 ? y->short_name : y->name));
	else
		c = dx < dy ? -1 : dx > dy;
	if (kt->desc)
		c = -c;
	if (c == 0)
		c = strcmp(model_str(kt->m, x->name), model_str(kt->m,
		    y->name));
	return c;
}

void
ktable_view(struct ktable *kt, const char *filter, int sort, int desc)
{
	const struct gstats_group	*r;
	size_t				 i;

	if (filter != kt->filter)
		snprintf(kt->filter, sizeof kt->filter, "%s",
		    filter != NULL ? filter : "");
	kt->sort = sort;
	kt->desc = desc;
	if (kt->vis == NULL)
		kt->vis = xcalloc(kt->gs->ng + 1, sizeof *kt->vis);
	kt->nvis = 0;
	for (i = 0; i < kt->gs->ng; i++) {
		r = &kt->gs->g[i];
		if (kt->filter[0] != '\0' &&
		    !search_match(model_str(kt->m, r->name), kt->filter) &&
		    !search_match(model_str(kt->m, r->short_name), kt->filter))
			continue;
		kt->vis[kt->nvis++] = (uint32_t)i;
	}
	sort_stable(kt->vis, kt->nvis, sizeof *kt->vis, ktable_cmp, kt);
}

size_t
ktable_instances(const struct model *m, uint32_t name, uint32_t **buf,
    size_t *cap)
{
	const struct lane	*l;
	size_t			 t, i, n = 0, ntr = 0;

	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL || l->name[i] != name)
				continue;
			XGROW(*buf, *cap, n + 1);
			(*buf)[n++] = model_gid(m, (uint32_t)t, (uint32_t)i);
		}
		ntr++;
	}
	/* Each track's part is in start order; merge them. */
	if (ntr > 1)
		sort_stable(*buf, n, sizeof **buf, model_gid_cmp_start, (void *)m);
	return n;
}
