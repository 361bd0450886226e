/*
 * roofline: the roofline numbers of one launch of an Nsight Compute
 * report, from the metrics ncu's "GPU Speed Of Light Roofline Chart"
 * section collects (the "full" set; the "basic" set lacks most of them):
 *
 *   achieved FLOP/s per precision = (add + mul + 2 fma) thread
 *       instructions per elapsed cycle (smsp__sass_thread_inst_executed_
 *       op_{d,f,h}{add,mul,fma}_pred_on.sum.per_cycle_elapsed) times
 *       smsp__cycles_elapsed.avg.per_second; without the per-cycle
 *       metrics, the .sum counts divided by the duration;
 *   peak FLOP/s = 2 x sm__sass_thread_inst_executed_op_{d,f,h}fma_pred_
 *       on.sum.peak_sustained x sm__cycles_elapsed.avg.per_second;
 *   DRAM bytes/s = dram__bytes.sum.per_second, peak = dram__bytes.sum.
 *       peak_sustained x dram__cycles_elapsed.avg.per_second;
 *   L2 bytes = lts__t_bytes.sum (or 32 x lts__t_sectors.sum); L1 bytes =
 *       l1tex__t_bytes.sum (or 32 x the l1tex__t_sectors_pipe_* sums);
 *   arithmetic intensity = FLOP/s / DRAM bytes/s of the precision with the
 *       most FLOP/s; ridge point = its peak FLOP/s / peak DRAM bytes/s;
 *       memory-bound below the ridge, compute-bound above; % of roofline
 *       = achieved / min(peak FLOP/s, intensity x peak bytes/s).
 * Every number is NAN when the report lacks what it needs; missing names
 * the first metric that was not found.
 */
#ifndef GPULENS_ROOFLINE_H
#define GPULENS_ROOFLINE_H

#include <stdint.h>

struct report;

enum roofline_prec {
	ROOF_FP64 = 0,
	ROOF_FP32,
	ROOF_FP16,
	ROOF_NPREC
};

enum roofline_bound {
	ROOF_UNKNOWN = 0,
	ROOF_MEMORY,
	ROOF_COMPUTE,
};

struct roofline {
	double		 duration_ns;
	double		 flops[ROOF_NPREC];	/* achieved FLOP/s */
	double		 peak_flops[ROOF_NPREC];
	double		 dram_bytes, l2_bytes, l1_bytes;
	double		 dram_bw, l2_bw, l1_bw;	/* achieved bytes/s */
	double		 peak_dram_bw, peak_l2_bw, peak_l1_bw;
	int		 prec;		/* enum roofline_prec, -1: no FP work */
	double		 intensity;	/* FLOP per DRAM byte */
	double		 ridge;		/* FLOP per byte at the ridge */
	int		 bound;		/* enum roofline_bound */
	double		 roofline_pct;	/* % of the attainable FLOP/s */
	const char	*missing;	/* a metric not found, or NULL */
};

/* Computes the roofline of a launch; fields the report cannot give are
 * NAN. */
void		 roofline_compute(const struct report *, uint32_t launch,
		    struct roofline *);
/* "fp64", "fp32", "fp16", or NULL. */
const char	*roofline_prec_name(int);
/* "memory", "compute", or NULL. */
const char	*roofline_bound_name(int);

#endif
