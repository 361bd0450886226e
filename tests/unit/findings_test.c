/*
 * findings_test: the findings rules (headless/finding*.c) and the
 * findings verb.
 *
 *   - On hand-built models with numbers worked out on paper: the cost,
 *     share and Amdahl bounds of a synchronous memcpy, the gap classes
 *     (a gap a synchronisation call ends in, a gap before a late launch),
 *     the one-off rule, ranking by confidence then share.
 *   - On generated traces (sources/synth/gen.c): a clean trace yields no
 *     high-confidence finding; each planted problem, alone on a clean
 *     trace, is found with high confidence and ranked first.
 *   - The verb's rows and --min-confidence (the TUI panel has its own
 *     test, view_findings_test).
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

#include "model/builder.h"
#include "headless/cmd-analyses.h"
#include "analysis/finding.h"
#include "analysis/gaps.h"
#include "sources/synth/gen.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"

/* The hand-built model is tsupport.h's ts_model_sync_copy(). */

static const struct finding *
find(const struct findings *fs, const char *type)
{
	size_t	i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].type, type) == 0)
			return &fs->v[i];
	return NULL;
}

/* The finding of type, which must be there. */
static const struct finding *
need(const struct findings *fs, const char *type)
{
	const struct finding	*f = find(fs, type);

	if (f == NULL)
		fail_msg("no %s finding", type);
	return f;
}

/* Checks that the finding of type costs cost_ns, over [t0, t1). */
static void
expect_span(const struct findings *fs, const char *type, int64_t cost_ns,
    int64_t t0, int64_t t1)
{
	const struct finding	*f = need(fs, type);

	assert_int_equal(f->cost_ns, cost_ns);
	assert_int_equal(f->t0, t0);
	assert_int_equal(f->t1, t1);
}

static void
test_memcpy_sync_cost(void **state)
{
	struct model		*m = ts_model_sync_copy();
	struct findings		 fs;
	const struct finding	*f;
	const struct fev	*x;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(finding_run(m, 0, 0, &fs, &cause), 0);
	assert_int_equal(fs.t1 - fs.t0, 2000000);
	f = need(&fs, "cuda_memcpy_sync");
	/* The cudaMemcpy call blocked the host 210 us of 2000. */
	assert_int_equal(f->cost_ns, 210000);
	assert_true(f->share_pct > 10.4999 && f->share_pct < 10.5001);
	/* Amdahl: 1 / (1 - 0.105 / 2) and 1 / (1 - 0.105). */
	assert_true(f->speedup_half > 1.05540 && f->speedup_half < 1.05541);
	assert_true(f->speedup_all > 1.11731 && f->speedup_all < 1.11732);
	assert_int_equal(f->confidence, FINDING_HIGH);
	assert_int_equal(f->t0, 200000);
	assert_int_equal(f->t1, 410000);
	assert_int_equal(f->rank, 3);
	/* The evidence, typed: the blocked time is an integer, the pid of
	 * the process, and the directions a record of counts. */
	x = fev_get(&f->ev, "host_blocked_ns");
	assert_non_null(x);
	assert_int_equal(x->type, FEV_INT);
	assert_int_equal(x->u.i, 210000);
	x = fev_get(&f->ev, "count");
	assert_non_null(x);
	assert_int_equal(x->type, FEV_INT);
	assert_int_equal(x->u.i, 1);
	x = fev_get(&f->ev, "directions");
	assert_non_null(x);
	assert_int_equal(x->type, FEV_RECORD);
	assert_int_equal(x[1].type, FEV_INT);
	assert_int_equal(x[1].u.i, 1);
	assert_int_equal(x[2].type, FEV_END);
	assert_null(fev_get(&f->ev, "no_such_key"));
	/* A synchronous call is not the asynchronous-pageable rule. */
	assert_null(find(&fs, "cuda_memcpy_async"));
	/* Every rule's status is recorded, typed. */
	assert_int_equal(fs.nrules, 13);
	finding_free(&fs);
	model_free(m);
}

