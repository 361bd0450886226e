/*
 * ncurep_test: the .ncu-rep reader.
 *
 * On the real reports in $GPULENS_FIXTURES/ncu: launch counts, kernel
 * names, grid and block sizes, context and stream, and several metric
 * values, each equal to what tests/cli/ncurep_check.py (an independent
 * wire-format reader in Python) reads from the same files; the session
 * details (device, versions, host); sections, labels, rules and NVTX.
 * On reports built here with a small encoder: a format version newer than
 * the reader knows, unknown fields, string tables carried across blocks,
 * rule speedups and focus metrics, a .ncu-repz (zstd).
 * Robustness: every report cut at many offsets and with random bytes
 * changed either loads or fails with a message; never a crash (run it
 * under --enable-asan to see memory errors).
 */
#include "config.h"

#include <sys/stat.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zstd.h>

#include "sources/ncu.h"
#include "sources/ncurep.h"
#include "report/report.h"
#include "tsupport.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

/* A fixture path, or NULL (and the test is skipped) without fixtures. */
static char *
fixture(const char *rel)
{
	char	*sub = xasprintf("ncu/%s", rel), *p;

	if ((p = ts_fixture(sub)) == NULL)
		fprintf(stderr, "GPULENS_FIXTURES unset or without %s: "
		    "skipping\n", sub);
	free(sub);
	return p;
}

static double
num(const struct report *r, uint32_t launch, const char *name)
{
	double	v;

	if (report_metric_num(r, launch, name, &v) != 0)
		fail_msg("launch %u has no numeric %s", launch, name);
	return v;
}

static const char *
str(const struct report *r, uint32_t launch, const char *name)
{
	const struct report_metric	*m = report_metric(r, launch, name);

	assert_non_null(m);
	assert_int_equal(m->value.type, RV_STRING);
	return report_str(r, m->value.v.s);
}

static void
assert_dims(const uint64_t d[3], uint64_t x, uint64_t y, uint64_t z)
{
	assert_int_equal(d[0], x);
	assert_int_equal(d[1], y);
	assert_int_equal(d[2], z);
}

static void
test_esmm(void **state)
{
	static const char *const fn[] = { "one_blocktiling",
	    "two_blocktiling", "vectorized_blocktiling", "warptiling" };
	static const double dur[] = { 431840, 295744, 262304, 226880 };
	static const double regs[] = { 51, 150, 121, 228 };
	struct report			*r;
	const struct report_metric	*m;
	const struct report_rule	*u;
	uint32_t			 i;

	(void)state;
	r = ts_ncu_fixture("esmm/profile.ncu-rep");
	assert_int_equal(r->format, REPORT_NCU_REP);
	assert_int_equal(r->version, 7);
	assert_int_equal(r->nlaunches, 4);
	assert_int_equal(r->nmetrics, 1124);
	for (i = 0; i < 4; i++) {
		assert_string_equal(report_str(r, r->launches[i].function),
		    fn[i]);
		assert_true(num(r, i, "gpu__time_duration.sum") == dur[i]);
		assert_true(num(r, i, "launch__registers_per_thread") ==
		    regs[i]);
		assert_int_equal(r->launches[i].context, 1);
		assert_int_equal(r->launches[i].stream, 7);
		assert_int_equal(r->launches[i].pid, 9267);
		assert_int_equal(r->launches[i].nmetrics, 281);
		assert_string_equal(str(r, i,
		    "device__attribute_display_name"), "NVIDIA A10G");
	}
	assert_string_equal(report_str(r, r->launches[0].mangled),
	    "_Z15one_blocktilingILi64ELi64ELi8ELi8EEviiiPKfS1_Pf");
	assert_string_equal(report_str(r, r->launches[0].demangled),
	    "void one_blocktiling<(int)64, (int)64, (int)8, (int)8>(int, int, "
	    "int, const float *, const float *, float *)");
	assert_dims(r->launches[0].grid, 16, 16, 1);
	assert_dims(r->launches[0].block, 512, 1, 1);
	assert_dims(r->launches[3].grid, 8, 8, 1);
	assert_dims(r->launches[3].block, 128, 1, 1);
	assert_true(num(r, 0, "sm__throughput.avg.pct_of_peak_sustained_"
	    "elapsed") == 64.85804038365796);
	assert_true(num(r, 3, "sm__warps_active.avg.pct_of_peak_sustained_"
	    "active") == 8.337304051529056);
	assert_true(num(r, 1, "launch__waves_per_multiprocessor") == 0.8);
	/* An instanced metric: one PC per launch. */
	m = report_metric(r, 0, "launch__function_pcs");
	assert_non_null(m);
	assert_int_equal(m->ninst, 1);
	assert_true(report_value_num(&m->value) == 140191342131968.0);
	/* Labels and sections from the section definitions. */
	m = report_metric(r, 0, "gpu__time_duration.sum");
	assert_string_equal(report_str(r, m->label), "Duration");
	assert_string_equal(report_str(r, r->sections[m->section].name),
	    "GPU Speed Of Light Throughput");
	assert_int_equal(r->launches[0].nsections, 3);
	/* Session details. */
	assert_int_equal(r->ndevices, 1);
	assert_string_equal(report_str(r, r->devices[0].name), "NVIDIA A10G");
	assert_int_equal(r->launches[2].device, 0);
	assert_true(report_value_num(report_device_attr_get(r, 0,
	    "device__attribute_max_gpu_frequency_khz")) == 1710000.0);
	assert_string_equal(report_prop_get(r, "version.Nsight Compute "
	    "Target"), "2023.1.1.0 (build 32678585) (public-release)");
	assert_string_equal(report_prop_get(r, "version.CUDA Version"),
	    "12.4");
	assert_string_equal(report_prop_get(r, "host.processor"),
	    "AMD EPYC 7R32");
	assert_non_null(strstr(report_prop_get(r, "profiler.command"),
	    "ncu -o profile.ncu-rep ./a.out"));
	/* Rules: three per launch, the first launch's Occupancy says why. */
	assert_int_equal(r->launches[0].nrules, 3);
	u = &r->rules[r->launches[0].rule + 1];
	assert_string_equal(report_str(r, u->ident), "Occupancy");
	assert_int_equal(u->type, RR_WARNING);
	assert_string_equal(report_str(r, u->title), "Occupancy Limiters");
	assert_non_null(strstr(report_str(r, u->message),
	    "theoretical occupancy (66.7%) is limited by the number of "
	    "required registers"));
	assert_true(isnan(u->speedup));
	assert_int_equal(r->nwarnings, 0);
	report_free(r);
}

