/*
 * verbs_events_test: the event-level verbs (search, inspect, correlate,
 * launch, memcpy, comm, hardware, export) on hand-built models with known
 * answers: filter combinations give exact ids, a kernel shows its launch
 * call and latency, a missing id is not_found, launch statistics over known
 * latencies (a negative queue delay left out), exact copy bandwidth, NCCL
 * collective names in the styles real traces use, and a Perfetto export
 * that parses with the expected events, times and flows.
 *
 * Each verb's computation is called directly with options parsed from a
 * fake argv; out_emit() runs with stdout redirected to a temporary file so
 * that the rows are checked after sorting and paging, as users see them.
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

#include <cjson/cJSON.h>

#include "analysis/comm.h"
#include "model/builder.h"
#include "headless/cmd-events.h"
#include "headless/cmd.h"
#include "headless/evrow.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "tsupport.h"

extern const struct cmd_entry	cmd_search_entry;
extern const struct cmd_entry	cmd_inspect_entry;
extern const struct cmd_entry	cmd_correlate_entry;
extern const struct cmd_entry	cmd_launch_entry;
extern const struct cmd_entry	cmd_memcpy_entry;
extern const struct cmd_entry	cmd_comm_entry;
extern const struct cmd_entry	cmd_hardware_entry;
extern const struct cmd_entry	cmd_export_entry;

typedef int (*run_fn)(const struct model *, const struct opts *,
    struct out *, const char **, char **);

/* ---- model building ------------------------------------------------ */

static uint32_t
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr, uint8_t flags, uint32_t aux)
{
	struct lane_event	e = ts_event_cf(b, name, kind, start, end, corr,
				    flags);
	struct nvtx_info	ni;

	e.rowid = 1000 + start;
	e.aux = aux;
	if ((kind == EV_NVTX || kind == EV_MARK) && aux == NONE32) {
		memset(&ni, 0, sizeof ni);
		ni.domain = b->m->tracks[track].domain;
		ni.color = 0xff00ff00;
		ni.payload_type = NVTX_PAYLOAD_INT;
		ni.payload.i = -7;
		e.aux = builder_nvtx(b, &ni);
	}
	builder_event(b, track, &e);
	return e.aux;
}

static uint32_t
kernel(struct builder *b, uint32_t gx, uint32_t bx)
{
	struct kernel_info	k;

	memset(&k, 0, sizeof k);
	k.grid[0] = gx;
	k.grid[1] = k.grid[2] = 1;
	k.block[0] = bx;
	k.block[1] = k.block[2] = 1;
	k.regs = 32;
	k.static_smem = 1024;
	return builder_kernel(b, &k);
}

/*
 * The main model (absolute times; the origin is -50, so relative times are
 * absolute + 50):
 *   GPU 0 (1e12 B/s peak), stream 7; GPU 1, stream 9; process 100, thread
 *   101 "main" with an API track and an NVTX track (default domain);
 *   NVTX: step [0,1000) > fwd [10,500); a start/end range se [400,700)
 *     (overlaps fwd partially); open [950, trace end) never closed;
 *   API: cudaFree [-50,-40) (before time zero, no GPU work);
 *     cudaLaunchKernel_v7000 [20,30) -> kA on s7 [40,100) grid 4 block 128
 *     cudaLaunchKernel_v7000 [50,60) -> kB on s7 [55,58) (starts before its
 *       call returns: queue -5; shorter than its call)
 *     cudaMemcpyAsync_v3020 [600,610) -> h2d copy on s7 [620,720), 1000 B
 *     cudaLaunchKernel_v7000 [700,705) -> kC on GPU 1 s9 [710,730)
 *   a d2d copy on s7 [800,900), 50000 B, launched by nothing.
 */
static struct model *
build_main(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, th, api, nv, s7, s9, g7, g9;

	memset(&dev, 0, sizeof dev);
	dev.source_id = 0;
	dev.process = NONE32;
	dev.name = builder_intern(b, "GPU-A");
	dev.mem_bw = 1000000000000LL;
	dev.sm_count = 132;
	dev.cc_major = 9;
	dev.total_mem = 80LL << 30;
	builder_device(b, &dev);
	dev.source_id = 1;
	dev.name = builder_intern(b, "GPU-B");
	dev.mem_bw = 0;
	dev.cc_major = 0;
	builder_device(b, &dev);
	builder_meta(b, "Hostname", "node1");
	builder_meta(b, "CpuCores", "48");
	th = ts_nsys_thread(b, 100, 101, &p);
	api = builder_cpu_track(b, TRACK_API, th, 0);
	nv = builder_cpu_track(b, TRACK_NVTX, th, 0);
	s7 = builder_stream(b, 0, 7, p);
	s9 = builder_stream(b, 1, 9, p);
	g7 = builder_gpu_track(b, s7);
	g9 = builder_gpu_track(b, s9);

	add(b, nv, "step", EV_NVTX, 0, 1000, 0, 0, NONE32);
	add(b, nv, "fwd", EV_NVTX, 10, 500, 0, 0, NONE32);
	add(b, nv, "se", EV_NVTX, 400, 700, 0, EVF_STARTEND, NONE32);
	add(b, nv, "open", EV_NVTX, 950, 0, 0, EVF_OPEN, NONE32);

	add(b, api, "cudaFree", EV_API, -50, -40, 0, 0, NONE32);
	add(b, api, "cudaLaunchKernel_v7000", EV_API, 20, 30, 1, 0, NONE32);
	add(b, api, "cudaLaunchKernel_v7000", EV_API, 50, 60, 2, 0, NONE32);
	add(b, api, "cudaMemcpyAsync_v3020", EV_API, 600, 610, 3, 0, NONE32);
	add(b, api, "cudaLaunchKernel_v7000", EV_API, 700, 705, 4, 0, NONE32);

	add(b, g7, "kA", EV_KERNEL, 40, 100, 1, 0, kernel(b, 4, 128));
	add(b, g7, "kB", EV_KERNEL, 55, 58, 2, 0, kernel(b, 1, 32));
	add(b, g7, "[CUDA memcpy Host-to-Device]", EV_MEMCPY, 620, 720, 3, 0,
	    ts_copy(b, COPY_HTOD, MEM_PAGEABLE, MEM_DEVICE, 1000));
	add(b, g9, "kC", EV_KERNEL, 710, 730, 4, 0, kernel(b, 2, 64));
	add(b, g7, "[CUDA memcpy Device-to-Device]", EV_MEMCPY, 800, 900, 0,
	    0, ts_copy(b, COPY_DTOD, MEM_DEVICE, MEM_DEVICE, 50000));
	return ts_finish(b);
}

/* ---- running verbs ------------------------------------------------- */


/* Splits line at spaces into argv (argv[0] = verb); caller frees. */
static char **
split(const char *verb, const char *line, int *argc)
{
	char	**argv = calloc(64, sizeof *argv), *copy, *tok, *save = NULL;
	int	  n = 0;

	argv[n++] = strdup(verb);
	copy = strdup(line);
	for (tok = strtok_r(copy, " ", &save); tok != NULL && n < 63;
	    tok = strtok_r(NULL, " ", &save))
		argv[n++] = strdup(tok);
	free(copy);
	*argc = n;
	return argv;
}

