/*
 * rocprof_json_test: the rocprofv3 JSON reader, on the real output in
 * $GPULENS_FIXTURES/rocpd/tracelens (43915 kernel dispatches on an
 * MI350X node) checked against an independent walk of the same JSON with
 * cJSON, and on small files this test writes to reach every record kind:
 * HIP, HSA, RCCL and marker calls (marker names from strings.marker_api),
 * memory copies, two processes (one with HIP streams, one without), the
 * records the reader does not load, timestamps beyond 2^53, broken input.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
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
#include <zlib.h>

#include "model/correlate.h"
#include "model/model.h"
#include "sources/source.h"
#include "tsupport.h"
#include "util/xmalloc.h"
#include "util/zfile.h"

static char	*fixture;		/* the real file, or NULL */
static struct model *fm;		/* ... loaded */
static cJSON	*fjson;			/* ... parsed here */

/* ---- helpers ------------------------------------------------------- */

static char *
write_file(const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", ts_tmp(), name);

	ts_write_str(p, text);
	return p;
}

static int64_t
jint(const cJSON *o, const char *k)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (cJSON_IsObject(v))
		v = cJSON_GetObjectItemCaseSensitive(v, "handle");
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}

static void
need_fixture(void)
{
	if (fm == NULL || fjson == NULL)
		ts_skip("GPULENS_FIXTURES unset or without "
		    "rocpd/tracelens/908_results.json.gz: skipping");
}

/* ---- the real file ------------------------------------------------- */

static void
test_fixture_entities(void **state)
{
	size_t	i;

	(void)state;
	need_fixture();
	assert_int_equal(fm->source, SOURCE_ROCPROF_JSON);
	assert_int_equal(fm->nprocesses, 1);
	ts_process_is(fm, 0, 908, "python3.10", "smci350-zts-gtu-c6-25");
	/* Ten agents, two of them CPUs. */
	assert_int_equal(fm->ndevices, 8);
	for (i = 0; i < fm->ndevices; i++) {
		assert_int_equal(fm->devices[i].source_id, i);
		assert_string_equal(model_str(fm, fm->devices[i].name),
		    "AMD Instinct MI350X");
		assert_string_equal(model_str(fm, fm->devices[i].chip),
		    "gfx950");
		assert_int_equal(fm->devices[i].sm_count, 256);
		assert_int_equal(fm->devices[i].threads_per_warp, 64);
	}
}

/* Kernel count, time and tracks against a walk of the JSON. */
static void
test_fixture_kernels(void **state)
{
	const cJSON	*proc, *recs, *rec, *syms, *sym;
	char		**names;
	int64_t		*sums, *counts;
	size_t		 nsyms, i, t, j, nrec = 0, distinct = 0;
	uint64_t	 keys[1024];
	size_t		 nkeys = 0, k;

	(void)state;
	need_fixture();
	proc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(fjson,
	    "rocprofiler-sdk-tool"), 0);
	syms = cJSON_GetObjectItemCaseSensitive(proc, "kernel_symbols");
	nsyms = (size_t)cJSON_GetArraySize(syms);
	names = xcalloc(nsyms, sizeof *names);
	sums = xcalloc(nsyms, sizeof *sums);
	counts = xcalloc(nsyms, sizeof *counts);
	i = 0;
	cJSON_ArrayForEach(sym, syms) {
		assert_int_equal(jint(sym, "kernel_id"), i);
		names[i++] = cJSON_GetObjectItemCaseSensitive(sym,
		    "formatted_kernel_name")->valuestring;
	}
	recs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(
	    proc, "buffer_records"), "kernel_dispatch");
	cJSON_ArrayForEach(rec, recs) {
		const cJSON *info = cJSON_GetObjectItemCaseSensitive(rec,
		    "dispatch_info");
		int64_t kid = jint(info, "kernel_id");
		uint64_t key = (uint64_t)jint(info, "agent_id") << 32 |
		    (uint64_t)jint(rec, "stream_id");
		sums[kid] += jint(rec, "end_timestamp") -
		    jint(rec, "start_timestamp");
		counts[kid]++;
		nrec++;
		for (k = 0; k < nkeys; k++)
			if (keys[k] == key)
				break;
		if (k == nkeys && nkeys < 1024)
			keys[nkeys++] = key;
	}
	assert_int_equal(nrec, 43915);
	assert_int_equal(fm->kind_count[EV_KERNEL], nrec);
	/* One GPU track per (agent, stream). */
	for (t = 0, j = 0; t < fm->ntracks; t++)
		if (fm->tracks[t].type == TRACK_GPU)
			j++;
	assert_int_equal(j, nkeys);

	/* Merge symbols of equal names, then compare per name. */
	for (i = 0; i < nsyms; i++) {
		int64_t n = 0, s = 0, model_sum = 0;
		size_t model_n = 0;
		if (counts[i] == 0)
			continue;
		for (j = i; j < nsyms; j++) {
			if (counts[j] != 0 && strcmp(names[i], names[j]) == 0) {
				n += counts[j];
				s += sums[j];
				if (j != i)
					counts[j] = 0;
			}
		}
		for (t = 0; t < fm->ntracks; t++) {
			const struct lane *l = &fm->tracks[t].lane;
			for (j = 0; j < l->n; j++)
				if (strcmp(model_str(fm, l->name[j]),
				    names[i]) == 0) {
					model_n++;
					model_sum += l->end[j] - l->start[j];
				}
		}
		assert_int_equal(model_n, n);
		assert_int_equal(model_sum, s);
		distinct++;
	}
	assert_int_equal(distinct, 80);
	free(names);
	free(sums);
	free(counts);
}

