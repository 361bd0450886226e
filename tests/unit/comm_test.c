/*
 * comm_test: communication kernels' message sizes, from a hand-written
 * Kineto trace through the model to `gpulens comm`: the Kineto reader's
 * collective args in kernel_info (element sizes of the dtypes, an unknown
 * dtype, the "Process Group ID" spelling of older traces, an escaped
 * string), their survival through the cache and a multi-rank merge, and
 * comm's total_bytes (AllGather by its output, the rest by their input),
 * algorithm and bus bandwidth (summed and median) computed by hand below,
 * group size and process group agreement, and nulls where the size or the
 * bus factor is unknown. And a collective's identity (analysis/comm.h) on
 * a generated trace whose NCCL kernel is ncclDevKernel_Generic without
 * args: the nccl:all_reduce annotation around its launch names it.
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
#include "model/cache.h"
#include "headless/cmd.h"
#include "headless/cmd-events.h"
#include "sources/kineto.h"
#include "sources/synth/kgen.h"
#include "model/merge.h"
#include "model/model.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "tsupport.h"

extern const struct cmd_entry	cmd_comm_entry;

/* A kernel on device 0: name, stream, ts and dur (us), and its args. */
#define K(name, stream, ts, dur, args)					\
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,"	\
	"\"tid\":" #stream ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":"	\
	"{\"device\":0,\"stream\":" #stream ",\"correlation\":1" args "}},\n"
#define PG0	",\"Process Group Name\":\"0\",\"Process Group Description\":" \
	"\"default_pg\",\"Process Group Ranks\":\"[0, 1, 2, 3]\""
#define AR	"ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)"
#define AG	"ncclDevKernel_AllGather_RING_LL(x)"
#define RED	"ncclDevKernel_Reduce_Sum_f32_RING_LL(x)"
/* A Reduce of 10 elements of dtype at ts, 1 us long, and its args. */
#define REDUCE(ts, dtype, args)						\
	K(RED, 25, ts, 1, ",\"Collective name\":\"reduce\","		\
	"\"In msg nelems\":10,\"dtype\":\"" dtype "\"" args)

/*
 * Streams of device 0 and what comm must make of them (1 us = 1000 ns, so
 * bytes / ns is GB/s):
 *   20 AllReduce, group of 4 (bus factor 2 * 3 / 4 = 1.5):
 *      1000 Float = 4000 B in 10 us, 5000 BFloat16 = 10000 B in 20 us, and
 *      a kernel of unknown dtype "Weird" (not sized);
 *   21 AllGather, group of 4 (factor 3 / 4), sized by the output:
 *      _allgather_base 250 -> 1000 Half = 2000 B in 10 us (process group
 *      "0"), allgather_into_tensor_coalesced 100 -> 400 Long = 3200 B in
 *      10 us (process group "1"): the groups disagree;
 *   22 Broadcast (factor 1, no group size needed): 1000 Byte in 4 us;
 *   23 Generic with the collective "coalesced": 2000 Int = 8000 B in
 *      10 us, no bus factor;
 *   24 SendRecv without args: nothing known;
 *   25 Reduce (factor 1), the other dtypes, 10 elements each, 1 us each:
 *      Double 8, Char 1, Bool 1, ComplexFloat 8, float 4, Float8_e4m3fn 1,
 *      c10::BFloat16 2, int64 8 (Process Group ID 3 and an escaped
 *      description on the first).
 */
