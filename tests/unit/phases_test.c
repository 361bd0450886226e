/*
 * phases_test: phase segmentation (src/analysis/phase.c), the steady-state window
 * (src/analysis/steady.c) and the phases and window verbs.
 *
 *   - The Jensen-Shannon divergence and NVTX name families on values
 *     worked out by hand.
 *   - A hand-built model with a known structure: kernel A back to back for
 *     1 s, the GPU idle for 0.5 s, kernel B for 1.5 s (60 bins of 50 ms):
 *     three phases A, idle, B cut exactly at 1 s and 1.5 s.
 *   - A generated trace with a planted warm-up (autotuning) and teardown
 *     (evaluation) around training: four phases init, autotune,
 *     ProfilerStep#, evaluation, cut where the generator says training
 *     starts and ends; the steady window is the middle training step.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/activity.h"
#include "model/builder.h"
#include "headless/cmd-analyses.h"
#include "sources/synth/gen.h"
#include "analysis/iters.h"
#include "model/model.h"
#include "model/nvtxfam.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "analysis/phase.h"
#include "sources/source.h"
#include "analysis/steady.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define MS	1000000LL

static void
test_js(void **state)
{
	double	p[3] = { 1, 0, 0 }, q[3] = { 0.5, 0.5, 0 };
	double	r[3] = { 0, 0, 1 }, z[3] = { 0, 0, 0 };

	(void)state;
	assert_true(phase_js(p, p, 3) < 1e-12);
	assert_true(phase_js(p, r, 3) > 1 - 1e-12);
	/* M = (.75, .25): KL(p||M) = log2(4/3) = .41504, KL(q||M) =
	 * .5 log2(2/3) + .5 log2(2) = .20752; JS = .31128. */
	assert_true(phase_js(p, q, 3) > 0.31127 && phase_js(p, q, 3) < 0.31129);
	assert_true(phase_js(z, z, 3) == 0);
	assert_true(phase_js(z, p, 3) == 1);
}

static void
test_family(void **state)
{
	char	buf[64];

	(void)state;
	/* Phase labels use the one NVTX family normaliser (nvtxfam.h). */
	assert_int_equal(nvtx_family("ProfilerStep#12", buf, sizeof buf), 14);
	assert_string_equal(buf, "ProfilerStep#*");
	ts_family("aten::to, op_id = 999599", "aten::to");
	ts_family("a, seq = 3/b#7, op_id = x", "a/b#*, op_id = x");
	ts_family("layer#", "layer#");
	nvtx_family("abcdefgh", buf, 4);
	assert_string_equal(buf, "abc");
}

/* A for [0, 1 s) in n pieces, idle, B for [1.5 s, 3 s) in n pieces. */
static struct model *
build_aib(int n)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 s, g;
	int		 i;

	ts_device(b, 0);
	s = builder_stream(b, 0, 7, NONE32);
	g = builder_gpu_track(b, s);
	for (i = 0; i < n; i++)
		ts_add(b, g, "A", EV_KERNEL, 1000 * MS * i / n,
		    1000 * MS * (i + 1) / n);
	for (i = 0; i < n; i++)
		ts_add(b, g, "B", EV_KERNEL, 1500 * MS + 1500 * MS * i / n,
		    1500 * MS + 1500 * MS * (i + 1) / n);
	return ts_finish(b);
}

/*
 * For the bins' shortcut to the segments' mixes: two streams of kernels A,
 * B, C and copies of uneven lengths across the 50 ms bin edges, the mix
 * changing at 1.23 s, the GPU idle over [2.0 s, 2.6 s), and long top-level
 * NVTX ranges whose edges (markers) fall inside bins.
 */