static void
test_indexspaces(void **state)
{
	struct report			*r;
	const struct report_metric	*m;
	size_t				 i, focus = 0;

	(void)state;
	r = ts_ncu_fixture("indexspaces/profile.ncu-rep");
	assert_int_equal(r->nlaunches, 2);
	assert_int_equal(r->nmetrics, 1530);
	assert_string_equal(report_str(r, r->launches[0].function),
	    "julia__5_6739");
	assert_string_equal(report_str(r, r->launches[1].function),
	    "julia_bb_4477");
	assert_dims(r->launches[0].grid, 258048, 1, 1);
	assert_dims(r->launches[0].block, 256, 1, 1);
	assert_dims(r->launches[1].grid, 84, 1, 1);
	assert_dims(r->launches[1].block, 32, 24, 1);
	assert_int_equal(r->launches[1].stream, 13);
	assert_true(num(r, 0, "gpu__time_duration.sum") == 459456);
	assert_true(num(r, 1, "gpu__time_duration.sum") == 8974464);
	assert_true(num(r, 0, "dram__bytes.sum.per_second") ==
	    661051121326.09);
	assert_true(num(r, 1, "sm__cycles_elapsed.avg.per_second") ==
	    1303050697.114454);
	assert_string_equal(str(r, 0, "device__attribute_display_name"),
	    "NVIDIA A40");
	assert_string_equal(report_prop_get(r, "version.Nsight Compute "
	    "Target"), "2022.1.1.0 (build 30914944) (public-release)");
	/* Instanced values: the report holds 56852 elements in all. */
	assert_int_equal(r->ninstances, 56852);
	m = report_metric(r, 0, "launch__function_pcs");
	assert_int_equal(m->ninst, 1);
	/* Rule messages carry focus metrics in this version. */
	for (i = 0; i < r->nrules; i++)
		if (r->rules[i].focus != 0)
			focus++;
	assert_true(focus > 0);
	report_free(r);
}

/*
 * Nsight Compute 2023.3, H800, --set full: the metric names of the first
 * launch come from four blocks' string tables (967 strings, then one each
 * in three later blocks); launches 1-4 carry no table of their own. The
 * fifth launch (flash_fwd_kernel) was not measured: ncu wrote its device
 * attributes and NaN for the rest, and no launch statistics.
 */