static const char trace[] =
    "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": 0, "
    "\"world_size\": 4},\n"
    " \"traceEvents\": [\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
    "\"pid\":10,\"tid\":11,\"ts\":90,\"dur\":1,\"args\":{\"correlation\":1}},\n"
    K(AR, 20, 100, 10, ",\"Collective name\":\"allreduce\",\"In msg nelems\":"
    "1000,\"Out msg nelems\":1000,\"Group size\":4,\"dtype\":\"Float\"" PG0)
    K(AR, 20, 200, 20, ",\"Collective name\":\"allreduce\",\"In msg nelems\":"
    "5000,\"Out msg nelems\":5000,\"Group size\":4,\"dtype\":\"BFloat16\"" PG0)
    K(AR, 20, 300, 5, ",\"Collective name\":\"allreduce\",\"In msg nelems\":"
    "7,\"Out msg nelems\":7,\"Group size\":4,\"dtype\":\"Weird\"" PG0)
    K(AG, 21, 400, 10, ",\"Collective name\":\"_allgather_base\","
    "\"In msg nelems\":250,\"Out msg nelems\":1000,\"Group size\":4,"
    "\"dtype\":\"Half\"" PG0)
    K(AG, 21, 500, 10, ",\"Collective name\":"
    "\"allgather_into_tensor_coalesced\",\"In msg nelems\":100,"
    "\"Out msg nelems\":400,\"Group size\":4,\"dtype\":\"Long\","
    "\"Process Group Name\":\"1\"")
    K("ncclKernel_Broadcast_RING_LL(x)", 22, 600, 4, ",\"Collective name\":"
    "\"broadcast\",\"In msg nelems\":1000,\"Out msg nelems\":1000,"
    "\"dtype\":\"Byte\"")
    K("ncclDevKernel_Generic(x)", 23, 700, 10, ",\"Collective name\":"
    "\"coalesced\",\"In msg nelems\":2000,\"Out msg nelems\":2000,"
    "\"Group size\":4,\"dtype\":\"Int\"")
    K("ncclKernel_SendRecv(x)", 24, 800, 3, "")
    REDUCE(900, "Double", ",\"Process Group ID\":3,"
    "\"Process Group Description\":\"de\\u0066ault\"")
    REDUCE(902, "Char", "")
    REDUCE(904, "Bool", "")
    REDUCE(906, "ComplexFloat", "")
    REDUCE(908, "float", "")
    REDUCE(910, "Float8_e4m3fn", "")
    REDUCE(912, "c10::BFloat16", "")
    REDUCE(914, "int64", "")
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\","
    "\"pid\":10,\"tid\":11,\"ts\":95,\"dur\":1,\"args\":{\"Collective name\":"
    "\"allreduce\",\"In msg nelems\":1000,\"dtype\":\"Float\"}}\n"
    "]}\n";

/* The scratch directory (the cache too) with the trace as t.json. */
static int
setup(void **state)
{
	(void)state;
	if (ts_tmp_init_cache() != 0)
		return -1;
	ts_write_str(ts_path("t.json"), trace);
	return 0;
}

static struct model *
load(void)
{
	return ts_load(kineto_load, ts_path("t.json"));
}

/* The kernel_info of the kernel on stream that starts at ts (us). */
static const struct kernel_info *
kinfo(const struct model *m, uint64_t stream, int64_t ts)
{
	size_t	t, i;

	for (t = 0; t < m->ntracks; t++) {
		const struct track *tr = &m->tracks[t];
		if (tr->type != TRACK_GPU ||
		    m->streams[tr->stream].source_id != stream)
			continue;
		for (i = 0; i < tr->lane.n; i++)
			if (tr->lane.kind[i] == EV_KERNEL &&
			    tr->lane.start[i] == ts * 1000) {
				assert_true(tr->lane.aux[i] < m->nkernels);
				return &m->kernels[tr->lane.aux[i]];
			}
	}
	fail_msg("no kernel on stream %llu at %lld us",
	    (unsigned long long)stream, (long long)ts);
	return NULL;
}

/* ---- running comm -------------------------------------------------- */


/* `gpulens comm t.json --limit 0` on m: the envelope. */
static cJSON *
comm(const struct model *m)
{
	static char	 a0[] = "comm", a1[] = "t.json", a2[] = "--limit";
	static char	 a3[] = "0";
	char		*argv[] = { a0, a1, a2, a3, NULL };
	struct opts	 o;
	struct out	 out;
	const char	*code = NULL;
	char		*cause = NULL;
	cJSON		*env;

	ts_opts_out(&o, cmd_comm_entry.options, 4, argv, &out, "comm");
	if (cmd_comm_run(m, &o, &out, &code, &cause) != 0)
		fail_msg("comm: %s", cause);
	env = ts_emit_json(&out, m, "t.json");
	out_free(&out);
	opts_free(&o);
	return env;
}

