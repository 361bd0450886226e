/*
 * gen-kernel: the kernels (names, launch configurations, typical durations)
 * and their launches.
 */

#include "config.h"

#include <string.h>

#include "sources/synth/gen-int.h"

#define VEC_EW	"void at::native::vectorized_elementwise_kernel"
#define FLASH_BWD_TRAITS "Flash_bwd_kernel_traits<(int)128, (int)64, " \
	"(int)128, (int)8, (int)2, (int)4, (int)2, (bool)0, (bool)0, " \
	"cutlass::bfloat16_t, Flash_kernel_traits<(int)128, (int)64, " \
	"(int)128, (int)8, cutlass::bfloat16_t>>"
const struct kdef gen_kernel_defs[K_COUNT] = {
	[K_EMBED] = { "indexSelectLargeIndex",
	    "void at::native::<unnamed>::indexSelectLargeIndex<c10::BFloat16, "
	    "long, unsigned int, (int)2, (int)2, (int)-2, (bool)1>("
	    "at::cuda::detail::TensorInfo<T1, T3>, at::cuda::detail::"
	    "TensorInfo<const T1, T3>, at::cuda::detail::TensorInfo<const T2, "
	    "T3>, int, int, T3, T3, long)", NULL,
	    { 8448, 1, 1 }, { 128, 1, 1 }, 30, 0, 0, 32768, 0, 45000, 0 },
	[K_LN] = { "vectorized_layer_norm_kernel",
	    "void at::native::<unnamed>::vectorized_layer_norm_kernel<float, "
	    "float, (bool)0>(int, T2, const T1 *, const T1 *, const T1 *, "
	    "T2 *, T2 *, T1 *)",
	    "_ZN2at6native53_GLOBAL__N__21739cd4_20_layer_norm_kernel_cu_"
	    "9c5ada8a28vectorized_layer_norm_kernelIffLb0EEEviT0_PKT_S6_S6_"
	    "PS3_S7_PS4_",
	    { 16384, 1, 1 }, { 32, 4, 1 }, 39, 0, 24, 32768, 0, 38000, 0 },
	[K_QKV] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256"
	    "x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
	    NULL, "", { 48, 8, 1 }, { 384, 1, 1 }, 168, 0, 213196, 233472, 2,
	    310000, 0 },
	[K_FLASH_FWD] = { "flash_fwd_kernel",
	    "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<(int)128, "
	    "(int)128, (int)64, (int)4, (bool)0, (bool)0, cutlass::bfloat16_t, "
	    "Flash_kernel_traits<(int)128, (int)128, (int)64, (int)4, "
	    "cutlass::bfloat16_t>>, (bool)0, (bool)0, (bool)0, (bool)0, "
	    "(bool)0, (bool)1, (bool)0, (bool)0>(flash::Flash_fwd_params)",
	    "_ZN5flash16flash_fwd_kernelI23Flash_fwd_kernel_traitsILi128ELi128E"
	    "Li64ELi4ELb0ELb0EN7cutlass10bfloat16_tE19Flash_kernel_traitsILi128"
	    "ELi128ELi64ELi4ES3_EELb0ELb0ELb0ELb0ELb0ELb1ELb0ELb0EEEvNS_16Flash"
	    "_fwd_paramsE",
	    { 244, 1, 6 }, { 128, 1, 1 }, 255, 0, 65536, 135168, 0, 480000, 0 },
	[K_OUT] = { "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_"
	    "64x3_tn",
	    NULL, "", { 32, 16, 1 }, { 256, 1, 1 }, 238, 0, 98304, 135168, 0,
	    120000, 0 },
	[K_ADD] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)8, at::native::CUDAFunctor_add<c10::BFloat16>, "
	    "std::array<char *, (unsigned long)3>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi8ENS0_15CUDAFunctor"
	    "_addIN3c108BFloat16EEESt5arrayIPcLm3EEEEviT0_T1_",
	    { 23400, 1, 1 }, { 128, 1, 1 }, 34, 0, 0, 32768, 0, 22000, 0 },
	[K_FC1] = { "nvjet_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", NULL, "",
	    { 2, 66, 1 }, { 384, 1, 1 }, 168, 0, 213196, 233472, 2, 430000, 0 },
	[K_GELU] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)8, at::native::GeluCUDAKernelImpl(at::"
	    "TensorIteratorBase &, at::native::GeluType)::[lambda() (instance "
	    "1)]::operator ()() const::[lambda() (instance 4)]::operator ()() "
	    "const::[lambda(c10::BFloat16) (instance 1)], std::array<char *, "
	    "(unsigned long)2>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi8EZZZNS0_18GeluCUDA"
	    "KernelImplERNS_18TensorIteratorBaseENS0_8GeluTypeEENKUlvE_clEvENKU"
	    "lvE2_clEvEUlN3c108BFloat16EE_St5arrayIPcLm2EEEEviT0_T1_",
	    { 136500, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 85000, 0 },
	[K_FC2] = { "nvjet_tst_192x208_64x4_1x1_h_bz_coopB_bias_TNT", NULL, "",
	    { 1, 132, 1 }, { 384, 1, 1 }, 168, 0, 221388, 233472, 0, 410000,
	    0 },
	[K_LMHEAD] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize256"
	    "x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x"
	    "_cublas",
	    NULL, "", { 132, 1, 1 }, { 384, 1, 1 }, 168, 0, 221184, 233472, 2,
	    900000, 0 },
	[K_SOFTMAX] = { "cunn_SoftMaxForward",
	    "void at::native::<unnamed>::cunn_SoftMaxForward<(int)8, "
	    "c10::BFloat16, float, float, at::native::<unnamed>::"
	    "LogSoftMaxForwardEpilogue>(T4 *, const T2 *, int)", NULL,
	    { 8192, 1, 1 }, { 1024, 1, 1 }, 40, 0, 64, 32768, 0, 260000, 0 },
	[K_NLL] = { "nll_loss_forward_reduce_cuda_kernel_2d",
	    "void at::native::<unnamed>::nll_loss_forward_reduce_cuda_kernel_"
	    "2d<float, float, long>(T1 *, T1 *, const T1 *, const T3 *, "
	    "const T1 *, bool, long, long, long, long)", NULL,
	    { 1, 1, 1 }, { 1024, 1, 1 }, 30, 8192, 0, 16384, 0, 14000, 0 },
	[K_MEAN] = { "reduce_kernel",
	    "void at::native::reduce_kernel<(int)512, (int)1, at::native::"
	    "ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
	    "unsigned int, float, (int)4, (int)4>>(T3)",
	    "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_7MeanOps"
	    "IffffEEjfLi4ELi4EEEEEvT1_",
	    { 975, 1, 1 }, { 32, 16, 1 }, 32, 16, 0, 16384, 0, 34000, 0 },
	[K_NLL_BWD] = { "nll_loss_backward_reduce_cuda_kernel_2d",
	    "void at::native::<unnamed>::nll_loss_backward_reduce_cuda_kernel_"
	    "2d<float, long>(T1 *, const T1 *, const T2 *, const T1 *, "
	    "const T1 *, bool, int, int, long, long)", NULL,
	    { 1, 1, 1 }, { 1024, 1, 1 }, 24, 0, 0, 16384, 0, 9000, 0 },
	[K_SOFTMAX_BWD] = { "cunn_SoftMaxBackward",
	    "void at::native::<unnamed>::cunn_SoftMaxBackward<(int)8, "
	    "c10::BFloat16, float, c10::BFloat16, at::native::<unnamed>::"
	    "LogSoftMaxBackwardEpilogue>(T2 *, const T4 *, const T4 *, long)",
	    NULL, { 8192, 1, 1 }, { 1024, 1, 1 }, 38, 0, 64, 32768, 0, 310000,
	    0 },
	[K_DGRAD_A] = { "nvjet_tst_256x128_64x4_1x2_h_bz_coopA_NNT", NULL, "",
	    { 1, 132, 1 }, { 384, 1, 1 }, 168, 0, 221388, 233472, 0, 420000,
	    0 },
	[K_WGRAD_A] = { "nvjet_tst_128x256_64x4_2x1_v_bz_coopB_NTN", NULL, "",
	    { 2, 66, 1 }, { 384, 1, 1 }, 168, 0, 213196, 233472, 2, 450000, 0 },
	[K_DGRAD_B] = { "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_"
	    "64x3_nn", NULL, "", { 16, 32, 1 }, { 256, 1, 1 }, 238, 0, 147456,
	    167936, 0, 140000, 0 },
	[K_WGRAD_B] = { "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x"
	    "128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
	    NULL, "", { 32, 16, 1 }, { 128, 1, 1 }, 168, 0, 196608, 233472, 2,
	    150000, 0 },
	[K_GELU_BWD] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)8, at::native::GeluBackwardCUDAKernelImpl(at::"
	    "TensorIteratorBase &, at::native::GeluType)::[lambda() (instance "
	    "2)]::operator ()() const::[lambda() (instance 4)]::operator ()() "
	    "const::[lambda(c10::BFloat16, c10::BFloat16) (instance 1)], "
	    "std::array<char *, (unsigned long)3>>(int, T2, T3)", NULL,
	    { 136500, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 120000, 0 },
	[K_LN_BWD] = { "layer_norm_grad_input_kernel_vectorized",
	    "void at::native::<unnamed>::layer_norm_grad_input_kernel_"
	    "vectorized<float, float>(const T1 *, const T1 *, const T2 *, "
	    "const T2 *, const T1 *, T1 *, int)", NULL,
	    { 16384, 1, 1 }, { 128, 1, 1 }, 40, 0, 0, 32768, 0, 52000, 0 },
	[K_LN_GB] = { "GammaBetaBackwardCUDAKernel",
	    "void at::native::<unnamed>::GammaBetaBackwardCUDAKernel<float, "
	    "float>(long, long, const T1 *, const T1 *, const T2 *, "
	    "const T2 *, T1 *, T1 *)", NULL,
	    { 64, 1, 1 }, { 32, 32, 1 }, 64, 8192, 0, 16384, 0, 36000, 0 },
	[K_FLASH_DOT] = { "flash_bwd_dot_do_o_kernel",
	    "void flash::flash_bwd_dot_do_o_kernel<(bool)1, " FLASH_BWD_TRAITS
	    ">(flash::Flash_bwd_params)", NULL,
	    { 64, 8, 16 }, { 256, 1, 1 }, 32, 0, 0, 32768, 0, 30000, 0 },
	[K_FLASH_BWD] = { "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel",
	    "void flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<"
	    FLASH_BWD_TRAITS ", (bool)0, (bool)1, (bool)0, (bool)0, (bool)0, "
	    "(bool)1, (bool)0, (bool)0>(flash::Flash_bwd_params)", NULL,
	    { 64, 8, 16 }, { 256, 1, 1 }, 255, 0, 147456, 167936, 0, 1150000,
	    0 },
	[K_FLASH_CVT] = { "flash_bwd_convert_dq_kernel",
	    "void flash::flash_bwd_convert_dq_kernel<" FLASH_BWD_TRAITS
	    ">(flash::Flash_bwd_params, int)", NULL,
	    { 32, 8, 16 }, { 256, 1, 1 }, 40, 0, 24576, 65536, 0, 26000, 0 },
	[K_ACC] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)4, at::native::CUDAFunctor_add<float>, "
	    "std::array<char *, (unsigned long)3>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor"
	    "_addIfEESt5arrayIPcLm3EEEEviT0_T1_",
	    { 46800, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 40000, 0 },
	[K_EMBED_BWD] = { "embedding_backward_feature_kernel",
	    "void at::native::<unnamed>::embedding_backward_feature_kernel<"
	    "c10::BFloat16, float, long>(const T3 *, const T1 *, T1 *, int, "
	    "long, int, int)", NULL,
	    { 64, 1, 1 }, { 32, 32, 1 }, 48, 0, 8448, 32768, 0, 160000, 0 },
	[K_SCALE] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)4, at::native::AUnaryFunctor<float, float, float, "
	    "at::native::binary_internal::MulFunctor<float>>, std::array<char "
	    "*, (unsigned long)2>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_13AUnaryFunct"
	    "orIfffNS0_15binary_internal10MulFunctorIfEEEESt5arrayIPcLm2EEEEviT"
	    "0_T1_",
	    { 46800, 1, 1 }, { 128, 1, 1 }, 32, 0, 0, 32768, 0, 30000, 0 },
	[K_ADAM] = { "multi_tensor_apply_kernel",
	    "void at::native::<unnamed>::multi_tensor_apply_kernel<at::native::"
	    "<unnamed>::TensorListMetadata<(int)4>, at::native::<unnamed>::"
	    "FusedAdamMathFunctor<float, (int)4, (at::native::ADAM_MODE)1, "
	    "(bool)0>, float *, double, double, double, double, double, bool, "
	    "const float *, const float *>(T1, T2, T3...)", NULL,
	    { 320, 1, 1 }, { 512, 1, 1 }, 72, 0, 0, 16384, 0, 650000, 0 },
	[K_FILL] = { "vectorized_elementwise_kernel",
	    VEC_EW "<(int)4, at::native::FillFunctor<float>, "
	    "std::array<char *, (unsigned long)1>>(int, T2, T3)",
	    "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctor"
	    "IfEESt5arrayIPcLm1EEEEviT0_T1_",
	    { 46800, 1, 1 }, { 128, 1, 1 }, 16, 0, 0, 32768, 0, 18000, 0 },
	[K_ALLREDUCE] = { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL",
	    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<"
	    "(unsigned long)4096>)", NULL,
	    { 24, 1, 1 }, { 640, 1, 1 }, 96, 21568, 82240, 135168, 4, 0, 1 },
	[K_BROADCAST] = { "ncclDevKernel_Broadcast_RING_LL",
	    "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<"
	    "(unsigned long)4096>)", NULL,
	    { 24, 1, 1 }, { 640, 1, 1 }, 96, 21568, 82240, 135168, 4, 0, 1 },
	/* Autotuning candidates (the warm-up phase). */
	[K_TUNE0] = { "triton_tem_fused_mm_0", NULL, "",
	    { 264, 1, 1 }, { 256, 1, 1 }, 168, 0, 98304, 135168, 0, 350000,
	    0 },
	[K_TUNE1] = { "triton_tem_fused_mm_1", NULL, "",
	    { 132, 1, 1 }, { 256, 1, 1 }, 232, 0, 147456, 167936, 0, 520000,
	    0 },
	[K_TUNE2] = { "triton_tem_fused_mm_2", NULL, "",
	    { 66, 1, 1 }, { 128, 1, 1 }, 255, 0, 196608, 233472, 0, 700000,
	    0 },
	/* A tiny kernel launched in a Python loop (launch-bound). */
	[K_TINY] = { "elementwise_kernel",
	    "void at::native::elementwise_kernel<(int)128, (int)4, "
	    "at::native::AUnaryFunctor<float, float, float, "
	    "at::native::binary_internal::MulFunctor<float>>>(int, T3)", NULL,
	    { 1, 1, 1 }, { 128, 1, 1 }, 20, 0, 0, 16384, 0, 2500, 0 },
};

