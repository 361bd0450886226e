/*
 * kineto-ops: the floating-point work of PyTorch's matrix, convolution and
 * attention operators, from the arguments record_shapes and with_flops
 * write on cpu_op events, kept as model op_info records (model.h).
 *
 * The count is the trace's own "flops" argument where with_flops wrote it
 * (OPF_ARG), else worked out from "Input Dims" (and "Concrete Inputs" for
 * strides, padding and causal masks) as TraceLens's perf model does
 * (TraceLens/PerfModel/perf_model.py), with M, N, K the GEMM sizes:
 *   aten::mm        A (M,K), B (K,N)                 2MNK
 *   aten::addmm     C, A (M,K), B (K,N)              2MNK + MN
 *   aten::bmm       A (b,M,K), B (b,K,N)             b 2MNK
 *   aten::baddbmm   C, A (b,M,K), B (b,K,N)          b (2MNK + MN)
 *   aten::matmul    A (...,M,K), B (...,K,N)         2 batch MNK, batch the
 *                   broadcast of the leading dims (a 1-D operand has M or N
 *                   1) -- not in TraceLens, which counts its mm/bmm child
 *   aten::linear    X (...,K), W (N,K), bias         2MNK (+ MN with a
 *                   bias), M the product of X's leading dims -- not in
 *                   TraceLens either (its addmm/mm child)
 *   convolution     aten::convolution, aten::_convolution (input, weight,
 *                   bias, stride, padding, dilation, transposed,
 *                   output_padding, groups) and aten::conv1d/2d/3d (no
 *                   transposed): 2 prod(W[1:]) prod(out) (+ prod(out) with
 *                   a bias); transposed: 2 prod(W[1:]) prod(input)
 *   attention       aten::scaled_dot_product_attention, its
 *                   _flash/_efficient/_cudnn variants,
 *                   aten::_flash_attention_forward,
 *                   aten::_efficient_attention_forward,
 *                   flash_attn::_flash_attn_forward, FlashAttnFunc:
 *                   B H_q (2 N_q N_kv d_qk + 2 N_q N_kv d_v), halved when
 *                   causal and N_q == N_kv
 * The data type is the first matrix operand's "Input type" (A's, B's for
 * addmm and baddbmm). An operator whose arguments do not fit (missing,
 * another rank, negative or huge sizes, a count beyond OP_FLOPS_MAX) gets
 * no record. Outer operators
 * (linear around addmm) get one too; the analysis counts the innermost
 * (analysis/flops.h).
 */

#include "config.h"
#include <math.h>
#include <string.h>
#include "model/builder.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"

#define OP_MAXT		10	/* operands read */
#define OP_MAXD		8	/* dims per operand */
#define OP_DIM_MAX	9007199254740992.0	/* 2^53 */
#define OP_FLOPS_MAX	1e24	/* per operator; beyond is not a count */

struct opname {
	const char	*name;
	uint8_t		 kind;
	int8_t		 qkv;		/* attention: 1 (B,N,H,d), 0 (B,H,N,d) */
	int8_t		 causal;	/* attention: "Concrete Inputs" index */
};

static const struct opname kineto_opnames[] = {
	{ "aten::mm", OPK_MM, 0, 0 },
	{ "aten::addmm", OPK_ADDMM, 0, 0 },
	{ "aten::bmm", OPK_BMM, 0, 0 },
	{ "aten::baddbmm", OPK_BADDBMM, 0, 0 },
	{ "aten::matmul", OPK_MATMUL, 0, 0 },
	{ "aten::linear", OPK_LINEAR, 0, 0 },
	{ "aten::convolution", OPK_CONV, 1, 0 },
	{ "aten::_convolution", OPK_CONV, 1, 0 },
	{ "aten::conv1d", OPK_CONV, 0, 0 },
	{ "aten::conv2d", OPK_CONV, 0, 0 },
	{ "aten::conv3d", OPK_CONV, 0, 0 },
	{ "aten::scaled_dot_product_attention", OPK_SDPA, 0, 5 },
	{ "aten::_scaled_dot_product_flash_attention", OPK_SDPA, 0, 4 },
	{ "aten::_scaled_dot_product_efficient_attention", OPK_SDPA, 0, 6 },
	{ "aten::_scaled_dot_product_cudnn_attention", OPK_SDPA, 0, 6 },
	{ "aten::_flash_attention_forward", OPK_SDPA, 1, 8 },
	{ "aten::_efficient_attention_forward", OPK_SDPA, 1, -9 },
	{ "flash_attn::_flash_attn_forward", OPK_SDPA, 1, 5 },
	{ "FlashAttnFunc", OPK_SDPA, 1, 5 },
	{ NULL, 0, 0, 0 }
};

