/*
 * flops: the floating-point work of a trace's operators (model op_info
 * records, sources/kineto-ops.c) attributed to the GPU kernels that ran
 * it, for achieved FLOP/s and model FLOPs utilisation (MFU).
 *
 * Counted operators: an operator is counted unless another operator with
 * a record runs inside it on its thread (aten::linear around aten::addmm,
 * aten::matmul around aten::mm, scaled_dot_product_attention around its
 * flash variant): the innermost ones carry the work, as TraceLens counts
 * mm/addmm/bmm and not their callers, and nothing is counted twice.
 *
 * Kernels: an operator's kernels are the GPU kernels launched (correlation)
 * by the launch calls that start inside the operator's range on its
 * thread, nested operators included. A counted operator's FLOPs are split
 * over its kernels in proportion to their durations (evenly when all last
 * 0 ns).
 *
 * Peak and MFU: each kernel's FLOPs take peak_time = FLOPs / peak, the
 * peak of its device (analysis/peak.h) for the operator's data type (or
 * the override); MFU over a stretch of time is the summed peak_time over
 * that time. So MFU per operator and per kernel name is over their GPU
 * time, per iteration over its duration.
 *
 * Ownership: struct flops_result owns its arrays (flops_free).
 */
#ifndef GPULENS_FLOPS_H
#define GPULENS_FLOPS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct flops_op {
	uint32_t	 op;		/* index into m->ops */
	uint32_t	 gid;		/* the operator's range */
	int		 counted;	/* innermost (see above) */
	int		 dtype;		/* enum peak_dtype */
	uint32_t	 nkernels;
	int64_t		 gpu_ns;	/* its kernels' summed durations */
	uint32_t	 device;	/* its first kernel's, or NONE32 */
	double		 peak;		/* TFLOP/s for dtype there, 0 unknown */
};

struct flops_kern {
	uint32_t	 gid;		/* the kernel */
	uint32_t	 op;		/* index into flops_result.ops */
	double		 flops;		/* its share */
	double		 peak_ns;	/* flops at peak, 0 if no peak */
};

struct flops_result {
	struct flops_op		*ops;	/* one per op_info, op order */
	size_t			 nops;
	struct flops_kern	*kern;	/* kernels of counted operators */
	size_t			 nkern;
	double			 total;	/* counted FLOPs */
	double			 total_peak_ns;
	size_t			 ncounted;
	size_t			 nunpeaked;	/* counted ops without a peak */
};

/* peak_tflops > 0 replaces every table peak. */
void	 flops_compute(const struct model *, double peak_tflops,
	    struct flops_result *);
void	 flops_free(struct flops_result *);

#endif