static void
free_argv(char **argv, int argc)
{
	int	i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/*
 * Runs verb on m with the options in line ("TRACE" first, as users type
 * it). Returns the parsed envelope, or NULL with *code set when the verb
 * reported an error.
 */
static cJSON *
verb(const struct model *m, const struct cmd_entry *e, run_fn fn,
    const char *line, const char **code)
{
	struct opts	 o;
	struct out	 out;
	char		**argv, *cause = NULL;
	int		  argc;
	cJSON		 *env = NULL;

	argv = split(e->name, line, &argc);
	ts_opts_out(&o, e->options, argc, argv, &out, e->name);
	*code = NULL;
	if (fn(m, &o, &out, code, &cause) == 0)
		env = ts_emit_json(&out, m, "test.sqlite");
	else {
		assert_non_null(*code);
		assert_non_null(cause);
	}
	free(cause);
	out_free(&out);
	opts_free(&o);
	free_argv(argv, argc);
	return env;
}

static cJSON *
rows_of(cJSON *env)
{
	cJSON	*rows;

	rows = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(env, "data"), "rows");
	assert_non_null(rows);
	return rows;
}

/* The row whose key is key, or fail. */
static const cJSON *
row_by_key(cJSON *env, const char *key)
{
	return ts_jrow(rows_of(env), key);
}

/* Checks that the search rows are exactly these gids, in this order. */
static void
expect_ids(cJSON *env, const uint32_t *ids, size_t n)
{
	const cJSON	*r;
	size_t		 i = 0;

	assert_int_equal(cJSON_GetArraySize(rows_of(env)), (int)n);
	cJSON_ArrayForEach(r, rows_of(env)) {
		assert_int_equal((uint32_t)ts_jdouble(r, "id"), ids[i]);
		i++;
	}
}

static cJSON *
search(const struct model *m, const char *line)
{
	const char	*code;
	cJSON		*env;

	env = verb(m, &cmd_search_entry, cmd_search_run, line, &code);
	assert_non_null(env);
	return env;
}

/* ---- search -------------------------------------------------------- */

static void
test_search_filters(void **state)
{
	struct model	*m = build_main();
	cJSON		*env;
	const cJSON	*r;
	uint32_t	 kA, kB, kC, h2d, d2d, fr, l20, l50, m600, l700, step,
			 fwd, se, open;

	(void)state;
	kA = ts_find_ev(m, "kA", 40);
	kB = ts_find_ev(m, "kB", 55);
	kC = ts_find_ev(m, "kC", 710);
	h2d = ts_find_ev(m, "[CUDA memcpy Host-to-Device]", 620);
	d2d = ts_find_ev(m, "[CUDA memcpy Device-to-Device]", 800);
	fr = ts_find_ev(m, "cudaFree", -50);
	l20 = ts_find_ev(m, "cudaLaunchKernel_v7000", 20);
	l50 = ts_find_ev(m, "cudaLaunchKernel_v7000", 50);
	m600 = ts_find_ev(m, "cudaMemcpyAsync_v3020", 600);
	l700 = ts_find_ev(m, "cudaLaunchKernel_v7000", 700);
	step = ts_find_ev(m, "step", 0);
	fwd = ts_find_ev(m, "fwd", 10);
	se = ts_find_ev(m, "se", 400);
	open = ts_find_ev(m, "open", 950);

	/* Everything, in start order (ties: longer first is not a rule of
	 * search; none here). */
	env = search(m, "t.sqlite --limit 0");
	{
		uint32_t all[] = { fr, step, fwd, l20, kA, l50, kB, se, m600,
		    h2d, l700, kC, d2d, open };
		expect_ids(env, all, sizeof all / sizeof all[0]);
	}
	/* Times relative to the origin (-50); cudaFree starts at 0. */
	{
		char key[32];
		snprintf(key, sizeof key, "ev|id=%u", kA);
		r = row_by_key(env, key);
		ts_jrow_is(r, "start_ns=90 duration_ns=60 end_ns=150 device=0 "
		    "stream=7 pid=100 tid=101 source_rowid=1040");
		assert_string_equal(ts_jstr(r, "kind"), "kernel");
		assert_int_equal(cJSON_GetArrayItem(
		    cJSON_GetObjectItemCaseSensitive(r, "grid"), 0)->valueint,
		    4);
		assert_int_equal(cJSON_GetArrayItem(
		    cJSON_GetObjectItemCaseSensitive(r, "block"), 0)->valueint,
		    128);
		snprintf(key, sizeof key, "ev|id=%u", h2d);
		r = row_by_key(env, key);
		ts_jrow_is(r, "bytes=1000");
		assert_string_equal(ts_jstr(r, "copy_kind"), "h2d");
		snprintf(key, sizeof key, "ev|id=%u", fr);
		r = row_by_key(env, key);
		ts_jrow_is(r, "start_ns=0 device=null stream=null");
		/* The open range ends at the trace end (1000). */
		snprintf(key, sizeof key, "ev|id=%u", open);
		r = row_by_key(env, key);
		ts_jrow_is(r, "end_ns=1050");
	}
	cJSON_Delete(env);

	env = search(m, "t.sqlite --type kernel");
	{
		uint32_t ids[] = { kA, kB, kC };
		expect_ids(env, ids, 3);
	}
	cJSON_Delete(env);
	env = search(m, "t.sqlite --type kernel --device 0");
	{
		uint32_t ids[] = { kA, kB };
		expect_ids(env, ids, 2);
	}
	cJSON_Delete(env);
	env = search(m, "t.sqlite --name k* --min-dur 10");
	{
		uint32_t ids[] = { kA, kC };
		expect_ids(env, ids, 2);
	}
	cJSON_Delete(env);
	/* --tid keeps GPU work launched from the thread. */
	env = search(m, "t.sqlite --type kernel --tid 101");
	{
		uint32_t ids[] = { kA, kB, kC };
		expect_ids(env, ids, 3);
	}
	cJSON_Delete(env);
	/* Absolute window [600, 700): overlapping events. */
	env = search(m, "t.sqlite --from @600 --to @700");
	{
		uint32_t ids[] = { step, se, m600, h2d };
		expect_ids(env, ids, 4);
	}
	cJSON_Delete(env);
	/* The same window relative to the origin. */
	env = search(m, "t.sqlite --from 650 --to 750");
	{
		uint32_t ids[] = { step, se, m600, h2d };
		expect_ids(env, ids, 4);
	}
	cJSON_Delete(env);
	/* API calls from time zero on (cudaFree lies before it). */
	env = search(m, "t.sqlite --type api --from @0");
	{
		uint32_t ids[] = { l20, l50, m600, l700 };
		expect_ids(env, ids, 4);
	}
	cJSON_Delete(env);
	/* --nvtx fwd: the process's events overlapping [10,500). */
	env = search(m, "t.sqlite --nvtx fwd --type kernel");
	{
		uint32_t ids[] = { kA, kB };
		expect_ids(env, ids, 2);
	}
	cJSON_Delete(env);
	/* Regex, sort and paging. */
	env = search(m, "t.sqlite --name-regex ^cuda(Launch|Memcpy) "
	    "--sort duration_ns:desc --limit 2");
	{
		uint32_t ids[] = { l20, l50 };	/* 10 ns each; key order */
		expect_ids(env, ids, 2);
		assert_int_equal(ts_jdouble(
		    cJSON_GetObjectItemCaseSensitive(env, "data"),
		    "total_matched"), 4);
	}
	cJSON_Delete(env);
	/* Nothing: empty rows and a warning, not an error. */
	env = search(m, "t.sqlite --name nothing*");
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 0);
	assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(env, "meta"), "warnings")) > 0);
	cJSON_Delete(env);
	(void)l700;
	(void)d2d;
	model_free(m);
}

