/*
 * findings_test: the findings rules (headless/finding*.c) and the
 * findings verb.
 *
 *   - On hand-built models with numbers worked out on paper: the cost,
 *     share and Amdahl bounds of a synchronous memcpy, the gap classes
 *     (a gap a synchronisation call ends in, a gap before a late launch),
 *     the one-off rule, ranking by confidence then share.
 *   - On generated traces (sources/gen.c): a clean trace yields no
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

#include "builder.h"
#include "cmd-analyses.h"
#include "finding.h"
#include "gen.h"
#include "model.h"
#include "opts.h"
#include "out.h"
#include "source.h"
#include "xmalloc.h"

static char	 tmpdir[] = "/tmp/gpulens-findings.XXXXXX";

/* ---- hand-built models ---- */

static void
add(struct builder *b, uint32_t track, const char *name, int kind,
    int64_t start, int64_t end, uint32_t corr, uint8_t flags,
    int src_kind)
{
	struct lane_event	e;
	struct copy_info	ci;

	memset(&e, 0, sizeof e);
	e.start = start;
	e.end = end;
	e.name = builder_intern(b, name);
	e.kind = (uint8_t)kind;
	e.flags = flags;
	e.rowid = -1;
	e.corr = corr;
	e.aux = NONE32;
	if (kind == EV_MEMCPY || kind == EV_MEMSET) {
		memset(&ci, 0, sizeof ci);
		ci.bytes = 1 << 20;
		ci.kind = kind == EV_MEMCPY ? COPY_HTOD : COPY_UNKNOWN;
		ci.src_kind = (uint8_t)src_kind;
		ci.dst_kind = MEM_DEVICE;
		ci.src_dev = ci.dst_dev = NONE32;
		e.aux = builder_copy(b, &ci);
	}
	builder_event(b, track, &e);
}

static struct model *
finish(struct builder *b)
{
	struct model	*m;
	char		*cause = NULL;

	m = builder_finish(b, &cause);
	assert_non_null(m);
	assert_null(cause);
	return m;
}

/*
 * One GPU (device 0), process 100, thread 1, stream 7. Times in us:
 *   kernel k [0, 100)          launched by cudaLaunchKernel [-10, -5)
 *   memcpy [300, 400)          launched by cudaMemcpy [200, 410): the host
 *                              is blocked 210 us (the cost)
 *   kernel k [400, 500)        launched by cudaLaunchKernel [405, 406):
 *                              after the copy, but it starts at 400 ...
 *   cudaStreamSynchronize [500, 600): ends inside the gap [500, 1000)
 *   kernel k [1000, 1100)      launched by cudaLaunchKernel [990, 999)
 *   kernel k [1100.5, 1200)    launched at [1100.2, 1100.4): a launch gap
 *                              of 0.5 us (the API ended after the previous
 *                              kernel ended)
 *   cudaFree [1200, 1990): the trace ends at 1990 us
 * Window: [-10 us, 1990 us) = 2000 us.
 */
static struct model *
build_copy(void)
{
	struct builder	*b = builder_new(SOURCE_NSYS);
	struct device	 dev;
	uint32_t	 p, t, a, s, g;
	const int64_t	 us = 1000;

	memset(&dev, 0, sizeof dev);
	dev.source_id = 0;
	dev.process = NONE32;
	builder_device(b, &dev);
	p = builder_process(b, 100ULL << 24, 100, "train");
	t = builder_thread(b, 100ULL << 24 | 1, 1, p, "main");
	a = builder_cpu_track(b, TRACK_API, t, 0);
	s = builder_stream(b, 0, 7, p);
	g = builder_gpu_track(b, s);
	add(b, a, "cudaLaunchKernel", EV_API, -10 * us, -5 * us, 1, 0, 0);
	add(b, a, "cudaMemcpy_v3020", EV_API, 200 * us, 410 * us, 2, 0, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 405 * us, 406 * us, 3, 0, 0);
	add(b, a, "cudaStreamSynchronize", EV_API, 500 * us, 600 * us, 0, 0,
	    0);
	add(b, a, "cudaLaunchKernel", EV_API, 990 * us, 999 * us, 4, 0, 0);
	add(b, a, "cudaLaunchKernel", EV_API, 1100200, 1100400, 5, 0, 0);
	add(b, a, "cudaFree", EV_API, 1200 * us, 1990 * us, 0, 0, 0);
	add(b, g, "k", EV_KERNEL, 0, 100 * us, 1, 0, 0);
	add(b, g, "[CUDA memcpy Host-to-Device]", EV_MEMCPY, 300 * us,
	    400 * us, 2, 0, MEM_PAGEABLE);
	add(b, g, "k", EV_KERNEL, 400 * us, 500 * us, 3, 0, 0);
	add(b, g, "k", EV_KERNEL, 1000 * us, 1100 * us, 4, 0, 0);
	add(b, g, "k", EV_KERNEL, 1100500, 1200 * us, 5, 0, 0);
	return finish(b);
}

static const struct finding *
find(const struct findings *fs, const char *type)
{
	size_t	i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->v[i].type, type) == 0)
			return &fs->v[i];
	return NULL;
}

