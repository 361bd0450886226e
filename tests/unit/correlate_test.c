/*
 * correlate_test: API call <-> GPU work links on hand-built models (two
 * processes reusing ids, a graph launch, unknown-process streams, runtime
 * versus driver duplicates), a random model against a quadratic brute
 * force, and the real nsys fixtures when GPULENS_FIXTURES is set.
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
#include <sqlite3.h>

#include "model/builder.h"
#include "model/correlate.h"
#include "model/event.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"

/*
 * Processes P1 and P2 both use correlation ids 1 and 2, on streams with the
 * same source id (7) of one device. P1 also has a graph launch (id 3) whose
 * kernels run on two streams, and an id (9) used by no other process. A
 * stream of unknown process carries ids 9 (unique: links) and 1 (in both
 * processes: must not link). P2 has a driver call and a runtime call with
 * the same id 5 (the runtime call wins).
 */
static struct model *
build_two_procs(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p1, p2, t1, t2, a1, a2;
	uint32_t	 g1, g1b, g2, gu;

	ts_device(b, 0);
	p1 = builder_process(b, 0x100ULL << 24, 0x100, "p1");
	p2 = builder_process(b, 0x200ULL << 24, 0x200, "p2");
	t1 = builder_thread(b, 0x100ULL << 24 | 1, 1, p1, "t1");
	t2 = builder_thread(b, 0x200ULL << 24 | 1, 1, p2, "t2");
	a1 = builder_cpu_track(b, TRACK_API, t1, 0);
	a2 = builder_cpu_track(b, TRACK_API, t2, 0);
	g1 = ts_stream(b, 0, 7, p1);
	g1b = ts_stream(b, 0, 8, p1);
	g2 = ts_stream(b, 0, 7, p2);
	gu = ts_stream(b, 0, 99, NONE32);

	ts_add_cf(b, a1, "launch1", EV_API, 0, 10, 1, 0);
	ts_add_cf(b, a1, "launch2", EV_API, 20, 30, 2, 0);
	ts_add_cf(b, a1, "graphLaunch", EV_API, 40, 50, 3, 0);
	ts_add_cf(b, a1, "launch9", EV_API, 60, 70, 9, 0);
	ts_add_cf(b, a1, "nocorr", EV_API, 80, 90, 0, 0);
	ts_add_cf(b, a2, "launch1", EV_API, 5, 8, 1, 0);
	ts_add_cf(b, a2, "launch2", EV_API, 25, 28, 2, 0);
	ts_add_cf(b, a2, "cuLaunchKernel", EV_API, 100, 120, 5, EVF_DRIVER);
	ts_add_cf(b, a2, "cudaLaunchKernel", EV_API, 101, 119, 5, 0);

	ts_add_cf(b, g1, "k1", EV_KERNEL, 15, 25, 1, 0);
	ts_add_cf(b, g1, "k2", EV_KERNEL, 35, 45, 2, 0);
	ts_add_cf(b, g2, "k1", EV_KERNEL, 9, 12, 1, 0);
	ts_add_cf(b, g2, "k2", EV_MEMCPY, 30, 31, 2, 0);
	/* Graph launch: the graph event and three kernels on two streams,
	 * pushed out of start order. */
	ts_add_cf(b, g1, "gk2", EV_KERNEL, 70, 80, 3, 0);
	ts_add_cf(b, g1b, "gk3", EV_KERNEL, 65, 75, 3, 0);
	ts_add_cf(b, g1, "gk1", EV_KERNEL, 55, 70, 3, 0);
	ts_add_cf(b, g1b, "graph", EV_GRAPH, 52, 60, 3, 0);
	ts_add_cf(b, g1, "sync", EV_SYNC, 90, 95, 0, 0);
	ts_add_cf(b, g1, "overhead", EV_OVERHEAD, 96, 97, 2, 0);
	ts_add_cf(b, gu, "ku9", EV_KERNEL, 71, 72, 9, 0);
	ts_add_cf(b, gu, "ku1", EV_KERNEL, 73, 74, 1, 0);
	ts_add_cf(b, gu, "ku42", EV_KERNEL, 75, 76, 42, 0);
	ts_add_cf(b, g2, "k5", EV_KERNEL, 125, 130, 5, 0);
	return ts_finish(b);
}