static void
test_search_bad_device(void **state)
{
	struct model	*m = build_main();
	const char	*code;

	(void)state;
	assert_null(verb(m, &cmd_search_entry, cmd_search_run,
	    "t.sqlite --device 5", &code));
	assert_string_equal(code, "usage");
	model_free(m);
}

/* ---- inspect ------------------------------------------------------- */

/* The ids of build_main()'s kernel kA, its launch at 20 and the ranges
 * fwd and step around it. */
static void
find_ka(const struct model *m, uint32_t *kA, uint32_t *l20, uint32_t *fwd,
    uint32_t *step)
{
	*kA = ts_find_ev(m, "kA", 40);
	*l20 = ts_find_ev(m, "cudaLaunchKernel_v7000", 20);
	*fwd = ts_find_ev(m, "fwd", 10);
	*step = ts_find_ev(m, "step", 0);
}

static void
test_inspect_kernel(void **state)
{
	struct model	*m = build_main();
	cJSON		*env;
	const cJSON	*r;
	const char	*code;
	char		 line[128];
	uint32_t	 kA, l20, fwd, step;

	(void)state;
	find_ka(m, &kA, &l20, &fwd, &step);
	snprintf(line, sizeof line, "t.sqlite ev:%u %u", kA, step);
	env = verb(m, &cmd_inspect_entry, cmd_inspect_run, line, &code);
	assert_non_null(env);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 2);
	r = cJSON_GetArrayItem(rows_of(env), 0);
	assert_int_equal(ts_jdouble(r, "id"), kA);
	assert_int_equal(ts_jdouble(r, "launch_api_id"), l20);
	assert_string_equal(ts_jstr(r, "launch_api"), "cudaLaunchKernel_v7000");
	ts_jrow_is(r, "launch_api_start_ns=70 launch_api_duration_ns=10 "
	    "launch_latency_ns=10");
	assert_int_equal(ts_jdouble(r, "nvtx_range_id"), fwd);
	assert_string_equal(ts_jstr(r, "nvtx_range"), "fwd");
	assert_string_equal(ts_jstr(r, "nvtx_path"), "step/fwd");
	ts_jrow_is(r, "nvtx_iter=0");
	assert_int_equal(ts_jdouble(r, "threads"), 4 * 128);
	ts_jrow_is(r, "registers_per_thread=32 static_smem_bytes=1024 "
	    "correlation_id=1");
	assert_string_equal(ts_jstr(r, "device_name"), "GPU-A");
	/* The range: NVTX fields and its GPU projection. */
	r = cJSON_GetArrayItem(rows_of(env), 1);
	assert_int_equal(ts_jdouble(r, "id"), step);
	assert_string_equal(ts_jstr(r, "style"), "PushPop");
	assert_string_equal(ts_jstr(r, "color"), "#ff00ff00");
	ts_jrow_is(r, "payload=-7");
	assert_string_equal(ts_jstr(r, "payload_type"), "int");
	assert_string_equal(ts_jstr(r, "path"), "step");
	/* fwd, se, open */
	ts_jrow_is(r, "children=3 gpu_ops=4 nvtx_range_id=null");
	cJSON_Delete(env);

	/* A range that never closed. */
	snprintf(line, sizeof line, "t.sqlite %u", ts_find_ev(m, "open", 950));
	env = verb(m, &cmd_inspect_entry, cmd_inspect_run, line, &code);
	r = cJSON_GetArrayItem(rows_of(env), 0);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "open")));
	ts_jrow_is(r, "end_ns=1050");
	assert_string_equal(ts_jstr(r, "path"), "step/open");
	cJSON_Delete(env);

	/* A negative launch latency is shown as it is. */
	snprintf(line, sizeof line, "t.sqlite %u", ts_find_ev(m, "kB", 55));
	env = verb(m, &cmd_inspect_entry, cmd_inspect_run, line, &code);
	assert_int_equal(ts_jdouble(cJSON_GetArrayItem(rows_of(env), 0),
	    "launch_latency_ns"), -5);
	cJSON_Delete(env);

	/* An API call lists its GPU work. */
	snprintf(line, sizeof line, "t.sqlite ev:%u", l20);
	env = verb(m, &cmd_inspect_entry, cmd_inspect_run, line, &code);
	r = cJSON_GetArrayItem(rows_of(env), 0);
	ts_jrow_is(r, "gpu_ops=1");
	assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
	    r, "gpu_ids"), 0)->valueint, kA);
	assert_string_equal(ts_jstr(r, "base_name"), "cudaLaunchKernel");
	cJSON_Delete(env);
	model_free(m);
}

static void
test_inspect_errors(void **state)
{
	struct model	*m = build_main();
	const char	*code;
	char		 line[64];
	cJSON		*env;

	(void)state;
	snprintf(line, sizeof line, "t.sqlite ev:%llu",
	    (unsigned long long)m->nevents);
	assert_null(verb(m, &cmd_inspect_entry, cmd_inspect_run, line,
	    &code));
	assert_string_equal(code, "not_found");
	/* One id found, one missing: a row each, the missing one marked. */
	env = verb(m, &cmd_inspect_entry, cmd_inspect_run,
	    "t.sqlite 1 999999", &code);
	assert_non_null(env);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 2);
	assert_int_equal(ts_jdouble(cJSON_GetArrayItem(rows_of(env), 0),
	    "id"), 1);
	assert_null(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(rows_of(env), 0), "status"));
	assert_string_equal(ts_jstr(cJSON_GetArrayItem(rows_of(env), 1),
	    "status"), "not_found");
	assert_int_equal(ts_jdouble(cJSON_GetArrayItem(rows_of(env), 1), "id"),
	    999999);
	cJSON_Delete(env);
	assert_null(verb(m, &cmd_inspect_entry, cmd_inspect_run,
	    "t.sqlite ev:x", &code));
	assert_string_equal(code, "usage");
	assert_null(verb(m, &cmd_inspect_entry, cmd_inspect_run,
	    "t.sqlite", &code));
	assert_string_equal(code, "usage");
	model_free(m);
}

