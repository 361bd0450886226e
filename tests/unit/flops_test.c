/*
 * flops_test: operator FLOPs end to end on a generated Kineto trace with
 * planted shapes (kgen_opts.shapes): the reader keeps one record per
 * aten::linear, aten::addmm and aten::mm with the FLOPs of its shapes, the
 * analysis counts the innermost (addmm, mm; linear is outer) with their
 * kernels, the totals equal the planted sizes, MFU comes from the H100
 * row of the peak table when the device says so; the records survive a
 * cache save and load unchanged; and the peak table's lookups and data
 * types.
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

#include "analysis/flops.h"
#include "analysis/peak.h"
#include "model/cache.h"
#include "model/model.h"
#include "sources/source.h"
#include "sources/synth/kgen.h"
#include "tsupport.h"
#include "util/xmalloc.h"

/* FLOPs one iteration of the generated model counts. */
static double
planted(int layers)
{
	double	B = KGEN_SHAPE_B, N = KGEN_SHAPE_N, K, f = 0;
	int	l;

	for (l = 0; l < layers; l++) {
		K = (double)KGEN_SHAPE_K * (l + 1);
		f += 2 * B * N * K + B * N;	/* addmm */
		f += 2 * B * N * K;		/* backward mm */
	}
	return f;
}

static void
test_generated(void **state)
{
	struct kgen_opts	 o;
	struct kgen_stats	 st;
	struct model		*m, *c;
	struct flops_result	 r;
	char			*cause = NULL, *xdg;
	size_t			 i, nlin = 0, nadd = 0, nmm = 0;
	double			 sum = 0;

	(void)state;
	kgen_opts_default(&o);
	o.events = 3000;
	o.shapes = 1;
	assert_int_equal(kgen_write(ts_path("k.json"), &o, &st, &cause), 0);
	m = source_read(ts_path("k.json"), NULL, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_true(m->nops > 0);
	for (i = 0; i < m->nops; i++) {
		switch (m->ops[i].kind) {
		case OPK_LINEAR:
			nlin++;
			break;
		case OPK_ADDMM:
			nadd++;
			break;
		case OPK_MM:
			nmm++;
			break;
		default:
			fail_msg("unexpected operator kind %d",
			    m->ops[i].kind);
		}
		assert_string_equal(model_str(m, m->ops[i].dtype),
		    "c10::BFloat16");
		assert_int_equal(m->ops[i].flags & OPF_ARG, 0);
	}
	assert_int_equal(nlin, (size_t)(st.layers * st.iterations));
	assert_int_equal(nadd, nlin);
	assert_int_equal(nmm, nlin);

	flops_compute(m, 0, &r);
	assert_int_equal(r.nops, m->nops);
	assert_int_equal(r.ncounted, nadd + nmm);
	assert_true(r.total == planted(st.layers) * st.iterations);
	/* One GEMM kernel each, carrying all of its operator's FLOPs. */
	assert_int_equal(r.nkern, nadd + nmm);
	for (i = 0; i < r.nkern; i++)
		sum += r.kern[i].flops;
	assert_true(sum == r.total);
	for (i = 0; i < r.nops; i++) {
		assert_int_equal(r.ops[i].counted,
		    m->ops[i].kind != OPK_LINEAR);
		assert_int_equal(r.ops[i].nkernels, 1);
		assert_int_equal(r.ops[i].dtype, PD_BF16);
	}
	flops_free(&r);
	/* An override peak: peak_ns = FLOPs / (peak * 1e3). */
	flops_compute(m, 100, &r);
	assert_true(r.nunpeaked == 0);
	assert_true(r.total_peak_ns > 0.999 * r.total / 1e5 &&
	    r.total_peak_ns < 1.001 * r.total / 1e5);
	flops_free(&r);

	/* The records survive the cache. */
	xdg = xstrdup(ts_path("xdg"));
	assert_int_equal(setenv("XDG_CACHE_HOME", xdg, 1), 0);
	if (cache_save(ts_path("k.json"), m, &cause) != 0)
		fail_msg("%s", cause);
	if (cache_load(ts_path("k.json"), &c, &cause) != 1 || c == NULL)
		fail_msg("cache_load: %s", cause != NULL ? cause : "miss");
	assert_int_equal(c->nops, m->nops);
	for (i = 0; i < m->nops; i++) {
		assert_int_equal(c->ops[i].nvtx, m->ops[i].nvtx);
		assert_int_equal(c->ops[i].kind, m->ops[i].kind);
		assert_true(c->ops[i].flops == m->ops[i].flops);
		assert_string_equal(model_str(c, c->ops[i].dtype),
		    model_str(m, m->ops[i].dtype));
	}
	flops_compute(c, 0, &r);
	assert_true(r.total == planted(st.layers) * st.iterations);
	flops_free(&r);
	unsetenv("XDG_CACHE_HOME");
	free(xdg);
	model_free(c);
	model_free(m);
}

static void
test_peaks(void **state)
{
	static const struct ts_str_int dtypes[] = {
		{ "c10::BFloat16", PD_BF16 },
		{ "c10::Half", PD_FP16 },
		{ "float", PD_FP32 },
		{ "double", PD_FP64 },
		{ "c10::Float8_e4m3fn", PD_FP8 },
		{ "long", PD_UNKNOWN },
	};
	struct model	 m;
	struct device	 d;
	const struct peak_row *p;

	(void)state;
	memset(&m, 0, sizeof m);
	memset(&d, 0, sizeof d);
	m.strs = strpool_new();
	m.devices = &d;
	m.ndevices = 1;
	d.name = strpool_intern0(m.strs, "NVIDIA H100 PCIe");
	p = peak_lookup(&m, 0);
	assert_non_null(p);
	assert_string_equal(p->label, "H100 PCIe");
	d.name = strpool_intern0(m.strs, "NVIDIA H100 80GB HBM3");
	assert_string_equal(peak_lookup(&m, 0)->label, "H100 SXM");
	assert_true(peak_lookup(&m, 0)->tflops[PD_BF16] == 989.4);
	d.name = strpool_intern0(m.strs, "AMD Instinct MI300X");
	assert_string_equal(peak_lookup(&m, 0)->label, "MI300X");
	d.name = strpool_intern0(m.strs, "Some GPU");
	d.cc_major = 10;
	d.cc_minor = 0;
	assert_string_equal(peak_lookup(&m, 0)->label, "B200");
	d.cc_major = 7;
	assert_null(peak_lookup(&m, 0));
	assert_null(peak_lookup(&m, NONE32));
	TS_STR_INTS(peak_dtype_of, dtypes);
	assert_string_equal(peak_dtype_name(PD_BF16), "bf16");
	strpool_free(m.strs);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_generated),
	cmocka_unit_test(test_peaks))