static struct model *
build_mixed(void)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 e;
	uint32_t		 g[2], p, th, nv;
	unsigned		 seed = 11;
	int64_t			 t, len, end;
	size_t			 k, j;
	const char		*name;
	static const int64_t	 rg[][2] = { { 0, 1230 * MS },
	    { 1230 * MS, 1990 * MS }, { 2610 * MS, 3110 * MS } };
	static const char	*rn[] = { "init", "train", "eval" };

	(void)ts_gpu_streams(b, g, 2);
	for (k = 0; k < 2; k++)
		for (t = 7 * MS * (int64_t)k; t < 3100 * MS; t = end) {
			seed = seed * 1103515245u + 12345u;
			len = 3 * MS + (int64_t)((seed >> 8) % 70000) * 1000;
			end = t + len;
			if (t >= 2000 * MS && t < 2600 * MS) {
				end = 2600 * MS + (int64_t)k * 3 * MS;
				continue;
			}
			j = (seed >> 4) % 4;
			name = t < 1230 * MS ? (j == 0 ? "A" : "C") :
			    t < 2600 * MS ? (j == 0 ? "C" : "B") : "A";
			ts_add(b, g[k], name, j == 3 && k == 1 ? EV_MEMCPY :
			    EV_KERNEL, t, end);
		}
	p = builder_process(b, 1, 1, "train");
	th = builder_thread(b, 2, 2, p, "main");
	nv = builder_cpu_track(b, TRACK_NVTX, th, 0);
	for (k = 0; k < 3; k++) {
		e = ts_event(b, rn[k], EV_NVTX, rg[k][0], rg[k][1]);
		e.aux = ts_nvtx(b, nv);
		builder_event(b, nv, &e);
	}
	return ts_finish(b);
}

/* The segments' mixes from the bins agree with those from the events, to
 * the bit: the same boundaries, costs, divergences and labels. */
static void
test_bins_shortcut(void **state)
{
	struct model		*m = build_mixed();
	struct activity		 a;
	struct phase_opts	 po;
	struct phases		 ph[2];
	char			*cause = NULL;
	size_t			 i, v;
	static const int	 forced[] = { 0, 3, 6 };
	static const int64_t	 minbin[] = { 0, 0, 400 * MS };

	(void)state;
	activity_build(&a, m);
	for (v = 0; v < 3; v++) {
		memset(&po, 0, sizeof po);
		po.forced_k = forced[v];
		po.min_bin_ns = minbin[v];
		for (i = 0; i < 2; i++) {
			po.plain = (int)i;
			assert_int_equal(phase_detect(m, &a, &po, &ph[i],
			    &cause), 0);
		}
		assert_true(ph[0].ncandidates > 3);
		assert_int_equal(ph[0].ncandidates, ph[1].ncandidates);
		assert_int_equal(ph[0].nsegments, ph[1].nsegments);
		assert_int_equal(ph[0].best_k, ph[1].best_k);
		assert_int_equal(ph[0].ncost, ph[1].ncost);
		assert_memory_equal(ph[0].cost, ph[1].cost, ph[0].ncost *
		    sizeof *ph[0].cost);
		assert_int_equal(ph[0].n, ph[1].n);
		assert_true(ph[0].n > 1);
		for (i = 0; i < ph[0].n; i++) {
			assert_int_equal(ph[0].v[i].start, ph[1].v[i].start);
			assert_int_equal(ph[0].v[i].end, ph[1].v[i].end);
			assert_int_equal(ph[0].v[i].edge, ph[1].v[i].edge);
			assert_memory_equal(&ph[0].v[i].js_prev,
			    &ph[1].v[i].js_prev, sizeof ph[0].v[i].js_prev);
			assert_string_equal(ph[0].v[i].label,
			    ph[1].v[i].label);
		}
		phase_free(&ph[0]);
		phase_free(&ph[1]);
	}
	activity_free(&a);
	model_free(m);
}

/* phase_detect() from the window's kernel sums made ahead
 * (phase_kscan_window(), po.win) gives what it gives alone: with the
 * elbow, forced, disabled (one phase), a window inside the trace, and
 * sums of another window, which it must leave alone. */
