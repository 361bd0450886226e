/*
 * kineto_test: the Kineto reader on small hand-written traces (every
 * category and phase it maps, exact times, correlation, metadata, the
 * 2021 layout), its errors with byte offsets, format probing, ranks from
 * file names, and every real trace under $GPULENS_FIXTURES/kineto.
 */
#include "config.h"

#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <zlib.h>

#include "model/correlate.h"
#include "sources/kineto.h"
#include "model/model.h"
#include "model/nvtx.h"
#include "tsupport.h"

static struct model *
load(const char *json, char **cause)
{
	ts_write_str(ts_path("t.json"), json);
	return kineto_load(ts_path("t.json"), NULL, cause);
}

/* The only event of kind k named name: its track and index. */
static int
find(const struct model *m, int kind, const char *name, uint32_t *track,
    uint32_t *idx)
{
	size_t	t, i;
	int	n = 0;

	for (t = 0; t < m->ntracks; t++) {
		const struct lane *l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++)
			if (l->kind[i] == kind && strcmp(model_str(m,
			    l->name[i]), name) == 0) {
				*track = (uint32_t)t;
				*idx = (uint32_t)i;
				n++;
			}
	}
	return n;
}

static const char trace[] =
    "{\"schemaVersion\": 1,\n"
    " \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100\", "
    "\"totalGlobalMem\": 1000, \"computeMajor\": 8, \"computeMinor\": 6, "
    "\"numSms\": 108, \"warpSize\": 32, \"maxThreadsPerMultiprocessor\": "
    "2048, \"regsPerMultiprocessor\": 65536, "
    "\"sharedMemPerMultiprocessor\": 167936, \"maxThreadsPerBlock\": 1024}],\n"
    " \"traceEvents\": [\n"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#3\","
    "\"pid\":10,\"tid\":11,\"ts\":100.000,\"dur\":50.000,\"args\":{}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":10,"
    "\"tid\":11,\"ts\":101.000,\"dur\":10.000},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
    "\"pid\":10,\"tid\":11,\"ts\":102.0005,\"dur\":2.5,\"args\":"
    "{\"correlation\":7,\"cbid\":211}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_driver\",\"name\":\"cuLaunchKernel\","
    "\"pid\":10,\"tid\":\"11\",\"ts\":105,\"dur\":1,\"args\":"
    "{\"correlation\":8}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void at::native::foo<float>"
    "(int)\",\"pid\":0,\"tid\":7,\"ts\":110.123,\"dur\":4.877,\"args\":"
    "{\"device\":0,\"stream\":7,\"correlation\":7,\"grid\":[2,3,4],"
    "\"block\":[128,1,1],\"registers per thread\":32,\"shared memory\":"
    "1024}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_"
    "f32_RING_LL(x)\",\"pid\":0,\"tid\":20,\"ts\":111,\"dur\":3,\"args\":"
    "{\"device\":0,\"stream\":20,\"correlation\":8,\"Collective name\":"
    "\"allreduce\"}},\n"
    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> "
    "Device)\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":2,\"args\":{\"device\":"
    "0,\"stream\":7,\"correlation\":9,\"bytes\":4096}},\n"
    "{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\","
    "\"pid\":0,\"tid\":7,\"ts\":123,\"dur\":1,\"args\":{\"device\":0,"
    "\"stream\":7,\"bytes\":64}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_sync\",\"name\":\"Context Sync\",\"pid\":0,"
    "\"tid\":-1,\"ts\":125,\"dur\":1,\"args\":{\"device\":0,\"stream\":"
    "4294967295,\"correlation\":10}},\n"
    "{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#3\","
    "\"pid\":0,\"tid\":7,\"ts\":100,\"dur\":30},\n"
    "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"train.py(1): "
    "<module>\",\"pid\":10,\"tid\":11,\"ts\":90,\"dur\":100},\n"
    "{\"ph\":\"s\",\"id\":7,\"pid\":10,\"tid\":11,\"ts\":102,\"cat\":\"ac2g\","
    "\"name\":\"ac2g\"},\n"
    "{\"ph\":\"f\",\"id\":7,\"pid\":0,\"tid\":7,\"ts\":110,\"cat\":\"ac2g\","
    "\"name\":\"ac2g\",\"bp\":\"e\"},\n"
    "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cpu_instant_event\",\"name\":"
    "\"[memory]\",\"pid\":10,\"tid\":11,\"ts\":130,\"args\":{\"Device Type\":"
    "1,\"Device Id\":0,\"Bytes\":512,\"Total Allocated\":2048}},\n"
    "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"mark\",\"pid\":10,\"tid\":11,"
    "\"ts\":131,\"cat\":\"cpu_instant_event\"},\n"
    "{\"ph\":\"B\",\"name\":\"region\",\"pid\":10,\"tid\":12,\"ts\":140,"
    "\"cat\":\"user_annotation\"},\n"
    "{\"ph\":\"E\",\"pid\":10,\"tid\":12,\"ts\":145},\n"
    "{\"ph\":\"B\",\"name\":\"open\",\"pid\":10,\"tid\":12,\"ts\":146,"
    "\"cat\":\"user_annotation\"},\n"
    "{\"ph\":\"C\",\"name\":\"queue\",\"pid\":10,\"tid\":11,\"ts\":150,"
    "\"args\":{\"depth\":3,\"label\":\"x\"}},\n"
    "{\"ph\":\"X\",\"cat\":\"overhead\",\"name\":\"Activity Buffer Request\","
    "\"pid\":-1,\"tid\":0,\"ts\":95,\"dur\":2},\n"
    "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler (0)\","
    "\"pid\":\"Spans\",\"tid\":\"PyTorch Profiler\",\"ts\":90,\"dur\":200},\n"
    "{\"name\":\"Iteration Start: PyTorch Profiler\",\"ph\":\"i\",\"s\":\"g\","
    "\"pid\":\"Traces\",\"tid\":\"Trace PyTorch Profiler\",\"ts\":90},\n"
    "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":10,\"tid\":0,\"args\":"
    "{\"name\":\"python3\"}},\n"
    "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":10,\"tid\":11,\"args\":"
    "{\"name\":\"main\"}},\n"
    "{\"ph\":\"Q\",\"name\":\"weird\",\"pid\":10,\"tid\":11,\"ts\":1}\n"
    " ],\n"
    " \"distributedInfo\": {\"backend\":\"nccl\",\"rank\":3,\"world_size\":8},"
    "\n \"baseTimeNanoseconds\": 1000000000000}\n";