/* ---- correlate ----------------------------------------------------- */

static void
test_correlate(void **state)
{
	struct model	*m = build_main();
	cJSON		*env;
	const cJSON	*r;
	const char	*code;
	char		 line[64];
	uint32_t	 kA, l20, fwd, step;
	uint32_t	 chain[8];
	int		 i;

	(void)state;
	find_ka(m, &kA, &l20, &fwd, &step);

	/* A kernel: fwd -> its launch -> it. */
	snprintf(line, sizeof line, "t.sqlite ev:%u", kA);
	env = verb(m, &cmd_correlate_entry, cmd_correlate_run, line, &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 2);
	r = cJSON_GetArrayItem(rows_of(env), 0);
	assert_string_equal(ts_jstr(r, "link"), "range-api");
	assert_int_equal(ts_jdouble(r, "from_id"), fwd);
	assert_int_equal(ts_jdouble(r, "to_id"), l20);
	ts_jrow_is(r, "offset_ns=10 queue_delay_ns=null");
	assert_string_equal(ts_jstr(r, "nvtx_path"), "step/fwd");
	r = cJSON_GetArrayItem(rows_of(env), 1);
	assert_string_equal(ts_jstr(r, "link"), "api-gpu");
	assert_int_equal(ts_jdouble(r, "from_id"), l20);
	assert_int_equal(ts_jdouble(r, "to_id"), kA);
	ts_jrow_is(r, "queue_delay_ns=10 offset_ns=20 device=0 tid=101");
	cJSON_Delete(env);

	/* A range: every call inside it on its thread, then its work. */
	snprintf(line, sizeof line, "t.sqlite %u --limit 0", step);
	env = verb(m, &cmd_correlate_entry, cmd_correlate_run, line, &code);
	chain[0] = l20;
	chain[1] = kA;
	chain[2] = ts_find_ev(m, "cudaLaunchKernel_v7000", 50);
	chain[3] = ts_find_ev(m, "kB", 55);
	chain[4] = ts_find_ev(m, "cudaMemcpyAsync_v3020", 600);
	chain[5] = ts_find_ev(m, "[CUDA memcpy Host-to-Device]", 620);
	chain[6] = ts_find_ev(m, "cudaLaunchKernel_v7000", 700);
	chain[7] = ts_find_ev(m, "kC", 710);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 8);
	for (i = 0; i < 8; i++) {
		r = cJSON_GetArrayItem(rows_of(env), i);
		assert_int_equal(ts_jdouble(r, "seq"), i);
		assert_int_equal(ts_jdouble(r, "to_id"), chain[i]);
		assert_int_equal(ts_jdouble(r, "from_id"), i % 2 == 0 ? step :
		    chain[i - 1]);
		assert_string_equal(ts_jstr(r, "link"),
		    i % 2 == 0 ? "range-api" : "api-gpu");
	}
	assert_int_equal(ts_jdouble(cJSON_GetArrayItem(rows_of(env), 3),
	    "queue_delay_ns"), -5);
	cJSON_Delete(env);

	/* --limit pages the chain. */
	snprintf(line, sizeof line, "t.sqlite %u --limit 3", step);
	env = verb(m, &cmd_correlate_entry, cmd_correlate_run, line, &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 3);
	cJSON_Delete(env);

	/* Not found, and a kind without a chain (warning, no rows). */
	assert_null(verb(m, &cmd_correlate_entry, cmd_correlate_run,
	    "t.sqlite 4000000", &code));
	assert_string_equal(code, "not_found");
	snprintf(line, sizeof line, "t.sqlite %u",
	    ts_find_ev(m, "cudaFree", -50));
	env = verb(m, &cmd_correlate_entry, cmd_correlate_run, line, &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 0);
	cJSON_Delete(env);
	model_free(m);
}

/* ---- launch -------------------------------------------------------- */

static void
test_launch(void **state)
{
	struct model	*m = build_main();
	cJSON		*env;
	const cJSON	*r;
	const char	*code;

	(void)state;
	env = verb(m, &cmd_launch_entry, cmd_launch_run, "t.sqlite", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 3);
	r = row_by_key(env, "launch|api=cudaLaunchKernel|name=kA");
	ts_jrow_is(r, "count=1 qcount=1 api_mean_ns=10 queue_mean_ns=10 "
	    "kernel_mean_ns=60 total_mean_ns=80 short_kernels=0");
	/* kB starts before its call returns: no queue time; it is short. */
	r = row_by_key(env, "launch|api=cudaLaunchKernel|name=kB");
	ts_jrow_is(r, "qcount=0 queue_mean_ns=null queue_p90_ns=null "
	    "kernel_max_ns=3 total_mean_ns=10 short_kernels=1 "
	    "short_kernels_pct=100");
	r = row_by_key(env, "launch|api=cudaLaunchKernel|name=kC");
	ts_jrow_is(r, "queue_mean_ns=5 total_mean_ns=30");
	/* nsys order: total mean, descending. */
	assert_string_equal(ts_jstr(cJSON_GetArrayItem(rows_of(env), 0), "key"),
	    "launch|api=cudaLaunchKernel|name=kA");
	cJSON_Delete(env);

	/* Per API name: queue statistics over the non-negative delays. */
	env = verb(m, &cmd_launch_entry, cmd_launch_run,
	    "t.sqlite --group-by api", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 1);
	r = row_by_key(env, "launch|api=cudaLaunchKernel");
	ts_jrow_is(r, "count=3 qcount=2 queue_mean_ns=7.5 queue_median_ns=7.5 "
	    "queue_min_ns=5 queue_max_ns=10");
	/* R-7 percentile of {5, 10}: 5 + 0.9 * 5. */
	ts_jrow_is(r, "queue_p90_ns=9.5 kernel_median_ns=20");
	assert_float_equal(ts_jdouble(r, "kernel_mean_ns"), 83.0 / 3, 1e-3);
	assert_float_equal(ts_jdouble(r, "api_mean_ns"), 25.0 / 3, 1e-3);
	ts_jrow_is(r, "short_kernels=1");
	cJSON_Delete(env);

	/* Overall, and by device. */
	env = verb(m, &cmd_launch_entry, cmd_launch_run,
	    "t.sqlite --group-by none", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 1);
	assert_int_equal(ts_jdouble(row_by_key(env, "launch"), "count"), 3);
	cJSON_Delete(env);
	env = verb(m, &cmd_launch_entry, cmd_launch_run,
	    "t.sqlite --group-by device", &code);
	assert_int_equal(ts_jdouble(row_by_key(env, "launch|device=0"),
	    "count"), 2);
	assert_int_equal(ts_jdouble(row_by_key(env, "launch|device=1"),
	    "count"), 1);
	cJSON_Delete(env);
	assert_null(verb(m, &cmd_launch_entry, cmd_launch_run,
	    "t.sqlite --group-by bogus", &code));
	assert_string_equal(code, "usage");
	model_free(m);
}