static void
test_window_ahead(void **state)
{
	struct model		*m = build_mixed();
	struct activity		 a;
	struct phase_opts	 po, wo;
	struct phases		 ph[2];
	struct phase_kacc	*win;
	char			*cause = NULL;
	size_t			 i, v;
	static const int	 forced[] = { 0, 3, 0, 0, 0 };
	static const int	 maxp[] = { 0, 0, 1, 0, 0 };
	static const int64_t	 t0[] = { 0, 0, 0, 700 * MS, 700 * MS };

	(void)state;
	activity_build(&a, m);
	for (v = 0; v < 5; v++) {
		memset(&po, 0, sizeof po);
		po.forced_k = forced[v];
		po.max_phases = maxp[v];
		if (t0[v] != 0) {
			po.t0 = t0[v];
			po.t1 = m->end_ns - 300 * MS;
		}
		assert_int_equal(phase_detect(m, &a, &po, &ph[0], &cause), 0);
		/* The last variant's sums are of the whole trace. */
		wo = po;
		if (v == 4)
			wo.t0 = wo.t1 = 0;
		win = phase_kscan_window(m, &wo);
		po.win = win;
		assert_int_equal(phase_detect(m, &a, &po, &ph[1], &cause), 0);
		phase_kacc_release(win);
		assert_int_equal(ph[0].n, ph[1].n);
		assert_true(v == 2 || ph[0].n > 1);
		assert_int_equal(ph[0].ncost, ph[1].ncost);
		assert_memory_equal(ph[0].cost, ph[1].cost, ph[0].ncost *
		    sizeof *ph[0].cost);
		for (i = 0; i < ph[0].n; i++) {
			const struct phase *x = &ph[0].v[i], *y = &ph[1].v[i];
			assert_int_equal(x->start, y->start);
			assert_int_equal(x->end, y->end);
			assert_string_equal(x->label, y->label);
			assert_int_equal(x->dominant, y->dominant);
			assert_int_equal(x->kernels, y->kernels);
			assert_int_equal(x->kernel_ns, y->kernel_ns);
			assert_int_equal(x->nkn, y->nkn);
			assert_true(x->nkn > 0);
			assert_memory_equal(x->kn, y->kn, x->nkn *
			    sizeof *x->kn);
		}
		phase_free(&ph[0]);
		phase_free(&ph[1]);
	}
	activity_free(&a);
	model_free(m);
}