static void
test_memcpy_sync_cost(void **state)
{
	struct model		*m = build_copy();
	struct findings		 fs;
	const struct finding	*f;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(finding_run(m, 0, 0, &fs, &cause), 0);
	assert_int_equal(fs.t1 - fs.t0, 2000000);
	f = find(&fs, "cuda_memcpy_sync");
	assert_non_null(f);
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
	/* A synchronous call is not the asynchronous-pageable rule. */
	assert_null(find(&fs, "cuda_memcpy_async"));
	finding_free(&fs);
	model_free(m);
}

static void
test_gap_classes(void **state)
{
	struct model		*m = build_copy();
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
	f = find(&fs, "cuda_api_sync");
	assert_non_null(f);
	assert_int_equal(f->cost_ns, 500000);
	assert_int_equal(f->t0, 500000);
	assert_int_equal(f->t1, 1000000);
	f = find(&fs, "launch_bound");
	assert_non_null(f);
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
	f = find(&fs, "gpu_time_util");
	assert_non_null(f);
	assert_int_equal(f->cost_ns, 640000);
	assert_int_equal(f->t0, 520000);
	assert_int_equal(f->t1, 1000000);
	/* dominant_kernel: k, 399.5 us on device 0, never high. */
	f = find(&fs, "dominant_kernel");
	assert_non_null(f);
	assert_int_equal(f->cost_ns, 399500);
	assert_int_equal(f->confidence, FINDING_MEDIUM);
	assert_non_null(strstr(f->command, "regex:'^k$'"));
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
	struct model		*m = build_copy();
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
	path = xasprintf("%s/%s.sqlite", tmpdir, name);
	if (gen_write_nsys(path, &o, NULL, &cause) != 0)
		fail_msg("gen_write_nsys: %s", cause);
	m = source_read(path, NULL, &cause);
	if (m == NULL)
		fail_msg("source_read: %s", cause);
	unlink(path);
	free(path);
	return m;
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
	assert_int_equal(cJSON_GetArraySize(fs.rules), 13);
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

/* A number of a row: out_int writes raw JSON text to keep int64 exact. */
static double
jnum(cJSON *r, const char *f)
{
	cJSON	*it = cJSON_GetObjectItem(r, f);

	assert_non_null(it);
	if (cJSON_IsRaw(it))
		return strtod(it->valuestring, NULL);
	assert_true(cJSON_IsNumber(it));
	return it->valuedouble;
}

static void
parse(struct opts *o, const char *const *av, int ac)
{
	char	*cause = NULL;

	if (opts_parse(o, FINDINGS_OPTS, ac, (char **)av, &cause) != 0)
		fail_msg("opts_parse: %s", cause);
}

static void
test_verb(void **state)
{
	struct model		*m = build_copy();
	const char		*av[] = { "findings", "t.sqlite" };
	struct vopt		 v[] = FINDINGS_VOPTS;
	struct opts		 o;
	struct out		 out;
	char			*cause = NULL;
	const char		*code = NULL;
	cJSON			*row;

	(void)state;
	parse(&o, av, 2);
	out_init(&out, "findings");
	assert_int_equal(cmd_findings_compute(m, &o, v, 1, &out, &code,
	    &cause), 0);
	row = cJSON_GetArrayItem(out.rows, 1);
	assert_string_equal(cJSON_GetObjectItem(row, "type")->valuestring,
	    "cuda_api_sync");
	assert_string_equal(cJSON_GetObjectItem(row, "key")->valuestring,
	    "type=cuda_api_sync");
	assert_int_equal((int64_t)jnum(row, "rank"), 2);
	/* Relative times: the origin is -10 us. */
	assert_int_equal((int64_t)jnum(row, "start_ns"), 510000);
	assert_int_equal((int64_t)jnum(row, "cost_ns"), 500000);
	assert_int_equal((int64_t)jnum(row, "device"), 0);
	assert_true(cJSON_IsObject(cJSON_GetObjectItem(row, "evidence")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(row, "ncu_command")));
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(out.aux,
	    "rules")), 13);
	out_free(&out);

	/* --min-confidence high keeps the three high ones. */
	v[0].value = "high";
	out_init(&out, "findings");
	assert_int_equal(cmd_findings_compute(m, &o, v, 1, &out, &code,
	    &cause), 0);
	assert_int_equal(cJSON_GetArraySize(out.rows), 3);
	out_free(&out);
	v[0].value = "severe";
	out_init(&out, "findings");
	assert_int_equal(cmd_findings_compute(m, &o, v, 1, &out, &code,
	    &cause), -1);
	assert_non_null(strstr(cause, "--min-confidence"));
	free(cause);
	out_free(&out);
	opts_free(&o);
	model_free(m);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	rmdir(tmpdir);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_sync_cost),
		cmocka_unit_test(test_gap_classes),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_conf_rules),
		cmocka_unit_test(test_plant_parse),
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_plant_launch),
		cmocka_unit_test(test_plant_sync),
		cmocka_unit_test(test_plant_copies),
		cmocka_unit_test(test_plant_comm),
		cmocka_unit_test(test_plant_idle),
		cmocka_unit_test(test_verb),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