static const struct opname *
kineto_opname(const char *s, size_t n)
{
	const struct opname	*o;

	for (o = kineto_opnames; o->name != NULL; o++)
		if (strlen(o->name) == n && memcmp(o->name, s, n) == 0)
			return o;
	return NULL;
}

int
kineto_op_kind(const char *s, size_t n)
{
	const struct opname	*o = kineto_opname(s, n);

	return o != NULL ? o->kind : OPK_NONE;
}

/* The arguments, parsed. */
struct opargs {
	double		 dim[OP_MAXT][OP_MAXD];
	int		 rank[OP_MAXT];	/* -1: not an array of numbers */
	int		 ntensor;
	const char	*type[OP_MAXT];	/* "Input type" spans */
	size_t		 typelen[OP_MAXT];
	int		 ntype;
	const char	*conc[OP_MAXT];	/* "Concrete Inputs" spans */
	size_t		 conclen[OP_MAXT];
	int		 nconc;
	double		 flops;
	int		 has_flops;
};

static const char *
op_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* A non-negative integer; NULL if not one. */
static const char *
op_int(const char *p, const char *e, double *v)
{
	double	x = 0;

	if (p >= e || *p < '0' || *p > '9')
		return NULL;
	while (p < e && *p >= '0' && *p <= '9')
		x = x * 10 + (*p++ - '0');
	if (p < e && (*p == '.' || *p == 'e' || *p == 'E'))
		return NULL;
	if (x > OP_DIM_MAX)
		return NULL;
	*v = x;
	return p;
}

/* "Input Dims": [[2, 3], [], ...]; operands past OP_MAXT ignored. */
static void
op_dims(const char *p, size_t len, struct opargs *a)
{
	const char	*e = p + len;
	int		 t, d;
	double		 v;

	p = op_ws(p, e);
	if (p >= e || *p++ != '[')
		return;
	for (t = 0; ; t++) {
		p = op_ws(p, e);
		if (p < e && *p == ']')
			break;
		if (p >= e || *p != '[') {
			a->ntensor = t;
			return;		/* not a list of lists: stop here */
		}
		p++;
		d = 0;
		if (t < OP_MAXT)
			a->rank[t] = 0;
		for (;;) {
			p = op_ws(p, e);
			if (p < e && *p == ']') {
				p++;
				break;
			}
			if ((p = op_int(p, e, &v)) == NULL) {
				if (t < OP_MAXT)
					a->rank[t] = -1;
				a->ntensor = t < OP_MAXT ? t + 1 : OP_MAXT;
				return;
			}
			if (t < OP_MAXT && d < OP_MAXD)
				a->dim[t][d] = v;
			d++;
			p = op_ws(p, e);
			if (p < e && *p == ',')
				p++;
		}
		if (t < OP_MAXT)
			a->rank[t] = d <= OP_MAXD ? d : -1;
		p = op_ws(p, e);
		if (p < e && *p == ',')
			p++;
	}
	a->ntensor = t < OP_MAXT ? t : OP_MAXT;
}

/* ["a", "b", ...]: the spans of the first OP_MAXT strings (raw text). */
static int
op_strs(const char *p, size_t len, const char **s, size_t *n)
{
	const char	*e = p + len, *q;
	int		 k = 0;

	p = op_ws(p, e);
	if (p >= e || *p++ != '[')
		return 0;
	while (k < OP_MAXT) {
		p = op_ws(p, e);
		if (p >= e || *p != '"')
			break;
		q = ++p;
		while (p < e && *p != '"')
			p += *p == '\\' && p + 1 < e ? 2 : 1;
		if (p >= e)
			break;
		s[k] = q;
		n[k++] = (size_t)(p - q);
		p = op_ws(p + 1, e);
		if (p < e && *p == ',')
			p++;
	}
	return k;
}

static int
op_is(const struct opargs *a, int i, const char *lit)
{
	return i < a->nconc && a->conclen[i] == strlen(lit) &&
	    memcmp(a->conc[i], lit, a->conclen[i]) == 0;
}

