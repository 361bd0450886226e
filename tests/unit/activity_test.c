/*
 * activity_test: per-device coverages of GPU work by class and the window
 * queries (src/analysis/activity.h), on a hand-built model with every number
 * worked out on paper.
 *
 * Device with source id 5 (index 0): nothing.
 * Device with source id 2 (index 1), process 100:
 *   stream 7: kernel [0, 100), kernel [150, 250), memcpy [300, 350)
 *   stream 8: NCCL kernel [50, 200) (communication)
 *   a sync record [0, 400) on the stream's sync track (not work)
 * Device with source id 9 (index 2): kernel [1000, 1100).
 * C = [0,100) u [150,250) = 200, M = [50,200) = 150, Y = [300,350) = 50,
 * C u M = [0,250) = 250, all = [0,250) u [300,350) = 300, exposed = 50.
 * Devices in use: 2 and 9; 5 is listed but unused.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/activity.h"
#include "analysis/comm.h"
#include "analysis/gaps.h"
#include "model/builder.h"
#include "model/model.h"
#include "tsupport.h"

/* The fields of struct act_window that window_is() knows by name. */
static const struct {
	const char	*name;
	size_t		 off;
} window_fields[] = {
	{ "span", offsetof(struct act_window, span) },
	{ "busy", offsetof(struct act_window, busy) },
	{ "compute", offsetof(struct act_window, compute) },
	{ "comm", offsetof(struct act_window, comm) },
	{ "copy", offsetof(struct act_window, copy) },
	{ "exposed", offsetof(struct act_window, exposed) },
	{ "idle", offsetof(struct act_window, idle) },
	{ "inner_idle", offsetof(struct act_window, inner_idle) },
	{ "first", offsetof(struct act_window, first) },
	{ "last", offsetof(struct act_window, last) },
};

/*
 * Checks the fields of w that want names, a list of "field=value" words
 * ("busy=300 idle=100"); the fields it does not name are not checked.
 */
static void
window_is(const struct act_window *w, const char *want)
{
	char		 name[16];
	long long	 v, got;
	int		 used;
	size_t		 i;

	while (sscanf(want, " %15[a-z_]=%lld%n", name, &v, &used) == 2) {
		for (i = 0; i < sizeof window_fields / sizeof *window_fields;
		    i++)
			if (strcmp(window_fields[i].name, name) == 0)
				break;
		if (i == sizeof window_fields / sizeof *window_fields)
			fail_msg("no window field %s", name);
		got = *(const int64_t *)(const void *)((const char *)w +
		    window_fields[i].off);
		if (got != v)
			fail_msg("window %s: %lld, want %lld", name, got, v);
		want += used;
	}
	if (want[strspn(want, " ")] != '\0')
		fail_msg("bad window words: %s", want);
}

static void
test_class(void **state)
{
	(void)state;
	assert_int_equal(activity_class(EV_KERNEL, 0), ACT_COMPUTE);
	assert_int_equal(activity_class(EV_GRAPH, 0), ACT_COMPUTE);
	assert_int_equal(activity_class(EV_KERNEL, EVF_COMM), ACT_COMM);
	assert_int_equal(activity_class(EV_MEMSET, 0), ACT_COPY);
	assert_int_equal(activity_class(EV_SYNC, 0), -1);
	assert_int_equal(activity_class(EV_API, 0), -1);
}

/* activity_compute_at() answers as activity_busy(ACT_COMPUTE) on both
 * devices, for windows going forward, standing still and stepping back. */
static void
test_compute_at(const struct activity *a)
{
	static const int64_t	 w[][2] = {
		{ -10, 50 }, { 0, 120 }, { 0, 120 }, { 90, 160 }, { 140, 90 },
		{ 200, 1050 }, { 240, 260 }, { 60, 400 }, { 1000, 1100 },
		{ 1050, 2000 }, { 0, 2000 }, { 1200, 1300 },
	};
	size_t			 at[4], d, k;

	for (d = 0; d < a->ndev + 1; d++) {
		memset(at, 0, sizeof at);
		for (k = 0; k < sizeof w / sizeof w[0]; k++)
			assert_int_equal(activity_compute_at(a, d, w[k][0],
			    w[k][1], at), activity_busy(a, d, ACT_COMPUTE,
			    w[k][0], w[k][1]));
	}
}

