/*
 * report_test: the report model built by hand (grouping by launch, metric
 * look-up, labels from sections, devices, properties, warnings) and the
 * roofline arithmetic on launches whose metrics give round numbers.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/report.h"
#include "report/roofline.h"
#include "tsupport.h"

static void
umetric(struct report *r, uint32_t launch, const char *name, uint64_t v)
{
	struct report_metric	*m;

	m = report_add_metric(r, launch, report_intern0(r, name));
	m->value.type = RV_UINT;
	m->value.v.u = v;
}

static void
test_grouping(void **state)
{
	struct report			*r = report_new(REPORT_NCU_REP);
	struct report_launch		*l;
	struct report_rule		*u;
	const struct report_metric	*m;
	struct report_value		 a, b;
	uint32_t			 sec;
	double				 d;

	(void)state;
	l = report_add_launch(r);
	l->demangled = report_intern0(r, "void k<int>(int)");
	l->function = report_intern0(r, "k");
	l = report_add_launch(r);
	l->mangled = report_intern0(r, "_Z1jv");
	assert_int_equal(r->launches[1].id, 1);
	/* Metrics of both launches, interleaved and out of order. */
	ts_metric(r, 1, "zeta", 1);
	ts_metric(r, 0, "gpu__time_duration.sum", 1500);
	umetric(r, 1, "alpha", 2);
	ts_metric(r, 0, "alpha", 3);
	report_add_metric(r, 0, report_intern0(r, "inst"));
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.type = b.type = RV_UINT;
	a.v.u = 5;
	b.v.u = 50;
	report_add_instance(r, &a, &b);
	a.v.u = 6;
	b.v.u = 60;
	report_add_instance(r, &a, &b);
	ts_metric(r, 7, "orphan", 1);	/* a launch that does not exist */
	sec = report_add_section(r, 0, report_intern0(r, "SpeedOfLight"),
	    report_intern0(r, "GPU Speed Of Light"), 10);
	report_add_secmetric(r, sec, report_intern0(r,
	    "gpu__time_duration.sum"), report_intern0(r, "Duration"));
	report_add_secmetric(r, sec, report_intern0(r, "alpha"),
	    report_intern0(r, "{UNIT}: {NAME}"));
	u = report_add_rule(r, 1);
	u->ident = report_intern0(r, "R1");
	u->type = RR_OPT;
	u = report_add_rule(r, 0);
	u->ident = report_intern0(r, "R0");
	assert_true(isnan(u->speedup));
	report_finish(r);

	assert_int_equal(r->nmetrics, 5);
	assert_int_equal(r->launches[0].nmetrics, 3);
	assert_int_equal(r->launches[1].nmetrics, 2);
	assert_int_equal(r->launches[1].metric, 3);
	/* Sorted by name within a launch. */
	assert_string_equal(report_str(r, r->metrics[0].name), "alpha");
	assert_string_equal(report_str(r, r->metrics[1].name),
	    "gpu__time_duration.sum");
	assert_string_equal(report_str(r, r->metrics[2].name), "inst");
	m = report_metric(r, 0, "inst");
	assert_non_null(m);
	assert_int_equal(m->ninst, 2);
	assert_int_equal(r->instances[m->inst + 1].value.v.u, 60);
	assert_null(report_metric(r, 0, "zeta"));
	assert_null(report_metric(r, 5, "alpha"));
	assert_int_equal(report_metric_num(r, 1, "alpha", &d), 0);
	assert_true(d == 2.0);
	assert_int_equal(report_metric_num(r, 0, "nope", &d), -1);
	/* Labels come from the section; templates are not labels. */
	m = report_metric(r, 0, "gpu__time_duration.sum");
	assert_string_equal(report_str(r, m->label), "Duration");
	assert_int_equal(m->section, 0);
	assert_string_equal(report_str(r, m->unit), "ns");
	m = report_metric(r, 0, "alpha");
	assert_int_equal(m->label, 0);
	assert_int_equal(r->launches[0].nsections, 1);
	assert_int_equal(r->launches[1].nsections, 0);
	/* Rules grouped by launch. */
	assert_int_equal(r->launches[0].nrules, 1);
	assert_string_equal(report_str(r,
	    r->rules[r->launches[0].rule].ident), "R0");
	assert_string_equal(report_str(r,
	    r->rules[r->launches[1].rule].ident), "R1");
	assert_string_equal(report_launch_name(r, 0), "void k<int>(int)");
	assert_string_equal(report_launch_name(r, 1), "_Z1jv");
	report_free(r);
}