/*
 * model_track_next() visits the tracks of one type, in order, and only
 * them (a scan of every track says which); event_track() is the track
 * that holds each event, for every event of the model.
 */
static void
test_track_walks(void **state)
{
	static const int	 types[] = { TRACK_API, TRACK_GPU, TRACK_NVTX };
	static const size_t	 count[] = { 2, 4, 0 };	/* build_two_procs() */
	struct model		*m = build_two_procs();
	const struct track	*tr;
	size_t			 t, k, want, seen;
	uint32_t		 i;

	(void)state;
	for (k = 0; k < sizeof types / sizeof *types; k++) {
		want = 0;
		for (t = 0; t < m->ntracks; t++)
			want += (int)m->tracks[t].type == types[k];
		seen = 0;
		for (t = 0; (tr = model_track_next(m, types[k], &t)) != NULL;
		    t++) {
			assert_ptr_equal(tr, &m->tracks[t]);
			assert_int_equal(tr->type, types[k]);
			seen++;
		}
		assert_int_equal(t, m->ntracks);
		assert_int_equal(seen, want);
		assert_int_equal(seen, count[k]);
	}
	for (t = 0; t < m->ntracks; t++)
		for (i = 0; i < m->tracks[t].lane.n; i++)
			assert_ptr_equal(event_track(m,
			    model_gid(m, (uint32_t)t, i)), &m->tracks[t]);
	model_free(m);
}

static void
test_processes_do_not_cross(void **state)
{
	struct model	*m = build_two_procs();
	uint32_t	 p1l1, p2l1, p1l2, p2l2;
	const uint32_t	*g;
	int64_t		 lat;

	(void)state;
	p1l1 = ts_find_ev(m, "launch1", 0);
	p2l1 = ts_find_ev(m, "launch1", 5);
	p1l2 = ts_find_ev(m, "launch2", 20);
	p2l2 = ts_find_ev(m, "launch2", 25);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "k1", 15)), p1l1);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "k1", 9)), p2l1);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "k2", 35)), p1l2);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "k2", 30)), p2l2);
	assert_int_equal(correlate_gpu(m, p1l1, &g), 1);
	assert_int_equal(g[0], ts_find_ev(m, "k1", 15));
	assert_int_equal(correlate_gpu(m, p2l2, &g), 1);
	assert_int_equal(g[0], ts_find_ev(m, "k2", 30));
	/* Latency = GPU start - API end, negative allowed. */
	assert_int_equal(correlate_latency(m, ts_find_ev(m, "k1", 15), &lat),
	    0);
	assert_int_equal(lat, 5);
	assert_int_equal(correlate_latency(m, ts_find_ev(m, "k1", 9), &lat), 0);
	assert_int_equal(lat, 1);
	assert_int_equal(correlate_latency(m, ts_find_ev(m, "k2", 30), &lat),
	    0);
	assert_int_equal(lat, 2);
	/* No id, or a kind that is not GPU work: no link. */
	lat = 1234;
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "sync", 90)),
	    NONE32);
	assert_int_equal(correlate_latency(m, ts_find_ev(m, "sync", 90), &lat),
	    -1);
	assert_int_equal(lat, 1234);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "overhead", 96)),
	    NONE32);
	assert_int_equal(correlate_gpu(m, ts_find_ev(m, "nocorr", 80), &g), 0);
	assert_null(g);
	/* API events themselves have no launch; out of range ids neither. */
	assert_int_equal(correlate_launch(m, p1l1), NONE32);
	assert_int_equal(correlate_launch(m, (uint32_t)m->nevents), NONE32);
	assert_int_equal(correlate_gpu(m, ts_find_ev(m, "k1", 15), &g), 0);
	model_free(m);
}

