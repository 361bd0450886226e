/*
 * roofline: roofline numbers of a launch from its metrics (see
 * roofline.h). Only arithmetic on what the report holds; nothing here
 * knows the GPU.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/roofline.h"

#define ROOF_SECTOR_BYTES	32.0

static const char *const roof_prefix[ROOF_NPREC] = { "d", "f", "h" };

static const char *const roof_l1_sectors[] = {
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
	"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
	"l1tex__t_sectors_pipe_tex_mem_texture.sum",
	"l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum",
	"l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum",
	"l1tex__t_sectors_pipe_tex_mem_surface_op_atom.sum",
	"l1tex__t_sectors_pipe_tex_mem_surface_op_red.sum",
};

struct roof_ctx {
	const struct report	*r;
	uint32_t		 launch;
	const char		*missing;
};

/* A metric's value, NAN (and noted) when absent. */
static double
roof_get(struct roof_ctx *c, const char *name)
{
	double	v;

	if (report_metric_num(c->r, c->launch, name, &v) == 0)
		return v;
	if (c->missing == NULL)
		c->missing = name;	/* always a string literal */
	return NAN;
}

static double
roof_opt(struct roof_ctx *c, const char *name)
{
	double	v;

	if (report_metric_num(c->r, c->launch, name, &v) == 0)
		return v;
	return NAN;
}

/* Achieved FLOP/s of one precision. */
static double
roof_flops(struct roof_ctx *c, int p, double smsp_hz, double dur_s)
{
	static const char *const ops[3] = { "add", "mul", "fma" };
	char	 name[128];
	double	 v, sum = 0, cnt = 0;
	int	 k, have = 0, havecnt = 0;

	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof name, "smsp__sass_thread_inst_executed_"
		    "op_%s%s_pred_on.sum.per_cycle_elapsed", roof_prefix[p],
		    ops[k]);
		if (!isnan(v = roof_opt(c, name))) {
			sum += k == 2 ? 2 * v : v;
			have++;
		}
		snprintf(name, sizeof name, "smsp__sass_thread_inst_executed_"
		    "op_%s%s_pred_on.sum", roof_prefix[p], ops[k]);
		if (!isnan(v = roof_opt(c, name))) {
			cnt += k == 2 ? 2 * v : v;
			havecnt++;
		}
	}
	if (have == 3 && !isnan(smsp_hz))
		return sum * smsp_hz;
	if (havecnt == 3 && dur_s > 0)
		return cnt / dur_s;
	return NAN;
}

static double
roof_peak_flops(struct roof_ctx *c, int p, double sm_hz)
{
	char	name[128];
	double	v;

	snprintf(name, sizeof name, "sm__sass_thread_inst_executed_op_%sfma_"
	    "pred_on.sum.peak_sustained", roof_prefix[p]);
	v = roof_opt(c, name);
	if (isnan(v) || isnan(sm_hz))
		return NAN;
	return 2 * v * sm_hz;
}

void
roofline_compute(const struct report *r, uint32_t launch,
    struct roofline *o)
{
	struct roof_ctx	 c;
	double		 dur_s, smsp_hz, sm_hz, v, sum, best, attain;
	size_t		 k;
	int		 p, have;

	memset(&c, 0, sizeof c);
	c.r = r;
	c.launch = launch;
	o->duration_ns = roof_get(&c, "gpu__time_duration.sum");
	dur_s = o->duration_ns / 1e9;
	smsp_hz = roof_opt(&c, "smsp__cycles_elapsed.avg.per_second");
	sm_hz = roof_opt(&c, "sm__cycles_elapsed.avg.per_second");
	if (isnan(sm_hz))
		sm_hz = smsp_hz;
	if (isnan(smsp_hz))
		smsp_hz = sm_hz;
	for (p = 0; p < ROOF_NPREC; p++) {
		o->flops[p] = roof_flops(&c, p, smsp_hz, dur_s);
		o->peak_flops[p] = roof_peak_flops(&c, p, sm_hz);
	}
	if (isnan(o->flops[ROOF_FP32]) && c.missing == NULL)
		c.missing = "smsp__sass_thread_inst_executed_op_ffma_pred_on."
		    "sum.per_cycle_elapsed";