/*
 * Launch times that come apart: the first call lasts 3 s, so the API
 * times go wide (beyond 32-bit offsets) and computing them sorts them;
 * the total times, made from each kernel's API, kernel and delay times,
 * still pair each kernel with its own call.
 */
static void
test_launch_wide(void **state)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct model	*m;
	struct device	 dev;
	uint32_t	 p, th, api, g7;
	cJSON		*env;
	const cJSON	*r;
	const char	*code;

	(void)state;
	memset(&dev, 0, sizeof dev);
	dev.process = NONE32;
	dev.name = builder_intern(b, "GPU-A");
	builder_device(b, &dev);
	th = ts_nsys_thread(b, 100, 101, &p);
	api = builder_cpu_track(b, TRACK_API, th, 0);
	g7 = ts_stream(b, 0, 7, p);
	add(b, api, "cudaLaunchKernel", EV_API, 0, 3000000000LL, 1, 0,
	    NONE32);
	add(b, api, "cudaLaunchKernel", EV_API, 3000000100LL, 3000000110LL,
	    2, 0, NONE32);
	add(b, api, "cudaLaunchKernel", EV_API, 3000000300LL, 3000000320LL,
	    3, 0, NONE32);
	add(b, g7, "kW", EV_KERNEL, 3000000005LL, 3000000010LL, 1, 0,
	    kernel(b, 1, 32));
	add(b, g7, "kW", EV_KERNEL, 3000000200LL, 3000000260LL, 2, 0,
	    kernel(b, 1, 32));
	add(b, g7, "kW", EV_KERNEL, 3000000310LL, 3000000312LL, 3, 0,
	    kernel(b, 1, 32));
	m = ts_finish(b);
	env = verb(m, &cmd_launch_entry, cmd_launch_run, "t.sqlite", &code);
	r = row_by_key(env, "launch|api=cudaLaunchKernel|name=kW");
	ts_jrow_is(r, "count=3 api_max_ns=3000000000 qcount=2 "
	    "queue_mean_ns=47.5");
	/* Totals: 3 s + 10, 10 + 90 + 60, and 20 (the kernel ends first). */
	ts_jrow_is(r, "total_min_ns=20 total_median_ns=160 "
	    "total_max_ns=3000000010");
	cJSON_Delete(env);
	model_free(m);
}

/* ---- lanes selected whole ------------------------------------------- */

/*
 * Two streams with equal starts within a lane and across lanes, a
 * zero-length kernel, copies among the kernels, and an API track that
 * launches them: the ties and mixed lanes the walks of selections without
 * filters on single events meet.
 */
static struct model *
build_ties(void)
{
	/* Track (0 API, 1 and 2 the streams), name, kind, times, corr. */
	static const struct {
		int		 track;
		const char	*name;
		int		 kind;
		int64_t		 start, end;
		uint32_t	 corr;
	} ev[] = {
		{ 0, "cudaLaunchKernel_v7000", EV_API, 0, 10, 1 },
		{ 0, "cudaLaunchKernel_v7000", EV_API, 5, 12, 2 },
		{ 0, "cudaLaunchKernel_v7000", EV_API, 20, 30, 3 },
		{ 0, "cudaMemcpyAsync_v3020", EV_API, 25, 28, 4 },
		{ 0, "cudaLaunchKernel_v7000", EV_API, 90, 95, 5 },
		{ 0, "cudaLaunchKernel_v7000", EV_API, 96, 99, 7 },
		{ 1, "kA", EV_KERNEL, 40, 100, 1 },
		{ 1, "kB", EV_KERNEL, 40, 50, 2 },
		{ 1, "[CUDA memcpy Host-to-Device]", EV_MEMCPY, 40, 60, 4 },
		{ 1, "kA", EV_KERNEL, 100, 120, 0 },
		{ 2, "kD", EV_KERNEL, 40, 45, 3 },
		{ 2, "kE", EV_KERNEL, 100, 100, 5 },
		{ 2, "kA", EV_KERNEL, 100, 130, 7 },
		{ 2, "[CUDA memset]", EV_MEMSET, 130, 140, 0 },
		/* A graph launch: its second kernel is a replay's. */
		{ 0, "cudaGraphLaunch_v10000", EV_API, 100, 105, 6 },
		{ 1, "kG", EV_KERNEL, 140, 150, 6 },
		{ 2, "kG", EV_KERNEL, 141, 150, 6 },
	};
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, th, tr[3], aux;
	size_t		 i;

	ts_device(b, 0);
	th = ts_nsys_thread(b, 200, 201, &p);
	tr[0] = builder_cpu_track(b, TRACK_API, th, 0);
	tr[1] = ts_stream(b, 0, 1, p);
	tr[2] = ts_stream(b, 0, 2, p);
	for (i = 0; i < sizeof ev / sizeof *ev; i++) {
		aux = NONE32;
		if (ev[i].kind == EV_KERNEL)
			aux = kernel(b, (uint32_t)ev[i].track, 32);
		else if (ev[i].kind == EV_MEMCPY)
			aux = ts_copy(b, COPY_HTOD, MEM_PAGEABLE,
			    MEM_DEVICE, 64);
		add(b, tr[ev[i].track], ev[i].name, ev[i].kind, ev[i].start,
		    ev[i].end, ev[i].corr, 0, aux);
	}
	return ts_finish(b);
}

/*
 * Whether the verb gives the same rows and totals for line and for line
 * with --name '*', which selects the same events through sel_event().
 */