static void
test_devices(void **state)
{
	struct model	*m = ts_model_activity();
	struct activity	 a;

	(void)state;
	activity_build(&a, m);
	/* Devices with work, by source id: 2 then 9; 5 is left out. */
	assert_int_equal(a.ndev, 2);
	assert_int_equal(m->devices[a.dev[0].device].source_id, 2);
	assert_int_equal(m->devices[a.dev[1].device].source_id, 9);
	assert_int_equal(activity_slot(&a, 0), -1);
	assert_int_equal(activity_slot(&a, 1), 0);
	assert_int_equal(a.dev[0].nkernels, 3);
	assert_int_equal(a.dev[0].ncomm, 1);
	assert_int_equal(a.dev[0].first, 0);
	assert_int_equal(a.dev[0].last, 350);
	assert_int_equal(a.dev[0].process, 0);
	assert_int_equal(a.dev[1].process, NONE32);
	assert_int_equal(activity_busy(&a, 0, ACT_COMPUTE, 0, 1000), 200);
	assert_int_equal(activity_busy(&a, 0, ACT_COMM, 0, 1000), 150);
	assert_int_equal(activity_busy(&a, 0, ACT_COPY, 0, 1000), 50);
	assert_int_equal(activity_busy(&a, 0, ACT_CM, 0, 1000), 250);
	assert_int_equal(activity_busy(&a, 0, ACT_ALL, 0, 1000), 300);
	assert_int_equal(activity_busy(&a, 5, ACT_ALL, 0, 1000), 0);
	/* Any GPU: [0,250) u [300,350) u [1000,1100). */
	assert_int_equal(iset_measure(&a.any, 0, 2000), 400);
	test_compute_at(&a);
	activity_free(&a);
	/* The devices alone: the same, with any left empty. */
	activity_build_devices(&a, m);
	assert_int_equal(a.ndev, 2);
	assert_int_equal(activity_busy(&a, 0, ACT_CM, 0, 1000), 250);
	assert_int_equal(activity_busy(&a, 1, ACT_ALL, 0, 2000), 100);
	assert_int_equal(a.any.n, 0);
	test_compute_at(&a);
	activity_free(&a);
	model_free(m);
}

static void
test_window(void **state)
{
	struct model		*m = ts_model_activity();
	struct activity		 a;
	struct act_window	 w;

	(void)state;
	activity_build(&a, m);
	activity_window(&a, 0, 0, 400, &w);
	window_is(&w, "span=400 busy=300 exposed=50 idle=100 first=0 last=350 "
	    "inner_idle=50");
	/* [120, 320): busy [120,250) + [300,320), compute [150,250),
	 * comm [120,200), C u M [120,250). */
	activity_window(&a, 0, 120, 320, &w);
	window_is(&w, "busy=150 compute=100 comm=80 copy=20 exposed=30 "
	    "first=120 last=320 inner_idle=50");
	/* An idle window. */
	activity_window(&a, 0, 500, 900, &w);
	window_is(&w, "busy=0 idle=400 inner_idle=0");
	assert_true(w.first > w.last);
	/* Both devices over [0, 2000): idle 2 * 2000 - 400. */
	assert_int_equal(activity_total(&a, 0, 2000, &w), 2);
	window_is(&w, "busy=400 idle=3600 first=0 last=1100");
	assert_int_equal(activity_total(&a, 500, 900, &w), 0);
	activity_free(&a);
	model_free(m);
}

/*
 * Streams that hold events which are not work (here a sync record pushed on
 * the GPU track itself): "all" is then the union of the classes, not the
 * device's coverage of every event. Device 0: kernel [0, 100), NCCL kernel
 * [50, 150) on a second stream, a sync record [400, 500); device 1:
 * kernels [0, 10) and [20, 30) and a sync record [5, 60) on one stream.
 * The largest lanes and the two paths of the work-only devices are in
 * test_devices and test_window.
 */
