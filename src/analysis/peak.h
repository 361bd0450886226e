/*
 * peak: the dense peak throughput of known GPUs per data type, the
 * denominator of model FLOPs utilisation (analysis/flops.h).
 *
 * One row per GPU model, matched on the device's name (a substring, the
 * first row that matches wins, so "H100 PCIe" comes before "H100"), else
 * on its compute capability alone for the data-centre parts whose
 * capability is theirs alone (9.0 H100 SXM, 10.0 B200, 8.0 A100). Values
 * are TFLOP/s without sparsity, from the vendors' data sheets (gpulens(1)
 * lists the sources): fp32 is the non-tensor (vector) rate, tf32, fp16,
 * bf16 and fp8 the tensor-core (matrix core) rates, fp64 the tensor rate
 * where there is one. 0 means the part has no such rate or it is unknown.
 */
#ifndef GPULENS_PEAK_H
#define GPULENS_PEAK_H

#include "model/model.h"

enum peak_dtype { PD_UNKNOWN, PD_FP64, PD_FP32, PD_TF32, PD_FP16, PD_BF16,
	PD_FP8, PD_N };

struct peak_row {
	const char	*match;		/* substring of the device name */
	int		 cc_major, cc_minor;	/* -1: never by capability */
	const char	*label;		/* "H100 SXM" */
	double		 tflops[PD_N];
};

/* "fp64", "fp32", ..., "unknown". */
const char	*peak_dtype_name(int);
/* The data type of a PyTorch "Input type" ("float", "c10::BFloat16",
 * "c10::Half", "double", "c10::Float8_e4m3fn", ...); PD_UNKNOWN else. */
int		 peak_dtype_of(const char *);
/* The table row of a device, or NULL. */
const struct peak_row *peak_lookup(const struct model *, uint32_t device);
/* The whole table, ended by a NULL match. */
extern const struct peak_row peak_table[];

#endif