static void
same_as_tested(const struct model *m, const struct cmd_entry *e,
    run_fn fn, const char *line)
{
	const char	*code;
	char		 buf[512];
	cJSON		*a, *b;

	snprintf(buf, sizeof buf, "%s --name *", line);
	a = verb(m, e, fn, line, &code);
	b = verb(m, e, fn, buf, &code);
	assert_non_null(a);
	assert_non_null(b);
	/* The rows, counts, totals and auxiliary fields; and the warnings. */
	if (!cJSON_Compare(cJSON_GetObjectItemCaseSensitive(a, "data"),
	    cJSON_GetObjectItemCaseSensitive(b, "data"), 1) ||
	    !cJSON_Compare(cJSON_GetObjectItemCaseSensitive(a, "meta"),
	    cJSON_GetObjectItemCaseSensitive(b, "meta"), 1))
		fail_msg("%s differs from %s", line, buf);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/*
 * search and launch walk the lanes that no filter on single events cuts
 * without sel_event() (search: counting them, and by start or id stopping
 * where the page is full); the events, order, page and counts are those
 * of the tested path, whole lanes or lanes cut by window, kind and --tid.
 */
static void
test_plain_lanes(void **state)
{
	static const char *const search_lines[] = {
		"", "--limit 1", "--limit 2", "--limit 3 --offset 1",
		"--limit 4", "--limit 2 --sort start_ns:desc",
		"--limit 3 --offset 2 --sort start_ns:desc",
		"--limit 3 --sort id", "--limit 2 --sort id:desc",
		"--limit 3 --sort duration_ns", "--limit 2 --sort end_ns:asc",
		"--limit 2 --type kernel", "--limit 1 --type memcpy",
		"--limit 2 --type kernel --sort start_ns:desc",
		"--limit 0", "--limit 0 --type kernel",
		"--from 45 --to 110 --limit 2",
		"--from 45 --to 110 --limit 3 --sort start_ns:desc",
		"--from 100 --to 101 --limit 5 --type kernel",
		"--from 100 --to 100 --limit 5",
		"--tid 201 --limit 3", "--tid 201 --limit 0 --type kernel",
		"--tid 999 --limit 2", "--pid 200 --limit 2 --type api",
		"--device 0 --stream 2 --limit 2", "--type comm --limit 2",
	};
	static const char *const launch_lines[] = {
		"", "--group-by none", "--group-by stream,name",
		"--from 45 --to 110", "--tid 201", "--group-by pid,tid,api",
	};
	struct model	*m[2] = { build_ties(), build_main() };
	cJSON		*env, *aux;
	const char	*code;
	char		 line[256];
	size_t		 i, j;
	size_t		 nsearch = sizeof search_lines / sizeof *search_lines;
	size_t		 nlaunch = sizeof launch_lines / sizeof *launch_lines;

	(void)state;
	for (j = 0; j < 2; j++)
		for (i = 0; i < nsearch + nlaunch; i++) {
			snprintf(line, sizeof line, "t.sqlite %s", i < nsearch ?
			    search_lines[i] : launch_lines[i - nsearch]);
			same_as_tested(m[j], i < nsearch ? &cmd_search_entry :
			    &cmd_launch_entry, i < nsearch ? cmd_search_run :
			    cmd_launch_run, line);
		}
	/* One launch of the graph; its replayed kernel is left out. */
	env = verb(m[0], &cmd_launch_entry, cmd_launch_run, "t.sqlite",
	    &code);
	aux = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(env, "data"), "auxiliary");
	ts_jrow_is(aux, "replayed_kernels=1 kernels=8");
	assert_int_equal(ts_jdouble(row_by_key(env,
	    "launch|api=cudaGraphLaunch|name=kG"), "count"), 1);
	cJSON_Delete(env);
	/* kA, launched by calls of one name on two streams: two groups. */
	env = verb(m[0], &cmd_launch_entry, cmd_launch_run,
	    "t.sqlite --group-by stream,name", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 6);
	assert_int_equal(ts_jdouble(row_by_key(env, "launch|stream=1|name=kA"),
	    "kernel_max_ns"), 60);
	assert_int_equal(ts_jdouble(row_by_key(env, "launch|stream=2|name=kA"),
	    "kernel_max_ns"), 30);
	cJSON_Delete(env);
	model_free(m[0]);
	model_free(m[1]);
}

/* ---- memcpy -------------------------------------------------------- */

static void
test_memcpy(void **state)
{
	struct model	*m = build_main();
	cJSON		*env;
	const cJSON	*r;
	const char	*code;

	(void)state;
	env = verb(m, &cmd_memcpy_entry, cmd_memcpy_run, "t.sqlite", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 2);
	r = row_by_key(env, "memcpy|device=0|copy_kind=h2d|src_kind=pageable|"
	    "dst_kind=device");
	ts_jrow_is(r, "count=1 total_bytes=1000 total_ns=100");
	assert_float_equal(ts_jdouble(r, "bytes_per_s"), 1e10, 1);
	ts_jrow_is(r, "peak_bytes_per_s=null peak_pct=null");
	r = row_by_key(env, "memcpy|device=0|copy_kind=d2d|src_kind=device|"
	    "dst_kind=device");
	ts_jrow_is(r, "total_bytes=50000");
	assert_float_equal(ts_jdouble(r, "bytes_per_s"), 5e11, 1);
	assert_float_equal(ts_jdouble(r, "peak_bytes_per_s"), 1e12, 1);
	ts_jrow_is(r, "peak_pct=50");
	cJSON_Delete(env);
	/* The window keeps only copies that overlap it. */
	env = verb(m, &cmd_memcpy_entry, cmd_memcpy_run,
	    "t.sqlite --from @750", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 1);
	cJSON_Delete(env);
	model_free(m);
}

/* ---- comm ---------------------------------------------------------- */