static int64_t
kernel_dur(struct gen *g, struct rank *r, int k)
{
	double	f;

	f = r->speed * (1.0 + 0.04 * gen_rng_gauss(&r->rng));
	if ((int)RI(g, r) == g->straggler)
		f *= g->o.slowdown;
	if ((g->o.plant & GEN_PLANT_IMBALANCE) && RI(g, r) == 0)
		f *= 1.3;		/* a larger shard */
	if (gen_rng_unit(&r->rng) < 0.005) {	/* clock dip, contention */
		double dip = 1.5 + 1.5 * gen_rng_unit(&r->rng);
		if (!g->o.clean)
			f *= dip;
	}
	if (f < 0.5)
		f = 0.5;
	return ((int64_t)((double)gen_kernel_defs[k].dur * f) + 1);
}

void
gen_kernel_row(struct gen *g, struct rank *r, int k, int s, int64_t start,
    int64_t end, uint32_t corr)
{
	struct row	rw;

	gen_row_init(&rw, g, r, start, end, corr);
	rw.u.k.k = (uint8_t)k;
	rw.u.k.stream = (uint8_t)s;
	rw.u.k.grid_id = ++r->grid_id;
	gen_queue_emit(g, T_KERNEL, &rw, 1);
}

/*
 * Plants graph, graph-whole: one cudaGraphLaunch replaying the n kernels
 * ks[] back to back on the compute stream, a microsecond or two apart.
 * Traced by node, each kernel is a row with the launch's correlation id,
 * its node (1, 2, ...) and graph (1 + rank); traced whole, one GRAPH_TRACE
 * row spans them.
 */