static void
test_session(void **state)
{
	struct report		*r = report_new(REPORT_NCU_CSV_DETAILS);
	struct report_value	 v;
	uint32_t		 d0, d1;
	int			 i;

	(void)state;
	memset(&v, 0, sizeof v);
	d1 = report_device(r, 1, report_intern0(r, "B"));
	d0 = report_device(r, 0, report_intern0(r, "A"));
	assert_int_equal(report_device(r, 1, 0), d1);
	v.type = RV_UINT;
	v.v.u = 80;
	report_device_attr(r, d0, report_intern0(r, "sms"), &v);
	v.v.u = 40;
	report_device_attr(r, d1, report_intern0(r, "sms"), &v);
	v.v.u = 8;
	report_device_attr(r, d0, report_intern0(r, "cc"), &v);
	v.v.u = 81;
	report_device_attr(r, d0, report_intern0(r, "sms"), &v);
	report_prop(r, "host.name", "a");
	report_prop(r, "host.name", "b");
	report_warn(r, "twice %d", 1);
	report_warn(r, "twice %d", 1);
	for (i = 0; i < 100; i++)
		report_warn(r, "many %d", i);
	report_skipped(r, "X", 3);
	report_skipped(r, "X", 3);
	report_skipped(r, "X", 33);
	report_finish(r);
	assert_int_equal(r->devices[d0].nattrs, 2);
	assert_int_equal(r->devices[d1].nattrs, 1);
	assert_true(report_value_num(report_device_attr_get(r, d0, "sms")) ==
	    81.0);
	assert_true(report_value_num(report_device_attr_get(r, d1, "sms")) ==
	    40.0);
	assert_null(report_device_attr_get(r, d1, "cc"));
	assert_string_equal(report_prop_get(r, "host.name"), "b");
	assert_null(report_prop_get(r, "host.os"));
	assert_int_equal(r->nwarnings, 64);
	assert_string_equal(r->warnings[0], "twice 1");
	assert_string_equal(r->skipped, "X.3 X.33");
	assert_string_equal(report_format_name(r->format), "ncu-csv");
	assert_string_equal(report_rule_type_name(RR_OPT), "OPT");
	assert_string_equal(report_rule_type_name(99), "");
	assert_null(report_speedup_type_name(RS_NONE));
	report_free(r);
}

