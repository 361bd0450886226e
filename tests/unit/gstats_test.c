/*
 * gstats_test: the grouping and statistics analysis (analysis/gstats.c)
 * and the window statistics over it (analysis/winstat.c).
 *
 * A model built by hand, every number worked out on paper (the comments
 * give the arithmetic): groups by name, short name, device, stream, pid
 * and kind; the statistics of stats.h (count, total, min, max, mean,
 * median, sample standard deviation, percentiles); API names without
 * their version suffix; NVTX styles kept apart; copy bytes; the device,
 * stream, pid and caller filters; a window with and without clipping
 * (through both the whole-track walk and the window query); GS_SUMS;
 * the caller's axis values. Then a trace written by the generator
 * (sources/synth/gen.c): every group against a brute force over the
 * model's events, and the counts against what the generator says it
 * wrote.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/gstats.h"
#include "analysis/gstats-int.h"
#include "analysis/winstat.h"
#include "model/builder.h"
#include "sources/source.h"
#include "sources/synth/gen.h"
#include "tsupport.h"
#include "util/xmalloc.h"

#define FOO	"void foo<int>(int*)"
#define BAR	"bar(float)"
#define COPY	"[CUDA memcpy Host-to-Device]"

static void
add(struct builder *b, uint32_t track, const char *name, const char *sname,
    int kind, int64_t s, int64_t e, uint8_t flags)
{
	struct lane_event	ev = ts_event(b, name, kind, s, e);

	if (sname != NULL)
		ev.aux = ts_kernel(b, sname);
	if (kind == EV_MEMCPY)
		ev.aux = ts_copy(b, COPY_HTOD, MEM_PINNED, MEM_DEVICE,
		    s == 400 ? 1000 : 3000);
	if (kind == EV_NVTX)
		ev.aux = ts_nvtx(b, track);
	ev.flags = flags;
	builder_event(b, track, &ev);
}

/*
 * Device 0, process 100, stream 7:  foo [0,10) [20,40) [50,110),
 *                                   bar [200,300)
 * Device 1, process 200, stream 8:  foo [5,35), bar [100,300),
 *                                   copies [400,500) 1000 B, [600,650)
 *                                   3000 B, ncclKernel [700,800) (comm)
 * Process 100, thread 1: cudaLaunchKernel_v7000 [0,5), cudaLaunchKernel
 * [10,13); NVTX "step" push/pop [0,100), start/end [0,50).
 */
static struct model *
build(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 d0, d1, p1, p2, th, g7, g8, api, nv;

	d0 = ts_device(b, 0);
	d1 = ts_device(b, 1);
	p1 = builder_process(b, 100, 100, "a");
	p2 = builder_process(b, 200, 200, "b");
	th = builder_thread(b, 1, 1, p1, "main");
	g7 = builder_gpu_track(b, builder_stream(b, d0, 7, p1));
	g8 = builder_gpu_track(b, builder_stream(b, d1, 8, p2));
	api = builder_cpu_track(b, TRACK_API, th, 0);
	nv = builder_cpu_track(b, TRACK_NVTX, th,
	    builder_domain(b, p1, 0, "default"));
	add(b, g7, FOO, "foo", EV_KERNEL, 0, 10, 0);
	add(b, g7, FOO, "foo", EV_KERNEL, 20, 40, 0);
	add(b, g7, FOO, "foo", EV_KERNEL, 50, 110, 0);
	add(b, g7, BAR, "bar", EV_KERNEL, 200, 300, 0);
	add(b, g8, FOO, "foo", EV_KERNEL, 5, 35, 0);
	add(b, g8, BAR, "bar", EV_KERNEL, 100, 300, 0);
	add(b, g8, COPY, NULL, EV_MEMCPY, 400, 500, 0);
	add(b, g8, COPY, NULL, EV_MEMCPY, 600, 650, 0);
	add(b, g8, "ncclKernel", "nccl", EV_KERNEL, 700, 800, EVF_COMM);
	add(b, api, "cudaLaunchKernel_v7000", NULL, EV_API, 0, 5, 0);
	add(b, api, "cudaLaunchKernel", NULL, EV_API, 10, 13, 0);
	add(b, nv, "step", NULL, EV_NVTX, 0, 100, 0);
	add(b, nv, "step", NULL, EV_NVTX, 0, 50, EVF_STARTEND);
	return ts_finish(b);
}

/* The group whose first axis is the string s. */
static const struct gstats_group *
by_str(const struct gstats *gs, const char *s)
{
	size_t	i;

	for (i = 0; i < gs->ng; i++)
		if (strcmp(gstats_str(gs, gs->g[i].v[0]), s) == 0)
			return &gs->g[i];
	fail_msg("no group '%s'", s);
	return NULL;
}