void
gen_kernel_graph(struct gen *g, struct rank *r, int th, const int *ks,
    int n)
{
	struct row	rw;
	uint32_t	corr, graph = RI(g, r) + 1;
	int64_t		start, t, end = 0;
	int		i, whole = gen_plant_on(g, GEN_PLANT_GRAPH_WHOLE);

	corr = gen_api_quick(g, r, th, A_GRAPH_LAUNCH);
	start = t = gen_api_gpu_start(r, S_COMPUTE);
	for (i = 0; i < n; i++) {
		end = t + kernel_dur(g, r, ks[i]);
		if (!whole) {
			gen_row_init(&rw, g, r, t, end, corr);
			rw.u.k.k = (uint8_t)ks[i];
			rw.u.k.stream = S_COMPUTE;
			rw.u.k.grid_id = ++r->grid_id;
			rw.u.k.gnode = (uint32_t)i + 1;
			rw.u.k.graph = graph;
			gen_queue_emit(g, T_KERNEL, &rw, 1);
		}
		t = end + 1 * US + gen_rng_exp(&r->rng, 500);
	}
	if (whole) {
		gen_row_init(&rw, g, r, start, end, corr);
		rw.u.k.graph = graph;
		gen_queue_emit(g, T_GRAPH, &rw, 1);
	}
	if (!g->count_only) {
		g->replays++;
		g->replayed += (uint64_t)n;
	}
	r->gpu[S_COMPUTE] = end;
	gen_api_gap(r);
}

void
gen_kernel_launch(struct gen *g, struct rank *r, int th, int k)
{
	uint32_t	corr;
	int64_t		start, end;

	corr = gen_api_quick(g, r, th, A_LAUNCH);
	start = gen_api_gpu_start(r, S_COMPUTE);
	end = start + kernel_dur(g, r, k);
	gen_kernel_row(g, r, k, S_COMPUTE, start, end, corr);
	r->gpu[S_COMPUTE] = end;
	gen_api_gap(r);
}