static void
test_graph_launch(void **state)
{
	struct model	*m = build_two_procs();
	uint32_t	 api;
	const uint32_t	*g;

	(void)state;
	api = ts_find_ev(m, "graphLaunch", 40);
	assert_int_equal(correlate_gpu(m, api, &g), 4);
	/* Ordered by GPU start across both streams. */
	assert_int_equal(g[0], ts_find_ev(m, "graph", 52));
	assert_int_equal(g[1], ts_find_ev(m, "gk1", 55));
	assert_int_equal(g[2], ts_find_ev(m, "gk3", 65));
	assert_int_equal(g[3], ts_find_ev(m, "gk2", 70));
	assert_int_equal(correlate_launch(m, g[2]), api);
	assert_int_equal(correlate_launch(m, g[0]), api);
	model_free(m);
}

static void
test_unknown_process_and_driver(void **state)
{
	struct model	*m = build_two_procs();
	const uint32_t	*g;
	uint32_t	 rt;

	(void)state;
	/* Id 9 is used by P1 only: linked by the id alone. */
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "ku9", 71)),
	    ts_find_ev(m, "launch9", 60));
	/* Id 1 is used by both processes: ambiguous, not linked. */
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "ku1", 73)), NONE32);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "ku42", 75)),
	    NONE32);
	assert_int_equal(correlate_gpu(m, ts_find_ev(m, "launch9", 60), &g), 1);
	assert_int_equal(g[0], ts_find_ev(m, "ku9", 71));
	/* Runtime call preferred over the driver call with the same id. */
	rt = ts_find_ev(m, "cudaLaunchKernel", 101);
	assert_int_equal(correlate_launch(m, ts_find_ev(m, "k5", 125)), rt);
	assert_int_equal(correlate_gpu(m, ts_find_ev(m, "cuLaunchKernel", 100),
	    &g), 0);
	model_free(m);
}

static void
test_csr_shape_and_rebuild(void **state)
{
	struct model	*m = build_two_procs();
	uint32_t	*launch, *gpu, *idx, a, prev = 0;
	size_t		 i, nl, ni, ngroups;

	(void)state;
	/* launch1 x2, launch2 x2, graphLaunch, launch9, cudaLaunchKernel:
	 * seven calls, their GPU work grouped by call, calls ascending. */
	nl = m->ngpu_of_api;
	assert_int_equal(nl, 2 + 2 + 4 + 1 + 1);
	for (ngroups = 0, i = 0; i < nl; i++) {
		assert_true(m->gpu_of_api[i] < m->nlaunch);
		a = m->launch[m->gpu_of_api[i]];
		assert_true(a != NONE32);
		if (i > 0)
			assert_true(prev <= a);
		if (i == 0 || a != prev)
			ngroups++;
		prev = a;
	}
	assert_int_equal(ngroups, 7);
	/* launch covers the GPU tracks, which come first. */
	for (i = 0; i < m->ntracks; i++)
		if (m->tracks[i].type == TRACK_GPU)
			assert_true(m->track_off[i + 1] <= m->nlaunch);
	/* Rebuilding gives identical arrays (and frees the old ones). */
	ni = (nl + CORR_IDX_STEP - 1) / CORR_IDX_STEP;
	launch = malloc(m->nlaunch * sizeof *launch);
	gpu = malloc(nl * sizeof *gpu);
	idx = malloc(ni * sizeof *idx);
	memcpy(launch, m->launch, m->nlaunch * sizeof *launch);
	memcpy(gpu, m->gpu_of_api, nl * sizeof *gpu);
	memcpy(idx, m->gpu_of_api_idx, ni * sizeof *idx);
	correlate_build(m);
	assert_int_equal(m->ngpu_of_api, nl);
	assert_memory_equal(launch, m->launch, m->nlaunch * sizeof *launch);
	assert_memory_equal(gpu, m->gpu_of_api, nl * sizeof *gpu);
	assert_memory_equal(idx, m->gpu_of_api_idx, ni * sizeof *idx);
	free(launch);
	free(gpu);
	free(idx);
	model_free(m);
}