/* The group whose first axis is v. */
static const struct gstats_group *
by_val(const struct gstats *gs, uint32_t v)
{
	size_t	i;

	for (i = 0; i < gs->ng; i++)
		if (gs->g[i].v[0] == v)
			return &gs->g[i];
	fail_msg("no group %u", v);
	return NULL;
}

static struct gstats *
run(const struct model *m, const struct gstats_sel *sel, const char *axes,
    unsigned flags)
{
	int	 ax[GS_NAXES], n;
	char	*cause = NULL;

	if (gstats_parse_axes(axes, ax, &n, &cause) != 0)
		fail_msg("%s", cause);
	return gstats_compute(m, sel, ax, n, flags);
}

static struct gstats *
kernels(const struct model *m, const char *axes, unsigned flags)
{
	struct gstats_sel	sel;

	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	return run(m, &sel, axes, flags);
}

#define NEAR(a, b)	assert_true(fabs((double)(a) - (double)(b)) < 1e-9)

static void
test_by_name(void **state)
{
	struct model			*m = build();
	struct gstats			*gs = kernels(m, "name", 0);
	const struct gstats_group	*foo, *bar, *nccl;

	(void)state;
	assert_int_equal(gs->ng, 3);
	assert_int_equal(gs->nevents, 7);
	/* 120 + 300 + 100 */
	assert_int_equal(gs->grand, 520);
	foo = by_str(gs, FOO);
	bar = by_str(gs, BAR);
	nccl = by_str(gs, "ncclKernel");
	/* foo: 10, 20, 30, 60. */
	assert_int_equal(foo->dur.count, 4);
	assert_int_equal(foo->dur.total, 120);
	assert_int_equal(foo->dur.min, 10);
	assert_int_equal(foo->dur.max, 60);
	NEAR(foo->dur.mean, 30);
	NEAR(foo->dur.median, 25);
	/* (400 + 100 + 0 + 900) / 3 */
	NEAR(foo->dur.stddev, sqrt(1400.0 / 3));
	/* h = 3p; 10 + .75 * 10, 30 + .25 * 30, 30 + .7 * 30 ... */
	NEAR(foo->dur.p25, 17.5);
	NEAR(foo->dur.p75, 37.5);
	NEAR(foo->dur.p90, 51);
	assert_true(fabs(foo->dur.p99 - 59.1) < 1e-6);
	assert_int_equal(gstats_bytes(gs, (size_t)(foo - gs->g))->count, 0);
	assert_string_equal(model_str(m, foo->name), FOO);
	assert_string_equal(model_str(m, foo->short_name), "foo");
	assert_int_equal(model_ev_start(m, foo->first), 0);
	/* bar: 100, 200. */
	assert_int_equal(bar->dur.count, 2);
	assert_int_equal(bar->dur.total, 300);
	NEAR(bar->dur.median, 150);
	NEAR(bar->dur.stddev, sqrt(5000));
	assert_int_equal(nccl->dur.total, 100);
	gstats_free(gs);
	/* Short names. */
	gs = kernels(m, "short-name", 0);
	assert_int_equal(by_str(gs, "foo")->dur.total, 120);
	assert_int_equal(by_str(gs, "nccl")->dur.count, 1);
	gstats_free(gs);
	model_free(m);
}

static uint32_t
device_of(const struct model *m, uint32_t source_id)
{
	uint32_t	d;

	for (d = 0; d < m->ndevices; d++)
		if (m->devices[d].source_id == source_id)
			return d;
	fail_msg("no device %u", source_id);
	return NONE32;
}

static void
test_axes(void **state)
{
	struct model			*m = build();
	struct gstats			*gs;
	const struct gstats_group	*g;
	uint32_t			 d0 = device_of(m, 0), d1 = device_of(m, 1);
	size_t				 i;

	(void)state;
	/* Device 0: 10 + 20 + 60 + 100; device 1: 30 + 200 + 100. */
	gs = kernels(m, "device", 0);
	assert_int_equal(gs->ng, 2);
	assert_int_equal(by_val(gs, d0)->dur.total, 190);
	assert_int_equal(by_val(gs, d0)->dur.count, 4);
	assert_int_equal(by_val(gs, d1)->dur.total, 330);
	gstats_free(gs);
	/* Process 200 is device 1's. */
	gs = kernels(m, "pid", 0);
	assert_int_equal(gs->ng, 2);
	for (i = 0; i < gs->ng; i++) {
		g = &gs->g[i];
		assert_int_equal(g->dur.total,
		    m->processes[g->v[0]].pid == 200 ? 330 : 190);
	}
	gstats_free(gs);
	/* Two axes: a group per (stream, name). */
	gs = kernels(m, "stream,name", 0);
	assert_int_equal(gs->naxes, 2);
	assert_int_equal(gs->ng, 5);
	for (i = 0; i < gs->ng; i++) {
		g = &gs->g[i];
		if (m->streams[g->v[0]].source_id == 8 &&
		    strcmp(gstats_str(gs, g->v[1]), BAR) == 0)
			assert_int_equal(g->dur.total, 200);
	}
	gstats_free(gs);
	model_free(m);
}