/* The kernel row of collective on stream 2x of device 0, rank 0. */
static const cJSON *
row(cJSON *env, const char *coll, int stream)
{
	char		 key[256];

	snprintf(key, sizeof key, "comm|kind=kernel|collective=%s|device=0|"
	    "stream=%d|pid=10|rank=0", coll, stream);
	return ts_jrow(cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(env, "data"), "rows"), key);
}

/* ---- tests --------------------------------------------------------- */

static void
test_kernel_info(void **state)
{
	struct model			*m = load();
	const struct kernel_info	*k;
	static const struct {
		int64_t	 ts;
		int	 size;
	} dt[] = {
		{ 900, 8 }, { 902, 1 }, { 904, 1 }, { 906, 8 }, { 908, 4 },
		{ 910, 1 }, { 912, 2 }, { 914, 8 },
	};
	size_t				 i;

	(void)state;
	k = kinfo(m, 20, 100);
	assert_string_equal(model_str(m, k->comm_coll), "allreduce");
	assert_string_equal(model_str(m, k->comm_dtype), "Float");
	assert_int_equal(k->comm_elem_size, 4);
	assert_int_equal(k->comm_flags, KCOMM_IN | KCOMM_OUT);
	assert_int_equal(k->comm_in_nelems, 1000);
	assert_int_equal(k->comm_out_nelems, 1000);
	assert_int_equal(k->comm_group_size, 4);
	assert_string_equal(model_str(m, k->comm_pg_name), "0");
	assert_string_equal(model_str(m, k->comm_pg_desc), "default_pg");
	assert_string_equal(model_str(m, k->comm_pg_ranks), "[0, 1, 2, 3]");
	/* The usual kernel fields are still there. */
	assert_string_equal(model_str(m, k->short_name),
	    "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
	assert_int_equal(kinfo(m, 20, 200)->comm_elem_size, 2);
	/* An unknown dtype is kept, with no element size. */
	k = kinfo(m, 20, 300);
	assert_string_equal(model_str(m, k->comm_dtype), "Weird");
	assert_int_equal(k->comm_elem_size, 0);
	assert_int_equal(k->comm_in_nelems, 7);
	k = kinfo(m, 21, 400);
	assert_string_equal(model_str(m, k->comm_coll), "_allgather_base");
	assert_int_equal(k->comm_in_nelems, 250);
	assert_int_equal(k->comm_out_nelems, 1000);
	assert_int_equal(k->comm_elem_size, 2);
	assert_int_equal(kinfo(m, 21, 500)->comm_elem_size, 8);
	assert_int_equal(kinfo(m, 22, 600)->comm_elem_size, 1);
	assert_int_equal(kinfo(m, 22, 600)->comm_group_size, 0);
	assert_int_equal(kinfo(m, 23, 700)->comm_elem_size, 4);
	/* No args: nothing known. */
	k = kinfo(m, 24, 800);
	assert_int_equal(k->comm_flags, 0);
	assert_int_equal(k->comm_coll, 0);
	assert_int_equal(k->comm_dtype, 0);
	assert_int_equal(k->comm_elem_size, 0);
	assert_int_equal(k->comm_pg_name, 0);
	for (i = 0; i < sizeof dt / sizeof dt[0]; i++) {
		k = kinfo(m, 25, dt[i].ts);
		assert_int_equal(k->comm_elem_size, dt[i].size);
		assert_int_equal(k->comm_flags, KCOMM_IN);
	}
	/* Older traces' integer "Process Group ID"; escapes decoded. */
	k = kinfo(m, 25, 900);
	assert_string_equal(model_str(m, k->comm_pg_name), "3");
	assert_string_equal(model_str(m, k->comm_pg_desc), "default");
	/* Kernels that differ only in their message are distinct records. */
	assert_ptr_not_equal(kinfo(m, 25, 902), kinfo(m, 25, 904));
	model_free(m);
}

static void
test_comm_bytes(void **state)
{
	struct model	*m = load();
	cJSON		*env = comm(m);
	const cJSON	*r;

	(void)state;
	/* AllReduce: 4000 + 10000 B over 10 + 20 us; the "Weird" kernel
	 * counts in the times, not in the sizes. */
	r = row(env, "AllReduce", 20);
	ts_jrow_is(r, "count=3 total_ns=35000 sized_count=2 total_bytes=14000 "
	    "group_size=4");
	assert_string_equal(ts_jfield(r, "process_group")->valuestring, "0");
	assert_float_equal(ts_jdouble(r, "algbw_gbps"), 14000.0 / 30000, 1e-3);
	assert_float_equal(ts_jdouble(r, "busbw_gbps"), 1.5 * 14000 / 30000,
	    1e-3);
	/* Per kernel 0.4 and 0.5 GB/s; bus 0.6 and 0.75. */
	ts_jrow_is(r, "median_algbw_gbps=0.45 median_busbw_gbps=0.675");
	/* AllGather by its output: 1000 x 2 + 400 x 8 B over 20 us. */
	r = row(env, "AllGather", 21);
	ts_jrow_is(r, "total_bytes=5200 algbw_gbps=0.26 busbw_gbps=0.195");
	/* Per kernel 0.2 and 0.32 GB/s. */
	/* No process group: "0" and "1". */
	ts_jrow_is(r, "median_algbw_gbps=0.26 median_busbw_gbps=0.195 "
	    "group_size=4 process_group=null");
	/* Broadcast: factor 1 without a group size. */
	r = row(env, "Broadcast", 22);
	ts_jrow_is(r, "total_bytes=1000 algbw_gbps=0.25 busbw_gbps=0.25 "
	    "median_busbw_gbps=0.25 group_size=null process_group=null");
	/* An unknown collective: bytes and algbw, no bus bandwidth. */
	r = row(env, "Generic", 23);
	ts_jrow_is(r, "total_bytes=8000 algbw_gbps=0.8 median_algbw_gbps=0.8 "
	    "busbw_gbps=null median_busbw_gbps=null");
	/* No sizes at all. */
	r = row(env, "SendRecv", 24);
	ts_jrow_is(r, "count=1 sized_count=0 total_bytes=null algbw_gbps=null "
	    "busbw_gbps=null median_algbw_gbps=null median_busbw_gbps=null "
	    "group_size=null process_group=null");
	/* Reduce: 10 x (8 + 1 + 1 + 8 + 4 + 1 + 2 + 8) = 330 B in 8 us;
	 * process groups "3" and none. */
	r = row(env, "Reduce", 25);
	ts_jrow_is(r, "sized_count=8 total_bytes=330");
	assert_float_equal(ts_jdouble(r, "algbw_gbps"), 330.0 / 8000, 1e-3);
	assert_float_equal(ts_jdouble(r, "busbw_gbps"), 330.0 / 8000, 1e-3);
	/* Per kernel 10, 10, 10, 20, 40, 80, 80, 80 B / 1000 ns. */
	ts_jrow_is(r, "median_algbw_gbps=0.03 process_group=null");
	cJSON_Delete(env);
	model_free(m);
}

/* The kernel rows' total_bytes, summed. */
static double
sum_bytes(cJSON *env)
{
	const cJSON	*rows, *r;
	double		 sum = 0;

	rows = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(env, "data"), "rows");
	cJSON_ArrayForEach(r, rows)
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(r,
		    "total_bytes")))
			sum += ts_jdouble(r, "total_bytes");
	return sum;
}