static void
test_sglang(void **state)
{
	static const double dur[] = { 16448, 3232, 33504, 33952 };
	static const uint64_t gx[] = { 1056, 8, 1056, 1056 };
	struct report			*r;
	const struct report_metric	*m;
	const char			*s;
	size_t				 i, unmeasured = 0;
	double				 d;

	(void)state;
	r = ts_ncu_fixture("sglang-fork/profile.ncu-rep");
	assert_int_equal(r->nlaunches, 5);
	assert_int_equal(r->nmetrics, 4685);
	for (i = 0; i < r->nmetrics; i++) {
		s = report_str(r, r->metrics[i].name);
		if (strncmp(s, "metric#", 7) == 0)
			fail_msg("launch %u: %s", r->metrics[i].launch, s);
	}
	for (i = 0; i < 5; i++) {
		assert_string_equal(str(r, (uint32_t)i,
		    "device__attribute_display_name"), "NVIDIA H800");
		assert_int_equal(r->launches[i].device, 0);
		assert_int_equal(r->launches[i].nmetrics, i < 4 ? 964 : 829);
	}
	assert_int_equal(r->ndevices, 1);
	assert_string_equal(report_str(r, r->devices[0].name), "NVIDIA H800");
	for (i = 0; i < 4; i++) {
		assert_true(num(r, (uint32_t)i, "gpu__time_duration.sum") ==
		    dur[i]);
		assert_dims(r->launches[i].grid, gx[i], 1, 1);
		assert_dims(r->launches[i].block, 256, 1, 1);
		assert_true(num(r, (uint32_t)i, "launch__grid_size") == gx[i]);
	}
	/* The strings of the three later tables. */
	assert_non_null(report_metric(r, 0, "nvlrx__bytes.sum.per_second"));
	assert_non_null(report_metric(r, 3, "lts__gcomp_input_sectors.sum"));
	/* The unmeasured launch: no duration, said so. */
	assert_string_equal(report_str(r, r->launches[4].function),
	    "flash_fwd_kernel");
	assert_int_not_equal(report_metric_num(r, 4, "gpu__time_duration.sum",
	    &d), 0);
	m = report_metric(r, 4, "gpu__time_duration.sum");
	assert_non_null(m);
	for (i = 0; i < r->nwarnings; i++) {
		if (strstr(r->warnings[i], "outside the string table") != NULL)
			fail_msg("%s", r->warnings[i]);
		if (strstr(r->warnings[i], "launch 4 (flash_fwd_kernel) was "
		    "not measured") != NULL)
			unmeasured++;
	}
	assert_int_equal(unmeasured, 1);
	report_free(r);
}

static void
test_speedy_scan(void **state)
{
	struct report	*r;
	size_t		 i, msgs = 0;

	(void)state;
	r = ts_ncu_fixture("speedy_scan/profile.ncu-rep");
	assert_int_equal(r->nlaunches, 1);
	assert_int_equal(r->nmetrics, 675);
	assert_string_equal(report_str(r, r->launches[0].function), "kernel");
	assert_string_equal(report_str(r, r->launches[0].mangled),
	    "_Z6kernelPKiPiPmPjj");
	assert_dims(r->launches[0].grid, 19532, 1, 1);
	assert_dims(r->launches[0].block, 512, 1, 1);
	assert_int_equal(r->launches[0].pid, 2063114);
	assert_int_equal(r->launches[0].tid, 2063114);
	assert_true(num(r, 0, "gpu__time_duration.sum") == 336704);
	assert_true(num(r, 0, "launch__registers_per_thread") == 18);
	assert_true(num(r, 0, "sm__warps_active.avg.pct_of_peak_sustained_"
	    "active") == 94.02535794638695);
	assert_true(num(r, 0, "dram__bytes.sum.per_second") ==
	    232650066527.27618);
	assert_true(num(r, 0, "launch__waves_per_multiprocessor") ==
	    141.53623188405797);
	assert_string_equal(str(r, 0, "device__attribute_display_name"),
	    "NVIDIA GeForce RTX 3070");
	assert_string_equal(report_str(r, r->launches[0].process),
	    "/nfs/ug/homes-0/a/alisolim/1782/speedy_scan/main");
	/* NVTX state: the default domain, no open range. */
	assert_int_equal(r->launches[0].nnvtx, 1);
	assert_string_equal(report_str(r, r->nvtx[0].domain),
	    "<default domain>");
	assert_int_equal(r->nvtx[0].range, 0);
	/* 27 rules ran; 5 had something to say. */
	assert_int_equal(r->launches[0].nrules, 27);
	for (i = 0; i < r->nrules; i++)
		if (r->rules[i].message != 0)
			msgs++;
	assert_int_equal(msgs, 5);
	report_free(r);
}

