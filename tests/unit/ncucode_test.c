/*
 * ncucode_test: the code a report carries (report/code.h): modules,
 * functions, source files and the line table decoded from the cubins'
 * DWARF, on the Nsight Compute fixtures ($GPULENS_FIXTURES) and, when
 * $GPULENS_NCU_SRC_REPORT names one, a report of a kernel built with
 * -lineinfo and captured with --import-source.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sources/ncurep.h"
#include "report/report.h"
#include "tsupport.h"

static void
test_sglang(void **state)
{
	struct report			*r;
	const struct report_module	*m;
	const struct report_func	*f;
	char				 sm[16];
	size_t				 i;

	(void)state;
	r = ts_ncu_fixture("sglang-fork/profile.ncu-rep");
	/* Three source entries, two modules: the second entry of the first
	 * module only adds functions. */
	assert_int_equal(r->code.nmodules, 2);
	m = &r->code.modules[0];
	assert_int_equal(m->nentries, 2);
	assert_int_equal(m->cubinlen, 563504);
	assert_int_equal(m->sm, 0x90000);
	assert_string_equal(report_code_sm(m->sm, sm, sizeof sm), "sm_90");
	assert_int_equal(m->has_lines, 0);
	assert_int_equal(r->code.modules[1].cubinlen, 1187592);
	for (i = 0; i < r->nlaunches; i++) {
		assert_int_equal(r->launches[i].module, i < 4 ? 0 : 1);
		assert_int_not_equal(r->launches[i].func, REPORT_NONE);
		f = &r->code.funcs[r->launches[i].func];
		/* The unmeasured launch 4 has no launch__function_pcs. */
		if (i < 4)
			assert_int_equal(f->addr, report_code_launch_addr(r,
			    (uint32_t)i));
		assert_int_equal(f->name, r->launches[i].mangled);
		assert_true(f->size > 0);
	}
	assert_int_equal(report_code_launch_addr(r, 0), 140112297370624ULL);
	report_free(r);
}

static void
test_indexspaces(void **state)
{
	struct report			*r;
	const struct report_line	*l;
	const struct report_func	*f;
	uint32_t			 fn;

	(void)state;
	r = ts_ncu_fixture("indexspaces/profile.ncu-rep");
	assert_true(r->code.nmodules >= 1);
	fn = r->launches[1].func;
	assert_int_not_equal(fn, REPORT_NONE);
	f = &r->code.funcs[fn];
	assert_int_equal(r->code.modules[f->module].has_lines, 1);
	assert_true(r->code.nltab > 0);
	l = report_code_lookup(r, fn, 0);
	assert_non_null(l);
	assert_int_not_equal(l->file, REPORT_NONE);
	/* The kernel's first instruction is at bb.jl:605. */
	assert_string_equal(report_str(r, r->code.files[l->file].path),
	    "/home/eschnett/src/jl/IndexSpaces/kernels/bb.jl");
	assert_int_equal(l->line, 605);
	report_free(r);
}

/* A kernel built with -lineinfo, captured with --import-source yes. */
static void
test_lineinfo(void **state)
{
	struct report			*r;
	const struct report_line	*l;
	const struct report_file	*file;
	const char			*p = getenv("GPULENS_NCU_SRC_REPORT");
	uint32_t			 fn;
	size_t				 i;
	int				 withtext = 0;

	(void)state;
	if (p == NULL || *p == '\0') {
		fprintf(stderr, "GPULENS_NCU_SRC_REPORT unset: skipping\n");
		skip();
	}
	r = ts_ncurep(p);
	assert_int_equal(r->nlaunches, 6);
	for (i = 0; i < r->code.nfiles; i++)
		if (r->code.files[i].text != 0)
			withtext++;
	assert_true(withtext >= 1);
	/* saxpy: `if (i < n) y[i] = a * x[i] + y[i];` is line 6 of k.cu. */
	fn = r->launches[0].func;
	assert_int_not_equal(fn, REPORT_NONE);
	assert_string_equal(report_str(r, r->code.funcs[fn].name),
	    "_Z5saxpyifPKfPf");
	l = report_code_lookup(r, fn, 0x80);
	assert_non_null(l);
	file = &r->code.files[l->file];
	assert_non_null(strstr(report_str(r, file->path), "k.cu"));
	assert_int_not_equal(file->text, 0);
	assert_true(l->line >= 4 && l->line <= 7);
	report_free(r);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_sglang),
	cmocka_unit_test(test_indexspaces),
	cmocka_unit_test(test_lineinfo))