static void
test_collective_names(void **state)
{
	static const char *cases[][2] = {
		/* nsys-ai mfu_2gpu_before.sqlite StringIds */
		{ "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned "
		    "long)4096>)", "SendRecv" },
		{ "ncclDevKernel_SendRecv", "SendRecv" },
		{ "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "AllReduce" },
		{ "ncclKernel_AllGather_RING_LL_Sum_int8_t", "AllGather" },
		/* Kineto fixtures (HTA, TraceLens) */
		{ "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, "
		    "unsigned long, ncclWork*)", "AllReduce" },
		{ "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, "
		    "unsigned long, ncclWork*)", "Broadcast" },
		{ "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)",
		    "SendRecv" },
		{ "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage"
		    "<4096ul>)", "AllGather" },
		{ "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL",
		    "ReduceScatter" },
		{ "ncclDevKernel_Reduce_Sum_f16_TREE_LL", "Reduce" },
		{ "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)",
		    "Generic" },
		{ "nccl:all_reduce", "AllReduce" },
		{ "nccl:_all_gather_base", "AllGather" },
		{ "nccl:_reduce_scatter_base", "ReduceScatter" },
		{ "nccl:all_to_all", "AllToAll" },
		{ "nccl:broadcast", "Broadcast" },
		/* NCCL's own NVTX ranges */
		{ "ncclAllReduce", "AllReduce" },
		{ "ncclSend", "Send" },
		{ "ncclRecv", "Recv" },
		{ "ncclGroupStart", "GroupStart" },
		{ "ncclCommCount", "CommCount" },
		{ "c10d::allreduce_", "AllReduce" },
		{ "rcclKernel_AllToAll", "AllToAll" },
		{ "nccl", "unknown" },
	};
	char	buf[64];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(comm_collective(cases[i][0], buf,
		    sizeof buf), cases[i][1]);
}

/*
 * GPU 0 stream 7: gemm [0,100), an AllReduce kernel [100,150), and a
 * SendRecv kernel [200,240) on stream 8; GPU 1 stream 7: AllGather kernels
 * [0,10) and [20,50); NCCL-domain ranges ncclAllReduce [90,95) and
 * ncclGroupStart [80,81).
 */
static struct model *
build_comm(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	uint32_t	 p, th, dom, nv, g0, g0b, g1;

	ts_device(b, 0);
	ts_device(b, 1);
	p = builder_process(b, 5ULL << 24, 5, "rank0");
	th = builder_thread(b, 5ULL << 24 | 6, 6, p, "main");
	dom = builder_domain(b, p, 3, "NCCL");
	nv = builder_cpu_track(b, TRACK_NVTX, th, dom);
	g0 = ts_stream(b, 0, 7, p);
	g0b = ts_stream(b, 0, 8, p);
	g1 = ts_stream(b, 1, 7, p);
	add(b, g0, "gemm", EV_KERNEL, 0, 100, 0, 0, NONE32);
	add(b, g0, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", EV_KERNEL, 100,
	    150, 0, EVF_COMM, NONE32);
	add(b, g0b, "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<(unsigned "
	    "long)4096>)", EV_KERNEL, 200, 240, 0, EVF_COMM, NONE32);
	add(b, g1, "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, "
	    "unsigned long, ncclWork*)", EV_KERNEL, 0, 10, 0, EVF_COMM, NONE32);
	add(b, g1, "ncclKernel_AllGather_RING_LL_Sum_float(ncclDevComm*, "
	    "unsigned long, ncclWork*)", EV_KERNEL, 20, 50, 0, EVF_COMM,
	    NONE32);
	add(b, nv, "ncclAllReduce", EV_NVTX, 90, 95, 0, EVF_COMM, NONE32);
	add(b, nv, "ncclGroupStart", EV_NVTX, 80, 81, 0, EVF_COMM, NONE32);
	return ts_finish(b);
}

static void
test_comm(void **state)
{
	struct model	*m = build_comm();
	cJSON		*env;
	const cJSON	*r;
	const char	*code;

	(void)state;
	env = verb(m, &cmd_comm_entry, cmd_comm_run, "t.sqlite", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 5);
	r = row_by_key(env, "comm|kind=kernel|collective=AllReduce|device=0|"
	    "stream=7|pid=5");
	ts_jrow_is(r, "count=1 total_ns=50 total_bytes=null");
	/* Device 0 is busy [0,150) and [200,240): 190 ns. */
	ts_jrow_is(r, "device_busy_ns=190");
	assert_float_equal(ts_jdouble(r, "gpu_busy_share_pct"),
	    100.0 * 50 / 190, 1e-3);
	r = row_by_key(env, "comm|kind=kernel|collective=AllGather|device=1|"
	    "stream=7|pid=5");
	ts_jrow_is(r, "count=2 total_ns=40 median_ns=20 min_ns=10 max_ns=30 "
	    "gpu_busy_share_pct=100");
	r = row_by_key(env, "comm|kind=kernel|collective=SendRecv|device=0|"
	    "stream=8|pid=5");
	ts_jrow_is(r, "total_ns=40");
	r = row_by_key(env, "comm|kind=nvtx|collective=AllReduce|device=none|"
	    "stream=none|pid=5");
	ts_jrow_is(r, "total_ns=5 gpu_busy_share_pct=null device=null");
	row_by_key(env, "comm|kind=nvtx|collective=GroupStart|device=none|"
	    "stream=none|pid=5");
	cJSON_Delete(env);
	/* Filters apply; the share stays relative to the whole device. */
	env = verb(m, &cmd_comm_entry, cmd_comm_run, "t.sqlite --device 0 "
	    "--stream 7", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 1);
	cJSON_Delete(env);
	/* In a window the share counts only time inside it. */
	env = verb(m, &cmd_comm_entry, cmd_comm_run, "t.sqlite --device 0 "
	    "--from @50 --to @125", &code);
	r = row_by_key(env, "comm|kind=kernel|collective=AllReduce|device=0|"
	    "stream=7|pid=5");
	ts_jrow_is(r, "device_busy_ns=75");
	assert_float_equal(ts_jdouble(r, "gpu_busy_share_pct"), 100.0 * 25 / 75,
	    1e-3);
	cJSON_Delete(env);
	model_free(m);
}

/* ---- hardware ------------------------------------------------------ */

static void
test_hardware(void **state)
{
	struct model	*m = build_main();
	cJSON		*env;
	const cJSON	*r;
	const char	*code;

	(void)state;
	env = verb(m, &cmd_hardware_entry, cmd_hardware_run, "t.sqlite "
	    "--limit 0", &code);
	assert_int_equal(cJSON_GetArraySize(rows_of(env)), 4);
	r = row_by_key(env, "gpu|device=0");
	assert_string_equal(ts_jstr(r, "name"), "GPU-A");
	ts_jrow_is(r, "sm_count=132");
	assert_string_equal(ts_jstr(r, "cc"), "9.0");
	assert_float_equal(ts_jdouble(r, "mem_bw_bytes_per_s"), 1e12, 1);
	ts_jrow_is(r, "kernels=2 streams=1");
	/* Busy: kA [40,100), kB inside it, copies [620,720) and [800,900). */
	ts_jrow_is(r, "busy_ns=260");
	r = row_by_key(env, "gpu|device=1");
	ts_jrow_is(r, "mem_bw_bytes_per_s=null cc=null");
	r = row_by_key(env, "host|name=node1");
	assert_string_equal(ts_jstr(r, "cpu_cores"), "48");
	r = row_by_key(env, "process|pid=1677721600");
	ts_jrow_is(r, "pid=100 threads=1 gpu_streams=2");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
	    r, "devices")), 2);
	cJSON_Delete(env);
	model_free(m);
}

/* ---- export -------------------------------------------------------- */

/* Runs export into a string (caller frees). */
static char *
export(const struct model *m, const char *line, int *rc)
{
	struct opts	 o;
	struct out	 out;
	char		**argv, *cause = NULL;
	const char	*code = NULL;
	int		  argc;
	FILE		 *tmp = tmpfile();

	argv = split("export", line, &argc);
	ts_opts(&o, cmd_export_entry.options, argc, argv);
	out_init(&out, "export");
	*rc = cmd_export_run(m, &o, tmp, &out, &code, &cause);
	free(cause);
	out_free(&out);
	opts_free(&o);
	free_argv(argv, argc);
	return ts_read_fp(tmp);
}

static const cJSON *
arg_of(const cJSON *ev, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(ev, "args"), key);
}