static void
test_kinds(void **state)
{
	struct model			*m = build();
	struct gstats_sel		 sel;
	struct gstats			*gs;
	const struct gstats_group	*g;

	(void)state;
	gstats_sel_all(&sel);
	/* Copies, with their bytes: 1000 and 3000. */
	sel.kind = EV_MEMCPY;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->ng, 1);
	g = by_str(gs, COPY);
	assert_int_equal(g->dur.total, 150);
	assert_int_equal(gstats_bytes(gs, 0)->count, 2);
	assert_int_equal(gstats_bytes(gs, 0)->total, 4000);
	assert_int_equal(gstats_bytes(gs, 0)->min, 1000);
	NEAR(gstats_bytes(gs, 0)->median, 2000);
	gstats_free(gs);
	/* API names without "_vNNNN": one group of 5 + 3. */
	sel.kind = EV_API;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->ng, 1);
	assert_int_equal(by_str(gs, "cudaLaunchKernel")->dur.total, 8);
	gstats_free(gs);
	/* NVTX: push/pop and start/end apart. */
	sel.kind = EV_NVTX;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->ng, 2);
	assert_int_equal(gs->g[0].startend + gs->g[1].startend, 1);
	assert_int_equal(gs->g[gs->g[0].startend ? 0 : 1].dur.total, 50);
	gstats_free(gs);
	/* Communication: the flagged kernel only. */
	sel.kind = -1;
	gs = run(m, &sel, "kind", 0);
	assert_int_equal(gs->ng, 1);
	assert_int_equal(gs->g[0].v[0], EV_KERNEL);
	assert_int_equal(gs->g[0].dur.total, 100);
	gstats_free(gs);
	model_free(m);
}

static int
long_ones(void *arg, uint32_t t, uint32_t i)
{
	const struct model	*m = arg;
	const struct lane	*l = &m->tracks[t].lane;

	return l->end[i] - l->start[i] >= 30;
}

/* The caller's axis: start / 100. */
static uint32_t
hundreds(void *arg, struct group_names *names, int axis, uint32_t t,
    uint32_t i)
{
	const struct model	*m = arg;

	(void)names;
	assert_int_equal(axis, GS_ITER);
	return (uint32_t)(m->tracks[t].lane.start[i] / 100);
}

static void
test_filters(void **state)
{
	struct model		*m = build();
	struct gstats_sel	 sel;
	struct gstats		*gs;

	(void)state;
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	sel.device = device_of(m, 1);
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->nevents, 3);
	assert_int_equal(gs->grand, 330);
	gstats_free(gs);
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	sel.stream = 7;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->grand, 190);
	gstats_free(gs);
	sel.stream = -1;
	sel.pid = 200;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->grand, 330);
	gstats_free(gs);
	/* The caller's filter: 60, 30, 100, 200, 100. */
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	sel.event = long_ones;
	sel.arg = m;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->nevents, 5);
	assert_int_equal(by_str(gs, FOO)->dur.total, 90);
	gstats_free(gs);
	/* The caller's axis: foo starts 0, 20, 50, 5 (0); bar 200 (2), 100
	 * (1); nccl 700 (7). */
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	sel.axis_fn = hundreds;
	sel.arg = m;
	gs = run(m, &sel, "iter", 0);
	assert_int_equal(gs->ng, 4);
	assert_int_equal(by_val(gs, 0)->dur.total, 120);
	assert_int_equal(by_val(gs, 2)->dur.total, 100);
	gstats_free(gs);
	model_free(m);
}

static void
test_window(void **state)
{
	struct model		*m = build();
	struct gstats_sel	 sel;
	struct gstats		*gs;

	(void)state;
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	/*
	 * [25, 150): foo [20,40) [50,110) [5,35), bar [100,300). Whole
	 * durations: foo 20 + 60 + 30, bar 200; inside: foo 15 + 60 + 10,
	 * bar 50.
	 */
	sel.t0 = 25;
	sel.t1 = 150;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->ng, 2);
	assert_int_equal(by_str(gs, FOO)->dur.total, 110);
	assert_int_equal(by_str(gs, BAR)->dur.total, 200);
	gstats_free(gs);
	gs = run(m, &sel, "name", GS_CLIP);
	assert_int_equal(by_str(gs, FOO)->dur.count, 3);
	assert_int_equal(by_str(gs, FOO)->dur.total, 85);
	assert_int_equal(by_str(gs, FOO)->dur.min, 10);
	NEAR(by_str(gs, FOO)->dur.median, 15);
	assert_int_equal(by_str(gs, BAR)->dur.total, 50);
	assert_int_equal(gs->grand, 135);
	gstats_free(gs);
	/* Sums only: no distribution. */
	gs = run(m, &sel, "name", GS_CLIP | GS_SUMS);
	assert_int_equal(by_str(gs, FOO)->dur.count, 3);
	assert_int_equal(by_str(gs, FOO)->dur.total, 85);
	assert_int_equal(by_str(gs, FOO)->dur.min, 10);
	assert_int_equal(by_str(gs, FOO)->dur.max, 60);
	NEAR(by_str(gs, FOO)->dur.median, 0);
	gstats_free(gs);
	/*
	 * [0, 250): stream 7's events all start inside (walked whole),
	 * stream 8's do not (window query): bar [200,300) cut to 50, bar
	 * [100,300) to 150.
	 */
	sel.t0 = 0;
	sel.t1 = 250;
	gs = run(m, &sel, "name", GS_CLIP);
	assert_int_equal(by_str(gs, FOO)->dur.total, 120);
	assert_int_equal(by_str(gs, BAR)->dur.total, 200);
	assert_int_equal(gs->nevents, 6);
	gstats_free(gs);
	/* Nothing. */
	sel.t0 = 900;
	sel.t1 = 1000;
	gs = run(m, &sel, "name", 0);
	assert_int_equal(gs->ng, 0);
	assert_int_equal(gs->grand, 0);
	gstats_free(gs);
	model_free(m);
}