static void
test_fixture_kernel_info(void **state)
{
	uint32_t			 g;
	const struct kernel_info	*k;

	(void)state;
	need_fixture();
	g = ts_find(fm, EV_KERNEL, "__amd_rocclr_copyBuffer");
	assert_int_not_equal(g, NONE32);
	k = ts_kernel_of(fm, g);
	assert_true(k->block[0] > 0);
	assert_true(k->grid[0] > 0);
	assert_string_equal(model_str(fm, k->mangled),
	    "__amd_rocclr_copyBuffer.kd");
	/* No API records in this file: nothing to correlate. */
	assert_int_equal(fm->kind_count[EV_API], 0);
}

/* ---- written files ------------------------------------------------- */

static const char *const synthetic =
"{\"rocprofiler-sdk-tool\": [\n"
" {\"metadata\": {\"pid\": 5001, \"init_time\": 100, \"fini_time\": 900000,\n"
"   \"node\": {\"hostname\": \"node-a\"},\n"
"   \"command\": [\"/opt/bin/trainer\", \"--fast\"]},\n"
"  \"agents\": [\n"
"   {\"id\": {\"handle\": 70}, \"type\": 1, \"name\": \"cpu\",\n"
"    \"node_id\": 0, \"logical_node_type_id\": 0, \"cu_count\": 64},\n"
"   {\"id\": {\"handle\": 71}, \"type\": 2, \"name\": \"gfx942\",\n"
"    \"product_name\": \"AMD Instinct MI300X\", \"cu_count\": 304,\n"
"    \"node_id\": 1, \"logical_node_type_id\": 0},\n"
"   {\"id\": {\"handle\": 72}, \"type\": 2, \"name\": \"gfx942\",\n"
"    \"product_name\": \"AMD Instinct MI300X\", \"cu_count\": 304,\n"
"    \"node_id\": 2, \"logical_node_type_id\": 1}],\n"
"  \"strings\": {\n"
"   \"buffer_records\": [\n"
"    {\"kind\": \"NONE\", \"operations\": []},\n"
"    {\"kind\": \"HSA_CORE_API\", \"operations\": [\"hsa_none\",\n"
"      \"hsa_signal_wait_scacquire\"]},\n"
"    {\"kind\": \"HIP_RUNTIME_API\", \"operations\": [\"hip_none\",\n"
"      \"hipLaunchKernel\", \"hipMemcpyAsync\"]},\n"
"    {\"kind\": \"MARKER_CORE_API\", \"operations\": [\"m_none\",\n"
"      \"roctxMarkA\", \"roctxRangePushA\"]},\n"
"    {\"kind\": \"MEMORY_COPY\", \"operations\": [\"MEMORY_COPY_NONE\",\n"
"      \"MEMORY_COPY_HOST_TO_DEVICE\", \"MEMORY_COPY_DEVICE_TO_DEVICE\"]},\n"
"    {\"kind\": \"KERNEL_DISPATCH\", \"operations\": [\"n\", \"e\", \"c\"]},\n"
"    {\"kind\": \"RCCL_API\", \"operations\": [\"r_none\",\n"
"      \"ncclAllReduce\"]}],\n"
"   \"marker_api\": [{\"key\": 55, \"value\": \"epoch\"},\n"
"     {\"key\": 56, \"value\": \"tick\"}]},\n"
"  \"kernel_symbols\": [\n"
"   {\"kernel_id\": 0, \"kernel_name\": \"\", \"formatted_kernel_name\": \"\"},\n"
"   {\"kernel_id\": 1, \"kernel_name\": \"_Z4gemmv.kd\",\n"
"    \"formatted_kernel_name\": \"gemm()\", \"truncated_kernel_name\":\n"
"    \"gemm\", \"group_segment_size\": 512, \"arch_vgpr_count\": 40,\n"
"    \"accum_vgpr_count\": 8},\n"
"   {\"kernel_id\": 2, \"kernel_name\": \"ncclDevKernel_Generic.kd\",\n"
"    \"formatted_kernel_name\": \"ncclDevKernel_Generic\"}],\n"
"  \"buffer_records\": {\n"
"   \"hip_api\": [\n"
"    {\"kind\": 2, \"operation\": 1, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 10, \"external\": 0},\n"
"     \"start_timestamp\": 1000, \"end_timestamp\": 2000},\n"
"    {\"kind\": 2, \"operation\": 2, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 11, \"external\": 0},\n"
"     \"start_timestamp\": 3000, \"end_timestamp\": 4000}],\n"
"   \"hsa_api\": [\n"
"    {\"kind\": 1, \"operation\": 1, \"thread_id\": 5002,\n"
"     \"correlation_id\": {\"internal\": 12, \"external\": 0},\n"
"     \"start_timestamp\": 1500, \"end_timestamp\": 1700}],\n"
"   \"marker_api\": [\n"
"    {\"kind\": 3, \"operation\": 2, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 55, \"external\": 0},\n"
"     \"start_timestamp\": 500, \"end_timestamp\": 50000},\n"
"    {\"kind\": 3, \"operation\": 1, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 56, \"external\": 0},\n"
"     \"start_timestamp\": 60000, \"end_timestamp\": 60000}],\n"
"   \"rccl_api\": [\n"
"    {\"kind\": 6, \"operation\": 1, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 13, \"external\": 0},\n"
"     \"start_timestamp\": 7000, \"end_timestamp\": 7500}],\n"
"   \"kernel_dispatch\": [\n"
"    {\"kind\": 5, \"operation\": 2, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 10, \"external\": 0},\n"
"     \"start_timestamp\": 5000, \"end_timestamp\": 9000,\n"
"     \"dispatch_info\": {\"agent_id\": {\"handle\": 71},\n"
"      \"queue_id\": {\"handle\": 3}, \"kernel_id\": 1, \"dispatch_id\": 1,\n"
"      \"private_segment_size\": 32, \"group_segment_size\": 1536,\n"
"      \"workgroup_size\": {\"x\": 64, \"y\": 1, \"z\": 1},\n"
"      \"grid_size\": {\"x\": 640, \"y\": 2, \"z\": 1}},\n"
"     \"stream_id\": {\"handle\": 9}},\n"
"    {\"kind\": 5, \"operation\": 2, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 13, \"external\": 0},\n"
"     \"start_timestamp\": 8000, \"end_timestamp\": 20000,\n"
"     \"dispatch_info\": {\"agent_id\": {\"handle\": 72},\n"
"      \"queue_id\": {\"handle\": 4}, \"kernel_id\": 2, \"dispatch_id\": 2,\n"
"      \"workgroup_size\": {\"x\": 256, \"y\": 1, \"z\": 1},\n"
"      \"grid_size\": {\"x\": 256, \"y\": 1, \"z\": 1}},\n"
"     \"stream_id\": {\"handle\": 0}}],\n"
"   \"memory_copy\": [\n"
"    {\"kind\": 4, \"operation\": 1, \"thread_id\": 5001,\n"
"     \"correlation_id\": {\"internal\": 11, \"external\": 0},\n"
"     \"start_timestamp\": 4500, \"end_timestamp\": 4800,\n"
"     \"src_agent_id\": {\"handle\": 70}, \"dst_agent_id\": {\"handle\": 71},\n"
"     \"bytes\": 65536, \"stream_id\": {\"handle\": 9}}],\n"
"   \"memory_allocation\": [{\"kind\": 9}, {\"kind\": 9}],\n"
"   \"scratch_memory\": []},\n"
"  \"callback_records\": {\"counter_collection\": [{\"x\": 1}]}},\n"
" {\"metadata\": {\"pid\": 5002, \"command\": [\"worker\"]},\n"
"  \"agents\": [\n"
"   {\"id\": {\"handle\": 81}, \"type\": 2, \"name\": \"gfx942\",\n"
"    \"product_name\": \"AMD Instinct MI300X\", \"cu_count\": 304,\n"
"    \"logical_node_type_id\": 0}],\n"
"  \"strings\": {\"buffer_records\": [\n"
"    {\"kind\": \"NONE\", \"operations\": []},\n"
"    {\"kind\": \"HIP_RUNTIME_API\", \"operations\": [\"n\",\n"
"      \"hipLaunchKernel\"]},\n"
"    {\"kind\": \"KERNEL_DISPATCH\", \"operations\": [\"n\", \"e\", \"c\"]}]},\n"
"  \"kernel_symbols\": [{\"kernel_id\": 7, \"kernel_name\": \"k.kd\",\n"
"    \"formatted_kernel_name\": \"k\"}],\n"
"  \"buffer_records\": {\n"
"   \"hip_api\": [{\"kind\": 1, \"operation\": 1, \"thread_id\": 5002,\n"
"     \"correlation_id\": {\"internal\": 10, \"external\": 0},\n"
"     \"start_timestamp\": 100000, \"end_timestamp\": 100500}],\n"
"   \"kernel_dispatch\": [{\"kind\": 2, \"operation\": 2,\n"
"     \"correlation_id\": {\"internal\": 10, \"external\": 0},\n"
"     \"start_timestamp\": 101000, \"end_timestamp\": 102000,\n"
"     \"dispatch_info\": {\"agent_id\": {\"handle\": 81},\n"
"      \"queue_id\": {\"handle\": 6}, \"kernel_id\": 7,\n"
"      \"workgroup_size\": {\"x\": 1, \"y\": 1, \"z\": 1},\n"
"      \"grid_size\": {\"x\": 1, \"y\": 1, \"z\": 1}},\n"
"     \"stream_id\": {\"handle\": 0}}]}}]}\n";

