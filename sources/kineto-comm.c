/*
 * kineto-comm: the message sizes of NCCL/RCCL collectives whose kernels
 * carry no collective args (traces before PyTorch 2.1, where Kineto did not
 * copy record_param_comms' args onto the kernel), from the annotation
 * PyTorch records around each launch: with record_shapes, the
 * user_annotation "nccl:all_reduce" has "Input Dims" [[45310188]] and
 * "Input type" ["float"].
 *
 * While the file is read, kineto_comm_note() keeps, for each such
 * annotation (a user_annotation or cpu_op whose name contains "nccl" or
 * "rccl") whose tensors are all of one known element type, its input
 * elements (over its tensors, the sum of the products of their dims), its
 * type as written and its collective (the name after the library's
 * "nccl:" prefix), keyed by the event's index in the file, its rowid. Once
 * the model is built, kineto_comm_sizes() gives each communication kernel
 * without args those of the innermost noted annotation around its launch
 * on the launching thread (its launching call's start inside the range):
 * the kernel gets a kernel_info of its own, its fields plus comm_coll,
 * comm_dtype, comm_elem_size and comm_in_nelems, with KCOMM_IN | KCOMM_ANN.
 * Where a trace has both (PyTorch 2.1 and later, recorded with shapes),
 * the annotation's count is the kernel args' "In msg nelems" for every
 * collective the fixtures hold (all_reduce, broadcast, _allgather_base).
 *
 * The annotations record no group size and no output count: a bus
 * bandwidth is then known only where its factor does not depend on the
 * group, and AllGather and Gather, sized by their output, stay unsized.
 *
 * Ownership: the notes belong to struct kineto (kineto_comm_free()).
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/correlate.h"
#include "model/lane.h"
#include "sources/jsonscan.h"
#include "sources/kineto.h"
#include "sources/kineto-int.h"
#include "util/hmap.h"
#include "util/xmalloc.h"

#define KCOMM_MAXT	64		/* tensors read */
#define KCOMM_NMAX	(1ULL << 53)	/* elements at most */

struct kcomm_note {
	uint64_t	 nelems;
	uint32_t	 dtype;		/* the type as written */
	uint32_t	 coll;		/* the collective as named */
	uint8_t		 esize;
};

struct kcomm {
	struct hmap		 of;	/* rowid -> note */
	struct kcomm_note	*v;
	size_t			 n, cap;
};

static const char *
kcomm_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/*
 * "Input Dims": [[8, 1024, 8816], [4]]: the sum over the tensors of the
 * products of their dims into *n, their count into *nt. -1 where it is
 * not a list of lists of non-negative integers, or the sum passes
 * KCOMM_NMAX.
 */
static int
kcomm_dims(const char *p, size_t len, uint64_t *n, size_t *nt)
{
	const char	*e = p + len;
	uint64_t	 prod, d, sum = 0;

	*nt = 0;
	p = kcomm_ws(p, e);
	if (p >= e || *p++ != '[')
		return -1;
	for (;;) {
		p = kcomm_ws(p, e);
		if (p < e && *p == ']')
			break;
		if (p >= e || *p++ != '[')
			return -1;
		prod = 1;
		for (;;) {
			p = kcomm_ws(p, e);
			if (p < e && *p == ']') {
				p++;
				break;
			}
			if (p >= e || *p < '0' || *p > '9')
				return -1;
			for (d = 0; p < e && *p >= '0' && *p <= '9'; p++)
				if ((d = d * 10 + (uint64_t)(*p - '0')) >
				    KCOMM_NMAX)
					return -1;
			if (d != 0 && prod > KCOMM_NMAX / d)
				return -1;
			prod *= d;
			p = kcomm_ws(p, e);
			if (p < e && *p == ',')
				p++;
		}
		if ((sum += prod) > KCOMM_NMAX || ++*nt > KCOMM_MAXT)
			return -1;
		p = kcomm_ws(p, e);
		if (p < e && *p == ',')
			p++;
	}
	*n = sum;
	return 0;
}

/*
 * "Input type": ["float", "float"]: the first type's text into *s, *slen;
 * -1 unless there are nt of them, all the same.
 */
static int
kcomm_type(const char *p, size_t len, size_t nt, const char **s,
    size_t *slen)
{
	const char	*e = p + len, *q;
	size_t		 k = 0;

	p = kcomm_ws(p, e);
	if (p >= e || *p++ != '[')
		return -1;
	for (;;) {
		p = kcomm_ws(p, e);
		if (p < e && *p == ']')
			break;
		if (p >= e || *p++ != '"')
			return -1;
		for (q = p; q < e && *q != '"' && *q != '\\'; q++)
			;
		if (q >= e || *q != '"')
			return -1;	/* (no type name has an escape) */
		if (k == 0) {
			*s = p;
			*slen = (size_t)(q - p);
		} else if ((size_t)(q - p) != *slen ||
		    memcmp(p, *s, *slen) != 0)
			return -1;
		k++;
		p = kcomm_ws(q + 1, e);
		if (p < e && *p == ',')
			p++;
	}
	return k == nt && nt > 0 ? 0 : -1;
}