static void
test_winstat(void **state)
{
	struct model	*m = build();
	struct winstat	*w;

	(void)state;
	/* [25, 150): stream 7 busy [25,40) [50,110) = 75; stream 8
	 * [25,35) [100,150) = 60. */
	w = winstat_compute(m, 25, 150);
	assert_int_equal(w->ns, 2);
	assert_int_equal(m->streams[m->tracks[w->s[0].track].stream].source_id,
	    7);
	assert_int_equal(w->s[0].busy, 75);
	assert_int_equal(w->s[0].events, 2);
	assert_int_equal(w->s[1].busy, 60);
	assert_int_equal(w->k->nevents, 4);
	assert_int_equal(w->k->grand, 135);
	assert_int_equal(by_str(w->k, FOO)->dur.total, 85);
	winstat_free(w);
	model_free(m);
}

struct brute {
	uint32_t	 name;
	uint64_t	 count;
	int64_t		 total, min, max;
};

/*
 * Every kernel group of m, whole trace and a window [t0, t1) clipped,
 * against sums over the model's events.
 */
static void
check_brute(const struct model *m, int64_t t0, int64_t t1, unsigned flags)
{
	struct gstats_sel		 sel;
	struct gstats			*gs;
	const struct gstats_group	*g;
	struct brute			*b;
	uint32_t			 nstr = strpool_count(m->strs), t;
	const struct lane		*l;
	size_t				 i, ng = 0;
	uint64_t			 n = 0;
	int64_t				 s, e, d;

	b = xcalloc((size_t)nstr + 1, sizeof *b);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL || l->start[i] >= t1 ||
			    (l->end[i] <= t0 && !(l->end[i] == l->start[i] &&
			    l->start[i] >= t0)))
				continue;
			s = l->start[i];
			e = l->end[i];
			if (flags & GS_CLIP) {
				s = s > t0 ? s : t0;
				e = e < t1 ? e : t1;
			}
			d = e > s ? e - s : 0;
			if (b[l->name[i]].count == 0) {
				ng++;
				b[l->name[i]].min = b[l->name[i]].max = d;
			}
			b[l->name[i]].count++;
			b[l->name[i]].total += d;
			if (d < b[l->name[i]].min)
				b[l->name[i]].min = d;
			if (d > b[l->name[i]].max)
				b[l->name[i]].max = d;
			n++;
		}
	}
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	sel.t0 = t0;
	sel.t1 = t1;
	gs = run(m, &sel, "name", flags);
	assert_int_equal(gs->ng, ng);
	assert_int_equal(gs->nevents, n);
	for (i = 0; i < gs->ng; i++) {
		g = &gs->g[i];
		assert_string_equal(gstats_str(gs, g->v[0]),
		    model_str(m, g->name));
		assert_int_equal(g->dur.count, b[g->name].count);
		assert_int_equal(g->dur.total, b[g->name].total);
		assert_int_equal(g->dur.min, b[g->name].min);
		assert_int_equal(g->dur.max, b[g->name].max);
	}
	gstats_free(gs);
	free(b);
}

/* Whether two statistics are the same to the bit. */
static void
same_stats(const struct stats *a, const struct stats *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_memory_equal(&a->mean, &b->mean, sizeof a->mean);
	assert_memory_equal(&a->median, &b->median, sizeof a->median);
	assert_memory_equal(&a->stddev, &b->stddev, sizeof a->stddev);
	assert_memory_equal(&a->p90, &b->p90, sizeof a->p90);
}

/* Whether group i of a and of b have the same values on a's axes
 * (names by their text). */