#define BASE	1000000000000LL

static void
test_mapping(void **state)
{
	struct model		*m;
	char			*cause = NULL;
	uint32_t		 t, i, t2, i2, gpu_proc;
	const struct track	*tr;
	const struct kernel_info *ki;
	const struct copy_info	*ci;
	const struct nvtx_info	*ni;
	size_t			 p;

	(void)state;
	m = load(trace, &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_int_equal(m->source, SOURCE_KINETO);
	assert_string_equal(model_str(m, m->schema_version), "1");
	ts_kind_counts(m, "kernel=2 memcpy=1 memset=1 sync=1 api=2 nvtx=6 "
	    "mark=1 counter=2 overhead=1");

	/* Exact times: base + ts. 102.0005 us rounds to 102001 ns. */
	assert_int_equal(find(m, EV_KERNEL, "void at::native::foo<float>(int)",
	    &t, &i), 1);
	tr = &m->tracks[t];
	assert_int_equal(tr->type, TRACK_GPU);
	assert_true(tr->lane.start[i] == BASE + 110123);
	assert_true(tr->lane.end[i] == BASE + 115000);
	assert_int_equal(m->streams[tr->stream].source_id, 7);
	assert_int_equal(m->devices[tr->device].source_id, 0);
	ki = &m->kernels[tr->lane.aux[i]];
	assert_int_equal(ki->grid[0], 2);
	assert_int_equal(ki->grid[2], 4);
	assert_int_equal(ki->block[0], 128);
	assert_int_equal(ki->regs, 32);
	assert_int_equal(ki->static_smem, 1024);
	assert_string_equal(model_str(m, ki->short_name), "foo");
	assert_int_equal(lane_rowid(&tr->lane, i), 4);
	assert_false(tr->lane.flags[i] & EVF_COMM);
	/* Launched by cudaLaunchKernel (correlation 7). */
	assert_int_equal(find(m, EV_API, "cudaLaunchKernel", &t2, &i2), 1);
	assert_true(m->tracks[t2].lane.start[i2] == BASE + 102001);
	assert_true(m->tracks[t2].lane.end[i2] == BASE + 104501);
	assert_int_equal(correlate_launch(m, model_gid(m, t, i)),
	    model_gid(m, t2, i2));
	assert_false(m->tracks[t2].lane.flags[i2] & EVF_DRIVER);
	gpu_proc = m->tracks[t2].process;
	assert_int_equal(m->processes[gpu_proc].pid, 10);
	assert_int_equal(tr->process, gpu_proc);
	assert_int_equal(m->streams[tr->stream].process, gpu_proc);
	assert_int_equal(m->processes[gpu_proc].rank, 3);
	assert_string_equal(model_str(m, m->processes[gpu_proc].name),
	    "python3");
	assert_string_equal(model_str(m,
	    m->threads[m->tracks[t2].thread].name), "main");

	/* NCCL: the driver call (tid "11" is tid 11), EVF_COMM. */
	assert_int_equal(find(m, EV_KERNEL, "ncclDevKernel_AllReduce_Sum_f32_"
	    "RING_LL(x)", &t, &i), 1);
	assert_true(m->tracks[t].lane.flags[i] & EVF_COMM);
	assert_int_equal(find(m, EV_API, "cuLaunchKernel", &t2, &i2), 1);
	assert_true(m->tracks[t2].lane.flags[i2] & EVF_DRIVER);
	assert_int_equal(m->tracks[t2].thread, m->tracks[t2].thread);
	assert_int_equal(correlate_launch(m, model_gid(m, t, i)),
	    model_gid(m, t2, i2));

	/* Copies. */
	assert_int_equal(find(m, EV_MEMCPY, "Memcpy HtoD (Pinned -> Device)",
	    &t, &i), 1);
	ci = &m->copies[m->tracks[t].lane.aux[i]];
	assert_int_equal(ci->kind, COPY_HTOD);
	assert_int_equal(ci->src_kind, MEM_PINNED);
	assert_int_equal(ci->dst_kind, MEM_DEVICE);
	assert_int_equal(ci->bytes, 4096);
	assert_int_equal(find(m, EV_MEMSET, "Memset (Device)", &t, &i), 1);
	ci = &m->copies[m->tracks[t].lane.aux[i]];
	assert_int_equal(ci->dst_kind, MEM_DEVICE);
	assert_int_equal(ci->bytes, 64);

	/* The device-wide sync. */
	assert_int_equal(find(m, EV_SYNC, "Context Sync", &t, &i), 1);
	assert_int_equal(m->tracks[t].type, TRACK_SYNC);
	assert_int_equal(m->streams[m->tracks[t].stream].source_id,
	    4294967295U);

	/* Annotations and operators: one "pytorch" track, nested. */
	assert_int_equal(find(m, EV_NVTX, "aten::mm", &t, &i), 1);
	assert_int_equal(find(m, EV_NVTX, "ProfilerStep#3", &t2, &i2), 2);
	tr = &m->tracks[t];
	assert_int_equal(tr->type, TRACK_NVTX);
	assert_string_equal(model_str(m, m->domains[tr->domain].name),
	    "pytorch");
	ni = &m->nvtx[tr->lane.aux[i]];
	assert_int_equal(ni->category, 2);
	assert_string_equal(model_str(m, ni->category_name), "cpu_op");
	assert_int_not_equal(ni->parent, NONE32);
	assert_string_equal(model_str(m, model_ev_name(m, ni->parent)),
	    "ProfilerStep#3");
	assert_int_equal(nvtx_depth(m, model_gid(m, t, i)), 1);
	/* The GPU copy of the step is not an NVTX range. */
	for (p = 0; p < m->ntracks; p++)
		if (m->tracks[p].name != 0 && strcmp(model_str(m,
		    m->tracks[p].name), "gpu_user_annotation") == 0)
			break;
	assert_true(p < m->ntracks);
	assert_int_equal(m->tracks[p].type, TRACK_OTHER);
	assert_int_equal(m->tracks[p].lane.n, 1);
	assert_int_equal(m->tracks[p].process, gpu_proc);
	assert_int_equal(find(m, EV_NVTX, "train.py(1): <module>", &t, &i), 1);
	assert_string_equal(model_str(m,
	    m->domains[m->tracks[t].domain].name), "python_function");

	/* B/E and an unclosed B. */
	assert_int_equal(find(m, EV_NVTX, "region", &t, &i), 1);
	assert_true(m->tracks[t].lane.end[i] - m->tracks[t].lane.start[i] ==
	    5000);
	assert_int_equal(find(m, EV_NVTX, "open", &t, &i), 1);
	assert_true(m->tracks[t].lane.flags[i] & EVF_OPEN);
	assert_true(m->tracks[t].lane.end[i] == m->end_ns);

	/* Counters and the mark. */
	assert_int_equal(find(m, EV_COUNTER, "[memory] cuda:0", &t, &i), 1);
	assert_true(m->counters[m->tracks[t].lane.aux[i]] == 2048.0);
	assert_int_equal(find(m, EV_COUNTER, "queue depth", &t, &i), 1);
	assert_true(m->counters[m->tracks[t].lane.aux[i]] == 3.0);
	assert_int_equal(find(m, EV_MARK, "mark", &t, &i), 1);

	/* Overhead (pid -1) and the device. */
	assert_int_equal(find(m, EV_OVERHEAD, "Activity Buffer Request", &t,
	    &i), 1);
	assert_string_equal(model_str(m,
	    m->processes[m->tracks[t].process].name), "profiler");
	assert_int_equal(m->ndevices, 1);
	assert_string_equal(model_str(m, m->devices[0].name), "NVIDIA A100");
	assert_string_equal(model_str(m, m->devices[0].vendor), "NVIDIA");
	assert_int_equal(m->devices[0].sm_count, 108);
	assert_int_equal(m->devices[0].cc_minor, 6);
	assert_int_equal(m->devices[0].max_warps_per_sm, 64);
	assert_int_equal(m->devices[0].smem_per_sm, 167936);
	assert_int_equal(m->devices[0].process, gpu_proc);

	assert_string_equal(model_meta(m, "world_size"), "8");
	assert_string_equal(model_meta(m, "backend"), "nccl");
	assert_string_equal(model_meta(m, "baseTimeNanoseconds"),
	    "1000000000000");
	/* The UTC the trace gives for its clock (info's utc_epoch_ns). */
	assert_true(m->utc_epoch_ns == 1000000000000LL);
	assert_int_equal(m->nwarnings, 1);
	assert_non_null(strstr(m->warnings[0], "1 events of unsupported "
	    "phases (Q)"));
	model_free(m);
}

/* The 2021 layout: capitalised categories, string tids, integer us. */
/*
 * Collectives without args (traces before PyTorch 2.1) take the message
 * of the innermost sized NCCL annotation around their launch
 * (kineto-comm.c). Thread 11: "nccl:all_reduce" [100, 120) of two float
 * tensors (4x5 and 10: 30 elements) around launches 1 and 6;
 * "nccl:all_to_all" (a cpu_op) [200, 250) of 100 "long int" around
 * "nccl:broadcast" [210, 220) of 7 BFloat16: launch 2 at 212 is the
 * broadcast's, 7 at 213 too (its kernel shaped as kernel 1: a kernel_info
 * of its own), 3 at 230 the all_to_all's; "nccl:all_gather" [300, 310) of
 * a float and an int tensor (no one size) around launch 4; a kernel with
 * args (launch 5) inside "nccl:all_reduce" [400, 410) keeps its args; a
 * launch outside any (8); a Python frame named after pynccl is no
 * communication.
 */
#define CK(corr, ts, name)						\
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","	\
    "\"pid\":10,\"tid\":11,\"ts\":" #ts ",\"dur\":1,\"args\":"		\
    "{\"correlation\":" #corr "}},\n"					\
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,"	\
    "\"tid\":7,\"ts\":" #ts "0,\"dur\":1,\"args\":{\"device\":0,"	\
    "\"stream\":7,\"correlation\":" #corr ",\"grid\":[1,1,1],"		\
    "\"block\":[64,1,1]}},\n"
#define ANN(cat, name, ts, dur, dims, types)				\
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":10,"	\
    "\"tid\":11,\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{\"Input Dims\":"	\
    dims ",\"Input type\":" types "}},\n"
static const char comm_trace[] =
    "{\"traceEvents\": [\n"
    ANN("user_annotation", "nccl:all_reduce", 100, 20, "[[4, 5], [10]]",
        "[\"float\", \"float\"]")
    CK(1, 105, "ncclKernel_AllReduce_RING_LL_Sum_float(a)")
    CK(6, 110, "ncclKernel_AllReduce_RING_LL_Sum_float(f)")
    ANN("cpu_op", "nccl:all_to_all", 200, 50, "[[100]]", "[\"long int\"]")
    ANN("user_annotation", "nccl:broadcast", 210, 10, "[[7]]",
        "[\"c10::BFloat16\"]")
    CK(2, 212, "ncclKernel_Broadcast_RING_LL_Sum_bf16(b)")
    CK(7, 213, "ncclKernel_AllReduce_RING_LL_Sum_float(g)")
    CK(3, 230, "ncclKernel_SendRecv_RING_SIMPLE(c)")
    ANN("user_annotation", "nccl:all_gather", 300, 10, "[[2], [3]]",
        "[\"float\", \"int\"]")
    CK(4, 305, "ncclKernel_AllGather_RING_LL(d)")
    ANN("user_annotation", "nccl:all_reduce", 400, 10, "[[9]]",
        "[\"float\"]")
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
    "\"pid\":10,\"tid\":11,\"ts\":405,\"dur\":1,\"args\":"
    "{\"correlation\":5}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_AllReduce_x(e)\","
    "\"pid\":0,\"tid\":7,\"ts\":4050,\"dur\":1,\"args\":{\"device\":0,"
    "\"stream\":7,\"correlation\":5,\"Collective name\":\"allreduce\","
    "\"In msg nelems\":11,\"dtype\":\"Float\"}},\n"
    CK(8, 600, "ncclKernel_AllReduce_RING_LL_Sum_float(h)")
    "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"vllm/pynccl_"
    "allocator.py(48): is_symmetric_memory_enabled\",\"pid\":10,\"tid\":"
    "11,\"ts\":500,\"dur\":5}\n"
    "]}\n";

/* The kernel_info of the only kernel named name. */
static const struct kernel_info *
comm_kernel(const struct model *m, const char *name)
{
	uint32_t	t, i;

	assert_int_equal(find(m, EV_KERNEL, name, &t, &i), 1);
	assert_true(m->tracks[t].lane.aux[i] < m->nkernels);
	return &m->kernels[m->tracks[t].lane.aux[i]];
}

static void
check_ann(const struct model *m, const char *name, const char *coll,
    const char *dtype, uint64_t n, uint8_t esize)
{
	const struct kernel_info	*ki = comm_kernel(m, name);

	assert_int_equal(ki->comm_flags, KCOMM_IN | KCOMM_ANN);
	assert_string_equal(model_str(m, ki->comm_coll), coll);
	assert_string_equal(model_str(m, ki->comm_dtype), dtype);
	assert_int_equal(ki->comm_in_nelems, n);
	assert_int_equal(ki->comm_elem_size, esize);
	assert_int_equal(ki->comm_group_size, 0);
	assert_int_equal(ki->grid[0], 1);
	assert_int_equal(ki->block[0], 64);
}

static void
test_comm_annotations(void **state)
{
	struct model			*m;
	const struct kernel_info	*ki;
	char				*cause = NULL;
	uint32_t			 t, i;

	(void)state;
	if ((m = load(comm_trace, &cause)) == NULL)
		fail_msg("%s", cause);
	check_ann(m, "ncclKernel_AllReduce_RING_LL_Sum_float(a)", "all_reduce",
	    "float", 30, 4);
	check_ann(m, "ncclKernel_AllReduce_RING_LL_Sum_float(f)", "all_reduce",
	    "float", 30, 4);
	check_ann(m, "ncclKernel_Broadcast_RING_LL_Sum_bf16(b)", "broadcast",
	    "c10::BFloat16", 7, 2);
	check_ann(m, "ncclKernel_AllReduce_RING_LL_Sum_float(g)", "broadcast",
	    "c10::BFloat16", 7, 2);
	check_ann(m, "ncclKernel_SendRecv_RING_SIMPLE(c)", "all_to_all",
	    "long int", 100, 8);
	/* Two tensor types: no size; outside any annotation: none. */
	ki = comm_kernel(m, "ncclKernel_AllGather_RING_LL(d)");
	assert_int_equal(ki->comm_flags, 0);
	assert_int_equal(ki->comm_coll, 0);
	ki = comm_kernel(m, "ncclKernel_AllReduce_RING_LL_Sum_float(h)");
	assert_int_equal(ki->comm_flags, 0);
	/* The kernel's own args win. */
	ki = comm_kernel(m, "ncclKernel_AllReduce_x(e)");
	assert_int_equal(ki->comm_flags, KCOMM_IN);
	assert_int_equal(ki->comm_in_nelems, 11);
	assert_string_equal(model_str(m, ki->comm_coll), "allreduce");
	/* Annotations are communication, the Python frame is not. */
	assert_int_equal(find(m, EV_NVTX, "nccl:broadcast", &t, &i), 1);
	assert_true(m->tracks[t].lane.flags[i] & EVF_COMM);
	assert_int_equal(find(m, EV_NVTX, "vllm/pynccl_allocator.py(48): "
	    "is_symmetric_memory_enabled", &t, &i), 1);
	assert_false(m->tracks[t].lane.flags[i] & EVF_COMM);
	model_free(m);
}

static void
test_old_layout(void **state)
{
	struct model	*m;
	char		*cause = NULL;
	uint32_t	 t, i, t2, i2;

	(void)state;
	m = load("{\"schemaVersion\": 1, \"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"aten::empty\", "
	    "\"pid\": 25738, \"tid\": \"25738\", \"ts\": 1623142623460111, "
	    "\"dur\": 25},\n"
	    "{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaMemcpyAsync\", "
	    "\"pid\": 25738, \"tid\": \"25738\", \"ts\": 1623142623529088, "
	    "\"dur\": 2022, \"args\": {\"cbid\": 41, \"correlation\": 34417, "
	    "\"external id\": 537}},\n"
	    "{\"ph\": \"X\", \"cat\": \"Memcpy\", \"name\": \"Memcpy HtoD "
	    "(Pageable -> Device)\", \"pid\": 0, \"tid\": \"stream 7\", \"ts\": "
	    "1623142623529248, \"dur\": 1940, \"args\": {\"device\": 0, "
	    "\"context\": 1, \"stream\": 7, \"correlation\": 34417, "
	    "\"bytes\": 19267584}},\n"
	    "{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"k\", \"pid\": 1, "
	    "\"tid\": \"stream 9\", \"ts\": 1623142623531625, \"dur\": 2},\n"
	    "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 25738,"
	    " \"tid\": 25738, \"ts\": 1623142623460121, \"args\": {\"Device "
	    "Type\": 0, \"Device Id\": -1, \"Bytes\": 4}},\n"
	    "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 25738,"
	    " \"tid\": 25738, \"ts\": 1623142623460122, \"args\": {\"Device "
	    "Type\": 0, \"Device Id\": -1, \"Bytes\": 6}}\n"
	    "]}\n", &cause);
	if (m == NULL)
		fail_msg("%s", cause);
	assert_int_equal(find(m, EV_MEMCPY, "Memcpy HtoD (Pageable -> Device)",
	    &t, &i), 1);
	assert_true(m->tracks[t].lane.start[i] == 1623142623529248000LL);
	assert_int_equal(m->copies[m->tracks[t].lane.aux[i]].src_kind,
	    MEM_PAGEABLE);
	assert_int_equal(find(m, EV_API, "cudaMemcpyAsync", &t2, &i2), 1);
	assert_int_equal(correlate_launch(m, model_gid(m, t, i)),
	    model_gid(m, t2, i2));
	/* The operator and the runtime call share thread "25738". */
	assert_int_equal(find(m, EV_NVTX, "aten::empty", &t, &i), 1);
	assert_int_equal(m->tracks[t].thread, m->tracks[t2].thread);
	assert_int_equal(m->threads[m->tracks[t].thread].tid, 25738);
	/* A kernel without args: device = pid, stream from "stream 9". */
	assert_int_equal(find(m, EV_KERNEL, "k", &t, &i), 1);
	assert_int_equal(m->devices[m->tracks[t].device].source_id, 1);
	assert_int_equal(m->streams[m->tracks[t].stream].source_id, 9);
	/* Memory totals as running sums of Bytes. */
	assert_int_equal(m->kind_count[EV_COUNTER], 2);
	assert_int_equal(find(m, EV_COUNTER, "[memory] cpu", &t, &i), 2);
	assert_true(m->counters[m->tracks[t].lane.aux[0]] == 4.0);
	assert_true(m->counters[m->tracks[t].lane.aux[1]] == 10.0);
	assert_int_equal(m->processes[0].rank, -1);
	assert_true(m->utc_epoch_ns == 0);	/* no baseTimeNanoseconds */
	model_free(m);
}

static void
expect_fail(const char *json, const char *needle)
{
	struct model	*m;
	char		*cause = NULL;

	m = load(json, &cause);
	assert_null(m);
	ts_cause_has(cause, needle);
	assert_non_null(strstr(cause, ts_path("t.json")));
	free(cause);
}

static void
test_errors(void **state)
{
	struct model	*m;
	char		*cause = NULL, cmd[600];
	gzFile		 g;
	int		 i;

	(void)state;
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"pid\": 1, \"dur\": 1}]}",
	    "event 0 at byte 17: no 'ts' in a 'X' event");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"pid\": 1}]}",
	    "event 0 at byte 17: an X event without a numeric 'dur'");
	expect_fail("{\"traceEvents\": [{\"ph\": \"M\"}, {\"ph\": \"X\", "
	    "\"ts\": \"x\"}]}", "event 1 at byte 30: 'ts' is not a number");
	expect_fail("{\"traceEvents\": [{\"ph\": \"M\"}, {}]}",
	    "event 1 at byte 30: no 'ph'");
	expect_fail("{\"traceEvents\": [{\"ph\": 3}]}", "'ph' is not a string");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
	    "\"args\": [1]}]}", "'args' is not an object");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
	    "\"name\": 5}]}", "'name' is not a string");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
	    "\"cat\": \"cpu_op\", \"pid\": {}}]}", "'pid' is not an integer");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
	    "\"cat\": \"cpu_op\"}]}", "'pid' is missing");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, "
	    "\"cat\": \"kernel\", \"pid\": \"gpu\"}]}", "a GPU event without");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": "
	    "99999999999999999999, \"dur\": 1}]}", "'ts' is not a number");
	expect_fail("{\"baseTimeNanoseconds\": 9000000000000000000, "
	    "\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1000000000000000, "
	    "\"dur\": 1, \"cat\": \"cpu_op\", \"pid\": 1}]}",
	    "baseTimeNanoseconds + ts is out of range");
	expect_fail("{\"baseTimeNanoseconds\": 4000000000000000000, "
	    "\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1000000000000000, "
	    "\"dur\": 1, \"cat\": \"cpu_op\", \"pid\": 1}]}",
	    "baseTimeNanoseconds + ts is out of range");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1,",
	    "truncated JSON: the data ends at byte");
	expect_fail("{\"traceEvents\": [{\"ph\": \"X\" \"ts\": 1}]}",
	    "malformed JSON at byte 28: expected ',' or '}'");

	/* A gzip stream cut short. */
	g = gzopen(ts_path("c.json.gz"), "wb");
	gzprintf(g, "{\"traceEvents\": [");
	for (i = 0; i < 20000; i++)
		gzprintf(g, "%s{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
		    "\"op%d\", \"pid\": 1, \"tid\": 1, \"ts\": %d.5, \"dur\": 1}",
		    i > 0 ? "," : "", i % 977, i);
	gzprintf(g, "]}");
	gzclose(g);
	m = kineto_load(ts_path("c.json.gz"), NULL, &cause);
	assert_non_null(m);
	assert_int_equal(m->kind_count[EV_NVTX], 20000);
	model_free(m);
	snprintf(cmd, sizeof cmd, "head -c 20000 %s > %s", ts_path("c.json.gz"),
	    ts_path("cut.json.gz"));
	assert_int_equal(system(cmd), 0);
	ts_refused(kineto_load, ts_path("cut.json.gz"),
	    "gzip stream truncated at byte 20000");
}