static void
test_export_perfetto(void **state)
{
	struct model	*m = build_main();
	char		*s;
	cJSON		*root, *evs, *ev;
	int		 rc, nx = 0, ns = 0, nf = 0, nm = 0, gpu0 = 0;
	uint32_t	 kA, se;
	double		 kA_pid = -1, kA_tid = -1, main_tid = -1;

	(void)state;
	kA = ts_find_ev(m, "kA", 40);
	se = ts_find_ev(m, "se", 400);
	s = export(m, "t.sqlite --to perfetto", &rc);
	assert_int_equal(rc, 0);
	root = cJSON_Parse(s);
	if (root == NULL)
		fail_msg("export is not JSON: %s", s);
	assert_int_equal(ts_jdouble(cJSON_GetObjectItemCaseSensitive(root,
	    "otherData"), "origin_ns"), -50);
	evs = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
	assert_true(cJSON_IsArray(evs));
	cJSON_ArrayForEach(ev, evs) {
		const char *ph = ts_jstr(ev, "ph");
		if (strcmp(ph, "X") == 0) {
			nx++;
			if ((uint32_t)arg_of(ev, "id")->valuedouble == kA) {
				/* 40 - (-50) ns = 0.090 us, 60 ns long. */
				assert_float_equal(ts_jdouble(ev, "ts"), 0.09,
				    1e-12);
				assert_float_equal(ts_jdouble(ev, "dur"), 0.06,
				    1e-12);
				assert_string_equal(ts_jstr(ev, "cat"),
				    "kernel");
				kA_pid = ts_jdouble(ev, "pid");
				kA_tid = ts_jdouble(ev, "tid");
			}
			if ((uint32_t)arg_of(ev, "id")->valuedouble == se)
				/* se overlaps fwd partially: overflow. */
				assert_int_equal(ts_jdouble(ev, "tid"), 101 +
				    0x1000000);
			if (strcmp(ts_jstr(ev, "name"), "step") == 0)
				main_tid = ts_jdouble(ev, "tid");
		} else if (strcmp(ph, "s") == 0) {
			ns++;
			ts_jrow_is(ev, "pid=100");
		} else if (strcmp(ph, "f") == 0) {
			nf++;
			assert_string_equal(ts_jstr(ev, "bp"), "e");
			if ((uint32_t)ts_jdouble(ev, "id") == kA)
				assert_float_equal(ts_jdouble(ev, "ts"), 0.09,
				    1e-12);
		} else if (strcmp(ph, "M") == 0) {
			nm++;
			if (strcmp(ts_jstr(ev, "name"), "process_name") == 0 &&
			    strcmp(arg_of(ev, "name")->valuestring, "GPU 0") ==
			    0) {
				gpu0 = 1;
				ts_jrow_is(ev, "pid=0");
			}
		}
	}
	/* Every event but none is a mark: 14 X events. */
	assert_int_equal(nx, 14);
	/* Four launches with both ends exported. */
	assert_int_equal(ns, 4);
	assert_int_equal(nf, 4);
	assert_true(gpu0);
	assert_int_equal(kA_pid, 0);
	assert_int_equal(kA_tid, 7);
	assert_int_equal(main_tid, 101);
	/* process GPU 0, GPU 1, train; threads stream 7, stream 9, main,
	 * main (overlap 1). */
	assert_int_equal(nm, 7);
	cJSON_Delete(root);
	free(s);

	/* Kernels only: no API calls, so no flows. */
	s = export(m, "t.sqlite --type kernel", &rc);
	root = cJSON_Parse(s);
	assert_non_null(root);
	nx = ns = 0;
	cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(root,
	    "traceEvents")) {
		nx += strcmp(ts_jstr(ev, "ph"), "X") == 0;
		ns += strcmp(ts_jstr(ev, "ph"), "s") == 0 ||
		    strcmp(ts_jstr(ev, "ph"), "f") == 0;
	}
	assert_int_equal(nx, 3);
	assert_int_equal(ns, 0);
	cJSON_Delete(root);
	free(s);

	/* Unknown format. */
	s = export(m, "t.sqlite --to svg", &rc);
	assert_int_equal(rc, -1);
	free(s);
	model_free(m);
}

static void
test_export_csv(void **state)
{
	struct model	*m = build_main();
	char		*s, *line, *save = NULL;
	int		 rc, n = 0;

	(void)state;
	s = export(m, "t.sqlite --to csv --type kernel", &rc);
	assert_int_equal(rc, 0);
	for (line = strtok_r(s, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (n == 0)
			assert_string_equal(line, "id,kind,start_ns,duration_ns,"
			    "end_ns,device,stream,pid,tid,grid,block,bytes,"
			    "copy_kind,source_rowid,name,key");
		else if (n == 1) {
			char want[128];
			snprintf(want, sizeof want, "%u,kernel,90,60,150,0,7,"
			    "100,101,\"[4,1,1]\",\"[128,1,1]\",,,1040,kA,ev|id=%u",
			    ts_find_ev(m, "kA", 40), ts_find_ev(m, "kA", 40));
			assert_string_equal(line, want);
		}
		n++;
	}
	assert_int_equal(n, 4);
	free(s);
	/* All events, in start order across tracks. */
	s = export(m, "t.sqlite --to csv", &rc);
	n = 0;
	save = NULL;
	for (line = strtok_r(s, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (n == 1)
			assert_non_null(strstr(line, ",api,0,10,10,"));
		n++;
	}
	assert_int_equal(n, 15);
	free(s);
	model_free(m);
}


/* The CSV cell of a row field, as out.c prints it (caller frees). */
static char *
csv_cell(const cJSON *row, const char *col)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(row, col);
	char		*s, *q, *p;
	size_t		 n;

	if (it == NULL || cJSON_IsNull(it))
		return strdup("");
	if (cJSON_IsString(it))
		s = strdup(it->valuestring);
	else if (cJSON_IsRaw(it))
		s = strdup(it->valuestring);
	else
		s = cJSON_PrintUnformatted(it);
	if (strpbrk(s, ",\"\r\n") == NULL)
		return s;
	n = strlen(s);
	q = calloc(1, 2 * n + 3);
	p = q;
	*p++ = '"';
	for (n = 0; s[n] != '\0'; n++) {
		if (s[n] == '"')
			*p++ = '"';
		*p++ = s[n];
	}
	*p = '"';
	free(s);
	return q;
}

/* Every line of export --to csv equals the search row of its event. */
static void
test_export_csv_matches_rows(void **state)
{
	struct model	*m = build_main();
	char		*s, *line, *save = NULL, want[1024], *cell;
	int		 rc, n = 0;
	uint32_t	 gid;
	size_t		 k;
	cJSON		*row;

	(void)state;
	s = export(m, "t.sqlite --to csv --absolute", &rc);
	assert_int_equal(rc, 0);
	for (line = strtok_r(s, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save), n++) {
		if (n == 0)
			continue;
		assert_non_null(strstr(line, ",ev|id="));
		gid = (uint32_t)strtoul(strrchr(line, '=') + 1, NULL, 10);
		row = cJSON_CreateObject();
		evrow_fill(row, m, gid, 1);
		want[0] = '\0';
		for (k = 0;; k++) {
			const char *col = evrow_columns[k] != NULL ?
			    evrow_columns[k] : "key";
			cell = csv_cell(row, col);
			if (k != 0)
				strcat(want, ",");
			strcat(want, cell);
			free(cell);
			if (evrow_columns[k] == NULL)
				break;
		}
		assert_string_equal(line, want);
		cJSON_Delete(row);
	}
	assert_int_equal(n, 15);
	free(s);
	model_free(m);
}

TS_MAIN(NULL, NULL,
	cmocka_unit_test(test_search_filters),
	cmocka_unit_test(test_search_bad_device),
	cmocka_unit_test(test_inspect_kernel),
	cmocka_unit_test(test_inspect_errors),
	cmocka_unit_test(test_correlate),
	cmocka_unit_test(test_launch),
	cmocka_unit_test(test_launch_wide),
	cmocka_unit_test(test_plain_lanes),
	cmocka_unit_test(test_memcpy),
	cmocka_unit_test(test_collective_names),
	cmocka_unit_test(test_comm),
	cmocka_unit_test(test_hardware),
	cmocka_unit_test(test_export_perfetto),
	cmocka_unit_test(test_export_csv),
	cmocka_unit_test(test_export_csv_matches_rows))