static void
same_values(const struct gstats *a, const struct gstats *b, size_t i)
{
	int	k;

	for (k = 0; k < a->naxes; k++)
		if (a->axes[k] == GS_NAME)
			assert_string_equal(gstats_str(a, a->g[i].v[k]),
			    gstats_str(b, b->g[i].v[k]));
		else
			assert_int_equal(a->g[i].v[k], b->g[i].v[k]);
}

/*
 * Groups by axes (keyed by name and track: each group looked up once per
 * name and track) equal those by axes and kind (looked up per event): a
 * single kind is selected, so the kind axis splits nothing.
 */
static void
same_groups(const struct model *m, const struct gstats_sel *sel,
    const char *axes, unsigned flags)
{
	struct gstats	*a, *b;
	char		 more[64];
	size_t		 i;

	snprintf(more, sizeof more, "%s,kind", axes);
	a = run(m, sel, axes, flags);
	b = run(m, sel, more, flags);
	assert_int_equal(a->ng, b->ng);
	assert_int_equal(a->nevents, b->nevents);
	assert_int_equal(a->grand, b->grand);
	for (i = 0; i < a->ng; i++) {
		same_values(a, b, i);
		assert_int_equal(a->g[i].first, b->g[i].first);
		same_stats(&a->g[i].dur, &b->g[i].dur);
		same_stats(gstats_bytes(a, i), gstats_bytes(b, i));
	}
	gstats_free(a);
	gstats_free(b);
}

/* Every name-keyed grouping, with filters, windows and kinds. */
static void
check_name_keyed(const struct model *m, int64_t t0, int64_t t1)
{
	static const char *const axes[] = {
		"name", "name,device", "stream,name", "pid,name",
		"tid,name", "device,stream,pid,tid", "name,name"
	};
	static const int kinds[] = { EV_KERNEL, EV_MEMCPY, EV_API, EV_NVTX };
	struct gstats_sel	 sel;
	size_t			 i, j;

	for (j = 0; j < sizeof kinds / sizeof *kinds; j++)
		for (i = 0; i < sizeof axes / sizeof *axes; i++) {
			gstats_sel_all(&sel);
			sel.kind = kinds[j];
			sel.t0 = t0;
			sel.t1 = t1;
			same_groups(m, &sel, axes[i], 0);
			same_groups(m, &sel, axes[i], GS_SUMS | GS_CLIP);
			sel.event = long_ones;
			sel.arg = (void *)(uintptr_t)m;
			same_groups(m, &sel, axes[i], 0);
		}
}

static void
test_name_keyed(void **state)
{
	struct model	*m = build();

	(void)state;
	check_name_keyed(m, INT64_MIN, INT64_MAX);
	check_name_keyed(m, 8, 120);
	model_free(m);
}

/* Groups by name and kind of kernels, then of API calls; filtered: with
 * a caller's filter (ts_every_event()), so the groups found in a first pass are
 * replayed, or their durations appended in one pass where they are
 * narrow. */
static struct gstats *
name_kind(const struct model *m, int kind, unsigned flags, int filtered)
{
	struct gstats_sel	sel;

	gstats_sel_all(&sel);
	sel.kind = kind;
	if (filtered)
		sel.event = ts_every_event;
	return run(m, &sel, "name,kind", flags);
}

/* Whether a and b hold the same groups, to the bit. */
static void
same_result(const struct gstats *a, const struct gstats *b)
{
	size_t	i;

	assert_int_equal(a->ng, b->ng);
	assert_int_equal(a->grand, b->grand);
	assert_int_equal(a->nevents, b->nevents);
	for (i = 0; i < a->ng; i++) {
		assert_int_equal(a->g[i].first, b->g[i].first);
		same_stats(&a->g[i].dur, &b->g[i].dur);
		same_stats(gstats_bytes(a, i), gstats_bytes(b, i));
	}
}

/*
 * Durations are kept in 32 bits when every track's longest event fits:
 * the same statistics as kept in 64 (a track that claims a longer event
 * forces them), and a duration that does not fit after all (a track that
 * claims less) makes the values be written again in 64 bits. With the
 * caller's filter (one pass appending where narrow, else two replayed)
 * the same again.
 */