	/* DRAM. */
	o->dram_bw = roof_opt(&c, "dram__bytes.sum.per_second");
	o->dram_bytes = roof_opt(&c, "dram__bytes.sum");
	if (isnan(o->dram_bytes)) {
		double rd = roof_opt(&c, "dram__bytes_read.sum");
		double wr = roof_opt(&c, "dram__bytes_write.sum");
		if (!isnan(rd) && !isnan(wr))
			o->dram_bytes = rd + wr;
	}
	if (isnan(o->dram_bytes) && !isnan(o->dram_bw) && dur_s > 0)
		o->dram_bytes = o->dram_bw * dur_s;
	if (isnan(o->dram_bw) && !isnan(o->dram_bytes) && dur_s > 0)
		o->dram_bw = o->dram_bytes / dur_s;
	if (isnan(o->dram_bw))
		(void)roof_get(&c, "dram__bytes.sum.per_second");
	v = roof_opt(&c, "dram__bytes.sum.peak_sustained");
	o->peak_dram_bw = v * roof_opt(&c,
	    "dram__cycles_elapsed.avg.per_second");

	/* L2. */
	o->l2_bytes = roof_opt(&c, "lts__t_bytes.sum");
	if (isnan(o->l2_bytes) &&
	    !isnan(v = roof_opt(&c, "lts__t_sectors.sum")))
		o->l2_bytes = v * ROOF_SECTOR_BYTES;
	o->l2_bw = roof_opt(&c, "lts__t_bytes.sum.per_second");
	if (isnan(o->l2_bw) &&
	    !isnan(v = roof_opt(&c, "lts__t_sectors.sum.per_second")))
		o->l2_bw = v * ROOF_SECTOR_BYTES;
	if (isnan(o->l2_bw) && !isnan(o->l2_bytes) && dur_s > 0)
		o->l2_bw = o->l2_bytes / dur_s;
	o->peak_l2_bw = roof_opt(&c, "lts__t_bytes.sum.peak_sustained") *
	    roof_opt(&c, "lts__cycles_elapsed.avg.per_second");

	/* L1. */
	o->l1_bytes = roof_opt(&c, "l1tex__t_bytes.sum");
	if (isnan(o->l1_bytes)) {
		sum = 0;
		have = 0;
		for (k = 0; k < sizeof roof_l1_sectors /
		    sizeof roof_l1_sectors[0]; k++) {
			if (!isnan(v = roof_opt(&c, roof_l1_sectors[k]))) {
				sum += v;
				have++;
			}
		}
		if (have > 0)
			o->l1_bytes = sum * ROOF_SECTOR_BYTES;
	}
	o->l1_bw = roof_opt(&c, "l1tex__t_bytes.sum.per_second");
	if (isnan(o->l1_bw) && !isnan(o->l1_bytes) && dur_s > 0)
		o->l1_bw = o->l1_bytes / dur_s;
	o->peak_l1_bw = roof_opt(&c, "l1tex__t_bytes.sum.peak_sustained") *
	    roof_opt(&c, "l1tex__cycles_elapsed.avg.per_second");

	/* The point and the roof. */
	o->prec = -1;
	best = 0;
	for (p = 0; p < ROOF_NPREC; p++) {
		if (!isnan(o->flops[p]) && o->flops[p] > best) {
			best = o->flops[p];
			o->prec = p;
		}
	}
	o->intensity = o->ridge = o->roofline_pct = NAN;
	o->bound = ROOF_UNKNOWN;
	p = o->prec >= 0 ? o->prec : ROOF_FP32;
	if (!isnan(o->peak_flops[p]) && o->peak_dram_bw > 0)
		o->ridge = o->peak_flops[p] / o->peak_dram_bw;
	if (o->prec >= 0 && o->dram_bw > 0) {
		o->intensity = best / o->dram_bw;
		if (!isnan(o->ridge))
			o->bound = o->intensity < o->ridge ? ROOF_MEMORY :
			    ROOF_COMPUTE;
		if (!isnan(o->peak_flops[p]) && o->peak_dram_bw > 0) {
			attain = o->intensity * o->peak_dram_bw;
			if (attain > o->peak_flops[p])
				attain = o->peak_flops[p];
			if (attain > 0)
				o->roofline_pct = 100 * best / attain;
		}
	}
	o->missing = c.missing;
}

const char *
roofline_prec_name(int p)
{
	switch (p) {
	case ROOF_FP64:
		return "fp64";
	case ROOF_FP32:
		return "fp32";
	case ROOF_FP16:
		return "fp16";
	default:
		return NULL;
	}
}

const char *
roofline_bound_name(int b)
{
	switch (b) {
	case ROOF_MEMORY:
		return "memory";
	case ROOF_COMPUTE:
		return "compute";
	default:
		return NULL;
	}
}