/*
 * Process 1, thread 1: cudaMalloc [0, 10) with correlation id api_corr;
 * kernel k [20, 30) with id gpu_corr on stream 1 of device 0, owned by
 * process 1 if owned.
 */
static struct model *
build_one_call(uint32_t api_corr, uint32_t gpu_corr, int owned)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, t, a, g;

	memset(&dev, 0, sizeof dev);
	builder_device(b, &dev);
	p = builder_process(b, 1, 1, "p");
	t = builder_thread(b, 1 << 24 | 1, 1, p, "t");
	a = builder_cpu_track(b, TRACK_API, t, 0);
	g = ts_stream(b, 0, 1, owned ? p : NONE32);
	ts_add_cf(b, a, "cudaMalloc", EV_API, 0, 10, api_corr, 0);
	ts_add_cf(b, g, "k", EV_KERNEL, 20, 30, gpu_corr, 0);
	return ts_finish(b);
}

static void
test_nothing_correlates(void **state)
{
	struct model	*m;
	const uint32_t	*out;
	int64_t		 lat;

	(void)state;
	m = build_one_call(1, 2, 1);
	assert_null(m->launch);
	assert_null(m->gpu_of_api);
	assert_null(m->gpu_of_api_idx);
	assert_int_equal(m->ngpu_of_api, 0);
	assert_int_equal(correlate_launch(m, 1), NONE32);
	assert_int_equal(correlate_latency(m, 1, &lat), -1);
	assert_int_equal(correlate_gpu(m, 0, &out), 0);
	assert_null(out);
	model_free(m);

	/* GPU work with ids, but no API call has one. */
	m = build_one_call(0, 1, 0);
	assert_null(m->launch);
	assert_int_equal(m->ngpu_of_api, 0);
	assert_int_equal(correlate_launch(m, 1), NONE32);
	model_free(m);

	/* Empty model. */
	m = ts_finish(builder_new(SOURCE_NSYS));
	assert_null(m->launch);
	assert_int_equal(correlate_launch(m, 0), NONE32);
	model_free(m);
}