static void
test_narrow(void **state)
{
	struct model	*m = build();
	struct gstats	*a, *b;
	struct lane	*l = NULL;
	uint32_t	 t;
	int		 kind, k, f;

	(void)state;
	for (t = 0; t < m->ntracks; t++)
		if (m->tracks[t].type == TRACK_API)
			l = &m->tracks[t].lane;
	assert_non_null(l);
	/* An API call of 3 s (beyond 32 bits) among ones of nanoseconds. */
	l->end[1] = l->start[1] + 3000000000LL;
	l->maxdur = 3000000000LL;
	for (k = 0; k < 2; k++) {
		kind = k == 0 ? EV_KERNEL : EV_API;
		a = name_kind(m, kind, 0, 0);
		for (f = 0; f < 2; f++) {
			b = name_kind(m, kind, 0, f);
			same_result(a, b);
			gstats_free(b);
			for (t = 0; t < m->ntracks; t++)
				m->tracks[t].lane.maxdur += (int64_t)1 << 40;
			b = name_kind(m, kind, 0, f);
			for (t = 0; t < m->ntracks; t++)
				m->tracks[t].lane.maxdur -= (int64_t)1 << 40;
			same_result(a, b);
			gstats_free(b);
			for (t = 0; t < m->ntracks; t++)
				m->tracks[t].lane.maxdur -= (int64_t)1 << 40;
			b = name_kind(m, kind, 0, f);
			for (t = 0; t < m->ntracks; t++)
				m->tracks[t].lane.maxdur += (int64_t)1 << 40;
			same_result(a, b);
			gstats_free(b);
		}
		gstats_free(a);
	}
	a = name_kind(m, EV_API, 0, 0);
	assert_int_equal(a->g[0].dur.max, 3000000000LL);
	gstats_free(a);
	model_free(m);
}

/*
 * The caller's runs (gstats_sel.same_fn) of its axis value start / width
 * (runs_axis): how far event i's value holds over the events of the kind
 * from i on, honestly (mode 0), cut short every third event (mode 1: a
 * shorter run is a run too), or out of range, i and hi + 3 (mode 2:
 * gstats then takes one event).
 */
struct runs_arg {
	const struct model	*m;
	int64_t			 width;
	int			 kind, mode;
	uint64_t		 asked;		/* same_fn's calls */
};

static uint32_t
runs_axis(void *arg, struct group_names *names, int axis, uint32_t t,
    uint32_t i)
{
	const struct runs_arg	*a = arg;

	(void)names;
	assert_true(axis == GS_NVTX || axis == GS_ITER);
	return (uint32_t)(a->m->tracks[t].lane.start[i] / a->width);
}

static uint32_t
runs_same(void *arg, uint32_t t, uint32_t i, uint32_t hi)
{
	struct runs_arg		*a = arg;
	const struct lane	*l = &a->m->tracks[t].lane;
	uint32_t		 j, v = runs_axis(arg, NULL, GS_ITER, t, i);

	a->asked++;
	if (a->mode == 2)
		return i % 2 != 0 ? i : hi + 3;
	for (j = i + 1; j < hi; j++) {
		if (a->mode == 1 && j % 3 == 0)
			break;
		if (l->kind[j] == a->kind &&
		    runs_axis(arg, NULL, GS_ITER, t, j) != v)
			break;
	}
	return j;
}

/*
 * Grouped by the caller's runs, the same groups, in the same order, with
 * the same statistics as asked event by event (no same_fn): every kind,
 * axes list, window, width and mode. Returns the runs asked for.
 */
static uint64_t
check_runs(const struct model *m, int64_t t0, int64_t t1)
{
	static const char *const axes[] = {
		"iter", "nvtx-path,device", "stream,iter", "tid,nvtx-path",
		"iter,name", "name,device,nvtx-path"
	};
	static const int	 kinds[] = { EV_KERNEL, EV_API, EV_MEMCPY };
	static const int64_t	 widths[] = { 1, 100, 1000000 };
	struct gstats_sel	 sel;
	struct runs_arg		 a;
	struct gstats		*x, *y;
	size_t			 i, j, w, g;
	uint64_t		 asked = 0;
	int			 mode;

	for (j = 0; j < sizeof kinds / sizeof *kinds; j++)
	for (i = 0; i < sizeof axes / sizeof *axes; i++)
	for (w = 0; w < sizeof widths / sizeof *widths; w++)
	for (mode = 0; mode < 3; mode++) {
		memset(&a, 0, sizeof a);
		a.m = m;
		a.width = widths[w];
		a.kind = kinds[j];
		a.mode = mode;
		gstats_sel_all(&sel);
		sel.kind = kinds[j];
		sel.t0 = t0;
		sel.t1 = t1;
		sel.axis_fn = runs_axis;
		sel.arg = &a;
		x = run(m, &sel, axes[i], mode == 1 ? GS_CLIP : 0);
		sel.same_fn = runs_same;
		y = run(m, &sel, axes[i], mode == 1 ? GS_CLIP : 0);
		/* Runs over the whole trace, by name too, but not of copies
		 * (their bytes are kept event by event). */
		if (kinds[j] == EV_MEMCPY)
			assert_int_equal(a.asked, 0);
		else if (t0 == INT64_MIN && x->nevents > 0)
			assert_true(a.asked > 0);
		asked += a.asked;
		/* Long runs: fewer asked than events. */
		if (mode == 0 && w == 2 && x->nevents > 10)
			assert_true(a.asked < x->nevents);
		same_result(x, y);
		for (g = 0; g < x->ng; g++) {
			same_values(x, y, g);
			assert_int_equal(x->g[g].name, y->g[g].name);
			assert_int_equal(x->g[g].short_name,
			    y->g[g].short_name);
		}
		gstats_free(x);
		gstats_free(y);
	}
	return asked;
}

