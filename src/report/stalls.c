/*
 * stalls: PC sampling by reason, instruction and line (see stalls.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/stalls.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define STALL_PREFIX	"smsp__pcsamp_warps_issue_stalled_"
#define STALL_NI	"_not_issued"

static int
report_stalls_is_ni(const char *s)
{
	size_t	n = strlen(s), k = strlen(STALL_NI);

	return n > k && strcmp(s + n - k, STALL_NI) == 0;
}

static void
report_stalls_add(const struct report *r, struct report_stalls *s,
    const char *name)
{
	char	*ni;
	size_t	 i;
	int	 c;

	if (strncmp(name, STALL_PREFIX, strlen(STALL_PREFIX)) != 0 ||
	    report_stalls_is_ni(name))
		return;
	if ((c = report_pcs_col(r, &s->pcs, name)) < 0)
		return;
	for (i = 0; i < s->nreasons; i++)
		if (s->col[i] == c)
			return;
	s->reason = xreallocarray(s->reason, s->nreasons + 1,
	    sizeof *s->reason);
	s->col = xreallocarray(s->col, s->nreasons + 1, sizeof *s->col);
	s->nicol = xreallocarray(s->nicol, s->nreasons + 1, sizeof *s->nicol);
	s->reason[s->nreasons] = xstrdup(name + strlen(STALL_PREFIX));
	s->col[s->nreasons] = c;
	ni = xasprintf("%s%s", name, STALL_NI);
	s->nicol[s->nreasons] = report_pcs_col(r, &s->pcs, ni);
	free(ni);
	s->nreasons++;
}

int
report_stalls_build(const struct report *r, uint32_t launch,
    struct report_stalls *s)
{
	const struct report_metric	*g;
	const char			*list, *p, *e;
	char				*one;
	size_t				 i, k;
	double				 v;

	memset(s, 0, sizeof *s);
	s->launch = launch;
	s->samples = NAN;
	report_pcs_build(r, launch, &s->pcs);
	s->samplecol = report_pcs_col(r, &s->pcs,
	    "smsp__pcsamp_sample_count");
	/* The reasons the report lists, in its order, then any other. */
	g = report_metric(r, launch, "group:smsp__pcsamp_warp_stall_reasons");
	if (g != NULL && g->value.type == RV_STRING) {
		list = report_str(r, g->value.v.s);
		for (p = list; *p != '\0'; p = *e == ',' ? e + 1 : e) {
			e = strchr(p, ',');
			if (e == NULL)
				e = p + strlen(p);
			one = xstrndup(p, (size_t)(e - p));
			report_stalls_add(r, s, one);
			free(one);
		}
	}
	for (i = 0; i < s->pcs.ncols; i++)
		report_stalls_add(r, s, report_str(r, s->pcs.col[i]));
	if (s->nreasons == 0) {
		report_stalls_free(s);
		return -1;
	}
	(void)report_metric_num(r, launch, "smsp__pcsamp_sample_count",
	    &s->samples);
	for (i = 0; i < s->pcs.npcs; i++)
		for (k = 0; k < s->nreasons; k++) {
			v = report_pcs_get(&s->pcs, i, s->col[k]);
			if (!isnan(v))
				s->reason_sum += v;
			v = report_pcs_get(&s->pcs, i, s->nicol[k]);
			if (!isnan(v))
				s->not_issued += v;
		}
	return 0;
}

void
report_stalls_free(struct report_stalls *s)
{
	xfree_strv(s->reason, s->nreasons);
	free(s->col);
	free(s->nicol);
	report_pcs_free(&s->pcs);
	memset(s, 0, sizeof *s);
}

static int
report_stalls_cmp(const void *a, const void *b)
{
	const struct report_stall_group	*x = a, *y = b;
	int				 c;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if ((c = sort_lex3(x->reason, y->reason, x->file, y->file, x->line,
	    y->line)) != 0)
		return c;
	return (x->off > y->off) - (x->off < y->off);
}

static struct report_stall_group *
report_stalls_new(struct report_stall_group **g, size_t *n, size_t *cap,
    size_t nreasons)
{
	struct report_stall_group	*e;

	e = XAPPEND(*g, *cap, (*n)++);
	e->reason = REPORT_NONE;
	e->file = REPORT_NONE;
	if (nreasons > 0) {
		e->by_reason = xcalloc(nreasons, sizeof *e->by_reason);
		e->ni_by_reason = xcalloc(nreasons,
		    sizeof *e->ni_by_reason);
	}
	return e;
}

size_t
report_stalls_group(const struct report_stalls *s, int by,
    struct report_stall_group **out)
{
	const struct report_pcs		*p = &s->pcs;
	struct report_stall_group	*g = NULL, *e;
	size_t				 n = 0, cap = 0, i, k, j;
	double				 v, ni;

	if (by == RSB_REASON) {
		for (k = 0; k < s->nreasons; k++) {
			e = report_stalls_new(&g, &n, &cap, 0);
			e->reason = (uint32_t)k;
			for (i = 0; i < p->npcs; i++) {
				v = report_pcs_get(p, i, s->col[k]);
				ni = report_pcs_get(p, i, s->nicol[k]);
				if (!isnan(v) && v > 0) {
					e->samples += v;
					e->npcs++;
				}
				if (!isnan(ni))
					e->not_issued += ni;
			}
		}
	} else {
		for (i = 0; i < p->npcs; i++) {
			if (by == RSB_LINE && p->line[i] == 0)
				continue;
			e = NULL;
			if (by == RSB_LINE)
				for (j = 0; j < n; j++)
					if (g[j].file == p->file[i] &&
					    g[j].line == p->line[i])
						e = &g[j];
			if (e == NULL) {
				e = report_stalls_new(&g, &n, &cap,
				    s->nreasons);
				e->off = p->off[i];
				e->file = p->file[i];
				e->line = p->line[i];
			}
			e->npcs++;
			for (k = 0; k < s->nreasons; k++) {
				v = report_pcs_get(p, i, s->col[k]);
				ni = report_pcs_get(p, i, s->nicol[k]);
				if (!isnan(v)) {
					e->samples += v;
					e->by_reason[k] += v;
				}
				if (!isnan(ni)) {
					e->not_issued += ni;
					e->ni_by_reason[k] += ni;
				}
			}
		}
	}
	if (n > 0)
		qsort(g, n, sizeof *g, report_stalls_cmp);
	*out = g;
	return n;
}

void
report_stalls_groups_free(struct report_stall_group *g, size_t n)
{
	XFREE_EACH(g, n, by_reason);
	XFREE_EACH(g, n, ni_by_reason);
	free(g);
}

int
report_stalls_top(const struct report_stalls *s,
    const struct report_stall_group *g)
{
	size_t	k;
	int	best = -1;

	if (g->by_reason == NULL)
		return -1;
	for (k = 0; k < s->nreasons; k++)
		if (g->by_reason[k] > 0 && (best < 0 ||
		    g->by_reason[k] > g->by_reason[best]))
			best = (int)k;
	return best;
}