static void
test_gap_classes(void **state)
{
	struct model		*m = ts_model_sync_copy();
	struct findings		 fs;
	const struct finding	*f;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(finding_run(m, 0, 0, &fs, &cause), 0);
	/* gpu_gaps threshold: 2% of 2000 us is 40 us, under 1 ms: 1 ms. */
	assert_int_equal(fs.gap_threshold, 1000000);
	/* [100, 300) ends in no sync and lasts 200 us: the memcpy launch
	 * (its API [200, 410)) ended after the gap began: a launch gap.
	 * [500, 1000): the synchronisation ends at 600 inside it. */
	expect_span(&fs, "cuda_api_sync", 500000, 500000, 1000000);
	f = need(&fs, "launch_bound");
	/* [100, 300) and [1100, 1100.5): 10.025%, but the work after the
	 * gaps is long (median 99.75 us), so not high. */
	assert_int_equal(f->cost_ns, 200500);
	assert_int_equal(f->confidence, FINDING_MEDIUM);
	assert_null(find(&fs, "gpu_gaps"));
	assert_null(find(&fs, "idle_bubbles"));
	/*
	 * gpu_time_util: [0, 1200 us) in 30 chunks of 40 us; below 50%:
	 * [120, 280) and [520, 1000), idle 160 + 480 us = 32%.
	 */
	expect_span(&fs, "gpu_time_util", 640000, 520000, 1000000);
	/* dominant_kernel: k, 399.5 us on device 0, never high. */
	f = need(&fs, "dominant_kernel");
	assert_int_equal(f->cost_ns, 399500);
	assert_int_equal(f->confidence, FINDING_MEDIUM);
	/* Its command is what gpulens ncu-command gives for its longest
	 * launch (the same builder). */
	assert_non_null(f->command);
	assert_int_equal(strncmp(f->command, "ncu --kernel-name k "
	    "--launch-skip ", 34), 0);
	assert_non_null(strstr(f->command, " --launch-count 1 --export ev"));
	/* Ranked by confidence, then share. */
	assert_int_equal(fs.n, 5);
	assert_string_equal(fs.v[0].type, "gpu_time_util");
	assert_string_equal(fs.v[1].type, "cuda_api_sync");
	assert_string_equal(fs.v[2].type, "cuda_memcpy_sync");
	assert_string_equal(fs.v[3].type, "dominant_kernel");
	assert_string_equal(fs.v[4].type, "launch_bound");
	finding_free(&fs);
	model_free(m);
}

static void
test_window(void **state)
{
	struct model		*m = ts_model_sync_copy();
	struct findings		 fs;
	char			*cause = NULL;

	(void)state;
	/* [700 us, 1990 us): no copy and no gap a sync ends in. */
	assert_int_equal(finding_run(m, 700000, 1990000, &fs, &cause), 0);
	assert_null(find(&fs, "cuda_memcpy_sync"));
	assert_null(find(&fs, "cuda_api_sync"));
	assert_non_null(find(&fs, "launch_bound"));
	finding_free(&fs);
	model_free(m);
}

static void
test_conf_rules(void **state)
{
	(void)state;
	assert_int_equal(finding_conf_of(5.0, 1.0), FINDING_HIGH);
	assert_int_equal(finding_conf_of(4.99, 1.0), FINDING_MEDIUM);
	assert_int_equal(finding_conf_of(1.0, 1.0), FINDING_MEDIUM);
	assert_int_equal(finding_conf_of(0.99, 1.0), FINDING_LOW);
	/* Mostly outside the iterations: one-off, low. */
	assert_int_equal(finding_conf_of(30.0, 0.49), FINDING_LOW);
	assert_int_equal(finding_conf_of(30.0, 0.5), FINDING_HIGH);
}

/* ---- the gap walk's cursors ---- */

/*
 * Two processes; device 0 has three streams of process 1 (several work
 * events start together, within a stream and across streams, a
 * synchronisation record shares a start with work, an empty stream),
 * device 1 a stream of each process (so both processes' syncs count).
 * Synchronisation calls end on, just before and just after work edges,
 * some at the same instant.
 */