static void
test_cache_merge(void **state)
{
	struct model	*m = load(), *c = NULL, *g;
	struct merge_in	 in[2];
	char		*cause = NULL;
	cJSON		*env;
	size_t		 i;

	(void)state;
	memset(in, 0, sizeof in);
	/* Through the cache: the same records, string ids and all. */
	assert_int_equal(cache_save(ts_path("t.json"), m, &cause), 0);
	assert_int_equal(cache_load(ts_path("t.json"), &c, &cause), 1);
	assert_int_equal(c->nkernels, m->nkernels);
	for (i = 0; i < m->nkernels; i++)
		assert_memory_equal(&c->kernels[i], &m->kernels[i],
		    sizeof m->kernels[i]);
	env = comm(c);
	assert_float_equal(sum_bytes(env), 14000 + 5200 + 1000 + 8000 + 330,
	    1e-9);
	cJSON_Delete(env);
	model_free(c);
	cache_remove(ts_path("t.json"));
	/* Two ranks merged: strings re-interned, sizes doubled. */
	in[0].m = m;
	in[0].rank = 0;
	in[0].label = "r0";
	in[1].m = load();
	in[1].rank = 1;
	in[1].label = "r1";
	g = merge_models(in, 2, &cause);
	if (g == NULL)
		fail_msg("merge: %s", cause);
	env = comm(g);
	assert_float_equal(sum_bytes(env), 2.0 * (14000 + 5200 + 1000 + 8000 +
	    330), 1e-9);
	cJSON_Delete(env);
	for (i = 0; i < g->nkernels; i++) {
		const struct kernel_info *k = &g->kernels[i];
		if (k->comm_flags == 0)
			continue;
		assert_non_null(strstr(" allreduce _allgather_base "
		    "allgather_into_tensor_coalesced broadcast coalesced "
		    "reduce ", model_str(g, k->comm_coll)));
	}
	model_free(g);
}