/* "[1, 2]", "1" or "" (def) into v[nd]; -1 if none fits. */
static int
op_tuple(const struct opargs *a, int i, int nd, double def, double *v)
{
	const char	*p, *e;
	double		 x;
	int		 k = 0, j;

	for (j = 0; j < nd; j++)
		v[j] = def;
	if (i < 0 || i >= a->nconc || a->conclen[i] == 0)
		return 0;
	p = a->conc[i];
	e = p + a->conclen[i];
	p = op_ws(p, e);
	if (p < e && *p == '[')
		p++;
	while (k < OP_MAXD) {
		p = op_ws(p, e);
		if ((p = op_int(p, e, &x)) == NULL)
			break;
		v[k++] = x;
		p = op_ws(p, e);
		if (p < e && *p == ',')
			p++;
	}
	if (k == 1)
		for (j = 1; j < nd; j++)
			v[j] = v[0];
	else if (k != nd)
		return -1;
	return 0;
}

static double
op_prod(const double *d, int n)
{
	double	p = 1;
	int	i;

	for (i = 0; i < n; i++)
		p *= d[i];
	return p;
}

/* 2 batch M N K of a matmul of A (rank ra) by B (rank rb). */
static int
op_matmul(const struct opargs *a, int ia, int ib, double *f)
{
	const double	*A = a->dim[ia], *B = a->dim[ib];
	int		 ra = a->rank[ia], rb = a->rank[ib], i, la, lb;
	double		 M, N, K, batch = 1, x, y;

	if (ra < 1 || rb < 1)
		return -1;
	K = A[ra - 1];
	M = ra >= 2 ? A[ra - 2] : 1;
	N = rb >= 2 ? B[rb - 1] : 1;
	la = ra > 2 ? ra - 2 : 0;
	lb = rb > 2 ? rb - 2 : 0;
	for (i = 0; i < (la > lb ? la : lb); i++) {
		x = i < la ? A[la - 1 - i] : 1;
		y = i < lb ? B[lb - 1 - i] : 1;
		batch *= x > y ? x : y;
	}
	*f = 2 * batch * M * N * K;
	return 0;
}

static int
op_conv(const struct opargs *a, int full, double *f)
{
	const double	*x = a->dim[0], *w = a->dim[1];
	double		 out[OP_MAXD], s[OP_MAXD], pd[OP_MAXD], dl[OP_MAXD];
	double		 op[OP_MAXD], per, groups = 1;
	int		 nd, i, tr, bias;

	if (a->ntensor < 2 || a->rank[0] < 3 || a->rank[0] != a->rank[1])
		return -1;
	nd = a->rank[0] - 2;
	bias = a->ntensor > 2 && a->rank[2] > 0;
	tr = full && op_is(a, 6, "True");
	if (op_tuple(a, 3, nd, 1, s) != 0 || op_tuple(a, 4, nd, 0, pd) != 0 ||
	    op_tuple(a, 5, nd, 1, dl) != 0 ||
	    op_tuple(a, full ? 7 : -1, nd, 0, op) != 0)
		return -1;
	if (full && tr && op_tuple(a, 8, 1, 1, &groups) != 0)
		return -1;
	per = 2 * op_prod(w + 1, a->rank[1] - 1);
	out[0] = x[0];
	out[1] = tr ? w[1] * groups : w[0];
	for (i = 0; i < nd; i++) {
		if (tr)
			out[i + 2] = (x[i + 2] - 1) * s[i] - 2 * pd[i] +
			    dl[i] * (w[i + 2] - 1) + op[i] + 1;
		else {
			if (s[i] <= 0)
				return -1;
			out[i + 2] = floor((x[i + 2] + 2 * pd[i] - dl[i] *
			    (w[i + 2] - 1) - 1) / s[i]) + 1;
		}
		if (out[i + 2] < 0)
			return -1;
	}
	*f = (tr ? op_prod(x, a->rank[0]) : op_prod(out, nd + 2)) * per +
	    (bias ? op_prod(out, nd + 2) : 0);
	return 0;
}

static int
op_sdpa(const struct opargs *a, const struct opname *o, double *f)
{
	double	B, Hq, Nq, Nkv, dqk, dv;
	int	n = o->qkv ? 1 : 2, h = o->qkv ? 2 : 1, causal;

	if (a->ntensor < 3 || a->rank[0] != 4 || a->rank[1] != 4 ||
	    a->rank[2] != 4)
		return -1;
	B = a->dim[0][0];
	Hq = a->dim[0][h];
	Nq = a->dim[0][n];
	dqk = a->dim[0][3];
	Nkv = a->dim[1][n];
	dv = a->dim[2][3];
	if (o->causal < 0)	/* custom_mask_type: 0 none */
		causal = -o->causal < a->nconc && a->conclen[-o->causal] > 0 &&
		    !op_is(a, -o->causal, "0");
	else
		causal = op_is(a, o->causal, "True");
	*f = B * Hq * (2 * Nq * Nkv * dqk + 2 * Nq * Nkv * dv);
	if (causal && Nq == Nkv)
		*f /= 2;
	return 0;
}