/* Random model: every link against a quadratic search. */
static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static void
random_against_brute_force(uint32_t mult)
{
	struct builder		*b = builder_new(SOURCE_NSYS);
	struct device		 dev;
	struct model		*m;
	uint32_t		 procs[3], thr[6], api[6], gt[6];
	const struct track	*tr, *ta;
	const uint32_t		*out;
	size_t			 i, j, t, u, n, nlinks = 0, nk;
	uint32_t		 want, got, gid, agid, *cnt;
	int64_t			 ts[6] = { 0 }, prev;
	static const int	 gk[] = { EV_KERNEL, EV_MEMCPY, EV_MEMSET,
	    EV_SYNC, EV_GRAPH, EV_OVERHEAD };

	memset(&dev, 0, sizeof dev);
	builder_device(b, &dev);
	for (i = 0; i < 3; i++)
		procs[i] = builder_process(b, (uint64_t)(i + 1) << 24,
		    (uint32_t)i + 1, "p");
	for (i = 0; i < 6; i++) {
		thr[i] = builder_thread(b, (uint64_t)(i / 2 + 1) << 24 | i,
		    (uint32_t)i, procs[i / 2], "t");
		api[i] = builder_cpu_track(b, TRACK_API, thr[i], 0);
		/* Streams: two per process, the last of unknown process. */
		gt[i] = ts_stream(b, 0, i, i == 5 ? NONE32 : procs[i / 2]);
	}
	/* Ids drawn from a small range so that they repeat across
	 * processes and, rarely, within one. */
	for (i = 0; i < 3000; i++) {
		u = ts_rand(&rng_state, 6);
		ts_add_cf(b, api[u], "api", EV_API, ts[u], ts[u] + 5,
		    (uint32_t)ts_rand(&rng_state, 400) * mult,
		    (ts_rand(&rng_state, 5) == 0) ? EVF_DRIVER : 0);
		ts[u] += 10;
	}
	memset(ts, 0, sizeof ts);
	for (i = 0; i < 3000; i++) {
		u = ts_rand(&rng_state, 6);
		ts_add_cf(b, gt[u], "gpu", gk[ts_rand(&rng_state, 6)], ts[u],
		    ts[u] + 3, (uint32_t)ts_rand(&rng_state, 450) * mult, 0);
		ts[u] += 4;
	}
	m = ts_finish(b);

	cnt = calloc(m->nevents, sizeof *cnt);
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		for (i = 0; i < tr->lane.n; i++) {
			gid = model_gid(m, (uint32_t)t, (uint32_t)i);
			want = NONE32;
			if (tr->type == TRACK_GPU && tr->lane.corr[i] != 0 &&
			    tr->lane.kind[i] != EV_OVERHEAD) {
				/* Best match per process: runtime before
				 * driver, then first in track order. */
				uint32_t best[3] = { NONE32, NONE32, NONE32 };
				int bestdrv[3] = { 0, 0, 0 };
				size_t np;

				for (u = 0; u < m->ntracks; u++) {
					ta = &m->tracks[u];
					if (ta->type != TRACK_API)
						continue;
					for (j = 0; j < ta->lane.n; j++) {
						int drv;
						if (ta->lane.corr[j] !=
						    tr->lane.corr[i])
							continue;
						drv = ta->lane.flags[j] &
						    EVF_DRIVER ? 1 : 0;
						if (best[ta->process] ==
						    NONE32 || (bestdrv[
						    ta->process] && !drv)) {
							best[ta->process] =
							    model_gid(m,
							    (uint32_t)u,
							    (uint32_t)j);
							bestdrv[ta->process] =
							    drv;
						}
					}
				}
				if (tr->process != NONE32)
					want = best[tr->process];
				else {
					for (np = 0, u = 0; u < 3; u++)
						if (best[u] != NONE32) {
							np++;
							want = best[u];
						}
					if (np != 1)
						want = NONE32;
				}
			}
			got = correlate_launch(m, gid);
			assert_int_equal(got, want);
			if (want != NONE32) {
				cnt[want]++;
				nlinks++;
			}
		}
	}
	assert_true(nlinks > 1000);
	/* The CSR is the exact inverse, each list ordered by start. */
	for (nk = 0, agid = 0; agid < m->nevents; agid++) {
		n = correlate_gpu(m, agid, &out);
		assert_int_equal(n, cnt[agid]);
		if (n > 0)
			nk++;
		prev = INT64_MIN;
		for (j = 0; j < n; j++) {
			assert_int_equal(correlate_launch(m, out[j]), agid);
			assert_true(model_ev_start(m, out[j]) >= prev);
			prev = model_ev_start(m, out[j]);
		}
	}
	/* As many calls with GPU work as groups in gpu_of_api. */
	for (n = 0, j = 0; j < m->ngpu_of_api; j++)
		if (j == 0 || m->launch[m->gpu_of_api[j]] !=
		    m->launch[m->gpu_of_api[j - 1]])
			n++;
	assert_int_equal(nk, n);
	free(cnt);
	model_free(m);
}

/* Dense ids (array groups) and sparse ones (hash groups). */
static void
test_random_against_brute_force(void **state)
{
	(void)state;
	random_against_brute_force(1);
	random_against_brute_force(10007);
}