static void
test_units(void **state)
{
	(void)state;
	assert_string_equal(report_unit_guess("gpu__time_duration.sum"), "ns");
	assert_string_equal(report_unit_guess(
	    "sm__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
	assert_string_equal(report_unit_guess("dram__bytes.sum.per_second"),
	    "byte/s");
	assert_string_equal(report_unit_guess(
	    "gpc__cycles_elapsed.avg.per_second"), "hz");
	assert_string_equal(report_unit_guess("sm__cycles_active.avg"),
	    "cycle");
	assert_string_equal(report_unit_guess(
	    "smsp__thread_inst_executed_per_inst_executed.ratio"), "");
	assert_string_equal(report_unit_guess("launch__grid_size"), "");
}

/* A launch at round numbers: FP32 (1 add + 1 mul + 1 fma) per cycle at
 * 1 GHz = 4 GFLOP/s; peak 64 FMA/cycle = 128 GFLOP/s; DRAM 1 GB/s of a
 * 32 GB/s peak: ridge 4 FLOP/byte. */
static struct report *
roof_report(double dram_bw)
{
	struct report	*r = report_new(REPORT_NCU_REP);

	report_add_launch(r);
	report_add_launch(r);
	ts_metric(r, 0, "gpu__time_duration.sum", 2e6);	/* 2 ms */
	ts_metric(r, 0, "smsp__cycles_elapsed.avg.per_second", 1e9);
	ts_metric(r, 0, "sm__cycles_elapsed.avg.per_second", 1e9);
	ts_metric(r, 0, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum."
	    "per_cycle_elapsed", 1);
	ts_metric(r, 0, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum."
	    "per_cycle_elapsed", 1);
	ts_metric(r, 0, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum."
	    "per_cycle_elapsed", 1);
	ts_metric(r, 0, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum."
	    "per_cycle_elapsed", 0);
	ts_metric(r, 0, "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum."
	    "per_cycle_elapsed", 0);
	ts_metric(r, 0, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum."
	    "per_cycle_elapsed", 0.5);
	ts_metric(r, 0, "sm__sass_thread_inst_executed_op_ffma_pred_on.sum."
	    "peak_sustained", 64);
	ts_metric(r, 0, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum."
	    "peak_sustained", 2);
	ts_metric(r, 0, "dram__bytes.sum.per_second", dram_bw);
	ts_metric(r, 0, "dram__bytes.sum.peak_sustained", 32);
	ts_metric(r, 0, "dram__cycles_elapsed.avg.per_second", 1e9);
	umetric(r, 0, "lts__t_sectors.sum", 1000);
	umetric(r, 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 10);
	umetric(r, 0, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 5);
	/* Launch 1: the basic set, no roofline metrics. */
	ts_metric(r, 1, "gpu__time_duration.sum", 1000);
	report_finish(r);
	return r;
}

/* The roofline of launch of roof_report(dram_bw). */
static struct roofline
roofline_of(double dram_bw, uint32_t launch)
{
	struct report	*r = roof_report(dram_bw);
	struct roofline	 f;

	roofline_compute(r, launch, &f);
	report_free(r);
	return f;
}

static void
test_roofline_compute_bound(void **state)
{
	struct roofline	 f = roofline_of(1e9, 0);

	(void)state;
	assert_true(f.duration_ns == 2e6);
	assert_true(f.flops[ROOF_FP32] == 4e9);
	assert_true(f.flops[ROOF_FP64] == 1e9);
	assert_true(isnan(f.flops[ROOF_FP16]));
	assert_true(f.peak_flops[ROOF_FP32] == 128e9);
	assert_true(f.peak_flops[ROOF_FP64] == 4e9);
	assert_int_equal(f.prec, ROOF_FP32);
	assert_true(f.peak_dram_bw == 32e9);
	assert_true(f.ridge == 4.0);
	assert_true(f.intensity == 4.0);
	assert_int_equal(f.bound, ROOF_COMPUTE);
	assert_true(fabs(f.roofline_pct - 3.125) < 1e-12);
	assert_true(f.dram_bytes == 2e6);		/* 1 GB/s x 2 ms */
	assert_true(f.l2_bytes == 32000.0);
	assert_true(f.l1_bytes == 480.0);
	assert_true(f.l2_bw == 32000.0 / 2e-3);
	assert_true(isnan(f.peak_l2_bw));
	assert_null(f.missing);
	assert_string_equal(roofline_prec_name(f.prec), "fp32");
	assert_string_equal(roofline_bound_name(f.bound), "compute");
}

static void
test_roofline_memory_bound(void **state)
{
	struct roofline	 f = roofline_of(4e9, 0);

	(void)state;
	/* 4 GFLOP/s over 4 GB/s: 1 FLOP/byte, below the ridge at 4; the
	 * roof there is 32 GFLOP/s, of which 4 is 12.5%. */
	assert_true(f.intensity == 1.0);
	assert_int_equal(f.bound, ROOF_MEMORY);
	assert_true(fabs(f.roofline_pct - 12.5) < 1e-12);
	f = roofline_of(4e9, 1);
	assert_true(f.duration_ns == 1000);
	assert_int_equal(f.prec, -1);
	assert_int_equal(f.bound, ROOF_UNKNOWN);
	assert_true(isnan(f.intensity));
	assert_true(isnan(f.roofline_pct));
	assert_non_null(f.missing);
	assert_null(roofline_bound_name(f.bound));
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_grouping),
	cmocka_unit_test(test_session),
	cmocka_unit_test(test_units),
	cmocka_unit_test(test_roofline_compute_bound),
	cmocka_unit_test(test_roofline_memory_bound))
