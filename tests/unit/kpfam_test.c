/*
 * kpfam_test: family paths of NVTX ranges made from their parents'
 * (analysis/kpfam.c) are nvtx_family_path()'s, asked in order, backwards
 * and again: names whose fold depends on their place in the path (a
 * number word at the start or the end, "#N", PyTorch counters, a '/' in a
 * name), names of one fold and different lengths under one parent, paths
 * just under and at 4 KB, and deeper than NVTX_PATH_LEVELS.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/kpfam.h"
#include "model/builder.h"
#include "model/nvtx.h"
#include "model/nvtxpath.h"
#include "tsupport.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

/* Range names: "=N" is N bytes of one letter, the next one each time. */
static const struct {
	const char	*name;
	int64_t		 s, e;
} rg[] = {
	{ "10", 0, 1000 }, { "Step 10", 0, 100 }, { "10 x", 10, 50 },
	{ "x#5", 20, 30 }, { "a, seq = 3", 21, 22 }, { "x#50", 50, 60 },
	{ "x#5", 60, 70 }, { "7 8", 70, 80 }, { "p/10", 100, 200 },
	{ "9", 110, 190 }, { "9", 120, 180 }, { "a 5 b", 130, 140 },
	{ "a, op_id = 7 b", 140, 150 }, { "#", 150, 160 }, { "x#", 151, 152 },
	{ "10", 160, 170 }, { "Step 10", 1000, 2000 }, { "10", 1000, 1100 },
	{ "Step 10", 1010, 1020 }, { "Step 11", 1020, 1030 },
	{ "Step 100", 1030, 1040 }, { "x#50", 2000, 3000 },
	{ "x#5", 2010, 2020 }, { ", seq = 1", 2020, 2030 },
	{ "10 x", 3000, 3100 }, { "y 2", 3000, 3010 }, { "10", 3100, 3200 },
	{ "=2000", 40000, 41000 }, { "=2094", 40001, 40500 },
	{ "z", 40002, 40003 }, { "=2095", 40500, 40999 }, { "z", 40501, 40502 }
};

static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, th, nv;
	size_t		 k, n;
	char		 name[32], *s, c = 'A';

	p = builder_process(b, 100, 100, "a");
	th = builder_thread(b, 1, 1, p, "main");
	nv = builder_cpu_track(b, TRACK_NVTX, th,
	    builder_domain(b, p, 0, "default"));
	for (k = 0; k < sizeof rg / sizeof *rg; k++) {
		if (rg[k].name[0] != '=') {
			ts_add_corr(b, nv, rg[k].name, EV_NVTX, rg[k].s,
			    rg[k].e, 0);
			continue;
		}
		n = strtoul(rg[k].name + 1, NULL, 10);
		s = xmalloc(n + 1);
		memset(s, c++, n);
		s[n] = '\0';
		ts_add_corr(b, nv, s, EV_NVTX, rg[k].s, rg[k].e, 0);
		free(s);
	}
	/* Deeper than a path is printed whole, then a step out of it. */
	for (k = 0; k < NVTX_PATH_LEVELS + 6; k++) {
		snprintf(name, sizeof name, k % 2 ? "d %zu" : "d#%zu", k);
		ts_add_corr(b, nv, name, EV_NVTX, 10000 + (int64_t)k,
		    20000 - (int64_t)k, 0);
	}
	ts_add_corr(b, nv, "d 1", EV_NVTX, 10000 + 3, 10000 + 4, 0);
	return ts_finish(b);
}

/* Every NVTX range's path from kf against nvtx_family_path(), in order
 * (p 0), backwards (1) or in steps of 7 (2). */
static void
check(const struct model *m, struct kpfam *kf, struct strpool *strs, int p)
{
	char		want[4096];
	uint32_t	gid, n = m->nevents, k;

	for (k = 0; k < n; k++) {
		gid = p == 0 ? k : p == 1 ? n - 1 - k : (k * 7) % n;
		nvtx_family_path(m, gid, want, sizeof want);
		assert_string_equal(strpool_get(strs, kpfam_id(kf, gid)),
		    want);
	}
}

static void
test_paths(void **state)
{
	struct model	*m = build();
	struct strpool	*strs;
	struct kpfam	*kf;
	char		 buf[4096];
	int		 p, q;

	(void)state;
	/* The model is what the cases are about. */
	assert_true(m->nevents > NVTX_PATH_LEVELS);
	nvtx_family_path(m, 1, buf, sizeof buf);
	assert_string_equal(buf, "10/Step *");
	nvtx_family_path(m, 2, buf, sizeof buf);
	assert_string_equal(buf, "10/Step 10/10 x");
	for (p = 0; p < 3; p++) {
		strs = strpool_new();
		kf = kpfam_new(m, strs);
		for (q = p; q < p + 3; q++)
			check(m, kf, strs, q % 3);
		kpfam_free(kf);
		strpool_free(strs);
	}
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_paths))