static struct model *
load(const char *p)
{
	return ts_load(rocprof_json_load, p);
}

static void
test_synthetic(void **state)
{
	struct model			*m;
	char				*p;
	uint32_t			 g, a;
	const struct track		*tr;
	const struct kernel_info	*k;
	const struct copy_info		*c;
	struct evref			 r;

	(void)state;
	p = write_file("results.json", synthetic);
	assert_true(rocprof_json_sniff(p));
	m = load(p);
	assert_int_equal(m->nprocesses, 2);
	ts_process_is(m, 0, 5001, "trainer", "node-a");
	assert_string_equal(model_meta(m, "command"), "worker");
	assert_int_equal(m->processes[1].pid, 5002);
	/* GPU 0 of both processes is one device. */
	assert_int_equal(m->ndevices, 2);

	ts_kind_counts(m, "kernel=3 memcpy=1 api=5 nvtx=1 mark=1");
	assert_int_not_equal(ts_find(m, EV_NVTX, "epoch"), NONE32);
	assert_int_not_equal(ts_find(m, EV_MARK, "tick"), NONE32);

	/* Process 5001 has streams: tracks by stream. */
	g = ts_find(m, EV_KERNEL, "gemm()");
	tr = ts_track_of(m, g);
	assert_string_equal(model_str(m, tr->name), "Stream 9");
	assert_int_equal(m->processes[tr->process].pid, 5001);
	k = ts_kernel_of(m, g);
	ts_kernel_dims(k, 10, 2, 64, 512, 1024, 32, 48);
	assert_string_equal(model_str(m, k->short_name), "gemm");
	a = correlate_launch(m, g);
	assert_string_equal(model_str(m, model_ev_name(m, a)),
	    "hipLaunchKernel");
	assert_int_equal(model_ev_start(m, a), 1000);

	g = ts_find(m, EV_KERNEL, "ncclDevKernel_Generic");
	assert_true(ts_flags_of(m, g) & EVF_COMM);
	assert_string_equal(model_str(m, ts_track_of(m, g)->name), "Stream 0");
	a = correlate_launch(m, g);
	assert_string_equal(model_str(m, model_ev_name(m, a)),
	    "ncclAllReduce");
	assert_true(ts_flags_of(m, a) & EVF_COMM);
	assert_true(ts_flags_of(m, ts_find(m, EV_API,
	    "hsa_signal_wait_scacquire")) & EVF_DRIVER);

	g = ts_find(m, EV_MEMCPY, "MEMORY_COPY_HOST_TO_DEVICE");
	r = model_ev(m, g);
	c = &m->copies[m->tracks[r.track].lane.aux[r.idx]];
	assert_int_equal(c->kind, COPY_HTOD);
	assert_int_equal(c->bytes, 65536);
	assert_int_equal(c->dst_dev, 0);
	assert_int_equal(c->src_dev, NONE32);
	assert_string_equal(model_str(m, model_ev_name(m,
	    correlate_launch(m, g))), "hipMemcpyAsync");

	/* Process 5002 has no streams: tracks by queue; its correlation
	 * id 10 is its own, not process 5001's. */
	g = ts_find(m, EV_KERNEL, "k");
	tr = ts_track_of(m, g);
	assert_string_equal(model_str(m, tr->name), "Queue 6");
	a = correlate_launch(m, g);
	assert_int_equal(model_ev_start(m, a), 100000);

	assert_true(ts_has_warning(m, "memory_allocation 2"));
	assert_true(ts_has_warning(m, "counter_collection 1"));
	assert_false(ts_has_warning(m, "2^53"));
	model_free(m);
	free(p);
}

