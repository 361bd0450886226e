/*
 * pcs: the per-instruction counters of a launch (see pcs.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/pcs.h"
#include "report/report.h"
#include "util/lbound.h"
#include "util/sort.h"
#include "util/xmalloc.h"

/* Addresses further than this past the load address are not code. */
#define REPORT_PCS_SPAN	((uint64_t)64 << 20)

static int
report_pcs_is_counter(const struct report *r, const struct report_metric *m,
    uint64_t base, uint64_t span)
{
	const struct report_instance	*in;
	size_t				 k;

	if (m->ninst == 0 || base == 0)
		return 0;
	for (k = 0; k < m->ninst; k++) {
		in = &r->instances[m->inst + k];
		if (in->corr.type != RV_UINT || in->corr.v.u < base ||
		    in->corr.v.u - base >= span)
			return 0;
		if (in->value.type != RV_UINT && in->value.type != RV_DOUBLE)
			return 0;
	}
	return 1;
}

void
report_pcs_build(const struct report *r, uint32_t launch,
    struct report_pcs *p)
{
	const struct report_launch	*l;
	const struct report_metric	*m;
	const struct report_instance	*in;
	const struct report_line	*ln;
	uint64_t			*offs = NULL, span = REPORT_PCS_SPAN;
	size_t				 noffs = 0, offscap = 0, i, k, n, c;
	size_t				 colscap = 0;

	memset(p, 0, sizeof *p);
	p->launch = launch;
	p->func = REPORT_NONE;
	if (launch >= r->nlaunches)
		return;
	l = &r->launches[launch];
	p->func = l->func;
	p->base = report_code_launch_addr(r, launch);
	if (p->func != REPORT_NONE && r->code.funcs[p->func].size > 0)
		span = r->code.funcs[p->func].size;
	for (k = 0; k < l->nmetrics; k++) {
		m = &r->metrics[l->metric + k];
		if (!report_pcs_is_counter(r, m, p->base, span))
			continue;
		XGROW(p->col, colscap, p->ncols + 1);
		p->col[p->ncols++] = m->name;
		for (i = 0; i < m->ninst; i++) {
			XGROW(offs, offscap, noffs + 1);
			offs[noffs++] = r->instances[m->inst + i].corr.v.u -
			    p->base;
		}
	}
	if (p->ncols == 0) {
		free(offs);
		return;
	}
	if (noffs > 1)
		qsort(offs, noffs, sizeof *offs, sort_cmp_u64);
	for (i = n = 0; i < noffs; i++)
		if (n == 0 || offs[n - 1] != offs[i])
			offs[n++] = offs[i];
	p->off = offs;
	p->npcs = n;
	p->v = xcalloc(n * p->ncols, sizeof *p->v);
	for (i = 0; i < n * p->ncols; i++)
		p->v[i] = NAN;
	for (k = c = 0; k < l->nmetrics; k++) {
		m = &r->metrics[l->metric + k];
		if (c >= p->ncols || m->name != p->col[c])
			continue;
		for (i = 0; i < m->ninst; i++) {
			in = &r->instances[m->inst + i];
			size_t row = lbound_u64(p->off, p->npcs,
			    in->corr.v.u - p->base);
			double *v = &p->v[row * p->ncols + c];
			double x = report_value_num(&in->value);
			*v = isnan(*v) ? x : *v + x;
		}
		c++;
	}
	p->file = xcalloc(n, sizeof *p->file);
	p->line = xcalloc(n, sizeof *p->line);
	for (i = 0; i < n; i++) {
		p->file[i] = REPORT_NONE;
		if (p->func == REPORT_NONE)
			continue;
		ln = report_code_lookup(r, p->func, p->off[i]);
		if (ln == NULL)
			continue;
		p->file[i] = ln->file;
		p->line[i] = ln->line;
		p->has_lines = 1;
	}
}

void
report_pcs_free(struct report_pcs *p)
{
	free(p->off);
	free(p->file);
	free(p->line);
	free(p->col);
	free(p->v);
	memset(p, 0, sizeof *p);
}

int
report_pcs_col(const struct report *r, const struct report_pcs *p,
    const char *name)
{
	size_t	i;

	for (i = 0; i < p->ncols; i++)
		if (strcmp(report_str(r, p->col[i]), name) == 0)
			return (int)i;
	return -1;
}

double
report_pcs_get(const struct report_pcs *p, size_t i, int c)
{
	if (c < 0 || (size_t)c >= p->ncols || i >= p->npcs)
		return NAN;
	return p->v[i * p->ncols + (size_t)c];
}