static struct model *
cursor_model(void)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 e;
	uint32_t		 d[2], p[2], a[2], g[5];
	/* Streams: device slot, process slot, stream id. */
	static const uint32_t	 sd[5] = { 0, 0, 0, 1, 1 };
	static const uint32_t	 sp[5] = { 0, 0, 0, 0, 1 };
	static const uint32_t	 si[5] = { 7, 8, 9, 7, 8 };
	static const int64_t	 s1[] = { 100, 100, 150, 299, 300, 300, 301,
				    700, 1000 };
	static const int64_t	 s2[] = { 0, 100, 500, 500, 999 };
	/* GPU events: stream, kind, flags, start, end. */
	static const struct {
		uint32_t	 stream;
		int		 kind;
		unsigned	 flags;
		int64_t		 s, e;
	} gw[] = {
		{ 0, EV_KERNEL, 0, 0, 100 }, { 0, EV_KERNEL, 0, 200, 300 },
		{ 0, EV_KERNEL, 0, 200, 250 }, { 0, EV_SYNC, 0, 500, 520 },
		{ 0, EV_KERNEL, 0, 500, 510 }, { 0, EV_KERNEL, 0, 1000, 1000 },
		{ 1, EV_KERNEL, 0, 200, 220 }, { 1, EV_SYNC, 0, 300, 400 },
		{ 1, EV_KERNEL, 0, 700, 800 }, { 1, EV_KERNEL, 0, 1100, 1200 },
		{ 1, EV_KERNEL, EVF_COMM, 300, 301 },
		{ 3, EV_KERNEL, 0, 100, 150 }, { 4, EV_KERNEL, 0, 100, 200 },
		{ 4, EV_KERNEL, 0, 500, 600 }, { 3, EV_KERNEL, 0, 999, 1000 },
	};
	size_t			 i;

	for (i = 0; i < 2; i++) {
		d[i] = ts_device(b, (uint32_t)i);
		p[i] = builder_process(b, (uint64_t)(i + 1) << 24,
		    (uint32_t)i + 1, "train");
		a[i] = builder_cpu_track(b, TRACK_API, builder_thread(b,
		    (uint64_t)(i + 1) << 24 | 1, 1, p[i], "main"), 0);
	}
	for (i = 0; i < 5; i++)
		g[i] = builder_gpu_track(b, builder_stream(b, d[sd[i]], si[i],
		    p[sp[i]]));
	for (i = 0; i < sizeof s1 / sizeof *s1; i++)
		ts_add(b, a[0], "cudaStreamSynchronize", EV_API, s1[i] - 50,
		    s1[i]);
	for (i = 0; i < sizeof s2 / sizeof *s2; i++)
		ts_add(b, a[1], "cudaDeviceSynchronize", EV_API, s2[i] - 50,
		    s2[i]);
	ts_add(b, a[0], "cudaLaunchKernel", EV_API, 0, 1000);
	for (i = 0; i < sizeof gw / sizeof *gw; i++) {
		e = ts_event(b, gw[i].kind == EV_SYNC ? "sync" : "k",
		    gw[i].kind, gw[i].s, gw[i].e);
		e.flags = gw[i].flags;
		builder_event(b, g[gw[i].stream], &e);
	}
	return ts_finish(b);
}

/* Plain look-ups: a sync end of the slot's process(es) in [a, b)? */
static int
plain_sync(const struct finding_ctx *c, size_t d, int64_t a, int64_t b)
{
	uint32_t	p = c->act.dev[d].process;
	size_t		q, i;

	for (q = 0; q <= c->m->nprocesses; q++) {
		if (p != NONE32 && q != (p < c->m->nprocesses ? p :
		    c->m->nprocesses))
			continue;
		for (i = c->sync_off[q]; i < c->sync_off[q + 1]; i++)
			if (c->sync_end[i] >= a && c->sync_end[i] < b)
				return 1;
	}
	return 0;
}

