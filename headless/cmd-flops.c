/*
 * cmd-flops: `gpulens flops TRACE` reports the FLOPs of matrix,
 * convolution and attention operators (from the trace's shapes or its
 * "flops" arguments; sources/kineto-ops.c), the achieved FLOP/s and the
 * model FLOPs utilisation (analysis/flops.h, the peaks of
 * analysis/peak.h), per iteration (default), per NVTX family, per kernel
 * name or per operator (--by iter|nvtx|kernel|op).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flops.h"
#include "analysis/iters.h"
#include "analysis/peak.h"
#include "headless/cmd.h"
#include "headless/opts.h"
#include "headless/out.h"
#include "headless/vopt.h"
#include "model/nvtxfam.h"
#include "util/hmap.h"
#include "util/strpool.h"
#include "util/rowkey.h"
#include "util/sort.h"
#include "util/xmalloc.h"

#define FLOPS_OPTS	(OPT_OUTPUT | OPT_PAGE | OPT_BY | OPT_RANGE)

static cmd_run_t	flops_run;
static int	flops_check_num(const char *, const char *, char **);

static const struct cmd_option flops_vopts[] = {
	{ "--by", "iter|nvtx|kernel|op", "per iteration (default), NVTX "
	    "family, kernel name or operator", CMD_OPT_AS, NULL },
	{ "--peak-tflops", "F", "peak TFLOP/s to measure MFU against, for "
	    "every data type (default: the GPU table)", CMD_OPT_OWN,
	    flops_check_num },
	{ "--flops-per-iter", "F", "FLOPs of one iteration, for traces "
	    "without shapes (--by iter)", CMD_OPT_OWN, flops_check_num },
	{ NULL, NULL, NULL, CMD_OPT_OWN, NULL }
};

const struct cmd_entry cmd_flops_entry = {
	.name = "flops",
	.usage = "gpulens flops [OPTIONS] TRACE",
	.help =
	"FLOPs of matrix, convolution and attention operators (PyTorch's\n"
	"\"flops\" argument, else their Input Dims as TraceLens counts them),\n"
	"attributed to the kernels each launched, with achieved TFLOP/s and\n"
	"model FLOPs utilisation against the GPU's peak for the data type\n"
	"(see MFU in gpulens(1)); per iteration, NVTX family, kernel name or\n"
	"operator (--by).",
	.args = { 1, -1, NULL },
	.input = CMD_IN_TRACES,
	.flags = CMD_ANSWER,
	.options = FLOPS_OPTS,
	.vopts = flops_vopts,
	.run = flops_run
};

static const char *flops_iter_columns[] = {
	"pid", "iter", "start_ns", "duration_ns", "flops", "tflops",
	"mfu_pct", "kernels", "name", NULL
};
static const char *flops_group_columns[] = {
	"name", "ops", "kernels", "gpu_ns", "flops", "tflops", "mfu_pct", NULL
};
static const char *flops_op_columns[] = {
	"event", "name", "dtype", "flops", "source", "counted", "kernels",
	"gpu_ns", "tflops", "mfu_pct", NULL
};
static const char *flops_kinds[OPK_COUNT] = {
	"none", "mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "conv",
	"attention"
};

static int
flops_check_num(const char *name, const char *v, char **cause)
{
	char	*end;
	double	 d;

	if (v == NULL) {
		*cause = xasprintf("%s needs a value", name);
		return -1;
	}
	d = strtod(v, &end);
	if (end == v || *end != '\0' || !isfinite(d) || d <= 0) {
		*cause = xasprintf("bad value for %s: '%s' (expected a "
		    "positive number)", name, v);
		return -1;
	}
	return 0;
}

/* FLOPs as an integer where they are one, else a number. */
static void
flops_put(cJSON *row, const char *key, double f)
{
	if (f == floor(f) && f < 9.2e18)
		out_int(row, key, (int64_t)f);
	else
		out_num(row, key, f);
}

/* TFLOP/s and MFU of flops (peak_ns of them at peak) over ns. */
static void
flops_rate(cJSON *row, double f, double peak_ns, int64_t ns, int peaked)
{
	out_num_or_null(row, "tflops", ns > 0, f / (double)ns / 1e3);
	out_num_or_null(row, "mfu_pct", ns > 0 && peaked,
	    100.0 * peak_ns / (double)ns);
}

struct flops_grp {
	uint32_t	 name;		/* string id, or 0 with label */
	uint64_t	 ops, kernels;
	int64_t		 gpu_ns;
	double		 flops, peak_ns;
	int		 unpeaked;
};