static long long
sql_count_linked(sqlite3 *db, const char *table)
{
	if (!ts_sql_has_table(db, table))
		return 0;
	return ts_sqlf(db, "SELECT count(*) FROM %s k WHERE EXISTS "
	    "(SELECT 1 FROM temp.rt r WHERE r.corr = k.correlationId AND "
	    "r.pid = k.globalPid)", table);
}

static void
check_fixture(const char *rel)
{
	struct model		*m;
	sqlite3			*db;
	const struct track	*tr;
	char			*path;
	size_t			 t, i, linked[EV_KIND_COUNT];
	uint32_t		 gid, api;
	struct evref		 r;
	int64_t			 lat;

	if ((path = ts_fixture(rel)) == NULL) {
		print_message("# skipping %s: GPULENS_FIXTURES unset or file "
		    "missing\n", rel);
		return;
	}
	m = ts_load(nsys_load, path);
	memset(linked, 0, sizeof linked);
	for (t = 0; t < m->ntracks; t++) {
		tr = &m->tracks[t];
		if (tr->type != TRACK_GPU)
			continue;
		for (i = 0; i < tr->lane.n; i++) {
			gid = model_gid(m, (uint32_t)t, (uint32_t)i);
			if ((api = correlate_launch(m, gid)) == NONE32)
				continue;
			linked[tr->lane.kind[i]]++;
			r = model_ev(m, api);
			assert_int_equal(m->tracks[r.track].type, TRACK_API);
			assert_int_equal(m->tracks[r.track].lane.corr[r.idx],
			    tr->lane.corr[i]);
			if (tr->process != NONE32)
				assert_int_equal(m->tracks[r.track].process,
				    tr->process);
			assert_int_equal(correlate_latency(m, gid, &lat), 0);
			assert_int_equal(lat, tr->lane.start[i] -
			    m->tracks[r.track].lane.end[r.idx]);
		}
	}
	db = ts_sql_open_ro(path);
	assert_int_equal(sqlite3_exec(db, "CREATE TEMP TABLE rt AS SELECT "
	    "correlationId AS corr, globalTid & 0xFFFFFFFFFF000000 AS pid "
	    "FROM CUPTI_ACTIVITY_KIND_RUNTIME; CREATE INDEX temp.rt_i ON "
	    "rt(corr, pid)", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(linked[EV_KERNEL],
	    sql_count_linked(db, "CUPTI_ACTIVITY_KIND_KERNEL"));
	assert_int_equal(linked[EV_MEMCPY],
	    sql_count_linked(db, "CUPTI_ACTIVITY_KIND_MEMCPY"));
	assert_int_equal(linked[EV_MEMSET],
	    sql_count_linked(db, "CUPTI_ACTIVITY_KIND_MEMSET"));
	assert_true(linked[EV_KERNEL] > 0);
	sqlite3_close(db);
	model_free(m);
	free(path);
}

static void
test_fixtures(void **state)
{
	(void)state;
	ts_need_fixture("nsys/nsys-ai/mfu_2gpu_before.sqlite");
	/* Two processes on two GPUs. */
	check_fixture("nsys/nsys-ai/mfu_2gpu_before.sqlite");
	/* Duplicate runtime records per correlation id (2022 MPI capture). */
	check_fixture("nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
	/* Old schema (2021.2). */
	check_fixture("nsys/mordred/report1.sqlite");
	check_fixture("nsys/nsightful/power_iteration__baseline.sqlite");
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_track_walks),
	cmocka_unit_test(test_processes_do_not_cross),
	cmocka_unit_test(test_graph_launch),
	cmocka_unit_test(test_unknown_process_and_driver),
	cmocka_unit_test(test_csr_shape_and_rebuild),
	cmocka_unit_test(test_nothing_correlates),
	cmocka_unit_test(test_random_against_brute_force),
	cmocka_unit_test(test_fixtures))