/* The first work event of slot d's device starting at t, track order. */
static uint32_t
plain_work(const struct finding_ctx *c, size_t d, int64_t t, int64_t *dur)
{
	const struct model	*m = c->m;
	size_t			 tr, j;

	for (tr = 0; tr < m->ntracks; tr++) {
		const struct lane *l = &m->tracks[tr].lane;
		if (m->tracks[tr].type != TRACK_GPU ||
		    m->tracks[tr].device != c->act.dev[d].device)
			continue;
		for (j = 0; j < l->n; j++)
			if (l->start[j] == t &&
			    activity_class(l->kind[j], l->flags[j]) >= 0) {
				*dur = l->end[j] - l->start[j];
				return model_gid(m, (uint32_t)tr, (uint32_t)j);
			}
	}
	return NONE32;
}

/* Walks keys -60..1300 with the given stride (each key twice) through a
 * fresh cursor of slot d, against the plain look-ups. */
static void
cursor_walk(struct finding_ctx *c, size_t d, int64_t stride)
{
	static const int64_t	 w[] = { 0, 1, 2, 50, 100000 };
	struct finding_cursor	 k;
	int64_t			 t, d1, d2;
	uint32_t		 g1, g2;
	int			 r;

	finding_cursor_init(&k, c, d);
	for (t = -60; t <= 1300; t += stride)
		for (r = 0; r < 2; r++) {
			const int64_t wd = w[(t + r) % 5 < 0 ? 0 : (t + r) % 5];
			if (finding_cursor_sync(&k, t, t + wd) !=
			    plain_sync(c, d, t, t + wd))
				fail_msg("slot %zu: sync in [%lld, +%lld)", d,
				    (long long)t, (long long)wd);
			d1 = d2 = -1;
			g1 = finding_cursor_work(&k, t, &d1);
			g2 = plain_work(c, d, t, &d2);
			if (g1 != g2 || d1 != d2)
				fail_msg("slot %zu: work at %lld: %u, not %u",
				    d, (long long)t, g1, g2);
		}
	finding_cursor_free(&k);
}

struct gaps_got {
	struct gap_span	 v[32];
	size_t		 n;
};

static void
gaps_got_one(void *arg, const struct gap_span *g)
{
	struct gaps_got	*x = arg;

	if (x->n < sizeof x->v / sizeof *x->v)
		x->v[x->n++] = *g;
}

static void
test_gap_cursors(void **state)
{
	struct model		*m = cursor_model();
	struct finding_ctx	 c;
	struct finding_cursor	 k;
	struct gap_list		 gl;
	size_t			 d, stride, i;
	uint32_t		 gid, hops[] = { 3, 0, 4, 13, 14, 2, 9, 20 };

	(void)state;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.api_class = xcalloc(strpool_count(m->strs) + 1, 1);
	activity_build(&c.act, m);
	assert_int_equal(c.act.ndev, 2);
	/* Device 0 is process one's; device 1 has both processes. */
	assert_int_not_equal(c.act.dev[0].process, NONE32);
	assert_int_equal(c.act.dev[1].process, NONE32);
	finding_syncs(&c);
	assert_int_equal(c.sync_off[m->nprocesses + 1], 14);
	for (d = 0; d < c.act.ndev; d++)
		for (stride = 1; stride <= 7; stride += 3)
			cursor_walk(&c, d, (int64_t)stride);
	/* Event ends by global id, jumping between tracks. */
	finding_cursor_init(&k, &c, 0);
	for (gid = 0; gid < sizeof hops / sizeof *hops; gid++)
		if (hops[gid] < m->nevents)
			assert_int_equal(finding_cursor_end(&k, hops[gid]),
			    model_ev_end(m, hops[gid]));
	finding_cursor_free(&k);
	/* The gap walk gives the listed gaps. */
	for (d = 0; d < c.act.ndev; d++) {
		struct gaps_got	got;
		got.n = 0;
		gaps_device(&c.act, d, -10, 1150, &gl);
		gaps_device_each(&c.act, d, -10, 1150, gaps_got_one, &got);
		assert_true(gl.n >= 3);
		assert_int_equal(got.n, gl.n);
		for (i = 0; i < gl.n; i++) {
			assert_int_equal(got.v[i].start,
			    gl.v[i].start);
			assert_int_equal(got.v[i].end, gl.v[i].end);
			assert_int_equal(got.v[i].kind,
			    gl.v[i].kind);
		}
		gap_list_free(&gl);
	}
	free(c.sync_end);
	free(c.sync_gid);
	free(c.sync_off);
	free(c.api_class);
	activity_free(&c.act);
	model_free(m);
}