/* A small encoder for synthetic reports. */
struct enc {
	uint8_t		*p;
	size_t		 n, cap;
};

static void
put(struct enc *e, const void *p, size_t n)
{
	XGROW(e->p, e->cap, e->n + n + 1);
	memcpy(e->p + e->n, p, n);
	e->n += n;
}

static void
varint(struct enc *e, uint64_t v)
{
	uint8_t	b;

	do {
		b = v & 0x7f;
		v >>= 7;
		if (v != 0)
			b |= 0x80;
		put(e, &b, 1);
	} while (v != 0);
}

static void
fvar(struct enc *e, uint32_t num, uint64_t v)
{
	varint(e, (uint64_t)num << 3);
	varint(e, v);
}

static void
fbytes(struct enc *e, uint32_t num, const void *p, size_t n)
{
	varint(e, (uint64_t)num << 3 | 2);
	varint(e, n);
	put(e, p, n);
}

static void
fstr(struct enc *e, uint32_t num, const char *s)
{
	fbytes(e, num, s, strlen(s));
}

static void
fmsg(struct enc *e, uint32_t num, struct enc *sub)
{
	fbytes(e, num, sub->p, sub->n);
	free(sub->p);
	memset(sub, 0, sizeof *sub);
}

static void
fdouble(struct enc *e, uint32_t num, double d)
{
	uint8_t		b[8];
	uint64_t	u;
	int		i;

	memcpy(&u, &d, sizeof u);
	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(u >> (8 * i));
	varint(e, (uint64_t)num << 3 | 1);
	put(e, b, 8);
}

static void
le32(struct enc *e, uint32_t v)
{
	uint8_t	b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 24) };

	put(e, b, 4);
}

/* A metric {NameId, value} with the value message val (consumed). */
static void
metric(struct enc *res, uint32_t id, struct enc *val)
{
	struct enc	m = { 0 };

	fvar(&m, 1, id);
	fmsg(&m, 2, val);
	fmsg(res, 13, &m);
}

static void
metric_u64(struct enc *res, uint32_t id, uint64_t v)
{
	struct enc	val = { 0 };

	fvar(&val, 5, v);
	metric(res, id, &val);
}

static void
metric_double(struct enc *res, uint32_t id, double v)
{
	struct enc	val = { 0 };

	fdouble(&val, 3, v);
	metric(res, id, &val);
}

/* A block: header fields from hdr, the given results as entries. */
static void
block(struct enc *file, struct enc *hdr, struct enc *results, size_t n)
{
	struct enc	payload = { 0 };
	size_t		i;

	for (i = 0; i < n; i++) {
		le32(&payload, (uint32_t)results[i].n);
		put(&payload, results[i].p, results[i].n);
		free(results[i].p);
		memset(&results[i], 0, sizeof results[i]);
	}
	fvar(hdr, 2, n);
	fvar(hdr, 5, payload.n);
	le32(file, (uint32_t)hdr->n);
	put(file, hdr->p, hdr->n);
	if (payload.n > 0)
		put(file, payload.p, payload.n);
	free(hdr->p);
	free(payload.p);
	memset(hdr, 0, sizeof *hdr);
}

/*
 * Version 9; block 1: a string table {gpu__time_duration.sum,
 * launch__registers_per_thread}, session details with a device and an
 * unknown field 40, two results (one with an unknown field 99, a rule
 * with a speedup and a focus metric); block 2: no table (the previous one
 * stays), one result.
 */