/*
 * Selection variant f of kind over [t0, t1) with the caller's axis values
 * (runs_axis): 0 and 1 with the caller's runs (1 clipped, by the caller's
 * flags), 2 without runs but with a caller's filter (replayed events).
 */
static void
variant_sel(struct gstats_sel *sel, struct runs_arg *a,
    const struct model *m, int kind, int64_t t0, int64_t t1, int f)
{
	memset(a, 0, sizeof *a);
	a->m = m;
	a->width = 1000;
	a->kind = kind;
	gstats_sel_all(sel);
	sel->kind = kind;
	sel->t0 = t0;
	sel->t1 = t1;
	sel->axis_fn = runs_axis;
	sel->same_fn = f != 2 ? runs_same : NULL;
	sel->event = f == 2 ? ts_every_event : NULL;
	sel->arg = a;
}

/*
 * The second pass split in parts (gstats-fill.c), on 2 to 5 threads, gives
 * the groups, in the same order, with the same statistics, as on one:
 * every kind, keyed by name (found again in the second pass), by other
 * axes, by the caller's runs (replayed runs, and events by name), with a
 * caller's filter (replayed events), windowed and clipped. The parts split
 * the generated model's tracks (all its events selected from 1).
 */
static void
check_parts(const struct model *m, int64_t t0, int64_t t1)
{
	static const char *const axes[] = {
		"name", "name,device", "short-name", "kind,stream", "iter",
		"iter,name", "nvtx-path,tid"
	};
	static const int	 kinds[] = { EV_KERNEL, EV_MEMCPY, EV_API,
				    EV_NVTX, -1 };
	static const char	*threads[] = { "2", "3", "5" };
	struct gstats_sel	 sel;
	struct runs_arg		 a;
	struct gstats		*x, *y;
	size_t			 i, j, k, g, keep = gstats_fill_part_min;
	int			 f;

	for (j = 0; j < sizeof kinds / sizeof *kinds; j++)
	for (i = 0; i < sizeof axes / sizeof *axes; i++)
	for (f = 0; f < 3; f++) {
		variant_sel(&sel, &a, m, kinds[j], t0, t1, f);
		assert_int_equal(setenv("GPULENS_THREADS", "1", 1), 0);
		x = run(m, &sel, axes[i], f == 1 ? GS_CLIP : 0);
		for (k = 0; k < sizeof threads / sizeof *threads; k++) {
			assert_int_equal(setenv("GPULENS_THREADS", threads[k],
			    1), 0);
			gstats_fill_part_min = 1;
			y = run(m, &sel, axes[i], f == 1 ? GS_CLIP : 0);
			gstats_fill_part_min = keep;
			same_result(x, y);
			for (g = 0; g < x->ng; g++)
				same_values(x, y, g);
			gstats_free(y);
		}
		gstats_free(x);
	}
	assert_int_equal(unsetenv("GPULENS_THREADS"), 0);
}

/*
 * GS_LAZY: every group's count, total, min, max and mean are the full
 * statistics' to the bit, the rest 0 until gstats_complete() computes it
 * for the groups asked (every third here, then all): then the same as
 * computed at once. Every kind (copies with their bytes), keyed by name,
 * by the caller's runs and with a caller's filter, windowed and clipped.
 * Over the caller's runs with every track inside the window, the second
 * pass waits for gstats_complete() (gstats-defer.c): the sums are then the
 * first pass's, and the values written are those of the groups asked
 * (then every group's, in parts on 3 threads, the second time round).
 */