/*
 * dominant_kernel's shares are the double sums of the durations in lane
 * order, which an integer sum gives only while they are exact. Past 2^53
 * ns they round: a kernel [0, 2^53) and then three of 1 ns leave the
 * double total at 2^53, a share of exactly 100%; the integer total 2^53 +
 * 3 (2^53 + 4 as a double) would give less. Without the large kernel the
 * shares are those of the integer sums.
 */
static void
test_kernel_sums(void **state)
{
	const int64_t		 big = (int64_t)1 << 53;
	struct builder		*b;
	struct model		*m;
	struct findings		 fs;
	const struct finding	*f;
	const struct fev	*x;
	struct lane_event	 e;
	char			*cause = NULL;
	uint32_t		 d, p, g;
	int			 i, round;

	(void)state;
	for (round = 0; round < 2; round++) {
		b = builder_new(SOURCE_NSYS);
		d = ts_device(b, 0);
		p = builder_process(b, 1 << 24, 1, "train");
		g = builder_gpu_track(b, builder_stream(b, d, 7, p));
		e = ts_event(b, "big", EV_KERNEL, 0, round == 0 ? big : 40);
		builder_event(b, g, &e);
		for (i = 0; i < 3; i++) {
			e = ts_event(b, "small", EV_KERNEL, big + 10 + 2 * i,
			    big + 11 + 2 * i);
			builder_event(b, g, &e);
		}
		m = ts_finish(b);
		assert_int_equal(finding_run(m, 0, 0, &fs, &cause), 0);
		f = need(&fs, "dominant_kernel");
		x = fev_get(&f->ev, "kernel_share_pct");
		assert_non_null(x);
		if (round == 0)
			assert_true(x->u.r == 100.0);
		else
			assert_true(x->u.r == 100 * (40.0 / 43.0));
		finding_free(&fs);
		model_free(m);
	}
}

/* ---- generated traces ---- */

static void
test_plant_parse(void **state)
{
	struct gen_opts	 o;
	unsigned	 p;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(gen_plant_parse("warmup,comm", &p, &cause), 0);
	assert_int_equal(p, GEN_PLANT_WARMUP | GEN_PLANT_COMM);
	assert_int_equal(gen_plant_parse("all", &p, &cause), 0);
	assert_int_equal(p, GEN_PLANT_ALL);
	assert_int_equal(gen_plant_parse("none", &p, &cause), 0);
	assert_int_equal(p, 0);
	assert_int_equal(gen_plant_parse("sync,bogus", &p, &cause), -1);
	assert_non_null(strstr(cause, "bogus"));
	free(cause);
	cause = NULL;
	assert_string_equal(gen_plant_name(0), "warmup");
	assert_null(gen_plant_name(GEN_PLANT_COUNT));
	assert_non_null(gen_plant_help(GEN_PLANT_COUNT - 1));
	/* Unknown bits are refused. */
	gen_opts_default(&o);
	o.events = 1000;
	o.plant = 1u << 30;
	assert_int_equal(gen_write_nsys("/nonexistent/x.sqlite", &o, NULL,
	    &cause), -1);
	assert_non_null(strstr(cause, "plant"));
	free(cause);
}

