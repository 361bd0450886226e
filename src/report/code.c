/*
 * code: the modules, functions, source files and line table of a report
 * (see code.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/code.h"
#include "report/report.h"
#include "util/xmalloc.h"

void
report_code_free(struct report_code *c)
{
	XFREE_EACH(c->modules, c->nmodules, cubin);
	free(c->modules);
	free(c->funcs);
	free(c->files);
	free(c->ltab);
	memset(c, 0, sizeof *c);
}

uint32_t
report_code_module(struct report *r, uint64_t ref)
{
	struct report_code	*c = &r->code;
	struct report_module	*m;
	size_t			 i;

	for (i = 0; i < c->nmodules; i++)
		if (c->modules[i].ref == ref)
			return (uint32_t)i;
	m = XAPPEND(c->modules, c->modulescap, c->nmodules);
	m->ref = ref;
	return (uint32_t)c->nmodules++;
}

uint32_t
report_code_func(struct report *r, uint32_t module, uint32_t name,
    uint64_t addr, uint32_t index)
{
	struct report_code	*c = &r->code;
	struct report_func	*f;
	size_t			 i;

	for (i = 0; i < c->nfuncs; i++) {
		f = &c->funcs[i];
		if (f->module == module && f->addr == addr && f->name == name)
			return (uint32_t)i;
	}
	f = XAPPEND(c->funcs, c->funcscap, c->nfuncs);
	f->module = module;
	f->name = name;
	f->addr = addr;
	f->index = index;
	return (uint32_t)c->nfuncs++;
}

uint32_t
report_code_file(struct report *r, uint32_t module, uint32_t path)
{
	struct report_code	*c = &r->code;
	struct report_file	*f;
	size_t			 i;

	for (i = 0; i < c->nfiles; i++)
		if (c->files[i].module == module && c->files[i].path == path)
			return (uint32_t)i;
	f = XAPPEND(c->files, c->filescap, c->nfiles);
	f->module = module;
	f->path = path;
	return (uint32_t)c->nfiles++;
}

void
report_code_line(struct report *r, uint32_t func, uint32_t file,
    uint64_t off, uint32_t line)
{
	struct report_code	*c = &r->code;
	struct report_line	 l = { func, file, off, line };

	XPUSH(c->ltab, c->ltabcap, c->nltab, l);
}

static int
report_code_line_cmp(const void *a, const void *b)
{
	const struct report_line	*x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

void
report_code_finish(struct report *r)
{
	struct report_code	*c = &r->code;
	struct report_launch	*l;
	uint64_t		 addr;
	size_t			 i, j, k;

	/* Rows at the same offset: the last the line program set wins. */
	if (c->nltab > 1)
		qsort(c->ltab, c->nltab, sizeof *c->ltab,
		    report_code_line_cmp);
	for (i = j = 0; i < c->nltab; i++) {
		if (j > 0 && report_code_line_cmp(&c->ltab[j - 1],
		    &c->ltab[i]) == 0)
			j--;
		c->ltab[j++] = c->ltab[i];
	}
	c->nltab = j;
	for (i = 0; i < r->nlaunches; i++) {
		l = &r->launches[i];
		l->module = l->func = REPORT_NONE;
		if (l->source_ref == 0)
			continue;
		for (j = 0; j < c->nmodules; j++)
			if (c->modules[j].ref == l->source_ref)
				l->module = (uint32_t)j;
		if (l->module == REPORT_NONE)
			continue;
		addr = report_code_launch_addr(r, (uint32_t)i);
		/* By load address, else (reports without the function list)
		 * by mangled name. */
		for (k = 0; k < c->nfuncs && addr != 0; k++)
			if (c->funcs[k].module == l->module &&
			    c->funcs[k].addr == addr) {
				l->func = (uint32_t)k;
				break;
			}
		for (k = 0; k < c->nfuncs && l->func == REPORT_NONE &&
		    l->mangled != 0; k++)
			if (c->funcs[k].module == l->module &&
			    c->funcs[k].name == l->mangled) {
				l->func = (uint32_t)k;
				break;
			}
	}
}

uint64_t
report_code_launch_addr(const struct report *r, uint32_t launch)
{
	const struct report_metric	*m;
	const struct report_value	*v;

	m = report_metric(r, launch, "launch__function_pcs");
	if (m == NULL)
		return 0;
	/* The element holds the address; newer reports put a count in
	 * the scalar. */
	v = m->ninst > 0 ? &r->instances[m->inst].value : &m->value;
	if (v->type == RV_UINT)
		return v->v.u;
	if (v->type == RV_DOUBLE && v->v.d > 0 && v->v.d < 1.8e19)
		return (uint64_t)v->v.d;
	return 0;
}

const struct report_line *
report_code_lookup(const struct report *r, uint32_t func, uint64_t off)
{
	const struct report_code	*c = &r->code;
	const struct report_line	*best = NULL;
	size_t				 lo = 0, hi = c->nltab, mid;

	/* The last row of func at or before off. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->ltab[mid].func < func || (c->ltab[mid].func == func &&
		    c->ltab[mid].off <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && c->ltab[lo - 1].func == func)
		best = &c->ltab[lo - 1];
	if (best != NULL && best->line == 0)
		return NULL;
	return best;
}

uint32_t
report_code_func_by_name(const struct report *r, uint32_t module,
    const char *name)
{
	const struct report_code	*c = &r->code;
	size_t				 i;

	for (i = 0; i < c->nfuncs; i++)
		if (c->funcs[i].module == module &&
		    strcmp(report_str(r, c->funcs[i].name), name) == 0)
			return (uint32_t)i;
	return REPORT_NONE;
}

const char *
report_code_sm(uint32_t sm, char *buf, size_t len)
{
	if (sm == 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "sm_%u%u", sm >> 16, sm & 0xffff);
	return buf;
}