static void
test_known_structure(void **state)
{
	struct model		*m = build_aib(1000);
	struct activity		 a;
	struct phase_opts	 po;
	struct phases		 ph;
	char			*cause = NULL;

	(void)state;
	activity_build(&a, m);
	memset(&po, 0, sizeof po);
	assert_int_equal(phase_detect(m, &a, &po, &ph, &cause), 0);
	assert_int_equal(ph.bin_ns, 50 * MS);
	assert_int_equal(ph.nbins, 60);
	assert_int_equal(ph.max_phases, PHASE_MAX_PHASES_DEFAULT);
	assert_int_equal(ph.n, 3);
	assert_int_equal(ph.best_k, 3);
	assert_int_equal(ph.v[0].start, 0);
	assert_int_equal(ph.v[0].end, 1000 * MS);
	assert_int_equal(ph.v[1].end, 1500 * MS);
	assert_int_equal(ph.v[2].end, 3000 * MS);
	assert_string_equal(ph.v[0].label, "A");
	assert_string_equal(ph.v[1].label, "idle");
	assert_string_equal(ph.v[2].label, "B");
	assert_int_equal(ph.v[0].edge, PHASE_EDGE_WINDOW);
	assert_true(ph.v[1].edge == PHASE_EDGE_DIST ||
	    ph.v[1].edge == PHASE_EDGE_IDLE);
	/* All three distributions are disjoint. */
	assert_true(ph.v[1].js_prev > 0.999);
	assert_true(ph.v[2].js_prev > 0.999);
	/* The cost falls to 0 at three phases. */
	assert_int_equal(ph.ncost, 3);
	assert_true(ph.cost[0] > ph.cost[1]);
	assert_true(ph.cost[2] < 1e-12);
	phase_free(&ph);

	/* Forced to two: the idle stretch joins one side. */
	po.forced_k = 2;
	assert_int_equal(phase_detect(m, &a, &po, &ph, &cause), 0);
	assert_int_equal(ph.n, 2);
	assert_true(ph.forced);
	phase_free(&ph);

	/* Disabled: one phase over the window. */
	memset(&po, 0, sizeof po);
	po.max_phases = 1;
	assert_int_equal(phase_detect(m, &a, &po, &ph, &cause), 0);
	assert_int_equal(ph.n, 1);
	assert_string_equal(ph.v[0].label, "profile");
	phase_free(&ph);

	/* A window inside B: one phase. */
	memset(&po, 0, sizeof po);
	po.t0 = 1600 * MS;
	po.t1 = 2900 * MS;
	assert_int_equal(phase_detect(m, &a, &po, &ph, &cause), 0);
	assert_int_equal(ph.n, 1);
	assert_string_equal(ph.v[0].label, "B");
	phase_free(&ph);

	po.max_phases = PHASE_MAX_PHASES + 1;
	assert_int_equal(phase_detect(m, &a, &po, &ph, &cause), -1);
	assert_non_null(strstr(cause, "--max-phases"));
	free(cause);
	activity_free(&a);
	model_free(m);
}

/* Without iterations (one kernel per stretch), the steady window is the
 * longest busy phase. */
static void
test_steady_phase(void **state)
{
	struct model	*m = build_aib(1);
	struct steady	 s;
	char		*cause = NULL;
	int64_t		 t0, t1;

	(void)state;
	assert_int_equal(steady_find(m, NULL, &s, &cause), 0);
	assert_int_equal(s.method, STEADY_PHASE);
	assert_int_equal(s.start, 1500 * MS);
	assert_int_equal(s.end, 3000 * MS);
	assert_string_equal(s.marker, "B");
	assert_int_equal(s.nphases, 3);
	steady_free(&s);
	assert_int_equal(steady_bounds(m, &t0, &t1, &cause), 0);
	assert_int_equal(t0, 1500 * MS);
	assert_int_equal(t1, 3000 * MS);
	model_free(m);
}

static void
test_verb(void **state)
{
	struct model	*m = build_aib(1000);
	struct vopt	 v[] = PHASES_VOPTS;
	struct ts_vrun	 r;
	cJSON		*row;

	(void)state;
	ts_vrun_init(&r, cmd_phases_compute, "phases", PHASES_OPTS);
	assert_int_equal(ts_vrun(&r, m, v, 2), 0);
	assert_int_equal(cJSON_GetArraySize(r.out.rows), 3);
	row = cJSON_GetArrayItem(r.out.rows, 0);
	assert_string_equal(cJSON_GetObjectItem(row, "key")->valuestring,
	    "phase|phase=0");
	assert_int_equal((int64_t)ts_jnum(row, "busy_ns"), 1000 * MS);
	assert_true(ts_jnum(row, "util_pct") > 99.99);
	assert_int_equal((int64_t)ts_jnum(row, "kernels"), 1000);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(row,
	    "top_kernels")), 1);
	row = cJSON_GetArrayItem(r.out.rows, 1);
	assert_int_equal((int64_t)ts_jnum(row, "idle_ns"), 500 * MS);
	assert_int_equal((int64_t)ts_jnum(r.out.aux, "elbow_k"), 3);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r.out.aux,
	    "cost_curve")), 3);

	v[1].value = "2";
	assert_int_equal(ts_vrun(&r, m, v, 2), 0);
	assert_int_equal(cJSON_GetArraySize(r.out.rows), 2);
	v[1].value = "0";
	assert_int_equal(ts_vrun(&r, m, v, 2), -1);
	v[1].value = NULL;
	v[0].value = "x";
	assert_int_equal(ts_vrun(&r, m, v, 2), -1);
	ts_vrun_free(&r);
	model_free(m);
}