static void
synthetic(struct enc *file)
{
	struct enc	hdr = { 0 }, tab = { 0 }, sess = { 0 }, dev = { 0 };
	struct enc	attr = { 0 }, val = { 0 }, res[2], xyz = { 0 };
	struct enc	rule = { 0 }, body = { 0 }, item = { 0 }, msg = { 0 };
	struct enc	sp = { 0 }, focus = { 0 }, fh = { 0 };

	memset(res, 0, sizeof res);
	put(file, "NVR", 4);
	fvar(&fh, 1, 9);
	le32(file, (uint32_t)fh.n);
	put(file, fh.p, fh.n);
	free(fh.p);

	fstr(&tab, 1, "gpu__time_duration.sum");
	fstr(&tab, 1, "launch__registers_per_thread");
	fmsg(&hdr, 4, &tab);
	fvar(&dev, 1, 0);
	fstr(&dev, 2, "Test GPU");
	fstr(&attr, 1, "device__attribute_multiprocessor_count");
	fvar(&val, 5, 132);
	fmsg(&attr, 2, &val);
	fmsg(&dev, 3, &attr);
	fmsg(&sess, 6, &dev);
	fvar(&sess, 40, 1);
	fmsg(&hdr, 3, &sess);

	fstr(&res[0], 6, "alpha");
	fvar(&xyz, 1, 4);
	fvar(&xyz, 2, 2);
	fvar(&xyz, 3, 1);
	fmsg(&res[0], 10, &xyz);
	metric_double(&res[0], 0, 1234.5);
	metric_u64(&res[0], 1, 32);
	metric_u64(&res[0], 7, 1);		/* name id outside the table */
	fvar(&res[0], 99, 5);			/* unknown */
	fstr(&rule, 1, "R");
	fstr(&rule, 2, "Rule R");
	fstr(&msg, 1, "do better");
	fvar(&msg, 2, 4);
	fmsg(&item, 1, &msg);
	fstr(&focus, 2, "launch__registers_per_thread");
	fdouble(&focus, 3, 32);
	fstr(&focus, 5, "32 > 16");
	fmsg(&item, 8, &focus);
	fvar(&sp, 1, 1);
	fdouble(&sp, 2, 12.5);
	fmsg(&item, 10, &sp);
	fmsg(&body, 1, &item);
	fmsg(&rule, 3, &body);
	fstr(&rule, 4, "SpeedOfLight");
	fmsg(&res[0], 19, &rule);
	fstr(&res[1], 6, "beta");
	metric_double(&res[1], 0, 10);
	block(file, &hdr, res, 2);

	fstr(&res[0], 6, "gamma");
	metric_u64(&res[0], 1, 64);
	block(file, &hdr, res, 1);
}

static void
test_synthetic(void **state)
{
	struct enc		 file = { 0 };
	struct report		*r;
	const struct report_rule *u;
	char			*cause = NULL;
	double			 d;

	(void)state;
	synthetic(&file);
	r = ncurep_parse(file.p, file.n, "synthetic", &cause);
	assert_non_null(r);
	assert_int_equal(r->version, 9);
	assert_int_equal(r->nlaunches, 3);
	assert_string_equal(report_str(r, r->launches[2].function), "gamma");
	assert_dims(r->launches[0].grid, 4, 2, 1);
	assert_int_equal(report_metric_num(r, 0, "gpu__time_duration.sum",
	    &d), 0);
	assert_true(d == 1234.5);
	/* The second block reuses the first block's string table. */
	assert_int_equal(report_metric_num(r, 2,
	    "launch__registers_per_thread", &d), 0);
	assert_true(d == 64);
	assert_non_null(report_metric(r, 0, "metric#7"));
	assert_int_equal(r->ndevices, 1);
	assert_true(report_value_num(report_device_attr_get(r, 0,
	    "device__attribute_multiprocessor_count")) == 132);
	/* What was skipped is said. */
	assert_non_null(strstr(r->skipped, "ProfileResult.99"));
	assert_non_null(strstr(r->skipped, "SessionDetails.40"));
	assert_true(r->nwarnings >= 2);
	assert_non_null(strstr(r->warnings[0], "version 9 is newer than 7"));
	assert_non_null(strstr(r->warnings[1], "outside the string table"));
	/* The rule's message, speedup and focus metric. */
	assert_int_equal(r->launches[0].nrules, 1);
	u = &r->rules[r->launches[0].rule];
	assert_string_equal(report_str(r, u->ident), "R");
	assert_string_equal(report_str(r, u->message), "do better");
	assert_int_equal(u->type, RR_OPT);
	assert_true(u->speedup == 12.5);
	assert_int_equal(u->speedup_type, RS_GLOBAL);
	assert_string_equal(report_str(r, u->focus),
	    "launch__registers_per_thread = 32 (32 > 16)");
	report_free(r);
	free(file.p);
}

