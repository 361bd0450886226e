/*
 * overview_test: the one-screen overview (analysis/overview.c) and its
 * kernel top list (analysis/ktop.c).
 *
 * On a small model built by hand every field is checked against values
 * worked out below; on real profiles the per-device kernel and copy sums,
 * the copies per direction and the kernels per name against a plain loop
 * over the GPU tracks, with one pool thread and with four.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/ktop.h"
#include "analysis/overview.h"
#include "model/builder.h"
#include "model/lane.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/strpool.h"
#include "util/xmalloc.h"

/* Checks every figure of device od. */
static void
dev_is(const struct overview_dev *od, int used, int64_t busy, int64_t comm,
    int64_t copy, uint64_t kernels, int64_t kernel_ns, uint64_t bytes)
{
	assert_int_equal(od->used, used);
	assert_int_equal(od->busy, busy);
	assert_int_equal(od->comm, comm);
	assert_int_equal(od->copy, copy);
	assert_int_equal(od->kernels, kernels);
	assert_int_equal(od->kernel_ns, kernel_ns);
	assert_int_equal(od->memcpy_bytes, bytes);
}

/*
 * Devices 3, 5 and 8 (indices 0, 1, 2); process 100, thread 1, with
 * streams 7 and 8 on device 3 and stream 9 on device 5; device 8 has none.
 * The events, a row each: the track (an index into build()'s tracks), the
 * name, kind, start and end, for a memcpy its copy record (direction and
 * bytes; a direction of -1: none), the flags.
 */
enum { T_S7, T_S8, T_S9, T_NVTX, T_API };
static const struct {
	int		 track;
	const char	*name;
	int		 kind;
	int64_t		 start, end;
	int		 dir;
	uint64_t	 bytes;
	uint8_t		 flags;
} events[] = {
	{ T_S7, "gemm", EV_KERNEL, 0, 100, 0, 0, 0 },
	{ T_S7, "relu", EV_KERNEL, 100, 130, 0, 0, 0 },
	{ T_S7, "copy", EV_MEMCPY, 200, 250, COPY_HTOD, 1000, 0 },
	{ T_S7, "gemm", EV_KERNEL, 300, 400, 0, 0, 0 },
	{ T_S8, "nccl", EV_KERNEL, 50, 250, 0, 0, EVF_COMM },
	{ T_S8, "copy", EV_MEMCPY, 260, 270, COPY_DTOH, 500, 0 },
	{ T_S9, "gemm", EV_KERNEL, 0, 50, 0, 0, 0 },
	{ T_S9, "copy", EV_MEMCPY, 60, 80, COPY_HTOD, 24, 0 },
	{ T_S9, "copy", EV_MEMCPY, 82, 86, -1, 0, 0 },
	{ T_S9, "memset", EV_MEMSET, 90, 95, 0, 0, 0 },
	{ T_NVTX, "step#1", EV_NVTX, 0, 100, 0, 0, 0 },
	{ T_NVTX, "step#2", EV_NVTX, 100, 200, 0, 0, 0 },
	{ T_NVTX, "step#3", EV_NVTX, 200, 300, 0, 0, 0 },
	{ T_NVTX, "step#4", EV_NVTX, 300, 400, 0, 0, 0 },
	{ T_API, "cudaLaunchKernel", EV_API, 10, 12, 0, 0, 0 },
	{ T_API, "cudaStreamSynchronize", EV_API, 150, 180, 0, 0, 0 },
	{ T_API, "cudaDeviceSynchronize", EV_API, 350, 390, 0, 0, 0 },
};

static struct model *
build(void)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct lane_event	 ev;
	uint32_t		 tr[5], dev[3], p, t;
	size_t			 i;

	for (i = 0; i < 3; i++)
		dev[i] = ts_device(b, i == 0 ? 3 : i == 1 ? 5 : 8);
	t = ts_nsys_thread(b, 100, 1, &p);
	tr[T_S7] = ts_stream(b, dev[0], 7, p);
	tr[T_S8] = ts_stream(b, dev[0], 8, p);
	tr[T_S9] = ts_stream(b, dev[1], 9, p);
	tr[T_NVTX] = builder_cpu_track(b, TRACK_NVTX, t, 0);
	tr[T_API] = builder_cpu_track(b, TRACK_API, t, 0);
	for (i = 0; i < sizeof events / sizeof events[0]; i++) {
		ev = ts_event(b, events[i].name, events[i].kind,
		    events[i].start, events[i].end);
		if (events[i].kind == EV_MEMCPY && events[i].dir >= 0)
			ev.aux = ts_copy(b, events[i].dir, 0, 0,
			    events[i].bytes);
		else if (events[i].kind == EV_NVTX)
			ev.aux = ts_nvtx(b, tr[T_NVTX]);
		ev.flags = events[i].flags;
		builder_event(b, tr[events[i].track], &ev);
	}
	return ts_finish(b);
}