/* The first communication kernel of m. */
static uint32_t
first_comm(const struct model *m)
{
	size_t	t, i;

	for (t = 0; t < m->ntracks; t++)
		for (i = 0; i < m->tracks[t].lane.n; i++)
			if (m->tracks[t].type == TRACK_GPU &&
			    m->tracks[t].lane.kind[i] == EV_KERNEL &&
			    (m->tracks[t].lane.flags[i] & EVF_COMM))
				return model_gid(m, (uint32_t)t, (uint32_t)i);
	fail_msg("no communication kernel");
	return NONE32;
}

/*
 * NCCL's ncclDevKernel_Generic without collective args (a generated trace):
 * the nccl:all_reduce annotation around its launch names it, so comm has
 * AllReduce rows and no Generic one; with the usual kernel the name does.
 */
static void
test_generic_identity(void **state)
{
	struct kgen_opts	 o;
	struct kgen_stats	 st;
	struct model		*m;
	struct comm_id		 id;
	char			*cause = NULL;
	const cJSON		*rows, *r;
	cJSON			*env;
	uint64_t		 n = 0;

	(void)state;
	kgen_opts_default(&o);
	o.events = 3000;
	o.world = 2;
	o.generic_nccl = 1;
	assert_int_equal(kgen_write(ts_path("g.json"), &o, &st, &cause), 0);
	assert_true(st.nccl > 0);
	m = ts_load(kineto_load, ts_path("g.json"));
	comm_identify(m, first_comm(m), &id);
	assert_string_equal(id.name, "AllReduce");
	assert_int_equal(id.src, COMM_SRC_ANNOTATION);
	assert_int_not_equal(id.range, NONE32);
	assert_string_equal(model_str(m, m->tracks[model_ev(m,
	    id.range).track].lane.name[model_ev(m, id.range).idx]),
	    "nccl:all_reduce");
	assert_non_null(strstr(model_str(m, m->tracks[model_ev(m,
	    first_comm(m)).track].lane.name[model_ev(m, first_comm(m)).idx]),
	    "ncclDevKernel_Generic"));
	env = comm(m);
	rows = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(env, "data"), "rows");
	cJSON_ArrayForEach(r, rows) {
		const char *coll = ts_jfield(r, "collective")->valuestring;
		if (strcmp(ts_jfield(r, "kind")->valuestring, "kernel") != 0)
			continue;
		assert_string_equal(coll, "AllReduce");
		assert_true(ts_jdouble(r, "sized_count") == 0);
		n += (uint64_t)ts_jdouble(r, "count");
	}
	assert_int_equal(n, st.nccl);
	cJSON_Delete(env);
	model_free(m);

	o.generic_nccl = 0;
	assert_int_equal(kgen_write(ts_path("n.json"), &o, &st, &cause), 0);
	m = ts_load(kineto_load, ts_path("n.json"));
	comm_identify(m, first_comm(m), &id);
	assert_string_equal(id.name, "AllReduce");
	assert_int_equal(id.src, COMM_SRC_NAME);
	model_free(m);
}

TS_MAIN(setup, ts_tmp_teardown,
	cmocka_unit_test(test_kernel_info),
	cmocka_unit_test(test_comm_bytes),
	cmocka_unit_test(test_cache_merge),
	cmocka_unit_test(test_generic_identity))