static void
test_probe_and_names(void **state)
{
	char	*cause = NULL;
	gzFile	 g;

	(void)state;
	ts_write_str(ts_path("k.json"), "\xef\xbb\xbf {\"schemaVersion\": 1}");
	assert_int_equal(kineto_probe(ts_path("k.json"), &cause), 1);
	ts_write_str(ts_path("a.json"), "[{\"ph\": \"X\"}]");
	assert_int_equal(kineto_probe(ts_path("a.json"), &cause), 1);
	ts_write_str(ts_path("r.json"), "{\"rocprofiler-sdk-tool\": []}");
	assert_int_equal(kineto_probe(ts_path("r.json"), &cause), 0);
	ts_write_str(ts_path("n.json"), "[1, 2, 3]");
	assert_int_equal(kineto_probe(ts_path("n.json"), &cause), 0);
	g = gzopen(ts_path("k.json.gz"), "wb");
	gzprintf(g, "{\"traceEvents\": []}");
	gzclose(g);
	assert_int_equal(kineto_probe(ts_path("k.json.gz"), &cause), 1);
	assert_int_equal(kineto_probe(ts_path("missing"), &cause), -1);
	assert_non_null(strstr(cause, "No such file"));
	free(cause);

	assert_int_equal(kineto_rank_from_name("/x/rank-0.Apr_03.pt.trace.json"),
	    0);
	assert_int_equal(kineto_rank_from_name("d/sampled_rank-1.json.gz"), 1);
	assert_int_equal(kineto_rank_from_name("inference_rank_12.json"), 12);
	assert_int_equal(kineto_rank_from_name("RANK3.json"), 3);
	assert_int_equal(kineto_rank_from_name("rank.json"), -1);
	assert_int_equal(kineto_rank_from_name("ranks/worker0.json"), -1);
}