static int
op_flops(const struct opargs *a, const struct opname *o, double *f, int *ti)
{
	*ti = 0;
	switch (o->kind) {
	case OPK_MM:
		if (a->ntensor < 2 || a->rank[0] != 2 || a->rank[1] != 2)
			return -1;
		*f = 2 * a->dim[0][0] * a->dim[1][1] * a->dim[0][1];
		return 0;
	case OPK_ADDMM:
		*ti = 1;
		if (a->ntensor < 3 || a->rank[1] != 2 || a->rank[2] != 2)
			return -1;
		*f = 2 * a->dim[1][0] * a->dim[2][1] * a->dim[1][1] +
		    a->dim[1][0] * a->dim[2][1];
		return 0;
	case OPK_BMM:
		if (a->ntensor < 2 || a->rank[0] != 3 || a->rank[1] != 3)
			return -1;
		*f = a->dim[0][0] * 2 * a->dim[0][1] * a->dim[1][2] *
		    a->dim[0][2];
		return 0;
	case OPK_BADDBMM:
		*ti = 1;
		if (a->ntensor < 3 || a->rank[1] != 3 || a->rank[2] != 3)
			return -1;
		*f = a->dim[1][0] * (2 * a->dim[1][1] * a->dim[2][2] *
		    a->dim[1][2] + a->dim[1][1] * a->dim[2][2]);
		return 0;
	case OPK_MATMUL:
		if (a->ntensor < 2)
			return -1;
		return op_matmul(a, 0, 1, f);
	case OPK_LINEAR:
		if (a->ntensor < 2 || a->rank[0] < 1 || a->rank[1] < 1 ||
		    a->rank[1] > 2)
			return -1;
		{
			double M = op_prod(a->dim[0], a->rank[0] - 1);
			double K = a->dim[0][a->rank[0] - 1];
			double N = a->rank[1] == 2 ? a->dim[1][0] : 1;
			*f = 2 * M * N * K + (a->ntensor > 2 && a->rank[2] > 0 ?
			    M * N : 0);
		}
		return 0;
	case OPK_CONV:
		return op_conv(a, o->qkv, f);
	case OPK_SDPA:
		return op_sdpa(a, o, f);
	}
	return -1;
}

void
kineto_op(struct kineto *k, const struct kev *e, uint32_t name, uint32_t nvtx)
{
	const struct opname		*o;
	const struct jsonscan_member	*mb;
	struct opargs			 a;
	struct op_info			 r;
	const char			*s;
	size_t				 i;
	double				 f;
	int				 ti;

	s = strpool_get(k->m->strs, name);
	if ((o = kineto_opname(s, strpool_len(k->m->strs, name))) == NULL)
		return;
	memset(&a, 0, sizeof a);
	for (i = 0; i < e->nargs; i++) {
		mb = &e->args[i];
		if (KEY(mb, "flops"))
			a.has_flops = jsonscan_double(&mb->val, &a.flops) == 0 &&
			    a.flops >= 0 && a.flops <= OP_FLOPS_MAX;
		else if (KEY(mb, "Input Dims") &&
		    mb->val.type == JSONSCAN_ARRAY)
			op_dims(mb->val.p, mb->val.len, &a);
		else if (KEY(mb, "Input type") &&
		    mb->val.type == JSONSCAN_ARRAY)
			a.ntype = op_strs(mb->val.p, mb->val.len, a.type,
			    a.typelen);
		else if (KEY(mb, "Concrete Inputs") &&
		    mb->val.type == JSONSCAN_ARRAY)
			a.nconc = op_strs(mb->val.p, mb->val.len, a.conc,
			    a.conclen);
	}
	memset(&r, 0, sizeof r);
	if (op_flops(&a, o, &f, &ti) != 0 || !(f >= 0 && f <= OP_FLOPS_MAX)) {
		if (!a.has_flops)
			return;
		ti = o->kind == OPK_ADDMM || o->kind == OPK_BADDBMM;
	}
	if (a.has_flops) {
		f = a.flops;
		r.flags |= OPF_ARG;
	}
	r.nvtx = nvtx;
	r.kind = o->kind;
	r.flops = f;
	if (ti < a.ntype && a.typelen[ti] > 0)
		r.dtype = builder_intern_n(k->b, a.type[ti], a.typelen[ti]);
	builder_op(k->b, &r);
}