/* Every field of the overview of build(), worked out by hand. */
static void
test_by_hand(void **state)
{
	static const struct {
		const char	*name;
		uint64_t	 count;
		int64_t		 total;
	} top[] = { { "gemm", 3, 250 }, { "nccl", 1, 200 }, { "relu", 1, 30 } };
	struct model	*m = build();
	struct overview	 ov;
	size_t		 i;
	int		 k;

	(void)state;
	overview_build(m, &ov);
	assert_int_equal(ov.span, 400);
	assert_int_equal(ov.ndev, 3);
	/*
	 * Device 3: busy [0, 250) u [260, 270) u [300, 400) = 360; comm the
	 * NCCL kernel, 200; copy [200, 250) u [260, 270) = 60; kernels 100 +
	 * 30 + 200 + 100; bytes 1000 + 500. Device 5: copy [60, 80) u
	 * [82, 86) u [90, 95) = 29 (the memcpy without a record and the
	 * memset are copy work, but no copy's bytes), busy 50 + 29.
	 */
	dev_is(&ov.dev[0], 1, 360, 200, 60, 4, 430, 1500);
	dev_is(&ov.dev[1], 1, 79, 0, 29, 1, 50, 24);
	dev_is(&ov.dev[2], 0, 0, 0, 0, 0, 0, 0);
	assert_int_equal(ov.busy, 360 + 79);
	assert_int_equal(ov.comm, 200);
	/* Two devices in use over 400 ns: 800 - 439 idle. */
	assert_int_equal(ov.share.ndev, 2);
	assert_int_equal(ov.share.ntotal, 3);
	assert_int_equal(ov.share.window, 800);
	assert_int_equal(ov.share.busy, 439);
	assert_int_equal(ov.share.idle, 361);
	assert_true(ov.share.idle_pct == 100.0 * 361 / 800);
	/* Only copies with a record, per direction. */
	for (k = 0; k < COPY_KIND_COUNT; k++) {
		if (k == COPY_HTOD || k == COPY_DTOH)
			continue;
		assert_int_equal(ov.copy[k].count, 0);
		assert_int_equal(ov.copy[k].bytes, 0);
		assert_int_equal(ov.copy[k].ns, 0);
	}
	assert_int_equal(ov.copy[COPY_HTOD].count, 2);
	assert_int_equal(ov.copy[COPY_HTOD].bytes, 1024);
	assert_int_equal(ov.copy[COPY_HTOD].ns, 50 + 20);
	assert_int_equal(ov.copy[COPY_DTOH].count, 1);
	assert_int_equal(ov.copy[COPY_DTOH].bytes, 500);
	assert_int_equal(ov.copy[COPY_DTOH].ns, 10);
	/* gemm 100 + 100 + 50, nccl 200, relu 30: most time first. */
	assert_int_equal(ov.ktop.n, 3);
	assert_int_equal(ov.ktop.total, 480);
	for (i = 0; i < 3; i++) {
		assert_string_equal(model_str(m, ov.ktop.v[i].name),
		    top[i].name);
		assert_int_equal(ov.ktop.v[i].count, top[i].count);
		assert_int_equal(ov.ktop.v[i].total, top[i].total);
	}
	/* Two blocking calls, 30 + 40 ns; the launch does not block. */
	assert_int_equal(ov.sw.calls, 2);
	assert_int_equal(ov.sw.blocked, 70);
	/* Four steps of 100 ns, blocked 0, 30, 0 and 40: medians 100, 15. */
	assert_true(ov.it_ok);
	assert_int_equal(ov.it.method, ITERS_NVTX);
	assert_string_equal(ov.it.marker, "step#*");
	assert_int_equal(ov.it.n, 4);
	assert_true(ov.it_median == 100.0);
	assert_true(ov.it_sync_median == 15.0);
	overview_free(&ov);
	model_free(m);
}