static void
test_inexact_times(void **state)
{
	struct model	*m;
	char		*p;

	(void)state;
	p = write_file("big.json", "{\"rocprofiler-sdk-tool\": [{"
	    "\"metadata\": {\"pid\": 1}, \"agents\": [], \"strings\": {},"
	    "\"buffer_records\": {\"kernel_dispatch\": [{\"kind\": 0,"
	    "\"start_timestamp\": 1152921504606846976,"
	    "\"end_timestamp\": 1152921504606847976,"
	    "\"dispatch_info\": {\"kernel_id\": 4}}]}}]}");
	m = load(p);
	assert_int_equal(m->kind_count[EV_KERNEL], 1);
	assert_int_not_equal(ts_find(m, EV_KERNEL, "kernel 4"), NONE32);
	assert_true(ts_has_warning(m, "2 timestamps above 2^53"));
	model_free(m);
	free(p);
}

static void
test_bad_input(void **state)
{
	static const struct {
		const char	*file, *text, *error;
		int		 sniffed;	/* still looks like rocprofv3 */
	} bad[] = {
		{ "broken.json", "{\"rocprofiler-sdk-tool\": [{\"a\": ",
		    "invalid JSON near byte", 1 },
		{ "scalar.json", "{\"rocprofiler-sdk-tool\": 5}",
		    "not rocprofv3 JSON output", 0 },
		{ "empty.json", "{\"rocprofiler-sdk-tool\": []}",
		    "without any process", 0 },
	};
	char	*p;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof *bad; i++) {
		p = write_file(bad[i].file, bad[i].text);
		if (bad[i].sniffed)
			assert_true(rocprof_json_sniff(p));
		ts_refused(rocprof_json_load, p, bad[i].error);
		free(p);
	}
}