static struct flops_grp *
flops_grp_get(struct hmap *h, struct flops_grp **g, size_t *n, size_t *cap,
    uint32_t key)
{
	uint32_t	*slot;
	int		 isnew;

	slot = hmap_upsert(h, key, (uint32_t)*n, &isnew);
	if (isnew) {
		XGROW(*g, *cap, *n + 1);
		memset(&(*g)[*n], 0, sizeof **g);
		(*g)[*n].name = key;
		(*n)++;
	}
	return &(*g)[*slot];
}

/* The innermost enclosing range of an operator that is not one. */
static uint32_t
flops_family(const struct model *m, uint32_t gid, char *buf, size_t len)
{
	struct evref	 ev;
	uint32_t	 aux, g = gid;

	for (;;) {
		ev = model_ev(m, g);
		aux = m->tracks[ev.track].lane.aux[ev.idx];
		if (aux == NONE32 || aux >= m->nnvtx)
			break;
		if (g != gid && m->nvtx[aux].category != 2 &&
		    m->nvtx[aux].category != 3) {
			nvtx_family(model_str(m, model_ev_name(m, g)), buf,
			    len);
			return g;
		}
		if ((g = m->nvtx[aux].parent) == NONE32)
			break;
	}
	snprintf(buf, len, "(none)");
	return NONE32;
}

static void
flops_groups(const struct cmd_ctx *ctx, struct out *out,
    const struct flops_result *r, int bykernel)
{
	const struct model	*m = ctx->in->m;
	struct hmap		 h;
	struct flops_grp	*g = NULL, *x;
	size_t			 n = 0, cap = 0, i;
	uint32_t		 key;
	char			 buf[512], kb[600];
	const char		*nm;
	struct strpool		*fam;
	cJSON			*row;

	hmap_init(&h);
	fam = strpool_new();
	for (i = 0; i < r->nkern; i++) {
		const struct flops_kern *k = &r->kern[i];
		const struct flops_op *o = &r->ops[k->op];
		if (bykernel)
			key = model_ev_name(m, k->gid);
		else {
			flops_family(m, o->gid, buf, sizeof buf);
			key = strpool_intern0(fam, buf);
		}
		x = flops_grp_get(&h, &g, &n, &cap, key);
		x->kernels++;
		x->gpu_ns = sat_add64(x->gpu_ns, model_ev_end(m, k->gid) -
		    model_ev_start(m, k->gid));
		x->flops += k->flops;
		x->peak_ns += k->peak_ns;
		if (o->peak <= 0)
			x->unpeaked = 1;
	}
	/* Operators per group (counted ones with kernels). */
	for (i = 0; i < r->nops; i++) {
		const struct flops_op *o = &r->ops[i];
		if (!o->counted || o->nkernels == 0 || bykernel)
			continue;
		flops_family(m, o->gid, buf, sizeof buf);
		key = strpool_intern0(fam, buf);
		flops_grp_get(&h, &g, &n, &cap, key)->ops++;
	}
	for (i = 0; i < n; i++) {
		x = &g[i];
		row = out_row(out);
		nm = bykernel ? model_str(m, x->name) : strpool_get(fam,
		    x->name);
		if (bykernel) {
			size_t ko = 0;
			rowkey_buf(kb, sizeof kb, "kernel", NULL);
			ko = strlen(kb);
			rowkey_name(kb, sizeof kb, &ko, "name", nm);
		} else
			rowkey_buf(kb, sizeof kb, "nvtx", "path=%s", nm);
		out_str(row, "key", kb);
		out_str(row, "name", nm);
		if (!bykernel)
			out_int(row, "ops", (int64_t)x->ops);
		out_int(row, "kernels", (int64_t)x->kernels);
		out_int(row, "gpu_ns", x->gpu_ns);
		flops_put(row, "flops", x->flops);
		flops_rate(row, x->flops, x->peak_ns, x->gpu_ns, !x->unpeaked);
	}
	out->columns = flops_group_columns;
	out->default_sort = "flops:desc";
	hmap_free(&h);
	strpool_free(fam);
	free(g);
}