/* A trace with no GPU work: no device, no kernel, no iteration. */
static void
test_empty(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct overview	 ov;
	uint32_t	 t, p, api;

	(void)state;
	t = ts_nsys_thread(b, 100, 1, &p);
	api = builder_cpu_track(b, TRACK_API, t, 0);
	ts_add(b, api, "cudaMalloc", EV_API, 0, 10);
	m = ts_finish(b);
	overview_build(m, &ov);
	assert_int_equal(ov.ndev, 0);
	assert_int_equal(ov.ktop.n, 0);
	assert_int_equal(ov.busy, 0);
	assert_int_equal(ov.share.ndev, 0);
	assert_int_equal(ov.sw.calls, 0);
	assert_true(!ov.it_ok || ov.it.n == 0);
	overview_free(&ov);
	model_free(m);
}

/* The sums a plain loop over every GPU track gives: per device, per
 * direction and per name id (name unused). */
struct brute {
	struct overview_dev	*dev;
	struct overview_copy	 copy[COPY_KIND_COUNT];
	struct ktop_item	*name;
	size_t			 nname;
};

static void
brute_build(const struct model *m, struct brute *br)
{
	const struct track	*tr;
	const struct lane	*l;
	const struct copy_info	*c;
	struct overview_dev	*od;
	size_t			 t, i;
	int64_t			 dur;
	int			 ck;

	memset(br, 0, sizeof *br);
	br->dev = xcalloc(m->ndevices + 1, sizeof *br->dev);
	br->nname = (size_t)strpool_count(m->strs) + 1;
	br->name = xcalloc(br->nname, sizeof *br->name);
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type != TRACK_GPU || tr->device >= m->ndevices)
			continue;
		od = &br->dev[tr->device];
		l = &tr->lane;
		for (i = 0; i < l->n; i++) {
			dur = l->end[i] - l->start[i];
			if (l->kind[i] == EV_KERNEL) {
				od->kernels++;
				od->kernel_ns += dur;
				br->name[l->name[i]].count++;
				br->name[l->name[i]].total += dur;
				continue;
			}
			if (l->kind[i] != EV_MEMCPY || l->aux[i] >= m->ncopies)
				continue;
			c = &m->copies[l->aux[i]];
			ck = c->kind < COPY_KIND_COUNT ? c->kind : COPY_UNKNOWN;
			od->memcpy_bytes += c->bytes;
			br->copy[ck].count++;
			br->copy[ck].bytes += c->bytes;
			br->copy[ck].ns += dur;
		}
	}
}

/* ov against the plain loop's sums. */
static void
brute_check(const struct model *m, const struct overview *ov,
    const struct brute *br)
{
	size_t		 d, i, names = 0;
	int64_t		 all = 0;
	int		 k;

	assert_int_equal(ov->ndev, m->ndevices);
	for (d = 0; d < m->ndevices; d++) {
		assert_int_equal(ov->dev[d].kernels, br->dev[d].kernels);
		assert_int_equal(ov->dev[d].kernel_ns, br->dev[d].kernel_ns);
		assert_int_equal(ov->dev[d].memcpy_bytes,
		    br->dev[d].memcpy_bytes);
	}
	for (k = 0; k < COPY_KIND_COUNT; k++) {
		assert_int_equal(ov->copy[k].count, br->copy[k].count);
		assert_int_equal(ov->copy[k].bytes, br->copy[k].bytes);
		assert_int_equal(ov->copy[k].ns, br->copy[k].ns);
	}
	for (i = 0; i < br->nname; i++) {
		names += br->name[i].count > 0;
		all += br->name[i].total;
	}
	assert_int_equal(ov->ktop.n, names);
	assert_int_equal(ov->ktop.total, all);
	for (i = 0; i < ov->ktop.n; i++) {
		const struct ktop_item *it = &ov->ktop.v[i];
		assert_int_equal(it->count, br->name[it->name].count);
		assert_int_equal(it->total, br->name[it->name].total);
		if (i > 0)
			assert_true(it[-1].total > it->total ||
			    (it[-1].total == it->total &&
			    it[-1].name < it->name));
	}
}