static void
test_not_work_on_streams(void **state)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct model		*m;
	struct activity		 a;
	struct act_window	 w;
	struct lane_event	 e;
	uint32_t		 d0, d1, p, g0, g1, g2;

	(void)state;
	d0 = ts_device(b, 0);
	d1 = ts_device(b, 1);
	p = builder_process(b, 100ULL << 24, 100, "train");
	g0 = builder_gpu_track(b, builder_stream(b, d0, 7, p));
	g1 = builder_gpu_track(b, builder_stream(b, d0, 8, p));
	g2 = builder_gpu_track(b, builder_stream(b, d1, 9, p));
	ts_add(b, g0, "k", EV_KERNEL, 0, 100);
	e = ts_event(b, "nccl", EV_KERNEL, 50, 150);
	e.flags = EVF_COMM;
	builder_event(b, g1, &e);
	ts_add(b, g0, "sync", EV_SYNC, 400, 500);
	ts_add(b, g2, "k", EV_KERNEL, 0, 10);
	ts_add(b, g2, "sync", EV_SYNC, 5, 60);
	ts_add(b, g2, "k", EV_KERNEL, 20, 30);
	m = ts_finish(b);
	activity_build(&a, m);
	assert_int_equal(a.ndev, 2);
	activity_window(&a, 0, 0, 1000, &w);
	window_is(&w, "busy=150 compute=100 comm=100 exposed=50 last=150");
	assert_int_equal(activity_busy(&a, 0, ACT_CM, 0, 1000), 150);
	assert_int_equal(activity_busy(&a, 0, ACT_CM, 120, 1000), 30);
	assert_int_equal(activity_busy(&a, 0, ACT_ALL, 0, 1000), 150);
	assert_int_equal(iset_len(&m->device_cov[d0]), 250);
	activity_window(&a, 1, 0, 1000, &w);
	window_is(&w, "busy=20 compute=20 exposed=0 inner_idle=10");
	assert_int_equal(activity_busy(&a, 1, ACT_CM, 0, 1000), 20);
	assert_int_equal(iset_len(&m->device_cov[d1]), 60);
	/* Both devices: [0, 150) u [0, 10) u [20, 30). */
	assert_int_equal(iset_len(&a.any), 150);
	activity_free(&a);
	model_free(m);
}

/* Devices in use and the idle share over them. */
static void
test_used_share(void **state)
{
	struct model		*m = ts_model_activity();
	struct activity		 a;
	struct act_share	 sh;

	(void)state;
	assert_false(activity_device_used(m, 0));
	assert_true(activity_device_used(m, 1));
	assert_true(activity_device_used(m, 2));
	assert_false(activity_device_used(m, 3));
	activity_build(&a, m);
	/* [0, 2000): two devices in use of three; busy 300 + 100. */
	activity_share(&a, 0, 2000, &sh);
	assert_int_equal(sh.ndev, 2);
	assert_int_equal(sh.ntotal, 3);
	assert_int_equal(sh.window, 4000);
	assert_int_equal(sh.busy, 400);
	assert_int_equal(sh.idle, 3600);
	assert_true(sh.idle_pct > 89.999 && sh.idle_pct < 90.001);
	activity_share(&a, 5, 5, &sh);
	assert_int_equal(sh.window, 0);
	assert_true(sh.idle_pct == 0.0);
	activity_free(&a);
	model_free(m);
}