/*
 * String tables across blocks, as ncu writes them: each block's table
 * extends the ones before, and a result may name a string that only a
 * later block brings. Block 1: {m0, m1}, a result naming m0, m1 and m2;
 * block 2: {m2}, a result naming m2 and m0; block 3: a table that restates
 * {m0, m1, m2} and adds m3, a result naming m3; block 4: no table, a
 * result naming m1.
 */
static void
tables(struct enc *file)
{
	struct enc	hdr = { 0 }, tab = { 0 }, res[1], fh = { 0 };

	memset(res, 0, sizeof res);
	put(file, "NVR", 4);
	fvar(&fh, 1, 7);
	le32(file, (uint32_t)fh.n);
	put(file, fh.p, fh.n);
	free(fh.p);

	fstr(&tab, 1, "m0");
	fstr(&tab, 1, "m1");
	fmsg(&hdr, 4, &tab);
	fstr(&res[0], 6, "first");
	metric_u64(&res[0], 0, 10);
	metric_u64(&res[0], 1, 11);
	metric_u64(&res[0], 2, 12);
	block(file, &hdr, res, 1);

	fstr(&tab, 1, "m2");
	fmsg(&hdr, 4, &tab);
	fstr(&res[0], 6, "second");
	metric_u64(&res[0], 2, 22);
	metric_u64(&res[0], 0, 20);
	block(file, &hdr, res, 1);

	fstr(&tab, 1, "m0");
	fstr(&tab, 1, "m1");
	fstr(&tab, 1, "m2");
	fstr(&tab, 1, "m3");
	fmsg(&hdr, 4, &tab);
	fstr(&res[0], 6, "third");
	metric_u64(&res[0], 3, 33);
	block(file, &hdr, res, 1);

	fstr(&res[0], 6, "fourth");
	metric_u64(&res[0], 1, 41);
	block(file, &hdr, res, 1);
}

static void
test_tables(void **state)
{
	static const struct {
		uint32_t	 launch;
		const char	*name;
		double		 v;
	} want[] = {
		{ 0, "m0", 10 }, { 0, "m1", 11 }, { 0, "m2", 12 },
		{ 1, "m2", 22 }, { 1, "m0", 20 },
		{ 2, "m3", 33 },
		{ 3, "m1", 41 },
	};
	struct enc	 file = { 0 };
	struct report	*r;
	char		*cause = NULL;
	size_t		 i;
	double		 d;

	(void)state;
	tables(&file);
	r = ncurep_parse(file.p, file.n, "tables", &cause);
	assert_non_null(r);
	assert_int_equal(r->nlaunches, 4);
	assert_int_equal(r->nmetrics, 7);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (report_metric_num(r, want[i].launch, want[i].name,
		    &d) != 0)
			fail_msg("launch %u has no %s", want[i].launch,
			    want[i].name);
		assert_true(d == want[i].v);
	}
	for (i = 0; i < r->nwarnings; i++)
		if (strstr(r->warnings[i], "outside the string table") != NULL)
			fail_msg("%s", r->warnings[i]);
	report_free(r);
	free(file.p);
}

static void
test_errors(void **state)
{
	struct enc	 file = { 0 };
	struct report	*r;
	char		*cause = NULL;
	uint8_t		 bad[64];

	(void)state;
	r = ncurep_parse("NVR", 3, "tiny", &cause);
	assert_null(r);
	assert_non_null(strstr(cause, "not an Nsight Compute report"));
	free(cause);
	cause = NULL;
	/* A file header longer than the file. */
	memcpy(bad, "NVR\0\xff\0\0\0", 8);
	r = ncurep_parse(bad, 8, "hdr", &cause);
	assert_null(r);
	assert_non_null(strstr(cause, "truncated Nsight Compute report"));
	free(cause);
	cause = NULL;
	/* The synthetic report whole, then cut. */
	synthetic(&file);
	r = ncurep_parse(file.p, file.n, "ok", &cause);
	assert_non_null(r);
	report_free(r);
	/* Cut inside the last block's payload. */
	r = ncurep_parse(file.p, file.n - 3, "cut", &cause);
	assert_null(r);
	assert_non_null(strstr(cause, "cut: truncated Nsight Compute report"));
	assert_non_null(strstr(cause, "remain"));
	free(cause);
	free(file.p);
}