void
kineto_comm_note(struct kineto *k, const struct kev *e, uint32_t name)
{
	const struct jsonscan_member	*mb;
	const char			*s, *type = NULL, *c;
	struct kcomm_note		 nt;
	struct kcomm			*kc;
	size_t				 i, n, ntensor = 0, tlen = 0;
	int				 dims = -1;
	const struct jsonscan_val	*tv = NULL;

	memset(&nt, 0, sizeof nt);
	for (i = 0; i < e->nargs; i++) {
		mb = &e->args[i];
		if (KEY(mb, "Input Dims") && mb->val.type == JSONSCAN_ARRAY)
			dims = kcomm_dims(mb->val.p, mb->val.len, &nt.nelems,
			    &ntensor);
		else if (KEY(mb, "Input type") &&
		    mb->val.type == JSONSCAN_ARRAY)
			tv = &mb->val;
	}
	if (dims != 0 || tv == NULL ||
	    kcomm_type(tv->p, tv->len, ntensor, &type, &tlen) != 0 ||
	    (nt.esize = kineto_dtype_size(type, tlen)) == 0)
		return;
	nt.dtype = kineto_intern(k, type, tlen);
	/* "nccl:all_reduce" -> "all_reduce" */
	s = strpool_get(k->m->strs, name);
	n = strpool_len(k->m->strs, name);
	c = memchr(s, ':', n);
	nt.coll = c != NULL && c + 1 < s + n ?
	    kineto_intern(k, c + 1, (size_t)(s + n - c - 1)) : name;
	if ((kc = k->comm) == NULL) {
		kc = k->comm = xcalloc(1, sizeof *kc);
		hmap_init(&kc->of);
	}
	hmap_put(&kc->of, e->index, (uint32_t)kc->n);
	(void)XPUSH(kc->v, kc->cap, kc->n, nt);
}

/* The note of the innermost noted range around time t on thread th. */
static const struct kcomm_note *
kcomm_around(const struct model *m, const struct kcomm *kc, uint32_t th,
    int64_t t, uint32_t **buf, size_t *cap)
{
	const struct kcomm_note	*best = NULL;
	const struct lane	*l;
	size_t			 it, j, n;
	uint32_t		 u, x;
	int64_t			 span, bspan = INT64_MAX;
	int64_t			 row;

	for (it = model_thread_nvtx_begin(m, th);
	    (u = model_thread_nvtx_next(m, th, &it)) != NONE32;) {
		l = &m->tracks[u].lane;
		n = lane_stab(l, t, buf, cap);
		for (j = 0; j < n; j++) {
			span = l->end[(*buf)[j]] - l->start[(*buf)[j]];
			if (span >= bspan ||
			    (row = lane_rowid(l, (*buf)[j])) < 0 ||
			    (x = hmap_find(&kc->of, (uint64_t)row)) >= kc->n)
				continue;
			bspan = span;
			best = &kc->v[x];
		}
	}
	return best;
}

void
kineto_comm_sizes(struct kineto *k, struct model *m)
{
	const struct kcomm	*kc = k->comm;
	const struct kcomm_note	*nt;
	struct kernel_info	 ki;
	struct lane		*l;
	struct evref		 r;
	struct hmap		 made;	/* key(aux, note) -> new aux */
	uint32_t		 t, api, th, *buf = NULL, *aux;
	size_t			 i, cap = 0, kcap = m->nkernels;
	int			 isnew;

	if (kc == NULL || kc->n == 0)
		return;
	hmap_init(&made);
	for (t = 0; t < m->ntracks; t++) {
		if (m->tracks[t].type != TRACK_GPU)
			continue;
		l = &m->tracks[t].lane;
		for (i = 0; i < l->n; i++) {
			if (l->kind[i] != EV_KERNEL ||
			    !(l->flags[i] & EVF_COMM) ||
			    l->aux[i] >= m->nkernels)
				continue;
			ki = m->kernels[l->aux[i]];
			if ((ki.comm_flags & (KCOMM_IN | KCOMM_OUT)) != 0 ||
			    ki.comm_coll != 0 ||
			    (api = correlate_launch(m, model_gid(m, t,
			    (uint32_t)i))) == NONE32)
				continue;
			r = model_ev(m, api);
			if ((th = m->tracks[r.track].thread) == NONE32 ||
			    (nt = kcomm_around(m, kc, th,
			    m->tracks[r.track].lane.start[r.idx], &buf,
			    &cap)) == NULL)
				continue;
			aux = hmap_upsert(&made, hmap_key2(l->aux[i],
			    (uint64_t)(nt - kc->v)), (uint32_t)m->nkernels,
			    &isnew);
			if (isnew) {
				ki.comm_coll = nt->coll;
				ki.comm_dtype = nt->dtype;
				ki.comm_elem_size = nt->esize;
				ki.comm_in_nelems = nt->nelems;
				ki.comm_flags |= KCOMM_IN | KCOMM_ANN;
				XGROW(m->kernels, kcap, m->nkernels + 1);
				m->kernels[m->nkernels++] = ki;
			}
			l->aux[i] = *aux;
		}
	}
	hmap_free(&made);
	free(buf);
}

void
kineto_comm_free(struct kineto *k)
{
	if (k->comm == NULL)
		return;
	hmap_free(&k->comm->of);
	free(k->comm->v);
	free(k->comm);
	k->comm = NULL;
}