/* The gaps of a device: leading, inner, trailing, whole. */
static void
test_gaps(void **state)
{
	struct model		*m = ts_model_activity();
	struct activity		 a;
	struct gap_list		 gl;
	struct gap_walk		 w;
	struct gap_span		 g;

	(void)state;
	activity_build(&a, m);
	/* Device 2 busy [0,250) u [300,350) in [-50, 400). */
	gaps_device(&a, 0, -50, 400, &gl);
	assert_int_equal(gl.n, 3);
	assert_int_equal(gl.v[0].kind, GAP_LEADING);
	assert_int_equal(gl.v[0].start, -50);
	assert_int_equal(gl.v[0].end, 0);
	assert_int_equal(gl.v[1].kind, GAP_INNER);
	assert_int_equal(gl.v[1].start, 250);
	assert_int_equal(gl.v[1].end, 300);
	assert_int_equal(gl.v[2].kind, GAP_TRAILING);
	assert_int_equal(gl.v[2].start, 350);
	assert_int_equal(gl.v[2].end, 400);
	assert_int_equal(gl.busy, 300);
	assert_int_equal(gl.inner, 50);
	gap_list_free(&gl);
	/* Clamped: [100, 320) is busy [100,250) u [300,320). */
	gaps_device(&a, 0, 100, 320, &gl);
	assert_int_equal(gl.n, 1);
	assert_int_equal(gl.v[0].kind, GAP_INNER);
	assert_int_equal(gl.v[0].start, 250);
	assert_int_equal(gl.v[0].end, 300);
	assert_int_equal(gl.busy, 170);
	gap_list_free(&gl);
	/* Nothing runs in [500, 900): one whole gap. */
	gaps_device(&a, 0, 500, 900, &gl);
	assert_int_equal(gl.n, 1);
	assert_int_equal(gl.v[0].kind, GAP_WHOLE);
	assert_int_equal(gl.busy, 0);
	gap_list_free(&gl);
	assert_string_equal(gap_kind_name(GAP_TRAILING), "trailing");
	/* The walk alone: a window fully busy has no gap. */
	gap_walk_init(&w, 0, 10);
	assert_false(gap_walk_busy(&w, 0, 10, &g));
	assert_false(gap_walk_end(&w, &g));
	assert_int_equal(w.busy, 10);
	activity_free(&a);
	model_free(m);
}

/*
 * Both ways of building a device's coverages against unions taken
 * directly from the events, on random devices: "lean" (one track runs all
 * the compute, never overlapping: C is that track's coverage less its
 * other events) and the plain one, which the other devices force (compute
 * on two tracks, an overlapping compute track, a track of more copies than
 * kernels, a sync record among the work). Events touch and are empty.
 */
enum { LEAN_DEVS = 5, LEAN_EVENTS = 120 };

struct lean_ref {
	int64_t		 s[3][4 * LEAN_EVENTS], e[3][4 * LEAN_EVENTS];
	size_t		 n[3];
};

static uint64_t	lean_rng = 0x5eed5eedULL;

/* An event of class cls (or a sync record, cls -1) on track g. */
static void
lean_add(struct builder *b, struct lean_ref *r, uint32_t g, int cls,
    int64_t s, int64_t e)
{
	struct lane_event	ev;
	static const int	kinds[] = { EV_KERNEL, EV_KERNEL, EV_MEMCPY };

	ev = ts_event(b, cls < 0 ? "sync" : "k", cls < 0 ? EV_SYNC :
	    kinds[cls], s, e);
	if (cls == ACT_COMM)
		ev.flags = EVF_COMM;
	if (cls == ACT_COPY)
		ev.aux = ts_copy(b, COPY_HTOD, 0, 0, 0);
	builder_event(b, g, &ev);
	if (cls >= 0) {
		r->s[cls][r->n[cls]] = s;
		r->e[cls][r->n[cls]++] = e;
	}
}

/* A track of events that never overlap (gaps and lengths 0 included),
 * kernels but one in pct_other of them. */
static void
lean_serial(struct builder *b, struct lean_ref *r, uint32_t g,
    unsigned pct_other)
{
	int64_t	t = (int64_t)ts_rand(&lean_rng, 5);
	int64_t	d;
	size_t	i;
	int	cls;

	for (i = 0; i < LEAN_EVENTS; i++) {
		d = (int64_t)ts_rand(&lean_rng, 7);
		cls = ACT_COMPUTE;
		if (ts_rand(&lean_rng, 100) < pct_other)
			cls = ts_rand(&lean_rng, 3) == 0 ? ACT_COMM : ACT_COPY;
		lean_add(b, r, g, cls, t, t + d);
		/* An empty event touching the next would sort after it. */
		t += d + (int64_t)ts_rand(&lean_rng, 3) + (d == 0);
	}
}

/* n events of class cls anywhere in [0, 600), overlapping at will. */
static void
lean_scatter(struct builder *b, struct lean_ref *r, uint32_t g, int cls,
    size_t n)
{
	int64_t	s;
	size_t	i;

	for (i = 0; i < n; i++) {
		s = (int64_t)ts_rand(&lean_rng, 600);
		lean_add(b, r, g, cls, s, s + (int64_t)ts_rand(&lean_rng, 40));
	}
}