/* The same answer with one pool thread and with four. */
static void
same_overview(const struct overview *a, const struct overview *b)
{
	size_t	d, i;
	int	k;

	assert_int_equal(a->ndev, b->ndev);
	for (d = 0; d < a->ndev; d++) {
		const struct overview_dev *x = &a->dev[d];
		dev_is(&b->dev[d], x->used, x->busy, x->comm, x->copy,
		    x->kernels, x->kernel_ns, x->memcpy_bytes);
	}
	for (k = 0; k < COPY_KIND_COUNT; k++) {
		assert_int_equal(a->copy[k].count, b->copy[k].count);
		assert_int_equal(a->copy[k].bytes, b->copy[k].bytes);
		assert_int_equal(a->copy[k].ns, b->copy[k].ns);
	}
	assert_int_equal(a->busy, b->busy);
	assert_int_equal(a->comm, b->comm);
	assert_int_equal(a->ktop.n, b->ktop.n);
	for (i = 0; i < a->ktop.n; i++) {
		assert_int_equal(a->ktop.v[i].name, b->ktop.v[i].name);
		assert_int_equal(a->ktop.v[i].count, b->ktop.v[i].count);
		assert_int_equal(a->ktop.v[i].total, b->ktop.v[i].total);
	}
	assert_int_equal(a->sw.calls, b->sw.calls);
	assert_int_equal(a->sw.blocked, b->sw.blocked);
	assert_int_equal(a->it_ok, b->it_ok);
	assert_int_equal(a->it.n, b->it.n);
	assert_true(a->it_median == b->it_median);
	assert_true(a->it_sync_median == b->it_sync_median);
}

static void
fixture_check(const char *rel)
{
	struct overview	 one, four;
	struct brute	 br;
	struct model	*m;
	char		*path, *cause = NULL;

	ts_need_fixtures();
	ts_need_fixture(rel);
	path = ts_fixture(rel);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("%s: %s", path, cause);
	assert_int_equal(setenv("GPULENS_THREADS", "1", 1), 0);
	overview_build(m, &one);
	assert_int_equal(setenv("GPULENS_THREADS", "4", 1), 0);
	overview_build(m, &four);
	assert_int_equal(unsetenv("GPULENS_THREADS"), 0);
	brute_build(m, &br);
	assert_true(one.ktop.n > 0);
	brute_check(m, &one, &br);
	same_overview(&one, &four);
	free(br.dev);
	free(br.name);
	overview_free(&one);
	overview_free(&four);
	model_free(m);
	free(path);
}

static void
test_nsys_2gpu(void **state)
{
	(void)state;
	fixture_check("nsys/nsys-ai/mfu_2gpu_before.sqlite");
}

static void
test_kineto_nccl(void **state)
{
	(void)state;
	fixture_check("kineto/hta/nccl_parser_config__nccl_data.json.gz");
}

/*
 * ktop_add() finds a known name inline and adds a new one through
 * ktop_item_of(), which grows the index and may move the items: names
 * in a scattered order, new ones between known ones, must land on the
 * counts and totals a plain per-name array gives. Sorted, the items go
 * most time first (ties by name id) and the index still finds them.
 */
static void
test_ktop_add(void **state)
{
	struct ktop	 k, h;
	uint64_t	 cnt[600] = { 0 };
	int64_t		 tot[600] = { 0 }, all = 0, dur;
	uint32_t	 name;
	size_t		 i, seen = 0;

	(void)state;
	ktop_init(&k);
	ktop_init(&h);
	for (i = 0; i < 20000; i++) {
		name = (uint32_t)((i * 7919u + (i / 3) * 131u) % 600u);
		dur = (int64_t)(i % 97) + 1;
		if (cnt[name] == 0)
			seen++;
		cnt[name]++;
		tot[name] += dur;
		all += dur;
		ktop_add(i % 2 ? &k : &h, name, dur);
	}
	ktop_merge(&k, &h);
	assert_int_equal(k.n, seen);
	assert_int_equal(k.total, all);
	for (i = 0; i < k.n; i++) {
		assert_int_equal(k.v[i].count, cnt[k.v[i].name]);
		assert_int_equal(k.v[i].total, tot[k.v[i].name]);
	}
	ktop_sort(&k);
	for (i = 1; i < k.n; i++)
		assert_true(k.v[i - 1].total > k.v[i].total ||
		    (k.v[i - 1].total == k.v[i].total &&
		    k.v[i - 1].name < k.v[i].name));
	/* Added after the sort: to the item the index finds. */
	name = k.v[k.n - 1].name;
	ktop_add(&k, name, 5);
	assert_int_equal(k.n, seen);
	assert_int_equal(k.v[k.n - 1].total, tot[name] + 5);
	ktop_free(&k);
	ktop_free(&h);
}

static int
setup(void **state)
{
	(void)state;
	return ts_tmp_init_cache();
}

TS_MAIN(setup, ts_tmp_teardown,
	cmocka_unit_test(test_by_hand),
	cmocka_unit_test(test_empty),
	cmocka_unit_test(test_nsys_2gpu),
	cmocka_unit_test(test_kineto_nccl),
	cmocka_unit_test(test_ktop_add)
)