/* Loads every cut and a run of random byte flips of buf. */
static void
torture(const uint8_t *buf, size_t len, const char *name, size_t ncuts,
    size_t nflips)
{
	struct report	*r;
	uint8_t		*copy;
	char		*cause;
	size_t		 i, at, ok = 0, failed = 0;
	unsigned	 seed = 12345;

	for (i = 0; i < ncuts; i++) {
		at = i < 64 ? i : (size_t)((double)len * (double)(i - 64) /
		    (double)(ncuts - 64));
		if (at >= len)
			continue;
		cause = NULL;
		copy = xmalloc(at + 1);
		memcpy(copy, buf, at);
		r = ncurep_parse(copy, at, name, &cause);
		if (r == NULL) {
			assert_non_null(cause);
			assert_true(strlen(cause) > 10);
			free(cause);
			failed++;
		} else {
			report_free(r);
			ok++;
		}
		free(copy);
	}
	/* A cut report can only load when the cut falls between blocks. */
	assert_true(failed > ncuts / 2);
	copy = xmalloc(len);
	for (i = 0; i < nflips; i++) {
		memcpy(copy, buf, len);
		for (at = 0; at < 4; at++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 4) % len] ^= (uint8_t)(1u << (seed % 8));
		}
		cause = NULL;
		r = ncurep_parse(copy, len, name, &cause);
		if (r == NULL) {
			assert_non_null(cause);
			free(cause);
		} else
			report_free(r);
	}
	free(copy);
	(void)ok;
}

static void
test_torture_synthetic(void **state)
{
	struct enc	file = { 0 };

	(void)state;
	synthetic(&file);
	torture(file.p, file.n, "synthetic", file.n + 64, 2000);
	free(file.p);
}

static void
test_torture_fixtures(void **state)
{
	static const char *const rel[] = { "esmm/profile.ncu-rep",
	    "speedy_scan/profile.ncu-rep", "indexspaces/profile.ncu-rep" };
	char		*p, *buf, *cause = NULL;
	size_t		 len, i;

	(void)state;
	for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		if ((p = fixture(rel[i])) == NULL)
			skip();
		assert_int_equal(zfile_slurp(p, &buf, &len, 0, &cause), 0);
		torture((const uint8_t *)buf, len, rel[i], i < 2 ? 200 : 90,
		    i < 2 ? 100 : 30);
		free(buf);
		free(p);
	}
}

static void
test_repz(void **state)
{
	struct report	*r;
	char		*p, *buf, *cause = NULL, *out, *cbuf;
	size_t		 len, clen;
	FILE		*f;

	(void)state;
	if ((p = fixture("speedy_scan/profile.ncu-rep")) == NULL)
		skip();
	assert_int_equal(zfile_slurp(p, &buf, &len, 0, &cause), 0);
	clen = ZSTD_compressBound(len);
	cbuf = xmalloc(clen);
	clen = ZSTD_compress(cbuf, clen, buf, len, 3);
	assert_false(ZSTD_isError(clen));
	out = xasprintf("%s/profile.ncu-repz", ts_tmp());
	f = fopen(out, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(cbuf, 1, clen, f), clen);
	fclose(f);
	assert_int_equal(ncu_detect(out), NCU_REP);
	r = ncu_load(out, &cause);
	assert_non_null(r);
	assert_int_equal(r->format, REPORT_NCU_REPZ);
	assert_int_equal(r->nlaunches, 1);
	assert_int_equal(r->nmetrics, 675);
	report_free(r);
	/* A cut zstd stream is an error, not a short report. */
	f = fopen(out, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(cbuf, 1, clen / 2, f), clen / 2);
	fclose(f);
	r = ncu_load(out, &cause);
	assert_null(r);
	assert_non_null(cause);
	free(cause);
	cause = NULL;
	unlink(out);
	/* Not a report at all. */
	assert_int_equal(ncu_detect(ts_tmp()), NCU_NONE);
	r = ncu_load(p, &cause);
	assert_non_null(r);
	report_free(r);
	free(out);
	free(cbuf);
	free(buf);
	free(p);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_esmm),
	cmocka_unit_test(test_indexspaces),
	cmocka_unit_test(test_speedy_scan),
	cmocka_unit_test(test_synthetic),
	cmocka_unit_test(test_tables),
	cmocka_unit_test(test_sglang),
	cmocka_unit_test(test_errors),
	cmocka_unit_test(test_torture_synthetic),
	cmocka_unit_test(test_torture_fixtures),
	cmocka_unit_test(test_repz))