static void
test_sniff(void **state)
{
	char	*p, *gz;
	gzFile	 out;

	(void)state;
	/* Whitespace and a BOM before the key are fine. */
	p = write_file("ws.json", "\xef\xbb\xbf  \n{ \n\t\"rocprofiler-sdk-tool\""
	    ": []}");
	assert_true(rocprof_json_sniff(p));
	free(p);
	/* Kineto traces and other JSON are not ours. */
	p = write_file("kineto.json", "{\"traceEvents\": [], "
	    "\"rocprofiler-sdk-tool\": []}");
	assert_false(rocprof_json_sniff(p));
	free(p);
	p = write_file("array.json", "[{\"rocprofiler-sdk-tool\": 1}]");
	assert_false(rocprof_json_sniff(p));
	free(p);
	/* Compressed. */
	gz = xasprintf("%s/results.json.gz", ts_tmp());
	assert_non_null(out = gzopen(gz, "wb"));
	gzputs(out, synthetic);
	gzclose(out);
	assert_true(rocprof_json_sniff(gz));
	{
		const char *what;
		char *cause = NULL;
		assert_int_equal(source_detect(gz, &what, &cause),
		    DETECT_ROCPROF_JSON);
		assert_null(cause);
	}
	free(gz);
}

/* ---- setup --------------------------------------------------------- */

static int
group_setup(void **state)
{
	char		*cause = NULL, *text = NULL;
	size_t		 len;

	(void)state;
	if (ts_tmp_init() != 0)
		return -1;
	fixture = ts_fixture("rocpd/tracelens/908_results.json.gz");
	if (fixture == NULL)
		return 0;
	fm = ts_try_load(rocprof_json_load, fixture);
	if (zfile_slurp(fixture, &text, &len, 0, &cause) == 0) {
		fjson = cJSON_ParseWithLength(text, len);
		free(text);
	}
	free(cause);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	model_free(fm);
	cJSON_Delete(fjson);
	free(fixture);
	return ts_tmp_free();
}

TS_MAIN(group_setup, group_teardown,
	cmocka_unit_test(test_fixture_entities),
	cmocka_unit_test(test_fixture_kernels),
	cmocka_unit_test(test_fixture_kernel_info),
	cmocka_unit_test(test_synthetic),
	cmocka_unit_test(test_inexact_times),
	cmocka_unit_test(test_bad_input),
	cmocka_unit_test(test_sniff))