static void
flops_ops(const struct cmd_ctx *ctx, struct out *out,
    const struct flops_result *r)
{
	const struct model	*m = ctx->in->m;
	const struct op_info	*oi;
	const struct flops_op	*o;
	size_t			 i;
	int64_t			 base = ctx->o->absolute ? 0 : m->origin_ns;
	char			 kb[64];
	cJSON			*row;

	for (i = 0; i < r->nops; i++) {
		o = &r->ops[i];
		oi = &m->ops[o->op];
		if (o->gid == NONE32)
			continue;
		row = out_row(out);
		rowkey_buf(kb, sizeof kb, "ev", "id=%u", o->gid);
		out_str(row, "key", kb);
		out_int(row, "event", o->gid);
		out_str(row, "name", model_str(m, model_ev_name(m, o->gid)));
		out_str(row, "op", flops_kinds[oi->kind < OPK_COUNT ?
		    oi->kind : 0]);
		out_int(row, "start_ns", model_ev_start(m, o->gid) - base);
		out_str(row, "input_type", model_str(m, oi->dtype));
		out_str(row, "dtype", peak_dtype_name(o->dtype));
		flops_put(row, "flops", oi->flops);
		out_str(row, "source", oi->flags & OPF_ARG ? "arg" : "shapes");
		out_bool(row, "counted", o->counted);
		out_int(row, "kernels", o->nkernels);
		out_int(row, "gpu_ns", o->gpu_ns);
		out_num_or_null(row, "peak_tflops", o->peak > 0, o->peak);
		flops_rate(row, oi->flops, o->peak > 0 ? oi->flops /
		    (o->peak * 1e3) : 0, o->gpu_ns, o->peak > 0);
	}
	out->columns = flops_op_columns;
	out->default_sort = "start_ns:asc";
}

static const struct iters *flops_sort_iters;

static int
flops_iter_cmp(const void *a, const void *b)
{
	uint32_t	 i = *(const uint32_t *)a, j = *(const uint32_t *)b;

	return sort_lex3(flops_sort_iters->v[i].start,
	    flops_sort_iters->v[j].start, i, j, 0, 0);
}

/* The first used device's row, for --flops-per-iter. */
static double
flops_dev_peak(const struct model *m, double override)
{
	const struct peak_row	*pr;
	size_t			 d;

	if (override > 0)
		return override;
	for (d = 0; d < m->ndevices; d++)
		if (m->devices[d].used && (pr = peak_lookup(m,
		    (uint32_t)d)) != NULL)
			return pr->tflops[PD_BF16];
	return 0;
}

static int
flops_iters(const struct cmd_ctx *ctx, struct out *out,
    const struct flops_result *r, double per_iter, double override,
    char **cause)
{
	const struct model	*m = ctx->in->m;
	struct iters		 it;
	double			*fl, *pk, peak;
	uint64_t		*nk;
	size_t			 i, j, lo, hi, mid;
	int64_t			 s, base = ctx->o->absolute ? 0 : m->origin_ns;
	uint32_t		*ord;
	char			 kb[64];
	cJSON			*row;
	int			 unpeaked = r->nunpeaked > 0;

	if (iters_find(m, ctx->o->range, &it, cause) != 0)
		return -1;
	fl = xcalloc(it.n + 1, sizeof *fl);
	pk = xcalloc(it.n + 1, sizeof *pk);
	nk = xcalloc(it.n + 1, sizeof *nk);
	ord = xcalloc(it.n + 1, sizeof *ord);
	/* Iterations by start (they may overlap across processes: each
	 * kernel goes to the last one starting at or before it). */
	for (i = 0; i < it.n; i++)
		ord[i] = (uint32_t)i;
	flops_sort_iters = &it;
	qsort(ord, it.n, sizeof *ord, flops_iter_cmp);
	for (i = 0; i < r->nkern && per_iter <= 0; i++) {
		s = model_ev_start(m, r->kern[i].gid);
		lo = 0;
		hi = it.n;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (it.v[ord[mid]].start <= s)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* The latest-starting iteration that holds the kernel. */
		while (lo > 0 && s >= it.v[ord[lo - 1]].end)
			lo--;
		if (lo == 0)
			continue;
		j = ord[lo - 1];
		fl[j] += r->kern[i].flops;
		pk[j] += r->kern[i].peak_ns;
		nk[j]++;
	}
	peak = flops_dev_peak(m, override);
	for (i = 0; i < it.n; i++) {
		const struct iter *v = &it.v[i];
		int64_t dur = v->end - v->start;
		row = out_row(out);
		if (v->process != NONE32 && m->processes[v->process].rank >= 0)
			rowkey_buf(kb, sizeof kb, "iter", "pid=%u|iter=%u|rank=%d",
			    m->processes[v->process].pid, v->index,
			    m->processes[v->process].rank);
		else
			rowkey_buf(kb, sizeof kb, "iter", "pid=%u|iter=%u",
			    v->process != NONE32 ? m->processes[v->process].pid :
			    0, v->index);
		out_str(row, "key", kb);
		if (v->process != NONE32)
			out_int(row, "pid", m->processes[v->process].pid);
		else
			cJSON_AddNullToObject(row, "pid");
		out_int(row, "iter", v->index);
		out_str(row, "name", model_str(m, v->name));
		out_int(row, "start_ns", v->start - base);
		out_int(row, "duration_ns", dur);
		out_int(row, "kernels", (int64_t)nk[i]);
		if (per_iter > 0) {
			flops_put(row, "flops", per_iter);
			flops_rate(row, per_iter, peak > 0 ? per_iter /
			    (peak * 1e3) : 0, dur, peak > 0);
		} else {
			flops_put(row, "flops", fl[i]);
			flops_rate(row, fl[i], pk[i], dur, !unpeaked);
		}
	}
	if (it.n == 0)
		out_warn(out, "no_iterations", "no repeating NVTX range or "
		    "periodic kernel found");
	out_str(out->aux, "iter_method", it.method == ITERS_NVTX ? "nvtx" :
	    it.method == ITERS_KERNEL ? "kernel" : "none");
	out->columns = flops_iter_columns;
	out->default_sort = "start_ns:asc";
	free(ord);
	free(fl);
	free(pk);
	free(nk);
	iters_free(&it);
	return 0;
}