static struct model *
generate(const char *name, unsigned plant, int straggler)
{
	struct gen_opts	 o;
	struct model	*m;
	char		*path, *cause = NULL;

	gen_opts_default(&o);
	o.events = 25000;
	o.gpus = 2;
	o.seed = 3;
	o.clean = 1;
	o.plant = plant;
	o.straggler = straggler;
	path = xasprintf("%s/%s.sqlite", ts_tmp(), name);
	if (gen_write_nsys(path, &o, NULL, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("source_read: %s", cause);
	unlink(path);
	free(path);
	return m;
}

/*
 * The devices' gap walks run as pool jobs: with one thread and with
 * several, every finding and every number behind it must agree (a job
 * that wrote shared state or another device's entry would not).
 */
static void
test_devices_parallel(void **state)
{
	struct model	*m = generate("par", GEN_PLANT_ALL, GEN_STRAGGLER_AUTO);
	struct findings	 a, b;
	char		*cause = NULL;
	size_t		 i, k;

	(void)state;
	assert_int_equal(setenv("GPULENS_THREADS", "1", 1), 0);
	assert_int_equal(finding_run(m, 0, 0, &a, &cause), 0);
	assert_int_equal(setenv("GPULENS_THREADS", "4", 1), 0);
	assert_int_equal(finding_run(m, 0, 0, &b, &cause), 0);
	assert_int_equal(unsetenv("GPULENS_THREADS"), 0);
	assert_true(a.n > 0);
	assert_int_equal(a.n, b.n);
	for (i = 0; i < a.n; i++) {
		assert_string_equal(a.v[i].type, b.v[i].type);
		assert_string_equal(a.v[i].detail, b.v[i].detail);
		assert_int_equal(a.v[i].cost_ns, b.v[i].cost_ns);
		assert_true(a.v[i].share_pct == b.v[i].share_pct);
		assert_int_equal(a.v[i].t0, b.v[i].t0);
		assert_int_equal(a.v[i].t1, b.v[i].t1);
		assert_int_equal(a.v[i].device, b.v[i].device);
		assert_int_equal(a.v[i].ev.n, b.v[i].ev.n);
		for (k = 0; k < a.v[i].ev.n; k++) {
			const struct fev *x = &a.v[i].ev.v[k];
			const struct fev *y = &b.v[i].ev.v[k];
			assert_int_equal(x->type, y->type);
			if (x->type == FEV_INT)
				assert_int_equal(x->u.i, y->u.i);
			else if (x->type == FEV_REAL)
				assert_true(x->u.r == y->u.r);
		}
	}
	finding_free(&a);
	finding_free(&b);
	model_free(m);
}

static void
test_clean(void **state)
{
	struct model	*m = generate("clean", 0, GEN_STRAGGLER_AUTO);
	struct findings	 fs;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	assert_int_equal(finding_run(m, 0, 0, &fs, &cause), 0);
	for (i = 0; i < fs.n; i++)
		if (fs.v[i].confidence == FINDING_HIGH)
			fail_msg("clean trace: high-confidence %s (%.2f%%)",
			    fs.v[i].type, fs.v[i].share_pct);
	/* The rules all ran. */
	assert_int_equal(fs.nrules, 13);
	finding_free(&fs);
	model_free(m);
}

static void
planted(const char *name, unsigned plant, int straggler, const char *type)
{
	struct model	*m = generate(name, plant, straggler);
	struct findings	 fs;
	char		*cause = NULL;

	assert_int_equal(finding_run(m, 0, 0, &fs, &cause), 0);
	assert_true(fs.n > 0);
	if (strcmp(fs.v[0].type, type) != 0 ||
	    fs.v[0].confidence != FINDING_HIGH)
		fail_msg("%s: first is %s (%s), not %s", name, fs.v[0].type,
		    finding_conf_name(fs.v[0].confidence), type);
	assert_int_equal(fs.v[0].rank, 1);
	assert_true(fs.v[0].share_pct >= FINDING_HIGH_PCT);
	assert_false(fs.v[0].one_off);
	assert_true(fs.v[0].t0 < fs.v[0].t1);
	assert_non_null(fs.v[0].title);
	assert_non_null(fs.v[0].next);
	finding_free(&fs);
	model_free(m);
}

static void
test_plant_launch(void **state)
{
	(void)state;
	planted("launch", GEN_PLANT_LAUNCH, GEN_STRAGGLER_AUTO, "launch_bound");
}

static void
test_plant_sync(void **state)
{
	(void)state;
	planted("sync", GEN_PLANT_SYNC, GEN_STRAGGLER_AUTO, "cuda_api_sync");
}

static void
test_plant_copies(void **state)
{
	(void)state;
	planted("pageable", GEN_PLANT_PAGEABLE, GEN_STRAGGLER_AUTO,
	    "cuda_memcpy_async");
	planted("memcpy", GEN_PLANT_MEMCPY_SYNC, GEN_STRAGGLER_AUTO,
	    "cuda_memcpy_sync");
	planted("memset", GEN_PLANT_MEMSET_SYNC, GEN_STRAGGLER_AUTO,
	    "cuda_memset_sync");
}

static void
test_plant_comm(void **state)
{
	(void)state;
	planted("comm", GEN_PLANT_COMM, GEN_STRAGGLER_AUTO, "exposed_comm");
	planted("straggler", 0, 1, "straggler");
}

static void
test_plant_idle(void **state)
{
	(void)state;
	planted("bubble", GEN_PLANT_BUBBLE, GEN_STRAGGLER_AUTO,
	    "idle_bubbles");
	planted("gap", GEN_PLANT_GAP, GEN_STRAGGLER_AUTO, "gpu_gaps");
	planted("imbalance", GEN_PLANT_IMBALANCE, GEN_STRAGGLER_AUTO,
	    "imbalance");
}

/* ---- the verb ---- */

static void
test_verb(void **state)
{
	struct model		*m = ts_model_sync_copy();
	struct vopt		 v[] = FINDINGS_VOPTS;
	struct ts_vrun		 r;
	cJSON			*row;

	(void)state;
	ts_vrun_init(&r, cmd_findings_compute, "findings", FINDINGS_OPTS);
	assert_int_equal(ts_vrun(&r, m, v, 1), 0);
	row = cJSON_GetArrayItem(r.out.rows, 1);
	assert_string_equal(cJSON_GetObjectItem(row, "type")->valuestring,
	    "cuda_api_sync");
	assert_string_equal(cJSON_GetObjectItem(row, "key")->valuestring,
	    "finding|type=cuda_api_sync");
	assert_int_equal((int64_t)ts_jnum(row, "rank"), 2);
	/* Relative times: the origin is -10 us. */
	assert_int_equal((int64_t)ts_jnum(row, "start_ns"), 510000);
	assert_int_equal((int64_t)ts_jnum(row, "cost_ns"), 500000);
	assert_int_equal((int64_t)ts_jnum(row, "device"), 0);
	assert_true(cJSON_IsObject(cJSON_GetObjectItem(row, "evidence")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(row, "ncu_command")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r.out.aux,
	    "rules")), 13);

	/* --min-confidence high keeps the three high ones. */
	v[0].value = "high";
	assert_int_equal(ts_vrun(&r, m, v, 1), 0);
	assert_int_equal(cJSON_GetArraySize(r.out.rows), 3);
	v[0].value = "severe";
	assert_int_equal(ts_vrun(&r, m, v, 1), -1);
	assert_non_null(strstr(r.cause, "--min-confidence"));
	ts_vrun_free(&r);
	model_free(m);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_memcpy_sync_cost),
	cmocka_unit_test(test_gap_classes),
	cmocka_unit_test(test_window),
	cmocka_unit_test(test_conf_rules),
	cmocka_unit_test(test_gap_cursors),
	cmocka_unit_test(test_kernel_sums),
	cmocka_unit_test(test_plant_parse),
	cmocka_unit_test(test_clean),
	cmocka_unit_test(test_devices_parallel),
	cmocka_unit_test(test_plant_launch),
	cmocka_unit_test(test_plant_sync),
	cmocka_unit_test(test_plant_copies),
	cmocka_unit_test(test_plant_comm),
	cmocka_unit_test(test_plant_idle),
	cmocka_unit_test(test_verb))