/* Device dev of kind k (0: lean; 1-4: the plain cases above). */
static void
lean_device(struct builder *b, struct lean_ref *r, uint32_t p, int k)
{
	uint32_t	d = ts_device(b, (uint32_t)k), g[3];
	int		i;

	for (i = 0; i < 3; i++)
		g[i] = builder_gpu_track(b, builder_stream(b, d,
		    (uint32_t)(10 * k + i), p));
	if (k == 2)
		lean_scatter(b, r, g[0], ACT_COMPUTE, LEAN_EVENTS);
	else
		lean_serial(b, r, g[0], k == 4 ? 70 : 20);
	lean_scatter(b, r, g[1], ACT_COMM, 30);
	lean_scatter(b, r, g[2], ACT_COPY, 20);
	if (k == 1)
		lean_scatter(b, r, g[2], ACT_COMPUTE, 10);
	if (k == 3)
		lean_add(b, r, g[2], -1, 100, 300);
}

static void
test_lean_vs_plain(void **state)
{
	static struct lean_ref	 ref[LEAN_DEVS];
	struct builder		*b;
	struct model		*m;
	struct activity		 a;
	struct act_window	 w;
	struct iset		 set[ACT_NCLASS];
	uint32_t		 p;
	int64_t			 t0, t1;
	size_t			 at[4];
	int			 round, k, c, q;

	(void)state;
	for (c = 0; c < ACT_NCLASS; c++)
		iset_init(&set[c]);
	for (round = 0; round < 30; round++) {
		memset(ref, 0, sizeof ref);
		b = builder_new(SOURCE_NSYS);
		p = builder_process(b, 100ULL << 24, 100, "train");
		for (k = 0; k < LEAN_DEVS; k++)
			lean_device(b, &ref[k], p, k);
		m = ts_finish(b);
		activity_build(&a, m);
		assert_int_equal(a.ndev, LEAN_DEVS);
		for (k = 0; k < LEAN_DEVS; k++) {
			/* Only device 0 takes the lean way. */
			assert_int_equal(a.dev[k].ctrack != NULL, k == 0);
			for (c = 0; c < 3; c++)
				iset_build(&set[c], ref[k].s[c], ref[k].e[c],
				    ref[k].n[c]);
			iset_union(&set[ACT_CM], &set[ACT_COMPUTE],
			    &set[ACT_COMM]);
			iset_union(&set[ACT_ALL], &set[ACT_CM],
			    &set[ACT_COPY]);
			memset(at, 0, sizeof at);
			for (q = 0; q < 200; q++) {
				t0 = (int64_t)ts_rand(&lean_rng, 700) - 20;
				t1 = t0 + (int64_t)ts_rand(&lean_rng, 400);
				if (q == 0) {
					t0 = -100;
					t1 = 2000;
				}
				assert_int_equal(activity_compute_at(&a,
				    (size_t)k, t0, t1, at), iset_measure(
				    &set[ACT_COMPUTE], t0, t1));
				for (c = 0; c < ACT_NCLASS; c++)
					assert_int_equal(activity_busy(&a,
					    (size_t)k, c, t0, t1),
					    iset_measure(&set[c], t0, t1));
				activity_window(&a, (size_t)k, t0, t1, &w);
				assert_int_equal(w.compute, iset_measure(
				    &set[ACT_COMPUTE], t0, t1));
				assert_int_equal(w.exposed, comm_exposed_of(
				    w.compute, iset_measure(&set[ACT_CM], t0,
				    t1)));
			}
		}
		activity_free(&a);
		model_free(m);
	}
	for (c = 0; c < ACT_NCLASS; c++)
		iset_free(&set[c]);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_class),
	cmocka_unit_test(test_devices),
	cmocka_unit_test(test_window),
	cmocka_unit_test(test_not_work_on_streams),
	cmocka_unit_test(test_used_share),
	cmocka_unit_test(test_gaps),
	cmocka_unit_test(test_lean_vs_plain))