static int
flops_run(const struct cmd_ctx *ctx, struct out *out, const char **code,
    char **cause)
{
	const struct model	*m = ctx->in->m;
	const struct opts	*o = ctx->o;
	const struct peak_row	*pr;
	struct flops_result	 r;
	const char		*v, *by = o->by != NULL ? o->by : "iter";
	double			 override = 0, per_iter = 0;
	size_t			 d, nused = 0;
	int			 rc = 0;
	cJSON			*devs, *dj, *pj;
	int			 k;

	if (strcmp(by, "iter") != 0 && strcmp(by, "nvtx") != 0 &&
	    strcmp(by, "kernel") != 0 && strcmp(by, "op") != 0) {
		*cause = xasprintf("bad value for --by: '%s' (expected iter, "
		    "nvtx, kernel or op)", by);
		return -1;
	}
	if ((v = vopt_get(ctx->v, ctx->nv, "--peak-tflops")) != NULL)
		override = strtod(v, NULL);
	if ((v = vopt_get(ctx->v, ctx->nv, "--flops-per-iter")) != NULL)
		per_iter = strtod(v, NULL);
	if (per_iter > 0 && strcmp(by, "iter") != 0) {
		*cause = xstrdup("--flops-per-iter needs --by iter");
		return -1;
	}
	flops_compute(m, override, &r);
	if (strcmp(by, "op") == 0)
		flops_ops(ctx, out, &r);
	else if (strcmp(by, "kernel") == 0 || strcmp(by, "nvtx") == 0)
		flops_groups(ctx, out, &r, strcmp(by, "kernel") == 0);
	else if (flops_iters(ctx, out, &r, per_iter, override, cause) != 0) {
		*code = "not_found";
		rc = -1;
		goto done;
	}
	flops_put(out->aux, "total_flops", r.total);
	out_int(out->aux, "operators", (int64_t)r.nops);
	out_int(out->aux, "counted_operators", (int64_t)r.ncounted);
	out_int(out->aux, "kernels", (int64_t)r.nkern);
	if (override > 0)
		out_num(out->aux, "peak_tflops_override", override);
	else
		cJSON_AddNullToObject(out->aux, "peak_tflops_override");
	devs = cJSON_AddArrayToObject(out->aux, "devices");
	for (d = 0; d < m->ndevices; d++) {
		if (!m->devices[d].used)
			continue;
		nused++;
		dj = cJSON_CreateObject();
		out_int(dj, "device", m->devices[d].source_id);
		out_str(dj, "name", model_str(m, m->devices[d].name));
		pr = peak_lookup(m, (uint32_t)d);
		if (pr != NULL) {
			out_str(dj, "peak_row", pr->label);
			pj = cJSON_AddObjectToObject(dj, "peak_tflops");
			for (k = 1; k < PD_N; k++)
				out_num(pj, peak_dtype_name(k), pr->tflops[k]);
		} else
			cJSON_AddNullToObject(dj, "peak_row");
		cJSON_AddItemToArray(devs, dj);
	}
	if (m->nops == 0 && per_iter <= 0)
		out_warn(out, "no_flops", "no operator FLOPs: the trace "
		    "records no shapes (record_shapes) or flops (with_flops) "
		    "of matrix, convolution or attention operators; give "
		    "--flops-per-iter");
	else if (r.nunpeaked > 0 && override <= 0)
		out_warn(out, "no_peak", "%zu counted operators have no peak "
		    "for their GPU and data type: their MFU is null; give "
		    "--peak-tflops", r.nunpeaked);
	if (m->nops > 0 && strcmp(by, "op") != 0)
		out_next(out, "gpulens flops %s --by op",
		    out_q(out, o->args[0]));
	(void)nused;
done:
	flops_free(&r);
	return rc;
}