/* The generated trace with a warm-up and a teardown. */
static void
test_generated(void **state)
{
	struct gen_opts		 go;
	struct gen_stats	 gs;
	struct model		*m;
	struct activity		 a;
	struct phase_opts	 po;
	struct phases		 ph;
	struct steady		 s;
	struct iters		 it;
	char			*path, *cause = NULL;
	int64_t			 tol;
	size_t			 i, n = 0;

	(void)state;
	gen_opts_default(&go);
	go.events = 30000;
	go.gpus = 2;
	go.seed = 7;
	go.clean = 1;
	go.plant = GEN_PLANT_WARMUP | GEN_PLANT_TEARDOWN;
	path = xasprintf("%s/wt.sqlite", ts_tmp());
	if (gen_write_nsys(path, &go, &gs, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	if ((m = source_read(path, NULL, &cause)) == NULL)
		fail_msg("source_read: %s", cause);
	unlink(path);
	free(path);

	activity_build(&a, m);
	memset(&po, 0, sizeof po);
	po.min_bin_ns = steady_iter_median(m);
	assert_true(po.min_bin_ns > 0);
	assert_int_equal(phase_detect(m, &a, &po, &ph, &cause), 0);
	assert_int_equal(ph.n, 4);
	assert_string_equal(ph.v[0].label, "init");
	assert_string_equal(ph.v[1].label, "autotune");
	assert_string_equal(ph.v[2].label, "ProfilerStep#*");
	assert_string_equal(ph.v[3].label, "evaluation");
	/* Training starts and ends where the generator says, to within
	 * the few microseconds between two NVTX ranges on a rank and the
	 * ranks' offsets (a few ms): a boundary is one rank's NVTX edge. */
	tol = 20 * MS;
	assert_true(ph.v[2].start > gs.train_start - tol &&
	    ph.v[2].start < gs.train_start + tol);
	assert_true(ph.v[3].start >= gs.train_end - tol &&
	    ph.v[3].start < gs.train_end + tol);
	assert_int_equal(ph.v[2].edge, PHASE_EDGE_MARKER);
	assert_true(ph.v[2].js_prev > 0.5);
	phase_free(&ph);

	/* The steady window: the middle step of the first process. */
	assert_int_equal(steady_find(m, &a, &s, &cause), 0);
	assert_int_equal(s.method, STEADY_ITER_NVTX);
	assert_string_equal(s.marker, "ProfilerStep#*");
	assert_true(s.start >= gs.train_start && s.end <= gs.train_end);
	assert_int_equal(s.skipped, 0);
	assert_int_equal(iters_find(m, NULL, &it, &cause), 0);
	for (i = 0; i < it.n; i++)
		if (it.v[i].process == s.process)
			n++;
	assert_int_equal(s.niters, n);
	assert_int_equal(s.iter, (int64_t)(n / 2));
	for (i = 0; i < it.n; i++)
		if (it.v[i].process == s.process &&
		    it.v[i].index == (uint32_t)s.iter) {
			assert_int_equal(it.v[i].start, s.start);
			assert_int_equal(it.v[i].end, s.end);
		}
	iters_free(&it);
	steady_free(&s);
	activity_free(&a);
	model_free(m);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_js),
	cmocka_unit_test(test_family),
	cmocka_unit_test(test_known_structure),
	cmocka_unit_test(test_bins_shortcut),
	cmocka_unit_test(test_window_ahead),
	cmocka_unit_test(test_steady_phase),
	cmocka_unit_test(test_verb),
	cmocka_unit_test(test_generated))