static void
check_lazy(const struct model *m, int64_t t0, int64_t t1)
{
	static const char *const axes[] = { "name", "iter,name",
	    "nvtx-path,device", "nvtx-path,iter" };
	static const int	 kinds[] = { EV_KERNEL, EV_MEMCPY, EV_API,
				    EV_NVTX };
	struct gstats_sel	 sel;
	struct runs_arg		 a;
	struct gstats		*x, *y;
	const struct stats	*p, *q;
	uint8_t			*keep;
	size_t			 i, j, g, part_min = gstats_fill_part_min;
	size_t			 deferred = 0;
	int			 f, b, k;

	for (k = 0; k < 2; k++)
	for (j = 0; j < sizeof kinds / sizeof *kinds; j++)
	for (i = 0; i < sizeof axes / sizeof *axes; i++)
	for (f = 0; f < 3; f++) {
		variant_sel(&sel, &a, m, kinds[j], t0, t1, f);
		x = run(m, &sel, axes[i], f == 1 ? GS_CLIP : 0);
		if (k == 1) {
			assert_int_equal(setenv("GPULENS_THREADS", "3", 1),
			    0);
			gstats_fill_part_min = 1;
		}
		y = run(m, &sel, axes[i], GS_LAZY | (f == 1 ? GS_CLIP : 0));
		if (y->vals != NULL && y->vals->ctx != NULL)
			deferred++;
		assert_int_equal(x->ng, y->ng);
		assert_int_equal(x->grand, y->grand);
		keep = xcalloc(y->ng + 1, 1);
		for (g = 0; g < y->ng; g++) {
			for (b = 0; b < 2; b++) {
				p = b ? gstats_bytes(x, g) : &x->g[g].dur;
				q = b ? gstats_bytes(y, g) : &y->g[g].dur;
				assert_int_equal(p->count, q->count);
				assert_int_equal(p->total, q->total);
				assert_int_equal(p->min, q->min);
				assert_int_equal(p->max, q->max);
				assert_memory_equal(&p->mean, &q->mean,
				    sizeof p->mean);
			}
			keep[g] = g % 3 == 0;
		}
		gstats_complete(y, keep);
		for (g = 0; g < y->ng; g++)
			if (keep[g]) {
				same_stats(&x->g[g].dur, &y->g[g].dur);
				same_stats(gstats_bytes(x, g),
				    gstats_bytes(y, g));
			} else if (y->vals != NULL)
				/* (an append pass has them all at once) */
				assert_true(y->g[g].dur.count < 2 ||
				    y->g[g].dur.median == 0);
		gstats_complete(y, NULL);
		assert_null(y->vals);
		same_result(x, y);
		for (g = 0; g < x->ng; g++)
			same_values(x, y, g);
		gstats_fill_part_min = part_min;
		assert_int_equal(unsetenv("GPULENS_THREADS"), 0);
		free(keep);
		gstats_free(x);
		gstats_free(y);
	}
	/* (Kernels and API calls, by the 3 keys with the caller's values,
	 * with the caller's runs, clipped or not: twice over.) */
	if (t0 == INT64_MIN && t1 == INT64_MAX)
		assert_int_equal(deferred, 2 * 2 * 3 * 2);
}

/* The hand-made model's runs: kernels across copies (stream 8), a run
 * to a track's end, values shared by tracks. */
static void
test_runs(void **state)
{
	struct model	*m = build();

	(void)state;
	assert_true(check_runs(m, INT64_MIN, INT64_MAX) > 0);
	check_runs(m, 8, 120);
	check_parts(m, INT64_MIN, INT64_MAX);
	check_parts(m, 8, 120);
	check_lazy(m, INT64_MIN, INT64_MAX);
	check_lazy(m, 8, 120);
	model_free(m);
}

static void
test_generated(void **state)
{
	struct gen_opts		 o;
	struct gen_stats	 st;
	struct model		*m;
	struct gstats_sel	 sel;
	struct gstats		*gs;
	char			*cause = NULL, *path;
	int64_t			 a, z;

	(void)state;
	path = ts_path("gen.sqlite");
	gen_opts_default(&o);
	o.events = 20000;
	o.gpus = 2;
	if (gen_write_nsys(path, &o, &st, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	/* As many kernels, copies and API calls as were written. */
	gstats_sel_all(&sel);
	sel.kind = EV_KERNEL;
	gs = run(m, &sel, "device", 0);
	assert_int_equal(gs->nevents, st.kernels);
	assert_int_equal(gs->ng, 2);
	gstats_free(gs);
	sel.kind = EV_MEMCPY;
	gs = run(m, &sel, "kind", 0);
	assert_int_equal(gs->nevents, st.memcpys);
	assert_true(gstats_bytes(gs, 0)->count == st.memcpys);
	gstats_free(gs);
	sel.kind = EV_API;
	gs = run(m, &sel, "pid,tid", 0);
	assert_int_equal(gs->nevents, st.runtime);
	gstats_free(gs);
	a = st.first_ns + st.span_ns / 3;
	z = st.first_ns + st.span_ns / 2;
	check_brute(m, INT64_MIN, INT64_MAX, 0);
	check_brute(m, a, z, 0);
	check_brute(m, a, z, GS_CLIP);
	check_brute(m, a, z, GS_CLIP | GS_SUMS);
	check_name_keyed(m, INT64_MIN, INT64_MAX);
	check_name_keyed(m, a, z);
	assert_true(check_runs(m, INT64_MIN, INT64_MAX) > 0);
	check_runs(m, a, z);
	check_parts(m, INT64_MIN, INT64_MAX);
	check_parts(m, a, z);
	check_lazy(m, INT64_MIN, INT64_MAX);
	check_lazy(m, a, z);
	model_free(m);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_by_name),
	cmocka_unit_test(test_axes),
	cmocka_unit_test(test_kinds),
	cmocka_unit_test(test_filters),
	cmocka_unit_test(test_window),
	cmocka_unit_test(test_winstat),
	cmocka_unit_test(test_name_keyed),
	cmocka_unit_test(test_narrow),
	cmocka_unit_test(test_runs),
	cmocka_unit_test(test_generated))