/* Loads every real trace; spot-checks counts given in PROVENANCE.md. */
static void
test_fixtures(void **state)
{
	const char	*fx = ts_need_fixtures();
	char		 pat[1024];
	glob_t		 gl;
	size_t		 i;
	struct model	*m;
	int		 checked = 0;

	(void)state;
	snprintf(pat, sizeof pat, "%s/kineto/*/*.json.gz", fx);
	if (glob(pat, 0, NULL, &gl) != 0 || gl.gl_pathc == 0)
		ts_skip("no Kineto traces under %s/kineto", fx);
	for (i = 0; i < gl.gl_pathc; i++) {
		const char *p = gl.gl_pathv[i];
		m = ts_load(kineto_load, p);
		assert_true(m->nevents > 0);
		if (strstr(p, "nccl_parser_config__nccl_data") != NULL) {
			ts_kind_counts(m, "kernel=2700 memcpy=960 memset=114 "
			    "api=8740");
			/* 14346 cpu_op + 42 user_annotation + 30 GPU ones */
			assert_int_equal(m->kind_count[EV_NVTX], 14418);
			assert_string_equal(model_meta(m, "nccl_version"),
			    "2.17.1");
			checked++;
		} else if (strstr(p, "worker0.1623143089861") != NULL) {
			ts_kind_counts(m, "kernel=8772 api=11923 nvtx=23646 "
			    "counter=12838");
			assert_int_equal(m->ndevices, 4);
			checked++;
		} else if (strstr(p, "mi300__resnet") != NULL) {
			assert_string_equal(model_str(m, m->devices[0].vendor),
			    "AMD");
			assert_int_equal(m->kind_count[EV_KERNEL], 2995);
			checked++;
		} else if (strstr(p, "trace_filter__sampled_rank-1") != NULL) {
			assert_int_equal(m->kind_count[EV_KERNEL], 1104);
			assert_int_equal(m->processes[0].rank, 1);
			checked++;
		}
		model_free(m);
	}
	globfree(&gl);
	assert_int_equal(checked, 4);
}

TS_MAIN(ts_tmp_setup, ts_tmp_teardown,
	cmocka_unit_test(test_mapping),
	cmocka_unit_test(test_comm_annotations),
	cmocka_unit_test(test_old_layout),
	cmocka_unit_test(test_errors),
	cmocka_unit_test(test_probe_and_names),
	cmocka_unit_test(test_fixtures))
